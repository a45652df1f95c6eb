/**
 * Bodies breaking the rules a body schema carries with `contains` and `not`
 * (docs/guides/verify.md, "What it checks" 2): the rule fragments under
 * `allOf` that say an array must (or must not, or at most N times) hold a
 * kind of item, or that a field, a pair of fields or a value is not allowed.
 * Such rules cannot be broken by editing one keyword, so the body is found by
 * search: small edits of a valid body (a field added, a value set, an item
 * matching a `contains` added, doubled or taken out), alone or two or three
 * together, each judged by ajv over the document itself; the first body that
 * breaks the fragment and nothing else of the schema is kept, one per keyword
 * the fragment fails with. The fragment's `x-error-code` is the code expected.
 */
import type { ErrorObject } from 'ajv';
import { resolve, type ApiDocument, type JsonSchema } from './document.ts';
import { sampleValue } from './rules.ts';

type Body = Record<string, unknown>;

/** A body breaking one `contains` or `not` rule, and the code the fragment declares (undefined: none). */
export interface NegatedBody {
  rule: string;
  body: Body;
  code?: number;
}

/** One small edit of a body at a property path. */
interface Edit {
  name: string;
  apply: (b: Body) => void;
}

const clone = <T>(v: T): T => structuredClone(v);

/** The value at `path` of `b`. */
function at(b: Body, path: string[]): unknown {
  return path.reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Body)[k] : undefined), b);
}

/** Sets `path` of `b` to `value`, making the objects on the way. */
function put(b: Body, path: string[], value: unknown): void {
  let cur = b;
  for (const k of path.slice(0, -1)) {
    if (!cur[k] || typeof cur[k] !== 'object' || Array.isArray(cur[k])) cur[k] = {};
    cur = cur[k] as Body;
  }
  cur[path[path.length - 1]] = value;
}

/** The body schema's own schema of the field at `path` (through nested `properties`). */
function ownAt(doc: ApiDocument, schema: JsonSchema, path: string[]): JsonSchema | undefined {
  let s = resolve(doc, schema);
  for (const k of path) s = resolve(doc, s?.properties?.[k]);
  return s;
}

/** The `const` values a schema fixes on an object (its properties' consts, and those of its first anyOf branch). */
function constsOf(doc: ApiDocument, node: JsonSchema | undefined): Body {
  const s = resolve(doc, node);
  const out: Body = {};
  for (const [k, p] of Object.entries(s?.properties ?? {})) {
    const r = resolve(doc, p);
    if (r?.const !== undefined) out[k] = r.const;
    else if (r?.enum?.length === 1) out[k] = r.enum[0];
  }
  const first = (s?.anyOf ?? s?.oneOf)?.[0];
  if (first) Object.assign(out, constsOf(doc, first), out);
  for (const part of (s?.allOf as JsonSchema[] | undefined) ?? []) Object.assign(out, constsOf(doc, part));
  return out;
}

/** The fields an `if` fixes by const (or undefined when it says more), to know whether its `then` applies to `v`. */
function holds(doc: ApiDocument, cond: JsonSchema | undefined, v: Body): boolean {
  const c = resolve(doc, cond);
  if (!c) return false;
  if ((c.required ?? []).some((k) => v[k] === undefined)) return false;
  return Object.entries(c.properties ?? {}).every(([k, p]) => {
    const r = resolve(doc, p);
    if (r?.const !== undefined) return v[k] === undefined || v[k] === r.const;
    if (r?.enum) return v[k] === undefined || r.enum.includes(v[k]);
    return false;
  });
}

/** The schemas that speak of one value: `parts` themselves, and the subschemas of their `allOf` (unconditional ones). */
function spread(doc: ApiDocument, parts: (JsonSchema | undefined)[]): JsonSchema[] {
  const out: JsonSchema[] = [];
  const add = (n: JsonSchema | undefined, depth: number): void => {
    const r = resolve(doc, n);
    if (!r || depth > 6) return;
    out.push(r);
    for (const a of (r.allOf as JsonSchema[] | undefined) ?? []) add(a, depth + 1);
  };
  for (const p of parts) add(p, 0);
  return out;
}

