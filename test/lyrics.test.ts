/**
 * The lyrics area (document 3, "Providers and models (lyrics and music)",
 * "Lyrics task", "States and transitions", "Lyrics (prefix /v1/lyrics)",
 * "Errors", "Limits"): the request rules at their boundaries (code points),
 * provider routing, musicA inside the create call, musicB through its
 * callback on the manual clock, variants (song-shaped, in the prompt's
 * script, one failed with outcome=partial), the 30-minute timeout with its
 * refund and no recovery, forced failures, money in the ledger, the list, owner
 * scoping and the request limit. Also the shared provider and model tables.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { errorCatalog, type ErrorName } from '../schemas/errors.ts';
import { LYRICS_CREDITS, LYRICS_PROMPT_MAX, lyricsRateLimit, lyricsSchedule } from '../schemas/lyrics.ts';
import {
  extendCredits,
  modelCredits,
  MUSIC_A_DEFAULT_MODEL,
  MUSIC_B_DEFAULT_MODEL,
  musicAModelAllows,
  musicBModels,
  resolveProvider,
} from '../schemas/music-providers.ts';
import { musicBCallbackMs, promptScript } from '../mock/services/lyrics.ts';
import { type Body, lyricsBody, pathOf } from './factories.ts';
import { type CallResult, KEY, OTHER_KEY, type TestMock, useMocks } from './helpers.ts';

const start = useMocks();

const EMOJI = '\u{1F3B5}'; // one code point, two UTF-16 units
const CJK = '歌';
const OPENING = 10_000;
const SEED = 1; // the harness's seed

type Failure = { error: ErrorName; names: string[] };
const invalid = (...names: string[]): Failure => ({ error: 'LYRICS_INVALID_PARAMETERS', names });

/** Asserts the error envelope of `expected` (status, code, data null) and that the message names every field. */
function expectError(r: CallResult, expected: Failure | ErrorName) {
  const f = typeof expected === 'string' ? { error: expected, names: [] } : expected;
  const e = errorCatalog[f.error];
  expect(r.status, r.text).toBe(e.httpStatus);
  expect(r.json, r.text).toEqual({ code: e.code, message: expect.any(String), data: null });
  for (const name of f.names) expect(r.json.message, `the message names ${name}`).toContain(name);
}

/** Sends generate; checks the 202 answer ({taskId, status} only) and returns the id and the status answered. */
async function create(m: TestMock, body: Body = lyricsBody(), headers: Record<string, string> = {}, key?: string) {
  const r = await m.call('POST', pathOf('createLyricsTask'), { body, headers, key });
  expect(r.status, r.text).toBe(202);
  expect(Object.keys(r.json.data).sort(), 'the create answer carries no lyrics').toEqual(['status', 'taskId']);
  expect(r.json.data.taskId).toMatch(/^lyr_[0-9a-f]{16}$/);
  return r.json.data as { taskId: string; status: string };
}
const musicB = (over: Body = {}) => lyricsBody({ provider: 'musicB', ...over });

interface Variant {
  title: string;
  text: string;
  status: string;
  errorMessage?: string;
}
interface Task {
  id: string;
  provider: string;
  status: string;
  params: { prompt: string };
  variants: Variant[];
  creditCost: number;
  errorMessage?: string;
  createdAt: number;
  updatedAt: number;
}

async function getTask(m: TestMock, id: string, key?: string): Promise<Task> {
  const r = await m.call('GET', pathOf('getLyricsTask', { taskId: id }), { key });
  expect(r.status, r.text).toBe(200);
  return r.json.data;
}

async function listTasks(m: TestMock, query: Record<string, string | number> = {}, key?: string) {
  const r = await m.call('GET', pathOf('listLyricsTasks', {}, query), { key });
  expect(r.status, r.text).toBe(200);
  return r.json.data as { items: Task[]; page: number; pageSize: number; total: number };
}

