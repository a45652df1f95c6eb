/**
 * One request through the registry, transport-neutral (docs/architecture.md,
 * "The request path"). An API operation: auth -> Prefer/scenario -> delay ->
 * due events -> account -> forced answers -> rate limit -> body (read by the
 * transport) -> validation -> the key checked again -> handler (its
 * `ctx.account` read live at each use) -> strict response check -> the Answer
 * of its kind (envelope, raw JSON, binary, event stream). A control operation
 * (/__mock): no key (the request entry, mock/core/front.ts, checked the
 * control guard before it came here), then validation, handler and the same
 * answers. The Express server and the fetch handlers (MSW, in-process fetch)
 * all call it after that entry, so a request gets the same answer whichever
 * way it came.
 */
import { z } from 'zod';
import { envelope } from '../../schemas/common.ts';
import { describeErrorRef, errorCatalog, type CatalogError, type ErrorName } from '../../schemas/errors.ts';
import type { OperationId } from '../../schemas/operations.ts';
import type { BinaryBody, EventStreamSource, OperationDef, PageBody } from '../../schemas/registry-types.ts';
import { ApiError } from '../engine/api-error.ts';
import type { Engine } from '../engine/engine.ts';
import type { Account } from '../engine/accounts.ts';
import type { Forcing } from '../engine/scenarios.ts';
import type { AnyHandler, HandlerInput, ServiceSet } from '../services/index.ts';
import type { ControlContext, ControlHost, ServiceContext } from '../services/context.ts';
import { binaryAnswer, errorAnswer, jsonAnswer, jsonTextAnswer, pageAnswer, redirectAnswer, type Answer } from './answer.ts';
import { JsonText } from '../engine/json-text.ts';
import { errorForStatus, forcedBy, forcingApplies, forcingToDirectives, readDirectives, toForcing } from './forcing.ts';
import { loadFake } from '../services/fake.ts';
import { loadAudioLoops } from '../media/audio.ts';
import { loadRenderers } from '../media/renderers.ts';
import { parseOrThrow } from './validate.ts';
import { readsWholeBody } from './request-body.ts';
import { journalBody } from './journal-body.ts';

/** True once faker, the audio loops and the renderers are loaded (then a request awaits nothing for them). */
let lazyLoaded = false;
/** Loads faker, the audio loops and the renderers (on first use: chunks of their own in a browser build). */
async function loadLazy(): Promise<void> {
  await Promise.all([loadFake(), loadAudioLoops(), loadRenderers()]);
  lazyLoaded = true;
}

export interface OperationOptions {
  /** Validate every response against its declared schema; a mismatch is a loud 500 (a mock bug). */
  strict: boolean;
  /** Simulated latency in real ms, drawn per request (undefined: none). */
  latency?: (requestSeq: number) => number;
  /** Called when the mock finds a bug in itself. */
  onMockBug?: (operationId: string, problem: string) => void;
  /** What the host offers the control operations (a state file, sessions). */
  host?: ControlHost;
  /**
   * Answers an API request in place of its handler when it returns an Answer (a recording replayed:
   * mock/http/recording/replay.ts); runs after auth, forcing, the rate limit and validation. Undefined: the handler answers.
   */
  intercept?: (call: InterceptedCall) => Answer | undefined;
}

/** An API request as `OperationOptions.intercept` sees it: validated, with its body and query as the client sent them. */
export interface InterceptedCall {
  operationId: string;
  /** The caller's API key (null for an operation without auth). */
  apiKey: string | null;
  /** Path parameters, validated. */
  params: Record<string, unknown>;
  /** Query parameters as sent (the `__` forcing ones left out). */
  query: Record<string, unknown>;
  /** The body as sent (parsed JSON; multipart fields and files), before validation. */
  body: unknown;
  /** `proto://host[:port]` media URLs are built on. */
  origin: string;
  /** The engine's time at the handler. */
  now: number;
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
  /**
   * The body before validation: called once, after auth, for an operation with a body (JSON value, multipart fields and
   * files, or undefined when empty); the value itself when the transport has it at hand, else a promise of it.
   */
  readBody: () => unknown;
  /** `proto://host[:port]` media URLs are built on. */
  origin: string;
  /** The web origin of the page that sent it, if any (see pageOriginOf; a web page operation reads it: `fromOwnPage`). */
  pageOrigin?: string;
  /** The mock's own origin as this request reached it (a page the mock serves passes the guard). */
  selfOrigin?: string;
}

