/**
 * The mock as a fetch handler (docs/architecture.md, "Transports"): a
 * WHATWG `Request` in, a `Response` out, on the same registry, validation,
 * engine and services as the Express server, through the same request path
 * (mock/core). The MSW handlers (mock/web/msw.ts) and the in-process mock's
 * `fetch` (mock/index.ts) are built on it. It runs wherever `Request`,
 * `Response` and `ReadableStream` exist: Node 20, browsers, service workers.
 *
 * Bodies are the bytes the server sends for the same request on an engine in
 * the same state (JSON text, error envelopes, media, event-stream frames).
 * Transport-level details the browser owns are left out: CORS (a fetch
 * handler answers its own page), the HTTP parser's own refusals.
 */
import { EVENT_STREAM_HEADERS, errorAnswer, type Answer } from '../core/answer.ts';
import { pumpEvents } from '../core/event-stream.ts';
import { encodedMultipart, multipartCollector, notMultipart } from '../core/multipart.ts';
import type { ControlGuardOptions } from '../core/guard.ts';
import { createFront, Decision, journalRequest, noRoute, type RequestReader } from '../core/front.ts';
import type { OperationTrace } from '../core/operation.ts';
import { bodyLimitOf, bodyTooLarge, formFields, parseWholeBody, readsWholeBody } from '../core/request-body.ts';
import { createWorlds, type Worlds } from '../core/worlds.ts';
import { ApiError } from '../engine/api-error.ts';
import type { Engine } from '../engine/engine.ts';
import type { EngineOptions } from '../engine/engine.ts';
import type { AnyService } from '../services/index.ts';
import { withWallClock } from './wall-clock.ts';

export interface FetchHandlerOptions extends EngineOptions {
  /** The services (default: every area and the control API). */
  services?: readonly AnyService[];
  /** Who may call the control operations (default: any page, no token: a fetch handler answers its own page). */
  control?: ControlGuardOptions;
  /** Validate every response against its declared schema (a mismatch is a 500, code 10500, and a reported bug). */
  strict?: boolean;
  /** Base of every media URL (e.g. http://localhost:4010); default: the origin of each request. */
  publicUrl?: string;
  /** Real ms between event-stream heartbeats (default 15 000). */
  heartbeatMs?: number;
  /** Most bytes of rendered media kept in memory (default 256 MiB). */
  mediaCacheBytes?: number;
}

/** How the request entry reads a WHATWG Request: its headers, and the origin of its URL. */
const FETCH_READER: RequestReader<Request> = {
  header: (request, name) => request.headers.get(name) ?? undefined,
  selfOrigin: (request) => new URL(request.url).origin,
};

/** A response from an Answer: whole bodies with Content-Length, binary bodies streamed, event streams until done. */
async function toResponse(a: Answer, method: string, engine: Engine, heartbeatMs: number, bug: (problem: string) => void): Promise<Response> {
  const headers = new Headers(a.headers);
  const b = a.body;
  const head = method === 'HEAD';
  if (!b) return new Response(null, { status: a.status, headers });
  if ('json' in b) {
    const bytes = new TextEncoder().encode(b.json);
    headers.set('Content-Length', String(bytes.byteLength));
    return new Response(head ? null : bytes, { status: a.status, headers });
  }
  if ('bytes' in b) {
    headers.set('Content-Length', String(b.bytes.byteLength));
    return new Response(head ? null : (b.bytes as Uint8Array<ArrayBuffer>), { status: a.status, headers });
  }
  if ('stream' in b) {
    const body = b.stream;
    if (body instanceof Uint8Array) return new Response(head ? null : (body as Uint8Array<ArrayBuffer>), { status: a.status, headers });
    const it = body[Symbol.asyncIterator]();
    // the first chunk before the status, as the server does: a failure there is answered with the envelope
    let first: IteratorResult<Uint8Array>;
    try {
      first = await it.next();
    } catch (e) {
      if (e instanceof ApiError) return toResponse(errorAnswer(e), method, engine, heartbeatMs, bug);
      bug((e as Error)?.stack ?? String(e));
      return toResponse(errorAnswer('MOCK_INTERNAL_ERROR', 'mock bug: unexpected error while handling the request'), method, engine, heartbeatMs, bug);
    }
    let pending: IteratorResult<Uint8Array> | undefined = first;
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = pending ?? (await it.next());
        pending = undefined;
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      async cancel() {
        await it.return?.();
      },
    });
    return new Response(head ? null : stream, { status: a.status, headers });
  }
  for (const [k, v] of Object.entries(EVENT_STREAM_HEADERS)) headers.set(k, v);
  const encoder = new TextEncoder();
  let close = () => {};
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      let ended = false;
      close = pumpEvents(
        engine,
        b.events.source,
        { heartbeatMs, onError: bug, ...(b.events.events ? { events: b.events.events, onMockBug: bug } : {}) },
        {
          write: (text) => {
            if (!ended) controller.enqueue(encoder.encode(text));
          },
          end: () => {
            if (ended) return;
            ended = true;
            controller.close();
          },
        },
      );
    },
    cancel() {
      close();
    },
  });
  return new Response(stream, { status: 200, headers });
}

