/**
 * The two generated-audio services, continued from test/generated-audio.test.ts
 * (document 2, "Generated-audio tasks (prefix P = ...)", "Limits"), every case
 * parameterised by service: the rate and concurrency limits, the list (order,
 * pages, status, keyword), owner scoping and the params echo.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { GENERATED_AUDIO_CONCURRENCY, generatedAudioPrice, generatedAudioRateLimit } from '../schemas/generated-audio.ts';
import { pngSize } from '../verify/decoders.ts';
import { pathOf } from './factories.ts';
import { OTHER_KEY, type TestMock, useMocks } from './helpers.ts';
import {
  account,
  create,
  doneAfterMs,
  EMOJI,
  expectError,
  genBody,
  getTask,
  invalid,
  listTasks,
  otherOf,
  PNG_B64,
  services,
  speaker,
  SPEAKERS,
  speakers,
} from './generated-audio-helpers.ts';

const start = useMocks();

describe.each(services)('$prefix ($model): limits', (svc) => {
  let m: TestMock;
  beforeEach(async () => {
    m = await start();
  });
  /** Each task of this body is done well within 6 s of virtual time. */
  const quick = genBody({ durationHint: 2 });
  const GAP_MS = 6_000;

  it(`generate request ${generatedAudioRateLimit.limit + 1} within a minute: 429 33007 with Retry-After; the other service still accepts`, async () => {
    for (let i = 0; i < generatedAudioRateLimit.limit; i++) {
      await create(m, svc, quick);
      await m.advance(GAP_MS);
    }
    const r = await m.call('POST', pathOf(svc.create), { body: quick });
    expectError(r, 'GEN_AUDIO_RATE_LIMITED');
    // the oldest request leaves the window a minute after it was made
    expect(r.headers.get('retry-after')).toBe(String((generatedAudioRateLimit.windowMs - generatedAudioRateLimit.limit * GAP_MS) / 1000));
    await create(m, otherOf(svc), quick);
    // a minute after the first request the window has room again
    await m.advance(generatedAudioRateLimit.windowMs - generatedAudioRateLimit.limit * GAP_MS + 1);
    await create(m, svc, quick);
  });

  it(`${GENERATED_AUDIO_CONCURRENCY + 1} tasks running at once: 33009 on the last; the other service still accepts`, async () => {
    for (let i = 0; i < GENERATED_AUDIO_CONCURRENCY; i++) await create(m, svc, quick);
    const r = await m.call('POST', pathOf(svc.create), { body: quick });
    expectError(r, 'GEN_AUDIO_CONCURRENCY_LIMIT');
    expect((await account(m)).credits, 'a refused task reserves nothing').toBe(
      10_000 - GENERATED_AUDIO_CONCURRENCY * generatedAudioPrice(2, svc.creditsPerMinute),
    );
    await create(m, otherOf(svc), quick);
    // another key has its own limit
    await create(m, svc, quick, {}, OTHER_KEY);
    // once they finish there is room again
    await m.advance(GAP_MS);
    await create(m, svc, quick);
  });

  it('the concurrency limit is off with the rate limits', async () => {
    const free = await start({ rateLimit: false });
    for (let i = 0; i < GENERATED_AUDIO_CONCURRENCY + 2; i++) await create(free, svc, quick);
  });
});

// ---------------------------------------------------------------------------
// List, get, owner scoping
// ---------------------------------------------------------------------------

