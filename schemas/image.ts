/**
 * Image generation contract: the nine models, their sizes, ratio sets and
 * reference limits, the request schema shared by the synchronous, asynchronous
 * and estimate endpoints, the image task, the raw synchronous output, the
 * estimate, prices, the pixel table, the simulated schedule and the free lane.
 *
 * Seed: document 1, "Image models", "Image task", "States and transitions",
 * "Image: request schema", "Image: synchronous generate", "Image: asynchronous
 * generate", "Image: get task", "Image: list tasks", "Image: estimate credits",
 * "Free allowance for image generation", "Errors", "Limits", "Versioning".
 * Rules OpenAPI cannot express are the data tables below; the Zod refinements,
 * the service and the spec descriptions all read them.
 */
import { z } from './zod.ts';
import { js, rule, withRules, type BodyRule, type JsonSchema, type StateRule } from './rules.ts';
import { EpochMs, pageQuery, paginated } from './common.ts';
import type { ErrorName } from './errors.ts';
import { assumed, fromSeed, provenanceMeta, type TableAssumption } from './provenance.ts';
import { defineOperations, operationsWith, json, type Area } from './define.ts';
import type { LifecycleDef } from './registry-types.ts';

// ---------------------------------------------------------------------------
// Tables
// ---------------------------------------------------------------------------

