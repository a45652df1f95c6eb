/**
 * Video generation contract: the shared endpoint (families 1-4) and the dedicated
 * family5 endpoint, their models, content rules, capability rules, tasks, list
 * items, estimates, prices and the simulated schedule.
 *
 * Seed: document 1, "Video task", "Video models", "Content items (shared video
 * endpoint)", "Video: create task (shared)", "Video: get task", "Video: list
 * tasks", "Video: estimate (shared)", "Video: family5 create", "Video: family5
 * estimate", "Limits". Rules OpenAPI cannot express are the data tables below;
 * the Zod refinements and the spec descriptions both read them.
 */
import { z } from './zod.ts';
import { js, rule, whenSchema, withRules, type BodyRule, type JsonSchema, type RuleIssue, type StateRule } from './rules.ts';
import { EpochMs, pageQuery, paginated, uriString } from './common.ts';
import type { ErrorName } from './errors.ts';
import { assumed, fromSeed, provenanceMeta, type TableAssumption } from './provenance.ts';
import { defineOperations, json, type Area } from './define.ts';
import type { LifecycleDef } from './registry-types.ts';

// ---------------------------------------------------------------------------
// Tables
// ---------------------------------------------------------------------------

/** Every video resolution the API names (document 1, "Video: create task (shared)" and "Video models"). */
export const videoResolutions = ['480p', '720p', '1080p', '768p', '2k'] as const;
/** Every aspect ratio of the shared endpoint (document 1, "Video: create task (shared)"). */
export const videoRatios = ['16:9', '4:3', '1:1', '3:4', '9:16', '21:9', '4:5', '5:4'] as const;
/** Task statuses (document 1, "Video task"). */
export const videoStatuses = ['pending', 'generating', 'uploading', 'success', 'failed'] as const;

export type VideoResolution = (typeof videoResolutions)[number];
export type VideoRatio = (typeof videoRatios)[number];
export type VideoStatus = (typeof videoStatuses)[number];

/** An inclusive integer range in seconds. */
export interface SecondsRange {
  min: number;
  max: number;
}

/** Everything the shared endpoint knows about one model (document 1, "Video models", "Content items", "Video: create task (shared)"). */
export interface SharedVideoModel {
  family: 'family1' | 'family2' | 'family3' | 'family4';
  resolutions: readonly VideoResolution[];
  /** Resolution used when the request has none. 720p per the seed; 768p on family3-h3 (assumed: the seed's 720p default is not a family3-h3 resolution). */
  defaultResolution: VideoResolution;
  duration: SecondsRange;
  ratios: readonly VideoRatio[];
  /** Maximum image_url items (rule 1 of "Content items"). */
  maxImages: number;
  /** Maximum characters of the text item. */
  maxTextLength: number;
  /** Accepted inputVideoDuration when content has video_url (rule 3 of "Content items"). */
  videoInput: SecondsRange;
  /** family2: inputVideoDuration + duration must not exceed this. */
  maxInputPlusOutput?: number;
  /** last_frame accepted without a first_frame (family3-h3). */
  lastFrameAlone: boolean;
  /** last_frame accepted at all (not on family4). */
  lastFrame: boolean;
  /** audio_url accepted at all (not on family4). */
  audio: boolean;
  /** audio_url accepted with no image or video item (family2 and family3-h3). */
  audioAlone: boolean;
  /** generateAudio and seed are ignored (family3-h3 always has a sound track). */
  ignoresAudioAndSeed: boolean;
}

const ALL6: readonly VideoRatio[] = ['16:9', '4:3', '1:1', '3:4', '9:16', '21:9'];
const FIVE: readonly VideoRatio[] = ['16:9', '4:3', '1:1', '3:4', '9:16'];

/** The six models of the shared endpoint (document 1, "Video models" and "Model limits"). */
export const sharedVideoModels = {
  'family1-video-2-fast': {
    family: 'family1',
    resolutions: ['480p', '720p'],
    defaultResolution: '720p',
    duration: { min: 4, max: 15 },
    ratios: ALL6,
    maxImages: 9,
    maxTextLength: 1500,
    videoInput: { min: 2, max: 15 },
    lastFrameAlone: false,
    lastFrame: true,
    audio: true,
    audioAlone: false,
    ignoresAudioAndSeed: false,
  },
  'family1-video-2-pro': {
    family: 'family1',
    resolutions: ['480p', '720p', '1080p'],
    defaultResolution: '720p',
    duration: { min: 4, max: 15 },
    ratios: ALL6,
    maxImages: 9,
    maxTextLength: 1500,
    videoInput: { min: 2, max: 15 },
    lastFrameAlone: false,
    lastFrame: true,
    audio: true,
    audioAlone: false,
    ignoresAudioAndSeed: false,
  },
  'family2-video': {
    family: 'family2',
    resolutions: ['480p', '720p', '1080p'],
    defaultResolution: '720p',
    duration: { min: 2, max: 30 },
    ratios: FIVE,
    maxImages: 9,
    maxTextLength: 2500,
    videoInput: { min: 1, max: 15 },
    maxInputPlusOutput: 30,
    lastFrameAlone: false,
    lastFrame: true,
    audio: true,
    audioAlone: true,
    ignoresAudioAndSeed: false,
  },
  'family2-video-prime': {
    family: 'family2',
    resolutions: ['480p', '720p', '1080p'],
    defaultResolution: '720p',
    duration: { min: 2, max: 30 },
    ratios: FIVE,
    maxImages: 9,
    maxTextLength: 2500,
    videoInput: { min: 1, max: 15 },
    maxInputPlusOutput: 30,
    lastFrameAlone: false,
    lastFrame: true,
    audio: true,
    audioAlone: true,
    ignoresAudioAndSeed: false,
  },
  'family3-h3': {
    family: 'family3',
    resolutions: ['768p', '2k'],
    defaultResolution: '768p',
    duration: { min: 4, max: 15 },
    ratios: ALL6,
    maxImages: 5,
    maxTextLength: 2500,
    videoInput: { min: 2, max: 15 },
    lastFrameAlone: true,
    lastFrame: true,
    audio: true,
    audioAlone: true,
    ignoresAudioAndSeed: true,
  },
  'family4-video': {
    family: 'family4',
    resolutions: ['720p', '1080p'],
    defaultResolution: '720p',
    duration: { min: 3, max: 15 },
    ratios: [...ALL6, '4:5', '5:4'],
    maxImages: 9,
    maxTextLength: 2500,
    videoInput: { min: 3, max: 60 },
    lastFrameAlone: false,
    lastFrame: false,
    audio: false,
    audioAlone: false,
    ignoresAudioAndSeed: false,
  },
} as const satisfies Record<string, SharedVideoModel>;

export type SharedVideoModelId = keyof typeof sharedVideoModels;
export const sharedVideoModelIds = Object.keys(sharedVideoModels) as [SharedVideoModelId, ...SharedVideoModelId[]];
/** Default model of the shared endpoint. */
export const DEFAULT_SHARED_VIDEO_MODEL: SharedVideoModelId = 'family1-video-2-fast';
/** Largest seed of the shared endpoint (document 1, "Video: create task (shared)": -1 to 4294967295); a random seed is drawn from 0 to it. */
export const MAX_VIDEO_SEED = 4_294_967_295;

/** Default duration in seconds of both create endpoints (document 1, "Video: create task (shared)", "Video: family5 create"). */
export const DEFAULT_VIDEO_DURATION = 5;

/** The duration field of the shared endpoint and its estimate, seconds: every model's range lies within it. */
export const VIDEO_DURATION_FIELD = { min: 2, max: 30 } as const;

