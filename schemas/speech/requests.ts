/**
 * Speech request schemas (schemas/speech.ts re-exports them): the TTS body,
 * the multi-voice script, flow-speech sources and their rules, the episode
 * path and the speaker list query. Seed: document 2, "POST /v1/tts and POST
 * /v1/audio/speech", "POST /v1/speech", "POST /v1/flow-speech/episodes",
 * "POST /v1/flow-speech/episodes/tts", "GET /v1/speakers/list".
 */
import { z } from '../zod.ts';
import { js, rule, withRules, type BodyRule, type JsonSchema, type RuleIssue, type StateRule } from '../rules.ts';
import { idParams, uriString } from '../common.ts';
import type { ErrorName } from '../errors.ts';
import { audioFormats } from '../media.ts';
import { assumed, provenanceMeta } from '../provenance.ts';
import { charCount, formatCount } from '../text.ts';
import { FLOW_SPEECH_TEXT_CHARS, flowSpeechLanguages, flowSpeechModes, SPEECH_MAX_CHARS, speechSpeed, voiceLanguages } from './tables.ts';

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

export const INVALID = 'SPEECH_INVALID_PARAMETERS' as const;
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
export const scriptTotalRule: StateRule = {
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

export const EpisodeIdParams = idParams('episodeId', 'episode id', 'fs_1a2b3c4d5e6f7a8b');

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
