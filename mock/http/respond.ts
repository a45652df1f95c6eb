/**
 * Writing responses: the success envelope, raw bodies, binary bodies and the
 * error envelope (document 1, "Common response envelope"). Every response
 * records its status and envelope code for the journal.
 */
import type { Response } from 'express';
import type { BinaryBody } from '../../schemas/registry-types.ts';
import { errorCatalog, type CatalogError, type ErrorName } from '../../schemas/errors.ts';
import { ApiError } from '../engine/api-error.ts';

/**
 * Sends JSON with `status`, remembering the envelope code for the journal.
 * Written straight to the socket (the same bytes and headers as Express's
 * res.json, without its per-call option lookups: this is the hot path).
 */
export function sendJson(res: Response, status: number, body: unknown): void {
  res.locals.envelopeCode =
    typeof body === 'object' && body !== null && 'code' in body && typeof body.code === 'number' ? (body as { code: number }).code : null;
  const json = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(json));
  res.end(res.req.method === 'HEAD' ? undefined : json);
}

/**
 * Sends the error envelope of a catalogued error, with Retry-After on 429 and 503. An error the
 * document names in its messages (its meaning starts `NAME:`, e.g. `NEED_CREDIT:`) gets a message
 * that starts with its name.
 */
export function sendError(res: Response, err: ApiError | ErrorName, message?: string, headers: Record<string, string> = {}): void {
  const e = typeof err === 'string' ? new ApiError(err, message) : err;
  const entry = errorCatalog[e.error];
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  if (entry.httpStatus === 429 || entry.httpStatus === 503)
    res.setHeader('Retry-After', String(Math.max(1, e.retryAfterSeconds ?? (entry as CatalogError).retryAfterSeconds ?? 60)));
  const named = entry.meaning.startsWith(`${e.error}:`) && !e.message.startsWith(`${e.error}:`);
  sendJson(res, entry.httpStatus, { code: entry.code, message: named ? `${e.error}: ${e.message}` : e.message, data: null });
}

/** Bytes written per chunk of a binary body given whole. */
const CHUNK_BYTES = 64 * 1024;

/** `bytes` as an async iterable of chunks of CHUNK_BYTES. */
function chunksOf(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  let at = 0;
  return {
    [Symbol.asyncIterator]: () => ({
      next: () => {
        if (at >= bytes.length) return Promise.resolve({ value: undefined, done: true as const });
        const value = bytes.subarray(at, at + CHUNK_BYTES);
        at += CHUNK_BYTES;
        return Promise.resolve({ value, done: false as const });
      },
    }),
  };
}

/** Resolves when `res` can take more data, or is closed; leaves no listener behind. */
function drained(res: Response): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/**
 * Streams a binary body with chunked transfer encoding (no Content-Length).
 * The first chunk is produced before the status line is written, so a failure
 * before the first byte rejects (the caller answers the JSON envelope); a
 * failure later aborts the connection, the only signal left once bytes are out.
 */
export async function sendBinary(res: Response, status: number, body: BinaryBody): Promise<void> {
  const iterator = (body.body instanceof Uint8Array ? chunksOf(body.body) : body.body)[Symbol.asyncIterator]();
  const first = await iterator.next();
  res.locals.envelopeCode = null;
  res.statusCode = status;
  res.setHeader('Content-Type', body.contentType);
  res.setHeader('Cache-Control', 'no-store');
  if (first.done) return void res.end();
  res.write(first.value);
  try {
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      if (res.destroyed) {
        await iterator.return?.();
        return;
      }
      if (!res.write(next.value)) await drained(res);
    }
    res.end();
  } catch {
    res.destroy();
  }
}
