/**
 * Music generation contract: asynchronous songs on two providers. Seven
 * creates answer HTTP 202 `{taskId, status: pending}`: /generate (JSON, musicA
 * or musicB), /instrumental, /soundtrack, /track, /remix (multipart uploads,
 * musicA only), /cover (JSON, musicB only) and /extend (assumed multipart).
 * A task moves pending, generating, uploading, success (or failed) on the
 * virtual clock; its tracks' audioUrl values are signed and stop loading about
 * an hour after the fetch that produced them. Credits by model tier (or the
 * extend table, or an assumed flat price), reserved at creation, captured on
 * success, refunded on failure.
 *
 * Seed: document 3, "Providers and models (lyrics and music)", "musicB
 * parameters", "Music task", "States and transitions", "Music: asynchronous
 * generation (prefix /v1/music)", "Errors", "Limits". The shapes of /extend,
 * the error numbers, the schedule, the flat prices, the track counts and
 * durations, the text limits and the image and video size limits are assumed
 * (`musicTableAssumptions`). The provider and model tables are shared with the
 * lyrics area (schemas/music-providers.ts). /recognize, /describe and /stem are
 * another area's.
 */
import { z } from './zod.ts';
import { js, rule, withRules, type BodyRule, type JsonSchema, type RuleIssue, type StateRule } from './rules.ts';
import { EpochMs, pageQuery, paginated, uriString } from './common.ts';
import { assumed, describeProvenance, fromSeed, provenanceMeta, type TableAssumption } from './provenance.ts';
import { defineOperations, operationsWith, json, multipart, uploadedFile, type Area } from './define.ts';
import type { LifecycleDef } from './registry-types.ts';
import {
  extendPricing,
  MUSIC_A_DEFAULT_MODEL,
  MUSIC_B_DEFAULT_MODEL,
  musicAModelAllows,
  musicAModels,
  musicBModels,
  musicProviders,
  providerTable,
  providerValues,
  type MusicProvider,
} from './music-providers.ts';
import type { ErrorName } from './errors.ts';
import { charCount } from './speech.ts';

// ---------------------------------------------------------------------------
// Tables
// ---------------------------------------------------------------------------

/** Task statuses (document 3, "Music task"): pending, generating, uploading, then success or failed. */
export const musicStatuses = ['pending', 'generating', 'uploading', 'success', 'failed'] as const;
export type MusicStatus = (typeof musicStatuses)[number];

/**
 * Operation types this contract's tasks report as taskType (document 3 shows GENERATE as an example of an open
 * string; the others, naming their endpoints, are assumed and only examples in the schema).
 */
export const musicTaskTypes = ['GENERATE', 'INSTRUMENTAL', 'SOUNDTRACK', 'TRACK', 'REMIX', 'COVER', 'EXTEND'] as const;
export type MusicTaskType = (typeof musicTaskTypes)[number];

/** Largest list page (document 3, "Limits" gives 1-100 for lyrics; the music list follows it, assumed). */
export const MUSIC_PAGE_SIZE_MAX = 100;

/** Largest audio upload, bytes (document 3, "Limits": "audio and reference audio at most 10 MB"). */
export const MUSIC_AUDIO_MAX_BYTES = 10 * 1024 * 1024;

/** Upload limits of /soundtrack (assumed: document 3 gives 10 MB for audio only): an image up to 10 MB, a video up to 50 MB. */
export const soundtrackUploads = { imageMaxBytes: 10 * 1024 * 1024, videoMaxBytes: 50 * 1024 * 1024 } as const;

/** File types each upload field accepts (document 3, "Music: asynchronous generation"), judged by the file's content. */
export const musicFileTypes = {
  referenceAudio: ['mp3', 'm4a'],
  image: ['jpg', 'jpeg', 'png', 'webp'],
  video: ['mp4', 'mov', 'avi', 'mkv', 'webm'],
  trackAudio: ['mp3', 'm4a', 'wav'],
  remixAudio: ['mp3', 'm4a'],
} as const;

/** Stem types of /track (document 3). */
export const trackGenerateTypes = [
  'Vocals',
  'Instrumental',
  'Drums',
  'Bass',
  'Guitar',
  'Keyboard',
  'Percussion',
  'Strings',
  'Synth',
  'FX',
  'Brass',
  'Woodwinds',
] as const;
export type TrackGenerateType = (typeof trackGenerateTypes)[number];
/** Vocal gender of /track (document 3: male or female, unlike m or f of the musicB parameters). */
export const trackVocalGenders = ['male', 'female'] as const;
/** Vocal gender of the musicB parameters (document 3, "musicB parameters": m or f). */
export const musicBVocalGenders = ['m', 'f'] as const;

/**
 * Flat prices of the endpoints document 3 does not price ("Limits": "flat
 * costs of the remaining music endpoints: not shown"); assumed: a soundtrack
 * (an image or video read, then a song) 15, a single track 10, a remix 10.
 */
export const musicFlatCredits = { soundtrack: 15, track: 10, remix: 10 } as const;

/** Tracks a task brings (assumed: musicB two takes per request, musicA one). */
export const musicTrackCount: Readonly<Record<MusicProvider, number>> = { musicA: 1, musicB: 2 };

/**
 * The schedule (assumed; document 3: "typical 1-3 minutes"): pending 10 s,
 * generating 50-140 s (fixed per task id from the seed), uploading 10 s, then
 * success: 70-160 s in all. A task without progress for 30 minutes fails with
 * a full refund (39013), like a musicB lyrics task.
 */
export const musicSchedule = {
  pendingMs: 10_000,
  generatingMinMs: 50_000,
  generatingMaxMs: 140_000,
  uploadingMs: 10_000,
  timeoutMs: 30 * 60_000,
} as const;

/** Lifetime of a signed track audioUrl from the fetch that produced it (document 3: "about 1 hour"; exactly one hour here). */
export const MUSIC_URL_TTL_MS = 3_600_000;

/**
 * Track lengths, ms (assumed): a song 120-240 s and a soundtrack of an image (or of a video the mock
 * cannot read) 30-90 s, in
 * whole steps of 3 s (125 MP3 frames of 24 ms, so the file decodes to exactly
 * that length); an extension adds 60-120 s after continueAt. A track made from
 * a source whose length the mock knows (an upload, a track of the caller's)
 * lasts as long as the source (a /track window: generateEnd - generateStart; a soundtrack: its video).
 */
export const musicDurations = {
  stepMs: 3_000,
  song: { minMs: 120_000, maxMs: 240_000 },
  soundtrack: { minMs: 30_000, maxMs: 90_000 },
  extension: { minMs: 60_000, maxMs: 120_000 },
} as const;

/** Longest text fields, characters as Unicode code points (assumed: document 3 gives none). */
export const musicTextLimits = { prompt: 5000, lyrics: 5000, style: 1000, title: 100, negativeTags: 1000, id: 200 } as const;

/** The musicA models of an endpoint (document 3: musicA-9 is not available for /instrumental). */
export function musicAModelsFor(endpoint: string): string[] {
  return musicAModels.map((m) => m.model as string).filter((m) => musicAModelAllows(m, endpoint));
}
/** Every model of a provider. */
export function modelsOf(provider: MusicProvider): string[] {
  return (provider === 'musicA' ? musicAModels : musicBModels).map((m) => m.model as string);
}
const allModels = [...musicAModels.map((m) => m.model), ...musicBModels.map((m) => m.model)] as const;
const musicBTiers = musicBModels.map((m) => m.model) as [string, ...string[]];

// ---------------------------------------------------------------------------
// Rule helpers (schemas/rules.ts: each rule is a JSON Schema fragment, checked by the mock and emitted under allOf)
// ---------------------------------------------------------------------------

const INVALID: ErrorName = 'MUSIC_INVALID_PARAMETERS';
type Fields = Record<string, unknown>;
/** A top-level text field is sent and not blank (the fragment of js.notBlank, required). */
const sentNotBlank = (field: string): JsonSchema => ({ required: [field], properties: { [field]: js.notBlank } });
/** The value at `prefix` of a body (the body itself without one). */
const at = (v: Fields, prefix: readonly string[]): Fields => prefix.reduce<Fields>((o, k) => (o[k] ?? {}) as Fields, v);
/** The fragment `inner`, nested under the object fields of `prefix`. */
const under = (prefix: readonly string[], inner: JsonSchema): JsonSchema => prefix.reduceRight<JsonSchema>((s, k) => ({ properties: { [k]: s } }), inner);

