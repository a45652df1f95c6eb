/**
 * How a recorded task becomes a task of the mock's world when it is replayed
 * (decisions/0029-record-and-replay.md, "Replayed tasks are tasks of the
 * world"): the area that keeps it (the kit whose id prefix its id has, else
 * the kit of its poll operation's area), the lifecycle its recorded statuses
 * make (each status at its recorded offset; the success step captures the
 * hold, a recorded failure refunds it, a recording that ends before the task
 * did leaves it to the lifecycle's timeout), the credits it holds (what its
 * recorded answers say it was charged), and the fields of its list item.
 */
import type { z } from 'zod';
import { operations } from '../../../schemas/operations.ts';
import type { ErrorName } from '../../../schemas/errors.ts';
import type { LifecycleDef, OperationDef } from '../../../schemas/registry-types.ts';
import type { Engine } from '../../engine/engine.ts';
import { taskKitOf, taskKitsOf, type Lifecycle, type Task, type TaskKit } from '../../services/tasks.ts';
import type { RecordedExchange, RecordedTask, Recording } from './format.ts';

const ops = operations as Record<string, OperationDef>;

/** The area of a poll operation whose area's name is not its tag's (the kits' areas, mock/services/). */
const AREA_OF_POLL: Record<string, string> = {
  getFlowSpeechEpisode: 'flow-speech',
  getVoiceClone: 'voice-clone',
  getStorybookEpisode: 'storybook',
  getExtraction: 'extraction',
};

/** The prefix of an id of the form `<prefix>_<tail>`, or undefined. */
export function prefixOf(id: string): string | undefined {
  const cut = id.lastIndexOf('_');
  return cut > 0 ? id.slice(0, cut) : undefined;
}

/** The kit of `engine` that keeps recorded task `t`: by its id's prefix, else by its poll operation's area; undefined when none does. */
export function kitFor(engine: Engine, t: RecordedTask): TaskKit<Task> | undefined {
  const prefix = prefixOf(t.taskId);
  const byPrefix = prefix === undefined ? undefined : taskKitsOf(engine).find((k) => k.config.idPrefix === prefix);
  if (byPrefix) return byPrefix;
  const tag = ops[t.pollOperationId]?.tags[0];
  const area = AREA_OF_POLL[t.pollOperationId] ?? tag?.toLowerCase().replace(/\s+/g, '-');
  return area === undefined ? undefined : taskKitOf(engine, area);
}

/** The contract's lifecycle of `t` (its create operation's `x-lifecycle`). */
export function lifecycleDefOf(t: RecordedTask): LifecycleDef | undefined {
  return ops[t.operationId]?.lifecycle;
}

/** The `data` of a recorded JSON envelope, if any. */
export function dataOf(x: RecordedExchange | undefined): Record<string, unknown> | undefined {
  const b = x?.responseBody;
  const data = b && 'json' in b ? (b.json as { data?: unknown } | null)?.data : undefined;
  return data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
}

/**
 * The credits recorded task `t` held: the most its answers (its create and every request naming it) show in its
 * lifecycle's charged field (`creditCharged`, `creditCost`, `credits`: a running task shows its hold, a failed one
 * may show 0 once refunded); 0 when they show none.
 */
export function chargeOf(rec: Recording, t: RecordedTask): number {
  const field = lifecycleDefOf(t)?.chargedField;
  if (!field) return 0;
  let charge = 0;
  for (const x of rec.exchanges) {
    if (x.seq !== t.createSeq && !x.path.split('/').includes(encodeURIComponent(t.taskId))) continue;
    const v = dataOf(x)?.[field];
    if (typeof v === 'number' && Number.isInteger(v) && v > charge) charge = v;
  }
  return charge;
}

/** The error `operationId` declares for a balance that does not cover a create (its `..._INSUFFICIENT_CREDITS`), if any. */
export function insufficientErrorOf(operationId: string): ErrorName | undefined {
  return (ops[operationId]?.errors as readonly ErrorName[] | undefined)?.find((e) => /INSUFFICIENT_CREDITS$/.test(e));
}

/** Default wait before a replayed task whose recording ends before it did fails, when its lifecycle gives none (30 minutes, as the video lifecycle's). */
const DEFAULT_TIMEOUT_MS = 30 * 60_000;

/** The reason a replayed task fails with when its recording ends before the task did and its lifecycle's timeout passes. */
export const RECORDING_ENDED = 'the recording ends before this task did; timed out';

