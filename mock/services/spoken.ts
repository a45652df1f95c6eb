/**
 * Speech that says its words (document 2, speech sections; document 3,
 * "Page-deck episode"): when the host injects a speech engine
 * (`SpeechSynth`, mock/media/speech.ts: eSpeak NG in the Node transports), a
 * spoken line is rendered sentence by sentence, each sentence measured by its
 * samples, and the line's duration, `audioDuration` and the subtitle cues
 * come from those counts. Without an engine (the browser, a machine without
 * eSpeak NG) lines keep the speaking-rate model and their tones
 * (`decisions/0012-speech-audio.md`).
 *
 * The engine is the world's, set once by the composition (`prepareEngine`
 * with `{speech}`), never a global. A piece the engine fails to render (a
 * crash, a time-out) falls back to tones for its line, with a note through
 * the engine's `onSpeechProblem` hook; never an error to the client.
 * Standard JavaScript only.
 */
import { createSlot, type Engine } from '../engine/engine.ts';
import { hash32 } from '../engine/rng.ts';
import {
  encodeSpeechMp3,
  framesFor,
  resample,
  SPEECH_FRAME,
  SPEECH_RATE,
  speechPieces,
  speechVoice,
  voiceKey,
  type SpeechSynth,
  type SpeechVoice,
} from '../media/speech.ts';

/** What a line spoken by the engine keeps: the engine's id, the voice, and each sentence with its length in 24 kHz samples. */
export interface LineSpeech {
  synth: string;
  voice: SpeechVoice;
  pieces: { text: string; samples: number }[];
}

/** Longest text spoken in words, characters (longer texts keep their tones: bounds the engine's and the MP3 encoder's work per request). */
export const SPEECH_WORDS_MAX_CHARS = 5_000;

interface SpeechSlot {
  synth?: SpeechSynth;
  onProblem?: (problem: string) => void;
  /** Problems told once per world (their keys). */
  told?: Set<string>;
  /** Recently encoded MP3s of spoken lines (oldest first), with their sizes once encoded. */
  mp3s?: Map<string, { bytes: Promise<Uint8Array>; size?: number }>;
}

const speechSlot = createSlot<SpeechSlot>('speech engine', () => ({}));
const slotOf = (engine: Engine) => engine.slot(speechSlot);

/** Gives `engine` its speech engine (undefined: tones) and where its problems are told (a log). Called by the composition. */
export function setSpeechSynth(engine: Engine, synth: SpeechSynth | undefined, onProblem?: (problem: string) => void): void {
  const slot = slotOf(engine);
  slot.synth = synth;
  slot.onProblem = onProblem;
}

/** The engine's speech engine, or undefined (tones). */
export const speechSynthOf = (engine: Engine): SpeechSynth | undefined => slotOf(engine).synth;

/** Tells the host a speech problem (the piece then keeps its tones). */
export function speechProblem(engine: Engine, text: string): void {
  slotOf(engine).onProblem?.(text);
}

/** Tells the host `text` the first time `key` comes up on `engine` (a lasting condition, not a failure of one request). */
export function speechNoticeOnce(engine: Engine, key: string, text: string): void {
  const slot = slotOf(engine);
  slot.told ??= new Set();
  if (slot.told.has(key)) return;
  slot.told.add(key);
  slot.onProblem?.(text);
}

/** A speaker as the engine needs it. */
export interface Speaker {
  speakerId: string;
  language: string;
  gender: string;
  /** Its timbre within the script (distinct speakers: distinct timbres). */
  timbre: number;
}

/**
 * Renders `text` in `speaker`'s voice at `speed`, a sentence at a time, and
 * measures each sentence; undefined when there is no engine, the text is
 * over `SPEECH_WORDS_MAX_CHARS`, or a sentence fails (told to the host).
 */
