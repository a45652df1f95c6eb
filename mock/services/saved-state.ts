/**
 * Saved state (docs/architecture.md, "The control API"): the engine's
 * snapshot in a versioned document (`MockState` of schemas/control.ts), read
 * and replaced by the control API (GET and PUT /__mock/state, on every
 * transport) and by the CLI's --state FILE (mock/http/state-file.ts). A
 * document is validated in full before anything is replaced: a wrong
 * version, a corrupt or inconsistent document is refused with a message
 * naming what is wrong, and the state in memory is left as it was.
 *
 * A load is a generator of steps that yields between slices of its work (a
 * few thousand records each), so PUT /__mock/state runs it on later turns of
 * the event loop (`loadStateInTurns`) and every other request, of this world
 * or another, is answered meanwhile; the CLI runs it at once. The document is
 * checked in its parts: its skeleton (every field but the long lists) against
 * `MockState`, then the long lists element by element against their elements'
 * schemas, then the rules across records (`stateConsistencySteps`), then the
 * engine's own checks and the invariants; the checks build nothing (the
 * document is loaded as it was parsed, the schemas of a state transform
 * nothing). Until the last step the engine is untouched: requests meanwhile
 * see the old state, and the new one replaces it in one synchronous step.
 * Standard JavaScript only.
 */
import type { z } from 'zod';
import { EngineState, MockState, STATE_FORMAT, STATE_VERSION, stateConsistencySteps } from '../../schemas/control.ts';
import { ApiError } from '../engine/api-error.ts';
import type { Engine } from '../engine/engine.ts';
import { runAtOnce, runInTurns } from './next-turn.ts';
import { invariantSteps, protoKeySteps } from './state-invariants.ts';
import { taskAreasOf } from './tasks.ts';

/** The engine's state as a document (GET /__mock/state, the --state file). */
export function stateOf(engine: Engine): MockState {
  return { format: STATE_FORMAT, version: STATE_VERSION, state: engine.snapshot() as MockState['state'] };
}

/**
 * `stateOf(engine)` as JSON text, in one synchronous pass (`engine.snapshotJson`): what GET /__mock/state sends and
 * the --state file holds, without building the document as objects first.
 */
export function stateJson(engine: Engine): string {
  return `{"format":${JSON.stringify(STATE_FORMAT)},"version":${JSON.stringify(STATE_VERSION)},"state":${engine.snapshotJson()}}`;
}

/** Units of work (about a record each; an account counts its ledger entries) checked between two yields. */
const SLICE = 2000;

/** `[from, to)` ranges of `n` items of about SLICE units each (`weight`: the units of item i, default 1). */
function* ranges(n: number, weight?: (i: number) => number): Generator<[number, number], void, void> {
  for (let from = 0; from < n;) {
    let to = from;
    if (!weight) to = Math.min(n, from + SLICE);
    else for (let units = 0; to < n && units < SLICE;) units += weight(to++);
    yield [from, to];
    from = to;
  }
}

