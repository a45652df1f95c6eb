/**
 * Rendered audio: real files in the six formats of the speech endpoints
 * (document 2, "POST /v1/tts and POST /v1/audio/speech": mp3, opus, aac, flac,
 * wav, pcm), also the MP3 of a podcast episode (document 2, "Podcast episode"),
 * and the encoded packets of a video's sound track. Every file is 24 kHz mono
 * (`renderedAudio` of schemas/media.ts) and lasts the requested duration.
 *
 * The signal is one 1.92 s loop of tone bursts per pitch variant
 * (./fixtures/audio-loop.ts). The lossy codecs repeat frames of a committed
 * encoding of that loop (./fixtures/*-loops.ts, made once with ffmpeg by
 * scripts/make-media-fixtures.sh), so nothing is encoded at run time:
 * - mp3: MPEG-2 Layer III frames without bit reservoir, copied back to back
 *   (a raw MP3 stream, no ID3 or Xing header). Length: whole 24 ms frames.
 * - aac: ADTS frames (AAC-LC) copied back to back. Length: whole 42.7 ms frames.
 * - opus: the packets written into Ogg pages here, with the encoding's OpusHead
 *   (pre-skip kept); the last page's granule position trims the end, so the
 *   decoded length is exact to the 48 kHz sample.
 * - flac: encoded here (lossless, fixed predictors and Rice codes) from the
 *   loop's samples: the loop's ten 4608-sample frames are encoded once and
 *   repeated with new frame numbers; a shorter last frame makes the length exact.
 * - wav (RIFF, 16-bit PCM) and pcm (raw 16-bit little-endian): the samples.
 * Standard JavaScript only, deterministic: the same inputs give the same bytes.
 */
import { AUDIO_TIMBRES, renderedAudio, type AudioFormat } from '../../schemas/media.ts';
import { hash32 } from '../engine/rng.ts';
import { loopPcm, loopSamples, loopVariants } from './fixtures/audio-loop.ts';
import type { EncodedAudio, EncodedAudioPacket } from './types.ts';

// The encoded loops (about 190 KB of base64) by dynamic imports on first use
// (loadAudioLoops: the async renderers await it, and the operation runner and
// the media answerer before a request runs), so a browser build puts them in
// chunks of their own that a page fetches with its first API request, not at
// start (docs/architecture.md, "Transports").
interface EncodedLoops {
  aacLoops: readonly string[];
  mp3Loops: readonly string[];
  opusLoops: readonly { head: string; packets: string }[];
}
let encodedLoops: EncodedLoops | undefined;
let loadingLoops: Promise<void> | undefined;

/** Loads the encoded loops once; resolves at once after the first time. */
export function loadAudioLoops(): Promise<void> {
  return (loadingLoops ??= Promise.all([import('./fixtures/aac-loops.ts'), import('./fixtures/mp3-loops.ts'), import('./fixtures/opus-loops.ts')]).then(
    ([{ aacLoops }, { mp3Loops }, { opusLoops }]) => {
      encodedLoops = { aacLoops, mp3Loops, opusLoops };
    },
  ));
}

/** The encoded loops; throws when they are not loaded yet (await loadAudioLoops() first). */
function loops(): EncodedLoops {
  if (!encodedLoops) throw new Error('audio: the encoded loops are not loaded yet (await loadAudioLoops() before the first use)');
  return encodedLoops;
}

/** Longest audio the renderers make, ms (3 hours; a 3-hour wav is 518 MB). */
export const audioMaxDurationMs = 3 * 3_600_000;

const RATE = renderedAudio.sampleRate; // the loop's rate too
// the committed loops must make as many timbres as the contract tells voices apart by
if ((loopVariants as number) !== AUDIO_TIMBRES)
  throw new Error(`audio: the committed loops have ${String(loopVariants)} variants, schemas/media.ts says ${String(AUDIO_TIMBRES)}`);

/** Samples (at 24 kHz) per frame of the frame-copied codecs. */
export const audioFrameSamples = { mp3: 576, aac: 1024 } as const;
const OPUS_PACKET_48K = 960; // 20 ms at 48 kHz (Opus counts time at 48 kHz)
const FLAC_BLOCK = 4608; // 192 ms; ten per loop