/**
 * A rule: the text fields of `limits` at most their length (characters as Unicode code points), under
 * `prefix` (an object field) when given. Reported on the first field over its limit.
 */
function textRule<T>(id: string, limits: Record<string, number>, prefix: readonly string[] = []): BodyRule<T> {
  const over = (v: T) => {
    const o = at(v as Fields, prefix);
    return Object.keys(limits).find((f) => typeof o[f] === 'string' && charCount(o[f]) > limits[f]) ?? Object.keys(limits)[0];
  };
  const where = prefix.length ? `${prefix.join('.')}.` : '';
  return rule<T>({
    id,
    rule: `${Object.entries(limits)
      .map(([f, max]) => `${where}${f} ${max}`)
      .join(', ')}: at most that many characters (code points)`,
    code: INVALID,
    path: (v) => [...prefix, over(v)],
    message: (v) => {
      const f = over(v);
      return `${charCount(at(v as Fields, prefix)[f] as string)} characters (code points); at most ${limits[f]}`;
    },
    then: under(prefix, { properties: Object.fromEntries(Object.entries(limits).map(([f, max]) => [f, { maxLength: max }])) }),
  });
}

/** A rule: the text fields `fields`, when sent, are not blank (only white space). */
function notBlankRule<T>(id: string, fields: readonly string[]): BodyRule<T> {
  return rule<T>({
    id,
    rule: `${fields.join(', ')}: not blank when sent`,
    code: INVALID,
    path: (v) => [fields.find((f) => typeof (v as Fields)[f] === 'string' && ((v as Fields)[f] as string).trim() === '') ?? fields[0]],
    message: 'must not be blank',
    then: { properties: Object.fromEntries(fields.map((f) => [f, js.notBlank])) },
  });
}

/** A rule: exactly one of `fields` is sent. */
function exactlyOneRule<T>(id: string, fields: readonly string[]): BodyRule<T> {
  const sent = (v: T) => fields.filter((f) => (v as Fields)[f] !== undefined);
  const list = fields.join(', ');
  return rule<T>({
    id,
    rule: `exactly one of ${list}`,
    code: INVALID,
    path: (v) => [sent(v)[1] ?? fields[0]],
    message: (v) => `send exactly one of ${list} (${sent(v).length === 0 ? 'none was sent' : `${sent(v).join(' and ')} were sent`})`,
    then: { oneOf: fields.map((f) => ({ required: [f] })) },
  });
}

/** A rule: `field`, when sent, is an http or https URL. */
function httpUrlRule<T>(id: string, field: string, message: string): BodyRule<T> {
  return rule<T>({ id, rule: `${field} is an http or https URL`, code: INVALID, path: [field], message, then: js.prop(field, js.httpUrl) });
}

/** True when `url` parses as an http or https URL. */
export function isHttpUrl(url: string): boolean {
  try {
    return /^https?:$/i.test(new URL(url).protocol);
  } catch {
    return false;
  }
}

/** The price is reserved at creation (every create). */
const creditsRule: StateRule = { code: 'MUSIC_INSUFFICIENT_CREDITS', fields: [], rule: 'the balance covers the price', reads: 'account' };
/** An upload is judged by its bytes (the contents of a file: no schema says it). */
const uploadRule = (field: string, types: readonly string[], audio: boolean): StateRule => ({
  code: 'MUSIC_UNSUPPORTED_FILE',
  fields: [field],
  rule: `${field} is ${types.join(', ')} by its content${audio ? ', and reads as audio with a length' : ''}`,
  reads: 'body',
});
/** providerSongId names a musicA track of the caller's (/track, /remix). */
const songIdRules: StateRule[] = [
  {
    code: 'MUSIC_SOURCE_NOT_FOUND',
    fields: ['providerSongId'],
    rule: "providerSongId names a track of one of the caller's succeeded music tasks",
    reads: 'state',
  },
  { code: 'MUSIC_PROVIDER_UNSUPPORTED', fields: ['providerSongId'], rule: 'providerSongId names a musicA song', reads: 'state' },
];
/** A platform URL (cover uploadUrl, remix audioUrl) names a track of the caller's. */
const platformUrlRules = (field: string): StateRule[] => [
  {
    code: 'MUSIC_SOURCE_FORBIDDEN',
    fields: [field],
    rule: `${field} of this platform is not a track of another account's (ownership is verified)`,
    reads: 'state',
  },
  {
    code: 'MUSIC_SOURCE_NOT_FOUND',
    fields: [field],
    rule: `${field} of this platform names a track audioUrl of one of the caller's succeeded music tasks`,
    reads: 'state',
  },
];

// ---------------------------------------------------------------------------
// musicB parameters
// ---------------------------------------------------------------------------

const weight = (what: string) =>
  z
    .number()
    .min(0)
    .max(1)
    .optional()
    .meta({ description: `${what}: 0 to 1` });

/** The musicB parameters /extend takes as top-level fields (document 3, "musicB parameters"). */
const musicBExtendFields = {
  negativeTags: z.string().optional().meta({ description: 'comma-separated styles to avoid' }).openapi({ maxLength: musicTextLimits.negativeTags }),
  vocalGender: z.enum(musicBVocalGenders).optional().meta({ description: 'm or f (note: /track uses male or female)' }),
  styleWeight: weight('how strongly the style is followed'),
  weirdnessConstraint: weight('how far the result may stray'),
  audioWeight: weight('weight of the source recording; meaningful only with one'),
};
/** Names of the musicB parameters per endpoint (document 3, "musicB parameters": "Applies to"). */
export const musicBParameterNames = {
  generate: ['negativeTags', 'vocalGender', 'styleWeight', 'weirdnessConstraint', 'audioWeight', 'personaId', 'personaModel'],
  cover: ['negativeTags', 'vocalGender', 'styleWeight', 'weirdnessConstraint', 'audioWeight', 'personaId', 'personaModel'],
  extend: ['negativeTags', 'vocalGender', 'styleWeight', 'weirdnessConstraint', 'audioWeight'],
} as const;

/**
 * `providerParams` of /generate and /cover (document 3, "musicB parameters"):
 * keys outside the list are dropped (never echoed). personaModel is a musicB
 * tier and goes with personaId.
 */
export const MusicBProviderParams = z
  .object({
    ...musicBExtendFields,
    personaId: z
      .string()
      .min(1)
      .optional()
      .meta({ description: 'persona performing the track (on /cover: custom mode only)' })
      .openapi({ maxLength: musicTextLimits.id }),
    personaModel: z.enum(musicBTiers).optional().meta({ description: 'the musicB tier the persona was created with; pass with personaId' }),
  })
  .meta({ description: 'musicB parameters; keys outside this list are dropped' })
  .openapi('MusicBProviderParams');
export type MusicBProviderParams = z.infer<typeof MusicBProviderParams>;

/** Rules of providerParams (shape aside): text limits; personaModel with personaId. */
function providerParamRules<T>(endpoint: string): BodyRule<T>[] {
  return [
    textRule<T>(`music.${endpoint}.provider-params-text-length`, { negativeTags: musicTextLimits.negativeTags, personaId: musicTextLimits.id }, [
      'providerParams',
    ]),
    rule<T>({
      id: `music.${endpoint}.persona-model-needs-id`,
      rule: 'providerParams.personaModel goes with providerParams.personaId',
      code: INVALID,
      path: ['providerParams', 'personaModel'],
      message: 'personaModel goes with personaId (send both)',
      then: under(['providerParams'], { dependentRequired: { personaModel: ['personaId'] } }),
    }),
  ];
}

/** The keys of providerParams actually sent (after unknown keys were dropped). */
export const sentParams = (p: Record<string, unknown> | undefined) => Object.keys(p ?? {}).filter((k) => p![k] !== undefined);

// ---------------------------------------------------------------------------
// POST /v1/music/generate
// ---------------------------------------------------------------------------

const promptField = (what: string) => z.string().optional().meta({ description: what }).openapi({ maxLength: musicTextLimits.prompt });
const lyricsField = (what: string) => z.string().optional().meta({ description: what }).openapi({ maxLength: musicTextLimits.lyrics });
const styleField = (what: string) => z.string().optional().meta({ description: what }).openapi({ maxLength: musicTextLimits.style });
const titleField = (what: string) => z.string().optional().meta({ description: what }).openapi({ maxLength: musicTextLimits.title });
const mainTexts = { prompt: musicTextLimits.prompt, lyrics: musicTextLimits.lyrics, style: musicTextLimits.style, title: musicTextLimits.title };

