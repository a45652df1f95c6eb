/**
 * FLAC, encoded here (lossless, fixed predictors and Rice codes) from the
 * loop's samples: the loop's ten 4608-sample frames encoded once and repeated
 * with new frame numbers; a shorter last frame makes the length exact.
 */
import { loopPcm, loopSamples } from '../fixtures/audio-loop.ts';
import { FLAC_BLOCK, memo, RATE } from './loops.ts';
import { sampleCount } from './pcm.ts';

// ---------------------------------------------------------------------------
// FLAC

const CRC8 = (() => {
  const t = new Uint8Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 0x80 ? ((c << 1) ^ 0x07) & 0xff : (c << 1) & 0xff;
    t[n] = c;
  }
  return t;
})();

const CRC16 = (() => {
  const t = new Uint16Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n << 8;
    for (let k = 0; k < 8; k++) c = c & 0x8000 ? ((c << 1) ^ 0x8005) & 0xffff : (c << 1) & 0xffff;
    t[n] = c;
  }
  return t;
})();

/** The CRC-16 register (FLAC frames: polynomial 0x8005, initial value 0) after bytes[from..to) from `crc`. */
function crc16(crc: number, bytes: Uint8Array, from: number, to: number): number {
  for (let i = from; i < to; i++) crc = ((crc << 8) & 0xffff) ^ CRC16[(crc >> 8) ^ bytes[i]];
  return crc;
}

/**
 * What a run of bytes does to the CRC-16 register. The CRC is linear, so the
 * register after the run from state s is `fromZero` (the register after the
 * run from 0) xor, for each set bit i of s, `bit[i]` (bit i after as many zero
 * bytes): a repeated frame body is checked in 16 steps instead of its length.
 */
interface Crc16Run {
  fromZero: number;
  bit: Uint16Array;
}

function crc16Run(bytes: Uint8Array): Crc16Run {
  const bit = new Uint16Array(16);
  for (let i = 0; i < 16; i++) {
    let c = 1 << i;
    for (let k = 0; k < bytes.length; k++) c = ((c << 8) & 0xffff) ^ CRC16[c >> 8];
    bit[i] = c;
  }
  return { fromZero: crc16(0, bytes, 0, bytes.length), bit };
}

function crc16After(run: Crc16Run, crc: number): number {
  let c = run.fromZero;
  for (let i = 0; crc >> i; i++) if ((crc >> i) & 1) c ^= run.bit[i];
  return c;
}

/** Writes bits most significant first into a growing byte array. */
class BitWriter {
  private bytes: Uint8Array;
  private length = 0;
  private acc = 0;
  private bits = 0;

  constructor(capacity: number) {
    this.bytes = new Uint8Array(capacity);
  }

  /** Appends the low `n` bits of `value` (n <= 24, value >= 0). */
  put(value: number, n: number): void {
    this.acc = (this.acc << n) | value;
    this.bits += n;
    while (this.bits >= 8) {
      this.bits -= 8;
      if (this.length === this.bytes.length) {
        const grown = new Uint8Array(this.bytes.length * 2);
        grown.set(this.bytes);
        this.bytes = grown;
      }
      this.bytes[this.length++] = (this.acc >>> this.bits) & 0xff;
    }
    this.acc &= (1 << this.bits) - 1;
  }

  zeros(n: number): void {
    for (; n > 24; n -= 24) this.put(0, 24);
    this.put(0, n);
  }

  /** The bytes, the last one padded with zero bits. */
  finish(): Uint8Array {
    if (this.bits > 0) this.put(0, 8 - this.bits);
    return this.bytes.slice(0, this.length);
  }
}

/** Fixed-predictor residuals of order `order` (0-4) for samples `order`..end. */
function fixedResiduals(x: Int16Array, order: number): Int32Array {
  const r = new Int32Array(x.length - order);
  for (let i = order; i < x.length; i++) {
    let e: number;
    if (order === 0) e = x[i];
    else if (order === 1) e = x[i] - x[i - 1];
    else if (order === 2) e = x[i] - 2 * x[i - 1] + x[i - 2];
    else if (order === 3) e = x[i] - 3 * x[i - 1] + 3 * x[i - 2] - x[i - 3];
    else e = x[i] - 4 * x[i - 1] + 6 * x[i - 2] - 4 * x[i - 3] + x[i - 4];
    r[i - order] = e;
  }
  return r;
}

/** Bits to Rice-code the folded residuals u[from..to) with parameter k. */
function riceBits(u: Uint32Array, from: number, to: number, k: number): number {
  let bits = (to - from) * (k + 1);
  for (let i = from; i < to; i++) bits += u[i] >>> k;
  return bits;
}

/** The best Rice parameter (0-14) for u[from..to) and its cost in bits. */
function bestRice(u: Uint32Array, from: number, to: number): { k: number; bits: number } {
  let sum = 0;
  for (let i = from; i < to; i++) sum += u[i];
  const n = Math.max(1, to - from);
  const guess = sum > n ? Math.min(14, Math.floor(Math.log2(sum / n))) : 0;
  let best = { k: guess, bits: riceBits(u, from, to, guess) };
  for (const k of [guess - 1, guess + 1]) {
    if (k < 0 || k > 14) continue;
    const bits = riceBits(u, from, to, k);
    if (bits < best.bits) best = { k, bits };
  }
  return best;
}

