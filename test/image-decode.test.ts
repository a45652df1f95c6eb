/**
 * Every returned image decodes (pngjs; most 2K and 4K images with the faster full decoder of
 * test/png-check.ts, which is checked against pngjs below) as the declared type and has the declared
 * pixel size: the synchronous raw output and the hosted URLs of async tasks, for
 * every size and every ratio a model accepts, matching the estimate's pixels and
 * the exact ratio (document 1, "Image task", "Image: synchronous generate").
 */
import { inflateSync } from 'node:zlib';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTO_RATIO_OUTPUT, allImageRatios, imageLongSide, imagePixels, imageSizes, type ImageSize } from '../schemas/image.ts';
import { encodePng as encodeImagePng, toBase64 } from '../mock/media/png.ts';
import { imageBody, pathOf } from './factories.ts';
import { decodePalettePng } from './png-check.ts';
import { startMock, type TestMock } from './helpers.ts';

let m: TestMock;
beforeAll(async () => {
  m = await startMock({ rateLimit: false });
});
afterAll(async () => {
  expect(m.bugs).toEqual([]);
  await m.close();
});

function decode(bytes: Buffer) {
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return PNG.sync.read(bytes);
}

/**
 * The large images (2K and 4K) are decoded by test/png-check.ts (node's zlib inflating, every row unfiltered and
 * checked: pngjs expands each pixel to RGBA in JavaScript, about a second of CPU per 4K image and a third of one
 * at 2K), except the ratio below, which pngjs decodes at every size as it does every 1K image (and the encoder's
 * 4096x4096 case below).
 */
const PNGJS_LARGE = new Set(['16:9']);

/** A 2K or 4K image decoded by the fast decoder: its size, every palette entry used (background, band, and the label's black box and white text). */
function decodeLarge(bytes: Buffer): { width: number; height: number } {
  const png = decodePalettePng(bytes);
  expect(png.palette).toHaveLength(4);
  expect(png.palette.slice(2)).toEqual([
    [0, 0, 0],
    [255, 255, 255],
  ]);
  for (const n of png.counts) expect(n).toBeGreaterThan(0);
  return png;
}

function expectRatio(width: number, height: number, ratio: string, size: ImageSize) {
  const [a, b] = ratio.split(':').map(Number);
  expect(width * b).toBe(height * a);
  expect(Math.max(width, height)).toBeLessThanOrEqual(imageLongSide[size]);
  expect(Math.max(width, height)).toBeGreaterThan(imageLongSide[size] * 0.9);
}

/** image-b-3.1-flash accepts every size and all 14 ratios. */
const cases = imageSizes.flatMap((size) => allImageRatios.map((ratio) => [size, ratio] as [ImageSize, string]));

describe('synchronous raw output', () => {
  it.each(cases)("%s %s decodes with the estimate's pixel size", async (size, ratio) => {
    const b = imageBody({ model: 'image-b-3.1-flash', imageConfig: { imageSize: size, aspectRatio: ratio } });
    const e = (await m.call('POST', pathOf('estimateImageCredits'), { body: b })).json.data;
    const r = await m.call('POST', pathOf('generateImage'), { body: b });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(r.json)).toEqual(['candidates']); // raw, no envelope
    const part = r.json.candidates[0].content.parts[0].inlineData;
    expect(part.mimeType).toBe('image/png');
    const bytes = Buffer.from(part.data, 'base64');
    const png = size === '1K' || PNGJS_LARGE.has(ratio) ? decode(bytes) : decodeLarge(bytes);
    expect({ width: png.width, height: png.height }).toEqual({ width: e.pixels.width, height: e.pixels.height });
    expect(e.pixels.size).toBe(`${png.width}x${png.height}`);
    expectRatio(png.width, png.height, ratio, size);
  });

  it.each([['image-a-2'], ['image-c-5-0-pro'], ['image-d-2.7']])(
    '%s with imageConfig omitted: the model picks the ratio (rendered 1:1 at 2K)',
    async (model) => {
      // imageConfig omitted entirely: the model picks the ratio; the mock renders AUTO_RATIO_OUTPUT at 2K
      const r = await m.call('POST', pathOf('generateImage'), { body: imageBody({ model }) });
      const png = decode(Buffer.from(r.json.candidates[0].content.parts[0].inlineData.data, 'base64'));
      expect({ width: png.width, height: png.height }).toEqual(imagePixels('2K', AUTO_RATIO_OUTPUT));
    },
  );

  it('image-c accepts any W:H and renders that exact ratio', async () => {
    const r = await m.call('POST', pathOf('generateImage'), {
      body: imageBody({ model: 'image-c-5-0-pro', imageConfig: { imageSize: '1K', aspectRatio: '7:3' } }),
    });
    const png = decode(Buffer.from(r.json.candidates[0].content.parts[0].inlineData.data, 'base64'));
    expectRatio(png.width, png.height, '7:3', '1K');
  });
});

