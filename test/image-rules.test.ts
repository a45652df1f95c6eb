/**
 * Image request rules as table cases (document 1, "Image models", "Image: request
 * schema", "Limits", "Errors"): every rule on the three endpoints that share the
 * body, asserting HTTP status and catalog code (never library wording).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { errorCatalog, type ErrorName } from '../schemas/errors.ts';
import { IMAGE_BODY_LIMIT_BYTES, imageRateLimits } from '../schemas/image.ts';
import { imageBody, imageEstimateBody, imageRefs, pathOf } from './factories.ts';
import { type TestMock, useMocks } from './helpers.ts';

const start = useMocks();
let m: TestMock;
beforeEach(async () => {
  m = await start();
});

const okStatus = (path: string) => (path === pathOf('createImageTask') ? 202 : 200);

/** [name, body, expected error name or 'ok'] for the generation endpoints (sync and async). */
const generateCases: [string, Record<string, unknown>, ErrorName | 'ok'][] = [
  ['minimal valid body', { provider: 'vendor_a', prompt: 'a cat' }, 'ok'],
  ['every provider is accepted (vendor_e)', imageBody({ provider: 'vendor_e' }), 'ok'],
  ['provider missing', { prompt: 'a cat' }, 'IMAGE_INVALID_PARAMETERS'],
  ['provider unknown', imageBody({ provider: 'vendor_x' }), 'IMAGE_INVALID_PARAMETERS'],
  ['prompt missing', { provider: 'vendor_a' }, 'IMAGE_INVALID_PARAMETERS'],
  ['prompt empty', imageBody({ prompt: '' }), 'IMAGE_INVALID_PARAMETERS'],
  ['prompt blank', imageBody({ prompt: '   ' }), 'IMAGE_INVALID_PARAMETERS'],
  ['model unknown', imageBody({ model: 'image-z-1' }), 'IMAGE_INVALID_PARAMETERS'],
  ['legacy preview id accepted', imageBody({ model: 'image-b-3-pro-preview' }), 'ok'],
  ['reference item with neither fileData nor inlineData', imageBody({ referenceImages: [{}] }), 'IMAGE_INVALID_PARAMETERS'],
  ['fileUri scheme https', imageBody({ referenceImages: [{ fileData: { fileUri: 'https://example.com/a.png', mimeType: 'image/png' } }] }), 'ok'],
  ['fileUri scheme http', imageBody({ referenceImages: [{ fileData: { fileUri: 'http://example.com/a.jpg', mimeType: 'image/jpeg' } }] }), 'ok'],
  ['fileUri scheme gs', imageBody({ referenceImages: [{ fileData: { fileUri: 'gs://bucket/a.webp', mimeType: 'image/webp' } }] }), 'ok'],
  [
    'fileUri scheme ftp',
    imageBody({ referenceImages: [{ fileData: { fileUri: 'ftp://example.com/a.png', mimeType: 'image/png' } }] }),
    'IMAGE_INVALID_PARAMETERS',
  ],
  ['fileData without mimeType', imageBody({ referenceImages: [{ fileData: { fileUri: 'https://example.com/a.png' } }] }), 'IMAGE_INVALID_PARAMETERS'],
  ['fileData without fileUri', imageBody({ referenceImages: [{ fileData: { mimeType: 'image/png' } }] }), 'IMAGE_INVALID_PARAMETERS'],
  ['mimeType image/heic', imageBody({ referenceImages: [{ inlineData: { data: 'AAAA', mimeType: 'image/heic' } }] }), 'ok'],
  ['mimeType image/heif', imageBody({ referenceImages: [{ inlineData: { data: 'AAAA', mimeType: 'image/heif' } }] }), 'ok'],
  ['mimeType image/gif', imageBody({ referenceImages: [{ inlineData: { data: 'AAAA', mimeType: 'image/gif' } }] }), 'IMAGE_INVALID_PARAMETERS'],
  ['inlineData not base64', imageBody({ referenceImages: [{ inlineData: { data: 'not base64!', mimeType: 'image/png' } }] }), 'IMAGE_INVALID_PARAMETERS'],
  ['inlineData without data', imageBody({ referenceImages: [{ inlineData: { mimeType: 'image/png' } }] }), 'IMAGE_INVALID_PARAMETERS'],
  [
    'an item with both fileData and inlineData passes',
    imageBody({
      referenceImages: [{ fileData: { fileUri: 'https://example.com/a.png', mimeType: 'image/png' }, inlineData: { data: 'AAAA', mimeType: 'image/png' } }],
    }),
    'ok',
  ],
  // reference limits per family (14 schema cap; image-a 4, image-c 10, image-d 9, image-b 14)
  ['image-a-2: 4 references', imageBody({ model: 'image-a-2', referenceImages: imageRefs(4) }), 'ok'],
  ['image-a-2: 5 references', imageBody({ model: 'image-a-2', referenceImages: imageRefs(5) }), 'IMAGE_TOO_MANY_REFERENCE_IMAGES'],
  ['image-a-2-official: 5 references', imageBody({ model: 'image-a-2-official', referenceImages: imageRefs(5) }), 'IMAGE_TOO_MANY_REFERENCE_IMAGES'],
  ['image-c-5-0-pro: 10 references', imageBody({ model: 'image-c-5-0-pro', referenceImages: imageRefs(10) }), 'ok'],
  ['image-c-5-0-pro: 11 references', imageBody({ model: 'image-c-5-0-pro', referenceImages: imageRefs(11) }), 'IMAGE_TOO_MANY_REFERENCE_IMAGES'],
  ['image-d-2.7: 9 references', imageBody({ model: 'image-d-2.7', referenceImages: imageRefs(9) }), 'ok'],
  ['image-d-2.7-pro: 10 references', imageBody({ model: 'image-d-2.7-pro', referenceImages: imageRefs(10) }), 'IMAGE_TOO_MANY_REFERENCE_IMAGES'],
  ['image-b-3-pro: 14 references', imageBody({ model: 'image-b-3-pro', referenceImages: imageRefs(14) }), 'ok'],
  [
    'image-b-3.1-flash: 15 references (schema cap)',
    imageBody({ model: 'image-b-3.1-flash', referenceImages: imageRefs(15) }),
    'IMAGE_TOO_MANY_REFERENCE_IMAGES',
  ],
  // sizes
  ['imageSize 8K', imageBody({ imageConfig: { imageSize: '8K' } }), 'IMAGE_INVALID_PARAMETERS'],
  ['image-a-2 4K', imageBody({ model: 'image-a-2', imageConfig: { imageSize: '4K' } }), 'ok'],
  ['image-b-3.1-flash 4K', imageBody({ model: 'image-b-3.1-flash', imageConfig: { imageSize: '4K' } }), 'ok'],
  ['image-c-5-0-pro 4K', imageBody({ model: 'image-c-5-0-pro', imageConfig: { imageSize: '4K' } }), 'IMAGE_UNSUPPORTED_SIZE'],
  ['image-c-5-0-pro 4K via legacy id', imageBody({ model: 'image-c-5-0-pro-preview', imageConfig: { imageSize: '4K' } }), 'IMAGE_UNSUPPORTED_SIZE'],
  ['image-d-2.7 4K', imageBody({ model: 'image-d-2.7', imageConfig: { imageSize: '4K' } }), 'IMAGE_UNSUPPORTED_SIZE'],
  ['image-d-2.7-pro 4K text-to-image', imageBody({ model: 'image-d-2.7-pro', imageConfig: { imageSize: '4K' } }), 'ok'],
  [
    'image-d-2.7-pro 4K with a reference image',
    imageBody({ model: 'image-d-2.7-pro', imageConfig: { imageSize: '4K' }, referenceImages: imageRefs(1) }),
    'IMAGE_UNSUPPORTED_SIZE',
  ],
  ['image-d-2.7-pro 2K with a reference image', imageBody({ model: 'image-d-2.7-pro', imageConfig: { imageSize: '2K' }, referenceImages: imageRefs(1) }), 'ok'],
  // ratios
  ['aspectRatio not W:H', imageBody({ imageConfig: { aspectRatio: 'wide' } }), 'IMAGE_INVALID_PARAMETERS'],
  ['image-a-2 16:9', imageBody({ model: 'image-a-2', imageConfig: { aspectRatio: '16:9' } }), 'ok'],
  ['image-a-2 1:4 (extreme)', imageBody({ model: 'image-a-2', imageConfig: { aspectRatio: '1:4' } }), 'IMAGE_UNSUPPORTED_RATIO'],
  ['image-a-2.5-flare 7:3', imageBody({ model: 'image-a-2.5-flare', imageConfig: { aspectRatio: '7:3' } }), 'IMAGE_UNSUPPORTED_RATIO'],
  ['image-b-3-pro 8:1 (extreme)', imageBody({ model: 'image-b-3-pro', imageConfig: { aspectRatio: '8:1' } }), 'IMAGE_B_UNSUPPORTED_RATIO'],
  ['image-b-3-pro 21:9', imageBody({ model: 'image-b-3-pro', imageConfig: { aspectRatio: '21:9' } }), 'ok'],
  ['image-b-3.1-flash 8:1', imageBody({ model: 'image-b-3.1-flash', imageConfig: { aspectRatio: '8:1' } }), 'ok'],
  ['image-b-3.1-flash 7:3', imageBody({ model: 'image-b-3.1-flash', imageConfig: { aspectRatio: '7:3' } }), 'IMAGE_B_UNSUPPORTED_RATIO'],
  ['image-c-5-0-pro 1:8', imageBody({ model: 'image-c-5-0-pro', imageConfig: { aspectRatio: '1:8' } }), 'ok'],
  ['image-c-5-0-pro 7:3 (any ratio, size only)', imageBody({ model: 'image-c-5-0-pro', imageConfig: { aspectRatio: '7:3' } }), 'ok'],
  ['image-c-5-0-pro 100:1 (any ratio, size only)', imageBody({ model: 'image-c-5-0-pro', imageConfig: { aspectRatio: '100:1' } }), 'ok'],
  ['image-c-5-0-pro 2000:3 (any ratio, size only)', imageBody({ model: 'image-c-5-0-pro', imageConfig: { aspectRatio: '2000:3' } }), 'ok'],
  ['image-d-2.7 16:9', imageBody({ model: 'image-d-2.7', imageConfig: { aspectRatio: '16:9' } }), 'ok'],
  ['image-d-2.7 2:3', imageBody({ model: 'image-d-2.7', imageConfig: { aspectRatio: '2:3' } }), 'IMAGE_UNSUPPORTED_RATIO'],
  ['image-d-2.7-pro 21:9', imageBody({ model: 'image-d-2.7-pro', imageConfig: { aspectRatio: '21:9' } }), 'IMAGE_UNSUPPORTED_RATIO'],
  ['quality on a model that drops it', imageBody({ model: 'image-b-3-pro', imageConfig: { imageSize: '1K', quality: 'high' } }), 'ok'],
  ['quality unknown', imageBody({ imageConfig: { quality: 'ultra' } }), 'IMAGE_INVALID_PARAMETERS'],
];

