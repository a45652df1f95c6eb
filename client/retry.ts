/**
 * Retries: a fetch that sends a request again when it is answered 429 or 503
 * (and, for GET and HEAD, when the network fails), waiting the answer's
 * Retry-After (else 0.5 s, 1 s, 2 s ... up to 8 s), within a bounded budget
 * (a number of retries and a total wait). POST operations (the creates) are not
 * retried unless the caller opts in: the service has no idempotency keys, so a
 * retried create could create twice. The operation of a request is found from
 * its method and path (client/catalog.generated.ts), so a plain
 * `client.GET(...)` is retried as `client.call(...)` is.
 */
import { operations } from './catalog.generated.ts';
import { retryAfterOf } from './errors.ts';
import type { RetryOptions } from './types.ts';

/** The time the client waits in: the real one by default; tests pass one that moves the mock's virtual clock. */
export interface ClientClock {
  /** Now, epoch ms. */
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason when it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Real time: Date.now and setTimeout. */
export const realClock: ClientClock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason as Error);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal!.reason as Error);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

/** The default budget: 2 retries, 60 s of waiting in all. */
export const DEFAULT_RETRY: Required<RetryOptions> = { maxRetries: 2, maxWaitMs: 60_000, creates: false };
/** The statuses retried. */
const RETRIED_STATUSES = new Set([429, 503]);

const templates = Object.entries(operations).map(([operationId, op]) => ({
  operationId,
  method: op.method.toUpperCase(),
  re: new RegExp(`${op.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}$`),
}));

/** The operationId of a request, from its method and path (the base URL may put a prefix before the path). */
export function operationIdOf(method: string, url: string): string | undefined {
  const path = new URL(url).pathname;
  return templates.find((t) => t.method === method.toUpperCase() && t.re.test(path))?.operationId;
}

/** The budget of one request: the client's, or a call's own (`true`: the client's, creates included). */
export function resolveRetry(client: RetryOptions | boolean | undefined, call: RetryOptions | boolean | undefined): Required<RetryOptions> | undefined {
  const base = client === false ? undefined : { ...DEFAULT_RETRY, ...(typeof client === 'object' ? client : {}) };
  if (call === undefined) return base;
  if (call === false) return undefined;
  if (call === true) return { ...(base ?? DEFAULT_RETRY), creates: true };
  return { ...(base ?? DEFAULT_RETRY), ...call };
}

/**
 * Each attempt's request, held as long as its response is. An attempt is a
 * copy of the caller's request whose signal follows the caller's, and in Node
 * 20 only that copy holds the link. A clone's link is held by nothing, and a
 * garbage collection drops it (nodejs/undici#4068). If the link is lost while
 * the attempt waits or while its body is read, the caller's abort (a time limit,
 * a cancel) never reaches the fetch, and a call to a server that stopped
 * answering waits for ever (test/client-abort-gc.test.ts).
 */
const attemptOf = new WeakMap<Response, Request>();

/** The wait before retry `n` (from 0) when the answer gives no Retry-After, ms. */
const backoff = (n: number) => Math.min(8_000, 500 * 2 ** n);

/**
 * A fetch that retries as described above with `policy` (undefined: never).
 * `onRetry` hears each retry (the answer or the network error, and the wait).
 */
export function retryingFetch(
  base: (input: Request) => Promise<Response>,
  policy: Required<RetryOptions> | undefined,
  clock: ClientClock,
  onRetry?: (info: { operationId: string | undefined; attempt: number; waitMs: number; status?: number; error?: unknown }) => void,
): (input: Request) => Promise<Response> {
  return async (request: Request) => {
    if (!policy || policy.maxRetries <= 0) return base(request);
    const method = request.method.toUpperCase();
    const operationId = operationIdOf(method, request.url);
    const read = method === 'GET' || method === 'HEAD';
    const mayRetryAnswer = method !== 'POST' || policy.creates;
    let waited = 0;
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= policy.maxRetries;
      // the original stays unread, so each attempt sends the same body; the attempt follows the caller's signal
      // through a Request of its own (a clone's link to it is lost in a garbage collection: see attemptOf)
      const sent = last ? request : new Request(request.clone(), { signal: request.signal });
      let response: Response;
      try {
        response = await base(sent);
        attemptOf.set(response, sent);
      } catch (error) {
        if (last || !read || request.signal.aborted) throw error;
        const waitMs = backoff(attempt);
        if (waited + waitMs > policy.maxWaitMs) throw error;
        onRetry?.({ operationId, attempt: attempt + 1, waitMs, error });
        await clock.sleep(waitMs, request.signal);
        waited += waitMs;
        continue;
      }
      if (last || !mayRetryAnswer || !RETRIED_STATUSES.has(response.status)) return response;
      const after = retryAfterOf(response, clock.now());
      const waitMs = after !== undefined ? after * 1000 : backoff(attempt);
      if (waited + waitMs > policy.maxWaitMs) return response;
      await response.body?.cancel();
      onRetry?.({ operationId, attempt: attempt + 1, waitMs, status: response.status });
      await clock.sleep(waitMs, request.signal);
      waited += waitMs;
    }
  };
}
