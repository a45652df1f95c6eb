/**
 * The request journal: the most recent API requests, their response status
 * and the bodies of both (cut), bounded twice (docs/architecture.md, "The engine", Bounds): at most `capacity`
 * entries and at most `maxBytes` bytes (as `entryBytes` estimates them).
 * Beyond the bytes, the response bodies of the oldest entries go first (the
 * entry stays, marked `responseDropped`), then the oldest entries; beyond the
 * entries, the oldest go. The newest entry is always kept whole.
 *
 * An entry's bodies (the request's and the response's) are stored as copies made of fresh characters: a cut of a
 * larger string (`slice`, `substring`) and the strings JSON.parse or a form
 * parser hands out may share the memory of the whole request text in V8, so
 * keeping them would keep every request body whole, whatever the cut.
 */
import type { JournalEntry } from '../../schemas/control.ts';

/** Bytes an entry costs besides its strings (the object, its numbers, the queue's slot), an estimate. */
const ENTRY_OVERHEAD = 160;
/** Bytes an object or array of a body costs besides its members, an estimate. */
const NODE_OVERHEAD = 32;

/**
 * `s` as a new string of its own characters, sharing no memory with the
 * string it was cut from (V8 keeps a cut of 13 or more characters as a view
 * of its parent). Built from character codes, so every UTF-16 unit (a lone
 * surrogate too) is kept as it is.
 */
export function flatCopy(s: string): string {
  if (s.length < 13) return s; // V8 copies cuts this short
  let out = '';
  for (let i = 0; i < s.length; i += 4096) {
    const end = Math.min(s.length, i + 4096);
    const codes = new Array<number>(end - i);
    for (let j = i; j < end; j++) codes[j - i] = s.charCodeAt(j);
    out += String.fromCharCode(...codes);
  }
  return out;
}

/** Bytes of a string in the heap, at most: two a character, and a header. */
const stringBytes = (s: string) => 2 * s.length + 24;

/**
 * A body's copy for the journal (every string a flat copy, every object and
 * array a new plain one) and the bytes it is estimated to cost. JSON data only
 * (what `journalBody` of mock/core/operation.ts hands over): anything else is
 * kept as its String().
 */
export function copyBody(value: unknown): { copy: unknown; bytes: number } {
  switch (typeof value) {
    case 'string':
      return { copy: flatCopy(value), bytes: stringBytes(value) };
    case 'number':
    case 'boolean':
    case 'undefined':
      return { copy: value, bytes: 8 };
    case 'object': {
      if (value === null) return { copy: null, bytes: 8 };
      let bytes = NODE_OVERHEAD;
      if (Array.isArray(value)) {
        const copy = value.map((v: unknown) => {
          const c = copyBody(v);
          bytes += c.bytes + 8;
          return c.copy;
        });
        return { copy, bytes };
      }
      const copy: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        const c = copyBody(v);
        // defineProperty: a key such as "__proto__" stays a plain member
        Object.defineProperty(copy, flatCopy(k), { value: c.copy, enumerable: true, writable: true, configurable: true });
        bytes += c.bytes + stringBytes(k) + 8;
      }
      return { copy, bytes };
    }
    default:
      return { copy: flatCopy(String(value)), bytes: stringBytes(String(value)) };
  }
}

/** Bytes an entry whose body is already copied is estimated to cost. */
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

  /** Records one request with the next sequence number; beyond `capacity` entries or `maxBytes`, the oldest go. */
  record(e: Omit<JournalEntry, 'seq'>): void {
    this.push({ seq: ++this.seq, ...e });
  }

  private push(raw: JournalEntry): void {
    if (this.capacity === 0) return;
    const entry: JournalEntry = { ...raw, path: flatCopy(raw.path) };
    let bodyBytes = 0;
    if ('body' in raw) {
      const c = copyBody(raw.body);
      entry.body = c.copy;
      bodyBytes = c.bytes;
    }
    // the response's body (or its description) takes its share of the same budget, copied the same way
    let responseBytes = 0;
    if ('responseBody' in raw) {
      const c = copyBody(raw.responseBody);
      entry.responseBody = c.copy;
      responseBytes += c.bytes;
    }
    if (raw.responseMedia !== undefined) {
      entry.responseMedia = flatCopy(raw.responseMedia);
      responseBytes += stringBytes(raw.responseMedia);
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

  /** The entries kept, oldest first. */
  list(): JournalEntry[] {
    return this.items.slice(this.head);
  }

  /** The entries and the sequence counter (for saving the state). */
  dump(): { entries: JournalEntry[]; seq: number } {
    return { entries: this.list(), seq: this.seq };
  }

  /** Replaces the entries with saved ones (the last that fit `capacity` and `maxBytes`). */
  load(saved: { entries: readonly JournalEntry[]; seq: number }): void {
    this.clear();
    for (const e of saved.entries.slice(-Math.max(1, this.capacity))) this.push(e);
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
