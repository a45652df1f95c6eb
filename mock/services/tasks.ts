/**
 * The task kit: what every asynchronous area shares, written once
 * (docs/architecture.md, "The task kit"). A task is a record in the area's
 * store, grouped by its status, owned by the key that created it. The kit:
 *
 * - reserves its credits at creation (or refuses with the area's error, nothing taken);
 * - runs a lifecycle on the engine's scheduler: a list of status steps in
 *   virtual time, the last one success (the hold is captured, in full or in
 *   part), with a forced failure replacing a step (the hold is refunded) and a
 *   forced stuck task that never reaches a step;
 * - runs timeouts (the sweep): a task still in one of some statuses at a time fails;
 * - looks tasks up for their owner, pages them newest first, deletes them;
 * - reports every change of status to the engine's activity feed.
 *
 * Each scheduled step checks that the task is still stored and still in the
 * status it left it in, so a timeout, a delete or a reset in between wins.
 * Standard JavaScript only.
 */
import type { ErrorName } from '../../schemas/errors.ts';
import { ApiError } from '../engine/api-error.ts';
import type { Engine } from '../engine/engine.ts';
import type { ServiceContext } from './context.ts';

/** The fields the kit keeps on every task; an area's task record extends it. */
export interface Task<S extends string = string> {
  readonly id: string;
  /** The API key that created the task. */
  readonly owner: string;
  status: S;
  /** Virtual time of creation, epoch ms. */
  readonly createdAt: number;
  /** Virtual time of the last change of status, epoch ms. */
  updatedAt: number;
}

/** One step of a lifecycle: after `afterMs` (virtual ms since the previous move) the task moves to `status`. */
export interface LifecycleStep<S extends string> {
  status: S;
  afterMs: number;
}

/** How a task moves on from its current status. */
export interface Lifecycle<S extends string> {
  /** The statuses the task moves through, in order; the last is success: the hold is captured first. */
  steps: readonly LifecycleStep<S>[];
  /** Credits to keep when capturing (default: the whole hold; the rest is refunded). */
  charge?: () => number;
  /** Called after each move, with the new status (to set what it brings: URLs on success, ...). */
  onEnter?: (status: S, at: number) => void;
  /**
   * A forced failure: instead of entering step `atStep`, the task fails into
   * `status` (its hold refunded), `afterMs` after the previous move (default:
   * that step's own delay). `onFail` gets the credits refunded.
   */
  failure?: { atStep: number; status: S; afterMs?: number; note: string; onFail: (at: number, refunded: number) => void };
  /** The task never enters step `stuckBefore` (Prefer: outcome=stuck): it stays where it is; timeouts still apply. */
  stuckBefore?: number;
}

/** The errors a lookup answers with, and how the message names the field. */
export interface LookupErrors {
  notFound: ErrorName;
  /** The task exists but belongs to another key; default: `notFound` (the task is hidden). */
  forbidden?: ErrorName;
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
  /** The area's name: its store and its name in the activity feed. */
  area: string;
  /** Statuses a task never leaves (success and failure). */
  terminal: readonly S[];
  /** Prefix of the task ids, e.g. `vt` for `vt_1a2b3c4d5e6f7a8b`. */
  idPrefix: string;
  /** What the area calls a task in messages (default "task"). */
  noun?: string;
}

export class TaskKit<T extends Task<S>, S extends string = T['status']> {
  constructor(readonly config: TaskKitConfig<S>) {}

  /** The area's store. */
  store(engine: Engine) {
    return engine.store<T>(this.config.area);
  }

  /** A new task id for the caller: deterministic in (seed, key, area, count). */
  nextId(ctx: ServiceContext): string {
    return ctx.engine.nextId(this.config.idPrefix, ctx.account.apiKey, this.config.area);
  }

  /**
   * Takes `credits` from the caller's balance as the hold of task `id`.
   * Errors: `insufficient` (nothing taken) when the balance is short.
   */
  reserve(ctx: ServiceContext, id: string, credits: number, insufficient: ErrorName, note: string): void {
    if (ctx.account.credits < credits)
      throw new ApiError(
        insufficient,
        `insufficient credits: this ${this.config.noun ?? 'task'} costs ${credits} credits and the balance is ${ctx.account.credits}`,
      );
    ctx.engine.accounts.reserve(ctx.account, id, credits, ctx.now, note);
  }

  /** Stores a new task in its initial status. */
  add(engine: Engine, task: T): T {
    this.store(engine).insert(task.owner, task.id, task, task.status);
    this.report(engine, task);
    return task;
  }

  /** Moves `task` to `status` at `at` (virtual ms): updatedAt, the status list, the activity feed. */
  move(engine: Engine, task: T, status: S, at: number): void {
    task.status = status;
    task.updatedAt = at;
    this.store(engine).regroup(task.id, status);
    this.report(engine, task);
  }