describe('hosted images of async tasks', () => {
  it.each([
    ['1K', '21:9'],
    ['2K', '1:8'],
    ['4K', '16:9'],
    ['4K', '1:1'],
  ] as [ImageSize, string][])('%s %s', async (size, ratio) => {
    const b = imageBody({ model: 'image-b-3.1-flash', imageConfig: { imageSize: size, aspectRatio: ratio } });
    const r = await m.call('POST', pathOf('createImageTask'), { body: b });
    await m.advance(60_000);
    const t = (await m.call('GET', pathOf('getImageTask', { taskId: r.json.data.taskId }))).json.data;
    expect(t.images).toHaveLength(1);
    const res = await fetch(t.images[0].url);
    expect(res.headers.get('content-type')).toMatch(new RegExp(`^${t.images[0].mimeType}`));
    const bytes = Buffer.from(await res.arrayBuffer());
    const png = size === '1K' ? decode(bytes) : decodeLarge(bytes);
    expect({ width: png.width, height: png.height }).toEqual(imagePixels(size, ratio));
  });
});

describe('the pure-JS encoder', () => {
  it.each([
    [1, 1],
    [7, 3],
    [9, 16],
    [333, 1],
    [1, 333],
    [1000, 1000],
  ])('%ix%i decodes to the background and band colours, and its zlib stream inflates with node:zlib', (w, h) => {
    const bytes = Buffer.from(encodeImagePng(w, h, [10, 20, 30], [200, 100, 50]));
    const png = decode(bytes);
    expect([png.width, png.height]).toEqual([w, h]);
    const colours = new Set<string>();
    for (let i = 0; i < png.data.length; i += 4) colours.add(`${png.data[i]},${png.data[i + 1]},${png.data[i + 2]}`);
    for (const c of colours) expect(['10,20,30', '200,100,50']).toContain(c);
    expect(colours.has('200,100,50')).toBe(true);
    // test/png-check.ts's decoder (used for most 2K and 4K images) agrees with pngjs: size, palette, pixels of each colour
    let band = 0;
    for (let i = 0; i < png.data.length; i += 4) if (`${png.data[i]},${png.data[i + 1]},${png.data[i + 2]}` === '200,100,50') band++;
    expect(decodePalettePng(bytes)).toEqual({
      width: w,
      height: h,
      depth: 1,
      palette: [
        [10, 20, 30],
        [200, 100, 50],
      ],
      counts: [w * h - band, band],
    });
    // IDAT inflates to exactly (stride + 1) * height bytes
    const idatAt = bytes.indexOf('IDAT');
    const len = bytes.readUInt32BE(idatAt - 4);
    expect(inflateSync(bytes.subarray(idatAt + 4, idatAt + 4 + len)).length).toBe((Math.ceil(w / 8) + 1) * h);
  });

  // how fast is `npm run bench`'s to say (a time limit here failed on a loaded machine)
  it('encodes 4096x4096 small', () => {
    const bytes = encodeImagePng(4096, 4096, [0, 0, 0], [255, 255, 255]);
    expect(bytes.length).toBeLessThan(200_000);
    expect(decode(Buffer.from(bytes)).width).toBe(4096);
  });

  it('base64 matches Buffer for every length remainder', () => {
    for (const n of [0, 1, 2, 3, 4, 5, 1000, 9999]) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 37 + 11) & 0xff);
      expect(toBase64(bytes)).toBe(Buffer.from(bytes).toString('base64'));
    }
  });
});