export async function speakText(engine: Engine, text: string, speaker: Speaker, speed: number): Promise<LineSpeech | undefined> {
  const synth = speechSynthOf(engine);
  if (!synth || [...text].length > SPEECH_WORDS_MAX_CHARS) return undefined;
  const voice = speechVoice(speaker.speakerId, speaker.language, speaker.gender, speaker.timbre, speed);
  try {
    const pieces = await Promise.all(speechPieces(text).map(async (t) => ({ text: t, samples: resample(await synth.render(t, voice)).length })));
    return { synth: synth.id, voice, pieces };
  } catch (e) {
    speechProblem(engine, `speech: ${synth.id} failed (${e instanceof Error ? e.message : String(e)}); tones for "${text.slice(0, 40)}"`);
    return undefined;
  }
}

/** MP3 frames of a spoken line: its samples to whole 24 ms frames (at least 5). */
export const spokenFrames = (s: LineSpeech) => framesFor(s.pieces.reduce((n, p) => n + p.samples, 0));

/**
 * The samples (24 kHz) of a spoken line, `frames * 576` of them: each
 * sentence rendered again (the engine caches its renders) and cut or padded
 * to its measured length; a sentence the engine fails on now is silence of
 * that length (told to the host), so the file keeps its declared duration.
 */
export async function spokenPcm(engine: Engine, s: LineSpeech, frames: number): Promise<Int16Array> {
  const out = new Int16Array(frames * SPEECH_FRAME);
  const synth = speechSynthOf(engine);
  let at = 0;
  const rendered = await Promise.all(
    s.pieces.map(async (p) => {
      if (!synth || synth.id !== s.synth) return undefined;
      try {
        return resample(await synth.render(p.text, s.voice));
      } catch (e) {
        speechProblem(engine, `speech: ${synth.id} failed again (${e instanceof Error ? e.message : String(e)}); silence for "${p.text.slice(0, 40)}"`);
        return undefined;
      }
    }),
  );
  s.pieces.forEach((p, i) => {
    const pcm = rendered[i];
    if (pcm && at < out.length) out.set(pcm.subarray(0, Math.min(p.samples, out.length - at)), at);
    at += p.samples;
  });
  return out;
}

/** Where each sentence of a spoken line starts and ends within the line, ms from the line's start (the last ends at `lineMs`). */
export function pieceTimes(s: LineSpeech, lineMs: number): { text: string; startMs: number; endMs: number }[] {
  let at = 0;
  return s.pieces.map((p, i) => {
    const startMs = Math.round((at * 1000) / SPEECH_RATE);
    at += p.samples;
    const endMs = i === s.pieces.length - 1 ? lineMs : Math.round((at * 1000) / SPEECH_RATE);
    return { text: p.text, startMs, endMs };
  });
}

/** Bytes of encoded line MP3s a world keeps (`spokenMp3`): a few minutes of speech at 48 kbit/s. */
const MP3_KEEP_BYTES = 8 * 1024 * 1024;

/**
 * The MP3 of a spoken line, exactly `frames` frames (`encodeSpeechMp3` of
 * `spokenPcm`), kept while the world's recent encodes stay under 8 MiB, so
 * the HLS segments that cut one line (mock/services/narration.ts) encode it
 * once, not once a segment. Rejects as `encodeSpeechMp3`.
 */
export function spokenMp3(engine: Engine, s: LineSpeech, frames: number): Promise<Uint8Array> {
  const cache = (slotOf(engine).mp3s ??= new Map<string, { bytes: Promise<Uint8Array>; size?: number }>());
  const key = `${s.synth} ${voiceKey(s.voice)} ${frames} ${s.pieces.map((p) => `${p.samples}:${hash32(p.text).toString(36)}`).join(',')}`;
  const hit = cache.get(key);
  if (hit) return hit.bytes;
  const entry: { bytes: Promise<Uint8Array>; size?: number } = { bytes: (async () => encodeSpeechMp3(await spokenPcm(engine, s, frames), frames))() };
  cache.set(key, entry);
  entry.bytes.then(
    (b) => {
      entry.size = b.length;
      let total = 0;
      for (const e of cache.values()) total += e.size ?? 0;
      for (const [k, e] of cache) {
        if (total <= MP3_KEEP_BYTES) break;
        if (k === key || e.size === undefined) continue;
        total -= e.size;
        cache.delete(k);
      }
    },
    () => cache.delete(key),
  );
  return entry.bytes;
}
