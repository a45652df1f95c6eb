/**
 * What a service handler receives besides its parsed input, the handler types
 * inferred from the registry, and what an area's service declares: its
 * handlers and the media it hosts (docs/architecture.md, "Services").
 */
import type { z } from 'zod';
import type { ErrorName } from '../../schemas/errors.ts';
import type { ApiError } from '../engine/api-error.ts';
import type { ControlOperationId, ControlOperations, ProxyReport, SessionInfo } from '../../schemas/control.ts';
import type { Operations, OperationId } from '../../schemas/operations.ts';
import type { OperationDef, OperationInput, OperationOutput } from '../../schemas/registry-types.ts';
import type { Account, AccountExtension } from '../engine/accounts.ts';
import type { Engine, Slot } from '../engine/engine.ts';
import type { Forcing } from '../engine/scenarios.ts';

/**
 * What a handler of an API operation receives besides its parsed input. `E` is the errors it may raise: a handler's
 * context is `ServiceContext<DeclaredError<K>>` (the errors its operation declares); a helper that raises names the
 * errors it raises (`ServiceContext<'VIDEO_TASK_NOT_FOUND'>`, or generic in them), and one that raises nothing takes
 * `ServiceContext` (E = never), which every handler's context is. A context that may raise more is a context that
 * may raise less (`fail` takes E), so a handler passes its context to a helper only when its operation declares
 * every error the helper raises: checked at compile time (docs/architecture.md, "Errors a handler raises").
 */
export interface ServiceContext<E extends ErrorName = never> {
  engine: Engine;
  /**
   * The caller's account (the key owner), read live at each use: after a
   * reset, an eviction or a deletion while the request waited (a slow body,
   * an asynchronous read of an upload) it is the account as it is now (a
   * deleted key throws UNAUTHORIZED). Read it after an await, not before.
   */
  readonly account: Account;
  /** Virtual now, epoch ms, after due events ran. */
  now: number;
  /** Forced outcome for a created task (`outcome`, and `error` as its failure reason). */
  forcing: Forcing;
  operationId: OperationId;
  /**
   * The absolute URL of `path` (a path the mock serves, `/media/...`), built
   * for this request: from --public-url, else from its X-Forwarded-Proto and
   * X-Forwarded-Host or Host headers. Store paths; build URLs when answering.
   */
  url(path: string): string;
  /** The `message` of the success envelope (default ""): a handler may set it, as the extraction read does with its short success text. */
  message?: string;
  /**
   * True when a browser sent the request from a page of the mock's own origin
   * (its Origin, else its Referer, names the origin the request reached): a
   * form of a page the mock serves, posted by that page.
   */
  fromOwnPage?: boolean;
  /**
   * The catalogued error `error` (one of E: its operation declares it) with `message` naming the field and the
   * rule (default: the catalogue's meaning), to throw: `throw ctx.fail('VIDEO_TASK_NOT_FINISHED', '...')`. The
   * only way a service raises an API error (lint refuses `new ApiError` in mock/services).
   */
  readonly fail: (error: E, message?: string, opts?: { retryAfterSeconds?: number }) => ApiError;
}

/** The errors the API operation `K` declares: its own, as its area writes them (`as const`), and the transport errors every operation of its kind shares. */
export type DeclaredError<K extends OperationId> = Operations[K]['errors'][number];

/** A handler of operation `O`: parsed input in, the envelope's data (or raw body, binary body, event source) out; throws ApiError for catalogued errors. */
export type HandlerOf<O extends OperationDef, C> = (input: OperationInput<O>, ctx: C) => OperationOutput<O> | Promise<OperationOutput<O>>;

/** A handler of the API operation `K`: its context raises only the errors `K` declares. */
export type Handler<K extends OperationId> = HandlerOf<Operations[K], ServiceContext<DeclaredError<K>>>;

/** A set of handlers keyed by operationId. */
export type Handlers<K extends OperationId = OperationId> = { [P in K]: Handler<P> };

/**
 * What only the host of a mock has, for the control operations: a state file
 * on disk (the server's --state), the isolated sessions of a server. A host
 * without one leaves it out, and the operation says so (saveState answers
 * 10008; listSessions answers none).
 */
export interface ControlHost {
  /** Writes the engine's state to the host's state file; returns the file and the bytes written. */
  saveState?: (engine: Engine) => { file: string; bytes: number };
  /** The host's isolated sessions (GET and DELETE /__mock/sessions). */
  sessions?: { list(): z.infer<typeof SessionInfo>[]; drop(name: string): boolean };
  /** The proxy of a mock started with --upstream: its report of the upstream's answers (GET and DELETE /__mock/proxy/report). */
  proxy?: { report(): ProxyReport; clear(): ProxyReport };
}

/** What a control handler receives besides its parsed input; `E`: the errors it may raise, as for ServiceContext. */
export interface ControlContext<E extends ErrorName = never> {
  engine: Engine;
  /** Virtual now, epoch ms, after due events ran. */
  now: number;
  /** The API operations this mock serves, by operationId (scenario rules name them). */
  operations: Readonly<Record<string, OperationDef>>;
  /** True when `forcing` can apply to `op`: the operation declares its code, error or outcome (the request path's rule, mock/core/forcing.ts). */
  forcingApplies: (forcing: Forcing, op: OperationDef) => boolean;
  /** What the host offers (a state file, sessions). */
  host: ControlHost;
  /** The absolute URL of a path the mock serves, for this request. */
  url(path: string): string;
  /** The catalogued error `error` (one its operation declares) with `message`, to throw (see ServiceContext.fail). */
  readonly fail: (error: E, message?: string) => ApiError;
}

