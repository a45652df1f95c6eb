/**
 * Mutations of a valid JSON value, guided by its schema: a mutation picks a
 * site (the root, or any property or element, found by walking the value and
 * the schema together) and breaks it: a wrong type, a missing or extra field,
 * a number at or past its bounds, a string too long or full of odd
 * characters, an array for an object, deep nesting, `__proto__` and
 * `constructor` keys, duplicate keys, numbers JSON.parse cannot represent,
 * an astral character (an emoji: two UTF-16 units) at an index near a length
 * limit of the string or a point where the mock cuts text (the same placement
 * is applied to multipart text fields and limited query parameters by
 * wire.ts).
 */
import fc from 'fast-check';
import { child, deref, nodeAt, validateAt, type SchemaAt } from './documents.ts';
import { typesOf } from './schema-arbitrary.ts';
import { CODE_UNIT, JsonEntries, RawJson, defineKey, plain } from './values.ts';

/** One way to break a site. */
export type ValueMutation =
  | { kind: 'remove' }
  | { kind: 'null' }
  | { kind: 'wrong-type'; value: unknown }
  | { kind: 'boundary'; which: number }
  | { kind: 'odd-string'; value: string }
  | { kind: 'long-string'; unit: string; length: number }
  | { kind: 'array-for-object' }
  | { kind: 'object-for-array' }
  | { kind: 'deep-nesting'; depth: number; objects: boolean }
  | { kind: 'proto-key'; key: string; value: unknown }
  | { kind: 'extra-field'; key: string; value: unknown }
  | { kind: 'duplicate-key'; value: unknown }
  | { kind: 'weird-number'; text: string }
  | { kind: 'format-breaker'; which: number }
  | ({ kind: 'astral-at' } & AstralPlacement)
  | { kind: 'add-item'; path: string[]; items: SchemaAt; value: unknown; breakFormat?: number };

/** A mutation and the site it applies to (an index, modulo the number of sites). */
export interface PlannedMutation {
  site: number;
  m: ValueMutation;
}

/** A place in a value: its path and the schema node (dereferenced) that describes it, when known. */
export interface Site {
  path: (string | number)[];
  at?: SchemaAt;
  value: unknown;
}

/** Strings that have broken parsers and validators before. */
export const ODD_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  'x\ud83dy',
  '\ud83d\ude00',
  '👨‍👩‍👧‍👦',
  '🏳️‍🌈',
  'e\u0301\u0301\u0301\u0301',
  '\u202eevil',
  '\u200b',
  '\ufeff',
  '\u2028\u2029',
  '\r\n',
  '\t',
  'ǅ',
  'İ',
  'ß',
  '𝕏',
  '中文字符',
  'العربية',
  '%00',
  '%ff',
  '%E0%A4%A',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  "' OR '1'='1",
  '{{7*7}}',
  '${jndi:ldap://x}',
  '__proto__',
  'constructor',
  'null',
  'undefined',
  'NaN',
  'true',
  '-1',
  '1e309',
  '0x10',
  '\\',
  '"',
  'https://example.com/a b<"x">.png',
  'mg_a_b',
  'Bearer mg_a_b',
] as const;

/** Odd strings: the list above, random code units (lone surrogates and control characters included), and mixtures. */
export function oddStringArb(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...ODD_STRINGS) },
    { weight: 2, arbitrary: fc.string({ unit: CODE_UNIT, maxLength: 30 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...ODD_STRINGS), fc.string({ maxLength: 8 })).map(([a, b]) => a + b) },
  );
}

