/**
 * The lyrics area, continued from test/lyrics.test.ts (document 3, "Lyrics
 * task", "States and transitions", "Lyrics (prefix /v1/lyrics)", "Limits"):
 * the 30-minute timeout with its refund and no recovery, variants (song-shaped,
 * in the prompt's script, one failed with outcome=partial), money in the
 * ledger, the list and get, owner scoping and the request limit.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { errorCatalog } from '../schemas/errors.ts';
import { LYRICS_CREDITS, lyricsRateLimit, lyricsSchedule } from '../schemas/lyrics.ts';
import { promptScript } from '../mock/services/lyrics.ts';
import { type Body, lyricsBody, pathOf } from './factories.ts';
import { OTHER_KEY, type TestMock, useMocks } from './helpers.ts';
import { account, create, EMOJI, expectError, getTask, invalid, ledgerOf, listTasks, musicB, OPENING, REFUNDED, setCredits } from './lyrics-helpers.ts';

const start = useMocks();
const { pendingMs, timeoutMs } = lyricsSchedule;

describe('musicB: 30 minutes without an update', () => {
  let m: TestMock;
  beforeEach(async () => {
    m = await start({ rateLimit: false });
  });

  it.each([
    ['Prefer: outcome=stuck', 'outcome=stuck'],
    [`Prefer: outcome=failed, error=${errorCatalog.LYRICS_TIMED_OUT.code}`, `outcome=failed, error=${errorCatalog.LYRICS_TIMED_OUT.code}`],
  ])('%s: the callback never comes; 30 minutes after its last update the task fails with 38006, refunded in full', async (_n, prefer) => {
    const { taskId } = await create(m, musicB(), { prefer });
    await m.advance(pendingMs);
    const generating = await getTask(m, taskId);
    expect(generating.status).toBe('generating');
    // 30 minutes after creation is less than 30 minutes after the last update (the move to generating)
    await m.advance(timeoutMs - 1);
    expect(await getTask(m, taskId)).toMatchObject({ status: 'generating', creditCost: 0 });
    expect((await account(m)).credits).toBe(OPENING - LYRICS_CREDITS);
    await m.advance(1);
    const t = await getTask(m, taskId);
    expect(t).toMatchObject({ status: 'failed', variants: [], creditCost: 0, updatedAt: generating.updatedAt + timeoutMs });
    expect(t.errorMessage).toMatch(new RegExp(`^${errorCatalog.LYRICS_TIMED_OUT.code}: `));
    expect(await ledgerOf(m, taskId)).toEqual(REFUNDED);
    expect((await account(m)).credits).toBe(OPENING);
  });

  it('no later recovery: a provider callback after the timeout changes nothing, and a day later the task is as it failed', async () => {
    const { taskId } = await create(m, musicB(), { prefer: 'outcome=stuck' });
    await m.advance(pendingMs + timeoutMs);
    const failed = await getTask(m, taskId);
    expect(failed.status).toBe('failed');
    // the late callback: the lifecycle step that brings success, delivered now
    m.engine.scheduler.at(m.engine.clock.now(), 'task', { area: 'lyrics', taskId, type: 'step', step: 1, expect: 'generating' });
    await m.advance(1);
    await m.advance(24 * 3_600_000);
    expect(await getTask(m, taskId)).toEqual(failed);
    expect(await ledgerOf(m, taskId)).toEqual(REFUNDED);
    expect((await listTasks(m, { status: 'success' })).total).toBe(0);
  });
});

// ---------------------------------------------------------------------------
// Variants: song-shaped, deterministic, in the prompt's script
// ---------------------------------------------------------------------------

const SECTIONS = /^\[(Verse 1|Verse 2|Chorus|Bridge)\]$/;

/** Asserts `text` is sections of lines: a [Name] line, then at least two lyric lines, sections separated by a blank line. */
function expectSongShape(text: string) {
  const sections = text.split('\n\n');
  expect(sections.length).toBeGreaterThanOrEqual(4);
  const names = sections.map((s) => s.split('\n')[0]);
  for (const n of names) expect(n).toMatch(SECTIONS);
  expect(names.filter((n) => n === '[Chorus]').length, 'the chorus repeats').toBeGreaterThanOrEqual(2);
  for (const s of sections) {
    const lines = s.split('\n').slice(1);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const l of lines) expect(l.trim().length).toBeGreaterThan(0);
  }
  const choruses = sections.filter((s) => s.startsWith('[Chorus]'));
  expect(new Set(choruses).size, 'every chorus is the same').toBe(1);
}

