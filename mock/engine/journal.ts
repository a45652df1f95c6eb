/**
 * The request journal: the most recent API requests, their response status
 * and the bodies of both (cut), bounded twice (docs/architecture.md, "The engine", Bounds): at most `capacity`
 * entries and at most `maxBytes` bytes (as `entryBytes` estimates them).
 * Beyond the bytes, the response bodies of the oldest entries go first (the
 * entry stays, marked `responseDropped`), then the oldest entries; beyond the
 * entries, the oldest go. The newest entry is always kept whole.
 *
 * An entry's bodies (the request's and the response's) are kept as JSON text made of fresh characters, and read
 * back parsed (`list`): a cut of a larger string (`slice`, `substring`) and the strings JSON.parse or a form
 * parser hands out may share the memory of the whole request text in V8, so keeping them would keep every request
 * body whole, whatever the cut; and one string per body is what the estimate counts, not a tree of objects that
 * every garbage collection of the young generation would copy (a journal of the last 500 requests is most of what
 * survives one under load: docs/architecture.md, "Keeping the request path fast").
 */
import type { JournalEntry } from '../../schemas/control.ts';

/** Bytes an entry costs besides its strings (the object, its numbers, the queue's slot), an estimate. */
const ENTRY_OVERHEAD = 160;
/**
 * `s` as a new string of its own characters, sharing no memory with the
 * string it was cut from (V8 keeps a cut of 13 or more characters as a view
 * of its parent). `s` and one more character make a pair V8 has to flatten
 * into a new string of their own before it can cut it: the cut of that copy
 * keeps the copy (one character longer than `s`), never `s`'s parent. Every
 * UTF-16 unit (a lone surrogate too) is kept as it is.
 */
export function flatCopy(s: string): string {
  if (s.length < 13) return s; // V8 copies cuts this short
  return (s + ' ').slice(0, -1);
}

/** Bytes of a string in the heap, at most: two a character, and a header. */
const stringBytes = (s: string) => 2 * s.length + 24;

/**
 * `value` (JSON data: what `journalBody` of mock/core/operation.ts hands over) as the JSON text the journal keeps:
 * a new string (JSON.stringify makes one). Anything JSON.stringify refuses or drops is kept as its String().
 */
function bodyText(value: unknown): string {
  try {
    const text = JSON.stringify(value);
    if (text !== undefined) return text;
  } catch {
    // a BigInt, a cycle: not JSON data
  }
  return JSON.stringify(String(value));
}

