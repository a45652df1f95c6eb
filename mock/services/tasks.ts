/**
 * The task kit: what every asynchronous area shares, written once
 * (docs/architecture.md, "The task kit"; decisions/0008-task-kit.md). A task
 * is a record in the area's store, grouped by its status, owned by the key
 * that created it. The kit:
 *
 * - reserves its credits at creation (or refuses with the area's error, nothing taken);
 * - runs a lifecycle on the engine's scheduler: a list of status steps in
 *   virtual time, the last one success (the hold is captured, in full or in
 *   part), with a forced failure replacing a step (the hold is refunded) and a
 *   forced stuck task that never reaches a step;
 * - runs timeouts (the sweep) and named one-off actions;
 * - looks tasks up for their owner, pages them newest first, deletes them;
 * - reports every change of status to the engine's activity feed;
 * - keeps tasks replayed from a recording (`replayed` set: mock/http/recording/replay.ts,
 *   decisions/0029-record-and-replay.md) beside the area's own: they are
 *   stored, paged, counted, evicted, deleted and moved like them, and hold and
 *   settle their credits the same way, but the area's code never sees one (a
 *   lookup by id does not find it, except for a delete; the area's hooks are
 *   not called; a list shows it through the replay's view).
 *
 * Everything a task needs later is data: its lifecycle is saved on its record
 * and every scheduled event is `{kind: 'task', args}`, so the state can be
 * saved and restored with the schedule. What an area does on a move, a
 * failure or an action is a hook of its kit (`TaskHooks`), registered once.
 * Each event checks that its task is still stored and where the event expects
 * it, so a timeout, a delete or a reset in between wins. An event that throws
 * fails its task (refunded) and is reported as a mock bug. Standard
 * JavaScript only.
 */
import { z } from 'zod';
import { errorCatalog, type CatalogError, type ErrorName } from '../../schemas/errors.ts';
import { operations } from '../../schemas/operations.ts';
import type { OperationDef } from '../../schemas/registry-types.ts';
import { createSlot, type Engine } from '../engine/engine.ts';
import type { ServiceContext } from './context.ts';

/** One step of a lifecycle: after `afterMs` (virtual ms since the previous move) the task moves to `status`. */
export interface LifecycleStep<S extends string> {
  status: S;
  afterMs: number;
}

/** How a task moves on from its current status. Plain data: it is saved with the state. */
export interface Lifecycle<S extends string> {
  /** The statuses the task moves through, in order; the last is success: the hold is captured first. */
  steps: readonly LifecycleStep<S>[];
  /** Credits to keep when capturing (default: the whole hold; the rest is refunded). */
  charge?: number;
  /**
   * A forced failure: instead of entering step `atStep`, the task fails (its
   * hold refunded) with `reason` (the area's failure reason: an error name,
   * or a word of its own), `afterMs` after the previous move (default: that
   * step's own delay).
   */
  failure?: { atStep: number; reason: string; afterMs?: number };
  /** The task never enters step `stuckBefore` (Prefer: outcome=stuck): it stays where it is; timeouts still apply. */
  stuckBefore?: number;
}

/** The fields the kit keeps on every task; an area's task record extends it. Records are plain data. */
export interface Task<S extends string = string> {
  readonly id: string;
  /** The API key that created the task. */
  readonly owner: string;
  status: S;
  /** Virtual time of creation, epoch ms. */
  readonly createdAt: number;
  /** Virtual time of the last change of status, epoch ms. */
  updatedAt: number;
  /** The lifecycle the task runs, when it runs one. */
  lifecycle?: Lifecycle<S>;
  /** Set on a task replayed from a recording: which recorded task it replays, and its ids as recorded -> as here. */
  readonly replayed?: ReplayedOf;
}

/** What a replayed task keeps of its recording (mock/http/recording/replay.ts): the index of its recorded task, its ids mapped. */
export interface ReplayedOf {
  task: number;
  ids: [string, string][];
}

/** The schema of `ReplayedOf` in a saved record. */
const ReplayedOfSchema = z.strictObject({ task: z.number().int().min(0), ids: z.array(z.tuple([z.string().min(1), z.string().min(1)])) });

/**
 * How a list shows a replayed task: the replay's view (set with `setReplayedView`), given the list's request
 * context and the task. Without one (a saved state with replayed tasks loaded into a mock without the
 * recording), the kit's own fields.
 */
