/**
 * The video lifecycle over HTTP on the manual clock: phases and their exact
 * boundaries, media URLs that load, credits (estimate = charge, reserve /
 * capture / release in the ledger), forced failures (Prefer, __outcome, scenario
 * rules), insufficient credits, list, owner scope, the shared 5-per-minute
 * generate limit, and family5 source tasks.
 *
 * Seed: document 1, "Video task", "States and transitions", "Video: create task
 * (shared)", "Video: get task", "Video: list tasks", "Video: estimate (shared)",
 * "Video: family5 create", "Video: family5 estimate", "Errors", "Limits". The
 * phase lengths, prices and shared-endpoint codes are the contract's assumed
 * tables; they are read from schemas/ where the point is consistency.
 *
 * The list, owner scope, the rate limit, family5 source tasks and family3-h3
 * are test/video-tasks.test.ts; the shared helpers test/video-helpers.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { errorCatalog } from '../schemas/errors.ts';
import { family5Credits, sharedVideoCredits, videoEstimateFromCredits, videoPhases } from '../schemas/video.ts';
import { family5Body, family5EstimateBody, pathOf, textItem, videoBody, videoEstimateBody } from './factories.ts';
import { KEY, OTHER_KEY, startMock, type TestMock } from './helpers.ts';
import { code, type CreateOp, type CreateOpts, U, videoHelpers } from './video-helpers.ts';

let mock: TestMock;
afterEach(async () => {
  expect(mock.bugs).toEqual([]);
  await mock.close();
});
const { task, create, balance, expectLedgerConsistent, fetchMedia } = videoHelpers(() => mock);

describe('phases on the manual clock', () => {
  const cases: { name: string; op: CreateOp; body: Record<string, unknown>; schedule: Parameters<typeof videoPhases>[0]; duration: number }[] = [
    { name: 'family1-video-2-fast default (5 s)', op: 'createVideoTask', body: videoBody(), schedule: 'family1-video-2-fast', duration: 5 },
    {
      name: 'family1-video-2-pro 1080p 12 s',
      op: 'createVideoTask',
      body: videoBody({ model: 'family1-video-2-pro', resolution: '1080p', duration: 12 }),
      schedule: 'family1-video-2-pro',
      duration: 12,
    },
    {
      name: 'family2-video-prime 30 s',
      op: 'createVideoTask',
      body: videoBody({ model: 'family2-video-prime', duration: 30 }),
      schedule: 'family2-video-prime',
      duration: 30,
    },
    {
      name: 'family3-h3 2k 4 s',
      op: 'createVideoTask',
      body: videoBody({ model: 'family3-h3', resolution: '2k', duration: 4 }),
      schedule: 'family3-h3',
      duration: 4,
    },
    { name: 'family4-video 3 s', op: 'createVideoTask', body: videoBody({ model: 'family4-video', duration: 3 }), schedule: 'family4-video', duration: 3 },
    { name: 'family5 text_to_video (default 5 s)', op: 'createFamily5VideoTask', body: family5Body(), schedule: 'family5', duration: 5 },
    {
      name: 'family5 agent (default 30 s)',
      op: 'createFamily5VideoTask',
      body: { capability: 'agent', prompt: 'Sell shoes', images: [{ url: `${U}1.png` }], pixverse: { agentType: 'ad_master' } },
      schedule: 'family5',
      duration: 30,
    },
  ];

  it.each(cases)('$name: generating -> uploading -> success at the times of videoPhases()', async (c) => {
    mock = await startMock();
    const t0 = (await mock.call('GET', '/__mock/clock', { key: null })).json.now as number;
    const id = await create(c.op, c.body);
    const { generatingMs, uploadingMs } = videoPhases(c.schedule, c.duration);

    let t = await task(id);
    expect(t).toMatchObject({
      id,
      taskId: id,
      status: 'generating',
      duration: c.duration,
      videoUrl: null,
      coverUrl: null,
      providerVideoUrl: null,
      createdAt: t0,
      updatedAt: t0,
      errorCode: null,
      errorMessage: null,
    });

    await mock.advance(generatingMs - 1);
    t = await task(id);
    expect(t).toMatchObject({ status: 'generating', videoUrl: null, coverUrl: null, providerVideoUrl: null, updatedAt: t0 });

    await mock.advance(1);
    t = await task(id);
    expect(t).toMatchObject({ status: 'uploading', videoUrl: null, coverUrl: null, updatedAt: t0 + generatingMs });
    expect(t.providerVideoUrl).toEqual(expect.any(String));
    const provider = await fetchMedia(t.providerVideoUrl);
    expect(provider.status).toBe(200);
    expect(provider.type).toMatch(/^video\/mp4/);
    // The stored output is not there yet.
    expect((await fetchMedia(`http://x/media/videos/${id}.mp4`)).status).toBe(404);

    await mock.advance(uploadingMs - 1);
    expect((await task(id)).status).toBe('uploading');

    await mock.advance(1);
    t = await task(id);
    expect(t).toMatchObject({ status: 'success', updatedAt: t0 + generatingMs + uploadingMs, errorCode: null, errorMessage: null });
    for (const u of [t.videoUrl, t.coverUrl, t.providerVideoUrl]) expect(u).toEqual(expect.any(String));
    const v = await fetchMedia(t.videoUrl);
    expect(v.status).toBe(200);
    expect(v.type).toMatch(/^video\/mp4/);
    expect(v.body.subarray(4, 8).toString('latin1')).toBe('ftyp');
    const cover = await fetchMedia(t.coverUrl);
    expect(cover.status).toBe(200);
    expect(cover.type).toMatch(/^image\/png/);
    expect(cover.body.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));

    // Nothing moves afterwards.
    await mock.advance(3_600_000);
    expect((await task(id)).status).toBe('success');
  });
});

describe('credits', () => {
  const sharedCases = [
    { body: videoBody(), model: 'family1-video-2-fast', resolution: '720p', duration: 5, input: 0 },
    {
      body: {
        model: 'family1-video-2-pro',
        resolution: '1080p',
        duration: 10,
        content: [textItem(), { type: 'video_url', video_url: { url: `${U}v.mp4` } }],
        inputVideoDuration: 7,
      },
      model: 'family1-video-2-pro',
      resolution: '1080p',
      duration: 10,
      input: 7,
    },
    { body: videoBody({ model: 'family3-h3', duration: 15 }), model: 'family3-h3', resolution: '768p', duration: 15, input: 0 },
    {
      body: {
        model: 'family2-video',
        resolution: '480p',
        duration: 20,
        content: [textItem(), { type: 'video_url', video_url: { url: `${U}v.mp4` } }],
        inputVideoDuration: 9,
      },
      model: 'family2-video',
      resolution: '480p',
      duration: 20,
      input: 9,
    },
  ] as const;

  it.each(sharedCases)('shared $model $resolution $duration s (input $input s): charge = sharedVideoCredits = estimate; captured on success', async (c) => {
    mock = await startMock();
    const charge = sharedVideoCredits(c.model, c.resolution, c.duration, c.input);
    expect(charge).toBeGreaterThan(0);
    const est = await mock.call('POST', pathOf('estimateVideoCredits'), {
      body: videoEstimateBody({ model: c.model, resolution: c.resolution, duration: c.duration, hasVideoInput: c.input > 0, inputVideoDuration: c.input }),
    });
    expect(est.status, est.text).toBe(200);
    expect(est.json.data).toEqual(videoEstimateFromCredits(charge));

    const before = await balance();
    const id = await create('createVideoTask', c.body);
    expect((await task(id)).creditCharged).toBe(charge);
    expect(await balance()).toBe(before - charge);
    let a = await expectLedgerConsistent();
    expect(a.ledger.filter((e) => e.taskId === id).map((e) => [e.type, e.amount])).toEqual([['reserve', -charge]]);

    const { generatingMs, uploadingMs } = videoPhases(c.model, c.duration);
    await mock.advance(generatingMs + uploadingMs);
    const t = await task(id);
    expect(t.status).toBe('success');
    expect(t.creditCharged).toBe(charge);
    expect(await balance()).toBe(before - charge);
    a = await expectLedgerConsistent();
    expect(a.ledger.filter((e) => e.taskId === id).map((e) => e.type)).toEqual(['reserve', 'capture']);
  });

  const f5Cases = [
    { body: family5Body(), estimate: family5EstimateBody(), cap: 'text_to_video', model: 'family5', quality: '720p', duration: 5 },
    {
      body: family5Body({ model: 'v4.5', quality: '1080p', duration: 12 }),
      estimate: family5EstimateBody({ model: 'v4.5', quality: '1080p', duration: 12 }),
      cap: 'text_to_video',
      model: 'v4.5',
      quality: '1080p',
      duration: 12,
    },
    {
      body: { capability: 'multi_transition', pixverse: { multiTransition: [{ imageUrl: `${U}a.png` }, { imageUrl: `${U}b.png` }] } },
      estimate: family5EstimateBody({ capability: 'multi_transition' }),
      cap: 'multi_transition',
      model: 'family5',
      quality: '360p',
      duration: 5,
    },
    {
      body: { capability: 'agent', prompt: 'Sell shoes', images: [1, 2, 3, 4].map((i) => ({ url: `${U}${i}.png` })), pixverse: { agentType: 'promo_mix' } },
      estimate: family5EstimateBody({ capability: 'agent', pixverse: { agentType: 'promo_mix' } }),
      cap: 'agent',
      model: 'family5',
      quality: '720p',
      duration: 30,
    },
    {
      body: { capability: 'mimic', images: [{ url: `${U}a.png` }], videos: [{ url: `${U}a.mp4`, duration: 8 }], model: 'v5' },
      estimate: family5EstimateBody({ capability: 'mimic', model: 'v5' }),
      cap: 'mimic',
      model: 'v5',
      quality: '720p',
      duration: 5,
    },
  ] as const;

  it.each(f5Cases)('family5 $cap $model $quality $duration s: charge = family5Credits = estimate', async (c) => {
    mock = await startMock();
    const charge = family5Credits(c.cap, c.model, c.quality, c.duration);
    const est = await mock.call('POST', pathOf('estimateFamily5Credits'), { body: c.estimate });
    expect(est.status, est.text).toBe(200);
    expect(est.json.data).toEqual(videoEstimateFromCredits(charge));
    const before = await balance();
    const id = await create('createFamily5VideoTask', c.body);
    const t = await task(id);
    expect(t).toMatchObject({ creditCharged: charge, resolution: c.quality, duration: c.duration, model: c.model });
    expect(await balance()).toBe(before - charge);
    await expectLedgerConsistent();
    await mock.advance(videoPhases('family5', c.duration).generatingMs + videoPhases('family5', c.duration).uploadingMs);
    expect((await task(id)).status).toBe('success');
    expect(await balance()).toBe(before - charge);
    await expectLedgerConsistent();
  });
});

describe('forced failures', () => {
  /** Creates with the given forcing, checks the charge, runs to the failure and checks the refund. */
  async function expectFailsRefunded(
    op: CreateOp,
    body: unknown,
    schedule: Parameters<typeof videoPhases>[0],
    duration: number,
    expectedCode: number,
    opts: Omit<CreateOpts, 'key'> = {},
  ) {
    const before = await balance();
    const id = await create(op, body, opts);
    const charged = (await task(id)).creditCharged;
    expect(charged).toBeGreaterThan(0);
    expect(await balance()).toBe(before - charged);
    const { generatingMs } = videoPhases(schedule, duration);
    await mock.advance(generatingMs - 1);
    expect((await task(id)).status).toBe('generating');
    await mock.advance(1);
    const t = await task(id);
    expect(t).toMatchObject({ status: 'failed', errorCode: expectedCode, creditCharged: 0, videoUrl: null, coverUrl: null, providerVideoUrl: null });
    expect(t.errorMessage).toEqual(expect.any(String));
    expect(t.errorMessage.length).toBeGreaterThan(0);
    expect(await balance()).toBe(before);
    const a = await expectLedgerConsistent();
    expect(a.ledger.filter((e) => e.taskId === id).map((e) => [e.type, e.amount])).toEqual([
      ['reserve', -charged],
      ['release', charged],
    ]);
    // A failed task stays failed.
    await mock.advance(3_600_000);
    expect((await task(id)).status).toBe('failed');
    return id;
  }

  it('Prefer outcome=failed on the shared endpoint: fails with the default failure reason, refunded in full', async () => {
    mock = await startMock();
    await expectFailsRefunded('createVideoTask', videoBody(), 'family1-video-2-fast', 5, code('VIDEO_GENERATION_FAILED'), {
      headers: { prefer: 'outcome=failed' },
    });
  });

  it('Prefer outcome=failed, error=31009 (content rejected) on the shared endpoint', async () => {
    mock = await startMock();
    await expectFailsRefunded('createVideoTask', videoBody({ model: 'family4-video', duration: 8 }), 'family4-video', 8, code('VIDEO_CONTENT_REJECTED'), {
      headers: { prefer: `outcome=failed, error=${code('VIDEO_CONTENT_REJECTED')}` },
    });
  });

  it.each([32003, 32007, 32008])('Prefer outcome=failed, error=%i on family5', async (c) => {
    mock = await startMock();
    await expectFailsRefunded('createFamily5VideoTask', family5Body({ duration: 9 }), 'family5', 9, c, { headers: { prefer: `outcome=failed, error=${c}` } });
  });

  it('Prefer outcome=failed on family5 without error: fails with 32003 (provider error during generation)', async () => {
    mock = await startMock();
    await expectFailsRefunded('createFamily5VideoTask', family5Body(), 'family5', 5, 32003, { headers: { prefer: 'outcome=failed' } });
  });

  it('query __outcome=failed works like the header (and __error= picks the reason)', async () => {
    mock = await startMock();
    await expectFailsRefunded('createVideoTask', videoBody(), 'family1-video-2-fast', 5, code('VIDEO_GENERATION_FAILED'), { query: { __outcome: 'failed' } });
    await expectFailsRefunded('createFamily5VideoTask', family5Body(), 'family5', 5, 32008, { query: { __outcome: 'failed', __error: 32008 } });
  });

  it('Prefer error= that is not a failure reason of the operation is rejected (10007), nothing charged', async () => {
    mock = await startMock();
    const before = await balance();
    const r = await mock.call('POST', pathOf('createVideoTask'), { body: videoBody(), headers: { prefer: 'outcome=failed, error=32008' } });
    expect(r.status).toBe(400);
    expect(r.json.code).toBe(code('INVALID_PREFER'));
    expect(await balance()).toBe(before);
  });

  it('scenario rule: the next family5 task of this key fails with 32008; the one after succeeds; other keys unaffected', async () => {
    mock = await startMock();
    const s = await mock.call('POST', '/__mock/scenarios', {
      key: null,
      body: { apiKey: KEY, operationId: 'createFamily5VideoTask', outcome: 'failed', error: 32008 },
    });
    expect(s.status, s.text).toBe(200);
    const other = await create('createFamily5VideoTask', family5Body(), { key: OTHER_KEY });
    await expectFailsRefunded('createFamily5VideoTask', family5Body(), 'family5', 5, 32008);
    const next = await create('createFamily5VideoTask', family5Body());
    const { generatingMs, uploadingMs } = videoPhases('family5', 5);
    await mock.advance(generatingMs + uploadingMs);
    expect((await task(next)).status).toBe('success');
    expect((await task(other, OTHER_KEY)).status).toBe('success');
  });

  it('scenario rule for the shared endpoint: the next shared task of this key fails with 31009', async () => {
    mock = await startMock();
    const s = await mock.call('POST', '/__mock/scenarios', {
      key: null,
      body: { apiKey: KEY, operationId: 'createVideoTask', outcome: 'failed', error: code('VIDEO_CONTENT_REJECTED') },
    });
    expect(s.status, s.text).toBe(200);
    await expectFailsRefunded('createVideoTask', videoBody(), 'family1-video-2-fast', 5, code('VIDEO_CONTENT_REJECTED'));
    const next = await create('createVideoTask', videoBody());
    await mock.advance(3_600_000);
    expect((await task(next)).status).toBe('success');
  });

  it('scenario rule on both endpoints with 32008: a shared create passes untouched (32008 is not one of its failure reasons) and the rule waits for the next family5 task', async () => {
    mock = await startMock();
    const s = await mock.call('POST', '/__mock/scenarios', {
      key: null,
      body: { apiKey: KEY, operationId: ['createVideoTask', 'createFamily5VideoTask'], outcome: 'failed', error: 32008 },
    });
    expect(s.status, s.text).toBe(200);
    const shared = await create('createVideoTask', videoBody());
    await mock.advance(3_600_000);
    expect((await task(shared)).status).toBe('success');
    await expectFailsRefunded('createFamily5VideoTask', family5Body(), 'family5', 5, 32008);
  });

  it('a scenario rule that none of its operations declares is refused with 10008', async () => {
    mock = await startMock();
    for (const body of [
      { operationId: 'createVideoTask', outcome: 'failed', error: 32008 },
      { operationId: 'getVideoTask', outcome: 'failed' },
      { operationId: 'noSuchOperation', outcome: 'failed' },
    ]) {
      const s = await mock.call('POST', '/__mock/scenarios', { key: null, body });
      expect(s.status, JSON.stringify(body)).toBe(400);
      expect(s.json.code).toBe(code('CONTROL_INVALID_REQUEST'));
    }
  });
});

