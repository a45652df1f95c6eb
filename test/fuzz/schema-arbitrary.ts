/**
 * fast-check arbitraries of the values a JSON Schema of the emitted documents
 * accepts (the subset the documents use: type and type lists, const, enum,
 * properties, required, additionalProperties, items, minItems and maxItems,
 * minimum, maximum and their exclusive forms, minLength, maxLength, pattern,
 * formats uri and binary, anyOf, oneOf, allOf, $ref, default). Values are
 * varied on purpose: unicode in strings, boundaries of ranges and lengths.
 *
 * `hints` lets the caller mix into a plain string or integer (no enum, pattern
 * or format) something more useful under its property name, such as a task id
 * the run has seen (a PoolRef) or a status code an operation declares, so
 * generated requests reach more than validation (the items of an array
 * property carry the property's name).
 */
import fc from 'fast-check';
import { child, deref, nodeAt, validateAt, type SchemaAt } from './documents.ts';
import { CODE_UNIT, FileValue, PoolRef, plain } from './values.ts';

/** Supplies a better arbitrary for a plain string property or parameter, by its name. */
export type Hints = (name: string | undefined, at: SchemaAt) => fc.Arbitrary<unknown> | undefined;

export interface SchemaArbitraryOptions {
  hints?: Hints;
  /** Longest generated array past minItems when maxItems is large or absent. */
  maxExtraItems?: number;
  /** Longest generated plain string (a maxLength up to this is sometimes reached exactly). */
  maxStringLength?: number;
}

const MAX_DEPTH = 12;

/** Strings of every kind of character: ASCII, full unicode graphemes, any code unit (lone surrogates included). */
function textArb(minLength: number, maxLength: number): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ minLength, maxLength, unit: 'grapheme-ascii' }) },
    { weight: 2, arbitrary: fc.string({ minLength, maxLength, unit: 'grapheme' }) },
    { weight: 1, arbitrary: fc.string({ minLength, maxLength, unit: CODE_UNIT }) },
  );
}

const PATH_CHARS = [..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@", '%20', '%E2%9C%93', '%F0%9F%98%80'];
const LABEL = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,12}[a-z0-9])?$/);

/** URLs that the document's `format: uri` accepts: http(s) and a few other schemes, hosts by name, IPv4 and IPv6, percent-encoded paths, queries and fragments. */
export function uriArb(): fc.Arbitrary<string> {
  const host = fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .tuple(fc.array(LABEL, { minLength: 1, maxLength: 3 }), fc.constantFrom('com', 'org', 'io', 'example', 'xn--p1ai'))
        .map(([l, tld]) => [...l, tld].join('.')),
    },
    { weight: 1, arbitrary: fc.constantFrom('127.0.0.1', '[::1]', '[2001:db8::7]', 'localhost', '10.0.0.1:8080', 'example.com:443') },
  );
  const segment = fc.string({ unit: fc.constantFrom(...PATH_CHARS), maxLength: 12 });
  const path = fc.array(segment, { maxLength: 4 }).map((segs) => segs.map((x) => `/${x}`).join(''));
  const suffix = fc.option(fc.string({ unit: fc.constantFrom(...PATH_CHARS, '/', '?'), maxLength: 16 }), { nil: undefined });
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .tuple(fc.constantFrom('https', 'http', 'HTTPS', 'gs', 's3', 'ftp'), host, path, suffix, suffix)
        .map(([sc, h, p, q, f]) => `${sc}://${h}${p}${q !== undefined ? `?${q}` : ''}${f !== undefined ? `#${f}` : ''}`),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom('https://example.com/cat.png', 'http://127.0.0.1:1/a.mp4', 'https://[::1]/x', 'https://example.com/%E2%9C%93.png'),
    },
  );
}