/** A kept JSON text read back: its value, or the text itself should it not parse (an answer's text that was not JSON). */
function readBack(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Bytes an entry whose bodies are kept as text is estimated to cost. */
function entryBytes(e: JournalEntry, bodyBytes: number): number {
  return (
    ENTRY_OVERHEAD +
    bodyBytes +
    stringBytes(e.method) +
    stringBytes(e.path) +
    (e.operationId ? stringBytes(e.operationId) : 0) +
    (e.keyId ? stringBytes(e.keyId) : 0)
  );
}

export class Journal {
  /** Entries oldest first from `head` (the slots before it are dropped ones, compacted now and then). */
  private items: JournalEntry[] = [];
  private sizes: number[] = [];
  /** Bytes of each entry's response part (its body or description), 0 once dropped. */
  private responseSizes: number[] = [];
  /** Index of the oldest entry whose response may still be kept (every older one's is dropped). */
  private responseHead = 0;
  private head = 0;
  private seq = 0;
  /** Bytes the kept entries are estimated to cost. */
  private kept = 0;

  /**
   * @param capacity most entries kept (a whole number >= 0)
   * @param maxBytes most bytes kept, as estimated (the newest entry is kept whatever its size)
   */
  constructor(
    readonly capacity = 500,
    readonly maxBytes = Number.POSITIVE_INFINITY,
  ) {}

  /**
   * Records one request with the next sequence number; beyond `capacity` entries or `maxBytes`, the oldest go.
   * `responseIsJson`: `e.responseBody` is the JSON text the client received (whole: no longer than the cut), kept as
   * it is (a flat copy) rather than parsed and written again.
   */
  record(e: Omit<JournalEntry, 'seq'>, responseIsJson = false): void {
    const seq = ++this.seq;
    if (this.capacity > 0) this.keep({ seq, ...e, path: flatCopy(e.path) }, responseIsJson);
  }

  /** Keeps `entry` (a new object of the journal's, its path already copied), its bodies replaced by their JSON text. */
  private keep(entry: JournalEntry, responseIsJson: boolean): void {
    let bodyBytes = 0;
    if (entry.body !== undefined) {
      entry.body = bodyText(entry.body);
      bodyBytes = stringBytes(entry.body as string);
    }
    // the response's body (or its description) takes its share of the same budget, kept the same way
    let responseBytes = 0;
    if (entry.responseBody !== undefined) {
      entry.responseBody = responseIsJson ? flatCopy(entry.responseBody as string) : bodyText(entry.responseBody);
      responseBytes += stringBytes(entry.responseBody as string);
    }
    if (entry.responseMedia !== undefined) {
      entry.responseMedia = flatCopy(entry.responseMedia);
      responseBytes += stringBytes(entry.responseMedia);
    }
    const size = entryBytes(entry, bodyBytes + responseBytes);
    this.items.push(entry);
    this.sizes.push(size);
    this.responseSizes.push(responseBytes);
    this.kept += size;
    while (this.length > 1 && this.length > this.capacity) this.dropOldest();
    // over the bytes: the oldest responses go before any request (the newest entry's stays)
    while (this.kept > this.maxBytes && this.responseHead < this.items.length - 1) this.dropResponse(this.responseHead++);
    while (this.length > 1 && this.kept > this.maxBytes) this.dropOldest();
  }

  /** Lets go of entry `i`'s response body or description (it stays listed, marked `responseDropped`). */
  private dropResponse(i: number): void {
    const bytes = this.responseSizes[i];
    if (bytes === 0) return;
    const e = this.items[i];
    delete e.responseBody;
    delete e.responseBodyTruncated;
    delete e.responseMedia;
    e.responseDropped = true;
    this.responseSizes[i] = 0;
    this.sizes[i] -= bytes;
    this.kept -= bytes;
  }

  private dropOldest(): void {
    this.kept -= this.sizes[this.head];
    this.head++;
    if (this.responseHead < this.head) this.responseHead = this.head;
    if (this.head > 64 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.sizes = this.sizes.slice(this.head);
      this.responseSizes = this.responseSizes.slice(this.head);
      this.responseHead -= this.head;
      this.head = 0;
    }
  }

  /** Entries kept. */
  get length(): number {
    return this.items.length - this.head;
  }

  /** Bytes the kept entries are estimated to cost (at most `maxBytes`, or the one newest entry). */
  get bytes(): number {
    return this.kept;
  }

  /** API requests recorded since the start (or the last reset), the dropped ones included. */
  get total(): number {
    return this.seq;
  }

  /** The entries kept, oldest first (new objects, their bodies parsed from the kept text). */
  list(): JournalEntry[] {
    const out = new Array<JournalEntry>(this.length);
    for (let i = this.head; i < this.items.length; i++) {
      const e = { ...this.items[i] };
      if (typeof e.body === 'string') e.body = readBack(e.body);
      if (typeof e.responseBody === 'string') e.responseBody = readBack(e.responseBody);
      out[i - this.head] = e;
    }
    return out;
  }

  /** The entries and the sequence counter (for saving the state). */
  dump(): { entries: JournalEntry[]; seq: number } {
    return { entries: this.list(), seq: this.seq };
  }

  /** Replaces the entries with saved ones (the last that fit `capacity` and `maxBytes`). */
  load(saved: { entries: readonly JournalEntry[]; seq: number }): void {
    this.clear();
    if (this.capacity > 0) for (const e of saved.entries.slice(-this.capacity)) this.keep({ ...e, path: flatCopy(e.path) }, false);
    this.seq = saved.seq;
  }

  clear(): void {
    this.items = [];
    this.sizes = [];
    this.responseSizes = [];
    this.responseHead = 0;
    this.head = 0;
    this.kept = 0;
    this.seq = 0;
  }
}
