/**
 * Image tables (schemas/image.ts re-exports them): the models, families,
 * sizes, ratio sets and reference limits, prices and the price of a resolved
 * request, the schedule, timeout, free lane and rate limits, and their
 * rendering into spec descriptions. Seed: document 1, "Image models", "Free
 * allowance for image generation", "Limits"; numbers the seed does not give
 * are assumed, with their reason.
 */
import type { ErrorName } from '../errors.ts';
import { assumed } from '../provenance.ts';

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
export const acceptedModelIds = [...imageModelIds, ...(Object.keys(legacyImageModelIds) as LegacyImageModelId[])] as [string, ...string[]];

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
 * so the pixel size has exactly the ratio and its long side is at most longSide; a reduced ratio whose larger
 * term exceeds longSide (image-c accepts any ratio) gets the long side and the short side scaled, at least 1 pixel.
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
  const long = imageLongSide[size];
  // a ratio longer than the long side itself (image-c accepts any, e.g. 2000:1): the long side, the short side scaled, at least 1
  if (Math.max(a, b) > long) {
    const short = (x: number) => Math.max(1, Math.round((x * long) / Math.max(a, b)));
    return a >= b ? { width: long, height: short(b) } : { width: short(a), height: long };
  }
  const k = Math.floor(long / Math.max(a, b));
  return { width: a * k, height: b * k };
}

// ---------------------------------------------------------------------------
// Prices (assumed: the seed names the modes but shows no numbers)
// ---------------------------------------------------------------------------

/** Version string of the price tables, returned in pricing.pricingVersion (assumed). */
export const IMAGE_PRICING_VERSION = '2026-01';

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
  generate: {
    bucket: 'image-generate',
    limit: 60,
    windowMs: 60_000,
    provenance: assumed('document 1, "Limits": ordinary image requests have per-user limits whose numeric values are not shown'),
  },
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
