/**
 * The engine: clock, scheduler, seeded rng, stores, accounts and ledgers, rate
 * limiter, scenarios, journal and activity feed, composed
 * (docs/architecture.md, "The engine").
 * Standard JavaScript only, so it can run behind Express, inside a test or in a
 * browser. Each mock instance owns one engine; nothing is module-level state.
 */
import type { z } from 'zod';
import { apiKeyPattern, DEFAULT_KEY_PREFIX } from '../../schemas/api-key.ts';
import { Accounts, DEFAULT_ACCOUNT_LIMITS, type AccountSeed, type AccountsSnapshot } from './accounts.ts';
import { ActivityFeed, type TaskActivity } from './activity.ts';
import { Clock, type ClockMode } from './clock.ts';
import { Journal } from './journal.ts';
import type { JournalEntry } from '../../schemas/control.ts';
import { RateLimiter } from './rate-limiter.ts';
import { Rng } from './rng.ts';
import { Scenarios, type ScenarioRule } from './scenarios.ts';
import { Scheduler, type ScheduledEvent } from './scheduler.ts';
import { OwnedStore } from './store.ts';

/**
 * A typed key of per-engine wiring (see `Engine.slot`): made once by the
 * module that owns the wiring, with `createSlot`; its value on an engine has
 * type `T`, made by `init` on that engine's first use.
 */
export interface Slot<T> {
  /** What the slot holds, for messages. */
  readonly description: string;
  /** The value of a new engine. */
  init(engine: Engine): T;
}

/** A new slot key holding a `T` per engine, made by `init` on first use (see `Engine.slot`). */
export function createSlot<T>(description: string, init: (engine: Engine) => T): Slot<T> {
  return { description, init };
}

/** A fault of the mock itself. */
export interface MockBug {
  /** Virtual time, epoch ms. */
  at: number;
  /** Where: an operation, a scheduled event, a media path. */
  where: string;
  problem: string;
}

/**
 * Everything an engine holds, as plain data: what `snapshot` returns and
 * `restore` takes (the mock's saved state). Records of the stores are the
 * areas' own plain-data task records.
 */
export interface EngineSnapshot {
  seed: number;
  /** Virtual now, epoch ms. */
  now: number;
  scheduler: { events: ScheduledEvent[]; seq: number };
  accounts: AccountsSnapshot;
  stores: Record<string, { seq: number; entries: { id: string; owner: string; group?: string; record: unknown }[] }>;
  counters: [string, number][];
  limiter: [string, number[]][];
  scenarios: { rules: ScenarioRule[]; seq: number };
  journal: { entries: JournalEntry[]; seq: number };
  activity: { entries: TaskActivity[]; seq: number };
  singletons: [string, unknown][];
}

/** Faults kept in `Engine.bugs`. */
export const MAX_BUGS = 100;

/** Default start of the manual clock: 2026-01-01T00:00:00Z. */
export const DEFAULT_START_TIME = Date.UTC(2026, 0, 1);

export interface EngineOptions {
  seed?: number;
  clock?: ClockMode;
  /** Epoch ms of the clock's start (manual mode; real mode starts here too). */
  startTime?: number;
  /** Real mode: virtual ms per wall ms. */
  speed?: number;
  /** Real mode: wall-time source (ms). */
  wallNow?: () => number;
  /** API key prefix (default mg). */
  keyPrefix?: string;
  accounts?: readonly AccountSeed[];
  rateLimit?: boolean;
  /** How much the engine keeps of what grows with traffic (defaults: DEFAULT_LIMITS). */
  limits?: Partial<EngineLimits>;
}

/**
 * Bounds of everything that grows with traffic. Beyond them: the journal and
 * the activity feed drop their oldest entries; an area's store drops the
 * oldest finished tasks of a key, and of all keys together past `tasks`
 * (they answer the not-found code); the
 * accounts forget the least recently used idle key (it starts again with a
 * fresh account); a ledger folds its oldest entries into one.
 */
