/**
 * Spoken audio in the formats beside MP3 that carry words (document 2, "POST
 * /v1/tts and POST /v1/audio/speech": opus and flac; `decisions/0012-speech-audio.md`):
 *
 * - FLAC is encoded here (audio/flac.ts: fixed predictors and Rice codes),
 *   lossless, exact to the sample.
 * - Ogg Opus: the packets come from libopus compiled to WebAssembly (the npm
 *   package `opusscript`, MIT; libopus itself BSD-3-Clause), imported on first
 *   use like lamejs, so a browser never loads it. 20 ms packets at 32 kbit/s,
 *   complexity 5, 24 kHz mono; the OpusHead's pre-skip (312 at 48 kHz: the
 *   encoder's 6.5 ms look-ahead) makes a decoder drop the encoder's delay, and
 *   the last page's granule position trims the end, so the decoded samples
 *   line up with the input and last exactly as long.
 * - AAC (ADTS, AAC-LC, 24 kHz mono, as the tones' frames): FFmpeg's native
 *   AAC encoder compiled to WebAssembly, the npm package
 *   `@mediabunny/aac-encoder` (MPL-2.0), driven through mediabunny's
 *   encoding pipeline (an ADTS output of an audio sample source), imported on
 *   first use. 48 kbit/s. ADTS cannot say how many samples to skip, so the
 *   encoder's priming (one frame, 1024 samples) stays: the words are 42.7 ms
 *   late, as MP3's are 46 ms (LAME's delay), and the file is exactly the
 *   frames asked for (the input cut or padded to one frame fewer).
 *
 * Deterministic: the same samples give the same bytes (libopus's and FFmpeg's
 * encoders have no randomness; the WebAssembly builds compute the same on
 * every machine).
 * Standard JavaScript only (the encoder module is loaded by dynamic import).
 */
import type * as Mediabunny from 'mediabunny';
import { hash32 } from '../engine/rng.ts';
import { oggOpus } from './audio/opus.ts';
import { flacFromPcm } from './audio/flac.ts';
import { SPEECH_RATE, speechRawPcm } from './speech.ts';

/** Samples of one Opus packet at 24 kHz (20 ms). */
const OPUS_PACKET = 480;
/** The Opus encoder's look-ahead at 24 kHz (2.5 ms + 4 ms), and the pre-skip it needs at 48 kHz. */
const OPUS_LOOKAHEAD = 156;
export const speechOpusPreSkip = OPUS_LOOKAHEAD * 2;
/** Packets encoded per step; the encoder yields to the event loop between steps (10 s of audio). */
const OPUS_STEP = 500;

/** The 19-byte OpusHead of a mono stream: version 1, the pre-skip, 24 kHz input, no gain, mapping family 0. */
function opusHead(): Uint8Array {
  const out = new Uint8Array(19);
  out.set(new TextEncoder().encode('OpusHead'), 0);
  const dv = new DataView(out.buffer);
  out[8] = 1;
  out[9] = 1;
  dv.setUint16(10, speechOpusPreSkip, true);
  dv.setUint32(12, SPEECH_RATE, true);
  return out; // output gain 0, channel mapping family 0
}

/** opusscript's encoder: `encode` takes a packet's samples as 16-bit little-endian bytes. */
interface OpusEncoder {
  encode(bytes: Uint8Array, frameSize: number): Uint8Array;
  setBitrate(bitsPerSecond: number): void;
  encoderCTL(ctl: number, value: number): void;
  delete(): void;
}

/**
 * An Ogg Opus file of `pcm` (24 kHz mono 16-bit samples, at least one):
 * decoded, exactly `pcm.length` samples at 24 kHz (`pcm.length * 2` at Opus's
 * 48 kHz), the words where they are in `pcm`. Rejects when the encoder
 * module cannot be loaded or fails (the caller keeps tones).
 */