/** Content limits of the shared endpoint (document 1, "Content items" rule 1 and "Limits"). */
export const contentLimits = { minItems: 1, maxItems: 16, maxText: 1, maxImages: 9, maxVideos: 3, maxAudios: 3, maxTextLength: 2500 } as const;

/** Roles of content items (document 1, "Content items" rule 2). */
export const frameRoles = ['first_frame', 'last_frame'] as const;
export const referenceRoles = ['reference_image', 'reference_video', 'reference_audio'] as const;

/** family5 versions, qualities, ratios and capabilities (document 1, "Video: family5 create"). */
export const family5Models = ['family5', 'v6', 'v5', 'v4.5'] as const;
export const family5Qualities = ['360p', '540p', '720p', '1080p'] as const;
export const family5Ratios = ['9:16', '16:9', '1:1', '4:3', '3:4'] as const;
export const family5Capabilities = [
  'text_to_video',
  'image_to_video',
  'transition',
  'multi_transition',
  'fusion',
  'restyle',
  'mimic',
  'lip_sync',
  'agent',
] as const;
export const family5AgentTypes = ['ad_master', 'promo_mix'] as const;
export const family5AgentDurations = [20, 30, 60] as const;
export type Family5Capability = (typeof family5Capabilities)[number];
export type Family5Quality = (typeof family5Qualities)[number];

/** family5 numeric limits (document 1, "Video: family5 create", "Limits"). */
export const family5Limits = {
  promptLength: 2048,
  duration: { min: 1, max: 60 },
  images: 10,
  videos: 2,
  audios: 1,
  assetDuration: { min: 0, max: 180 },
  multiTransition: { min: 2, max: 7, clipDuration: { min: 0, max: 30 } },
  imageReferences: { min: 1, max: 8 },
  mimicVideoDuration: { min: 5, max: 30 },
  lipSyncAudioDuration: { min: 5, max: 60 },
  promoMixMinImages: 4,
} as const;

/** Capability rules of family5, one line each, rendered into the spec (document 1, "Capability rules"). */
export const family5CapabilityRules: Record<Family5Capability, string> = {
  text_to_video: 'prompt; no assets',
  image_to_video: 'prompt plus 1-10 images',
  transition: 'exactly 2 images plus prompt',
  multi_transition: 'pixverse.multiTransition (2-7 clips); no top-level images, videos or audios; default quality 360p',
  fusion: 'pixverse.imageReferences (1-8) plus a prompt containing @refName for every entry',
  restyle: 'sourceTaskId or pixverse.sourceVideoId, plus pixverse.restyleId; no assets',
  mimic: 'exactly 1 image and 1 video; quality locked to 720p; video duration, if given, 5-30 s',
  lip_sync: 'one source video (1 video or sourceTaskId) plus exactly one audio source: 1 audio of 5-60 s, or pixverse.tts, not both',
  agent:
    'pixverse.agentType plus product images; quality 720p or 1080p; duration 20, 30 or 60; promo_mix needs at least 4 product images; ad_master needs at least 1 product image and no video',
};

/** Capabilities whose prompt is required (document 1, "Video: family5 create", prompt row). */
export const family5PromptRequired: readonly Family5Capability[] = ['text_to_video', 'image_to_video', 'transition', 'fusion', 'agent'];

/** Rate limit of every video generate endpoint (document 1, "Limits"): 5 requests per 60 000 ms per user, both endpoints together. */
export const videoGenerateRateLimit = { bucket: 'video-generate', limit: 5, windowMs: 60_000 } as const;

// ---------------------------------------------------------------------------
// Prices and schedule (assumed: the seed gives no numbers)
// ---------------------------------------------------------------------------

/**
 * Credits per second of output video, per model and resolution (assumed: the seed
 * says credits are charged at creation but shows no price). Video input is billed
 * at `videoInputFactor` of the output rate per input second.
 */
export const sharedVideoPrices: Record<SharedVideoModelId, Partial<Record<VideoResolution, number>>> = {
  'family1-video-2-fast': { '480p': 4, '720p': 8 },
  'family1-video-2-pro': { '480p': 6, '720p': 12, '1080p': 24 },
  'family2-video': { '480p': 5, '720p': 10, '1080p': 20 },
  'family2-video-prime': { '480p': 8, '720p': 15, '1080p': 30 },
  'family3-h3': { '768p': 12, '2k': 30 },
  'family4-video': { '720p': 10, '1080p': 20 },
};
/** Share of the per-second rate charged for each second of input video (assumed). */
export const videoInputFactor = 0.5;
/** family5 credits per output second by quality (assumed). */
export const family5PricePerSecond: Record<Family5Quality, number> = { '360p': 3, '540p': 4, '720p': 6, '1080p': 12 };
/** family5 multiplier per capability (assumed). */
export const family5CapabilityFactor: Record<Family5Capability, number> = {
  text_to_video: 1,
  image_to_video: 1,
  transition: 1,
  multi_transition: 1.5,
  fusion: 1.5,
  restyle: 1.2,
  mimic: 1.5,
  lip_sync: 1.2,
  agent: 2,
};
/** family5 multiplier per version (assumed: older versions are cheaper). */
export const family5ModelFactor: Record<(typeof family5Models)[number], number> = { family5: 1, v6: 1, v5: 0.8, 'v4.5': 0.6 };
/** Conversion of credits to the estimate's units (assumed): tokens = credits x 1000; estimatedCostUsd = credits x 0.01. */
export const videoEstimateUnits = { tokensPerCredit: 1000, usdPerCredit: 0.01 } as const;

/**
 * Simulated schedule in virtual milliseconds (assumed: the seed shows only that a
 * create returns generating). generating lasts `generatingBaseMs + generatingPerSecondMs x duration`,
 * then uploading lasts `uploadingMs`, then success. A forced failure happens when generating would end.
 */
export const videoSchedule: Record<SharedVideoModelId | 'family5', { generatingBaseMs: number; generatingPerSecondMs: number; uploadingMs: number }> = {
  'family1-video-2-fast': { generatingBaseMs: 30_000, generatingPerSecondMs: 5_000, uploadingMs: 5_000 },
  'family1-video-2-pro': { generatingBaseMs: 45_000, generatingPerSecondMs: 8_000, uploadingMs: 5_000 },
  'family2-video': { generatingBaseMs: 40_000, generatingPerSecondMs: 6_000, uploadingMs: 5_000 },
  'family2-video-prime': { generatingBaseMs: 60_000, generatingPerSecondMs: 8_000, uploadingMs: 5_000 },
  'family3-h3': { generatingBaseMs: 60_000, generatingPerSecondMs: 10_000, uploadingMs: 8_000 },
  'family4-video': { generatingBaseMs: 50_000, generatingPerSecondMs: 7_000, uploadingMs: 5_000 },
  family5: { generatingBaseMs: 40_000, generatingPerSecondMs: 4_000, uploadingMs: 5_000 },
};

/** Milliseconds of generating and uploading for a task of `model` (schedule key) and `durationSeconds`. */
export function videoPhases(model: keyof typeof videoSchedule, durationSeconds: number): { generatingMs: number; uploadingMs: number } {
  const s = videoSchedule[model];
  return { generatingMs: s.generatingBaseMs + s.generatingPerSecondMs * durationSeconds, uploadingMs: s.uploadingMs };
}

/** Credits for a shared-endpoint task (assumed price table): ceil(rate x (duration + factor x inputVideoDuration)). */
export function sharedVideoCredits(model: SharedVideoModelId, resolution: VideoResolution, durationSeconds: number, inputVideoSeconds: number): number {
  const rate = sharedVideoPrices[model][resolution];
  if (rate === undefined) throw new RangeError(`no price for ${model} at ${resolution}`);
  return Math.ceil(rate * (durationSeconds + videoInputFactor * inputVideoSeconds));
}

