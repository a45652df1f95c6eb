/**
 * The Express adapter of the operations (docs/architecture.md, "The request
 * path"): for a request the entry (mock/core/front.ts) found an operation for
 * (`res.locals.route`, in `res.locals.world`), one function reserves its body
 * against the process's cap, reads it (JSON and form bodies up to their limit
 * before the operation runs, multipart bodies streamed after auth), runs the
 * operation and writes the Answer.
 */
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import getRawBody from 'raw-body';
import onFinished, { isFinished } from 'on-finished';
import type { OperationDef } from '../../schemas/registry-types.ts';
import type { OperationRequest, OperationTrace } from '../core/operation.ts';
import { bodyLimitOf, formFields, parseWholeBody, readsWholeBody } from '../core/request-body.ts';
import type { World } from '../core/worlds.ts';
import type { Answer } from '../core/answer.ts';
import type { OperationHit } from '../core/front.ts';
import type { ResponseLocals } from './locals.ts';
import { readMultipart } from './multipart.ts';
import { originOf } from './origin.ts';
import { bodyTooLargeMessage, type Capacity } from './capacity.ts';
import { AnswerBatch, sendAnswer, sendError } from './respond.ts';
import { answered } from './pipelining.ts';

/** Bytes a multipart body may carry beyond its files (boundaries, part headers, text fields): reserved with them. */
const MULTIPART_OVERHEAD = 1024 * 1024;

export { DEFAULT_BODY_LIMIT } from '../core/request-body.ts';

export interface DispatchOptions {
  /** Base of media URLs (--public-url); default: from each request. */
  publicUrl?: string;
  /** Real ms between event-stream heartbeats. */
  heartbeatMs: number;
  strict?: boolean;
  /**
   * The process's caps on bodies in flight and open event streams (shared by every world); none: no caps. The bytes a
   * request reserves are left in `res.locals.bodyReserved`: given back once its operation has answered, or by the caller
   * when the response closes (a request refused before its operation ran).
   */
  capacity?: Capacity;
  /** Whole answers written at once when that many wait (AnswerBatch, mock/http/respond.ts; default DEFAULT_WRITE_BATCH; 1: each at once). */
  writeBatch?: number;
}

/** Whole answers written at once when that many wait (AnswerBatch): about a millisecond of creates under load. */
export const DEFAULT_WRITE_BATCH = 16;

/** OpenAPI template -> Express 5 path: `/tasks/{taskId}` -> `/tasks/:taskId`. */
export function expressPath(template: string): string {
  return template.replace(/\{(\w+)\}/g, ':$1');
}