const GenerateShape = z.object({
  prompt: promptField(
    `musicA: a style description; musicB reads it as lyrics (custom mode) or as the whole description (customMode false); up to ${musicTextLimits.prompt} characters`,
  ),
  lyrics: lyricsField(`the lyrics; musicA requires them unless instrumental is true; up to ${musicTextLimits.lyrics} characters`),
  style: styleField(`style descriptors; the fallback for prompt; up to ${musicTextLimits.style} characters`),
  title: titleField(`track title; up to ${musicTextLimits.title} characters`),
  instrumental: z.boolean().default(false).meta({ description: 'no vocals (default false)' }),
  // default true for musicB (document 3): a spec-only default, since musicA refuses the field when it is sent
  customMode: z.boolean().optional().meta({
    default: true,
    description:
      'musicB only; default true (style and title carry descriptors, the lyric body from lyrics or prompt); false drives the whole song from prompt. Sent with musicA: 39006',
  }),
  model: z
    .enum(allModels)
    .optional()
    .meta({ description: `default ${MUSIC_A_DEFAULT_MODEL} on musicA, ${MUSIC_B_DEFAULT_MODEL} on musicB; a model of the other provider answers 39007` }),
  vocalId: z
    .string()
    .min(1)
    .optional()
    .meta({ description: 'reuse a musicA vocal id; musicA only (with musicB: 39006)' })
    .openapi({ maxLength: musicTextLimits.id }),
  provider: z
    .enum(providerValues)
    .default('default')
    .meta({ description: `default (runs on ${providerTable.default}), musicA or musicB; the task reports the provider that ran it` }),
  providerParams: MusicBProviderParams.optional().meta({
    description: 'musicB parameters (musicB only: a listed key with musicA answers 39006); keys outside the list are dropped',
  }),
});
type GenerateBody = z.output<typeof GenerateShape>;

/** The provider values that run on `provider` (default runs on musicA). */
const runsOn = (provider: MusicProvider) => providerValues.filter((p) => providerTable[p] === provider);

/**
 * Rules of /generate beyond the shape (document 3, "POST /v1/music/generate"),
 * in the order they are reported: the model against the provider's list
 * (39007); vocalId on musicB, customMode or musicB parameters on musicA
 * (39006); text limits; an instrumental needs prompt or style (assumed); musicA
 * needs lyrics unless instrumental; musicB needs prompt with customMode false,
 * lyrics or prompt in custom mode; personaModel with personaId (39001).
 */
function generateRules(): BodyRule<GenerateBody>[] {
  const musicBCustom: JsonSchema = {
    properties: { provider: { const: 'musicB' }, customMode: { const: true }, instrumental: { const: false } },
    required: ['provider'],
  };
  return [
    ...musicProviders.map((provider) =>
      rule<GenerateBody>({
        id: `music.generate.model.${provider}`,
        rule: `${provider} (provider ${runsOn(provider).join(' or ')}): model ${modelsOf(provider).join(', ')}`,
        code: 'MUSIC_MODEL_UNSUPPORTED',
        path: ['model'],
        message: (v) => `${v.model} is not a ${provider} model (provider ${v.provider}); ${provider} takes ${modelsOf(provider).join(', ')}`,
        when: { provider: runsOn(provider) },
        then: js.prop('model', { enum: modelsOf(provider) }),
      }),
    ),
    rule<GenerateBody>({
      id: 'music.generate.vocal-id-musicA-only',
      rule: 'vocalId is musicA only',
      code: 'MUSIC_PROVIDER_UNSUPPORTED',
      path: ['vocalId'],
      message: 'vocalId reuses a musicA vocal: musicA only (provider musicB)',
      when: { provider: runsOn('musicB') },
      then: { not: { required: ['vocalId'] } },
    }),
    rule<GenerateBody>({
      id: 'music.generate.custom-mode-musicB-only',
      rule: 'customMode is musicB only',
      code: 'MUSIC_PROVIDER_UNSUPPORTED',
      path: ['customMode'],
      message: (v) => `customMode is musicB only (provider ${v.provider} runs on musicA)`,
      when: { provider: runsOn('musicA') },
      then: { not: { required: ['customMode'] } },
    }),
    rule<GenerateBody>({
      id: 'music.generate.provider-params-musicB-only',
      rule: `providerParams (${musicBParameterNames.generate.join(', ')}) are musicB only`,
      code: 'MUSIC_PROVIDER_UNSUPPORTED',
      path: (v) => ['providerParams', sentParams(v.providerParams)[0] ?? musicBParameterNames.generate[0]],
      message: (v) => `musicB parameter: musicB only (provider ${v.provider} runs on musicA)`,
      when: { provider: runsOn('musicA') },
      then: under(['providerParams'], { not: { anyOf: musicBParameterNames.generate.map((k) => ({ required: [k] })) } }),
    }),
    textRule<GenerateBody>('music.generate.text-length', { ...mainTexts, vocalId: musicTextLimits.id }),
    ...providerParamRules<GenerateBody>('generate'),
    rule<GenerateBody>({
      id: 'music.generate.instrumental-needs-description',
      rule: 'an instrumental needs prompt or style, not blank (assumed)',
      code: INVALID,
      path: ['prompt'],
      message: 'an instrumental needs prompt or style (a description of the music)',
      when: { instrumental: true },
      then: { anyOf: [sentNotBlank('prompt'), sentNotBlank('style')] },
    }),
    rule<GenerateBody>({
      id: 'music.generate.musicA-lyrics',
      rule: 'musicA: lyrics (not blank) unless instrumental is true',
      code: INVALID,
      path: ['lyrics'],
      message: 'musicA requires lyrics unless instrumental is true',
      when: { provider: runsOn('musicA'), instrumental: false },
      then: sentNotBlank('lyrics'),
    }),
    rule<GenerateBody>({
      id: 'music.generate.musicB-prompt-without-custom-mode',
      rule: 'musicB with customMode false: prompt (not blank)',
      code: INVALID,
      path: ['prompt'],
      message: 'with customMode false the whole song is driven from prompt: send prompt',
      when: { provider: runsOn('musicB'), customMode: false },
      then: sentNotBlank('prompt'),
    }),
    rule<GenerateBody>({
      id: 'music.generate.musicB-lyrics-or-prompt',
      rule: 'musicB in custom mode: lyrics or prompt (read as lyrics), not blank, unless instrumental is true',
      code: INVALID,
      path: ['lyrics'],
      message: 'musicB needs lyrics or prompt (read as lyrics) unless instrumental is true',
      when: { schema: musicBCustom },
      then: { anyOf: [sentNotBlank('lyrics'), sentNotBlank('prompt')] },
    }),
  ];
}

/** Rules of the music creates no schema carries (x-rules), besides the ones of each endpoint. */
const generateStateRules: StateRule[] = [creditsRule];

/** Body of POST /v1/music/generate (document 3). */
export const CreateMusicGenerateRequest = withRules(GenerateShape, generateRules(), 'CreateMusicGenerateRequest', {
  example: {
    prompt: 'warm indie pop, acoustic guitar, hand claps',
    lyrics: '[Verse]\nSummer roads and open windows\n[Chorus]\nSing it loud, we are going home',
    title: 'Open Windows',
    provider: 'musicA',
  },
});
export type CreateMusicGenerateRequest = z.infer<typeof CreateMusicGenerateRequest>;

// ---------------------------------------------------------------------------
// POST /v1/music/cover
// ---------------------------------------------------------------------------

const coverTexts = { prompt: musicTextLimits.prompt, style: musicTextLimits.style, title: musicTextLimits.title };

const CoverShape = z.object({
  uploadUrl: uriString().meta({
    description:
      "the recording to re-record: a publicly reachable http(s) URL, or a platform asset URL the caller owns (a track audioUrl of one of its music tasks; ownership verified: another account's answers 403 with 39008)",
  }),
  model: z
    .enum(musicBTiers)
    .default(MUSIC_B_DEFAULT_MODEL)
    .meta({ description: `a musicB tier (default ${MUSIC_B_DEFAULT_MODEL}); priced by tier` }),
  customMode: z.boolean().default(true).meta({ description: 'default true (style and title required); false drives the cover from prompt alone' }),
  prompt: promptField(
    `custom mode: the lyrics, required unless instrumental; customMode false: a free-form description (required); up to ${musicTextLimits.prompt} characters`,
  ),
  style: styleField(`required in custom mode; up to ${musicTextLimits.style} characters`),
  title: titleField(`required in custom mode; up to ${musicTextLimits.title} characters`),
  instrumental: z.boolean().default(false).meta({ description: 'no vocals (default false)' }),
  providerParams: MusicBProviderParams.optional().meta({ description: 'musicB parameters; personaId in custom mode only; keys outside the list are dropped' }),
});
type CoverBody = z.output<typeof CoverShape>;

