/**
 * The binary TTS endpoints in words (document 2, "POST /v1/tts and POST
 * /v1/audio/speech"): with the world's speech engine, the input is rendered a
 * sentence at a time and encoded in the requested format. mp3 (whole 24 ms
 * frames), wav and pcm (the samples exactly) carry the words; opus, aac and
 * flac keep their tones, of the spoken length (the mock has no encoder of
 * those from samples). Standard JavaScript only.
 */
import type { TtsRequest } from '../../schemas/speech.ts';
import type { Engine } from '../engine/engine.ts';
import { renderAudio } from '../media/audio.ts';
import { encodeSpeechMp3, framesFor, SPEECH_FRAME, SPEECH_RATE, speechRawPcm, speechWav } from '../media/speech.ts';
import { speakText, spokenPcm } from './spoken.ts';
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
    else if (format === 'wav') yield speechWav(pcm.subarray(0, samples));
    else if (format === 'pcm') yield speechRawPcm(pcm.subarray(0, samples));
    else yield await renderAudio({ format, durationMs: (Math.max(samples, 5 * SPEECH_FRAME) * 1000) / SPEECH_RATE, variant: voice.variant });
  }
  return chunks();
}
