/**
 * A request body read whole (JSON or an HTML form), transport-neutral: the limits, the parse and its errors
 * (docs/architecture.md, "The request path"). The Express dispatcher and the fetch handler read the bytes; the
 * runner (mock/core/operation.ts) gets the value.
 */
import type { OperationDef } from '../../schemas/registry-types.ts';
import { ApiError } from '../engine/api-error.ts';
import { errorAnswer, isJsonType, type Answer } from './answer.ts';
import { LARGE_JSON_FROM, parseLargeJson } from './json-slices.ts';

/** Default largest JSON body, in bytes. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** Largest JSON or form body `op` accepts, in bytes. */
export function bodyLimitOf(op: OperationDef): number {
  const body = op.request.body;
  return body?.kind === 'json' || body?.kind === 'form' ? (body.limitBytes ?? DEFAULT_BODY_LIMIT) : DEFAULT_BODY_LIMIT;
}

/** True when the transport reads `op`'s body whole before the operation runs (JSON and form bodies; multipart streams later). */
export function readsWholeBody(op: OperationDef): boolean {
  return op.request.body?.kind === 'json' || op.request.body?.kind === 'form';
}

/** The answer to a JSON or form body over `limit` bytes (413, 10006). */
export function bodyTooLarge(limit: number): Answer {
  return errorAnswer('PAYLOAD_TOO_LARGE', `request body is larger than the ${limit} bytes this operation accepts`);
}

/** Decodes UTF-8 (a leading BOM dropped); stateless between calls, so one serves every request. */
const UTF8 = new TextDecoder();

/**
 * A JSON request body of `op` from its bytes; undefined when empty.
 * Errors: UNSUPPORTED_MEDIA_TYPE (not a JSON media type; a control operation
 * takes JSON under any Content-Type, as `curl -d` sends it), MALFORMED_JSON, PAYLOAD_TOO_LARGE
 * (above 1 MiB, more than one object or array per 16 bytes: refused before it is parsed). Above 1 MiB the
 * value is a Promise: checked and parsed in slices on later turns of the event loop (mock/core/json-slices.ts).
 */
export function parseJsonBody(bytes: Uint8Array | undefined, contentType: string | undefined, op?: Pick<OperationDef, 'control'>): unknown {
  if (!bytes || bytes.length === 0) return undefined;
  if (!op?.control && !isJsonType(contentType))
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', `Content-Type ${contentType || '(none)'} is not accepted; send application/json`);
  // a large body (a state document) is checked and parsed a slice at a time: the requests that arrive meanwhile are answered
  if (bytes.length > LARGE_JSON_FROM) return parseLargeJson(bytes);
  try {
    return JSON.parse(UTF8.decode(bytes));
  } catch (e) {
    throw new ApiError('MALFORMED_JSON', `request body is not valid JSON: ${(e as Error).message}`);
  }
}

/** True for `application/x-www-form-urlencoded` (parameters allowed). */
function isFormType(contentType: string | null | undefined): boolean {
  return /^\s*application\/x-www-form-urlencoded\s*(;|$)/i.test(contentType ?? '');
}

/** Fields of an urlencoded text: a string per name, an array of strings for a repeated name. */
export function formFields(params: URLSearchParams): Record<string, unknown> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of params) {
    const prev = Object.hasOwn(out, k) ? out[k] : undefined;
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

/**
 * An HTML form's body (application/x-www-form-urlencoded) from its bytes, as
 * fields (see formFields); undefined when empty. Errors: UNSUPPORTED_MEDIA_TYPE.
 */
export function parseFormBody(bytes: Uint8Array | undefined, contentType: string | undefined): unknown {
  if (!bytes || bytes.length === 0) return undefined;
  if (!isFormType(contentType))
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', `Content-Type ${contentType || '(none)'} is not accepted; send application/x-www-form-urlencoded`);
  return formFields(new URLSearchParams(UTF8.decode(bytes)));
}

/** The body of `op` read whole (JSON or form) from its bytes; see parseJsonBody and parseFormBody. */
export function parseWholeBody(bytes: Uint8Array | undefined, contentType: string | undefined, op: OperationDef): unknown {
  return op.request.body?.kind === 'form' ? parseFormBody(bytes, contentType) : parseJsonBody(bytes, contentType, op);
}