/** Throws RangeError unless `durationMs` is in (0, audioMaxDurationMs] and `variant` an integer >= 0. */
function checkSpec(durationMs: number, variant: number): void {
  if (!Number.isFinite(durationMs) || durationMs <= 0) throw new RangeError(`audio duration must be a positive number of ms, got ${durationMs}`);
  if (durationMs > audioMaxDurationMs) throw new RangeError(`audio duration ${durationMs} ms is over the ${audioMaxDurationMs} ms limit`);
  if (!Number.isInteger(variant) || variant < 0) throw new RangeError(`audio variant must be an integer >= 0, got ${variant}`);
}

function fromBase64(s: string): Uint8Array {
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

function memo<T>(make: (v: number) => T): (variant: number) => T {
  const cache = new Map<number, T>();
  return (variant) => {
    const v = variant % loopVariants;
    let hit = cache.get(v);
    if (hit === undefined) {
      hit = make(v);
      cache.set(v, hit);
    }
    return hit;
  };
}

// ---------------------------------------------------------------------------
// Cyclic copies

/** Fills `out` with `pattern` repeated, starting at `pattern[phase]` (by doubling copies: a few dozen memmoves for any size). */
function fillCyclic(out: Uint8Array, pattern: Uint8Array, phase: number): void {
  const n = out.length;
  const p = pattern.length;
  let at = Math.min(n, p - phase);
  out.set(pattern.subarray(phase, phase + at), 0);
  if (at === n) return;
  const base = at; // a pattern boundary
  const first = Math.min(p, n - at);
  out.set(pattern.subarray(0, first), at);
  at += first;
  while (at < n) {
    const len = Math.min(at - base, n - at);
    out.copyWithin(at, base, base + len);
    at += len;
  }
}

/** One loop of frames: their bytes back to back, and where each starts (`offsets[i]`; `offsets[frames]` is the length). */
interface FrameLoop {
  bytes: Uint8Array;
  offsets: number[];
}

/** MPEG-2 Layer III bit rates, kbit/s, by index. */
const MP3_KBPS = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];

const mp3Loop = memo((v): FrameLoop => {
  const bytes = fromBase64(loops().mp3Loops[v]);
  const offsets = [0];
  for (let at = 0; at < bytes.length;) {
    at += Math.floor((72_000 * MP3_KBPS[bytes[at + 2] >> 4]) / RATE) + ((bytes[at + 2] >> 1) & 1);
    offsets.push(at);
  }
  return { bytes, offsets };
});

const aacLoop = memo((v): FrameLoop & { headerBytes: number[] } => {
  const bytes = fromBase64(loops().aacLoops[v]);
  const offsets = [0];
  const headerBytes: number[] = [];
  for (let at = 0; at < bytes.length;) {
    headerBytes.push(bytes[at + 1] & 1 ? 7 : 9); // protection_absent: no CRC
    at += ((bytes[at + 3] & 3) << 11) | (bytes[at + 4] << 3) | (bytes[at + 5] >> 5);
    offsets.push(at);
  }
  return { bytes, offsets, headerBytes };
});

function frameLoop(codec: 'mp3' | 'aac', variant: number): FrameLoop {
  return codec === 'mp3' ? mp3Loop(variant) : aacLoop(variant);
}

/**
 * Frames from..to-1 of the endless repetition of `loop`, copied back to back
 * into a new array, and where frame k starts in it (`start(k)`, from..to).
 */
function loopRange(loop: FrameLoop, from: number, to: number): { bytes: Uint8Array; start: (k: number) => number } {
  const { bytes, offsets } = loop;
  const frames = offsets.length - 1;
  const pos = (k: number) => Math.floor(k / frames) * bytes.length + offsets[k % frames];
  const first = pos(from);
  const out = new Uint8Array(pos(to) - first);
  if (out.length > 0) fillCyclic(out, bytes, first % bytes.length);
  return { bytes: out, start: (k) => pos(k) - first };
}

