/**
 * The task kit (mock/services/tasks.ts) on a bare engine: lifecycles in
 * virtual time, money (reserve, capture in full or in part, refund), forced
 * failure and stuck, the timeout sweep, named actions, owner lookup, paging,
 * delete, the activity feed, a fault in an area's hook, and a lifecycle that
 * goes on after the schedule is saved and loaded into another engine. Every
 * area's lifecycle is built from these, so they are tested once here, with
 * the engine's manual clock.
 */
import { describe, expect, it } from 'vitest';
import { Engine } from '../mock/engine/engine.ts';
import { ApiError } from '../mock/engine/api-error.ts';
import type { ServiceContext } from '../mock/services/context.ts';
import type { ErrorName } from '../schemas/errors.ts';
import { MOCK_FAULT_REASON, TaskKit, type Lifecycle, type Task } from '../mock/services/tasks.ts';

type Status = 'pending' | 'working' | 'done' | 'failed';
interface Rec extends Task<Status> {
  note: string[];
  refunds: [string, number][];
  /** Makes the onEnter hook throw when it enters this status (a fault of the area). */
  breakOn?: Status;
}

const KEY = 'mg_kit_secret1';
const OTHER = 'mg_kit_secret2';
const kit = new TaskKit<Rec>(
  { area: 'kit', idPrefix: 'kt', terminal: ['done', 'failed'], failStatus: 'failed' },
  {
    onEnter(_engine, r, status, at) {
      if (r.breakOn === status) throw new Error(`hook broke on ${status}`);
      r.note.push(`${status}@${at}`);
    },
    onFail: (_engine, r, reason, refunded) => void r.refunds.push([reason, refunded]),
    onAction: (engine, r, action, at) => void (action === 'give-up' ? kit.fail(engine, r, at, 'gave up') : r.note.push(`${action}@${at}`)),
  },
);

function setup(credits = 100, engine = new Engine({ seed: 7 })) {
  engine.accounts.update(KEY, { credits }, engine.tick());
  const ctx = (key = KEY): ServiceContext<ErrorName> => ({
    engine,
    account: engine.accounts.get(key, engine.tick()),
    now: engine.tick(),
    forcing: {},
    operationId: 'getSubscription',
    url: (p) => `http://x${p}`,
    fail: (error, message) => new ApiError(error, message),
  });
  const create = (credits: number, key = KEY, extra: Partial<Rec> = {}): Rec => {
    const c = ctx(key);
    const id = kit.nextId(c);
    kit.reserve(c, id, credits, 'VIDEO_INSUFFICIENT_CREDITS', 'kit task');
    return kit.add(engine, { id, owner: key, status: 'pending', createdAt: c.now, updatedAt: c.now, note: [], refunds: [], ...extra });
  };
  return { engine, ctx, create, balance: (key = KEY) => engine.accounts.get(key, engine.tick()).credits };
}

const twoSteps = (extra: Partial<Lifecycle<Status>> = {}): Lifecycle<Status> => ({
  steps: [
    { status: 'working', afterMs: 1000 },
    { status: 'done', afterMs: 2000 },
  ],
  ...extra,
});