/**
 * Rules of /cover beyond the shape (document 3, "POST /v1/music/cover"): an
 * http(s) uploadUrl; text limits; custom mode needs style and title, and
 * prompt unless instrumental; non-custom mode needs prompt (assumed: it drives
 * the cover alone); personaId in custom mode only; personaModel with personaId.
 */
function coverRules(): BodyRule<CoverBody>[] {
  return [
    httpUrlRule<CoverBody>('music.cover.upload-url-http', 'uploadUrl', 'must be an http or https URL (a public recording or one of your track URLs)'),
    textRule<CoverBody>('music.cover.text-length', coverTexts),
    ...providerParamRules<CoverBody>('cover'),
    ...(['style', 'title'] as const).map((f) =>
      rule<CoverBody>({
        id: `music.cover.custom-${f}`,
        rule: `custom mode (customMode true, the default): ${f} (not blank)`,
        code: INVALID,
        path: [f],
        message: `${f} is required in custom mode (customMode true, the default)`,
        when: { customMode: true },
        then: sentNotBlank(f),
      }),
    ),
    rule<CoverBody>({
      id: 'music.cover.custom-prompt',
      rule: 'custom mode: prompt (the lyrics, not blank) unless instrumental is true',
      code: INVALID,
      path: ['prompt'],
      message: 'in custom mode prompt holds the lyrics: required unless instrumental is true',
      when: { customMode: true, instrumental: false },
      then: sentNotBlank('prompt'),
    }),
    rule<CoverBody>({
      id: 'music.cover.prompt-without-custom-mode',
      rule: 'customMode false: prompt (not blank; assumed)',
      code: INVALID,
      path: ['prompt'],
      message: 'with customMode false the cover is driven from prompt alone: send prompt',
      when: { customMode: false },
      then: sentNotBlank('prompt'),
    }),
    rule<CoverBody>({
      id: 'music.cover.persona-custom-only',
      rule: 'providerParams.personaId in custom mode only',
      code: INVALID,
      path: ['providerParams', 'personaId'],
      message: 'personaId applies in custom mode only (customMode is false)',
      when: { customMode: false },
      then: under(['providerParams'], { not: { required: ['personaId'] } }),
    }),
  ];
}

/** Rules of /cover no schema carries (x-rules). */
const coverStateRules: StateRule[] = [...platformUrlRules('uploadUrl'), creditsRule];

/** Body of POST /v1/music/cover (document 3). */
export const CreateMusicCoverRequest = withRules(CoverShape, coverRules(), 'CreateMusicCoverRequest', {
  example: {
    uploadUrl: 'https://example.com/recordings/demo.mp3',
    style: 'lo-fi jazz, brushed drums',
    title: 'Demo (Jazz Cover)',
    prompt: '[Verse]\nThe same old melody in a brand new room',
  },
});
export type CreateMusicCoverRequest = z.infer<typeof CreateMusicCoverRequest>;

// ---------------------------------------------------------------------------
// Multipart creates (musicA only) and /extend
// ---------------------------------------------------------------------------

const audioFile = (types: readonly string[]) =>
  uploadedFile(`audio (${types.join(', ')}; judged by its content), at most ${MUSIC_AUDIO_MAX_BYTES / 1024 / 1024} MB`);
const providerSongId = (what: string) => z.string().min(1).optional().meta({ description: what }).openapi({ maxLength: musicTextLimits.id });

const InstrumentalShape = z.object({
  prompt: promptField(`a description of the music; up to ${musicTextLimits.prompt} characters (exactly one of prompt and referenceAudio)`),
  referenceAudio: audioFile(musicFileTypes.referenceAudio).optional(),
  model: z
    .enum(musicAModelsFor('instrumental') as [string, ...string[]])
    .default(MUSIC_A_DEFAULT_MODEL)
    .meta({ description: `${musicAModelsFor('instrumental').join(', ')} (default ${MUSIC_A_DEFAULT_MODEL}); musicA-9 is not available here` }),
});
type InstrumentalBody = z.output<typeof InstrumentalShape>;

/** Body of POST /v1/music/instrumental (document 3): prompt or referenceAudio, exactly one; model. */
export const CreateMusicInstrumentalRequest = withRules(
  InstrumentalShape,
  [
    exactlyOneRule<InstrumentalBody>('music.instrumental.prompt-or-reference-audio', ['prompt', 'referenceAudio']),
    notBlankRule<InstrumentalBody>('music.instrumental.prompt-not-blank', ['prompt']),
    textRule<InstrumentalBody>('music.instrumental.text-length', { prompt: musicTextLimits.prompt }),
  ],
  'CreateMusicInstrumentalRequest',
  {
    description: 'multipart/form-data: exactly one of prompt and referenceAudio; model.',
    example: { prompt: 'calm piano over soft rain', model: 'auto' },
  },
);
const instrumentalStateRules: StateRule[] = [uploadRule('referenceAudio', musicFileTypes.referenceAudio, true), creditsRule];

const SoundtrackShape = z.object({
  image: uploadedFile(
    `an image (${musicFileTypes.image.join(', ')}; judged by its content), at most ${soundtrackUploads.imageMaxBytes / 1024 / 1024} MB`,
  ).optional(),
  video: uploadedFile(
    `a video (${musicFileTypes.video.join(', ')}; judged by its content), at most ${soundtrackUploads.videoMaxBytes / 1024 / 1024} MB`,
  ).optional(),
  prompt: promptField(`optional guidance for the music; up to ${musicTextLimits.prompt} characters`),
  model: z
    .enum(musicAModelsFor('soundtrack') as [string, ...string[]])
    .default(MUSIC_A_DEFAULT_MODEL)
    .meta({ description: `${musicAModelsFor('soundtrack').join(', ')} (default ${MUSIC_A_DEFAULT_MODEL})` }),
});
type SoundtrackBody = z.output<typeof SoundtrackShape>;

/** Body of POST /v1/music/soundtrack (document 3): image or video, exactly one; prompt; model. */
export const CreateMusicSoundtrackRequest = withRules(
  SoundtrackShape,
  [
    exactlyOneRule<SoundtrackBody>('music.soundtrack.image-or-video', ['image', 'video']),
    notBlankRule<SoundtrackBody>('music.soundtrack.prompt-not-blank', ['prompt']),
    textRule<SoundtrackBody>('music.soundtrack.text-length', { prompt: musicTextLimits.prompt }),
  ],
  'CreateMusicSoundtrackRequest',
  { description: 'multipart/form-data: exactly one of image and video; prompt; model.' },
);
const soundtrackStateRules: StateRule[] = [uploadRule('image', musicFileTypes.image, false), uploadRule('video', musicFileTypes.video, false), creditsRule];

const seconds = (what: string) =>
  z
    .number()
    .min(0)
    .optional()
    .meta({ description: `${what}, seconds (>= 0)` });

const TrackShape = z.object({
  generateType: z.enum(trackGenerateTypes).meta({ description: trackGenerateTypes.join(', ') }),
  prompt: z
    .string()
    .meta({ description: `what to play; up to ${musicTextLimits.prompt} characters` })
    .openapi({ maxLength: musicTextLimits.prompt }),
  audio: audioFile(musicFileTypes.trackAudio).optional(),
  providerSongId: providerSongId('a musicA song id (a track providerSongId of one of your musicA tasks); exactly one of audio and providerSongId'),
  lyrics: lyricsField(`required when generateType is Vocals; up to ${musicTextLimits.lyrics} characters`),
  vocalGender: z.enum(trackVocalGenders).optional().meta({ description: 'male or female; generateType Vocals only' }),
  generateStart: seconds('where in the source the track starts (default 0)'),
  generateEnd: seconds('where in the source the track ends (default: the end of the source); after generateStart, within the source'),
});
type TrackBody = z.output<typeof TrackShape>;

/**
 * Rules of /track beyond the shape (document 3, "POST /v1/music/track"):
 * exactly one of audio and providerSongId; lyrics required with Vocals;
 * vocalGender with Vocals only. generateStart before generateEnd compares two
 * fields, which no schema says (x-rules).
 */
