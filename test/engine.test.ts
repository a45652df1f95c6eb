/**
 * Unit tests of the engine pieces (mock/engine/*): scheduler, clock, rate
 * limiter, owned store, accounts and ledgers, seeded randomness.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Accounts } from '../mock/engine/accounts.ts';
import { Clock } from '../mock/engine/clock.ts';
import { ActivityFeed } from '../mock/engine/activity.ts';
import { Journal } from '../mock/engine/journal.ts';
import { RateLimiter } from '../mock/engine/rate-limiter.ts';
import { Ring } from '../mock/engine/ring.ts';
import { hash32, Rng } from '../mock/engine/rng.ts';
import { Scheduler } from '../mock/engine/scheduler.ts';
import { OwnedStore } from '../mock/engine/store.ts';

/** Args of any shape. */
const anyArgs = z.record(z.string(), z.unknown());
/** Args of a `log` event. */
const LogArgs = z.strictObject({ name: z.string(), at: z.boolean().optional() });

/** A scheduler whose `log` events push their `name` (with the due time when `at` is set) to `ran`. */
function logging() {
  const s = new Scheduler();
  const ran: string[] = [];
  s.handle('log', (args, at) => void ran.push(args.at ? `${String(args.name)}@${at}` : String(args.name)), LogArgs);
  return { s, ran };
}