const replayedViews = createSlot<{ view?: (ctx: ServiceContext, task: Task) => unknown }>('replayed task view', () => ({}));

/** Sets how lists show the tasks replayed on `engine` (the replay of a recording does, when it loads). */
export function setReplayedView(engine: Engine, view: (ctx: ServiceContext, task: Task) => unknown): void {
  engine.slot(replayedViews).view = view;
}

/** What an area does when its tasks move. Hooks run inside scheduled events (or the create call). */
export interface TaskHooks<T extends Task> {
  /** After each move of a lifecycle, with the new status (to set what it brings: fields of success, a freed slot, ...). */
  onEnter?: (engine: Engine, task: T, status: T['status'], at: number) => void;
  /** After a failure (forced, a timeout, a fault of the mock): its reason and the credits refunded. */
  onFail?: (engine: Engine, task: T, reason: string, refunded: number, at: number) => void;
  /** A named action scheduled with `action()`, when it comes due and the task is still where it was. */
  onAction?: (engine: Engine, task: T, action: string, at: number) => void;
}

/** The errors a lookup answers with (E: errors the caller's operation declares), and how the message names the field. */
export interface LookupErrors<E extends ErrorName = ErrorName> {
  notFound: E;
  /** The task exists but belongs to another key; default: `notFound` (the task is hidden). */
  forbidden?: E;
  /** The field the message names (default taskId). */
  field?: string;
}

/** A page of tasks as the list endpoints answer it. */
export interface TaskPage<I> {
  items: I[];
  page: number;
  pageSize: number;
  total: number;
}

export interface TaskKitConfig<S extends string> {
  /** The area's name: its store, its name in the activity feed and in scheduled events. */
  area: string;
  /** Prefix of the task ids, e.g. `vt` for `vt_1a2b3c4d5e6f7a8b`. */
  idPrefix: string;
  /** What the area calls a task in messages (default "task"). */
  noun?: string;
  /** Statuses a task never leaves (success and failure). */
  terminal: readonly S[];
  /**
   * The status a failed task takes. Absent for a kit whose tasks are stored
   * finished (a synchronous area's records: a speech script, a stem
   * separation): they never run a lifecycle, so they cannot fail.
   */
  failStatus?: S;
}

const Int = z.number().int();
const SafeInt = Int.min(Number.MIN_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);

/** The schema of a saved lifecycle (`Lifecycle`), with steps in `statuses`. */
function lifecycleSchema<const S extends readonly [string, ...string[]]>(statuses: S) {
  return z.strictObject({
    steps: z.array(z.strictObject({ status: z.enum(statuses), afterMs: SafeInt.min(0) })).min(1),
    charge: Int.min(0).optional(),
    failure: z.strictObject({ atStep: Int.min(0), reason: z.string().min(1), afterMs: SafeInt.min(0).optional() }).optional(),
    stuckBefore: Int.min(0).optional(),
  });
}

/**
 * The schema a saved task record of an area must pass before a state is
 * loaded: the kit's fields (status one of `statuses`), then the area's own
 * `fields`, and nothing else (strict). An area's record type is this schema's
 * (`z.infer`), declared once.
 */
export function taskRecordSchema<const S extends readonly [string, ...string[]], F extends z.ZodRawShape>(statuses: S, fields: F) {
  const own = z.strictObject({
    id: z.string().min(1),
    owner: z.string().min(1),
    status: z.enum(statuses),
    createdAt: SafeInt,
    updatedAt: SafeInt,
    lifecycle: lifecycleSchema(statuses).optional(),
    ...fields,
  });
  // a replayed task has the kit's fields only, its statuses the recording's (decisions/0029-record-and-replay.md)
  const replayed = z.strictObject({
    id: z.string().min(1),
    owner: z.string().min(1),
    status: z.string().min(1),
    createdAt: SafeInt,
    updatedAt: SafeInt,
    lifecycle: z
      .strictObject({
        steps: z.array(z.strictObject({ status: z.string().min(1), afterMs: SafeInt.min(0) })).min(1),
        charge: Int.min(0).optional(),
        failure: z.strictObject({ atStep: Int.min(0), reason: z.string().min(1), afterMs: SafeInt.min(0).optional() }).optional(),
        stuckBefore: Int.min(0).optional(),
      })
      .optional(),
    replayed: ReplayedOfSchema,
  });
  // the record's own schema by its kind, so a refusal names the field (a union would only say "Invalid input"); typed
  // as the area's record: a replayed one carries its `replayed` mark, which the kit checks before area code reads it
  return z.custom<z.output<typeof own> & { readonly replayed?: ReplayedOf }>().superRefine((value, ctx) => {
    const isReplayed = typeof value === 'object' && value !== null && 'replayed' in value;
    const r = (isReplayed ? replayed : own).safeParse(value);
    if (!r.success) for (const issue of r.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
  });
}

/**
 * A record field of type `T` whose shape another module owns (a spoken line of mock/services/narration.ts, the speech
 * of mock/services/spoken.ts): checked as a plain object when a saved state is loaded, typed as `T`.
 */
export function objectOf<T>() {
  return z.custom<T>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), { message: 'expected an object' });
}

