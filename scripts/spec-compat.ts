/**
 * Two rewrites of the emitted OpenAPI documents that change no meaning and
 * let OpenAPI tools that check schemas by shape read them (Scalar, the docs
 * site's renderer, reports "document validation errors: Expected union
 * value" for a referenced schema of either form):
 *
 * - `additionalProperties: {}` (any value, what a passthrough object emits)
 *   is written `additionalProperties: true`, its JSON Schema equivalent;
 * - a `oneOf` or `anyOf` without `type` whose members all declare the same
 *   one gets it on itself (`type: object` for a union of objects): every
 *   value the union accepts has that type, so the schema accepts the same
 *   values;
 * - a union of members of different types, each with keywords of its own type
 *   only (`anyOf: [{type: string, minLength: 1}, {type: integer}]`), is
 *   written as one schema with the list of types (`type: [string, integer],
 *   minLength: 1`): a keyword of one type says nothing of a value of another,
 *   so the schema accepts the same values.
 */

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** The types every member of a union declares (in order, once each), or undefined when a member declares none. */
function memberTypes(members: Json[]): string[] | undefined {
  const types: string[] = [];
  for (const m of members) {
    if (!m || typeof m !== 'object' || Array.isArray(m)) return undefined;
    const t = m.type;
    const list = typeof t === 'string' ? [t] : Array.isArray(t) && t.every((x) => typeof x === 'string') ? t : undefined;
    if (!list) return undefined;
    for (const x of list) if (!types.includes(x)) types.push(x);
  }
  return types.length ? types : undefined;
}

/** Keywords that apply to values of one type only (JSON Schema 2020-12, validation vocabulary), by type. */
const TYPE_KEYWORDS: Record<string, readonly string[]> = {
  string: ['minLength', 'maxLength', 'pattern', 'format'],
  integer: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  number: ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  boolean: [],
  null: [],
};

/** One schema for a union of members of distinct types with keywords of their own type only, or undefined. */
function mergedUnion(members: Json[]): { [k: string]: Json } | undefined {
  const out: { [k: string]: Json } = {};
  const types: string[] = [];
  for (const m of members) {
    if (!m || typeof m !== 'object' || Array.isArray(m) || typeof m.type !== 'string') return undefined;
    const own = TYPE_KEYWORDS[m.type];
    if (!own || types.includes(m.type)) return undefined;
    types.push(m.type);
    for (const [k, x] of Object.entries(m)) {
      if (k === 'type') continue;
      if (!own.includes(k) || k in out) return undefined;
      out[k] = x;
    }
  }
  // integer and number overlap: a oneOf of the two is not their union
  if (types.includes('integer') && types.includes('number')) return undefined;
  return { type: types, ...out };
}

/** Rewrites `doc` in place (see the file's comment); returns it. */
export function explicitSchemaShapes<T>(doc: T): T {
  const walk = (v: Json) => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (!v || typeof v !== 'object') return;
    const ap = v.additionalProperties;
    if (ap && typeof ap === 'object' && !Array.isArray(ap) && Object.keys(ap).length === 0) v.additionalProperties = true;
    for (const key of ['oneOf', 'anyOf'] as const) {
      const members = v[key];
      if (v.type !== undefined || v.$ref !== undefined || !Array.isArray(members)) continue;
      const types = memberTypes(members);
      const merged = types && types.length > 1 ? mergedUnion(members) : undefined;
      if (merged) {
        delete v[key];
        Object.assign(v, merged);
      } else if (types?.length === 1) v.type = types[0];
    }
    for (const [k, x] of Object.entries(v)) if (k !== 'example' && k !== 'examples' && k !== 'default' && k !== 'const' && k !== 'enum') walk(x);
  };
  walk(doc as Json);
  return doc;
}
