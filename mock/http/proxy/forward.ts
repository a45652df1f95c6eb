/**
 * The proxy (`mediagen-mock --upstream URL`, docs/guides/proxy.md): the API requests the request entry matched to an
 * operation, and the media requests, are forwarded to the upstream with the caller's headers (credentials included)
 * and body, and its answers are passed back unchanged (status, end-to-end headers, body bytes, streamed as they come;
 * hop-by-hop headers are not forwarded either way, Host becomes the upstream's, redirects are not followed). Each
 * answer is checked against the contract (mock/http/proxy/check.ts) once its body has passed; what is found goes to
 * the journal entry of the request, the report (GET /__mock/proxy/report) and `onViolation`.
 *
 * With `fallback: 'mock'`, a request the upstream does not answer (connection refused, unreachable, no answer in
 * time, 404 for the route, 501) is answered by the mock itself and marked so in the journal. Without it, an upstream
 * that cannot be reached answers 502 (10021), one that does not answer in time 504 (10022): the documented envelope,
 * never a hang.
 *
 * Memory is bounded: a request body is buffered up to the check cap (8 MiB; beyond, the rest streams through and no
 * fallback is possible), an answer's body is kept for the check up to the same cap (beyond: passed through, counted
 * as not checked), and all the proxy's buffers together stay under `maxBufferedBytes` (beyond: 503, 10019).
 */
import { request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Readable } from 'node:stream';
import type { Request, Response } from 'express';
import type { ProxyReport } from '../../../schemas/control.ts';
import { applyCors } from '../cors.ts';
import { sendError } from '../respond.ts';
import type { ResponseLocals } from '../locals.ts';
import { clip } from '../../../verify/answers.ts';
import { ContractChecker, type Violation } from './check.ts';
import { DEFAULT_UPSTREAM_TIMEOUT_MS, type ProxyExchange } from './exchange.ts';
import { ProxyTally } from './report.ts';

export type { ProxyExchange, ProxyMark } from './exchange.ts';

/** Bytes of a request or an answer the proxy keeps for the check (and for a fallback) by default: 8 MiB. */
export const DEFAULT_CHECK_CAP = 8 * 1024 * 1024;

/** How the proxy forwards and checks. */
export interface ProxyOptions {
  /** Base URL of the upstream, e.g. https://staging.example.com (a path prefix is kept before each request's path). */
  upstream: string;
  /** `mock`: the mock answers what the upstream does not; `off` (default): 502 or 504. */
  fallback?: 'off' | 'mock';
  /** Longest silence of the upstream (no header, no body byte) before the request is given up, ms (default 30,000). */
  timeoutMs?: number;
  /** Bytes of a body kept for the check (default 8 MiB). */
  checkCapBytes?: number;
  /** Bytes all requests and answers in flight may keep at once (default 256 MiB); beyond, 503 (10019). */
  maxBufferedBytes?: number;
  /** The checker (default: over the package's spec/openapi.json). */
  checker?: ContractChecker;
  /** Called for each exchange with the upstream (and each fallback answer), once the answer's body has passed. */
  onExchange?: (x: ProxyExchange) => void;
  /** The time an exchange is stamped with, ms since the epoch (default: the wall clock; a test with a manual upstream passes the upstream's clock). */
  now?: () => number;
  /** Called for each violation found (the CLI prints them). */
  onViolation?: (v: ProxyReport['violations'][number]) => void;
}

/** A forwarding proxy: the Express adapter hands it the requests it forwards (mock/http/app.ts). */
export interface Proxy {
  /** Forwards an API request the entry matched (`res.locals.route`); `fallback(req)` lets the mock answer it (`req` readable again). */
  operation(req: Request, res: Response, fallback: (req: Request) => void): void;
  /** Forwards a media request (`rawPath`: its path as sent); `fallback(req)` lets the mock's media router answer it. */
  media(req: Request, res: Response, rawPath: string, fallback: (req: Request) => void): void;
  report(): ProxyReport;
  clear(): ProxyReport;
  /** Answers checked per operation (the JUnit report's test cases). */
  operations(): Map<string, number>;
}