export interface EngineLimits {
  /** Requests kept in the journal. */
  journal: number;
  /**
   * Bytes the journal keeps, as it estimates them (mock/engine/journal.ts).
   * In a mock with sessions, the bytes of the default world and every
   * session's journal together (mock/core/worlds.ts splits them).
   */
  journalBytes: number;
  /** Task changes kept in the activity feed. */
  activity: number;
  /** Tasks kept per key and area. */
  tasksPerKey: number;
  /** Tasks kept per area, all keys together. */
  tasks: number;
  /** Accounts kept. */
  accounts: number;
  /** Ledger entries kept per account. */
  ledgerEntries: number;
}

/** Default bytes of journal (assumed): 32 MiB, the default world's and every session's together (--journal-mb). */
export const DEFAULT_JOURNAL_BYTES = 32 * 1024 * 1024;

export const DEFAULT_LIMITS: EngineLimits = {
  journal: 500,
  journalBytes: DEFAULT_JOURNAL_BYTES,
  activity: 1000,
  tasksPerKey: 1000,
  tasks: 20_000,
  ...DEFAULT_ACCOUNT_LIMITS,
};

export class Engine {
  seed: number;
  readonly clock: Clock;
  readonly scheduler = new Scheduler();
  readonly accounts: Accounts;
  readonly limiter = new RateLimiter();
  readonly scenarios = new Scenarios();
  readonly journal: Journal;
  readonly activity: ActivityFeed;
  readonly limits: EngineLimits;
  readonly keyPrefix: string;
  readonly keyPattern: RegExp;
  /** Called after the state may have changed (see `changed`). */
  private listeners = new Set<() => void>();
  /** The mock's own faults, most recent last (a bounded ring): what went wrong, where, when. */
  readonly bugs: MockBug[] = [];
  /** Called for every fault the mock finds in itself (the CLI logs it). */
  onBug?: (where: string, problem: string) => void;
  /** Stores by area; services register theirs with `store()`. */
  private stores = new Map<string, OwnedStore<unknown>>();
  /** Per-area singletons (say, a shared queue); see `state`. */
  private singletons = new Map<string, unknown>();
  /** Counters for deterministic ids, by owner then kind (pruned with the owner: see `pruneOwner`). */
  private counters = new Map<string, Map<string, number>>();
  rng: Rng;

  constructor(opts: EngineOptions = {}) {
    this.seed = opts.seed ?? 1;
    this.rng = new Rng(this.seed);
    this.clock = new Clock({ mode: opts.clock ?? 'manual', startTime: opts.startTime ?? DEFAULT_START_TIME, speed: opts.speed, wallNow: opts.wallNow });
    this.keyPrefix = opts.keyPrefix ?? DEFAULT_KEY_PREFIX;
    this.keyPattern = apiKeyPattern(this.keyPrefix);
    this.limits = { ...DEFAULT_LIMITS, ...opts.limits };
    this.journal = new Journal(this.limits.journal, this.limits.journalBytes);
    this.activity = new ActivityFeed(this.limits.activity);
    this.accounts = new Accounts((k) => this.keyPattern.exec(k)?.[1] ?? k, opts.accounts ?? [], {
      accounts: this.limits.accounts,
      ledgerEntries: this.limits.ledgerEntries,
    });
    this.accounts.onForget = (apiKey) => this.pruneOwner(apiKey);
    this.accounts.onGone = (apiKey) => {
      for (const gone of this.accountGoneHooks) gone(this, apiKey);
    };
    this.limiter.enabled = opts.rateLimit ?? true;
    this.scheduler.onFault = (ev, e) => this.reportBug(`scheduled ${ev.kind} event due ${ev.due}`, e instanceof Error ? (e.stack ?? e.message) : String(e));
  }

  /** Records a fault of the mock itself (kept in `bugs`, the last MAX_BUGS) and tells `onBug`. */
  reportBug(where: string, problem: string): void {
    this.bugs.push({ at: this.clock.now(), where, problem });
    if (this.bugs.length > MAX_BUGS) this.bugs.splice(0, this.bugs.length - MAX_BUGS);
    this.onBug?.(where, problem);
  }