describe.each([
  ['sync', pathOf('generateImage')],
  ['async', pathOf('createImageTask')],
])('generation rules (%s)', (_name, path) => {
  it.each(generateCases)('%s', async (_case, body, expected) => {
    const r = await m.call('POST', path, { body });
    if (expected === 'ok') {
      expect(r.status, r.text).toBe(okStatus(path));
    } else {
      expect(r.status, r.text).toBe(errorCatalog[expected].httpStatus);
      expect(r.json.code, r.text).toBe(errorCatalog[expected].code);
      expect(r.json.data).toBeNull();
    }
  });
});

describe('estimate rules: the same body, provider and prompt optional', () => {
  const estimateCases: [string, Record<string, unknown>, ErrorName | 'ok'][] = [
    ['empty body fields: no provider, no prompt', { model: 'image-a-2' }, 'ok'],
    ['empty prompt', { prompt: '' }, 'ok'],
    ['provider unknown', { provider: 'vendor_x' }, 'IMAGE_INVALID_PARAMETERS'],
    ...generateCases
      .filter(([name]) => !/^(provider missing|prompt)/.test(name))
      .map(([n, b, e]) => [n, b, e] as [string, Record<string, unknown>, ErrorName | 'ok']),
  ];
  it.each(estimateCases)('%s', async (_case, body, expected) => {
    const r = await m.call('POST', pathOf('estimateImageCredits'), { body });
    if (expected === 'ok') expect(r.status, r.text).toBe(200);
    else {
      expect(r.status, r.text).toBe(errorCatalog[expected].httpStatus);
      expect(r.json.code, r.text).toBe(errorCatalog[expected].code);
    }
  });
});