/** The lyric lines of `text` (section names left out). */
const lyricLines = (text: string) => text.split('\n').filter((l) => l !== '' && !SECTIONS.test(l));

describe('variants', () => {
  let m: TestMock;
  beforeEach(async () => {
    m = await start({ rateLimit: false });
  });

  it.each([
    ['English', 'a summer road trip with old friends', 'en'],
    ['Chinese', '夏天的海边和朋友一起唱歌', 'zh'],
    ['Japanese', '夜明けの海を君と歩く', 'ja'],
    ['emoji only', EMOJI.repeat(3), 'en'],
  ])('%s prompt: song-shaped lyrics in its script, drawn from the prompt', async (_n, prompt, script) => {
    expect(promptScript(prompt)).toBe(script);
    const { taskId } = await create(m, musicB({ prompt }));
    await m.advance(lyricsSchedule.callbackMaxMs);
    const t = await getTask(m, taskId);
    expect(t.status).toBe('success');
    for (const v of t.variants) {
      expect(v.title.trim().length).toBeGreaterThan(0);
      expectSongShape(v.text);
      const lines = lyricLines(v.text).join('\n');
      if (script === 'en') {
        expect(lines).toMatch(/^[\x20-\x7e\n]+$/);
        if (prompt.startsWith('a summer')) {
          const words = ['summer', 'road', 'trip', 'old', 'friends'];
          expect(
            words.some((w) => lines.toLowerCase().includes(w)),
            'a word of the prompt is sung',
          ).toBe(true);
        }
      } else {
        expect(lines, 'no Latin letters').not.toMatch(/[A-Za-z]/);
        expect(lines).toMatch(/\p{Script=Han}/u);
        if (script === 'ja') expect(lines).toMatch(/[\p{Script=Hiragana}\p{Script=Katakana}]/u);
        else expect(lines).not.toMatch(/[\p{Script=Hiragana}\p{Script=Katakana}]/u);
      }
    }
  });

  it('the same seed and requests give the same lyrics; another prompt gives other lyrics', async () => {
    const run = async (prompt: string) => {
      const mm = await start({ rateLimit: false });
      const a = await create(mm, lyricsBody({ prompt }));
      const b = await create(mm, musicB({ prompt }));
      await mm.advance(lyricsSchedule.callbackMaxMs);
      return [(await getTask(mm, a.taskId)).variants, (await getTask(mm, b.taskId)).variants];
    };
    const first = await run('rain on the harbor at night');
    expect(await run('rain on the harbor at night')).toEqual(first);
    expect(await run('dancing in a neon city')).not.toEqual(first);
  });
});

// ---------------------------------------------------------------------------
// Money
// ---------------------------------------------------------------------------

