/**
 * Request rules as data (docs/architecture.md, "The registry"; docs/rules.md).
 *
 * A rule about a request body is declared once, as a JSON Schema 2020-12
 * fragment the body must satisfy (an `if`/`then` on model, capability or mode;
 * `contains` with `minContains`/`maxContains`; `anyOf` of required sets;
 * `dependentRequired`; `maxLength`, `minItems`, `multipleOf`, `const`, ...),
 * with the catalogued error it answers and a message naming the field. From
 * that one declaration, `withRules` makes both:
 *
 * - the Zod check the mock runs: `holds(fragment, body)` evaluates the fragment
 *   on the parsed body (its defaults applied; a condition on a defaulted field
 *   matches an absent field exactly when the default would, so the parsed body
 *   and the raw body agree), and a body that breaks it gets a custom issue
 *   carrying the rule's error;
 * - the emitted request schema: the fragments under `allOf`, beside the
 *   object's own properties.
 *
 * Rules that read the account, the catalogue or earlier state (credits, voices
 * the account may use, ownership, concurrency) cannot be in a schema: an
 * operation lists them as `stateRules`, emitted as `x-rules`.
 */
import type { z } from './zod.ts';
import { errorCatalog, type ErrorName } from './errors.ts';

/** A rule violation found by a refinement: path, a message naming field and rule, and the catalogued error to answer with. */
export interface RuleIssue {
  path: (string | number)[];
  message: string;
  error: ErrorName;
}

/** Adds `issues` to a refinement context as custom issues carrying `params.error`. */
export function report(ctx: z.RefinementCtx, issues: RuleIssue[]): void {
  for (const i of issues) ctx.addIssue({ code: 'custom', path: i.path, message: i.message, params: { error: i.error } });
}

// ---------------------------------------------------------------------------
// JSON Schema fragments and their evaluation
// ---------------------------------------------------------------------------

/** A JSON Schema 2020-12 fragment, of the keywords `holds` evaluates. */
export type JsonSchema = { [keyword: string]: unknown };

/** A value a condition can name. */
export type Scalar = string | number | boolean;

