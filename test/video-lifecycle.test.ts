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
 */
import { afterEach, describe, expect, it } from 'vitest';
import { errorCatalog } from '../schemas/errors.ts';
import { family5Credits, sharedVideoCredits, videoEstimateFromCredits, videoGenerateRateLimit, videoPhases } from '../schemas/video.ts';
import { family5Body, family5EstimateBody, pathOf, textItem, videoBody, videoEstimateBody } from './factories.ts';
import { KEY, OTHER_KEY, startMock, type TestMock } from './helpers.ts';

const U = 'https://example.com/';
const code = (n: keyof typeof errorCatalog) => errorCatalog[n].code;

let mock: TestMock;
afterEach(async () => {
  expect(mock.bugs).toEqual([]);
  await mock.close();
});

async function task(id: string, key: string = KEY) {
  const r = await mock.call('GET', pathOf('getVideoTask', { taskId: id }), { key });
  expect(r.status, r.text).toBe(200);
  return r.json.data;
}
type CreateOp = 'createVideoTask' | 'createFamily5VideoTask';
type CreateOpts = { key?: string; headers?: Record<string, string>; query?: Record<string, string | number> };
async function create(op: CreateOp, body: unknown, opts: CreateOpts = {}) {
  const r = await mock.call('POST', pathOf(op, {}, opts.query), { body, key: opts.key, headers: opts.headers });
  expect(r.status, r.text).toBe(200);
  expect(r.json.code).toBe(0);
  expect(r.json.data.status).toBe('generating');
  return r.json.data.taskId as string;
}
async function balance(key: string = KEY): Promise<number> {
  const r = await mock.call('GET', pathOf('getSubscription'), { key });
  expect(r.status).toBe(200);
  return r.json.data.balance;
}
async function ledger(key: string = KEY) {
  const r = await mock.call('GET', `/__mock/accounts/${key}`, { key: null });
  expect(r.status).toBe(200);
  return r.json as { credits: number; ledger: { type: string; amount: number; balance: number; taskId: string | null }[] };
}
/** The ledger sums to the balance, each entry's running balance is right, and the API's balance agrees. */
async function expectLedgerConsistent(key: string = KEY) {
  const a = await ledger(key);
  let sum = 0;
  for (const e of a.ledger) {
    sum += e.amount;
    expect(e.balance).toBe(sum);
  }
  expect(sum).toBe(a.credits);
  expect(await balance(key)).toBe(a.credits);
  return a;
}
async function fetchMedia(url: string) {
  const res = await fetch(mock.base + new URL(url).pathname);
  const body = Buffer.from(await res.arrayBuffer());
  return { status: res.status, type: res.headers.get('content-type') ?? '', body };
}

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

