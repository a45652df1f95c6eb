/**
 * The invariants a saved state must keep before it replaces anything
 * (docs/architecture.md, "The control API"; decisions/0010-saved-state.md):
 * what the engine relies on once it runs the state, checked on the whole
 * document. Each problem is one message naming the invariant broken and where
 * (a path into the document). Standard JavaScript only.
 *
 * - names: no key `__proto__` anywhere, no store or singleton named after a
 *   member of Object.prototype (the engine keys maps and objects by them);
 * - ledgers: each is a chain (every balance the one before plus the amount)
 *   ending at the account's credits; no entry after `now`; every capture and
 *   release names a task the ledger reserved for before it, and settles it
 *   once (unless that part of the ledger was folded);
 * - holds: each belongs to a stored task that is still running (not in a
 *   terminal status), owned by the hold's account, and is the open reserve of
 *   that task in the account's ledger;
 * - charged tasks: every open reserve is held (so a finished task has none);
 * - schedule: each running task has a scheduled event that can still move it
 *   (a step of its lifecycle or an action expecting its status, or a timeout
 *   of that status), so it ends;
 * - tasks: created and updated no later than `now`.
 *
 * A part of a ledger folded into its summary entry (a long ledger) cannot be
 * checked entry by entry: a hold or a release whose reserve was folded is
 * taken as it is.
 */
import type { MockState } from '../../schemas/control.ts';
import { runAtOnce } from './next-turn.ts';

type State = MockState['state'];
type Ledger = State['accounts']['accounts'][number]['ledger'];

/** A summary entry of a folded ledger (mock/engine/accounts.ts). */
const isFold = (e: Ledger[number]) => e.taskId === null && e.type === 'adjust' && / earlier entries, folded$/.test(e.note);

/** Names an area or a singleton may not have: members of every object (a lookup by such a name finds the prototype's). */
const RESERVED = new Set(Object.getOwnPropertyNames(Object.prototype));

/** Objects walked between two yields of `protoKeySteps`. */
const PROTO_WALK_SLICE = 50_000;

/** A container met on the walk, with the way back to the root (its path is built only for a finding). */
interface Walked {
  value: object;
  up: Walked | undefined;
  key: string;
}

const pathOf = (w: Walked | undefined): string => {
  const keys: string[] = [];
  for (; w?.up; w = w.up) keys.push(w.key);
  return keys.reverse().join('.');
};

/**
 * Paths of every key `__proto__` in `value` (JSON data as JSON.parse makes it,
 * where such a key is an own member), at most `max` of them; a generator that
 * yields every 50,000 objects walked (run it with mock/services/next-turn.ts).
 * A path is built only for a key found, so the walk allocates one small record
 * per object or array.
 */
export function* protoKeySteps(value: unknown, max = 5): Generator<void, string[], void> {
  const out: string[] = [];
  if (typeof value !== 'object' || value === null) return out;
  const stack: Walked[] = [{ value, up: undefined, key: '' }];
  let walked = 0;
  while (stack.length && out.length < max) {
    if (++walked % PROTO_WALK_SLICE === 0) yield;
    const w = stack.pop()!;
    const v = w.value;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) {
        const m: unknown = v[i];
        if (typeof m === 'object' && m !== null) stack.push({ value: m, up: w, key: String(i) });
      }
      continue;
    }
    for (const k in v) {
      if (!Object.hasOwn(v, k)) continue;
      if (k === '__proto__') out.push(`${pathOf(w) || '(document)'}: the reserved name "__proto__" is not a key a state may have`);
      const member = (v as Record<string, unknown>)[k];
      if (typeof member === 'object' && member !== null) stack.push({ value: member, up: w, key: k });
    }
  }
  return out;
}

/** protoKeySteps run at once: the paths of every key `__proto__` in `value`, at most `max`. */
export function protoKeys(value: unknown, max = 5): string[] {
  return runAtOnce(protoKeySteps(value, max));
}

/** What the ledger of one account says of a task: its last reserve, and whether that reserve is still open. */
interface TaskInLedger {
  reserved: number;
  open: boolean;
}

/** Records (ledger entries, tasks, holds, events) checked between two yields of `invariantSteps`. */
const INVARIANT_SLICE = 5000;

