/**
 * One exchange with the server and what the contract says of every answer
 * (docs/guides/verify.md, "What it checks" 1): a request sent with a time
 * limit covering the headers and the whole body, redirects not followed (a
 * 3xx is the answer checked), the body read up to a cap; then the status
 * declared, the error envelope and its code, the response schema (ajv over
 * the emitted document), the Content-Type, Retry-After on 429 and 503.
 */
import type { ErrorObject } from 'ajv';
import { aborted, Deadline, type Send } from './deadline.ts';
import { describeAjvError, type SpecOperation } from './document.ts';

/** An answer as the verifier keeps it; `status` 0: no answer (`error` says why). */
export interface Answer {
  status: number;
  headers: Headers;
  contentType: string;
  json?: unknown;
  bytes?: Uint8Array;
  requestLine: string;
  /** Why there is no usable answer: a transport error, a time limit, a body over its cap. */
  error?: string;
  /** The answer did not come whole in time (no answer, or a body that stopped). */
  incomplete?: boolean;
  durationMs: number;
}

/** One thing wrong with an answer: the contract rule, what the failures of this root cause share, the detail. */
export interface Problem {
  violation: string;
  cause: string;
  detail: string;
}

export const clip = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}...` : s);

/** The answer of `a` in one line, for evidence. */
export function describeAnswer(a: Answer): string {
  if (a.status === 0) return `no answer: ${a.error}`;
  const body = a.json !== undefined ? clip(JSON.stringify(a.json)) : `(${a.bytes?.length ?? 0} bytes)`;
  return `${a.status} ${a.contentType} ${body}${a.error ? ` [${a.error}]` : ''}`;
}

/** Limits of one exchange. */
export interface ExchangeLimits {
  /** Time for the headers and the whole body, ms. */
  timeoutMs: number;
  /** Largest JSON or text body, bytes. */
  maxBodyBytes: number;
  /** Media: read up to the declared Content-Length plus 64 KiB, at most this many bytes. */
  maxMediaBytes: number;
  /** An abort of the whole run (time up). */
  runSignal?: AbortSignal;
}

const MEDIA_MARGIN = 64 * 1024;

/** Reads `body` up to `cap` bytes; more is cut off (the stream cancelled) and reported by `over`. Rejects with the signal's reason once it aborts. */
async function readCapped(body: ReadableStream<Uint8Array>, cap: number, signal: AbortSignal): Promise<{ bytes: Uint8Array; over: boolean }> {
  const reader = body.getReader();
  const parts: Uint8Array[] = [];
  let n = 0;
  // the signal cancels the read itself, whether or not the fetch passes it on to the body
  const stopped = aborted(signal);
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), stopped]);
      if (done) break;
      n += value.length;
      if (n > cap) return { bytes: concat(parts, n - value.length), over: true };
      parts.push(value);
    }
  } finally {
    void reader.cancel().catch(() => {});
  }
  return { bytes: concat(parts, n), over: false };
}

function concat(parts: Uint8Array[], n: number): Uint8Array {
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const errorText = (e: unknown, timeoutMs: number): string => {
  const err = e as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (err.name === 'TimeoutError') return `no complete answer within ${timeoutMs / 1000} s`;
  if (err.name === 'AbortError') return 'the run was stopped';
  const cause = err.cause?.code ?? err.cause?.message;
  return `${err.message ?? String(e)}${cause ? ` (${cause})` : ''}`;
};

/**
 * Sends `request` and reads its answer within `limits`: never throws; a
 * transport error or a time limit gives status 0 with `error`; a body over its
 * cap keeps the status with `error` set. Event streams: headers only.
 */
export async function exchange(send: Send, request: Request, requestLine: string, limits: ExchangeLimits): Promise<Answer> {
  const deadline = new Deadline(limits.timeoutMs, limits.runSignal);
  try {
    return await exchangeWithin(deadline, send, request, requestLine, limits);
  } finally {
    deadline.end();
  }
}

/** `exchange` under `deadline` (which the caller ends). */
async function exchangeWithin(deadline: Deadline, send: Send, request: Request, requestLine: string, limits: ExchangeLimits): Promise<Answer> {
  const started = performance.now();
  const signal = deadline.signal;
  const none = (error: string): Answer => ({
    status: 0,
    headers: new Headers(),
    contentType: '',
    requestLine,
    error,
    incomplete: true,
    durationMs: Math.round(performance.now() - started),
  });
  let res: Response;
  try {
    res = await deadline.send(send, request);
  } catch (e) {
    return none(errorText(e, limits.timeoutMs));
  }
  const contentType = res.headers.get('content-type') ?? '';
  const a: Answer = { status: res.status, headers: res.headers, contentType, requestLine, durationMs: 0 };
  try {
    if (contentType.startsWith('text/event-stream') || !res.body) await res.body?.cancel();
    else {
      const declared = Number(res.headers.get('content-length'));
      const textual = /json|text|xml|html/.test(contentType) || contentType === '';
      const cap = textual
        ? limits.maxBodyBytes
        : Math.min(limits.maxMediaBytes, Number.isFinite(declared) && declared > 0 ? declared + MEDIA_MARGIN : Infinity);
      const { bytes, over } = await readCapped(res.body, cap, signal);
      if (over) a.error = `the body passed ${cap} bytes (${textual ? 'the cap on answers' : 'its Content-Length plus a margin'}): cut off`;
      if (contentType.includes('json') && !over) {
        try {
          a.json = JSON.parse(new TextDecoder().decode(bytes));
        } catch {
          a.bytes = bytes;
        }
      } else a.bytes = bytes;
    }
  } catch (e) {
    const r = none(`the body stopped: ${errorText(e, limits.timeoutMs)}`);
    return { ...r, status: a.status, headers: a.headers, contentType };
  }
  a.durationMs = Math.round(performance.now() - started);
  return a;
}

/** What the contract says of `a`, an answer of `op`: the problems found (none: it conforms). */
export function answerProblems(op: SpecOperation, a: Answer, validate: (pointer: string, value: unknown) => ErrorObject[]): Problem[] {
  const out: Problem[] = [];
  const add = (violation: string, cause: string, detail: string) => out.push({ violation, cause: `${violation}: ${cause}`, detail });
  if (a.status === 0) {
    add('server answers', a.error ?? 'no answer', a.error ?? 'no answer');
    return out;
  }
  if (a.error) add('answer size', 'body over its cap', a.error);
  if (!op.statuses.includes(a.status)) {
    add('status declared', `HTTP ${a.status}`, `HTTP ${a.status} is not declared (declared: ${op.statuses.join(', ')})`);
    return out;
  }
  if (a.status >= 300 && a.status < 400) return out;
  if (a.status >= 400) {
    const env = a.json as { code?: unknown } | undefined;
    const declared = op.codes.get(a.status) ?? [];
    if (!a.contentType.includes('json') || typeof env?.code !== 'number') {
      const what = !a.contentType.includes('json') ? `Content-Type ${a.contentType || '(none)'}` : `code ${typeof env?.code}`;
      add('error envelope', what, `an error answer must be the JSON envelope {code, message, data} (${what})`);
    } else if (!declared.includes(env.code))
      add(
        'error code declared',
        `code ${env.code} for HTTP ${a.status}`,
        `code ${env.code} is not declared for HTTP ${a.status} (declared: ${declared.join(', ')})`,
      );
    else {
      const ptr = op.schemaPointer(a.status);
      const errors = ptr ? validate(ptr, a.json) : [];
      if (errors.length) add('error envelope', schemaCause(errors[0]), errors.slice(0, 3).map(describeAjvError).join('; '));
    }
    if ((a.status === 429 || a.status === 503) && !/^\d+$/.test(a.headers.get('retry-after') ?? ''))
      add('Retry-After', `HTTP ${a.status}`, `HTTP ${a.status} without a Retry-After of whole seconds`);
    return out;
  }
  const ct = a.contentType.split(';')[0].trim();
  if (!op.successTypes.includes(ct))
    add('content type', ct || '(none)', `Content-Type ${ct || '(none)'} is not declared (declared: ${op.successTypes.join(', ')})`);
  else if (ct === 'application/json') {
    const ptr = op.schemaPointer(a.status);
    const errors = ptr ? validate(ptr, a.json) : [];
    if (errors.length) add('response schema', schemaCause(errors[0]), errors.slice(0, 3).map(describeAjvError).join('; '));
  }
  return out;
}

/** The root cause of a schema error: where (indexes dropped) and which keyword, e.g. `/data/items/code type`. */
function schemaCause(e: ErrorObject): string {
  const where = e.instancePath.replace(/\/\d+(?=\/|$)/g, '/*') || '(root)';
  const what = e.keyword === 'required' ? `required ${(e.params as { missingProperty?: string }).missingProperty}` : e.keyword;
  return `${where} ${what}`;
}
