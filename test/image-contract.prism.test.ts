/**
 * Image operations through Prism's validation proxy (test/prism.ts): every
 * request goes client -> Prism (--errors, spec/openapi.yaml) -> a fresh mock,
 * and any violation in either direction fails the test. Covers the synchronous
 * raw output (decoded), the async flow with hosted images, the timeout sweep,
 * the estimate with every documented field, the free allowance and the free
 * lane, the documented errors, and every Prefer-forced status and code of the
 * five image operations. Requests the spec itself forbids are shown to be
 * flagged by Prism and answered by the mock with its documented error.
 */
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { type ErrorName } from '../schemas/errors.ts';
import { IMAGE_TASK_TIMEOUT_MS, freeLane, imageFixedPrices, imageGeneratingMs, imagePixels, imageSchedule } from '../schemas/image.ts';
import { operationIds, operations, type OperationId } from '../schemas/operations.ts';
import type { OperationDef } from '../schemas/registry-types.ts';
import { imageBody, imageEstimateBody, imageRefs, pathOf } from './factories.ts';
import { decodePalettePng } from './png-check.ts';
import {
  forcedCases,
  KEY,
  OTHER_KEY,
  usePrism,
  type PrismCallResult,
  type PrismHarness,
  expectErrorEnvelope,
  expectForwarded,
  viaSpecOrMock,
} from './prism.ts';

const prism = usePrism();

const ok = (method: string, path: string, opts: Parameters<PrismHarness['call']>[2] = {}, status = 200) => expectForwarded(prism, method, path, opts, status);

const expectError = expectErrorEnvelope;

const create = async (body: unknown, headers: Record<string, string> = {}, key?: string) => {
  const r = await ok('POST', pathOf('createImageTask'), { body, headers, key }, 202);
  expect(r.json).toEqual({ code: 0, message: '', data: { taskId: expect.stringMatching(/^img_/), status: 'pending' } });
  return r.json.data.taskId as string;
};
const getTask = async (id: string, key?: string) => (await ok('GET', pathOf('getImageTask', { taskId: id }), { key })).json.data;
const sub = async (key?: string) => (await ok('GET', pathOf('getSubscription'), { key })).json.data;

describe('synchronous endpoint: raw model output through Prism', () => {
  it.each([
    ['image-a-2', '1K', '4:3'],
    ['image-b-3.1-flash', '2K', '1:8'],
    ['image-d-2.7-pro', '4K', '16:9'],
    ['image-c-5-0-pro', '1K', '7:3'],
  ])('%s %s %s: candidates[].content.parts[].inlineData is a decodable PNG of the resolved size', async (model, imageSize, aspectRatio) => {
    prism.useMock();
    const r = await ok('POST', pathOf('generateImage'), { body: imageBody({ model, imageConfig: { imageSize, aspectRatio } }) });
    expect(Object.keys(r.json)).toEqual(['candidates']);
    const part = r.json.candidates[0].content.parts[0].inlineData;
    expect(part.mimeType).toBe('image/png');
    // 2K and 4K: test/png-check.ts's full decode (pngjs takes about a second of CPU at 4K; test/image-decode.test.ts runs it there)
    const bytes = Buffer.from(part.data, 'base64');
    const png = imageSize === '1K' ? PNG.sync.read(bytes) : decodePalettePng(bytes);
    expect({ width: png.width, height: png.height }).toEqual(imagePixels(imageSize as '1K', aspectRatio));
    expect((await sub()).balance).toBe(10_000 - imageFixedPrices[model as 'image-a-2'][imageSize as '1K']!);
  });

  it('with imageConfig omitted (the model picks the ratio) and with reference images of both kinds', async () => {
    prism.useMock();
    await ok('POST', pathOf('generateImage'), { body: { provider: 'vendor_e', prompt: 'x' } });
    await ok('POST', pathOf('generateImage'), {
      body: imageBody({
        referenceImages: [
          { inlineData: { data: 'iVBORw0KGgo=', mimeType: 'image/png' } },
          { fileData: { fileUri: 'gs://bucket/a.heic', mimeType: 'image/heic' } },
        ],
      }),
    });
  });
});