/** The reason a replayed task fails with at the recorded failure. */
export const RECORDED_FAILURE = 'failed as recorded';

/**
 * How recorded task `t` runs in the world: its first recorded status, then a
 * step to each later one at its recorded offset. The success status ends the
 * lifecycle (its hold captured); a failure ends it through the kit's failure
 * (refunded); a recording that ends on a status that is not terminal leaves it
 * there (stuck) until `timeoutAt` ms after its start.
 */
export function replayedLifecycle(t: RecordedTask): { initial: string; lifecycle?: Lifecycle<string>; settle?: 'capture' | 'release'; timeoutMs?: number } {
  const def = lifecycleDefOf(t);
  // a task read by one operation may end in another stage's status (a podcast episode's text, then its audio):
  // the successes and terminal statuses of every lifecycle polled the same way count
  const stages = Object.values(ops).flatMap((op) => (op.lifecycle?.pollOperationId === t.pollOperationId ? [op.lifecycle] : []));
  const successes = new Set([def?.success ?? 'success', ...stages.map((l) => l.success)]);
  const terminal = new Set([...successes, ...(def?.terminal ?? []), ...stages.flatMap((l) => l.terminal)]);
  const [first, ...rest] = t.statuses;
  const last = t.statuses[t.statuses.length - 1];
  const steps = rest.map((s, i) => ({ status: s.status, afterMs: s.atMs - (i === 0 ? first.atMs : rest[i - 1].atMs) }));
  if (rest.length === 0 && terminal.has(first.status)) return { initial: first.status, settle: successes.has(first.status) ? 'capture' : 'release' };
  if (successes.has(last.status)) return { initial: first.status, lifecycle: { steps } };
  if (terminal.has(last.status)) {
    // the kit fails a task instead of entering a step: the failure takes the place of the last recorded status
    const gap = steps.pop()!.afterMs;
    steps.push({ status: def?.success ?? 'success', afterMs: gap });
    return { initial: first.status, lifecycle: { steps, failure: { atStep: steps.length - 1, reason: RECORDED_FAILURE, afterMs: gap } } };
  }
  steps.push({ status: def?.success ?? 'success', afterMs: 0 });
  return { initial: first.status, lifecycle: { steps, stuckBefore: steps.length - 1 }, timeoutMs: def?.timeoutMs ?? DEFAULT_TIMEOUT_MS };
}

/** The object shape of a Zod schema, through the wrappers (optional, default, pipe, meta). */
function shapeOf(schema: unknown): Record<string, z.ZodType> | undefined {
  let s = schema as { shape?: Record<string, z.ZodType>; _zod?: { def?: Record<string, unknown> } } | undefined;
  for (let i = 0; s && i < 10; i++) {
    if (s.shape) return s.shape;
    const d = s._zod?.def;
    s = (d?.innerType ?? d?.in ?? d?.schema) as typeof s;
  }
  return undefined;
}

/** The fields of the items of list operation `operationId`'s page (`data.items`), with their schemas; undefined for another answer. */
export function listItemShape(operationId: string): Record<string, z.ZodType> | undefined {
  let items = shapeOf(ops[operationId]?.response.kind === 'envelope' ? (ops[operationId].response as { schema: unknown }).schema : undefined)?.items as
    { _zod?: { def?: Record<string, unknown> } } | undefined;
  for (let i = 0; items && i < 10; i++) {
    const d = items._zod?.def;
    if (d?.type === 'array') return shapeOf(d.element);
    items = (d?.innerType ?? d?.in) as typeof items;
  }
  return undefined;
}

/**
 * A list item of shape `shape` from `read` (the recorded read of the task's status, ids mapped, URLs on this mock):
 * each field of the item from the read, else from `listed` (the task's item in a recorded list answer), else from
 * the recorded create's body, else null when the field takes null, else "" when it takes a string.
 */
export function listItemOf(
  shape: Record<string, z.ZodType>,
  read: Record<string, unknown>,
  listed: Record<string, unknown> | undefined,
  body: unknown,
): Record<string, unknown> {
  const item: Record<string, unknown> = {};
  const sent = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  for (const [k, schema] of Object.entries(shape)) {
    if (k in read) item[k] = read[k];
    else if (listed && k in listed) item[k] = listed[k];
    else if (k in sent && schema.safeParse(sent[k]).success) item[k] = sent[k];
    else if (schema.safeParse(null).success) item[k] = null;
    else if (schema.safeParse('').success) item[k] = '';
  }
  return item;
}
