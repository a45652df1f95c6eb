/**
 * PNG images for the media the mock serves (generated images: document 1,
 * "Image task"; video covers: document 1, "Video task", coverUrl): a
 * two-colour palette image (1 bit per pixel) showing a background with a
 * diagonal band. The zlib stream is written here, not by a general deflate:
 * the image data is runs of equal bytes (background bytes, band bytes and the
 * two partial bytes at the band's edges; the background runs continue across
 * rows through the filter bytes), each run a literal and distance-1 copies in
 * one fixed-Huffman block, and the Adler-32 is computed per run. A 4096x4096
 * image takes under a millisecond once warm. Standard JavaScript only.
 */
import type { Rgb } from './types.ts';
import { concatBytes } from './bytes.ts';
import { layoutLabel, type Label, type LabelText } from './label.ts';

export type { Rgb } from './types.ts';
export { colourFor, rgbHex, toBase64 } from './colour.ts';

/** Largest side of a PNG, pixels. */
export const PNG_MAX_SIDE = 16384;

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 of a PNG chunk's type and data (ISO 3309, as PNG specifies). */
function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  dv.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

// ---------------------------------------------------------------------------
// Deflate (RFC 1951) with the fixed Huffman codes, runs only
// ---------------------------------------------------------------------------

function reverse(code: number, bits: number): number {
  let r = 0;
  for (let i = 0; i < bits; i++) r |= ((code >> i) & 1) << (bits - 1 - i);
  return r;
}

/** Fixed literal/length codes (3.2.6), bit-reversed for an LSB-first stream, and their lengths. */
const LIT_CODE = new Uint16Array(288);
const LIT_BITS = new Uint8Array(288);
for (let s = 0; s < 288; s++) {
  const [base, first, bits] = s < 144 ? [0x30, 0, 8] : s < 256 ? [0x190, 144, 9] : s < 280 ? [0, 256, 7] : [0xc0, 280, 8];
  LIT_CODE[s] = reverse(base + s - first, bits);
  LIT_BITS[s] = bits;
}
/** Length code (257-285), extra bits and extra value of each match length 3-258 (3.2.5). */
const LEN_SYM = new Uint16Array(259);
const LEN_XBITS = new Uint8Array(259);
const LEN_XVAL = new Uint8Array(259);
{
  const base = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
  const extra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
  for (let i = 0; i < base.length; i++) {
    const end = i + 1 < base.length ? base[i + 1] : 259;
    for (let len = base[i]; len < end && len <= 258; len++) {
      LEN_SYM[len] = 257 + i;
      LEN_XBITS[len] = extra[i];
      LEN_XVAL[len] = len - base[i];
    }
  }
}

/** Distance codes 0-29: base distance and extra bits (3.2.5); DIST_BASE ends with a sentinel past 32768. */
const DIST_BASE = [
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577, 32769,
];
const DIST_XBITS = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];

const ADLER_MOD = 65521;
/** Palette entries shared by both kinds of PNG: the background and the band. */
const BG = 0;
const FG_ENTRY = 1;

/** A zlib stream (RFC 1950) of byte runs: one fixed-Huffman deflate block, each run a literal and distance-1 copies. */
class RunDeflater {
  private out = new Uint8Array(1 << 16);
  private pos = 2;
  private acc = 0;
  private n = 0;
  private runValue = -1;
  private runLength = 0;
  private a = 1;
  private b = 0;

  constructor() {
    this.out[0] = 0x78; // CMF: deflate, 32 KB window
    this.out[1] = 0x01; // FLG: no dictionary, fastest; (0x7801 % 31 === 0)
    this.bits(1, 1); // BFINAL
    this.bits(1, 2); // BTYPE 01: fixed Huffman codes
  }

  /** Appends `n` bytes of value `v`. */
  run(v: number, n: number): void {
    if (n <= 0) return;
    if (v === this.runValue) this.runLength += n;
    else {
      this.flush();
      this.runValue = v;
      this.runLength = n;
    }
  }