  /** Virtual now (epoch ms) after running every event due by then. */
  tick(): number {
    const now = this.clock.now();
    if (this.scheduler.runUntil(now) > 0) this.changed();
    return now;
  }

  /** Advances the clock by `ms` and runs every event that came due; returns the new now and the count run. */
  advance(ms: number): { now: number; eventsRun: number } {
    const now = this.clock.advance(ms);
    const eventsRun = this.scheduler.runUntil(now);
    this.changed();
    return { now, eventsRun };
  }

  /** Registers `listener`, called after the state may have changed; returns its removal. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tells every listener that the state may have changed (events ran, the clock moved, a request was handled, a reset). */
  changed(): void {
    for (const l of [...this.listeners]) l();
  }

  /** The named store, created on first use. */
  store<T>(name: string): OwnedStore<T> {
    let s = this.stores.get(name);
    if (!s) this.stores.set(name, (s = new OwnedStore<unknown>((owner) => this.pruneOwner(owner))));
    return s as OwnedStore<T>;
  }

  /**
   * Forgets what is kept per key for `owner` (its id counters and its rate
   * windows) once nothing of it is left: no account (forgotten by the bound,
   * or deleted) and no record in any store. Called when an account is
   * forgotten and when a store drops an owner's last record, so what is kept
   * per key is bounded by the accounts and the tasks kept, however many keys
   * come. A key that comes back starts afresh, as a new key (its ids derive
   * from the seed, the key and counters from 1 again: none of its old ids is
   * stored any more).
   */
  private pruneOwner(owner: string): void {
    if (this.accounts.find(owner)) return;
    for (const s of this.stores.values()) if (s.countOf(owner) > 0) return;
    for (const keeps of this.ownerKeepers) if (keeps(this, owner)) return;
    this.counters.delete(owner);
    this.limiter.forget(owner);
  }

  /** How many keys the engine keeps something for (accounts, deleted keys, id counters, rate windows, store owners): for bounds checks. */
  keptPerKey(): { accounts: number; deleted: number; counters: number; rateWindows: number; storeOwners: number } {
    return {
      accounts: this.accounts.size,
      deleted: this.accounts.deletedCount,
      counters: this.counters.size,
      rateWindows: this.limiter.accounts,
      storeOwners: [...this.stores.values()].reduce((n, s) => n + s.owners, 0),
    };
  }

  /** Areas' hooks run when an account goes (`onAccountGone`). */
  private accountGoneHooks: ((engine: Engine, apiKey: string) => void)[] = [];

  /**
   * Runs `gone` whenever an account goes: its key deleted, or the account
   * forgotten at the account bound (a reset drops every singleton anyway), so
   * what an area keeps for that account in a singleton goes with it.
   */
  onAccountGone(gone: (engine: Engine, apiKey: string) => void): void {
    if (!this.accountGoneHooks.includes(gone)) this.accountGoneHooks.push(gone);
  }

  /** Areas' checks of what they keep of an owner outside the stores (`declareOwnerKeeper`). */
  private ownerKeepers: ((engine: Engine, owner: string) => boolean)[] = [];

  /**
   * Declares that an area keeps things of an owner outside the stores (in a
   * singleton) whose ids derive from the owner's counters: while `keeps`
   * says so, the owner's counters stay (a new id never repeats a kept one).
   */
  declareOwnerKeeper(keeps: (engine: Engine, owner: string) => boolean): void {
    if (!this.ownerKeepers.includes(keeps)) this.ownerKeepers.push(keeps);
  }

  /** The singleton `name` if it exists; never creates it. */
  peekState<T>(name: string): T | undefined {
    return this.singletons.get(name) as T | undefined;
  }

  /** Schemas of the stores' saved records, by store name (`declareRecords`). */
  private recordSchemas = new Map<string, z.ZodType>();