describe('async flow through Prism', () => {
  it('create (202 pending) -> generating -> success with a hosted image; list and subscription', async () => {
    const m = prism.useMock();
    const t0 = m.engine.clock.now();
    const id = await create(imageBody({ imageConfig: { imageSize: '2K', aspectRatio: '9:16' } }));
    expect(await getTask(id)).toEqual({ taskId: id, status: 'pending', model: 'image-a-2', createdAt: t0 });
    await m.advance(imageSchedule.pendingMs);
    expect((await getTask(id)).status).toBe('generating');
    await m.advance(imageGeneratingMs('image-a-2', '2K'));
    const t = await getTask(id);
    expect(t).toMatchObject({ status: 'success', completedAt: t0 + imageSchedule.pendingMs + imageGeneratingMs('image-a-2', '2K') });
    // the hosted URL is served by the mock itself (not an API operation, so not through Prism)
    const res = await fetch(t.images[0].url);
    expect(res.status).toBe(200);
    const png = decodePalettePng(Buffer.from(await res.arrayBuffer()));
    expect({ width: png.width, height: png.height }).toEqual(imagePixels('2K', '9:16'));
    const list = (await ok('GET', pathOf('listImageTasks', {}, { status: 'success', page: 1, pageSize: 10 }))).json.data;
    expect(list).toMatchObject({ page: 1, pageSize: 10, total: 1, items: [{ taskId: id, status: 'success' }] });
    expect((await sub()).balance).toBe(10_000 - imageFixedPrices['image-a-2']['2K']!);
  });

  it('Prefer: outcome=stuck, then the 30-minute sweep: fail with a timeout failMsg, refunded', async () => {
    const m = prism.useMock();
    const id = await create(imageBody(), { prefer: 'outcome=stuck' });
    await m.advance(IMAGE_TASK_TIMEOUT_MS + 1);
    const t = await getTask(id);
    expect(t).toMatchObject({ status: 'fail', failMsg: expect.stringMatching(/timed out/), retryable: true, freeUsageRolledBack: false });
    expect((await sub()).balance).toBe(10_000);
    const list = (await ok('GET', pathOf('listImageTasks', {}, { status: 'fail' }))).json.data;
    expect(list.items.map((x: { taskId: string }) => x.taskId)).toEqual([id]);
  });

  it('the free allowance and the restricted free lane (busy, timeout, sync 429)', async () => {
    const m = prism.useMock();
    await m.call('PUT', `/__mock/accounts/${KEY}`, { key: null, body: { plan: 'free', everPaid: false, freeUsages: { 'image-b-3-pro': 10 } } });
    const lane = imageBody({ model: 'image-b-3-pro', imageConfig: { imageSize: '1K' } });
    const ids: string[] = [];
    for (let i = 0; i < freeLane.capacity; i++) ids.push(await create(lane, { prefer: 'outcome=stuck' }));
    for (let i = 0; i < freeLane.queueCapacity + 1; i++) ids.push(await create(lane));
    expect(await sub()).toMatchObject({ balance: 10_000, freeUsages: { 'image-b-3-pro': 10 - ids.length }, plan: 'free' });
    expectError(await prism.call('POST', pathOf('generateImage'), { body: lane }), 'IMAGE_FREE_RELAX_BUSY');
    await m.advance(imageSchedule.pendingMs);
    expect(await getTask(ids.at(-1)!)).toMatchObject({
      status: 'fail',
      failReason: 'free_relax_busy',
      retryable: true,
      freeUsageRolledBack: true,
      userMessage: expect.any(String),
    });
    await m.advance(freeLane.queueTimeoutMs);
    expect(await getTask(ids[freeLane.capacity])).toMatchObject({
      status: 'fail',
      failReason: 'free_relax_timeout',
      retryable: true,
      freeUsageRolledBack: true,
    });
    expect((await sub()).freeUsages['image-b-3-pro']).toBe(10 - freeLane.capacity);
  });

  it('Prefer: outcome=failed with each failure reason', async () => {
    const m = prism.useMock();
    const ids = [
      await create(imageBody(), { prefer: 'outcome=failed' }),
      await create(imageBody(), { prefer: 'outcome=failed, error=26030' }),
      await create(imageBody(), { prefer: 'outcome=failed, error=26031' }),
    ];
    await m.advance(freeLane.queueTimeoutMs);
    expect((await getTask(ids[0])).failReason).toBeUndefined();
    expect((await getTask(ids[1])).failReason).toBe('free_relax_busy');
    expect((await getTask(ids[2])).failReason).toBe('free_relax_timeout');
    expect((await sub()).balance).toBe(10_000);
  });
});