/**
 * Fewest frames of a frame-copied stream: 5 MP3 frames (120 ms), 3 AAC frames
 * (128 ms). Parsers recognize a raw MP3 or ADTS stream by several frames in a
 * row (music-metadata needs this many to report a duration, ffmpeg fails to
 * probe 2 ADTS frames), so a shorter request gets this much.
 */
export const audioMinFrames = { mp3: 5, aac: 3 } as const;

/**
 * Frames of the frame-copied codecs for `durationMs` (ms, > 0; not checked):
 * the nearest whole number, at least `audioMinFrames`. Throws nothing.
 * Serves document 2, "POST /v1/tts and POST /v1/audio/speech" and "Podcast episode" (the lengths of mp3, aac and HLS).
 */
export function audioFrameCount(codec: 'mp3' | 'aac', durationMs: number): number {
  return Math.max(audioMinFrames[codec], Math.round((durationMs * RATE) / 1000 / audioFrameSamples[codec]));
}

/**
 * Frames `from` (inclusive) to `to` (exclusive) of the endless stream of
 * `codec` frames for `variant`, back to back in a new array: MP3 frames or
 * ADTS frames, each self-contained, so any range is a playable file; frames
 * 0..audioFrameCount(codec, d) - 1 are `renderAudio` of duration d.
 * Throws RangeError for a bad range or variant.
 * Serves the HLS segments of document 2, "Podcast episode".
 */
export function audioFrames(codec: 'mp3' | 'aac', variant: number, from: number, to: number): Uint8Array {
  if (!Number.isInteger(variant) || variant < 0) throw new RangeError(`audio variant must be an integer >= 0, got ${variant}`);
  if (!Number.isInteger(from) || !Number.isInteger(to) || from < 0 || to < from) throw new RangeError(`bad frame range ${from}-${to}`);
  return loopRange(frameLoop(codec, variant), from, to).bytes;
}

// ---------------------------------------------------------------------------
// PCM and WAV

/** The loop's samples as little-endian bytes. */
const pcmLoop = memo((v): Uint8Array => {
  const pcm = loopPcm(v);
  const out = new Uint8Array(pcm.length * 2);
  const dv = new DataView(out.buffer);
  for (let i = 0; i < pcm.length; i++) dv.setInt16(i * 2, pcm[i], true);
  return out;
});

/** Samples (at 24 kHz) for `durationMs`: the nearest whole number, at least one. */
function sampleCount(durationMs: number): number {
  return Math.max(1, Math.round((durationMs * RATE) / 1000));
}

function renderPcm(durationMs: number, variant: number, headerBytes: number): Uint8Array {
  const out = new Uint8Array(headerBytes + sampleCount(durationMs) * 2);
  fillCyclic(out.subarray(headerBytes), pcmLoop(variant), 0);
  return out;
}

