/**
 * One API request through the registry, transport-neutral
 * (docs/architecture.md, "The request path"): auth -> Prefer/scenario ->
 * delay -> due events -> account -> forced answers -> rate limit -> body
 * (read by the transport) -> validation -> handler -> strict response check
 * -> the Answer of its kind (envelope, raw JSON, binary, event stream). The
 * Express router and the fetch handlers (MSW, in-process fetch) both call it,
 * so a request gets the same answer whichever way it came.
 */
import { z } from 'zod';
import { envelope } from '../../schemas/common.ts';
import { JOURNAL_BODY_CHARS } from '../../schemas/control.ts';
import { describeErrorRef, errorCatalog, type CatalogError } from '../../schemas/errors.ts';
import { operationIds, operations, type OperationId } from '../../schemas/operations.ts';
import type { BinaryBody, EventStreamSource, OperationDef } from '../../schemas/registry-types.ts';
import { ApiError } from '../engine/api-error.ts';
import type { Engine } from '../engine/engine.ts';
import type { Forcing } from '../engine/scenarios.ts';
import { credentialResolvers, handlers } from '../services/index.ts';
import type { ServiceContext } from '../services/context.ts';
import { binaryAnswer, errorAnswer, isJsonType, jsonAnswer, type Answer } from './answer.ts';
import { errorForStatus, readDirectives, scenarioForcing, toForcing } from './prefer.ts';
import { parseOrThrow } from './validate.ts';

/** Default largest JSON body, in bytes. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** Largest JSON body `op` accepts, in bytes. */
export function bodyLimitOf(op: OperationDef): number {
  return op.request.body?.kind === 'json' ? (op.request.body.limitBytes ?? DEFAULT_BODY_LIMIT) : DEFAULT_BODY_LIMIT;
}

/** The answer to a JSON body over `limit` bytes (413, 10006). */
export function bodyTooLarge(limit: number): Answer {
  return errorAnswer('PAYLOAD_TOO_LARGE', `request body is larger than the ${limit} bytes this operation accepts`);
}

export interface OperationOptions {
  /** Validate every response against its declared schema; a mismatch is a loud 500 (a mock bug). */
  strict: boolean;
  /** Simulated latency in real ms, drawn per request (undefined: none). */
  latency?: (requestSeq: number) => number;
  /** Called when the mock finds a bug in itself. */
  onMockBug?: (operationId: string, problem: string) => void;
}

/** A request as the transport read it. */
export interface OperationRequest {
  /** The Authorization header, if any. */
  authorization?: string;
  /** Every Prefer header, joined with commas. */
  prefer?: string;
  /** Path parameters, decoded. */
  params: Record<string, string>;
  /** Query parameters as parsed (strings, or arrays of strings for repeated names). */
  query: Record<string, unknown>;
  /** The body before validation: called once, after auth, for an operation with a body (JSON value, multipart fields and files, or undefined when empty). */
  readBody: () => Promise<unknown>;
  /** `proto://host[:port]` media URLs are built on. */
  origin: string;
}

/** What the journal records of a request besides its status. */
export interface OperationTrace {
  operationId: OperationId;
  keyId: string | null;
  /** The body as read (files summarized), cut to JOURNAL_BODY_CHARS of JSON text. */
  body?: unknown;
  bodyTruncated?: boolean;
}

/** A request body for the journal: files as {filename, mimeType, size}; beyond JOURNAL_BODY_CHARS of JSON text, the cut text. */
export function journalBody(raw: unknown): { body: unknown; bodyTruncated?: boolean } {
  const summary =
    raw !== null && typeof raw === 'object' && !Array.isArray(raw)
      ? Object.fromEntries(
          Object.entries(raw).map(([k, v]) => {
            const file = (f: unknown) => {
              const u = f as { filename?: unknown; mimeType?: unknown; bytes?: unknown };
              return u && u.bytes instanceof Uint8Array ? { filename: u.filename, mimeType: u.mimeType, size: u.bytes.byteLength } : f;
            };
            return [k, Array.isArray(v) ? v.map(file) : file(v)];
          }),
        )
      : raw;
  let text: string;
  try {
    text = JSON.stringify(summary) ?? '';
  } catch {
    // nested deeper than JSON.stringify's stack allows (JSON.parse took it): recorded as a note, the request goes on
    return { body: '(a body nested too deeply to record)', bodyTruncated: true };
  }
  return text.length > JOURNAL_BODY_CHARS ? { body: text.slice(0, JOURNAL_BODY_CHARS), bodyTruncated: true } : { body: summary };
}

/**
 * The API key a request acts as: an API key in `Authorization: Bearer`, or
 * the account of a credential an area issues (an OAuth access token).
 * Errors: UNAUTHORIZED (missing, not Bearer, malformed, or a token that no longer works).
 */
function bearerKey(header: string | undefined, engine: Engine): string {
  if (!header) throw new ApiError('UNAUTHORIZED', 'Authorization header is missing; send Authorization: Bearer <API_KEY> (or an OAuth access token)');
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!m) throw new ApiError('UNAUTHORIZED', 'Authorization header must be "Bearer <API_KEY>" (or "Bearer <ACCESS_TOKEN>")');
  if (engine.keyPattern.test(m[1])) return m[1];
  const now = engine.tick();
  for (const resolve of credentialResolvers) {
    const apiKey = resolve(engine, m[1], now);
    if (apiKey !== undefined) return apiKey;
  }
  throw new ApiError('UNAUTHORIZED', `API key must have the form ${engine.keyPrefix}_<keyId>_<secret> (letters and digits), or be an OAuth access token`);
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

