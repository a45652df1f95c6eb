/**
 * The request entry, transport-neutral (docs/architecture.md, "The request
 * path"; decisions/0018-transports.md): everything decided about a request
 * before an operation runs, once, for every transport. It takes the method,
 * the path and a way to read the headers, and either answers at once or
 * writes a decision: the world (the default one or a session, opened here
 * when the request may open it), what the request is (an operation, hosted
 * media, a web page, the control API, the dashboard, a preflight, nothing),
 * whether it is journaled and owes CORS headers. The Host check and the
 * control guard (with the registry's one definition of an open control
 * operation, `control: 'open'`) are applied here and nowhere else. The
 * Express app (mock/http/app.ts) and the fetch handler (mock/web/fetch.ts,
 * under MSW and createMock) are adapters around it that read and write
 * bytes.
 *
 * It is on every request's path (docs/architecture.md, "Keeping the request
 * path fast"): it writes into an object the adapter already has (a request's
 * `res.locals`), reads headers through a reader shared by every request, and
 * allocates nothing for a request in the default world beyond the route
 * table's match.
 */
import { JOURNAL_BODY_CHARS } from '../../schemas/control.ts';
import { charCount, cutText, formatCount } from '../../schemas/text.ts';
import { errorAnswer, type Answer } from './answer.ts';
import { controlGuardError, originAllowed, pageOriginOf } from './guard.ts';
import type { RouteMatch, RouteTable } from './routes.ts';
import { sessionOf, type World, type Worlds } from './worlds.ts';
import type { JournalEntry } from '../../schemas/control.ts';

/**
 * What a request is: an operation of the API (or a path of the API's with another method); hosted media
 * (`/media/...`); a web page operation's path (the sign-in page); the control API (`/__mock/...`); the dashboard's
 * shell and assets (`/__mock/ui`, served by the Express app only); a CORS preflight; or nothing the mock routes
 * (the documents and the docs site of the Express app, else the 404 envelope).
 */
export type RequestKind = 'operation' | 'media' | 'page' | 'control' | 'dashboard' | 'preflight' | 'none';

/** A route table's hit on an operation. */
export type OperationHit = Extract<RouteMatch, { kind: 'operation' }>;

/**
 * What the entry decided about a request. The adapter owns the object (one per request, of one shape: the Express
 * app's `res.locals`, a `Decision` in the fetch handler) and reads it after `enter`.
 */
export interface FrontDecision {
  /** The request's world: the default one or its session (set by `enter`, whatever it answers). */
  world: World | undefined;
  /** The path inside its world (a /sessions/<name> prefix taken off), percent-encoded, without the query. */
  path: string;
  kind: RequestKind;
  /** The operation to run (an API, control or page operation); undefined for everything else. */
  route: OperationHit | undefined;
  /** Recorded in its world's journal with its final status (API requests, known or not; never control, media, pages, documents). */
  journaled: boolean;
  /** The response owes the CORS headers of an actual request (a transport with CORS, every kind but pages). */
  owesCors: boolean;
  /** A page operation's: the web origin of the page that sent it (see pageOriginOf) and the mock's own origin. */
  pageOrigin: string | undefined;
  selfOrigin: string | undefined;
}

/** A FrontDecision of one shape, for an adapter without an object of its own. */
export class Decision implements FrontDecision {
  world: World | undefined = undefined;
  path = '';
  kind: RequestKind = 'none';
  route: OperationHit | undefined = undefined;
  journaled = false;
  owesCors = false;
  pageOrigin: string | undefined = undefined;
  selfOrigin: string | undefined = undefined;
}

/**
 * How the entry reads a request of a transport: a header by its lower-case name (the first value of a repeated
 * one), and the origin the request reached (`proto://host`, the guard's "own page"). One object per transport,
 * shared by its requests: the request is passed in, so nothing is made per request.
 */
export interface RequestReader<S> {
  header(source: S, name: string): string | undefined;
  selfOrigin(source: S): string;
}

export interface FrontOptions {
  /**
   * True when the Host header (undefined: none) names this mock; the control API and the web pages answer only
   * such requests (DNS rebinding: 403, 10017). None: no Host check (a fetch handler answers its own page).
   */
  hostAllowed?: (host: string | undefined) => boolean;
  /** The transport writes CORS headers and answers preflights (the Express server); a fetch handler leaves CORS to the browser. */
  cors?: boolean;
}