describe('list', () => {
  it('newest first across both endpoints, status filter, pagination and total', async () => {
    mock = await startMock({ rateLimit: false });
    const ids: string[] = [];
    ids.push(await create('createVideoTask', videoBody({ content: [textItem('first')] })));
    await mock.advance(1000);
    ids.push(await create('createFamily5VideoTask', family5Body({ prompt: 'second' })));
    await mock.advance(1000);
    ids.push(await create('createVideoTask', videoBody({ model: 'family4-video', content: [textItem('third')] }), { headers: { prefer: 'outcome=failed' } }));
    await mock.advance(1000);
    ids.push(await create('createFamily5VideoTask', family5Body({ prompt: 'fourth', duration: 60 })));
    const other = await create('createVideoTask', videoBody({ content: [textItem('not mine')] }), { key: OTHER_KEY });

    const all = await mock.call('GET', pathOf('listVideoTasks'));
    expect(all.status).toBe(200);
    expect(all.json.data).toMatchObject({ page: 1, pageSize: 20, total: 4 });
    expect(all.json.data.items.map((i: { id: string }) => i.id)).toEqual([...ids].reverse());
    const created = all.json.data.items.map((i: { createdAt: number }) => i.createdAt);
    expect([...created].sort((a, b) => b - a)).toEqual(created);
    const item = all.json.data.items[3];
    expect(Object.keys(item).sort()).toEqual(
      [
        'coverUrl',
        'createdAt',
        'creditCharged',
        'episodeId',
        'id',
        'model',
        'params',
        'prompt',
        'providerVideoUrl',
        'seed',
        'status',
        'title',
        'videoUrl',
      ].sort(),
    );
    expect(item).toMatchObject({ prompt: 'first', status: 'generating' });

    // Move the first three to terminal states; the 60 s family5 task is still generating.
    await mock.advance(
      Math.max(
        videoPhases('family1-video-2-fast', 5).generatingMs + videoPhases('family1-video-2-fast', 5).uploadingMs,
        videoPhases('family4-video', 5).generatingMs,
        videoPhases('family5', 5).generatingMs + videoPhases('family5', 5).uploadingMs,
      ),
    );
    expect(videoPhases('family5', 60).generatingMs).toBeGreaterThan(videoPhases('family5', 5).generatingMs + videoPhases('family5', 5).uploadingMs);
    const ofStatus = async (s: string) => (await mock.call('GET', pathOf('listVideoTasks', {}, { status: s }))).json.data;
    expect((await ofStatus('success')).items.map((i: { id: string }) => i.id)).toEqual([ids[1], ids[0]]);
    expect((await ofStatus('success')).total).toBe(2);
    expect((await ofStatus('failed')).items.map((i: { id: string }) => i.id)).toEqual([ids[2]]);
    expect((await ofStatus('generating')).items.map((i: { id: string }) => i.id)).toEqual([ids[3]]);
    expect((await ofStatus('uploading')).total).toBe(0);
    expect((await ofStatus('pending')).total).toBe(0);

    const p1 = (await mock.call('GET', pathOf('listVideoTasks', {}, { page: 1, pageSize: 3 }))).json.data;
    expect(p1).toMatchObject({ page: 1, pageSize: 3, total: 4 });
    expect(p1.items.map((i: { id: string }) => i.id)).toEqual([ids[3], ids[2], ids[1]]);
    const p2 = (await mock.call('GET', pathOf('listVideoTasks', {}, { page: 2, pageSize: 3 }))).json.data;
    expect(p2).toMatchObject({ page: 2, pageSize: 3, total: 4 });
    expect(p2.items.map((i: { id: string }) => i.id)).toEqual([ids[0]]);
    const p3 = (await mock.call('GET', pathOf('listVideoTasks', {}, { page: 3, pageSize: 3 }))).json.data;
    expect(p3).toMatchObject({ page: 3, total: 4, items: [] });
    const filtered = (await mock.call('GET', pathOf('listVideoTasks', {}, { status: 'success', page: 2, pageSize: 1 }))).json.data;
    expect(filtered).toMatchObject({ total: 2, items: [{ id: ids[0] }] });

    const theirs = (await mock.call('GET', pathOf('listVideoTasks'), { key: OTHER_KEY })).json.data;
    expect(theirs.items.map((i: { id: string }) => i.id)).toEqual([other]);
  });
});

describe('owner scope', () => {
  it("another key's task -> 31005; unknown id -> 31006 (HTTP 400)", async () => {
    mock = await startMock();
    const id = await create('createVideoTask', videoBody());
    const f5id = await create('createFamily5VideoTask', family5Body());
    for (const t of [id, f5id]) {
      const r = await mock.call('GET', pathOf('getVideoTask', { taskId: t }), { key: OTHER_KEY });
      expect(r.status).toBe(400);
      expect(r.json.code).toBe(code('VIDEO_TASK_FORBIDDEN'));
      expect(r.json.message).toContain(t);
    }
    const r = await mock.call('GET', pathOf('getVideoTask', { taskId: 'vt_doesnotexist' }));
    expect(r.status).toBe(400);
    expect(r.json.code).toBe(code('VIDEO_TASK_NOT_FOUND'));
    expect(r.json.message).toContain('vt_doesnotexist');
  });
});

describe('rate limit: 5 generate requests per minute per account, both endpoints', () => {
  it('the 6th gets HTTP 429 with Retry-After (31029 shared, 29998 family5); another account is unaffected; the window frees on the virtual clock', async () => {
    mock = await startMock();
    expect(videoGenerateRateLimit).toMatchObject({ limit: 5, windowMs: 60_000 });
    const t0 = (await mock.call('GET', '/__mock/clock', { key: null })).json.now as number;
    await create('createVideoTask', videoBody());
    await create('createFamily5VideoTask', family5Body());
    await mock.advance(10_000); // the first two leave the window at t0 + 60 s
    await create('createVideoTask', videoBody());
    await create('createFamily5VideoTask', family5Body());
    await create('createVideoTask', videoBody());

    const six = await mock.call('POST', pathOf('createVideoTask'), { body: videoBody() });
    expect(six.status).toBe(429);
    expect(six.json.code).toBe(31029);
    expect(six.headers.get('retry-after')).toBe('50');
    const sixF5 = await mock.call('POST', pathOf('createFamily5VideoTask'), { body: family5Body() });
    expect(sixF5.status).toBe(429);
    expect(sixF5.json.code).toBe(29998);
    expect(sixF5.headers.get('retry-after')).toBe('50');
    // Invalid requests are limited too (the limit is per request).
    const bad = await mock.call('POST', pathOf('createVideoTask'), { body: { content: [] } });
    expect(bad.status).toBe(429);

    // Another account is unaffected.
    await create('createVideoTask', videoBody(), { key: OTHER_KEY });
    await create('createFamily5VideoTask', family5Body(), { key: OTHER_KEY });

    // Reads are not limited.
    expect((await mock.call('GET', pathOf('listVideoTasks'))).status).toBe(200);
    expect((await mock.call('POST', pathOf('estimateVideoCredits'), { body: videoEstimateBody() })).status).toBe(200);

    // Just before the window ends for the oldest request: still limited, Retry-After 1.
    await mock.advance(t0 + 60_000 - 1 - (t0 + 10_000));
    const almost = await mock.call('POST', pathOf('createFamily5VideoTask'), { body: family5Body() });
    expect(almost.status).toBe(429);
    expect(almost.headers.get('retry-after')).toBe('1');

    // At t0 + 60 s two slots are free again (the two requests of t0 left the window).
    await mock.advance(1);
    await create('createVideoTask', videoBody());
    await create('createFamily5VideoTask', family5Body());
    const again = await mock.call('POST', pathOf('createVideoTask'), { body: videoBody() });
    expect(again.status).toBe(429);
    expect(again.headers.get('retry-after')).toBe('10');
  });
});

