/**
 * The Express adapter (docs/architecture.md, "The layers"): one mock instance
 * is one engine plus this app. CORS (preflight with Authorization), the
 * control API, hosted media, the API router, and envelopes for unknown routes
 * and methods, malformed or oversized bodies, requests the HTTP parser
 * refuses: never a 500 page, never a stack trace.
 */
import type { Server } from 'node:http';
import cors from 'cors';
import express, { type ErrorRequestHandler, type Express, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { controlGuardError, pageOriginOf, type ControlGuardOptions } from '../core/guard.ts';
import { Capacity } from './capacity.ts';
import { createWorlds, sessionOf, type World, type Worlds } from '../core/worlds.ts';
import type { Engine, EngineOptions } from '../engine/engine.ts';
import type { AnyService } from '../services/index.ts';
import { createDocsRouter } from './docs.ts';
import { createUiRouter } from './ui.ts';
import { answerParserErrors } from './parser-errors.ts';
import { sendError, writeWhole } from './respond.ts';
import { applyCors, EXPOSED_HEADERS, owesCors } from './cors.ts';

export { EXPOSED_HEADERS } from './cors.ts';
import { createOperationDispatcher } from './router.ts';
import { writeStateFile } from './state-file.ts';
import { ResponseLocals } from './locals.ts';

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
  /** The services (default: every area and the control API; a test may compose its own). */
  services?: readonly AnyService[];
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
  /** The default world and the sessions (the fetch handler of the in-process mock shares them). */
  worlds: Worlds;
  /** Requests being answered right now, event streams left out (a graceful shutdown waits for them). */
  inFlight(): number;
}

/** Paths that are not API requests: the control API, hosted media, the documentation site and documents (and the web pages: routes.isPage). */
const NOT_JOURNALED = /^\/(__mock\/|media\/|docs(\/|$)|openapi\.(json|yaml)$|mock-control\.openapi\.(json|yaml)$)/i;

/** A Host header naming this machine: localhost, 127.0.0.1 or [::1], any port. */
const LOCAL_HOST = /^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/i;

/** The dashboard's shell and assets (mock/http/ui.ts): under the control API's origin rules, but served without its token (they hold no data). */
const UI_PATH = /^\/__mock\/ui(\/(app\.js|style\.css)?)?$/i;

/** The control API's paths: a DNS-rebound page must not read or post to them (nor to the web pages: routes.isPage). */
const CONTROL_PATH = /^\/__mock\//i;

/** A path that may name a session (the prefix is tested in full by sessionOf). */
const SESSION_PREFIX = /^\/sessions\//i;

/** What sessionOf answers for a request that names no session. */
const NO_SESSION: ReturnType<typeof sessionOf> = { path: '' };

