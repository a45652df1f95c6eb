/**
 * Speech contract: the two binary TTS endpoints (`/v1/tts` and its exact alias
 * `/v1/audio/speech`, which follows the OpenAI SDK's request shape), the
 * multi-voice `/v1/speech`, flow-speech episodes (one voice from a text or a
 * page; multi-voice from a script) and the speaker catalogue.
 *
 * Seed: document 2, "Speech endpoints at a glance", "Flow-speech episode (GET
 * result)", "POST /v1/tts and POST /v1/audio/speech", "POST /v1/speech", "POST
 * /v1/flow-speech/episodes", "GET /v1/flow-speech/episodes/{episodeId}", "POST
 * /v1/flow-speech/episodes/tts", "GET /v1/speakers/list", "Errors", "Limits".
 * Prices, the speaking-rate model, the catalogue's voices, the schedule, the
 * error numbers and statuses are assumed (the seed says they are not shown):
 * each is a table below, listed in `speechTableAssumptions`.
 */
import { z } from './zod.ts';
import { js, rule, withRules, type BodyRule, type JsonSchema, type RuleIssue, type StateRule } from './rules.ts';
import { EpochMs, uriString } from './common.ts';
import { errorCatalog, type ErrorName } from './errors.ts';
import { AUDIO_TIMBRES, audioFormats } from './media.ts';
import { assumed, fromSeed, provenanceMeta, type TableAssumption } from './provenance.ts';
import { defineOperations, operationsWith, json, type Area } from './define.ts';
import { episodeTaskLifecycle } from './lifecycles.ts';
import { charCount, formatCount } from './text.ts';

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

// ---------------------------------------------------------------------------
// Request schemas
// ---------------------------------------------------------------------------

/** True when `v` has at most two decimals (1.25 yes, 1.005 no), tolerant of binary floating point. */
export function atMostTwoDecimals(v: number): boolean {
  return Math.abs(v * 100 - Math.round(v * 100)) < 1e-6;
}

/** Step of `speed`: at most two decimals. */
const SPEED_STEP = 0.01;

/**
 * `speed` of every speech endpoint: 0.5-2.0, at most two decimals, default 1 (document 2). The mock checks the two
 * decimals (Zod's multipleOf, free of binary floating-point error); the emitted schema states them in words and in
 * the operation's `x-rules` (speedRule), not as `multipleOf: 0.01`: ajv, Prism and Python's jsonschema divide in
 * binary floating point and refuse allowed values such as 1.15 (1.15 / 0.01 = 114.99999999999999).
 */
export const SpeechSpeed = z
  .number()
  .min(speechSpeed.min)
  .max(speechSpeed.max)
  .multipleOf(SPEED_STEP, { message: 'speed must have at most two decimals' })
  .default(speechSpeed.default)
  .meta({ description: 'speaking rate, 0.5-2.0, at most two decimals (default 1); the audio lasts 1/speed as long', example: 1 });

/**
 * The two-decimal rule of `speed` as an `x-rules` entry answering `code` (the operation's validation error): the
 * one body rule the emitted schema states in words only (see SpeechSpeed).
 */
export function speedRule(code: ErrorName): StateRule {
  return {
    code,
    fields: ['speed'],
    rule: 'speed has at most two decimals (1.15 yes, 1.155 no); not emitted as multipleOf 0.01, which validators computing in binary floating point refuse for allowed values',
    reads: 'body',
  };
}

/** A string of 1 to `max` characters, counted as Unicode code points (as JSON Schema's maxLength; an emoji is one character). */
function text(max: number, what: string) {
  return z
    .string()
    .min(1)
    .refine((s) => charCount(s) <= max, { message: `${what} must be at most ${formatCount(max)} characters` })
    .openapi({ maxLength: max });
}

/** A speaker id: at most 128 characters (assumed: the documents show no length). Shared by every area that takes one. */
export const SpeakerId = z
  .string()
  .min(1)
  .max(128)
  .meta({
    ...provenanceMeta(
      assumed('the documents show no length for a speaker id; 128 characters bound what is stored'),
      'a speaker id GET /v1/speakers/list lists for this account',
    ),
    example: 'en_ava',
  });