describe('Scheduler', () => {
  it('runs events by due time, then by insertion order', () => {
    const { s, ran } = logging();
    for (const [due, name] of [
      [30, 'c30'],
      [10, 'a10'],
      [20, 'b20-1'],
      [20, 'b20-2'],
      [10, 'a10-2'],
      [20, 'b20-3'],
    ] as const)
      s.at(due, 'log', { name });
    expect(s.runUntil(20)).toBe(5);
    expect(ran).toEqual(['a10', 'a10-2', 'b20-1', 'b20-2', 'b20-3']);
    expect(s.size).toBe(1);
    expect(s.runUntil(29)).toBe(0);
    expect(s.runUntil(30)).toBe(1);
    expect(ran.at(-1)).toBe('c30');
  });

  it('keeps order for many events inserted in scrambled order (heap property)', () => {
    const s = new Scheduler();
    const dues = Array.from({ length: 200 }, (_, i) => (i * 7919) % 97);
    const ran: [number, number][] = [];
    s.handle('n', (args, at) => void ran.push([at, args.i as number]), anyArgs);
    dues.forEach((d, i) => s.at(d, 'n', { i }));
    expect(s.runUntil(1000)).toBe(200);
    const expected = dues.map((d, i) => [d, i] as [number, number]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    expect(ran).toEqual(expected);
  });

  it('passes the due time to the handler, and events scheduled by events run in the same runUntil if due', () => {
    const { s, ran } = logging();
    s.handle(
      'parent',
      (_args, at) => {
        ran.push(`first@${at}`);
        s.at(at + 5, 'child', {});
        s.at(at, 'log', { name: 'same-time', at: true });
      },
      anyArgs,
    );
    s.handle(
      'child',
      (_args, at) => {
        ran.push(`child@${at}`);
        s.at(at + 100, 'log', { name: 'grandchild-late' });
      },
      anyArgs,
    );
    s.at(10, 'parent', {});
    s.at(12, 'log', { name: 'other', at: true });
    expect(s.runUntil(20)).toBe(4);
    expect(ran).toEqual(['first@10', 'same-time@10', 'other@12', 'child@15']);
    expect(s.size).toBe(1);
    s.clear();
    expect(s.size).toBe(0);
    expect(s.runUntil(1e9)).toBe(0);
  });

  it('an event that throws, or has no handler, is reported and the run goes on with the next one', () => {
    const { s, ran } = logging();
    const faults: string[] = [];
    s.onFault = (ev, e) => faults.push(`${ev.kind}@${ev.due}: ${(e as Error).message}`);
    s.handle(
      'boom',
      () => {
        throw new Error('broken');
      },
      anyArgs,
    );
    s.at(1, 'log', { name: 'a' });
    s.at(2, 'boom', {});
    s.at(3, 'nobody-handles-this', {});
    s.at(4, 'log', { name: 'b' });
    expect(s.runUntil(10)).toBe(4);
    expect(ran).toEqual(['a', 'b']);
    expect(faults).toEqual(['boom@2: broken', 'nobody-handles-this@3: no handler for scheduled event kind nobody-handles-this']);
    expect(s.size).toBe(0);
  });

  it('dump and load carry the pending events and the sequence: a loaded scheduler runs the same events in the same order', () => {
    const a = logging();
    for (const [due, name] of [
      [5, 'x'],
      [5, 'y'],
      [3, 'z'],
    ] as const)
      a.s.at(due, 'log', { name });
    const saved = JSON.parse(JSON.stringify(a.s.dump()));
    const b = logging();
    b.s.load(saved);
    b.s.at(5, 'log', { name: 'after-load' });
    a.s.at(5, 'log', { name: 'after-load' });
    a.s.runUntil(10);
    b.s.runUntil(10);
    expect(b.ran).toEqual(['z', 'x', 'y', 'after-load']);
    expect(b.ran).toEqual(a.ran);
  });

  it('one handler per kind', () => {
    const s = new Scheduler();
    const h = () => {};
    s.handle('k', h, anyArgs);
    s.handle('k', h, anyArgs);
    expect(() => s.handle('k', () => {}, anyArgs)).toThrow();
  });

  it.each([
    { events: [{ kind: 'log', args: { name: 'a' } }], problems: [] },
    { events: [{ kind: 'log', args: { name: 'a', at: true } }], problems: [] },
    { events: [{ kind: 'nope', args: {} }], problems: ['events.0.kind'] },
    {
      events: [
        { kind: 'log', args: { name: 'a' } },
        { kind: 'log', args: { name: 7 } },
      ],
      problems: ['events.1.args.name'],
    },
    { events: [{ kind: 'log', args: { name: 'a', extra: 1 } }], problems: ['events.0.args'] },
  ])('problemsOf: saved events of unknown kinds or with args their kind refuses are named ($problems)', ({ events, problems }) => {
    const { s } = logging();
    expect(s.problemsOf(events).map((p) => p.split(':')[0])).toEqual(problems);
  });
});

describe('Clock', () => {
  it('manual: time moves only when advanced; reset returns to the start', () => {
    const c = new Clock({ mode: 'manual', startTime: 1000 });
    expect(c.now()).toBe(1000);
    expect(c.now()).toBe(1000);
    expect(c.advance(250)).toBe(1250);
    expect(c.now()).toBe(1250);
    c.reset();
    expect(c.now()).toBe(1000);
  });

  it('rejects negative or non-finite advances', () => {
    const c = new Clock({ mode: 'manual', startTime: 0 });
    expect(() => c.advance(-1)).toThrow(RangeError);
    expect(() => c.advance(Number.NaN)).toThrow(RangeError);
    expect(c.now()).toBe(0);
  });

  it('real: follows the injected wall source times speed, plus advances', () => {
    let wall = 5_000;
    const c = new Clock({ mode: 'real', startTime: 1_000_000, speed: 10, wallNow: () => wall });
    expect(c.now()).toBe(1_000_000);
    wall += 100;
    expect(c.now()).toBe(1_001_000);
    c.advance(7);
    expect(c.now()).toBe(1_001_007);
    wall += 1;
    expect(c.now()).toBe(1_001_017);
    c.reset();
    expect(c.now()).toBe(1_000_000);
    wall += 3;
    expect(c.now()).toBe(1_000_030);
  });

  it('real: speed 1 by default; integer ms', () => {
    let wall = 0;
    const c = new Clock({ mode: 'real', startTime: 0, wallNow: () => wall });
    wall = 12.7;
    expect(c.now()).toBe(12);
  });

  it('real mode without a wall source is refused', () => {
    expect(() => new Clock({ mode: 'real', startTime: 0 })).toThrow();
  });
});

describe('RateLimiter (sliding window)', () => {
  it('allows `limit` per window, then refuses with the ms until the oldest leaves', () => {
    const r = new RateLimiter();
    const at = [0, 10, 20, 30, 40];
    for (const t of at) expect(r.hit('k', 'b', 5, 60_000, t)).toEqual({ allowed: true, retryAfterMs: 0 });
    expect(r.hit('k', 'b', 5, 60_000, 50)).toEqual({ allowed: false, retryAfterMs: 59_950 });
    // a refused request does not count: at 60_000 the first (t=0) has left.
    expect(r.hit('k', 'b', 5, 60_000, 59_999)).toEqual({ allowed: false, retryAfterMs: 1 });
    expect(r.hit('k', 'b', 5, 60_000, 60_000).allowed).toBe(true);
    expect(r.hit('k', 'b', 5, 60_000, 60_001)).toEqual({ allowed: false, retryAfterMs: 60_010 - 60_001 });
    expect(r.hit('k', 'b', 5, 60_000, 60_010).allowed).toBe(true);
  });

  it('windows are per account and per bucket', () => {
    const r = new RateLimiter();
    expect(r.hit('a', 'b', 1, 1000, 0).allowed).toBe(true);
    expect(r.hit('a', 'b', 1, 1000, 0).allowed).toBe(false);
    expect(r.hit('other', 'b', 1, 1000, 0).allowed).toBe(true);
    expect(r.hit('a', 'other', 1, 1000, 0).allowed).toBe(true);
  });

  it('disabled: always allowed; clear forgets the windows', () => {
    const r = new RateLimiter();
    expect(r.hit('a', 'b', 1, 1000, 0).allowed).toBe(true);
    expect(r.hit('a', 'b', 1, 1000, 0).allowed).toBe(false);
    r.clear();
    expect(r.hit('a', 'b', 1, 1000, 0).allowed).toBe(true);
    r.enabled = false;
    for (let i = 0; i < 10; i++) expect(r.hit('a', 'b', 1, 1000, 0)).toEqual({ allowed: true, retryAfterMs: 0 });
  });
});

describe('Ring', () => {
  it.each([
    { capacity: 3, pushed: 0, held: [] },
    { capacity: 3, pushed: 2, held: [1, 2] },
    { capacity: 3, pushed: 3, held: [1, 2, 3] },
    { capacity: 3, pushed: 4, held: [2, 3, 4] },
    { capacity: 3, pushed: 8, held: [6, 7, 8] },
    { capacity: 1, pushed: 5, held: [5] },
    { capacity: 0, pushed: 5, held: [] },
  ])('capacity $capacity after $pushed pushes holds the last ones, oldest first', ({ capacity, pushed, held }) => {
    const r = new Ring<number>(capacity);
    for (let n = 1; n <= pushed; n++) r.push(n);
    expect(r.toArray()).toEqual(held);
    expect(r.length).toBe(held.length);
    expect(r.at(0)).toBe(held[0]);
    expect(r.toArray(1)).toEqual(held.slice(1));
  });

  it('loads the last `capacity` items and goes on from them', () => {
    const r = new Ring<number>(3);
    for (let n = 1; n <= 5; n++) r.push(n);
    r.load([10, 11, 12, 13]);
    expect(r.toArray()).toEqual([11, 12, 13]);
    r.push(14);
    expect(r.toArray()).toEqual([12, 13, 14]);
    r.clear();
    expect(r.toArray()).toEqual([]);
  });

  it('journal and activity feed keep their last entries with their sequence numbers', () => {
    const j = new Journal(2);
    for (const status of [200, 201, 202]) j.record({ at: 0, method: 'GET', path: '/x', operationId: null, keyId: null, status, code: null });
    expect(j.list().map((e) => [e.seq, e.status])).toEqual([
      [2, 201],
      [3, 202],
    ]);
    expect(j.total).toBe(3);
    const f = new ActivityFeed(2);
    for (const status of ['a', 'b', 'c']) f.record({ at: 0, area: 'video', taskId: 't', apiKey: 'k', status, terminal: false });
    expect(f.since(0).map((e) => e.status)).toEqual(['b', 'c']);
    expect(f.since(2).map((e) => e.status)).toEqual(['c']);
    expect(f.since(3)).toEqual([]);
  });

  it('over its byte budget the journal lets go of the oldest responses before any request', () => {
    // each response body is a string of 1,000 characters: about 2 KB in the heap; the requests themselves are small
    const j = new Journal(100, 8_000);
    const big = 'r'.repeat(1_000);
    for (const status of [200, 201, 202, 203, 204, 205])
      j.record({ at: 0, method: 'GET', path: '/x', operationId: null, keyId: null, status, code: null, responseBody: big });
    // every request is still listed; only the newest responses fit in 8,000 bytes
    expect(j.list().map((e) => e.status)).toEqual([200, 201, 202, 203, 204, 205]);
    const kept = j.list().map((e) => (e.responseDropped ? 'dropped' : e.responseBody === big ? 'kept' : 'other'));
    expect(kept.slice(-1)).toEqual(['kept']);
    expect(kept.indexOf('kept')).toBeGreaterThan(0);
    expect(kept.slice(0, kept.indexOf('kept')).every((k) => k === 'dropped')).toBe(true);
    expect(kept.slice(kept.indexOf('kept')).every((k) => k === 'kept')).toBe(true);
    expect(j.bytes).toBeLessThanOrEqual(8_000);
    // once the requests alone exceed the budget, the oldest entries go
    const tiny = new Journal(100, 600);
    for (const status of [200, 201, 202, 203, 204, 205]) tiny.record({ at: 0, method: 'GET', path: '/x', operationId: null, keyId: null, status, code: null });
    expect(tiny.list().length).toBeLessThan(6);
    expect(tiny.list().at(-1)?.status).toBe(205);
  });
});

describe('OwnedStore', () => {
  const fill = () => {
    const s = new OwnedStore<{ id: string; n: number }>();
    for (let n = 1; n <= 7; n++) s.insert('alice', `a${n}`, { id: `a${n}`, n }, n % 2 === 0 ? 'even' : 'odd');
    for (let n = 1; n <= 2; n++) s.insert('bob', `b${n}`, { id: `b${n}`, n });
    return s;
  };

  it('pages newest first with the total', () => {
    const s = fill();
    const ids = (p: { items: { id: string }[] }) => p.items.map((i) => i.id);
    expect(ids(s.pageNewestFirst('alice', 1, 3))).toEqual(['a7', 'a6', 'a5']);
    expect(ids(s.pageNewestFirst('alice', 2, 3))).toEqual(['a4', 'a3', 'a2']);
    expect(ids(s.pageNewestFirst('alice', 3, 3))).toEqual(['a1']);
    expect(s.pageNewestFirst('alice', 4, 3)).toEqual({ items: [], total: 7 });
    expect(s.pageNewestFirst('alice', 1, 3).total).toBe(7);
    expect(s.pageNewestFirst('nobody', 1, 3)).toEqual({ items: [], total: 0 });
    expect(ids(s.pageNewestFirst('bob', 1, 20))).toEqual(['b2', 'b1']);
  });

  it.each([
    { groups: ['odd', 'even'], keep: 4, gone: ['a1', 'a2', 'a3'] },
    { groups: ['even'], keep: 4, gone: ['a2', 'a4', 'a6'] },
    { groups: ['even'], keep: 2, gone: ['a2', 'a4', 'a6'] }, // only the even ones may go
    { groups: ['odd'], keep: 5, gone: ['a1', 'a3'] },
    { groups: ['none'], keep: 1, gone: [] },
    { groups: ['odd', 'even'], keep: 7, gone: [] },
  ])('evicts the oldest records of the groups $groups down to $keep, oldest first', ({ groups, keep, gone }) => {
    const s = fill();
    expect(s.evictOldest('alice', keep, groups).map((r) => r.id)).toEqual(gone);
    for (const id of gone) expect(s.get(id)).toBeUndefined();
    expect(s.countOf('alice')).toBe(7 - gone.length);
    expect(s.countOf('bob')).toBe(2);
  });

  it.each([
    // every owner's records of the groups, oldest first: bob's b1 (odd) was inserted after alice's a7
    { groups: ['odd', 'even'], keep: 6, gone: ['a1', 'a2', 'a3'] },
    { groups: ['even'], keep: 6, gone: ['a2', 'a4', 'a6'] },
    { groups: ['even'], keep: 1, gone: ['a2', 'a4', 'a6', 'b2'] }, // only the even ones may go
    { groups: ['odd'], keep: 4, gone: ['a1', 'a3', 'a5', 'a7', 'b1'] },
    { groups: ['none'], keep: 1, gone: [] },
    { groups: ['odd', 'even'], keep: 9, gone: [] },
  ])('evicts the oldest records of any owner in the groups $groups down to $keep in all', ({ groups, keep, gone }) => {
    const s = fill();
    s.regroup('b1', 'odd');
    s.regroup('b2', 'even');
    expect(s.evictOldestOverall(keep, groups).map((r) => r.id)).toEqual(gone);
    for (const id of gone) expect(s.get(id)).toBeUndefined();
    expect(s.size).toBe(9 - gone.length);
  });

  it('evicts overall only what the group lists hold after regroup and delete', () => {
    const s = fill();
    s.regroup('a1', 'even'); // now the oldest even
    s.delete('a2');
    s.regroup('a4', 'odd');
    expect(s.evictOldestOverall(6, ['even']).map((r) => r.id)).toEqual(['a1', 'a6']);
    expect(s.evictOldestOverall(0, ['odd']).map((r) => r.id)).toEqual(['a3', 'a4', 'a5', 'a7']);
    expect(s.size).toBe(2); // bob's two records, in no group
  });

  it('pages a group newest first; total counts the group', () => {
    const s = fill();
    const p1 = s.pageNewestFirst('alice', 1, 2, 'even');
    expect(p1.items.map((i) => i.id)).toEqual(['a6', 'a4']);
    expect(p1.total).toBe(3);
    const p2 = s.pageNewestFirst('alice', 2, 2, 'even');
    expect(p2.items.map((i) => i.id)).toEqual(['a2']);
    expect(p2.total).toBe(3);
    expect(s.pageNewestFirst('alice', 3, 2, 'even')).toEqual({ items: [], total: 3 });
    expect(s.pageNewestFirst('bob', 1, 2, 'even')).toEqual({ items: [], total: 0 });
  });

  it('regroup moves a record between groups and keeps creation order in each', () => {
    const s = fill();
    s.regroup('a3', 'even');
    s.regroup('a6', 'odd');
    s.regroup('a6', 'odd'); // no-op
    expect(s.pageNewestFirst('alice', 1, 10, 'even').items.map((i) => i.id)).toEqual(['a4', 'a3', 'a2']);
    expect(s.pageNewestFirst('alice', 1, 10, 'odd').items.map((i) => i.id)).toEqual(['a7', 'a6', 'a5', 'a1']);
    s.regroup('b1', 'done');
    expect(s.pageNewestFirst('bob', 1, 10, 'done')).toEqual({ items: [{ id: 'b1', n: 1 }], total: 1 });
    expect(s.pageNewestFirst('alice', 1, 10).total).toBe(7);
  });

  it('looks up by id with the owner; refuses duplicate ids; mutations are visible', () => {
    const s = fill();
    expect(s.size).toBe(9);
    expect(s.get('b1')).toEqual({ owner: 'bob', record: { id: 'b1', n: 1 } });
    expect(s.get('zz')).toBeUndefined();
    expect(() => s.insert('bob', 'a1', { id: 'a1', n: 0 })).toThrow();
    s.get('a7')!.record.n = 100;
    expect(s.pageNewestFirst('alice', 1, 1).items[0].n).toBe(100);
    s.clear();
    expect(s.size).toBe(0);
    expect(s.pageNewestFirst('alice', 1, 10).total).toBe(0);
  });
});

describe('Accounts and ledgers', () => {
  const make = () => new Accounts((k) => k.split('_')[1] ?? k, [{ apiKey: 'mg_rich_x', credits: 50, plan: 'free' }]);
  const sum = (a: { ledger: { amount: number }[] }) => a.ledger.reduce((s, e) => s + e.amount, 0);
  const invariant = (a: { credits: number; ledger: { amount: number; balance: number }[] }) => {
    expect(a.credits).toBeGreaterThanOrEqual(0);
    expect(sum(a)).toBe(a.credits);
    let running = 0;
    for (const e of a.ledger) {
      running += e.amount;
      expect(e.balance).toBe(running);
      expect(e.balance).toBeGreaterThanOrEqual(0);
    }
  };

  it('creates an account on first use with an opening entry; preloads apply', () => {
    const acc = make();
    const a = acc.get('mg_a_1', 5);
    expect(a).toMatchObject({ keyId: 'a', credits: 10_000, plan: 'paid', everPaid: true });
    expect(a.ledger).toEqual([{ seq: 1, at: 5, type: 'adjust', amount: 10_000, balance: 10_000, taskId: null, note: expect.any(String) }]);
    expect(acc.get('mg_a_1', 99)).toBe(a);
    const r = acc.get('mg_rich_x', 0);
    expect(r).toMatchObject({ credits: 50, plan: 'free', everPaid: false });
    invariant(a);
    invariant(r);
  });

  it('reserve refuses when short and changes nothing', () => {
    const acc = make();
    const a = acc.get('mg_rich_x', 0);
    const before = structuredClone(a);
    expect(acc.reserve(a, 't1', 51, 1, 'too much')).toBe(false);
    expect(a).toEqual(before);
    // the task id is still free: a later, affordable reserve works
    expect(acc.reserve(a, 't1', 50, 1, 'exact')).toBe(true);
    expect(a.credits).toBe(0);
    invariant(a);
    expect(acc.reserve(a, 't2', 1, 1, 'nothing left')).toBe(false);
    expect(a.credits).toBe(0);
  });

  it('refuses a second hold for the same task and amounts that are not whole non-negative', () => {
    const acc = make();
    const a = acc.get('mg_a_1', 0);
    expect(acc.reserve(a, 't', 10, 0, 'x')).toBe(true);
    expect(() => acc.reserve(a, 't', 10, 0, 'x')).toThrow();
    expect(() => acc.reserve(a, 'u', -1, 0, 'x')).toThrow(RangeError);
    expect(() => acc.reserve(a, 'v', 1.5, 0, 'x')).toThrow(RangeError);
    expect(a.credits).toBe(9_990);
    invariant(a);
  });

  it('release refunds exactly once; capture after release is a no-op', () => {
    const acc = make();
    const a = acc.get('mg_a_1', 0);
    acc.reserve(a, 't', 123, 1, 'hold');
    expect(acc.release('t', 2, 'failed')).toBe(123);
    expect(a.credits).toBe(10_000);
    expect(acc.release('t', 3, 'again')).toBe(0);
    acc.capture('t', 4);
    expect(a.credits).toBe(10_000);
    expect(a.ledger.map((e) => e.type)).toEqual(['adjust', 'reserve', 'release']);
    expect(a.ledger[2]).toMatchObject({ amount: 123, taskId: 't', at: 2 });
    invariant(a);
  });

  it('capture at most once; release after capture refunds nothing', () => {
    const acc = make();
    const a = acc.get('mg_a_1', 0);
    acc.reserve(a, 't', 100, 1, 'hold');
    acc.capture('t', 2);
    acc.capture('t', 3);
    expect(acc.release('t', 4, 'late')).toBe(0);
    expect(a.credits).toBe(9_900);
    expect(a.ledger.map((e) => e.type)).toEqual(['adjust', 'reserve', 'capture']);
    expect(acc.release('unknown', 5, 'x')).toBe(0);
    acc.capture('unknown', 5);
    expect(a.ledger).toHaveLength(3);
    invariant(a);
  });

  it('update records a credits change as an adjust entry; the ledger sums to the balance', () => {
    const acc = make();
    const a = acc.update('mg_a_1', { credits: 40, plan: 'free', everPaid: false }, 7);
    expect(a).toMatchObject({ credits: 40, plan: 'free', everPaid: false });
    expect(a.ledger.at(-1)).toMatchObject({ type: 'adjust', amount: -9_960, balance: 40, at: 7, taskId: null });
    acc.update('mg_a_1', { credits: 40 }, 8);
    expect(a.ledger).toHaveLength(2);
    acc.update('mg_a_1', { plan: 'paid' }, 9);
    expect(a.everPaid).toBe(true);
    invariant(a);
    acc.clear();
    expect(acc.all()).toEqual([]);
  });

  it('a saved state lists its holds in the order they were taken, over every part of the map, and a loaded order is kept', () => {
    const acc = make();
    const a = acc.get('mg_a_1', 0);
    // 300 ids, taken in an order unrelated to their text (and to the map's part of each)
    const ids = Array.from({ length: 300 }, (_, i) => `task-${(i * 7919) % 1000}`);
    ids.forEach((id, i) => expect(acc.reserve(a, id, 1 + (i % 3), 1, 'hold')).toBe(true));
    // every third hold settled: the rest stay in their order
    ids.forEach((id, i) => {
      if (i % 3 === 0) acc.release(id, 2, 'failed');
      if (i % 3 === 1) acc.capture(id, 2);
    });
    const kept = ids.filter((_, i) => i % 3 === 2);
    const saved = acc.dump();
    expect(saved.holds.map(([id]) => id)).toEqual(kept);
    expect(saved.holds[0]).toEqual([kept[0], { apiKey: 'mg_a_1', amount: 3 }]);
    // a document's order (here reversed) is the order it saves back in, the holds taken after it following
    const reversed = { ...saved, holds: [...saved.holds].reverse() };
    const again = make();
    again.load(structuredClone(reversed));
    again.reserve(again.get('mg_a_1', 3), 'task-new', 1, 3, 'hold');
    expect(again.dump().holds.map(([id]) => id)).toEqual([...[...kept].reverse(), 'task-new']);
  });
});

describe('Rng', () => {
  it('same seed and parts give the same values; different seed or parts differ', () => {
    const a = new Rng(1);
    const b = new Rng(1);
    const c = new Rng(2);
    expect(a.id('vt', 'owner', 'video', 1)).toBe(b.id('vt', 'owner', 'video', 1));
    expect(a.id('vt', 'owner', 'video', 1)).toMatch(/^vt_[0-9a-f]{16}$/);
    expect(a.id('vt', 'owner', 'video', 1)).not.toBe(c.id('vt', 'owner', 'video', 1));
    expect(a.id('vt', 'owner', 'video', 1)).not.toBe(a.id('vt', 'owner', 'video', 2));
    expect(a.int(0, 1e9, 'x')).toBe(b.int(0, 1e9, 'x'));
    expect(a.int(0, 1e9, 'x')).not.toBe(c.int(0, 1e9, 'x'));
    const s1 = a.for('stream');
    const s2 = b.for('stream');
    const xs = Array.from({ length: 5 }, () => s1());
    expect(Array.from({ length: 5 }, () => s2())).toEqual(xs);
    for (const x of xs) expect(x >= 0 && x < 1).toBe(true);
    expect(hash32('a', 'b')).toBe(hash32('a', 'b'));
    expect(hash32('a', 'b')).not.toBe(hash32('ab'));
  });

  it.each<[string, (string | number)[]]>([
    ['no parts', []],
    ['one empty part', ['']],
    ['two empty parts', ['', '']],
    ['numbers as they print', [1, 2.5, -0, 1e21, NaN, -7]],
    ['a part holding the separator', ['x\u0000y', 3]],
    ['text beyond ASCII', ['héllo', '😀', 7]],
    ["an id's parts", [1, 'id-a', 'mg_k_s', 'video', 12]],
  ])('hash32 is FNV-1a over the parts joined with U+0000, then the avalanche (%s): every seeded id and value stays as it was', (_, parts) => {
    let h = 0x811c9dc5;
    const text = parts.join('\u0000');
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    expect(hash32(...parts)).toBe((h ^ (h >>> 16)) >>> 0);
  });

  it.each<[string, number, (string | number)[]]>([
    ['no parts', 1, []],
    ['a task id', 42, ['mg_bench_secret1', 'video', 1]],
    ['an id of an id', 0, ['vt_0123456789abcdef', 'episode']],
    ['numbers, a negative seed', -5, [1, 2.5, -0, 1e21, NaN]],
    ['text beyond ASCII and the separator', 4_294_967_295, ['héllo', '😀', 'x\u0000y', '']],
  ])("id is the prefix, then hash32(seed, 'id-a', ...parts) and hash32(seed, 'id-b', ...parts) in 8 hex digits each (%s)", (_, seed, parts) => {
    const hex = (n: number) => n.toString(16).padStart(8, '0');
    expect(new Rng(seed).id('vt', ...parts)).toBe(`vt_${hex(hash32(seed, 'id-a', ...parts))}${hex(hash32(seed, 'id-b', ...parts))}`);
  });

  it('int stays within [min, max] and covers the range', () => {
    const r = new Rng(7);
    const seen = new Set<number>();
    for (let i = 0; i < 500; i++) {
      const v = r.int(3, 6, 'k', i);
      expect(v).toBeGreaterThanOrEqual(3);
      expect(v).toBeLessThanOrEqual(6);
      seen.add(v);
    }
    expect([...seen].sort()).toEqual([3, 4, 5, 6]);
  });
});