/** Credits for a family5 task (assumed price table): ceil(rate[quality] x duration x capability factor x model factor). */
export function family5Credits(capability: Family5Capability, model: (typeof family5Models)[number], quality: Family5Quality, durationSeconds: number): number {
  return Math.ceil(family5PricePerSecond[quality] * durationSeconds * family5CapabilityFactor[capability] * family5ModelFactor[model]);
}

/** The estimate endpoints' answer for a price in credits: `{tokens, estimatedCostUsd}`. */
export function videoEstimateFromCredits(credits: number): { tokens: number; estimatedCostUsd: number } {
  return { tokens: credits * videoEstimateUnits.tokensPerCredit, estimatedCostUsd: Math.round(credits * videoEstimateUnits.usdPerCredit * 100) / 100 };
}

/** Short side in pixels of every resolution and family5 quality (assumed: the usual meaning of the names; 2k is 1440). */
export const videoShortSide: Record<VideoResolution | Family5Quality, number> = {
  '360p': 360,
  '480p': 480,
  '540p': 540,
  '720p': 720,
  '768p': 768,
  '1080p': 1080,
  '2k': 1440,
};
/** Ratio rendered when a task reports ratio "adaptive" (family3-h3 image-to-video follows its first frame; assumed 16:9). */
export const ADAPTIVE_RATIO_OUTPUT = '16:9';

/**
 * Pixel size of the video of a task (assumed: the seed names resolutions and ratios without pixels):
 * the short side is the resolution's, the long side follows the ratio, rounded to an even number
 * (720p 16:9 = 1280x720, 720p 9:16 = 720x1280, 480p 16:9 = 854x480, 2k 21:9 = 3360x1440).
 * The cover image has the same size. Throws RangeError for an unknown resolution or a malformed ratio.
 */
export function videoPixels(resolution: string, ratio: string): { width: number; height: number } {
  const short = videoShortSide[resolution as VideoResolution];
  if (short === undefined) throw new RangeError(`no pixel size for resolution ${resolution}`);
  const [a, b] = (ratio === 'adaptive' ? ADAPTIVE_RATIO_OUTPUT : ratio).split(':').map(Number);
  if (!(a > 0 && b > 0)) throw new RangeError(`malformed ratio ${ratio}`);
  const long = Math.round((short * Math.max(a, b)) / Math.min(a, b) / 2) * 2;
  return a >= b ? { width: long, height: short } : { width: short, height: long };
}

// ---------------------------------------------------------------------------
// Rendering of the tables into spec descriptions
// ---------------------------------------------------------------------------