/** A handler of the control operation `K`: its context raises only the errors `K` declares. */
export type ControlHandler<K extends ControlOperationId> = HandlerOf<ControlOperations[K], ControlContext<ControlOperations[K]['errors'][number]>>;

/** The handlers of every control operation. */
export type ControlHandlers = { [K in ControlOperationId]: ControlHandler<K> };

/** A file the mock hosts, found by a media route. */
export interface MediaAsset {
  contentType: string;
  /**
   * Names the bytes: two assets with the same key have the same bytes (so it
   * names every input of `render`: kind, size, duration, colours, seed...).
   * Used for the render cache and the ETag.
   */
  key: string;
  /** Renders the bytes; called once per key while the key stays in the cache. */
  render(): Uint8Array | Promise<Uint8Array>;
  /**
   * The API key whose resource the file belongs to, when its area records one.
   * The media router serves every file to anyone (no auth); an endpoint that
   * takes a URL of hosted media (music analysis's audioUrl) refuses another
   * key's file. Absent: public (or an area that does not say).
   */
  owner?: string;
}

/** A hosted file that existed and whose validity has ended: answered 410 (MEDIA_EXPIRED, 10015) with `message`. */
export interface ExpiredMedia {
  expired: string;
}

/**
 * A hosted file the request may not load: answered with the catalogued `error`
 * (its HTTP status, typically 403) and `denied` as the message. For URLs that
 * carry their own authorization, such as a signed URL whose signature does not
 * match or whose expiry has passed.
 */
export interface DeniedMedia {
  denied: string;
  error: ErrorName;
}

/**
 * One kind of hosted file of an area: a path template under /media/ (`{name}`
 * matches within one path segment, e.g. `/media/videos/{taskId}.mp4`) and how
 * to find the asset. `resolve` runs after due events with the path's params
 * and the request's query parameters (the first value of each name), and
 * answers undefined (404) when there is nothing there (yet): an unknown or
 * deleted task, a task that has not succeeded; `{expired}` (410) for a file
 * past its validity; or `{denied, error}` (the error's status) for a request
 * the URL does not authorize (a signed URL's signature or expiry).
 */
export interface MediaRoute {
  path: string;
  resolve(engine: Engine, params: Record<string, string>, query: Record<string, string>): MediaAsset | ExpiredMedia | DeniedMedia | undefined;
}

/**
 * The API key a bearer token other than an API key acts as (see Service.credentials), or undefined when the token is
 * not one of the area's; for one of its tokens that no longer works, throws `fail('UNAUTHORIZED', message)` (the
 * request path's auth step: every operation with a key declares it).
 */
export type CredentialResolver = (
  engine: Engine,
  bearer: string,
  now: number,
  fail: (error: 'UNAUTHORIZED', message: string) => ApiError,
) => string | undefined;

/** A task kit as composition sees it: the area whose task events it runs (mock/services/tasks.ts). */
export interface KitRef {
  readonly config: { readonly area: string };
}

/**
 * What a service adds to a list kept in a slot of every engine it is composed
 * onto (`contribute`): the voice-cloning area's voices to the voice sources the
 * speaking areas read, the OAuth area's users to the control API. The slot is
 * the reading module's; the contributing area imports it, never the other way.
 */
export interface Contribution {
  /** The slot the value goes to. */
  readonly slot: Slot<unknown>;
  /** Adds the value to the slot of `engine` (`prepareEngine` calls it once per engine). */
  apply(engine: Engine): void;
}

/** The contribution of `values` to the list in `slot` (see `Contribution`). */
export function contribute<T>(slot: Slot<T[]>, ...values: T[]): Contribution {
  return { slot, apply: (engine) => void engine.slot(slot).push(...values) };
}

/**
 * One area's service: the handlers of its operations, the media it hosts, the
 * task kits whose events it schedules, what it adds to other modules' slots,
 * its part of every account, and the schemas of the singletons it keeps
 * (`engine.state(name)`). Services are composed onto
 * an engine by `prepareEngine` (mock/services/index.ts); none registers
 * anything at import time.
 */
export interface Service<K extends OperationId> {
  handlers: Handlers<K>;
  /** The task kits of the area (their scheduled events are run by area name). */
  kits?: readonly KitRef[];
  /** What the area adds to lists kept in other modules' slots (see `Contribution`). */
  contributes?: readonly Contribution[];
  /** The area's part of every account (see `AccountExtension`): declared on each engine the service is composed onto. */
  accountExtensions?: readonly AccountExtension<unknown>[];
  media?: readonly MediaRoute[];
  /**
   * The area's stores, by name, with the schema each saved record must pass
   * before a saved state is loaded (`taskRecordSchema`: known fields only,
   * the status one of the area's). A saved store no area declares is refused.
   */
  records?: Record<string, z.ZodType>;
  /** Every singleton the area keeps, by name, with the schema a saved state's value must pass before it is loaded. */
  state?: Record<string, z.ZodType>;
  /**
   * Credentials other than API keys the area issues (OAuth access tokens):
   * the API key a bearer token acts as, or undefined when it is not one of
   * the area's; throws ApiError('UNAUTHORIZED') for one of its tokens that no
   * longer works.
   */
  credentials?: CredentialResolver;
  /**
   * Called when the account of `apiKey` goes: its key deleted (control API),
   * or the account forgotten at the account bound (a reset drops every
   * singleton anyway). The area drops what it keeps for that account outside
   * its stores (OAuth grants and their tokens), so it goes with the account.
   */
  onAccountGone?: (engine: Engine, apiKey: string) => void;
  /**
   * True while the area keeps something of `owner` outside its stores (in a
   * singleton) with an id from the owner's counters: the engine keeps those
   * counters until it says false (see Engine.declareOwnerKeeper). Must not create state.
   */
  keepsOwner?: (engine: Engine, owner: string) => boolean;
}