/** Number bounds of a schema node, exclusive bounds turned inclusive for integers. */
function bounds(node: any, integer: boolean): { min?: number; max?: number; minExcluded: boolean; maxExcluded: boolean } {
  let min: number | undefined = typeof node.minimum === 'number' ? node.minimum : undefined;
  let max: number | undefined = typeof node.maximum === 'number' ? node.maximum : undefined;
  let minExcluded = false;
  let maxExcluded = false;
  if (typeof node.exclusiveMinimum === 'number' && (min === undefined || node.exclusiveMinimum >= min)) {
    min = node.exclusiveMinimum;
    minExcluded = true;
  }
  if (typeof node.exclusiveMaximum === 'number' && (max === undefined || node.exclusiveMaximum <= max)) {
    max = node.exclusiveMaximum;
    maxExcluded = true;
  }
  if (integer) {
    if (min !== undefined) min = minExcluded ? Math.floor(min) + 1 : Math.ceil(min);
    if (max !== undefined) max = maxExcluded ? Math.ceil(max) - 1 : Math.floor(max);
    minExcluded = maxExcluded = false;
  }
  return { min, max, minExcluded, maxExcluded };
}

/** The JSON types a node admits (from `type`, or guessed from its keywords). */
export function typesOf(node: any): string[] {
  if (Array.isArray(node?.type)) return node.type as string[];
  if (typeof node?.type === 'string') return [node.type];
  if (node?.properties || node?.additionalProperties !== undefined || node?.required) return ['object'];
  if (node?.items) return ['array'];
  return [];
}

/** A union's branch that says what it is (its own type, $ref, properties, const or enum), not only constraints on a value described beside it. */
function selfDescribing(branch: unknown): boolean {
  return typeof branch === 'object' && branch !== null && ['type', '$ref', 'properties', 'const', 'enum'].some((k) => k in branch);
}

/** Candidates `valid` draws for a schema with request rules before it takes the schema's example. */
const VALID_CANDIDATES = 8;

/** Builds arbitraries for schema nodes of the documents (memoized per node, property name and type). */
export class SchemaArbitraries {
  private memo = new Map<string, fc.Arbitrary<unknown>>();

  constructor(private readonly opts: SchemaArbitraryOptions = {}) {}

  /** Values the schema `at` accepts (checked with ajv; a PoolRef counts as its fallback). */
  valid(at: SchemaAt, name?: string): fc.Arbitrary<unknown> {
    const ok = (v: unknown) => validateAt(at, plain(v)).length === 0;
    const node = nodeAt(deref(at));
    const example = typeof node === 'object' && node !== null && 'example' in node && ok(node.example) ? node.example : undefined;
    // a schema with request rules (allOf of if/then fragments: docs/rules.md) accepts few of the values its properties
    // allow, and a plain filter would draw for ever: draw a few candidates and fall back to the schema's own example
    if (example !== undefined && Array.isArray(node.allOf))
      return fc.array(this.of(at, name, 0), { minLength: VALID_CANDIDATES, maxLength: VALID_CANDIDATES }).map((vs) => vs.find(ok) ?? structuredClone(example));
    return this.of(at, name, 0).filter(ok);
  }

  /** Values of the schema `at`, unchecked (the building block of `valid`). */
  of(at: SchemaAt, name: string | undefined, depth: number, only?: string): fc.Arbitrary<unknown> {
    const key = `${at.doc}#${at.pointer}|${name ?? ''}|${only ?? ''}`;
    let arb = this.memo.get(key);
    if (!arb) {
      arb = this.build(at, name, depth, only);
      this.memo.set(key, arb);
    }
    return arb;
  }