function table(head: string[], rows: (string | number)[][]): string {
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

/** Markdown table of the shared models, their limits and prices, for the spec. */
export function renderSharedModelTable(): string {
  return table(
    ['model', 'resolutions (default)', 'duration s', 'ratios', 'max images', 'max text', 'video input s', 'last_frame', 'audio_url', 'credits/s (assumed)'],
    sharedVideoModelIds.map((id) => {
      const m: SharedVideoModel = sharedVideoModels[id];
      return [
        id,
        `${m.resolutions.join(', ')} (${m.defaultResolution})`,
        `${m.duration.min}-${m.duration.max}`,
        m.ratios.join(', '),
        m.maxImages,
        m.maxTextLength,
        `${m.videoInput.min}-${m.videoInput.max}${m.maxInputPlusOutput ? `; input + duration <= ${m.maxInputPlusOutput}` : ''}`,
        !m.lastFrame ? 'no' : m.lastFrameAlone ? 'alone allowed' : 'needs first_frame',
        !m.audio ? 'no' : m.audioAlone ? 'alone allowed (prompt + audio)' : 'needs an image or video',
        Object.entries(sharedVideoPrices[id])
          .map(([r, p]) => `${r}: ${p}`)
          .join(', '),
      ];
    }),
  );
}

/** Markdown table of family5 capability rules, for the spec. */
export function renderFamily5RuleTable(): string {
  return table(
    ['capability', 'required input and constraints', 'credits factor (assumed)'],
    family5Capabilities.map((c) => [c, family5CapabilityRules[c], family5CapabilityFactor[c]]),
  );
}

/** Markdown table of the pixel sizes of every resolution and ratio, for the spec. */
export function renderVideoPixelTable(): string {
  const resolutions = Object.keys(videoShortSide) as (keyof typeof videoShortSide)[];
  return table(
    ['ratio', ...resolutions],
    videoRatios.map((r) => [
      r,
      ...resolutions.map((res) => {
        const p = videoPixels(res, r);
        return `${p.width}x${p.height}`;
      }),
    ]),
  );
}

// ---------------------------------------------------------------------------
// Shared endpoint: content items and create request
// ---------------------------------------------------------------------------

const Url = uriString().meta({
  description: 'http(s) URL or data: URI of the asset (a URI: spaces and non-ASCII characters percent-encoded)',
  example: 'https://example.com/cat.png',
});

export const TextContentItem = z.object({
  type: z.literal('text'),
  text: z
    .string()
    .min(1)
    .max(contentLimits.maxTextLength)
    .meta({ description: `prompt text, up to ${contentLimits.maxTextLength} characters; family1 models reject more than 1500` }),
});
export const ImageContentItem = z.object({
  type: z.literal('image_url'),
  image_url: z.object({ url: Url }),
  role: z
    .enum(['first_frame', 'last_frame', 'reference_image'])
    .optional()
    .meta(
      provenanceMeta(
        assumed('the seed does not say what an image without a role means; it counts as reference_image'),
        'first_frame, last_frame or reference_image (default reference_image)',
      ),
    ),
});
export const VideoContentItem = z.object({
  type: z.literal('video_url'),
  video_url: z.object({ url: Url }),
  role: z.literal('reference_video').optional(),
});
export const AudioContentItem = z.object({
  type: z.literal('audio_url'),
  audio_url: z.object({ url: Url }),
  role: z.literal('reference_audio').optional(),
});
/** One content item of the shared endpoint (document 1, "Content items (shared video endpoint)"). */
export const ContentItem = z.discriminatedUnion('type', [TextContentItem, ImageContentItem, VideoContentItem, AudioContentItem]).openapi('VideoContentItem');
export type ContentItem = z.infer<typeof ContentItem>;

/** Effective role of a content item (absent roles default to the reference role, assumed). */
export function contentRole(item: ContentItem): string | undefined {
  switch (item.type) {
    case 'text':
      return undefined;
    case 'image_url':
      return item.role ?? 'reference_image';
    case 'video_url':
      return 'reference_video';
    case 'audio_url':
      return 'reference_audio';
  }
}

const sharedModelField = z.enum(sharedVideoModelIds).meta({ description: 'model id; the shared endpoint does not accept family5' });

const sharedCreateBase = z.object({
  model: sharedModelField.default(DEFAULT_SHARED_VIDEO_MODEL),
  content: z.array(ContentItem).min(contentLimits.minItems).max(contentLimits.maxItems).meta({ description: 'content items, 1-16' }),
  resolution: z.enum(videoResolutions).optional().meta({ description: 'default 720p (768p on family3-h3, assumed); limited per model' }),
  ratio: z.enum(videoRatios).default('16:9').meta({ description: 'limited per model; family3-h3 ignores it for image-to-video' }),
  duration: z
    .number()
    .int()
    .min(VIDEO_DURATION_FIELD.min)
    .max(VIDEO_DURATION_FIELD.max)
    .default(DEFAULT_VIDEO_DURATION)
    .meta({ description: 'seconds; family1 and family3-h3 4-15, family2 2-30, family4 3-15' }),
  generateAudio: z.boolean().default(true).meta({ description: 'ignored by family3-h3 (always has a sound track)' }),
  seed: z
    .number()
    .int()
    .min(-1)
    .max(MAX_VIDEO_SEED)
    .default(-1)
    .meta({ description: `-1 means random; ignored by family3-h3; at most ${MAX_VIDEO_SEED}` }),
  inputVideoDuration: z.number().int().min(0).default(0).meta({ description: 'seconds of the input video; required when content has video_url' }),
  audioSetting: z
    .enum(['auto', 'origin'])
    .default('auto')
    .meta({ description: 'auto generates audio; origin keeps the source video audio (video-edit workflows)' }),
});

/** Resolution used for a shared request: the request's, else the model's default. */
export function effectiveResolution(model: SharedVideoModelId, resolution: VideoResolution | undefined): VideoResolution {
  return resolution ?? sharedVideoModels[model].defaultResolution;
}

/** Model ids of the shared endpoint whose table entry satisfies `pick`. */
const modelsWhere = (pick: (m: SharedVideoModel) => boolean) => sharedVideoModelIds.filter((id) => pick(sharedVideoModels[id]));
/** Model ids grouped by the value `key` reads from each, in table order. */
function modelsBy<V extends string | number>(key: (m: SharedVideoModel) => V | undefined): [V, SharedVideoModelId[]][] {
  const out = new Map<V, SharedVideoModelId[]>();
  for (const id of sharedVideoModelIds) {
    const v = key(sharedVideoModels[id]);
    if (v !== undefined) out.set(v, [...(out.get(v) ?? []), id]);
  }
  return [...out];
}

/** Fragments of content items (document 1, "Content items"): by type, and by role (a role-less image is a reference image, assumed). */
const itemOf = (type: ContentItem['type']): JsonSchema => ({ properties: { type: { const: type } }, required: ['type'] });
const frameItem = (role: (typeof frameRoles)[number]): JsonSchema => ({
  properties: { type: { const: 'image_url' }, role: { const: role } },
  required: ['type', 'role'],
});
const anyFrameItem: JsonSchema = { anyOf: frameRoles.map(frameItem) };
const referenceItem: JsonSchema = {
  anyOf: [
    itemOf('video_url'),
    itemOf('audio_url'),
    { allOf: [itemOf('image_url'), { anyOf: [{ not: { required: ['role'] } }, { properties: { role: { const: 'reference_image' } } }] }] },
  ],
};
/** The content holds an item of `item`. */
const contentHas = (item: JsonSchema): JsonSchema => ({ properties: { content: { contains: item } }, required: ['content'] });

type ContentBody = { content: ContentItem[] };
const firstIndex = (v: ContentBody, pick: (c: ContentItem) => boolean) => Math.max(0, v.content.findIndex(pick));
const roleIndex = (v: ContentBody, roles: readonly string[]) => firstIndex(v, (c) => roles.includes(contentRole(c) ?? ''));

/**
 * Model limits of resolution, ratio and duration, one rule per model (document 1,
 * "Model limits"). Errors: VIDEO_UNSUPPORTED_COMBINATION.
 */
type ModelBody = { model: SharedVideoModelId; resolution?: string; ratio: string; duration: number };
type InputBody = { model: SharedVideoModelId; inputVideoDuration: number; duration: number };

function sharedModelRules(): BodyRule<ModelBody>[] {
  return sharedVideoModelIds.flatMap((id) => {
    const m: SharedVideoModel = sharedVideoModels[id];
    // a rule where the model narrows the field's own set or range (family2's 2-30 s is the field's)
    return [
      rule<ModelBody>({
        id: `video.resolution.${id}`,
        rule: `${id}: resolution ${m.resolutions.join(' or ')}`,
        code: 'VIDEO_UNSUPPORTED_COMBINATION',
        path: ['resolution'],
        message: (v) => `resolution ${v.resolution} is not supported by ${id} (supported: ${m.resolutions.join(', ')})`,
        when: { model: id },
        then: { properties: { resolution: { enum: [...m.resolutions] } } },
      }),
      ...(m.ratios.length === videoRatios.length
        ? []
        : [
            rule<ModelBody>({
              id: `video.ratio.${id}`,
              rule: `${id}: ratio ${m.ratios.join(', ')}`,
              code: 'VIDEO_UNSUPPORTED_COMBINATION',
              path: ['ratio'],
              message: (v) => `ratio ${v.ratio} is not supported by ${id} (supported: ${m.ratios.join(', ')})`,
              when: { model: id },
              then: { properties: { ratio: { enum: [...m.ratios] } } },
            }),
          ]),
      ...(m.duration.min <= VIDEO_DURATION_FIELD.min && m.duration.max >= VIDEO_DURATION_FIELD.max
        ? []
        : [
            rule<ModelBody>({
              id: `video.duration.${id}`,
              rule: `${id}: duration ${m.duration.min}-${m.duration.max} s`,
              code: 'VIDEO_UNSUPPORTED_COMBINATION',
              path: ['duration'],
              message: (v) => `duration ${v.duration} is outside ${m.duration.min}-${m.duration.max} for ${id}`,
              when: { model: id },
              then: { properties: { duration: { minimum: m.duration.min, maximum: m.duration.max } } },
            }),
          ]),
    ];
  });
}

/**
 * Video input rules (document 1, "Content items" rule 3): `hasVideo` is the
 * condition of a request with video input. Errors: VIDEO_MISSING_MEDIA_DURATION,
 * VIDEO_INVALID_PARAMETERS.
 */
function videoInputRules(hasVideo: JsonSchema, shape: Record<string, z.ZodType>): BodyRule<InputBody>[] {
  return [
    rule<InputBody>({
      id: 'video.input-duration-required',
      rule: 'a request with video input (video_url) needs inputVideoDuration above 0',
      code: 'VIDEO_MISSING_MEDIA_DURATION',
      path: ['inputVideoDuration'],
      message: 'inputVideoDuration is required when content has video_url',
      then: { if: hasVideo, then: { required: ['inputVideoDuration'], properties: { inputVideoDuration: { exclusiveMinimum: 0 } } } },
    }),
    ...modelsBy((m) => `${m.videoInput.min}-${m.videoInput.max}`).map(([range, ids]) =>
      rule<InputBody>({
        id: `video.input-duration-range.${ids.join('+')}`,
        rule: `${ids.join(', ')}: inputVideoDuration ${range} s with video input`,
        code: 'VIDEO_INVALID_PARAMETERS',
        path: ['inputVideoDuration'],
        message: (v) => `inputVideoDuration ${v.inputVideoDuration} is outside ${range} s for ${v.model}`,
        when: { model: ids },
        then: {
          if: hasVideo,
          then: {
            properties: { inputVideoDuration: { minimum: sharedVideoModels[ids[0]].videoInput.min, maximum: sharedVideoModels[ids[0]].videoInput.max } },
          },
        },
      }),
    ),
    ...modelsBy((m) => m.maxInputPlusOutput).map(([max, ids]) => {
      const d = sharedVideoModels[ids[0]].duration;
      // one branch per output duration: inputVideoDuration at most max - duration
      const branches = Array.from({ length: d.max - d.min + 1 }, (_, i) => d.min + i).map((s) => ({
        if: whenSchema({ duration: s }, shape),
        then: { properties: { inputVideoDuration: { maximum: max - s } } },
      }));
      return rule<InputBody>({
        id: `video.input-plus-output.${ids.join('+')}`,
        rule: `${ids.join(', ')}: inputVideoDuration + duration at most ${max} s`,
        code: 'VIDEO_INVALID_PARAMETERS',
        path: ['inputVideoDuration'],
        message: (v) => `inputVideoDuration + duration = ${v.inputVideoDuration + v.duration} exceeds ${max} s for ${v.model}`,
        when: { model: ids },
        then: { if: hasVideo, then: { allOf: branches } },
      });
    }),
  ];
}

/** Content rules of a shared create request (document 1, "Content items"). Errors: VIDEO_INVALID_PARAMETERS. */
function contentRules(): BodyRule<{ model: SharedVideoModelId } & ContentBody>[] {
  const count = (v: ContentBody, type: ContentItem['type']) => v.content.filter((c) => c.type === type).length;
  const capped = (type: ContentItem['type'], max: number, ids?: SharedVideoModelId[]) =>
    rule<{ model: SharedVideoModelId } & ContentBody>({
      id: ids ? `video.content.${type}-max.${ids.join('+')}` : `video.content.${type}-max`,
      rule: `${ids ? `${ids.join(', ')}: ` : ''}at most ${max} ${type} item${max === 1 ? '' : 's'} in content`,
      code: 'VIDEO_INVALID_PARAMETERS',
      path: ['content'],
      message: (v) => `content has ${count(v, type)} ${type} items; ${ids ? `${v.model} accepts` : ''} at most ${max}`.replace(';  at', '; at'),
      ...(ids ? { when: { model: ids } } : {}),
      then: { properties: { content: js.atMost(itemOf(type), max) } },
    });
  const INVALID = 'VIDEO_INVALID_PARAMETERS' as const;
  return [
    capped('text', contentLimits.maxText),
    ...modelsBy((m) => m.maxImages).map(([max, ids]) => capped('image_url', max, ids)),
    capped('video_url', contentLimits.maxVideos),
    capped('audio_url', contentLimits.maxAudios),
    ...modelsBy((m) => (m.maxTextLength < contentLimits.maxTextLength ? m.maxTextLength : undefined)).map(([max, ids]) =>
      rule<{ model: SharedVideoModelId } & ContentBody>({
        id: `video.content.text-length.${ids.join('+')}`,
        rule: `${ids.join(', ')}: the text item at most ${max} characters`,
        code: INVALID,
        path: (v) => ['content', firstIndex(v, (c) => c.type === 'text' && [...c.text].length > max), 'text'],
        message: (v) => `text has more than ${max} characters; ${v.model} accepts at most ${max}`,
        when: { model: ids },
        then: { properties: { content: { items: { if: itemOf('text'), then: { properties: { text: { maxLength: max } } } } } } },
      }),
    ),
    rule({
      id: 'video.content.roles-not-mixed',
      rule: 'frame roles (first_frame, last_frame) and reference roles (reference_image, reference_video, reference_audio, a role-less image) are not mixed',
      code: INVALID,
      path: (v) => ['content', roleIndex(v, referenceRoles), 'role'],
      message: 'frame roles (first_frame, last_frame) and reference roles must not be mixed in one request',
      then: { not: { allOf: [contentHas(anyFrameItem), contentHas(referenceItem)] } },
    }),
    ...frameRoles.map((role) =>
      rule<ContentBody>({
        id: `video.content.one-${role.replace('_', '-')}`,
        rule: `at most one ${role} image (assumed)`,
        code: INVALID,
        path: ['content'],
        message: `content has more than one ${role} image; at most 1 (assumed)`,
        then: { properties: { content: js.atMost(frameItem(role), 1) } },
      }),
    ),
    rule({
      id: 'video.content.last-frame-unsupported',
      rule: `${modelsWhere((m) => !m.lastFrame).join(', ')}: no last_frame`,
      code: INVALID,
      path: (v) => ['content', roleIndex(v, ['last_frame']), 'role'],
      message: (v) => `last_frame is not supported by ${v.model}`,
      when: { model: modelsWhere((m) => !m.lastFrame) },
      then: { properties: { content: js.none(frameItem('last_frame')) } },
    }),
    rule({
      id: 'video.content.last-frame-needs-first',
      rule: `${modelsWhere((m) => m.lastFrame && !m.lastFrameAlone).join(', ')}: last_frame needs a first_frame`,
      code: INVALID,
      path: (v) => ['content', roleIndex(v, ['last_frame']), 'role'],
      message: (v) => `last_frame needs a first_frame on ${v.model} (only family3-h3 accepts it alone)`,
      when: { model: modelsWhere((m) => m.lastFrame && !m.lastFrameAlone) },
      then: { if: contentHas(frameItem('last_frame')), then: contentHas(frameItem('first_frame')) },
    }),
    rule({
      id: 'video.content.audio-unsupported',
      rule: `${modelsWhere((m) => !m.audio).join(', ')}: no audio_url`,
      code: INVALID,
      path: (v) => ['content', firstIndex(v, (c) => c.type === 'audio_url')],
      message: (v) => `audio_url is not supported by ${v.model}`,
      when: { model: modelsWhere((m) => !m.audio) },
      then: { properties: { content: js.none(itemOf('audio_url')) } },
    }),
    rule({
      id: 'video.content.audio-needs-visual',
      rule: `${modelsWhere((m) => m.audio && !m.audioAlone).join(', ')}: audio_url needs an image_url or video_url item`,
      code: INVALID,
      path: (v) => ['content', firstIndex(v, (c) => c.type === 'audio_url')],
      message: (v) => `audio_url needs at least one image_url or video_url item on ${v.model} (only family2 and family3-h3 accept prompt plus audio alone)`,
      when: { model: modelsWhere((m) => m.audio && !m.audioAlone) },
      then: { if: contentHas(itemOf('audio_url')), then: { anyOf: [contentHas(itemOf('image_url')), contentHas(itemOf('video_url'))] } },
    }),
  ];
}

/** Body of POST /v1/video-generation/generate (document 1, "Video: create task (shared)"). */
export const CreateVideoTaskRequest = withRules(
  sharedCreateBase,
  [...sharedModelRules(), ...contentRules(), ...videoInputRules(contentHas(itemOf('video_url')), sharedCreateBase.shape)],
  'CreateVideoTaskRequest',
  {
    description: `Create a video task on the shared endpoint. Per-model limits (document 1, "Video models" and "Model limits"):\n\n${renderSharedModelTable()}\n\nContent rules: 1-16 items; at most 1 text, 9 images (family3-h3: 5), 3 videos, 3 audios; frame roles and reference roles must not be mixed; last_frame needs a first_frame except on family3-h3; audio_url needs an image or video except on family2 and family3-h3; video_url needs inputVideoDuration.`,
    example: {
      model: 'family1-video-2-fast',
      content: [{ type: 'text', text: 'A red fox running through snow at dawn' }],
      resolution: '720p',
      ratio: '16:9',
      duration: 5,
    },
  },
);
export type CreateVideoTaskRequest = z.infer<typeof CreateVideoTaskRequest>;

const estimateVideoBase = z.object({
  model: sharedModelField,
  resolution: z.enum(videoResolutions).meta({ description: 'limited per model' }),
  duration: z.number().int().min(VIDEO_DURATION_FIELD.min).max(VIDEO_DURATION_FIELD.max).meta({ description: 'seconds, limited per model' }),
  hasVideoInput: z.boolean().default(false).meta({ description: 'true when the request will include video_url' }),
  inputVideoDuration: z.number().int().min(0).default(0).meta({ description: 'required when hasVideoInput is true' }),
  ratio: z.enum(videoRatios).default('16:9'),
});

/** Body of POST /v1/video-generation/estimate-credits (document 1, "Video: estimate (shared)"). */
export const EstimateVideoCreditsRequest = withRules(
  estimateVideoBase,
  [
    ...sharedModelRules(),
    ...videoInputRules({ properties: { hasVideoInput: { const: true } }, required: ['hasVideoInput'] }, estimateVideoBase.shape).map((r) => ({
      ...r,
      rule: r.rule.replace('video input (video_url)', 'hasVideoInput true'),
    })),
  ],
  'EstimateVideoCreditsRequest',
  { example: { model: 'family1-video-2-pro', resolution: '1080p', duration: 5 } },
);
export type EstimateVideoCreditsRequest = z.infer<typeof EstimateVideoCreditsRequest>;

// ---------------------------------------------------------------------------
// family5
// ---------------------------------------------------------------------------

const Family5Asset = z.object({
  url: Url,
  duration: z.number().min(family5Limits.assetDuration.min).max(family5Limits.assetDuration.max).optional().meta({ description: 'seconds, 0-180' }),
});
const IdLike = z.union([z.string().min(1), z.number().int()]);

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
    soundEffectSwitch: z.boolean().optional(),
    soundEffectContent: z.string().optional(),
    lipSyncTtsSwitch: z.boolean().optional(),
    lipSyncTtsSpeakerId: z.string().optional(),
    lipSyncTtsContent: z.string().optional(),
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
  capability: z.enum(family5Capabilities),
  model: z.enum(family5Models).default('family5'),
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
  images: z.array(Family5Asset).max(family5Limits.images).default([]),
  videos: z.array(Family5Asset).max(family5Limits.videos).default([]),
  audios: z.array(Family5Asset).max(family5Limits.audios).default([]),
  pixverse: Family5Options.default({}),
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
  capability: z.enum(family5Capabilities),
  model: z.enum(family5Models).default('family5'),
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

// ---------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------

/** Data of a create call: `{taskId, episodeId, status: "generating"}`. */
export const CreateVideoTaskData = z
  .strictObject({ taskId: z.string(), episodeId: z.string(), status: z.literal('generating') })
  .openapi('CreateVideoTaskData', { example: { taskId: 'vt_1a2b3c4d5e6f7a8b', episodeId: 'ep_1a2b3c4d5e6f7a8b', status: 'generating' } });

/** Data of both estimate endpoints: `{tokens, estimatedCostUsd}`. Credits are not returned. */
export const VideoEstimateData = z
  .strictObject({
    tokens: z
      .number()
      .int()
      .nonnegative()
      .meta({ description: `estimated tokens (credits x ${videoEstimateUnits.tokensPerCredit}, assumed)` }),
    estimatedCostUsd: z
      .number()
      .nonnegative()
      .meta({ description: `estimated cost in USD (credits x ${videoEstimateUnits.usdPerCredit}, assumed)` }),
  })
  .openapi('VideoEstimateData', { example: { tokens: 40000, estimatedCostUsd: 0.4 } });

/** Echo of a shared request, resolved (document 1, "Video task", params). */
export const SharedVideoParams = z.strictObject({
  content: z.array(ContentItem),
  resolution: z.enum(videoResolutions),
  ratio: z.enum(videoRatios),
  duration: z.number().int(),
  generateAudio: z.boolean(),
  seed: z.number().int(),
});
/** Echo of a family5 request, resolved (assumed shape: the seed lists params only for the shared endpoint). */
export const Family5VideoParams = z
  .strictObject({
    capability: z.enum(family5Capabilities),
    model: z.enum(family5Models),
    language: z.enum(['en', 'zh']),
    prompt: z.string().optional(),
    quality: z.enum(family5Qualities),
    aspectRatio: z.enum(family5Ratios),
    duration: z.number().int(),
    sourceTaskId: z.string().optional(),
    images: z.array(Family5Asset),
    videos: z.array(Family5Asset),
    audios: z.array(Family5Asset),
    pixverse: Family5Options,
  })
  .meta(provenanceMeta(assumed('the seed lists params fields only for the shared endpoint'), 'echo of a family5 request'));
export const VideoParams = z.union([SharedVideoParams, Family5VideoParams]).openapi('VideoTaskParams');

const nullableUrl = (what: string) =>
  z
    .string()
    .nullable()
    .meta(provenanceMeta(assumed('null until the task succeeds; the seed types it as string'), what));
const failureFields = {
  errorCode: z
    .number()
    .int()
    .nullable()
    .meta(
      provenanceMeta(
        assumed('the seed does not show where a failed video task carries its reason'),
        'catalog code of the failure when status is failed, else null',
      ),
    ),
  errorMessage: z
    .string()
    .nullable()
    .meta(provenanceMeta(assumed('the seed does not show where a failed video task carries its reason'), 'failure message when status is failed, else null')),
};

/** The video task (document 1, "Video task"), for every family. */
export const VideoTask = z
  .strictObject({
    id: z.string(),
    taskId: z.string().meta({ description: 'same value as id' }),
    episodeId: z.string(),
    status: z.enum(videoStatuses),
    model: z.string().meta({ description: 'model used (the shared model id; for family5 the version sent: family5, v6, v5 or v4.5)' }),
    params: VideoParams,
    videoUrl: nullableUrl('stored output, usable when status is success'),
    coverUrl: nullableUrl('cover image URL'),
    providerVideoUrl: nullableUrl("URL of the provider's own output"),
    duration: z.number().int().meta({ description: 'seconds' }),
    resolution: z.string(),
    ratio: z.string(),
    seed: z.number().int(),
    creditCharged: z.number().int().nonnegative().meta({ description: 'credits charged, net of refunds: 0 once a failed task has been refunded' }),
    enabledShare: z.boolean(),
    ...failureFields,
    createdAt: EpochMs,
    updatedAt: EpochMs,
  })
  .openapi('VideoTask');
export type VideoTask = z.infer<typeof VideoTask>;

/** A list item (document 1, "Video task", list items). */
export const VideoTaskListItem = z
  .strictObject({
    id: z.string(),
    episodeId: z.string(),
    status: z.enum(videoStatuses),
    model: z.string(),
    title: z
      .string()
      .meta(
        provenanceMeta(assumed('the seed does not say how a title is made'), 'the first 60 characters of the prompt, or a generated title when there is none'),
      ),
    prompt: z.string().nullable().meta({ description: 'the text item (shared) or prompt (family5); null when none' }),
    params: VideoParams,
    videoUrl: nullableUrl('stored output'),
    coverUrl: nullableUrl('cover image URL'),
    providerVideoUrl: nullableUrl("provider's own output"),
    seed: z.number().int(),
    creditCharged: z.number().int().nonnegative(),
    createdAt: EpochMs,
  })
  .openapi('VideoTaskListItem');
export type VideoTaskListItem = z.infer<typeof VideoTaskListItem>;

export const VideoTaskIdParams = z.object({
  taskId: z
    .string()
    .min(1)
    .meta({ param: { description: 'task id' }, example: 'vt_1a2b3c4d5e6f7a8b' }),
});

/** Query of GET /v1/video-generation/tasks (document 1, "Video: list tasks"). */
export const ListVideoTasksQuery = z.object({
  ...pageQuery(100),
  status: z.enum(videoStatuses).optional().meta({ description: 'filter by status' }),
});

/** Body of POST /v1/video-generation/tasks/{taskId}/share (assumed shape: document 1 says share shapes are not shown). */
export const ShareVideoTaskRequest = z
  .object({
    enabledShare: z.boolean().optional().meta({ description: 'the new share flag; when absent the flag is toggled' }),
  })
  .meta(provenanceMeta(assumed('document 1 says the share request shape is not shown'), 'set or toggle the share flag'))
  .openapi('ShareVideoTaskRequest', { example: { enabledShare: true } });

/** Data of the share call: the task and its new share flag (assumed shape). */
export const ShareVideoTaskData = z
  .strictObject({ taskId: z.string(), enabledShare: z.boolean() })
  .meta(provenanceMeta(assumed('document 1 says the share response shape is not shown'), 'the task and its share flag'))
  .openapi('ShareVideoTaskData', { example: { taskId: 'vt_1a2b3c4d5e6f7a8b', enabledShare: true } });

/** Data of the delete call (assumed shape). */
export const DeleteVideoTaskData = z
  .strictObject({ taskId: z.string(), deleted: z.literal(true) })
  .meta(provenanceMeta(assumed('document 1 says the delete response shape is not shown'), 'the deleted task'))
  .openapi('DeleteVideoTaskData', { example: { taskId: 'vt_1a2b3c4d5e6f7a8b', deleted: true } });

// ---------------------------------------------------------------------------
// Operations
// ---------------------------------------------------------------------------

const videoFieldErrors: Partial<Record<string, ErrorName>> = {
  model: 'VIDEO_UNSUPPORTED_COMBINATION',
  resolution: 'VIDEO_UNSUPPORTED_COMBINATION',
  ratio: 'VIDEO_UNSUPPORTED_COMBINATION',
  duration: 'VIDEO_UNSUPPORTED_COMBINATION',
};
const defaultPhases = videoPhases(DEFAULT_SHARED_VIDEO_MODEL, DEFAULT_VIDEO_DURATION);
const assumedPaths = assumed(
  'document 1 says the task read, list, share and delete endpoints are shared and that share and delete shapes are not shown; path and method follow the task read path',
);
const mediaNote =
  "The task's videoUrl, coverUrl and providerVideoUrl are hosted by the service (no auth, Range requests answered 206): an MP4 (H.264, with an AAC audio track when generateAudio is true) lasting the task's duration and of the pixel size of its resolution and ratio, and a PNG cover of the same size (pixel sizes assumed):\n\n";

/**
 * The video task's states as data (document 1, "Video task": poll until success or failed; the moves are the
 * simulated lifecycle's, assumed): `example` is a valid create body.
 */
function videoLifecycle(example: Record<string, unknown>): LifecycleDef {
  return {
    statusField: 'status',
    states: videoStatuses,
    transitions: { pending: ['generating', 'failed'], generating: ['uploading', 'success', 'failed'], uploading: ['success', 'failed'] },
    terminal: ['success', 'failed'],
    success: 'success',
    pollOperationId: 'getVideoTask',
    idField: 'taskId',
    firstPollMs: 30_000,
    intervalMs: 10_000,
    timeoutMs: 30 * 60_000,
    example,
    successRequires: ['videoUrl', 'coverUrl'],
    media: [
      { urlField: 'videoUrl', contentTypes: ['video/mp4'], durationField: 'duration', resolutionField: 'resolution', shortSides: videoShortSide },
      { urlField: 'coverUrl', contentTypes: ['image/png'], resolutionField: 'resolution', shortSides: videoShortSide },
    ],
    chargedField: 'creditCharged',
  };
}

/** The task a share or a delete names (x-rules: they read the store). */
const ownTaskStateRules: StateRule[] = [
  { code: 'VIDEO_TASK_NOT_FOUND', fields: ['taskId'], rule: 'taskId names a video task', reads: 'state' },
  { code: 'VIDEO_TASK_FORBIDDEN', fields: ['taskId'], rule: "taskId is the caller's own task", reads: 'state' },
];

/** The video operations (document 1, video sections): both create endpoints, get, list, share, delete and both estimates. */
export const videoOperations = defineOperations('Video', {
  createVideoTask: {
    method: 'post',
    path: '/v1/video-generation/generate',
    summary: 'Create a video task (shared endpoint, families 1-4)',
    description:
      'Creates a video task and charges its credits at once; the task is refunded in full if generation fails. ' +
      `Returns status generating. Rate limit: ${videoGenerateRateLimit.limit} generate requests per minute per user across both video generate endpoints (HTTP 429 with Retry-After).\n\n` +
      `Simulated lifecycle (assumed): generating for a model-dependent time that grows with duration (${DEFAULT_SHARED_VIDEO_MODEL}, ${DEFAULT_VIDEO_DURATION} s: ${defaultPhases.generatingMs / 1000} s), then uploading ${defaultPhases.uploadingMs / 1000} s, then success.\n\n${renderSharedModelTable()}`,
    provenance: fromSeed(1, 'Video: create task (shared)'),
    auth: true,
    request: { body: json(CreateVideoTaskRequest) },
    response: { status: 200, kind: 'envelope', schema: CreateVideoTaskData, description: 'task created, status generating' },
    errors: ['VIDEO_INVALID_PARAMETERS', 'VIDEO_UNSUPPORTED_COMBINATION', 'VIDEO_MISSING_MEDIA_DURATION', 'VIDEO_INSUFFICIENT_CREDITS', 'VIDEO_RATE_LIMITED'],
    validationError: 'VIDEO_INVALID_PARAMETERS',
    fieldErrors: videoFieldErrors,
    stateRules: [{ code: 'VIDEO_INSUFFICIENT_CREDITS', fields: [], rule: 'the balance covers the price', reads: 'account' }],
    rateLimit: { ...videoGenerateRateLimit, error: 'VIDEO_RATE_LIMITED' },
    charges: true,
    outcomes: ['failed'],
    failureReasons: ['VIDEO_GENERATION_FAILED', 'VIDEO_CONTENT_REJECTED'],
    lifecycle: videoLifecycle({ content: [{ type: 'text', text: 'A red fox running through snow at dawn' }] }),
  },
  createFamily5VideoTask: {
    method: 'post',
    path: '/v1/video-generation/family5/generate',
    summary: 'Create a family5 video task (dedicated endpoint, nine capabilities)',
    description:
      'Creates a family5 task and charges its credits at once; refunded in full if generation fails. Returns status generating. ' +
      `Shares the ${videoGenerateRateLimit.limit} per minute generate limit with the shared endpoint (HTTP 429, code 29998, Retry-After). ` +
      `Provider keys, internal media ids, trace ids and raw provider responses are never returned.\n\n${renderFamily5RuleTable()}`,
    provenance: fromSeed(1, 'Video: family5 create'),
    auth: true,
    request: { body: json(CreateFamily5VideoTaskRequest) },
    response: { status: 200, kind: 'envelope', schema: CreateVideoTaskData, description: 'task created, status generating' },
    errors: [
      'F5_TASK_NOT_FOUND',
      'F5_INSUFFICIENT_CREDITS',
      'F5_PROVIDER_ERROR',
      'F5_INVALID_PARAMETERS',
      'F5_TASK_FORBIDDEN',
      'F5_AUDIO_NEEDS_VISUAL',
      'F5_PROVIDER_THROTTLED',
      'F5_CONTENT_REJECTED',
      'RATE_LIMITED',
    ],
    validationError: 'F5_INVALID_PARAMETERS',
    stateRules: family5StateRules,
    rateLimit: { ...videoGenerateRateLimit, error: 'RATE_LIMITED' },
    charges: true,
    outcomes: ['failed'],
    failureReasons: ['F5_PROVIDER_ERROR', 'F5_PROVIDER_THROTTLED', 'F5_CONTENT_REJECTED'],
  },
  getVideoTask: {
    method: 'get',
    path: '/v1/video-generation/tasks/{taskId}',
    summary: 'Get a video task (any family)',
    description: `Returns the video task of any family, family5 included. Poll until status is success or failed.\n\n${mediaNote}${renderVideoPixelTable()}`,
    provenance: fromSeed(1, 'Video: get task'),
    auth: true,
    request: { params: VideoTaskIdParams },
    response: { status: 200, kind: 'envelope', schema: VideoTask, description: 'the task' },
    errors: ['VIDEO_INVALID_PARAMETERS', 'VIDEO_TASK_NOT_FOUND', 'VIDEO_TASK_FORBIDDEN'],
    validationError: 'VIDEO_INVALID_PARAMETERS',
  },
  listVideoTasks: {
    method: 'get',
    path: '/v1/video-generation/tasks',
    summary: "List the caller's video tasks, newest first (all families)",
    description: "The current API user's tasks of both video endpoints, newest first, optionally filtered by status. Deleted tasks are not listed.",
    provenance: fromSeed(1, 'Video: list tasks'),
    auth: true,
    request: { query: ListVideoTasksQuery },
    response: { status: 200, kind: 'envelope', schema: paginated(VideoTaskListItem), description: 'a page of tasks' },
    errors: ['VIDEO_INVALID_PARAMETERS'],
    validationError: 'VIDEO_INVALID_PARAMETERS',
  },
  shareVideoTask: {
    method: 'post',
    path: '/v1/video-generation/tasks/{taskId}/share',
    summary: 'Set or toggle the share flag of a video task (assumed shape)',
    description:
      'Sets enabledShare to the value sent, or toggles it when the body is empty or has no enabledShare; returns the task id and the new flag. Owner-scoped like the task read. Path, body and response are assumed: document 1 says share shapes are not shown.',
    provenance: assumedPaths,
    auth: true,
    request: { params: VideoTaskIdParams, body: json(ShareVideoTaskRequest), bodyOptional: true },
    response: { status: 200, kind: 'envelope', schema: ShareVideoTaskData, description: 'the new share flag' },
    errors: ['VIDEO_INVALID_PARAMETERS', 'VIDEO_TASK_NOT_FOUND', 'VIDEO_TASK_FORBIDDEN'],
    validationError: 'VIDEO_INVALID_PARAMETERS',
    stateRules: ownTaskStateRules,
  },
  deleteVideoTask: {
    method: 'delete',
    path: '/v1/video-generation/tasks/{taskId}',
    summary: 'Delete a finished video task (assumed shape)',
    description:
      'Deletes a succeeded or failed task of the caller: later reads answer 31006 and lists leave it out; its media URLs stop loading. A task still pending, generating or uploading is refused with 31007 (a delete cancels and refunds nothing). Owner-scoped like the task read. Path and response are assumed: document 1 says delete shapes are not shown.',
    provenance: assumedPaths,
    auth: true,
    request: { params: VideoTaskIdParams },
    response: { status: 200, kind: 'envelope', schema: DeleteVideoTaskData, description: 'the task was deleted' },
    errors: ['VIDEO_INVALID_PARAMETERS', 'VIDEO_TASK_NOT_FOUND', 'VIDEO_TASK_FORBIDDEN', 'VIDEO_TASK_NOT_FINISHED'],
    validationError: 'VIDEO_INVALID_PARAMETERS',
    stateRules: [...ownTaskStateRules, { code: 'VIDEO_TASK_NOT_FINISHED', fields: ['taskId'], rule: 'the task has succeeded or failed', reads: 'state' }],
  },
  estimateVideoCredits: {
    method: 'post',
    path: '/v1/video-generation/estimate-credits',
    summary: 'Estimate a shared-endpoint video task',
    description:
      'Returns tokens and estimatedCostUsd for the configuration; credits are an internal unit and are not returned (read the balance from GET /v1/user/subscription). The estimate matches what creation charges.',
    provenance: fromSeed(1, 'Video: estimate (shared)'),
    auth: true,
    request: { body: json(EstimateVideoCreditsRequest) },
    response: { status: 200, kind: 'envelope', schema: VideoEstimateData, description: 'the estimate' },
    errors: ['VIDEO_INVALID_PARAMETERS', 'VIDEO_UNSUPPORTED_COMBINATION', 'VIDEO_MISSING_MEDIA_DURATION'],
    validationError: 'VIDEO_INVALID_PARAMETERS',
    fieldErrors: videoFieldErrors,
  },
  estimateFamily5Credits: {
    method: 'post',
    path: '/v1/video-generation/family5/estimate-credits',
    summary: 'Estimate a family5 video task',
    description: 'Returns tokens and estimatedCostUsd for the configuration; matches what creation charges.',
    provenance: fromSeed(1, 'Video: family5 estimate'),
    auth: true,
    request: { body: json(EstimateFamily5CreditsRequest) },
    response: { status: 200, kind: 'envelope', schema: VideoEstimateData, description: 'the estimate' },
    errors: ['F5_INVALID_PARAMETERS'],
    validationError: 'F5_INVALID_PARAMETERS',
  },
});

/** Table-level assumptions of the video area (listed in docs/assumptions.md). */
export const videoTableAssumptions: TableAssumption[] = [
  {
    subject:
      'video prices: `sharedVideoPrices`, `videoInputFactor`, `family5PricePerSecond`, `family5CapabilityFactor`, `family5ModelFactor` (schemas/video.ts)',
    reason: 'document 1 says video credits are charged at creation and refunded on failure but shows no price',
  },
  {
    subject: 'video estimate units: tokens = credits x 1000, estimatedCostUsd = credits x 0.01 (`videoEstimateUnits`)',
    reason: 'document 1 says credits are internal and not returned by the estimate; the estimate must match what creation charges',
  },
  {
    subject: 'video lifecycle schedule: `videoSchedule` (generating, then uploading, per model and duration)',
    reason: 'document 1 shows only that a create call returns generating',
  },
  {
    subject: 'a forced video failure happens when generating would have ended; the refund is in full',
    reason: 'document 1: "Transitions: not shown" beyond failure refunding credits',
  },
  { subject: 'family3-h3 default resolution 768p', reason: 'the shared default 720p is not a family3-h3 resolution' },
  {
    subject: `family3-h3 image-to-video reports ratio "adaptive" and renders ${ADAPTIVE_RATIO_OUTPUT}`,
    reason: 'document 1 says family3-h3 ignores ratio for image-to-video; the ratio then follows the first frame',
  },
  {
    subject: 'an image_url item without role counts as reference_image; at most one first_frame and one last_frame',
    reason: 'document 1 does not say what a role-less image means',
  },
  {
    subject:
      'the shared get/list endpoints answer with the shared codes (31005, 31006) for every family; family5 codes 32001 and 32005 answer for sourceTaskId',
    reason: 'document 1 numbers only the family5 codes and says task read is shared',
  },
  {
    subject:
      'video pixel sizes (`videoPixels`, `videoShortSide`): the short side of the resolution (2k = 1440), the long side from the ratio rounded to even; the cover PNG has the same size',
    reason: 'document 1 names resolutions and ratios without pixels',
  },
  {
    subject:
      'video share and delete: POST /v1/video-generation/tasks/{taskId}/share sets or toggles enabledShare; DELETE /v1/video-generation/tasks/{taskId} deletes a finished task and refuses an unfinished one (31007)',
    reason: 'document 1 says the share and delete endpoints exist but their shapes are not shown',
  },
  {
    subject: 'rate-limit window counts every generate request that passes auth, including ones that then fail validation',
    reason: 'document 1 gives the limit (5 per minute per user) but not what counts',
  },
];

/** The video area: its tag, operations and table assumptions. */
export const videoArea = {
  tag: { name: 'Video', description: 'AI video generation: the shared endpoint (families 1-4) and the dedicated family5 endpoint (document 1).' },
  operations: videoOperations,
  tableAssumptions: videoTableAssumptions,
} satisfies Area;
