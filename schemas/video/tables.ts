/**
 * Video tables (schemas/video.ts re-exports them): the models of the shared
 * endpoint and of family5, resolutions, ratios, content limits, prices, the
 * estimate units, the simulated schedule, output pixel sizes, and their
 * rendering into spec descriptions. The rules, refinements and descriptions
 * all read these. Seed: document 1, "Video models", "Video: family5 create",
 * "Limits"; numbers the seed does not give are assumed, with their reason.
 */
import { fromSeed } from '../provenance.ts';

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

/**
 * What most models of the shared endpoint accept (document 1, "Video models" and "Model limits"): each model's row
 * below states only its family and where it differs from this.
 */
const baseModel: Omit<SharedVideoModel, 'family'> = {
  resolutions: ['480p', '720p', '1080p'],
  defaultResolution: '720p',
  duration: { min: 4, max: 15 },
  ratios: ALL6,
  maxImages: 9,
  maxTextLength: 2500,
  videoInput: { min: 2, max: 15 },
  lastFrameAlone: false,
  lastFrame: true,
  audio: true,
  audioAlone: false,
  ignoresAudioAndSeed: false,
};

/** A model's row: its family, then the base row with the model's own values over it. */
const model = ({ family, ...own }: Pick<SharedVideoModel, 'family'> & Partial<SharedVideoModel>): SharedVideoModel => ({ family, ...baseModel, ...own });

/** family2's models: longer clips, five ratios, a shorter video input, audio alone. */
const family2: Partial<SharedVideoModel> = {
  duration: { min: 2, max: 30 },
  ratios: FIVE,
  videoInput: { min: 1, max: 15 },
  maxInputPlusOutput: 30,
  audioAlone: true,
};

/** The six models of the shared endpoint (document 1, "Video models" and "Model limits"). */
export const sharedVideoModels = {
  'family1-video-2-fast': model({ family: 'family1', resolutions: ['480p', '720p'], maxTextLength: 1500 }),
  'family1-video-2-pro': model({ family: 'family1', maxTextLength: 1500 }),
  'family2-video': model({ family: 'family2', ...family2 }),
  'family2-video-prime': model({ family: 'family2', ...family2 }),
  'family3-h3': model({
    family: 'family3',
    resolutions: ['768p', '2k'],
    defaultResolution: '768p',
    maxImages: 5,
    lastFrameAlone: true,
    audioAlone: true,
    ignoresAudioAndSeed: true,
  }),
  'family4-video': model({
    family: 'family4',
    resolutions: ['720p', '1080p'],
    duration: { min: 3, max: 15 },
    ratios: [...ALL6, '4:5', '5:4'],
    videoInput: { min: 3, max: 60 },
    lastFrame: false,
    audio: false,
  }),
} satisfies Record<string, SharedVideoModel>;

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
export const videoGenerateRateLimit = { bucket: 'video-generate', limit: 5, windowMs: 60_000, provenance: fromSeed(1, 'Limits') } as const;

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