/** The reason a task fails when one of its own events throws (a mock bug). */
export const MOCK_FAULT_REASON = 'MOCK_INTERNAL_ERROR';

/**
 * The reason a created task fails with when its request forced
 * `outcome=failed` (docs/architecture.md, "Forcing outcomes"): the forced
 * `error` when the request named one (the request path checked it against
 * the operation's failureReasons), else the first reason the operation
 * declares, its default. Undefined when the request forced no failure.
 * Every area decides it here.
 */
export function forcedFailureReason(ctx: Pick<ServiceContext, 'forcing' | 'operationId'>): ErrorName | undefined {
  if (ctx.forcing.outcome !== 'failed') return undefined;
  const op: OperationDef = operations[ctx.operationId];
  const declared = op.failureReasons;
  const reason = ctx.forcing.error ?? declared?.[0];
  if (reason === undefined) throw new Error(`${ctx.operationId}: outcome=failed forced, but the operation declares no failure reason`);
  return reason;
}

/** The catalogue entry of failure `reason` when it is a catalogued error's name; undefined for a reason of the area's own (a timeout kind). */
export function cataloguedReason(reason: string): CatalogError | undefined {
  return Object.hasOwn(errorCatalog, reason) ? errorCatalog[reason as ErrorName] : undefined;
}

/** The message of failure `reason` as a task shows it: `<code>: <meaning>` for a catalogued reason, else the reason itself. */
export function failureMessage(reason: string): string {
  const known = cataloguedReason(reason);
  return known ? `${known.code}: ${known.meaning}` : reason;
}

/** Kind of every event the kit schedules. */
const EVENT_KIND = 'task';

/** The arguments of a task event (checked when a saved state is loaded): the area must be one with a task kit. */
const TaskEventArgs = z.discriminatedUnion('type', [
  z.strictObject({ area: z.string(), taskId: z.string(), type: z.literal('step'), step: z.number().int().min(0), expect: z.string() }),
  z.strictObject({ area: z.string(), taskId: z.string(), type: z.literal('timeout'), statuses: z.array(z.string()), reason: z.string() }),
  z.strictObject({ area: z.string(), taskId: z.string(), type: z.literal('action'), action: z.string(), expect: z.string() }),
]);
type TaskEventArgs = z.infer<typeof TaskEventArgs>;

/** The task kits installed on an engine, by area (see `TaskKit.install`). */
const taskKits = createSlot('task kits by area', () => new Map<string, TaskKit<Task>>());

/** The task kits of the services composed onto `engine`, by area: scheduled events name their kit by area. */
function kitsOf(engine: Engine): Map<string, TaskKit<Task>> {
  return engine.slot(taskKits);
}

/** The task kit of `area` on `engine`, if a service composed onto it has one. */
export function taskKitOf(engine: Engine, area: string): TaskKit<Task> | undefined {
  return kitsOf(engine).get(area);
}

/** The kits on `engine`, each with its area's id prefix (a replay places a recorded task by its id's form). */
export function taskKitsOf(engine: Engine): TaskKit<Task>[] {
  return [...kitsOf(engine).values()];
}

/** The replayed task `id` of any area on `engine`, with its kit; undefined when no store holds a replayed task by that id. */
export function replayedTaskOf(engine: Engine, id: string): { kit: TaskKit<Task>; task: Task } | undefined {
  for (const kit of kitsOf(engine).values()) {
    const task = kit.store(engine).get(id)?.record;
    if (task) return task.replayed ? { kit, task } : undefined;
  }
  return undefined;
}