/** Headers that belong to one connection (RFC 9110 section 7.6.1): never forwarded, either way. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'proxy-authorization',
  'proxy-authenticate',
  'host',
]);

/** True for a header of the request the proxy does not forward: a hop-by-hop one, or one its Connection header lists. */
const hopByHop = (name: string, listed: Set<string>) => HOP_BY_HOP.has(name) || listed.has(name);

/** The header names a Connection header lists (they are hop-by-hop too). */
function connectionListed(v: string | string[] | undefined): Set<string> {
  const s = Array.isArray(v) ? v.join(',') : (v ?? '');
  return new Set(
    s
      .split(',')
      .map((x) => x.trim().toLowerCase())
      .filter(Boolean),
  );
}

const errorCodes = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ECONNRESET', 'EPIPE']);

/** Flat `name: value` headers (lower-case names, repeated ones joined with `, `) of raw headers. */
function flatHeaders(raw: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < raw.length; i += 2) {
    const k = raw[i].toLowerCase();
    out[k] = k in out ? `${out[k]}, ${raw[i + 1]}` : raw[i + 1];
  }
  return out;
}

function concat(parts: Buffer[], n: number): Buffer {
  return parts.length === 1 ? parts[0] : Buffer.concat(parts, n);
}

/**
 * A request readable again for the mock's own dispatcher after its body was read: the same method, target, headers
 * and socket, the body replayed from `body`.
 */
function replayed(req: Request, body: Buffer | undefined): Request {
  const headers = { ...req.headers };
  if (body !== undefined) {
    headers['content-length'] = String(body.length);
    delete headers['transfer-encoding'];
  }
  const r = Readable.from(body?.length ? [body] : []) as unknown as Request & { complete: boolean };
  Object.assign(r, {
    method: req.method,
    url: req.url,
    originalUrl: req.url,
    headers,
    rawHeaders: req.rawHeaders,
    httpVersion: req.httpVersion,
    socket: req.socket,
    complete: true,
  });
  return r;
}