/** True when a browser sent `req` from a page of the mock's own origin (its Origin, else its Referer, is the origin the request reached). */
export function fromOwnPage(req: Pick<OperationRequest, 'pageOrigin' | 'selfOrigin'>): boolean {
  return req.pageOrigin !== undefined && req.pageOrigin === req.selfOrigin;
}

/** What the journal records of a request besides its status. */
export interface OperationTrace {
  operationId: OperationId;
  keyId: string | null;
  /** The body as read (files summarized), cut to JOURNAL_BODY_CHARS of JSON text. */
  body?: unknown;
  bodyTruncated?: boolean;
  /**
   * The journal's generation (Journal.generation) when the handler was done (an asynchronous one when it resolved),
   * or when the request was refused: a transport that journals the request later (when its response has closed)
   * writes nothing into a journal cleared since.
   */
  generation?: number;
}

/** Records the JSON or form body of a request refused before it was read, as it would have been read; a body that does not parse is left out. */
async function journalRefusedBody(req: OperationRequest, trace: Partial<OperationTrace>): Promise<void> {
  try {
    const raw = await req.readBody();
    if (raw !== undefined) Object.assign(trace, journalBody(raw));
  } catch {
    // malformed: the answer says so; there is no value to record
  }
}

/**
 * The API key a request acts as: an API key in `Authorization: Bearer`, or
 * the account of a credential an area issues (an OAuth access token).
 * Errors: UNAUTHORIZED (missing, not Bearer, malformed, or a token that no longer works).
 */
function bearerKey(header: string | undefined, engine: Engine, services: ServiceSet): string {
  if (!header) throw new ApiError('UNAUTHORIZED', 'Authorization header is missing; send Authorization: Bearer <API_KEY> (or an OAuth access token)');
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!m) throw new ApiError('UNAUTHORIZED', 'Authorization header must be "Bearer <API_KEY>" (or "Bearer <ACCESS_TOKEN>")');
  if (engine.keyPattern.test(m[1])) return m[1];
  const now = engine.tick();
  for (const resolve of services.credentials) {
    const apiKey = resolve(engine, m[1], now, unauthorized);
    if (apiKey !== undefined) return apiKey;
  }
  throw new ApiError('UNAUTHORIZED', `API key must have the form ${engine.keyPrefix}_<keyId>_<secret> (letters and digits), or be an OAuth access token`);
}