/**
 * The areas whose tasks `engine` runs (the kits installed on it), each with
 * its terminal statuses: what a saved state's tasks are checked against
 * (mock/services/state-invariants.ts).
 */
export function taskAreasOf(engine: Engine): Map<string, readonly string[]> {
  return new Map([...kitsOf(engine)].map(([area, kit]) => [area, kit.config.terminal]));
}

export class TaskKit<T extends Task<S>, S extends string = T['status']> {
  constructor(
    readonly config: TaskKitConfig<S>,
    readonly hooks: TaskHooks<T> = {},
  ) {}

  /**
   * Lets `engine` run the task events of `kits` (the kits of the services
   * composed onto it): needed before a saved schedule is loaded; scheduling
   * through a kit installs that kit too. Throws when two kits name one area.
   */
  static install(engine: Engine, kits: readonly TaskKit<Task>[] = []): void {
    const known = kitsOf(engine);
    for (const kit of kits) {
      const had = known.get(kit.config.area);
      if (had && had !== kit) throw new Error(`task kit: area ${kit.config.area} has a kit already`);
      known.set(kit.config.area, kit);
    }
    if (!engine.scheduler.handles(EVENT_KIND))
      engine.scheduler.handle(
        EVENT_KIND,
        (args, at) => runTaskEvent(engine, args as TaskEventArgs, at),
        TaskEventArgs.refine((a) => known.has(a.area), { message: 'no area of this mock runs tasks by that name', path: ['area'] }),
      );
  }

  /** The area's store. */
  store(engine: Engine) {
    return engine.store<T>(this.config.area);
  }

  /** The stored task `id` of any owner, or undefined (media routes look tasks up by id alone); a replayed task is not the area's. */
  find(engine: Engine, id: string): T | undefined {
    const r = this.store(engine).get(id)?.record;
    return r?.replayed ? undefined : r;
  }

  /** A new task id for the caller: deterministic in (seed, key, area, count). */
  nextId(ctx: ServiceContext): string {
    return ctx.engine.nextId(this.config.idPrefix, ctx.account.apiKey, this.config.area);
  }

  /**
   * A new id for a synchronous answer of the area (nothing stored: image's synchronous generation): `prefix` and a
   * counter of the caller's key of its own (`counter`), deterministic like `nextId`.
   */
  nextSyncId(ctx: ServiceContext, prefix: string, counter: string): string {
    return ctx.engine.nextId(prefix, ctx.account.apiKey, counter);
  }

  /** Takes the hold of `id` (a synchronous answer, which has no lifecycle to capture it): `reserve` first. Returns the credits kept. */
  capture(ctx: ServiceContext, id: string): number {
    return ctx.engine.accounts.capture(id, ctx.now);
  }

  /**
   * Takes `credits` from the caller's balance as the hold of task `id`.
   * Errors: `insufficient` (nothing taken) when the balance is short.
   */
  reserve<E extends ErrorName>(ctx: ServiceContext<E>, id: string, credits: number, insufficient: E, note: string): void {
    if (ctx.account.credits < credits)
      throw ctx.fail(
        insufficient,
        `insufficient credits: this ${this.config.noun ?? 'task'} costs ${credits} credits and the balance is ${ctx.account.credits}`,
      );
    ctx.engine.accounts.reserve(ctx.account, id, credits, ctx.now, note);
  }

  /**
   * Stores the caller's new task `id` in `status`, created at `at` (virtual
   * ms, default `ctx.now`): the kit's fields (id, the caller's key as owner,
   * status, createdAt and updatedAt) around the area's own `fields`, through
   * `add` (so within the bounds). Reserve its credits first (`reserve`).
   */
  create(ctx: ServiceContext, id: string, status: S, fields: Omit<T, keyof Task>, at: number = ctx.now): T {
    return this.add(ctx.engine, { id, owner: ctx.account.apiKey, status, createdAt: at, updatedAt: at, ...fields } as T);
  }

