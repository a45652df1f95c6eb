/**
 * Video and account sessions through Prism's validation proxy: every request goes client -> Prism (proxy, --errors,
 * spec/openapi.yaml) -> a fresh in-process mock, and any violation Prism reports in either direction fails the test
 * with Prism's text (see test/prism.ts for how Prism 5.14.2 reports them). Representative sessions of every video and
 * account operation (document 1, "Video task", "Video models", "Video: family5 create"): creates across models and
 * content shapes, estimates against what creation charges, the lifecycle over clock advances, forced failures and
 * refunds, list filters and pages. Error answers: test/video-contract-errors.prism.test.ts; the harness's own
 * checks: test/prism-harness.prism.test.ts.
 *
 * One Prism serves the run (`usePrism`, test/prism.ts); each test builds its own mock behind it.
 */
import { describe, expect, it } from 'vitest';
import { errorCatalog, type ErrorName } from '../schemas/errors.ts';
import { operations } from '../schemas/operations.ts';
import { family5Credits, sharedVideoCredits, videoEstimateUnits, videoPhases } from '../schemas/video.ts';
import { family5Body, family5EstimateBody, pathOf, textItem, videoBody, videoEstimateBody } from './factories.ts';
import { KEY, OTHER_KEY, usePrism } from './prism.ts';
import { AUD, IMG, VID, videoCalls } from './video-prism.ts';

const prism = usePrism();
const { ok, create, createF5, getTask, balance } = videoCalls(prism);

