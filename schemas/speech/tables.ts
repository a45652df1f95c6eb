/**
 * Speech tables (schemas/speech.ts re-exports them): text limits, speed,
 * languages, prices, the speaking-rate model, the built-in speakers and the
 * episode schedule. Seed: document 2, "Speech endpoints at a glance",
 * "Limits"; prices, the rate model, the voices and the schedule are assumed
 * (`speechTableAssumptions`).
 */
import { AUDIO_TIMBRES, type audioFormats } from '../media.ts';
import { charCount } from '../text.ts';

// ---------------------------------------------------------------------------
// Tables
// ---------------------------------------------------------------------------

/** Longest TTS input and longest combined script, in characters (Unicode code points) (document 2, "Limits"). */
export const SPEECH_MAX_CHARS = 20_000;
/** Flow-speech text source length, characters (document 2, "Limits": "text 10-20,000 characters"). */
export const FLOW_SPEECH_TEXT_CHARS = { min: 10, max: 20_000 } as const;
/** The speaking rate multiplier (document 2, "Limits": 0.5-2.0, at most two decimals, default 1). */
export const speechSpeed = { min: 0.5, max: 2, default: 1 } as const;
/** Languages of flow-speech episodes (document 2, "POST /v1/flow-speech/episodes"). */
export const flowSpeechLanguages = ['en', 'zh', 'ja'] as const;
export type FlowSpeechLanguage = (typeof flowSpeechLanguages)[number];
/** Languages of voices: the voice-clone languages (document 2, "Voice cloning"), which include en, zh and ja. */
export const voiceLanguages = ['en', 'zh', 'ja', 'es', 'pt', 'fr', 'de', 'tr', 'ko', 'it', 'th', 'vi'] as const;
export type VoiceLanguage = (typeof voiceLanguages)[number];
export const voiceGenders = ['male', 'female', 'other'] as const;
/** Flow-speech modes (document 2): smart cleans punctuation, grammar and formatting; direct reads verbatim. */
export const flowSpeechModes = ['smart', 'direct'] as const;
/** processStatus of an episode (document 2, "Flow-speech episode"). */
export const episodeStatuses = ['pending', 'success', 'fail'] as const;
export type EpisodeStatus = (typeof episodeStatuses)[number];
/** How long the subtitles of POST /v1/speech stay valid, ms (document 2: "SRT URL, valid 24 hours"). */
export const SPEECH_SUBTITLES_VALID_MS = 24 * 3_600_000;

/**
 * Content-Type of the TTS answer by response_format (document 2: audio/mpeg
 * for every format except opus, which is OGG/Opus as audio/ogg). The bytes are
 * of the requested format whatever the header says.
 */
export const ttsContentType = (format: (typeof audioFormats)[number]): string => (format === 'opus' ? 'audio/ogg' : 'audio/mpeg');
export const ttsContentTypes = ['audio/mpeg', 'audio/ogg'] as const;

/**
 * Price of speech (assumed: the seed shows no speech price): 1 credit per
 * `charsPerCredit` characters of text spoken, rounded up, at least 1. The same
 * rule on every speech endpoint; an episode from a page is priced on the text
 * it narrates.
 */
export const speechPricing = { charsPerCredit: 100, minCredits: 1 } as const;

/** Credits of speaking `chars` characters (code points): max(1, ceil(chars / 100)). */
export function speechCredits(chars: number): number {
  return Math.max(speechPricing.minCredits, Math.ceil(chars / speechPricing.charsPerCredit));
}

/**
 * The speaking-rate model (assumed: the seed says only that speed is the
 * speaking rate): at speed 1, 150 words a minute (400 ms a word) for text
 * written with spaces, and 240 characters a minute (250 ms a character) for
 * Chinese and Japanese characters (Han, Hiragana, Katakana); a line lasts at
 * least 500 ms; the time divides by `speed`.
 */
export const speakingRate = { msPerWord: 400, msPerCjkChar: 250, minMs: 500 } as const;

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu;
const WORD = /[\p{L}\p{N}]+/gu;

/** Characters of `s` as the limits count them: Unicode code points (as JSON Schema's maxLength). */
export { charCount };

/** What `text` takes to say: its words (written with spaces) and its Chinese and Japanese characters. */
export function speechUnits(text: string): { words: number; cjkChars: number } {
  const cjkChars = text.match(CJK)?.length ?? 0;
  const words = text.replace(CJK, ' ').match(WORD)?.length ?? 0;
  return { words, cjkChars };
}

/** Milliseconds (integer, >= 500 / speed) `text` takes to say at `speed` (0.5-2), by `speakingRate`. */
export function speechDurationMs(text: string, speed: number): number {
  const u = speechUnits(text);
  const atOne = Math.max(speakingRate.minMs, u.words * speakingRate.msPerWord + u.cjkChars * speakingRate.msPerCjkChar);
  return Math.round(atOne / speed);
}

/** The language of `text` when a request leaves it out (document 2: "inferred from the content"): ja with kana, zh with Han characters, else en (assumed rule). */
export function inferLanguage(text: string): FlowSpeechLanguage {
  if (/[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(text)) return 'ja';
  if (/\p{Script=Han}/u.test(text)) return 'zh';
  return 'en';
}

/** A voice of the built-in catalogue (assumed: the seed shows only that speaker ids exist). `variant` picks its timbre in the rendered audio. */
export interface BuiltInSpeaker {
  speakerId: string;
  name: string;
  language: VoiceLanguage;
  gender: (typeof voiceGenders)[number];
  variant: number;
}

const catalogueNames: Record<VoiceLanguage, [female: string, male: string]> = {
  en: ['Ava', 'Noah'],
  zh: ['Mei', 'Wei'],
  ja: ['Yui', 'Haruto'],
  es: ['Lucia', 'Mateo'],
  pt: ['Beatriz', 'Tiago'],
  fr: ['Chloe', 'Louis'],
  de: ['Lena', 'Felix'],
  tr: ['Elif', 'Emre'],
  ko: ['Jiwoo', 'Minjun'],
  it: ['Giulia', 'Luca'],
  th: ['Malee', 'Somchai'],
  vi: ['Linh', 'Minh'],
};

/** The built-in voices: a female and a male voice per voice language, ids `<language>_<name>` (assumed catalogue). */
export const builtInSpeakers: readonly BuiltInSpeaker[] = voiceLanguages.flatMap((language, i) =>
  catalogueNames[language].map((name, j) => ({
    speakerId: `${language}_${name.toLowerCase()}`,
    name,
    language,
    gender: j === 0 ? ('female' as const) : ('male' as const),
    variant: (2 * i + j) % AUDIO_TIMBRES,
  })),
);

/** Side of the square cover PNG of a flow-speech or podcast episode, pixels (assumed). */
export const EPISODE_COVER_SIDE = 1024;

/** Length of a speaker's demo clip, ms (assumed). */
export const SPEAKER_DEMO_MS = 4_000;

/**
 * The simulated schedule of flow-speech episodes (assumed): pending for
 * `baseMs` plus `perAudioSecondMs` for every second of the audio, then
 * success; an episode still pending after `timeoutMs` fails (failCode 35011).
 */
export const flowSpeechSchedule = { baseMs: 3_000, perAudioSecondMs: 100, timeoutMs: 30 * 60_000 } as const;

/** Processing time of an episode whose audio lasts `audioMs`, ms. */
export function flowSpeechProcessingMs(audioMs: number): number {
  return flowSpeechSchedule.baseMs + Math.round((audioMs / 1000) * flowSpeechSchedule.perAudioSecondMs);
}