const codePoints = (s: string) => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function typeOk(t: string, v: unknown): boolean {
  switch (t) {
    case 'object':
      return isObject(v);
    case 'array':
      return Array.isArray(v);
    case 'string':
      return typeof v === 'string';
    case 'number':
      return typeof v === 'number';
    case 'integer':
      return Number.isInteger(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'null':
      return v === null;
    default:
      throw new Error(`rules: unknown type ${t}`);
  }
}

/** True when `m` divides `v`, tolerant of binary floating point (1.1 is a multiple of 0.01). */
export function isMultipleOf(v: number, m: number): boolean {
  const q = v / m;
  return Math.abs(q - Math.round(q)) < 1e-9;
}

/** A compiled fragment: true when the value satisfies it. */
type Check = (v: unknown) => boolean;

const always: Check = () => true;
const never: Check = () => false;
const isPrimitive = (v: unknown) => v === null || (typeof v !== 'object' && typeof v !== 'function');

/** Every fragment compiled so far (a fragment is compiled once, however many requests it checks). */
const compiled = new WeakMap<JsonSchema, Check>();

/**
 * True when `value` satisfies `schema`, for the keywords the rules use (an
 * unknown keyword throws, so a rule never says more in the spec than the mock
 * checks). Lengths count code points, as JSON Schema does. The fragment is
 * compiled on first use (see compileFragment).
 */
export function holds(schema: JsonSchema | boolean, value: unknown): boolean {
  return compileFragment(schema)(value);
}

/**
 * `schema` as a function of the value, built once per fragment (its patterns
 * compiled, its constants stringified, its keywords looked up once), so a
 * request pays only the checks. Throws for a keyword `holds` does not evaluate.
 */
export function compileFragment(schema: JsonSchema | boolean): Check {
  if (typeof schema === 'boolean') return schema ? always : never;
  let c = compiled.get(schema);
  if (!c) {
    c = memberTest(schema) ?? compileKeywords(schema);
    compiled.set(schema, c);
  }
  return c;
}

/** `schema` compiled keyword by keyword (see compileFragment). */
function compileKeywords(schema: JsonSchema): Check {
  const checks: Check[] = [];
  for (const [k, s] of Object.entries(schema)) {
    const check = keywordCheck(k, s, schema);
    if (check) checks.push(check);
  }
  return checks.length === 0
    ? always
    : checks.length === 1
      ? checks[0]
      : (v) => {
          for (let i = 0; i < checks.length; i++) if (!checks[i](v)) return false;
          return true;
        };
}

/** Keywords that say nothing about the value (a fragment's annotations). */
const ANNOTATIONS = new Set(['description', 'x-error-code', 'x-rule']);

/**
 * A fragment that only compares one member with constants, `{properties: {P: {const: c} | {enum: [...]}}}` with or
 * without `required: [P]` (the `if` and many a `then` of a rule: "when model is X"), as one function instead of the
 * four the keywords make (properties, the member's const or enum, required, and their conjunction). The same
 * verdicts: not an object, true; P missing, true unless required; else P among the constants. Undefined for any
 * other fragment (compiled keyword by keyword).
 */
function memberTest(schema: JsonSchema): Check | undefined {
  let properties: Record<string, JsonSchema> | undefined;
  let required: unknown[] | undefined;
  for (const k in schema) {
    if (k === 'properties') properties = schema.properties as Record<string, JsonSchema>;
    else if (k === 'required') required = schema.required as unknown[];
    else if (!ANNOTATIONS.has(k)) return undefined;
  }
  if (!properties || !isObject(properties)) return undefined;
  const names = Object.keys(properties);
  if (names.length !== 1) return undefined;
  const [name] = names;
  if (required !== undefined && !(Array.isArray(required) && required.length === 1 && required[0] === name)) return undefined;
  const member = properties[name];
  if (!isObject(member)) return undefined;
  const memberKeys = Object.keys(member).filter((k) => !ANNOTATIONS.has(k));
  if (memberKeys.length !== 1) return undefined;
  const needed = required !== undefined;
  if (memberKeys[0] === 'const' && isPrimitive(member.const)) {
    const c = member.const;
    return (v) => {
      if (!isObject(v)) return true;
      const x = v[name];
      return x === undefined ? !needed : x === c;
    };
  }
  if (memberKeys[0] === 'enum' && Array.isArray(member.enum) && member.enum.every(isPrimitive)) {
    const values = new Set(member.enum);
    return (v) => {
      if (!isObject(v)) return true;
      const x = v[name];
      return x === undefined ? !needed : values.has(x);
    };
  }
  return undefined;
}

/** True when one of `checks` holds for `v` (a loop: a request's checks make no closure). */
function someHolds(checks: readonly Check[], v: unknown): boolean {
  for (let i = 0; i < checks.length; i++) if (checks[i](v)) return true;
  return false;
}

/** The equality of JSON values (`const`, `enum`) with `s`: identity for a scalar, else the same JSON text. */
function equalTo(s: unknown): Check {
  if (isPrimitive(s)) return (v) => v === s;
  const text = JSON.stringify(s);
  return (v) => JSON.stringify(v) === text;
}

/** The check of keyword `k` (value `s`) of `schema`; undefined for an annotation or a keyword read with another. */
function keywordCheck(k: string, s: unknown, schema: JsonSchema): Check | undefined {
  const num = s as number;
  const list = (x: unknown) => (x as JsonSchema[]).map(compileFragment);
  switch (k) {
    case 'description':
    case 'x-error-code':
    case 'x-rule':
    case 'then':
    case 'else':
    case 'minContains':
    case 'maxContains':
      return undefined; // read with if and contains
    case 'if': {
      const cond = compileFragment(s as JsonSchema);
      const then = schema.then === undefined ? always : compileFragment(schema.then as JsonSchema);
      const otherwise = schema.else === undefined ? always : compileFragment(schema.else as JsonSchema);
      return (v) => (cond(v) ? then(v) : otherwise(v));
    }
    case 'type': {
      const types = Array.isArray(s) ? (s as string[]) : [s as string];
      for (const t of types) typeOk(t, undefined); // an unknown type throws here, once
      return (v) => {
        for (let i = 0; i < types.length; i++) if (typeOk(types[i], v)) return true;
        return false;
      };
    }
    case 'const':
      return equalTo(s);
    case 'enum': {
      const values = s as unknown[];
      if (values.every(isPrimitive)) {
        const set = new Set(values);
        return (v) => set.has(v);
      }
      const checks = values.map(equalTo);
      return (v) => someHolds(checks, v);
    }
    case 'not': {
      const sub = compileFragment(s as JsonSchema);
      return (v) => !sub(v);
    }
    case 'allOf': {
      const subs = list(s);
      return (v) => {
        for (let i = 0; i < subs.length; i++) if (!subs[i](v)) return false;
        return true;
      };
    }
    case 'anyOf': {
      const subs = list(s);
      return (v) => someHolds(subs, v);
    }
    case 'oneOf': {
      const subs = list(s);
      return (v) => {
        let n = 0;
        for (const c of subs) if (c(v) && ++n > 1) return false;
        return n === 1;
      };
    }
    case 'properties': {
      const names = Object.keys(s as Record<string, JsonSchema>);
      const checks = names.map((p) => compileFragment((s as Record<string, JsonSchema>)[p]));
      if (names.length === 1) {
        const [p] = names;
        const [c] = checks;
        return (v) => {
          if (!isObject(v)) return true;
          const x = v[p];
          return x === undefined || c(x);
        };
      }
      return (v) => {
        if (!isObject(v)) return true;
        for (let i = 0; i < names.length; i++) {
          const x = v[names[i]];
          if (x !== undefined && !checks[i](x)) return false;
        }
        return true;
      };
    }
    case 'required': {
      const names = s as string[];
      return (v) => {
        if (!isObject(v)) return true;
        for (let i = 0; i < names.length; i++) if (v[names[i]] === undefined) return false;
        return true;
      };
    }
    case 'dependentRequired': {
      const deps = Object.entries(s as Record<string, string[]>);
      return (v) => !isObject(v) || deps.every(([p, ds]) => v[p] === undefined || ds.every((d) => v[d] !== undefined));
    }
    case 'items': {
      const sub = compileFragment(s as JsonSchema);
      return (v) => {
        if (!Array.isArray(v)) return true;
        for (let i = 0; i < v.length; i++) if (!sub(v[i])) return false;
        return true;
      };
    }
    case 'contains': {
      const sub = compileFragment(s as JsonSchema);
      const min = (schema.minContains as number | undefined) ?? 1;
      const max = schema.maxContains as number | undefined;
      return (v) => {
        if (!Array.isArray(v)) return true;
        let n = 0;
        for (const x of v) if (sub(x)) n++;
        return n >= min && (max === undefined || n <= max);
      };
    }
    case 'uniqueItems':
      return s !== true ? always : (v) => !Array.isArray(v) || new Set(v.map((x) => JSON.stringify(x))).size === v.length;
    case 'minItems':
      return (v) => !Array.isArray(v) || v.length >= num;
    case 'maxItems':
      return (v) => !Array.isArray(v) || v.length <= num;
    case 'minLength':
      return (v) => typeof v !== 'string' || codePoints(v) >= num;
    case 'maxLength':
      return (v) => typeof v !== 'string' || codePoints(v) <= num;
    case 'pattern': {
      const re = new RegExp(s as string, 'u');
      return (v) => typeof v !== 'string' || re.test(v);
    }
    case 'minimum':
      return (v) => typeof v !== 'number' || v >= num;
    case 'maximum':
      return (v) => typeof v !== 'number' || v <= num;
    case 'exclusiveMinimum':
      return (v) => typeof v !== 'number' || v > num;
    case 'exclusiveMaximum':
      return (v) => typeof v !== 'number' || v < num;
    case 'multipleOf':
      return (v) => typeof v !== 'number' || isMultipleOf(v, num);
    default:
      throw new Error(`rules: keyword ${k} is not evaluated; use another or teach holds()`);
  }
}

// ---------------------------------------------------------------------------
// Rules
// ---------------------------------------------------------------------------

type Path = (string | number)[];

/**
 * One rule of a request body. `when` (field -> the values it applies to, or a
 * fragment of its own) and `then` (the fragment the body must satisfy) make its
 * schema: `{if: when, then}`, or `then` alone without `when`.
 */
export interface BodyRule<T = never> {
  /** Stable id, e.g. `video.resolution-per-model.family3-h3`. */
  id: string;
  /** The rule in words (docs/rules.md and the operation's description). */
  rule: string;
  /** The catalogued error a body breaking it answers. */
  code: ErrorName;
  /** Where the issue is reported (the message names it); a function of the parsed body for an item. */
  path: Path | ((body: T) => Path);
  /** The message; a function of the parsed body for one naming values. Default: the rule in words. */
  message?: string | ((body: T) => string);
  /** Top-level field -> the values the rule applies to (one value or a list), or a fragment. */
  when?: Record<string, Scalar | readonly Scalar[]> | { schema: JsonSchema };
  then: JsonSchema;
}

/** A rule declared with the body type its message and path read. */
export function rule<T>(r: BodyRule<T>): BodyRule<T> {
  return r;
}

/** The default of field `name` of an object schema, or undefined when it has none. */
function defaultOf(shape: Record<string, z.ZodType>, name: string): unknown {
  let t = shape[name] as unknown as { def: { type: string; defaultValue?: unknown; innerType?: unknown } } | undefined;
  while (t) {
    if (t.def.type === 'default') return typeof t.def.defaultValue === 'function' ? (t.def.defaultValue as () => unknown)() : t.def.defaultValue;
    t = t.def.innerType as typeof t;
  }
  return undefined;
}

/**
 * The `if` of a `when`: each field's values as `const`/`enum`, and `required`
 * for each field whose default is not among them (an absent field then
 * matches exactly when its default would).
 */
export function whenSchema(when: NonNullable<BodyRule['when']>, shape: Record<string, z.ZodType>): JsonSchema {
  if ('schema' in when && isObject(when.schema) && Object.keys(when).length === 1) return when.schema;
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [field, values] of Object.entries(when as Record<string, Scalar | readonly Scalar[]>)) {
    const list: readonly Scalar[] = Array.isArray(values) ? values : [values];
    properties[field] = list.length === 1 ? { const: list[0] } : { enum: [...list] };
    const d = defaultOf(shape, field);
    if (d === undefined || !list.includes(d as Scalar)) required.push(field);
  }
  return required.length ? { properties, required } : { properties };
}

