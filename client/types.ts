/**
 * The client's types, derived from the generated API types (generated/api.d.ts)
 * and the generated data module (client/catalog.generated.ts): an operation's
 * init (parameters and body, as openapi-fetch takes them), the `data` of its
 * success envelope, the items of a page, the task a lifecycle polls.
 */
import type { FetchOptions } from 'openapi-fetch';
import type { operations as OperationTypes } from '../generated/api.d.ts';
import type { lifecycles, operations } from './catalog.generated.ts';

/** Every operationId of the API. */
export type OperationId = keyof typeof operations & keyof OperationTypes;
/** The operations that answer the JSON envelope (client.call takes these; the others answer audio, a page, a stream or raw JSON). */
export type EnvelopeOperationId = { [K in OperationId]: (typeof operations)[K] extends { raw: true } ? never : K }[OperationId];
/** The operations that answer a page (`{items, page, pageSize, total}`). */
export type ListOperationId = { [K in OperationId]: (typeof operations)[K] extends { list: true } ? K : never }[OperationId];
/** The creates with `x-lifecycle`: their task can be waited for. */
export type LifecycleOperationId = keyof typeof lifecycles & OperationId;
/** The operations whose body is multipart/form-data. */
export type UploadOperationId = { [K in OperationId]: (typeof operations)[K] extends { files: object } ? K : never }[OperationId];

type SuccessStatus = 200 | 201 | 202;
type Responses<Op extends OperationId> = OperationTypes[Op]['responses'];
/** The `data` of an operation's success envelope (`unknown` for an answer that is not JSON). */
export type DataOf<Op extends OperationId> = Op extends OperationId
  ? {
      [S in keyof Responses<Op>]: S extends SuccessStatus
        ? Responses<Op>[S] extends { content: { 'application/json': { data: infer D } } }
          ? D
          : never
        : never;
    }[keyof Responses<Op>]
  : never;

/** A file for a multipart field: a File or Blob (browsers, Node), bytes (Uint8Array, Buffer, ArrayBuffer). */
export type FileInput = Blob | ArrayBuffer | ArrayBufferView;
type FileFields<Op extends OperationId> = (typeof operations)[Op] extends { files: infer F } ? F : Record<never, never>;
type MultipartBody<Op extends OperationId> = OperationTypes[Op] extends { requestBody?: { content: { 'multipart/form-data': infer B } } } ? B : never;
/** The fields of a multipart operation, with its file fields taking files (one, or an array where the document repeats the field). */
export type UploadBody<Op extends OperationId> = {
  [K in keyof MultipartBody<Op>]: K extends keyof FileFields<Op> ? (FileFields<Op>[K] extends 'many' ? FileInput[] : FileInput) : MultipartBody<Op>[K];
};

/** Retrying an answer 429 or 503 (and, for GET and HEAD, a network error): on, off, or the number of retries. */
export interface RetryOptions {
  /** Most retries of one request (default 2). */
  maxRetries?: number;
  /** Most time waited between the attempts of one request, all waits together, ms (default 60,000): a Retry-After beyond it is not waited for. */
  maxWaitMs?: number;
  /** Also retry POST operations (the creates; off by default: a retried create may create twice). */
  creates?: boolean;
}

/** What a call takes besides its parameters and body. */
export interface CallOptions {
  /** This call's retries (the client's by default); `false` for none; `true` to retry even a create. */
  retry?: RetryOptions | boolean;
}

type OpenapiInit<Op extends OperationId> = FetchOptions<OperationTypes[Op]>;
/** The init of `client.call(op, init)`: openapi-fetch's (`params`, `body`, `headers`, `signal`...), multipart bodies as files, and `retry`. */
export type CallInit<Op extends OperationId> = (Op extends UploadOperationId ? Omit<OpenapiInit<Op>, 'body'> & { body: UploadBody<Op> } : OpenapiInit<Op>) &
  CallOptions;

type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
/** `[init]` when the operation needs parameters or a body, else `[init?]`. */
export type InitArgs<Op extends OperationId> = RequiredKeys<CallInit<Op>> extends never ? [init?: CallInit<Op>] : [init: CallInit<Op>];

/** The query of a list operation. */
export type ListQuery<Op extends ListOperationId> = OperationTypes[Op]['parameters'] extends { query?: infer Q } ? NonNullable<Q> : never;
/** One item of a list operation's pages. */
export type ItemOf<Op extends ListOperationId> = DataOf<Op> extends { items: (infer I)[] } ? I : never;

type Lifecycle<Op extends LifecycleOperationId> = (typeof lifecycles)[Op];
/** The operation a lifecycle polls. */
export type PollOf<Op extends LifecycleOperationId> = Lifecycle<Op>['poll'] & OperationId;
/** The task of a lifecycle, as its read answers it. */
export type TaskOf<Op extends LifecycleOperationId> = DataOf<PollOf<Op>>;
/** The task of a lifecycle once it succeeded: its status field narrowed to the success state. */
export type SucceededTask<Op extends LifecycleOperationId> = TaskOf<Op> & { [F in Lifecycle<Op>['statusField']]: Lifecycle<Op>['success'] };
