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
 * - AAC has no encoder here: no npm package gives one that installs from the
 *   registry alone under a licence an MIT package can carry (libav.js's
 *   published variants carry no AAC encoder, ffmpeg.wasm is a GPL build), so
 *   AAC keeps its tones, of the spoken length.
 *
 * Deterministic: the same samples give the same bytes (libopus's encoder has
 * no randomness; the WebAssembly build computes the same on every machine).
 * Standard JavaScript only (the encoder module is loaded by dynamic import).
 */
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
