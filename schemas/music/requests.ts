/**
 * The JSON music creates (schemas/music.ts re-exports them): POST
 * /v1/music/generate (musicA or musicB) and /cover (musicB only), their bodies
 * and rules. Seed: document 3, "Music: asynchronous generation (prefix
 * /v1/music)", "musicB parameters".
 */
import { z } from '../zod.ts';
import { js, rule, withRules, type BodyRule, type JsonSchema, type StateRule } from '../rules.ts';
import { uriString } from '../common.ts';
import { MUSIC_A_DEFAULT_MODEL, MUSIC_B_DEFAULT_MODEL, musicProviders, providerTable, providerValues, type MusicProvider } from '../music-providers.ts';
import { allModels, modelsOf, musicBTiers, musicTextLimits } from './tables.ts';
import {
  creditsRule,
  httpUrlRule,
  INVALID,
  lyricsField,
  mainTexts,
  musicBParameterNames,
  MusicBProviderParams,
  platformUrlRules,
  promptField,
  providerParamRules,
  sentNotBlank,
  sentParams,
  styleField,
  textRule,
  titleField,
  under,
} from './params.ts';

// ---------------------------------------------------------------------------
// POST /v1/music/generate
// ---------------------------------------------------------------------------

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
export const generateStateRules: StateRule[] = [creditsRule];

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
export const coverStateRules: StateRule[] = [...platformUrlRules('uploadUrl'), creditsRule];

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