/** Creates a proxy to `opts.upstream` (see the file's comment). */
export function createProxy(opts: ProxyOptions): Proxy {
  const base = new URL(opts.upstream);
  if (base.protocol !== 'http:' && base.protocol !== 'https:')
    throw new Error(`--upstream ${opts.upstream}: an http or https URL, e.g. https://staging.example.com`);
  const prefix = base.pathname.replace(/\/+$/, '');
  const send = base.protocol === 'https:' ? httpsRequest : httpRequest;
  const fallbackOn = opts.fallback === 'mock';
  const timeoutMs = opts.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
  const now = opts.now ?? Date.now;
  const cap = opts.checkCapBytes ?? DEFAULT_CHECK_CAP;
  const maxBuffered = opts.maxBufferedBytes ?? 256 * 1024 * 1024;
  const checker = opts.checker ?? new ContractChecker();
  const tally = new ProxyTally(base.origin + prefix, fallbackOn ? 'mock' : 'off');
  let buffered = 0;

  /** Reserves `n` bytes of the buffer budget; false when it is spent. */
  const reserve = (n: number) => {
    if (buffered + n > maxBuffered) return false;
    buffered += n;
    return true;
  };

  /** Reads the request body up to the cap: `whole` when it ended within it, else the first chunks and the rest unread. */
  function readRequest(req: Request): Promise<{ body?: Buffer; whole: boolean; parts: Buffer[]; size: number }> {
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined)
      return Promise.resolve({ body: undefined, whole: true, parts: [], size: 0 });
    return new Promise((resolve, reject) => {
      const parts: Buffer[] = [];
      let size = 0;
      const onData = (c: Buffer) => {
        parts.push(c);
        size += c.length;
        if (size > cap) {
          done();
          req.pause();
          resolve({ whole: false, parts, size });
        }
      };
      const onEnd = () => {
        done();
        resolve({ body: concat(parts, size), whole: true, parts, size });
      };
      const onError = (e: Error) => {
        done();
        reject(e);
      };
      const done = () => {
        req.off('data', onData);
        req.off('end', onEnd);
        req.off('error', onError);
      };
      req.on('data', onData);
      req.on('end', onEnd);
      req.on('error', onError);
    });
  }

  /**
   * The request's headers as forwarded: hop-by-hop ones left out, Host the upstream's, Content-Length the body's, and
   * the session of a request in one (`/sessions/<name>` or `X-Mock-Session`) as `X-Mock-Session: <name>`: the path's
   * prefix is this mock's and is not forwarded, the session goes on in the header, which names it the same way to an
   * upstream mock and which a real server ignores (decisions/0030-upstream-proxy.md).
   */
  function forwardHeaders(req: Request, whole: boolean, size: number, session: string | null): OutgoingHttpHeaders {
    const listed = connectionListed(req.headers.connection);
    const out: OutgoingHttpHeaders = {};
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const k = req.rawHeaders[i].toLowerCase();
      if (hopByHop(k, listed) || k === 'content-length') continue;
      const prev = out[k];
      out[k] = prev === undefined ? req.rawHeaders[i + 1] : [...(Array.isArray(prev) ? prev : [String(prev)]), req.rawHeaders[i + 1]];
    }
    out.host = base.host;
    if (session !== null) out['x-mock-session'] = session;
    if (whole && (size > 0 || req.headers['content-length'] !== undefined)) out['content-length'] = String(size);
    else if (!whole && req.headers['content-length'] !== undefined) out['content-length'] = req.headers['content-length'];
    return out;
  }

  /**
   * Forwards `req` and answers `res`: the shared path of operations and media. `judge` checks the answer once its
   * body (up to the cap) has passed; `fallback` answers instead when the upstream does not (when allowed).
   */
  async function forward(
    req: Request,
    res: Response,
    operationId: string | null,
    judge: (status: number, headers: Headers, body: Uint8Array | undefined, tooLarge: boolean) => Violation[] | undefined,
    fallback: (req: Request) => void,
  ): Promise<void> {
    const d = res.locals as ResponseLocals;
    const startedAtMs = now();
    const session = d.world?.name ?? null;
    const path = d.path;
    const q = req.url.indexOf('?');
    const query = q < 0 ? '' : req.url.slice(q + 1);
    // the body's share of the buffers is reserved before a byte is read: its Content-Length, or the cap when chunked
    const declared = Number(req.headers['content-length'] ?? (req.headers['transfer-encoding'] !== undefined ? cap : 0));
    let held = Math.min(Number.isFinite(declared) && declared > 0 ? declared : 0, cap + 64 * 1024);
    if (!reserve(held)) {
      held = 0;
      res.setHeader('Connection', 'close');
      return sendError(
        res,
        'SERVER_BUSY',
        `the proxy holds ${Math.round(maxBuffered / 1024 / 1024)} MiB of bodies in flight, the most it keeps at once; retry later`,
      );
    }
    let read: Awaited<ReturnType<typeof readRequest>>;
    try {
      read = await readRequest(req);
    } catch {
      buffered -= held;
      return sendError(res, 'MALFORMED_REQUEST', 'the request body could not be read (the connection failed while it arrived)');
    }
    const releaseRequest = () => {
      buffered -= held;
      held = 0;
    };
    res.once('close', releaseRequest);
    const requestHeaders = flatHeaders(req.rawHeaders);
    const requestBody = read.whole ? read.body : concat(read.parts, read.size).subarray(0, cap);
    const canFallBack = fallbackOn && read.whole;
    /** The exchange of this request with its answer (the upstream's, or the mock's when `fromFallback`), for `onExchange`. */
    const exchange = (status: number, responseHeaders: Record<string, string>, responseBody: Uint8Array, fromFallback: boolean): ProxyExchange => ({
      operationId: operationId ?? '',
      method: req.method,
      path,
      query,
      requestHeaders,
      ...(requestBody ? { requestBody } : {}),
      status,
      responseHeaders,
      responseBody,
      startedAtMs,
      endedAtMs: now(),
      ...(session !== null ? { session } : {}),
      fromFallback,
    });
    const fallBack = (note: string) => {
      tally.fallbacks++;
      d.proxy = { fallback: true, violations: [], note };
      if (opts.onExchange)
        captureFallback(res, (status, responseHeaders, responseBody) => opts.onExchange!(exchange(status, responseHeaders, responseBody, true)));
      fallback(replayed(req, read.body));
    };
    tally.forwarded++;
    const upReq = send({
      protocol: base.protocol,
      hostname: base.hostname.replace(/^\[|\]$/g, ''),
      port: base.port || undefined,
      method: req.method,
      path: prefix + req.url,
      headers: forwardHeaders(req, read.whole, read.size, session),
    });
    let answered = false;
    upReq.setTimeout(timeoutMs, () =>
      upReq.destroy(Object.assign(new Error(`no answer from the upstream within ${timeoutMs / 1000} s`), { code: 'ETIMEDOUT' })),
    );
    res.once('close', () => {
      if (!res.writableFinished) upReq.destroy();
    });
    upReq.on('error', (e: NodeJS.ErrnoException) => {
      if (answered) return void (res.writableEnded ? undefined : res.destroy());
      answered = true;
      if (res.destroyed) return;
      const timedOut = e.code === 'ETIMEDOUT';
      if (canFallBack && (timedOut || errorCodes.has(e.code ?? '')))
        return fallBack(`the upstream did not answer (${e.code ?? e.message}): answered by the mock`);
      tally.upstreamErrors++;
      d.proxy = { fallback: false, violations: [], note: `the upstream did not answer: ${e.code ?? e.message}` };
      if (timedOut) return sendError(res, 'UPSTREAM_TIMEOUT', `the upstream ${base.origin} sent nothing for ${timeoutMs / 1000} s (--upstream-timeout)`);
      sendError(res, 'UPSTREAM_UNREACHABLE', `the upstream ${base.origin} could not be reached: ${e.code ?? e.message}`);
    });
    upReq.on('response', (up: IncomingMessage) => void answer(up));
    if (read.whole) upReq.end(read.body);
    else {
      for (const p of read.parts) upReq.write(p);
      req.pipe(upReq);
      req.resume();
    }

    /** Passes the upstream's answer on (or falls back), then checks it. */
    async function answer(up: IncomingMessage): Promise<void> {
      answered = true;
      const status = up.statusCode ?? 502;
      const responseHeaders = flatHeaders(up.rawHeaders);
      const headers = new Headers();
      for (const [k, v] of Object.entries(responseHeaders)) headers.set(k, v);
      // a 404 for the route (not one of the operation's own 404s) or a 501: the upstream does not have the operation
      if (canFallBack && (status === 501 || status === 404)) {
        const first = await readAll(up, 64 * 1024);
        if (status === 501 || !declared404(operationId, headers, first))
          return fallBack(`the upstream answered ${status} for this route: answered by the mock`);
        return finish(status, headers, responseHeaders, [first], up);
      }
      finish(status, headers, responseHeaders, [], up);
    }

    /** Writes the head and the body already read (`parts`), streams the rest of `up`, then checks what passed. */
    function finish(status: number, headers: Headers, responseHeaders: Record<string, string>, parts: Buffer[], up: IncomingMessage): void {
      const listed = connectionListed(up.headers.connection);
      for (let i = 0; i < up.rawHeaders.length; i += 2) {
        const k = up.rawHeaders[i].toLowerCase();
        // the mock's own CORS headers are the caller's (it called the mock's origin)
        if (hopByHop(k, listed) || k.startsWith('access-control-')) continue;
        const prev = res.getHeader(k);
        res.setHeader(k, prev === undefined ? up.rawHeaders[i + 1] : [...(Array.isArray(prev) ? prev : [String(prev)]), up.rawHeaders[i + 1]]);
      }
      applyCors(res);
      res.writeHead(status);
      const stream = (headers.get('content-type') ?? '').startsWith('text/event-stream');
      // what was read before (a 404's body, judged first) is written and kept below, like the rest
      let kept = 0;
      let over = false;
      let heldBody = 0;
      const keep = (c: Buffer) => {
        if (over || stream) return;
        if (kept + c.length > cap || !reserve(c.length)) {
          over = true;
          return;
        }
        heldBody += c.length;
        parts.push(c);
        kept += c.length;
      };
      const kept0 = parts.splice(0);
      for (const c of kept0) {
        res.write(c);
        keep(c);
      }
      up.on('data', (c: Buffer) => {
        keep(c);
        if (!res.write(c)) {
          up.pause();
          res.once('drain', () => up.resume());
        }
      });
      up.on('error', () => res.destroy());
      up.on('aborted', () => res.destroy());
      const ended = () => {
        const body = stream ? undefined : concat(parts, kept);
        let note: string | undefined;
        if (over) {
          tally.notChecked++;
          note = `not checked: the body passed the check cap (${cap} bytes) or the proxy's buffers; status and headers checked`;
        }
        const found = judge(status, headers, body, over) ?? [];
        const site = { session, method: req.method, path, operationId, status };
        const rows = tally.checkedAnswer(site, found);
        for (const r of rows) opts.onViolation?.(r);
        // the journal keeps a few, each cut (its bytes are bounded like a body's); the report has them whole
        const violations = found.slice(0, 10).map((v) => ({ ...v, detail: clip(v.detail, 500) }));
        d.proxy = { fallback: false, violations, ...(note ? { note } : {}) };
        const code = body && /json/.test(headers.get('content-type') ?? '') ? envelopeCode(body) : null;
        d.envelopeCode = code;
        if (operationId) d.operationId = operationId;
        d.keyId = keyIdOf(req.headers.authorization);
        if (read.body?.length && /json/.test(req.headers['content-type'] ?? '')) d.journalBody = journalBodyOf(read.body);
        opts.onExchange?.(exchange(status, responseHeaders, body ?? new Uint8Array(), false));
        buffered -= heldBody;
        heldBody = 0;
        parts.length = 0;
        res.end();
      };
      // a body read whole before (a 404 judged first) has ended already; one read in part was paused
      if (up.readableEnded) ended();
      else {
        up.on('end', ended);
        up.resume();
      }
    }
  }

  /** True when a 404 is one the operation declares (a JSON envelope with a code declared for 404): a real answer, not a missing route. */
  function declared404(operationId: string | null, headers: Headers, body: Buffer): boolean {
    const op = operationId ? checker.operation(operationId) : undefined;
    if (!op || !/json/.test(headers.get('content-type') ?? '')) return false;
    const code = envelopeCode(body);
    return code !== null && (op.codes.get(404) ?? []).includes(code);
  }

  return {
    operation(req, res, fallback) {
      const d = res.locals as ResponseLocals;
      const hit = d.route!;
      const session = d.world?.name ?? null;
      void forward(
        req,
        res,
        hit.operationId,
        (status, headers, body, tooLarge) =>
          checker.check({ operationId: hit.operationId, method: req.method, path: d.path, params: hit.params, session, status, headers, body, tooLarge }),
        fallback,
      ).catch((e: Error) => {
        if (!res.headersSent) sendError(res, 'MOCK_INTERNAL_ERROR', `mock bug in the proxy: ${e.message}`);
        else res.destroy();
      });
    },
    media(req, res, rawPath, fallback) {
      void forward(req, res, null, (status, headers) => checker.checkMedia(rawPath, status, headers), fallback).catch(() => res.destroy());
    },
    report: () => tally.report(),
    clear: () => tally.clear(),
    operations: () => tally.operations(),
  };
}

