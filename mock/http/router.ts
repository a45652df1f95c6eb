/**
 * The Express adapter of the operations (docs/architecture.md, "The request
 * path"): one middleware finds the operation in the route table of
 * mock/core/routes.ts (the API's and the control API's), reads the request
 * (JSON and form bodies up to their limit before the operation runs,
 * multipart bodies streamed after auth), runs it in the request's world and writes the Answer.
 * Unknown paths go on (hosted media, pages, the 404 envelope); a known path
 * with another method answers 405 with Allow.
 */
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import getRawBody from 'raw-body';
import onFinished, { isFinished } from 'on-finished';
import type { OperationDef } from '../../schemas/registry-types.ts';
import { bodyLimitOf, parseWholeBody, readsWholeBody, type OperationRequest, type OperationTrace } from '../core/operation.ts';
import { applyCors } from './cors.ts';
import type { World, Worlds } from '../core/worlds.ts';
import type { RouteMatch } from '../core/routes.ts';
import { readMultipart } from './multipart.ts';
import { originOf } from './origin.ts';
import { bodyTooLargeMessage, type Capacity } from './capacity.ts';
import { sendAnswer, sendError, writeWhole } from './respond.ts';
import { pageOriginOf } from '../core/guard.ts';

/** Bytes a multipart body may carry beyond its files (boundaries, part headers, text fields): reserved with them. */
const MULTIPART_OVERHEAD = 1024 * 1024;

export { DEFAULT_BODY_LIMIT } from '../core/operation.ts';

export interface DispatchOptions {
  /** Base of media URLs (--public-url); default: from each request. */
  publicUrl?: string;
  /** Real ms between event-stream heartbeats. */
  heartbeatMs: number;
  strict?: boolean;
  /** The world of a request (its session), chosen before any path test. */
  worldOf: (res: Response) => World;
  /**
   * The process's caps on bodies in flight and open event streams (shared by every world); none: no caps. The bytes a
   * request reserves are left in `res.locals.bodyReserved`: the caller gives them back when the response closes.
   */
  capacity?: Capacity;
}

/** OpenAPI template -> Express 5 path: `/tasks/{taskId}` -> `/tasks/:taskId`. */
export function expressPath(template: string): string {
  return template.replace(/\{(\w+)\}/g, ':$1');
}

/** The middleware answering every operation of `worlds` (see the file's comment). */
export function createOperationDispatcher(worlds: Worlds, opts: DispatchOptions): RequestHandler {
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
    if (length === undefined && req.headers['transfer-encoding'] === undefined) return next();
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

  return (req: Request, res: Response, next: NextFunction) => {
    const hit = worlds.routes.find(req.method, req.path);
    if (!hit) {
      applyCors(res); // for the layers below (media, pages, documents), which set headers their own way
      return next();
    }
    if (hit.kind === 'method') {
      const allowed = hit.allowed.join(', ');
      return sendError(res, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${req.path}; allowed: ${allowed}`, { Allow: allowed });
    }
    if (hit.kind === 'encoding') return sendError(res, 'ROUTE_NOT_FOUND', `no operation at ${req.method} ${req.path}: the path is not valid percent-encoding`);
    const { op, operationId } = hit;
    const body = op.request.body;
    const world = opts.worldOf(res);
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
        if (!err) return void answer(req, res, hit, world).catch(next);
        // a form body that cannot be read (a corrupt Content-Encoding, an aborted upload) is not malformed JSON
        const type = (err as { type?: unknown }).type;
        if (body?.kind === 'form' && type !== 'entity.too.large')
          return sendError(res, 'MALFORMED_REQUEST', `request body could not be read (${typeof type === 'string' ? type : (err as Error)?.message})`);
        next(err);
      });
    else answer(req, res, hit, world).catch(next);
  };

  /** Runs operation `hit` in `world` and writes its answer (a function of the dispatcher's, not a closure made per request). */
  async function answer(req: Request, res: Response, hit: OperationHit, world: World): Promise<void> {
    const { op, operationId } = hit;
    const trace: Partial<OperationTrace> = {};
    if (!op.control) res.locals.operationId = operationId;
    const request = new ExpressOperationRequest(req, op, hit.params, originOf(req, opts.publicUrl) + world.prefix);
    // only the control guard and a web page's form read where a request comes from
    if (op.control || op.response.kind === 'page') {
      request.pageOrigin = pageOriginOf({
        origin: req.headers.origin,
        referer: req.headers.referer,
        'sec-fetch-site': [req.headers['sec-fetch-site'] ?? []].flat()[0],
      });
      request.selfOrigin = `${req.protocol}://${req.headers.host}`;
    }
    const a = await world.run(operationId, request, trace);
    res.locals.keyId = trace.keyId ?? null;
    if (trace.body !== undefined) res.locals.journalBody = trace.bodyTruncated ? { body: trace.body, bodyTruncated: true } : { body: trace.body };
    // a whole answer (JSON, most of them) is written at once; streams and events by sendAnswer
    const b = a.body;
    if (!b || 'json' in b || 'bytes' in b) writeWhole(res, a);
    else await sendAnswer(req, res, a, world.engine, answerOptions);
  }
}

/** A route table's hit on an operation. */
type OperationHit = Extract<RouteMatch, { kind: 'operation' }>;

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
    this.query = req.query;
  }

  readBody(): Promise<unknown> {
    const body = this.op.request.body;
    return body?.kind === 'multipart'
      ? readMultipart(this.req, body, this.op.validationError)
      : Promise.resolve(parseWholeBody(this.req.body as Buffer | undefined, this.req.headers['content-type'], this.op));
  }
}