describe('video session through Prism', () => {
  it('shared creates across every model and content shape; estimates match what creation charges; subscription follows', async () => {
    prism.useMock({ rateLimit: false });
    const start = await balance();
    expect(start).toBe(10_000);
    const cases: { body: Record<string, unknown>; model: string; resolution: string; duration: number; inputVideo: number }[] = [
      {
        body: videoBody(),
        model: 'family1-video-2-fast',
        resolution: '720p',
        duration: 5,
        inputVideo: 0,
      },
      {
        body: {
          model: 'family1-video-2-pro',
          resolution: '1080p',
          ratio: '21:9',
          duration: 10,
          seed: 42,
          generateAudio: false,
          content: [
            textItem('From sunrise to sunset'),
            { type: 'image_url', image_url: { url: IMG(1) }, role: 'first_frame' },
            { type: 'image_url', image_url: { url: IMG(2) }, role: 'last_frame' },
          ],
        },
        model: 'family1-video-2-pro',
        resolution: '1080p',
        duration: 10,
        inputVideo: 0,
      },
      {
        body: {
          model: 'family2-video',
          resolution: '480p',
          ratio: '9:16',
          duration: 8,
          inputVideoDuration: 12,
          audioSetting: 'origin',
          content: [
            textItem('Re-cut this clip'),
            { type: 'video_url', video_url: { url: VID(1) }, role: 'reference_video' },
            { type: 'audio_url', audio_url: { url: AUD(1) } },
          ],
        },
        model: 'family2-video',
        resolution: '480p',
        duration: 8,
        inputVideo: 12,
      },
      {
        body: {
          model: 'family2-video-prime',
          duration: 2,
          content: [textItem('Waves'), { type: 'audio_url', audio_url: { url: AUD(2) }, role: 'reference_audio' }],
        },
        model: 'family2-video-prime',
        resolution: '720p',
        duration: 2,
        inputVideo: 0,
      },
      {
        body: { model: 'family3-h3', resolution: '2k', duration: 6, content: [{ type: 'image_url', image_url: { url: IMG(3) }, role: 'last_frame' }] },
        model: 'family3-h3',
        resolution: '2k',
        duration: 6,
        inputVideo: 0,
      },
      {
        body: {
          model: 'family4-video',
          resolution: '1080p',
          ratio: '4:5',
          duration: 3,
          content: [
            textItem('Product shot'),
            { type: 'image_url', image_url: { url: IMG(4) } },
            { type: 'image_url', image_url: { url: IMG(5) }, role: 'reference_image' },
          ],
        },
        model: 'family4-video',
        resolution: '1080p',
        duration: 3,
        inputVideo: 0,
      },
    ];
    let spent = 0;
    for (const c of cases) {
      const credits = sharedVideoCredits(c.model as never, c.resolution as never, c.duration, c.inputVideo);
      const est = await ok('POST', pathOf('estimateVideoCredits'), {
        body: videoEstimateBody({
          model: c.model,
          resolution: c.resolution,
          duration: c.duration,
          ratio: c.body.ratio,
          hasVideoInput: c.inputVideo > 0,
          inputVideoDuration: c.inputVideo,
        }),
      });
      expect(est.json.data).toEqual({
        tokens: credits * videoEstimateUnits.tokensPerCredit,
        estimatedCostUsd: Math.round(credits * videoEstimateUnits.usdPerCredit * 100) / 100,
      });
      const id = await create(c.body);
      const t = await getTask(id);
      expect(t).toMatchObject({
        id,
        taskId: id,
        status: 'generating',
        model: c.model,
        resolution: c.resolution,
        duration: c.duration,
        creditCharged: credits,
        videoUrl: null,
        coverUrl: null,
        providerVideoUrl: null,
        errorCode: null,
        errorMessage: null,
      });
      expect(t.params.content).toEqual(c.body.content);
      spent += credits;
      expect(await balance()).toBe(start - spent);
    }
    // family3-h3 ignores generateAudio; with a first_frame it ignores the ratio too (reported as adaptive)
    const h3 = (await ok('GET', pathOf('listVideoTasks', {}, { pageSize: 100 }))).json.data.items.find((i: { model: string }) => i.model === 'family3-h3');
    expect(h3.params.generateAudio).toBe(true);
    expect((await getTask(h3.id)).ratio).toBe('16:9');
    const i2v = await create({
      model: 'family3-h3',
      ratio: '1:1',
      generateAudio: false,
      content: [{ type: 'image_url', image_url: { url: IMG(6) }, role: 'first_frame' }],
    });
    expect(await getTask(i2v)).toMatchObject({ ratio: 'adaptive', resolution: '768p', params: { generateAudio: true } });
  });

  it('family5: every capability creates, estimates match, restyle and lip_sync accept a succeeded family5 task as source', async () => {
    prism.useMock({ rateLimit: false });
    const img = (n: number) => ({ url: IMG(n) });
    const caps: { body: Record<string, unknown>; quality: string; duration: number; ratio: string }[] = [
      { body: family5Body({ duration: 5 }), quality: '720p', duration: 5, ratio: '16:9' },
      {
        body: { capability: 'image_to_video', prompt: 'Make it move', images: [img(1)], quality: '1080p', aspectRatio: '9:16', model: 'v6' },
        quality: '1080p',
        duration: 5,
        ratio: '9:16',
      },
      {
        body: { capability: 'transition', prompt: 'Day to night', images: [img(1), img(2)], duration: 4, language: 'zh' },
        quality: '720p',
        duration: 4,
        ratio: '16:9',
      },
      {
        body: {
          capability: 'multi_transition',
          pixverse: { multiTransition: [{ imageUrl: IMG(1), duration: 2, prompt: 'a' }, { imageUrl: IMG(2) }, { imageUrl: IMG(3), duration: 3 }] },
        },
        quality: '360p',
        duration: 5,
        ratio: '16:9',
      },
      {
        body: {
          capability: 'fusion',
          prompt: 'The @cat sits on the @beach',
          pixverse: {
            imageReferences: [
              { type: 'subject', imageUrl: IMG(1), refName: 'cat' },
              { type: 'background', imageUrl: IMG(2), refName: 'beach' },
            ],
          },
        },
        quality: '720p',
        duration: 5,
        ratio: '16:9',
      },
      { body: { capability: 'mimic', images: [img(1)], videos: [{ url: VID(1), duration: 10 }], model: 'v5' }, quality: '720p', duration: 5, ratio: '16:9' },
      {
        body: { capability: 'lip_sync', videos: [{ url: VID(2) }], audios: [{ url: AUD(1), duration: 12 }], model: 'v4.5' },
        quality: '720p',
        duration: 5,
        ratio: '16:9',
      },
      {
        body: {
          capability: 'agent',
          prompt: 'Sell these sneakers',
          images: [img(1), img(2), img(3), img(4)],
          quality: '1080p',
          duration: 20,
          pixverse: {
            agentType: 'promo_mix',
            brandSticker: { imageUrl: IMG(9), position: 'upper_right' },
            introOutroClip: { videoUrl: VID(9), position: 'end' },
          },
        },
        quality: '1080p',
        duration: 20,
        ratio: '9:16',
      },
    ];
    const ids: string[] = [];
    for (const c of caps) {
      const cap = c.body.capability as never;
      const model = (c.body.model ?? 'family5') as never;
      const credits = family5Credits(cap, model, c.quality as never, c.duration);
      const est = await ok('POST', pathOf('estimateFamily5Credits'), {
        body: family5EstimateBody({
          capability: c.body.capability,
          model: c.body.model,
          duration: c.body.duration,
          quality: c.body.quality,
          pixverse: (c.body.pixverse as { agentType?: string } | undefined)?.agentType ? { agentType: 'promo_mix' } : undefined,
        }),
      });
      expect(est.json.data.tokens, JSON.stringify(c.body)).toBe(credits * videoEstimateUnits.tokensPerCredit);
      const id = await createF5(c.body);
      const t = await getTask(id);
      expect(t).toMatchObject({
        id,
        status: 'generating',
        model: c.body.model ?? 'family5',
        resolution: c.quality,
        ratio: c.ratio,
        duration: c.duration,
        creditCharged: credits,
      });
      expect(t.params).toMatchObject({ capability: c.body.capability, quality: c.quality, aspectRatio: c.ratio, duration: c.duration });
      ids.push(id);
    }
    // finish them all, then use the text_to_video task as a source
    await prism.mock.advance(videoPhases('family5', 60).generatingMs + videoPhases('family5', 60).uploadingMs);
    for (const id of ids) expect((await getTask(id)).status).toBe('success');
    const restyle = await createF5({ capability: 'restyle', sourceTaskId: ids[0], pixverse: { restyleId: 7 } });
    expect((await getTask(restyle)).params).toMatchObject({ capability: 'restyle', sourceTaskId: ids[0], pixverse: { restyleId: 7 } });
    await createF5({ capability: 'lip_sync', sourceTaskId: ids[0], pixverse: { tts: { speakerId: 'anna', content: 'Hello there' } } });
    await createF5({ capability: 'restyle', pixverse: { sourceVideoId: 12345, restyleId: 'noir' } });
    // every family5 task is listed with the shared ones, newest first
    const list = (await ok('GET', pathOf('listVideoTasks', {}, { pageSize: 100 }))).json.data;
    expect(list.total).toBe(caps.length + 3);
    expect(list.items[list.items.length - 1].id).toBe(ids[0]);
  });

  it('lifecycle over clock advances: generating -> uploading -> success with media URLs, credits captured', async () => {
    const m = prism.useMock();
    const id = await create(videoBody({ model: 'family1-video-2-fast', duration: 6, content: [textItem('A lighthouse in a storm')] }));
    const { generatingMs, uploadingMs } = videoPhases('family1-video-2-fast', 6);
    const t0 = await getTask(id);
    expect(t0.status).toBe('generating');
    await m.advance(generatingMs - 1);
    expect((await getTask(id)).status).toBe('generating');
    await m.advance(1);
    const t1 = await getTask(id);
    expect(t1).toMatchObject({ status: 'uploading', videoUrl: null, coverUrl: null, updatedAt: t0.createdAt + generatingMs });
    expect(t1.providerVideoUrl).toMatch(/^http/);
    await m.advance(uploadingMs);
    const t2 = await getTask(id);
    expect(t2).toMatchObject({
      status: 'success',
      creditCharged: 48,
      errorCode: null,
      errorMessage: null,
      updatedAt: t0.createdAt + generatingMs + uploadingMs,
    });
    expect(t2.videoUrl).toMatch(/\.mp4$/);
    expect(t2.coverUrl).toMatch(/\.png$/);
    // the media the task points at actually loads (served by the mock, outside the API spec)
    const media = await fetch(t2.videoUrl);
    expect(media.status).toBe(200);
    await media.arrayBuffer();
    expect(await balance()).toBe(10_000 - 48);
    const acct = await m.call('GET', `/__mock/accounts/${KEY}`, { key: null });
    expect(acct.json.ledger.map((e: { type: string }) => e.type)).toEqual(['adjust', 'reserve', 'capture']);
  });

  it('forced failure (Prefer outcome=failed) refunds; every failure reason of both create endpoints ends as a failed task', async () => {
    const m = prism.useMock({ rateLimit: false });
    const shared = videoBody({ content: [textItem('Doomed')] });
    const f5 = family5Body({ prompt: 'Doomed too' });
    const made: { id: string; reason: ErrorName; durationKey: 'family1-video-2-fast' | 'family5' }[] = [];
    made.push({
      id: await create(shared, { prefer: 'outcome=failed' }),
      reason: operations.createVideoTask.failureReasons[0],
      durationKey: 'family1-video-2-fast',
    });
    for (const reason of operations.createVideoTask.failureReasons)
      made.push({ id: await create(shared, { prefer: `outcome=failed, error=${errorCatalog[reason].code}` }), reason, durationKey: 'family1-video-2-fast' });
    for (const reason of operations.createFamily5VideoTask.failureReasons)
      made.push({ id: await createF5(f5, { prefer: `outcome=failed, error=${reason}` }), reason, durationKey: 'family5' });
    expect(await balance()).toBeLessThan(10_000);
    await m.advance(Math.max(videoPhases('family1-video-2-fast', 5).generatingMs, videoPhases('family5', 5).generatingMs));
    for (const { id, reason } of made) {
      const t = await getTask(id);
      expect(t, reason).toMatchObject({ status: 'failed', errorCode: errorCatalog[reason].code, creditCharged: 0, videoUrl: null });
      expect(t.errorMessage.length).toBeGreaterThan(0);
    }
    expect(await balance()).toBe(10_000);
    const failed = (await ok('GET', pathOf('listVideoTasks', {}, { status: 'failed' }))).json.data;
    expect(failed.total).toBe(made.length);
  });

  it('list: status filters, pages and page sizes, newest first, empty page past the end', async () => {
    const m = prism.useMock({ rateLimit: false });
    const fast = videoBody({ content: [textItem('fast one')] });
    const ids: string[] = [];
    ids.push(await create(fast));
    ids.push(await create(videoBody({ model: 'family1-video-2-pro', content: [textItem('slow one')] })));
    ids.push(await create(fast, { prefer: 'outcome=failed' }));
    await m.advance(1000);
    ids.push(await create(fast));
    ids.push(await createF5(family5Body({ prompt: 'f5 one' })));
    ids.push(await create(fast, { prefer: 'outcome=failed' }));
    const empty = (await ok('GET', pathOf('listVideoTasks'), { key: OTHER_KEY })).json.data;
    expect(empty).toEqual({ items: [], page: 1, pageSize: 20, total: 0 });
    // now 60 s: fast (55 s generating + 5 s uploading) created at 0 is done, the one created at 1 s is uploading;
    // family5 (60 s generating) and pro (85 s) are generating; the forced failures failed at 55 s and 56 s
    await m.advance(59_000);
    const all = (await ok('GET', pathOf('listVideoTasks'))).json.data;
    expect(all).toMatchObject({ page: 1, pageSize: 20, total: 6 });
    expect(all.items.map((i: { id: string }) => i.id)).toEqual([...ids].reverse());
    const byStatus = async (s: string) => (await ok('GET', pathOf('listVideoTasks', {}, { status: s }))).json.data;
    expect((await byStatus('success')).items.map((i: { id: string }) => i.id)).toEqual([ids[0]]);
    expect((await byStatus('failed')).total).toBe(2);
    expect((await byStatus('uploading')).items.map((i: { id: string }) => i.id)).toEqual([ids[3]]);
    expect((await byStatus('generating')).items.map((i: { id: string }) => i.id)).toEqual([ids[4], ids[1]]);
    expect((await byStatus('pending')).total).toBe(0);
    const pages = [];
    for (let page = 1; page <= 4; page++) pages.push((await ok('GET', pathOf('listVideoTasks', {}, { page, pageSize: 2 }))).json.data);
    expect(pages.map((p) => p.items.length)).toEqual([2, 2, 2, 0]);
    expect(pages.every((p) => p.total === 6 && p.pageSize === 2)).toBe(true);
    expect(pages.flatMap((p) => p.items.map((i: { id: string }) => i.id))).toEqual([...ids].reverse());
    const filteredPage = (await ok('GET', pathOf('listVideoTasks', {}, { status: 'failed', page: 2, pageSize: 1 }))).json.data;
    expect(filteredPage).toMatchObject({ page: 2, pageSize: 1, total: 2 });
    expect(filteredPage.items[0].id).toBe(ids[2]);
    expect(all.items[0]).toMatchObject({ title: 'fast one', prompt: 'fast one', status: 'failed' });
  });
});