/** Reads `up` whole up to `max` bytes (the rest is left unread). */
function readAll(up: IncomingMessage, max: number): Promise<Buffer> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    let n = 0;
    const end = () => {
      up.off('data', onData);
      resolve(Buffer.concat(parts, n));
    };
    const onData = (c: Buffer) => {
      parts.push(c);
      n += c.length;
      if (n >= max) {
        up.pause();
        end();
      }
    };
    up.on('data', onData);
    up.once('end', end);
    up.once('error', end);
  });
}

/** The envelope code of a JSON body, null when it has none. */
function envelopeCode(body: Uint8Array): number | null {
  try {
    const code = (JSON.parse(new TextDecoder().decode(body)) as { code?: unknown })?.code;
    return typeof code === 'number' ? code : null;
  } catch {
    return null;
  }
}

/** The keyId of a `Bearer <prefix>_<keyId>_<secret>` key (the journal's keyId), null for anything else. */
function keyIdOf(authorization: string | undefined): string | null {
  return /^Bearer [A-Za-z0-9]+_([A-Za-z0-9]+)_[A-Za-z0-9]+$/.exec(authorization ?? '')?.[1] ?? null;
}

/** A JSON request body as the journal keeps it (cut to 4,096 characters of JSON text, as the mock's own requests). */
function journalBodyOf(body: Buffer): { body: unknown; bodyTruncated?: boolean } | undefined {
  const text = body.toString('utf8');
  if (text.length > 4096) return { body: text.slice(0, 4096), bodyTruncated: true };
  try {
    return { body: JSON.parse(text) as unknown };
  } catch {
    return { body: text };
  }
}

