/**
 * Writing responses: the success envelope, raw bodies, binary bodies and the
 * error envelope (document 1, "Common response envelope"). Every response
 * records its status and envelope code for the journal.
 */
import type { Request, Response } from 'express';
import type { BinaryBody } from '../../schemas/registry-types.ts';
import type { ErrorName } from '../../schemas/errors.ts';
import { errorAnswer, type Answer } from '../core/answer.ts';
import { ApiError } from '../engine/api-error.ts';
import type { Engine } from '../engine/engine.ts';
import { streamsBusy, type Capacity } from './capacity.ts';
import { streamEvents } from './event-stream.ts';
import { applyCors, takeCors } from './cors.ts';
import { answered } from './pipelining.ts';

/**
 * Sends the error envelope of a catalogued error, with Retry-After on 429 and 503 (see errorAnswer).
 */
export function sendError(res: Response, err: ApiError | ErrorName, message?: string, headers: Record<string, string> = {}): void {
  writeWhole(res, errorAnswer(err, message, headers));
}

/**
 * Writes an answer whose body is whole (JSON text or bytes) with Content-Length, or empty (304); HEAD gets no body.
 * The head is one writeHead with every header (the CORS headers the response owes, the answer's, Content-Length),
 * and the body one end: Node sends them in one write.
 */
export function writeWhole(res: Response, a: Answer): void {
  answered(res);
  res.locals.envelopeCode = a.envelopeCode;
  res.locals.answer = a;
  const head: string[] = [];
  takeCors(res, head);
  for (const k in a.headers) head.push(k, a.headers[k]);
  const b = a.body;
  if (!b) {
    res.writeHead(a.status, head);
    return void res.end();
  }
  const bytes = 'json' in b ? b.json : 'bytes' in b ? Buffer.from(b.bytes.buffer, b.bytes.byteOffset, b.bytes.byteLength) : '';
  head.push('Content-Length', String(typeof bytes === 'string' ? Buffer.byteLength(bytes) : bytes.byteLength));
  res.writeHead(a.status, head);
  res.end(res.req.method === 'HEAD' ? undefined : bytes);
}

/**
 * Whole answers written together: the answers the operations finish on one turn of the event loop are written when
 * the turn's I/O callbacks are done (`setImmediate`), or at once when `max` of them wait (docs/architecture.md,
 * "Keeping the request path fast"). A write to a socket whose client sleeps in its poll wakes that client, and the
 * wake-up is paid in the write: on a virtual machine it cost more than the rest of a create. Written back to back,
 * one answer wakes a client and the next ones find it awake. An answer waits at most for `max - 1` others (about a
 * millisecond at 16), never for a timer. A write that throws (a mock bug) answers that response 500, the others go on.
 */
export class AnswerBatch {
  private readonly responses: Response[] = [];
  private readonly answers: Answer[] = [];
  private scheduled = false;

  /**
   * @param max answers written at once when that many wait (a whole number >= 1; 1 writes each at once)
   * @param onMockBug told of a write that threw
   */
  constructor(
    private readonly max: number,
    private readonly onMockBug: (res: Response, problem: string) => void,
  ) {}

  /** Writes `a` to `res` (as writeWhole) with the other answers of this turn of the event loop. */
  add(res: Response, a: Answer): void {
    const n = this.responses.push(res);
    this.answers.push(a);
    if (n >= this.max) return this.flush();
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flushLater);
    }
  }

  private readonly flushLater = (): void => {
    this.scheduled = false;
    this.flush();
  };

  /** Writes every waiting answer, oldest first. */
  private flush(): void {
    const n = this.responses.length;
    for (let i = 0; i < n; i++) {
      const res = this.responses[i];
      try {
        writeWhole(res, this.answers[i]);
      } catch (e) {
        this.onMockBug(res, (e as Error)?.stack ?? String(e));
        if (!res.headersSent) sendError(res, 'MOCK_INTERNAL_ERROR', 'mock bug: unexpected error while writing the answer');
        else res.destroy();
      }
    }
    this.responses.length = 0;
    this.answers.length = 0;
  }
}

/**
 * Writes an Answer of mock/core: whole bodies with Content-Length, binary
 * bodies chunked, event streams until their source is done. A binary body
 * whose first chunk fails is answered with the error envelope instead.
 */
export async function sendAnswer(
  req: Request,
  res: Response,
  a: Answer,
  engine: Engine,
  opts: { heartbeatMs: number; strict?: boolean; onMockBug?: (where: string, problem: string) => void; capacity?: Capacity },
): Promise<void> {
  const b = a.body;
  // the journal describes a binary body or an event stream from it (an error answered instead replaces it)
  res.locals.answer = a;
  const where = () => (res.locals.operationId as string | undefined) ?? (res.locals.path as string | undefined) ?? req.url;
  /** A mock bug found while answering (default: reported to the request's engine). */
  const report = (problem: string) => (opts.onMockBug ? opts.onMockBug(where(), problem) : engine.reportBug(where(), problem));
  if (b && 'events' in b) {
    const bug = report;
    const started = streamEvents(req, res, engine, b.events.source, {
      heartbeatMs: opts.heartbeatMs,
      capacity: opts.capacity,
      onError: bug,
      ...(b.events.events ? { events: b.events.events, onMockBug: bug } : {}),
    });
    if (!started) sendError(res, 'SERVER_BUSY', streamsBusy(opts.capacity!));
    return;
  }
  if (b && 'stream' in b) {
    try {
      return await sendBinary(res, a.status, { contentType: a.headers['Content-Type'], body: b.stream });
    } catch (e) {
      if (res.headersSent) return void res.destroy();
      if (e instanceof ApiError) return sendError(res, e);
      report((e as Error)?.stack ?? String(e));
      return sendError(res, 'MOCK_INTERNAL_ERROR', 'mock bug: unexpected error while handling the request');
    }
  }
  writeWhole(res, a);
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
  applyCors(res);
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