/** A long list of the document, checked element by element. */
interface List {
  path: string;
  items: readonly unknown[];
  element: z.ZodType;
  weight?: (i: number) => number;
  /** A hand check that never passes what `element` refuses: an item it passes skips the schema. */
  plain?: (item: unknown) => boolean;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const S = EngineState.shape;
const STORE_ENTRY = S.stores.valueType.shape.entries.element;

const ENTRY_KEYS = new Set(['id', 'owner', 'group', 'record']);
const isName = (v: unknown) => typeof v === 'string' && v.length > 0;
const isTime = (v: unknown) => Number.isSafeInteger(v);

/**
 * True when store entry `e` certainly passes STORE_ENTRY (the schema of
 * EngineState's store entries): a hand check of the same rules, a few times
 * cheaper than Zod for the hundred thousand entries of a large state. It
 * never accepts what the schema refuses; what it does not accept goes to the
 * schema, which says what is wrong (or accepts it after all).
 */
function isPlainEntry(e: unknown): boolean {
  if (!isObject(e) || !isName(e.id) || !isName(e.owner) || (e.group !== undefined && typeof e.group !== 'string')) return false;
  for (const k in e) if (!ENTRY_KEYS.has(k)) return false;
  const r = e.record;
  return isObject(r) && isName(r.id) && isName(r.owner) && isName(r.status) && isTime(r.createdAt) && isTime(r.updatedAt);
}

/**
 * The document `value` without its long lists (each replaced by an empty
 * one, in shallow copies: `value` is not changed), and those lists with their
 * elements' schemas. What is not where the schema has a list stays in the
 * skeleton, for the schema to refuse.
 */
function skeletonOf(value: Record<string, unknown>): { skeleton: unknown; lists: List[] } {
  const lists: List[] = [];
  if (!isObject(value.state)) return { skeleton: value, lists };
  const st = { ...value.state };
  /** Takes list `key` out of `parent` (a copy of the document's object at `path`), when it is a list. */
  const take = (
    parent: Record<string, unknown>,
    key: string,
    path: string,
    element: z.ZodType,
    weight?: (items: readonly unknown[]) => (i: number) => number,
    plain?: (item: unknown) => boolean,
  ) => {
    const items = parent[key];
    if (!Array.isArray(items)) return;
    lists.push({ path: `${path}.${key}`, items, element, weight: weight?.(items), plain });
    parent[key] = [];
  };
  const part = (key: string) => (isObject(st[key]) ? (st[key] = { ...st[key] }) : undefined);
  const scheduler = part('scheduler');
  if (scheduler) take(scheduler, 'events', 'state.scheduler', S.scheduler.shape.events.element);
  const accounts = part('accounts');
  if (accounts) {
    const ledgerOf = (items: readonly unknown[]) => (i: number) => {
      const ledger = (items[i] as { ledger?: unknown } | null)?.ledger;
      return 1 + (Array.isArray(ledger) ? ledger.length : 0);
    };
    take(accounts, 'accounts', 'state.accounts', S.accounts.shape.accounts.element, ledgerOf);
    take(accounts, 'holds', 'state.accounts', S.accounts.shape.holds.element);
    take(accounts, 'deleted', 'state.accounts', S.accounts.shape.deleted.element);
  }
  if (isObject(st.stores)) {
    const stores: Record<string, unknown> = (st.stores = { ...st.stores });
    for (const name of Object.keys(stores)) {
      const store = stores[name];
      if (isObject(store)) take((stores[name] = { ...store }), 'entries', `state.stores.${name}`, STORE_ENTRY, undefined, isPlainEntry);
    }
  }
  take(st, 'counters', 'state', S.counters.element);
  take(st, 'limiter', 'state', S.limiter.element);
  const journal = part('journal');
  if (journal) take(journal, 'entries', 'state.journal', S.journal.shape.entries.element, () => () => 4);
  const activity = part('activity');
  if (activity) take(activity, 'entries', 'state.activity', S.activity.shape.entries.element);
  return { skeleton: { ...value, state: st }, lists };
}

/** Zod's issues as the messages of a refusal: the path (dotted, from the document's root) and the message. */
const issueMessages = (issues: readonly z.core.$ZodIssue[], prefix = '') =>
  issues.map((i) => `${[prefix, ...i.path.map(String)].filter((p) => p !== '').join('.') || '(document)'}: ${i.message}`);

/** A refusal naming the first five `problems` and how many more (and that nothing was loaded). */
function refusal(problems: readonly string[]): ApiError {
  const more = problems.length > 5 ? `; and ${problems.length - 5} more` : '';
  return new ApiError('CONTROL_INVALID_REQUEST', `state: ${problems.slice(0, 5).join('; ')}${more} (nothing was loaded)`);
}

/**
 * The steps that validate document `value` (see parseState), yielding between
 * slices; returns it, typed, when it is valid. Errors: CONTROL_INVALID_REQUEST.
 */
function* documentSteps(value: unknown): Generator<void, MockState, void> {
  const head = value as { format?: unknown; version?: unknown } | null;
  if (!isObject(head) || head.format !== STATE_FORMAT)
    throw new ApiError('CONTROL_INVALID_REQUEST', `state: not a mediagen-mock state (its "format" must be "${STATE_FORMAT}"; nothing was loaded)`);
  if (head.version !== STATE_VERSION)
    throw new ApiError(
      'CONTROL_INVALID_REQUEST',
      `state: version ${JSON.stringify(head.version)} is not supported; this mock reads version ${STATE_VERSION} (nothing was loaded)`,
    );
  // before the schema: a parsed "__proto__" key would set a prototype, not a member
  const reserved = yield* protoKeySteps(value);
  if (reserved.length) throw new ApiError('CONTROL_INVALID_REQUEST', `state: ${reserved.join('; ')} (nothing was loaded)`);
  const { skeleton, lists } = skeletonOf(head);
  const whole = MockState.safeParse(skeleton);
  if (!whole.success) throw refusal(issueMessages(whole.error.issues));
  const problems: string[] = [];
  for (const list of lists)
    for (const [from, to] of ranges(list.items.length, list.weight)) {
      for (let i = from; i < to; i++) {
        if (list.plain?.(list.items[i])) continue;
        const r = list.element.safeParse(list.items[i]);
        if (!r.success) problems.push(...issueMessages(r.error.issues, `${list.path}.${i}`));
      }
      yield;
    }
  if (problems.length) throw refusal(problems);
  const doc = value as MockState;
  yield;
  yield* stateConsistencySteps(doc.state, (path, message) => problems.push(`state.${path.join('.')}: ${message}`));
  if (problems.length) throw refusal(problems);
  return doc;
}

/**
 * The document `value` validated: the format and version first (a clear
 * message for a file of another version), then every field and the
 * consistency checks. Returns `value` itself, typed. Errors:
 * CONTROL_INVALID_REQUEST naming the problem.
 */
export function parseState(value: unknown): MockState {
  return runAtOnce(documentSteps(value));
}

/** `messages` of a check run on items from `offset` on, with the index after `prefix` made the document's. */
function shifted(messages: readonly string[], prefix: string, offset: number): string[] {
  if (offset === 0) return [...messages];
  return messages.map((m) => {
    const digits = m.startsWith(prefix) ? /^\d+/.exec(m.slice(prefix.length))?.[0] : undefined;
    return digits === undefined ? m : `${prefix}${Number(digits) + offset}${m.slice(prefix.length + digits.length)}`;
  });
}

/** The engine's own checks of a valid document (its areas' stores and records, scheduled events, singletons) and the invariants, in slices. */
function* engineProblemSteps(engine: Engine, st: MockState['state']): Generator<void, string[], void> {
  const problems: string[] = [];
  for (const [name, store] of Object.entries(st.stores)) {
    const unknown = engine.storeProblems({ [name]: { entries: [] } });
    if (unknown.length) {
      problems.push(...unknown);
      continue;
    }
    for (const [from, to] of ranges(store.entries.length)) {
      const found = engine.storeProblems({ [name]: { entries: store.entries.slice(from, to) } });
      problems.push(...shifted(found, `stores.${name}.entries.`, from));
      yield;
    }
  }
  const events = st.scheduler.events;
  for (const [from, to] of ranges(events.length)) {
    problems.push(...shifted(engine.scheduler.problemsOf(events.slice(from, to)), 'events.', from).map((p) => `scheduler.${p}`));
    yield;
  }
  problems.push(...engine.stateProblems(st.singletons));
  yield;
  problems.push(...(yield* invariantSteps(st, taskAreasOf(engine))));
  return problems;
}

/** What a load reports: the seed, virtual now, and the accounts and tasks loaded. */
export interface Loaded {
  seed: number;
  now: number;
  accounts: number;
  tasks: number;
}

/** The steps of a load (see loadState), yielding between slices; the last one replaces the engine's state. */
function* loadSteps(engine: Engine, value: unknown, owned: boolean): Generator<void, Loaded, void> {
  const doc = yield* documentSteps(value);
  const problems = yield* engineProblemSteps(engine, doc.state);
  if (problems.length) throw refusal(problems);
  yield;
  // one synchronous step: nothing is replaced before every check passed, and nothing runs between the old state and the new
  engine.restore(doc.state, owned);
  const st = doc.state;
  return {
    seed: engine.seed,
    now: engine.clock.now(),
    accounts: st.accounts.accounts.length,
    tasks: Object.values(st.stores).reduce((n, s) => n + s.entries.length, 0),
  };
}

/**
 * Replaces the engine's state with a validated document at once; returns
 * what was loaded. `owned`: the caller hands `value` over (it keeps no
 * reference to it), so the engine takes it without a copy. Errors: see
 * parseState; also CONTROL_INVALID_REQUEST for a scheduled event this engine
 * cannot run (unknown kind, args its kind refuses), for an area's saved state
 * its schema refuses (or no area keeps), and for each invariant of
 * mock/services/state-invariants.ts the document breaks (holds, ledgers,
 * running tasks and their events, times, reserved names), naming the
 * invariant and where.
 */
export function loadState(engine: Engine, value: unknown, owned = false): Loaded {
  return runAtOnce(loadSteps(engine, value, owned));
}

/**
 * loadState on later turns of the event loop (PUT /__mock/state): a slice of
 * a few thousand records at a time, so other requests are answered while a
 * large document is checked; the engine keeps its state until the last step
 * replaces it at once. Resolves with what was loaded; rejects as loadState throws.
 */
export function loadStateInTurns(engine: Engine, value: unknown, owned = false): Promise<Loaded> {
  return runInTurns(loadSteps(engine, value, owned));
}
