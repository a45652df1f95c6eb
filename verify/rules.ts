/**
 * Request bodies from the emitted JSON Schemas: a plausible valid body (its
 * defaults, examples, first enum values, smallest allowed numbers and lengths)
 * and, from a valid body, one body per rule the schema carries that breaks
 * that rule alone (a required field missing; an enum, minimum, maximum,
 * minLength, maxLength, minItems or maxItems violated; a wrong type). Only the
 * top-level fields of an object body are broken: nested rules are the server's
 * to report but not the verifier's to derive (assumed: enough to tell a server
 * that does not validate from one that does).
 */
import { resolve, type ApiDocument, type JsonSchema } from './document.ts';

/** A body breaking one rule: the rule's name (`maximum duration`) and the body. */
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

/** Bodies breaking each top-level rule of `schema`, each from `base` (a valid body). */
export function brokenBodies(doc: ApiDocument, schema: JsonSchema, base: Record<string, unknown>, seed = 1): BrokenBody[] {
  const s = resolve(doc, schema);
  if (!s || typeOf(s) !== 'object' || !s.properties) return [];
  const out: BrokenBody[] = [];
  const withField = (name: string, value: unknown) => ({ ...base, [name]: value });
  for (const name of s.required ?? []) {
    if (!(name in base)) continue;
    const { [name]: _dropped, ...rest } = base;
    out.push({ rule: `required ${name}`, body: rest });
  }
  for (const [name, raw] of Object.entries(s.properties)) {
    const p = resolve(doc, raw);
    if (!p || p.oneOf || p.anyOf) continue;
    const type = typeOf(p);
    if (Array.isArray(p.type) && p.type.includes('null')) continue;
    if (p.enum?.length && p.enum.every((v) => typeof v === 'string')) out.push({ rule: `enum ${name}`, body: withField(name, `not-declared-${seed}`) });
    if (type === 'integer' || type === 'number') {
      if (p.minimum !== undefined) out.push({ rule: `minimum ${name}`, body: withField(name, p.minimum - 1) });
      if (p.exclusiveMinimum !== undefined) out.push({ rule: `exclusiveMinimum ${name}`, body: withField(name, p.exclusiveMinimum) });
      if (p.maximum !== undefined) out.push({ rule: `maximum ${name}`, body: withField(name, p.maximum + 1) });
      if (p.exclusiveMaximum !== undefined) out.push({ rule: `exclusiveMaximum ${name}`, body: withField(name, p.exclusiveMaximum) });
      out.push({ rule: `type ${name}`, body: withField(name, 'not-a-number') });
    } else if (type === 'string') {
      if (p.maxLength !== undefined && p.maxLength < 100_000) out.push({ rule: `maxLength ${name}`, body: withField(name, 'x'.repeat(p.maxLength + 1)) });
      if ((p.minLength ?? 0) > 0) out.push({ rule: `minLength ${name}`, body: withField(name, '') });
      out.push({ rule: `type ${name}`, body: withField(name, 12345) });
    } else if (type === 'boolean') {
      out.push({ rule: `type ${name}`, body: withField(name, 'not-a-boolean') });
    } else if (type === 'array') {
      const have = Array.isArray(base[name]) ? (base[name] as unknown[]) : [];
      if (p.maxItems !== undefined && have.length && p.maxItems < 1000) {
        out.push({
          rule: `maxItems ${name}`,
          body: withField(
            name,
            Array.from({ length: p.maxItems + 1 }, (_, i) => have[i % have.length]),
          ),
        });
      }
      if ((p.minItems ?? 0) > 0) out.push({ rule: `minItems ${name}`, body: withField(name, []) });
      out.push({ rule: `type ${name}`, body: withField(name, 'not-an-array') });
    } else if (type === 'object') {
      out.push({ rule: `type ${name}`, body: withField(name, 'not-an-object') });
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
  return required.map((missing) => ({
    rule: `required part ${missing}`,
    form: () => {
      const f = new FormData();
      for (const name of required) if (name !== missing) for (const v of formValues(doc, s.properties![name])) f.append(name, v);
      return f;
    },
  }));
}