export async function encodeSpeechOpus(pcm: Int16Array): Promise<Uint8Array> {
  if (pcm.length === 0) throw new RangeError('speech opus: no samples');
  const count = Math.ceil((pcm.length + OPUS_LOOKAHEAD) / OPUS_PACKET);
  const samples = new Int16Array(count * OPUS_PACKET);
  samples.set(pcm);
  const input = speechRawPcm(samples);
  const mod = (await import('opusscript')) as unknown as { default: new (rate: number, channels: number, application: number) => OpusEncoder };
  const enc = new mod.default(SPEECH_RATE, 1, 2049); // OPUS_APPLICATION_AUDIO
  const packets: Uint8Array[] = [];
  try {
    enc.setBitrate(32_000);
    enc.encoderCTL(4010, 5); // OPUS_SET_COMPLEXITY: 5 of 10 (a quarter of the time of 10, the same size for speech)
    for (let k = 0; k < count; k++) {
      packets.push(enc.encode(input.subarray(k * OPUS_PACKET * 2, (k + 1) * OPUS_PACKET * 2), OPUS_PACKET));
      if ((k + 1) % OPUS_STEP === 0 && k + 1 < count) await new Promise<void>((resolve) => setTimeout(resolve, 0));
    }
  } finally {
    enc.delete();
  }
  return oggOpus(opusHead(), count, (k) => packets[k], pcm.length * 2, hash32('ogg-opus', 'speech'));
}

/** A FLAC file of `pcm` (24 kHz mono 16-bit samples, at least one): lossless, exactly its samples. */
export function encodeSpeechFlac(pcm: Int16Array): Uint8Array {
  return flacFromPcm(pcm);
}

/** Samples of one AAC frame. */
const AAC_FRAME = 1024;
/** The AAC encoder's bit rate, bits a second (mono speech at 24 kHz). */
const AAC_BITRATE = 48_000;

/** Loads mediabunny with the AAC encoder registered (once; a failed load is tried again next time). */
let aacModules: Promise<typeof Mediabunny> | undefined;
function loadAac(): Promise<typeof Mediabunny> {
  aacModules ??= (async () => {
    const [mediabunny, encoder] = await Promise.all([import('mediabunny'), import('@mediabunny/aac-encoder')]);
    encoder.registerAacEncoder();
    return mediabunny;
  })().catch((e: unknown) => {
    aacModules = undefined;
    throw e;
  });
  return aacModules;
}

/**
 * An ADTS AAC file of `pcm` (24 kHz mono 16-bit samples) of exactly `frames`
 * ADTS frames (at least 2; 1024 samples each): the encoder's first frame is
 * its priming, so the words start 1024 samples late, and `pcm` is cut or
 * padded with silence to `frames - 1` frames. Rejects when the encoder module
 * cannot be loaded or fails, or gives another number of frames (the caller
 * keeps tones).
 */
export async function encodeSpeechAac(pcm: Int16Array, frames: number): Promise<Uint8Array> {
  if (!Number.isInteger(frames) || frames < 2) throw new RangeError(`speech aac: frames must be an integer >= 2, got ${frames}`);
  const samples = new Int16Array((frames - 1) * AAC_FRAME);
  samples.set(pcm.subarray(0, samples.length));
  const mb = await loadAac();
  const target = new mb.BufferTarget();
  const output = new mb.Output({ format: new mb.AdtsOutputFormat(), target });
  const source = new mb.AudioSampleSource({ codec: 'aac', bitrate: AAC_BITRATE });
  output.addAudioTrack(source);
  await output.start();
  const sample = new mb.AudioSample({ data: samples, format: 's16', numberOfChannels: 1, sampleRate: SPEECH_RATE, timestamp: 0 });
  try {
    await source.add(sample);
  } finally {
    sample.close();
  }
  await output.finalize();
  const bytes = new Uint8Array(target.buffer!);
  const count = adtsFrames(bytes);
  if (count !== frames) throw new Error(`speech aac: the encoder gave ${count} frames, not ${frames}`);
  return bytes;
}

/** ADTS frames of `bytes` (each header's 13-bit frame length; -1 when a header is missing). */
function adtsFrames(bytes: Uint8Array): number {
  let n = 0;
  for (let at = 0; at < bytes.length; n++) {
    if (bytes[at] !== 0xff || (bytes[at + 1] & 0xf6) !== 0xf0) return -1;
    const length = ((bytes[at + 3] & 3) << 11) | (bytes[at + 4] << 3) | (bytes[at + 5] >> 5);
    if (length < 7) return -1;
    at += length;
  }
  return n;
}
