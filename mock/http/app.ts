/**
 * The Express adapter (docs/architecture.md, "The layers"): one mock instance
 * is one engine plus this app. CORS (preflight with Authorization), the
 * control API, hosted media, the API router, and envelopes for unknown routes
 * and methods, malformed or oversized bodies, requests the HTTP parser
 * refuses: never a 500 page, never a stack trace.
 */
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import cors from 'cors';
import express, { type ErrorRequestHandler, type Express, type RequestHandler, type Response, type Router } from 'express';
import { DEFAULT_LIMITS, Engine, type EngineLimits, type EngineOptions } from '../engine/engine.ts';
import { createMediaCache } from '../core/media.ts';
import { Capacity } from './capacity.ts';
import { createControlRouter } from './control.ts';
import { createMediaRouter } from './media.ts';
import { createOAuthPages } from './oauth-page.ts';
import { createDocsRouter } from './docs.ts';
import { mediaRoutes, prepareEngine } from '../services/index.ts';
import { answerParserErrors } from './parser-errors.ts';
import { sendError } from './respond.ts';
import { createOperationRunner } from '../core/operation.ts';
import { createSharedApiRouter, routeTable, type ApiWorld } from './router.ts';
import { MAX_SESSIONS, SESSION_NAME } from '../../schemas/control.ts';

export interface MockOptions extends EngineOptions {
  /** Validate every response against its declared schema (on in tests and with --strict). */
  strict?: boolean;
  /** Simulated latency: fixed ms or [min, max], drawn from the seeded rng per request. */
  latency?: number | [number, number];
  /** Called for every API request when it finishes (the CLI logs with it). */
  logger?: RequestHandler;
  /** Called when the mock finds a bug in itself (strict response mismatch, unexpected throw). */
  onMockBug?: (operationId: string, problem: string) => void;
  /** Base of every media URL (e.g. https://mock.example.com); default: built from each request's Host or X-Forwarded-* headers. */
  publicUrl?: string;
  /** Most bytes of rendered media kept in memory, by the default world and every session together (default 256 MiB). */
  mediaCacheBytes?: number;
  /** Most sessions kept at once besides the default world (default 256); beyond, the least recently used is dropped. */
  maxSessions?: number;
  /** Most bytes of API request bodies received at once, all worlds together (default 256 MiB); beyond, 503 with Retry-After. */
  maxInflightBodyBytes?: number;
  /** Most event streams open at once, all worlds together (default 1,000); beyond, 503 with Retry-After. */
  maxStreams?: number;
  /** Real ms between event-stream heartbeat comments (default 15 000). */
  heartbeatMs?: number;
  /** The --state file (POST /__mock/state/save writes it). */
  stateFile?: string;
  /** Web origins besides the local ones (localhost, 127.0.0.1, [::1]) allowed to call the control API from a browser. */
  controlOrigins?: readonly string[];
  /** When set, every control request but GET /__mock/health must carry `Authorization: Bearer <controlToken>`. */
  controlToken?: string;
  /**
   * Host names (any port; `name:port` for that port only) the control API and the sign-in page answer besides
   * this machine's names (localhost, 127.0.0.1, [::1]) and the --public-url host (--allowed-host).
   */
  allowedHosts?: readonly string[];
  /** Check the Host of control and sign-in requests against the names above (default true; the CLI turns it off bound beyond loopback unless --allowed-host is given). */
  checkHost?: boolean;
}

export interface Mock {
  app: Express;
  /** The engine of the default world (requests without X-Mock-Session). */
  engine: Engine;
  /** Requests being answered right now, event streams left out (a graceful shutdown waits for them). */
  inFlight(): number;
}

/** Paths that are not API requests: the control API, hosted media, the sign-in page, the documentation site and documents. */
const NOT_JOURNALED = /^\/(__mock\/|media\/|oauth\/|docs(\/|$)|openapi\.(json|yaml)$|mock-control\.openapi\.(json|yaml)$)/i;

