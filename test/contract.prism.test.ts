/**
 * Contract suite through Prism's validation proxy: every request below goes client -> Prism (proxy,
 * --errors, spec/openapi.yaml) -> a fresh in-process mock, and any violation
 * Prism reports in either direction fails the test with Prism's text (see
 * test/prism.ts for how Prism 5.14.2 reports them).
 *
 * Negative cases, and how they are treated honestly:
 * - A request the SPEC allows but the service rejects (a model x resolution
 *   combination, content rules, capability rules, unknown or foreign task,
 *   insufficient credits, a malformed API key, rate limit, Prefer-forced errors)
 *   goes through Prism: the request must pass Prism's request validation and the
 *   mock's error envelope must pass its response validation.
 * - A request the SPEC itself forbids (empty content, an enum value outside the
 *   list, page=0, no Authorization, a wrong Content-Type, unparseable JSON, an
 *   oversized body) never reaches the mock through Prism: Prism rejects it
 *   first. For each, we assert BOTH that Prism reports the request violation (and
 *   did not forward it) AND that the same request sent straight to the mock gets
 *   the mock's own documented 400/401/413/415 envelope. Those direct answers are
 *   not seen by Prism; the shape of every error status is nevertheless checked by
 *   Prism through the Prefer-forced walk below, which produces every declared
 *   status and code of every operation through the proxy.
 *
 * One Prism serves the run (`usePrism`, test/prism.ts); each test builds its own mock behind it.
 */
import { readFileSync } from 'node:fs';
import { getOpenApiMetadata } from '@asteasolutions/zod-to-openapi';
import { describe, expect, it } from 'vitest';
import { errorCatalog, type ErrorName } from '../schemas/errors.ts';
import { operationIds, operations } from '../schemas/operations.ts';
import type { OperationDef } from '../schemas/registry-types.ts';
import { family5Credits, sharedVideoCredits, videoEstimateUnits, videoPhases, videoGenerateRateLimit } from '../schemas/video.ts';
import { family5Body, family5EstimateBody, pathOf, textItem, videoBody, videoEstimateBody } from './factories.ts';
import type { CallResult } from './helpers.ts';
import { forcedCases, KEY, OTHER_KEY, PrismViolationError, usePrism, type PrismCallResult, type PrismHarness, viaSpecOrMock } from './prism.ts';

const IMG = (n: number) => `https://example.com/img${n}.png`;
const VID = (n: number) => `https://example.com/vid${n}.mp4`;
const AUD = (n: number) => `https://example.com/aud${n}.mp3`;

/** The spec with deliberate defects, for proving the harness sees response violations. */
function alteredSpec() {
  const doc = JSON.parse(readFileSync(new URL('../spec/openapi.json', import.meta.url), 'utf8'));
  // 1. a field type the mock does not send: balance as a string
  doc.components.schemas.SubscriptionData.properties.balance = { type: 'string' };
  // (2. was a 400 allowing only its first code; every error response now refers to the one ErrorEnvelope, its
  // codes listed in x-error-codes, so the registry walk checks the codes per response instead)
  // 3. a required response header the mock does not send
  doc.paths[operations.listVideoTasks.path].get.responses['200'].headers = { 'X-Contract-Required': { required: true, schema: { type: 'string' } } };
  // 4. a status the mock answers but the document does not declare
  delete doc.paths[operations.getVideoTask.path].get.responses['400'];
  return doc;
}

const prism = usePrism();
// the altered document's calls expect violations: taken by each test, not asserted clean
const altered = usePrism({ specDocument: alteredSpec(), assertCleanAfterEach: false });

/** A call through Prism that must succeed with `status` and envelope `code` (0 by default). */
async function ok(method: string, path: string, opts: Parameters<PrismHarness['call']>[2] = {}, status = 200): Promise<PrismCallResult> {
  const r = await prism.call(method, path, opts);
  expect(r.status, `${method} ${path}: ${r.text}`).toBe(status);
  expect(r.forwarded).toBe(true);
  if (status === 200) {
    expect(r.json?.code, r.text).toBe(0);
    expect(r.json?.message).toBe('');
  }
  return r;
}

