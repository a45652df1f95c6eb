/**
 * What the Express adapter keeps on a response while it answers it
 * (`res.locals`, docs/architecture.md, "Keeping the request path fast"): the
 * request entry's decision (mock/core/front.ts writes it here) and what the
 * journal and the caps need later; one shape for every request, made by the
 * app's request entry, so setting a field neither adds a property nor grows a
 * dictionary. Mounted in another app, the mock keeps that app's `res.locals`
 * and sets the same fields on it.
 */
import type { Answer } from '../core/answer.ts';
import { Decision } from '../core/front.ts';
import type { ProxyMark } from './proxy/exchange.ts';

export class ResponseLocals extends Decision {
  /** The API operation answered (the journal's operationId; none for a control operation). */
  operationId: string | undefined = undefined;
  /** The key id of the caller (the journal's keyId). */
  keyId: string | null = null;
  /** The envelope code written (null: no envelope). */
  envelopeCode: number | null = null;
  /** The answer being written (the journal records its body: journalResponse, mock/core/front.ts). */
  answer: Answer | undefined = undefined;
  /** The request body as the journal records it (`{body}` or `{body, bodyTruncated}`). */
  journalBody: { body: unknown; bodyTruncated?: boolean } | undefined = undefined;
  /** Virtual ms the request reached the mock at (the journal's `at`). */
  journalAt = 0;
  /** The journal's generation when the answer was made: an entry is not written into a journal cleared since (Journal.generation). */
  journalGeneration = 0;
  /** Body bytes reserved against the process's cap (given back once the operation has answered, or when the response closes). */
  bodyReserved = 0;
  /** Counted in flight (until the response closes or turns into an event stream). */
  counted = false;
  /** What the proxy (--upstream) adds to the journal entry: a fallback, the violations found. */
  proxy: ProxyMark | undefined = undefined;
}