/** URLs that WHATWG URL parsing accepts and RFC 3986 (`format: uri`) does not. */
export const NEAR_URIS = [
  'https://example.com/a b<"x">.png',
  'https://example.com/a b.png',
  'https://example.com/<x>.png',
  'https://example.com/"q".png',
  'https://example.com/a|b.png',
  'https://example.com/{x}.png',
  'https://example.com/`x`.png',
  'https://example.com/a^b.png',
  'https://example.com/a\\b.png',
  'https://例え.jp/画像.png',
  'https://example.com/%zz.png',
  'https://exa mple.com/a.png',
  'http://example.com/\u00e9.png',
  'https:example.com/a.png',
  'HTTPS://EXAMPLE.COM/A.PNG',
  'https://user:pa ss@example.com/a.png',
  'javascript:alert(1)',
  'data:image/png;base64,AAAA',
  'file:///etc/passwd',
  'https://example.com/a.png#frag ment',
];

/**
 * Lengths (in UTF-16 units) where the mock cuts text it echoes or derives:
 * a music title line (40), a podcast research URL (40), a video or speech
 * title (60), a new user's name (100), a podcast's notes (4,000), a journaled
 * body (4,096). A string's own maxLength and minLength are added per site.
 */
export const CUT_POINTS = [40, 60, 100, 4_000, 4_096] as const;

/** Characters outside the Basic Multilingual Plane (surrogate pairs), and sequences of them. */
const ASTRALS = ['😀', '𝕏', '𠀋', '\u{10FFFF}', '👨‍👩‍👧‍👦', '🏳️‍🌈'] as const;

/** Where an astral character goes: the cut point `which` (modulo the site's), `offset` UTF-16 units from it, `tail` units of text after it. */
export interface AstralPlacement {
  which: number;
  offset: number;
  astral: string;
  tail: number;
}

/** Arbitrary placements of an astral character near a cut point (two units before to two after, the pair's halves on either side). */
export function astralPlacementArb(): fc.Arbitrary<AstralPlacement> {
  return fc.record({ which: fc.nat({ max: 63 }), offset: fc.integer({ min: -3, max: 2 }), astral: fc.constantFrom(...ASTRALS), tail: fc.nat({ max: 3 }) });
}

/** Number tokens JSON.parse reads as something a schema may not expect. */
const WEIRD_NUMBERS = ['1e400', '-1e400', '1e-400', '-0', '0.0', '1.0', '1E2', '12345678901234567890123', '-9007199254740993', '0.1e1', '5e-324'];

/** Keys that poke at prototypes and built-ins. */
const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];

/** Values of every JSON type, for wrong types and extra fields. */
export function anyJsonArb(): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constantFrom(null, true, false, 0, -1, 1.5, '', 'x', [], {}),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.string({ maxLength: 12 }),
    fc.jsonValue({ maxDepth: 3 }),
  );
}

/** Arbitrary mutations of one site. */
export function valueMutationArb(): fc.Arbitrary<ValueMutation> {
  return fc.oneof(
    fc.constant({ kind: 'remove' as const }),
    fc.constant({ kind: 'null' as const }),
    anyJsonArb().map((value) => ({ kind: 'wrong-type' as const, value })),
    { weight: 3, arbitrary: fc.nat({ max: 15 }).map((which) => ({ kind: 'boundary' as const, which })) },
    { weight: 2, arbitrary: oddStringArb().map((value) => ({ kind: 'odd-string' as const, value })) },
    fc
      .record({ unit: fc.constantFrom('a', 'é', '😀', '\u0000', ' ', '\ud800'), length: fc.integer({ min: 1000, max: 120_000 }) })
      .map((r) => ({ kind: 'long-string' as const, ...r })),
    fc.constant({ kind: 'array-for-object' as const }),
    fc.constant({ kind: 'object-for-array' as const }),
    fc.record({ depth: fc.integer({ min: 50, max: 20_000 }), objects: fc.boolean() }).map((r) => ({ kind: 'deep-nesting' as const, ...r })),
    fc
      .record({ key: fc.constantFrom(...PROTO_KEYS), value: fc.oneof(anyJsonArb(), fc.constant({ polluted: true, isAdmin: true, credits: 1e9 })) })
      .map((r) => ({ kind: 'proto-key' as const, ...r })),
    fc
      .record({ key: fc.oneof(fc.string({ minLength: 1, maxLength: 12 }), fc.constantFrom(...ODD_STRINGS)), value: anyJsonArb() })
      .map((r) => ({ kind: 'extra-field' as const, ...r })),
    anyJsonArb().map((value) => ({ kind: 'duplicate-key' as const, value })),
    fc.constantFrom(...WEIRD_NUMBERS).map((text) => ({ kind: 'weird-number' as const, text })),
    { weight: 2, arbitrary: fc.nat({ max: 63 }).map((which) => ({ kind: 'format-breaker' as const, which })) },
    { weight: 3, arbitrary: astralPlacementArb().map((r) => ({ kind: 'astral-at' as const, ...r })) },
  );
}

