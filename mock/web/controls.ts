/**
 * The control operations as functions (docs/architecture.md, "The control
 * API"): what `/__mock` offers over HTTP, for code that holds the engine
 * itself: the in-process mock (mock/index.ts) and the MSW handlers
 * (mock/web/msw.ts).
 */
import type { AccountUpdate, JournalEntry } from '../../schemas/control.ts';
import { MAX_VIRTUAL_TIME } from '../../schemas/control.ts';
import type { Account } from '../engine/accounts.ts';
import type { Engine, MockBug } from '../engine/engine.ts';

/** The control operations of one engine. */
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
  account(apiKey: string): Account;
  /** Sets credits, plan, free usages or voice-clone quota of `apiKey`; returns the account after. */
  setAccount(apiKey: string, patch: AccountUpdate): Account;
  /** The API requests journaled, oldest first. */
  requests(): JournalEntry[];
  /** The faults the mock found in itself (strict mismatches, handlers that threw); empty in a healthy run. */
  bugs(): MockBug[];
}

const copy = (a: Account): Account => structuredClone(a);

/** The control operations bound to `engine`. */
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
    account: (apiKey) => copy(engine.accounts.get(apiKey, engine.tick())),
    setAccount: (apiKey, patch) => copy(engine.accounts.update(apiKey, patch, engine.tick())),
    requests: () => engine.journal.list(),
    bugs: () => [...engine.bugs],
  };
}
