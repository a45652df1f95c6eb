/**
 * Requests of the dedicated family5 endpoint (schemas/video.ts re-exports
 * them): assets, options, the create and estimate bodies, their capability
 * rules and the rules that read the account. Seed: document 1, "Video:
 * family5 create", "Video: family5 estimate".
 */
import { z } from '../zod.ts';
import { js, rule, withRules, type BodyRule, type JsonSchema, type RuleIssue, type StateRule } from '../rules.ts';
import {
  DEFAULT_VIDEO_DURATION,
  family5Models,
  family5Qualities,
  family5Ratios,
  family5Capabilities,
  family5AgentTypes,
  family5AgentDurations,
  type Family5Capability,
  type Family5Quality,
  family5Limits,
  family5PromptRequired,
  renderFamily5RuleTable,
} from './tables.ts';
import { Url } from './requests.ts';

// ---------------------------------------------------------------------------
// family5
// ---------------------------------------------------------------------------

export const Family5Asset = z.object({
  url: Url,
  duration: z.number().min(family5Limits.assetDuration.min).max(family5Limits.assetDuration.max).optional().meta({ description: 'seconds, 0-180' }),
});
// document 1 types these ids "string or number": any string, any number
const IdLike = z.union([z.string(), z.number()]);

/** The pixverse options object (document 1, "Video: family5 create", options table). */
export const Family5Options = z
  .object({
    agentType: z.enum(family5AgentTypes).optional().meta({ description: 'agent: ad_master or promo_mix' }),
    motionMode: z.string().optional().meta({ description: 'motion preset' }),
    cameraMovement: z.string().optional().meta({ description: 'camera preset' }),
    templateId: IdLike.optional().meta({ description: 'template id' }),
    sourceVideoId: IdLike.optional().meta({ description: 'restyle, lip_sync: alternative to sourceTaskId' }),
    restyleId: IdLike.optional().meta({ description: 'restyle: required style id' }),
    multiTransition: z
      .array(z.object({ imageUrl: Url, duration: z.number().min(0).max(30).optional().meta({ description: 'seconds, 0-30' }), prompt: z.string().optional() }))
      .min(family5Limits.multiTransition.min)
      .max(family5Limits.multiTransition.max)
      .optional()
      .meta({ description: 'multi_transition: 2-7 clips' }),
    imageReferences: z
      .array(
        z.object({
          type: z.enum(['subject', 'background']),
          imageUrl: Url,
          refName: z
            .string()
            .regex(/^[A-Za-z][A-Za-z0-9_]{0,31}$/)
            .meta({ description: 'must match ^[A-Za-z][A-Za-z0-9_]{0,31}$; the prompt must contain @refName' }),
        }),
      )
      .min(family5Limits.imageReferences.min)
      .max(family5Limits.imageReferences.max)
      .optional()
      .meta({ description: 'fusion: 1-8 references' }),
    tts: z
      .object({ speakerId: z.string().min(1), content: z.string().min(1) })
      .optional()
      .meta({ description: 'lip_sync: text-to-speech audio source' }),
    // document 1, "Video: family5 create", the options table: optional, for any capability
    soundEffectSwitch: z.boolean().optional().meta({ description: 'enable generated sound effects' }),
    soundEffectContent: z.string().optional().meta({ description: 'sound-effect description' }),
    lipSyncTtsSwitch: z.boolean().optional().meta({ description: 'enable TTS-driven lip sync' }),
    lipSyncTtsSpeakerId: z.string().optional().meta({ description: 'lip sync: the speaker id of the TTS voice' }),
    lipSyncTtsContent: z.string().optional().meta({ description: 'lip sync: the spoken text' }),
    brandSticker: z
      .object({ imageUrl: Url, position: z.enum(['up', 'down', 'left', 'right', 'upper_left', 'lower_left', 'upper_right', 'lower_right']) })
      .optional()
      .meta({ description: 'agent: brand sticker' }),
    introOutroClip: z
      .object({ videoUrl: Url, position: z.enum(['start', 'end']) })
      .optional()
      .meta({ description: 'agent: intro or outro clip' }),
  })
  .openapi('Family5Options');

