/**
 * Test harness: each test builds its own mock instance (no module-level state),
 * listening on an ephemeral port, strict response validation on, manual clock.
 */
import type { AddressInfo } from 'node:net';
import { afterEach, expect, vi } from 'vitest';
import { Agent, request as httpRequest, type Server } from 'node:http';
import { createMockServer, type MockOptions } from '../mock/http/app.ts';
import type { Engine } from '../mock/engine/engine.ts';

export interface CallOptions {
  /** API key; `null` sends no Authorization header. Default: the harness's key. */
  key?: string | null;
  body?: unknown;
  /** Raw body string (sent as is). */
  raw?: string;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  headers: Headers;
  /** Parsed JSON, or undefined when the body was not JSON. */
  json: any;
  text: string;
}

export interface TestMock {
  base: string;
  engine: Engine;
  /** Mock bugs reported by strict validation; tests assert it stays empty. */
  bugs: string[];
  call(method: string, path: string, opts?: CallOptions): Promise<CallResult>;
  /** POST /__mock/clock/advance. */
  advance(ms: number): Promise<void>;
  /** Requests the server is answering right now (counted from their arrival; event streams left out). */
  inFlight(): number;
  close(): Promise<void>;
}

export const KEY = 'mg_test_secret1';
export const OTHER_KEY = 'mg_other_secret2';

/** One keep-alive agent for every request the harness sends (each test's mock listens on its own port). */
const agent = new Agent({ keepAlive: true });

/**
 * Sends one request: the Authorization header of `o.key` (default KEY; null: none), `o.body` as JSON (a FormData as multipart,
 * URLSearchParams as an urlencoded form) or `o.raw` as is, extra `headers`. A redirect is answered, not followed. Returns the
 * status, the headers, the text and the JSON (undefined when not JSON).
 *
 * Over node:http rather than fetch: the suite sends about 40,000 requests through here, and fetch's streams and
 * header objects took about twice node:http's CPU per request, in the same process as the mock answering them.
 * The body is sent with its Content-Length (a FormData is serialized as fetch would send it); no Accept-Encoding
 * is sent, so answers come uncompressed.
 */