  private build(at0: SchemaAt, name: string | undefined, depth: number, only?: string): fc.Arbitrary<unknown> {
    const at = deref(at0);
    const node = nodeAt(at);
    if (node === true || node === undefined || (typeof node === 'object' && Object.keys(node).every((k) => k === 'description' || k.startsWith('x-'))))
      return fc.jsonValue({ maxDepth: 2 });
    if (node === false) throw new Error(`fuzz: schema ${at.doc}#${at.pointer} accepts nothing`);
    if (depth > MAX_DEPTH) return fc.constant(null);
    if ('const' in node) return fc.constant(node.const);
    if (Array.isArray(node.enum)) return fc.constantFrom(...(node.enum as unknown[]));
    for (const k of ['anyOf', 'oneOf'] as const) {
      // branches that only constrain an object described beside them (anyOf: [{required: [a]}, {required: [b]}]):
      // generate the object, and let the filter of `valid` keep the values a branch accepts
      // (a union whose branches describe themselves may also carry the type they share beside it: scripts/spec-compat.ts)
      if (Array.isArray(node[k]) && node.properties === undefined && (node.type === undefined || (node[k] as unknown[]).every(selfDescribing)))
        return fc.oneof(...(node[k] as unknown[]).map((_, i) => this.of(child(at, k, i), name, depth + 1)));
    }
    if (Array.isArray(node.allOf) && node.type === undefined && node.properties === undefined) {
      // allOf beside no keywords of its own adds keywords to a $ref: generate from the first branch, the filter of
      // `valid` keeps the rest (allOf beside properties holds request rules: generated from the properties, checked by `valid`)
      return this.of(child(at, 'allOf', 0), name, depth + 1);
    }
    // allOf beside a schema of its own carries the request rules (schemas/rules.ts: if/then fragments); the object is
    // generated from the schema, and the filter of `valid` keeps the values the rules accept
    const types = only ? [only] : typesOf(node);
    if (types.length === 0) return fc.jsonValue({ maxDepth: 2 });
    if (types.length > 1) return fc.oneof(...types.map((t) => this.of(at, name, depth, t)));
    switch (types[0]) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer':
        return this.hinted(this.integer(node), name, at);
      case 'number':
        return this.number(node);
      case 'string':
        return this.string(at, node, name);
      case 'array':
        return this.array(at, node, depth, name);
      case 'object':
        return this.object(at, node, depth);
      default:
        throw new Error(`fuzz: unsupported type ${String(types[0])} at ${at.doc}#${at.pointer}`);
    }
  }

  private integer(node: any): fc.Arbitrary<number> {
    const b = bounds(node, true);
    if (b.min === undefined && b.max === undefined) return fc.oneof({ weight: 5, arbitrary: fc.integer() }, { weight: 1, arbitrary: fc.maxSafeInteger() });
    const min = b.min ?? Math.min(b.max! - 2 ** 31, Number.MIN_SAFE_INTEGER + 1);
    const max = b.max ?? Math.max(b.min! + 2 ** 31, b.min! + 1000);
    const safeMin = Math.max(min, Number.MIN_SAFE_INTEGER);
    const safeMax = Math.min(max, Number.MAX_SAFE_INTEGER);
    return fc.oneof({ weight: 6, arbitrary: fc.integer({ min: safeMin, max: safeMax }) }, { weight: 1, arbitrary: fc.constantFrom(safeMin, safeMax) });
  }

  private number(node: any): fc.Arbitrary<number> {
    const b = bounds(node, false);
    const double = fc.double({
      noNaN: true,
      noDefaultInfinity: true,
      ...(b.min !== undefined ? { min: b.min, minExcluded: b.minExcluded } : { min: -1e12 }),
      ...(b.max !== undefined ? { max: b.max, maxExcluded: b.maxExcluded } : { max: 1e12 }),
    });
    const ints = fc
      .integer({ min: Math.ceil(b.min ?? -1e6), max: Math.floor(b.max ?? 1e6) })
      .filter((n) => !(b.minExcluded && n === b.min) && !(b.maxExcluded && n === b.max));
    return fc.oneof(double, ints).map((n) => (Object.is(n, -0) ? 0 : n));
  }

  private string(at: SchemaAt, node: any, name: string | undefined): fc.Arbitrary<unknown> {
    const minLength: number = node.minLength ?? 0;
    const maxLength: number | undefined = node.maxLength;
    const longest = this.opts.maxStringLength ?? 40;
    if (node.format === 'binary') return fc.uint8Array({ maxLength: 64 }).map((b) => new FileValue(b, b.length, 'file.bin', 'application/octet-stream'));
    if (node.format === 'uri' || node.format === 'uri-reference' || node.format === 'url') return uriArb();
    if (typeof node.pattern === 'string') {
      const re = new RegExp(node.pattern);
      return fc.stringMatching(re).filter((s) => s.length >= minLength && (maxLength === undefined || s.length <= maxLength));
    }
    if (typeof node.format === 'string') {
      const f = this.formatted(node.format);
      if (f) return f;
    }
    const upper = Math.max(minLength, Math.min(maxLength ?? longest, longest));
    const parts: fc.Arbitrary<string>[] = [textArb(minLength, upper)];
    // the longest accepted string, when the schema says how long that is
    if (maxLength !== undefined && maxLength > upper && maxLength <= 10_000) parts.push(textArb(maxLength, maxLength));
    const base = parts.length === 1 ? parts[0] : fc.oneof({ weight: 5, arbitrary: parts[0] }, { weight: 1, arbitrary: parts[1] });
    return this.hinted(base, name, at);
  }

  /** `base` mixed with the hint for `name`, when there is one (3 in 4 from the hint). */
  private hinted(base: fc.Arbitrary<unknown>, name: string | undefined, at: SchemaAt): fc.Arbitrary<unknown> {
    const hint = this.opts.hints?.(name, at);
    return hint ? fc.oneof({ weight: 3, arbitrary: hint }, { weight: 1, arbitrary: base }) : base;
  }

  private formatted(format: string): fc.Arbitrary<string> | undefined {
    switch (format) {
      case 'date-time':
        return fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(4e12) }).map((d) => d.toISOString());
      case 'email':
        return fc.emailAddress();
      case 'uuid':
        return fc.uuid();
      default:
        return undefined;
    }
  }

  private array(at: SchemaAt, node: any, depth: number, name: string | undefined): fc.Arbitrary<unknown[]> {
    // a tuple (prefixItems): exactly its items
    if (Array.isArray(node.prefixItems))
      return fc.tuple(...(node.prefixItems as unknown[]).map((_, i) => this.of(child(at, 'prefixItems', i), name, depth + 1)));
    const minLength: number = node.minItems ?? 0;
    // nested arrays stay short, so large documents (a saved state) stay cheap to generate and check
    const extra = depth >= 2 ? 1 : (this.opts.maxExtraItems ?? 4);
    const maxItems: number | undefined = node.maxItems;
    const maxLength = maxItems !== undefined && maxItems <= 16 && depth < 2 ? maxItems : Math.min(maxItems ?? Infinity, minLength + extra);
    const items = node.items ? this.of(child(at, 'items'), name, depth + 1) : fc.jsonValue({ maxDepth: 1 });
    return fc.array(items, { minLength, maxLength });
  }

  private object(at: SchemaAt, node: any, depth: number): fc.Arbitrary<Record<string, unknown>> {
    const props: Record<string, unknown> = node.properties ?? {};
    const required = new Set<string>(Array.isArray(node.required) ? node.required : []);
    const names = Object.keys(props);
    const shape: Record<string, fc.Arbitrary<unknown>> = {};
    for (const n of names) shape[n] = this.of(child(at, 'properties', n), n, depth + 1);
    const rec = names.length ? fc.record(shape, { requiredKeys: names.filter((n) => required.has(n)), noNullPrototype: true }) : fc.constant({});
    const ap = node.additionalProperties;
    if (ap && typeof ap === 'object' && Object.keys(ap).length > 0 && names.length === 0) {
      const values = this.of(child(at, 'additionalProperties'), undefined, depth + 1);
      return fc.dictionary(fc.string({ minLength: 1, maxLength: 16, unit: 'grapheme' }), values, { maxKeys: depth >= 2 ? 2 : 5, noNullPrototype: true });
    }
    return rec;
  }
}

/** A PoolRef of `pool` with a fallback drawn from `fallback`. */
export function poolRefArb(pool: string, fallback: fc.Arbitrary<string>): fc.Arbitrary<PoolRef> {
  return fc.tuple(fc.nat({ max: 1_000_000 }), fallback).map(([i, f]) => new PoolRef(pool, i, f));
}
