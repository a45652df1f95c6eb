/**
 * What the mock answers, before any transport writes it
 * (docs/architecture.md, "Transports"): a status, headers and a body that is
 * a JSON text, bytes, a stream of bytes, or an event stream. The Express
 * server (mock/http) and the fetch handlers (mock/web: MSW, in-process fetch)
 * write the same Answer, so both send the same bytes.
 */
import type { z } from 'zod';
import { errorCatalog, type CatalogError, type ErrorName } from '../../schemas/errors.ts';
import type { BinaryBody, EventStreamSource } from '../../schemas/registry-types.ts';
import { ApiError } from '../engine/api-error.ts';

/** An event stream to write: the source and, in strict mode, the declared event schemas. */
export interface EventStreamAnswer {
  source: EventStreamSource;
  /** Declared event schemas (strict mode checks every event against them). */
  events?: Record<string, z.ZodType>;
}

/** A response, transport-neutral. */
export interface Answer {
  status: number;
  /** Response headers besides Content-Length (each transport sets that itself). */
  headers: Record<string, string>;
  /**
   * JSON text; bytes sent whole with Content-Length (hosted media); a binary
   * body sent chunked, produced as it goes (binary operations); or an event stream.
   */
  body?: { json: string } | { bytes: Uint8Array } | { stream: BinaryBody['body'] } | { events: EventStreamAnswer };
  /** The envelope code, for the journal (null: not an envelope). */
  envelopeCode: number | null;
}

/** The JSON media type of every envelope and raw JSON answer. */
export const JSON_TYPE = 'application/json; charset=utf-8';

/** The headers of a JSON answer without others (one object for all: no writer changes an Answer's headers). */
const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'Content-Type': JSON_TYPE });

/** A JSON answer with `status`; the envelope code is read from the body for the journal. */
export function jsonAnswer(status: number, body: unknown, headers?: Record<string, string>): Answer {
  const envelopeCode = typeof body === 'object' && body !== null && 'code' in body && typeof body.code === 'number' ? body.code : null;
  return { status, headers: headers ? { 'Content-Type': JSON_TYPE, ...headers } : JSON_HEADERS, body: { json: JSON.stringify(body) }, envelopeCode };
}

/** A JSON answer of `text` (JSON a handler serialised itself; not an envelope, so no envelope code). */
export function jsonTextAnswer(status: number, text: string): Answer {
  return { status, headers: JSON_HEADERS, body: { json: text }, envelopeCode: null };
}

/**
 * The error envelope of a catalogued error (document 1, "Common response
 * envelope"), with Retry-After on 429 and 503. An error the document names in
 * its messages (its meaning starts `NAME:`, e.g. `NEED_CREDIT:`) gets a
 * message that starts with its name.
 */
export function errorAnswer(err: ApiError | ErrorName, message?: string, headers: Record<string, string> = {}): Answer {
  const e = typeof err === 'string' ? new ApiError(err, message) : err;
  const entry = errorCatalog[e.error];
  const extra: Record<string, string> = { ...headers };
  if (entry.httpStatus === 429 || entry.httpStatus === 503)
    extra['Retry-After'] = String(Math.max(1, e.retryAfterSeconds ?? (entry as CatalogError).retryAfterSeconds ?? 60));
  const named = entry.meaning.startsWith(`${e.error}:`) && !e.message.startsWith(`${e.error}:`);
  return jsonAnswer(entry.httpStatus, { code: entry.code, message: named ? `${e.error}: ${e.message}` : e.message, data: null }, extra);
}

/**
 * Headers of every web page the mock answers: HTML, never cached, never shown
 * in a frame of another page (a page with a form must not be clickjacked).
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Frame-Options': 'DENY',
  'Content-Security-Policy': "frame-ancestors 'none'",
};

const ENCODER = new TextEncoder();

/** A web page with `status` (sent whole, with Content-Length). */
export function pageAnswer(status: number, html: string): Answer {
  return { status, headers: { ...PAGE_HEADERS }, body: { bytes: ENCODER.encode(html) }, envelopeCode: null };
}

/** A redirect (302 or 303) to `location`, with an empty body. */
export function redirectAnswer(status: number, location: string): Answer {
  return { status, headers: { Location: location, 'Cache-Control': 'no-store' }, body: { bytes: new Uint8Array(0) }, envelopeCode: null };
}

/** A binary answer streamed in chunks (no Content-Length). */
export function binaryAnswer(status: number, body: BinaryBody): Answer {
  return {
    status,
    headers: { 'Content-Type': body.contentType, 'Cache-Control': 'no-store' },
    body: { stream: body.body },
    envelopeCode: null,
  };
}

/** Headers of every event-stream answer. */
export const EVENT_STREAM_HEADERS: Record<string, string> = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache, no-transform',
  'X-Accel-Buffering': 'no',
};

/** True for `application/json` and `application/*+json` media types (parameters allowed). */
export function isJsonType(contentType: string | null | undefined): boolean {
  return /^\s*application\/([\w.-]+\+)?json\s*(;|$)/i.test(contentType ?? '');
}
