/**
 * Whole files in words: the binary TTS endpoints (document 2, "POST /v1/tts
 * and POST /v1/audio/speech") and generated audio's dialogue ("Generated-audio
 * task"). With the world's speech engine, the input is rendered a
 * sentence at a time and encoded in the requested format. mp3 (whole 24 ms
 * frames), aac (whole 1024-sample ADTS frames, the words one frame late: the
 * spoken length rounded to frames, as the tones),
 * opus, flac, wav and pcm (the samples exactly) carry the words; an encoder
 * that fails answers tones of the spoken length, told to the host
 * (mock/media/speech-codecs.ts). Standard JavaScript only.
 */
import { DIALOGUE_TAG } from '../../schemas/generated-audio.ts';
import type { AudioFormat } from '../../schemas/media.ts';
import { inferLanguage, type TtsRequest } from '../../schemas/speech.ts';
import type { Engine } from '../engine/engine.ts';
import { audioFrameCount, renderAudio } from '../media/audio.ts';
import { encodeSpeechMp3, framesFor, SPEECH_FRAME, SPEECH_RATE, speechRawPcm, speechWav } from '../media/speech.ts';
import { speakText, speechProblem, speechSynthOf, spokenFrames, spokenPcm, type LineSpeech } from './spoken.ts';
import type { Voice } from './voices.ts';

/**
 * The body of a TTS answer spoken in words (one chunk), or undefined when the
 * world has no speech engine, the text is too long for it or it failed (the
 * caller then streams tones).
 */
export async function spokenTts(engine: Engine, body: TtsRequest, voice: Voice): Promise<AsyncIterable<Uint8Array> | undefined> {
  const speech = await speakText(
    engine,
    body.input,
    { speakerId: voice.speakerId, language: voice.language, gender: voice.gender, timbre: voice.variant },
    body.speed,
  );
  if (!speech) return undefined;
  const samples = speech.pieces.reduce((n, p) => n + p.samples, 0);
  const frames = framesFor(samples);
  const format = body.response_format;
  async function* chunks(): AsyncGenerator<Uint8Array> {
    const pcm = await spokenPcm(engine, speech!, frames);
    if (format === 'mp3') yield await encodeSpeechMp3(pcm, frames);
    else if (format === 'aac') {
      // the spoken length in whole AAC frames, as the tones; the words one frame late (the encoder's priming)
      const durationMs = (Math.max(samples, 5 * SPEECH_FRAME) * 1000) / SPEECH_RATE;
      const words = await speechAac(engine, pcm.subarray(0, samples), audioFrameCount('aac', durationMs));
      yield words ?? (await renderAudio({ format, durationMs, variant: voice.variant }));
    } else
      yield (
        (await speechFile(engine, format, pcm.subarray(0, samples))) ??
        (await renderAudio({ format, durationMs: (samples * 1000) / SPEECH_RATE, variant: voice.variant }))
      );
  }
  return chunks();
}

/** The formats spoken in words besides mp3: their samples exactly. */
type SampleFormat = Exclude<AudioFormat, 'mp3' | 'aac'>;

/**
 * A file of `pcm` (24 kHz samples) in `format`: opus and flac encoded
 * (mock/media/speech-codecs.ts, loaded on first use), wav and pcm the
 * samples; undefined when the encoder cannot be loaded or fails (told to the
 * host; the caller answers tones of the same length).
 */
async function speechFile(engine: Engine, format: SampleFormat, pcm: Int16Array): Promise<Uint8Array | undefined> {
  if (format === 'wav') return speechWav(pcm);
  if (format === 'pcm') return speechRawPcm(pcm);
  try {
    const codecs = await import('../media/speech-codecs.ts');
    return format === 'opus' ? await codecs.encodeSpeechOpus(pcm) : codecs.encodeSpeechFlac(pcm);
  } catch (e) {
    speechProblem(engine, `speech: the ${format} encoder failed (${e instanceof Error ? e.message : String(e)}); tones of the spoken length`);
    return undefined;
  }
}

