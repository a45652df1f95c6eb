/**
 * The request journal: the most recent API requests, their response status
 * and the bodies of both (cut), bounded twice (docs/architecture.md, "The engine", Bounds): at most `capacity`
 * entries and at most `maxBytes` bytes (as `entryBytes` estimates them).
 * Beyond the bytes, the response bodies of the oldest entries go first (the
 * entry stays, marked `responseDropped`), then the oldest entries; beyond the
 * entries, the oldest go. The newest entry is always kept whole.
 *
 * An entry is kept as one byte array: the UTF-8 bytes of its request body's JSON text, its response body's JSON text
 * and the JSON of its other fields, one after the other (their lengths in parallel arrays of numbers), read back and
 * parsed when the journal is read (`list`); written with the web's TextEncoder (the engine runs in browsers too:
 * MSW), each in an array of its own (a shared slab would keep the bytes of dropped entries while one of its entries
 * stays). The bytes are new memory: a cut of a larger string (`slice`,
 * `substring`) and the strings JSON.parse or a form parser hands out may share the memory of the whole request text
 * in V8, so keeping them would keep every request body whole, whatever the cut. And they are outside V8's heap:
 * under load the journal's entries were most of what survived a garbage collection of the young generation, which
 * copies every object that survives it (a tree of objects and strings per entry); an array's bytes are not
 * copied (docs/architecture.md, "Keeping the request path fast").
 */
import type { JournalEntry } from '../../schemas/control.ts';

/** Bytes an entry costs besides its strings (the object, its numbers, the queue's slot), an estimate. */
const ENTRY_OVERHEAD = 160;
/** Bytes of a string in the heap, at most: two a character, and a header. */
const stringBytes = (s: string) => 2 * s.length + 24;

/**
 * `value` (JSON data: what `journalBody` of mock/core/journal-body.ts hands over) as the JSON text the journal keeps:
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

/** An entry's bytes once it is dropped (its slot lets go of them before the slots are compacted). */
const EMPTY = new Uint8Array(0);

/**
 * Bytes an entry is estimated to cost, given its bodies' share: two a character, as for strings in V8's heap (what
 * is kept is UTF-8, one byte a character for most texts; `keep` takes the larger of this and what it keeps).
 */
function entryBytes(e: Omit<EntryHead, 'seq'>, bodyBytes: number): number {
  return (
    ENTRY_OVERHEAD +
    bodyBytes +
    stringBytes(e.method) +
    stringBytes(e.path) +
    (e.operationId ? stringBytes(e.operationId) : 0) +
    (e.keyId ? stringBytes(e.keyId) : 0)
  );
}

const ENCODER = new TextEncoder();

/** `text` as UTF-8 in an array of its own (no shared slab: an entry kept never keeps the memory of entries dropped). */
function encodeEntry(text: string): Uint8Array {
  return ENCODER.encode(text);
}

/** An entry's fields besides its bodies (what is kept as JSON after the bodies' texts). */
type EntryHead = Omit<JournalEntry, 'body' | 'responseBody'>;

/** Decodes the UTF-8 bytes of a kept entry (stateless: one serves every read). */
const UTF8 = new TextDecoder();

export class Journal {
  /** Entries oldest first from `head` (the slots before it are dropped ones, compacted now and then), as kept (see the file's comment). */
  private items: Uint8Array[] = [];
  /** UTF-16 length of each entry's request body text (0: none). */
  private bodyLengths: number[] = [];
  /** UTF-16 length of each entry's response body text (0: none, or dropped). */
  private responseLengths: number[] = [];
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
   * How many times the journal was cleared (a reset, a state loaded): a transport that writes an entry after its
   * answer (when the response has closed) compares it with the value it read when the answer was made, and writes
   * nothing into a journal cleared since, which lists only what came after.
   */
  generation = 0;

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
   * it is rather than parsed and written again.
   */
  record(e: Omit<JournalEntry, 'seq'>, responseIsJson = false): void {
    const { body, responseBody, ...head } = e;
    this.recordParts(head, body, responseBody, responseIsJson);
  }