  /**
   * Appends a copy of the `n` bytes (at least 3) that start `distance` bytes back (1-32768), whose values
   * `row` describes (the Adler-32 needs their sums).
   */
  copy(distance: number, n: number, row: RowSums): void {
    if (n < 3) throw new RangeError(`copy of ${n} bytes: at least 3`);
    this.flush();
    this.runValue = -1;
    // Adler-32 of n more bytes B: a += sum B, b += n a + sum (n - k) B[k] (mod 65521).
    this.b = (this.b + (((n % ADLER_MOD) * this.a) % ADLER_MOD) + row.weighted) % ADLER_MOD;
    this.a = (this.a + row.sum) % ADLER_MOD;
    let d = 0;
    while (DIST_BASE[d + 1] <= distance) d++;
    const dCode = reverse(d, 5);
    const dx = distance - DIST_BASE[d];
    const dBits = DIST_XBITS[d];
    this.reserve(8 + ((n / 258) | 0) * 6);
    while (n > 0) {
      let len = Math.min(258, n);
      if (n - len > 0 && n - len < 3) len = n - 3; // leave a copyable rest
      this.symbol(LEN_SYM[len]);
      if (LEN_XBITS[len]) this.bits(LEN_XVAL[len], LEN_XBITS[len]);
      this.bits(dCode, 5);
      if (dBits) this.bits(dx, dBits);
      n -= len;
    }
  }

  /** The finished zlib stream. */
  finish(): Uint8Array {
    this.flush();
    this.symbol(256); // end of block
    if (this.n > 0) this.bits(0, 8 - this.n);
    this.reserve(4);
    const adler = ((this.b << 16) | this.a) >>> 0;
    new DataView(this.out.buffer).setUint32(this.pos, adler);
    return this.out.slice(0, this.pos + 4);
  }

  private flush(): void {
    const v = this.runValue;
    let n = this.runLength;
    if (n === 0) return;
    this.runLength = 0;
    this.adler(v, n);
    this.reserve(16 + ((n / 258) | 0) * 3);
    this.symbol(v);
    n--;
    while (n >= 3) {
      let len = Math.min(258, n);
      if (n - len > 0 && n - len < 3) len = n - 3; // leave a copyable rest
      this.symbol(LEN_SYM[len]);
      if (LEN_XBITS[len]) this.bits(LEN_XVAL[len], LEN_XBITS[len]);
      this.bits(0, 5); // distance code 0: distance 1
      n -= len;
    }
    for (; n > 0; n--) this.symbol(v);
  }

  /** Adler-32 over `n` bytes of value v: a += n v, b += n a + v n (n + 1) / 2 (mod 65521). */
  private adler(v: number, n: number): void {
    const tri = n % 2 === 0 ? ((n / 2) % ADLER_MOD) * ((n + 1) % ADLER_MOD) : (n % ADLER_MOD) * (((n + 1) / 2) % ADLER_MOD);
    this.b = (this.b + (((n % ADLER_MOD) * this.a) % ADLER_MOD) + ((v * (tri % ADLER_MOD)) % ADLER_MOD)) % ADLER_MOD;
    this.a = (this.a + (((n % ADLER_MOD) * v) % ADLER_MOD)) % ADLER_MOD;
  }

  private symbol(s: number): void {
    this.bits(LIT_CODE[s], LIT_BITS[s]);
  }

  /** `count` bits (<= 16) of `value`, least significant first. */
  private bits(value: number, count: number): void {
    this.acc |= value << this.n;
    this.n += count;
    while (this.n >= 8) {
      this.out[this.pos++] = this.acc & 0xff;
      this.acc >>>= 8;
      this.n -= 8;
    }
  }

  private reserve(bytes: number): void {
    if (this.pos + bytes + 8 <= this.out.length) return;
    const next = new Uint8Array(Math.max(this.out.length * 2, this.pos + bytes + 64));
    next.set(this.out.subarray(0, this.pos));
    this.out = next;
  }
}

/**
 * A `width` x `height` PNG (1-bit palette: `bg` and `fg`): background `bg` with a diagonal band of `fg`
 * whose centre runs from the top-left to the bottom-right corner, half-width min(width, height) / 8 pixels.
 * A 4096x4096 image is about 40 KB and takes under a millisecond once warm (about 10 ms the first time). Deterministic.
 * Throws RangeError outside 1-16384 pixels per side.
 */