/** The lengths a string site is cut or limited at: its schema's maxLength and minLength, and the mock's cut points. */
export function cutPointsOf(site: Site): number[] {
  return cutPointsOfNode(site.at ? nodeAt(site.at) : undefined);
}

/** The lengths a string of schema `node` (dereferenced; undefined: unknown) is cut or limited at: its maxLength and minLength, and the mock's cut points. */
export function cutPointsOfNode(node: any): number[] {
  const own = node && typeof node === 'object' ? [node.maxLength, node.minLength].filter((n): n is number => typeof n === 'number') : [];
  return [...new Set([...own, ...CUT_POINTS])];
}

/** A string a request carries outside a JSON body (a multipart text field, a query parameter): its name and schema node. */
export interface TextSlot {
  name: string;
  node: any;
}

/** True when `node` (dereferenced) is free text: a string that is not a file (`format: binary`) nor one of an enum. */
function isFreeText(node: any): boolean {
  return (
    !!node && typeof node === 'object' && typesOf(node).includes('string') && node.format !== 'binary' && !Array.isArray(node.enum) && node.const === undefined
  );
}

/** The text fields of a multipart body schema `at`: its string properties that are not files or enums. */
export function multipartTextFields(at: SchemaAt): TextSlot[] {
  const root = deref(at);
  const props = nodeAt(root)?.properties ?? {};
  return Object.keys(props)
    .map((name) => ({ name, node: nodeAt(deref(child(root, 'properties', name))) }))
    .filter((f) => isFreeText(f.node));
}

/** True when the parameter schema `at` is free text with a length limit (maxLength or minLength). */
export function isLimitedText(at: SchemaAt): boolean {
  const node = nodeAt(deref(at));
  return isFreeText(node) && (typeof node.maxLength === 'number' || typeof node.minLength === 'number');
}

/** `value` rebuilt with the astral character of `p` near one of `points` (see astralAt). */
export function astralNear(value: unknown, points: readonly number[], p: AstralPlacement): string {
  return astralAt(value, Math.max(0, points[p.which % points.length] + p.offset), p.astral, p.tail);
}

/**
 * `value` (a string site's text) rebuilt so that `astral` starts at UTF-16 index `at`: the printable ASCII of the
 * text (single spaces), repeated to fill the index, then the astral character, then `tail` more of the text.
 */
export function astralAt(value: unknown, at: number, astral: string, tail: number): string {
  const source = (typeof value === 'string' ? value : '').replace(/[^\x20-\x7e]/g, '').replace(/ +/g, ' ') || 'x';
  const fill = (n: number) => source.repeat(Math.ceil(n / source.length) + 1).slice(0, n);
  return fill(at) + astral + fill(tail);
}

/** The branch of an anyOf/oneOf node that `value` matches (else the first). */
function branchOf(at: SchemaAt, node: any, value: unknown): SchemaAt {
  for (const k of ['oneOf', 'anyOf'] as const) {
    if (!Array.isArray(node[k])) continue;
    const branches = (node[k] as unknown[]).map((_, i) => child(at, k, i));
    return deref(branches.find((b) => validateAt(b, plain(value)).length === 0) ?? branches[0]);
  }
  return at;
}

