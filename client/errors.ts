/**
 * Errors as types: every answer whose envelope carries a non-zero code becomes
 * an ApiError named after the catalogue entry of its code (`x-error-catalog`,
 * document 1, "Errors"), with the HTTP status, the message, Retry-After and
 * the operationId of the request. `isApiError(e, 'VIDEO_INSUFFICIENT_CREDITS')`
 * (or the code, 31004) narrows `e.name` and `e.code`; a code the catalogue does
 * not know is still an ApiError (`name: 'ApiError'`, the envelope's `code`).
 */
import type { components } from '../generated/api.d.ts';
import { errorCatalog } from './catalog.generated.ts';

/** The error envelope of the API (document 1, "Common response envelope"). */
export type ErrorEnvelope = components['schemas']['ErrorEnvelope'];
/** A catalogue name (`VIDEO_INSUFFICIENT_CREDITS`). */
export type ErrorName = keyof typeof errorCatalog;
/** A catalogue code (31004). */
export type ErrorCode = (typeof errorCatalog)[ErrorName]['code'];
/** The name of a catalogue code. */
export type NameOfCode<C extends number> = { [N in ErrorName]: (typeof errorCatalog)[N]['code'] extends C ? N : never }[ErrorName];

const nameByCode = new Map<number, ErrorName>();
const nameByReason = new Map<string, ErrorName>();
for (const [name, e] of Object.entries(errorCatalog) as [ErrorName, { code: number; reason?: string }][]) {
  nameByCode.set(e.code, name);
  if (e.reason) nameByReason.set(e.reason, name);
}

/** The catalogue name of a code, a name or a failure reason (`free_relax_busy`); undefined when the catalogue has none. */
export function errorNameOf(ref: number | string): ErrorName | undefined {
  if (typeof ref === 'number') return nameByCode.get(ref);
  if (ref in errorCatalog) return ref as ErrorName;
  return nameByReason.get(ref) ?? (/^\d+$/.test(ref) ? nameByCode.get(Number(ref)) : undefined);
}

/** What an ApiError is made of. */
export interface ApiErrorInit {
  /** The envelope's code (undefined when the answer carried no envelope). */
  code: number | undefined;
  message: string;
  /** The HTTP status of the answer. */
  status: number;
  /** The operation of the request. */
  operationId: string | undefined;
  /** Retry-After of the answer, seconds. */
  retryAfter?: number;
  /** The envelope as answered. */
  envelope?: ErrorEnvelope;
}

/**
 * An answer with a non-zero envelope code (or no envelope at all, `code`
 * undefined). `name` is the catalogue name of the code, or `ApiError` for a code
 * the catalogue does not know.
 */
export class ApiError extends Error {
  declare name: ErrorName | 'ApiError' | 'TaskFailedError';
  readonly code: number | undefined;
  readonly status: number;
  readonly operationId: string | undefined;
  /** Seconds to wait before retrying (the answer's Retry-After), when it gave one. */
  readonly retryAfter: number | undefined;
  readonly envelope: ErrorEnvelope | undefined;

  constructor(init: ApiErrorInit) {
    super(init.message);
    this.name = (init.code !== undefined && nameByCode.get(init.code)) || 'ApiError';
    this.code = init.code;
    this.status = init.status;
    this.operationId = init.operationId;
    this.retryAfter = init.retryAfter;
    this.envelope = init.envelope;
  }
}

/** An ApiError of a catalogued error: `name` and `code` narrowed to that entry. */
export type KnownApiError<N extends ErrorName = ErrorName> = N extends ErrorName ? ApiError & { name: N; code: (typeof errorCatalog)[N]['code'] } : never;

/**
 * A task that ended failed (waitFor). `task` is the task as last read; `name`
 * and `code` are those of its failure's catalogue entry when the task names one
 * (its failCode, errorCode, failReason, or the code its message starts with),
 * else `TaskFailedError` and undefined. `status` is the HTTP status of the read.
 */
export class TaskFailedError<Task = unknown> extends ApiError {
  readonly task: Task;
  constructor(init: ApiErrorInit & { task: Task }) {
    super(init);
    if (this.name === 'ApiError') this.name = 'TaskFailedError';
    this.task = init.task;
  }
}

/** waitFor gave up: the task was not terminal within the timeout. `task` is the task as last read. */
export class WaitTimeoutError<Task = unknown> extends Error {
  override name = 'WaitTimeoutError' as const;
  constructor(
    readonly operationId: string,
    readonly task: Task,
    readonly timeoutMs: number,
  ) {
    super(`${operationId}: the task was not finished after ${timeoutMs} ms`);
  }
}

/** True when `e` is an ApiError (any code). */
export function isApiError(e: unknown): e is ApiError;
/** True when `e` is the ApiError of that catalogue entry, by name (`'VIDEO_INSUFFICIENT_CREDITS'`). */
export function isApiError<N extends ErrorName>(e: unknown, name: N): e is KnownApiError<N>;
/** True when `e` is the ApiError of that catalogue entry, by code (31004). */
export function isApiError<C extends ErrorCode>(e: unknown, code: C): e is KnownApiError<NameOfCode<C>>;
export function isApiError(e: unknown, ref?: string | number): boolean {
  if (!(e instanceof ApiError)) return false;
  if (ref === undefined) return true;
  return typeof ref === 'number' ? e.code === ref : e.name === ref;
}

/** Retry-After in seconds from its header (a number of seconds or an HTTP date); undefined when absent or unreadable. */
export function retryAfterOf(response: Response, now: number): number | undefined {
  const v = response.headers.get('Retry-After');
  if (v === null) return undefined;
  if (/^\d+$/.test(v.trim())) return Number(v.trim());
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/** The ApiError of an answer: its envelope when it has one (any non-zero code), else the HTTP status and the body's first characters. */
export function errorFromAnswer(body: unknown, response: Response, operationId: string | undefined, now: number): ApiError {
  const retryAfter = retryAfterOf(response, now);
  const env = body as Partial<ErrorEnvelope> | undefined;
  if (env && typeof env === 'object' && typeof env.code === 'number' && env.code !== 0)
    return new ApiError({
      code: env.code,
      message: typeof env.message === 'string' ? env.message : `error ${env.code}`,
      status: response.status,
      operationId,
      retryAfter,
      envelope: env as ErrorEnvelope,
    });
  const text = typeof body === 'string' ? body.slice(0, 200) : '';
  return new ApiError({ code: undefined, message: `HTTP ${response.status}${text ? `: ${text}` : ''}`, status: response.status, operationId, retryAfter });
}