/** Response headers a browser page may read (CORS exposes them). */
export const EXPOSED_HEADERS = ['Retry-After', 'Content-Range', 'Content-Length', 'Accept-Ranges', 'ETag', 'Allow', 'Content-Disposition'];

const decodeURIComponentSafe = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** A web origin of this machine: http(s)://localhost, 127.0.0.1 or [::1], any port. */
const LOCAL_ORIGIN = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/i;

/** A Host header naming this machine: localhost, 127.0.0.1 or [::1], any port. */
const LOCAL_HOST = /^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/i;

/** Paths a DNS-rebound page must not read or post to: the control API and the sign-in page. */
const HOST_CHECKED = /^\/(__mock|oauth)\//i;

/** The `/sessions/<name>` prefix of a path that selects a session without the header. */
const SESSION_PREFIX = /^\/sessions\/([^/]+)(?=\/)/i;

/** One isolated world: an engine and the routers bound to it. */
interface World {
  engine: Engine;
  control: Router;
  media: Router;
  api: ApiWorld;
  /** The OAuth authorization page. */
  pages: Router;
}

/** The least a session keeps of each bound, however many sessions share the budget (assumed: what a CI worker's test file needs). */
export const SESSION_FLOOR = { tasks: 100, accounts: 20, journal: 100, activity: 200, ledgerEntries: 200 } as const;

/**
 * The limits of one session's world: the sessions share one world's budget
 * (`limits`: tasks per area, accounts, journal, activity), each taking an
 * equal part of it (`maxSessions` parts), but never less than SESSION_FLOOR
 * (nor more than the budget); tasks per key at most the session's tasks;
 * ledger entries per account likewise (a session's ledgers fold sooner). A session's bounds never depend on what other sessions do, so each
 * stays deterministic on its own.
 */
export function sessionLimits(limits: Partial<EngineLimits> | undefined, maxSessions: number): EngineLimits {
  const l = { ...DEFAULT_LIMITS, ...limits };
  const share = (n: number, floor: number) => Math.max(Math.min(n, floor), Math.floor(n / maxSessions));
  const tasks = share(l.tasks, SESSION_FLOOR.tasks);
  return {
    ...l,
    tasks,
    tasksPerKey: Math.min(l.tasksPerKey, tasks),
    accounts: share(l.accounts, SESSION_FLOOR.accounts),
    journal: share(l.journal, SESSION_FLOOR.journal),
    activity: share(l.activity, SESSION_FLOOR.activity),
    ledgerEntries: share(l.ledgerEntries, SESSION_FLOOR.ledgerEntries),
  };
}