describe('family5 source tasks (restyle, lip_sync)', () => {
  const restyle = (sourceTaskId: string) => ({ capability: 'restyle', sourceTaskId, pixverse: { restyleId: 'noir' } });
  const lipSync = (sourceTaskId: string) => ({ capability: 'lip_sync', sourceTaskId, pixverse: { tts: { speakerId: 'spk_1', content: 'Hello there' } } });
  const done = videoPhases('family5', 5).generatingMs + videoPhases('family5', 5).uploadingMs;

  it('accept a prior succeeded family5 task of the caller', async () => {
    mock = await startMock({ rateLimit: false });
    const src = await create('createFamily5VideoTask', family5Body());
    await mock.advance(done);
    expect((await task(src)).status).toBe('success');
    const a = await create('createFamily5VideoTask', restyle(src));
    const b = await create('createFamily5VideoTask', lipSync(src));
    const c = await create('createFamily5VideoTask', { capability: 'lip_sync', sourceTaskId: src, audios: [{ url: `${U}a.mp3`, duration: 12 }] });
    expect((await task(a)).params).toMatchObject({ capability: 'restyle', sourceTaskId: src });
    await mock.advance(done);
    for (const id of [a, b, c]) expect((await task(id)).status).toBe('success');
  });

  it("reject an unknown one (32001), another user's (32005), a generating, uploading or failed one, or a shared-endpoint task (32004), charging nothing", async () => {
    mock = await startMock({ rateLimit: false });
    const theirs = await create('createFamily5VideoTask', family5Body(), { key: OTHER_KEY });
    const failed = await create('createFamily5VideoTask', family5Body(), { headers: { prefer: 'outcome=failed' } });
    const sharedTask = await create('createVideoTask', videoBody());
    await mock.advance(3_600_000);
    expect((await task(theirs, OTHER_KEY)).status).toBe('success');
    expect((await task(failed)).status).toBe('failed');
    expect((await task(sharedTask)).status).toBe('success');
    const generating = await create('createFamily5VideoTask', family5Body());
    await mock.advance(videoPhases('family5', 5).generatingMs);
    const uploading = await create('createFamily5VideoTask', family5Body());
    // `uploading` is still generating; the earlier one is uploading now.
    expect((await task(generating)).status).toBe('uploading');

    const before = await balance();
    const cases: [string, number][] = [
      ['vt_doesnotexist', 32001],
      [theirs, 32005],
      [generating, 32004],
      [uploading, 32004],
      [failed, 32004],
      [sharedTask, 32004],
    ];
    for (const [src, expected] of cases) {
      for (const body of [restyle(src), lipSync(src)]) {
        const r = await mock.call('POST', pathOf('createFamily5VideoTask'), { body });
        expect(r.status, `${src} ${body.capability}`).toBe(400);
        expect(r.json.code, `${src} ${body.capability}`).toBe(expected);
        expect(r.json.message).toContain('sourceTaskId');
      }
    }
    expect(await balance()).toBe(before);
  });
});

describe('family3-h3 ignores generateAudio and seed', () => {
  it('generateAudio false and seed 42 are accepted; the task has a sound track and a seed of its own', async () => {
    mock = await startMock();
    const h3 = await task(await create('createVideoTask', videoBody({ model: 'family3-h3', generateAudio: false, seed: 42 })));
    expect(h3.params.generateAudio).toBe(true);
    expect(h3.seed).not.toBe(42);
    expect(h3.resolution).toBe('768p');
    const f1 = await task(await create('createVideoTask', videoBody({ model: 'family1-video-2-fast', generateAudio: false, seed: 42 })));
    expect(f1.params.generateAudio).toBe(false);
    expect(f1.seed).toBe(42);
  });
});
