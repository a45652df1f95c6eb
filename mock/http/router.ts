/**
 * The API router built from the registry (docs/architecture.md, "The request
 * path"): for every operation, auth -> Prefer/scenario -> delay -> due events
 * -> account -> forced answers -> rate limit -> body (JSON or multipart) ->
 * validation -> handler -> strict response check -> the response of its kind
 * (envelope, raw JSON, binary, event stream).
 */
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import { z } from 'zod';
import { envelope } from '../../schemas/common.ts';
import { describeErrorRef, errorCatalog, type CatalogError } from '../../schemas/errors.ts';
import { operationIds, operations } from '../../schemas/operations.ts';
import type { BinaryBody, EventStreamSource, OperationDef } from '../../schemas/registry-types.ts';
import { ApiError } from '../engine/api-error.ts';
import type { Engine } from '../engine/engine.ts';
import type { Forcing } from '../engine/scenarios.ts';
import { handlers } from '../services/index.ts';
import type { ServiceContext } from '../services/context.ts';
import { streamEvents } from './event-stream.ts';
import { readMultipart } from './multipart.ts';
import { originOf } from './origin.ts';
import { errorForStatus, readDirectives, scenarioForcing, toForcing } from './prefer.ts';
import { sendBinary, sendError, sendJson } from './respond.ts';
import { parseOrThrow } from './validate.ts';

/** Default largest JSON body, in bytes. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

export interface RouterOptions {
  /** Validate every response against its declared schema; a mismatch is a loud 500 (a mock bug). */
  strict: boolean;
  /** Simulated latency in real ms, drawn per request (undefined: none). */
  latency?: (requestSeq: number) => number;
  /** Called when strict validation finds a mock bug. */
  onMockBug?: (operationId: string, problem: string) => void;
  /** Base of media URLs (--public-url); default: from each request. */
  publicUrl?: string;
  /** Real ms between event-stream heartbeats. */
  heartbeatMs: number;
}