interface LedgerEntry {
  type: string;
  amount: number;
  taskId: string | null;
}
async function account(m: TestMock): Promise<{ credits: number; ledger: LedgerEntry[] }> {
  return (await m.call('GET', `/__mock/accounts/${KEY}?ledgerPageSize=100`, { key: null })).json;
}
const ledgerOf = async (m: TestMock, id: string) => (await account(m)).ledger.filter((e) => e.taskId === id).map((e) => [e.type, e.amount]);
const setCredits = (m: TestMock, credits: number) => m.call('PUT', `/__mock/accounts/${KEY}`, { key: null, body: { credits } });

const RESERVED = [['reserve', -LYRICS_CREDITS]];
const CAPTURED = [...RESERVED, ['capture', 0]];
const REFUNDED = [...RESERVED, ['release', LYRICS_CREDITS]];
const { pendingMs, timeoutMs } = lyricsSchedule;

// ---------------------------------------------------------------------------
// The shared provider and model tables
// ---------------------------------------------------------------------------

describe('providers and models (document 3, "Providers and models (lyrics and music)")', () => {
  it.each([
    [undefined, 'musicA'],
    ['default', 'musicA'],
    ['musicA', 'musicA'],
    ['musicB', 'musicB'],
  ] as const)('provider %s runs on %s', (value, provider) => {
    expect(resolveProvider(value)).toBe(provider);
  });

  it.each([
    ['musicA', 'auto', 10],
    ['musicA', 'musicA-7.6', 5],
    ['musicA', 'musicA-8', 10],
    ['musicA', 'musicA-9', 10],
    ['musicA', 'musicA-o2', 10],
    ['musicA', 'V6', undefined],
    ...(['V4', 'V4_5', 'V4_5PLUS', 'V4_5ALL', 'V5'] as const).map((m) => ['musicB', m, 15] as const),
    ['musicB', 'V5_5', 20],
    ['musicB', 'V6', 20],
    ['musicB', 'auto', undefined],
  ] as const)('%s %s costs %s credits', (provider, model, credits) => {
    expect(modelCredits(provider, model)).toBe(credits);
  });

  it('defaults: auto on musicA, V6 on musicB; musicA-9 is not for /instrumental', () => {
    expect(MUSIC_A_DEFAULT_MODEL).toBe('auto');
    expect(MUSIC_B_DEFAULT_MODEL).toBe('V6');
    expect(musicAModelAllows('musicA-9', 'instrumental')).toBe(false);
    expect(musicAModelAllows('musicA-9', 'generate')).toBe(true);
    expect(musicAModelAllows('auto', 'instrumental')).toBe(true);
    expect(musicAModelAllows('V6', 'generate')).toBe(false);
  });

  const extendCases: [model: string, credits: number][] = [
    ['musicA-7.6', 10],
    ['auto', 10],
    ['musicA-8', 15],
    ['musicA-9', 15],
    ['musicA-o2', 15],
    ...musicBModels.map((m): [string, number] => [m.model, 15]),
  ];
  it.each(extendCases)('extend on %s costs %s', (model, credits) => {
    expect(extendCredits(model)).toBe(credits);
  });
});

// ---------------------------------------------------------------------------
// Rules
// ---------------------------------------------------------------------------