/** Output sizes (document 1, "Image: request schema"). */
export const imageSizes = ['1K', '2K', '4K'] as const;
export type ImageSize = (typeof imageSizes)[number];
/** The 10 standard ratios (document 1, "Image models"). */
export const standardRatios = ['1:1', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9'] as const;
/** The 4 extreme ratios, only image-b-3.1-flash and image-c-5-0-pro (document 1, "Image models"). */
export const extremeRatios = ['1:4', '4:1', '1:8', '8:1'] as const;
/** All 14 ratios. */
export const allImageRatios = [...standardRatios, ...extremeRatios] as const;
/** The five ratios of image-d models (assumed: document 1 says "5 ratios" but does not list them). */
export const imageDRatios = ['1:1', '3:4', '4:3', '9:16', '16:9'] as const;
/** Providers (document 1, "Image: request schema"): validated, not used for routing. */
export const imageProviders = ['vendor_b', 'vendor_a', 'vendor_c', 'vendor_d', 'vendor_e'] as const;
/** Reference image mime types (document 1, "Image: request schema"). */
export const imageMimeTypes = ['image/png', 'image/jpeg', 'image/webp', 'image/heic', 'image/heif'] as const;
/** Output mime type of every generated image (assumed: the seed does not say which type the models return). */
export const OUTPUT_MIME_TYPE = 'image/png' as const;
/** Qualities, honoured only by image-a-2-official (document 1, "Image: request schema"). */
export const imageQualities = ['low', 'medium', 'high'] as const;
export type ImageQuality = (typeof imageQualities)[number];
/** Resolved quality of image-a-2-official when the request has none (assumed). */
export const DEFAULT_IMAGE_QUALITY: ImageQuality = 'medium';
/** Image task states (document 1, "States and transitions"). */
export const imageTaskStatuses = ['pending', 'generating', 'success', 'fail'] as const;
export type ImageTaskStatus = (typeof imageTaskStatuses)[number];
/** failReason values of the restricted free lane (document 1, "Image task"). */
export const freeLaneFailReasons = ['free_relax_busy', 'free_relax_timeout'] as const;
export type FreeLaneFailReason = (typeof freeLaneFailReasons)[number];
/** Advisory warnings of the estimate (document 1, "Image: estimate credits"). */
export const imageEstimateWarnings = ['quality_ignored_for_image_a_2_lite', 'reference_image_input_tokens_not_included'] as const;
export type ImageEstimateWarning = (typeof imageEstimateWarnings)[number];

export type ImageFamily = 'image-a' | 'image-b' | 'image-c' | 'image-d';

/** Per-family rules (document 1, "Image: request schema", "Limits"). */
export interface ImageFamilyRules {
  /** Most reference images a request may carry ("Limits": image-a 4, image-b 14, image-c 10, image-d 9). */
  maxReferenceImages: number;
  /** Ratio when imageConfig is omitted entirely: a ratio, or null when the model picks ("Aspect ratio resolution"). */
  ratioWhenConfigOmitted: '1:1' | null;
  /** Error for a ratio outside the model's set; null: the family accepts any ratio (image-c validates size only). */
  unsupportedRatioError: ErrorName | null;
}

export const imageFamilies: Record<ImageFamily, ImageFamilyRules> = {
  'image-a': { maxReferenceImages: 4, ratioWhenConfigOmitted: null, unsupportedRatioError: 'IMAGE_UNSUPPORTED_RATIO' },
  'image-b': { maxReferenceImages: 14, ratioWhenConfigOmitted: '1:1', unsupportedRatioError: 'IMAGE_B_UNSUPPORTED_RATIO' },
  'image-c': { maxReferenceImages: 10, ratioWhenConfigOmitted: null, unsupportedRatioError: null },
  'image-d': { maxReferenceImages: 9, ratioWhenConfigOmitted: null, unsupportedRatioError: 'IMAGE_UNSUPPORTED_RATIO' },
};

/** One image model (document 1, "Image models"). */
export interface ImageModel {
  family: ImageFamily;
  sizes: readonly ImageSize[];
  /** 4K only without reference images (image-d-2.7-pro). */
  fourKTextToImageOnly: boolean;
  ratios: readonly string[];
  /** Only image-a-2-official honours quality. */
  honorsQuality: boolean;
}

const ALL_SIZES: readonly ImageSize[] = imageSizes;
const NO_4K: readonly ImageSize[] = ['1K', '2K'];

/** The nine models (document 1, "Image models"). */
export const imageModels = {
  'image-a-2': { family: 'image-a', sizes: ALL_SIZES, fourKTextToImageOnly: false, ratios: standardRatios, honorsQuality: false },
  'image-a-2.5-flare': { family: 'image-a', sizes: ALL_SIZES, fourKTextToImageOnly: false, ratios: standardRatios, honorsQuality: false },
  'image-a-2.5-sunburst': { family: 'image-a', sizes: ALL_SIZES, fourKTextToImageOnly: false, ratios: standardRatios, honorsQuality: false },
  'image-a-2-official': { family: 'image-a', sizes: ALL_SIZES, fourKTextToImageOnly: false, ratios: standardRatios, honorsQuality: true },
  'image-b-3-pro': { family: 'image-b', sizes: ALL_SIZES, fourKTextToImageOnly: false, ratios: standardRatios, honorsQuality: false },
  'image-b-3.1-flash': { family: 'image-b', sizes: ALL_SIZES, fourKTextToImageOnly: false, ratios: allImageRatios, honorsQuality: false },
  'image-c-5-0-pro': { family: 'image-c', sizes: NO_4K, fourKTextToImageOnly: false, ratios: allImageRatios, honorsQuality: false },
  'image-d-2.7': { family: 'image-d', sizes: NO_4K, fourKTextToImageOnly: false, ratios: imageDRatios, honorsQuality: false },
  'image-d-2.7-pro': { family: 'image-d', sizes: ALL_SIZES, fourKTextToImageOnly: true, ratios: imageDRatios, honorsQuality: false },
} as const satisfies Record<string, ImageModel>;

export type ImageModelId = keyof typeof imageModels;
export const imageModelIds = Object.keys(imageModels) as [ImageModelId, ...ImageModelId[]];
/** Default model (document 1, "Image: request schema"). */
export const DEFAULT_IMAGE_MODEL: ImageModelId = 'image-a-2';

/**
 * Legacy preview ids, accepted and normalised to their current ids (document 1,
 * "Image models", "Versioning"). The ids themselves are assumed: the seed does not list them.
 */
export const legacyImageModelIds = {
  'image-a-2-preview': 'image-a-2',
  'image-a-2.5-flare-preview': 'image-a-2.5-flare',
  'image-a-2.5-sunburst-preview': 'image-a-2.5-sunburst',
  'image-b-3-pro-preview': 'image-b-3-pro',
  'image-b-3.1-flash-preview': 'image-b-3.1-flash',
  'image-c-5-0-pro-preview': 'image-c-5-0-pro',
  'image-d-2.7-preview': 'image-d-2.7',
} as const satisfies Record<string, ImageModelId>;
export type LegacyImageModelId = keyof typeof legacyImageModelIds;
const acceptedModelIds = [...imageModelIds, ...(Object.keys(legacyImageModelIds) as LegacyImageModelId[])] as [string, ...string[]];

/** The current id of a model id or legacy preview id. */
export function normalizeImageModel(id: string): ImageModelId {
  return (legacyImageModelIds as Record<string, ImageModelId>)[id] ?? (id as ImageModelId);
}

/** Most reference images any request may carry (document 1, "Limits": 14 schema cap). */
export const MAX_REFERENCE_IMAGES = 14;
/** Largest JSON body of the image endpoints: 25 MB (document 1, "Limits"; MB read as MiB, assumed). */
export const IMAGE_BODY_LIMIT_BYTES = 25 * 1024 * 1024;

/**
 * Pixel size by imageSize: the long side in pixels (assumed: the seed names 1K, 2K, 4K without pixels).
 * For ratio a:b (reduced), width = a*k and height = b*k with k = floor(longSide / max(a, b)),
 * so the pixel size has exactly the ratio and its long side is at most longSide.
 */
export const imageLongSide: Record<ImageSize, number> = { '1K': 1024, '2K': 2048, '4K': 4096 };
/** Ratio of the output when the model picks it (imageConfig omitted on image-a, image-c, image-d): assumed 1:1. */
export const AUTO_RATIO_OUTPUT = '1:1';

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** Width and height in pixels of an image of `size` and ratio `ratio` ("W:H"; null: the model picks, rendered at AUTO_RATIO_OUTPUT). */
export function imagePixels(size: ImageSize, ratio: string | null): { width: number; height: number } {
  const [w0, h0] = (ratio ?? AUTO_RATIO_OUTPUT).split(':').map(Number);
  const g = gcd(w0, h0);
  const a = w0 / g;
  const b = h0 / g;
  const k = Math.max(1, Math.floor(imageLongSide[size] / Math.max(a, b)));
  return { width: a * k, height: b * k };
}

// ---------------------------------------------------------------------------
// Prices (assumed: the seed names the modes but shows no numbers)
// ---------------------------------------------------------------------------

/** Version string of the price tables, returned in pricing.pricingVersion (assumed). */
export const IMAGE_PRICING_VERSION = 'mock-2026-01';

/** Fixed credits per image by model and size (mode fixed; assumed numbers). */
export const imageFixedPrices: Record<Exclude<ImageModelId, 'image-a-2-official'>, Partial<Record<ImageSize, number>>> = {
  'image-a-2': { '1K': 4, '2K': 6, '4K': 12 },
  'image-a-2.5-flare': { '1K': 5, '2K': 8, '4K': 16 },
  'image-a-2.5-sunburst': { '1K': 6, '2K': 10, '4K': 20 },
  'image-b-3-pro': { '1K': 10, '2K': 15, '4K': 30 },
  'image-b-3.1-flash': { '1K': 4, '2K': 6, '4K': 12 },
  'image-c-5-0-pro': { '1K': 8, '2K': 12 },
  'image-d-2.7': { '1K': 5, '2K': 8 },
  'image-d-2.7-pro': { '1K': 8, '2K': 12, '4K': 24 },
};

/**
 * Token estimate of image-a-2-official (mode token-estimate; assumed numbers):
 * promptTokens = ceil(prompt characters / promptCharsPerToken); referenceImageTokens =
 * tokensPerReferenceImage x reference count; outputTokens = outputTokensBySize x qualityFactor;
 * credits = ceil((promptTokens + referenceImageTokens) / 1000 x inputCreditsPer1kTokens + outputTokens / 1000 x outputCreditsPer1kTokens).
 */
export const imageTokenPricing = {
  promptCharsPerToken: 4,
  tokensPerReferenceImage: 258,
  outputTokensBySize: { '1K': 1000, '2K': 2000, '4K': 4000 } as Record<ImageSize, number>,
  qualityFactor: { low: 0.5, medium: 1, high: 2 } as Record<ImageQuality, number>,
  inputCreditsPer1kTokens: 2,
  outputCreditsPer1kTokens: 4,
} as const;

/** The pricing object of an estimate (mode fixed). */
export interface FixedPricing {
  pricingVersion: string;
  mode: 'fixed';
  imageSize: ImageSize;
  creditsPerImage: number;
}
/** The pricing object of an estimate (mode token-estimate). */
export interface TokenPricing {
  pricingVersion: string;
  mode: 'token-estimate';
  promptTokens: number;
  referenceImageTokens: number;
  outputTokens: number;
  inputCreditsPer1kTokens: number;
  outputCreditsPer1kTokens: number;
  qualityFactor: number;
}

/** Credits and pricing inputs of a resolved request (fixed table or token estimate). */
export function imagePrice(r: ResolvedImageRequest, promptLength: number): { credits: number; pricing: FixedPricing | TokenPricing } {
  if (r.model === 'image-a-2-official') {
    const t = imageTokenPricing;
    const q = r.quality ?? DEFAULT_IMAGE_QUALITY;
    const promptTokens = Math.ceil(promptLength / t.promptCharsPerToken);
    const referenceImageTokens = t.tokensPerReferenceImage * r.referenceCount;
    const outputTokens = Math.round(t.outputTokensBySize[r.imageSize] * t.qualityFactor[q]);
    const credits = Math.ceil(((promptTokens + referenceImageTokens) * t.inputCreditsPer1kTokens + outputTokens * t.outputCreditsPer1kTokens) / 1000);
    return {
      credits,
      pricing: {
        pricingVersion: IMAGE_PRICING_VERSION,
        mode: 'token-estimate',
        promptTokens,
        referenceImageTokens,
        outputTokens,
        inputCreditsPer1kTokens: t.inputCreditsPer1kTokens,
        outputCreditsPer1kTokens: t.outputCreditsPer1kTokens,
        qualityFactor: t.qualityFactor[q],
      },
    };
  }
  const price = imageFixedPrices[r.model][r.imageSize];
  if (price === undefined) throw new RangeError(`no price for ${r.model} at ${r.imageSize}`);
  return { credits: price, pricing: { pricingVersion: IMAGE_PRICING_VERSION, mode: 'fixed', imageSize: r.imageSize, creditsPerImage: price } };
}

/** Sizes that can use the free allowance (document 1, "Free allowance for image generation": 1K and 2K; 4K never). */
export const freeAllowanceSizes: readonly ImageSize[] = ['1K', '2K'];

/** True when the request draws on the free allowance: a 1K/2K request and freeUsages[model] above 0 (keyed by normalised model id, assumed). */
export function freeAllowanceApplies(freeUsages: Record<string, number>, model: ImageModelId, size: ImageSize): boolean {
  return freeAllowanceSizes.includes(size) && (freeUsages[model] ?? 0) > 0;
}

/** requiresSubscription (document 1, "Image: estimate credits"): image-a-2-official at 4K or quality high. */
export function requiresSubscription(r: Pick<ResolvedImageRequest, 'model' | 'imageSize' | 'quality'>): boolean {
  return r.model === 'image-a-2-official' && (r.imageSize === '4K' || r.quality === 'high');
}

// ---------------------------------------------------------------------------
// Schedule, timeout, free lane, rate limits (assumed except the 30-minute timeout)
// ---------------------------------------------------------------------------

/**
 * Simulated schedule in virtual ms (assumed: document 1 shows only that a create returns pending):
 * pending for pendingMs, then generating for generatingMs[family] + sizeExtraMs[size], then success.
 */
export const imageSchedule = {
  pendingMs: 1_000,
  generatingMs: { 'image-a': 6_000, 'image-b': 8_000, 'image-c': 10_000, 'image-d': 7_000 } as Record<ImageFamily, number>,
  sizeExtraMs: { '1K': 0, '2K': 2_000, '4K': 6_000 } as Record<ImageSize, number>,
};

/** Milliseconds a task of `model` and `size` spends generating. */
export function imageGeneratingMs(model: ImageModelId, size: ImageSize): number {
  return imageSchedule.generatingMs[imageModels[model].family] + imageSchedule.sizeExtraMs[size];
}

/** A task pending or generating for more than this many ms becomes fail (document 1, "States and transitions", "Limits"). */
export const IMAGE_TASK_TIMEOUT_MS = 30 * 60 * 1000;

/**
 * The restricted free lane (document 1, "Free allowance for image generation"): image-b-3-pro on
 * accounts that have never paid. Simulated deterministically (assumed numbers): at most `capacity`
 * lane generations in flight across all accounts; up to `queueCapacity` more wait (status pending)
 * and fail with free_relax_timeout after `queueTimeoutMs`; beyond that a task fails with
 * free_relax_busy when it would have started (after pendingMs). The synchronous endpoint answers
 * free_relax_busy (HTTP 429) when the lane is full.
 */
export const freeLane = { model: 'image-b-3-pro' as ImageModelId, capacity: 2, queueCapacity: 2, queueTimeoutMs: 60_000, syncRetryAfterSeconds: 30 };

/** True when a request of `model` by an account runs in the restricted free lane. */
export function inFreeLane(model: ImageModelId, account: { everPaid: boolean }): boolean {
  return model === freeLane.model && !account.everPaid;
}

/**
 * Per-user rate limits of the generation endpoints (assumed numbers: document 1, "Limits" says
 * the values are not shown): every generate request (sync and async together), and a tighter
 * one for requests carrying base64 (inlineData) reference images.
 */
export const imageRateLimits = {
  generate: { bucket: 'image-generate', limit: 60, windowMs: 60_000 },
  inlineReferences: { bucket: 'image-inline-references', limit: 10, windowMs: 60_000 },
} as const;

/** How each kind of failure reads on the task (assumed wording; document 1 says failMsg of a timeout describes it). */
export const imageFailures = {
  timeout: {
    failMsg: 'generation timed out: the task was pending or generating for more than 30 minutes',
    userMessage: 'Image generation took too long and was cancelled. You have not been charged; please try again.',
    retryable: true,
  },
  IMAGE_GENERATION_FAILED: {
    failMsg: 'provider error during generation',
    userMessage: 'Image generation failed. You have not been charged; please try again.',
    retryable: true,
  },
  IMAGE_FREE_RELAX_BUSY: {
    failMsg: 'free_relax_busy: the free generation lane is at capacity; nothing was charged',
    userMessage: 'Free image generation is busy right now. Please try again in a few minutes; you have not been charged.',
    retryable: true,
  },
  IMAGE_FREE_RELAX_TIMEOUT: {
    failMsg: 'free_relax_timeout: the request waited too long in the free generation lane; nothing was charged',
    userMessage: 'Free image generation is slow right now and your request timed out. Please try again later; you have not been charged.',
    retryable: true,
  },
  MOCK_INTERNAL_ERROR: {
    failMsg: 'the mock failed while running this task (a mock bug, reported at GET /__mock/bugs); nothing was charged',
    userMessage: 'Image generation failed. You have not been charged; please try again.',
    retryable: true,
  },
} as const;

// ---------------------------------------------------------------------------
// Rendering of the tables into spec descriptions
// ---------------------------------------------------------------------------

function table(head: string[], rows: (string | number)[][]): string {
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

function ratioSetName(ratios: readonly string[]): string {
  if (ratios === standardRatios) return '10 standard';
  if (ratios === allImageRatios) return 'all 14';
  if (ratios === imageDRatios) return `5 (${imageDRatios.join(', ')}; assumed)`;
  return ratios.join(', ');
}

/** Markdown table of the nine models, their rules and prices, for the spec. */
export function renderImageModelTable(): string {
  const legacyOf = (id: string) =>
    Object.entries(legacyImageModelIds)
      .filter(([, v]) => v === id)
      .map(([k]) => k);
  return table(
    ['model', 'family', 'sizes', 'ratios', 'max reference images', 'unsupported ratio', 'credits (assumed)', 'legacy ids (assumed)'],
    imageModelIds.map((id) => {
      const m: ImageModel = imageModels[id];
      const f = imageFamilies[m.family];
      const sizes = `${m.sizes.join(', ')}${m.fourKTextToImageOnly ? ' (4K only for text-to-image)' : ''}`;
      const price =
        id === 'image-a-2-official'
          ? 'token estimate'
          : Object.entries(imageFixedPrices[id])
              .map(([s, p]) => `${s}: ${p}`)
              .join(', ');
      return [
        id + (id === DEFAULT_IMAGE_MODEL ? ' (default)' : ''),
        m.family,
        sizes,
        ratioSetName(m.ratios),
        f.maxReferenceImages,
        f.unsupportedRatioError
          ? `400, code ${f.unsupportedRatioError === 'IMAGE_B_UNSUPPORTED_RATIO' ? 29003 : 26019}`
          : 'any ratio accepted (size validated only)',
        price,
        legacyOf(id).join(', ') || '-',
      ];
    }),
  );
}

/** Markdown table of pixel sizes for the standard and extreme ratios, for the spec. */
export function renderPixelTable(): string {
  return table(
    ['ratio', ...imageSizes],
    allImageRatios.map((r) => [
      r,
      ...imageSizes.map((s) => {
        const p = imagePixels(s, r);
        return `${p.width}x${p.height}`;
      }),
    ]),
  );
}

/** Text of the aspect-ratio resolution rules, for the spec. */
export const aspectRatioRules =
  'Aspect ratio resolution (document 1, "Image: request schema"): with an imageConfig object sent and no aspectRatio, the ratio is 1:1 on every model. ' +
  'With imageConfig omitted: image-b resolves to 1:1; image-a, image-c and image-d leave it unset (the model picks; the rendered image is ' +
  `${AUTO_RATIO_OUTPUT}). Unsupported ratio: image-b answers 400 code 29003; image-a and image-d answer 400 code 26019 with the supported list in the message; image-c accepts any ratio W:H (validated on size only).`;

// ---------------------------------------------------------------------------
// Request
// ---------------------------------------------------------------------------

const ImageMimeType = z.enum(imageMimeTypes).meta({ description: 'image/png, image/jpeg, image/webp, image/heic or image/heif' });
/** http, https or gs, scheme case-insensitive (no regex flags: JSON Schema patterns carry none). */
const FILE_URI = /^([hH][tT][tT][pP][sS]?|[gG][sS]):\/\/\S+$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const RATIO = /^[1-9][0-9]?:[1-9][0-9]?$/;

/** A reference image given by URL (document 1, "Image: request schema"). */
export const ImageFileData = z
  .object({
    fileUri: z.string().regex(FILE_URI).meta({ description: 'URL of the image; scheme http, https or gs', example: 'https://example.com/cat.png' }),
    mimeType: ImageMimeType,
  })
  .openapi('ImageFileData');
/** A reference image inlined as base64 (document 1, "Image: request schema"). */
export const ImageInlineData = z
  .object({
    data: z.string().min(1).regex(BASE64).meta({
      description:
        'base64 image bytes (standard alphabet, no line breaks); base64 inflates by about one third, keep inlined originals under about 18 MB in total',
    }),
    mimeType: ImageMimeType,
  })
  .openapi('ImageInlineData');
/** One reference image: fileData or inlineData; send exactly one (an item with both passes validation, behaviour undefined). */
export const ReferenceImage = z
  .object({ fileData: ImageFileData.optional(), inlineData: ImageInlineData.optional() })
  .meta({
    description: 'carries fileData or inlineData; send exactly one (an item with both passes validation but behaviour is undefined; it counts once)',
  })
  .openapi('ImageReferenceImage');

/** imageConfig (document 1, "Image: request schema"). */
export const ImageConfig = z
  .object({
    imageSize: z.enum(imageSizes).default('2K').meta({
      description: '1K, 2K (default), 4K; per model (image-c-5-0-pro and image-d-2.7 have no 4K; image-d-2.7-pro has 4K only without reference images)',
    }),
    aspectRatio: z
      .string()
      .regex(RATIO)
      .default('1:1')
      .meta({ description: 'W:H; schema default 1:1 once an imageConfig object is sent; per model (see the model table)', example: '16:9' }),
    quality: z
      .enum(imageQualities)
      .optional()
      .meta({
        description: `low, medium, high; honoured only by image-a-2-official (default ${DEFAULT_IMAGE_QUALITY}, assumed); every other model drops it silently`,
      }),
  })
  // document 1: the field's default is { imageSize: 2K } (the component is only used as that field)
  .openapi('ImageConfig', { default: { imageSize: '2K' } });

const ProviderField = z
  .enum(imageProviders)
  .meta({ description: 'vendor_b, vendor_a, vendor_c, vendor_d or vendor_e; validated but not used for routing (the model decides)' });
const commonRequestFields = {
  model: z
    .enum(acceptedModelIds)
    .default(DEFAULT_IMAGE_MODEL)
    .meta({
      description: `default ${DEFAULT_IMAGE_MODEL}; one of ${imageModelIds.join(', ')}; legacy preview ids (${Object.keys(legacyImageModelIds).join(', ')}; assumed) are normalised to their current ids`,
    }),
  referenceImages: z
    .array(ReferenceImage)
    .optional()
    .meta({
      maxItems: MAX_REFERENCE_IMAGES,
      description: `at most ${MAX_REFERENCE_IMAGES} items for every model; image-a 4, image-b 14, image-c 10, image-d 9 (400, code 26003, naming the limit)`,
    }),
  // document 1: default { imageSize: 2K } (on the component). Shown in the spec only: an imageConfig sent (even this one) sets the ratio to 1:1 on every model
  imageConfig: ImageConfig.optional().meta({ description: 'default { imageSize: 2K } (aspect ratio then resolved per family, see the operation description)' }),
};
const generateBase = z.object({
  provider: ProviderField,
  prompt: z.string().min(1).meta({ description: 'text description; required' }),
  ...commonRequestFields,
});
const estimateBase = z.object({
  provider: ProviderField.optional(),
  prompt: z
    .string()
    .optional()
    .meta({ description: 'text description; optional or empty on estimate (its length drives the token estimate of image-a-2-official)' }),
  ...commonRequestFields,
});
type ImageRequestBase = z.infer<typeof generateBase> | z.infer<typeof estimateBase>;

/** A request with every default and family rule resolved. */
export interface ResolvedImageRequest {
  model: ImageModelId;
  family: ImageFamily;
  imageSize: ImageSize;
  /** The ratio, or null when the model picks it. */
  aspectRatio: string | null;
  /** The quality, or null when not applicable (every model but image-a-2-official). */
  quality: ImageQuality | null;
  /** A quality was sent to a model that drops it. */
  qualityIgnored: boolean;
  referenceCount: number;
  /** Reference items carrying inlineData (base64). */
  inlineReferenceCount: number;
}

/** Resolves model, size, ratio and quality of a request (document 1, "Image: request schema"). */
export function resolveImageRequest(v: Pick<ImageRequestBase, 'model' | 'imageConfig' | 'referenceImages'>): ResolvedImageRequest {
  const model = normalizeImageModel(v.model);
  const m: ImageModel = imageModels[model];
  const refs = v.referenceImages ?? [];
  return {
    model,
    family: m.family,
    imageSize: v.imageConfig?.imageSize ?? '2K',
    aspectRatio: v.imageConfig ? v.imageConfig.aspectRatio : imageFamilies[m.family].ratioWhenConfigOmitted,
    quality: m.honorsQuality ? (v.imageConfig?.quality ?? DEFAULT_IMAGE_QUALITY) : null,
    qualityIgnored: !m.honorsQuality && v.imageConfig?.quality !== undefined,
    referenceCount: refs.length,
    inlineReferenceCount: refs.filter((r) => r.inlineData !== undefined).length,
  };
}

type ImageBody = ImageRequestBase;
/** Every accepted model id (legacy preview ids included) whose model satisfies `pick`. */
const acceptedWhere = (pick: (m: ImageModel, id: ImageModelId) => boolean) =>
  acceptedModelIds.filter((id) => pick(imageModels[normalizeImageModel(id)], normalizeImageModel(id)));
const imageConfigProp = (field: string, schema: JsonSchema): JsonSchema => ({ properties: { imageConfig: { properties: { [field]: schema } } } });
const hasReferences: JsonSchema = { required: ['referenceImages'], properties: { referenceImages: { minItems: 1 } } };

/**
 * Every rule of an image request (document 1, "Image: request schema", "Image models", "Limits"), in the order they are reported.
 * Errors: IMAGE_INVALID_PARAMETERS (26001), IMAGE_UNSUPPORTED_SIZE (26002), IMAGE_TOO_MANY_REFERENCE_IMAGES (26003),
 * IMAGE_UNSUPPORTED_RATIO (26019, image-a and image-d), IMAGE_B_UNSUPPORTED_RATIO (29003, image-b).
 */
function imageRules(mode: 'generate' | 'estimate'): BodyRule<ImageBody>[] {
  const families = Object.keys(imageFamilies) as ImageFamily[];
  const modelOf = (v: ImageBody) => normalizeImageModel(v.model);
  return [
    ...(mode === 'generate'
      ? [
          rule<ImageBody>({
            id: 'image.prompt-not-blank',
            rule: 'prompt is not blank',
            code: 'IMAGE_INVALID_PARAMETERS',
            path: ['prompt'],
            message: 'prompt is required and must not be blank',
            then: { properties: { prompt: js.notBlank } },
          }),
        ]
      : []),
    rule<ImageBody>({
      id: 'image.reference-has-data',
      rule: 'each reference image carries fileData or inlineData',
      code: 'IMAGE_INVALID_PARAMETERS',
      path: (v) => [
        'referenceImages',
        Math.max(
          0,
          (v.referenceImages ?? []).findIndex((r) => !r.fileData && !r.inlineData),
        ),
      ],
      message: 'a reference image must carry fileData or inlineData',
      then: { properties: { referenceImages: { items: { anyOf: [{ required: ['fileData'] }, { required: ['inlineData'] }] } } } },
    }),
    ...families
      // every family's limit, within the 14 of the schema cap
      .map((f) => {
        const max = Math.min(imageFamilies[f].maxReferenceImages, MAX_REFERENCE_IMAGES);
        return rule<ImageBody>({
          id: `image.references-max.${f}`,
          rule: `${f} models: at most ${max} reference images`,
          code: 'IMAGE_TOO_MANY_REFERENCE_IMAGES',
          path: ['referenceImages'],
          message: (v) => `referenceImages has ${(v.referenceImages ?? []).length} items; ${modelOf(v)} (${f}) accepts at most ${max}`,
          when: { model: acceptedWhere((m) => m.family === f) },
          then: { properties: { referenceImages: { maxItems: max } } },
        });
      }),
    ...imageModelIds
      .filter((id) => imageModels[id].sizes.length < imageSizes.length)
      .map((id) => {
        const sizes = imageModels[id].sizes;
        return rule<ImageBody>({
          id: `image.size.${id}`,
          rule: `${id}: imageSize ${sizes.join(' or ')}`,
          code: 'IMAGE_UNSUPPORTED_SIZE',
          path: ['imageConfig', 'imageSize'],
          message: (v) => `imageSize ${v.imageConfig?.imageSize} is not supported by ${id} (supported: ${sizes.join(', ')})`,
          when: { model: acceptedWhere((_, m) => m === id) },
          then: imageConfigProp('imageSize', { enum: [...sizes] }),
        });
      }),
    ...imageModelIds
      .filter((id) => (imageModels[id] as ImageModel).fourKTextToImageOnly)
      .map((id) =>
        rule<ImageBody>({
          id: `image.4k-text-only.${id}`,
          rule: `${id}: 4K only without reference images`,
          code: 'IMAGE_UNSUPPORTED_SIZE',
          path: ['imageConfig', 'imageSize'],
          message: `imageSize 4K is only available for text-to-image on ${id}; remove the reference images or use 1K or 2K`,
          when: { model: acceptedWhere((_, m) => m === id) },
          then: { if: hasReferences, then: imageConfigProp('imageSize', { not: { const: '4K' } }) },
        }),
      ),
    ...imageModelIds
      .filter((id) => imageFamilies[imageModels[id].family].unsupportedRatioError !== null)
      .map((id) => {
        const ratios = imageModels[id].ratios;
        return rule<ImageBody>({
          id: `image.ratio.${id}`,
          rule: `${id}: aspectRatio ${ratios.join(', ')}`,
          code: imageFamilies[imageModels[id].family].unsupportedRatioError!,
          path: ['imageConfig', 'aspectRatio'],
          message: (v) => `aspectRatio ${v.imageConfig?.aspectRatio} is not supported by ${id}; supported: ${ratios.join(', ')}`,
          when: { model: acceptedWhere((_, m) => m === id) },
          then: imageConfigProp('aspectRatio', { enum: [...ratios] }),
        });
      }),
  ];
}

const requestExample = {
  provider: 'vendor_a',
  model: 'image-a-2',
  prompt: 'A lighthouse on a cliff at sunset, watercolor',
  imageConfig: { imageSize: '1K', aspectRatio: '16:9' },
};

const requestDescription = (what: string) =>
  `${what}\n\nModels (document 1, "Image models"):\n\n${renderImageModelTable()}\n\n${aspectRatioRules}\n\n` +
  'Size rules: image-c-5-0-pro and image-d-2.7 answer 400 (code 26002) for 4K; image-d-2.7-pro answers 400 (26002) for 4K when reference images are present. ' +
  'More reference images than the family allows: 400 (26003), the message names the limit. Only image-a-2-official honours quality.';

/** Body of POST /v1/images/generation and POST /v1/images/generation/async (document 1, "Image: request schema"). */
export const ImageGenerationRequest = withRules(generateBase, imageRules('generate'), 'ImageGenerationRequest', {
  description: requestDescription('Generate an image. provider and prompt are required.'),
  example: requestExample,
});
export type ImageGenerationRequest = z.infer<typeof ImageGenerationRequest>;

/** Body of POST /v1/images/generation/estimate-credits: the same body, provider optional, prompt optional or empty. */
export const EstimateImageCreditsRequest = withRules(estimateBase, imageRules('estimate'), 'EstimateImageCreditsRequest', {
  description: requestDescription('Estimate an image generation. provider is optional; prompt is optional or empty.'),
  example: {
    model: 'image-a-2-official',
    prompt: 'A lighthouse on a cliff at sunset',
    imageConfig: { imageSize: '2K', aspectRatio: '1:1', quality: 'high' },
  },
});
export type EstimateImageCreditsRequest = z.infer<typeof EstimateImageCreditsRequest>;

/** Rules of the image generate endpoints that read the account (listed in x-rules). */
export const imageStateRules: StateRule[] = [
  {
    code: 'IMAGE_SUBSCRIPTION_REQUIRED',
    fields: ['model', 'imageConfig.imageSize', 'imageConfig.quality'],
    rule: 'the models and sizes that need a subscription need a paid plan',
    reads: 'account',
  },
  { code: 'IMAGE_INSUFFICIENT_CREDITS', fields: [], rule: 'the balance (or a free generation) covers the price', reads: 'account' },
  { code: 'IMAGE_RATE_LIMITED', fields: ['referenceImages'], rule: 'requests with base64 reference images have a tighter rate limit', reads: 'account' },
];

// ---------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------

/** Raw output of the synchronous endpoint (document 1, "Image task"): candidates[].content.parts[].inlineData. Other fields: not shown. */
export const ImageGenerationOutput = z
  .object({
    candidates: z
      .array(
        z.object({
          content: z.object({
            parts: z
              .array(
                z.object({
                  inlineData: z.object({
                    mimeType: z
                      .enum(imageMimeTypes)
                      .meta(
                        provenanceMeta(assumed('the seed does not say which type the models return; the mock returns image/png'), 'mime type of the image'),
                      ),
                    data: z
                      .string()
                      .meta({ description: 'base64 image bytes (a decodable image of mimeType whose pixel size matches the resolved size and ratio)' }),
                  }),
                }),
              )
              .min(1),
          }),
        }),
      )
      .min(1)
      .meta(
        provenanceMeta(
          assumed('the seed shows candidates[].content.parts[].inlineData only; the mock returns one candidate with one part'),
          'model candidates',
        ),
      ),
  })
  .meta({ description: 'Raw model output (no envelope). Other fields of the raw output are not shown by the seed and may be present.' })
  .openapi('ImageGenerationOutput');

/** Data of POST /v1/images/generation/async (document 1, "Image: asynchronous generate"). */
export const CreateImageTaskData = z
  .strictObject({ taskId: z.string(), status: z.literal('pending') })
  .openapi('CreateImageTaskData', { example: { taskId: 'img_1a2b3c4d5e6f7a8b', status: 'pending' } });

/** One hosted image of a succeeded task. */
export const ImageTaskImage = z.strictObject({
  url: z
    .string()
    .meta(
      provenanceMeta(
        assumed('the seed says images are persisted as hosted URLs; the mock serves them itself at /media/images/{taskId}/{n}.png'),
        'hosted image URL',
      ),
    ),
  mimeType: z.enum(imageMimeTypes),
});

/** The image task (document 1, "Image task"). Optional fields are absent when not applicable. */
export const ImageTask = z
  .strictObject({
    taskId: z.string(),
    status: z.enum(imageTaskStatuses),
    model: z
      .enum(imageModelIds)
      .meta(provenanceMeta(assumed('the seed does not list model on the task; the normalised model id is returned for lists'), 'normalised model id')),
    images: z.array(ImageTaskImage).optional().meta({ description: 'present on success; one image per task (assumed)' }),
    failMsg: z.string().optional().meta({ description: 'failure message when status is fail (a timeout says it timed out)' }),
    createdAt: EpochMs,
    completedAt: EpochMs.optional().meta({ description: 'ms, when finished (success or fail)' }),
    failReason: z.enum(freeLaneFailReasons).optional().meta({ description: 'free_relax_busy or free_relax_timeout, on failures of the restricted free lane' }),
    retryable: z
      .boolean()
      .optional()
      .meta(
        provenanceMeta(
          assumed(
            'the seed gives retryable only for free-lane failures; the mock sets it on every failure (true for timeouts, provider errors and the free lane)',
          ),
          'true for the free-lane failures',
        ),
      ),
    freeUsageRolledBack: z
      .boolean()
      .optional()
      .meta(provenanceMeta(assumed('set on every failure, true when a free allowance was consumed and returned'), 'true when the free allowance was returned')),
    userMessage: z
      .string()
      .optional()
      .meta(provenanceMeta(assumed("wording is the mock's; present on every failure"), 'localizable user-facing text')),
  })
  .openapi('ImageTask', {
    example: {
      taskId: 'img_1a2b3c4d5e6f7a8b',
      status: 'success',
      model: 'image-a-2',
      images: [{ url: 'http://localhost:4010/media/images/img_1a2b3c4d5e6f7a8b/0.png', mimeType: 'image/png' }],
      createdAt: 1767225600000,
      completedAt: 1767225609000,
    },
  });
export type ImageTask = z.infer<typeof ImageTask>;

export const ImageTaskIdParams = z.object({
  taskId: z
    .string()
    .min(1)
    .meta({ param: { description: 'task id' }, example: 'img_1a2b3c4d5e6f7a8b' }),
});

/** Query of GET /v1/images/generation/tasks (document 1, "Image: list tasks"). */
export const ListImageTasksQuery = z.object({
  ...pageQuery(100),
  status: z.enum(imageTaskStatuses).optional().meta({ description: 'filter by status' }),
});

const FixedPricingSchema = z.strictObject({
  pricingVersion: z.string(),
  mode: z.literal('fixed'),
  imageSize: z.enum(imageSizes),
  creditsPerImage: z.number().int().nonnegative().meta({ description: 'fixed credits of one image at this size (assumed table)' }),
});
const TokenPricingSchema = z.strictObject({
  pricingVersion: z.string(),
  mode: z.literal('token-estimate'),
  promptTokens: z
    .number()
    .int()
    .nonnegative()
    .meta({ description: `ceil(prompt characters / ${imageTokenPricing.promptCharsPerToken})` }),
  referenceImageTokens: z
    .number()
    .int()
    .nonnegative()
    .meta({ description: `${imageTokenPricing.tokensPerReferenceImage} per reference image (flat)` }),
  outputTokens: z.number().int().nonnegative().meta({ description: 'output tokens by size x quality factor' }),
  inputCreditsPer1kTokens: z.number().nonnegative(),
  outputCreditsPer1kTokens: z.number().nonnegative(),
  qualityFactor: z.number().positive(),
});

/** Data of POST /v1/images/generation/estimate-credits (document 1, "Image: estimate credits"). */
export const ImageEstimateData = z
  .strictObject({
    model: z.enum(imageModelIds).meta({ description: 'normalised model id' }),
    imageSize: z.enum(imageSizes).meta({ description: 'resolved size' }),
    aspectRatio: z.string().optional().meta({ description: 'resolved ratio; absent when the model auto-selects' }),
    quality: z.enum(imageQualities).optional().meta({ description: 'resolved quality; absent when not applicable (every model but image-a-2-official)' }),
    pixels: z
      .strictObject({
        width: z.number().int().positive(),
        height: z.number().int().positive(),
        size: z.string().meta({ description: 'WxH', example: '2048x1152' }),
      })
      .optional()
      .meta(
        provenanceMeta(
          assumed('pixel table: 1K/2K/4K = 1024/2048/4096 on the long side, exact ratio; absent when the model auto-selects the ratio'),
          '{ width, height, size } as WxH, when resolved',
        ),
      ),
    credits: z.number().nonnegative().meta({ description: 'full credit price of the configuration; never reduced by the free allowance' }),
    canGenerate: z.boolean().meta({
      description: 'whether the effective balance suffices: a free allowance that applies, or enough credits (and a subscription where required, assumed)',
    }),
    requiresSubscription: z.boolean().meta({ description: 'true only for image-a-2-official at 4K or quality high' }),
    pricing: z
      .discriminatedUnion('mode', [FixedPricingSchema, TokenPricingSchema])
      .meta(
        provenanceMeta(
          assumed('the seed names pricingVersion, mode and "rate inputs"; the rate inputs and numbers are the mock\'s'),
          'pricingVersion, mode (token-estimate or fixed), rate inputs',
        ),
      ),
    // document 1 gives these "for example": an open list of strings, so a client must accept others
    warnings: z.array(z.string().meta({ examples: [...imageEstimateWarnings] })).meta({
      description:
        'advisory strings, an open list; for example quality_ignored_for_image_a_2_lite (a quality sent to a model that drops it) or reference_image_input_tokens_not_included (token estimate with reference images: only a flat count per image is included)',
    }),
  })
  .openapi('ImageEstimateData', {
    example: {
      model: 'image-a-2-official',
      imageSize: '2K',
      aspectRatio: '1:1',
      quality: 'high',
      pixels: { width: 2048, height: 2048, size: '2048x2048' },
      credits: 17,
      canGenerate: true,
      requiresSubscription: true,
      pricing: {
        pricingVersion: IMAGE_PRICING_VERSION,
        mode: 'token-estimate',
        promptTokens: 9,
        referenceImageTokens: 0,
        outputTokens: 4000,
        inputCreditsPer1kTokens: 2,
        outputCreditsPer1kTokens: 4,
        qualityFactor: 2,
      },
      warnings: [],
    },
  });
export type ImageEstimateData = z.infer<typeof ImageEstimateData>;

/** Table-level assumptions of the image area (listed in docs/assumptions.md). */
export const imageTableAssumptions: TableAssumption[] = [
  {
    subject: `image-d ratios: ${imageDRatios.join(', ')} (\`imageDRatios\`, schemas/image.ts)`,
    reason: 'document 1 says image-d models accept "5 ratios" but does not list them',
  },
  {
    subject: `legacy preview model ids: ${Object.entries(legacyImageModelIds)
      .map(([k, v]) => `${k} -> ${v}`)
      .join(', ')}`,
    reason: 'document 1 says legacy preview ids are normalised but does not list them',
  },
  {
    subject: 'image prices: `imageFixedPrices`, `imageTokenPricing`, `IMAGE_PRICING_VERSION`',
    reason: 'document 1 names the modes (fixed, token-estimate) and the inputs of the token estimate but shows no number',
  },
  {
    subject: 'image pixel sizes: 1K/2K/4K = 1024/2048/4096 px on the long side, exact ratio (`imagePixels`); an auto-selected ratio renders 1:1',
    reason: 'document 1 names sizes and ratios without pixels',
  },
  { subject: 'generated images are PNG (image/png), one per task', reason: 'document 1 does not say which type or how many images a generation returns' },
  {
    subject:
      'image lifecycle: pending 1 s, generating 6-10 s by family plus 0/2/6 s by size (`imageSchedule`); the 30-minute timeout is an event due just after 30 minutes',
    reason: 'document 1 shows only that a create returns pending and the timeout rule',
  },
  {
    subject: `free lane: ${freeLane.capacity} generations in flight, ${freeLane.queueCapacity} waiting, ${freeLane.queueTimeoutMs / 1000} s queue timeout (\`freeLane\`); the sync endpoint answers 26030 (HTTP 429) when the lane is full`,
    reason: 'document 1 says the lane has a fixed throughput but shows no numbers',
  },
  {
    subject: 'free allowance keyed by normalised model id in freeUsages; a failure returns it',
    reason: 'document 1 says "a matching freeUsages balance" without the key',
  },
  {
    subject: `image rate limits: ${imageRateLimits.generate.limit} generate requests per minute per user, ${imageRateLimits.inlineReferences.limit} per minute with base64 references; no global limit`,
    reason: 'document 1 says the numeric values are not shown',
  },
  {
    subject: 'image-a-2-official at 4K or quality high answers 402 (26005) for accounts on plan free',
    reason: 'document 1 gives requiresSubscription but not what happens without one',
  },
  {
    subject: 'image task get answers 404 (26006) for unknown tasks and for tasks of another user',
    reason: 'document 1 does not show the image task read errors',
  },
  {
    subject: 'synchronous generations create no task (they are not listed); the sync error body is the envelope',
    reason: 'document 1 says the error body of the synchronous endpoint is not shown',
  },
];

// ---------------------------------------------------------------------------
// Operations
// ---------------------------------------------------------------------------

const imageRequestErrors = [
  'IMAGE_INVALID_PARAMETERS',
  'IMAGE_UNSUPPORTED_SIZE',
  'IMAGE_TOO_MANY_REFERENCE_IMAGES',
  'IMAGE_UNSUPPORTED_RATIO',
  'IMAGE_B_UNSUPPORTED_RATIO',
] as const;

/**
 * The image task's states as data (document 1, "States and transitions"; the moves are the simulated lifecycle's,
 * assumed): `example` is a valid create body, its estimate the credits it costs.
 */
const imageLifecycle: LifecycleDef = {
  statusField: 'status',
  states: imageTaskStatuses,
  transitions: { pending: ['generating', 'fail'], generating: ['success', 'fail'] },
  terminal: ['success', 'fail'],
  success: 'success',
  pollOperationId: 'getImageTask',
  idField: 'taskId',
  firstPollMs: 5_000,
  intervalMs: 5_000,
  timeoutMs: IMAGE_TASK_TIMEOUT_MS + 60_000,
  example: { provider: 'vendor_a', model: 'image-a-2', prompt: 'a red kite over a beach' },
  successRequires: ['images'],
  media: [{ urlField: 'images[].url', contentTypes: [OUTPUT_MIME_TYPE] }],
  estimate: { operationId: 'estimateImageCredits', body: { model: 'image-a-2' }, creditsField: 'credits' },
};

// What the operations below share: each states only what differs (operationsWith, schemas/define.ts).
const op = operationsWith({ auth: true, validationError: 'IMAGE_INVALID_PARAMETERS' });

/** The image operations (document 1, image sections): synchronous, asynchronous, get, list and estimate. */
export const imageOperations = defineOperations('Image', {
  generateImage: op({
    method: 'post',
    path: '/v1/images/generation',
    summary: 'Generate an image synchronously (raw model output)',
    description:
      'Blocks until the image is generated and returns the raw model output without the envelope: candidates[].content.parts[].inlineData {mimeType, data} with data the base64 bytes of the image (image/png, assumed), ' +
      'whose pixel size matches the resolved size and ratio. Errors use the envelope. ' +
      'Charges the same credits as the estimate (or one free generation, see imageFreeAllowance); no task is created (assumed). ' +
      `Rate limit (assumed numbers): ${imageRateLimits.generate.limit} generate requests per minute per user, sync and async together; ${imageRateLimits.inlineReferences.limit} per minute for requests carrying base64 reference images (HTTP 429 with Retry-After). ` +
      `Restricted free lane: image-b-3-pro on never-paid accounts answers 26030 (HTTP 429, retry later, nothing charged) when the lane's ${freeLane.capacity} slots are taken. JSON body up to 25 MB (413 above).\n\n` +
      `Pixel sizes (1K/2K/4K = 1024/2048/4096 on the long side, exact ratio; an auto-selected ratio renders 1:1):\n\n${renderPixelTable()}`,
    provenance: fromSeed(1, 'Image: synchronous generate'),
    request: { body: json(ImageGenerationRequest, { limitBytes: IMAGE_BODY_LIMIT_BYTES }) },
    response: { status: 200, kind: 'raw', schema: ImageGenerationOutput, description: 'raw model output (no envelope)' },
    errors: [
      ...imageRequestErrors,
      'IMAGE_GENERATION_FAILED',
      'IMAGE_INSUFFICIENT_CREDITS',
      'IMAGE_SUBSCRIPTION_REQUIRED',
      'IMAGE_RATE_LIMITED',
      'IMAGE_FREE_RELAX_BUSY',
      'IMAGE_FREE_RELAX_TIMEOUT',
    ],
    stateRules: [
      ...imageStateRules,
      {
        code: 'IMAGE_FREE_RELAX_BUSY',
        fields: ['model'],
        rule: 'the free lane of image-b-3-pro (accounts that never paid) takes a bounded number of requests at once',
        reads: 'concurrency',
      },
    ],
    rateLimit: { ...imageRateLimits.generate, error: 'IMAGE_RATE_LIMITED' },
    charges: true,
  }),
  createImageTask: op({
    method: 'post',
    path: '/v1/images/generation/async',
    summary: 'Create an image task (asynchronous)',
    description:
      'Same body as the synchronous endpoint. Returns HTTP 202 with {taskId, status: pending}; images are persisted as hosted URLs (no auth, Range requests answered 206). ' +
      "Charges the estimate's credits at creation (or one free generation for 1K/2K when freeUsages[model] > 0); a failure or timeout refunds them and returns the allowance.\n\n" +
      `Simulated lifecycle (assumed): pending ${imageSchedule.pendingMs / 1000} s, then generating ${imageSchedule.generatingMs['image-a'] / 1000}-${imageSchedule.generatingMs['image-c'] / 1000} s by family plus ${imageSchedule.sizeExtraMs['2K'] / 1000} s at 2K or ${imageSchedule.sizeExtraMs['4K'] / 1000} s at 4K, then success. ` +
      `A task pending or generating for more than ${IMAGE_TASK_TIMEOUT_MS / 60000} minutes becomes fail with a failMsg saying it timed out\n\n` +
      `Restricted free lane (image-b-3-pro, accounts that have never paid; assumed numbers): ${freeLane.capacity} generations in flight across all such accounts, ${freeLane.queueCapacity} more wait (pending) and fail with failReason free_relax_timeout after ${freeLane.queueTimeoutMs / 1000} s, any further task fails with failReason free_relax_busy. ` +
      'Those failures carry retryable true, freeUsageRolledBack (true when an allowance was returned) and userMessage, and spend neither credits nor allowance. Paid or previously paid accounts are never restricted.',
    provenance: fromSeed(1, 'Image: asynchronous generate'),
    request: { body: json(ImageGenerationRequest, { limitBytes: IMAGE_BODY_LIMIT_BYTES }) },
    response: { status: 202, kind: 'envelope', schema: CreateImageTaskData, description: 'task created, status pending' },
    errors: [...imageRequestErrors, 'IMAGE_INSUFFICIENT_CREDITS', 'IMAGE_SUBSCRIPTION_REQUIRED', 'IMAGE_RATE_LIMITED'],
    stateRules: imageStateRules,
    rateLimit: { ...imageRateLimits.generate, error: 'IMAGE_RATE_LIMITED' },
    charges: true,
    outcomes: ['failed', 'stuck'],
    failureReasons: ['IMAGE_GENERATION_FAILED', 'IMAGE_FREE_RELAX_BUSY', 'IMAGE_FREE_RELAX_TIMEOUT'],
    lifecycle: imageLifecycle,
  }),
  getImageTask: op({
    method: 'get',
    path: '/v1/images/generation/tasks/{taskId}',
    summary: 'Get an image task',
    description: 'Returns the image task. Poll until status is success or fail. An unknown task, or one of another user, answers 404 (26006, assumed).',
    provenance: fromSeed(1, 'Image: get task'),
    request: { params: ImageTaskIdParams },
    response: { status: 200, kind: 'envelope', schema: ImageTask, description: 'the task' },
    errors: ['IMAGE_INVALID_PARAMETERS', 'IMAGE_TASK_NOT_FOUND'],
  }),
  listImageTasks: op({
    method: 'get',
    path: '/v1/images/generation/tasks',
    summary: "List the caller's image tasks, newest first",
    description: "The current API user's image tasks (asynchronous endpoint), newest first, optionally filtered by status. page >= 1, pageSize 1-100.",
    provenance: fromSeed(1, 'Image: list tasks'),
    request: { query: ListImageTasksQuery },
    response: { status: 200, kind: 'envelope', schema: paginated(ImageTask), description: 'a page of tasks' },
    errors: ['IMAGE_INVALID_PARAMETERS'],
  }),
  estimateImageCredits: op({
    method: 'post',
    path: '/v1/images/generation/estimate-credits',
    summary: 'Estimate an image generation',
    description:
      'Same body (provider optional, prompt optional or empty); the same rules and errors. Spends nothing, calls no model and creates no task. ' +
      'credits is the full price, never reduced by the free allowance, and equals what a generation of the same body charges. ' +
      'Most models are priced at a fixed credit cost per size (mode fixed); image-a-2-official from estimated tokens (mode token-estimate), growing with prompt length, output size, quality and reference image count.',
    provenance: fromSeed(1, 'Image: estimate credits'),
    request: { body: json(EstimateImageCreditsRequest, { limitBytes: IMAGE_BODY_LIMIT_BYTES }) },
    response: { status: 200, kind: 'envelope', schema: ImageEstimateData, description: 'the estimate' },
    errors: [...imageRequestErrors],
  }),
});

/** The image area: its tag, operations and table assumptions. */
export const imageArea = {
  tag: { name: 'Image', description: 'Image generation: synchronous, asynchronous and estimate endpoints shared by nine models (document 1).' },
  operations: imageOperations,
  tableAssumptions: imageTableAssumptions,
} satisfies Area;
