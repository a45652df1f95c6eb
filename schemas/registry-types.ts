/**
 * The shape of one operation of the registry (docs/architecture.md, "The
 * registry"): everything the spec emitter, the router and the tests need,
 * declared once. Request bodies come in three kinds (JSON, multipart/form-data,
 * an HTML form's application/x-www-form-urlencoded) and responses in five (the
 * envelope, raw JSON, binary, a Server-Sent Events stream, a web page).
 */
import type { z } from './zod.ts';
import type { ErrorName } from './errors.ts';
import type { Provenance } from './provenance.ts';
import type { StateRule } from './rules.ts';

/**
 * Outcomes a scenario or `Prefer: outcome=` can force on a created task: it fails later (refunded), never progresses
 * (timeouts apply), or succeeds with part of its result failed (`partial`: a lyrics task with a failed variant).
 */
export const forcedOutcomes = ['failed', 'stuck', 'partial'] as const;
export type ForcedOutcome = (typeof forcedOutcomes)[number];

/** A per-account sliding-window rate limit on the virtual clock. */
export interface RateLimitRule {
  /** Operations sharing a bucket share the window. */
  bucket: string;
  /** Requests allowed per window. */
  limit: number;
  /** Window length in ms. */
  windowMs: number;
  /** The error answered with HTTP 429 and Retry-After. */
  error: ErrorName;
  /** Where the numbers come from (emitted as the `x-provenance` of `x-rate-limit`); without it, assumed. */
  provenance?: Provenance;
}

/** A JSON request body (`application/json`). */
export interface JsonBody {
  kind: 'json';
  schema: z.ZodType;
  /** Largest accepted body in bytes (default 1 MiB); larger answers 413 (10006). */
  limitBytes?: number;
}

/**
 * An HTML form's body (`application/x-www-form-urlencoded`): text fields as
 * strings (a repeated name as an array of strings), validated by `schema`.
 */
export interface FormBody {
  kind: 'form';
  schema: z.ZodType;
  /** Largest accepted body in bytes (default 1 MiB); larger answers 413 (10006). */
  limitBytes?: number;
}

/**
 * The size limit of one file field of a multipart body. How many files a field
 * takes is its schema's: `uploadedFile()` is one file, `z.array(uploadedFile()).min(a).max(b)` a repeated field.
 */
export interface FileFieldRule {
  /** Largest single file, bytes. */
  maxFileBytes: number;
}

/**
 * A `multipart/form-data` request body. Text fields arrive as strings and are
 * coerced to the schema's booleans and numbers before validation; file fields
 * reach the handler as `UploadedFile` (one, or an array for a repeated field).
 */
export interface MultipartBody {
  kind: 'multipart';
  /** Text fields and file fields (`uploadedFile()` / `z.array(uploadedFile())`). */
  schema: z.ZodObject;
  /** Every file field, by name, with its size limit. */
  files: Record<string, FileFieldRule>;
  /** Largest sum of all file sizes, bytes. */
  maxTotalBytes: number;
  /** Error answered when a size or count limit is exceeded (default PAYLOAD_TOO_LARGE, HTTP 413); the message names the limit. */
  limitError?: ErrorName;
}

/** A file of a multipart body, as the handler receives it. */
export interface UploadedFile {
  /** The file name the client sent (may be empty). */
  filename: string;
  /** The part's Content-Type (application/octet-stream when absent). */
  mimeType: string;
  bytes: Uint8Array;
}

/** The envelope `{code: 0, message, data}` around `schema`. */
export interface EnvelopeResponse {
  status: 200 | 202;
  kind: 'envelope';
  schema: z.ZodType;
  description: string;
}

/** A JSON body without the envelope (`schema` is the whole body). */
export interface RawResponse {
  status: 200 | 202;
  kind: 'raw';
  schema: z.ZodType;
  description: string;
}

/**
 * Bytes of one of `contentTypes`, streamed with chunked transfer encoding. A
 * failure before the first byte answers the JSON error envelope instead.
 */
export interface BinaryResponse {
  status: 200;
  kind: 'binary';
  /** Every Content-Type the operation may answer with. */
  contentTypes: readonly string[];
  description: string;
}

/**
 * A `text/event-stream` (Server-Sent Events): `event:` and `data:` frames, the
 * data JSON of the event's schema, heartbeat comments, closed when the source
 * is done. It follows the virtual clock.
 */
export interface EventStreamResponse {
  status: 200;
  kind: 'event-stream';
  /** Every event name the stream sends, with the schema of its data. */
  events: Record<string, z.ZodType>;
  description: string;
}

