/**
 * An answer's JSON given as text (docs/architecture.md, "The control API"): a
 * handler whose answer is already serialised (the whole state, one
 * synchronous pass over a state requests may change on the next turn) returns
 * it wrapped, and the operation runner sends the text as it is instead of
 * serialising an object again. Standard JavaScript only.
 */

/** JSON text standing for an answer (see the module's comment). */
export class JsonText {
  /** @param text JSON text of the answer (not checked here; the runner parses it in strict mode only). */
  constructor(readonly text: string) {}
}

/**
 * `text` as the answer of a handler typed to answer a `T` (the runner sends the text as the answer's JSON; it must be
 * the JSON of a `T`).
 */
export function jsonText<T>(text: string): T {
  return new JsonText(text) as unknown as T;
}