/** Every site of `value` under the schema `at` (the root first), down to `maxDepth`. */
export function sitesOf(value: unknown, at: SchemaAt | undefined, maxDepth = 8): Site[] {
  const out: Site[] = [];
  const walk = (v: unknown, a: SchemaAt | undefined, path: (string | number)[]) => {
    let at2 = a ? deref(a) : undefined;
    let node = at2 ? nodeAt(at2) : undefined;
    if (at2 && node && typeof node === 'object') {
      at2 = branchOf(at2, node, v);
      node = nodeAt(at2);
    }
    out.push({ path, ...(at2 ? { at: at2 } : {}), value: v });
    if (path.length >= maxDepth) return;
    if (Array.isArray(v)) v.forEach((e, i) => walk(e, at2 && node?.items ? child(at2, 'items') : undefined, [...path, i]));
    else if (v !== null && typeof v === 'object' && !(v instanceof RawJson) && !(v instanceof JsonEntries)) {
      for (const k of Object.keys(v)) {
        const sub =
          node?.properties?.[k] !== undefined
            ? child(at2!, 'properties', k)
            : node?.additionalProperties && typeof node.additionalProperties === 'object'
              ? child(at2!, 'additionalProperties')
              : undefined;
        walk((v as Record<string, unknown>)[k], sub, [...path, k]);
      }
    }
  };
  walk(value, at, []);
  return out;
}

/** Values at and past the bounds of the schema node of a site (numbers, string lengths, array lengths, enums). */
export function boundaryCandidates(site: Site): unknown[] {
  const node = site.at ? nodeAt(site.at) : undefined;
  const v = site.value;
  if (!node || typeof node !== 'object') return [null, -1, 2 ** 53, ''];
  if (Array.isArray(node.enum) && node.enum.length) {
    const e = node.enum[0];
    if (typeof e === 'string') return [e.toUpperCase(), ` ${e}`, `${e} `, `${e}x`, e.slice(0, -1), '', e.normalize('NFD') + '\u0301', e.replace(/-/g, '_')];
    if (typeof e === 'number') return [e + 1, e - 1, String(e), e + 0.5];
    return [String(e)];
  }
  const types = typesOf(node);
  if (types.includes('integer') || types.includes('number')) {
    const out: unknown[] = [];
    const min = typeof node.minimum === 'number' ? node.minimum : undefined;
    const max = typeof node.maximum === 'number' ? node.maximum : undefined;
    const exMin = typeof node.exclusiveMinimum === 'number' ? node.exclusiveMinimum : undefined;
    if (min !== undefined) out.push(min - 1, min, min - 0.5);
    if (max !== undefined) out.push(max + 1, max, max + 0.5);
    if (exMin !== undefined) out.push(exMin, exMin + Number.EPSILON);
    if (types.includes('integer')) out.push(1.5, (typeof v === 'number' ? v : 0) + 0.5);
    out.push(0, -1, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, -(2 ** 53) - 2, 1e308, -1e308, Number.MIN_VALUE, String(typeof v === 'number' ? v : 1));
    return out;
  }
  if (types.includes('string') && (node.format === 'uri' || node.format === 'url')) {
    // URLs a lenient URL parser takes and RFC 3986 does not
    return [...NEAR_URIS, 'x'.repeat(3000), ''];
  }
  if (types.includes('string')) {
    const out: unknown[] = [];
    if (typeof node.maxLength === 'number') out.push('x'.repeat(node.maxLength + 1), '😀'.repeat(node.maxLength), 'x'.repeat(node.maxLength));
    if (typeof node.minLength === 'number' && node.minLength > 0) out.push('x'.repeat(node.minLength - 1), 'x'.repeat(node.minLength));
    if (node.pattern) out.push(' ', 'a b', 'x'.repeat(300));
    out.push('', ' '.repeat(3), 'x'.repeat(10_001));
    return out;
  }
  if (types.includes('array')) {
    const arr = Array.isArray(v) ? v : [];
    const fill = (n: number) => Array.from({ length: n }, (_, i) => (arr.length ? arr[i % arr.length] : null));
    const out: unknown[] = [];
    if (typeof node.maxItems === 'number') out.push(fill(node.maxItems + 1), fill(node.maxItems));
    if (typeof node.minItems === 'number' && node.minItems > 0) out.push(fill(node.minItems - 1));
    out.push([], fill(1000));
    return out;
  }
  if (types.includes('object')) return [{}, [], { '': null }];
  return [null, 0, ''];
}