const family5Base = z.object({
  capability: z
    .enum(family5Capabilities)
    .meta({ description: `one of the nine: ${family5Capabilities.join(', ')}; each has its own required input (see the operation)` }),
  model: z
    .enum(family5Models)
    .default('family5')
    .meta({ description: `the version: ${family5Models.join(', ')} (default family5)` }),
  language: z.enum(['en', 'zh']).default('en').meta({ description: 'en (international region) or zh (China region)' }),
  prompt: z
    .string()
    .max(family5Limits.promptLength)
    .optional()
    .meta({ description: 'up to 2048 characters; required for text_to_video, image_to_video, transition, fusion, agent' }),
  quality: z
    .enum(family5Qualities)
    .optional()
    // the documented defaults, shown in the spec; the service applies the capability's own (family5Defaults)
    .meta({ default: '720p', description: 'default 720p; multi_transition defaults to 360p; mimic is locked to 720p; agent 720p or 1080p' }),
  aspectRatio: z.enum(family5Ratios).optional().meta({ default: '16:9', description: 'default 16:9; agent defaults to 9:16' }),
  duration: z
    .number()
    .int()
    .min(family5Limits.duration.min)
    .max(family5Limits.duration.max)
    .optional()
    .meta({ default: 5, description: 'seconds 1-60, default 5; agent accepts only 20, 30, 60 (default 30)' }),
  sourceTaskId: z.string().min(1).optional().meta({ description: 'a prior succeeded family5 task of the caller (restyle, lip_sync source video)' }),
  images: z
    .array(Family5Asset)
    .max(family5Limits.images)
    .default([])
    .meta({ description: `up to ${family5Limits.images} items { url, duration (0-180 s, optional) }` }),
  videos: z
    .array(Family5Asset)
    .max(family5Limits.videos)
    .default([])
    .meta({ description: `up to ${family5Limits.videos} items, the same shape as images` }),
  audios: z
    .array(Family5Asset)
    .max(family5Limits.audios)
    .default([])
    .meta({ description: `up to ${family5Limits.audios} item, the same shape as images` }),
  pixverse: Family5Options.default({}).meta({ description: 'the capability-specific options (the options object is sent under the field name pixverse)' }),
});
type Family5Base = z.infer<typeof family5Base>;

/** Defaults that depend on the capability: quality, aspect ratio and duration (document 1, "Video: family5 create"). */
export function family5Defaults(capability: Family5Capability): { quality: Family5Quality; aspectRatio: (typeof family5Ratios)[number]; duration: number } {
  return {
    quality: capability === 'multi_transition' ? '360p' : '720p',
    aspectRatio: capability === 'agent' ? '9:16' : '16:9',
    duration: capability === 'agent' ? 30 : DEFAULT_VIDEO_DURATION,
  };
}

/** Quality a family5 request runs at: mimic is locked to 720p; otherwise the request's, else the capability default. */
export function family5Quality(capability: Family5Capability, quality: Family5Quality | undefined): Family5Quality {
  return capability === 'mimic' ? '720p' : (quality ?? family5Defaults(capability).quality);
}

const F5 = 'F5_INVALID_PARAMETERS' as const;
/** A list field with at least `n` items (absent counts as empty). */
const atLeast = (field: string, n: number): JsonSchema => ({ required: [field], properties: { [field]: { minItems: n } } });
/** A list field with at most `n` items (absent counts as empty). */
const atMostItems = (field: string, n: number): JsonSchema => ({ properties: { [field]: { maxItems: n } } });
/** pixverse carries `field`. */
const pixverseHas = (field: string): JsonSchema => ({ required: ['pixverse'], properties: { pixverse: { required: [field] } } });
/** A source video other than `videos`: sourceTaskId or pixverse.sourceVideoId. */
const sourceVideo: JsonSchema = { anyOf: [{ required: ['sourceTaskId'] }, pixverseHas('sourceVideoId')] };
const noAssets: JsonSchema = { allOf: [atMostItems('images', 0), atMostItems('videos', 0), atMostItems('audios', 0)] };

