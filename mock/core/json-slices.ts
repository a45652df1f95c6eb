/**
 * A large JSON body (above 1 MiB: a state document) checked and parsed in
 * slices (docs/architecture.md, "The request path"), with a turn of the event
 * loop between two slices, so a state document of 64 MiB does not hold up
 * every other request while it is read: first its density of objects and
 * arrays (a body denser than one per 16 bytes is refused before a byte of it
 * is parsed), then the parse, by `parseChunked` of @discoveryjs/json-ext,
 * which parses each slice of the text with JSON.parse as far as its values
 * are complete and joins the parts (the same value JSON.parse gives).
 * Standard JavaScript only.
 */
import { parseChunked } from '@discoveryjs/json-ext';
import { ApiError } from '../engine/api-error.ts';
import { nextTurn } from '../services/next-turn.ts';

/**
 * Bodies above this many bytes are checked for their density of objects and arrays before they are parsed, and
 * parsed here in slices: 64 MB of `{},{},...` parse into some 20 million objects, about 1.5 GB and a minute of work.
 */
export const LARGE_JSON_FROM = 1024 * 1024;
/**
 * The least bytes per object or array a large JSON body has on average (assumed): a state document has about 85, its
 * densest parts (counters, rate windows) about 25; a bound of 16 keeps a body's parsed form within a few times its size.
 */
const BYTES_PER_CONTAINER = 16;
/** Bytes counted between two turns of the event loop (a few ms). */
const COUNT_SLICE = 4 * 1024 * 1024;
/** Bytes parsed between two turns of the event loop (about 5-20 ms of work). */
const PARSE_SLICE = 512 * 1024;

/** An upper bound of the objects and arrays in JSON bytes `from` to `to` of `bytes`: its `{` and `[` (those inside strings too). */
function containersIn(bytes: Uint8Array, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const b = bytes[i];
    if (b === 0x7b || b === 0x5b) n++;
  }
  return n;
}

/**
 * True when `text` may hold a key that reads `__proto__`: a literal `"__`, or
 * an escaped underscore. parseChunked joins the members of an object cut
 * between slices with Object.assign, which would set a prototype for such a
 * key where JSON.parse makes a member (which the saved-state checks refuse by
 * name): a body with one is parsed whole.
 */
const mayHoldProtoKey = (text: string) => text.includes('"__') || /\\u005f/i.test(text);

/** Thrown inside the parse when the body must be parsed whole after all. */
class ParseWhole extends Error {}

/**
 * The value of the JSON body `bytes` (UTF-8, a leading BOM dropped), counted
 * then parsed a slice at a time on later turns of the event loop.
 * Errors: PAYLOAD_TOO_LARGE (more than one object or array per 16 bytes: not
 * parsed), MALFORMED_JSON with JSON.parse's message (its position in the whole text).
 */
export async function parseLargeJson(bytes: Uint8Array): Promise<unknown> {
  let containers = 0;
  for (let at = 0; at < bytes.length; at += COUNT_SLICE) {
    containers += containersIn(bytes, at, Math.min(bytes.length, at + COUNT_SLICE));
    await nextTurn();
  }
  if (containers > bytes.length / BYTES_PER_CONTAINER)
    throw new ApiError(
      'PAYLOAD_TOO_LARGE',
      `request body holds ${containers} objects and arrays in ${bytes.length} bytes, more than one per ${BYTES_PER_CONTAINER} bytes: not read (its parsed form would take many times its size in memory)`,
    );
  const decoder = new TextDecoder();
  let tail = '';
  try {
    return await parseChunked(async function* slices() {
      for (let at = 0; at < bytes.length; at += PARSE_SLICE) {
        const end = Math.min(bytes.length, at + PARSE_SLICE);
        const text = decoder.decode(bytes.subarray(at, end), { stream: end < bytes.length });
        // the few characters before the slice too: a `"__` cut between two slices
        if (mayHoldProtoKey(text) || mayHoldProtoKey(tail + text.slice(0, 6))) throw new ParseWhole();
        tail = text.slice(-6);
        yield text;
        await nextTurn();
      }
    });
  } catch (e) {
    try {
      if (e instanceof ParseWhole) return JSON.parse(new TextDecoder().decode(bytes));
      throw e;
    } catch (error) {
      throw new ApiError('MALFORMED_JSON', `request body is not valid JSON: ${(error as Error).message}`);
    }
  }
}
