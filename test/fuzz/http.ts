/**
 * A raw HTTP client for the fuzzer (node:http, not fetch): it sends any path
 * (malformed percent-encoding included), any header Node allows, bodies on
 * GET and DELETE, and exact bytes. Binary answers are read up to a cap;
 * event streams are read for a short while and their frames parsed.
 */
import http from 'node:http';
import type { WireRequest } from './model.ts';

/** One Server-Sent Event as read. */
export interface StreamFrame {
  event?: string;
  id?: string;
  data?: string;
}

/** An answer as received. */
export interface WireResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The body was cut short by the reader (binary or event stream). */
  truncated: boolean;
  /** Frames of a text/event-stream answer. */
  frames?: StreamFrame[];
  /** Real ms from sending to the end of reading. */
  ms: number;
  /** Sent a second time: the first attempt, on a reused keep-alive connection, was reset before any answer. */
  retried?: boolean;
}

/** No answer: a connection error or a timeout. */
export interface NoAnswer {
  error: string;
  ms: number;
}

export interface SendOptions {
  /** Give up after this many real ms. */
  timeoutMs: number;
  /** Read at most this many bytes of a non-JSON answer. */
  maxBinaryBytes: number;
  /** Read an event stream for this many real ms. */
  streamMs: number;
}

/** A keep-alive agent for one run. */
export function makeAgent(): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets: 8 });
}

/** Parses the complete frames of an event-stream text. */
export function parseFrames(text: string): StreamFrame[] {
  const frames: StreamFrame[] = [];
  for (const block of text.split('\n\n').slice(0, -1)) {
    const f: StreamFrame = {};
    let any = false;
    for (const line of block.split('\n')) {
      if (line.startsWith(':') || line === '') continue;
      const cut = line.indexOf(':');
      const field = cut < 0 ? line : line.slice(0, cut);
      const value = cut < 0 ? '' : line.slice(cut + 1).replace(/^ /, '');
      if (field === 'event' || field === 'id') f[field] = value;
      else if (field === 'data') f.data = f.data === undefined ? value : `${f.data}\n${value}`;
      else continue;
      any = true;
    }
    if (any) frames.push(f);
  }
  return frames;
}

/**
 * Sends `w` to `base` and reads the answer. A request reset before any answer on a reused keep-alive connection
 * is sent once more on a new one (the server may close an idle connection, after its keepAliveTimeout, just as
 * the client reuses it: Node's documented race, `request.reusedSocket`); a reset on a new connection is reported.
 */
export async function send(base: URL, w: WireRequest, agent: http.Agent, opts: SendOptions): Promise<WireResponse | NoAnswer> {
  const first = await sendOnce(base, w, agent, opts);
  if (!('reusedReset' in first)) return first;
  const again = await sendOnce(base, w, agent, opts);
  if ('reusedReset' in again) return { error: again.error, ms: again.ms };
  return 'error' in again ? again : { ...again, retried: true };
}

/** One attempt of `send`; `reusedReset` when a reused connection was reset before any answer. */
function sendOnce(base: URL, w: WireRequest, agent: http.Agent, opts: SendOptions): Promise<WireResponse | NoAnswer | (NoAnswer & { reusedReset: true })> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    let answered = false;
    const clock: { timer?: NodeJS.Timeout } = {};
    const done = (v: WireResponse | NoAnswer | (NoAnswer & { reusedReset: true })) => {
      if (settled) return;
      settled = true;
      clearTimeout(clock.timer);
      resolve(v);
    };
    const headers: Record<string, string> = { ...w.headers };
    if (w.body !== undefined) headers['content-length'] = String(w.body.length);
    let req: http.ClientRequest;
    try {
      req = http.request({ host: base.hostname, port: base.port, method: w.method, path: w.path, headers, agent });
    } catch (e) {
      return done({ error: `the client refused the request: ${(e as Error).message}`, ms: 0 });
    }
    clock.timer = setTimeout(() => {
      req.destroy(new Error('timeout'));
      done({ error: `no complete answer within ${opts.timeoutMs} ms`, ms: performance.now() - t0 });
    }, opts.timeoutMs);
    req.on('response', (res) => {
      answered = true;
      const type = String(res.headers['content-type'] ?? '');
      const stream = type.startsWith('text/event-stream');
      const json = type.startsWith('application/json');
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      const finish = () =>
        done({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks),
          truncated,
          ...(stream ? { frames: parseFrames(Buffer.concat(chunks).toString('utf8')) } : {}),
          ms: performance.now() - t0,
        });
      if (stream) {
        setTimeout(() => {
          truncated = true;
          finish();
          res.destroy();
        }, opts.streamMs);
      }
      res.on('data', (c: Buffer) => {
        chunks.push(c);
        size += c.length;
        if (!json && !stream && size >= opts.maxBinaryBytes) {
          truncated = true;
          finish();
          res.destroy();
        }
      });
      res.on('end', finish);
      res.on('error', () => {
        truncated = true;
        finish();
      });
      res.on('close', () => {
        if (!settled && !res.complete) {
          truncated = true;
          finish();
        }
      });
    });
    req.on('error', (e) => {
      // an error after the answer started (the server closed the connection while we still sent a large body) is not a failure
      if (answered) return;
      const code = (e as NodeJS.ErrnoException).code;
      const error = `connection error: ${e.message}`;
      if (req.reusedSocket && (code === 'ECONNRESET' || code === 'EPIPE')) done({ error, ms: performance.now() - t0, reusedReset: true });
      else done({ error, ms: performance.now() - t0 });
    });
    if (w.body !== undefined && w.body.length > 0) req.end(w.body);
    else req.end();
  });
}
