/**
 * The control API as a typed client (docs/architecture.md, "The control
 * API"): one async function per control operation, named by its operationId
 * (`advanceClock`, `putAccount`, `addScenario`, `getState`, ...), over any
 * fetch: a mock server's URL, the in-process mock's socket-free fetch, or the
 * MSW handlers. Inputs and results are typed from the control registry
 * (schemas/control.ts). A refused request throws a `ControlError` with the
 * envelope's code.
 *
 *   const control = createControlClient({ baseUrl: 'http://localhost:4010' });
 *   await control.advanceClock({ body: { ms: 60_000 } });
 *   const account = await control.getAccount({ params: { apiKey: 'mg_demo_secret1' } });
 */
import type { z } from 'zod';
import {
  controlOperations,
  MAX_VIRTUAL_TIME,
  type AccountUpdate,
  type ControlOperationId,
  type ControlOperations,
  type JournalEntry,
} from '../../schemas/control.ts';
import type { AccountRecord } from '../engine/accounts.ts';
import type { Engine, MockBug } from '../engine/engine.ts';
import type { OperationDef } from '../../schemas/registry-types.ts';

type Schema<T> = T extends z.ZodType ? T : never;
type Req<O> = O extends { request: { params: infer P; query: infer Q; body: infer B } }
  ? (P extends z.ZodType ? { params: z.input<Schema<P>> } : unknown) &
      (Q extends z.ZodType ? { query?: Partial<Record<keyof z.input<Schema<Q>>, string | number | boolean>> } : unknown) &
      (B extends { kind: 'json'; schema: infer S } ? { body: z.input<Schema<S>> } : B extends { kind: 'multipart' } ? { body: FormData } : unknown)
  : never;
type Res<O> = O extends { response: { kind: 'raw'; schema: infer S } }
  ? z.output<Schema<S>>
  : O extends { response: { kind: 'binary' } }
    ? Uint8Array
    : Response;

/** What the control operation `K` takes: its path parameters, query and body, as typed by the control registry. */
export type ControlRequest<K extends ControlOperationId> = Req<ControlOperations[K]>;
/** What the control operation `K` answers: its JSON, the bytes of a binary answer, or the Response of an event stream. */
export type ControlResult<K extends ControlOperationId> = Res<ControlOperations[K]>;

/** Every control operation as a function named by its operationId. */
export type ControlClient = {
  [K in ControlOperationId]: keyof ControlRequest<K> extends never
    ? (input?: ControlRequest<K>) => Promise<ControlResult<K>>
    : (input: ControlRequest<K>) => Promise<ControlResult<K>>;
};

/** A control request the mock refused: its HTTP status and the envelope's code and message. */
export class ControlError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'ControlError';
  }
}

export interface ControlClientOptions {
  /** The mock's base URL (default http://localhost:4010). */
  baseUrl?: string;
  /** The fetch to send with (default the global fetch): the in-process mock's, the MSW handlers'. */
  fetch?: (request: Request) => Promise<Response>;
  /** The control token (--control-token), sent as Authorization: Bearer. */
  token?: string;
  /** An isolated session to act in (X-Mock-Session). */
  session?: string;
}

/** The URL path of `op` with its parameters filled in. */
function pathOf(op: OperationDef, params: Record<string, string> | undefined): string {
  return op.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(params?.[name] ?? ''));
}

/** A typed client of the control API (see the file's comment). */
export function createControlClient(opts: ControlClientOptions = {}): ControlClient {
  const base = (opts.baseUrl ?? 'http://localhost:4010').replace(/\/+$/, '');
  const send = opts.fetch ?? ((r: Request) => fetch(r));
  const client: Record<
    string,
    (input?: { params?: Record<string, string>; query?: Record<string, string | number | boolean | undefined>; body?: unknown }) => Promise<unknown>
  > = {};
  for (const [id, op] of Object.entries(controlOperations) as [string, OperationDef][]) {
    client[id] = async (input = {}) => {
      const url = new URL(base + pathOf(op, input.params));
      for (const [k, v] of Object.entries(input.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
      const headers = new Headers();
      if (opts.token) headers.set('Authorization', `Bearer ${opts.token}`);
      if (opts.session) headers.set('X-Mock-Session', opts.session);
      let body: BodyInit | undefined;
      if (input.body instanceof FormData) body = input.body;
      else if (op.request.body && input.body !== undefined) {
        headers.set('Content-Type', 'application/json');
        body = JSON.stringify(input.body);
      }
      const res = await send(new Request(url, { method: op.method.toUpperCase(), headers, body }));
      if (op.response.kind === 'event-stream' && res.ok) return res;
      if (!res.ok) {
        const env = (await res.json().catch(() => ({}))) as { code?: number; message?: string };
        throw new ControlError(res.status, env.code ?? 0, `${id}: ${env.message ?? res.statusText}`);
      }
      if (op.response.kind === 'binary') return new Uint8Array(await res.arrayBuffer());
      return res.json();
    };
  }
  return client as unknown as ControlClient;
}

/**
 * Synchronous shortcuts to one engine, for code that holds it (the in-process
 * mock, the MSW handlers in Node): the clock, accounts, the journal, the
 * faults. Everything else, and all of it over HTTP, is the typed `control`
 * client beside them.
 */
export interface MockControls {
  /** The engine behind the mock (its clock, accounts, stores). */
  readonly engine: Engine;
  /** The virtual time, epoch ms (due events run first). */
  now(): number;
  /** Moves the virtual clock `ms` forward and runs every event that came due. Throws RangeError past the clock's end or for a negative `ms`. */
  advance(ms: number): { now: number; eventsRun: number };
  /** Drops every account, task, journal entry and scenario; the clock returns to its start; optionally a new seed. */
  reset(seed?: number): void;
  /** A copy of the account of `apiKey` (created on first use, as a request would). */
  account(apiKey: string): AccountRecord;
  /** Sets credits, plan, free usages or voice-clone quota of `apiKey`; returns the account after. */
  setAccount(apiKey: string, patch: AccountUpdate): AccountRecord;
  /** The API requests journaled, oldest first. */
  requests(): JournalEntry[];
  /** The faults the mock found in itself (strict mismatches, handlers that threw); empty in a healthy run. */
  bugs(): MockBug[];
}

/** The shortcuts bound to `engine`. */
export function controlsOf(engine: Engine): MockControls {
  return {
    engine,
    now: () => engine.tick(),
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`advance: ms must be a finite number >= 0, got ${ms}`);
      const now = engine.tick();
      if (now + ms > MAX_VIRTUAL_TIME) throw new RangeError(`advance: the clock would pass ${new Date(MAX_VIRTUAL_TIME).toISOString()}, where it stops`);
      return engine.advance(ms);
    },
    reset: (seed) => engine.reset(seed),
    account: (apiKey) => engine.accounts.view(engine.accounts.get(apiKey, engine.tick())),
    setAccount: (apiKey, patch) => engine.accounts.view(engine.accounts.update(apiKey, patch, engine.tick())),
    requests: () => engine.journal.list(),
    bugs: () => [...engine.bugs],
  };
}
