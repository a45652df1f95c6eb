/**
 * The lyrics area (document 3, "Providers and models (lyrics and music)",
 * "Lyrics task", "States and transitions", "Lyrics (prefix /v1/lyrics)",
 * "Errors", "Limits"): the request rules at their boundaries (code points),
 * provider routing, musicA inside the create call, musicB through its
 * callback on the manual clock, variants (song-shaped, in the prompt's
 * script, one failed with outcome=partial), the 30-minute timeout with its
 * refund and no recovery, forced failures, money in the ledger, the list, owner
 * scoping and the request limit. Also the shared provider and model tables.
 *
 * The timeout, variants, money, the list and the request limit are
 * test/lyrics-tasks.test.ts; the shared helpers test/lyrics-helpers.ts.
 */
import { useMocks } from './helpers.ts';
import { beforeEach, describe, expect, it } from 'vitest';
import { errorCatalog } from '../schemas/errors.ts';
import { LYRICS_CREDITS, LYRICS_PROMPT_MAX, lyricsSchedule } from '../schemas/lyrics.ts';
import {
  extendCredits,
  modelCredits,
  MUSIC_A_DEFAULT_MODEL,
  MUSIC_B_DEFAULT_MODEL,
  musicAModelAllows,
  musicBModels,
  resolveProvider,
} from '../schemas/music-providers.ts';
import { musicBCallbackMs } from '../mock/services/lyrics.ts';
import { type Body, lyricsBody, pathOf } from './factories.ts';
import type { TestMock } from './helpers.ts';
import {
  account,
  CAPTURED,
  CJK,
  create,
  EMOJI,
  expectError,
  type Failure,
  getTask,
  invalid,
  ledgerOf,
  listTasks,
  musicB,
  OPENING,
  REFUNDED,
  RESERVED,
  SEED,
} from './lyrics-helpers.ts';

const start = useMocks();
const { pendingMs, timeoutMs } = lyricsSchedule;

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
