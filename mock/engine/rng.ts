/**
 * Seeded randomness (docs/architecture.md, "The engine"). Every random value is derived
 * from (seed, entity id, purpose), never from a global stream, so one account's
 * traffic cannot change what another sees. FNV-1a mixing and a mulberry32 stream.
 */

/** 32-bit hash of the parts (FNV-1a over their string forms joined with U+0000, then avalanche). */
export function hash32(...parts: (string | number)[]): number {
  let h = 0x811c9dc5;
  // the joined text is hashed as it is read, part by part, without building it
  for (let p = 0; p < parts.length; p++) {
    if (p > 0) h = Math.imul(h, 0x01000193); // the separator: h ^= 0, then the multiply
    const part = parts[p];
    const s = typeof part === 'string' ? part : String(part);
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The float in [0, 1) a mulberry32 stream gives after state `a` (a 32-bit state already advanced). */
function mulberryOut(a: number): number {
  let t = a;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

/** A deterministic stream of floats in [0, 1) from a 32-bit seed (mulberry32). */
export function stream(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    return mulberryOut(a);
  };
}

/** The first float of `stream(seed)`, without making the stream. */
function firstOf(seed: number): number {
  return mulberryOut(((seed >>> 0) + 0x6d2b79f5) >>> 0);
}

/** `n` (an unsigned 32-bit integer) as 8 lowercase hex digits; each half is a small integer, so no double is formatted. */
function hex8(n: number): string {
  const high = (n >>> 16).toString(16);
  const low = (n & 0xffff).toString(16);
  return '0000'.slice(high.length) + high + '0000'.slice(low.length) + low;
}

/** The engine's seeded randomness: derive values from the seed and the parts that name them. */
export class Rng {
  constructor(readonly seed: number) {}

  /** A stream of floats in [0, 1) for (seed, ...parts). */
  for(...parts: (string | number)[]): () => number {
    return stream(hash32(this.seed, ...parts));
  }

  /** An integer in [min, max] for (seed, ...parts). */
  int(min: number, max: number, ...parts: (string | number)[]): number {
    return min + Math.floor(firstOf(hash32(this.seed, ...parts)) * (max - min + 1));
  }

  /** A 16-hex-digit id for (seed, ...parts), with a prefix: `vt_1a2b3c4d5e6f7a8b`. */
  id(prefix: string, ...parts: (string | number)[]): string {
    return `${prefix}_${hex8(hash32(this.seed, 'id-a', ...parts))}${hex8(hash32(this.seed, 'id-b', ...parts))}`;
  }
}