function trackRules(): BodyRule<TrackBody>[] {
  return [
    exactlyOneRule<TrackBody>('music.track.audio-or-song-id', ['audio', 'providerSongId']),
    notBlankRule<TrackBody>('music.track.prompt-not-blank', ['prompt']),
    textRule<TrackBody>('music.track.text-length', { prompt: musicTextLimits.prompt, lyrics: musicTextLimits.lyrics, providerSongId: musicTextLimits.id }),
    rule<TrackBody>({
      id: 'music.track.vocals-need-lyrics',
      rule: 'generateType Vocals: lyrics (not blank)',
      code: INVALID,
      path: ['lyrics'],
      message: 'lyrics are required when generateType is Vocals',
      when: { generateType: 'Vocals' },
      then: sentNotBlank('lyrics'),
    }),
    rule<TrackBody>({
      id: 'music.track.vocal-gender-vocals-only',
      rule: 'vocalGender with generateType Vocals only',
      code: INVALID,
      path: ['vocalGender'],
      message: (v) => `vocalGender applies to generateType Vocals only (generateType is ${v.generateType})`,
      when: { schema: { required: ['vocalGender'] } },
      then: js.prop('generateType', { const: 'Vocals' }),
    }),
  ];
}

/** generateStart before generateEnd (two fields compared: in x-rules). */
function checkTrackWindow(v: TrackBody): RuleIssue[] {
  if (v.generateStart === undefined || v.generateEnd === undefined || v.generateStart < v.generateEnd) return [];
  return [{ path: ['generateEnd'], message: `generateEnd (${v.generateEnd} s) must be after generateStart (${v.generateStart} s)`, error: INVALID }];
}

/** Rules of /track no schema carries (x-rules). */
const trackStateRules: StateRule[] = [
  { code: INVALID, fields: ['generateStart', 'generateEnd'], rule: 'generateStart before generateEnd', reads: 'body' },
  uploadRule('audio', musicFileTypes.trackAudio, true),
  ...songIdRules,
  {
    code: INVALID,
    fields: ['generateStart', 'generateEnd'],
    rule: 'generateStart and generateEnd within the source (the length of the upload or of the song)',
    reads: 'state',
  },
  creditsRule,
];

/** Body of POST /v1/music/track (document 3). */
export const CreateMusicTrackRequest = withRules(
  TrackShape,
  trackRules(),
  'CreateMusicTrackRequest',
  {
    description:
      'multipart/form-data: generateType, prompt, exactly one of audio and providerSongId, lyrics (Vocals), vocalGender, generateStart, generateEnd.',
  },
  checkTrackWindow,
);

const RemixShape = z.object({
  lyrics: z
    .string()
    .meta({ description: `the new lyrics; up to ${musicTextLimits.lyrics} characters` })
    .openapi({ maxLength: musicTextLimits.lyrics }),
  prompt: z
    .string()
    .meta({ description: `the style of the remix; up to ${musicTextLimits.prompt} characters` })
    .openapi({ maxLength: musicTextLimits.prompt }),
  audio: audioFile(musicFileTypes.remixAudio).optional(),
  audioUrl: uriString().optional().meta({
    description:
      "an internal platform audio URL that belongs to the caller or is public: a track audioUrl of one of the caller's music tasks (another account's track answers 403 with 39008); a URL of another site is refused (39001)",
  }),
  providerSongId: providerSongId('a musicA song id (a track providerSongId of one of your musicA tasks)'),
});
type RemixBody = z.output<typeof RemixShape>;

/** Body of POST /v1/music/remix (document 3): lyrics, prompt, and exactly one of audio, audioUrl, providerSongId. */
export const CreateMusicRemixRequest = withRules(
  RemixShape,
  [
    exactlyOneRule<RemixBody>('music.remix.one-source', ['audio', 'audioUrl', 'providerSongId']),
    notBlankRule<RemixBody>('music.remix.not-blank', ['lyrics', 'prompt']),
    textRule<RemixBody>('music.remix.text-length', { lyrics: musicTextLimits.lyrics, prompt: musicTextLimits.prompt, providerSongId: musicTextLimits.id }),
    httpUrlRule<RemixBody>('music.remix.audio-url-http', 'audioUrl', 'must be an http or https URL'),
  ],
  'CreateMusicRemixRequest',
  {
    description: 'multipart/form-data: lyrics, prompt, and exactly one of audio, audioUrl and providerSongId.',
    example: { lyrics: '[Verse]\nNew words for an old tune', prompt: 'upbeat disco', providerSongId: 'ma_1a2b3c4d5e6f7a8b_0' },
  },
);

/** Rules of /remix no schema carries (x-rules). */
const remixStateRules: StateRule[] = [
  {
    code: INVALID,
    fields: ['audioUrl'],
    rule: "audioUrl is an audio URL of this platform (the origin the request was sent to), not another site's",
    reads: 'state',
  },
  ...platformUrlRules('audioUrl'),
  uploadRule('audio', musicFileTypes.remixAudio, true),
  ...songIdRules,
  creditsRule,
];

const ExtendShape = z.object({
  taskId: z.string().min(1).meta({ description: 'a succeeded music task of the caller (409 with 39010 before it succeeds)' }),
  trackIndex: z.number().int().min(0).optional().meta({ description: 'which of its tracks (from 0; default 0); or send providerSongId' }),
  providerSongId: providerSongId("the track's providerSongId, instead of trackIndex"),
  continueAt: z
    .number()
    .gt(0)
    .optional()
    .meta({ description: "where the extension starts, seconds: after 0, at most the track's duration (default: its end)" }),
  prompt: promptField(`what the continuation sounds like; up to ${musicTextLimits.prompt} characters`),
  lyrics: lyricsField(`lyrics of the continuation; up to ${musicTextLimits.lyrics} characters`),
  model: z
    .enum(allModels)
    .optional()
    .meta({
      description: `a model of the task's provider (default ${MUSIC_A_DEFAULT_MODEL} on musicA, ${MUSIC_B_DEFAULT_MODEL} on musicB); priced by the extend table`,
    }),
  provider: z.enum(providerValues).optional().meta({ description: "default: the task's provider; another provider than the task's answers 39006" }),
  ...musicBExtendFields,
});
type ExtendBody = z.output<typeof ExtendShape>;

/** Body of POST /v1/music/extend (assumed multipart: document 3 says its shape is not shown, and that the musicB parameters are its top-level form fields). */
export const CreateMusicExtendRequest = withRules(
  ExtendShape,
  [
    rule<ExtendBody>({
      id: 'music.extend.track-index-or-song-id',
      rule: 'trackIndex or providerSongId, not both',
      code: INVALID,
      path: ['providerSongId'],
      message: 'send trackIndex or providerSongId, not both',
      then: { not: { required: ['trackIndex', 'providerSongId'] } },
    }),
    textRule<ExtendBody>('music.extend.text-length', {
      prompt: musicTextLimits.prompt,
      lyrics: musicTextLimits.lyrics,
      negativeTags: musicTextLimits.negativeTags,
      providerSongId: musicTextLimits.id,
    }),
  ],
  'CreateMusicExtendRequest',
  {
    'x-provenance': 'assumed: document 3 says the request shape of /extend is not shown',
    description:
      'multipart/form-data: taskId, trackIndex or providerSongId, continueAt, prompt, lyrics, model, provider, and the musicB parameters as top-level fields (musicB tasks only).',
  },
);

/** Rules of /extend no schema carries (x-rules): they read the task extended. */
const extendStateRules: StateRule[] = [
  { code: 'MUSIC_TASK_NOT_FOUND', fields: ['taskId'], rule: 'taskId names a music task of the caller', reads: 'state' },
  { code: 'MUSIC_TASK_NOT_READY', fields: ['taskId'], rule: 'the task has succeeded', reads: 'state' },
  { code: 'MUSIC_PROVIDER_UNSUPPORTED', fields: ['provider'], rule: "provider, when sent, runs on the task's provider", reads: 'state' },
  { code: 'MUSIC_MODEL_UNSUPPORTED', fields: ['model'], rule: "model, when sent, is one of the task's provider", reads: 'state' },
  {
    code: 'MUSIC_PROVIDER_UNSUPPORTED',
    fields: [...musicBParameterNames.extend],
    rule: 'the musicB parameters on an extend of a musicB task only',
    reads: 'state',
  },
  {
    code: INVALID,
    fields: ['trackIndex', 'providerSongId', 'continueAt'],
    rule: "trackIndex or providerSongId names one of the task's tracks; continueAt at most that track's duration",
    reads: 'state',
  },
  creditsRule,
];