/**
 * One mono 16-bit FLAC subframe for the block `x` (1-65535 samples), padded to
 * a byte: constant when all samples are equal, else the best fixed predictor
 * (order 0-4) with Rice-coded residuals in the best partition order; verbatim
 * for blocks too short to predict.
 */
function flacSubframe(x: Int16Array): Uint8Array {
  const n = x.length;
  const w = new BitWriter(n * 2 + 16);
  if (x.every((s) => s === x[0])) {
    w.put(0, 1);
    w.put(0b000000, 6);
    w.put(0, 1);
    w.put(x[0] & 0xffff, 16);
    return w.finish();
  }
  if (n < 16) {
    w.put(0b0000001 << 1, 8); // verbatim
    for (const s of x) w.put(s & 0xffff, 16);
    return w.finish();
  }
  // The predictor order with the smallest residuals (sum of magnitudes), then the cheapest partitioning of its residuals.
  let order = 0;
  let r = fixedResiduals(x, 0);
  let magnitude = Infinity;
  for (let o = 0; o <= 4; o++) {
    const ro = fixedResiduals(x, o);
    let m = 0;
    for (let i = 4 - o; i < ro.length; i++) m += Math.abs(ro[i]); // over the same samples for every order
    if (m < magnitude) [order, r, magnitude] = [o, ro, m];
  }
  const u = new Uint32Array(r.length);
  for (let i = 0; i < r.length; i++) u[i] = r[i] >= 0 ? 2 * r[i] : -2 * r[i] - 1;
  let best: { p: number; ks: number[]; bits: number } | undefined;
  for (let p = 0; p <= 8 && n % (1 << p) === 0 && n >> p > order; p++) {
    const part = n >> p;
    const ks: number[] = [];
    let bits = 0;
    for (let j = 0; j < 1 << p; j++) {
      const rice = bestRice(u, j === 0 ? 0 : j * part - order, (j + 1) * part - order);
      ks.push(rice.k);
      bits += 4 + rice.bits;
    }
    if (!best || bits < best.bits) best = { p, ks, bits };
  }
  const { p, ks } = best!;
  w.put(0, 1);
  w.put(0b001000 | order, 6);
  w.put(0, 1);
  for (let i = 0; i < order; i++) w.put(x[i] & 0xffff, 16);
  w.put(0b00, 2); // Rice, 4-bit parameters
  w.put(p, 4);
  const part = n >> p;
  for (let j = 0; j < 1 << p; j++) {
    const k = ks[j];
    w.put(k, 4);
    const from = j === 0 ? 0 : j * part - order;
    const to = (j + 1) * part - order;
    const mask = (1 << k) - 1;
    for (let i = from; i < to; i++) {
      const q = u[i] >>> k;
      if (q + 1 + k <= 24) w.put((1 << k) | (u[i] & mask), q + 1 + k);
      else {
        w.zeros(q);
        w.put((1 << k) | (u[i] & mask), k + 1);
      }
    }
  }
  return w.finish();
}

/** The loop's FLAC subframes, one per 4608-sample block, and its samples (for a shorter last block). */
const flacLoop = memo((v) => {
  const pcm = loopPcm(v);
  const bodies: Uint8Array[] = [];
  for (let at = 0; at < loopSamples; at += FLAC_BLOCK) bodies.push(flacSubframe(pcm.subarray(at, at + FLAC_BLOCK)));
  return { pcm, bodies, runs: bodies.map(crc16Run) };
});

/** Bytes of `n` in FLAC's UTF-8-like frame number coding. */
function utf8Length(n: number): number {
  if (n < 0x80) return 1;
  let len = 2;
  while (n >= 2 ** (5 * len + 1)) len++;
  return len;
}

/** Writes a FLAC frame header (24 kHz mono 16-bit, fixed block size) at `at`; returns its length. */
function writeFlacHeader(out: Uint8Array, at: number, frame: number, block: number): number {
  const start = at;
  const code = block === FLAC_BLOCK ? 0b0101 : block <= 256 ? 0b0110 : 0b0111;
  out[at++] = 0xff;
  out[at++] = 0xf8; // sync, fixed block size
  out[at++] = (code << 4) | 0b0111; // block size code, 24 kHz
  out[at++] = (0b0000 << 4) | (0b100 << 1); // mono, 16 bits per sample
  const len = utf8Length(frame);
  if (len === 1) out[at++] = frame;
  else {
    out[at++] = ((0xff00 >> len) & 0xff) | Math.floor(frame / 2 ** (6 * (len - 1)));
    for (let i = len - 2; i >= 0; i--) out[at++] = 0x80 | (Math.floor(frame / 2 ** (6 * i)) & 0x3f);
  }
  if (code === 0b0110) out[at++] = block - 1;
  else if (code === 0b0111) {
    out[at++] = (block - 1) >> 8;
    out[at++] = (block - 1) & 0xff;
  }
  let crc = 0;
  for (let i = start; i < at; i++) crc = CRC8[crc ^ out[i]];
  out[at++] = crc;
  return at - start;
}

