/**
 * The Express adapter (docs/architecture.md, "The layers"): one mock instance
 * is one engine plus this app. CORS (preflight with Authorization), the
 * control API, hosted media, the API router, and envelopes for unknown routes
 * and methods, malformed or oversized bodies, requests the HTTP parser
 * refuses: never a 500 page, never a stack trace.
 */
import type { SpeechSynth } from '../media/speech.ts';
import type { IncomingMessage, Server } from 'node:http';
import cors from 'cors';
import express, { type ErrorRequestHandler, type Express, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { parse as parseUrl } from 'node:url';
import { createFront, journalRequest, noRoute, type RequestReader } from '../core/front.ts';
import { Capacity } from './capacity.ts';
import { createWorlds, type World, type Worlds } from '../core/worlds.ts';
import type { OperationOptions } from '../core/operation.ts';
import type { Engine, EngineOptions } from '../engine/engine.ts';
import type { AnyService } from '../services/index.ts';
import { createDocsRouter } from './docs.ts';
import { createUiRouter } from './ui.ts';
import { answerParserErrors } from './parser-errors.ts';
import { sendError, writeWhole } from './respond.ts';
import { applyCors, EXPOSED_HEADERS } from './cors.ts';

export { EXPOSED_HEADERS } from './cors.ts';
import { createOperationDispatcher } from './dispatcher.ts';
import { saveStateFile } from './state-file.ts';
import { ResponseLocals } from './locals.ts';
import { answered, mustWait, wait } from './pipelining.ts';
import type { Proxy } from './proxy/forward.ts';

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
  /** Largest state document PUT /__mock/state reads (default 64 MiB); beyond, 413 before a byte is read. */
  maxStateBytes?: number;
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
  /** The speech engine (mock/http/espeak.ts: eSpeak NG); none: speech stays tones (docs/guides/media.md, "Speech: words or tones"). */
  speech?: SpeechSynth;
  /** Where a speech problem is told (a piece that fell back to tones; the CLI logs it). */
  onSpeechProblem?: (problem: string) => void;
  /** Answers API requests of the default world in place of their handlers (a replayed recording: mock/http/recording/replay.ts). */
  intercept?: OperationOptions['intercept'];
  /** Check the Host of control and sign-in requests against the names above (default true; the CLI turns it off bound beyond loopback unless --allowed-host is given). */
  checkHost?: boolean;
  /**
   * Forward API and media requests to an upstream and check its answers (--upstream; mock/http/proxy/forward.ts,
   * docs/guides/proxy.md): the control API, the documents and the dashboard stay the mock's.
   */
  proxy?: Proxy;
  /**
   * The operations' whole answers are written together at the end of each turn of the event loop, or at once when
   * this many wait (default 16; 1 writes each answer as soon as it is ready): mock/http/respond.ts, AnswerBatch.
   */
  writeBatch?: number;
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

/** A Host header naming this machine: localhost, 127.0.0.1 or [::1], any port. */
const LOCAL_HOST = /^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/i;

/** How the request entry reads a request of Node's server (an Express request too): its headers (the first of a repeated one) and the origin it reached. */
const NODE_READER: RequestReader<IncomingMessage> = {
  header(req, name) {
    const v = req.headers[name];
    return Array.isArray(v) ? v[0] : v;
  },
  selfOrigin: (req) => `${protocolOf(req)}://${req.headers.host}`,
};

/** A request target whose path needs the full parse Express's `req.path` gives it (parseurl): not origin-form, or with a character that parse treats apart. */
const UNUSUAL_TARGET = /^[^/]|[\t\n\f\r #\u00a0\ufeff]/;

/**
 * The path of a request target, percent-encoded, without the query: what Express's `req.path` gives (parseurl's
 * pathname), without building a URL object for the usual origin-form target.
 */
export function pathOfTarget(target: string): string {
  if (UNUSUAL_TARGET.test(target)) return parseUrl(target).pathname ?? '/';
  const q = target.indexOf('?');
  return q < 0 ? target : target.slice(0, q);
}

/** `https` on a TLS socket, else `http`; an Express request (mounted in another app) answers with its own rule (`trust proxy`). */
function protocolOf(req: IncomingMessage): string {
  return (req as { protocol?: string }).protocol ?? ((req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http');
}

/** Creates a mock instance: its worlds (the default one and the isolated sessions) and the Express app. */
export function createMockServer(opts: MockOptions = {}): Mock {
  const heartbeatMs = opts.heartbeatMs ?? 15_000;
  const proxy = opts.proxy;
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
  const capacity = new Capacity(opts.maxInflightBodyBytes, opts.maxStreams, opts.maxStateBytes);
  const worlds = createWorlds({
    engine: opts,
    services: opts.services,
    mediaCacheBytes: opts.mediaCacheBytes,
    maxSessions: opts.maxSessions,
    onMockBug: opts.onMockBug,
    speech: opts.speech,
    onSpeechProblem: opts.onSpeechProblem,
    control: { origins: opts.controlOrigins, token: opts.controlToken },
    runner: ({ name, engine }) => ({
      strict: opts.strict ?? false,
      latency: latency === undefined ? undefined : (seq) => (typeof latency === 'number' ? latency : engine.rng.int(latency[0], latency[1], 'latency', seq)),
      // the --state file is the default world's
      host: {
        ...(name === null && opts.stateFile ? { saveState: (e: Engine) => saveStateFile(opts.stateFile!, e) } : {}),
        ...(opts.proxy ? { proxy: opts.proxy } : {}),
      },
      // a replayed recording is the default world's
      ...(name === null && opts.intercept ? { intercept: opts.intercept } : {}),
    }),
  });
  const enter = createFront(worlds, { hostAllowed, cors: true });
  const main = worlds.main;
  const engine = main.engine;
  const worldOf = (res: Response): World => (res.locals as ResponseLocals).world ?? main;

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
  /**
   * A response closed (one listener for all of it): its count in flight ends, the body bytes the dispatcher reserved
   * for it are given back, and an API request whose response was finished (not cut off) is journaled with its final
   * status.
   */
  function closed(this: Response) {
    // a request whose answer was never marked decided (a document, the dashboard, the proxy) gives its turn up here
    answered(this);
    uncount.call(this);
    const l = this.locals as ResponseLocals;
    const reserved = l.bodyReserved;
    if (reserved > 0) {
      l.bodyReserved = 0;
      capacity.releaseBody(reserved);
    }
    // not when the journal was cleared (a reset, a state loaded) after the answer was made: it lists what came after
    if (l.journaled && this.writableFinished && worldOf(this).engine.journal.generation === l.journalGeneration) {
      l.journaled = false;
      journalRequest(
        worldOf(this),
        l.journalAt,
        this.req.method,
        l.path,
        this.statusCode,
        l.envelopeCode,
        l.operationId,
        l.keyId,
        l.journalBody,
        l.answer,
        l.proxy,
      );
    }
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
  const ui = createUiRouter({ tokenRequired: !!opts.controlToken, upstream: !!proxy });
  const dispatch = createOperationDispatcher({ publicUrl: opts.publicUrl, heartbeatMs, strict: opts.strict, capacity, writeBatch: opts.writeBatch });
  /**
   * Everything up to the operations, in one middleware (each layer of Express's router is paid on every request, so
   * this is one, not nine): counts the request in flight until it closes or turns into an event stream (a graceful
   * shutdown waits for it); takes a pipelined request in its turn (mock/http/pipelining.ts); asks the request entry
   * (mock/core/front.ts: the session, the Host check, the control guard, CORS, who opens a session, the journal, the
   * route) and follows its decision: an answer at once, a preflight (the cors package), an operation (the
   * dispatcher), hosted media, the dashboard; anything else goes on to the layers below (the documents, the 404
   * envelope).
   */
  const front: RequestHandler = (req, res, next) => {
    inFlight++;
    (res.locals as ResponseLocals).counted = true;
    res.on('close', closed);
    // a pipelined request behind one of its connection still running waits for its turn (mock/http/pipelining.ts)
    if (mustWait(req, res)) return inTurnLater(req, res, next);
    handle(req, res, next);
  };
  /** A pipelined request taken in its turn (a function of its own: its closures are made for such requests only). */
  function inTurnLater(req: Request, res: Response, next: NextFunction): void {
    wait(req, res, () => handle(req, res, next));
  }
  /** The request entry's decision, followed (see `front`). */
  const handle: RequestHandler = (req, res, next) => {
    const d = res.locals as ResponseLocals;
    const path = pathOfTarget(req.url);
    const early = enter(req, NODE_READER, req.method, path, d);
    // the session prefix is taken off before any layer reads the path
    if (d.path !== path) req.url = req.url.slice(path.length - d.path.length);
    if (d.journaled) {
      d.journalAt = d.world!.engine.clock.now();
      d.journalGeneration = d.world!.engine.journal.generation;
    }
    if (early) return writeWhole(res, early);
    if (d.route) {
      // an event stream stays open until its source is done: it does not hold a shutdown up
      if (d.route.op.response.kind === 'event-stream') res.on('streaming', uncount);
      // with --upstream an API operation is the upstream's (the mock's own answer is the fallback); the upstream
      // orders its own requests, and the answer may wait for a stream ahead of it: the turn is given up at once
      if (proxy && !d.route.op.control) {
        answered(res);
        return proxy.operation(req, res, (r) => dispatch(r, res, next));
      }
      return dispatch(req, res, next);
    }
    // a preflight, media, the dashboard, the documents: they change nothing, and their answer may wait for a stream
    // ahead of it on the connection (whose task may wait for a request behind): the turn is given up at once
    answered(res);
    switch (d.kind) {
      case 'preflight':
        return preflight(req, res, next);
      case 'media':
        if (proxy) return proxy.media(req, res, path, (r) => void serveMedia(r, res, next));
        return serveMedia(req, res, next);
      case 'dashboard':
        return serveUi(req, res, next);
      default:
        return below(req, res, next);
    }
  };
  /** Hosted media of the request's world; a path no declaration resolves goes on to the layers below. */
  const serveMedia: RequestHandler = (req, res, next) => {
    const d = res.locals as ResponseLocals;
    void d.world!.media(req.method, d.path, req.url, req.headers).then((a) => (a ? writeWhole(res, a) : below(req, res, next)), next);
  };
  /** The dashboard's pages; what they do not serve goes on to the layers below (a function of its own: `front` makes no closure, so it allocates no context per request). */
  const serveUi: RequestHandler = (req, res, next) => {
    expressify(req, res);
    applyCors(res);
    ui(req, res, (err?: unknown) => (err ? next(err) : below(req, res, next)));
  };
  /** The layers below the operations (the documents and the docs site, the 404 envelope), with the CORS headers the response owes set first (they write their own way). */
  const below: RequestHandler = (req, res, next) => {
    expressify(req, res);
    applyCors(res);
    belowRouter(req, res, next);
  };
  /**
   * Makes `req` and `res` this app's Express request and response (its prototypes, each other), as Express's own
   * entry does for every request: only for what uses Express's methods (the documents, the dashboard, a logger), not
   * for the operations and media, which read and write Node's request and response (docs/architecture.md, "Keeping
   * the request path fast").
   */
  function expressify(req: Request, res: Response): void {
    if (Object.getPrototypeOf(req) === app.request) return;
    req.res = res;
    res.req = req;
    Object.setPrototypeOf(req, app.request);
    Object.setPrototypeOf(res, app.response);
  }
  const belowRouter = express.Router();
  belowRouter.use(createDocsRouter({ publicUrl: opts.publicUrl }));
  belowRouter.use((req, res) => writeWhole(res, noRoute(req.method, req.path)));
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
    if (err instanceof URIError)
      return sendError(res, 'ROUTE_NOT_FOUND', `no operation at ${req.method} ${pathOfTarget(req.url)}: the path is not valid percent-encoding`);
    // Any other client error while reading the body (a corrupt gzip or deflate body, for one).
    const status = (err as { status?: unknown })?.status;
    if (typeof status === 'number' && status >= 400 && status < 500)
      return sendError(res, 'MALFORMED_JSON', `request body could not be read (${(err as Error).message})`);
    worldOf(res).engine.reportBug('(transport)', (err as Error)?.message ?? String(err));
    sendError(res, 'MOCK_INTERNAL_ERROR', 'mock bug: unexpected error while reading the request');
  };
  belowRouter.use(onError);
  /** What answers every request after the logger: the front middleware (and the operations it calls), then the layers below. */
  const entry = (req: Request, res: Response, done: NextFunction | undefined) =>
    front(req, res, (err?: unknown) => (err ? onError(err, req, res, done ?? unanswered(res)) : below(req, res, done ?? unanswered(res))));
  /** The end of the stack of a mock not mounted in another app: every request is answered before (the 404 and error envelopes), so this is only reached by a mock bug. */
  const unanswered =
    (res: Response): NextFunction =>
    (err?: unknown) => {
      if (err) worldOf(res).engine.reportBug('(transport)', err instanceof Error ? err.message : `a thrown ${typeof err}`);
      if (!res.headersSent) sendError(res, 'MOCK_INTERNAL_ERROR', 'mock bug: a request went unanswered');
    };
  const logger = opts.logger;
  /**
   * The app's request entry, in place of Express's `app.handle`: `res.locals`, then the logger, `front` and the
   * layers below, called directly. Express's router would add a layer walk, a path match and its closures to every
   * request, for a stack whose first layer answers or hands on to `below` anyway, and the operations and media need
   * none of Express's request and response methods: they get Node's request and response as the server made them
   * (`expressify` gives them this app's prototypes only on the way to the documents, the dashboard or a logger).
   * Changing the prototypes of two objects per request cost more CPU than the operation behind them
   * (docs/architecture.md, "Keeping the request path fast"; decision 0018). Mounted in another app
   * (`parent.use(mock.app)`), Express calls this too, with the parent's request, response and next.
   */
  (app as unknown as { handle: (req: Request, res: Response, callback?: NextFunction) => void }).handle = (req, res, callback) => {
    if (!res.locals) res.locals = new ResponseLocals();
    if (!logger) return entry(req, res, callback);
    expressify(req, res);
    logger(req, res, (err?: unknown) => (err ? onError(err, req, res, callback ?? unanswered(res)) : entry(req, res, callback)));
  };
  // app.listen's server answers what Node's parser refuses with the envelope too (servers made elsewhere: answerParserErrors).
  const listen = app.listen.bind(app) as (...args: unknown[]) => Server;
  app.listen = ((...args: unknown[]) => answerParserErrors(listen(...args))) as Express['listen'];
  return { app, engine, worlds, inFlight: () => inFlight };
}
