/**
 * Image pricing, charging, the free allowance and the restricted free lane on
 * the manual clock (document 1, "Image: estimate credits", "Free allowance for
 * image generation", "Errors"): the estimate equals the charge, spends nothing
 * and creates no task; 402s charge nothing; failures refund; the allowance is
 * consumed for 1K/2K only and returned on failure; the free lane of image-b-3-pro
 * for never-paid accounts has a fixed capacity and fails beyond it without
 * spending anything; paid or previously paid accounts are never restricted.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { errorCatalog } from '../schemas/errors.ts';
import {
  freeLane,
  imageFixedPrices,
  imageGeneratingMs,
  imageModelIds,
  imageModels,
  imageSchedule,
  imageSizes,
  type ImageModelId,
  type ImageSize,
} from '../schemas/image.ts';
import { imageBody, imageBodyAt, imageEstimateBody, imageRefs, pathOf } from './factories.ts';
import { KEY, OTHER_KEY, type TestMock, useMocks } from './helpers.ts';

const start = useMocks();
let m: TestMock;
beforeEach(async () => {
  m = await start();
});

const sub = async (key = KEY) => (await m.call('GET', pathOf('getSubscription'), { key })).json.data;
const setAccount = (patch: Record<string, unknown>, key = KEY) => m.call('PUT', `/__mock/accounts/${key}`, { key: null, body: patch });
const estimate = async (b: unknown, key = KEY) => {
  const r = await m.call('POST', pathOf('estimateImageCredits'), { body: b, key });
  expect(r.status, r.text).toBe(200);
  return r.json.data;
};
const create = async (b: unknown, headers: Record<string, string> = {}, key = KEY) => {
  const r = await m.call('POST', pathOf('createImageTask'), { body: b, headers, key });
  expect(r.status, r.text).toBe(202);
  return r.json.data.taskId as string;
};
const get = async (id: string, key = KEY) => (await m.call('GET', pathOf('getImageTask', { taskId: id }), { key })).json.data;

const supported = imageModelIds.flatMap((model) => imageModels[model].sizes.map((size) => [model, size] as [ImageModelId, ImageSize]));

describe('pricing: the charge at creation equals the estimate', () => {
  it.each(supported)('%s %s (async and sync)', async (model, size) => {
    const b = imageBodyAt(model, size);
    const e = await estimate(b);
    if (model === 'image-a-2-official') expect(e.pricing.mode).toBe('token-estimate');
    else expect(e.pricing).toEqual({ pricingVersion: expect.any(String), mode: 'fixed', imageSize: size, creditsPerImage: imageFixedPrices[model][size] });
    expect(e.credits).toBeGreaterThan(0);
    const before = (await sub()).balance;
    await create(b);
    expect((await sub()).balance).toBe(before - e.credits);
    const r = await m.call('POST', pathOf('generateImage'), { body: b });
    expect(r.status).toBe(200);
    expect((await sub()).balance).toBe(before - 2 * e.credits);
  });

  it('the estimate spends nothing and creates no task', async () => {
    for (const [model, size] of supported) await estimate(imageBodyAt(model, size));
    expect((await sub()).balance).toBe(10_000);
    expect((await m.call('GET', pathOf('listImageTasks'))).json.data.total).toBe(0);
    const acc = (await m.call('GET', `/__mock/accounts/${KEY}`, { key: null })).json;
    expect(acc.ledger).toHaveLength(1); // the opening balance only
  });

  describe('image-a-2-official token estimate grows with prompt length, size, quality and references', () => {
    const credits = async (prompt: string, imageConfig: Record<string, unknown>, n = 0) =>
      (await estimate(imageEstimateBody({ model: 'image-a-2-official', prompt, imageConfig, referenceImages: imageRefs(n) }))).credits as number;
    it('prompt length', async () => {
      const short = await credits('a cat', { imageSize: '2K' });
      const long = await credits('a cat '.repeat(2000), { imageSize: '2K' });
      expect(long).toBeGreaterThan(short);
    });
    it('output size', async () => {
      const [a, b, c] = [await credits('x', { imageSize: '1K' }), await credits('x', { imageSize: '2K' }), await credits('x', { imageSize: '4K' })];
      expect(a).toBeLessThan(b);
      expect(b).toBeLessThan(c);
    });
    it('quality', async () => {
      const [l, md, h] = [await credits('x', { quality: 'low' }), await credits('x', { quality: 'medium' }), await credits('x', { quality: 'high' })];
      expect(l).toBeLessThan(md);
      expect(md).toBeLessThan(h);
      expect(await credits('x', {})).toBe(md); // default medium
    });
    it('reference image count', async () => {
      const [z, four] = [await credits('x'.repeat(100), {}, 0), await credits('x'.repeat(100), {}, 4)];
      expect(four).toBeGreaterThan(z);
    });
    it('pricing carries the rate inputs', async () => {
      const e = await estimate(
        imageEstimateBody({
          model: 'image-a-2-official',
          prompt: 'x'.repeat(400),
          imageConfig: { imageSize: '4K', quality: 'high' },
          referenceImages: imageRefs(2),
        }),
      );
      expect(e.pricing).toMatchObject({ mode: 'token-estimate', promptTokens: 100, referenceImageTokens: 2 * 258, pricingVersion: expect.any(String) });
      expect(e.pricing.outputTokens).toBeGreaterThan(0);
    });
    it('and the charge equals it', async () => {
      const b = imageBody({
        model: 'image-a-2-official',
        prompt: 'a very long prompt '.repeat(300),
        imageConfig: { imageSize: '4K', quality: 'high' },
        referenceImages: imageRefs(3),
      });
      const e = await estimate(b);
      await create(b);
      expect((await sub()).balance).toBe(10_000 - e.credits);
    });
  });

  it('quality is ignored (same price) on models that drop it', async () => {
    const a = await estimate(imageBodyAt('image-a-2', '2K'));
    const b = await estimate(imageBody({ model: 'image-a-2', imageConfig: { imageSize: '2K', quality: 'high' } }));
    expect(b.credits).toBe(a.credits);
    expect(b.warnings).toEqual(['quality_ignored_for_image_a_2_lite']);
  });
});

describe('402', () => {
  it('insufficient credits: 402 (26004), nothing charged, canGenerate false', async () => {
    const price = imageFixedPrices['image-b-3-pro']['2K']!;
    await setAccount({ credits: price - 1 });
    expect((await estimate(imageBodyAt('image-b-3-pro'))).canGenerate).toBe(false);
    for (const path of [pathOf('generateImage'), pathOf('createImageTask')]) {
      const r = await m.call('POST', path, { body: imageBodyAt('image-b-3-pro') });
      expect(r.status).toBe(402);
      expect(r.json).toEqual({ code: errorCatalog.IMAGE_INSUFFICIENT_CREDITS.code, message: expect.stringContaining(String(price)), data: null });
    }
    expect((await sub()).balance).toBe(price - 1);
    expect((await m.call('GET', pathOf('listImageTasks'))).json.data.total).toBe(0);
    await setAccount({ credits: price });
    expect((await estimate(imageBodyAt('image-b-3-pro'))).canGenerate).toBe(true);
    await create(imageBodyAt('image-b-3-pro'));
    expect((await sub()).balance).toBe(0);
  });

  it.each([
    [{ imageSize: '4K' }, true],
    [{ imageSize: '2K', quality: 'high' }, true],
    [{ imageSize: '2K', quality: 'medium' }, false],
  ])('image-a-2-official %j on plan free: subscription required -> %s', async (imageConfig, required) => {
    await setAccount({ plan: 'free' });
    const b = imageBody({ model: 'image-a-2-official', imageConfig });
    const e = await estimate(b);
    expect(e.requiresSubscription).toBe(required);
    expect(e.canGenerate).toBe(!required);
    const r = await m.call('POST', pathOf('createImageTask'), { body: b });
    if (required) {
      expect(r.status).toBe(402);
      expect(r.json.code).toBe(errorCatalog.IMAGE_SUBSCRIPTION_REQUIRED.code);
      expect((await sub()).balance).toBe(10_000);
    } else expect(r.status).toBe(202);
  });
});

describe('free allowance', () => {
  it('1K and 2K consume one free generation instead of credits; at 0 the request is billed; 4K never uses it', async () => {
    await setAccount({ freeUsages: { 'image-a-2': 2, 'image-b-3.1-flash': 5 } });
    const e = await estimate(imageBodyAt('image-a-2', '1K'));
    expect(e.credits).toBe(imageFixedPrices['image-a-2']['1K']); // full price, never reduced
    await create(imageBodyAt('image-a-2', '1K'));
    expect(await sub()).toMatchObject({ balance: 10_000, freeUsages: { 'image-a-2': 1, 'image-b-3.1-flash': 5 } });
    const r = await m.call('POST', pathOf('generateImage'), { body: imageBodyAt('image-a-2', '2K') });
    expect(r.status).toBe(200);
    expect(await sub()).toMatchObject({ balance: 10_000, freeUsages: { 'image-a-2': 0 } });
    await create(imageBodyAt('image-a-2', '2K'));
    expect(await sub()).toMatchObject({ balance: 10_000 - imageFixedPrices['image-a-2']['2K']!, freeUsages: { 'image-a-2': 0 } });
    // 4K: billed even with an allowance left
    const before = (await sub()).balance;
    await create(imageBodyAt('image-b-3.1-flash', '4K'));
    expect(await sub()).toMatchObject({ balance: before - imageFixedPrices['image-b-3.1-flash']['4K']!, freeUsages: { 'image-b-3.1-flash': 5 } });
  });

  it("matches the normalised model id (legacy ids draw on the current id's allowance)", async () => {
    await setAccount({ freeUsages: { 'image-b-3.1-flash': 1 } });
    await create(imageBodyAt('image-b-3.1-flash-preview', '1K'));
    expect(await sub()).toMatchObject({ balance: 10_000, freeUsages: { 'image-b-3.1-flash': 0 } });
  });

  it('an allowance for another model does not apply', async () => {
    await setAccount({ freeUsages: { 'image-a-2': 3 } });
    await create(imageBodyAt('image-c-5-0-pro', '1K'));
    expect(await sub()).toMatchObject({ balance: 10_000 - imageFixedPrices['image-c-5-0-pro']['1K']!, freeUsages: { 'image-a-2': 3 } });
  });

  it('canGenerate is true with no credits when the allowance applies, false at 4K', async () => {
    await setAccount({ credits: 0, freeUsages: { 'image-a-2': 1 } });
    expect((await estimate(imageBodyAt('image-a-2', '2K'))).canGenerate).toBe(true);
    expect((await estimate(imageBodyAt('image-a-2', '4K'))).canGenerate).toBe(false);
    await create(imageBodyAt('image-a-2', '2K'));
    expect((await estimate(imageBodyAt('image-a-2', '2K'))).canGenerate).toBe(false);
  });

  it('a failed task returns the allowance (freeUsageRolledBack true)', async () => {
    await setAccount({ freeUsages: { 'image-a-2': 1 } });
    const id = await create(imageBodyAt('image-a-2', '1K'), { prefer: 'outcome=failed' });
    expect((await sub()).freeUsages['image-a-2']).toBe(0);
    await m.advance(imageSchedule.pendingMs);
    expect(await get(id)).toMatchObject({ status: 'fail', freeUsageRolledBack: true });
    expect(await sub()).toMatchObject({ balance: 10_000, freeUsages: { 'image-a-2': 1 } });
  });
});

describe('restricted free lane (image-b-3-pro, never-paid accounts)', () => {
  const LANE = 'image-b-3-pro';
  const total = freeLane.capacity + freeLane.queueCapacity + 1;
  const startMs = imageSchedule.pendingMs;
  const genMs = imageGeneratingMs(LANE, '2K');

  beforeEach(async () => {
    await setAccount({ plan: 'free', everPaid: false });
  });

  it(`${freeLane.capacity} in flight, ${freeLane.queueCapacity} queued, the rest fail free_relax_busy; queued tasks run when slots free`, async () => {
    const ids: string[] = [];
    for (let i = 0; i < total; i++) ids.push(await create(imageBodyAt(LANE)));
    const price = imageFixedPrices[LANE]['2K']!;
    expect((await sub()).balance).toBe(10_000 - total * price);
    await m.advance(startMs);
    const statuses = async () => Promise.all(ids.map(async (id) => (await get(id)).status));
    expect(await statuses()).toEqual([...Array(freeLane.capacity).fill('generating'), ...Array(freeLane.queueCapacity).fill('pending'), 'fail']);
    const busy = await get(ids[total - 1]);
    expect(busy).toMatchObject({
      status: 'fail',
      failReason: 'free_relax_busy',
      retryable: true,
      freeUsageRolledBack: false,
      userMessage: expect.any(String),
      failMsg: expect.stringContaining('free_relax_busy'),
    });
    expect((await sub()).balance).toBe(10_000 - (total - 1) * price); // the busy one refunded
    await m.advance(genMs);
    expect(await statuses()).toEqual(['success', 'success', 'generating', 'generating', 'fail']);
    await m.advance(genMs);
    expect(await statuses()).toEqual(['success', 'success', 'success', 'success', 'fail']);
    expect((await sub()).balance).toBe(10_000 - (total - 1) * price);
  });

  it('queued tasks time out with free_relax_timeout when the slots stay taken; nothing is spent', async () => {
    await setAccount({ freeUsages: { [LANE]: 10 } });
    for (let i = 0; i < freeLane.capacity; i++) await create(imageBodyAt(LANE), { prefer: 'outcome=stuck' });
    const queued = [await create(imageBodyAt(LANE, '1K')), await create(imageBodyAt(LANE, '4K'))];
    // 1K drew on the allowance, 4K on credits
    expect(await sub()).toMatchObject({ freeUsages: { [LANE]: 10 - freeLane.capacity - 1 }, balance: 10_000 - imageFixedPrices[LANE]['4K']! });
    await m.advance(freeLane.queueTimeoutMs - 1);
    expect((await get(queued[0])).status).toBe('pending');
    await m.advance(1);
    expect(await get(queued[0])).toMatchObject({
      status: 'fail',
      failReason: 'free_relax_timeout',
      retryable: true,
      freeUsageRolledBack: true,
      userMessage: expect.any(String),
    });
    expect(await get(queued[1])).toMatchObject({ status: 'fail', failReason: 'free_relax_timeout', retryable: true, freeUsageRolledBack: false });
    expect(await sub()).toMatchObject({ freeUsages: { [LANE]: 10 - freeLane.capacity }, balance: 10_000 });
  });

  it('a busy failure returns the allowance (freeUsageRolledBack true)', async () => {
    await setAccount({ freeUsages: { [LANE]: 10 } });
    const ids: string[] = [];
    for (let i = 0; i < total; i++) ids.push(await create(imageBodyAt(LANE, '1K')));
    expect((await sub()).freeUsages[LANE]).toBe(10 - total);
    await m.advance(startMs);
    expect(await get(ids[total - 1])).toMatchObject({ status: 'fail', failReason: 'free_relax_busy', freeUsageRolledBack: true });
    expect(await sub()).toMatchObject({ balance: 10_000, freeUsages: { [LANE]: 10 - total + 1 } });
  });

  it('the lane is shared by every never-paid account', async () => {
    await setAccount({ plan: 'free', everPaid: false }, OTHER_KEY);
    for (let i = 0; i < freeLane.capacity; i++) await create(imageBodyAt(LANE), {}, OTHER_KEY);
    const mine = await create(imageBodyAt(LANE));
    await m.advance(startMs);
    expect((await get(mine)).status).toBe('pending');
  });

  it('the synchronous endpoint answers 429 free_relax_busy (26030, Retry-After) when the lane is full; nothing spent', async () => {
    await setAccount({ freeUsages: { [LANE]: 3 } });
    expect((await m.call('POST', pathOf('generateImage'), { body: imageBodyAt(LANE, '1K') })).status).toBe(200); // a sync generation is instant in virtual time
    for (let i = 0; i < freeLane.capacity; i++) await create(imageBodyAt(LANE, '1K'));
    const before = await sub();
    const r = await m.call('POST', pathOf('generateImage'), { body: imageBodyAt(LANE, '1K') });
    expect(r.status).toBe(429);
    expect(r.json.code).toBe(errorCatalog.IMAGE_FREE_RELAX_BUSY.code);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await sub()).toEqual(before);
    await m.advance(startMs + imageGeneratingMs(LANE, '1K'));
    expect((await m.call('POST', pathOf('generateImage'), { body: imageBodyAt(LANE, '2K') })).status).toBe(200);
  });

  it.each([
    ['26030', 'free_relax_busy', startMs],
    ['26031', 'free_relax_timeout', freeLane.queueTimeoutMs],
    ['IMAGE_FREE_RELAX_BUSY', 'free_relax_busy', startMs],
  ])('Prefer: outcome=failed, error=%s forces %s (no charge)', async (error, reason, at) => {
    await setAccount({ plan: 'paid', everPaid: true, freeUsages: { 'image-a-2': 1 } });
    const id = await create(imageBodyAt('image-a-2', '1K'), { prefer: `outcome=failed, error=${error}` });
    await m.advance(at - 1);
    expect((await get(id)).status).toBe('pending');
    await m.advance(1);
    expect(await get(id)).toMatchObject({ status: 'fail', failReason: reason, retryable: true, freeUsageRolledBack: true, userMessage: expect.any(String) });
    expect(await sub()).toMatchObject({ balance: 10_000, freeUsages: { 'image-a-2': 1 } });
  });

  it.each([
    ['plan paid', { plan: 'paid', everPaid: true }],
    ['previously paid (plan free, everPaid true)', { plan: 'free', everPaid: true }],
  ])('%s accounts are never restricted', async (_n, patch) => {
    await setAccount(patch);
    const ids: string[] = [];
    for (let i = 0; i < total + 3; i++) ids.push(await create(imageBodyAt(LANE)));
    await m.advance(startMs);
    for (const id of ids) expect((await get(id)).status).toBe('generating');
    await m.advance(genMs);
    for (const id of ids) expect((await get(id)).status).toBe('success');
    for (let i = 0; i < total; i++) expect((await m.call('POST', pathOf('generateImage'), { body: imageBodyAt(LANE, '1K') })).status).toBe(200);
  });

  it('other models are never restricted for never-paid accounts', async () => {
    const ids: string[] = [];
    for (let i = 0; i < total; i++) ids.push(await create(imageBodyAt('image-b-3.1-flash')));
    await m.advance(startMs + imageGeneratingMs('image-b-3.1-flash', '2K'));
    for (const id of ids) expect((await get(id)).status).toBe('success');
  });
});

it('prices cover every supported model and size', () => {
  for (const [model, size] of supported) if (model !== 'image-a-2-official') expect(imageFixedPrices[model][size], `${model} ${size}`).toBeGreaterThan(0);
  expect(imageSizes).toEqual(['1K', '2K', '4K']);
});