describe.each(services)('$prefix ($model): list and get', (svc) => {
  let m: TestMock;
  beforeEach(async () => {
    m = await start({ rateLimit: false });
  });
  const texts = ['Alpha bravo charlie', 'bravo DELTA echo', 'Charlie alpha foxtrot', 'golf hotel', '@音频1 alphabet soup'];

  /** Creates one task per text, 1 ms apart; the fourth forced to fail. Returns their ids, oldest first. */
  async function seed(): Promise<string[]> {
    const ids: string[] = [];
    for (const [i, text] of texts.entries()) {
      ids.push(
        await create(m, svc, genBody({ text, durationHint: 2, ...(i === 4 ? { voices: speakers(1) } : {}) }), i === 3 ? { prefer: 'outcome=failed' } : {}),
      );
      await m.advance(1);
    }
    return ids;
  }

  it('newest first, with page and pageSize', async () => {
    const ids = await seed();
    const newest = [...ids].reverse();
    const all = await listTasks(m, svc);
    expect(all).toMatchObject({ page: 1, pageSize: 20, total: 5 });
    expect(all.items.map((t) => t.id)).toEqual(newest);
    const p2 = await listTasks(m, svc, { page: 2, pageSize: 2 });
    expect(p2).toMatchObject({ page: 2, pageSize: 2, total: 5 });
    expect(p2.items.map((t) => t.id)).toEqual(newest.slice(2, 4));
    const p4 = await listTasks(m, svc, { page: 4, pageSize: 2 });
    expect(p4.items).toEqual([]);
    expect(p4.total).toBe(5);
  });

  it('status filter', async () => {
    const ids = await seed();
    expect((await listTasks(m, svc, { status: 'pending' })).total).toBe(5);
    await m.advance(doneAfterMs(2000));
    const failed = await listTasks(m, svc, { status: 'failed' });
    expect(failed.items.map((t) => t.id)).toEqual([ids[3]]);
    const success = await listTasks(m, svc, { status: 'success' });
    expect(success.items.map((t) => t.id)).toEqual([ids[4], ids[2], ids[1], ids[0]]);
    expect(success.total).toBe(4);
    expect((await listTasks(m, svc, { status: 'pending' })).total).toBe(0);
  });

  it.each([
    ['ALPHA charlie', [2, 0]],
    ['bravo', [1, 0]],
    ['  delta  ', [1]],
    ['alpha', [4, 2, 0]],
    ['Alphabet Soup', [4]],
    ['zulu', []],
    ['alpha zulu', []],
  ])('keyword %j: every word, ignoring case, with total', async (keyword, hits) => {
    const ids = await seed();
    const r = await listTasks(m, svc, { keyword });
    expect(r.items.map((t) => t.id)).toEqual(hits.map((i) => ids[i]));
    expect(r.total).toBe(hits.length);
  });

  it('keyword with status and pages: total counts every match', async () => {
    const ids = await seed();
    const r = await listTasks(m, svc, { keyword: 'alpha', pageSize: 1, page: 2 });
    expect(r.items.map((t) => t.id)).toEqual([ids[2]]);
    expect(r.total).toBe(3);
  });

  it.each([
    ['keyword of 65 characters', { keyword: 'k'.repeat(65) }, 'keyword'],
    ['keyword of 65 emoji (code points)', { keyword: EMOJI.repeat(65) }, 'keyword'],
    ['pageSize 101', { pageSize: 101 }, 'pageSize'],
    ['pageSize 0', { pageSize: 0 }, 'pageSize'],
    ['page 0', { page: 0 }, 'page'],
    ['status unknown', { status: 'done' }, 'status'],
  ])('%s: 400 33004 naming it', async (_n, query, name) => {
    expectError(await m.call('GET', pathOf(svc.list, {}, query)), invalid(name));
  });

  it('keyword of 64 characters (or 64 emoji) is accepted', async () => {
    expect((await listTasks(m, svc, { keyword: 'k'.repeat(64) })).total).toBe(0);
    expect((await listTasks(m, svc, { keyword: EMOJI.repeat(64) })).total).toBe(0);
  });

  it("another key's task: 33001 on get, absent from its list; an unknown id: 33001", async () => {
    const id = await create(m, svc);
    expectError(await m.call('GET', pathOf(svc.get, { taskId: id }), { key: OTHER_KEY }), 'GEN_AUDIO_TASK_NOT_FOUND');
    expect(await listTasks(m, svc, {}, OTHER_KEY)).toMatchObject({ items: [], total: 0 });
    expectError(await m.call('GET', pathOf(svc.get, { taskId: `${svc.idPrefix}_0000000000000000` })), 'GEN_AUDIO_TASK_NOT_FOUND');
    expectError(await m.call('GET', pathOf(svc.get, { taskId: 'nope' })), 'GEN_AUDIO_TASK_NOT_FOUND');
  });

  it("the other service's task: 33001 here, and absent from this list", async () => {
    const theirs = await create(m, otherOf(svc));
    expectError(await m.call('GET', pathOf(svc.get, { taskId: theirs })), 'GEN_AUDIO_TASK_NOT_FOUND');
    expect((await listTasks(m, svc)).total).toBe(0);
    expect((await listTasks(m, otherOf(svc))).items.map((t) => t.id)).toEqual([theirs]);
  });
});

// ---------------------------------------------------------------------------
// params echo
// ---------------------------------------------------------------------------

describe.each(services)('$prefix ($model): params echo', (svc) => {
  let m: TestMock;
  beforeEach(async () => {
    m = await start({ rateLimit: false });
  });

  it.each([
    ['Base64', PNG_B64],
    ['a data: URL', `data:image/png;base64,${PNG_B64}`],
  ])('an inline image (%s) shows as { hasData: true, thumbnailUrl }; the thumbnail is a PNG', async (_n, data) => {
    const id = await create(m, svc, genBody({ image: { data } }));
    const t = await getTask(m, svc, id);
    expect(t.params.image).toEqual({ hasData: true, thumbnailUrl: expect.any(String) });
    expect(JSON.stringify(t)).not.toContain(PNG_B64.slice(0, 20));
    const res = await fetch(t.params.image.thumbnailUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\/png/);
    expect(pngSize(new Uint8Array(await res.arrayBuffer()))).toEqual({ width: 128, height: 128 });
    // the list shows the same echo
    expect((await listTasks(m, svc)).items[0].params).toEqual(t.params);
  });

  it('a url image shows as { url }', async () => {
    const id = await create(m, svc, genBody({ image: { url: 'https://example.com/cover.png' } }));
    expect((await getTask(m, svc, id)).params.image).toEqual({ url: 'https://example.com/cover.png' });
  });

  it('voices, audioConfig, durationHint, watermark and the model are echoed', async () => {
    const voices = [speaker(SPEAKERS[0]), { type: 'reference', url: 'https://example.com/ref.wav' }];
    const body = {
      text: '@音频1 Hello.\n@音频2 Hi there.',
      voices,
      audioConfig: { speechRate: 10, loudnessRate: -5, pitchRate: 2, format: 'wav' },
      durationHint: 3,
      watermark: true,
    };
    const id = await create(m, svc, body);
    expect((await getTask(m, svc, id)).params).toEqual({ model: svc.model, ...body });
  });

  it('audioConfig without format echoes the default mp3', async () => {
    const id = await create(m, svc, genBody({ audioConfig: { speechRate: 5 } }));
    expect((await getTask(m, svc, id)).params.audioConfig).toEqual({ speechRate: 5, format: 'mp3' });
  });
});
