/**
 * The small edits a rule fragment suggests (verify/negations.ts searches
 * their combinations): the fragment is walked to any depth, along property
 * paths (through `properties`, array `items`, `allOf`, `anyOf`, `oneOf`,
 * `not`, `if`, `then`, `else`), and each keyword it meets gives the edits
 * that satisfy or break it: `required` a field added or left out; `const`
 * and `enum` a value they allow, or one the field's own schema allows and
 * they do not; `pattern` a text it matches or does not; a bound a value at
 * it or past it; `minItems`, `maxItems`, `uniqueItems` an array of as many
 * items as breaks or meets them; `contains` an item of each kind it names
 * added, doubled or taken out. A path through `items` edits the first item.
 */
import { resolve, type ApiDocument, type JsonSchema } from './document.ts';
import { sampleValue } from './rules.ts';

export type Body = Record<string, unknown>;

/** One small edit of a body. */
export interface Edit {
  name: string;
  apply: (b: Body) => void;
}

/** A path segment standing for an array's first item. */
const ITEM = '[]';

const clone = <T>(v: T): T => structuredClone(v);
const isObject = (v: unknown): v is Body => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

/** The value at `path` of `b` (`[]`: an array's first item). */
function at(b: unknown, path: string[]): unknown {
  return path.reduce<unknown>((v, k) => (k === ITEM ? (Array.isArray(v) ? v[0] : undefined) : isObject(v) ? v[k] : undefined), b);
}

/** The const values a schema fixes on an object (its properties' consts, and those of its first anyOf branch and of its allOf). */
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

/** Whether an `if` that fixes fields by const or enum holds for `v` (false when it says more than that). */
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
export function fill(doc: ApiDocument, given: (JsonSchema | undefined)[], preset: Body = {}, depth = 0): unknown {
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
  for (const [k, v] of Object.entries(out)) if (isObject(v) && main.properties?.[k]) out[k] = fill(doc, sub(k), v, depth + 1);
  return out;
}

/** Texts tried against a `pattern`: those it matches set a value the fragment asks for, the others one it refuses. */
const TEXTS = [
  'https://example.com/verify',
  'ftp://example.com/verify',
  'verify',
  '@音频1 verify',
  '@音频2 verify',
  '@音频3 verify',
  '@音频4 verify',
  ' '.repeat(12),
  '.'.repeat(12),
  '',
];