/** The JSON Schema of rule `r` on an object of `shape`. */
export function ruleSchema(r: BodyRule<never>, shape: Record<string, z.ZodType>): JsonSchema {
  return r.when ? { if: whenSchema(r.when, shape), then: r.then } : r.then;
}

/** A rule with its schema built, as listed for docs and tests. */
export interface BuiltRule<T = never> extends BodyRule<T> {
  schema: JsonSchema;
}

const ruleSets = new WeakMap<z.ZodType, readonly BuiltRule[]>();

/**
 * `object` with `rules`: a refinement reporting every rule the parsed body
 * breaks (in declaration order, so the first broken rule's error answers), and
 * the rules' schemas under `allOf` in the emitted schema. `name` and `meta` are
 * the component's `.openapi(name, meta)`. `after`: checks no schema can carry
 * (listed as the operation's `stateRules` with `reads: 'body'`), reported after the rules.
 */
export function withRules<S extends z.ZodObject>(
  object: S,
  rules: readonly BodyRule<z.output<S>>[],
  name: string,
  meta: Record<string, unknown> = {},
  after?: (body: z.output<S>) => RuleIssue[],
) {
  const shape = object.shape as Record<string, z.ZodType>;
  const built: BuiltRule<z.output<S>>[] = rules.map((r) => ({ ...r, schema: ruleSchema(r as BodyRule<never>, shape) }));
  // compiled here, once: a request only runs the checks
  const checks = built.map((r) => compileFragment(r.schema));
  const ids = new Set<string>();
  for (const r of built) {
    if (ids.has(r.id)) throw new Error(`rules: ${r.id} is declared twice`);
    ids.add(r.id);
  }
  const guard = guardIndex(built);
  const out = object
    .superRefine((v, ctx) => {
      const due = guard.due(v);
      for (let j = 0; j < due.length; j++) {
        const i = due[j];
        if (checks[i](v)) continue;
        const r = built[i];
        const path = typeof r.path === 'function' ? r.path(v) : r.path;
        const message = typeof r.message === 'function' ? r.message(v) : (r.message ?? r.rule);
        ctx.addIssue({ code: 'custom', path, message, params: { error: r.code, rule: r.id } });
      }
      if (after) report(ctx, after(v));
    })
    // each fragment names its code and rule (x-error-code, x-rule), so a reader of the document knows what a broken rule answers
    .openapi(name, { ...meta, ...(built.length ? { allOf: built.map((r) => emittedFragment(r as BuiltRule<never>)) } : {}) });
  ruleSets.set(out, built);
  return out;
}