/**
 * A value satisfying `parts` (the schemas that speak of it: its own, and the rule fragments reaching it through
 * `properties` and `items`), fuller than `sampleValue`'s: an object gets, beyond its required fields, the first
 * choice of each exactly/at-least-one-of group and the fields an applying `if`/`then` requires (from `preset` on);
 * an array one item at least.
 */
function fill(doc: ApiDocument, given: (JsonSchema | undefined)[], preset: Body = {}, depth = 0): unknown {
  const parts = spread(doc, given);
  const main = parts.find((p) => p.type !== undefined || p.properties) ?? parts[0];
  if (!main || depth > 6) return undefined;
  const type = Array.isArray(main.type) ? main.type.find((t) => t !== 'null') : main.type;
  const sub = (k: string) => parts.map((p) => resolve(doc, p.properties?.[k]));
  if (type === 'array') {
    const items = parts.map((p) => p.items);
    const min = Math.max(1, ...parts.map((p) => p.minItems ?? 0));
    return Array.from({ length: min }, () => fill(doc, items, {}, depth + 1));
  }
  if (type !== 'object' && !main.properties) return sampleValue(doc, main);
  const out: Body = { ...((sampleValue(doc, main) as Body | undefined) ?? {}), ...preset };
  const need = (names: string[] | undefined) => {
    for (const k of names ?? []) if (out[k] === undefined) out[k] = fill(doc, sub(k), {}, depth + 1);
  };
  for (const p of parts) {
    need(p.required);
    const first = (p.oneOf ?? p.anyOf)?.[0];
    if (first) need(resolve(doc, first)?.required);
    if (p.if && holds(doc, p.if as JsonSchema, out)) need(resolve(doc, p.then as JsonSchema)?.required);
  }
  for (const [k, v] of Object.entries(out))
    if (v && typeof v === 'object' && !Array.isArray(v) && main.properties?.[k]) out[k] = fill(doc, sub(k), v as Body, depth + 1);
  return out;
}

/** Keywords a rule fragment is searched for. */
const NEGATING = new Set(['contains', 'not']);

function mentions(node: unknown): boolean {
  if (!node || typeof node !== 'object') return false;
  if (Array.isArray(node)) return node.some(mentions);
  return Object.entries(node).some(([k, v]) => NEGATING.has(k) || mentions(v));
}

/** The edits a fragment suggests: walks it along property paths (through allOf, anyOf, oneOf, not, if, then, else). */
function editsOf(doc: ApiDocument, schema: JsonSchema, fragment: JsonSchema): Edit[] {
  const edits = new Map<string, Edit>();
  const add = (e: Edit) => void (edits.has(e.name) || edits.set(e.name, e));
  const sampleAt = (path: string[]) => {
    return fill(doc, partsAt(path));
  };
  // the body schema's own schema of the field at `path` and every fragment reaching it (an array's items: `[]`)
  const partsAt = (path: string[]): JsonSchema[] =>
    path.reduce<JsonSchema[]>(
      (parts, k) =>
        spread(doc, parts)
          .map((p) => (k === '[]' ? p.items : resolve(doc, p.properties?.[k])) as JsonSchema)
          .filter(Boolean),
      [schema],
    );
  const item = (path: string[], c: JsonSchema | undefined): unknown => {
    const itemParts = partsAt([...path, '[]']);
    const items = resolve(doc, ownAt(doc, schema, path)?.items);
    const alts = items?.oneOf ?? items?.anyOf ?? [items];
    const consts = constsOf(doc, c);
    // the alternative of the item schema that the contains' consts pick (its own const fields agreeing)
    const alt = alts.find((a) => Object.entries(constsOf(doc, a)).every(([k, x]) => consts[k] === undefined || consts[k] === x));
    return alt ? fill(doc, [alt, ...itemParts.filter((p) => p !== items)], consts) : consts;
  };
  const walk = (node: JsonSchema | undefined, path: string[], depth: number): void => {
    const s = resolve(doc, node);
    if (!s || depth > 12) return;
    for (const name of s.required ?? [])
      add({
        name: `add ${[...path, name].join('.')}`,
        apply: (b) => void (at(b, [...path, name]) === undefined && put(b, [...path, name], sampleAt([...path, name]))),
      });
    if (s.const !== undefined && path.length) add({ name: `set ${path.join('.')}=${JSON.stringify(s.const)}`, apply: (b) => put(b, path, clone(s.const)) });
    if (s.enum?.length && path.length) add({ name: `set ${path.join('.')}=${JSON.stringify(s.enum[0])}`, apply: (b) => put(b, path, clone(s.enum![0])) });
    const c = s.contains as JsonSchema | undefined;
    if (c && path.length) {
      const key = path.join('.');
      const matches = (v: unknown) => Object.entries(constsOf(doc, c)).every(([k, x]) => (v as Body | null)?.[k] === x);
      const list = (b: Body) => (Array.isArray(at(b, path)) ? (at(b, path) as unknown[]) : []);
      const name = JSON.stringify(constsOf(doc, c));
      add({ name: `add to ${key} ${name}`, apply: (b) => put(b, path, [...list(b), item(path, c)]) });
      add({ name: `add two to ${key} ${name}`, apply: (b) => put(b, path, [...list(b), item(path, c), item(path, c)]) });
      add({
        name: `take from ${key} ${name}`,
        apply: (b) =>
          put(
            b,
            path,
            list(b).filter((v) => !matches(v)),
          ),
      });
    }
    for (const [k, p] of Object.entries(s.properties ?? {})) walk(p, [...path, k], depth + 1);
    for (const key of ['allOf', 'anyOf', 'oneOf'] as const) for (const part of (s[key] as JsonSchema[] | undefined) ?? []) walk(part, path, depth + 1);
    for (const key of ['not', 'if', 'then', 'else'] as const) walk(s[key] as JsonSchema | undefined, path, depth + 1);
  };
  walk(fragment, [], 0);
  return [...edits.values()];
}

