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
    h = fnvText(h, typeof part === 'string' ? part : String(part));
  }
  return avalanche(h);
}

/** FNV-1a state `h` after the UTF-16 code units of `s`. */
function fnvText(h: number, s: string): number {
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h;
}

/** The final mix of an FNV-1a state (murmur3's fmix32), as an unsigned 32-bit integer. */
function avalanche(h: number): number {
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

const HEX_DIGITS = '0123456789abcdef';
/** The code unit of the hex digit of `n`'s 4 bits at `shift`. */
const digit = (n: number, shift: number): number => HEX_DIGITS.charCodeAt((n >>> shift) & 15);

/** `a` then `b` (unsigned 32-bit integers) as 16 lowercase hex digits, made in one string (no number is formatted). */
function hex16(a: number, b: number): string {
  return String.fromCharCode(
    digit(a, 28),
    digit(a, 24),
    digit(a, 20),
    digit(a, 16),
    digit(a, 12),
    digit(a, 8),
    digit(a, 4),
    digit(a, 0),
    digit(b, 28),
    digit(b, 24),
    digit(b, 20),
    digit(b, 16),
    digit(b, 12),
    digit(b, 8),
    digit(b, 4),
    digit(b, 0),
  );
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

  /**
   * A 16-hex-digit id for (seed, ...parts), with a prefix: `vt_1a2b3c4d5e6f7a8b`: the hex of
   * `hash32(seed, 'id-a', ...parts)` then of `hash32(seed, 'id-b', ...parts)`. Both hashes are taken in one pass
   * (the text they share is read once; a create takes two ids, so this is on the request path).
   */
  id(prefix: string, ...parts: (string | number)[]): string {
    let a = fnvText(0x811c9dc5, String(this.seed));
    a = Math.imul(a, 0x01000193); // the separator after the seed
    let b = fnvText(a, 'id-b');
    a = fnvText(a, 'id-a');
    for (let p = 0; p < parts.length; p++) {
      a = Math.imul(a, 0x01000193);
      b = Math.imul(b, 0x01000193);
      const part = parts[p];
      const s = typeof part === 'string' ? part : String(part);
      for (let i = 0; i < s.length; i++) {
        const c = s.charCodeAt(i);
        a = Math.imul(a ^ c, 0x01000193);
        b = Math.imul(b ^ c, 0x01000193);
      }
    }
    return `${prefix}_${hex16(avalanche(a), avalanche(b))}`;
  }
}