/** `value` with the node at `path` replaced by `replace(old)` (`undefined` removes it); copies along the path only. */
function replaceAt(value: unknown, path: readonly (string | number)[], replace: (old: unknown) => unknown): unknown {
  if (path.length === 0) return replace(value);
  const [head, ...rest] = path;
  if (Array.isArray(value)) {
    const copy = [...value];
    const next = replaceAt(copy[head as number], rest, replace);
    if (next === undefined && rest.length === 0) copy.splice(head as number, 1);
    else copy[head as number] = next;
    return copy;
  }
  if (value !== null && typeof value === 'object') {
    const copy: Record<string, unknown> = {};
    for (const k of Object.keys(value)) defineKey(copy, k, (value as Record<string, unknown>)[k]);
    const next = replaceAt(copy[head as string], rest, replace);
    if (next === undefined && rest.length === 0) delete copy[head as string];
    else defineKey(copy, head as string, next);
    return copy;
  }
  return value;
}

/** Nested arrays or objects `depth` levels deep, as raw JSON text. */
function nested(depth: number, objects: boolean): RawJson {
  return objects ? new RawJson('{"a":'.repeat(depth) + '1' + '}'.repeat(depth)) : new RawJson('['.repeat(depth) + ']'.repeat(depth));
}

/** The nearest site at or above `site` holding a plain object (its path), or undefined. */
function objectPathAtOrAbove(sites: Site[], site: Site): (string | number)[] | undefined {
  for (let n = site.path.length; n >= 0; n--) {
    const p = site.path.slice(0, n);
    const s = sites.find((x) => x.path.length === p.length && x.path.every((t, i) => t === p[i]));
    if (s && s.value !== null && typeof s.value === 'object' && !Array.isArray(s.value) && !(s.value instanceof RawJson)) return p;
  }
  return undefined;
}

/** An array property of a body schema: its path from the root (property names) and its items' schema. */
export interface ArraySlot {
  path: string[];
  items: SchemaAt;
}

/** Every array property reachable from the schema `at` through object properties (not through arrays), down to `maxDepth`. */
export function arraySlots(at: SchemaAt, maxDepth = 3, path: string[] = []): ArraySlot[] {
  const a = deref(at);
  const node = nodeAt(a);
  if (!node || typeof node !== 'object' || path.length > maxDepth) return [];
  if (typesOf(node).includes('array') && node.items) return path.length ? [{ path, items: child(a, 'items') }] : [];
  if (!node.properties) return [];
  return Object.keys(node.properties).flatMap((k) => arraySlots(child(a, 'properties', k), maxDepth, [...path, k]));
}

/** True when the schema of a site constrains a string by format or pattern. */
function hasFormatOrPattern(site: Site): boolean {
  const node = site.at ? nodeAt(site.at) : undefined;
  return typeof site.value === 'string' && !!node && (typeof node.format === 'string' || typeof node.pattern === 'string');
}