type F5Common = { capability: Family5Capability; quality?: string; duration?: number };
type F5Body = F5Common & { images: unknown[]; videos: unknown[]; audios: unknown[] };

/** Duration, quality and agentType rules shared by family5 create and estimate (document 1, "Video: family5 create"). */
function family5CommonRules(): BodyRule<F5Common>[] {
  return [
    rule({
      id: 'family5.agent.duration',
      rule: `agent: duration ${family5AgentDurations.join(', ')}`,
      code: F5,
      path: ['duration'],
      message: (v) => `duration ${v.duration} is not accepted by agent (20, 30 or 60)`,
      when: { capability: 'agent' },
      then: { properties: { duration: { enum: [...family5AgentDurations] } } },
    }),
    rule({
      id: 'family5.agent.quality',
      rule: 'agent: quality 720p or 1080p',
      code: F5,
      path: ['quality'],
      message: (v) => `quality ${v.quality} is not accepted by agent (720p or 1080p)`,
      when: { capability: 'agent' },
      then: { properties: { quality: { enum: ['720p', '1080p'] } } },
    }),
    rule({
      id: 'family5.agent.agent-type',
      rule: 'agent: pixverse.agentType required',
      code: F5,
      path: ['pixverse', 'agentType'],
      message: 'pixverse.agentType is required for agent (ad_master or promo_mix)',
      when: { capability: 'agent' },
      then: pixverseHas('agentType'),
    }),
    rule({
      id: 'family5.mimic.quality',
      rule: 'mimic: quality 720p (locked)',
      code: F5,
      path: ['quality'],
      message: (v) => `quality is locked to 720p for mimic (got ${v.quality})`,
      when: { capability: 'mimic' },
      then: { properties: { quality: { const: '720p' } } },
    }),
  ];
}

