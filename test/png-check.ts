/**
 * A fast full decode of the mock's PNGs (1-bit palette images, 2-bit once labelled: mock/media/png.ts) for the large sizes (2K, 4K), where
 * pngjs, which expands every pixel to RGBA in JavaScript, takes about a second of CPU per 4K image. Everything
 * pngjs checks for these images is checked here too, with node's zlib doing the inflating (its own implementation,
 * not the encoder's): the signature, each chunk's CRC-32, IHDR (size, bit depth 1 or 2, colour type 3, no interlace),
 * PLTE, IDAT inflating to exactly one filter byte and `ceil(width x depth / 8)` bytes per row, every row's filter type
 * valid and undone (PNG's five filters), the padding bits of each row clear, and IEND last. The test files keep
 * pngjs for the small size (1K) and for one ratio of each larger size, so the mock's PNGs stay checked by an
 * independent decoder too.
 */
import { crc32, inflateSync } from 'node:zlib';
import { expect } from 'vitest';

/** A decoded palette image: its size, its palette (RGB triples) and the number of pixels of each palette index. */
export interface PaletteImage {
  width: number;
  height: number;
  palette: [number, number, number][];
  /** Bits a pixel (1, or 2 for a labelled image). */
  depth: number;
  /** Pixels per palette index (index 0: the background, 1: the band, 2 and 3: the label's box and text). */
  counts: number[];
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Paeth predictor (PNG specification, 9.4). */
function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/**
 * Decodes a 1- or 2-bit palette PNG fully and asserts its structure (see the file's comment); returns its size, palette
 * and the pixel count of each index. Fails the test (expect) on anything a conforming decoder would refuse.
 */
export function decodePalettePng(bytes: Buffer): PaletteImage {
  expect([...bytes.subarray(0, 8)]).toEqual(SIGNATURE);
  const chunks: { type: string; data: Buffer }[] = [];
  for (let at = 8; at < bytes.length;) {
    const len = bytes.readUInt32BE(at);
    const type = bytes.subarray(at + 4, at + 8).toString('latin1');
    const data = bytes.subarray(at + 8, at + 8 + len);
    expect(bytes.readUInt32BE(at + 8 + len), `${type} CRC`).toBe(crc32(bytes.subarray(at + 4, at + 8 + len)));
    chunks.push({ type, data });
    at += 12 + len;
  }
  expect(chunks[0].type).toBe('IHDR');
  expect(chunks.at(-1)!.type).toBe('IEND');
  const ihdr = chunks[0].data;
  const width = ihdr.readUInt32BE(0);
  const height = ihdr.readUInt32BE(4);
  // bit depth 1 or 2, colour type 3 (palette), compression 0, filter method 0, no interlace
  const depth = ihdr[8];
  expect([1, 2]).toContain(depth);
  expect([...ihdr.subarray(9, 13)]).toEqual([3, 0, 0, 0]);
  const plte = chunks.find((c) => c.type === 'PLTE')!.data;
  expect(plte.length % 3).toBe(0);
  const palette = Array.from({ length: plte.length / 3 }, (_, i) => [plte[3 * i], plte[3 * i + 1], plte[3 * i + 2]] as [number, number, number]);
  expect(palette.length).toBeGreaterThanOrEqual(1);
  expect(palette.length).toBeLessThanOrEqual(1 << depth);

  const raw = inflateSync(Buffer.concat(chunks.filter((c) => c.type === 'IDAT').map((c) => c.data)));
  const stride = Math.ceil((width * depth) / 8);
  const perByte = 8 / depth;
  // pixels of each index in a byte of value v: tally[v * 4 + index]
  const tally = new Uint8Array(256 * 4);
  for (let v = 0; v < 256; v++) for (let k = 0; k < perByte; k++) tally[v * 4 + ((v >> (8 - depth * (k + 1))) & ((1 << depth) - 1))]++;
  expect(raw.length).toBe((stride + 1) * height);
  const prev = new Uint8Array(stride);
  const row = new Uint8Array(stride);
  const counts = [0, 0, 0, 0];
  const padPixels = (stride * perByte - width) % perByte;
  const padMask = padPixels === 0 ? 0 : (1 << (padPixels * depth)) - 1;
  for (let y = 0; y < height; y++) {
    const at = y * (stride + 1);
    const filter = raw[at];
    // (expect only on a failure: a 4K image has over two thousand rows, and an expect costs more than a row's work)
    if (filter > 4) expect.fail(`row ${y}: filter type ${filter}`);
    for (let i = 0; i < stride; i++) {
      const x = raw[at + 1 + i];
      const a = i > 0 ? row[i - 1] : 0;
      const b = prev[i];
      const c = i > 0 ? prev[i - 1] : 0;
      row[i] = (x + (filter === 0 ? 0 : filter === 1 ? a : filter === 2 ? b : filter === 3 ? (a + b) >> 1 : paeth(a, b, c))) & 0xff;
    }
    if (padMask && row[stride - 1] & padMask) expect.fail(`row ${y}: padding bits set`);
    for (let i = 0; i < stride; i++) {
      const t = row[i] * 4;
      counts[0] += tally[t];
      counts[1] += tally[t + 1];
      counts[2] += tally[t + 2];
      counts[3] += tally[t + 3];
    }
    counts[0] -= padPixels; // the padding pixels read as index 0
    prev.set(row);
  }
  for (let k = palette.length; k < 4; k++) expect(counts[k], 'no pixel names a palette entry that does not exist').toBe(0);
  return { width, height, depth, palette, counts: counts.slice(0, 1 << depth) };
}