/** The values a `when` lists for a field (one value or a list). */
function whenValues(values: Scalar | readonly Scalar[]): readonly Scalar[] {
  return Array.isArray(values) ? (values as readonly Scalar[]) : [values as Scalar];
}

/**
 * Which of a rule set's rules a body needs checked. Most rules are guarded by one top-level field ("when model is X":
 * a `when` naming one field and its values); a rule whose guard fails holds whatever the body, so a body only needs
 * the rules its value of that field selects, with the unguarded ones. `due(v)` lists their indices in declaration
 * order (issues keep the order `withRules` promises). The guard field is the one most `when`s name alone; each value
 * a rule lists, and an absent field, get their list once, found by evaluating each rule's compiled `if` on a probe
 * body holding only that field (so the lists agree with the fragments, defaults included). Another primitive value
 * selects no guarded rule; a value that is not primitive, or a body that is not an object, gets every rule (their
 * checks decide).
 */
export function guardIndex(rules: readonly BuiltRule[]): { field: string | undefined; due: (v: unknown) => readonly number[] } {
  const everyRule = rules.map((_, i) => i);
  const counts = new Map<string, number>();
  const guardOf = (r: BuiltRule): string | undefined => {
    if (!r.when || 'schema' in r.when) return undefined;
    const fields = Object.keys(r.when);
    if (fields.length !== 1) return undefined;
    const values = r.when[fields[0]];
    return whenValues(values).every((x) => ['string', 'number', 'boolean'].includes(typeof x)) ? fields[0] : undefined;
  };
  for (const r of rules) {
    const f = guardOf(r);
    if (f !== undefined) counts.set(f, (counts.get(f) ?? 0) + 1);
  }
  const field = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (field === undefined) return { field, due: () => everyRule };
  const guarded = rules.map((r) => guardOf(r) === field);
  const ifOf = rules.map((r, i) => (guarded[i] ? compileFragment((r.schema as { if: JsonSchema }).if) : always));
  /** The rules a body whose guard field is `probe` (an object holding only it, or none) needs. */
  const listFor = (probe: Record<string, unknown>) => everyRule.filter((i) => !guarded[i] || ifOf[i](probe));
  const byValue = new Map<unknown, readonly number[]>();
  for (let i = 0; i < rules.length; i++) {
    if (!guarded[i]) continue;
    const values = (rules[i].when as Record<string, Scalar | readonly Scalar[]>)[field];
    for (const x of whenValues(values)) if (!byValue.has(x)) byValue.set(x, listFor({ [field]: x }));
  }
  const absent = listFor({});
  const unguarded = everyRule.filter((i) => !guarded[i]);
  return {
    field,
    due(v) {
      if (!isObject(v)) return everyRule;
      const x = v[field];
      if (x === undefined) return absent;
      const listed = byValue.get(x);
      if (listed) return listed;
      return isPrimitive(x) ? unguarded : everyRule;
    },
  };
}