/**
 * A fetch handler: `handle(request)` answers an API operation, a control
 * operation (/__mock), a web page (and its form), a hosted media file, or the 404/405 envelope of an
 * unknown route, in the world the request names (X-Mock-Session or the
 * /sessions/<name> prefix). Every API request is journaled (GET
 * /__mock/requests). `worlds`: share another transport's worlds (the
 * in-process mock's server); default: worlds of its own, from `opts`. Never
 * throws.
 */
export function createFetchHandler(opts: FetchHandlerOptions = {}, worlds?: Worlds) {
  const heartbeatMs = opts.heartbeatMs ?? 15_000;
  const own =
    worlds ??
    createWorlds({
      engine: withWallClock(opts),
      services: opts.services,
      mediaCacheBytes: opts.mediaCacheBytes,
      control: opts.control ?? { anyOrigin: true },
      runner: () => ({ strict: opts.strict ?? false }),
    });
  // no Host check and no CORS: a fetch handler answers its own page
  const enter = createFront(own);

  /** The answer to a request the entry let through, by its decision `d`. */
  async function answer(request: Request, method: string, d: Decision, url: URL, trace: Partial<OperationTrace>): Promise<Answer> {
    const world = d.world!;
    const hit = d.route;
    if (!hit) {
      if (d.kind === 'media') {
        const h = request.headers;
        const m = await world.media(method, d.path, d.path + url.search, {
          range: h.get('range') ?? undefined,
          'if-range': h.get('if-range') ?? undefined,
          'if-none-match': h.get('if-none-match') ?? undefined,
        });
        if (m) return m;
      }
      return noRoute(method, d.path);
    }
    const op = hit.op;
    const body = op.request.body;
    let readBody: () => unknown = () => undefined;
    if (readsWholeBody(op)) {
      // JSON and form bodies are read before the operation runs, as the server's body parser does: an oversized body is answered first
      let bytes: Uint8Array;
      try {
        bytes = new Uint8Array(await request.arrayBuffer());
      } catch (e) {
        // the body's stream failed (the client went away, a stream that errors): the request's fault, not the mock's
        return errorAnswer('MALFORMED_JSON', `request body could not be read (${(e as Error)?.message ?? String(e)})`);
      }
      const limit = bodyLimitOf(op);
      if (bytes.byteLength > limit) return bodyTooLarge(limit);
      readBody = () => parseWholeBody(bytes, request.headers.get('content-type') ?? undefined, op);
    } else if (body?.kind === 'multipart') {
      readBody = async () => {
        const wrongType = notMultipart(request.headers.get('content-type')) ?? encodedMultipart(request.headers.get('content-encoding'));
        if (wrongType) throw wrongType;
        let form: FormData;
        try {
          form = await request.formData();
        } catch (e) {
          throw new ApiError('MALFORMED_MULTIPART', `multipart/form-data body cannot be read: ${(e as Error).message}`);
        }
        const c = multipartCollector(body, op.validationError);
        for (const [name, value] of form) {
          if (typeof value === 'string') c.field(name, value);
          else {
            const sink = c.file(name, value.name, value.type);
            if (!sink) continue;
            sink.data(new Uint8Array(await value.arrayBuffer()));
            sink.end();
          }
        }
        return c.result();
      };
    }
    return world.run(
      hit.operationId,
      {
        authorization: request.headers.get('authorization') ?? undefined,
        prefer: request.headers.get('prefer') ?? undefined,
        params: hit.params,
        // query parameters folded as the server's parser folds them (a repeated name: an array)
        query: formFields(url.searchParams),
        readBody,
        origin: (opts.publicUrl?.replace(/\/+$/, '') ?? url.origin) + world.prefix,
        pageOrigin: d.pageOrigin,
        selfOrigin: d.selfOrigin,
      },
      trace,
    );
  }

  /** Answers `request` as the server would. */
  return async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const method = request.method.toUpperCase();
    const d = new Decision();
    const early = enter(request, FETCH_READER, method, url.pathname, d);
    const engine = d.world!.engine;
    const bug = (where: string, problem: string) => engine.reportBug(where, problem);
    const at = engine.clock.now();
    const trace: Partial<OperationTrace> = {};
    let a: Answer;
    try {
      a = early ?? (await answer(request, method, d, url, trace));
    } catch (e) {
      // a catalogued error answers as itself; anything else is a bug of the mock, answered as one (as the server does)
      if (e instanceof ApiError) a = errorAnswer(e);
      else {
        bug('(fetch transport)', (e as Error)?.stack ?? String(e));
        a = errorAnswer('MOCK_INTERNAL_ERROR', 'mock bug: unexpected error while handling the request');
      }
    }
    // not into a journal cleared (a reset, a state loaded) since the handler ran: it lists only what came after
    if (d.journaled && (trace.generation === undefined || trace.generation === engine.journal.generation))
      journalRequest(
        d.world!,
        at,
        method,
        d.path,
        a.status,
        a.envelopeCode,
        trace.operationId,
        trace.keyId,
        trace.body === undefined ? undefined : trace.bodyTruncated ? { body: trace.body, bodyTruncated: true } : { body: trace.body },
        a,
      );
    return toResponse(a, method, engine, heartbeatMs, (p) => bug(trace.operationId ?? url.pathname, p));
  };
}

/** A fetch handler (see createFetchHandler). */
export type FetchHandler = ReturnType<typeof createFetchHandler>;
