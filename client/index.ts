/**
 * The typed client (`mediagen-contract/client`, and `mediagen-contract-types`):
 * openapi-fetch with the types generated from the spec, so paths, request
 * bodies, parameters, responses and errors are checked at compile time, and
 * helpers generated from the same document (client/catalog.generated.ts):
 *
 *   const client = createClient({ baseUrl: 'http://localhost:4010', apiKey: process.env.MEDIAGEN_API_KEY });
 *   const created = await client.call('createVideoTask', { body: { model: 'family1-video-2-fast', content: [...] } });
 *   const task = await client.waitFor(created);                       // polls getVideoTask as x-lifecycle declares
 *   for await (const t of client.list('listVideoTasks', { status: 'success' })) console.log(t.id);
 *   try { ... } catch (e) { if (isApiError(e, 'VIDEO_INSUFFICIENT_CREDITS')) ... }
 *
 * Answers 429 and 503 are retried after their Retry-After (reads also on a
 * network error; POSTs only when asked). Standard JavaScript only: it runs in
 * browsers; `mediagen-contract/client/node` adds `fileFromPath`
 * (decisions/0027-client-helpers.md).
 */
import createFetchClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from '../generated/api.d.ts';
import { lifecycles, operations } from './catalog.generated.ts';
import { errorFromAnswer } from './errors.ts';
import { iteratePages } from './pages.ts';
import { realClock, resolveRetry, retryingFetch, type ClientClock } from './retry.ts';
import type {
  DataOf,
  EnvelopeOperationId,
  InitArgs,
  ItemOf,
  LifecycleOperationId,
  ListOperationId,
  ListQuery,
  OperationId,
  RetryOptions,
  SucceededTask,
  TaskOf,
} from './types.ts';
import { toFormData } from './upload.ts';
import { waitForTask, type PollRead, type WaitOptions } from './wait.ts';

export type { components, operations, paths } from '../generated/api.d.ts';
export { errorCatalog, lifecycles, operations as operationTable } from './catalog.generated.ts';
export * from './errors.ts';
export type * from './types.ts';
export { realClock, type ClientClock } from './retry.ts';
export { toFormData } from './upload.ts';
export type { WaitOptions } from './wait.ts';

/** Marks the answer of a create, so `waitFor(answer)` knows its operation. */
export const createdBy: unique symbol = Symbol('mediagen.createdBy');
/**
 * The id of the task a later stage's answer is for, when the answer leaves it out (a page deck's video answers
 * `{ success: true }`): taken from its request (lifecycles' `idIn`), kept on the answer, not enumerable, for waitFor.
 */
const createdFor: unique symbol = Symbol('mediagen.createdFor');

/** The task id the request `init` of a later stage names where `idIn` says (a path parameter or a body field). */
function requestedId(idIn: { path: string } | { body: string }, init: Record<string, unknown> | undefined): unknown {
  if ('path' in idIn) return (init?.params as { path?: Record<string, unknown> } | undefined)?.path?.[idIn.path];
  const body = init?.body;
  if (body instanceof FormData) return body.get(idIn.body);
  return body && typeof body === 'object' ? (body as Record<string, unknown>)[idIn.body] : undefined;
}
/** The answer of a create with `x-lifecycle`, as `client.call` resolves it (the operation is kept, not enumerable, for waitFor). */
export type Created<Op extends LifecycleOperationId> = Op extends LifecycleOperationId ? DataOf<Op> & { readonly [createdBy]: Op } : never;
/** What `client.call(op)` resolves with: the envelope's `data` (marked with its operation when it is a create to wait for). */
export type CallResult<Op extends OperationId> = Op extends LifecycleOperationId ? Created<Op> : DataOf<Op>;

/** Options of createClient: openapi-fetch's, plus `apiKey`, `retry` and `clock`. */
export interface MediagenClientOptions extends ClientOptions {
  /** An API key or an OAuth access token, sent on every request as `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
  /** Retries of answers 429 and 503 (and of reads on a network error): the budget, or `false` for none (default 2 retries, 60 s of waiting). */
  retry?: RetryOptions | false;
  /** The time waits and timeouts are measured in (default real time); a test passes one that moves the mock's virtual clock. */
  clock?: ClientClock;
  /** Hears each retry: the operation, the attempt (from 1), the wait (ms) and the status or network error that caused it. */
  onRetry?: (info: { operationId: string | undefined; attempt: number; waitMs: number; status?: number; error?: unknown }) => void;
}

/** The helpers generated from the document, beside openapi-fetch's methods. */
export interface MediagenHelpers {
  /**
   * Sends operation `op` and resolves with the `data` of its success envelope;
   * rejects with an ApiError (see isApiError) on any non-zero envelope or error
   * answer. A multipart operation's body takes files (File, Blob, bytes).
   * An operation that answers something else than the envelope (audio, a page,
   * a stream, raw JSON) is openapi-fetch's: a TypeError says so.
   */
  call<Op extends EnvelopeOperationId>(op: Op, ...init: InitArgs<Op>): Promise<CallResult<Op>>;
  /** Every item of a list operation, page after page (`for await (const task of client.list('listVideoTasks', query))`). */
  list<Op extends ListOperationId>(
    op: Op,
    query?: ListQuery<Op>,
    init?: { signal?: AbortSignal; retry?: RetryOptions | boolean },
  ): AsyncGenerator<ItemOf<Op>, void, undefined>;
  /** Waits for the task of a create answer (see wait.ts): resolves with the task once it succeeded. */
  waitFor<C extends Created<LifecycleOperationId>>(created: C, options?: WaitOptions<TaskOf<C[typeof createdBy]>>): Promise<SucceededTask<C[typeof createdBy]>>;
  /** Waits for the task `id` (or the create answer) of the create `op`. */
  waitFor<Op extends LifecycleOperationId>(op: Op, id: string | DataOf<Op>, options?: WaitOptions<TaskOf<Op>>): Promise<SucceededTask<Op>>;
}