/** The control API's paths (the dashboard's among them). */
const CONTROL_PATH = /^\/__mock(\/|$)/i;

/** The dashboard's shell and assets: under the control API's origin rules and Host check, but open (they hold no data). */
const DASHBOARD_PATH = /^\/__mock\/ui(\/(app\.js|style\.css)?)?$/i;

/** Hosted media. */
const MEDIA_PATH = /^\/media\/./i;

/** The documentation site and the documents (served by the Express app): not API requests, not journaled. */
const DOCUMENT_PATH = /^\/(docs(\/|$)|openapi\.(json|yaml)$|mock-control\.openapi\.(json|yaml)$)/i;

/** A path that may name a session (sessionOf tests it in full). */
const SESSION_PREFIX = /^\/sessions\//i;

/** An Authorization header's Bearer credential. */
const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * True when the mock answers `path` (relative to its base, a session prefix included or not): an operation's path
 * (whatever the method: a wrong one gets the 405 envelope), hosted media, or the control API. The MSW handlers
 * claim these and let every other request through (mock/web/paths.ts).
 */
export function routesPath(path: string, routes: RouteTable): boolean {
  const rest = SESSION_PREFIX.test(path) ? sessionOf(path, undefined).path : path;
  return CONTROL_PATH.test(rest) || MEDIA_PATH.test(rest) || routes.find('GET', rest) !== undefined;
}

/** The 404 envelope of a path nothing answers (10004). */
export function noRoute(method: string, path: string): Answer {
  return errorAnswer('ROUTE_NOT_FOUND', `no operation at ${method} ${path}`);
}

/** What the journal keeps of a response's body (the fields of JournalEntry, schemas/control.ts). */
export type JournalResponse = { responseBody?: unknown; responseBodyTruncated?: true; responseMedia?: string };

/**
 * The journal's record of the body `a` answered with, cut as a request body is (docs/architecture.md, "The engine",
 * Bounds): JSON text up to JOURNAL_BODY_CHARS characters parsed (the value the client read), beyond that its cut
 * text with `responseBodyTruncated`; a body that is not JSON described by its media type and size ("image/png,
 * 53,812 bytes"; "audio/mpeg, streamed" for chunks of a total not known in advance; an event stream), never its
 * bytes; nothing for an answer without a body. The journal keeps a flat copy of it (mock/engine/journal.ts).
 */
export function journalResponse(a: Answer): JournalResponse {
  const b = a.body;
  if (!b) return {};
  if ('json' in b) {
    const text = b.json;
    if (keptWhole(text)) {
      try {
        return { responseBody: JSON.parse(text) as unknown };
      } catch {
        // every JSON answer is made by JSON.stringify: kept as text should one ever not parse
        return { responseBody: text };
      }
    }
    return { responseBody: cutText(text, JOURNAL_BODY_CHARS), responseBodyTruncated: true };
  }
  const type = a.headers['Content-Type'] ?? ('events' in b ? 'text/event-stream' : 'application/octet-stream');
  if ('bytes' in b) return { responseMedia: `${type}, ${formatCount(b.bytes.byteLength)} bytes` };
  if ('stream' in b) return { responseMedia: b.stream instanceof Uint8Array ? `${type}, ${formatCount(b.stream.byteLength)} bytes` : `${type}, streamed` };
  return { responseMedia: `${type}, event stream` };
}

/** True when a JSON answer's text is journaled whole (no more than JOURNAL_BODY_CHARS characters). */
function keptWhole(text: string): boolean {
  // code points are at least half the UTF-16 units: a text over twice the cut is never counted through
  return text.length <= JOURNAL_BODY_CHARS || (text.length <= 2 * JOURNAL_BODY_CHARS && charCount(text) <= JOURNAL_BODY_CHARS);
}

/**
 * Records an API request in `world`'s journal: its final status, envelope code, what the runner traced (operation,
 * key, request body) and what `answer` sent back (see journalResponse; undefined when the adapter has none to give).
 */