/** Body of POST /v1/tts and POST /v1/audio/speech (document 2). Unknown fields (the OpenAI SDK's `model`) are ignored. */
export const TtsRequest = z
  .object({
    input: text(SPEECH_MAX_CHARS, 'input').meta({ description: 'the text to speak, 1 to 20,000 characters' }),
    voice: SpeakerId,
    response_format: z.enum(audioFormats).default('mp3').meta({ description: 'mp3 (default), opus, aac, flac, wav or pcm' }),
    speed: SpeechSpeed,
  })
  .openapi('TtsRequest', {
    description: 'Text to speak in one voice. Unknown fields are ignored (the OpenAI SDK sends model).',
    example: { input: 'Hello from the service. This is a short sentence.', voice: 'en_ava', response_format: 'mp3', speed: 1 },
  });
export type TtsRequest = z.infer<typeof TtsRequest>;

/** One line of a script: who says what. */
export const ScriptLine = z.object({
  content: z.string().min(1).meta({ description: 'the words of the line, non-empty' }),
  speakerId: SpeakerId,
});

const INVALID = 'SPEECH_INVALID_PARAMETERS' as const;
const scriptTotal = (lines: { content: string }[]) => lines.reduce((n, l) => n + charCount(l.content), 0);
const combinedMessage = (lines: { content: string }[]) =>
  `scripts: the combined content is ${formatCount(scriptTotal(lines))} characters; at most ${formatCount(SPEECH_MAX_CHARS)}`;

/**
 * The rule of a script JSON Schema carries (document 2, "Limits"): no line over the combined limit. A line
 * over it breaks the combined limit on its own; the sum of several lines is `checkScriptTotal` (x-rules).
 */
function scriptRules(): BodyRule<{ scripts: { content: string }[] }>[] {
  return [
    rule({
      id: 'speech.script-line-length',
      rule: `each line's content at most ${formatCount(SPEECH_MAX_CHARS)} characters (the combined content too: x-rules)`,
      code: INVALID,
      path: ['scripts'],
      message: (v) => combinedMessage(v.scripts),
      then: { properties: { scripts: { items: { properties: { content: { maxLength: SPEECH_MAX_CHARS } } } } } },
    }),
  ];
}

/** The combined content of a script over the limit, when no line alone is (that one is `speech.script-line-length`). */
function checkScriptTotal(v: { scripts: { content: string }[] }): RuleIssue[] {
  if (scriptTotal(v.scripts) <= SPEECH_MAX_CHARS || v.scripts.some((l) => charCount(l.content) > SPEECH_MAX_CHARS)) return [];
  return [{ path: ['scripts'], message: combinedMessage(v.scripts), error: INVALID }];
}

/** The rule of a script no schema carries: the sum of the lines' lengths. */
const scriptTotalRule: StateRule = {
  code: INVALID,
  fields: ['scripts[].content'],
  rule: `the combined content of the lines at most ${formatCount(SPEECH_MAX_CHARS)} characters`,
  reads: 'body',
};

const scriptsField = z
  .array(ScriptLine)
  .min(1)
  .meta({ description: 'the lines, synthesized in order (at least one); lines may differ in speaker; combined content at most 20,000 characters' });

/** Body of POST /v1/speech (document 2). */
export const SpeechRequest = withRules(
  z.object({ scripts: scriptsField, speed: SpeechSpeed }),
  scriptRules(),
  'SpeechRequest',
  {
    example: {
      scripts: [
        { speakerId: 'en_ava', content: 'Welcome back to the show.' },
        { speakerId: 'en_noah', content: 'Thanks. Today we talk about test servers.' },
      ],
      speed: 1,
    },
  },
  checkScriptTotal,
);
export type SpeechRequest = z.infer<typeof SpeechRequest>;

/** One source of a flow-speech episode (document 2). */
export const FlowSpeechSource = z.object({
  type: z.enum(['text', 'url']).meta({ description: 'text or url' }),
  content: z.string().optional().meta({
    description: 'text: the text, 10 to 20,000 characters; url: the page address, accepted in place of uri',
  }),
  uri: uriString().optional().meta({ description: 'url: the page address (recommended); either uri or content must be present' }),
});

type FlowSpeechBody = { sources: { type: 'text' | 'url'; content?: string; uri?: string }[] };

/** A letter, a digit, or a Chinese or Japanese character: what a narration reads (`speechUnits` counts them). */
const READABLE = '[\\p{L}\\p{N}\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}]';

/** The fragment "every source of `type` satisfies `then`" (`also`: more of the `if`). */
const sourceOf = (type: 'text' | 'url', then: JsonSchema, also: JsonSchema = {}): JsonSchema => ({
  properties: { sources: { items: { if: { properties: { type: { const: type } }, ...also }, then } } },
});