/** A typed client of the Media Generation Service (or the mock: baseUrl http://localhost:4010 by default). */
export type MediagenClient = Client<paths> & MediagenHelpers;

/** Creates a typed client; `baseUrl` defaults to the mock's http://localhost:4010. */
export function createClient({
  apiKey,
  headers,
  baseUrl = 'http://localhost:4010',
  retry: clientRetry,
  clock = realClock,
  onRetry,
  fetch: baseFetch = (input: Request) => globalThis.fetch(input),
  ...rest
}: MediagenClientOptions = {}): MediagenClient {
  const withRetry = (call?: RetryOptions | boolean) => retryingFetch(baseFetch, resolveRetry(clientRetry, call), clock, onRetry);
  const client = createFetchClient<paths>({
    baseUrl,
    ...rest,
    fetch: withRetry(),
    headers: { ...(apiKey ? { Authorization: `Bearer ${apiKey}` } : {}), ...(headers as Record<string, string> | undefined) },
  });

  /** Sends an operation by id; the envelope's data and the HTTP status, or an ApiError. */
  async function send(op: string, init: Record<string, unknown> = {}): Promise<{ data: unknown; status: number }> {
    const spec = operations[op as OperationId] as { method: string; path: string; files?: object; raw?: boolean } | undefined;
    if (!spec) throw new TypeError(`unknown operation ${op}`);
    if (spec.raw) throw new TypeError(`${op} does not answer the JSON envelope: use client.${spec.method.toUpperCase()}('${spec.path}', { parseAs: 'blob' })`);
    const { retry, body, ...others } = init as { retry?: RetryOptions | boolean; body?: unknown };
    const form = spec.files && body !== undefined && !(body instanceof FormData) ? toFormData(op as never, body as never) : body;
    const { data, error, response } = (await client.request(
      spec.method as 'get',
      spec.path as never,
      {
        ...others,
        ...(form !== undefined ? { body: form } : {}),
        fetch: retry === undefined ? withRetry() : withRetry(retry),
      } as never,
    )) as { data?: unknown; error?: unknown; response: Response };
    const envelope = data as { code?: unknown; data?: unknown } | undefined;
    if (error !== undefined || !response.ok || (envelope && typeof envelope === 'object' && envelope.code !== 0))
      throw errorFromAnswer(error ?? data, response, op, clock.now());
    return { data: envelope && typeof envelope === 'object' && 'data' in envelope ? envelope.data : data, status: response.status };
  }

  const helpers: MediagenHelpers = {
    async call(op, ...init) {
      const request = init[0] as Record<string, unknown> | undefined;
      const { data } = await send(op, request);
      if (op in lifecycles && data && typeof data === 'object') {
        Object.defineProperty(data, createdBy, { value: op, enumerable: false });
        const lc = lifecycles[op as LifecycleOperationId];
        if ('idIn' in lc && typeof (data as Record<string, unknown>)[lc.idField] !== 'string') {
          const id = requestedId(lc.idIn, request);
          if (typeof id === 'string') Object.defineProperty(data, createdFor, { value: id, enumerable: false });
        }
      }
      return data as never;
    },
    list(op, query, init) {
      return iteratePages(
        async (q) => (await send(op, { ...init, params: { query: q } })).data as { items: unknown[]; page: number; pageSize: number; total: number },
        query as Record<string, unknown> | undefined,
      );
    },
    waitFor(...args: unknown[]): Promise<never> {
      const read: PollRead = (operationId, init) => send(operationId, init);
      let op: LifecycleOperationId;
      let target: unknown;
      let options: WaitOptions<never> | undefined;
      if (typeof args[0] === 'string' && args[0] in lifecycles) [op, target, options] = args as [LifecycleOperationId, unknown, WaitOptions<never>];
      else {
        [target, options] = args as [unknown, WaitOptions<never>];
        const by = (target as Record<symbol, unknown> | null)?.[createdBy];
        if (typeof by !== 'string') throw new TypeError('waitFor: pass the answer of client.call(<a create with x-lifecycle>), or (operationId, id)');
        op = by as LifecycleOperationId;
      }
      const idField = lifecycles[op].idField;
      const answer = target as Record<string | symbol, unknown> | null;
      // the answer's id field, or (a later stage whose answer leaves it out) the id its request named
      const id = typeof target === 'string' ? target : (answer?.[idField] ?? answer?.[createdFor]);
      if (typeof id !== 'string') throw new TypeError(`waitFor(${op}): the create answer has no ${idField}`);
      return waitForTask(read, clock, op, id, typeof target !== 'string', options as never) as Promise<never>;
    },
  };
  return Object.assign(client, helpers);
}