/** The function answering a request the entry found an operation for (see the file's comment); `next` takes its errors. */
export function createOperationDispatcher(opts: DispatchOptions): RequestHandler {
  // one body-parser reader per JSON or form limit, for a body with a Content-Encoding (it inflates gzip, deflate, br)
  const inflaters = new Map<number, RequestHandler>();
  /**
   * Reads a JSON or form body of `op` whole into `req.body` (a Buffer; undefined for a request without a body), up to
   * its limit, then calls `next` (with raw-body's error: 413 entity.too.large, 400 request.aborted or
   * request.size.invalid, once the rest of the request is read off, as body-parser does). A body without a
   * Content-Encoding, nearly all of them, is read by raw-body directly: body-parser's checks around it cost more than
   * the read.
   */
  const readBody = (limit: number, req: Request, res: Response, next: NextFunction) => {
    const encoding = req.headers['content-encoding'];
    if (encoding !== undefined && encoding.toLowerCase() !== 'identity') {
      let r = inflaters.get(limit);
      if (!r) inflaters.set(limit, (r = express.raw({ type: () => true, limit })));
      return r(req, res, next);
    }
    // a request with neither header has no body (RFC 9112 section 6.3)
    const length = req.headers['content-length'];
    const chunked = req.headers['transfer-encoding'] !== undefined;
    if (length === undefined && !chunked) return next();
    // a Content-Length within the limit (Node's parser delivers no byte past it): read here, without raw-body's
    // closures and async resource per request (nearly every body)
    if (!chunked && length !== undefined && DIGITS.test(length) && Number(length) <= limit) return readLength(req, Number(length), next);
    getRawBody(req, { length, limit }, (err, bytes) => {
      if (!err) {
        req.body = bytes;
        return next();
      }
      // past the limit while streaming: answered at once, the rest never read (nor the connection kept)
      if ((err as { type?: unknown }).type === 'entity.too.large') {
        res.setHeader('Connection', 'close');
        return next(err);
      }
      // read off the rest of the request, so the error is answered on a connection that can carry the next one
      if (isFinished(req)) return next(err);
      onFinished(req, () => next(err));
      req.resume();
    });
  };

  // built once: a mock bug found while answering is reported to the request's engine (sendAnswer's default)
  const answerOptions = { heartbeatMs: opts.heartbeatMs, strict: opts.strict, capacity: opts.capacity };
  const batch = new AnswerBatch(opts.writeBatch ?? DEFAULT_WRITE_BATCH, (res, problem) =>
    (res.locals as ResponseLocals).world?.engine.reportBug((res.locals as ResponseLocals).operationId ?? '(transport)', problem),
  );

  return (req: Request, res: Response, next: NextFunction) => {
    const d = res.locals as ResponseLocals;
    const hit = d.route!;
    const { op, operationId } = hit;
    const body = op.request.body;
    const world = d.world!;
    // a body (the API's or the control API's: a state document, an upload) is reserved against the process's cap
    // before it is read: its Content-Length, or the most the operation takes when it is chunked (a request with
    // neither header has no body, RFC 9112 section 6.3: a bare POST /__mock/reset reserves nothing)
    const capacity = opts.capacity;
    const limit = capacity ? capacity.limitOf(operationId, op) : bodyLimitOf(op);
    if (body && capacity) {
      const maxBytes = body.kind === 'multipart' ? body.maxTotalBytes + MULTIPART_OVERHEAD : limit;
      const length = req.headers['content-length'];
      const admitted = capacity.admitBody(length, req.headers['transfer-encoding'] !== undefined, maxBytes, body.kind !== 'multipart');
      if (admitted === 'too-large' || admitted === 'busy') {
        if (!op.control) res.locals.operationId = operationId;
        // the body is never read: the connection cannot carry another request
        res.setHeader('Connection', 'close');
        if (admitted === 'too-large') return sendError(res, 'PAYLOAD_TOO_LARGE', bodyTooLargeMessage(operationId, maxBytes, length));
        return sendError(
          res,
          'SERVER_BUSY',
          `${Math.round(capacity.bodyBytes / 1024 / 1024)} MiB of request bodies are being received, the most this mock takes at once (--max-inflight-body-mb); retry later`,
        );
      }
      // given back when the response closes (the app's close listener)
      if (admitted.reserved > 0) res.locals.bodyReserved = admitted.reserved;
    }
    // JSON and form bodies are read (up to their limit) before the operation runs; multipart bodies are streamed later, after auth.
    if (readsWholeBody(op))
      readBody(limit, req, res, (err?: unknown) => {
        if (!err) return answer(req, res, hit, world, next);
        // a form body that cannot be read (a corrupt Content-Encoding, an aborted upload) is not malformed JSON
        const type = (err as { type?: unknown }).type;
        if (body?.kind === 'form' && type !== 'entity.too.large')
          return sendError(res, 'MALFORMED_REQUEST', `request body could not be read (${typeof type === 'string' ? type : (err as Error)?.message})`);
        next(err);
      });
    else answer(req, res, hit, world, next);
  };

  /**
   * Runs operation `hit` in `world` and writes its answer, or hands an error to `next` (functions of the dispatcher's,
   * not closures made per request). An answer the runner gives at once is written at once (no turn of the microtask
   * queue; see runApi in mock/core/operation.ts).
   */
  function answer(req: Request, res: Response, hit: OperationHit, world: World, next: NextFunction): void {
    const { op, operationId } = hit;
    const trace: Partial<OperationTrace> = {};
    const d = res.locals as ResponseLocals;
    try {
      if (!op.control) d.operationId = operationId;
      const request = new ExpressOperationRequest(req, op, hit.params, originOf(req, opts.publicUrl) + world.prefix);
      // a web page's form reads where a request comes from (the entry read it)
      request.pageOrigin = d.pageOrigin;
      request.selfOrigin = d.selfOrigin;
      const a = world.run(operationId, request, trace);
      if (a instanceof Promise) a.then((x) => write(req, res, world, trace, x), next).catch(next);
      else write(req, res, world, trace, a)?.catch(next);
    } catch (e) {
      next(e);
    }
  }

  /** Writes answer `a` of a request traced in `trace` (the body's reservation given back first); a promise for a stream. */
  function write(req: Request, res: Response, world: World, trace: Partial<OperationTrace>, a: Answer): Promise<void> | undefined {
    const d = res.locals as ResponseLocals;
    // the body is read and done with: its reservation is given back now, not when the answer is written (AnswerBatch)
    if (d.bodyReserved > 0) {
      opts.capacity?.releaseBody(d.bodyReserved);
      d.bodyReserved = 0;
    }
    d.keyId = trace.keyId ?? null;
    // the journal's generation when the handler ran (or the request was refused): written at close only if no reset
    // or state load came since
    d.journalGeneration = trace.generation ?? world.engine.journal.generation;
    if (trace.body !== undefined) d.journalBody = trace.bodyTruncated ? { body: trace.body, bodyTruncated: true } : { body: trace.body };
    // decided: a request pipelined behind this one may run now (mock/http/pipelining.ts)
    answered(res);
    // a whole answer (JSON, most of them) is written with the others of this turn of the event loop; streams and events by sendAnswer
    const b = a.body;
    if (!b || 'json' in b || 'bytes' in b) batch.add(res, a);
    else return sendAnswer(req, res, a, world.engine, answerOptions);
  }
}

/** A Content-Length Node's parser passed (it refuses any other). */
const DIGITS = /^\d{1,15}$/;

/** An empty body (a Content-Length of 0). */
const NO_BYTES = Buffer.alloc(0);