describe('error messages name the rule', () => {
  it.each([
    ['image-a-2', '1:4', '26019', ['1:1', '2:3', '21:9']],
    ['image-d-2.7', '2:3', '26019', ['1:1', '3:4', '4:3', '9:16', '16:9']],
  ])('%s %s lists the supported ratios', async (model, ratio, _code, listed) => {
    const r = await m.call('POST', pathOf('createImageTask'), { body: imageBody({ model, imageConfig: { aspectRatio: ratio } }) });
    expect(r.json.code).toBe(26019);
    for (const x of listed) expect(r.json.message).toContain(x);
  });

  it.each([
    ['image-a-2', 5, '4'],
    ['image-c-5-0-pro', 11, '10'],
    ['image-d-2.7', 10, '9'],
    ['image-b-3-pro', 15, '14'],
  ])('%s with %i references names the limit %s', async (model, n, limit) => {
    const r = await m.call('POST', pathOf('createImageTask'), { body: imageBody({ model, referenceImages: imageRefs(n) }) });
    expect(r.json.code).toBe(26003);
    expect(r.json.message).toMatch(new RegExp(`at most ${limit}\\b`));
  });
});

describe('resolution of size, ratio and quality (estimate)', () => {
  /** [model, imageConfig or undefined, expected imageSize, aspectRatio (undefined: absent), quality (undefined: absent)] */
  const cases: [string, Record<string, unknown> | undefined, string, string | undefined, string | undefined][] = [
    ['image-a-2', undefined, '2K', undefined, undefined],
    ['image-a-2.5-sunburst', undefined, '2K', undefined, undefined],
    ['image-a-2-official', undefined, '2K', undefined, 'medium'],
    ['image-b-3-pro', undefined, '2K', '1:1', undefined],
    ['image-b-3.1-flash', undefined, '2K', '1:1', undefined],
    ['image-c-5-0-pro', undefined, '2K', undefined, undefined],
    ['image-d-2.7', undefined, '2K', undefined, undefined],
    ['image-d-2.7-pro', undefined, '2K', undefined, undefined],
    ['image-a-2', {}, '2K', '1:1', undefined],
    ['image-b-3-pro', {}, '2K', '1:1', undefined],
    ['image-c-5-0-pro', {}, '2K', '1:1', undefined],
    ['image-d-2.7', {}, '2K', '1:1', undefined],
    ['image-a-2', { imageSize: '1K' }, '1K', '1:1', undefined],
    ['image-a-2', { imageSize: '4K', aspectRatio: '9:16' }, '4K', '9:16', undefined],
    ['image-a-2', { quality: 'high' }, '2K', '1:1', undefined],
    ['image-a-2-official', { quality: 'low' }, '2K', '1:1', 'low'],
    ['image-a-2-official', { quality: 'high', imageSize: '1K' }, '1K', '1:1', 'high'],
  ];
  it.each(cases)('%s with imageConfig %j', async (model, imageConfig, size, ratio, quality) => {
    const r = await m.call('POST', pathOf('estimateImageCredits'), { body: imageEstimateBody({ model, ...(imageConfig ? { imageConfig } : {}) }) });
    expect(r.status, r.text).toBe(200);
    const d = r.json.data;
    expect(d.model).toBe(model);
    expect(d.imageSize).toBe(size);
    expect(d.aspectRatio).toBe(ratio);
    expect(d.quality).toBe(quality);
    expect('aspectRatio' in d).toBe(ratio !== undefined);
    expect('quality' in d).toBe(quality !== undefined);
    // pixels present exactly when the ratio is resolved
    expect('pixels' in d).toBe(ratio !== undefined);
  });

  it.each([
    ['image-a-2-preview', 'image-a-2'],
    ['image-a-2.5-flare-preview', 'image-a-2.5-flare'],
    ['image-a-2.5-sunburst-preview', 'image-a-2.5-sunburst'],
    ['image-b-3-pro-preview', 'image-b-3-pro'],
    ['image-b-3.1-flash-preview', 'image-b-3.1-flash'],
    ['image-c-5-0-pro-preview', 'image-c-5-0-pro'],
    ['image-d-2.7-preview', 'image-d-2.7'],
  ])('legacy id %s is normalised to %s', async (legacy, current) => {
    const r = await m.call('POST', pathOf('estimateImageCredits'), { body: imageEstimateBody({ model: legacy }) });
    expect(r.json.data.model).toBe(current);
  });

  it('the default model is image-a-2', async () => {
    const r = await m.call('POST', pathOf('estimateImageCredits'), { body: {} });
    expect(r.json.data.model).toBe('image-a-2');
  });

  it.each([
    ['image-a-2-official', { imageSize: '4K' }, true],
    ['image-a-2-official', { quality: 'high' }, true],
    ['image-a-2-official', { quality: 'medium' }, false],
    ['image-a-2-official', undefined, false],
    ['image-a-2', { imageSize: '4K', quality: 'high' }, false],
    ['image-b-3-pro', { imageSize: '4K' }, false],
  ])('requiresSubscription: %s %j -> %s', async (model, imageConfig, expected) => {
    const r = await m.call('POST', pathOf('estimateImageCredits'), { body: imageEstimateBody({ model, ...(imageConfig ? { imageConfig } : {}) }) });
    expect(r.json.data.requiresSubscription).toBe(expected);
  });

  it.each([
    ['image-a-2', { quality: 'high' }, [], ['quality_ignored_for_image_a_2_lite']],
    ['image-b-3-pro', { quality: 'low' }, [], ['quality_ignored_for_image_a_2_lite']],
    ['image-a-2-official', { quality: 'high' }, [], []],
    ['image-a-2-official', {}, imageRefs(2), ['reference_image_input_tokens_not_included']],
    ['image-a-2', {}, imageRefs(2), []],
    ['image-a-2', {}, [], []],
  ])('warnings: %s %j with %# references', async (model, imageConfig, referenceImages, expected) => {
    const r = await m.call('POST', pathOf('estimateImageCredits'), { body: imageEstimateBody({ model, imageConfig, referenceImages }) });
    expect(r.json.data.warnings).toEqual(expected);
  });
});