/** The 44-byte RIFF/WAVE header of 16-bit mono PCM at 24 kHz followed by `dataBytes` bytes of samples. */
function wavHeader(dataBytes: number): Uint8Array {
  const out = new Uint8Array(44);
  const dv = new DataView(out.buffer);
  const ascii = (at: number, s: string) => {
    for (let i = 0; i < s.length; i++) out[at + i] = s.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  dv.setUint32(4, 36 + dataBytes, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  dv.setUint32(16, 16, true);
  dv.setUint16(20, 1, true); // PCM
  dv.setUint16(22, 1, true); // mono
  dv.setUint32(24, RATE, true);
  dv.setUint32(28, RATE * 2, true); // bytes per second
  dv.setUint16(32, 2, true); // bytes per sample frame
  dv.setUint16(34, 16, true); // bits per sample
  ascii(36, 'data');
  dv.setUint32(40, dataBytes, true);
  return out;
}

function renderWav(durationMs: number, variant: number): Uint8Array {
  const out = renderPcm(durationMs, variant, 44);
  out.set(wavHeader(out.length - 44), 0);
  return out;
}

// ---------------------------------------------------------------------------
// Ogg Opus

/** CRC-32 of Ogg pages: polynomial 0x04c11db7, most significant bit first, no reflection, initial value 0. */
const OGG_CRC = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n << 24;
    for (let k = 0; k < 8; k++) c = c & 0x80000000 ? (c << 1) ^ 0x04c11db7 : c << 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function oggCrc(bytes: Uint8Array, from: number, to: number): number {
  let c = 0;
  for (let i = from; i < to; i++) c = (c << 8) ^ OGG_CRC[((c >>> 24) ^ bytes[i]) & 0xff];
  return c >>> 0;
}

/** The loop's Opus packets (back to back, as frames), its OpusHead and the head's pre-skip (48 kHz samples). */
interface OpusLoop extends FrameLoop {
  head: Uint8Array;
  preSkip: number;
  packets: Uint8Array[];
}

const opusLoop = memo((v): OpusLoop => {
  const head = fromBase64(loops().opusLoops[v].head);
  const packed = fromBase64(loops().opusLoops[v].packets);
  const lengths: number[] = [];
  for (let at = 0; at < packed.length; at += 2 + lengths[lengths.length - 1]) lengths.push((packed[at] << 8) | packed[at + 1]);
  const bytes = new Uint8Array(packed.length - 2 * lengths.length);
  const offsets = [0];
  for (let i = 0, from = 0; i < lengths.length; i++) {
    bytes.set(packed.subarray(from + 2, from + 2 + lengths[i]), offsets[i]);
    offsets.push(offsets[i] + lengths[i]);
    from += 2 + lengths[i];
  }
  const packets = lengths.map((_, i) => bytes.subarray(offsets[i], offsets[i + 1]));
  return { head, preSkip: head[10] | (head[11] << 8), bytes, offsets, packets };
});

const OPUS_TAGS = (() => {
  const vendor = new TextEncoder().encode('mediagen-mock');
  const out = new Uint8Array(8 + 4 + vendor.length + 4);
  out.set(new TextEncoder().encode('OpusTags'), 0);
  new DataView(out.buffer).setUint32(8, vendor.length, true);
  out.set(vendor, 12); // then zero user comments
  return out;
})();

const PACKETS_PER_PAGE = 50; // one second

function renderOggOpus(durationMs: number, variant: number): Uint8Array {
  const loop = opusLoop(variant);
  const play = Math.max(1, Math.round(durationMs * 48)); // 48 kHz samples after pre-skip
  const count = Math.ceil((play + loop.preSkip) / OPUS_PACKET_48K);
  const packet = (k: number) => loop.packets[k % loop.packets.length];
  const lacing = (len: number) => Math.floor(len / 255) + 1;
  // Plan the audio pages: up to a second of packets, at most 255 lacing values.
  const pages: { from: number; to: number; segments: number; body: number }[] = [];
  let size = 27 + 1 + loop.head.length + 27 + lacing(OPUS_TAGS.length) + OPUS_TAGS.length;
  for (let k = 0; k < count;) {
    const page = { from: k, to: k, segments: 0, body: 0 };
    while (page.to < count && page.to - page.from < PACKETS_PER_PAGE && page.segments + lacing(packet(page.to).length) <= 255) {
      page.segments += lacing(packet(page.to).length);
      page.body += packet(page.to).length;
      page.to++;
    }
    pages.push(page);
    size += 27 + page.segments + page.body;
    k = page.to;
  }
  const out = new Uint8Array(size);
  const dv = new DataView(out.buffer);
  const serial = hash32('ogg-opus', variant % loopVariants);
  let at = 0;
  let seq = 0;
  const pageHeader = (flags: number, granule: number, segments: number) => {
    out.set([0x4f, 0x67, 0x67, 0x53, 0, flags], at); // "OggS", version 0
    dv.setUint32(at + 6, granule % 0x100000000, true);
    dv.setUint32(at + 10, Math.floor(granule / 0x100000000), true);
    dv.setUint32(at + 14, serial, true);
    dv.setUint32(at + 18, seq++, true);
    out[at + 26] = segments;
    const start = at;
    at += 27;
    return start;
  };
  const lace = (len: number) => {
    for (; len >= 255; len -= 255) out[at++] = 255;
    out[at++] = len;
  };
  const seal = (start: number) => dv.setUint32(start + 22, oggCrc(out, start, at), true);
  for (const [bytes, flags] of [
    [loop.head, 0x02],
    [OPUS_TAGS, 0],
  ] as const) {
    const start = pageHeader(flags, 0, lacing(bytes.length));
    lace(bytes.length);
    out.set(bytes, at);
    at += bytes.length;
    seal(start);
  }
  for (let p = 0; p < pages.length; p++) {
    const { from, to, segments } = pages[p];
    const last = p === pages.length - 1;
    const start = pageHeader(last ? 0x04 : 0, last ? loop.preSkip + play : to * OPUS_PACKET_48K, segments);
    for (let k = from; k < to; k++) lace(packet(k).length);
    for (let k = from; k < to; k++) {
      const data = packet(k);
      out.set(data, at);
      at += data.length;
    }
    seal(start);
  }
  return out;
}

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
function flacStream(durationMs: number, variant: number): { bytes: Uint8Array; frames: number[]; streamInfo: Uint8Array } {
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
  // "fLaC", then the STREAMINFO block (the last metadata block). MD5 left zero: "not computed", as the format allows.
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
  return { bytes: out, frames, streamInfo: out.slice(0, 42) };
}

// ---------------------------------------------------------------------------
// Public API

/**
 * Renders `durationMs` (ms, > 0, at most `audioMaxDurationMs`) of audio in
 * `format`, 24 kHz mono, pitch `variant` (an integer >= 0, taken modulo 6):
 * the bytes of a file of that format (`audioFileTypes` of schemas/media.ts);
 * pcm is raw 16-bit little-endian samples, no header. The decoded length is the
 * duration exactly (wav, pcm, flac, opus) or to the nearest whole frame (mp3:
 * 24 ms, aac: 42.7 ms; at least 120 and 128 ms, `audioMinFrames`). The same
 * inputs give the same bytes.
 * Throws RangeError for a duration <= 0, over the limit or not finite, or a bad variant.
 * Serves document 2, "POST /v1/tts and POST /v1/audio/speech" (all six formats)
 * and "Podcast episode" (the episode's MP3).
 */
export async function renderAudio(spec: { format: AudioFormat; durationMs: number; variant: number }): Promise<Uint8Array> {
  const { format, durationMs, variant } = spec;
  checkSpec(durationMs, variant);
  await loadAudioLoops();
  switch (format) {
    case 'mp3':
    case 'aac':
      return audioFrames(format, variant, 0, audioFrameCount(format, durationMs));
    case 'opus':
      return renderOggOpus(durationMs, variant);
    case 'flac':
      return flacStream(durationMs, variant).bytes;
    case 'wav':
      return renderWav(durationMs, variant);
    case 'pcm':
      return renderPcm(durationMs, variant, 0);
    default:
      throw new RangeError(`unknown audio format ${String(format)}`);
  }
}

/** Loops of PCM per chunk of a streamed wav or pcm body (10 loops: 19.2 s, 900 KiB). */
const PCM_CHUNK_LOOPS = 10;
/** Frames per chunk of a streamed mp3 (1,000 frames: 24 s) or aac (500 frames: 21.3 s) body. */
const STREAM_FRAMES = { mp3: 1000, aac: 500 } as const;

/**
 * The bytes of `renderAudio(spec)`, in chunks, made as they are read: mp3
 * and aac a run of frames at a time, wav and pcm ten loops (19.2 s) of
 * samples at a time (after the wav header), so a long body never sits in
 * memory whole; opus and flac are rendered whole and given as one chunk.
 * Joined, the chunks are exactly `renderAudio(spec)`.
 * Throws RangeError as `renderAudio`, before the first chunk.
 * Serves document 2, "POST /v1/tts and POST /v1/audio/speech" ("binary audio streamed as generated").
 */
export function streamAudio(spec: { format: AudioFormat; durationMs: number; variant: number }): AsyncIterable<Uint8Array> {
  const { format, durationMs, variant } = spec;
  checkSpec(durationMs, variant);
  async function* chunks(): AsyncGenerator<Uint8Array> {
    await loadAudioLoops();
    if (format === 'mp3' || format === 'aac') {
      const total = audioFrameCount(format, durationMs);
      for (let at = 0; at < total; at += STREAM_FRAMES[format]) yield audioFrames(format, variant, at, Math.min(total, at + STREAM_FRAMES[format]));
      return;
    }
    if (format === 'wav' || format === 'pcm') {
      const total = sampleCount(durationMs);
      if (format === 'wav') yield wavHeader(total * 2);
      const pattern = pcmLoop(variant);
      const perChunk = PCM_CHUNK_LOOPS * pattern.length;
      for (let at = 0; at < total * 2; at += perChunk) {
        const out = new Uint8Array(Math.min(perChunk, total * 2 - at));
        fillCyclic(out, pattern, 0);
        yield out;
      }
      return;
    }
    yield await renderAudio(spec);
  }
  return chunks();
}

/**
 * The encoded packets of `durationMs` (ms, > 0) of audio in `codec`, 24 kHz
 * mono, pitch `variant` (as `renderAudio`), with the decoder configuration, to
 * mux into a container (an MP4's sound track): timestamps and durations in
 * seconds, from 0, packets back to back. `description` is the
 * AudioSpecificConfig (aac, codec `mp4a.40.2`), the OpusHead (opus; its
 * pre-skip of the decoder's first samples applies) or "fLaC" and the
 * STREAMINFO block (flac); mp3 has none. The packets are whole frames (the
 * last flac one may be shorter), so their durations sum to the duration within
 * half a frame (flac: exactly; aac and mp3: at least `audioMinFrames`; opus:
 * 20 ms packets, at least one). The packets' data are views into one new
 * array per call (mp3, flac: the file's bytes).
 * Throws RangeError as `renderAudio`.
 * Serves the sound track of videos (document 2, as the rendered audio).
 */
export async function encodedAudio(codec: 'aac' | 'mp3' | 'opus' | 'flac', durationMs: number, variant: number): Promise<EncodedAudio> {
  checkSpec(durationMs, variant);
  await loadAudioLoops();
  const packets: EncodedAudioPacket[] = [];
  const base = { sampleRate: RATE, numberOfChannels: 1 };
  if (codec === 'mp3' || codec === 'aac') {
    const duration = audioFrameSamples[codec] / RATE;
    const count = audioFrameCount(codec, durationMs);
    const { bytes, start } = loopRange(frameLoop(codec, variant), 0, count);
    const headers = codec === 'aac' ? aacLoop(variant).headerBytes : undefined; // raw AAC: without the ADTS header
    for (let k = 0; k < count; k++) {
      const skip = headers ? headers[k % headers.length] : 0;
      packets.push({ data: bytes.subarray(start(k) + skip, start(k + 1)), timestamp: k * duration, duration });
    }
    if (codec === 'mp3') return { codec: 'mp3', ...base, packets };
    const b = bytes;
    const objectType = (b[2] >> 6) + 1;
    const rateIndex = (b[2] >> 2) & 15;
    const channels = ((b[2] & 1) << 2) | (b[3] >> 6);
    const asc = (objectType << 11) | (rateIndex << 7) | (channels << 3);
    return { codec: `mp4a.40.${objectType}`, ...base, description: new Uint8Array([asc >> 8, asc & 0xff]), packets };
  }
  if (codec === 'opus') {
    const loop = opusLoop(variant);
    const count = Math.max(1, Math.round(durationMs / 20));
    const { bytes, start } = loopRange(loop, 0, count);
    for (let k = 0; k < count; k++) packets.push({ data: bytes.subarray(start(k), start(k + 1)), timestamp: k * 0.02, duration: 0.02 });
    return { codec: 'opus', ...base, description: loop.head.slice(), packets };
  }
  if (codec === 'flac') {
    const { bytes, frames, streamInfo } = flacStream(durationMs, variant);
    let sample = 0;
    const total = sampleCount(durationMs);
    for (let k = 0; k + 1 < frames.length; k++) {
      const n = Math.min(FLAC_BLOCK, total - sample);
      packets.push({ data: bytes.subarray(frames[k], frames[k + 1]), timestamp: sample / RATE, duration: n / RATE });
      sample += n;
    }
    return { codec: 'flac', ...base, description: streamInfo, packets };
  }
  throw new RangeError(`unknown audio codec ${String(codec)}`);
}