/** Where a body read by readLength stands; kept on the request, so its listeners are functions shared by every request. */
interface LengthRead {
  expected: number;
  received: number;
  first: Buffer | undefined;
  more: Buffer[] | undefined;
  next: NextFunction;
}

const READ = Symbol('body read');
type Reading = Request & { [READ]?: LengthRead };

/**
 * Reads a body of a known length (its Content-Length, within the operation's limit) whole into `req.body` (a
 * Buffer), then calls `next`; as raw-body does (the same errors, with their `type`): a request aborted before its
 * last byte calls `next` with a 400 `request.aborted`, an end before the length a 400 `request.size.invalid`, a
 * stream error with that error; after an error the request is paused. A request closed without any of them calls
 * nothing (its response is gone).
 */
function readLength(req: Reading, expected: number, next: NextFunction): void {
  req[READ] = { expected, received: 0, first: undefined, more: undefined, next };
  req.on('aborted', onAborted);
  req.on('close', onClose);
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('error', onStreamError);
}

function onData(this: Reading, chunk: Buffer) {
  const r = this[READ];
  if (!r) return;
  r.received += chunk.length;
  if (r.first === undefined) r.first = chunk;
  else (r.more ??= [r.first]).push(chunk);
}

function onEnd(this: Reading) {
  const r = this[READ];
  if (!r) return;
  if (r.received !== r.expected)
    return readDone(
      this,
      r,
      bodyError(400, 'request size did not match content length', {
        expected: r.expected,
        length: r.expected,
        received: r.received,
        type: 'request.size.invalid',
      }),
    );
  this.body = r.more ? Buffer.concat(r.more, r.received) : (r.first ?? NO_BYTES);
  readDone(this, r, undefined);
}

function onAborted(this: Reading) {
  const r = this[READ];
  if (!r) return;
  readDone(
    this,
    r,
    bodyError(400, 'request aborted', { code: 'ECONNABORTED', expected: r.expected, length: r.expected, received: r.received, type: 'request.aborted' }),
  );
}

function onStreamError(this: Reading, err: Error) {
  const r = this[READ];
  if (r) readDone(this, r, err);
}

function onClose(this: Reading) {
  stopReading(this);
}

/** Ends a read: its listeners go, the request pauses after an error, and `next` is called. */
function readDone(req: Reading, r: LengthRead, err: unknown): void {
  stopReading(req);
  if (err) {
    req.unpipe();
    req.pause();
  }
  r.next(err);
}

function stopReading(req: Reading): void {
  req[READ] = undefined;
  req.removeListener('aborted', onAborted);
  req.removeListener('close', onClose);
  req.removeListener('data', onData);
  req.removeListener('end', onEnd);
  req.removeListener('error', onStreamError);
}

/** An error as raw-body's (http-errors): a message, a status, `expose` for a client error, and its fields (`type`...). */
function bodyError(status: number, message: string, fields: Record<string, unknown>): Error {
  return Object.assign(new Error(message), { status, statusCode: status, expose: status < 500, ...fields });
}

/** The query of a request without one: one object for all (nothing writes to it). */
const NO_QUERY: Record<string, unknown> = Object.freeze(Object.create(null) as Record<string, unknown>);

/**
 * The query parameters of a request target: a string per name, an array of strings for a repeated name, folded by
 * the one rule of every transport and of form bodies (`formFields`, mock/core/request-body.ts). Read from the target,
 * not Express's `req.query`: an operation's request is Node's, not Express's (mock/http/app.ts).
 */
function queryOf(target: string): Record<string, unknown> {
  const q = target.indexOf('?');
  if (q < 0 || q === target.length - 1) return NO_QUERY;
  const hash = target.indexOf('#', q);
  return formFields(new URLSearchParams(hash < 0 ? target.slice(q + 1) : target.slice(q + 1, hash)));
}

/**
 * An operation request read from an Express request (see OperationRequest): the headers the runner reads, and the
 * body, read when the runner asks (`readBody`: JSON or form bytes parsed, multipart streamed through busboy). A class,
 * so a request costs one object and no closures.
 */
class ExpressOperationRequest implements OperationRequest {
  readonly authorization: string | undefined;
  readonly prefer: string;
  readonly query: Record<string, unknown>;
  pageOrigin?: string;
  selfOrigin?: string;

  constructor(
    private readonly req: Request,
    private readonly op: OperationDef,
    readonly params: Record<string, string>,
    readonly origin: string,
  ) {
    const prefer = req.headers.prefer;
    this.authorization = req.headers.authorization;
    this.prefer = prefer === undefined ? '' : Array.isArray(prefer) ? prefer.join(',') : prefer;
    this.query = queryOf(req.url);
  }

  /** A multipart body streamed (a promise); a JSON or form body, read before the operation ran, parsed at once. */
  readBody(): unknown {
    const body = this.op.request.body;
    return body?.kind === 'multipart'
      ? readMultipart(this.req, body, this.op.validationError)
      : parseWholeBody(this.req.body as Buffer | undefined, this.req.headers['content-type'], this.op);
  }
}