  /** The stored task `id` of any owner, or undefined (media routes look tasks up by id alone). */
  find(engine: Engine, id: string): T | undefined {
    return this.store(engine).get(id)?.record;
  }

  /** True when `task` is in a terminal status. */
  isTerminal(task: T): boolean {
    return this.config.terminal.includes(task.status);
  }

  /** True while `task` is stored (not deleted, no reset since). */
  isStored(engine: Engine, task: T): boolean {
    return this.store(engine).get(task.id)?.record === task;
  }

  /** Schedules `step` at `at`, run only if `task` is then still stored and in `status`. */
  when(engine: Engine, task: T, status: S, at: number, step: (at: number) => void): void {
    engine.scheduler.at(at, (t) => {
      if (task.status === status && this.isStored(engine, task)) step(t);
    });
  }

  /** Schedules a timeout: at `at`, a task still in one of `statuses` gets `fire` (which usually calls `fail`). */
  timeout(engine: Engine, task: T, at: number, statuses: readonly S[], fire: (at: number) => void): void {
    engine.scheduler.at(at, (t) => {
      if (statuses.includes(task.status) && this.isStored(engine, task)) fire(t);
    });
  }

  /** Starts `lifecycle` from the task's current status at virtual time `from`. */
  run(engine: Engine, task: T, lifecycle: Lifecycle<S>, from: number): void {
    this.schedule(engine, task, lifecycle, 0, from);
  }

  private schedule(engine: Engine, task: T, l: Lifecycle<S>, i: number, from: number): void {
    if (i >= l.steps.length || l.stuckBefore === i) return;
    const failing = l.failure?.atStep === i ? l.failure : undefined;
    const at = from + (failing?.afterMs ?? l.steps[i].afterMs);
    this.when(engine, task, task.status, at, (t) => {
      if (failing) {
        const refunded = this.fail(engine, task, failing.status, t, failing.note);
        failing.onFail(t, refunded);
        return;
      }
      if (i === l.steps.length - 1) this.succeed(engine, task, l.steps[i].status, t, l.charge?.());
      else this.move(engine, task, l.steps[i].status, t);
      l.onEnter?.(l.steps[i].status, t);
      this.schedule(engine, task, l, i + 1, t);
    });
  }

  /** Success: captures the hold (`charge` credits of it, default all; the rest refunded) and moves to `status`. Returns the credits kept. */
  succeed(engine: Engine, task: T, status: S, at: number, charge?: number): number {
    const kept = engine.accounts.capture(task.id, at, charge);
    this.move(engine, task, status, at);
    return kept;
  }

  /** Failure: refunds the hold in full and moves to `status`. Returns the credits refunded. */
  fail(engine: Engine, task: T, status: S, at: number, note: string): number {
    const refunded = engine.accounts.release(task.id, at, note);
    this.move(engine, task, status, at);
    return refunded;
  }

  /**
   * The caller's task `id`. Errors: `errors.notFound` for an unknown id (and
   * for another key's task unless `errors.forbidden` is given, then that one).
   */
  own(ctx: ServiceContext, id: string, errors: LookupErrors): T {
    const field = errors.field ?? 'taskId';
    const hit = this.store(ctx.engine).get(id);
    if (!hit) throw new ApiError(errors.notFound, `${field} ${id}: ${this.config.noun ?? 'task'} not found`);
    if (hit.owner !== ctx.account.apiKey) {
      if (errors.forbidden) throw new ApiError(errors.forbidden, `${field} ${id}: the ${this.config.noun ?? 'task'} belongs to another user`);
      throw new ApiError(errors.notFound, `${field} ${id}: ${this.config.noun ?? 'task'} not found`);
    }
    return hit.record;
  }

  /** A page of the caller's tasks, newest first, optionally only those in `status`, each shown with `view`. */
  page<I>(ctx: ServiceContext, query: { page: number; pageSize: number; status?: S }, view: (task: T) => I): TaskPage<I> {
    const p = this.store(ctx.engine).pageNewestFirst(ctx.account.apiKey, query.page, query.pageSize, query.status);
    return { items: p.items.map(view), page: query.page, pageSize: query.pageSize, total: p.total };
  }

  /** Deletes `task`: later lookups do not find it, lists leave it out, its scheduled steps do nothing. */
  remove(engine: Engine, task: T): void {
    this.store(engine).delete(task.id);
    engine.activity.record({ at: engine.clock.now(), area: this.config.area, taskId: task.id, apiKey: task.owner, status: 'deleted', terminal: true });
  }

  private report(engine: Engine, task: T): void {
    engine.activity.record({
      at: task.updatedAt,
      area: this.config.area,
      taskId: task.id,
      apiKey: task.owner,
      status: task.status,
      terminal: this.config.terminal.includes(task.status),
    });
  }
}