describe('lifecycle', () => {
  it('moves through the steps at their times and captures the hold on the last', () => {
    const { engine, create, balance } = setup();
    const r = create(30);
    const t0 = r.createdAt;
    kit.run(engine, r, twoSteps(), t0);
    expect(balance()).toBe(70);
    engine.advance(999);
    expect(r.status).toBe('pending');
    engine.advance(1);
    expect([r.status, r.updatedAt]).toEqual(['working', t0 + 1000]);
    engine.advance(2000);
    expect([r.status, r.updatedAt]).toEqual(['done', t0 + 3000]);
    expect(r.note).toEqual([`working@${t0 + 1000}`, `done@${t0 + 3000}`]);
    expect(balance()).toBe(70);
    const ledger = engine.accounts
      .get(KEY, engine.tick())
      .ledger.filter((e) => e.taskId === r.id)
      .map((e) => [e.type, e.amount]);
    expect(ledger).toEqual([
      ['reserve', -30],
      ['capture', 0],
    ]);
  });

  it('a partial charge keeps part of the hold and refunds the rest', () => {
    const { engine, create, balance } = setup();
    const r = create(30);
    kit.run(engine, r, twoSteps({ charge: 12 }), r.createdAt);
    engine.advance(3000);
    expect(r.status).toBe('done');
    expect(balance()).toBe(88);
  });

  it.each([
    [0, 1000, 'failed before working'],
    [1, 3000, 'failed instead of done'],
  ])('a forced failure at step %i (after %i ms) refunds the hold in full: %s', (atStep, whenMs) => {
    const { engine, create, balance } = setup();
    const r = create(30);
    kit.run(engine, r, twoSteps({ failure: { atStep, reason: 'forced' } }), r.createdAt);
    engine.advance(whenMs - 1);
    expect(r.status).not.toBe('failed');
    engine.advance(1);
    expect(r.status).toBe('failed');
    expect(r.updatedAt).toBe(r.createdAt + whenMs);
    expect(r.refunds).toEqual([['forced', 30]]);
    expect(balance()).toBe(100);
    engine.advance(60_000);
    expect(r.status).toBe('failed');
  });

  it('a failure with its own delay happens then, not at the step time', () => {
    const { engine, create } = setup();
    const r = create(5);
    kit.run(engine, r, twoSteps({ failure: { atStep: 0, reason: 'late', afterMs: 60_000 } }), r.createdAt);
    engine.advance(59_999);
    expect(r.status).toBe('pending');
    engine.advance(1);
    expect(r.status).toBe('failed');
  });

  it('a stuck task never enters the step it is stuck before; a timeout still fails it and refunds', () => {
    const { engine, create, balance } = setup();
    const r = create(30);
    kit.run(engine, r, twoSteps({ stuckBefore: 1 }), r.createdAt);
    kit.timeout(engine, r, r.createdAt + 30 * 60_000, ['pending', 'working'], 'timeout');
    engine.advance(30 * 60_000 - 1);
    expect(r.status).toBe('working');
    expect(balance()).toBe(70);
    engine.advance(1);
    expect(r.status).toBe('failed');
    expect(r.refunds).toEqual([['timeout', 30]]);
    expect(balance()).toBe(100);
  });

  it('a timeout does nothing to a task that finished first', () => {
    const { engine, create, balance } = setup();
    const r = create(30);
    kit.run(engine, r, twoSteps(), r.createdAt);
    kit.timeout(engine, r, r.createdAt + 10_000, ['pending', 'working'], 'timeout');
    engine.advance(20_000);
    expect(r.status).toBe('done');
    expect(r.refunds).toEqual([]);
    expect(balance()).toBe(70);
  });

  it('a named action runs its hook when due, only if the task is still in the status it was scheduled in', () => {
    const { engine, create } = setup();
    const waiting = create(1);
    kit.action(engine, waiting, waiting.createdAt + 500, 'ping');
    const moving = create(1);
    kit.action(engine, moving, moving.createdAt + 5000, 'give-up');
    kit.run(engine, moving, twoSteps(), moving.createdAt);
    engine.advance(10_000);
    expect(waiting.note).toEqual([`ping@${waiting.createdAt + 500}`]);
    expect(moving.status).toBe('done');
    expect(moving.refunds).toEqual([]);
  });

  it('a deleted task takes no further step; a reset drops every task and its schedule', () => {
    const { engine, create } = setup();
    const r = create(30);
    kit.run(engine, r, twoSteps(), r.createdAt);
    engine.advance(1000);
    kit.remove(engine, r);
    engine.advance(5000);
    expect(r.status).toBe('working');
    const s = create(30);
    kit.run(engine, s, twoSteps(), s.createdAt);
    engine.reset();
    engine.advance(5000);
    expect(s.status).toBe('pending');
    expect(kit.store(engine).size).toBe(0);
  });
});

describe('faults', () => {
  it("a hook that throws fails its task with a refund, is reported, and the other tasks' events still run", () => {
    const { engine, create, balance } = setup();
    const broken = create(30, KEY, { breakOn: 'working' });
    const fine = create(20);
    kit.run(engine, broken, twoSteps(), broken.createdAt);
    kit.run(engine, fine, twoSteps(), fine.createdAt);
    engine.advance(3000);
    expect(broken.status).toBe('failed');
    expect(broken.refunds).toEqual([[MOCK_FAULT_REASON, 30]]);
    expect(fine.status).toBe('done');
    expect(balance()).toBe(80);
    expect(engine.bugs).toHaveLength(1);
    expect(engine.bugs[0].problem).toContain('hook broke on working');
    expect(engine.bugs[0].where).toContain('scheduled task event');
  });
});

