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
import { sendAnswer } from './respond.ts';

export { DEFAULT_BODY_LIMIT, forcingApplies } from '../core/operation.ts';

export interface RouterOptions extends OperationOptions {
  /** Base of media URLs (--public-url); default: from each request. */
  publicUrl?: string;
  /** Path after the origin in every media URL (a session's `/sessions/<name>`); default none. */
  pathPrefix?: string;
  /** Real ms between event-stream heartbeats. */
  heartbeatMs: number;
}

/** OpenAPI template -> Express 5 path: `/tasks/{taskId}` -> `/tasks/:taskId`. */
export function expressPath(template: string): string {
  return template.replace(/\{(\w+)\}/g, ':$1');
}

const noBody: RequestHandler = (_req, _res, next) => next();

/** Builds the router of every operation in the registry, bound to `engine`. */
export function createApiRouter(engine: Engine, opts: RouterOptions): Router {
  const router = express.Router();
  const run = createOperationRunner(engine, opts);
  for (const id of operationIds) {
    const op = operations[id] as OperationDef;
    const body = op.request.body;
    // JSON bodies are read (up to their limit) before the handler; multipart bodies are streamed later, after auth.
    const bodyParser = body?.kind === 'json' ? express.raw({ type: () => true, limit: bodyLimitOf(op) }) : noBody;
    const readBody = (req: Request) => () =>
      body?.kind === 'multipart'
        ? readMultipart(req, body, op.validationError)
        : Promise.resolve(parseJsonBody(req.body as Buffer | undefined, req.headers['content-type']));

    router[op.method](expressPath(op.path), bodyParser, async (req: Request, res: Response) => {
      const trace: Partial<OperationTrace> = {};
      res.locals.operationId = id;
      const answer = await run(
        id,
        {
          authorization: req.headers.authorization,
          prefer: [req.headers.prefer ?? []].flat().join(','),
          params: req.params as Record<string, string>,
          query: req.query,
          readBody: readBody(req),
          origin: originOf(req, opts.publicUrl) + (opts.pathPrefix ?? ''),
        },
        trace,
      );
      res.locals.keyId = trace.keyId ?? null;
      if (trace.body !== undefined) res.locals.journalBody = { body: trace.body, ...(trace.bodyTruncated ? { bodyTruncated: true } : {}) };
      await sendAnswer(req, res, answer, engine, opts);
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
