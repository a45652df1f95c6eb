/**
 * A request body as the journal records it (`journalBody`): files summarized, the text cut at JOURNAL_BODY_CHARS
 * (docs/architecture.md, "The engine", Bounds), transport-neutral. The runner (mock/core/operation.ts) traces it.
 */
import { JOURNAL_BODY_CHARS } from '../../schemas/control.ts';
import { charCount, cutText } from '../../schemas/text.ts';

/**
 * An upper bound of the length of `value`'s JSON text, exact enough to skip
 * JSON.stringify for a body far below the journal's cut: a string counts 6
 * characters per character (the longest escape) and its quotes, a number 24
 * (the longest a double prints as). Returns Infinity once over `budget`, or for
 * anything but JSON data (then the caller stringifies).
 */
function jsonLengthBound(value: unknown, budget: number): number {
  switch (typeof value) {
    case 'string':
      return 6 * value.length + 2;
    case 'number':
      return 24;
    case 'boolean':
      return 5;
    case 'undefined':
      return 4;
    case 'object': {
      if (value === null) return 4;
      // a budget spent on the way down ends the walk (a body nested 20,000 deep never reaches the stack's limit here)
      if (budget < 2) return Infinity;
      let n = 2;
      if (Array.isArray(value)) {
        for (const v of value) if ((n += jsonLengthBound(v, budget - n) + 1) > budget) return Infinity;
        return n;
      }
      const proto = Object.getPrototypeOf(value) as unknown;
      if (proto !== Object.prototype && proto !== null) return Infinity;
      for (const k in value) {
        n += 6 * k.length + 4 + jsonLengthBound((value as Record<string, unknown>)[k], budget - n);
        if (n > budget) return Infinity;
      }
      return n;
    }
    default:
      return Infinity;
  }
}

/** An uploaded file as the multipart reader gives it. */
function isFile(f: unknown): f is { filename?: unknown; mimeType?: unknown; bytes: Uint8Array } {
  return typeof f === 'object' && f !== null && (f as { bytes?: unknown }).bytes instanceof Uint8Array;
}

/** True when a field of `body` is a file or a list holding one. */
function hasFile(body: Record<string, unknown>): boolean {
  for (const k in body) {
    const v = body[k];
    if (Array.isArray(v) ? v.some(isFile) : isFile(v)) return true;
  }
  return false;
}

/** A request body for the journal: files as {filename, mimeType, size}; beyond JOURNAL_BODY_CHARS of JSON text, the cut text. */
export function journalBody(raw: unknown): { body: unknown; bodyTruncated?: boolean } {
  let summary = raw;
  // a body with files (multipart) is summarized; any other is kept as it is, not copied
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw) && hasFile(raw as Record<string, unknown>)) {
    const file = (f: unknown) => (isFile(f) ? { filename: f.filename, mimeType: f.mimeType, size: f.bytes.byteLength } : f);
    summary = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Array.isArray(v) ? v.map(file) : file(v)]));
  }
  // most bodies are far below the cut: their text is never built
  if (jsonLengthBound(summary, JOURNAL_BODY_CHARS) <= JOURNAL_BODY_CHARS) return { body: summary };
  let text: string;
  try {
    text = JSON.stringify(summary) ?? '';
  } catch {
    // nested deeper than JSON.stringify's stack allows (JSON.parse took it): recorded as a note, the request goes on
    return { body: '(a body nested too deeply to record)', bodyTruncated: true };
  }
  // code points are at least half the UTF-16 units: a text over twice the cut is never counted through
  const over = text.length > 2 * JOURNAL_BODY_CHARS || charCount(text) > JOURNAL_BODY_CHARS;
  return over ? { body: cutText(text, JOURNAL_BODY_CHARS), bodyTruncated: true } : { body: summary };
}
