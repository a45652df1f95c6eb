/**
 * Spoken audio: the injected speech engine's interface, the voice a speaker
 * speaks with, and the encoders that turn its samples into the files the
 * speech endpoints declare (document 2, speech sections).
 *
 * A `SpeechSynth` is passed in by the host (the Node transports give the
 * eSpeak NG one of mock/http/espeak.ts when the program is installed; the
 * browser and a machine without it give none, and the renderers keep their
 * tones). It turns one piece of text and a voice into 16-bit samples at its
 * own rate; `speak` resamples them to the mock's 24 kHz. Everything here is
 * deterministic: the same samples give the same bytes.
 *
 * MP3 is encoded with lamejs (LAME in JavaScript; the committed loops of
 * audio.ts cannot carry words) at 48 kbit/s, MPEG-2 Layer III, 24 kHz mono.
 * `encodeSpeechMp3(pcm, frames)` gives exactly `frames` 24 ms frames, so the
 * decoded length is the duration the JSON answers give; LAME's delay (1,105
 * samples, 46 ms) shifts the words that much later in the file.
 * Standard JavaScript only.
 */
import { hash32 } from '../engine/rng.ts';

/** The mock's audio rate, Hz (24 kHz mono, as every rendered file). */
export const SPEECH_RATE = 24_000;
/** Samples of one MP3 frame at 24 kHz (24 ms). */
export const SPEECH_FRAME = 576;

/** The voice a line is spoken in: a language, a timbre (an eSpeak NG variant name), a pitch (0-99) and a rate (words a minute). */
export interface SpeechVoice {
  language: string;
  variant: string;
  pitch: number;
  wordsPerMinute: number;
}

/** Samples of rendered speech: 16-bit signed, mono, at `sampleRate` Hz. */
export interface SpeechPcm {
  samples: Int16Array;
  sampleRate: number;
}

/**
 * A speech engine: text and a voice in, samples out. `id` names the engine and
 * its version (it is part of every cache key, so another version never serves
 * bytes of an earlier one). `render` rejects when the engine fails or times
 * out; the caller then falls back to tones for that piece.
 */
export interface SpeechSynth {
  readonly id: string;
  render(text: string, voice: SpeechVoice): Promise<SpeechPcm>;
}

const FEMALE = ['f1', 'f2', 'f3', 'f4', 'f5', 'klatt3'];
const MALE = ['m1', 'm2', 'm3', 'm4', 'm5', 'm7'];
/** eSpeak NG voice names of the catalogue's languages (Chinese is Mandarin, `cmn`). */
const VOICE_OF: Record<string, string> = { en: 'en-us', zh: 'cmn' };

/**
 * The voice of a speaker: its language's eSpeak NG voice, a variant of its
 * gender picked by `timbre` (distinct timbres within a script give distinct
 * variants), a pitch from the speaker id's hash (35-64) and 175 words a minute
 * times `speed` (0.5-2; eSpeak NG takes 80-450).
 */
export function speechVoice(speakerId: string, language: string, gender: string, timbre: number, speed: number): SpeechVoice {
  const variants = gender === 'male' ? MALE : FEMALE;
  return {
    language: VOICE_OF[language] ?? language,
    variant: variants[timbre % variants.length],
    pitch: 35 + (hash32('speech-pitch', speakerId) % 30),
    wordsPerMinute: Math.min(450, Math.max(80, Math.round(175 * speed))),
  };
}

/** A short text naming `voice` (part of cache keys). */
export const voiceKey = (v: SpeechVoice) => `${v.language}+${v.variant} p${v.pitch} s${v.wordsPerMinute}`;

/** `pcm` at 24 kHz: linear interpolation between neighbouring samples (the same input gives the same output). */
export function resample(pcm: SpeechPcm): Int16Array {
  const { samples, sampleRate } = pcm;
  if (sampleRate === SPEECH_RATE) return samples;
  const n = Math.floor((samples.length * SPEECH_RATE) / sampleRate);
  const out = new Int16Array(n);
  for (let i = 0; i < n; i++) {
    const x = (i * sampleRate) / SPEECH_RATE;
    const j = Math.floor(x);
    const a = samples[j];
    const b = j + 1 < samples.length ? samples[j + 1] : a;
    out[i] = Math.round(a + (b - a) * (x - j));
  }
  return out;
}

