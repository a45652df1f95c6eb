/**
 * Text measured and cut as the limits count it: by Unicode code points (as
 * JSON Schema's maxLength does), never inside a surrogate pair. Pure: no
 * Zod, so the engine and the services may import it.
 */

/** Characters of `s` as the limits count them: Unicode code points. */
export function charCount(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/**
 * The first `max` code points of `text` (all of it when shorter): an emoji or
 * any other astral character is kept whole or left out, never split into a
 * lone surrogate (which `encodeURIComponent` refuses and a JSON reader may
 * reject). `max` is a whole number >= 0.
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text; // UTF-16 units >= code points
  let units = 0;
  let n = 0;
  for (const ch of text) {
    if (n === max) break;
    units += ch.length;
    n++;
  }
  return text.slice(0, units);
}

/** `text` with every lone surrogate (half of a pair, which JSON allows as an escape) replaced by U+FFFD, so it can be percent-encoded. */
export function wellFormed(text: string): string {
  return text.replace(/\p{Cs}/gu, '\uFFFD');
}

/**
 * A whole number as en-US writes it, with thousands separators: `5000` -> `5,000`, `-1234567` -> `-1,234,567`
 * (what `n.toLocaleString('en-US')` gives for an integer). Without Intl: its first use loads the ICU locale data,
 * about 20 ms of the mock's start-up, and the limits' messages are built at start-up.
 */
export function formatCount(n: number): string {
  if (!Number.isSafeInteger(n)) return String(n);
  const digits = String(Math.abs(n));
  let out = '';
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += ',';
    out += digits[i];
  }
  return n < 0 ? `-${out}` : out;
}