  /** Declares store `name` and the schema each of its saved records must pass before a saved state is loaded (see `storeProblems`). */
  declareRecords(name: string, schema: z.ZodType): void {
    this.recordSchemas.set(name, schema);
  }

  /**
   * What is wrong with saved `stores` for this engine, one message per
   * problem, each naming its path: a store no area declares, a record its
   * area's schema refuses. Empty when they can all be loaded (or when no area
   * declared its records: an engine without services).
   */
  storeProblems(stores: Record<string, { entries: readonly { record: unknown }[] }>): string[] {
    if (this.recordSchemas.size === 0) return [];
    const out: string[] = [];
    for (const [name, store] of Object.entries(stores)) {
      const schema = this.recordSchemas.get(name);
      if (!schema) {
        out.push(`stores.${name}: no area of this mock keeps a store by that name (${[...this.recordSchemas.keys()].join(', ')})`);
        continue;
      }
      store.entries.forEach((e, i) => {
        const r = schema.safeParse(e.record);
        if (!r.success)
          out.push(...r.error.issues.map((issue) => `stores.${name}.entries.${i}.record${issue.path.map((p) => `.${String(p)}`).join('')}: ${issue.message}`));
      });
    }
    return out;
  }

  /** Schemas of the singletons, by name (`declareState`). */
  private stateSchemas = new Map<string, z.ZodType>();

  /** Declares singleton `name` and the schema its saved value must pass before a saved state is loaded (see `stateProblems`). */
  declareState(name: string, schema: z.ZodType): void {
    this.stateSchemas.set(name, schema);
  }

  /**
   * What is wrong with saved `singletons` for this engine, one message per
   * problem: a name no area declares, a value its schema refuses. Empty when
   * they can all be loaded.
   */
  stateProblems(singletons: readonly (readonly [string, unknown])[]): string[] {
    const out: string[] = [];
    singletons.forEach(([name, value], i) => {
      const schema = this.stateSchemas.get(name);
      if (!schema)
        return void out.push(`singletons.${i}: ${JSON.stringify(name)} is not state this mock keeps (${[...this.stateSchemas.keys()].join(', ') || 'none'})`);
      const r = schema.safeParse(value);
      if (!r.success)
        out.push(...r.error.issues.map((issue) => `singletons.${i} (${name})${issue.path.map((p) => `.${String(p)}`).join('')}: ${issue.message}`));
    });
    return out;
  }

  /** The per-engine singleton `name`, made by `init` on first use and dropped on reset. */
  state<T>(name: string, init: () => T): T {
    if (!this.singletons.has(name)) this.singletons.set(name, init());
    return this.singletons.get(name) as T;
  }

  /** The values of the slots of the layers above (see `slot`): not state, never saved nor reset. */
  private slots = new Map<Slot<unknown>, unknown>();

  /**
   * The value of `key` on this engine, made by the key's `init` on first use:
   * per-engine wiring of a layer above (the task kits, voice sources and
   * media routes of the services composed onto this engine, a stream's
   * wakers, a page's signing key). The engine never reads it: it only keeps
   * each world's wiring on the world, instead of in module-level lists.
   * Unlike `state`, a slot is neither saved nor dropped by a reset.
   */
  slot<T>(key: Slot<T>): T {
    if (!this.slots.has(key)) this.slots.set(key, key.init(this));
    return this.slots.get(key) as T;
  }

  /** Checks of ids kept outside the engine's counters (`declareTakenIds`): a new id is never one of them. */
  private idTakers: ((id: string) => boolean)[] = [];

  /**
   * Declares ids the engine's counters did not give that a new id must never
   * be (a replayed recording's task ids, mock/http/recording/replay.ts):
   * `nextId` passes over an id `taken` says is one. Must not create state.
   */
  declareTakenIds(taken: (id: string) => boolean): void {
    if (!this.idTakers.includes(taken)) this.idTakers.push(taken);
  }