export function journalRequest(
  world: World,
  at: number,
  method: string,
  path: string,
  status: number,
  code: number | null,
  operationId: string | undefined,
  keyId: string | null | undefined,
  body: { body: unknown; bodyTruncated?: boolean } | undefined,
  answer?: Answer,
  proxy?: JournalEntry['proxy'],
): void {
  const journal = world.engine.journal;
  const b = answer?.body;
  // a JSON answer within the cut (nearly all of them) is kept as the text the client read, parsed only when the
  // journal is read (the value journalResponse gives); a journal that keeps nothing costs no parse
  if (b && 'json' in b && keptWhole(b.json)) {
    // the entry in its parts (Journal.recordParts): no object made to be taken apart again
    const head: Omit<JournalEntry, 'seq' | 'body' | 'responseBody'> = {
      at,
      method,
      path,
      operationId: operationId ?? null,
      keyId: keyId ?? null,
      status,
      code,
    };
    if (body?.bodyTruncated) head.bodyTruncated = true;
    if (proxy) head.proxy = proxy;
    return journal.recordParts(head, body?.body, b.json, true);
  }
  const response = answer && journal.capacity > 0 ? journalResponse(answer) : undefined;
  journal.record({ at, method, path, operationId: operationId ?? null, keyId: keyId ?? null, status, code, ...body, ...response, ...(proxy ? { proxy } : {}) });
}

/**
 * The entry of the requests to `worlds` over one transport (see the file's comment): `enter(source, reader,
 * method, path, d)` fills `d` and returns the answer to write at once, or undefined when the adapter goes on by
 * `d.kind` and `d.route`. An answer it returns is written like any other (with the CORS headers when `d.owesCors`,
 * journaled when `d.journaled`). In this order:
 *
 * 1. the session: `X-Mock-Session` or the `/sessions/<name>` prefix (taken off `d.path`) names one; an existing
 *    session is picked, an unknown one only named (opened in 6);
 * 2. what the request is, from its path (and the route table);
 * 3. DNS rebinding (with `hostAllowed`): the control API and the web pages answer only the names of this mock
 *    (a rebound page sends its own name as Host, and a same-origin GET carries no Origin): 403, 10017;
 * 4. the control guard, on every /__mock path: a page only of the allowed origins, the control token unless the
 *    operation is open (`control: 'open'` in the registry), the request a preflight or the dashboard's shell.
 *    A refused page is refused before CORS (a cross-site POST would still reset the mock): 403, 10012;
 * 5. CORS (with `cors`; never on the web pages: another site must not read them): a preflight is one;
 * 6. a session name that is not one: 400 (10014); an unknown session is opened only by a control request (it
 *    passed the guard) or by an API operation with an API key from an allowed origin (no page, or one the
 *    control guard allows: the same rule). Anything else answers 404 (10018) and opens nothing;
 * 7. the journal (not an observer's read: X-Mock-Observer); a path of the API's with another method (405, with Allow) or a parameter that is not valid
 *    percent-encoding (404).
 */