/**
 * A JSON request body from its bytes; undefined when empty.
 * Errors: UNSUPPORTED_MEDIA_TYPE (not a JSON media type), MALFORMED_JSON.
 */
export function parseJsonBody(bytes: Uint8Array | undefined, contentType: string | undefined): unknown {
  if (!bytes || bytes.length === 0) return undefined;
  if (!isJsonType(contentType)) throw new ApiError('UNSUPPORTED_MEDIA_TYPE', `Content-Type ${contentType || '(none)'} is not accepted; send application/json`);
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch (e) {
    throw new ApiError('MALFORMED_JSON', `request body is not valid JSON: ${(e as Error).message}`);
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Runs API operations against one engine: `run(id, request, trace)` answers one request. */
export function createOperationRunner(engine: Engine, opts: OperationOptions) {
  let requestSeq = 0;
  // the handlers as they are now (a test may patch one for the runner it creates)
  const bound = new Map(operationIds.map((id) => [id, handlers[id] as unknown as (input: unknown, ctx: ServiceContext) => unknown]));
  const responseSchemas = new Map<string, z.ZodType | undefined>();
  const schemaOf = (id: OperationId, op: OperationDef) => {
    if (!responseSchemas.has(id)) {
      const r = op.response;
      responseSchemas.set(id, r.kind === 'envelope' ? envelope(r.schema) : r.kind === 'raw' ? r.schema : undefined);
    }
    return responseSchemas.get(id);
  };

  /** Answers one request to operation `id`; fills `trace` (operationId, keyId) for the journal. Never throws. */
  async function run(id: OperationId, req: OperationRequest, trace?: Partial<OperationTrace>): Promise<Answer> {
    const op = operations[id] as OperationDef;
    const handler = bound.get(id)!;
    const response = op.response;
    const bug = (problem: string) => opts.onMockBug?.(id, problem);
    const seq = ++requestSeq;
    if (trace) trace.operationId = id;
    try {
      const apiKey = op.auth ? bearerKey(req.authorization, engine) : null;
      if (apiKey && trace) trace.keyId = engine.keyPattern.exec(apiKey)?.[1] ?? null;

      const directives = readDirectives(req.prefer ?? '', req.query);
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

      const retryAfterSeconds = op.rateLimit ? Math.ceil(op.rateLimit.windowMs / 1000) : undefined;
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
          // an error with a documented Retry-After (voice cloning: 2 s, document 2, "Errors") answers that; else the window's wait
          const wait = (errorCatalog[op.rateLimit.error] as CatalogError).retryAfterSeconds ?? Math.max(1, Math.ceil(d.retryAfterMs / 1000));
          throw new ApiError(
            op.rateLimit.error,
            `rate limit: at most ${op.rateLimit.limit} requests per ${op.rateLimit.windowMs / 1000} s across the ${op.rateLimit.bucket} endpoints; retry after ${wait} s`,
            { retryAfterSeconds: wait },
          );
        }
      }

      let body: unknown;
      if (op.request.body) {
        const raw = await req.readBody();
        if (trace && raw !== undefined) Object.assign(trace, journalBody(raw));
        body = parseOrThrow(op, op.request.body.schema, raw === undefined && op.request.bodyOptional ? {} : raw, 'body');
      }
      const params = op.request.params ? parseOrThrow(op, op.request.params, req.params, 'path') : {};
      const query = op.request.query ?? z.object({});
      const q = parseOrThrow(op, query, Object.fromEntries(Object.entries(req.query).filter(([k]) => !k.startsWith('__'))), 'query');

      const ctx: ServiceContext = { engine, account, now: engine.tick(), forcing, operationId: id, url: (path) => req.origin + path };
      const out = await handler({ body, params, query: q }, ctx);
      engine.changed();

      if (response.kind === 'binary') {
        const b = out as BinaryBody;
        if (opts.strict && !response.contentTypes.includes(b.contentType)) {
          bug(`answered Content-Type ${b.contentType}, which it does not declare (${response.contentTypes.join(', ')})`);
          return errorAnswer('MOCK_INTERNAL_ERROR', `mock bug: ${id} answered an undeclared Content-Type ${b.contentType}`);
        }
        return binaryAnswer(response.status, b);
      }
      if (response.kind === 'event-stream') {
        return {
          status: 200,
          headers: {},
          body: { events: { source: out as EventStreamSource, ...(opts.strict ? { events: response.events } : {}) } },
          envelopeCode: null,
        };
      }
      const json = response.kind === 'envelope' ? { code: 0, message: ctx.message ?? '', data: out } : out;
      if (opts.strict) {
        const check = schemaOf(id, op)!.safeParse(json);
        if (!check.success) {
          const problem = check.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
          bug(problem);
          return errorAnswer('MOCK_INTERNAL_ERROR', `mock bug: the ${id} response does not match its declared schema (${problem})`);
        }
      }
      return jsonAnswer(response.status, json);
    } catch (e) {
      if (e instanceof ApiError) {
        // strict: an error the operation does not declare is not in its spec either (a mock bug)
        if (opts.strict && !(op.errors as readonly string[]).includes(e.error)) {
          bug(`answered ${e.code} (${e.error}), which ${id} does not declare`);
          return errorAnswer('MOCK_INTERNAL_ERROR', `mock bug: ${id} answered ${e.code}, which it does not declare`);
        }
        return errorAnswer(e);
      }
      bug((e as Error)?.stack ?? String(e));
      return errorAnswer('MOCK_INTERNAL_ERROR', 'mock bug: unexpected error while handling the request');
    }
  }
  return run;
}

/** Runs API operations against one engine (see createOperationRunner). */
export type OperationRunner = ReturnType<typeof createOperationRunner>;
