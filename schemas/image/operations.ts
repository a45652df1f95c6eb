/**
 * Image responses and operations (schemas/image.ts re-exports them): the
 * image task, the raw synchronous output, the estimate, the task lifecycle,
 * and the operations of the image area with its table assumptions. Seed:
 * document 1, "Image task", "Image: synchronous generate", "Image:
 * asynchronous generate", "Image: get task", "Image: list tasks", "Image:
 * estimate credits".
 */
import { z } from '../zod.ts';
import { EpochMs, idParams, pageQuery, paginated } from '../common.ts';
import { assumed, fromSeed, provenanceMeta, type TableAssumption } from '../provenance.ts';
import { defineOperations, operationsWith, json, type Area } from '../define.ts';
import type { LifecycleDef } from '../registry-types.ts';
import {
  imageSizes,
  imageDRatios,
  imageMimeTypes,
  OUTPUT_MIME_TYPE,
  imageQualities,
  imageTaskStatuses,
  freeLaneFailReasons,
  imageEstimateWarnings,
  imageModelIds,
  legacyImageModelIds,
  IMAGE_BODY_LIMIT_BYTES,
  IMAGE_PRICING_VERSION,
  imageTokenPricing,
  imageSchedule,
  IMAGE_TASK_TIMEOUT_MS,
  freeLane,
  imageRateLimits,
  renderPixelTable,
} from './tables.ts';
import { ImageGenerationRequest, EstimateImageCreditsRequest, imageStateRules } from './requests.ts';

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
                        provenanceMeta(
                          assumed('the document does not say which type the models return; this contract returns image/png'),
                          'mime type of the image',
                        ),
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
          assumed('the document shows candidates[].content.parts[].inlineData only; this contract returns one candidate with one part'),
          'model candidates',
        ),
      ),
  })
  .meta({ description: 'Raw model output (no envelope). Other fields of the raw output are not shown by the document and may be present.' })
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
        assumed('the document says images are persisted as hosted URLs; this contract serves them itself at /media/images/{taskId}/{n}.png'),
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
    // optional: document 1's task table has no model, so an answer without it stays valid
    model: z
      .enum(imageModelIds)
      .optional()
      .meta(provenanceMeta(assumed('the document does not list model on the task; the normalised model id is returned for lists'), 'normalised model id')),
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
            'the document gives retryable only for free-lane failures; this contract sets it on every failure (true for timeouts, provider errors and the free lane)',
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
      .meta(provenanceMeta(assumed("wording is this contract's; present on every failure"), 'localizable user-facing text')),
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

export const ImageTaskIdParams = idParams('taskId', 'task id', 'img_1a2b3c4d5e6f7a8b');

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
          assumed('the document names pricingVersion, mode and "rate inputs"; the rate inputs and numbers are this contract\'s'),
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
  provenance: assumed('document 1 gives no polling timings (5 s chosen); the timeout is its 30 minutes plus a minute'),
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
      `Lifecycle (assumed timings): pending ${imageSchedule.pendingMs / 1000} s, then generating ${imageSchedule.generatingMs['image-a'] / 1000}-${imageSchedule.generatingMs['image-c'] / 1000} s by family plus ${imageSchedule.sizeExtraMs['2K'] / 1000} s at 2K or ${imageSchedule.sizeExtraMs['4K'] / 1000} s at 4K, then success. ` +
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
