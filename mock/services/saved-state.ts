/**
 * Saved state (docs/architecture.md, "The control API"): the engine's
 * snapshot in a versioned document (`MockState` of schemas/control.ts), read
 * and replaced by the control API (GET and PUT /__mock/state, on every
 * transport) and by the CLI's --state FILE (mock/http/state-file.ts). A
 * document is validated in full before anything is replaced: a wrong
 * version, a corrupt or inconsistent document is refused with a message
 * naming what is wrong, and the state in memory is left as it was.
 * Standard JavaScript only.
 */
import { MockState, STATE_FORMAT, STATE_VERSION } from '../../schemas/control.ts';
import { ApiError } from '../engine/api-error.ts';
import type { Engine } from '../engine/engine.ts';

/** The engine's state as a document (GET /__mock/state, the --state file). */
export function stateOf(engine: Engine): MockState {
  return { format: STATE_FORMAT, version: STATE_VERSION, state: engine.snapshot() as MockState['state'] };
}

/**
 * The document `value` validated: the format and version first (a clear
 * message for a file of another version), then every field and the
 * consistency checks. Errors: CONTROL_INVALID_REQUEST naming the problem.
 */
export function parseState(value: unknown): MockState {
  const head = value as { format?: unknown; version?: unknown } | null;
  if (typeof head !== 'object' || head === null || head.format !== STATE_FORMAT)
    throw new ApiError('CONTROL_INVALID_REQUEST', `state: not a mediagen-mock state (its "format" must be "${STATE_FORMAT}"; nothing was loaded)`);
  if (head.version !== STATE_VERSION)
    throw new ApiError(
      'CONTROL_INVALID_REQUEST',
      `state: version ${JSON.stringify(head.version)} is not supported; this mock reads version ${STATE_VERSION} (nothing was loaded)`,
    );
  const r = MockState.safeParse(value);
  if (!r.success)
    throw new ApiError(
      'CONTROL_INVALID_REQUEST',
      `state: ${r.error.issues
        .slice(0, 5)
        .map((i) => `${i.path.join('.') || '(document)'}: ${i.message}`)
        .join('; ')}${r.error.issues.length > 5 ? `; and ${r.error.issues.length - 5} more` : ''} (nothing was loaded)`,
    );
  return r.data;
}

/**
 * Replaces the engine's state with a validated document; returns what was
 * loaded. Errors: see parseState; also CONTROL_INVALID_REQUEST for a
 * scheduled event this engine cannot run (unknown kind, args its kind refuses),
 * and for an area's saved state its schema refuses (or no area keeps).
 */
export function loadState(engine: Engine, value: unknown): { seed: number; now: number; accounts: number; tasks: number } {
  const doc = parseState(value);
  const problems = [
    ...engine.storeProblems(doc.state.stores),
    ...holdProblems(doc),
    ...engine.scheduler.problemsOf(doc.state.scheduler.events).map((p) => `scheduler.${p}`),
    ...engine.stateProblems(doc.state.singletons),
  ];
  if (problems.length)
    throw new ApiError(
      'CONTROL_INVALID_REQUEST',
      `state: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? `; and ${problems.length - 5} more` : ''} (nothing was loaded)`,
    );
  engine.restore(doc.state as Parameters<Engine['restore']>[0]);
  const st = doc.state;
  return {
    seed: engine.seed,
    now: engine.clock.now(),
    accounts: st.accounts.accounts.length,
    tasks: Object.values(st.stores).reduce((n, s) => n + s.entries.length, 0),
  };
}

/**
 * Holds that do not match their ledgers: a hold's amount must be what the
 * ledger of its account reserved for that task, and that reserve not yet
 * settled. A hold whose reserve was folded into the ledger's summary entry
 * (a long ledger) cannot be checked and is taken as it is.
 */
function holdProblems(doc: MockState): string[] {
  const accounts = new Map(doc.state.accounts.accounts.map((a) => [a.apiKey, a]));
  const out: string[] = [];
  doc.state.accounts.holds.forEach(([taskId, hold], i) => {
    const acc = accounts.get(hold.apiKey);
    if (!acc) return; // named by the document's own checks
    const entries = acc.ledger.filter((e) => e.taskId === taskId);
    const reserve = [...entries].reverse().find((e) => e.type === 'reserve');
    if (!reserve) {
      if (!acc.ledger.some((e) => e.taskId === null && /earlier entries, folded$/.test(e.note)))
        out.push(`accounts.holds.${i}: the hold of ${taskId} (${hold.amount} credits) has no reserve entry in the ledger of ${hold.apiKey}`);
      return;
    }
    if (-reserve.amount !== hold.amount)
      out.push(`accounts.holds.${i}: the hold of ${taskId} is ${hold.amount} credits; the ledger of ${hold.apiKey} reserved ${-reserve.amount}`);
    else if (entries.some((e) => e.seq > reserve.seq && (e.type === 'capture' || e.type === 'release')))
      out.push(`accounts.holds.${i}: the hold of ${taskId} was settled already in the ledger of ${hold.apiKey}`);
  });
  return out;
}
