/**
 * Bounds are the process's, not each session's (decisions/0019-sessions.md):
 * at most --max-sessions sessions; the sessions share one world's budget of
 * tasks, accounts, journal and activity, each keeping an equal part (never
 * less than SESSION_FLOOR); one media cache serves every world, its keys
 * prefixed per world. `npm run soak -- --sessions` measures the memory.
 */
import { describe, expect, it } from 'vitest';
import { createMediaAnswerer, createMediaCache } from '../mock/core/media.ts';
import { DEFAULT_LIMITS, Engine } from '../mock/engine/engine.ts';
import { SESSION_FLOOR, sessionLimits } from '../mock/core/worlds.ts';
import type { MediaRoute } from '../mock/services/context.ts';
import { pathOf, videoBody } from './factories.ts';
import { KEY, useMocks } from './helpers.ts';

const mock = useMocks();

describe('sessionLimits', () => {
  it.each([
    // [max sessions, process limits, tasks, tasksPerKey, accounts, journal, activity, ledgerEntries, journalBytes]
    // journalBytes: half of the 32 MiB default split among the sessions, without a floor
    [256, {}, SESSION_FLOOR.tasks, SESSION_FLOOR.tasks, 39, SESSION_FLOOR.journal, SESSION_FLOOR.activity, SESSION_FLOOR.ledgerEntries, 65_536],
    [8, {}, 2500, 1000, 1250, 100, 200, 200, 2_097_152],
    [4, { tasks: 60, tasksPerKey: 10, accounts: 8, ledgerEntries: 50 }, 60, 10, 8, 125, 250, 50, 4_194_304],
    [
      1,
      {},
      DEFAULT_LIMITS.tasks,
      DEFAULT_LIMITS.tasksPerKey,
      DEFAULT_LIMITS.accounts,
      DEFAULT_LIMITS.journal,
      DEFAULT_LIMITS.activity,
      DEFAULT_LIMITS.ledgerEntries,
      16_777_216,
    ],
  ])(
    '%i sessions of %j: tasks %i, per key %i, accounts %i, journal %i, activity %i, ledger entries %i',
    (n, limits, tasks, tasksPerKey, accounts, journal, activity, ledgerEntries, journalBytes) => {
      expect(sessionLimits(limits, n)).toEqual({ ...DEFAULT_LIMITS, ...limits, tasks, tasksPerKey, accounts, journal, activity, ledgerEntries, journalBytes });
    },
  );
});

describe('sessions in one process', () => {
  it('--max-sessions: beyond it the least recently used session is dropped', async () => {
    const m = await mock({ maxSessions: 2 });
    for (const name of ['a', 'b', 'a', 'c'])
      expect((await m.call('GET', '/__mock/health', { key: null, headers: { 'x-mock-session': name } })).status).toBe(200);
    const names = ((await m.call('GET', '/__mock/sessions', { key: null })).json.items as { name: string }[]).map((s) => s.name);
    expect(names).toEqual(['a', 'c']);
  });

  it("a session keeps its part of the tasks budget; the default world keeps the process's", async () => {
    const m = await mock({ maxSessions: 3, rateLimit: false, limits: { tasks: 300 } });
    const s = { 'x-mock-session': 's1' };
    for (const headers of [s, {}]) {
      await m.call('PUT', `/__mock/accounts/${KEY}`, { key: null, headers, body: { credits: 1_000_000 } });
      for (let i = 0; i < 110; i++) {
        expect((await m.call('POST', pathOf('createVideoTask'), { headers, body: videoBody() })).status).toBe(200);
        // finished tasks are the ones dropped
        if (i % 20 === 19) await m.call('POST', '/__mock/clock/advance', { key: null, headers, body: { ms: 3_600_000 } });
      }
      await m.call('POST', '/__mock/clock/advance', { key: null, headers, body: { ms: 3_600_000 } });
    }
    const total = async (headers: Record<string, string>) => (await m.call('GET', `${pathOf('listVideoTasks')}?pageSize=1`, { headers })).json.data.total;
    expect(await total(s)).toBe(SESSION_FLOOR.tasks);
    expect(await total({})).toBe(110);
  });

  it('one media cache for every world: its bound holds for all of them together, and worlds never share an entry', async () => {
    const renders: string[] = [];
    const routes: MediaRoute[] = [
      {
        path: '/media/x/{id}.bin',
        resolve: (engine, p) => ({
          contentType: 'application/octet-stream',
          key: `x ${p.id}`,
          render: () => (renders.push(`${engine.seed} ${p.id}`), new Uint8Array(400).fill(engine.seed)),
        }),
      },
    ];
    const cache = createMediaCache(1000);
    const worlds = [1, 2, 3].map((seed) => createMediaAnswerer(new Engine({ seed }), routes, { cache, keyPrefix: `w${seed}\u0000` }));
    for (const [i, answer] of worlds.entries()) {
      const a = await answer('GET', '/media/x/a.bin', '/media/x/a.bin', {});
      expect((a!.body as { bytes: Uint8Array }).bytes[0]).toBe(i + 1);
    }
    expect(renders).toEqual(['1 a', '2 a', '3 a']);
    expect(cache.bytes.calculatedSize).toBeLessThanOrEqual(1000);
    expect([...cache.bytes.keys()].sort()).toEqual(['w2\u0000x a', 'w3\u0000x a']);
  });
});