  /**
   * `record` with the entry in its parts, as the request path has them (no object spread to join and split them
   * again): `head`, the fields besides the bodies (its `seq` is set here), the request body's value (undefined: none)
   * and the response body (its JSON text when `responseIsJson`, else its value; undefined: none).
   */
  recordParts(head: Omit<EntryHead, 'seq'>, body: unknown, responseBody: unknown, responseIsJson = false): void {
    const seq = ++this.seq;
    if (this.capacity > 0) this.keep(seq, head, body, responseBody, responseIsJson);
  }

  /** Keeps entry `seq` (see the file's comment): its bodies as their JSON texts, then its other fields as JSON, in one byte array. */
  private keep(seq: number, head: Omit<EntryHead, 'seq'>, body: unknown, responseBody: unknown, responseIsJson: boolean): void {
    const bodyJson = body === undefined ? '' : bodyText(body);
    // the response's body (or its description) takes its share of the same budget
    const responseJson = responseBody === undefined ? '' : responseIsJson ? (responseBody as string) : bodyText(responseBody);
    const bodyBytes = bodyJson ? stringBytes(bodyJson) : 0;
    const responseBytes = (responseJson ? stringBytes(responseJson) : 0) + (head.responseMedia !== undefined ? stringBytes(head.responseMedia) : 0);
    // the fields' JSON with `seq` first, as an entry lists it
    const fields = JSON.stringify(head);
    const bytes = encodeEntry(bodyJson + responseJson + (fields === '{}' ? `{"seq":${seq}}` : `{"seq":${seq},${fields.slice(1)}`));
    const size = Math.max(entryBytes(head, bodyBytes + responseBytes), ENTRY_OVERHEAD + bytes.length);
    this.items.push(bytes);
    this.bodyLengths.push(bodyJson.length);
    this.responseLengths.push(responseJson.length);
    this.sizes.push(size);
    this.responseSizes.push(responseBytes);
    this.kept += size;
    while (this.length > 1 && this.length > this.capacity) this.dropOldest();
    // over the bytes: the oldest responses go before any request (the newest entry's stays)
    while (this.kept > this.maxBytes && this.responseHead < this.items.length - 1) this.dropResponse(this.responseHead++);
    while (this.length > 1 && this.kept > this.maxBytes) this.dropOldest();
  }

  /** Entry `i` as kept: its request body's text, its response body's text ('' for none) and its other fields. */
  private read(i: number): { body: string; response: string; head: EntryHead } {
    const text = UTF8.decode(this.items[i]);
    const b = this.bodyLengths[i];
    const r = b + this.responseLengths[i];
    return { body: text.slice(0, b), response: text.slice(b, r), head: JSON.parse(text.slice(r)) as EntryHead };
  }

  /** Lets go of entry `i`'s response body or description (it stays listed, marked `responseDropped`). */
  private dropResponse(i: number): void {
    const bytes = this.responseSizes[i];
    if (bytes === 0) return;
    const { body, head } = this.read(i);
    delete head.responseBodyTruncated;
    delete head.responseMedia;
    head.responseDropped = true;
    this.items[i] = encodeEntry(body + JSON.stringify(head));
    this.responseLengths[i] = 0;
    this.responseSizes[i] = 0;
    this.sizes[i] -= bytes;
    this.kept -= bytes;
  }

  private dropOldest(): void {
    this.kept -= this.sizes[this.head];
    this.head++;
    if (this.responseHead < this.head) this.responseHead = this.head;
    // the slot lets go of its bytes at once
    this.items[this.head - 1] = EMPTY;
    if (this.head > 64 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.bodyLengths = this.bodyLengths.slice(this.head);
      this.responseLengths = this.responseLengths.slice(this.head);
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
      const { body, response, head } = this.read(i);
      const e: JournalEntry = head;
      if (body) e.body = readBack(body);
      if (response) e.responseBody = readBack(response);
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
    if (this.capacity > 0)
      for (const { seq, body, responseBody, ...head } of saved.entries.slice(-this.capacity)) this.keep(seq, head, body, responseBody, false);
    this.seq = saved.seq;
  }

  clear(): void {
    this.generation++;
    this.items = [];
    this.bodyLengths = [];
    this.responseLengths = [];
    this.sizes = [];
    this.responseSizes = [];
    this.responseHead = 0;
    this.head = 0;
    this.kept = 0;
    this.seq = 0;
  }
}