export const MusicTaskPathParams = z.object({
  taskId: z
    .string()
    .min(1)
    .meta({ param: { description: 'music task id' }, example: 'mus_1a2b3c4d5e6f7a8b' }),
});

/** Query of GET /v1/music/tasks: page from 1, pageSize 1-100 (default 20), status. */
export const ListMusicQuery = z.object({
  ...pageQuery(MUSIC_PAGE_SIZE_MAX),
  status: z.enum(musicStatuses).optional().meta({ description: 'only tasks in this status' }),
});

// ---------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------

export const CreateMusicData = z
  .strictObject({ taskId: z.string(), status: z.literal('pending') })
  .openapi('CreateMusicData', { example: { taskId: 'mus_1a2b3c4d5e6f7a8b', status: 'pending' } });

/** One track (document 3, "Music task": { title, tags, duration, audioUrl }; providerSongId assumed). */
export const MusicTrack = z
  .strictObject({
    title: z.string(),
    tags: z.string().meta(provenanceMeta(assumed('document 3 does not give the type of tags'), 'style tags, comma-separated')),
    duration: z.number().positive().meta({ description: 'seconds: the decoded length of the MP3 at audioUrl' }),
    audioUrl: z.string().meta({
      description:
        'MP3 of the track, signed; it stops loading about 1 hour after the fetch of the task that produced it (then 403 with 39014; an altered URL 403 with 39015): fetch the task again for a fresh URL',
      'x-provenance': describeProvenance(
        assumed(
          `document 3 says signed URLs expire "about 1 hour" after the fetch, without their form: here ?expires=<epoch ms>&sig=<hex>, valid exactly ${MUSIC_URL_TTL_MS / 60_000} minutes`,
        ),
      ),
    }),
    providerSongId: z
      .string()
      .meta(
        provenanceMeta(
          assumed('document 3 takes a providerSongId on /track, /remix and /extend without saying where a client reads it'),
          "the provider's id of this song: pass it to /track, /remix (musicA) or /extend",
        ),
      ),
  })
  .openapi('MusicTrack');
export type MusicTrack = z.infer<typeof MusicTrack>;

const UploadEcho = z
  .strictObject({
    filename: z.string(),
    bytes: z.number().int().nonnegative(),
    type: z.string().meta({ description: 'the file type read from its content (mp3, m4a, wav, jpeg, png, webp, mp4, mov, avi, mkv, webm)' }),
  })
  .meta({ description: 'an uploaded file: its name, size and type' });

/** The task's params (document 3: "includes model ..., prompt, instrumental"; the other echoed fields are assumed). */
export const MusicTaskParams = z
  .strictObject({
    model: z.string().meta({ description: 'the tier the task ran on, which creditCost is priced against (an extend on auto ran on musicA-7.6)' }),
    prompt: z.string().meta({ description: 'the prompt used: the prompt sent, else the style (its fallback on /generate), else empty' }),
    instrumental: z.boolean(),
    lyrics: z.string().optional(),
    style: z.string().optional(),
    title: z.string().optional(),
    customMode: z.boolean().optional().meta({ description: 'musicB' }),
    vocalId: z.string().optional(),
    providerParams: z
      .strictObject({
        negativeTags: z.string().optional(),
        vocalGender: z.enum(musicBVocalGenders).optional(),
        styleWeight: z.number().optional(),
        weirdnessConstraint: z.number().optional(),
        audioWeight: z.number().optional(),
        personaId: z.string().optional(),
        personaModel: z.string().optional(),
      })
      .optional()
      .meta({ description: 'the musicB parameters kept (on /extend: the top-level ones)' }),
    generateType: z.enum(trackGenerateTypes).optional(),
    vocalGender: z.enum(trackVocalGenders).optional(),
    generateStart: z.number().optional(),
    generateEnd: z.number().optional(),
    referenceAudio: UploadEcho.optional(),
    image: UploadEcho.optional(),
    video: UploadEcho.optional(),
    audio: UploadEcho.optional(),
    audioUrl: z.string().optional(),
    uploadUrl: z.string().optional(),
    providerSongId: z.string().optional(),
    taskId: z.string().optional().meta({ description: 'extend: the source task' }),
    trackIndex: z.number().int().optional().meta({ description: 'extend: the source track' }),
    continueAt: z.number().optional().meta({ description: 'extend: seconds' }),
  })
  .meta(
    provenanceMeta(
      assumed(
        'document 3 says params includes model, prompt and instrumental; this contract echoes the other request fields too, files by name, size and type',
      ),
    ),
  )
  .openapi('MusicTaskParams');
export type MusicTaskParams = z.infer<typeof MusicTaskParams>;

/** The music task (document 3, "Music task"). */
export const MusicTask = z
  .strictObject({
    id: z.string().meta({ description: 'task id' }),
    provider: z.enum(musicProviders).meta({ description: 'the provider that ran it (default resolves to musicA)' }),
    // document 3 types it as a string, "operation type (for example GENERATE)": open, so a client must accept a type it does not know
    taskType: z.string().meta({
      description: 'operation type (for example GENERATE); an open set: a client keeps a value it does not know',
      examples: ['GENERATE'],
    }),
    status: z.enum(musicStatuses),
    params: MusicTaskParams,
    tracks: z
      .array(MusicTrack)
      .meta({ description: 'empty until success; musicA one track, musicB two (assumed); audioUrl values are signed and expire an hour after this fetch' }),
    creditCost: z
      .number()
      .nonnegative()
      .meta(
        provenanceMeta(
          assumed('document 3 gives creditCost without saying when it is set; as lyrics: 0 until success'),
          'credits: 0 until success, then the price',
        ),
      ),
    errorMessage: z.string().optional().meta({ description: 'only when failed: the code and what went wrong' }),
    createdAt: EpochMs,
    updatedAt: EpochMs,
  })
  .openapi('MusicTask');
export type MusicTask = z.infer<typeof MusicTask>;

// ---------------------------------------------------------------------------
// Operations
// ---------------------------------------------------------------------------

const section = fromSeed(3, 'Music: asynchronous generation (prefix /v1/music)');
const s = musicSchedule;
const sec = (ms: number) => `${ms / 1000} s`;

const lifecycleText =
  'Poll GET /v1/music/tasks/{taskId} (document 3: wait about 30 s, then every 10 s; typical 1-3 minutes). ' +
  `Schedule: pending ${sec(s.pendingMs)}, generating ${sec(s.generatingMinMs)}-${sec(s.generatingMaxMs)} (fixed per task), uploading ${sec(s.uploadingMs)}, then success with its tracks (assumed schedule; document 3: typical 1-3 minutes). ` +
  `A task without progress for ${s.timeoutMs / 60_000} minutes fails with 39013, refunded in full (assumed). ` +
  'Credits are reserved at creation (402 with 39003 when the balance is short, nothing reserved), captured on success (creditCost is 0 until then), refunded on failure.';

const musicAModelTable = musicAModels.map((m) => `${m.model} ${m.credits}`).join(', ');
const musicBModelTable = musicBModels.map((m) => `${m.model} ${m.credits}`).join(', ');
const createErrors = ['MUSIC_INVALID_PARAMETERS', 'MUSIC_MODEL_UNSUPPORTED', 'MUSIC_INSUFFICIENT_CREDITS'] as const;
const uploadErrors = [...createErrors, 'MUSIC_UNSUPPORTED_FILE', 'MUSIC_FILE_TOO_LARGE'] as const;
const failureReasons = ['MUSIC_GENERATION_FAILED', 'MUSIC_PROVIDER_REJECTED', 'MUSIC_TIMED_OUT'] as const;
const created = { status: 202, kind: 'envelope', schema: CreateMusicData, description: 'the task, pending' } as const;
// What the operations below share: each states only what differs (operationsWith, schemas/define.ts).
const op = operationsWith({ auth: true, validationError: 'MUSIC_INVALID_PARAMETERS' });
const taskOp = operationsWith({
  provenance: section,
  auth: true,
  validationError: 'MUSIC_INVALID_PARAMETERS',
  fieldErrors: { model: 'MUSIC_MODEL_UNSUPPORTED' },
  charges: true,
  outcomes: ['failed', 'stuck'],
  failureReasons: [...failureReasons],
});
const audioUpload = { maxFileBytes: MUSIC_AUDIO_MAX_BYTES };