describe('money: a flat 2 credits', () => {
  let m: TestMock;
  beforeEach(async () => {
    m = await start({ rateLimit: false });
  });

  it.each(['musicA', 'musicB'])('%s: a short balance answers 402 38003; nothing reserved, no task; exactly 2 credits is enough', async (provider) => {
    await setCredits(m, LYRICS_CREDITS - 1);
    const before = (await account(m)).ledger.length;
    expectError(await m.call('POST', pathOf('createLyricsTask'), { body: lyricsBody({ provider }) }), 'LYRICS_INSUFFICIENT_CREDITS');
    const after = await account(m);
    expect(after.credits).toBe(LYRICS_CREDITS - 1);
    expect(after.ledger.length).toBe(before);
    expect((await listTasks(m)).total).toBe(0);
    await setCredits(m, LYRICS_CREDITS);
    await create(m, lyricsBody({ provider }));
    expect((await account(m)).credits).toBe(0);
  });

  it('an over-long prompt is refused before anything is reserved, even with a short balance', async () => {
    await setCredits(m, 0);
    expectError(await m.call('POST', pathOf('createLyricsTask'), { body: lyricsBody({ prompt: 'x'.repeat(201) }) }), invalid('prompt'));
  });

  it('several tasks: the balance is the opening minus 2 per success; failures and timeouts refunded', async () => {
    await create(m, lyricsBody());
    await create(m, musicB());
    await create(m, musicB(), { prefer: 'outcome=failed' });
    await create(m, musicB(), { prefer: 'outcome=stuck' });
    await create(m, lyricsBody(), { prefer: 'outcome=failed' });
    expect((await account(m)).credits).toBe(OPENING - 4 * LYRICS_CREDITS);
    await m.advance(pendingMs + timeoutMs);
    expect((await account(m)).credits).toBe(OPENING - 2 * LYRICS_CREDITS);
    const all = await listTasks(m);
    expect(all.items.map((t) => [t.status, t.creditCost])).toEqual([
      ['failed', 0],
      ['failed', 0],
      ['failed', 0],
      ['success', LYRICS_CREDITS],
      ['success', LYRICS_CREDITS],
    ]);
  });
});

// ---------------------------------------------------------------------------
// List, get, owner scoping
// ---------------------------------------------------------------------------