/** The error a credential resolver throws for a token of its that no longer works. */
const unauthorized = (error: 'UNAUTHORIZED', message: string) => new ApiError(error, message);

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** The forcing of a request that forces nothing: one object for all (nothing writes to a request's forcing). */
const NO_FORCING: Forcing = Object.freeze({});

/** The schema of an operation without query parameters: built once, not per request. */
const NO_QUERY = z.object({});

/** A request's parsed body, path parameters and query (what a handler gets). */
interface Input extends HandlerInput {
  params: Record<string, unknown>;
}

/** The body and query as sent (before validation), for a replayed recording (`intercept`). */
interface SentInput {
  body?: unknown;
  query?: unknown;
}

/** What an API operation gave: the handler's value and message, or the answer an interception gave instead. */
interface ApiOutcome {
  out: unknown;
  message: string | undefined;
  answer: Answer | undefined;
}

/** True for a promise or any other thenable (what `await` would wait for). */
function isThenable(x: unknown): x is PromiseLike<unknown> {
  return (typeof x === 'object' || typeof x === 'function') && x !== null && typeof (x as { then?: unknown }).then === 'function';
}

/** What the runner precomputes once per operation. */
interface Plan {
  op: OperationDef;
  handler: AnyHandler;
  /** The schema of the whole JSON answer (strict mode), or undefined for binary and event streams. */
  answerSchema: z.ZodType | undefined;
  query: z.ZodType;
  /** Retry-After of a forced 429 or 503 without one of its own: the rate-limit window, s. */
  retryAfterSeconds: number | undefined;
}

/**
 * The caller's account as it is now (`owner`: its API key, or 'anonymous'): read again after every await, so a reset,
 * a deletion or an eviction meanwhile wins. Errors: UNAUTHORIZED for a key deleted meanwhile.
 */
function liveAccount(engine: Engine, apiKey: string | null, owner: string): Account {
  if (apiKey && engine.accounts.isDeleted(apiKey)) throw new ApiError('UNAUTHORIZED', 'API key has been deleted');
  return engine.accounts.get(owner, engine.clock.now());
}

/**
 * The ServiceContext of one API request: its account read live at each use (`liveAccount`, which throws
 * UNAUTHORIZED for a key deleted meanwhile), URLs built on the request's origin. A class, so a request costs one
 * object, not a getter and a closure made for it.
 */
class ApiContext implements ServiceContext<ErrorName> {
  message?: string;

  constructor(
    readonly engine: Engine,
    readonly now: number,
    readonly forcing: Forcing,
    readonly operationId: OperationId,
    private readonly origin: string,
    readonly fromOwnPage: boolean,
    private readonly apiKey: string | null,
    private readonly owner: string,
  ) {}

  get account(): Account {
    return liveAccount(this.engine, this.apiKey, this.owner);
  }

  url(path: string): string {
    return this.origin + path;
  }

  /** The error to throw (a handler's type limits `error` to its operation's; strict mode checks the answer again). */
  fail(error: ErrorName, message?: string, opts?: { retryAfterSeconds?: number }): ApiError {
    return new ApiError(error, message, opts);
  }
}

/**
 * Runs the operations of `services` against one engine (prepared with the
 * same set): `run(id, request, trace)` answers one request that passed the
 * request entry (mock/core/front.ts: the control guard of a control operation
 * is checked there, once). The control operations take no API key and get
 * `opts.host` for what only the host has.
 */
export function createOperationRunner(engine: Engine, services: ServiceSet, opts: OperationOptions) {
  let requestSeq = 0;
  const plans = new Map<string, Plan>();
  const planOf = (id: string): Plan | undefined => {
    let p = plans.get(id);
    if (p) return p;
    const op = services.operations[id];
    const handler = services.handlers[id];
    if (!op || !handler) return undefined;
    const r = op.response;
    p = {
      op,
      handler,
      answerSchema: r.kind === 'envelope' ? envelope(r.schema) : r.kind === 'raw' ? r.schema : undefined,
      query: op.request.query ?? NO_QUERY,
      retryAfterSeconds: op.rateLimit ? Math.ceil(op.rateLimit.windowMs / 1000) : undefined,
    };
    plans.set(id, p);
    return p;
  };
  const host: ControlHost = opts.host ?? {};

  /**
   * The parsed body, path and query of a request to `op` (its validation error naming the field and the rule): at
   * once when the transport has the body at hand (a JSON or form body read before the operation runs), else a promise.
   */
  function inputOf(plan: Plan, req: OperationRequest, trace: Partial<OperationTrace> | undefined, sent?: SentInput): Input | Promise<Input> {
    if (!plan.op.request.body) return inputFrom(plan, req, trace, sent, undefined);
    const raw = req.readBody();
    return isThenable(raw) ? Promise.resolve(raw).then((r) => inputFrom(plan, req, trace, sent, r)) : inputFrom(plan, req, trace, sent, raw);
  }

  /** The input of a request to `plan`'s operation whose body (if it has one) is `raw`, as read (see inputOf). */
  function inputFrom(plan: Plan, req: OperationRequest, trace: Partial<OperationTrace> | undefined, sent: SentInput | undefined, raw: unknown): Input {
    const op = plan.op;
    let body: unknown;
    if (op.request.body) {
      if (sent) sent.body = raw;
      if (trace && raw !== undefined && !op.control) Object.assign(trace, journalBody(raw));
      const value = raw === undefined && op.request.bodyOptional ? {} : raw;
      body = op.request.bodyCheckedByHandler ? value : parseOrThrow(op, op.request.body.schema, value, 'body');
    }
    const params = op.request.params ? parseOrThrow(op, op.request.params, req.params, 'path') : {};
    let rawQuery = req.query;
    for (const k in rawQuery)
      if (k.startsWith('__')) {
        rawQuery = Object.fromEntries(Object.entries(rawQuery).filter(([name]) => !name.startsWith('__')));
        break;
      }
    const query = parseOrThrow(op, plan.query, rawQuery, 'query');
    if (sent) sent.query = rawQuery;
    return { body, params, query };
  }

  /** Answers a request to a control operation (the request entry checked the guard: mock/core/front.ts): the input, the handler. */
  async function runControl(plan: Plan, req: OperationRequest): Promise<unknown> {
    engine.tick();
    const input = await inputOf(plan, req, undefined);
    const ctx: ControlContext<ErrorName> = {
      engine,
      now: engine.tick(),
      operations: services.apiOperations,
      forcingApplies,
      host,
      url: (path) => req.origin + path,
      fail: (error, message) => new ApiError(error, message),
    };
    try {
      if (plan.handler.kind !== 'control') throw new Error(`${plan.op.operationId}: a control operation with an API handler`);
      return await plan.handler.run(input, ctx);
    } catch (e) {
      // a value the engine refuses (a clock it cannot reach) is the caller's mistake, not a mock bug
      if (e instanceof RangeError) throw new ApiError('CONTROL_INVALID_REQUEST', e.message);
      throw e;
    }
  }

  /**
   * The last `Authorization` header that was exactly `Bearer <API key>`, with its key and key id. A client sends the
   * same header on every request, so its regular expressions run once, not on every request. Only an API key is kept
   * (an OAuth access token is resolved every time: it may expire or be revoked); a key deleted since is refused later,
   * by its account, as before.
   */
  let lastKey: { header: string; apiKey: string; keyId: string | null } | undefined;
  /** `bearerKey` of `header`, with the key id of an API key (null for another credential). Errors: as `bearerKey`'s (UNAUTHORIZED). */
  function callerOf(header: string | undefined): { apiKey: string; keyId: string | null } {
    if (lastKey !== undefined && header === lastKey.header) return lastKey;
    const apiKey = bearerKey(header, engine, services);
    const keyId = engine.keyPattern.exec(apiKey)?.[1] ?? null;
    if (keyId !== null && header === `Bearer ${apiKey}`) lastKey = { header, apiKey, keyId };
    return { apiKey, keyId };
  }

  /**
   * Answers a request to an API operation: auth, forcing, delay, account, rate limit, input, handler. At once when
   * nothing on the way is asynchronous (no delay, the body at hand, a handler that returns its value: a create, a
   * read), else a promise: a request costs no turn of the microtask queue it does not need (docs/architecture.md,
   * "Keeping the request path fast"). Errors are thrown (or reject): ApiError for an answer, anything else a mock bug.
   */
  function runApi(id: string, plan: Plan, req: OperationRequest, trace: Partial<OperationTrace> | undefined, seq: number): ApiOutcome | Promise<ApiOutcome> {
    const op = plan.op;
    let apiKey: string | null = null;
    if (op.auth) {
      const caller = callerOf(req.authorization);
      apiKey = caller.apiKey;
      if (trace) trace.keyId = caller.keyId;
    }

    const directives = readDirectives(req.prefer ?? '', req.query);
    let forcing: Forcing = NO_FORCING;
    let scenarioId: string | undefined;
    if (directives) forcing = toForcing(directives, op);
    else {
      const rule = engine.scenarios.take(apiKey, id, (f) => forcingApplies(f, op));
      if (rule) {
        forcing = toForcing(forcingToDirectives(rule.forcing), op);
        scenarioId = rule.id;
      }
    }
    const delay = (forcing.delayMs ?? 0) + (opts.latency?.(seq) ?? 0);
    if (delay > 0) return sleep(delay).then(() => runApiAfterDelay(id, plan, req, trace, apiKey, forcing, scenarioId));
    return runApiAfterDelay(id, plan, req, trace, apiKey, forcing, scenarioId);
  }

  /** The rest of runApi once its delay (if any) is over. */
  function runApiAfterDelay(
    id: string,
    plan: Plan,
    req: OperationRequest,
    trace: Partial<OperationTrace> | undefined,
    apiKey: string | null,
    forcing: Forcing,
    scenarioId: string | undefined,
  ): ApiOutcome | Promise<ApiOutcome> {
    const op = plan.op;
    // Everything below reads the state as it is after the delay (a reset or a key deletion meanwhile wins).
    engine.tick();
    const owner = apiKey ?? 'anonymous';
    // the caller's account, created on first use, before forced answers and the rate limit; read again after every await
    liveAccount(engine, apiKey, owner);

    if (forcing.code !== undefined && forcing.code !== op.response.status) {
      const name = errorForStatus(op, forcing.code)!;
      const by = forcedBy('code', String(forcing.code), { scenarioId, query: req.query });
      throw new ApiError(name, `forced by ${by}: ${errorCatalog[name].meaning}`, {
        retryAfterSeconds: (errorCatalog[name] as CatalogError).retryAfterSeconds ?? plan.retryAfterSeconds,
      });
    }
    if (forcing.error !== undefined && forcing.outcome !== 'failed') {
      const by = forcedBy('error', describeErrorRef(forcing.error), { scenarioId, query: req.query });
      throw new ApiError(forcing.error, `forced by ${by}: ${errorCatalog[forcing.error].meaning}`, {
        retryAfterSeconds: (errorCatalog[forcing.error] as CatalogError).retryAfterSeconds ?? plan.retryAfterSeconds,
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

    const sent: SentInput | undefined = opts.intercept ? {} : undefined;
    const input = inputOf(plan, req, trace, sent);
    return isThenable(input)
      ? Promise.resolve(input).then((i) => runHandler(id, plan, req, trace, apiKey, owner, forcing, sent, i))
      : runHandler(id, plan, req, trace, apiKey, owner, forcing, sent, input);
  }

  /** The end of runApi: the handler (or the interception) with the request's input. */
  function runHandler(
    id: string,
    plan: Plan,
    req: OperationRequest,
    trace: Partial<OperationTrace> | undefined,
    apiKey: string | null,
    owner: string,
    forcing: Forcing,
    sent: SentInput | undefined,
    input: Input,
  ): ApiOutcome | Promise<ApiOutcome> {
    if (trace) trace.generation = engine.journal.generation;
    // the body may have streamed for a while: the account is read at use time, never kept from before
    const ctx = new ApiContext(engine, engine.tick(), forcing, id as OperationId, req.origin, fromOwnPage(req), apiKey, owner);
    liveAccount(engine, apiKey, owner);
    const answer = opts.intercept?.({
      operationId: id,
      apiKey,
      params: input.params,
      query: (sent!.query ?? {}) as Record<string, unknown>,
      body: sent!.body,
      origin: req.origin,
      now: ctx.now,
    });
    if (answer) return { out: undefined, message: undefined, answer };
    if (plan.handler.kind !== 'api') throw new Error(`${plan.op.operationId}: an API operation with a control handler`);
    const out = plan.handler.run(input, ctx);
    // the message is read once the handler is done; so is the journal's generation, for a handler that awaits (an
    // uploaded file inspected) may make its task after a reset, in the world that follows it
    if (isThenable(out))
      return Promise.resolve(out).then((o) => {
        if (trace) trace.generation = engine.journal.generation;
        return { out: o, message: ctx.message, answer: undefined };
      });
    return { out, message: ctx.message, answer: undefined };
  }

  /**
   * Answers one request to operation `id`; fills `trace` (operationId, keyId, body) for the journal. Never throws (nor
   * rejects). The answer itself when nothing on the request's way was asynchronous (see runApi), else a promise of it.
   */
  function run(id: string, req: OperationRequest, trace?: Partial<OperationTrace>): Answer | Promise<Answer> {
    const plan = planOf(id);
    if (!plan) return errorAnswer('ROUTE_NOT_FOUND', `no operation ${id} in this mock`);
    const seq = ++requestSeq;
    if (trace) trace.operationId = id as OperationId;
    // faker, the audio loops and the renderers load on first use (chunks of their own in a browser build): before anything
    // of this request runs; the health check (the one open control operation) needs none of them and never waits
    if (!lazyLoaded && plan.op.control !== 'open')
      return loadLazy().then(
        () => runPlan(id, plan, req, trace, seq),
        (e: unknown) => failed(id, plan, req, trace, e),
      );
    return runPlan(id, plan, req, trace, seq);
  }

  /** `run` once the lazy modules are there: the operation, then its answer (see run). */
  function runPlan(id: string, plan: Plan, req: OperationRequest, trace: Partial<OperationTrace> | undefined, seq: number): Answer | Promise<Answer> {
    let started: ApiOutcome | Promise<ApiOutcome>;
    try {
      started = plan.op.control ? runControl(plan, req).then((out) => ({ out, message: undefined, answer: undefined })) : runApi(id, plan, req, trace, seq);
    } catch (e) {
      return failed(id, plan, req, trace, e);
    }
    if (isThenable(started))
      return Promise.resolve(started)
        .then((r) => answerOf(id, plan, r))
        .catch((e: unknown) => failed(id, plan, req, trace, e));
    try {
      return answerOf(id, plan, started);
    } catch (e) {
      return failed(id, plan, req, trace, e);
    }
  }

  /** The answer of an operation that gave `r` (its value, or an interception's answer), of the operation's response kind. */
  function answerOf(id: string, plan: Plan, r: ApiOutcome): Answer {
    engine.changed();
    if (r.answer) return r.answer;
    const { out, message } = r;
    const response = plan.op.response;
    if (response.kind === 'binary') {
      const b = out as BinaryBody;
      if (opts.strict && !response.contentTypes.includes(b.contentType)) {
        opts.onMockBug?.(id, `answered Content-Type ${b.contentType}, which it does not declare (${response.contentTypes.join(', ')})`);
        return errorAnswer('MOCK_INTERNAL_ERROR', `mock bug: ${id} answered an undeclared Content-Type ${b.contentType}`);
      }
      return binaryAnswer(response.status, b);
    }
    if (response.kind === 'page') {
      const p = out as PageBody;
      const status = 'location' in p ? response.status : (p.status ?? 200);
      const declared = 'location' in p ? response.status !== 200 : status === response.status || Object.hasOwn(response.pages ?? {}, status);
      if (opts.strict && !declared) {
        opts.onMockBug?.(id, `answered ${'location' in p ? 'a redirect' : `a page with status ${status}`}, which it does not declare`);
        return errorAnswer('MOCK_INTERNAL_ERROR', `mock bug: ${id} answered an undeclared ${'location' in p ? 'redirect' : `page status ${status}`}`);
      }
      return 'location' in p ? redirectAnswer(response.status, p.location) : pageAnswer(status, p.html);
    }
    if (response.kind === 'event-stream') {
      return {
        status: 200,
        headers: {},
        body: { events: { source: out as EventStreamSource, ...(opts.strict ? { events: response.events } : {}) } },
        envelopeCode: null,
      };
    }
    // JSON a handler serialised itself (the whole state): sent as it is, parsed here only to check it in strict mode
    if (out instanceof JsonText && response.kind !== 'envelope') {
      if (opts.strict) {
        const check = plan.answerSchema!.safeParse(JSON.parse(out.text));
        if (!check.success) {
          const problem = check.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
          opts.onMockBug?.(id, problem);
          return errorAnswer('MOCK_INTERNAL_ERROR', `mock bug: the ${id} response does not match its declared schema (${problem})`);
        }
      }
      return jsonTextAnswer(response.status, out.text);
    }
    const json = response.kind === 'envelope' ? { code: 0, message: message ?? '', data: out } : out;
    if (opts.strict) {
      const check = plan.answerSchema!.safeParse(json);
      if (!check.success) {
        const problem = check.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
        opts.onMockBug?.(id, problem);
        return errorAnswer('MOCK_INTERNAL_ERROR', `mock bug: the ${id} response does not match its declared schema (${problem})`);
      }
    }
    return jsonAnswer(response.status, json);
  }

  /** The answer to an operation that threw `e`: an ApiError's own answer (the journal still shows a body refused unread), else a mock bug's 500. */
  function failed(id: string, plan: Plan, req: OperationRequest, trace: Partial<OperationTrace> | undefined, e: unknown): Answer | Promise<Answer> {
    const op = plan.op;
    if (trace) trace.generation = engine.journal.generation;
    if (e instanceof ApiError) {
      // refused before its body was read (auth, Prefer, a forced error, the rate limit): the journal still shows the body
      if (trace && !op.control && trace.body === undefined && readsWholeBody(op)) return journalRefusedBody(req, trace).then(() => refused(id, op, e));
      return refused(id, op, e);
    }
    opts.onMockBug?.(id, (e as Error)?.stack ?? String(e));
    return errorAnswer('MOCK_INTERNAL_ERROR', 'mock bug: unexpected error while handling the request');
  }

  /** The answer to an ApiError `e` thrown by operation `id` (strict: an error it does not declare is not in its spec either, a mock bug). */
  function refused(id: string, op: OperationDef, e: ApiError): Answer {
    if (opts.strict && !(op.errors as readonly string[]).includes(e.error)) {
      opts.onMockBug?.(id, `answered ${e.code} (${e.error}), which ${id} does not declare`);
      return errorAnswer('MOCK_INTERNAL_ERROR', `mock bug: ${id} answered ${e.code}, which it does not declare`);
    }
    return errorAnswer(e);
  }
  return run;
}

/** Runs the operations of a service set against one engine (see createOperationRunner). */
export type OperationRunner = ReturnType<typeof createOperationRunner>;