/**
 * A FLAC stream of `durationMs` (exact to the sample): the file bytes and
 * where each frame starts and ends in them (`frames[i]` to `frames[i + 1]`).
 */
export function flacStream(durationMs: number, variant: number): { bytes: Uint8Array; frames: number[]; streamInfo: Uint8Array } {
  const { pcm, bodies, runs } = flacLoop(variant);
  const total = sampleCount(durationMs);
  const full = Math.floor(total / FLAC_BLOCK);
  const rest = total - full * FLAC_BLOCK;
  const perLoop = bodies.length;
  const lastBody = rest > 0 ? flacSubframe(pcm.subarray((full % perLoop) * FLAC_BLOCK, (full % perLoop) * FLAC_BLOCK + rest)) : undefined;
  const count = full + (lastBody ? 1 : 0);
  const body = (k: number) => (k < full ? bodies[k % perLoop] : lastBody!);
  let size = 4 + 4 + 34;
  for (let k = 0; k < count; k++) size += 4 + utf8Length(k) + (k < full ? 0 : rest <= 256 ? 1 : 2) + 1 + body(k).length + 2;
  const out = new Uint8Array(size);
  const frames: number[] = [];
  let at = 42;
  let minFrame = Infinity;
  let maxFrame = 0;
  for (let k = 0; k < count; k++) {
    const start = at;
    frames.push(start);
    at += writeFlacHeader(out, at, k, k < full ? FLAC_BLOCK : rest);
    const b = body(k);
    out.set(b, at);
    const head = crc16(0, out, start, at);
    at += b.length;
    const crc = k < full ? crc16After(runs[k % perLoop], head) : crc16(head, out, at - b.length, at);
    out[at++] = crc >> 8;
    out[at++] = crc & 0xff;
    minFrame = Math.min(minFrame, at - start);
    maxFrame = Math.max(maxFrame, at - start);
  }
  frames.push(at);
  writeStreamInfo(out, minFrame, maxFrame, total);
  return { bytes: out, frames, streamInfo: out.slice(0, 42) };
}

/** Writes "fLaC" and the STREAMINFO block (the last metadata block) into out[0..42): 24 kHz mono 16-bit, blocks of 4608, `total` samples. */
function writeStreamInfo(out: Uint8Array, minFrame: number, maxFrame: number, total: number): void {
  // MD5 left zero: "not computed", as the format allows.
  out.set([0x66, 0x4c, 0x61, 0x43, 0x80, 0, 0, 34], 0);
  const si = out.subarray(8, 42);
  const dv = new DataView(si.buffer, si.byteOffset, 34);
  dv.setUint16(0, FLAC_BLOCK);
  dv.setUint16(2, FLAC_BLOCK);
  dv.setUint32(4, minFrame << 8); // 24-bit min frame size, then the first byte of the max
  dv.setUint32(7, maxFrame << 8); // 24-bit max frame size (overwrites the spare byte above)
  si[10] = RATE >> 12;
  si[11] = (RATE >> 4) & 0xff;
  si[12] = ((RATE & 0xf) << 4) | (0 << 1) | (15 >> 4); // rate, channels - 1, bits per sample - 1 (high bit)
  si[13] = ((15 & 0xf) << 4) | Math.floor(total / 0x100000000); // bits per sample - 1 (low bits), total samples (high 4 bits)
  dv.setUint32(14, total % 0x100000000);
}

/**
 * A FLAC file of `pcm` (24 kHz mono 16-bit samples, at least one): every
 * 4608-sample block encoded (`flacSubframe`: constant, fixed predictor or
 * verbatim), a shorter last block making the length exact. Lossless: a
 * decoder gives back `pcm` sample for sample. Throws RangeError for no samples.
 * Serves the flac format of document 2, "POST /v1/tts and POST /v1/audio/speech" (speech in words).
 */
export function flacFromPcm(pcm: Int16Array): Uint8Array {
  if (pcm.length === 0) throw new RangeError('flac: no samples');
  const parts: Uint8Array[] = [];
  let size = 42;
  let minFrame = Infinity;
  let maxFrame = 0;
  const header = new Uint8Array(16);
  for (let k = 0, from = 0; from < pcm.length; k++, from += FLAC_BLOCK) {
    const block = pcm.subarray(from, from + FLAC_BLOCK);
    const h = writeFlacHeader(header, 0, k, block.length);
    const body = flacSubframe(block);
    const frame = new Uint8Array(h + body.length + 2);
    frame.set(header.subarray(0, h), 0);
    frame.set(body, h);
    const crc = crc16(0, frame, 0, h + body.length);
    frame[h + body.length] = crc >> 8;
    frame[h + body.length + 1] = crc & 0xff;
    parts.push(frame);
    size += frame.length;
    minFrame = Math.min(minFrame, frame.length);
    maxFrame = Math.max(maxFrame, frame.length);
  }
  const out = new Uint8Array(size);
  writeStreamInfo(out, minFrame, maxFrame, pcm.length);
  let at = 42;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