type Case = [name: string, body: Body, expected: 'ok' | Failure];
const ruleCases: Case[] = [
  ['prompt of 1 character', lyricsBody({ prompt: 'x' }), 'ok'],
  [`prompt of ${LYRICS_PROMPT_MAX} characters`, lyricsBody({ prompt: 'x'.repeat(LYRICS_PROMPT_MAX) }), 'ok'],
  [`prompt of ${LYRICS_PROMPT_MAX + 1} characters`, lyricsBody({ prompt: 'x'.repeat(LYRICS_PROMPT_MAX + 1) }), invalid('prompt', '201')],
  [`prompt of ${LYRICS_PROMPT_MAX} emoji (one code point each)`, lyricsBody({ prompt: EMOJI.repeat(LYRICS_PROMPT_MAX) }), 'ok'],
  [`prompt of ${LYRICS_PROMPT_MAX + 1} emoji`, lyricsBody({ prompt: EMOJI.repeat(LYRICS_PROMPT_MAX + 1) }), invalid('prompt')],
  [`prompt of ${LYRICS_PROMPT_MAX - 1} letters and an emoji`, lyricsBody({ prompt: 'x'.repeat(LYRICS_PROMPT_MAX - 1) + EMOJI }), 'ok'],
  [`prompt of ${LYRICS_PROMPT_MAX} Chinese characters`, lyricsBody({ prompt: CJK.repeat(LYRICS_PROMPT_MAX) }), 'ok'],
  [`prompt of ${LYRICS_PROMPT_MAX + 1} Chinese characters`, lyricsBody({ prompt: CJK.repeat(LYRICS_PROMPT_MAX + 1) }), invalid('prompt')],
  ['prompt empty', lyricsBody({ prompt: '' }), invalid('prompt')],
  ['prompt blank', lyricsBody({ prompt: ' \n\t ' }), invalid('prompt')],
  ['prompt missing', { provider: 'musicA' }, invalid('prompt')],
  ['prompt a number', lyricsBody({ prompt: 42 }), invalid('prompt')],
  ['prompt null', lyricsBody({ prompt: null }), invalid('prompt')],
  ['provider omitted', lyricsBody(), 'ok'],
  ...(['default', 'musicA', 'musicB'] as const).map((p): Case => [`provider ${p}`, lyricsBody({ provider: p }), 'ok']),
  ['provider musicC', lyricsBody({ provider: 'musicC' }), invalid('provider')],
  ['provider MusicA (case matters)', lyricsBody({ provider: 'MusicA' }), invalid('provider')],
  ['provider null', lyricsBody({ provider: null }), invalid('provider')],
  ['provider empty', lyricsBody({ provider: '' }), invalid('provider')],
];

describe('POST /v1/lyrics/generate: rules', () => {
  let m: TestMock;
  beforeEach(async () => {
    m = await start({ rateLimit: false });
  });

  it.each(ruleCases)('%s', async (_case, body, expected) => {
    const r = await m.call('POST', pathOf('createLyricsTask'), { body });
    if (expected === 'ok') {
      expect(r.status, r.text).toBe(202);
      return;
    }
    expectError(r, expected);
    const acc = await account(m);
    expect(acc.credits, 'a refused request reserves nothing').toBe(OPENING);
    expect(acc.ledger.filter((e) => e.taskId !== null)).toEqual([]);
  });
});

// ---------------------------------------------------------------------------
// Providers: musicA inside the call, musicB by callback
// ---------------------------------------------------------------------------