describe('list and get', () => {
  let m: TestMock;
  beforeEach(async () => {
    m = await start({ rateLimit: false });
  });

  /** Five tasks 1 ms apart, oldest first: musicA success, musicB (x2), musicB forced to fail, musicA. */
  async function seed(): Promise<string[]> {
    const ids: string[] = [];
    const plan: [Body, Record<string, string>][] = [
      [lyricsBody({ prompt: 'one' }), {}],
      [musicB({ prompt: 'two' }), {}],
      [musicB({ prompt: 'three' }), {}],
      [musicB({ prompt: 'four' }), { prefer: 'outcome=failed' }],
      [lyricsBody({ prompt: 'five' }), {}],
    ];
    for (const [body, headers] of plan) {
      ids.push((await create(m, body, headers)).taskId);
      await m.advance(1);
    }
    return ids;
  }

  it('newest first, with page and pageSize (defaults 1 and 20), total across pages', async () => {
    const ids = await seed();
    const newest = [...ids].reverse();
    const all = await listTasks(m);
    expect(all).toMatchObject({ page: 1, pageSize: 20, total: 5 });
    expect(all.items.map((t) => t.id)).toEqual(newest);
    expect(all.items[0].params.prompt).toBe('five');
    const p2 = await listTasks(m, { page: 2, pageSize: 2 });
    expect(p2).toMatchObject({ page: 2, pageSize: 2, total: 5 });
    expect(p2.items.map((t) => t.id)).toEqual(newest.slice(2, 4));
    expect((await listTasks(m, { page: 3, pageSize: 2 })).items.map((t) => t.id)).toEqual(newest.slice(4));
    const past = await listTasks(m, { page: 4, pageSize: 2 });
    expect(past).toMatchObject({ items: [], total: 5 });
    expect((await listTasks(m, { pageSize: 1 })).items.map((t) => t.id)).toEqual([newest[0]]);
    expect((await listTasks(m, { pageSize: 100 })).items).toHaveLength(5);
    // the list shows tasks as the get does
    expect(all.items[0]).toEqual(await getTask(m, newest[0]));
  });

  it('status filter through the lifecycle', async () => {
    const ids = await seed();
    const by = async (status: string) => (await listTasks(m, { status })).items.map((t) => t.id);
    expect(await by('success')).toEqual([ids[4], ids[0]]);
    expect(await by('pending')).toEqual([ids[3], ids[2], ids[1]]);
    expect(await by('generating')).toEqual([]);
    await m.advance(pendingMs);
    expect(await by('generating')).toEqual([ids[3], ids[2], ids[1]]);
    expect(await by('pending')).toEqual([]);
    await m.advance(lyricsSchedule.callbackMaxMs);
    expect(await by('success')).toEqual([ids[4], ids[2], ids[1], ids[0]]);
    expect(await by('failed')).toEqual([ids[3]]);
    const failed = await listTasks(m, { status: 'failed' });
    expect(failed).toMatchObject({ page: 1, pageSize: 20, total: 1 });
  });

  it.each([
    ['page 0', { page: 0 }, 'page'],
    ['page -1', { page: -1 }, 'page'],
    ['page 1.5', { page: 1.5 }, 'page'],
    ['page abc', { page: 'abc' }, 'page'],
    ['pageSize 0', { pageSize: 0 }, 'pageSize'],
    ['pageSize 101', { pageSize: 101 }, 'pageSize'],
    ['status done', { status: 'done' }, 'status'],
    ['status complete (a variant status)', { status: 'complete' }, 'status'],
  ])('%s: 400 38001 naming it', async (_n, query, name) => {
    expectError(await m.call('GET', pathOf('listLyricsTasks', {}, query)), invalid(name));
  });

  it("owner scoping: another key's task answers 404 38002 and is absent from its list; an unknown id too", async () => {
    const { taskId } = await create(m, musicB());
    expectError(await m.call('GET', pathOf('getLyricsTask', { taskId }), { key: OTHER_KEY }), 'LYRICS_TASK_NOT_FOUND');
    expect(await listTasks(m, {}, OTHER_KEY)).toMatchObject({ items: [], total: 0 });
    const theirs = await create(m, lyricsBody(), {}, OTHER_KEY);
    expectError(await m.call('GET', pathOf('getLyricsTask', { taskId: theirs.taskId })), 'LYRICS_TASK_NOT_FOUND');
    expect((await listTasks(m)).items.map((t) => t.id)).toEqual([taskId]);
    expectError(await m.call('GET', pathOf('getLyricsTask', { taskId: 'lyr_0000000000000000' })), 'LYRICS_TASK_NOT_FOUND');
    expectError(await m.call('GET', pathOf('getLyricsTask', { taskId: 'nope' })), 'LYRICS_TASK_NOT_FOUND');
    // another area's task id names no lyrics task
    const pv = await m.call('POST', pathOf('createPlatformVoiceTask'), { body: { text: 'hello' } });
    expectError(await m.call('GET', pathOf('getLyricsTask', { taskId: pv.json.data.taskId })), 'LYRICS_TASK_NOT_FOUND');
  });
});

// ---------------------------------------------------------------------------
// The request limit (rate limits on)
// ---------------------------------------------------------------------------

describe('the creation request limit', () => {
  const { limit, windowMs } = lyricsRateLimit;
  const GAP_MS = 1_000;

  it(`request ${limit + 1} within a minute: 429 38029 with Retry-After, nothing reserved; another key is not limited; room again after the window`, async () => {
    const m = await start();
    for (let i = 0; i < limit; i++) {
      await create(m, i % 2 ? musicB() : lyricsBody());
      await m.advance(GAP_MS);
    }
    const credits = (await account(m)).credits;
    const r = await m.call('POST', pathOf('createLyricsTask'), { body: lyricsBody() });
    expectError(r, 'LYRICS_RATE_LIMITED');
    expect(r.headers.get('retry-after')).toBe(String((windowMs - limit * GAP_MS) / 1000));
    expect((await account(m)).credits, 'the refused request reserved nothing').toBe(credits);
    expect((await listTasks(m)).total).toBe(limit);
    await create(m, lyricsBody(), {}, OTHER_KEY);
    // reads are not limited
    expect((await listTasks(m)).total).toBe(limit);
    await m.advance(windowMs - limit * GAP_MS);
    await create(m, lyricsBody());
  });

  it('off with --no-rate-limit', async () => {
    const m = await start({ rateLimit: false });
    for (let i = 0; i <= limit + 2; i++) await create(m, lyricsBody());
  });
});