export async function sendRequest(
  base: string,
  method: string,
  path: string,
  o: CallOptions,
  extra: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; text: string; json: any }> {
  const headers: Record<string, string> = { ...(o.headers ?? {}), ...extra };
  const key = o.key === undefined ? KEY : o.key;
  if (key !== null) headers.authorization ??= `Bearer ${key}`;
  let body: string | Buffer | undefined = o.raw;
  if (o.body instanceof FormData) {
    // multipart/form-data: the bytes and the boundary fetch would write
    const form = new Response(o.body);
    headers['content-type'] ??= form.headers.get('content-type')!;
    body = Buffer.from(await form.arrayBuffer());
  } else if (o.body instanceof URLSearchParams) {
    body = o.body.toString();
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
  } else if (o.body !== undefined) {
    body = JSON.stringify(o.body);
    headers['content-type'] ??= 'application/json';
  }
  if (body !== undefined && !Object.keys(headers).some((h) => /^(content-length|transfer-encoding)$/i.test(h)))
    headers['content-length'] = String(Buffer.byteLength(body));
  // base + path as fetch read it (a path starting with // stays a path)
  const url = new URL(base + path);
  const { status, rawHeaders, bytes } = await new Promise<{ status: number; rawHeaders: string[]; bytes: Buffer }>((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname + url.search, method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, rawHeaders: res.rawHeaders, bytes: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
  const resHeaders = new Headers();
  for (let i = 0; i < rawHeaders.length; i += 2) resHeaders.append(rawHeaders[i], rawHeaders[i + 1]);
  const text = bytes.toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status, headers: resHeaders, text, json };
}

/** Starts a mock (manual clock, seed 1, strict) on an ephemeral port. */
export async function startMock(opts: MockOptions = {}): Promise<TestMock> {
  const bugs: string[] = [];
  const mock = createMockServer({ clock: 'manual', seed: 1, strict: true, onMockBug: (id, p) => bugs.push(`${id}: ${p}`), ...opts });
  const { app, engine } = mock;
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  // The client (fetch) runs in the server's own process here: a test that holds the event loop for a while (rendering
  // or comparing megabytes) delays both sides' keep-alive timers, and the server could close an idle connection
  // (Node's 5 s) just as the client reuses it (ECONNRESET). Across processes, as users run it, fetch retires a socket
  // before the server's advertised timeout.
  server.keepAliveTimeout = 60_000;
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const call = async (method: string, path: string, o: CallOptions = {}): Promise<CallResult> => {
    const { status, headers, text, json } = await sendRequest(base, method, path, o);
    return { status, headers, json, text };
  };
  return {
    base,
    engine,
    bugs,
    call,
    async advance(ms) {
      const r = await call('POST', '/__mock/clock/advance', { key: null, body: { ms } });
      if (r.status !== 200) throw new Error(`advance failed: ${r.text}`);
    },
    inFlight: () => mock.inFlight(),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * For a test file: returns a starter of mocks (options merged over `defaults`)
 * and registers an afterEach that asserts no strict-mode mock bug was reported
 * and closes every mock started.
 */
export function useMocks(defaults: MockOptions = {}): (opts?: MockOptions) => Promise<TestMock> {
  let mocks: TestMock[] = [];
  afterEach(async () => {
    const started = mocks;
    mocks = [];
    await Promise.all(started.map((m) => m.close()));
    for (const m of started) expect(m.bugs, 'strict-mode mock bugs').toEqual([]);
  });
  return async (opts = {}) => {
    const m = await startMock({ ...defaults, ...opts });
    mocks.push(m);
    return m;
  };
}

/** One Server-Sent Event as received. */
export interface ReceivedEvent {
  event: string;
  id?: string;
  data: any;
}

/**
 * Opens an event stream at `base + path` and collects its events (data parsed
 * as JSON) until the server closes it, `stop(events, comments)` says enough, or
 * `timeoutMs` (real ms, default 60 s, counted from the answer's arrival, so a
 * slow machine cannot abort the request before it is answered) passes. Also returns the
 * comments (heartbeats) seen and whether the server ended the stream.
 */
export async function readEventStream(
  base: string,
  path: string,
  opts: {
    headers?: Record<string, string>;
    stop?: (events: ReceivedEvent[], comments: string[]) => boolean;
    timeoutMs?: number;
    onOpen?: () => void | Promise<void>;
  } = {},
): Promise<{ status: number; contentType: string | null; events: ReceivedEvent[]; comments: string[]; ended: boolean }> {
  const ctrl = new AbortController();
  const res = await fetch(base + path, { headers: opts.headers, signal: ctrl.signal });
  // default: a stream that ends by itself, the limit only catches a hang
  const timer = setTimeout(() => ctrl.abort(), opts.timeoutMs ?? 60_000);
  const events: ReceivedEvent[] = [];
  const comments: string[] = [];
  let ended = false;
  if (res.status === 200 && res.body) {
    await opts.onOpen?.();
    const reader = res.body.getReader();
    const dec = new TextDecoder();
    let buf = '';
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) {
          ended = true;
          break;
        }
        buf += dec.decode(value, { stream: true });
        let cut: number;
        while ((cut = buf.indexOf('\n\n')) >= 0) {
          const frame = buf.slice(0, cut);
          buf = buf.slice(cut + 2);
          const e: Partial<ReceivedEvent> = {};
          for (const line of frame.split('\n')) {
            if (line.startsWith(':')) comments.push(line.slice(1).trim());
            else if (line.startsWith('event: ')) e.event = line.slice(7);
            else if (line.startsWith('id: ')) e.id = line.slice(4);
            else if (line.startsWith('data: ')) e.data = JSON.parse(line.slice(6));
          }
          if (e.event) events.push(e as ReceivedEvent);
        }
        if (opts.stop?.(events, comments)) break;
      }
    } catch (e) {
      if (!ctrl.signal.aborted) throw e;
    } finally {
      clearTimeout(timer);
      ctrl.abort();
    }
  } else {
    clearTimeout(timer);
    await res.text();
  }
  return { status: res.status, contentType: res.headers.get('content-type'), events, comments, ended };
}

/**
 * With setTimeout faked (`vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })`): waits until more than
 * `count` timers are set, that is until a request sent through a socket-free fetch has reached its `Prefer: delay`.
 * Counted in turns of the event loop (setImmediate, not faked), not in wall time; throws after 100,000 turns.
 */
export async function untilTimerSet(count: number): Promise<void> {
  for (let turns = 0; vi.getTimerCount() <= count; turns++) {
    if (turns >= 100_000) throw new Error(`no timer was set after ${turns} turns of the event loop (${vi.getTimerCount()} set)`);
    await new Promise((r) => setImmediate(r));
  }
}