describe('provider routing and musicA', () => {
  let m: TestMock;
  beforeEach(async () => {
    m = await start({ rateLimit: false });
  });

  it.each([
    ['omitted', lyricsBody(), 'musicA'],
    ['default', lyricsBody({ provider: 'default' }), 'musicA'],
    ['musicA', lyricsBody({ provider: 'musicA' }), 'musicA'],
    ['musicB', musicB(), 'musicB'],
  ])('provider %s: the task reports %s', async (_n, body, provider) => {
    const { taskId } = await create(m, body);
    const t = await getTask(m, taskId);
    expect(t.provider).toBe(provider);
    expect(t.params).toEqual({ prompt: body.prompt });
  });

  it('musicA finishes inside the create call: 202 success, one complete variant, 2 credits captured at once', async () => {
    const { taskId, status } = await create(m, lyricsBody({ provider: 'musicA' }));
    expect(status).toBe('success');
    const t = await getTask(m, taskId);
    expect(t).toMatchObject({ id: taskId, provider: 'musicA', status: 'success', creditCost: LYRICS_CREDITS });
    expect(t.updatedAt).toBe(t.createdAt);
    expect(t.errorMessage).toBeUndefined();
    expect(t.variants).toHaveLength(1);
    expect(t.variants[0]).toEqual({ title: expect.any(String), text: expect.any(String), status: 'complete' });
    expect(await ledgerOf(m, taskId)).toEqual(CAPTURED);
    expect((await account(m)).credits).toBe(OPENING - LYRICS_CREDITS);
    // nothing changes later
    await m.advance(2 * timeoutMs);
    expect(await getTask(m, taskId)).toEqual(t);
    expect(await ledgerOf(m, taskId)).toEqual(CAPTURED);
  });

  it.each([
    ['outcome=failed', 'LYRICS_GENERATION_FAILED'],
    [`outcome=failed, error=${errorCatalog.LYRICS_PROVIDER_REJECTED.code}`, 'LYRICS_PROVIDER_REJECTED'],
    [`outcome=failed, error=${errorCatalog.LYRICS_TIMED_OUT.code}`, 'LYRICS_TIMED_OUT'],
  ] as const)('musicA, Prefer: %s: 202 failed inside the call, refunded, no variants', async (prefer, reason) => {
    const { taskId, status } = await create(m, lyricsBody(), { prefer });
    expect(status).toBe('failed');
    const t = await getTask(m, taskId);
    expect(t).toMatchObject({ provider: 'musicA', status: 'failed', variants: [], creditCost: 0 });
    expect(t.errorMessage).toMatch(new RegExp(`^${errorCatalog[reason].code}: `));
    expect(await ledgerOf(m, taskId)).toEqual(REFUNDED);
    expect((await account(m)).credits).toBe(OPENING);
  });

  it.each(['stuck', 'partial'])('musicA, Prefer: outcome=%s: 400 10007 naming musicB, nothing reserved', async (outcome) => {
    for (const body of [lyricsBody(), lyricsBody({ provider: 'default' }), lyricsBody({ provider: 'musicA' })]) {
      const r = await m.call('POST', pathOf('createLyricsTask'), { body, headers: { prefer: `outcome=${outcome}` } });
      expectError(r, { error: 'INVALID_PREFER', names: [`outcome=${outcome}`, 'musicB'] });
    }
    expect((await account(m)).credits).toBe(OPENING);
    expect((await listTasks(m)).total).toBe(0);
  });
});