/** What the ledgers say of their tasks, by account key. */
type Ledgers = Map<string, { folded: boolean; tasks: Map<string, TaskInLedger> }>;

/** Checks the ledgers (yielding every few thousand entries); returns what each says of its tasks, by account key. */
function* ledgerSteps(st: State, out: string[]): Generator<void, Ledgers, void> {
  const ledgers: Ledgers = new Map();
  let done = 0;
  for (const [i, a] of st.accounts.accounts.entries()) {
    const where = `accounts.accounts.${i} (${a.apiKey})`;
    const tasks = new Map<string, TaskInLedger>();
    let folded = false;
    let running = 0;
    a.ledger.forEach((e, j) => {
      running += e.amount;
      if (e.balance !== running) out.push(`${where}.ledger.${j}: a ledger is a chain: balance ${e.balance}, but the entries up to it sum to ${running}`);
      if (e.at > st.now) out.push(`${where}.ledger.${j}: no ledger entry is later than now: at ${e.at}, now ${st.now}`);
      if (j === 0 && isFold(e)) return void (folded = true);
      if (e.type === 'adjust') return;
      if (e.taskId === null) return void out.push(`${where}.ledger.${j}: every ${e.type} names its task: this one names none`);
      if (e.type === 'reserve') return void tasks.set(e.taskId, { reserved: -e.amount, open: true });
      const t = tasks.get(e.taskId);
      if (!t) {
        if (!folded) out.push(`${where}.ledger.${j}: every ${e.type} settles a reserve: ${e.taskId} has no reserve before it in this ledger`);
        return;
      }
      // a partial capture is a capture and then a release of the rest: both settle the one reserve
      const restOfCapture = e.type === 'release' && a.ledger[j - 1]?.type === 'capture' && a.ledger[j - 1]?.taskId === e.taskId;
      if (!t.open && !restOfCapture) out.push(`${where}.ledger.${j}: a reserve is settled once: the reserve of ${e.taskId} was settled before this ${e.type}`);
      t.open = false;
    });
    ledgers.set(a.apiKey, { folded, tasks });
    if ((done += 1 + a.ledger.length) >= INVARIANT_SLICE) {
      done = 0;
      yield;
    }
  }
  return ledgers;
}

/** A stored task as the invariants see it; `where` (its path) is built only for a problem. */
interface StoredTask {
  area: string;
  index: number;
  id: string;
  owner: string;
  status: string;
  live: boolean;
}

const whereOf = (t: StoredTask) => `stores.${t.area}.entries.${t.index} (${t.id})`;

/**
 * Problems of state `st` (already valid against its schema) against the
 * invariants above. `areas`: the areas whose tasks the engine runs, each with
 * its terminal statuses (stores of other areas are not tasks). Empty when it
 * keeps them all. See invariantSteps for the same in slices.
 */
export function invariantProblems(st: State, areas: ReadonlyMap<string, readonly string[]>): string[] {
  return runAtOnce(invariantSteps(st, areas));
}

