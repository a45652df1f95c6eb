/**
 * A large JSON body parsed in slices (docs/architecture.md, "The request
 * path"): `parseChunked` of @discoveryjs/json-ext parses each slice of the text
 * with JSON.parse as far as its values are complete and joins the parts, and
 * the event loop turns between two slices, so a state document of 64 MiB does
 * not hold up every other request for the second JSON.parse takes over it
 * whole. Standard JavaScript only.
 */
import { parseChunked } from '@discoveryjs/json-ext';
import { nextTurn } from '../services/next-turn.ts';

/** Characters parsed between two turns of the event loop (about 5-20 ms of work). */
const SLICE_CHARS = 512 * 1024;

/**
 * True when `text` may hold a key that reads `__proto__`: a literal `"__`, or
 * an escaped underscore. parseChunked joins the members of an object cut
 * between slices with Object.assign, which would set a prototype for such a
 * key where JSON.parse makes a member (which the saved-state checks refuse by
 * name): such a text is parsed whole.
 */
const mayHoldProtoKey = (text: string) => text.includes('"__') || /\\u005f/i.test(text);

/**
 * The value of JSON `text`, parsed a slice at a time on later turns of the
 * event loop; the same value JSON.parse gives. Rejects with JSON.parse's
 * SyntaxError (its position in the whole text) when `text` is not JSON.
 */
export async function parseJsonInSlices(text: string): Promise<unknown> {
  if (mayHoldProtoKey(text)) return JSON.parse(text);
  return parseChunked(async function* slices() {
    for (let at = 0; at < text.length; at += SLICE_CHARS) {
      yield text.slice(at, at + SLICE_CHARS);
      await nextTurn();
    }
  });
}