/** Sentences of `text` to speak one at a time (ends at . ! ? 。 ！ ？ and line breaks); the whole text when it has none. */
export function speechPieces(text: string): string[] {
  const parts = (text.match(/[^.!?。！？\n]+[.!?。！？]*/g) ?? []).map((s) => s.trim()).filter((s) => /[\p{L}\p{N}]/u.test(s));
  return parts.length > 0 ? parts : [text];
}

/** Samples of whole MP3 frames that hold `samples` samples (at least `minFrames` frames). */
export const framesFor = (samples: number, minFrames = 5) => Math.max(minFrames, Math.ceil(samples / SPEECH_FRAME));

/** LAME's delay at 24 kHz: the encoder's output is this many samples later than its input (576 + 529). */
export const speechMp3DelaySamples = 1105;
/** Samples encoded per step; the encoder yields to the event loop between steps, so a long file does not hold up other requests. */
const ENCODE_STEP = SPEECH_FRAME * 200;

/**
 * An MP3 (MPEG-2 Layer III, 24 kHz mono, 48 kbit/s CBR, no ID3 or Xing
 * header) of exactly `frames` frames from `pcm` (24 kHz samples; cut or
 * padded with silence to `frames * 576 - 1152`, the input LAME turns into
 * `frames` frames). Rejects a `frames` below 5.
 */
export async function encodeSpeechMp3(pcm: Int16Array, frames: number): Promise<Uint8Array> {
  if (!Number.isInteger(frames) || frames < 5) throw new RangeError(`speech mp3: frames must be an integer >= 5, got ${frames}`);
  const input = new Int16Array(frames * SPEECH_FRAME - 2 * SPEECH_FRAME);
  input.set(pcm.subarray(0, input.length));
  // loaded on first use: a browser (which has no speech engine) never fetches it
  const { Mp3Encoder } = await import('@breezystack/lamejs');
  const enc = new Mp3Encoder(1, SPEECH_RATE, 48);
  const parts: Uint8Array[] = [];
  for (let at = 0; at < input.length; at += ENCODE_STEP) {
    parts.push(enc.encodeBuffer(input.subarray(at, Math.min(input.length, at + ENCODE_STEP))));
    if (at + ENCODE_STEP < input.length) await new Promise<void>((resolve) => setTimeout(resolve, 0));
  }
  parts.push(enc.flush());
  let size = 0;
  for (const p of parts) size += p.length;
  const out = new Uint8Array(size);
  size = 0;
  for (const p of parts) {
    out.set(p, size);
    size += p.length;
  }
  return out;
}

/** A WAV file (RIFF, 16-bit PCM, 24 kHz mono) of `pcm`. */
export function speechWav(pcm: Int16Array): Uint8Array {
  const out = new Uint8Array(44 + pcm.length * 2);
  const dv = new DataView(out.buffer);
  const ascii = (at: number, s: string) => {
    for (let i = 0; i < s.length; i++) out[at + i] = s.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  dv.setUint32(4, 36 + pcm.length * 2, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  dv.setUint32(16, 16, true);
  dv.setUint16(20, 1, true);
  dv.setUint16(22, 1, true);
  dv.setUint32(24, SPEECH_RATE, true);
  dv.setUint32(28, SPEECH_RATE * 2, true);
  dv.setUint16(32, 2, true);
  dv.setUint16(34, 16, true);
  ascii(36, 'data');
  dv.setUint32(40, pcm.length * 2, true);
  out.set(speechRawPcm(pcm), 44);
  return out;
}

/** Raw 16-bit little-endian samples of `pcm` (the `pcm` format: no header). */
export function speechRawPcm(pcm: Int16Array): Uint8Array {
  const out = new Uint8Array(pcm.length * 2);
  const dv = new DataView(out.buffer);
  for (let i = 0; i < pcm.length; i++) dv.setInt16(i * 2, pcm[i], true);
  return out;
}