/** The music task's states as data (document 3, "States and transitions"; recommended polling: wait about 30 s, then every 10 s). */
const musicLifecycle: LifecycleDef = {
  statusField: 'status',
  states: musicStatuses,
  transitions: { pending: ['generating', 'failed'], generating: ['uploading', 'success', 'failed'], uploading: ['success', 'failed'] },
  terminal: ['success', 'failed'],
  success: 'success',
  pollOperationId: 'getMusicTask',
  idField: 'taskId',
  firstPollMs: 30_000,
  intervalMs: 10_000,
  timeoutMs: musicSchedule.timeoutMs + 60_000,
  provenance: assumed(
    "document 3 recommends waiting about 30 s, then polling every 10 s (typically 1-3 minutes); the timeout is not shown: the assumed schedule's, plus a minute",
  ),
  example: {
    prompt: 'warm indie pop, acoustic guitar, hand claps',
    lyrics: '[Verse]\nSummer roads and open windows\n[Chorus]\nSing it loud, we are going home',
    title: 'Open Windows',
  },
  successRequires: ['tracks'],
  media: [{ urlField: 'tracks[].audioUrl', contentTypes: ['audio/mpeg'], durationField: 'tracks[].duration' }],
  chargedField: 'creditCost',
};

export const musicOperations = defineOperations('Music', {
  generateMusic: taskOp({
    method: 'post',
    path: '/v1/music/generate',
    summary: 'Generate a song (musicA or musicB)',
    description:
      `HTTP 202 with {taskId, status: pending}. provider: default (runs on ${providerTable.default}), musicA or musicB; the task reports the provider that ran it. ` +
      `musicA requires lyrics unless instrumental is true; musicB reads prompt as lyrics (or takes lyrics) in custom mode (customMode, default true) and drives the whole song from prompt with customMode false. ` +
      `vocalId is musicA only; customMode and providerParams (the musicB parameters: negativeTags, vocalGender m|f, styleWeight, weirdnessConstraint, audioWeight 0-1, personaId, personaModel with personaId; other keys dropped) are musicB only (the other provider: 39006). ` +
      `model: default ${MUSIC_A_DEFAULT_MODEL} on musicA, ${MUSIC_B_DEFAULT_MODEL} on musicB; one of the provider's models (39007). Price by model: musicA ${musicAModelTable}; musicB ${musicBModelTable}. ${lifecycleText}`,
    provenance: section,
    request: { body: json(CreateMusicGenerateRequest) },
    stateRules: generateStateRules,
    response: created,
    errors: [...createErrors, 'MUSIC_PROVIDER_UNSUPPORTED'],
    lifecycle: musicLifecycle,
  }),
  generateInstrumental: taskOp({
    method: 'post',
    path: '/v1/music/instrumental',
    summary: 'Generate an instrumental (musicA, multipart)',
    description:
      `multipart/form-data: prompt or referenceAudio (${musicFileTypes.referenceAudio.join(' or ')}, judged by its content, at most 10 MB: 413 with 39005), exactly one; model (${musicAModelsFor('instrumental').join(', ')}; default auto; musicA-9 is not available here: 39007). musicA only. ` +
      `Price by model: ${musicAModels
        .filter((m) => musicAModelAllows(m.model, 'instrumental'))
        .map((m) => `${m.model} ${m.credits}`)
        .join(', ')}. One track. ${lifecycleText}`,
    request: {
      body: multipart(CreateMusicInstrumentalRequest, {
        files: { referenceAudio: audioUpload },
        maxTotalBytes: MUSIC_AUDIO_MAX_BYTES,
        limitError: 'MUSIC_FILE_TOO_LARGE',
      }),
    },
    stateRules: instrumentalStateRules,
    response: created,
    errors: [...uploadErrors],
  }),
  generateSoundtrack: taskOp({
    method: 'post',
    path: '/v1/music/soundtrack',
    summary: 'Generate a soundtrack for an image or a video (musicA, multipart)',
    description:
      `multipart/form-data: image (${musicFileTypes.image.join(', ')}; at most ${soundtrackUploads.imageMaxBytes / 1024 / 1024} MB, assumed) or video (${musicFileTypes.video.join(', ')}; at most ${soundtrackUploads.videoMaxBytes / 1024 / 1024} MB, assumed), exactly one, judged by their content (39004); prompt (optional); model (${musicAModelsFor('soundtrack').join(', ')}; default auto). musicA only. ` +
      `Price: a flat ${musicFlatCredits.soundtrack} credits (assumed). One track: as long as the video (when it can be read; AVI cannot), else 30-90 s. ${lifecycleText}`,
    request: {
      body: multipart(CreateMusicSoundtrackRequest, {
        files: { image: { maxFileBytes: soundtrackUploads.imageMaxBytes }, video: { maxFileBytes: soundtrackUploads.videoMaxBytes } },
        maxTotalBytes: soundtrackUploads.videoMaxBytes + soundtrackUploads.imageMaxBytes,
        limitError: 'MUSIC_FILE_TOO_LARGE',
      }),
    },
    stateRules: soundtrackStateRules,
    response: created,
    errors: [...uploadErrors],
  }),
  generateTrack: taskOp({
    method: 'post',
    path: '/v1/music/track',
    summary: 'Generate one instrument or vocal track over a song (musicA, multipart)',
    description:
      `multipart/form-data: generateType (${trackGenerateTypes.join(', ')}), prompt, audio (${musicFileTypes.trackAudio.join(', ')}, judged by its content, at most 10 MB) or providerSongId (a musicA track of the caller's: 404 with 39009 otherwise; a musicB song: 39006), exactly one; ` +
      'lyrics (required with Vocals); vocalGender (male or female, Vocals only); generateStart and generateEnd (seconds: start before end, end within the source). The track lasts generateEnd - generateStart (default: the whole source). musicA only. ' +
      `Price: a flat ${musicFlatCredits.track} credits (assumed). ${lifecycleText}`,
    request: {
      body: multipart(CreateMusicTrackRequest, { files: { audio: audioUpload }, maxTotalBytes: MUSIC_AUDIO_MAX_BYTES, limitError: 'MUSIC_FILE_TOO_LARGE' }),
    },
    stateRules: trackStateRules,
    response: created,
    errors: [...uploadErrors, 'MUSIC_PROVIDER_UNSUPPORTED', 'MUSIC_SOURCE_NOT_FOUND'],
  }),
  remixMusic: taskOp({
    method: 'post',
    path: '/v1/music/remix',
    summary: 'Re-sing a musicA song with new lyrics (multipart)',
    description:
      `multipart/form-data: lyrics (the new lyrics), prompt, and exactly one source: audio (${musicFileTypes.remixAudio.join(' or ')}, judged by its content, at most 10 MB), audioUrl (an internal platform audio URL that belongs to the caller or is public: a track audioUrl of one of its music tasks; another account's track: 403 with 39008; one naming no track: 404 with 39009; another site's URL: 39001), or providerSongId (a musicA track of the caller's: 404 with 39009 otherwise; a musicB song: 39006). musicA only. ` +
      `Price: a flat ${musicFlatCredits.remix} credits (assumed). ${lifecycleText}`,
    request: {
      body: multipart(CreateMusicRemixRequest, { files: { audio: audioUpload }, maxTotalBytes: MUSIC_AUDIO_MAX_BYTES, limitError: 'MUSIC_FILE_TOO_LARGE' }),
    },
    stateRules: remixStateRules,
    response: created,
    errors: [...uploadErrors, 'MUSIC_PROVIDER_UNSUPPORTED', 'MUSIC_SOURCE_FORBIDDEN', 'MUSIC_SOURCE_NOT_FOUND'],
  }),
  coverMusic: taskOp({
    method: 'post',
    path: '/v1/music/cover',
    summary: 'Re-record a recording in a new style, keeping its melody (musicB)',
    description:
      "JSON. uploadUrl (required): a public http(s) URL, or a platform asset URL the caller owns (a track audioUrl of one of its music tasks); ownership is verified (another account's: 403 with 39008; naming no track: 404 with 39009). " +
      `model (a musicB tier, default ${MUSIC_B_DEFAULT_MODEL}); customMode (default true: style and title required, prompt holds the lyrics and is required unless instrumental; false: prompt alone drives the cover); instrumental (default false); providerParams (the musicB parameters; personaId in custom mode only). musicB only. ` +
      `Price by tier: ${musicBModelTable}. Two tracks. ${lifecycleText}`,
    request: { body: json(CreateMusicCoverRequest) },
    stateRules: coverStateRules,
    response: created,
    errors: [...createErrors, 'MUSIC_SOURCE_FORBIDDEN', 'MUSIC_SOURCE_NOT_FOUND'],
  }),
  extendMusic: taskOp({
    method: 'post',
    path: '/v1/music/extend',
    summary: 'Extend a song (multipart)',
    description:
      "multipart/form-data: taskId (a succeeded music task of the caller: 404 with 39002 otherwise, 409 with 39010 before it succeeds), trackIndex (default 0) or providerSongId (one of that task's tracks), continueAt (seconds: after 0, at most the track's duration; default its end), prompt, lyrics, " +
      `model (of the task's provider; default ${MUSIC_A_DEFAULT_MODEL} or ${MUSIC_B_DEFAULT_MODEL}), provider (default the task's; another: 39006), and on musicB tasks the musicB parameters as top-level fields (negativeTags, vocalGender m|f, styleWeight, weirdnessConstraint, audioWeight; on a musicA task: 39006). ` +
      `The new tracks last continueAt plus the continuation. Price (document 3): ${extendPricing.reducedCredits} credits for musicA-7.6 and for auto (priced, and reported in params.model, as musicA-7.6); ${extendPricing.otherCredits} for every other model, every musicB tier included. ${lifecycleText}`,
    // the price is document 3's ("Providers and models": extend pricing); the operation's shape is not shown
    provenance: assumed(
      'document 3 names /extend, its musicB parameters and its price ("Providers and models (lyrics and music)", "musicB parameters") but says its request and response shapes are not shown: the method (POST), the multipart body and the answer are assumed',
    ),
    request: { body: multipart(CreateMusicExtendRequest, { files: {}, maxTotalBytes: 0 }) },
    stateRules: extendStateRules,
    response: created,
    errors: [...createErrors, 'MUSIC_PROVIDER_UNSUPPORTED', 'MUSIC_TASK_NOT_FOUND', 'MUSIC_TASK_NOT_READY'],
  }),
  listMusicTasks: op({
    method: 'get',
    path: '/v1/music/tasks',
    summary: 'List music tasks of both providers, newest first',
    description: `page >= 1 (default 1), pageSize 1-${MUSIC_PAGE_SIZE_MAX} (default 20), status (${musicStatuses.join(', ')}). The caller's tasks only; track URLs are signed afresh by each list.`,
    provenance: section,
    request: { query: ListMusicQuery },
    response: { status: 200, kind: 'envelope', schema: paginated(MusicTask), description: 'a page of tasks' },
    errors: ['MUSIC_INVALID_PARAMETERS'],
  }),
  getMusicTask: op({
    method: 'get',
    path: '/v1/music/tasks/{taskId}',
    summary: 'Get a music task',
    description: `The task. Poll it until status is success or failed: wait about 30 s after the create, then every 10 s (typical 1-3 minutes). Each fetch signs its tracks' audioUrl afresh, valid about 1 hour from this fetch. An unknown task, or one of another user, answers 404 with 39002.`,
    provenance: fromSeed(3, 'Music task'),
    request: { params: MusicTaskPathParams },
    response: { status: 200, kind: 'envelope', schema: MusicTask, description: 'the task' },
    errors: ['MUSIC_INVALID_PARAMETERS', 'MUSIC_TASK_NOT_FOUND'],
  }),
});