export function encodePng(width: number, height: number, bg: Rgb, fg: Rgb, label?: Label): Uint8Array {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 || width > PNG_MAX_SIDE || height > PNG_MAX_SIDE) {
    throw new RangeError(`bad PNG size ${width}x${height}`);
  }
  if (label) return labelledPng(width, height, bg, fg, label);
  const stride = Math.ceil(width / 8);
  const band = Math.max(1, Math.floor(Math.min(width, height) / 8));
  const z = new RunDeflater();
  for (let y = 0; y < height; y++) {
    // Row: filter byte 0, then pixels [x0, x1) set (most significant bit first), padding bits clear.
    const centre = Math.floor((y * width) / height);
    const x0 = Math.max(0, centre - band);
    const x1 = Math.min(width, centre + band);
    const b0 = x0 >> 3;
    const b1 = (x1 - 1) >> 3;
    const head = 0xff >> (x0 & 7);
    const tail = (0xff << (7 - ((x1 - 1) & 7))) & 0xff;
    z.run(0, 1 + b0);
    if (b0 === b1) z.run(head & tail, 1);
    else {
      z.run(head, 1);
      z.run(0xff, b1 - b0 - 1);
      z.run(tail, 1);
    }
    z.run(0, stride - 1 - b1);
  }
  const ihdr = new Uint8Array(13);
  const dv = new DataView(ihdr.buffer);
  dv.setUint32(0, width);
  dv.setUint32(4, height);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 3; // colour type: palette
  return concatBytes([
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('PLTE', new Uint8Array([...bg, ...fg])),
    chunk('IDAT', z.finish()),
    chunk('IEND', new Uint8Array(0)),
  ]);
}

/** The palette of a labelled PNG: background, band, the label's box (black) and its text (white, entry 3 = BOX | 1). */
const BOX = 2;

/**
 * A labelled PNG (2 bits a pixel, palette bg, fg, black, white): encodePng's picture with `label` (a box on
 * the 16-pixel grid inside the picture) drawn over it. A box row that repeats the row above is one
 * back-reference of the row's length; the others are runs of the packed ink.
 */
function labelledPng(width: number, height: number, bg: Rgb, fg: Rgb, label: Label): Uint8Array {
  if (label.x % 4 || label.x + label.width > width || label.y + label.height > height) throw new RangeError('label outside the picture');
  const stride = Math.ceil(width / 4);
  const band = Math.max(1, Math.floor(Math.min(width, height) / 8));
  const z = new RunDeflater();
  const packer = new Packer(z);
  const boxBytes = label.width / 4;
  let sums: RowSums = { sum: 0, weighted: 0 };
  const words = new Uint32Array(label.ink.buffer, label.ink.byteOffset, label.ink.length >> 2);
  for (let y = 0; y < height; y++) {
    const centre = Math.floor((y * width) / height);
    const x0 = Math.max(0, centre - band);
    const x1 = Math.min(width, centre + band);
    z.run(0, 1); // filter: none
    const ly = y - label.y;
    if (ly < 0 || ly >= label.height) {
      bandRow2(z, stride, x0, x1);
      continue;
    }
    bandSpans(packer, 0, label.x, x0, x1);
    if (ly > 0 && label.rowOf[ly] === label.rowOf[ly - 1]) z.copy(stride + 1, boxBytes, sums);
    else sums = inkRuns(z, label.ink, words, label.rowOf[ly] * label.width, label.width);
    bandSpans(packer, label.x + label.width, width, x0, x1);
    packer.end();
  }
  const ihdr = new Uint8Array(13);
  const dv = new DataView(ihdr.buffer);
  dv.setUint32(0, width);
  dv.setUint32(4, height);
  ihdr[8] = 2; // bit depth
  ihdr[9] = 3; // colour type: palette
  return concatBytes([
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('PLTE', new Uint8Array([...bg, ...fg, 0, 0, 0, 255, 255, 255])),
    chunk('IDAT', z.finish()),
    chunk('IEND', new Uint8Array(0)),
  ]);
}

/** Packs 2-bit pixels into bytes (leftmost pixel in the high bits) and sends them to a RunDeflater as runs. */
class Packer {
  private acc = 0;
  private n = 0;
  constructor(private readonly z: RunDeflater) {}

  /** `count` pixels of palette entry v. */
  span(v: number, count: number): void {
    while (count > 0 && this.n !== 0) {
      this.pixel(v);
      count--;
    }
    const whole = count >> 2;
    if (whole) this.z.run(v * 0x55, whole);
    for (let k = whole << 2; k < count; k++) this.pixel(v);
  }