describe('estimate through Prism: every documented field', () => {
  it.each([
    [
      'token estimate, 4K, quality high, references',
      {
        model: 'image-a-2-official',
        prompt: 'x'.repeat(200),
        imageConfig: { imageSize: '4K', aspectRatio: '21:9', quality: 'high' },
        referenceImages: imageRefs(2),
      },
    ],
    ['fixed, model picks the ratio', imageEstimateBody()],
    ['quality ignored, legacy id', { provider: 'vendor_c', model: 'image-b-3-pro-preview', prompt: '', imageConfig: { quality: 'low' } }],
    ['empty body', {}],
  ])('%s', async (_n, body) => {
    prism.useMock();
    const d = (await ok('POST', pathOf('estimateImageCredits'), { body })).json.data;
    expect(typeof d.credits).toBe('number');
    expect(typeof d.canGenerate).toBe('boolean');
    expect(typeof d.requiresSubscription).toBe('boolean');
    expect(d.pricing.pricingVersion).toEqual(expect.any(String));
    expect(Array.isArray(d.warnings)).toBe(true);
    expect((await ok('GET', pathOf('listImageTasks'))).json.data.total).toBe(0);
  });
});

describe('documented errors through Prism', () => {
  it.each([
    ['image-b unsupported ratio', imageBody({ model: 'image-b-3-pro', imageConfig: { aspectRatio: '1:8' } }), 'IMAGE_B_UNSUPPORTED_RATIO'],
    ['image-a unsupported ratio (list in message)', imageBody({ imageConfig: { aspectRatio: '8:1' } }), 'IMAGE_UNSUPPORTED_RATIO'],
    ['image-d unsupported ratio', imageBody({ model: 'image-d-2.7', imageConfig: { aspectRatio: '5:4' } }), 'IMAGE_UNSUPPORTED_RATIO'],
    ['no 4K on image-c', imageBody({ model: 'image-c-5-0-pro', imageConfig: { imageSize: '4K' } }), 'IMAGE_UNSUPPORTED_SIZE'],
    [
      'image-d-2.7-pro 4K with references',
      imageBody({ model: 'image-d-2.7-pro', imageConfig: { imageSize: '4K' }, referenceImages: imageRefs(1) }),
      'IMAGE_UNSUPPORTED_SIZE',
    ],
    ['too many references for image-a', imageBody({ referenceImages: imageRefs(5) }), 'IMAGE_TOO_MANY_REFERENCE_IMAGES'],
    ['reference with neither kind', imageBody({ referenceImages: [{}] }), 'IMAGE_INVALID_PARAMETERS'],
    ['blank prompt', imageBody({ prompt: '  ' }), 'IMAGE_INVALID_PARAMETERS'],
  ] as [string, unknown, ErrorName][])('%s', async (_n, body, error) => {
    prism.useMock();
    for (const path of [pathOf('generateImage'), pathOf('createImageTask'), pathOf('estimateImageCredits')]) {
      if (error === 'IMAGE_INVALID_PARAMETERS' && path === pathOf('estimateImageCredits')) continue;
      expectError(await viaSpecOrMock(prism, 'POST', path, { body }), error);
    }
  });

  it('402 insufficient credits and subscription required; 404 unknown and foreign tasks; 429 rate limit', async () => {
    const m = prism.useMock();
    const id = await create(imageBody());
    expectError(await prism.call('GET', pathOf('getImageTask', { taskId: 'img_missing' })), 'IMAGE_TASK_NOT_FOUND');
    expectError(await prism.call('GET', pathOf('getImageTask', { taskId: id }), { key: OTHER_KEY }), 'IMAGE_TASK_NOT_FOUND');
    await m.call('PUT', `/__mock/accounts/${KEY}`, { key: null, body: { credits: 1, plan: 'free' } });
    expectError(await prism.call('POST', pathOf('generateImage'), { body: imageBody() }), 'IMAGE_INSUFFICIENT_CREDITS');
    expectError(
      await prism.call('POST', pathOf('createImageTask'), { body: imageBody({ model: 'image-a-2-official', imageConfig: { imageSize: '4K' } }) }),
      'IMAGE_SUBSCRIPTION_REQUIRED',
    );
    const body = imageBody({ referenceImages: [{ inlineData: { data: 'AAAA', mimeType: 'image/png' } }] });
    await m.call('PUT', `/__mock/accounts/${KEY}`, { key: null, body: { credits: 10_000 } });
    let last: PrismCallResult | undefined;
    for (let i = 0; i < 11; i++) last = await prism.call('POST', pathOf('createImageTask'), { body });
    expectError(last!, 'IMAGE_RATE_LIMITED');
  });
});