/** Creates a mock instance: its worlds (the default one and the isolated sessions) and the Express app. */
export function createMockServer(opts: MockOptions = {}): Mock {
  const heartbeatMs = opts.heartbeatMs ?? 15_000;
  const latency = opts.latency;
  const allowedHosts = [...(opts.publicUrl ? [new URL(opts.publicUrl).host] : []), ...(opts.allowedHosts ?? [])].map((h) => h.toLowerCase());
  /** True when `host` (a Host header) names this mock: this machine, the --public-url host, an --allowed-host; always without the check. */
  const hostAllowed = (host: string | undefined): boolean => {
    if (opts.checkHost === false || host === undefined || LOCAL_HOST.test(host)) return true;
    const h = host.toLowerCase();
    const name = h.replace(/:\d+$/, '');
    return allowedHosts.some((a) => a === h || a === name);
  };
  // one budget of bodies in flight and open event streams for the process
  const capacity = new Capacity(opts.maxInflightBodyBytes, opts.maxStreams);
  const control: ControlGuardOptions = { origins: opts.controlOrigins, token: opts.controlToken };
  const worlds = createWorlds({
    engine: opts,
    services: opts.services,
    mediaCacheBytes: opts.mediaCacheBytes,
    maxSessions: opts.maxSessions,
    onMockBug: opts.onMockBug,
    runner: ({ name, engine }) => ({
      strict: opts.strict ?? false,
      control,
      latency: latency === undefined ? undefined : (seq) => (typeof latency === 'number' ? latency : engine.rng.int(latency[0], latency[1], 'latency', seq)),
      // the --state file is the default world's
      host: name === null && opts.stateFile ? { saveState: (e: Engine) => ({ file: opts.stateFile!, bytes: writeStateFile(opts.stateFile!, e) }) } : {},
    }),
  });
  const main = worlds.main;
  const engine = main.engine;
  const worldOf = (res: Response): World => (res.locals.world as World | undefined) ?? main;

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  let inFlight = 0;
  /** Ends a request's count in flight (its response closed, or turned into an event stream): once. */
  function uncount(this: Response) {
    if (!this.locals.counted) return;
    this.locals.counted = false;
    inFlight--;
  }
  /** A response closed: its count in flight ends, and the body bytes the dispatcher reserved for it are given back (one listener for both). */
  function closed(this: Response) {
    uncount.call(this);
    const reserved = this.locals.bodyReserved as number;
    if (reserved > 0) {
      this.locals.bodyReserved = 0;
      capacity.releaseBody(reserved);
    }
  }
  /** Records an API request in its world's journal when its response is finished (the status is final then). */
  function journalOnFinish(this: Response) {
    const l = this.locals as { operationId?: string; keyId?: string | null; envelopeCode?: number | null; journalBody?: object; journalAt: number };
    worldOf(this).engine.journal.record({
      at: l.journalAt,
      method: this.req.method,
      path: this.req.path,
      operationId: l.operationId ?? null,
      keyId: l.keyId ?? null,
      status: this.statusCode,
      code: l.envelopeCode ?? null,
      ...l.journalBody,
    });
  }
  // CORS for browsers (docs/architecture.md, "The request path"): any origin, reflected (never *, so
  // credentials work), any request header the page asks for (a preflight's Access-Control-Request-Headers
  // is reflected: traceparent, sentry-trace, Idempotency-Key...), and the response headers a client reads.
  // The cors package answers preflights; an actual request owes the same headers, written with its head (mock/http/cors.ts).
  const preflight = cors({
    origin: true,
    credentials: true,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: 600,
  });
  const ui = createUiRouter({ tokenRequired: !!opts.controlToken });
  const dispatch = createOperationDispatcher(worlds, { publicUrl: opts.publicUrl, heartbeatMs, strict: opts.strict, worldOf, capacity });
  /**
   * Everything up to the operations, in one middleware and in this order (each layer of Express's router is paid
   * on every request, so this is one, not nine):
   * 1. counts the request in flight until it closes or turns into an event stream (a graceful shutdown waits for it);
   * 2. sessions: X-Mock-Session or the /sessions/<name> prefix (stripped here, before any other path test) names a
   *    world; an existing session is picked, an unknown one only named (opened in 7);
   * 3. DNS rebinding: a page of another site whose name now points at this machine sends its own name as Host, and
   *    a same-origin GET carries no Origin: the control API and the sign-in page answer only the names of this mock;
   * 4. the control API is the mock's own: a web page may call it only from this machine (or an origin listed with
   *    --control-origin), and with --control-token only with the token. A browser request from another origin is
   *    refused, not just left without CORS headers (a cross-site POST would still reset the mock);
   * 5. CORS (a preflight is answered here), except on the web pages (the sign-in page: another site must not read it);
   * 6. a session name that is not one is answered once CORS headers are on (so a page can read the error);
   * 7. an unknown session is opened only by a request that passed the guard: a control request (it got past the
   *    origin and token checks) or an API request with a Bearer of the API-key form. Anything else (media, the
   *    sign-in page, the documents, an API request without a key) creates nothing and answers 404;
   * 8. every API request is journaled with its final status;
   * 9. the dashboard's pages (/__mock/ui), then the operations (the dispatcher), called from here; each goes on to
   *    the layers below (media, the documents, 404) when it has nothing at the path. The sign-in page is an
   *    operation of the OAuth area (the route table says which paths are pages: not journaled, no CORS).
   */
  const front: RequestHandler = (req, res, next) => {
    inFlight++;
    res.locals.counted = true;
    res.on('close', closed);
    // an event stream stays open until its source is done: it does not hold a shutdown up
    res.on('streaming', uncount);

    const header = req.headers['x-mock-session'];
    const named = header === undefined && !SESSION_PREFIX.test(req.url) ? NO_SESSION : sessionOf(req.path, Array.isArray(header) ? header[0] : header);
    let unknownSession: string | undefined;
    if (named.name !== undefined) {
      if (named.path !== req.path) req.url = req.url.slice(req.path.length - named.path.length);
      const w = worlds.existing(named.name);
      if (w) res.locals.world = w;
      else unknownSession = named.name;
    }
    const path = req.path;
    const controlPath = CONTROL_PATH.test(path);
    // a web page operation (the sign-in page): Host-checked, without CORS (another site must not read it, nor the
    // form token it carries), not journaled
    const page = !controlPath && worlds.routes.isPage(path);
    if ((controlPath || page) && !hostAllowed(req.headers.host))
      return sendError(
        res,
        'HOST_FORBIDDEN',
        `the control API and the sign-in page do not answer the host ${String(req.headers.host).slice(0, 100)} (allowed: localhost, 127.0.0.1, [::1], the --public-url host and --allowed-host)`,
      );
    if (controlPath) {
      // a preflight carries no token; health and the dashboard's shell need none
      const open = req.method === 'OPTIONS' || /^\/__mock\/health\/?$/i.test(path) || UI_PATH.test(path);
      // a request without Origin (an <img>, a link) is judged by its Referer, then by Sec-Fetch-Site
      const pageOrigin = pageOriginOf({
        origin: req.headers.origin,
        referer: req.headers.referer,
        'sec-fetch-site': [req.headers['sec-fetch-site'] ?? []].flat()[0],
      });
      const denied = controlGuardError(
        { pageOrigin, authorization: req.headers.authorization, selfOrigin: `${req.protocol}://${req.headers.host}` },
        control,
        open,
      );
      if (denied) return sendError(res, denied);
    }
    if (!page) {
      if (req.method === 'OPTIONS') return preflight(req, res, next);
      owesCors(res);
    }
    if (named.problem) return sendError(res, 'MALFORMED_REQUEST', named.problem);
    // X-Mock-Observer: a read by an observer (the dashboard showing a task's result) is not an API request of the app under test
    const journaled = !page && !NOT_JOURNALED.test(path) && req.headers['x-mock-observer'] === undefined;
    if (unknownSession !== undefined) {
      const bearer = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
      if (!controlPath && !(journaled && bearer !== undefined && engine.keyPattern.test(bearer)))
        return sendError(
          res,
          'SESSION_NOT_FOUND',
          `no session ${unknownSession}: a session is opened by an API request with an API key or by a control request (POST /sessions/${unknownSession}/__mock/reset), not by media or unauthenticated requests`,
        );
      res.locals.world = worlds.session(unknownSession);
    }
    if (journaled) {
      res.locals.journalAt = worldOf(res).engine.clock.now();
      res.on('finish', journalOnFinish);
    }
    if (controlPath && UI_PATH.test(path)) serveUi(req, res, next);
    else dispatch(req, res, next); // it sets the CORS headers before it goes on to the layers below
  };
  /** The dashboard's pages, then the operations at the same path (a function of its own: `front` makes no closure, so it allocates no context per request). */
  const serveUi: RequestHandler = (req, res, next) => {
    applyCors(res);
    ui(req, res, (err?: unknown) => (err ? next(err) : dispatch(req, res, next)));
  };
  // the layers below the operations: hosted media, the documents and the docs site, the 404 envelope, the error envelopes
  const below = express.Router();
  below.use((req, res, next) => {
    if (!/^\/media\//i.test(req.path)) return next();
    worldOf(res)
      .media(req.method, req.path, req.url, req.headers)
      .then((a) => (a ? writeWhole(res, a) : next()), next);
  });
  below.use(createDocsRouter({ publicUrl: opts.publicUrl }));
  below.use((req, res) => sendError(res, 'ROUTE_NOT_FOUND', `no operation at ${req.method} ${req.path}`));
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
  below.use(onError);
  /** What answers every request after the logger: the front middleware (and the operations it calls), then the layers below. */
  const entry = (req: Request, res: Response, done: NextFunction) =>
    front(req, res, (err?: unknown) => (err ? onError(err, req, res, done) : below(req, res, done)));
  const logger = opts.logger;
  /**
   * The app's request entry, in place of Express's `app.handle`: the same set-up (the request and response get this
   * app's prototypes, each other and `res.locals`), then the logger, `front` and the layers below, called directly.
   * Express's router would add a layer walk, a path match and its closures to every request, for a stack whose first
   * layer answers or hands on to `below` anyway (about a tenth of the CPU of an API request: docs/architecture.md,
   * "Keeping the request path fast"; decision 0018). Mounted in another app (`parent.use(mock.app)`), Express calls
   * this too, with the parent's next.
   */
  (app as unknown as { handle: (req: Request, res: Response, callback?: NextFunction) => void }).handle = (req, res, callback) => {
    req.res = res;
    res.req = req;
    Object.setPrototypeOf(req, app.request);
    Object.setPrototypeOf(res, app.response);
    if (!res.locals) res.locals = new ResponseLocals();
    // every request is answered below (the 404 and error envelopes), so this is only reached by a mock bug
    const done: NextFunction =
      callback ??
      ((err?: unknown) => {
        if (err) worldOf(res).engine.reportBug('(transport)', err instanceof Error ? err.message : `a thrown ${typeof err}`);
        if (!res.headersSent) sendError(res, 'MOCK_INTERNAL_ERROR', 'mock bug: a request went unanswered');
      });
    if (!logger) return entry(req, res, done);
    logger(req, res, (err?: unknown) => (err ? onError(err, req, res, done) : entry(req, res, done)));
  };
  // app.listen's server answers what Node's parser refuses with the envelope too (servers made elsewhere: answerParserErrors).
  const listen = app.listen.bind(app) as (...args: unknown[]) => Server;
  app.listen = ((...args: unknown[]) => answerParserErrors(listen(...args))) as Express['listen'];
  return { app, engine, worlds, inFlight: () => inFlight };
}
