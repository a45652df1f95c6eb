/**
 * What a long-running mock, or one attacked, must survive: a reset or a key
 * deletion during a delayed request, a scheduled event that throws, a clock
 * pushed to its end, odd scenario names, malformed paths and bodies on routes
 * without a body; the bounds of everything that grows with traffic; and the
 * control API closed to web pages of other origins and, with a token, to
 * anyone without it. Each case was a defect once.
 */
import { request } from 'node:http';
import { z } from 'zod';
import { describe, expect, it, vi } from 'vitest';
import { createMock } from '../mock/index.ts';
import { MAX_VIRTUAL_TIME } from '../schemas/control.ts';
import { Accounts } from '../mock/engine/accounts.ts';
import { errorCatalog, type ErrorName } from '../schemas/errors.ts';
import { videoPhases } from '../schemas/video.ts';
import { pathOf, videoBody } from './factories.ts';
import { KEY, OTHER_KEY, type CallResult, type TestMock, untilTimerSet, useMocks } from './helpers.ts';

const mock = useMocks();
const control = { key: null } as const;
const HOUR = 3_600_000;
const DONE = (() => {
  const p = videoPhases('family1-video-2-fast', 5);
  return p.generatingMs + p.uploadingMs;
})();

function expectError(r: CallResult, name: ErrorName, ...mentions: string[]) {
  expect(r.status, r.text).toBe(errorCatalog[name].httpStatus);
  expect(r.json.code).toBe(errorCatalog[name].code);
  for (const m of mentions) expect(r.json.message).toContain(m);
}

const ledgerOf = async (m: TestMock, key = KEY) => (await m.call('GET', `/__mock/accounts/${key}?ledgerPageSize=1000`, control)).json;
const sums = (acc: { credits: number; ledger: { amount: number }[] }) => acc.ledger.reduce((n, e) => n + e.amount, 0) === acc.credits;

