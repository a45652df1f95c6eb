/**
 * Request bodies from the emitted JSON Schemas: a plausible valid body (its
 * defaults, examples, first enum values, smallest allowed numbers and lengths)
 * and, from a valid body, one body per rule the schema carries that breaks
 * that rule alone (a required field missing; an enum, minimum, maximum,
 * minLength, maxLength, minItems or maxItems violated; a wrong type), nested
 * objects and the first item of arrays of objects included (the rule
 * fragments under `allOf`: verify/negations.ts); for multipart bodies, one
 * form per required part left out, and a form of any body (`formOf`).
 */
import { resolve, type ApiDocument, type JsonSchema } from './document.ts';

/** A body breaking one rule of a field's own schema: the rule's name (`maximum duration`) and the body. */
export interface BrokenBody {
  rule: string;
  body: Record<string, unknown>;
}

const typeOf = (s: JsonSchema): string | undefined => {
  if (Array.isArray(s.type)) return s.type.find((t) => t !== 'null');
  return s.type;
};

/** A value valid for `schema` as far as its own keywords say (cross-field rules are not in the schema). */
export function sampleValue(doc: ApiDocument, node: JsonSchema | undefined, depth = 0): unknown {
  const s = resolve(doc, node);
  if (!s || depth > 8) return undefined;
  if (s.const !== undefined) return s.const;
  if (s.default !== undefined) return s.default;
  if (s.example !== undefined) return s.example;
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if (s.enum?.length) return s.enum[0];
  const alt = s.oneOf ?? s.anyOf;
  if (alt?.length) return sampleValue(doc, alt.find((a) => resolve(doc, a)?.type !== 'null') ?? alt[0], depth + 1);
  switch (typeOf(s)) {
    case 'string':
      if (s.format === 'uri') return 'https://example.com/verify';
      return 'verify'.padEnd(s.minLength ?? 0, 'x').slice(0, s.maxLength ?? 64);
    case 'integer':
    case 'number':
      return s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : (s.maximum ?? 1));
    case 'boolean':
      return false;
    case 'array':
      return Array.from({ length: s.minItems ?? 0 }, () => sampleValue(doc, s.items, depth + 1));
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const name of s.required ?? []) out[name] = sampleValue(doc, s.properties?.[name], depth + 1);
      return out;
    }
    default:
      return undefined;
  }
}

/**
 * Bodies breaking each rule of `schema`'s fields, each from `base` (a valid
 * body): the rules of every field, nested objects and the first item of
 * arrays of objects included (`imageConfig.aspectRatio`, `voices[0].id`).
 * The rule fragments under `allOf` are broken by verify/negations.ts.
 */
export function brokenBodies(doc: ApiDocument, schema: JsonSchema, base: Record<string, unknown>, seed = 1): BrokenBody[] {
  return brokenFields(doc, schema, base, seed, '', (v) => v, 0);
}

/** The rules of the object `value` (at `prefix` of the body), each broken alone; `wrap` puts a changed object back into the whole body. */
function brokenFields(
  doc: ApiDocument,
  schema: JsonSchema,
  value: Record<string, unknown>,
  seed: number,
  prefix: string,
  wrap: (v: Record<string, unknown>) => Record<string, unknown>,
  depth: number,
): BrokenBody[] {
  const s = resolve(doc, schema);
  if (!s || typeOf(s) !== 'object' || !s.properties || depth > 3) return [];
  const out: BrokenBody[] = [];
  const withField = (name: string, v: unknown) => wrap({ ...value, [name]: v });
  for (const name of s.required ?? []) {
    if (!(name in value)) continue;
    const { [name]: _dropped, ...rest } = value;
    out.push({ rule: `required ${prefix}${name}`, body: wrap(rest) });
  }
  for (const [name, raw] of Object.entries(s.properties)) {
    const p = resolve(doc, raw);
    if (!p || p.oneOf || p.anyOf) continue;
    const type = typeOf(p);
    const at = `${prefix}${name}`;
    if (Array.isArray(p.type) && p.type.includes('null')) continue;
    if (p.enum?.length && p.enum.every((v) => typeof v === 'string')) out.push({ rule: `enum ${at}`, body: withField(name, `not-declared-${seed}`) });
    if (type === 'integer' || type === 'number') {
      if (p.minimum !== undefined) out.push({ rule: `minimum ${at}`, body: withField(name, p.minimum - 1) });
      if (p.exclusiveMinimum !== undefined) out.push({ rule: `exclusiveMinimum ${at}`, body: withField(name, p.exclusiveMinimum) });
      if (p.maximum !== undefined) out.push({ rule: `maximum ${at}`, body: withField(name, p.maximum + 1) });
      if (p.exclusiveMaximum !== undefined) out.push({ rule: `exclusiveMaximum ${at}`, body: withField(name, p.exclusiveMaximum) });
      out.push({ rule: `type ${at}`, body: withField(name, 'not-a-number') });
    } else if (type === 'string') {
      if (p.maxLength !== undefined && p.maxLength < 100_000) out.push({ rule: `maxLength ${at}`, body: withField(name, 'x'.repeat(p.maxLength + 1)) });
      if ((p.minLength ?? 0) > 0) out.push({ rule: `minLength ${at}`, body: withField(name, '') });
      out.push({ rule: `type ${at}`, body: withField(name, 12345) });
    } else if (type === 'boolean') {
      out.push({ rule: `type ${at}`, body: withField(name, 'not-a-boolean') });
    } else if (type === 'array') {
      const have = Array.isArray(value[name]) ? (value[name] as unknown[]) : [];
      if (p.maxItems !== undefined && have.length && p.maxItems < 1000)
        out.push({
          rule: `maxItems ${at}`,
          body: withField(
            name,
            Array.from({ length: p.maxItems + 1 }, (_, i) => have[i % have.length]),
          ),
        });
      if ((p.minItems ?? 0) > 0) out.push({ rule: `minItems ${at}`, body: withField(name, []) });
      out.push({ rule: `type ${at}`, body: withField(name, 'not-an-array') });
      // the rules of the first item, when it is an object
      const first = have[0];
      if (first && typeof first === 'object' && !Array.isArray(first))
        out.push(...brokenFields(doc, p.items!, first as Record<string, unknown>, seed, `${at}[0].`, (v) => withField(name, [v, ...have.slice(1)]), depth + 1));
    } else if (type === 'object') {
      out.push({ rule: `type ${at}`, body: withField(name, 'not-an-object') });
      const inner = value[name];
      if (inner && typeof inner === 'object' && !Array.isArray(inner))
        out.push(...brokenFields(doc, p, inner as Record<string, unknown>, seed, `${at}.`, (v) => withField(name, v), depth + 1));
    }
  }
  return out;
}