  /**
   * Stores a new task in its initial status. Beyond the engine's
   * `limits.tasksPerKey` (this key) or `limits.tasks` (all keys), the oldest
   * finished tasks of this area are dropped (they answer not-found from then
   * on); running ones are kept.
   */
  add(engine: Engine, task: T): T {
    const store = this.store(engine);
    store.insert(task.owner, task.id, task, task.status);
    this.report(engine, task);
    if (store.countOf(task.owner) > engine.limits.tasksPerKey)
      this.evicted(engine, store.evictOldest(task.owner, engine.limits.tasksPerKey, this.config.terminal));
    if (store.size > engine.limits.tasks) this.evicted(engine, store.evictOldestOverall(engine.limits.tasks, this.config.terminal));
    return task;
  }

  /** Tells the activity feed of tasks `add` dropped beyond the bounds. */
  private evicted(engine: Engine, gone: readonly T[]): void {
    for (const old of gone)
      engine.activity.record({ at: engine.clock.now(), area: this.config.area, taskId: old.id, apiKey: old.owner, status: 'evicted', terminal: true });
  }

  /** Moves `task` to `status` at `at` (virtual ms): updatedAt, the status list, the activity feed. */
  move(engine: Engine, task: T, status: S, at: number): void {
    task.status = status;
    task.updatedAt = at;
    this.store(engine).regroup(task.id, status);
    this.report(engine, task);
  }

  /** True when `task` is in a terminal status. */
  isTerminal(task: T): boolean {
    return this.config.terminal.includes(task.status);
  }

  /** Starts `lifecycle` (saved on the task) from the task's current status at virtual time `from`. */
  run(engine: Engine, task: T, lifecycle: Lifecycle<S>, from: number): void {
    task.lifecycle = lifecycle;
    this.scheduleStep(engine, task, 0, from);
  }

  /** Schedules a timeout: at `at`, a task still in one of `statuses` fails with `reason` (refunded). */
  timeout(engine: Engine, task: T, at: number, statuses: readonly S[], reason: string): void {
    this.schedule(engine, at, { area: this.config.area, taskId: task.id, type: 'timeout', statuses: [...statuses], reason });
  }

  /** Schedules the area's `action` (its `onAction` hook) at `at`, if the task is then still in its current status. */
  action(engine: Engine, task: T, at: number, action: string): void {
    this.schedule(engine, at, { area: this.config.area, taskId: task.id, type: 'action', action, expect: task.status });
  }

  /** Success: captures the hold (`charge` credits of it, default all; the rest refunded) and moves to `status`. Returns the credits kept. */
  succeed(engine: Engine, task: T, status: S, at: number, charge?: number): number {
    const kept = engine.accounts.capture(task.id, at, charge);
    this.move(engine, task, status, at);
    return kept;
  }

  /** Failure: refunds the hold in full, moves to the failed status and calls the area's `onFail`. Returns the credits refunded. */
  fail(engine: Engine, task: T, at: number, reason: string): number {
    if (this.config.failStatus === undefined) throw new Error(`${this.config.area}: its tasks are stored finished and cannot fail (${task.id}: ${reason})`);
    const refunded = engine.accounts.release(task.id, at, `refund: ${reason}`);
    this.move(engine, task, this.config.failStatus, at);
    if (!task.replayed) this.hooks.onFail?.(engine, task, reason, refunded, at);
    return refunded;
  }

  /**
   * The caller's task `id`. Errors: `errors.notFound` for an unknown id (and
   * for another key's task unless `errors.forbidden` is given, then that one).
   */
  own<E extends ErrorName>(ctx: ServiceContext<E>, id: string, errors: LookupErrors<E>): T {
    const field = errors.field ?? 'taskId';
    const hit = this.store(ctx.engine).get(id);
    // a replayed task has only the kit's fields: a delete needs no more, any other operation is the replay's
    if (!hit || (hit.record.replayed && (operations as Record<string, OperationDef>)[ctx.operationId]?.method !== 'delete'))
      throw ctx.fail(errors.notFound, `${field} ${id}: ${this.config.noun ?? 'task'} not found`);
    if (hit.owner !== ctx.account.apiKey) {
      if (errors.forbidden) throw ctx.fail(errors.forbidden, `${field} ${id}: the ${this.config.noun ?? 'task'} belongs to another user`);
      throw ctx.fail(errors.notFound, `${field} ${id}: ${this.config.noun ?? 'task'} not found`);
    }
    return hit.record;
  }