/** Every capability rule of a family5 create request (document 1, "Capability rules"). Errors: F5_INVALID_PARAMETERS, F5_AUDIO_NEEDS_VISUAL. */
function family5CreateRules(): BodyRule<F5Body>[] {
  const r = (id: string, capability: Family5Capability, words: string, path: (string | number)[], then: JsonSchema, message?: BodyRule<F5Body>['message']) =>
    rule<F5Body>({
      id: `family5.${capability}.${id}`,
      rule: `${capability}: ${words}`,
      code: F5,
      path,
      when: { capability },
      then,
      ...(message ? { message } : {}),
    });
  const mimic = family5Limits.mimicVideoDuration;
  const lipAudio = family5Limits.lipSyncAudioDuration;
  return [
    ...family5CommonRules(),
    rule({
      id: 'family5.prompt-required',
      rule: `${family5PromptRequired.join(', ')}: prompt required (not blank)`,
      code: F5,
      path: ['prompt'],
      message: (v) => `prompt is required for ${v.capability}`,
      when: { capability: family5PromptRequired },
      then: { required: ['prompt'], properties: { prompt: js.notBlank } },
    }),
    rule({
      id: 'family5.audio-needs-visual',
      rule: 'audio input needs an image, a video, sourceTaskId or pixverse.sourceVideoId',
      code: 'F5_AUDIO_NEEDS_VISUAL',
      path: ['audios'],
      message: 'audio input requires at least one image or video',
      then: { if: atLeast('audios', 1), then: { anyOf: [atLeast('images', 1), atLeast('videos', 1), sourceVideo] } },
    }),
    r(
      'no-assets',
      'text_to_video',
      'no images, videos or audios',
      ['images'],
      noAssets,
      'text_to_video takes no assets (images, videos, audios must be empty)',
    ),
    r('images', 'image_to_video', '1-10 images', ['images'], atLeast('images', 1), 'image_to_video needs 1-10 images'),
    r(
      'images',
      'transition',
      'exactly 2 images',
      ['images'],
      { allOf: [atLeast('images', 2), atMostItems('images', 2)] },
      (v) => `transition needs exactly 2 images (got ${v.images.length})`,
    ),
    r(
      'clips',
      'multi_transition',
      'pixverse.multiTransition required',
      ['pixverse', 'multiTransition'],
      pixverseHas('multiTransition'),
      'multi_transition needs pixverse.multiTransition (2-7 clips)',
    ),
    r(
      'no-assets',
      'multi_transition',
      'no top-level images, videos or audios',
      ['images'],
      noAssets,
      'multi_transition takes no top-level images, videos or audios',
    ),
    r(
      'references',
      'fusion',
      'pixverse.imageReferences required',
      ['pixverse', 'imageReferences'],
      pixverseHas('imageReferences'),
      'fusion needs pixverse.imageReferences (1-8)',
    ),
    r('source', 'restyle', 'sourceTaskId or pixverse.sourceVideoId', ['sourceTaskId'], sourceVideo, 'restyle needs sourceTaskId or pixverse.sourceVideoId'),
    r('restyle-id', 'restyle', 'pixverse.restyleId required', ['pixverse', 'restyleId'], pixverseHas('restyleId'), 'restyle needs pixverse.restyleId'),
    r('no-assets', 'restyle', 'no images, videos or audios', ['images'], noAssets, 'restyle takes no assets (images, videos, audios must be empty)'),
    r(
      'assets',
      'mimic',
      'exactly 1 image and 1 video',
      ['images'],
      { allOf: [atLeast('images', 1), atMostItems('images', 1), atLeast('videos', 1), atMostItems('videos', 1)] },
      (v) => `mimic needs exactly 1 image and 1 video (got ${v.images.length} images, ${v.videos.length} videos)`,
    ),
    r(
      'video-duration',
      'mimic',
      `video duration ${mimic.min}-${mimic.max} s`,
      ['videos', 0, 'duration'],
      { properties: { videos: { items: { properties: { duration: { minimum: mimic.min, maximum: mimic.max } } } } } },
      `mimic video duration is outside ${mimic.min}-${mimic.max} s`,
    ),
    r(
      'source',
      'lip_sync',
      'exactly one source video: 1 video, or sourceTaskId or pixverse.sourceVideoId',
      ['videos'],
      {
        anyOf: [{ allOf: [atLeast('videos', 1), atMostItems('videos', 1), { not: sourceVideo }] }, { allOf: [atMostItems('videos', 0), sourceVideo] }],
      },
      'lip_sync needs exactly one source video (1 video or sourceTaskId/pixverse.sourceVideoId)',
    ),
    r(
      'audio-source',
      'lip_sync',
      'exactly one audio source: 1 audio or pixverse.tts, not both',
      ['audios'],
      { oneOf: [atLeast('audios', 1), pixverseHas('tts')] },
      'lip_sync needs exactly one audio source (1 audio or pixverse.tts, not both)',
    ),
    r(
      'audio-duration',
      'lip_sync',
      `audio duration ${lipAudio.min}-${lipAudio.max} s`,
      ['audios', 0, 'duration'],
      { properties: { audios: { items: { properties: { duration: { minimum: lipAudio.min, maximum: lipAudio.max } } } } } },
      `lip_sync audio duration is outside ${lipAudio.min}-${lipAudio.max} s`,
    ),
    r(
      'promo-mix-images',
      'agent',
      `promo_mix needs at least ${family5Limits.promoMixMinImages} product images`,
      ['images'],
      { if: pixverseAgent('promo_mix'), then: atLeast('images', family5Limits.promoMixMinImages) },
      (v) => `agent promo_mix needs at least ${family5Limits.promoMixMinImages} product images (got ${v.images.length})`,
    ),
    r(
      'ad-master-images',
      'agent',
      'ad_master needs at least 1 product image',
      ['images'],
      { if: pixverseAgent('ad_master'), then: atLeast('images', 1) },
      'agent ad_master needs at least 1 product image',
    ),
    r(
      'ad-master-videos',
      'agent',
      'ad_master takes no video',
      ['videos'],
      { if: pixverseAgent('ad_master'), then: atMostItems('videos', 0) },
      'agent ad_master takes no video',
    ),
  ];
}