describe('defects that must stay fixed', () => {
  it('a reset while a create waits on its delay: no 500, no refund of credits never taken, every later answer fine', async () => {
    // in process, with setTimeout faked: the delay ends when the test says, after the reset, however slow the machine
    const inProcess = createMock({ clock: 'manual', strict: true });
    const call = async (method: string, path: string, o: { key?: string | null; body?: unknown; headers?: Record<string, string> } = {}) => {
      const key = o.key === undefined ? KEY : o.key;
      const res = await inProcess.fetch(path, {
        method,
        headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(o.body ? { 'content-type': 'application/json' } : {}), ...o.headers },
        body: o.body ? JSON.stringify(o.body) : undefined,
      });
      const text = await res.text();
      return { status: res.status, text, json: JSON.parse(text) };
    };
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const timers = vi.getTimerCount();
      const pending = call('POST', pathOf('createVideoTask'), { body: videoBody(), headers: { prefer: 'delay=300, outcome=failed' } });
      await untilTimerSet(timers); // the create is waiting on its delay
      expect((await call('POST', '/__mock/reset', control)).status).toBe(200);
      await vi.advanceTimersByTimeAsync(300);
      const created = await pending;
      expect(created.status, created.text).toBe(200);
      const adv = await call('POST', '/__mock/clock/advance', { ...control, body: { ms: 2 * HOUR } });
      expect(adv.status, adv.text).toBe(200);
      const acc = (await call('GET', `/__mock/accounts/${KEY}?ledgerPageSize=1000`, control)).json;
      expect(acc.credits).toBe(10_000); // charged after the reset, then refunded by the forced failure: back to the opening balance, not above
      expect(sums(acc)).toBe(true);
      expect((await call('GET', pathOf('getSubscription'), { key: OTHER_KEY })).status).toBe(200);
      expect((await call('GET', pathOf('getVideoTask', { taskId: created.json.data.taskId }))).json.data.status).toBe('failed');
    } finally {
      vi.useRealTimers();
      await inProcess.close();
    }
  });

  it('a hold settles on the ledger it was reserved on or nowhere: no capture or refund on an account made since, no reserve on a stale one', () => {
    const accounts = new Accounts((k) => k);
    const stale = accounts.get('mg_a_secret1', 0);
    accounts.reserve(stale, 't1', 15, 0, 'task');
    accounts.delete('mg_a_secret1');
    const fresh = accounts.update('mg_a_secret1', {}, 1);
    expect(accounts.release('t1', 2, 'refund')).toBe(0);
    expect(accounts.capture('t1', 2)).toBe(0);
    expect(fresh.credits).toBe(10_000);
    expect(fresh.ledger.map((e) => e.type)).toEqual(['adjust']);
    expect(() => accounts.reserve(stale, 't2', 15, 3, 'task')).toThrow(/no longer the key's/);
    expect(accounts.dump().holds).toEqual([]);
    accounts.clear();
    const again = accounts.get('mg_a_secret1', 4);
    expect(() => accounts.reserve(fresh, 't3', 15, 4, 'task')).toThrow(/no longer the key's/);
    expect(accounts.reserve(again, 't3', 15, 4, 'task')).toBe(true);
    expect(accounts.capture('t3', 5)).toBe(15);
  });

  it('a scheduled event that throws is reported (GET /__mock/bugs) and does not stall the clock or break other requests', async () => {
    const bugs: string[] = [];
    const m = await mock({ onMockBug: (w, p) => bugs.push(`${w}: ${p}`) });
    m.engine.scheduler.handle(
      'test-boom',
      () => {
        throw new Error('event broke');
      },
      z.record(z.string(), z.unknown()),
    );
    const now = m.engine.clock.now();
    m.engine.scheduler.at(now + 10, 'test-boom', {});
    const id = (await m.call('POST', pathOf('createVideoTask'), { body: videoBody() })).json.data.taskId;
    const adv = await m.call('POST', '/__mock/clock/advance', { ...control, body: { ms: DONE } });
    expect(adv.status, adv.text).toBe(200);
    expect((await m.call('GET', pathOf('getVideoTask', { taskId: id }))).json.data.status).toBe('success');
    const listed = (await m.call('GET', '/__mock/bugs', control)).json.items;
    expect(listed).toHaveLength(1);
    expect(listed[0].where).toContain('test-boom');
    expect(listed[0].problem).toContain('event broke');
    expect(bugs).toHaveLength(1);
    m.bugs.length = 0; // reported on purpose
  });

  it('the clock stops at 9999-12-31: an advance past it is refused naming the limit, and now stays a safe integer', async () => {
    const m = await mock();
    const now = m.engine.clock.now();
    const big = 10 * 365 * 24 * HOUR;
    let moved = 0;
    while (now + moved + big <= MAX_VIRTUAL_TIME) {
      const r = await m.call('POST', '/__mock/clock/advance', { ...control, body: { ms: big } });
      expect(r.status).toBe(200);
      moved += big;
      if (moved > 800 * big) break;
    }
    const r = await m.call('POST', '/__mock/clock/advance', { ...control, body: { ms: big } });
    expectError(r, 'CONTROL_INVALID_REQUEST', '9999-12-31');
    expect(m.engine.clock.now()).toBeLessThanOrEqual(MAX_VIRTUAL_TIME);
    expect((await m.call('GET', pathOf('listVideoTasks'))).status).toBe(200);
  });

  it.each(['https://example.com/a b<"x">.png', 'http://😀.com/ä b', 'https://ex.com/%zz', 'https://ex.com/a|b'])(
    'a URL that is not a URI (%s) is refused naming the field, so no task echoes what the spec calls invalid',
    async (url) => {
      const m = await mock();
      const r = await m.call('POST', pathOf('createVideoTask'), {
        body: videoBody({
          content: [
            { type: 'text', text: 'x' },
            { type: 'image_url', image_url: { url } },
          ],
        }),
      });
      expectError(r, 'VIDEO_INVALID_PARAMETERS', 'content[1].image_url.url', 'URI');
    },
  );

  it('a percent-encoded URL is accepted and echoed as sent', async () => {
    const m = await mock();
    const url = 'https://example.com/a%20b%3C%22x%22%3E.png?q=%C3%A4';
    const id = (
      await m.call('POST', pathOf('createVideoTask'), {
        body: videoBody({
          content: [
            { type: 'text', text: 'x' },
            { type: 'image_url', image_url: { url } },
          ],
        }),
      })
    ).json.data.taskId;
    expect((await m.call('GET', pathOf('getVideoTask', { taskId: id }))).json.data.params.content[1].image_url.url).toBe(url);
  });

  it.each(['toString', 'constructor', 'hasOwnProperty', '__proto__'])('a scenario naming %s (a property of every object) is refused', async (operationId) => {
    const m = await mock();
    expectError(await m.call('POST', '/__mock/scenarios', { ...control, body: { operationId, delay: 0 } }), 'CONTROL_INVALID_REQUEST', 'operationId');
  });

  it.each(['%ff', '%E0%A4%A', '%'])('a path parameter that is not percent-encoding (%s) answers the 404 its operation declares', async (bad) => {
    const m = await mock();
    const r = await m.call('GET', `/v1/video-generation/tasks/${bad}`);
    expectError(r, 'ROUTE_NOT_FOUND');
    expect(m.bugs).toEqual([]);
  });

  it('a route without a body reads none: a GET with a broken Content-Encoding or a huge body answers as any GET', async () => {
    const m = await mock();
    const url = new URL(m.base);
    /**
     * A GET carrying a body (fetch refuses to send one); resolves with the status once the answer is read and the body
     * is sent whole (the answer may come first: a write still going when the mock closes would fail).
     */
    const getWithBody = (path: string, body: string, headers: Record<string, string>, key: string | null = KEY) =>
      new Promise<number>((resolve, reject) => {
        const req = request(
          {
            host: url.hostname,
            port: url.port,
            method: 'GET',
            path,
            headers: { ...headers, 'content-length': String(Buffer.byteLength(body)), ...(key ? { authorization: `Bearer ${key}` } : {}) },
          },
          (res) => {
            res.resume();
            res.on('end', () => (req.writableFinished ? resolve(res.statusCode ?? 0) : req.once('finish', () => resolve(res.statusCode ?? 0))));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    expect(await getWithBody(pathOf('getSubscription'), 'not gzip at all', { 'content-encoding': 'gzip', 'content-type': 'application/json' })).toBe(200);
    expect(await getWithBody(pathOf('listVideoTasks'), 'x'.repeat(2 * 1024 * 1024), { 'content-type': 'application/json' })).toBe(200);
    expect(await getWithBody('/__mock/requests', 'x'.repeat(2 * 1024 * 1024), { 'content-type': 'application/json' }, null)).toBe(200);
  });
});

describe('bounds', () => {
  it('tasks per key: beyond the bound the oldest finished tasks go (then not-found); running ones stay', async () => {
    const m = await mock({ rateLimit: false, limits: { tasksPerKey: 3 } });
    const create = async () => (await m.call('POST', pathOf('createVideoTask'), { body: videoBody() })).json.data.taskId as string;
    const finished = [await create(), await create()];
    await m.advance(HOUR);
    const running = [await create(), await create(), await create()];
    const status = async (taskId: string) => (await m.call('GET', pathOf('getVideoTask', { taskId }))).json?.data?.status ?? 'gone';
    expect(await Promise.all(finished.map(status))).toEqual(['gone', 'gone']);
    expect(await Promise.all(running.map(status))).toEqual(['generating', 'generating', 'generating']);
    await m.advance(HOUR);
    await create();
    expect(await status(running[0])).toBe('gone');
    expect((await m.call('GET', pathOf('listVideoTasks'))).json.data.total).toBe(3);
    expect(sums(await ledgerOf(m))).toBe(true);
  });

  it('tasks per area: beyond the bound the oldest finished tasks of any key go; running ones stay', async () => {
    const m = await mock({ rateLimit: false, limits: { tasks: 3 } });
    const create = async (key: string) => (await m.call('POST', pathOf('createVideoTask'), { key, body: videoBody() })).json.data.taskId as string;
    const status = async (key: string, taskId: string) => (await m.call('GET', pathOf('getVideoTask', { taskId }), { key })).json?.data?.status ?? 'gone';
    const a = 'mg_a_secret1';
    const b = 'mg_b_secret1';
    const finished = [await create(a), await create(b)];
    await m.advance(HOUR);
    const running = [await create(b), await create(a), await create(b)];
    expect([await status(a, finished[0]), await status(b, finished[1])]).toEqual(['gone', 'gone']);
    expect([await status(b, running[0]), await status(a, running[1]), await status(b, running[2])]).toEqual(['generating', 'generating', 'generating']);
    const total = async (key: string) => (await m.call('GET', pathOf('listVideoTasks'), { key })).json.data.total as number;
    expect((await total(a)) + (await total(b))).toBe(3);
    expect(sums(await ledgerOf(m, a))).toBe(true);
  });

  it('ledger entries: beyond the bound the oldest fold into one entry; the ledger still sums to the balance', async () => {
    const m = await mock({ limits: { ledgerEntries: 6 } });
    for (let credits = 1; credits <= 20; credits++) await m.call('PUT', `/__mock/accounts/${KEY}`, { ...control, body: { credits: credits * 10 } });
    const acc = await ledgerOf(m);
    expect(acc.ledger.length).toBeLessThanOrEqual(6);
    expect(acc.ledger[0].note).toMatch(/earlier entries, folded/);
    expect(acc.credits).toBe(200);
    expect(sums(acc)).toBe(true);
    expect(acc.ledger.at(-1).seq).toBe(21);
  });

  it('accounts: beyond the bound the least recently used idle key is forgotten (a fresh account when it comes back); a key with credits held stays', async () => {
    const m = await mock({ limits: { accounts: 3 } });
    const key = (n: number) => `mg_k${n}_secret`;
    await m.call('PUT', `/__mock/accounts/${key(1)}`, { ...control, body: { credits: 5 } });
    await m.call('POST', pathOf('createVideoTask'), { key: key(2), body: videoBody() }); // holds credits until it finishes
    for (const n of [3, 4, 5]) await m.call('GET', pathOf('getSubscription'), { key: key(n) });
    const balance = async (n: number) => (await m.call('GET', pathOf('getSubscription'), { key: key(n) })).json.data.balance;
    expect(await balance(2)).toBe(10_000 - 40);
    expect(await balance(1)).toBe(10_000);
  });

  it('what is kept per key goes with its account: id counters, rate windows, per-owner indexes and deleted keys stay bounded however many keys come', async () => {
    const m = await mock({ limits: { accounts: 5, tasks: 10, tasksPerKey: 10 } });
    const key = (n: number) => `mg_many${n}_secret`;
    for (let n = 0; n < 60; n++) {
      const r = await m.call('POST', pathOf('createVideoTask'), { key: key(n), body: videoBody() });
      expect(r.status, r.text).toBe(200);
      if (n % 10 === 9) await m.advance(HOUR); // they finish: the oldest beyond the task bound go
    }
    await m.advance(HOUR);
    for (let n = 60; n < 70; n++) expect((await m.call('DELETE', `/__mock/accounts/${key(n)}`, control)).status).toBeLessThan(500);
    for (let n = 70; n < 80; n++) await m.call('GET', pathOf('getSubscription'), { key: key(n) });
    const snap = m.engine.snapshot();
    const owners = new Set(Object.values(snap.stores).flatMap((s) => s.entries.map((e) => e.owner)));
    const live = new Set([...snap.accounts.accounts.map((a) => a.apiKey), ...owners]);
    expect(snap.accounts.accounts.length).toBeLessThanOrEqual(5);
    expect(owners.size).toBeLessThanOrEqual(10);
    const ownerOf = (k: string) => k.split('\u0000')[0];
    const bucketOwner = (k: string) => k.split('\u0000')[1];
    for (const [k] of snap.counters) expect(live.has(ownerOf(k)), `counter ${k}`).toBe(true);
    for (const [k] of snap.limiter) expect(live.has(bucketOwner(k)), `rate window ${k}`).toBe(true);
    expect(snap.accounts.deleted.length, 'deleted keys: at most the account bound').toBeLessThanOrEqual(5);
    expect(m.engine.keptPerKey().storeOwners).toBeLessThanOrEqual(10);
    // a forgotten key comes back as a new one, its ids never repeating a stored task's
    const again = await m.call('POST', pathOf('createVideoTask'), { key: key(0), body: videoBody() });
    expect(again.status, again.text).toBe(200);
    expect(sums(await ledgerOf(m, key(0)))).toBe(true);
    // the deleted keys kept are the latest: still refused
    expect((await m.call('GET', pathOf('getSubscription'), { key: key(69) })).status).toBe(401);
  });

  it('journal: only the last --journal-size requests are kept', async () => {
    const m = await mock({ limits: { journal: 4 } });
    for (let i = 0; i < 10; i++) await m.call('GET', pathOf('getSubscription'));
    const items = (await m.call('GET', '/__mock/requests', control)).json.items;
    expect(items).toHaveLength(4);
    expect(items.at(-1).seq).toBe(10);
  });
});

describe('the control API is protected', () => {
  it('a web page of another origin is refused (403, 10012) and changes nothing; the API and media stay open to it', async () => {
    const m = await mock();
    await m.call('PUT', `/__mock/accounts/${KEY}`, { ...control, body: { credits: 7 } });
    const evil = { origin: 'https://evil.example' };
    for (const [method, path] of [
      ['POST', '/__mock/reset'],
      ['GET', '/__mock/requests'],
      ['DELETE', `/__mock/accounts/${KEY}`],
      ['OPTIONS', '/__mock/reset'],
    ] as const) {
      const r = await m.call(method, path, { ...control, headers: { ...evil, 'access-control-request-method': 'POST' } });
      expect(r.status, `${method} ${path}`).toBe(403);
      if (method !== 'OPTIONS') expect(r.json.code).toBe(errorCatalog.CONTROL_FORBIDDEN.code);
      expect(r.headers.get('access-control-allow-origin')).toBeNull();
    }
    expect((await m.call('GET', pathOf('getSubscription'))).json.data.balance).toBe(7);
    const api = await m.call('GET', pathOf('getSubscription'), { headers: evil });
    expect(api.status).toBe(200);
    expect(api.headers.get('access-control-allow-origin')).toBe('https://evil.example');
  });

  it.each(['http://localhost:5173', 'http://127.0.0.1:3000', 'http://[::1]:8080'])('a page of this machine (%s) may call it, with CORS', async (origin) => {
    const m = await mock();
    const r = await m.call('GET', '/__mock/health', { ...control, headers: { origin } });
    expect(r.status).toBe(200);
    expect(r.headers.get('access-control-allow-origin')).toBe(origin);
  });

  it('an origin listed with --control-origin may call it', async () => {
    const m = await mock({ controlOrigins: ['http://192.168.1.20:5173'] });
    expect((await m.call('GET', '/__mock/clock', { ...control, headers: { origin: 'http://192.168.1.20:5173' } })).status).toBe(200);
    expect((await m.call('GET', '/__mock/clock', { ...control, headers: { origin: 'http://192.168.1.21:5173' } })).status).toBe(403);
  });

  it('with a control token: no token or a wrong one is refused (403), the right one passes; health, the API and media need none', async () => {
    const m = await mock({ controlToken: 's3cret' });
    expectError(await m.call('GET', '/__mock/requests', control), 'CONTROL_FORBIDDEN', 'Bearer');
    expectError(await m.call('POST', '/__mock/reset', { key: 'wrong' }), 'CONTROL_FORBIDDEN');
    expect((await m.call('GET', '/__mock/requests', { headers: { authorization: 'Bearer s3cret' }, key: null })).status).toBe(200);
    expect((await m.call('GET', '/__mock/health', control)).status).toBe(200);
    expect((await m.call('GET', pathOf('getSubscription'))).status).toBe(200);
  });
});
