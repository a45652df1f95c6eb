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
import { invariantProblems, protoKeys } from './state-invariants.ts';
import { taskAreasOf } from './tasks.ts';

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
  // before the schema: a parsed "__proto__" key would set a prototype, not a member
  const reserved = protoKeys(value);
  if (reserved.length) throw new ApiError('CONTROL_INVALID_REQUEST', `state: ${reserved.join('; ')} (nothing was loaded)`);
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
 * for an area's saved state its schema refuses (or no area keeps), and for
 * each invariant of mock/services/state-invariants.ts the document breaks
 * (holds, ledgers, running tasks and their events, times, reserved names),
 * naming the invariant and where.
 */
export function loadState(engine: Engine, value: unknown): { seed: number; now: number; accounts: number; tasks: number } {
  const doc = parseState(value);
  const problems = [
    ...engine.storeProblems(doc.state.stores),
    ...engine.scheduler.problemsOf(doc.state.scheduler.events).map((p) => `scheduler.${p}`),
    ...engine.stateProblems(doc.state.singletons),
    ...invariantProblems(doc.state, taskAreasOf(engine)),
  ];
  if (problems.length)
    throw new ApiError(
      'CONTROL_INVALID_REQUEST',
      `state: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? `; and ${problems.length - 5} more` : ''} (nothing was loaded)`,
    );
  // the document is Zod's output, made for this load: the engine takes it without a copy
  engine.restore(doc.state, true);
  const st = doc.state;
  return {
    seed: engine.seed,
    now: engine.clock.now(),
    accounts: st.accounts.accounts.length,
    tasks: Object.values(st.stores).reduce((n, s) => n + s.entries.length, 0),
  };
}
