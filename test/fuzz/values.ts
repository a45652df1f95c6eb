/**
 * Values the fuzzer sends, and how they are written: pool references (a task
 * id or key chosen when the request is sent, from what the run has seen),
 * raw JSON text (numbers JSON.parse turns into Infinity, nesting too deep to
 * build as objects), objects with duplicate keys, and files of multipart
 * bodies. `toJsonText` writes a value with all of them.
 */
import fc from 'fast-check';

/** Any UTF-16 code unit, lone surrogates and control characters included (fast-check's 'binary' unit costs a second to build). */
export const CODE_UNIT: fc.Arbitrary<string> = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));

/** A value drawn when the request is sent: entry `index` (modulo the size) of pool `pool`, or `fallback` while the pool is empty. */
export class PoolRef {
  constructor(
    readonly pool: string,
    readonly index: number,
    readonly fallback: string,
  ) {}

  [fc.toStringMethod](): string {
    return `PoolRef(${this.pool}#${this.index}, ${JSON.stringify(this.fallback.slice(0, 40))})`;
  }
}

/** JSON text written as is (e.g. `1e400`, `[[[[...]]]]`). */
export class RawJson {
  constructor(readonly text: string) {}

  [fc.toStringMethod](): string {
    return `RawJson(${this.text.length > 60 ? `${this.text.slice(0, 60)}... (${this.text.length} chars)` : this.text})`;
  }
}

/** An object written with its entries in order, keys possibly repeated. */
export class JsonEntries {
  constructor(readonly entries: readonly (readonly [string, unknown])[]) {}

  [fc.toStringMethod](): string {
    return `JsonEntries(${this.entries.map(([k]) => JSON.stringify(k)).join(', ')})`;
  }
}

/** A file of a multipart body: `size` bytes of `bytes` repeated (so a large file costs nothing to describe). */
export class FileValue {
  constructor(
    readonly bytes: Uint8Array,
    readonly size: number,
    readonly filename: string,
    readonly contentType: string | undefined,
  ) {}

  /** The file's bytes. */
  materialize(): Buffer {
    return this.bytes.length === 0 ? Buffer.alloc(this.size) : Buffer.alloc(this.size, this.bytes);
  }

  [fc.toStringMethod](): string {
    return `FileValue(${JSON.stringify(this.filename)}, ${this.size} bytes, ${this.contentType ?? '(no type)'})`;
  }
}

/** An own, enumerable property `key` of `obj` (works for `__proto__`, which plain assignment would not create). */
export function defineKey(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A copy of `value` with every PoolRef replaced by `resolve(ref)`. */
export function resolveRefs(value: unknown, resolve: (ref: PoolRef) => string): unknown {
  if (value instanceof PoolRef) return resolve(value);
  if (value instanceof JsonEntries) return new JsonEntries(value.entries.map(([k, v]) => [k, resolveRefs(v, resolve)] as const));
  if (value instanceof RawJson || value instanceof FileValue) return value;
  if (Array.isArray(value)) return value.map((v) => resolveRefs(v, resolve));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value)) defineKey(out, k, resolveRefs((value as Record<string, unknown>)[k], resolve));
    return out;
  }
  return value;
}

/** JSON text of `value` (RawJson as is, JsonEntries in order, PoolRefs as their fallback); lone surrogates escaped as JSON.stringify does. */
export function toJsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (value instanceof PoolRef) return JSON.stringify(value.fallback);
  if (value instanceof FileValue) return JSON.stringify(value.filename);
  if (value instanceof JsonEntries) return `{${value.entries.map(([k, v]) => `${JSON.stringify(k)}:${toJsonText(v)}`).join(',')}}`;
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : toJsonText(v))).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const parts: string[] = [];
    for (const k of Object.keys(value)) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined) parts.push(`${JSON.stringify(k)}:${toJsonText(v)}`);
    }
    return `{${parts.join(',')}}`;
  }
  if (value === undefined) return 'null';
  return JSON.stringify(value);
}

/** True when `value` holds a PoolRef, RawJson, JsonEntries or FileValue anywhere. */
function hasSpecial(value: unknown): boolean {
  if (value instanceof PoolRef || value instanceof RawJson || value instanceof JsonEntries || value instanceof FileValue) return true;
  if (value === null || typeof value !== 'object') return false;
  return (Array.isArray(value) ? value : Object.values(value)).some(hasSpecial);
}

/** A plain JSON value for validating a generated value: PoolRefs as their fallbacks, special nodes as what they parse to where possible (the value itself when it has none). */
export function plain(value: unknown): unknown {
  return hasSpecial(value) ? plainCopy(value) : value;
}

function plainCopy(value: unknown): unknown {
  if (value instanceof PoolRef) return value.fallback;
  if (value instanceof RawJson) {
    try {
      return JSON.parse(value.text);
    } catch {
      return undefined;
    }
  }
  if (value instanceof FileValue) return value.filename;
  if (value instanceof JsonEntries) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of value.entries) defineKey(out, k, plainCopy(v));
    return out;
  }
  if (Array.isArray(value)) return value.map(plainCopy);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value)) defineKey(out, k, plainCopy((value as Record<string, unknown>)[k]));
    return out;
  }
  return value;
}