/** Every combination of at most `k` of `items`, smallest first. */
function* combinations<T>(items: T[], k: number): Generator<T[]> {
  const rec = function* (start: number, left: number, acc: T[]): Generator<T[]> {
    if (left === 0) {
      yield acc;
      return;
    }
    for (let i = start; i < items.length; i++) yield* rec(i + 1, left - 1, [...acc, items[i]]);
  };
  for (let n = 1; n <= Math.min(k, items.length); n++) yield* rec(0, n, []);
}

/**
 * Bodies breaking each `contains` and `not` rule fragment under the `allOf` of the body schema at `pointer` (in
 * `doc`), from `base` (a valid body), judged by `validate` (ajv over the document): each breaks its fragment alone.
 */
export function brokenNegations(doc: ApiDocument, validate: (pointer: string, value: unknown) => ErrorObject[], pointer: string, base: Body): NegatedBody[] {
  const schema = resolve(doc, { $ref: `#${pointer}` });
  const fragments = (schema?.allOf as JsonSchema[] | undefined) ?? [];
  const out: NegatedBody[] = [];
  if (validate(pointer, base).length) return out;
  fragments.forEach((raw, i) => {
    const fragment = resolve(doc, raw);
    if (!fragment || !mentions(fragment)) return;
    // ajv names the schema path from the document (api#/components/...) or from the compiled schema's root (#/allOf/...)
    const inFragment = (schemaPath: string) => {
      const rel = schemaPath.replace(/^api#/, '#').replace(`#${pointer}`, '#');
      return rel === `#/allOf/${i}` || rel.startsWith(`#/allOf/${i}/`);
    };
    const edits = editsOf(doc, schema!, fragment);
    const found = new Set<string>();
    let tries = 0;
    for (const combo of combinations(edits, 3)) {
      if (++tries > 400 || found.size === 2) break;
      const body = clone(base);
      combo.forEach((e) => e.apply(body));
      const errors = validate(pointer, body);
      // broken here, and only here
      if (!errors.length || !errors.every((e) => inFragment(e.schemaPath))) continue;
      const kws = new Set(errors.map((e) => e.keyword));
      const kw = kws.has('contains') || kws.has('maxContains') || kws.has('minContains') ? 'contains' : kws.has('not') ? 'not' : undefined;
      if (!kw || found.has(kw)) continue;
      found.add(kw);
      const label = typeof fragment['x-rule'] === 'string' ? fragment['x-rule'] : `allOf[${i}]`;
      const code = typeof fragment['x-error-code'] === 'number' ? fragment['x-error-code'] : undefined;
      out.push({ rule: `${kw} ${label}`, body, ...(code !== undefined ? { code } : {}) });
    }
  });
  return out;
}