/**
 * A web page for a browser (`text/html; charset=utf-8`, never cached), or a
 * redirect: `status` is the success answer (200 with a page, or 302/303 to
 * the `Location` the handler gives); `pages` lists every other status the
 * operation answers with a page of its own (an error page, a form shown again
 * with its problem), with what each means. Errors the runner finds before the
 * handler (a malformed body, a wrong Content-Type) are the JSON envelope.
 */
export interface PageResponse {
  status: 200 | 302 | 303;
  kind: 'page';
  description: string;
  pages?: Readonly<Partial<Record<400 | 403 | 404 | 409 | 410, string>>>;
}

export type ResponseDef = EnvelopeResponse | RawResponse | BinaryResponse | EventStreamResponse | PageResponse;

/**
 * A hosted media file a successful task carries (read by mediagen-verify): the field holding its URL (`images[].url`
 * walks an array), the Content-Types it may load with, and where declared the field of its duration (seconds) and
 * of its pixel size (a resolution name and the short side it means, in pixels).
 */
export interface LifecycleMedia {
  urlField: string;
  contentTypes: readonly string[];
  /** Field of the task holding the duration in seconds; the decoded file must last that long (within 0.5 s). */
  durationField?: string;
  /** Field of the task holding a resolution name; the decoded picture's short side must be `shortSides[resolution]` pixels. */
  resolutionField?: string;
  shortSides?: Record<string, number>;
}

/**
 * The states of an asynchronous task as data (emitted as `x-lifecycle` on its create operation, read by
 * mediagen-verify): the status field of the task, every state, the moves allowed from each (staying put is always
 * allowed), the terminal states and the successful one, the read operation to poll and how often, the field of the
 * create answer naming the task, a valid create body, and what a success must carry.
 */
export interface LifecycleDef {
  statusField: string;
  states: readonly string[];
  transitions: Record<string, readonly string[]>;
  terminal: readonly string[];
  success: string;
  pollOperationId: string;
  /** Field of the create answer's data naming the task, passed as the poll operation's only path parameter. */
  idField: string;
  /** Wait before the first poll and between polls, ms (the documented or assumed polling advice). */
  firstPollMs: number;
  intervalMs: number;
  /** Give up (a violation) when no terminal status is reached after this long, ms. */
  timeoutMs: number;
  /** Where the timings come from (emitted as the `x-provenance` of `x-lifecycle`); without it, assumed. */
  provenance?: Provenance;
  /**
   * Where `timeoutMs` comes from when not from `provenance` (a document's polling advice without a longest wait):
   * emitted as the `x-timeout-provenance` of `x-lifecycle`.
   */
  timeoutProvenance?: Provenance;
  /** A valid create body (the verifier's request example). */
  example: Record<string, unknown>;
  /** Fields a successful task must carry (non-null). */
  successRequires: readonly string[];
  media?: readonly LifecycleMedia[];
  /** Field of the task holding the credits it finally cost (the balance must move by it). */
  chargedField?: string;
  /**
   * The estimate of the example body: its operation, its body, the field holding the cost, and how many of that
   * field's units make a credit (default 1; the video estimate's `tokens` are credits x 1000).
   */
  estimate?: { operationId: string; body: Record<string, unknown>; creditsField: string; unitsPerCredit?: number };
  /**
   * A later stage of a task another operation creates (the podcast's audio after its script, a page deck's video, a
   * clone's confirmation): that operation's lifecycle runs first to its success, then this one is sent for the same
   * task, its id in the path parameter (the poll's, named as `idField`) or, with `bodyField`, in that body field. The
   * answer may leave the id out; the task polled is the earlier stage's.
   */
  continues?: { operationId: string; bodyField?: string };
  /**
   * A multipart create: `example` holds its text fields, and each field named here is sent as one WAV file of a
   * steady tone lasting `seconds` (the verifier's reference recording).
   */
  exampleFiles?: Record<string, { filename: string; seconds: number }>;
}