/**
 * Rules of a flow-speech source (document 2, "POST /v1/flow-speech/episodes", "Limits"). One source, so
 * `sources[0]`; each rule applies where the ones before it hold, so a body breaks one of them at a time.
 */
function flowSpeechRules(): BodyRule<FlowSpeechBody>[] {
  const { min, max } = FLOW_SPEECH_TEXT_CHARS;
  const at = (field: string) => ['sources', 0, field];
  return [
    rule({
      id: 'flow-speech.text-content',
      rule: 'a text source carries content',
      code: INVALID,
      path: at('content'),
      message: 'sources[0].content is required for a text source',
      then: sourceOf('text', { required: ['content'] }),
    }),
    rule({
      id: 'flow-speech.text-length',
      rule: `a text source has ${min} to ${formatCount(max)} characters`,
      code: INVALID,
      path: at('content'),
      message: (v) =>
        `sources[0].content is ${formatCount(charCount(v.sources[0].content ?? ''))} characters; a text source takes ${min} to ${formatCount(max)}`,
      then: sourceOf('text', { properties: { content: { minLength: min, maxLength: max } } }),
    }),
    rule({
      id: 'flow-speech.text-readable',
      rule: 'a text source has a letter, a digit, or a Chinese or Japanese character to read (assumed)',
      code: INVALID,
      path: at('content'),
      message: 'sources[0].content has nothing to read: no letters or digits',
      then: sourceOf(
        'text',
        { properties: { content: { pattern: READABLE } } },
        { properties: { type: { const: 'text' }, content: { minLength: min, maxLength: max } } },
      ),
    }),
    rule({
      id: 'flow-speech.url-source',
      rule: 'a url source carries uri, or content holding the page address',
      code: INVALID,
      path: at('uri'),
      message: 'a url source needs uri (or content holding the page address)',
      then: sourceOf('url', { anyOf: [{ required: ['uri'] }, { required: ['content'] }] }),
    }),
    rule({
      id: 'flow-speech.url-uri-http',
      rule: "a url source's uri is an http or https URL",
      code: INVALID,
      path: at('uri'),
      message: 'sources[0].uri must be an http or https URL',
      then: sourceOf('url', { properties: { uri: js.httpUrl } }),
    }),
    rule({
      id: 'flow-speech.url-content-http',
      rule: 'a url source without uri: content is an http or https URL (it stands for uri)',
      code: INVALID,
      path: at('content'),
      message: 'sources[0].content of a url source must be an http or https URL (it stands for uri)',
      then: sourceOf('url', { properties: { content: js.httpUrl } }, { not: { required: ['uri'] } }),
    }),
  ];
}