/** The image operations: every declared status and code, forced, through Prism. */
const imageOps = operationIds.map((id) => operations[id] as OperationDef).filter((op) => op.tags.includes('Image'));

describe('Prefer-forced answers of every image operation, through Prism', () => {
  it('covers the five image operations', () => {
    expect(imageOps.map((op) => op.operationId).sort()).toEqual(['createImageTask', 'estimateImageCredits', 'generateImage', 'getImageTask', 'listImageTasks']);
  });

  it.each(imageOps.map((op) => [op.operationId, op] as const))('%s', async (_id, op) => {
    prism.useMock();
    const method = op.method.toUpperCase();
    const path = pathOf(op.operationId as OperationId, { taskId: 'img_forced' });
    const body = op.request.body ? imageBody() : undefined;
    for (const c of forcedCases(op)) expectError(await prism.call(method, path, { body, headers: { prefer: c.prefer } }), c.error);
  });
});

describe('requests the spec forbids: Prism flags them; the mock answers its documented error', () => {
  it.each([
    ['provider missing', pathOf('createImageTask'), { prompt: 'x' }, 'IMAGE_INVALID_PARAMETERS'],
    ['unknown model', pathOf('generateImage'), imageBody({ model: 'image-z' }), 'IMAGE_INVALID_PARAMETERS'],
    [
      '15 references (schema cap 14)',
      pathOf('createImageTask'),
      imageBody({ model: 'image-b-3-pro', referenceImages: imageRefs(15) }),
      'IMAGE_TOO_MANY_REFERENCE_IMAGES',
    ],
    [
      'fileUri with scheme ftp',
      pathOf('estimateImageCredits'),
      imageBody({ referenceImages: [{ fileData: { fileUri: 'ftp://x/y.png', mimeType: 'image/png' } }] }),
      'IMAGE_INVALID_PARAMETERS',
    ],
    ['aspectRatio not W:H', pathOf('estimateImageCredits'), imageBody({ imageConfig: { aspectRatio: 'square' } }), 'IMAGE_INVALID_PARAMETERS'],
  ] as [string, string, unknown, ErrorName][])('%s', async (_n, path, body, error) => {
    const m = prism.useMock();
    const r = await prism.call('POST', path, { body, allowViolations: true });
    expect(r.status).toBe(422);
    expect(r.forwarded).toBe(false);
    expect(r.violations[0]).toMatchObject({ direction: 'request' });
    prism.takeViolations();
    expectError(await m.call('POST', path, { body }), error);
  });

  it('pageSize 101 on the list', async () => {
    const m = prism.useMock();
    const r = await prism.call('GET', pathOf('listImageTasks', {}, { pageSize: 101 }), { allowViolations: true });
    expect(r.status).toBe(422);
    prism.takeViolations();
    expectError(await m.call('GET', pathOf('listImageTasks', {}, { pageSize: 101 })), 'IMAGE_INVALID_PARAMETERS');
  });
});