export const musicTableAssumptions: TableAssumption[] = [
  {
    subject: 'music error numbers 39001-39015 and their HTTP statuses',
    reason: 'document 3, "Errors": "The numeric code values for lyrics, music, page-deck and extraction errors: not shown"',
  },
  {
    subject: `music schedule: pending ${sec(s.pendingMs)}, generating ${sec(s.generatingMinMs)}-${sec(s.generatingMaxMs)} (fixed per task id), uploading ${sec(s.uploadingMs)}; ${s.timeoutMs / 60_000} minutes without progress: failed (39013), refunded in full`,
    reason: 'document 3 gives the states and "typical 1-3 minutes", not the durations nor a timeout',
  },
  {
    subject: `flat prices: /soundtrack ${musicFlatCredits.soundtrack}, /track ${musicFlatCredits.track}, /remix ${musicFlatCredits.remix} credits; creditCost 0 until success`,
    reason: 'document 3, "Limits": "flat costs of the remaining music endpoints: not shown"; creditCost follows the lyrics task',
  },
  {
    subject:
      "POST /v1/music/extend is multipart/form-data with taskId, trackIndex (default 0) or providerSongId, continueAt (seconds, default the end of the track), prompt, lyrics, model (default the provider's), provider (default the task's) and the musicB parameters; params.model reports the tier an extend was priced on (auto: musicA-7.6)",
    reason: 'document 3 says the shape of /extend is not shown, and that the musicB parameters are its top-level form fields',
  },
  {
    subject: `tracks: musicA ${musicTrackCount.musicA}, musicB ${musicTrackCount.musicB} per task; a song lasts ${musicDurations.song.minMs / 1000}-${musicDurations.song.maxMs / 1000} s and a soundtrack of an image ${musicDurations.soundtrack.minMs / 1000}-${musicDurations.soundtrack.maxMs / 1000} s (steps of ${musicDurations.stepMs / 1000} s, fixed per task); a track of a known source lasts as long as it (a /track window: generateEnd - generateStart; a soundtrack: its video, when the video can be read: not AVI); an extension adds ${musicDurations.extension.minMs / 1000}-${musicDurations.extension.maxMs / 1000} s after continueAt; tags is a comma-separated string; each track has a providerSongId`,
    reason: 'document 3 gives the track fields, not how many tracks or how long; it takes providerSongId without saying where it is read',
  },
  {
    subject: `a signed audioUrl (?expires=<ms>&sig=<hex>, a keyed hash of the path and the expiry under a secret derived from the seed) loads for exactly ${MUSIC_URL_TTL_MS / 60_000} minutes after the fetch (GET or list) that produced it: then 403 with 39014; an altered or missing signature or expiry: 403 with 39015`,
    reason: 'document 3 says the URLs are signed and expire "about 1 hour" after the task is fetched, without the scheme',
  },
  {
    subject:
      "a platform URL (uploadUrl, audioUrl) is one on the service's own origin: it must be a track audioUrl of one of the caller's succeeded music tasks (its signature and expiry are not required: ownership is what is checked); another account's: 403 (39008), no track being public; any other: 404 (39009). On /cover any other http(s) URL counts as public and is accepted unread (its length assumed as a song's); on /remix, whose audioUrl document 3 calls internal platform audio, another site's URL is refused (39001)",
    reason:
      'document 3 says ownership is verified for platform asset URLs and that public URLs are accepted, not how either is recognised nor how a track is made public',
  },
  {
    subject:
      "providerSongId (/track, /remix, /extend) must name a musicA track of one of the caller's succeeded tasks (on /extend: a track of the task named); anything else: 404 (39009)",
    reason: 'document 3 calls it a musicA song id without saying which ids are valid; the mock knows only the songs it made',
  },
  {
    subject: `upload limits of /soundtrack: an image up to ${soundtrackUploads.imageMaxBytes / 1024 / 1024} MB, a video up to ${soundtrackUploads.videoMaxBytes / 1024 / 1024} MB; every upload is judged by its content (magic bytes; audio must also be readable as audio), not its name`,
    reason: 'document 3 gives 10 MB for audio uploads only, and the accepted types by name',
  },
  {
    subject: `text limits: prompt ${musicTextLimits.prompt}, lyrics ${musicTextLimits.lyrics}, style ${musicTextLimits.style}, title ${musicTextLimits.title}, negativeTags ${musicTextLimits.negativeTags}, ids ${musicTextLimits.id} characters (code points); an instrumental needs prompt or style; a cover with customMode false needs prompt`,
    reason: 'document 3 gives no lengths, and does not say what an instrumental or a non-custom cover is made from',
  },
  {
    subject:
      'customMode and providerParams keys sent with musicA, and musicB parameters on an extend of a musicA task, answer 39006 rather than being ignored; params echoes the request fields (providerParams with the listed keys only)',
    reason: 'document 3 says these fields are musicB only (as vocalId is musicA only) without saying what happens otherwise',
  },
  {
    subject: 'the music list takes pageSize 1-100 (default 20) and status; no request limit on the music creates',
    reason: 'document 3 gives pageSize 1-100 for lyrics and shows no music request limit',
  },
];

export const musicArea = {
  tag: {
    name: 'Music',
    description: 'Songs, instrumentals, soundtracks, single tracks, remixes, covers and extensions, generated asynchronously by musicA or musicB (document 3).',
  },
  operations: musicOperations,
  tableAssumptions: musicTableAssumptions,
} satisfies Area;