/** OpenAPI template -> Express 5 path: `/tasks/{taskId}` -> `/tasks/:taskId`. */
export function expressPath(template: string): string {
  return template.replace(/\{(\w+)\}/g, ':$1');
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The API key of a request. Errors: UNAUTHORIZED (missing, not Bearer, malformed). */
function bearerKey(req: Request, engine: Engine): string {
  const h = req.headers.authorization;
  if (!h) throw new ApiError('UNAUTHORIZED', 'Authorization header is missing; send Authorization: Bearer <API_KEY>');
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  if (!m) throw new ApiError('UNAUTHORIZED', 'Authorization header must be "Bearer <API_KEY>"');
  if (!engine.keyPattern.test(m[1])) throw new ApiError('UNAUTHORIZED', `API key must have the form ${engine.keyPrefix}_<keyId>_<secret> (letters and digits)`);
  return m[1];
}

function forcingToDirectives(f: Forcing) {
  return scenarioForcing({ code: f.code, error: f.error, outcome: f.outcome, delay: f.delayMs });
}

/** True when a scenario's forcing is something `op` declares (see toForcing). */
export function forcingApplies(f: Forcing, op: OperationDef): boolean {
  try {
    toForcing(forcingToDirectives(f), op);
    return true;
  } catch {
    return false;
  }
}

/** The JSON body of a request read by express.raw; undefined when empty. Errors: UNSUPPORTED_MEDIA_TYPE, MALFORMED_JSON. */
function parseJsonBody(req: Request): unknown {
  const raw = req.body as Buffer | undefined;
  const hasBody = Buffer.isBuffer(raw) && raw.length > 0;
  if (!hasBody) return undefined;
  if (!req.is('application/json') && !req.is('application/*+json'))
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', `Content-Type ${req.headers['content-type'] ?? '(none)'} is not accepted; send application/json`);
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch (e) {
    throw new ApiError('MALFORMED_JSON', `request body is not valid JSON: ${(e as Error).message}`);
  }
}

/** The body of a request, before validation: JSON, multipart fields and files, or `{}` for an optional body left out. */
async function readBody(req: Request, op: OperationDef): Promise<unknown> {
  const body = op.request.body;
  if (!body) return undefined;
  const value = body.kind === 'multipart' ? await readMultipart(req, body, op.validationError) : parseJsonBody(req);
  return value === undefined && op.request.bodyOptional ? {} : value;
}

const noBody: RequestHandler = (_req, _res, next) => next();

/** Builds the router of every operation in the registry, bound to `engine`. */
export function createApiRouter(engine: Engine, opts: RouterOptions): Router {
  const router = express.Router();
  let requestSeq = 0;
  for (const id of operationIds) {
    const op = operations[id] as OperationDef;
    const handler = handlers[id] as unknown as (input: unknown, ctx: ServiceContext) => unknown;
    const response = op.response;
    const responseSchema = response.kind === 'envelope' ? envelope(response.schema) : response.kind === 'raw' ? response.schema : undefined;
    // JSON bodies are read (up to their limit) before the handler; multipart bodies are streamed later, after auth.
    const bodyParser = op.request.body?.kind === 'json' ? express.raw({ type: () => true, limit: op.request.body.limitBytes ?? DEFAULT_BODY_LIMIT }) : noBody;
    const query = op.request.query ?? z.object({});
    const bug = (problem: string) => opts.onMockBug?.(id, problem);
    const retryAfterSeconds = op.rateLimit ? Math.ceil(op.rateLimit.windowMs / 1000) : undefined;

    router[op.method](expressPath(op.path), bodyParser, async (req: Request, res: Response) => {
      const seq = ++requestSeq;
      res.locals.operationId = id;
      try {
        const apiKey = op.auth ? bearerKey(req, engine) : null;
        if (apiKey) res.locals.keyId = engine.keyPattern.exec(apiKey)?.[1] ?? null;

        const rawQuery = req.query as Record<string, unknown>;
        const directives = readDirectives([req.headers.prefer ?? []].flat().join(','), rawQuery);
        let forcing: Forcing = {};
        if (directives) forcing = toForcing(directives, op);
        else {
          const rule = engine.scenarios.take(apiKey, id, (f) => forcingApplies(f, op));
          if (rule) forcing = toForcing(forcingToDirectives(rule), op);
        }
        const delay = (forcing.delayMs ?? 0) + (opts.latency?.(seq) ?? 0);
        if (delay > 0) await sleep(delay);

        // Everything below reads the state as it is after the delay (a reset or a key deletion meanwhile wins).
        engine.tick();
        if (apiKey && engine.accounts.isDeleted(apiKey)) throw new ApiError('UNAUTHORIZED', 'API key has been deleted');
        const account = engine.accounts.get(apiKey ?? 'anonymous', engine.clock.now());

        if (forcing.code !== undefined && forcing.code !== op.response.status) {
          const name = errorForStatus(op, forcing.code)!;
          throw new ApiError(name, `forced by Prefer code=${forcing.code}: ${errorCatalog[name].meaning}`, {
            retryAfterSeconds: (errorCatalog[name] as CatalogError).retryAfterSeconds ?? retryAfterSeconds,
          });
        }
        if (forcing.error !== undefined && forcing.outcome !== 'failed') {
          throw new ApiError(forcing.error, `forced by Prefer error=${describeErrorRef(forcing.error)}: ${errorCatalog[forcing.error].meaning}`, {
            retryAfterSeconds: (errorCatalog[forcing.error] as CatalogError).retryAfterSeconds ?? retryAfterSeconds,
          });
        }
        if (op.rateLimit && apiKey) {
          const d = engine.limiter.hit(apiKey, op.rateLimit.bucket, op.rateLimit.limit, op.rateLimit.windowMs, engine.clock.now());
          if (!d.allowed) {
            const wait = Math.max(1, Math.ceil(d.retryAfterMs / 1000));
            throw new ApiError(
              op.rateLimit.error,
              `rate limit: at most ${op.rateLimit.limit} requests per ${op.rateLimit.windowMs / 1000} s across the ${op.rateLimit.bucket} endpoints; retry after ${wait} s`,
              { retryAfterSeconds: wait },
            );
          }
        }

        const rawBody = await readBody(req, op);
        const body = op.request.body ? parseOrThrow(op, op.request.body.schema, rawBody, 'body') : undefined;
        const params = op.request.params ? parseOrThrow(op, op.request.params, req.params, 'path') : {};
        const q = parseOrThrow(op, query, Object.fromEntries(Object.entries(rawQuery).filter(([k]) => !k.startsWith('__'))), 'query');

        const origin = originOf(req, opts.publicUrl);
        const ctx: ServiceContext = { engine, account, now: engine.tick(), forcing, operationId: id, url: (path) => origin + path };
        const out = await handler({ body, params, query: q }, ctx);
        engine.changed();

        if (response.kind === 'binary') {
          const b = out as BinaryBody;
          if (opts.strict && !response.contentTypes.includes(b.contentType)) {
            bug(`answered Content-Type ${b.contentType}, which it does not declare (${response.contentTypes.join(', ')})`);
            return sendError(res, 'MOCK_INTERNAL_ERROR', `mock bug: ${id} answered an undeclared Content-Type ${b.contentType}`);
          }
          return await sendBinary(res, response.status, b);
        }
        if (response.kind === 'event-stream') {
          return streamEvents(req, res, engine, out as EventStreamSource, {
            heartbeatMs: opts.heartbeatMs,
            onError: bug,
            ...(opts.strict ? { events: response.events, onMockBug: bug } : {}),
          });
        }
        const json = response.kind === 'envelope' ? { code: 0, message: ctx.message ?? '', data: out } : out;
        if (opts.strict) {
          const check = responseSchema!.safeParse(json);
          if (!check.success) {
            const problem = check.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
            bug(problem);
            return sendError(res, 'MOCK_INTERNAL_ERROR', `mock bug: the ${id} response does not match its declared schema (${problem})`);
          }
        }
        sendJson(res, response.status, json);
      } catch (e) {
        if (res.headersSent) return void res.destroy();
        if (e instanceof ApiError) {
          // strict: an error the operation does not declare is not in its spec either (a mock bug)
          if (opts.strict && !(op.errors as readonly string[]).includes(e.error)) {
            bug(`answered ${e.code} (${e.error}), which ${id} does not declare`);
            return sendError(res, 'MOCK_INTERNAL_ERROR', `mock bug: ${id} answered ${e.code}, which it does not declare`);
          }
          return sendError(res, e);
        }
        bug((e as Error)?.stack ?? String(e));
        return sendError(res, 'MOCK_INTERNAL_ERROR', 'mock bug: unexpected error while handling the request');
      }
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
