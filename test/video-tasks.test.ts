/**
 * The video lifecycle over HTTP on the manual clock, continued from
 * test/video-lifecycle.test.ts: the list, owner scope, the shared
 * 5-per-minute generate limit, family5 source tasks (restyle, lip_sync) and
 * family3-h3 ignoring generateAudio and seed.
 *
 * Seed: document 1, "Video: list tasks", "Video: family5 create", "Errors",
 * "Limits".
 */
import { afterEach, describe, expect, it } from 'vitest';

import { videoGenerateRateLimit, videoPhases } from '../schemas/video.ts';
import { family5Body, pathOf, textItem, videoBody, videoEstimateBody } from './factories.ts';
import { OTHER_KEY, startMock, type TestMock } from './helpers.ts';
import { code, U, videoHelpers } from './video-helpers.ts';

let mock: TestMock;
afterEach(async () => {
  expect(mock.bugs).toEqual([]);
  await mock.close();
});
const { task, create, balance } = videoHelpers(() => mock);

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