/** A multipart form breaking one rule: the rule's name and a maker of the form (a FormData is sent once). */
export interface BrokenForm {
  rule: string;
  form: () => FormData;
}

/** The text or file of one multipart part, valid as far as its schema says (a file: a few bytes named verify.mp3). */
function formValues(doc: ApiDocument, node: JsonSchema | undefined): (string | Blob)[] {
  const s = resolve(doc, node);
  if (!s) return [];
  if (typeOf(s) === 'array') return formValues(doc, s.items).slice(0, 1);
  if (s.format === 'binary') return [new File([new TextEncoder().encode('verify')], 'verify.mp3', { type: 'audio/mpeg' })];
  const v = sampleValue(doc, s);
  return v === undefined ? [] : [typeof v === 'string' ? v : JSON.stringify(v)];
}

/**
 * Forms breaking each required part of a multipart schema: every other
 * required part filled (texts from the schema, files as a few bytes), the
 * part itself left out. Nested and conditional rules are not derived here.
 */
export function brokenForms(doc: ApiDocument, schema: JsonSchema | undefined): BrokenForm[] {
  const s = resolve(doc, schema);
  if (!s || !s.properties) return [];
  const required = s.required ?? [];
  const forms: BrokenForm[] = [];
  // exactly (or at least) one of some parts: none of them sent
  for (const frag of (s.allOf as JsonSchema[] | undefined) ?? []) {
    const alt = (frag.oneOf ?? frag.anyOf)?.map((a) => resolve(doc, a)?.required);
    if (!alt?.length || !alt.every((r) => r?.length === 1)) continue;
    forms.push({
      rule: `${frag.oneOf ? 'exactly' : 'at least'} one of ${alt.map((r) => r![0]).join(', ')}: none`,
      form: () => {
        const f = new FormData();
        for (const name of required) for (const v of formValues(doc, s.properties![name])) f.append(name, v);
        return f;
      },
    });
  }
  return forms.concat(
    required.map((missing) => ({
      rule: `required part ${missing}`,
      form: () => {
        const f = new FormData();
        for (const name of required) if (name !== missing) for (const v of formValues(doc, s.properties![name])) f.append(name, v);
        return f;
      },
    })),
  );
}

/**
 * `body` as a multipart form of `schema`: a binary part (or each item of an array of them) as a few bytes named
 * verify.mp3, a text as it is, any other value as JSON text (a number, a boolean: their text).
 */
export function formOf(doc: ApiDocument, schema: JsonSchema | undefined, body: Record<string, unknown>): FormData {
  const s = resolve(doc, schema);
  const f = new FormData();
  for (const [name, value] of Object.entries(body)) {
    const p = resolve(doc, s?.properties?.[name]);
    const binary = p?.format === 'binary' || resolve(doc, p?.items)?.format === 'binary';
    for (const v of Array.isArray(value) && (binary || typeOf(p ?? {}) === 'array') ? value : [value]) {
      if (binary) f.append(name, new File([new TextEncoder().encode('verify')], 'verify.mp3', { type: 'audio/mpeg' }));
      else f.append(name, typeof v === 'string' ? v : JSON.stringify(v));
    }
  }
  return f;
}