/** A url source's content standing for uri is a URI (RFC 3986, as uri is: not repeated in the schema; in x-rules). */
function checkFlowSpeechContentUri(v: FlowSpeechBody): RuleIssue[] {
  const s = v.sources[0];
  if (s?.type !== 'url' || s.uri !== undefined || s.content === undefined || !/^https?:\/\//i.test(s.content)) return [];
  if (uriString().safeParse(s.content).success) return [];
  return [
    {
      path: ['sources', 0, 'content'],
      message: 'sources[0].content of a url source must be an http or https URL (it stands for uri)',
      error: INVALID,
    },
  ];
}

/** Body of POST /v1/flow-speech/episodes (document 2). */
export const FlowSpeechRequest = withRules(
  z.object({
    sources: z.array(FlowSpeechSource).min(1).max(1).meta({ description: 'exactly one source' }),
    speakers: z
      .array(z.object({ speakerId: SpeakerId }))
      .min(1)
      .max(1)
      .meta({ description: 'exactly one speaker' }),
    language: z.enum(flowSpeechLanguages).optional().meta({ description: 'en, zh or ja; inferred from the content when omitted' }),
    mode: z.enum(flowSpeechModes).default('smart').meta({ description: 'smart (default; cleans punctuation, grammar, formatting) or direct (verbatim)' }),
    speed: SpeechSpeed,
  }),
  flowSpeechRules(),
  'FlowSpeechRequest',
  {
    example: {
      sources: [{ type: 'text', content: 'Test servers let a frontend team work before the backend exists. This one keeps state.' }],
      speakers: [{ speakerId: 'en_ava' }],
      language: 'en',
      mode: 'smart',
      speed: 1,
    },
  },
  checkFlowSpeechContentUri,
);
export type FlowSpeechRequest = z.infer<typeof FlowSpeechRequest>;

/** Body of POST /v1/flow-speech/episodes/tts (assumed shape: the seed says it is not shown; the rules of /v1/speech). */
export const FlowSpeechTtsRequest = withRules(
  z.object({
    scripts: scriptsField,
    language: z.enum(flowSpeechLanguages).optional().meta({ description: 'en, zh or ja; inferred from the content when omitted' }),
    speed: SpeechSpeed,
  }),
  scriptRules(),
  'FlowSpeechTtsRequest',
  {
    ...provenanceMeta(assumed('document 2 says the request shape is not shown; this contract takes the script of POST /v1/speech')),
    example: {
      scripts: [
        { speakerId: 'en_ava', content: 'Chapter one. The lighthouse keeper woke before dawn.' },
        { speakerId: 'en_noah', content: 'Is anyone there? he called into the fog.' },
      ],
      language: 'en',
      speed: 1,
    },
  },
  checkScriptTotal,
);
export type FlowSpeechTtsRequest = z.infer<typeof FlowSpeechTtsRequest>;

export const EpisodeIdParams = z.object({
  episodeId: z
    .string()
    .min(1)
    .meta({ param: { description: 'episode id' }, example: 'fs_1a2b3c4d5e6f7a8b' }),
});

/** Query of GET /v1/speakers/list. */
export const ListSpeakersQuery = z.object({
  // document 2 gives the query "for example en": an open list (a language without voices lists none)
  language: z
    .string()
    .min(1)
    .max(35)
    .optional()
    .meta({
      ...provenanceMeta(
        assumed('document 2 shows language as the query ("for example en"); without it every voice is listed; 35 characters bound a language tag'),
        `a language code, for example ${voiceLanguages.join(', ')}; voices of that language (none for a language without voices)`,
      ),
      example: 'en',
    }),
});

// ---------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------

const mediaUrl = (what: string) =>
  z.string().meta(provenanceMeta(assumed('the files are hosted by the service under /media/ (no auth; Range answered 206)'), what));

/** Data of POST /v1/speech (document 2). */
export const SpeechData = z
  .strictObject({
    audioUrl: mediaUrl('MP3 of the lines in order, each speaker in a voice of its own'),
    audioDuration: z.number().int().positive().meta({ description: "ms, the MP3's decoded duration" }),
    subtitlesUrl: mediaUrl('SRT, one cue per line, timed to the audio; valid 24 hours (then 410, code 10015)'),
    taskId: z.string(),
    credits: z.number().int().positive().meta({ description: 'credits charged' }),
  })
  .openapi('SpeechData', {
    example: {
      audioUrl: 'http://localhost:4010/media/speech/sp_1a2b3c4d5e6f7a8b.mp3',
      audioDuration: 5232,
      subtitlesUrl: 'http://localhost:4010/media/speech/sp_1a2b3c4d5e6f7a8b.srt',
      taskId: 'sp_1a2b3c4d5e6f7a8b',
      credits: 1,
    },
  });

/** Data of both flow-speech creates. */
export const CreateEpisodeData = z.strictObject({ episodeId: z.string() }).openapi('CreateEpisodeData', { example: { episodeId: 'fs_1a2b3c4d5e6f7a8b' } });

/** The flow-speech episode (document 2, "Flow-speech episode (GET result)"). Optional fields are absent until they apply. */
export const FlowSpeechEpisode = z
  .strictObject({
    episodeId: z.string(),
    createdAt: EpochMs,
    processStatus: z.enum(episodeStatuses),
    failCode: z
      .number()
      .int()
      .optional()
      .meta(
        provenanceMeta(
          assumed('document 2 says the failCode values are not shown'),
          `present on failure: ${(['SPEECH_GENERATION_FAILED', 'SPEECH_CONTENT_REJECTED', 'SPEECH_SOURCE_UNREADABLE', 'SPEECH_TIMED_OUT'] as const)
            .map((n) => `${errorCatalog[n].code} ${errorCatalog[n].meaning}`)
            .join('; ')}`,
        ),
      ),
    completedTime: EpochMs.optional().meta({ description: 'ms, when it finished (success or fail)' }),
    title: z.string().optional().meta({ description: 'present on success' }),
    outline: z.string().optional().meta({ description: 'present on success: one line per part' }),
    cover: mediaUrl(`cover image (PNG, ${EPISODE_COVER_SIDE}x${EPISODE_COVER_SIDE}), present on success`).optional(),
    audioUrl: mediaUrl('MP3, present on success').optional(),
    audioStreamUrl: mediaUrl('HLS playlist of the audio (packed AAC segments), present on success').optional(),
    subtitlesUrl: mediaUrl('SRT timed to the audio, present on success').optional(),
    scripts: z.string().optional().meta({
      description: 'present on success: the full narration text (smart mode: cleaned; direct mode and multi-voice scripts: verbatim, lines joined by newlines)',
    }),
  })
  .openapi('FlowSpeechEpisode', {
    example: {
      episodeId: 'fs_1a2b3c4d5e6f7a8b',
      createdAt: 1767225600000,
      processStatus: 'success',
      completedTime: 1767225604500,
      title: 'Test servers let a frontend team work',
      outline: '1. Test servers let a frontend team work before the backend exists.\n2. This one keeps state.',
      cover: 'http://localhost:4010/media/flow-speech/fs_1a2b3c4d5e6f7a8b/cover.png',
      audioUrl: 'http://localhost:4010/media/flow-speech/fs_1a2b3c4d5e6f7a8b/audio.mp3',
      audioStreamUrl: 'http://localhost:4010/media/flow-speech/fs_1a2b3c4d5e6f7a8b/audio.m3u8',
      subtitlesUrl: 'http://localhost:4010/media/flow-speech/fs_1a2b3c4d5e6f7a8b/subtitles.srt',
      scripts: 'Test servers let a frontend team work before the backend exists. This one keeps state.',
    },
  });
export type FlowSpeechEpisode = z.infer<typeof FlowSpeechEpisode>;

/** One voice of GET /v1/speakers/list (the seed shows only speakerId; every other field assumed). */
export const Speaker = z
  .strictObject({
    speakerId: z.string().meta({ description: 'pass it wherever a voice is expected (voice of /v1/tts, speakerId of a script line or a speaker)' }),
    name: z.string(),
    language: z.enum(voiceLanguages),
    gender: z.enum(voiceGenders),
    demoAudioUrl: mediaUrl('MP3 sample of the voice'),
    type: z.enum(['built-in', 'cloned']).meta({ description: "built-in, or cloned (the account's confirmed private voice)" }),
  })
  .meta(provenanceMeta(assumed('document 2 says the item shape beyond the speakerId value is not shown')))
  .openapi('Speaker');

/** Data of GET /v1/speakers/list. */
export const SpeakerListData = z
  .strictObject({ speakers: z.array(Speaker) })
  .meta(provenanceMeta(assumed('document 2 does not show the list shape; the voice-clone list also names its array speakers')))
  .openapi('SpeakerListData', {
    example: {
      speakers: [
        {
          speakerId: 'en_ava',
          name: 'Ava',
          language: 'en',
          gender: 'female',
          demoAudioUrl: 'http://localhost:4010/media/speakers/en_ava/demo.mp3',
          type: 'built-in',
        },
      ],
    },
  });

// ---------------------------------------------------------------------------
// Assumptions
// ---------------------------------------------------------------------------

/** Table-level assumptions of the speech area (listed in docs/assumptions.md). */
export const speechTableAssumptions: TableAssumption[] = [
  {
    subject: `speech price: 1 credit per ${speechPricing.charsPerCredit} characters spoken, rounded up, at least ${speechPricing.minCredits} (\`speechPricing\`), the same on every speech endpoint; charged at once by the synchronous endpoints, reserved at creation and captured on success (refunded on failure) by episodes`,
    reason: 'document 2 says the speech estimation endpoints are not shown and gives no speech price',
  },
  {
    subject: `speaking rate: ${speakingRate.msPerWord} ms a word (150 words a minute), ${speakingRate.msPerCjkChar} ms a Chinese or Japanese character, at least ${speakingRate.minMs} ms a line, divided by speed (\`speakingRate\`, \`speechDurationMs\`)`,
    reason: 'document 2 says speed is the speaking rate but gives no rate',
  },
  {
    subject: `speaker catalogue: a female and a male voice for each of ${voiceLanguages.join(', ')}, ids like en_ava (\`builtInSpeakers\`); demo clips of ${SPEAKER_DEMO_MS / 1000} s; listed items carry speakerId, name, language, gender, demoAudioUrl, type`,
    reason: 'document 2 shows no voice catalogue and no item shape beyond speakerId',
  },
  {
    subject:
      'speech errors: 35001 invalid parameters and 35002 unknown speaker (400), 35004 insufficient credits (402), 35006 episode not found (404, also for another user); failCodes 35008-35011',
    reason: 'document 2 says the HTTP statuses of speech failures and the failCode values are not shown',
  },
  {
    subject: `flow-speech schedule: pending ${flowSpeechSchedule.baseMs / 1000} s plus ${flowSpeechSchedule.perAudioSecondMs} ms per second of audio, then success; still pending after ${flowSpeechSchedule.timeoutMs / 60_000} minutes: fail with failCode 35011 (\`flowSpeechSchedule\`)`,
    reason: 'document 2 says the transitions beyond pending, success and fail are not shown',
  },
  {
    subject: `flow-speech content: smart mode collapses spaces, drops markdown marks and repeated punctuation and ends each sentence with a stop; a url source narrates a deterministic fake article derived from the URL; the title is the first sentence (at most 60 characters) and the outline one numbered line per sentence (at most 5); the cover is a ${EPISODE_COVER_SIDE}x${EPISODE_COVER_SIDE} PNG`,
    reason: 'document 2 names the fields but not how they are produced',
  },
  {
    subject: 'a flow-speech text source without a letter or a digit (only spaces or punctuation) answers 400 (35001): there is nothing to narrate',
    reason: 'document 2 gives only the length of a text source',
  },
  {
    subject: 'the language of a flow-speech text is ja when it has kana, zh when it has Han characters, else en (`inferLanguage`)',
    reason: 'document 2 says the language is inferred from the content without the rule',
  },
  {
    subject: 'the subtitles of POST /v1/speech answer 410 (code 10015) after 24 virtual hours; its MP3 stays',
    reason: 'document 2 says the SRT URL is valid 24 hours but not what happens after',
  },
];

// ---------------------------------------------------------------------------
// Operations
// ---------------------------------------------------------------------------

const voiceRule =
  'each voice (the voice field, or a speakerId) must be an id GET /v1/speakers/list lists for this account (a built-in voice, or its own confirmed cloned voice); another answers 400 (35002) naming it.';
const priceRule = `Price (assumed): 1 credit per ${speechPricing.charsPerCredit} characters, rounded up, at least 1; a short balance answers 402 (35004), nothing charged.`;
const rateRule = `Duration (assumed speaking-rate model): 400 ms a word, 250 ms a Chinese or Japanese character, at least 500 ms a line, divided by speed.`;

/** A speaker id of the catalogue: built-in, or the account's own confirmed cloned voice. */
const voiceStateRule = (field: string): StateRule => ({
  code: 'SPEECH_SPEAKER_NOT_FOUND',
  fields: [field],
  rule: 'a speaker id is one GET /v1/speakers/list lists for the account',
  reads: 'catalogue',
});
const creditsStateRule: StateRule = { code: 'SPEECH_INSUFFICIENT_CREDITS', fields: [], rule: 'the balance covers the price', reads: 'account' };

/** Rules of a flow-speech body no schema carries (x-rules). */
const flowSpeechStateRules: StateRule[] = [
  {
    code: INVALID,
    fields: ['sources[0].content'],
    rule: "a url source's content standing for uri is a URI (spaces and non-ASCII characters percent-encoded)",
    reads: 'body',
  },
  voiceStateRule('speakers[0].speakerId'),
  creditsStateRule,
  speedRule(INVALID),
];

const ttsDescription =
  'Speaks input in one voice. The answer is the audio itself, no envelope, streamed with chunked transfer encoding as it is generated, in response_format: ' +
  'mp3 (default), opus (Ogg/Opus), aac (ADTS), flac, wav (16-bit PCM) or pcm (raw 16-bit little-endian samples, no header); every format is 24 kHz mono (assumed). ' +
  '**Content-Type is audio/mpeg for every format except opus, which is audio/ogg** (as document 2 says: the header does not tell wav from mp3; the bytes are of the requested format). ' +
  'A request that fails before audio starts gets the JSON error envelope with Content-Type application/json and a 4xx status, so check the Content-Type. ' +
  `input: 1 to 20,000 characters; speed 0.5-2.0, at most two decimals. ${voiceRule} ${priceRule} ${rateRule} Unknown fields are ignored (the OpenAI SDK sends model).`;

const ttsOperation = (path: string, summary: string, provenanceNote: string) =>
  ({
    method: 'post',
    path,
    summary,
    description: `${ttsDescription}${provenanceNote}`,
    provenance: fromSeed(2, 'POST /v1/tts and POST /v1/audio/speech'),
    auth: true,
    request: { body: json(TtsRequest) },
    response: {
      status: 200,
      kind: 'binary',
      contentTypes: ttsContentTypes,
      description: 'the audio: audio/mpeg for mp3, aac, flac, wav and pcm; audio/ogg for opus',
    },
    errors: ['SPEECH_INVALID_PARAMETERS', 'SPEECH_SPEAKER_NOT_FOUND', 'SPEECH_INSUFFICIENT_CREDITS', 'SPEECH_GENERATION_FAILED'],
    validationError: 'SPEECH_INVALID_PARAMETERS',
    stateRules: [voiceStateRule('voice'), creditsStateRule, speedRule(INVALID)],
    charges: true,
  }) as const;

const episodeErrors = ['SPEECH_INVALID_PARAMETERS', 'SPEECH_SPEAKER_NOT_FOUND', 'SPEECH_INSUFFICIENT_CREDITS'] as const;
const episodeFailures = ['SPEECH_GENERATION_FAILED', 'SPEECH_CONTENT_REJECTED', 'SPEECH_SOURCE_UNREADABLE'] as const;
const episodeLifecycle =
  `Lifecycle (assumed timings): processStatus pending for ${flowSpeechSchedule.baseMs / 1000} s plus ${flowSpeechSchedule.perAudioSecondMs} ms per second of audio, then success; ` +
  `still pending after ${flowSpeechSchedule.timeoutMs / 60_000} minutes: fail with failCode 35011. Credits are reserved at creation, captured on success, refunded on failure.`;

// What the operations below share: each states only what differs (operationsWith, schemas/define.ts).
const op = operationsWith({ auth: true, validationError: 'SPEECH_INVALID_PARAMETERS' });
const taskOp = operationsWith({
  auth: true,
  validationError: 'SPEECH_INVALID_PARAMETERS',
  charges: true,
  outcomes: ['failed', 'stuck'],
  failureReasons: [...episodeFailures],
});

/** The speech operations (document 2). */
export const speechOperations = defineOperations('Speech', {
  synthesizeSpeech: ttsOperation('/v1/tts', 'Speak a text in one voice (binary audio)', ''),
  createSpeech: ttsOperation(
    '/v1/audio/speech',
    'Speak a text in one voice (binary audio; OpenAI-SDK compatible alias of /v1/tts)',
    ' An exact alias of POST /v1/tts in the request shape of the OpenAI SDK: client.audio.speech.create({ model, voice, input, response_format }) with baseURL {base_url}/v1.',
  ),
  createSpeechScript: op({
    method: 'post',
    path: '/v1/speech',
    summary: 'Speak a multi-voice script (JSON with the audio URL)',
    description:
      "Synthesizes the lines in order, each in its speaker's voice, and answers with the MP3 URL, its duration in ms (the decoded duration of the MP3), the SRT URL (one cue per line, timed to the audio; valid 24 hours, then 410 with code 10015), a taskId and the credits charged. " +
      `At least one line; each content non-empty; combined content at most 20,000 characters; speed 0.5-2.0, at most two decimals. ${voiceRule} ${priceRule} ${rateRule}`,
    provenance: fromSeed(2, 'POST /v1/speech'),
    request: { body: json(SpeechRequest) },
    response: { status: 200, kind: 'envelope', schema: SpeechData, description: 'the audio and subtitles' },
    errors: ['SPEECH_INVALID_PARAMETERS', 'SPEECH_SPEAKER_NOT_FOUND', 'SPEECH_INSUFFICIENT_CREDITS', 'SPEECH_GENERATION_FAILED'],
    stateRules: [scriptTotalRule, voiceStateRule('scripts[].speakerId'), creditsStateRule, speedRule(INVALID)],
    charges: true,
  }),
  createFlowSpeechEpisode: taskOp({
    method: 'post',
    path: '/v1/flow-speech/episodes',
    summary: 'Narrate a text or a page in one voice (asynchronous episode)',
    description:
      'Exactly one source (text: content of 10 to 20,000 characters; url: uri, or content holding the page address) and exactly one speaker. ' +
      'language en, zh or ja (inferred from the content when omitted); mode smart (default: the narration is the text cleaned of markdown marks, repeated punctuation and stray spaces) or direct (verbatim). ' +
      `A url source narrates the page's text. Returns episodeId; poll GET /v1/flow-speech/episodes/{episodeId}. ${voiceRule} ${priceRule} (on the narrated text) ${rateRule}\n\n${episodeLifecycle}`,
    provenance: fromSeed(2, 'POST /v1/flow-speech/episodes'),
    request: { body: json(FlowSpeechRequest) },
    response: { status: 200, kind: 'envelope', schema: CreateEpisodeData, description: 'the episode, processStatus pending' },
    errors: [...episodeErrors],
    stateRules: flowSpeechStateRules,
    lifecycle: episodeTaskLifecycle({
      pollOperationId: 'getFlowSpeechEpisode',
      example: {
        sources: [{ type: 'text', content: 'Lighthouses guided ships along the coast for centuries before radio.' }],
        speakers: [{ speakerId: 'en_ava' }],
      },
      successRequires: ['audioUrl'],
      media: [{ urlField: 'audioUrl', contentTypes: ['audio/mpeg'] }],
    }),
  }),
  createFlowSpeechTtsEpisode: taskOp({
    method: 'post',
    path: '/v1/flow-speech/episodes/tts',
    summary: 'Convert a long multi-voice script verbatim (asynchronous episode)',
    description:
      'Request and response shapes are assumed (document 2 says they are not shown): the script of POST /v1/speech ({scripts: [{speakerId, content}], language?, speed?}, the same rules), read verbatim, one voice per speaker; returns {episodeId}, polled on GET /v1/flow-speech/episodes/{episodeId}. ' +
      `${voiceRule} ${priceRule} ${rateRule}\n\n${episodeLifecycle}`,
    provenance: fromSeed(2, 'POST /v1/flow-speech/episodes/tts'),
    request: { body: json(FlowSpeechTtsRequest) },
    response: { status: 200, kind: 'envelope', schema: CreateEpisodeData, description: 'the episode, processStatus pending' },
    errors: [...episodeErrors],
    stateRules: [scriptTotalRule, voiceStateRule('scripts[].speakerId'), creditsStateRule, speedRule(INVALID)],
    lifecycle: episodeTaskLifecycle({
      pollOperationId: 'getFlowSpeechEpisode',
      example: { scripts: [{ speakerId: 'en_ava', content: 'Chapter one. The lighthouse keeper woke before dawn.' }] },
      successRequires: ['audioUrl'],
      media: [{ urlField: 'audioUrl', contentTypes: ['audio/mpeg'] }],
    }),
  }),
  getFlowSpeechEpisode: op({
    method: 'get',
    path: '/v1/flow-speech/episodes/{episodeId}',
    summary: 'Get a flow-speech episode',
    description:
      'Returns the episode. Poll until processStatus is success (or fail, with failCode). title, outline, scripts and the media URLs (cover PNG, MP3, HLS playlist, SRT) are present on success. ' +
      'An unknown episode, or one of another user, answers 404 (35006, assumed).',
    provenance: fromSeed(2, 'GET /v1/flow-speech/episodes/{episodeId}'),
    request: { params: EpisodeIdParams },
    response: { status: 200, kind: 'envelope', schema: FlowSpeechEpisode, description: 'the episode' },
    errors: ['SPEECH_INVALID_PARAMETERS', 'SPEECH_EPISODE_NOT_FOUND'],
  }),
  listSpeakers: op({
    method: 'get',
    path: '/v1/speakers/list',
    summary: 'List the voices this account can use',
    description:
      `The built-in voices (assumed catalogue: a female and a male voice for each of ${voiceLanguages.join(', ')}) and the account's confirmed cloned voices, filtered by language when given (every voice when omitted, assumed). ` +
      'Every speech endpoint accepts exactly the ids listed here for the account.',
    provenance: fromSeed(2, 'GET /v1/speakers/list'),
    request: { query: ListSpeakersQuery },
    response: { status: 200, kind: 'envelope', schema: SpeakerListData, description: 'the voices' },
    errors: ['SPEECH_INVALID_PARAMETERS'],
  }),
});

/** The speech area: its tag, operations and table assumptions. */
export const speechArea = {
  tag: {
    name: 'Speech',
    description: 'Speech synthesis: binary TTS (and its OpenAI-SDK alias), multi-voice scripts, flow-speech episodes and the speaker catalogue (document 2).',
  },
  operations: speechOperations,
  tableAssumptions: speechTableAssumptions,
} satisfies Area;