/** Asserts an error envelope: status, catalogued code, a message, data null, nothing else. */
function expectError(r: CallResult, name: ErrorName, messagePart?: string | RegExp) {
  const e = errorCatalog[name];
  expect(r.status, `${name}: ${r.text}`).toBe(e.httpStatus);
  expect(r.json?.code, `${name}: ${r.text}`).toBe(e.code);
  expect(r.json?.data).toBeNull();
  expect(Object.keys(r.json).sort()).toEqual(['code', 'data', 'message']);
  expect(typeof r.json.message).toBe('string');
  expect(r.json.message.length).toBeGreaterThan(0);
  if (messagePart) expect(r.json.message).toMatch(messagePart);
  if (e.httpStatus === 429) expect(r.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
}

const ruled = (method: string, path: string, opts: { body: unknown }) => viaSpecOrMock(prism, method, path, opts);

async function create(body: unknown, headers: Record<string, string> = {}, key?: string): Promise<string> {
  const r = await ok('POST', pathOf('createVideoTask'), { body, headers, key });
  expect(r.json.data.status).toBe('generating');
  expect(r.json.data.taskId).toMatch(/^vt_/);
  expect(r.json.data.episodeId).toMatch(/^ep_/);
  return r.json.data.taskId;
}

async function createF5(body: unknown, headers: Record<string, string> = {}, key?: string): Promise<string> {
  const r = await ok('POST', pathOf('createFamily5VideoTask'), { body, headers, key });
  expect(r.json.data.status).toBe('generating');
  return r.json.data.taskId;
}

async function getTask(id: string, key?: string) {
  return (await ok('GET', pathOf('getVideoTask', { taskId: id }), { key })).json.data;
}

async function balance(key?: string): Promise<number> {
  return (await ok('GET', pathOf('getSubscription'), { key })).json.data.balance;
}

// ---------------------------------------------------------------------------
// The harness itself: it must see violations in both directions
// ---------------------------------------------------------------------------

describe('harness self-checks', () => {
  it('request direction: an invalid body is flagged by Prism (422 problem+json), not forwarded, and call() throws with the text', async () => {
    const m = prism.useMock();
    const r = await prism.call('POST', pathOf('createVideoTask'), { body: { content: [] }, allowViolations: true });
    expect(r.status).toBe(422);
    expect(r.forwarded).toBe(false);
    expect(r.violations).toHaveLength(1);
    expect(r.violations[0]).toMatchObject({ direction: 'request', via: 'problem+json', type: 'UNPROCESSABLE_ENTITY' });
    expect(r.violations[0].validation[0].location).toEqual(['body', 'content']);
    expect(r.violations[0].text).toMatch(/body\.content: .*fewer than 1 items/);
    // without allowViolations the call fails the test with Prism's text
    const thrown = await prism.call('POST', pathOf('createVideoTask'), { body: { content: [] } }).catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(PrismViolationError);
    expect((thrown as Error).message).toMatch(/UNPROCESSABLE_ENTITY.*body\.content/);
    expect(prism.takeViolations()).toHaveLength(1);
    // and neither request reached the mock
    const journal = await m.call('GET', '/__mock/requests', { key: null });
    expect(journal.json.items).toEqual([]);
  });

  it('request direction: a missing Authorization header is a security violation (401 problem+json), not forwarded', async () => {
    prism.useMock();
    const r = await prism.call('GET', pathOf('getSubscription'), { key: null, allowViolations: true });
    expect(r.status).toBe(401);
    expect(r.forwarded).toBe(false);
    expect(r.violations[0]).toMatchObject({ direction: 'request', via: 'problem+json', type: 'UNAUTHORIZED' });
  });

  it('a body Prism cannot parse is answered by Prism itself and flagged as not forwarded', async () => {
    prism.useMock();
    const r = await prism.call('POST', pathOf('estimateVideoCredits'), {
      raw: '{"model":',
      headers: { 'content-type': 'application/json' },
      allowViolations: true,
    });
    expect(r.status).toBe(400);
    expect(r.forwarded).toBe(false);
    expect(r.violations[0]).toMatchObject({ direction: 'proxy', via: 'not-forwarded' });
    expect(r.violations[0].text).toMatch(/invalid_json/);
  });

  it('response direction: a response body that breaks the (deliberately altered) spec is a 500 #VIOLATIONS with sl-violations', async () => {
    const m = altered.useMock();
    const r = await altered.call('GET', pathOf('getSubscription'), { allowViolations: true });
    expect(r.status).toBe(500);
    // the mock itself answered a correct 200; Prism swallowed it
    expect(r.upstream?.status).toBe(200);
    expect(JSON.parse(r.upstream!.text).data.balance).toBe(10_000);
    expect(r.headers.get('sl-violations')).toBeTruthy();
    const vias = r.violations.map((v) => v.via).sort();
    expect(vias).toEqual(['problem+json', 'sl-violations']);
    for (const v of r.violations) {
      expect(v.direction).toBe('response');
      expect(v.validation.some((x) => x.location?.join('.') === 'response.body.data.balance')).toBe(true);
    }
    const thrown = await altered.call('GET', pathOf('getSubscription')).catch((e: unknown) => e);
    expect((thrown as Error).message).toMatch(/VIOLATIONS.*response\.body\.data\.balance/);
    altered.takeViolations();
    expect(m.bugs).toEqual([]);
  });

  it('response direction: a missing required response header is reported', async () => {
    altered.useMock();
    const r = await altered.call('GET', pathOf('listVideoTasks'), { allowViolations: true });
    expect(r.status).toBe(500);
    expect(r.upstream?.status).toBe(200);
    expect(r.violations.length).toBeGreaterThan(0);
    expect(r.violations.some((v) => v.direction === 'response' && v.validation.some((x) => (x.location ?? []).join('.').startsWith('response.header')))).toBe(
      true,
    );
  });

  it('response direction: an undeclared status is only a Warning for Prism (forwarded as is), caught through the sl-violations header', async () => {
    altered.useMock();
    const r = await altered.call('GET', pathOf('getVideoTask', { taskId: 'vt_0000000000000000' }), { allowViolations: true });
    // Prism forwards the mock's 400 unchanged: no problem+json, no 500
    expect(r.status).toBe(400);
    expect(r.forwarded).toBe(true);
    expect(r.json.code).toBe(errorCatalog.VIDEO_TASK_NOT_FOUND.code);
    expect(r.violations).toHaveLength(1);
    expect(r.violations[0]).toMatchObject({ direction: 'response', via: 'sl-violations' });
    expect(r.violations[0].validation[0]).toMatchObject({ location: ['response'], severity: 'Warning' });
    expect(r.violations[0].text).toMatch(/Unable to match the returned status code/);
  });
});

// ---------------------------------------------------------------------------
// Representative sessions of every operation
// ---------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------
// Error answers the spec allows the request for: through Prism
// ---------------------------------------------------------------------------

describe('error responses through Prism', () => {
  it('validation 400s of the shared endpoint and estimate, with their codes', async () => {
    // rate limiting comes before validation (docs/architecture.md, "The request path"), so rejected creates count: switch it off here
    prism.useMock({ rateLimit: false });
    const text = textItem('x');
    expectError(await ruled('POST', pathOf('createVideoTask'), { body: { content: [text, textItem('y')] } }), 'VIDEO_INVALID_PARAMETERS', /text items/);
    expectError(
      await ruled('POST', pathOf('createVideoTask'), { body: { model: 'family1-video-2-fast', resolution: '1080p', content: [text] } }),
      'VIDEO_UNSUPPORTED_COMBINATION',
      /1080p/,
    );
    expectError(
      await ruled('POST', pathOf('createVideoTask'), { body: { model: 'family1-video-2-fast', duration: 3, content: [text] } }),
      'VIDEO_UNSUPPORTED_COMBINATION',
      /duration 3 is outside 4-15/,
    );
    expectError(
      await ruled('POST', pathOf('createVideoTask'), { body: { model: 'family2-video', ratio: '21:9', content: [text] } }),
      'VIDEO_UNSUPPORTED_COMBINATION',
      /ratio/,
    );
    expectError(
      await ruled('POST', pathOf('createVideoTask'), { body: { content: [text, { type: 'video_url', video_url: { url: VID(1) } }] } }),
      'VIDEO_MISSING_MEDIA_DURATION',
      /inputVideoDuration/,
    );
    expectError(
      await ruled('POST', pathOf('createVideoTask'), { body: { content: [{ type: 'image_url', image_url: { url: IMG(1) }, role: 'last_frame' }] } }),
      'VIDEO_INVALID_PARAMETERS',
      /last_frame needs a first_frame/,
    );
    expectError(
      await ruled('POST', pathOf('createVideoTask'), {
        body: { model: 'family4-video', content: [text, { type: 'audio_url', audio_url: { url: AUD(1) } }] },
      }),
      'VIDEO_INVALID_PARAMETERS',
      /audio_url/,
    );
    expectError(
      await ruled('POST', pathOf('estimateVideoCredits'), { body: { model: 'family3-h3', resolution: '720p', duration: 5 } }),
      'VIDEO_UNSUPPORTED_COMBINATION',
      /720p/,
    );
    expectError(
      await ruled('POST', pathOf('estimateVideoCredits'), {
        body: { model: 'family1-video-2-fast', resolution: '720p', duration: 5, hasVideoInput: true },
      }),
      'VIDEO_MISSING_MEDIA_DURATION',
    );
    expectError(
      await ruled('POST', pathOf('estimateVideoCredits'), {
        body: { model: 'family2-video', resolution: '720p', duration: 20, hasVideoInput: true, inputVideoDuration: 15 },
      }),
      'VIDEO_INVALID_PARAMETERS',
      /exceeds 30/,
    );
  });

  it('family5 400s: capability rules, audio needs visual, unknown and foreign source task', async () => {
    const m = prism.useMock({ rateLimit: false });
    expectError(
      await ruled('POST', pathOf('createFamily5VideoTask'), { body: { capability: 'transition', prompt: 'x', images: [{ url: IMG(1) }] } }),
      'F5_INVALID_PARAMETERS',
      /exactly 2 images/,
    );
    expectError(
      await ruled('POST', pathOf('createFamily5VideoTask'), { body: { capability: 'text_to_video' } }),
      'F5_INVALID_PARAMETERS',
      /prompt is required/,
    );
    expectError(
      await ruled('POST', pathOf('createFamily5VideoTask'), {
        body: { capability: 'agent', prompt: 'x', duration: 25, pixverse: { agentType: 'ad_master' }, images: [{ url: IMG(1) }] },
      }),
      'F5_INVALID_PARAMETERS',
      /duration 25/,
    );
    expectError(
      await ruled('POST', pathOf('createFamily5VideoTask'), { body: { capability: 'lip_sync', audios: [{ url: AUD(1), duration: 10 }] } }),
      'F5_AUDIO_NEEDS_VISUAL',
    );
    expectError(
      await ruled('POST', pathOf('createFamily5VideoTask'), { body: { capability: 'restyle', sourceTaskId: 'vt_nope', pixverse: { restyleId: 1 } } }),
      'F5_TASK_NOT_FOUND',
    );
    const foreign = await createF5(family5Body({ prompt: 'theirs' }), {}, OTHER_KEY);
    expectError(
      await ruled('POST', pathOf('createFamily5VideoTask'), { body: { capability: 'restyle', sourceTaskId: foreign, pixverse: { restyleId: 1 } } }),
      'F5_TASK_FORBIDDEN',
    );
    const mine = await createF5(family5Body({ prompt: 'mine' }));
    expectError(
      await ruled('POST', pathOf('createFamily5VideoTask'), { body: { capability: 'restyle', sourceTaskId: mine, pixverse: { restyleId: 1 } } }),
      'F5_INVALID_PARAMETERS',
      /status generating/,
    );
    expectError(
      await ruled('POST', pathOf('estimateFamily5Credits'), { body: { capability: 'mimic', quality: '1080p' } }),
      'F5_INVALID_PARAMETERS',
      /locked to 720p/,
    );
    // only the one accepted task was charged (after the opening grant)
    expect((await m.call('GET', `/__mock/accounts/${KEY}`, { key: null })).json.ledger.map((e: { type: string }) => e.type)).toEqual(['adjust', 'reserve']);
  });

  it('insufficient credits on both create endpoints; nothing is charged', async () => {
    const m = prism.useMock();
    const put = await m.call('PUT', `/__mock/accounts/${KEY}`, { key: null, body: { credits: 10 } });
    expect(put.status).toBe(200);
    expectError(
      await prism.call('POST', pathOf('createVideoTask'), { body: videoBody({ content: [textItem('x')] }) }),
      'VIDEO_INSUFFICIENT_CREDITS',
      /40 credits/,
    );
    expectError(await prism.call('POST', pathOf('createFamily5VideoTask'), { body: family5Body({ prompt: 'x' }) }), 'F5_INSUFFICIENT_CREDITS');
    expect(await balance()).toBe(10);
  });

  it("unknown task, another owner's task, a malformed API key (401 from the mock)", async () => {
    prism.useMock();
    const theirs = await create(videoBody({ content: [textItem('theirs')] }), {}, OTHER_KEY);
    expectError(await prism.call('GET', pathOf('getVideoTask', { taskId: 'vt_0000000000000000' })), 'VIDEO_TASK_NOT_FOUND', /not found/);
    expectError(await prism.call('GET', pathOf('getVideoTask', { taskId: theirs })), 'VIDEO_TASK_FORBIDDEN', /another user/);
    expect((await getTask(theirs, OTHER_KEY)).id).toBe(theirs);
    // a Bearer token Prism accepts (the scheme only requires Bearer) but the mock rejects
    for (const key of ['not-a-key', 'mg_only', 'xx_a_b']) {
      for (const [method, path] of [
        ['GET', pathOf('getSubscription')],
        ['GET', pathOf('listVideoTasks')],
        ['GET', pathOf('getVideoTask', { taskId: theirs })],
      ] as const)
        expectError(await prism.call(method, path, { key }), 'UNAUTHORIZED', /API key/);
    }
    expectError(await prism.call('POST', pathOf('createVideoTask'), { key: 'mg_bad', body: videoBody({ content: [textItem('x')] }) }), 'UNAUTHORIZED');
  });

  it('429 with Retry-After: the generate limit is shared by both create endpoints and resets after the window', async () => {
    const m = prism.useMock();
    const body = videoBody({ content: [textItem('x')] });
    for (let i = 0; i < videoGenerateRateLimit.limit - 1; i++) await create(body);
    await createF5(family5Body({ prompt: 'x' }));
    const shared = await prism.call('POST', pathOf('createVideoTask'), { body });
    expectError(shared, 'VIDEO_RATE_LIMITED', /rate limit/);
    expect(Number(shared.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    const f5 = await prism.call('POST', pathOf('createFamily5VideoTask'), { body: family5Body({ prompt: 'x' }) });
    expectError(f5, 'RATE_LIMITED');
    // reads are not limited
    await ok('GET', pathOf('listVideoTasks'));
    // another key has its own budget
    await create(body, {}, OTHER_KEY);
    await m.advance(videoGenerateRateLimit.windowMs);
    await create(body);
  });

  it('Prefer directives the operation does not declare are a 400 INVALID_PREFER', async () => {
    prism.useMock();
    expectError(await prism.call('GET', pathOf('listVideoTasks'), { headers: { prefer: 'code=418' } }), 'INVALID_PREFER', /code=418/);
    expectError(await prism.call('GET', pathOf('getSubscription'), { headers: { prefer: 'outcome=failed' } }), 'INVALID_PREFER');
    expectError(await prism.call('POST', pathOf('estimateVideoCredits'), { headers: { prefer: 'error=32008' }, body: videoEstimateBody() }), 'INVALID_PREFER');
    // Prism's own Prefer keys are ignored by the mock: the real answer comes back
    await ok('GET', pathOf('getSubscription'), { headers: { prefer: 'example=foo, dynamic=true' } });
  });
});

// ---------------------------------------------------------------------------
// Every declared status and error code of every operation, forced, through Prism
// ---------------------------------------------------------------------------

/** The body example of an operation's request schema (`.openapi({example})`). */
function exampleBody(op: OperationDef): unknown {
  if (!op.request.body) return undefined;
  const ex = (getOpenApiMetadata(op.request.body.schema as never) as { example?: unknown } | undefined)?.example;
  if (ex === undefined) throw new Error(`${op.operationId}: its body schema has no .openapi({example}) to send`);
  return ex;
}

/** Any concrete path of `op` (forced answers come before parameter validation). */
function anyPath(op: OperationDef): string {
  return op.path.replace(/\{(\w+)\}/g, (_, k: string) => `x${k}`);
}

/** The areas this file covers (document 1: video and the account endpoint); other areas bring their own Prism file using forcedCases(). */
const COVERED_TAGS = ['Video', 'Account'];
const registry = operationIds.map((id) => operations[id] as OperationDef).filter((op) => op.tags.some((t) => COVERED_TAGS.includes(t)));

describe('Prefer-forced answers, every operation of the registry, through Prism', () => {
  it('covers every video and account operation', () => {
    expect(registry.map((op) => op.operationId).sort()).toEqual([
      'createFamily5VideoTask',
      'createVideoTask',
      'deleteVideoTask',
      'estimateFamily5Credits',
      'estimateVideoCredits',
      'getSubscription',
      'getVideoTask',
      'listVideoTasks',
      'shareVideoTask',
    ]);
  });

  it.each(registry.map((op) => [op.operationId, op] as const))('%s: every declared status (code=) and every declared error (error=)', async (_id, op) => {
    prism.useMock();
    const method = op.method.toUpperCase();
    const body = exampleBody(op);
    const path = anyPath(op);
    const cases = forcedCases(op);
    expect(cases.length).toBeGreaterThan(op.errors.length);
    for (const c of cases) {
      const r = await prism.call(method, path, { body, headers: { prefer: c.prefer } });
      expectError(r, c.error, c.prefer.startsWith('code=') ? c.prefer : undefined);
    }
    // and the declared success status, unforced
    if (!op.request.params) {
      const r = await prism.call(method, path, { body });
      expect(r.status, r.text).toBe(op.response.status);
    }
  });
});

// ---------------------------------------------------------------------------
// Requests the spec forbids: Prism flags them; the mock answers them directly
// ---------------------------------------------------------------------------

describe('requests the spec forbids: Prism reports the request violation AND the mock answers its documented error', () => {
  type Case = {
    name: string;
    method: string;
    path: string;
    body?: unknown;
    raw?: string;
    headers?: Record<string, string>;
    key?: string | null;
    prismStatus: number;
    location?: string[];
    mock: ErrorName;
  };
  const text = textItem('x');
  const cases: Case[] = [
    {
      name: 'empty content',
      method: 'POST',
      path: pathOf('createVideoTask'),
      body: { content: [] },
      prismStatus: 422,
      location: ['body', 'content'],
      mock: 'VIDEO_INVALID_PARAMETERS',
    },
    {
      name: 'family5 model on the shared endpoint',
      method: 'POST',
      path: pathOf('createVideoTask'),
      body: { model: 'family5', content: [text] },
      prismStatus: 422,
      location: ['body', 'model'],
      mock: 'VIDEO_UNSUPPORTED_COMBINATION',
    },
    {
      name: 'duration above the schema maximum',
      method: 'POST',
      path: pathOf('createVideoTask'),
      body: { duration: 31, content: [text] },
      prismStatus: 422,
      location: ['body', 'duration'],
      mock: 'VIDEO_UNSUPPORTED_COMBINATION',
    },
    {
      name: 'content item of an unknown type',
      method: 'POST',
      path: pathOf('createVideoTask'),
      body: { content: [{ type: 'gif_url', gif_url: { url: IMG(1) } }] },
      prismStatus: 422,
      mock: 'VIDEO_INVALID_PARAMETERS',
    },
    {
      name: 'image URL that is not a URL',
      method: 'POST',
      path: pathOf('createVideoTask'),
      body: { content: [{ type: 'image_url', image_url: { url: 'not a url' } }] },
      prismStatus: 422,
      mock: 'VIDEO_INVALID_PARAMETERS',
    },
    // a missing field is the operation's validation error, not the field's combination error
    {
      name: 'estimate without resolution',
      method: 'POST',
      path: pathOf('estimateVideoCredits'),
      body: { model: 'family1-video-2-fast', duration: 5 },
      prismStatus: 422,
      location: ['body'],
      mock: 'VIDEO_INVALID_PARAMETERS',
    },
    {
      name: 'family5 without capability',
      method: 'POST',
      path: pathOf('createFamily5VideoTask'),
      body: { prompt: 'x' },
      prismStatus: 422,
      location: ['body'],
      mock: 'F5_INVALID_PARAMETERS',
    },
    {
      name: 'family5 estimate with an unknown quality',
      method: 'POST',
      path: pathOf('estimateFamily5Credits'),
      body: { capability: 'text_to_video', quality: '4k' },
      prismStatus: 422,
      location: ['body', 'quality'],
      mock: 'F5_INVALID_PARAMETERS',
    },
    ...(
      [
        ['list page=0', { page: 0 }],
        ['list pageSize=101', { pageSize: 101 }],
        ['list status outside the enum', { status: 'done' }],
      ] as const
    ).map(([name, query]): Case => ({
      name,
      method: 'GET',
      path: pathOf('listVideoTasks', {}, query),
      prismStatus: 422,
      location: ['query', ...Object.keys(query)],
      mock: 'VIDEO_INVALID_PARAMETERS',
    })),
    { name: 'no Authorization header', method: 'GET', path: pathOf('getSubscription'), key: null, prismStatus: 401, mock: 'UNAUTHORIZED' },
    {
      name: 'no Authorization header on create',
      method: 'POST',
      path: pathOf('createVideoTask'),
      key: null,
      body: { content: [text] },
      prismStatus: 401,
      mock: 'UNAUTHORIZED',
    },
    {
      name: 'Basic instead of Bearer',
      method: 'GET',
      path: pathOf('listVideoTasks'),
      headers: { authorization: 'Basic bWc6eA==' },
      prismStatus: 401,
      mock: 'UNAUTHORIZED',
    },
    {
      name: 'text/plain body',
      method: 'POST',
      path: pathOf('estimateVideoCredits'),
      raw: 'hello',
      headers: { 'content-type': 'text/plain' },
      prismStatus: 422,
      mock: 'UNSUPPORTED_MEDIA_TYPE',
    },
    {
      name: 'unparseable JSON',
      method: 'POST',
      path: pathOf('createVideoTask'),
      raw: '{"content": [',
      headers: { 'content-type': 'application/json' },
      prismStatus: 400,
      mock: 'MALFORMED_JSON',
    },
    {
      name: 'body over 1 MB',
      method: 'POST',
      path: pathOf('createVideoTask'),
      body: { content: [textItem('x'.repeat(1024 * 1024 + 10))] },
      prismStatus: 422,
      location: ['body', 'content', '0', 'text'],
      mock: 'PAYLOAD_TOO_LARGE',
    },
  ];

  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const m = prism.useMock();
    const opts = { body: c.body, raw: c.raw, headers: c.headers, key: c.key };
    const through = await prism.call(c.method, c.path, { ...opts, allowViolations: true });
    expect(through.status, through.text).toBe(c.prismStatus);
    expect(through.forwarded, 'Prism must not forward a request it rejects').toBe(false);
    expect(through.violations.length).toBeGreaterThan(0);
    expect(through.violations.every((v) => v.direction !== 'response')).toBe(true);
    // Prism reports query parameter names lower-cased (pageSize -> pagesize)
    if (c.location)
      expect(through.violations[0].validation.map((v) => v.location?.map((x) => x.toLowerCase()))).toContainEqual(c.location.map((x) => x.toLowerCase()));
    const direct = await m.call(c.method, c.path, opts);
    expectError(direct, c.mock);
    expect(m.bugs).toEqual([]);
  });
});