describe('saved schedule', () => {
  it('a lifecycle goes on in another engine after the schedule and the store are saved and loaded', () => {
    const a = setup();
    const r = a.create(30);
    kit.run(a.engine, r, twoSteps({ charge: 10 }), r.createdAt);
    a.engine.advance(1500);
    // what a saved state holds: the schedule (data events) and the records (plain data)
    const schedule = JSON.parse(JSON.stringify(a.engine.scheduler.dump()));
    const record: Rec = JSON.parse(JSON.stringify(r));
    const b = setup(100, new Engine({ seed: 7 }));
    TaskKit.install(b.engine, [kit as unknown as TaskKit<Task>]);
    kit.store(b.engine).insert(record.owner, record.id, record, record.status);
    b.engine.scheduler.load(schedule);
    b.engine.clock.advance(1500);
    b.engine.advance(1500);
    expect(record.status).toBe('done');
    expect(record.note.at(-1)).toBe(`done@${r.createdAt + 3000}`);
    a.engine.advance(1500);
    expect(r).toEqual(record);
  });
});

describe('money, lookup, paging', () => {
  it('reserve refuses a short balance with the area error and takes nothing', () => {
    const { ctx, balance } = setup(10);
    const c = ctx();
    let caught: unknown;
    try {
      kit.reserve(c, 'kt_x', 11, 'F5_INSUFFICIENT_CREDITS', 'x');
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(ApiError);
    expect((caught as ApiError).error).toBe('F5_INSUFFICIENT_CREDITS');
    expect((caught as ApiError).message).toMatch(/11 credits.*balance is 10/);
    expect(balance()).toBe(10);
  });

  it.each([
    [{ notFound: 'VIDEO_TASK_NOT_FOUND', forbidden: 'VIDEO_TASK_FORBIDDEN' } as const, 'VIDEO_TASK_FORBIDDEN'],
    [{ notFound: 'IMAGE_TASK_NOT_FOUND' } as const, 'IMAGE_TASK_NOT_FOUND'],
  ])("own: unknown id and another key's task answer the lookup errors (%o)", (errors, foreignError) => {
    const { create, ctx } = setup();
    const mine = create(1);
    expect(kit.own(ctx(), mine.id, errors)).toBe(mine);
    const codeOf = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return (e as ApiError).error;
      }
      return 'ok';
    };
    expect(codeOf(() => kit.own(ctx(), 'kt_missing', errors))).toBe(errors.notFound);
    expect(codeOf(() => kit.own(ctx(OTHER), mine.id, errors))).toBe(foreignError);
  });

  it('page: newest first, filtered by status, owner-scoped, deleted tasks left out', () => {
    const { engine, create, ctx } = setup(1000);
    const made = Array.from({ length: 5 }, () => create(1));
    create(1, OTHER);
    kit.move(engine, made[1], 'done', engine.tick());
    kit.move(engine, made[3], 'done', engine.tick());
    kit.remove(engine, made[4]);
    const all = kit.page(ctx(), { page: 1, pageSize: 10 }, (r) => r.id);
    expect(all).toEqual({ items: [made[3].id, made[2].id, made[1].id, made[0].id], page: 1, pageSize: 10, total: 4 });
    expect(kit.page(ctx(), { page: 1, pageSize: 10, status: 'done' }, (r) => r.id).items).toEqual([made[3].id, made[1].id]);
    expect(kit.page(ctx(), { page: 2, pageSize: 3 }, (r) => r.id).items).toEqual([made[0].id]);
  });

  it('every change of status reaches the activity feed, terminal ones marked', () => {
    const { engine, create } = setup();
    const r = create(3);
    kit.run(engine, r, twoSteps(), r.createdAt);
    engine.advance(3000);
    kit.remove(engine, r);
    const feed = engine.activity
      .since(0)
      .filter((a) => a.taskId === r.id)
      .map((a) => [a.status, a.terminal]);
    expect(feed).toEqual([
      ['pending', false],
      ['working', false],
      ['done', true],
      ['deleted', true],
    ]);
  });
});