  /**
   * A deterministic id for the next entity of `kind` owned by `owner`: depends only on (seed, owner, kind, n), the
   * first n whose id no `declareTakenIds` check claims.
   */
  nextId(prefix: string, owner: string, kind: string): string {
    let kinds = this.counters.get(owner);
    if (!kinds) this.counters.set(owner, (kinds = new Map<string, number>()));
    let n = kinds.get(kind) ?? 0;
    let id: string;
    do id = this.rng.id(prefix, owner, kind, ++n);
    while (this.idTakers.length > 0 && this.idTakers.some((taken) => taken(id)));
    kinds.set(kind, n);
    return id;
  }

  /**
   * Everything the engine holds, as plain data (a deep copy): the seed, the
   * clock, the schedule, accounts, ledgers and holds, every store, id
   * counters, rate windows, scenarios, journal, activity and singletons.
   * Restoring it into an engine with the same options gives the same answers
   * to the same requests as this engine would give.
   */
  snapshot(): EngineSnapshot {
    return JSON.parse(this.snapshotJson()) as EngineSnapshot;
  }

  /**
   * `snapshot()` as JSON text, in one synchronous pass: the consistent copy of
   * a state that requests may change on the next turn (GET /__mock/state and
   * the state file send it as it is, without building the copy as objects and
   * serialising it again). `JSON.parse` of it is `snapshot()`.
   */
  snapshotJson(): string {
    return JSON.stringify({
      seed: this.seed,
      now: this.clock.now(),
      scheduler: this.scheduler.dump(),
      accounts: this.accounts.dump(),
      stores: Object.fromEntries([...this.stores].map(([name, store]) => [name, store.dump()])),
      counters: [...this.counters].flatMap(([owner, kinds]) => [...kinds].map(([kind, n]): [string, number] => [`${owner}\u0000${kind}`, n])),
      limiter: this.limiter.dump(),
      scenarios: this.scenarios.dump(),
      journal: this.journal.dump(),
      activity: this.activity.dump(),
      singletons: [...this.singletons.entries()],
    });
  }

  /**
   * Replaces everything with `s` (from `snapshot`, possibly of another
   * process): the seed, the clock's now, and all state. The handlers of
   * saved events must be registered before events come due. `owned`: the
   * caller hands `s` over and keeps no reference to it (a document parsed for
   * this load), so it is taken as it is instead of copied first (the copy was
   * the largest part of loading a large state).
   */
  restore(s: EngineSnapshot, owned = false): void {
    const c = owned ? s : (JSON.parse(JSON.stringify(s)) as EngineSnapshot);
    this.reset(c.seed);
    this.clock.setNow(c.now);
    this.scheduler.load(c.scheduler);
    this.accounts.load(c.accounts);
    for (const [name, saved] of Object.entries(c.stores)) this.store(name).load(saved);
    this.counters = new Map();
    for (const [key, n] of c.counters) {
      const cut = key.indexOf('\u0000');
      const owner = cut < 0 ? key : key.slice(0, cut);
      let kinds = this.counters.get(owner);
      if (!kinds) this.counters.set(owner, (kinds = new Map<string, number>()));
      kinds.set(cut < 0 ? '' : key.slice(cut + 1), n);
    }
    this.limiter.load(c.limiter);
    this.scenarios.load(c.scenarios);
    this.journal.load(c.journal);
    this.activity.load(c.activity);
    this.singletons = new Map(c.singletons);
    this.changed();
  }

  /** Drops all state; optionally changes the seed. The clock returns to its start. */
  reset(seed?: number): void {
    if (seed !== undefined) {
      this.seed = seed;
      this.rng = new Rng(seed);
    }
    this.clock.reset();
    this.scheduler.clear();
    this.accounts.clear();
    this.limiter.clear();
    this.scenarios.clear();
    this.journal.clear();
    this.activity.clear();
    this.stores.clear();
    this.singletons.clear();
    this.counters.clear();
    this.bugs.length = 0;
    this.changed();
  }
}