/** invariantProblems as a generator that yields every few thousand records (run it with mock/services/next-turn.ts). */
export function* invariantSteps(st: State, areas: ReadonlyMap<string, readonly string[]>): Generator<void, string[], void> {
  const out: string[] = [];
  for (const name of Object.keys(st.stores)) if (RESERVED.has(name)) out.push(`stores.${name}: a store may not be named after a member of every object`);
  st.singletons.forEach(([name], i) => {
    if (RESERVED.has(name)) out.push(`singletons.${i}: a singleton may not be named "${name}", a member of every object`);
  });
  const ledgers = yield* ledgerSteps(st, out);

  // tasks: where each is, and whether it runs
  const tasks = new Map<string, StoredTask>();
  for (const [area, store] of Object.entries(st.stores)) {
    const terminal = areas.get(area);
    if (!terminal) continue;
    for (const [index, e] of store.entries.entries()) {
      const r = e.record;
      const task: StoredTask = { area, index, id: e.id, owner: e.owner, status: r.status, live: !terminal.includes(r.status) };
      if (r.createdAt > st.now || r.updatedAt > st.now)
        out.push(`${whereOf(task)}: no task is created or updated later than now: created ${r.createdAt}, updated ${r.updatedAt}, now ${st.now}`);
      tasks.set(e.id, task);
      if (index % INVARIANT_SLICE === INVARIANT_SLICE - 1) yield;
    }
  }

  // holds: a running task's, and its open reserve
  const holds = new Set<string>();
  for (const [i, [taskId, hold]] of st.accounts.holds.entries()) {
    if (i % INVARIANT_SLICE === INVARIANT_SLICE - 1) yield;
    const where = `accounts.holds.${i}`;
    holds.add(taskId);
    const task = tasks.get(taskId);
    if (!task) {
      out.push(`${where}: every hold belongs to a stored task: ${taskId} (${hold.amount} credits of ${hold.apiKey}) is not stored`);
      continue;
    }
    if (!task.live) out.push(`${where}: every hold belongs to a running task: ${taskId} is finished (${task.status}) and still holds ${hold.amount} credits`);
    if (task.owner !== hold.apiKey) out.push(`${where}: a hold is its task's owner's: ${taskId} belongs to ${task.owner}, the hold to ${hold.apiKey}`);
    const ledger = ledgers.get(hold.apiKey);
    if (!ledger) continue; // named by the document's own checks
    const t = ledger.tasks.get(taskId);
    if (!t) {
      if (!ledger.folded) out.push(`${where}: a hold is an open reserve: the ledger of ${hold.apiKey} has no reserve for ${taskId}`);
    } else if (!t.open) out.push(`${where}: a hold is an open reserve: the reserve of ${taskId} in the ledger of ${hold.apiKey} was settled already`);
    else if (t.reserved !== hold.amount)
      out.push(`${where}: a hold is its open reserve: ${taskId} holds ${hold.amount} credits, the ledger of ${hold.apiKey} reserved ${t.reserved}`);
  }

  // charged tasks: an open reserve is held
  for (const [apiKey, ledger] of ledgers)
    for (const [taskId, t] of ledger.tasks) {
      if (!t.open || holds.has(taskId)) continue;
      const task = tasks.get(taskId);
      const what = task ? `${whereOf(task)} is ${task.live ? 'running' : `finished (${task.status})`}` : `${taskId} is not stored`;
      out.push(
        `accounts: every open reserve is held: the ledger of ${apiKey} reserved ${t.reserved} credits for ${taskId}, never settled, and no hold carries them (${what})`,
      );
    }
  yield;

  out.push(...(yield* scheduleSteps(st, areas, tasks)));
  return out;
}

/** Running tasks no scheduled event can move (see the file's comment). */
function* scheduleSteps(st: State, areas: ReadonlyMap<string, readonly string[]>, tasks: Map<string, StoredTask>): Generator<void, string[], void> {
  const out: string[] = [];
  const scheduled = new Map<string, Record<string, unknown>[]>();
  for (const [i, ev] of st.scheduler.events.entries()) {
    if (i % INVARIANT_SLICE === INVARIANT_SLICE - 1) yield;
    const { area, taskId } = ev.args as { area?: unknown; taskId?: unknown };
    if (typeof area !== 'string' || typeof taskId !== 'string') continue;
    const k = `${area}\u0000${taskId}`;
    const list = scheduled.get(k);
    if (list) list.push(ev.args);
    else scheduled.set(k, [ev.args]);
  }
  for (const [area, store] of Object.entries(st.stores)) {
    if (!areas.has(area)) continue;
    for (const [i, e] of store.entries.entries()) {
      if (i % INVARIANT_SLICE === INVARIANT_SLICE - 1) yield;
      const task = tasks.get(e.id)!;
      if (!task.live) continue;
      const steps = (e.record as { lifecycle?: { steps?: unknown[] } }).lifecycle?.steps?.length ?? 0;
      const moves = (scheduled.get(`${area}\u0000${e.id}`) ?? []).some((a) =>
        a.type === 'timeout'
          ? Array.isArray(a.statuses) && a.statuses.includes(task.status)
          : a.expect === task.status && (a.type !== 'step' || Number(a.step) < steps),
      );
      if (!moves)
        out.push(
          `${whereOf(task)}: every running task has its scheduled events: ${e.id} is ${task.status} and no event of scheduler.events moves it from there (a step or an action expecting ${task.status}, or a timeout)`,
        );
    }
  }
  return out;
}