export function createFront(worlds: Worlds, opts: FrontOptions = {}) {
  const { routes, main } = worlds;
  const guard = worlds.control;
  const hostAllowed = opts.hostAllowed;
  const cors = opts.cors === true;

  return function enter<S>(source: S, reader: RequestReader<S>, method: string, rawPath: string, d: FrontDecision): Answer | undefined {
    // 1. the session
    let path = rawPath;
    let unknownSession: string | undefined;
    let problem: string | undefined;
    d.world = main;
    const header = reader.header(source, 'x-mock-session');
    if (header !== undefined || SESSION_PREFIX.test(rawPath)) {
      const named = sessionOf(rawPath, header);
      if (named.problem !== undefined) problem = named.problem;
      else if (named.name !== undefined) {
        path = named.path;
        const w = worlds.existing(named.name);
        if (w) d.world = w;
        else unknownSession = named.name;
      }
    }
    d.path = path;
    d.route = undefined;
    d.journaled = false;
    d.owesCors = false;
    d.pageOrigin = undefined;
    d.selfOrigin = undefined;

    // 2. what it is
    let kind: RequestKind;
    let hit: RouteMatch | undefined;
    const control = CONTROL_PATH.test(path);
    if (control) {
      kind = DASHBOARD_PATH.test(path) ? 'dashboard' : 'control';
      if (kind === 'control') hit = routes.find(method, path);
    } else if (MEDIA_PATH.test(path)) kind = 'media';
    else {
      hit = routes.find(method, path);
      kind = hit === undefined ? 'none' : (hit.kind === 'operation' ? hit.op.response.kind === 'page' : routes.isPage(path)) ? 'page' : 'operation';
    }
    d.kind = kind;

    // 3. the Host check
    if ((control || kind === 'page') && hostAllowed && !hostAllowed(reader.header(source, 'host')))
      return errorAnswer(
        'HOST_FORBIDDEN',
        `the control API and the sign-in page do not answer the host ${String(reader.header(source, 'host')).slice(0, 100)} (allowed: localhost, 127.0.0.1, [::1], the --public-url host and --allowed-host)`,
      );

    // 4. the control guard (a request without Origin, an <img> or a link, is judged by its Referer, then Sec-Fetch-Site)
    if (control) {
      const open = method === 'OPTIONS' || kind === 'dashboard' || (hit?.kind === 'operation' && hit.op.control === 'open');
      const pageOrigin = pageOriginOf(reader.header(source, 'origin'), reader.header(source, 'referer'), reader.header(source, 'sec-fetch-site'));
      const denied = controlGuardError(
        pageOrigin,
        pageOrigin === undefined ? undefined : reader.selfOrigin(source),
        reader.header(source, 'authorization'),
        guard,
        open,
      );
      if (denied) return errorAnswer(denied);
    }

    // 5. CORS
    if (cors && kind !== 'page') {
      if (method === 'OPTIONS') {
        d.kind = 'preflight';
        return undefined;
      }
      d.owesCors = true;
    }

    // 6. the session's name, and who opens one
    if (problem !== undefined) return errorAnswer('MALFORMED_REQUEST', problem);
    if (unknownSession !== undefined) {
      if (!control && !(hit?.kind === 'operation' && kind === 'operation' && mayOpenSession(source, reader)))
        return errorAnswer(
          'SESSION_NOT_FOUND',
          `no session ${unknownSession}: a session is opened by an API request with an API key (from no web page, or one the control API answers) or by a control request (POST /sessions/${unknownSession}/__mock/reset), not by media, pages or unauthenticated requests`,
        );
      d.world = worlds.session(unknownSession);
    }

    // 7. the journal (not a read by an observer, X-Mock-Observer: the dashboard showing a task's result is not an API
    // request of the app under test), and what the route table says of the path
    d.journaled = (kind === 'operation' || (kind === 'none' && !DOCUMENT_PATH.test(path))) && reader.header(source, 'x-mock-observer') === undefined;
    if (hit === undefined) return undefined;
    if (hit.kind === 'method') {
      const allowed = hit.allowed.join(', ');
      return errorAnswer('METHOD_NOT_ALLOWED', `${method} is not allowed on ${path}; allowed: ${allowed}`, { Allow: allowed });
    }
    if (hit.kind === 'encoding') return errorAnswer('ROUTE_NOT_FOUND', `no operation at ${method} ${path}: the path is not valid percent-encoding`);
    d.route = hit;
    if (kind === 'page') {
      d.pageOrigin = pageOriginOf(reader.header(source, 'origin'), reader.header(source, 'referer'), reader.header(source, 'sec-fetch-site'));
      d.selfOrigin = reader.selfOrigin(source);
    }
    return undefined;
  };

  /** An API request may open a session: its Bearer has the API-key form, and it comes from no web page or an allowed one. */
  function mayOpenSession<S>(source: S, reader: RequestReader<S>): boolean {
    const bearer = BEARER.exec(reader.header(source, 'authorization') ?? '')?.[1];
    if (bearer === undefined || !main.engine.keyPattern.test(bearer)) return false;
    const pageOrigin = pageOriginOf(reader.header(source, 'origin'), reader.header(source, 'referer'), reader.header(source, 'sec-fetch-site'));
    return originAllowed(pageOrigin, pageOrigin === undefined ? undefined : reader.selfOrigin(source), guard);
  }
}

/** The entry of one transport over a mock's worlds (see createFront). */
export type Front = ReturnType<typeof createFront>;