  /** Ends a row: the last byte padded with zero bits. */
  end(): void {
    if (this.n) this.z.run(this.acc << (2 * (4 - this.n)), 1);
    this.acc = 0;
    this.n = 0;
  }

  private pixel(v: number): void {
    this.acc = (this.acc << 2) | v;
    if (++this.n === 4) {
      this.z.run(this.acc, 1);
      this.acc = 0;
      this.n = 0;
    }
  }
}

/**
 * A whole 2-bit row (after its filter byte) of background with the band over [x0, x1) (x0 < x1): background
 * bytes, the band's partial first byte, band bytes (0x55: four pixels of entry 1), its partial last byte,
 * background bytes; padding pixels are entry 0.
 */
function bandRow2(z: RunDeflater, stride: number, x0: number, x1: number): void {
  const b0 = x0 >> 2;
  const b1 = (x1 - 1) >> 2;
  const head = 0x55 & (0xff >> (2 * (x0 & 3)));
  const tail = 0x55 & (0xff << (2 * (3 - ((x1 - 1) & 3))));
  z.run(0, b0);
  if (b0 === b1) z.run(head & tail, 1);
  else {
    z.run(head, 1);
    z.run(0x55, b1 - b0 - 1);
    z.run(tail, 1);
  }
  z.run(0, stride - 1 - b1);
}

/** Columns [from, to) of a row whose band covers [x0, x1). */
function bandSpans(p: Packer, from: number, to: number, x0: number, x1: number): void {
  if (to <= from) return;
  const a = Math.min(to, Math.max(from, x0));
  const b = Math.min(to, Math.max(from, x1));
  p.span(BG, a - from);
  p.span(FG_ENTRY, b - a);
  p.span(BG, to - b);
}

/** The Adler-32 sums of a box row's bytes B (n of them): sum B and sum (n - k) B[k], mod 65521. */
interface RowSums {
  sum: number;
  weighted: number;
}

/**
 * Packs `n` (a multiple of 4) ink pixels at `at` (a multiple of 4; `words` is the same ink as 32-bit words) as
 * bytes (box, or white for ink) and writes them as runs; returns their sums.
 */
function inkRuns(z: RunDeflater, ink: Uint8Array, words: Uint32Array, at: number, n: number): RowSums {
  const bytes = n / 4;
  let sum = 0;
  let weighted = 0;
  let value = -1;
  let count = 0;
  let p = 0; // bytes before the current run
  // four pixels at a time: equal words are equal bytes (the common case: long runs of box or of ink)
  let last = -1;
  for (let i = 0, w0 = at >> 2; i <= bytes; i++) {
    if (i < bytes) {
      const w = words[w0 + i];
      if (w === last) {
        count++;
        continue;
      }
      last = w;
      const j = at + 4 * i;
      const v = ((BOX | ink[j]) << 6) | ((BOX | ink[j + 1]) << 4) | ((BOX | ink[j + 2]) << 2) | (BOX | ink[j + 3]);
      if (v === value) {
        count++;
        continue;
      }
      if (!count) {
        value = v;
        count = 1;
        continue;
      }
      // a new value: the run so far is written (below), then this byte starts the next
      z.run(value, count);
      sum = (sum + value * count) % ADLER_MOD;
      weighted = (weighted + ((value * (count * (bytes - p) - (count * (count - 1)) / 2)) % ADLER_MOD)) % ADLER_MOD;
      p += count;
      value = v;
      count = 1;
    } else if (count) {
      z.run(value, count);
      sum = (sum + value * count) % ADLER_MOD;
      weighted = (weighted + ((value * (count * (bytes - p) - (count * (count - 1)) / 2)) % ADLER_MOD)) % ADLER_MOD;
    }
  }
  return { sum, weighted };
}

/**
 * encodePng's picture with the label of `text` (mock/media/label.ts: the prompt's start, the model and the
 * pixel size, the id) in its top-left corner; without a label when the picture is too small for one.
 * Throws RangeError as encodePng.
 */
export function labelledImage(width: number, height: number, bg: Rgb, fg: Rgb, text: LabelText): Uint8Array {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 || width > PNG_MAX_SIDE || height > PNG_MAX_SIDE) {
    throw new RangeError(`bad PNG size ${width}x${height}`);
  }
  return encodePng(width, height, bg, fg, layoutLabel(width, height, text));
}