/** Calls `done` with what the mock answered `res` (status, headers, the body up to 8 MiB) when it has finished. */
function captureFallback(res: Response, done: (status: number, headers: Record<string, string>, body: Uint8Array) => void): void {
  const parts: Buffer[] = [];
  let n = 0;
  const take = (c: unknown, enc?: unknown) => {
    if (c === undefined || c === null || typeof c === 'function' || n > DEFAULT_CHECK_CAP) return;
    const b = typeof c === 'string' ? Buffer.from(c, typeof enc === 'string' ? (enc as BufferEncoding) : 'utf8') : Buffer.from(c as Uint8Array);
    parts.push(b);
    n += b.length;
  };
  const write = res.write.bind(res) as (...a: unknown[]) => boolean;
  const end = res.end.bind(res) as (...a: unknown[]) => Response;
  (res as unknown as { write: (...a: unknown[]) => boolean }).write = (...a: unknown[]) => {
    take(a[0], a[1]);
    return write(...a);
  };
  (res as unknown as { end: (...a: unknown[]) => Response }).end = (...a: unknown[]) => {
    take(a[0], a[1]);
    return end(...a);
  };
  // the whole-answer writer passes its headers to writeHead as a flat list (never set one by one): kept from there too
  const given: Record<string, string> = {};
  const writeHead = res.writeHead.bind(res) as (...a: unknown[]) => Response;
  (res as unknown as { writeHead: (...a: unknown[]) => Response }).writeHead = (...a: unknown[]) => {
    const h = a.find((x, i) => i > 0 && x !== null && typeof x === 'object');
    if (Array.isArray(h)) for (let i = 0; i + 1 < h.length; i += 2) given[String(h[i]).toLowerCase()] = String(h[i + 1]);
    else if (h) for (const [k, v] of Object.entries(h)) given[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
    return writeHead(...a);
  };
  res.once('finish', () => {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.getHeaders())) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : String(v);
    done(res.statusCode, { ...headers, ...given }, Buffer.concat(parts, n).subarray(0, DEFAULT_CHECK_CAP));
  });
}