/** The edits `fragment` (a rule fragment of the body schema `schema`) suggests, in the order it names them. */
export function editsOf(doc: ApiDocument, schema: JsonSchema, fragment: JsonSchema): Edit[] {
  const edits = new Map<string, Edit>();
  // the conditions (`if`s) on the way to the node walked: an edit inside a `then` also comes with them made true
  const when: Edit[] = [];
  const add = (name: string, apply: (b: Body) => void) => {
    if (!edits.has(name)) edits.set(name, { name, apply });
    if (!when.length) return;
    const conds = [...when];
    const full = `when ${conds.map((c) => c.name).join(', ')}: ${name}`;
    if (!edits.has(full))
      edits.set(full, {
        name: full,
        apply: (b) => {
          conds.forEach((c) => c.apply(b));
          apply(b);
        },
      });
  };
  // the body schema's own schema of the field at `path` and every fragment reaching it
  const partsAt = (path: string[]): JsonSchema[] =>
    path.reduce<JsonSchema[]>(
      (parts, k) =>
        spread(doc, parts)
          .map((p) => (k === ITEM ? resolve(doc, p.items) : resolve(doc, p.properties?.[k])) as JsonSchema)
          .filter(Boolean),
      [schema],
    );
  const sampleAt = (path: string[]) => fill(doc, partsAt(path));
  // the field's own schema (through properties and items of the body schema alone)
  const ownAt = (path: string[]): JsonSchema | undefined =>
    path.reduce<JsonSchema | undefined>((s, k) => resolve(doc, k === ITEM ? s?.items : s?.properties?.[k]), resolve(doc, schema));
  /** Sets `path` of `b` to `value`, making what is missing on the way (an array gets its first item). */
  const put = (b: Body, path: string[], value: unknown): void => {
    let cur: unknown = b;
    for (let n = 0; n < path.length - 1; n++) {
      const k = path[n];
      const next = path[n + 1];
      const here = path.slice(0, n + 1);
      if (k === ITEM) {
        if (!Array.isArray(cur)) return;
        const list = cur;
        if (list.length === 0 || (next === ITEM ? !Array.isArray(list[0]) : !isObject(list[0]))) list[0] = next === ITEM ? [] : {};
        cur = list[0];
        continue;
      }
      if (!isObject(cur)) return;
      const obj = cur;
      if (next === ITEM ? !Array.isArray(obj[k]) : !isObject(obj[k])) {
        const made = next === ITEM ? [] : sampleAt(here);
        obj[k] = next === ITEM || isObject(made) ? made : {};
      }
      if (next === ITEM && !(obj[k] as unknown[]).length) (obj[k] as unknown[]).push(sampleAt([...here, ITEM]) ?? {});
      cur = obj[k];
    }
    const last = path[path.length - 1];
    if (last === ITEM && Array.isArray(cur)) cur[0] = clone(value);
    else if (isObject(cur)) cur[last] = clone(value);
  };
  const drop = (b: Body, path: string[]): void => {
    const parent = at(b, path.slice(0, -1));
    if (isObject(parent)) delete parent[path[path.length - 1]];
  };
  const show = (path: string[]) => path.join('.').replace(/\.\[\]/g, '[0]');
  const set = (path: string[], value: unknown) => add(`set ${show(path)}=${JSON.stringify(value)?.slice(0, 40)}`, (b) => put(b, path, value));
  /** An array of `n` items for `path`: the body's own items again, or items made from the schemas. */
  const listOf = (path: string[], n: number) =>
    add(`${show(path)} with ${n} items`, (b) => {
      const have = at(b, path);
      const items: unknown[] = Array.isArray(have) && have.length ? have : [sampleAt([...path, ITEM])];
      put(
        b,
        path,
        Array.from({ length: n }, (_, i) => clone(items[i % items.length])),
      );
    });
  /** The item a `contains` alternative asks for: the item schema's alternative its consts pick, filled. */
  const itemFor = (path: string[], alt: JsonSchema): unknown => {
    const items = resolve(doc, ownAt(path)?.items);
    const choices = items?.oneOf ?? items?.anyOf ?? [items];
    const consts = constsOf(doc, alt);
    const pick = choices.find((a) => Object.entries(constsOf(doc, a)).every(([k, x]) => consts[k] === undefined || consts[k] === x));
    const rest = partsAt([...path, ITEM]).filter((p) => p !== items);
    return pick ? fill(doc, [pick, ...rest], consts) : consts;
  };
  const walk = (node: JsonSchema | undefined, path: string[], depth: number): void => {
    const s = resolve(doc, node);
    if (!s || depth > 40) return;
    for (const name of s.required ?? []) {
      const p = [...path, name];
      add(`add ${show(p)}`, (b) => void (at(b, p) === undefined && put(b, p, sampleAt(p))));
      add(`drop ${show(p)}`, (b) => drop(b, p));
    }
    for (const [field, needs] of Object.entries((s.dependentRequired as Record<string, string[]> | undefined) ?? {})) {
      const p = [...path, field];
      add(`add ${show(p)}`, (b) => void (at(b, p) === undefined && put(b, p, sampleAt(p))));
      for (const n of needs) add(`drop ${show([...path, n])}`, (b) => drop(b, [...path, n]));
    }
    const own = path.length ? resolve(doc, ownAt(path)) : undefined;
    if (path.length && s.const !== undefined) {
      set(path, s.const);
      if (typeof s.const === 'boolean') set(path, !s.const);
      else if (own?.enum) for (const v of own.enum.filter((x) => x !== s.const).slice(0, 2)) set(path, v);
      else if (typeof s.const === 'string') set(path, `${s.const}-other`);
    }
    if (path.length && s.enum?.length) {
      set(path, s.enum[0]);
      if (own?.enum) for (const v of own.enum.filter((x) => !s.enum!.includes(x)).slice(0, 2)) set(path, v);
      else if (typeof s.enum[0] === 'string') {
        // a text the fragment does not list, in the form the field's own pattern asks for, if it has one
        const first = s.enum[0];
        const re = typeof own?.pattern === 'string' ? new RegExp(own.pattern, 'u') : undefined;
        const other = [`${first}-other`, `${first}9`, `9${first}`].find((v) => !s.enum!.includes(v) && (!re || re.test(v)));
        if (other) set(path, other);
      }
    }
    if (path.length && typeof s.pattern === 'string') {
      const re = new RegExp(s.pattern, 'u');
      for (const t of TEXTS.filter((x) => x && re.test(x)).slice(0, 2)) set(path, t);
      for (const t of TEXTS.filter((x) => !re.test(x)).slice(0, 3)) set(path, t);
    }
    if (path.length) {
      if (s.maxLength !== undefined && s.maxLength < 100_000) set(path, 'x'.repeat(s.maxLength + 1));
      if ((s.minLength ?? 0) > 0) set(path, 'x'.repeat(s.minLength! - 1));
      for (const [kw, out, inside] of [
        ['maximum', 1, 0],
        ['minimum', -1, 0],
        ['exclusiveMaximum', 0, -1],
        ['exclusiveMinimum', 0, 1],
      ] as const) {
        const bound = s[kw];
        if (typeof bound !== 'number') continue;
        set(path, bound + out);
        set(path, bound + inside);
      }
      if (typeof s.minItems === 'number') {
        if (s.minItems > 0) listOf(path, s.minItems - 1);
        listOf(path, Math.max(1, s.minItems));
      }
      if (typeof s.maxItems === 'number' && s.maxItems < 50) {
        listOf(path, s.maxItems + 1);
        listOf(path, 0);
      }
      if (s.uniqueItems)
        add(`${show(path)} with an item twice`, (b) => {
          const have = at(b, path);
          const first: unknown = Array.isArray(have) && have.length ? (have as unknown[])[0] : sampleAt([...path, ITEM]);
          put(b, path, [first, clone(first)]);
        });
    }
    const c = resolve(doc, s.contains as JsonSchema | undefined);
    if (c && path.length) {
      const list = (b: Body) => (Array.isArray(at(b, path)) ? (at(b, path) as unknown[]) : []);
      for (const alt of (c.anyOf ?? c.oneOf ?? [c]).map((a) => resolve(doc, a)!).filter(Boolean)) {
        const consts = constsOf(doc, alt);
        const name = `${show(path)} ${JSON.stringify(consts)}`;
        const matches = (v: unknown) => Object.entries(consts).every(([k, x]) => (v as Body | null)?.[k] === x);
        add(`add to ${name}`, (b) => put(b, path, [...list(b), itemFor(path, alt)]));
        add(`add two to ${name}`, (b) => put(b, path, [...list(b), itemFor(path, alt), itemFor(path, alt)]));
        const most = s.maxContains;
        if (typeof most === 'number' && most > 1 && most < 50)
          add(`add ${most + 1} to ${name}`, (b) =>
            put(b, path, [...list(b).filter((v) => !matches(v)), ...Array.from({ length: most + 1 }, () => itemFor(path, alt))]),
          );
        add(`take from ${name}`, (b) =>
          put(
            b,
            path,
            list(b).filter((v) => !matches(v)),
          ),
        );
      }
    }
    for (const [k, p] of Object.entries(s.properties ?? {})) walk(p, [...path, k], depth + 1);
    if (s.items && !Array.isArray(s.items)) walk(s.items, [...path, ITEM], depth + 1);
    for (const key of ['allOf', 'anyOf', 'oneOf'] as const) for (const part of (s[key] as JsonSchema[] | undefined) ?? []) walk(part, path, depth + 1);
    walk(s.if as JsonSchema | undefined, path, depth + 1);
    const cond = s.if ? satisfy(s.if as JsonSchema, path) : undefined;
    if (cond) when.push(cond);
    walk(s.then as JsonSchema | undefined, path, depth + 1);
    if (cond) when.pop();
    for (const key of ['else', 'not'] as const) walk(s[key] as JsonSchema | undefined, path, depth + 1);
  };
  /** An edit making a condition true as far as it fixes fields: consts, first enum values, required fields, matching texts, enough items. */
  const satisfy = (node: JsonSchema, path: string[]): Edit | undefined => {
    const steps: ((b: Body) => void)[] = [];
    const names: string[] = [];
    const visit = (n: JsonSchema | undefined, p: string[], depth: number): void => {
      const s = resolve(doc, n);
      if (!s || depth > 8) return;
      for (const name of s.required ?? []) {
        const q = [...p, name];
        steps.push((b) => void (at(b, q) === undefined && put(b, q, sampleAt(q))));
      }
      if (p.length) {
        let value: unknown;
        if (s.const !== undefined) value = s.const;
        else if (s.enum?.length) value = s.enum[0];
        else if (typeof s.pattern === 'string') value = TEXTS.find((t) => t && new RegExp(s.pattern as string, 'u').test(t));
        else if (typeof s.minimum === 'number') value = s.minimum;
        else if (typeof s.exclusiveMinimum === 'number') value = s.exclusiveMinimum + 1;
        if (value !== undefined) {
          names.push(`${show(p)}=${JSON.stringify(value)}`);
          steps.push((b) => put(b, p, value));
        } else if (typeof s.minItems === 'number' && s.minItems > 0) {
          const n = s.minItems;
          names.push(`${show(p)} with ${n}`);
          steps.push((b) => {
            const have = at(b, p);
            if (!Array.isArray(have) || have.length < n)
              put(
                b,
                p,
                Array.from({ length: n }, () => sampleAt([...p, ITEM])),
              );
          });
        }
        const c = resolve(doc, s.contains as JsonSchema | undefined);
        const alt = resolve(doc, (c?.anyOf ?? c?.oneOf)?.[0] ?? c);
        if (alt) {
          names.push(`${show(p)} holding ${JSON.stringify(constsOf(doc, alt))}`);
          steps.push((b) => put(b, p, [...(Array.isArray(at(b, p)) ? (at(b, p) as unknown[]) : []), itemFor(p, alt)]));
        }
      }
      for (const [k, q] of Object.entries(s.properties ?? {})) visit(q, [...p, k], depth + 1);
      for (const part of (s.allOf as JsonSchema[] | undefined) ?? []) visit(part, p, depth + 1);
    };
    visit(node, path, 0);
    if (!steps.length) return undefined;
    return { name: names.join(',') || 'the condition', apply: (b) => steps.forEach((f) => f(b)) };
  };
  walk(fragment, [], 0);
  return [...edits.values()];
}