/** Rule `r`'s fragment as the document carries it: its schema, with `x-error-code` (the catalog code it answers) and `x-rule` (its id). */
export function emittedFragment(r: BuiltRule<never>): JsonSchema {
  return { ...r.schema, 'x-error-code': errorCatalog[r.code].code, 'x-rule': r.id };
}

/** The rules `withRules` attached to `schema` (none for a schema without). */
export function rulesOf(schema: z.ZodType): readonly BuiltRule[] {
  return ruleSets.get(schema) ?? [];
}

// ---------------------------------------------------------------------------
// Rules no schema can carry
// ---------------------------------------------------------------------------

/**
 * A rule that reads more than the body: the account (plan, credits), the
 * catalogue (voices the account may use), earlier state (a task, its owner,
 * its status), concurrency; or a body rule JSON Schema cannot say (the
 * contents of an upload, one field's text inside another's). Listed per
 * operation in `x-rules` and its description.
 */
export interface StateRule {
  code: ErrorName;
  /** The request fields it reads (dotted paths; empty for none). */
  fields: readonly string[];
  /** The rule in words. */
  rule: string;
  /** What it reads beyond the body. */
  reads: 'account' | 'catalogue' | 'state' | 'concurrency' | 'body';
}

/** Fragment helpers for rule tables. */
export const js = {
  /** `{properties: {field: schema}}`. */
  prop: (field: string, schema: JsonSchema): JsonSchema => ({ properties: { [field]: schema } }),
  /** http or https, the scheme in any case (JSON Schema patterns carry no flags). */
  httpUrl: { pattern: '^[Hh][Tt][Tt][Pp][Ss]?://' } as JsonSchema,
  /** Not blank: at least one character that is not white space. */
  notBlank: { pattern: '\\S' } as JsonSchema,
  /**
   * An array with at most `n` items matching `item`: none, or some and at most `n`. Written so that a validator
   * without maxContains (Prism 5 ignores it) reads "none, or some": it lets the body through rather than refuse a good one.
   */
  atMost: (item: JsonSchema, n: number): JsonSchema => ({ anyOf: [{ not: { contains: item } }, { contains: item, maxContains: n }] }),
  /** An array with at least one item matching `item`. */
  some: (item: JsonSchema): JsonSchema => ({ contains: item }),
  /** An array with no item matching `item`. */
  none: (item: JsonSchema): JsonSchema => ({ not: { contains: item } }),
};