/** Applies one planned mutation to `value` (whose sites are `sites`); returns the new value (`undefined`: no body at all). */
export function applyMutation(value: unknown, sites: Site[], pm: PlannedMutation): unknown {
  const site = sites[pm.site % sites.length];
  const m = pm.m;
  switch (m.kind) {
    case 'remove':
      return replaceAt(value, site.path, () => undefined);
    case 'null':
      return replaceAt(value, site.path, () => null);
    case 'wrong-type': {
      const sameType = (a: unknown, b: unknown) =>
        (Array.isArray(a) ? 'array' : a === null ? 'null' : typeof a) === (Array.isArray(b) ? 'array' : b === null ? 'null' : typeof b);
      const replacement = sameType(m.value, site.value) ? (typeof site.value === 'string' ? 12345 : 'not-the-right-type') : m.value;
      return replaceAt(value, site.path, () => replacement);
    }
    case 'boundary': {
      const c = boundaryCandidates(site);
      return replaceAt(value, site.path, () => c[m.which % c.length]);
    }
    case 'add-item': {
      // append a valid item to the array at `path` (created when absent), maybe with a near miss in a constrained string of it
      let item = m.value;
      if (m.breakFormat !== undefined)
        item = applyMutation(item, sitesOf(item, m.items), { site: m.breakFormat, m: { kind: 'format-breaker', which: m.breakFormat } });
      let cur: unknown = value;
      for (const k of m.path) cur = cur !== null && typeof cur === 'object' && !Array.isArray(cur) ? (cur as Record<string, unknown>)[k] : undefined;
      return replaceAt(value, m.path, () => [...(Array.isArray(cur) ? cur : []), item]);
    }
    case 'format-breaker': {
      // a site constrained by a format or pattern (a URL, a base64 string, a ratio), given a near miss; else any site's boundary
      const constrained = sites.filter(hasFormatOrPattern);
      const target = constrained.length ? constrained[pm.site % constrained.length] : site;
      const c = boundaryCandidates(target);
      return replaceAt(value, target.path, () => c[m.which % c.length]);
    }
    case 'astral-at': {
      // a string site (else any site), its text rebuilt with an emoji at an index near one of its cut points
      const strings = sites.filter((x) => typeof x.value === 'string');
      const target = strings.length ? strings[pm.site % strings.length] : site;
      return replaceAt(value, target.path, () => astralNear(target.value, cutPointsOf(target), m));
    }
    case 'odd-string':
      return replaceAt(value, site.path, () => m.value);
    case 'long-string':
      return replaceAt(value, site.path, () => m.unit.repeat(Math.ceil(m.length / m.unit.length)));
    case 'array-for-object':
      return replaceAt(value, site.path, (old) => (old !== null && typeof old === 'object' && !Array.isArray(old) ? Object.values(old) : [old]));
    case 'object-for-array':
      return replaceAt(value, site.path, (old) => (Array.isArray(old) ? Object.fromEntries(old.map((e, i) => [String(i), e])) : { value: old }));
    case 'deep-nesting':
      return replaceAt(value, site.path, () => nested(m.depth, m.objects));
    case 'weird-number':
      return replaceAt(value, site.path, () => new RawJson(m.text));
    case 'proto-key':
    case 'extra-field': {
      const p = objectPathAtOrAbove(sites, site);
      if (!p) return new JsonEntries([[m.key, m.value]]);
      return replaceAt(value, p, (old) => {
        const copy: Record<string, unknown> = {};
        for (const k of Object.keys(old as object)) defineKey(copy, k, (old as Record<string, unknown>)[k]);
        defineKey(copy, m.key, m.value);
        return copy;
      });
    }
    case 'duplicate-key': {
      const p = objectPathAtOrAbove(sites, site);
      if (!p)
        return new JsonEntries([
          ['a', 1],
          ['a', m.value],
        ]);
      return replaceAt(value, p, (old) => {
        const entries = Object.keys(old as object).map((k) => [k, (old as Record<string, unknown>)[k]] as const);
        if (entries.length === 0)
          return new JsonEntries([
            ['a', 1],
            ['a', m.value],
          ]);
        const i = pm.site % entries.length;
        // the original first, the odd value last: JSON.parse keeps the last
        return new JsonEntries([...entries, [entries[i][0], m.value]]);
      });
    }
  }
}