describe('musicB: pending, generating, the provider callback', () => {
  let m: TestMock;
  beforeEach(async () => {
    m = await start({ rateLimit: false });
  });

  it('the callback arrives 20-40 s after creation, fixed per task id', () => {
    const ids = Array.from({ length: 50 }, (_, i) => `lyr_${i.toString(16).padStart(16, '0')}`);
    const at = ids.map((id) => musicBCallbackMs(SEED, id));
    for (const ms of at) {
      expect(ms).toBeGreaterThanOrEqual(lyricsSchedule.callbackMinMs);
      expect(ms).toBeLessThanOrEqual(lyricsSchedule.callbackMaxMs);
    }
    expect(new Set(at).size, 'not all the same').toBeGreaterThan(10);
    expect(ids.map((id) => musicBCallbackMs(SEED, id))).toEqual(at);
  });

  it('pending (creditCost 0) -> generating after 2 s -> success at the callback with two complete variants, 2 credits captured', async () => {
    const { taskId, status } = await create(m, musicB());
    expect(status).toBe('pending');
    const callback = musicBCallbackMs(SEED, taskId);
    const pending = await getTask(m, taskId);
    expect(pending).toMatchObject({ provider: 'musicB', status: 'pending', variants: [], creditCost: 0 });
    expect(pending.errorMessage).toBeUndefined();
    const t0 = pending.createdAt;
    expect(pending.updatedAt).toBe(t0);
    expect(await ledgerOf(m, taskId)).toEqual(RESERVED);

    await m.advance(pendingMs - 1);
    expect((await getTask(m, taskId)).status).toBe('pending');
    await m.advance(1);
    expect(await getTask(m, taskId)).toMatchObject({ status: 'generating', variants: [], creditCost: 0, updatedAt: t0 + pendingMs });

    await m.advance(callback - pendingMs - 1);
    expect(await getTask(m, taskId)).toMatchObject({ status: 'generating', variants: [], creditCost: 0 });
    expect(await ledgerOf(m, taskId), 'still only reserved before the callback').toEqual(RESERVED);

    await m.advance(1);
    const done = await getTask(m, taskId);
    expect(done).toMatchObject({ status: 'success', creditCost: LYRICS_CREDITS, updatedAt: t0 + callback });
    expect(done.errorMessage).toBeUndefined();
    expect(done.variants).toHaveLength(2);
    for (const v of done.variants) expect(v).toEqual({ title: expect.any(String), text: expect.any(String), status: 'complete' });
    expect(done.variants[0].text, 'the two variants differ').not.toBe(done.variants[1].text);
    expect(await ledgerOf(m, taskId)).toEqual(CAPTURED);
    expect((await account(m)).credits).toBe(OPENING - LYRICS_CREDITS);

    // the timeouts that were scheduled do nothing to a finished task
    await m.advance(2 * timeoutMs);
    expect(await getTask(m, taskId)).toEqual(done);
    expect(await ledgerOf(m, taskId)).toEqual(CAPTURED);
  });

  it('Prefer: outcome=partial: success with the second variant failed (errorMessage 38005, no text); the credits are still captured', async () => {
    const { taskId } = await create(m, musicB(), { prefer: 'outcome=partial' });
    await m.advance(lyricsSchedule.callbackMaxMs);
    const t = await getTask(m, taskId);
    expect(t).toMatchObject({ status: 'success', creditCost: LYRICS_CREDITS });
    expect(t.errorMessage).toBeUndefined();
    expect(t.variants.map((v) => v.status)).toEqual(['complete', 'failed']);
    expect(t.variants[0].errorMessage).toBeUndefined();
    expect(t.variants[1]).toEqual({
      title: expect.any(String),
      text: '',
      status: 'failed',
      errorMessage: expect.stringMatching(new RegExp(`^${errorCatalog.LYRICS_GENERATION_FAILED.code}: `)),
    });
    expect(await ledgerOf(m, taskId)).toEqual(CAPTURED);
  });

  it.each([
    ['outcome=failed', 'LYRICS_GENERATION_FAILED'],
    [`outcome=failed, error=${errorCatalog.LYRICS_PROVIDER_REJECTED.code}`, 'LYRICS_PROVIDER_REJECTED'],
    [`outcome=failed, error=LYRICS_GENERATION_FAILED`, 'LYRICS_GENERATION_FAILED'],
  ] as const)('Prefer: %s: the callback reports the failure; failed, refunded in full', async (prefer, reason) => {
    const { taskId, status } = await create(m, musicB(), { prefer });
    expect(status).toBe('pending');
    const callback = musicBCallbackMs(SEED, taskId);
    await m.advance(callback - 1);
    expect((await getTask(m, taskId)).status).toBe('generating');
    expect(await ledgerOf(m, taskId)).toEqual(RESERVED);
    await m.advance(1);
    const t = await getTask(m, taskId);
    expect(t).toMatchObject({ status: 'failed', variants: [], creditCost: 0 });
    expect(t.errorMessage).toMatch(new RegExp(`^${errorCatalog[reason].code}: `));
    expect(t.updatedAt).toBe(t.createdAt + callback);
    expect(await ledgerOf(m, taskId)).toEqual(REFUNDED);
    expect((await account(m)).credits).toBe(OPENING);
  });
});

// ---------------------------------------------------------------------------
// The 30-minute timeout
// ---------------------------------------------------------------------------

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