describe('insufficient credits', () => {
  it.each([
    ['shared', 'createVideoTask', videoBody(), 'VIDEO_INSUFFICIENT_CREDITS'],
    ['family5', 'createFamily5VideoTask', family5Body(), 'F5_INSUFFICIENT_CREDITS'],
  ] as const)('%s: HTTP 400 with the catalogued code, nothing charged, no task created', async (_n, op, body, err) => {
    mock = await startMock();
    const put = await mock.call('PUT', `/__mock/accounts/${KEY}`, { key: null, body: { credits: 3 } });
    expect(put.status).toBe(200);
    const r = await mock.call('POST', pathOf(op), { body });
    expect(r.status).toBe(400);
    expect(r.json.code).toBe(errorCatalog[err].code);
    expect(r.json.data).toBeNull();
    expect(await balance()).toBe(3);
    const a = await expectLedgerConsistent();
    expect(a.ledger.some((e) => e.type === 'reserve')).toBe(false);
    const list = await mock.call('GET', pathOf('listVideoTasks'));
    expect(list.json.data.total).toBe(0);
  });

  it('a balance of exactly the price is enough', async () => {
    mock = await startMock();
    const price = sharedVideoCredits('family1-video-2-fast', '720p', 5, 0);
    await mock.call('PUT', `/__mock/accounts/${KEY}`, { key: null, body: { credits: price } });
    await create('createVideoTask', videoBody());
    expect(await balance()).toBe(0);
    await expectLedgerConsistent();
  });
});