  /** A page of the caller's tasks, newest first, optionally only those in `status`, each shown with `view`. */
  page<I>(ctx: ServiceContext, query: { page: number; pageSize: number; status?: S }, view: (task: T) => I): TaskPage<I> {
    const p = this.store(ctx.engine).pageNewestFirst(ctx.account.apiKey, query.page, query.pageSize, query.status);
    const replayedView = ctx.engine.slot(replayedViews).view;
    const show = (t: T): I => (t.replayed ? ((replayedView?.(ctx, t) ?? { id: t.id, status: t.status }) as I) : view(t));
    return { items: p.items.map(show), page: query.page, pageSize: query.pageSize, total: p.total };
  }

  /** Deletes `task`: later lookups do not find it, lists leave it out, its scheduled events do nothing. */
  remove(engine: Engine, task: T): void {
    this.store(engine).delete(task.id);
    engine.activity.record({ at: engine.clock.now(), area: this.config.area, taskId: task.id, apiKey: task.owner, status: 'deleted', terminal: true });
  }

  /** Runs step `i` of the task's lifecycle now (a scheduled event). */
  step(engine: Engine, task: T, i: number, at: number): void {
    const l = task.lifecycle;
    if (!l || i >= l.steps.length) return;
    if (l.failure?.atStep === i) {
      this.fail(engine, task, at, l.failure.reason);
      return;
    }
    const status = l.steps[i].status;
    if (i === l.steps.length - 1) this.succeed(engine, task, status, at, l.charge);
    else this.move(engine, task, status, at);
    if (!task.replayed) this.hooks.onEnter?.(engine, task, status, at);
    this.scheduleStep(engine, task, i + 1, at);
  }

  private scheduleStep(engine: Engine, task: T, i: number, from: number): void {
    const l = task.lifecycle;
    if (!l || i >= l.steps.length || l.stuckBefore === i) return;
    const failing = l.failure?.atStep === i ? l.failure : undefined;
    this.schedule(engine, from + (failing?.afterMs ?? l.steps[i].afterMs), {
      area: this.config.area,
      taskId: task.id,
      type: 'step',
      step: i,
      expect: task.status,
    });
  }

  /** Schedules task event `args` at `at` (virtual ms), installing this kit first unless the engine has it already (a kit known to an engine has its handler: handlers are never removed). */
  private schedule(engine: Engine, at: number, args: TaskEventArgs): void {
    if (kitsOf(engine).get(this.config.area) !== (this as unknown)) TaskKit.install(engine, [this as unknown as TaskKit<Task>]);
    engine.scheduler.at(at, EVENT_KIND, args);
  }

  private report(engine: Engine, task: T): void {
    engine.activity.record({
      at: task.updatedAt,
      area: this.config.area,
      taskId: task.id,
      apiKey: task.owner,
      status: task.status,
      terminal: this.isTerminal(task),
    });
  }
}

/**
 * Runs one task event: finds the kit and the task (gone: nothing to do),
 * checks the task is where the event expects it, and runs the step, the
 * timeout or the action. When that throws, the task fails with a refund
 * (reason MOCK_FAULT_REASON) and the error goes on to the scheduler, which
 * reports it as a mock bug.
 */
function runTaskEvent(engine: Engine, args: TaskEventArgs, at: number): void {
  const kit = kitsOf(engine).get(args.area);
  if (!kit) throw new Error(`task event for unknown area ${args.area}`);
  // a replayed task moves by its kit's events too
  const task = kit.store(engine).get(args.taskId)?.record;
  if (!task) return;
  try {
    if (args.type === 'step') {
      if (task.status === args.expect) kit.step(engine, task, args.step, at);
    } else if (args.type === 'timeout') {
      if (args.statuses.includes(task.status)) kit.fail(engine, task, at, args.reason);
    } else if (task.status === args.expect && !task.replayed) kit.hooks.onAction?.(engine, task, args.action, at);
  } catch (e) {
    if (!kit.isTerminal(task)) {
      try {
        kit.fail(engine, task, at, MOCK_FAULT_REASON);
      } catch {
        // the area's failure hook is broken too: at least the money and the status are right
        engine.accounts.release(task.id, at, `refund: ${MOCK_FAULT_REASON}`);
        if (!kit.isTerminal(task) && kit.config.failStatus !== undefined) kit.move(engine, task, kit.config.failStatus, at);
      }
    }
    throw e;
  }
}
