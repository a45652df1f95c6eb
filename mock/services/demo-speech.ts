/**
 * Demo clips of voices (document 2, "Speakers": each listed voice's
 * `demoAudioUrl`; "Voice cloning": a completed clone's demo) spoken in words
 * when the world has a speech engine: a short sentence in the voice's
 * language ("Hello, I am Ava. This is my voice."), in the eSpeak NG voice the
 * speaker gets everywhere else (`speechVoice`: its language, gender and a
 * pitch from its id), as an MP3 of the clip's declared length (the words
 * first, then silence; a sentence too long for the clip is spoken faster). Without an engine, or when it
 * fails, the clip keeps its tones. Standard JavaScript only.
 */
import { audioFileTypes } from '../../schemas/media.ts';
import type { Engine } from '../engine/engine.ts';
import { hash32 } from '../engine/rng.ts';
import { audioFrameCount, renderAudio } from '../media/audio.ts';
import { SPEECH_RATE } from '../media/speech.ts';
import type { MediaAsset } from './context.ts';
import { speakText, speechSynthOf, spokenMp3, type Speaker } from './spoken.ts';

/** The demo sentence in each catalogue language: a greeting, the voice's name when it has one, and "this is my voice". */
const DEMO_TEXT: Record<string, (name?: string) => string> = {
  en: (n) => `Hello${n ? `, I am ${n}` : ''}. This is my voice.`,
  zh: (n) => `你好${n ? `，我是${n}` : ''}。这是我的声音。`,
  ja: (n) => `こんにちは${n ? `、${n}です` : ''}。これが私の声です。`,
  es: (n) => `Hola${n ? `, soy ${n}` : ''}. Esta es mi voz.`,
  pt: (n) => `Olá${n ? `, eu sou ${n}` : ''}. Esta é a minha voz.`,
  fr: (n) => `Bonjour${n ? `, je suis ${n}` : ''}. Voici ma voix.`,
  de: (n) => `Hallo${n ? `, ich bin ${n}` : ''}. Das ist meine Stimme.`,
  tr: (n) => `Merhaba${n ? `, ben ${n}` : ''}. Bu benim sesim.`,
  ko: (n) => `안녕하세요${n ? `, 저는 ${n}입니다` : ''}. 이것이 제 목소리입니다.`,
  it: (n) => `Ciao${n ? `, sono ${n}` : ''}. Questa è la mia voce.`,
  th: (n) => `สวัสดี${n ? ` ฉันชื่อ ${n}` : ''} นี่คือเสียงของฉัน`,
  vi: (n) => `Xin chào${n ? `, tôi là ${n}` : ''}. Đây là giọng nói của tôi.`,
};

/** The sentence a demo of a voice in `language` named `name` speaks (English for a language without one); a name is cut to 24 characters. */
export function demoText(language: string, name?: string): string {
  const short = name === undefined ? undefined : [...name.trim()].slice(0, 24).join('') || undefined;
  return (DEMO_TEXT[language] ?? DEMO_TEXT.en)(short);
}

/**
 * The hosted demo clip of `speaker` (its id seeds the pitch; its language and
 * gender pick the eSpeak NG voice), `durationMs` long: words when `engine`
 * has a speech engine, else tones of `variant`. The key names the engine,
 * the voice and the words, so a clip in words never answers for one in tones.
 */
export function demoAsset(engine: Engine, speaker: Speaker & { name?: string }, durationMs: number, variant: number): MediaAsset {
  const synth = speechSynthOf(engine);
  const tones = () => renderAudio({ format: 'mp3', durationMs, variant });
  if (!synth) return { contentType: audioFileTypes.mp3.contentType, key: `voice demo ${durationMs} ${variant}`, render: tones };
  const text = demoText(speaker.language, speaker.name);
  return {
    contentType: audioFileTypes.mp3.contentType,
    key: `voice demo ${durationMs} ${variant} ${synth.id} ${speaker.speakerId} ${speaker.language}/${speaker.gender}/${speaker.timbre} ${hash32(text).toString(36)}`,
    async render() {
      let speech = await speakText(engine, text, speaker, 1);
      // a sentence that would not end 300 ms before the clip does is spoken again faster (at most twice as fast)
      const room = ((durationMs - 300) * SPEECH_RATE) / 1000;
      const spoken = speech?.pieces.reduce((n, p) => n + p.samples, 0) ?? 0;
      if (speech && spoken > room) speech = await speakText(engine, text, speaker, Math.min(2, Math.ceil((spoken / room) * 1.1 * 20) / 20));
      if (!speech) return tones();
      return spokenMp3(engine, speech, audioFrameCount('mp3', durationMs));
    },
  };
}