/** Creates a mock instance: its own engine (the default world), its isolated sessions, and the Express app. */
export function createMockServer(opts: MockOptions = {}): Mock {
  const heartbeatMs = opts.heartbeatMs ?? 15_000;
  // keys the sign-in page's form tokens: random per process, so no seed predicts them
  const formSecret = randomBytes(32);
  const allowedHosts = [...(opts.publicUrl ? [new URL(opts.publicUrl).host] : []), ...(opts.allowedHosts ?? [])].map((h) => h.toLowerCase());
  /** True when `host` (a Host header) names this mock: this machine, the --public-url host, an --allowed-host; always without the check. */
  const hostAllowed = (host: string | undefined): boolean => {
    if (opts.checkHost === false || host === undefined || LOCAL_HOST.test(host)) return true;
    const h = host.toLowerCase();
    const name = h.replace(/:\d+$/, '');
    return allowedHosts.some((a) => a === h || a === name);
  };
  const latency = opts.latency;
  const maxSessions = opts.maxSessions ?? MAX_SESSIONS;
  const perSession = sessionLimits(opts.limits, maxSessions);
  // one media cache for the process: the default world and every session share its bytes
  const mediaCache = createMediaCache(opts.mediaCacheBytes);
  // one budget of bodies in flight and open event streams for the process
  const capacity = new Capacity(opts.maxInflightBodyBytes, opts.maxStreams);
  const sessions = new Map<string, World>();
  let worlds = 0;
  const sessionRegistry = {
    list: () =>
      [...sessions].map(([name, w]) => ({ name, seed: w.engine.seed, now: w.engine.tick(), requests: w.engine.journal.total, baseUrl: `/sessions/${name}` })),
    drop: (name: string) => sessions.delete(name),
  };

  /** A world: an engine prepared by every area, and its control, media and API routers. `prefix` is the path prefix of its media URLs. */
  function createWorld(prefix: string): World {
    const engine = new Engine(prefix ? { ...opts, limits: perSession } : opts);
    // Every fault the mock finds in itself goes to one log (GET /__mock/bugs) and to the caller's onMockBug.
    engine.onBug = opts.onMockBug;
    const bug = (where: string, problem: string) => engine.reportBug(where, problem);
    prepareEngine(engine);
    return {
      engine,
      control: createControlRouter(engine, {
        heartbeatMs,
        onMockBug: bug,
        stateFile: prefix ? undefined : opts.stateFile,
        sessions: sessionRegistry,
        capacity,
      }),
      // keys of the shared cache name the world (a session dropped and opened again is a new world)
      media: createMediaRouter(engine, mediaRoutes, { cache: mediaCache, keyPrefix: `${prefix}\u0000${++worlds}\u0000`, onMockBug: bug }),
      pages: createOAuthPages(engine, { formSecret, world: prefix }),
      api: {
        engine,
        pathPrefix: prefix,
        onMockBug: bug,
        run: createOperationRunner(engine, {
          strict: opts.strict ?? false,
          onMockBug: bug,
          latency:
            latency === undefined ? undefined : (seq) => (typeof latency === 'number' ? latency : engine.rng.int(latency[0], latency[1], 'latency', seq)),
        }),
      },
    };
  }
  /** One API router for every world: a session costs its engine and runner, not a router of every operation. */
  const apiRouter = createSharedApiRouter((res) => worldOf(res).api, {
    strict: opts.strict ?? false,
    publicUrl: opts.publicUrl,
    heartbeatMs,
    capacity,
  });

  const main = createWorld('');
  const engine = main.engine;
  /** The world of session `name` if it exists (then it becomes the most recently used), else undefined. */
  function existingSession(name: string): World | undefined {
    const w = sessions.get(name);
    if (w) {
      sessions.delete(name);
      sessions.set(name, w);
    }
    return w;
  }
  /** Opens session `name` (a request that passed the guard asks for it), the least recently used dropped beyond `maxSessions`. */
  function openSession(name: string): World {
    const w = existingSession(name) ?? createWorld(`/sessions/${name}`);
    if (!sessions.has(name)) {
      if (sessions.size >= maxSessions) sessions.delete(sessions.keys().next().value!);
      sessions.set(name, w);
    }
    return w;
  }
  const worldOf = (res: Response): World => (res.locals.world as World | undefined) ?? main;

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  if (opts.logger) app.use(opts.logger);
  let inFlight = 0;
  app.use((_req, res, next) => {
    inFlight++;
    let done = false;
    const end = () => {
      if (!done) inFlight--;
      done = true;
    };
    res.on('close', end);
    // an event stream stays open until its source is done: it does not hold a shutdown up
    res.on('streaming', end);
    next();
  });
  // Sessions: X-Mock-Session or the /sessions/<name> prefix (stripped here, before any other path test) selects an isolated world.
  // An existing one is picked here; an unknown one is only named: it is opened once the request has passed the guard
  // (below), so that no image, media load or refused control request of any page creates or evicts a session.
  app.use((req, res, next) => {
    const prefixed = SESSION_PREFIX.exec(req.path);
    const header = req.headers['x-mock-session'];
    const name = prefixed ? decodeURIComponentSafe(prefixed[1]) : Array.isArray(header) ? header[0] : header;
    if (name === undefined || name === '') return next();
    if (!SESSION_NAME.test(name)) {
      res.locals.sessionProblem = `X-Mock-Session (or /sessions/<name>): "${name.slice(0, 80)}" is not a session name; use 1-64 letters, digits, ".", "_" or "-"`;
      return next();
    }
    if (prefixed) req.url = req.url.slice(prefixed[0].length);
    const w = existingSession(name);
    if (w) res.locals.world = w;
    else res.locals.unknownSession = name;
    next();
  });
  // DNS rebinding: a page of another site whose name now points at this machine sends its own name as Host, and
  // a same-origin GET carries no Origin. The control API and the sign-in page answer only the names of this mock.
  app.use((req, res, next) => {
    if (!HOST_CHECKED.test(req.path) || hostAllowed(req.headers.host)) return next();
    sendError(
      res,
      'HOST_FORBIDDEN',
      `the control API and the sign-in page do not answer the host ${String(req.headers.host).slice(0, 100)} (allowed: localhost, 127.0.0.1, [::1], the --public-url host and --allowed-host)`,
    );
  });
  // The control API is the mock's own: a web page may call it only from this machine (or an origin listed
  // with --control-origin), and with --control-token only with the token. A browser request from another
  // origin is refused, not just left without CORS headers (a cross-site POST would still reset the mock).
  // The page's origin is the Origin header; a request without one (an <img>, a link, a form GET) is judged
  // by the origin of its Referer, and without either by Sec-Fetch-Site (a cross-site request is refused).
  const controlOrigin = (origin: string) => LOCAL_ORIGIN.test(origin) || (opts.controlOrigins ?? []).includes(origin);
  /** The web origin a browser request comes from, undefined for a tool's request ('cross-site' when a browser hides it). */
  const pageOrigin = (req: express.Request): string | undefined => {
    if (req.headers.origin !== undefined) return req.headers.origin;
    const referer = req.headers.referer;
    if (referer) {
      try {
        return new URL(referer).origin;
      } catch {
        return 'an unreadable Referer';
      }
    }
    return req.headers['sec-fetch-site'] === 'cross-site' ? 'another site (Sec-Fetch-Site: cross-site)' : undefined;
  };
  app.use((req, res, next) => {
    if (!/^\/__mock\//i.test(req.path)) return next();
    const origin = pageOrigin(req);
    if (origin !== undefined && !controlOrigin(origin) && origin !== `${req.protocol}://${req.headers.host}`)
      return sendError(
        res,
        'CONTROL_FORBIDDEN',
        `the control API does not answer web pages of ${origin} (allowed: this machine's origins and --control-origin)`,
      );
    if (opts.controlToken && req.method !== 'OPTIONS' && !/^\/__mock\/health$/i.test(req.path) && req.headers.authorization !== `Bearer ${opts.controlToken}`)
      return sendError(res, 'CONTROL_FORBIDDEN', 'the control API needs Authorization: Bearer <control token> (printed at start, or set with --control-token)');
    next();
  });
  // CORS for browsers (docs/architecture.md, "The request path"): any origin, reflected (never *, so
  // credentials work), any request header the page asks for (a preflight's Access-Control-Request-Headers
  // is reflected: traceparent, sentry-trace, Idempotency-Key...), and the response headers a client reads.
  app.use(
    cors({
      origin: true,
      credentials: true,
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
      exposedHeaders: EXPOSED_HEADERS,
      maxAge: 600,
    }),
  );
  // a session name that is not one is answered once CORS headers are on (so a page can read the error)
  app.use((_req, res, next) => {
    const problem = res.locals.sessionProblem as string | undefined;
    if (problem) return sendError(res, 'MALFORMED_REQUEST', problem);
    next();
  });
  // An unknown session is opened only by a request that passed the guard: a control request (it got past the
  // origin and token checks above) or an API request with a Bearer of the API-key form. Anything else (media,
  // the sign-in page, the documents, an API request without a key) creates nothing and answers 404.
  app.use((req, res, next) => {
    const name = res.locals.unknownSession as string | undefined;
    if (name === undefined) return next();
    const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (/^\/__mock\//i.test(req.path) || (!NOT_JOURNALED.test(req.path) && bearer !== undefined && engine.keyPattern.test(bearer))) {
      res.locals.world = openSession(name);
      return next();
    }
    sendError(
      res,
      'SESSION_NOT_FOUND',
      `no session ${name}: a session is opened by an API request with an API key or by a control request (POST /sessions/${name}/__mock/reset), not by media or unauthenticated requests`,
    );
  });
  // Journal every API request with its final status.
  app.use((req, res, next) => {
    if (NOT_JOURNALED.test(req.path)) return next();
    const e = worldOf(res).engine;
    const at = e.clock.now();
    res.on('finish', () => {
      const l = res.locals as { operationId?: string; keyId?: string | null; envelopeCode?: number | null };
      e.journal.record({
        at,
        method: req.method,
        path: req.path,
        operationId: l.operationId ?? null,
        keyId: l.keyId ?? null,
        status: res.statusCode,
        code: l.envelopeCode ?? null,
        ...(res.locals.journalBody as object | undefined),
      });
    });
    next();
  });
  // The control and media routers only see their own paths (every control path is under /__mock/, every
  // media path under /media/; case-insensitive like Express's matching), so an API request does not walk
  // their routes: about 8% more API requests per second.
  app.use((req, res, next) => (/^\/__mock\//i.test(req.path) ? worldOf(res).control(req, res, next) : next()));
  app.use((req, res, next) => (/^\/media\//i.test(req.path) ? worldOf(res).media(req, res, next) : next()));
  app.use((req, res, next) => (/^\/oauth\//i.test(req.path) ? worldOf(res).pages(req, res, next) : next()));
  app.use(createDocsRouter({ publicUrl: opts.publicUrl }));
  app.use(apiRouter);
  const routes = routeTable();
  app.use((req, res) => {
    const hit = routes.find((r) => r.re.test(req.path));
    if (hit)
      return sendError(res, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${req.path}; allowed: ${hit.methods.join(', ')}`, {
        Allow: hit.methods.join(', '),
      });
    sendError(res, 'ROUTE_NOT_FOUND', `no operation at ${req.method} ${req.path}`);
  });
  const onError: ErrorRequestHandler = (err, req, res, _next) => {
    if (res.headersSent) return;
    const type = (err as { type?: string })?.type;
    if (type === 'entity.too.large')
      return sendError(res, 'PAYLOAD_TOO_LARGE', `request body is larger than the ${(err as { limit?: number }).limit} bytes this operation accepts`);
    if (
      type === 'entity.parse.failed' ||
      type === 'encoding.unsupported' ||
      type === 'charset.unsupported' ||
      type === 'request.aborted' ||
      type === 'request.size.invalid'
    )
      return sendError(res, 'MALFORMED_JSON', `request body could not be read (${type})`);
    // Express 5 cannot decode a path parameter such as `%E0%A4%A` (a URIError with status 400).
    if (err instanceof URIError) return sendError(res, 'ROUTE_NOT_FOUND', `no operation at ${req.method} ${req.path}: the path is not valid percent-encoding`);
    // Any other client error while reading the body (a corrupt gzip or deflate body, for one).
    const status = (err as { status?: unknown })?.status;
    if (typeof status === 'number' && status >= 400 && status < 500)
      return sendError(res, 'MALFORMED_JSON', `request body could not be read (${(err as Error).message})`);
    worldOf(res).engine.reportBug('(transport)', (err as Error)?.message ?? String(err));
    sendError(res, 'MOCK_INTERNAL_ERROR', 'mock bug: unexpected error while reading the request');
  };
  app.use(onError);
  // app.listen's server answers what Node's parser refuses with the envelope too (servers made elsewhere: answerParserErrors).
  const listen = app.listen.bind(app) as (...args: unknown[]) => Server;
  app.listen = ((...args: unknown[]) => answerParserErrors(listen(...args))) as Express['listen'];
  return { app, engine, inFlight: () => inFlight };
}