/** One operation of the API. */
export interface OperationDef {
  operationId: string;
  method: 'get' | 'post' | 'put' | 'delete';
  /** OpenAPI path template, e.g. `/v1/video-generation/tasks/{taskId}`. */
  path: string;
  tags: string[];
  summary: string;
  description: string;
  provenance: Provenance;
  /** Bearer API key required. */
  auth: boolean;
  /**
   * A control operation of the mock, not the service's (schemas/control.ts):
   * the control guard (the page's origin, and the control token when the mock
   * has one) in place of an API key; never forced, never journaled. 'open':
   * it needs no control token (health).
   */
  control?: 'guarded' | 'open';
  request: {
    params?: z.ZodObject;
    query?: z.ZodObject;
    body?: JsonBody | MultipartBody | FormBody;
    /** The body may be left out (an empty body is then validated as `{}`). */
    bodyOptional?: boolean;
    /**
     * The handler validates the body itself against the declared schema, with
     * checks of its own first (a saved state: its version before anything else,
     * and what was not loaded); the runner hands it the parsed JSON as is.
     */
    bodyCheckedByHandler?: boolean;
  };
  response: ResponseDef;
  /** Every catalogued error this operation can answer with. */
  errors: readonly ErrorName[];
  /** Error for request validation failures that name no error of their own. */
  validationError: ErrorName;
  /** Top-level fields whose schema failures answer with another error than `validationError`. */
  fieldErrors?: Partial<Record<string, ErrorName>>;
  rateLimit?: RateLimitRule;
  /** Request rules no schema can carry: they read the account, the catalogue, earlier state or concurrency (emitted as `x-rules`). */
  stateRules?: readonly StateRule[];
  /** The operation takes credits from the caller's balance (a hold at creation, captured or refunded later, or charged at once). */
  charges?: boolean;
  /** Outcomes a created task can be forced to (`Prefer: outcome=`): failed (refunded), stuck (never progresses; timeouts apply), partial (succeeds with part of its result failed). */
  outcomes?: readonly ForcedOutcome[];
  /** Failure reasons a created task can end with (`Prefer: outcome=failed, error=`); the first is the default. */
  failureReasons?: readonly ErrorName[];
  /** The lifecycle of the task this operation creates (`x-lifecycle`). */
  lifecycle?: LifecycleDef;
}

/** A binary answer of a handler: its Content-Type (one the operation declares) and the bytes, whole or as chunks. */
export interface BinaryBody {
  contentType: string;
  body: Uint8Array | AsyncIterable<Uint8Array>;
}

/**
 * What a handler of a page operation returns: a page (`status` one the
 * operation declares: its success 200 or one of its `pages`; default 200),
 * or a redirect to `location` (answered with the operation's 302/303).
 */
export type PageBody = { html: string; status?: number } | { location: string };

/** One Server-Sent Event: its name and its data (serialized as JSON). */
export interface StreamEvent<N extends string = string, D = unknown> {
  event: N;
  data: D;
}

/**
 * What a handler of an event-stream operation returns: a source the HTTP
 * adapter polls at virtual time `now` (after due events ran) for the events
 * not sent yet. `done`: the stream ends after these events. `nextAt`: the
 * virtual time (epoch ms) at which new events will be ready without any other
 * change of state, when the source knows it (the adapter wakes then in real
 * clock mode; it also wakes whenever the engine's state changes).
 */
export interface EventStreamSource<E extends StreamEvent = StreamEvent> {
  poll(now: number): { events: E[]; done: boolean; nextAt?: number };
  /**
   * The task whose changes the stream follows (its id, as the activity feed
   * names it): the stream is then polled when that task changes or the clock
   * jumps, not on every change of the engine. Without it, on every change.
   */
  topic?: string;
  /** Called once when the client goes away or the stream ends. */
  close?(): void;
}

type BodyOf<B> = B extends { schema: infer S extends z.ZodType } ? z.output<S> : undefined;

/** The request an operation's handler receives, parsed by its schemas. */
export type OperationInput<O extends OperationDef> = {
  params: O['request']['params'] extends z.ZodType ? z.output<O['request']['params']> : Record<string, never>;
  query: O['request']['query'] extends z.ZodType ? z.output<O['request']['query']> : Record<string, never>;
  body: BodyOf<O['request']['body']>;
};

type EventsOf<E extends Record<string, z.ZodType>> = { [K in keyof E & string]: StreamEvent<K, z.input<E[K]>> }[keyof E & string];

/** What an operation's handler returns: the envelope's data, the raw body, a binary body, an event source or a page. */
export type OperationOutput<O extends OperationDef> = O['response'] extends { kind: 'binary' }
  ? BinaryBody
  : O['response'] extends { kind: 'page' }
    ? PageBody
    : O['response'] extends { kind: 'event-stream'; events: infer E extends Record<string, z.ZodType> }
      ? EventStreamSource<EventsOf<E>>
      : O['response'] extends { schema: infer S extends z.ZodType }
        ? z.input<S>
        : never;
