/**
 * The API router built from the registry (docs/architecture.md, "The request
 * path"): an Express route per operation that reads the request (JSON bodies
 * up to their limit before the handler, multipart bodies streamed after auth)
 * and writes the Answer of mock/core/operation.ts.
 */
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import { operationIds, operations } from '../../schemas/operations.ts';
import type { OperationDef } from '../../schemas/registry-types.ts';
import { bodyLimitOf, createOperationRunner, parseJsonBody, type OperationOptions, type OperationTrace } from '../core/operation.ts';
import type { Engine } from '../engine/engine.ts';
import { readMultipart } from './multipart.ts';
import { originOf } from './origin.ts';
import type { Capacity } from './capacity.ts';
import { sendAnswer, sendError } from './respond.ts';

/** Bytes a multipart body may carry beyond its files (boundaries, part headers, text fields): reserved with them. */
const MULTIPART_OVERHEAD = 1024 * 1024;

export { DEFAULT_BODY_LIMIT, forcingApplies } from '../core/operation.ts';

export interface RouterOptions extends OperationOptions {
  /** Base of media URLs (--public-url); default: from each request. */
  publicUrl?: string;
  /** Path after the origin in every media URL (a session's `/sessions/<name>`); default none. */
  pathPrefix?: string;
  /** Real ms between event-stream heartbeats. */
  heartbeatMs: number;
  /** The process's caps on bodies in flight and open event streams (shared by every world); none: no caps. */
  capacity?: Capacity;
}

/** OpenAPI template -> Express 5 path: `/tasks/{taskId}` -> `/tasks/:taskId`. */
export function expressPath(template: string): string {
  return template.replace(/\{(\w+)\}/g, ':$1');
}

const noBody: RequestHandler = (_req, _res, next) => next();

/** One world's side of a shared API router: its engine, its runner and the path prefix of its media URLs. */
export interface ApiWorld {
  engine: Engine;
  run: ReturnType<typeof createOperationRunner>;
  /** Path after the origin in every media URL (a session's `/sessions/<name>`). */
  pathPrefix: string;
  /** Where this world's mock bugs go (default: the router's `onMockBug`). */
  onMockBug?: (where: string, problem: string) => void;
}

/** Builds the router of every operation in the registry, bound to `engine`. */
export function createApiRouter(engine: Engine, opts: RouterOptions): Router {
  const world: ApiWorld = { engine, run: createOperationRunner(engine, opts), pathPrefix: opts.pathPrefix ?? '' };
  return createSharedApiRouter(() => world, opts);
}

/**
 * Builds one router of every operation in the registry for several worlds:
 * `worldOf(res)` picks the world a request acts in (the sessions of a
 * process share one router, so a session costs its engine, not a router).
 */
export function createSharedApiRouter(worldOf: (res: Response) => ApiWorld, opts: Omit<RouterOptions, 'pathPrefix' | 'latency'>): Router {
  const router = express.Router();
  for (const id of operationIds) {
    const op = operations[id] as OperationDef;
    const body = op.request.body;
    // JSON bodies are read (up to their limit) before the handler; multipart bodies are streamed later, after auth.
    const bodyParser = body?.kind === 'json' ? express.raw({ type: () => true, limit: bodyLimitOf(op) }) : noBody;
    const readBody = (req: Request) => () =>
      body?.kind === 'multipart'
        ? readMultipart(req, body, op.validationError)
        : Promise.resolve(parseJsonBody(req.body as Buffer | undefined, req.headers['content-type']));

    // a body is reserved against the process's cap before it is read: its Content-Length, or the most the operation takes
    const maxBytes = body?.kind === 'multipart' ? body.maxTotalBytes + MULTIPART_OVERHEAD : bodyLimitOf(op);
    const reserve: RequestHandler =
      body && opts.capacity
        ? (req, res, next) => {
            const capacity = opts.capacity!;
            const length = Number(req.headers['content-length']);
            const bytes = Number.isFinite(length) && length >= 0 ? Math.min(length, maxBytes) : maxBytes;
            if (bytes === 0) return next();
            if (!capacity.reserveBody(bytes)) {
              res.locals.operationId = id;
              res.setHeader('Connection', 'close');
              return sendError(
                res,
                'SERVER_BUSY',
                `${Math.round(capacity.bodyBytes / 1024 / 1024)} MiB of request bodies are being received, the most this mock takes at once (--max-inflight-body-mb); retry later`,
              );
            }
            res.on('close', () => capacity.releaseBody(bytes));
            next();
          }
        : noBody;

    router[op.method](expressPath(op.path), reserve, bodyParser, async (req: Request, res: Response) => {
      const trace: Partial<OperationTrace> = {};
      res.locals.operationId = id;
      const { engine, run, pathPrefix, onMockBug = opts.onMockBug } = worldOf(res);
      const answer = await run(
        id,
        {
          authorization: req.headers.authorization,
          prefer: [req.headers.prefer ?? []].flat().join(','),
          params: req.params as Record<string, string>,
          query: req.query,
          readBody: readBody(req),
          origin: originOf(req, opts.publicUrl) + pathPrefix,
        },
        trace,
      );
      res.locals.keyId = trace.keyId ?? null;
      if (trace.body !== undefined) res.locals.journalBody = { body: trace.body, ...(trace.bodyTruncated ? { bodyTruncated: true } : {}) };
      await sendAnswer(req, res, answer, engine, { ...opts, onMockBug });
    });
  }
  return router;
}

/** Regexes of every registry path with its methods, for 404 vs 405. */
export function routeTable(): { re: RegExp; methods: string[] }[] {
  const byPath = new Map<string, string[]>();
  for (const id of operationIds) {
    const op = operations[id];
    byPath.set(op.path, [...(byPath.get(op.path) ?? []), op.method.toUpperCase()]);
  }
  return [...byPath].map(([p, methods]) => ({ re: new RegExp(`^${p.replace(/\{\w+\}/g, '[^/]+')}/?$`, 'i'), methods }));
}