function pixverseAgent(type: (typeof family5AgentTypes)[number]): JsonSchema {
  return { required: ['pixverse'], properties: { pixverse: { required: ['agentType'], properties: { agentType: { const: type } } } } };
}

/** fusion: the prompt names every reference as @refName (one field inside another: JSON Schema cannot say it; listed in x-rules). */
function checkFusionNames(v: Family5Base): RuleIssue[] {
  if (v.capability !== 'fusion' || !v.pixverse.imageReferences) return [];
  const prompt = v.prompt ?? '';
  return v.pixverse.imageReferences.flatMap((r, i) =>
    prompt.includes(`@${r.refName}`)
      ? []
      : [{ path: ['pixverse', 'imageReferences', i, 'refName'], message: `the prompt must contain @${r.refName} for fusion`, error: F5 } satisfies RuleIssue],
  );
}

/** Body of POST /v1/video-generation/family5/generate (document 1, "Video: family5 create"). */
export const CreateFamily5VideoTaskRequest = withRules(
  family5Base,
  family5CreateRules(),
  'CreateFamily5VideoTaskRequest',
  {
    description: `Create a family5 task. Capability rules (document 1, "Capability rules"):\n\n${renderFamily5RuleTable()}\n\nRestyle and lip_sync accept a prior succeeded family5 task of the caller as sourceTaskId (32001 unknown, 32005 another user's, 32004 not a succeeded family5 task).`,
    example: { capability: 'text_to_video', prompt: 'A paper boat drifting down a rainy street', duration: 5 },
  },
  checkFusionNames,
);
export type CreateFamily5VideoTaskRequest = z.infer<typeof CreateFamily5VideoTaskRequest>;

/** Rules of family5 create that no schema carries (listed in x-rules). */
export const family5StateRules: StateRule[] = [
  { code: F5, fields: ['prompt', 'pixverse.imageReferences'], rule: 'fusion: the prompt contains @refName for every image reference', reads: 'body' },
  { code: 'F5_TASK_NOT_FOUND', fields: ['sourceTaskId'], rule: 'sourceTaskId names a task of the service', reads: 'state' },
  { code: 'F5_TASK_FORBIDDEN', fields: ['sourceTaskId'], rule: "sourceTaskId is the caller's own task", reads: 'state' },
  { code: F5, fields: ['sourceTaskId'], rule: 'sourceTaskId is a succeeded family5 task', reads: 'state' },
  { code: 'F5_INSUFFICIENT_CREDITS', fields: [], rule: 'the balance covers the price', reads: 'account' },
];

const estimateFamily5Base = z.object({
  capability: z
    .enum(family5Capabilities)
    .meta({ description: `one of the nine: ${family5Capabilities.join(', ')}; each has its own required input (see the operation)` }),
  model: z
    .enum(family5Models)
    .default('family5')
    .meta({ description: `the version: ${family5Models.join(', ')} (default family5)` }),
  language: z.enum(['en', 'zh']).default('en'),
  duration: z.number().int().min(1).max(60).optional().meta({ default: 5, description: 'default 5; 1-60; agent 20, 30 or 60 (default 30)' }),
  quality: z.enum(family5Qualities).optional().meta({ default: '720p', description: 'default 720p; multi_transition 360p' }),
  pixverse: z.object({ agentType: z.enum(family5AgentTypes).optional() }).default({}),
});

/** Body of POST /v1/video-generation/family5/estimate-credits (document 1, "Video: family5 estimate"). */
export const EstimateFamily5CreditsRequest = withRules(estimateFamily5Base, family5CommonRules(), 'EstimateFamily5CreditsRequest', {
  example: { capability: 'agent', duration: 30, quality: '1080p', pixverse: { agentType: 'promo_mix' } },
});
export type EstimateFamily5CreditsRequest = z.infer<typeof EstimateFamily5CreditsRequest>;