/**
 * An ADTS AAC file of `pcm` (24 kHz samples) of `frames` frames, the words
 * one frame late (the encoder's priming; mock/media/speech-codecs.ts, loaded
 * on first use); undefined when the encoder cannot be loaded or fails (told
 * to the host; the caller answers tones of the same length).
 */
async function speechAac(engine: Engine, pcm: Int16Array, frames: number): Promise<Uint8Array | undefined> {
  try {
    const codecs = await import('../media/speech-codecs.ts');
    return await codecs.encodeSpeechAac(pcm, frames);
  } catch (e) {
    speechProblem(engine, `speech: the aac encoder failed (${e instanceof Error ? e.message : String(e)}); tones of the spoken length`);
    return undefined;
  }
}

/**
 * The dialogue of a generated-audio text spoken in words (document 2,
 * "Generated-audio task": a line tagged `@音频N` is voice N's): each line in
 * its voice (a catalogue speaker named by `voices[N-1]`, else a voice derived
 * from the task id and N), timbre N - 1. Undefined without a speech engine or
 * when a line fails (the task keeps its tones).
 */
export async function spokenDialogue(
  engine: Engine,
  taskId: string,
  text: string,
  voices: readonly { type: string; id?: string }[] | undefined,
  known: readonly Voice[],
  speed: number,
): Promise<LineSpeech[] | undefined> {
  if (!speechSynthOf(engine)) return undefined;
  const lines = text
    .split(/\r?\n/)
    .map((l) => ({ n: Number(DIALOGUE_TAG.exec(l)?.[1] ?? 1), text: l.replace(DIALOGUE_TAG, '').trim() }))
    .filter((l) => /[\p{L}\p{N}]/u.test(l.text));
  if (lines.length === 0) return undefined;
  const said = await Promise.all(
    lines.map((l) => {
      const entry = voices?.[l.n - 1];
      const v = entry?.type === 'speaker' ? known.find((k) => k.speakerId === entry.id) : undefined;
      const speaker = v
        ? { speakerId: v.speakerId, language: v.language, gender: v.gender, timbre: l.n - 1 }
        : { speakerId: `${taskId}-voice-${l.n}`, language: inferLanguage(l.text), gender: l.n % 2 === 1 ? 'female' : 'male', timbre: l.n - 1 };
      return speakText(engine, l.text, speaker, speed);
    }),
  );
  return said.every((s) => s !== undefined) ? said : undefined;
}

/** Length of spoken `lines` back to back, ms (each line whole 24 ms frames). */
export const dialogueMs = (lines: readonly LineSpeech[]) => lines.reduce((n, s) => n + spokenFrames(s), 0) * 24;

/**
 * A generated-audio file of spoken `lines` in `format`, `durationMs` long (the
 * words cut or padded with silence to it): mp3 whole frames, opus, flac, wav
 * and pcm exact samples; aac whole frames, the words one frame late.
 */
export async function dialogueFile(
  engine: Engine,
  lines: readonly LineSpeech[],
  format: AudioFormat,
  durationMs: number,
  variant: number,
): Promise<Uint8Array> {
  const parts = await Promise.all(lines.map((s) => spokenPcm(engine, s, spokenFrames(s))));
  const total = Math.round((durationMs * SPEECH_RATE) / 1000);
  const pcm = new Int16Array(Math.max(total, 5 * SPEECH_FRAME));
  let at = 0;
  for (const p of parts) {
    if (at >= pcm.length) break;
    pcm.set(p.subarray(0, pcm.length - at), at);
    at += p.length;
  }
  if (format === 'mp3') return encodeSpeechMp3(pcm, audioFrameCount('mp3', durationMs));
  if (format === 'aac') return (await speechAac(engine, pcm, audioFrameCount('aac', durationMs))) ?? renderAudio({ format, durationMs, variant });
  return (await speechFile(engine, format, pcm.subarray(0, total))) ?? renderAudio({ format, durationMs, variant });
}