describe('body size, rate limits, auth', () => {
  it('accepts a JSON body above the 1 MiB default (inline reference of ~5 MB)', async () => {
    const data = 'A'.repeat(5 * 1024 * 1024);
    const r = await m.call('POST', pathOf('estimateImageCredits'), {
      body: imageEstimateBody({ model: 'image-b-3-pro', referenceImages: [{ inlineData: { data, mimeType: 'image/png' } }] }),
    });
    expect(r.status, r.text.slice(0, 200)).toBe(200);
  });

  it.each([
    ['sync', pathOf('generateImage')],
    ['async', pathOf('createImageTask')],
    ['estimate', pathOf('estimateImageCredits')],
  ])('a body above 25 MB gets a clear 413 envelope (%s)', async (_n, path) => {
    const data = 'A'.repeat(IMAGE_BODY_LIMIT_BYTES);
    const r = await m.call('POST', path, { body: imageBody({ referenceImages: [{ inlineData: { data, mimeType: 'image/png' } }] }) });
    expect(r.status).toBe(413);
    expect(r.json).toEqual({ code: errorCatalog.PAYLOAD_TOO_LARGE.code, message: expect.stringContaining(String(IMAGE_BODY_LIMIT_BYTES)), data: null });
  });

  it('generate requests beyond the per-user limit answer 429 with Retry-After (sync and async share it)', async () => {
    const l = imageRateLimits.generate;
    for (let i = 0; i < l.limit; i++) {
      const r = await m.call('POST', i % 2 ? pathOf('generateImage') : pathOf('createImageTask'), { body: imageBody({ model: 'image-b-3.1-flash' }) });
      expect(r.status, r.text.slice(0, 200)).toBeLessThan(300);
    }
    const r = await m.call('POST', pathOf('generateImage'), { body: imageBody() });
    expect(r.status).toBe(429);
    expect(r.json.code).toBe(errorCatalog.IMAGE_RATE_LIMITED.code);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // another user is not limited
    expect((await m.call('POST', pathOf('generateImage'), { body: imageBody(), key: 'mg_someone_else1' })).status).toBe(200);
    // the window slides on the virtual clock
    await m.advance(l.windowMs);
    expect((await m.call('POST', pathOf('createImageTask'), { body: imageBody() })).status).toBe(202);
  });

  it('requests with base64 reference images have a tighter limit', async () => {
    const l = imageRateLimits.inlineReferences;
    const body = imageBody({ referenceImages: [{ inlineData: { data: 'AAAA', mimeType: 'image/png' } }] });
    for (let i = 0; i < l.limit; i++) expect((await m.call('POST', pathOf('createImageTask'), { body })).status).toBe(202);
    const r = await m.call('POST', pathOf('createImageTask'), { body });
    expect(r.status).toBe(429);
    expect(r.json.code).toBe(errorCatalog.IMAGE_RATE_LIMITED.code);
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // URL references are not under the tighter limit
    expect((await m.call('POST', pathOf('createImageTask'), { body: imageBody({ referenceImages: imageRefs(1) }) })).status).toBe(202);
  });

  it.each([pathOf('generateImage'), pathOf('createImageTask'), pathOf('estimateImageCredits')])('401 without a key (%s)', async (path) => {
    const r = await m.call('POST', path, { body: imageBody(), key: null });
    expect(r.status).toBe(401);
    expect(r.json.code).toBe(errorCatalog.UNAUTHORIZED.code);
  });
});
