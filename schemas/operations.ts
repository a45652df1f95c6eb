/**
 * The operation registry: every endpoint of the API exactly once (DESIGN.md,
 * "One operation, end to end"). The spec emitter, the mock's router and the
 * tests all read it.
 */
import { z } from './zod.ts';
import type { ErrorName } from './errors.ts';
import { fromSeed } from './provenance.ts';
import type { OperationDef } from './registry-types.ts';
import { paginated } from './common.ts';
import { SubscriptionData } from './account.ts';
import {
  CreateFamily5VideoTaskRequest,
  CreateVideoTaskData,
  CreateVideoTaskRequest,
  DEFAULT_SHARED_VIDEO_MODEL,
  DEFAULT_VIDEO_DURATION,
  EstimateFamily5CreditsRequest,
  EstimateVideoCreditsRequest,
  ListVideoTasksQuery,
  VideoEstimateData,
  VideoTask,
  VideoTaskIdParams,
  VideoTaskListItem,
  renderFamily5RuleTable,
  renderSharedModelTable,
  videoGenerateRateLimit,
  videoPhases,
  videoProvenance,
} from './video.ts';
import {
  CreateImageTaskData,
  EstimateImageCreditsRequest,
  IMAGE_BODY_LIMIT_BYTES,
  IMAGE_TASK_TIMEOUT_MS,
  ImageEstimateData,
  ImageGenerationOutput,
  ImageGenerationRequest,
  ImageTask,
  ImageTaskIdParams,
  ListImageTasksQuery,
  freeLane,
  imageProvenance,
  imageRateLimits,
  imageSchedule,
  renderPixelTable,
} from './image.ts';

/** Transport errors every operation can answer with: auth, and (with a JSON body) parsing and size. */
function transportErrors(opts: { auth: boolean; body: boolean }): ErrorName[] {
  return [...(opts.auth ? (['UNAUTHORIZED'] as const) : []), ...(opts.body ? (['MALFORMED_JSON', 'UNSUPPORTED_MEDIA_TYPE', 'PAYLOAD_TOO_LARGE'] as const) : []), 'INVALID_PREFER'];
}

const videoFieldErrors: Partial<Record<string, ErrorName>> = {
  model: 'VIDEO_UNSUPPORTED_COMBINATION',
  resolution: 'VIDEO_UNSUPPORTED_COMBINATION',
  ratio: 'VIDEO_UNSUPPORTED_COMBINATION',
  duration: 'VIDEO_UNSUPPORTED_COMBINATION',
};

const defaultPhases = videoPhases(DEFAULT_SHARED_VIDEO_MODEL, DEFAULT_VIDEO_DURATION);

/** Every operation of the API, keyed by operationId. */
export const operations = {
  createVideoTask: {
    operationId: 'createVideoTask',
    method: 'post',
    path: '/v1/video-generation/generate',
    tags: ['Video'],
    summary: 'Create a video task (shared endpoint, families 1-4)',
    description:
      'Creates a video task and charges its credits at once; the task is refunded in full if generation fails. ' +
      `Returns status generating. Rate limit: ${videoGenerateRateLimit.limit} generate requests per minute per user across both video generate endpoints (HTTP 429 with Retry-After).\n\n` +
      `Simulated lifecycle (assumed): generating for a model-dependent time that grows with duration (${DEFAULT_SHARED_VIDEO_MODEL}, ${DEFAULT_VIDEO_DURATION} s: ${defaultPhases.generatingMs / 1000} s), then uploading ${defaultPhases.uploadingMs / 1000} s, then success.\n\n${renderSharedModelTable()}`,
    provenance: videoProvenance.shared,
    auth: true,
    request: { body: CreateVideoTaskRequest },
    response: { status: 200, kind: 'envelope', schema: CreateVideoTaskData, description: 'task created, status generating' },
    errors: [...transportErrors({ auth: true, body: true }), 'VIDEO_INVALID_PARAMETERS', 'VIDEO_UNSUPPORTED_COMBINATION', 'VIDEO_MISSING_MEDIA_DURATION', 'VIDEO_INSUFFICIENT_CREDITS', 'VIDEO_RATE_LIMITED'],
    validationError: 'VIDEO_INVALID_PARAMETERS',
    fieldErrors: videoFieldErrors,
    rateLimit: { ...videoGenerateRateLimit, error: 'VIDEO_RATE_LIMITED' },
    outcomes: ['failed'],
    failureReasons: ['VIDEO_GENERATION_FAILED', 'VIDEO_CONTENT_REJECTED'],
  },
  createFamily5VideoTask: {
    operationId: 'createFamily5VideoTask',
    method: 'post',
    path: '/v1/video-generation/family5/generate',
    tags: ['Video'],
    summary: 'Create a family5 video task (dedicated endpoint, nine capabilities)',
    description:
      'Creates a family5 task and charges its credits at once; refunded in full if generation fails. Returns status generating. ' +
      `Shares the ${videoGenerateRateLimit.limit} per minute generate limit with the shared endpoint (HTTP 429, code 29998, Retry-After). ` +
      `Provider keys, internal media ids, trace ids and raw provider responses are never returned.\n\n${renderFamily5RuleTable()}`,
    provenance: videoProvenance.family5,
    auth: true,
    request: { body: CreateFamily5VideoTaskRequest },
    response: { status: 200, kind: 'envelope', schema: CreateVideoTaskData, description: 'task created, status generating' },
    errors: [...transportErrors({ auth: true, body: true }), 'F5_TASK_NOT_FOUND', 'F5_INSUFFICIENT_CREDITS', 'F5_PROVIDER_ERROR', 'F5_INVALID_PARAMETERS', 'F5_TASK_FORBIDDEN', 'F5_AUDIO_NEEDS_VISUAL', 'F5_PROVIDER_THROTTLED', 'F5_CONTENT_REJECTED', 'RATE_LIMITED'],
    validationError: 'F5_INVALID_PARAMETERS',
    rateLimit: { ...videoGenerateRateLimit, error: 'RATE_LIMITED' },
    outcomes: ['failed'],
    failureReasons: ['F5_PROVIDER_ERROR', 'F5_PROVIDER_THROTTLED', 'F5_CONTENT_REJECTED'],
  },
  getVideoTask: {
    operationId: 'getVideoTask',
    method: 'get',
    path: '/v1/video-generation/tasks/{taskId}',
    tags: ['Video'],
    summary: 'Get a video task (any family)',
    description: 'Returns the video task of any family, family5 included. Poll until status is success or failed.',
    provenance: videoProvenance.get,
    auth: true,
    request: { params: VideoTaskIdParams },
    response: { status: 200, kind: 'envelope', schema: VideoTask, description: 'the task' },
    errors: [...transportErrors({ auth: true, body: false }), 'VIDEO_INVALID_PARAMETERS', 'VIDEO_TASK_NOT_FOUND', 'VIDEO_TASK_FORBIDDEN'],
    validationError: 'VIDEO_INVALID_PARAMETERS',
  },
  listVideoTasks: {
    operationId: 'listVideoTasks',
    method: 'get',
    path: '/v1/video-generation/tasks',
    tags: ['Video'],
    summary: "List the caller's video tasks, newest first (all families)",
    description: "The current API user's tasks of both video endpoints, newest first, optionally filtered by status.",
    provenance: videoProvenance.list,
    auth: true,
    request: { query: ListVideoTasksQuery },
    response: { status: 200, kind: 'envelope', schema: paginated(VideoTaskListItem), description: 'a page of tasks' },
    errors: [...transportErrors({ auth: true, body: false }), 'VIDEO_INVALID_PARAMETERS'],
    validationError: 'VIDEO_INVALID_PARAMETERS',
  },
  estimateVideoCredits: {
    operationId: 'estimateVideoCredits',
    method: 'post',
    path: '/v1/video-generation/estimate-credits',
    tags: ['Video'],
    summary: 'Estimate a shared-endpoint video task',
    description: 'Returns tokens and estimatedCostUsd for the configuration; credits are an internal unit and are not returned (read the balance from GET /v1/user/subscription). The estimate matches what creation charges.',
    provenance: videoProvenance.estimate,
    auth: true,
    request: { body: EstimateVideoCreditsRequest },
    response: { status: 200, kind: 'envelope', schema: VideoEstimateData, description: 'the estimate' },
    errors: [...transportErrors({ auth: true, body: true }), 'VIDEO_INVALID_PARAMETERS', 'VIDEO_UNSUPPORTED_COMBINATION', 'VIDEO_MISSING_MEDIA_DURATION'],
    validationError: 'VIDEO_INVALID_PARAMETERS',
    fieldErrors: videoFieldErrors,
  },
  estimateFamily5Credits: {
    operationId: 'estimateFamily5Credits',
    method: 'post',
    path: '/v1/video-generation/family5/estimate-credits',
    tags: ['Video'],
    summary: 'Estimate a family5 video task',
    description: 'Returns tokens and estimatedCostUsd for the configuration; matches what creation charges.',
    provenance: videoProvenance.family5Estimate,
    auth: true,
    request: { body: EstimateFamily5CreditsRequest },
    response: { status: 200, kind: 'envelope', schema: VideoEstimateData, description: 'the estimate' },
    errors: [...transportErrors({ auth: true, body: true }), 'F5_INVALID_PARAMETERS'],
    validationError: 'F5_INVALID_PARAMETERS',
  },
  getSubscription: {
    operationId: 'getSubscription',
    method: 'get',
    path: '/v1/user/subscription',
    tags: ['Account'],
    summary: 'Read the credit balance and free allowances',
    description: 'Returns the live credit balance and the freeUsages map (free generations left per model). The full shape is assumed: the seed says it is not shown.',
    provenance: fromSeed(1, 'Account endpoint referenced by these services'),
    auth: true,
    request: {},
    response: { status: 200, kind: 'envelope', schema: SubscriptionData, description: 'the account' },
    errors: transportErrors({ auth: true, body: false }),
    validationError: 'INVALID_PREFER',
  },
  // ---- images (document 1, image sections) ----
  generateImage: {
    operationId: 'generateImage',
    method: 'post',
    path: '/v1/images/generation',
    tags: ['Image'],
    summary: 'Generate an image synchronously (raw model output)',
    description:
      'Blocks until the image is generated and returns the raw model output without the envelope: candidates[].content.parts[].inlineData {mimeType, data} with data the base64 bytes of the image (image/png, assumed), ' +
      'whose pixel size matches the resolved size and ratio. Errors use the envelope (assumed: the seed says the error body of this endpoint is not shown). ' +
      'Charges the same credits as the estimate (or one free generation, see imageFreeAllowance); no task is created (assumed). ' +
      `Rate limit (assumed numbers): ${imageRateLimits.generate.limit} generate requests per minute per user, sync and async together; ${imageRateLimits.inlineReferences.limit} per minute for requests carrying base64 reference images (HTTP 429 with Retry-After). ` +
      `Restricted free lane: image-b-3-pro on never-paid accounts answers 26030 (HTTP 429, retry later, nothing charged) when the lane's ${freeLane.capacity} slots are taken. JSON body up to 25 MB (413 above).\n\n` +
      `Pixel sizes (assumed: 1K/2K/4K = 1024/2048/4096 on the long side, exact ratio; an auto-selected ratio renders 1:1):\n\n${renderPixelTable()}`,
    provenance: imageProvenance.sync,
    auth: true,
    request: { body: ImageGenerationRequest, bodyLimitBytes: IMAGE_BODY_LIMIT_BYTES },
    response: { status: 200, kind: 'raw', schema: ImageGenerationOutput, description: 'raw model output (no envelope)' },
    errors: [...transportErrors({ auth: true, body: true }), 'IMAGE_INVALID_PARAMETERS', 'IMAGE_UNSUPPORTED_SIZE', 'IMAGE_TOO_MANY_REFERENCE_IMAGES', 'IMAGE_UNSUPPORTED_RATIO', 'IMAGE_B_UNSUPPORTED_RATIO', 'IMAGE_GENERATION_FAILED', 'IMAGE_INSUFFICIENT_CREDITS', 'IMAGE_SUBSCRIPTION_REQUIRED', 'IMAGE_RATE_LIMITED', 'IMAGE_FREE_RELAX_BUSY', 'IMAGE_FREE_RELAX_TIMEOUT'],
    validationError: 'IMAGE_INVALID_PARAMETERS',
    rateLimit: { ...imageRateLimits.generate, error: 'IMAGE_RATE_LIMITED' },
  },
  createImageTask: {
    operationId: 'createImageTask',
    method: 'post',
    path: '/v1/images/generation/async',
    tags: ['Image'],
    summary: 'Create an image task (asynchronous)',
    description:
      'Same body as the synchronous endpoint. Returns HTTP 202 with {taskId, status: pending}; images are persisted as hosted URLs (served by the mock). ' +
      'Charges the estimate\'s credits at creation (or one free generation for 1K/2K when freeUsages[model] > 0); a failure or timeout refunds them and returns the allowance.\n\n' +
      `Simulated lifecycle (assumed): pending ${imageSchedule.pendingMs / 1000} s, then generating ${imageSchedule.generatingMs['image-a'] / 1000}-${imageSchedule.generatingMs['image-c'] / 1000} s by family plus ${imageSchedule.sizeExtraMs['2K'] / 1000} s at 2K or ${imageSchedule.sizeExtraMs['4K'] / 1000} s at 4K, then success. ` +
      `A task pending or generating for more than ${IMAGE_TASK_TIMEOUT_MS / 60000} minutes becomes fail with a failMsg saying it timed out (force with Prefer: outcome=stuck).\n\n` +
      `Restricted free lane (image-b-3-pro, accounts that have never paid; assumed numbers): ${freeLane.capacity} generations in flight across all such accounts, ${freeLane.queueCapacity} more wait (pending) and fail with failReason free_relax_timeout after ${freeLane.queueTimeoutMs / 1000} s, any further task fails with failReason free_relax_busy. ` +
      'Those failures carry retryable true, freeUsageRolledBack (true when an allowance was returned) and userMessage, and spend neither credits nor allowance. Force them with Prefer: outcome=failed, error=26030 (busy) or error=26031 (timeout). Paid or previously paid accounts are never restricted.',
    provenance: imageProvenance.async,
    auth: true,
    request: { body: ImageGenerationRequest, bodyLimitBytes: IMAGE_BODY_LIMIT_BYTES },
    response: { status: 202, kind: 'envelope', schema: CreateImageTaskData, description: 'task created, status pending' },
    errors: [...transportErrors({ auth: true, body: true }), 'IMAGE_INVALID_PARAMETERS', 'IMAGE_UNSUPPORTED_SIZE', 'IMAGE_TOO_MANY_REFERENCE_IMAGES', 'IMAGE_UNSUPPORTED_RATIO', 'IMAGE_B_UNSUPPORTED_RATIO', 'IMAGE_INSUFFICIENT_CREDITS', 'IMAGE_SUBSCRIPTION_REQUIRED', 'IMAGE_RATE_LIMITED'],
    validationError: 'IMAGE_INVALID_PARAMETERS',
    rateLimit: { ...imageRateLimits.generate, error: 'IMAGE_RATE_LIMITED' },
    outcomes: ['failed', 'stuck'],
    failureReasons: ['IMAGE_GENERATION_FAILED', 'IMAGE_FREE_RELAX_BUSY', 'IMAGE_FREE_RELAX_TIMEOUT'],
  },
  getImageTask: {
    operationId: 'getImageTask',
    method: 'get',
    path: '/v1/images/generation/tasks/{taskId}',
    tags: ['Image'],
    summary: 'Get an image task',
    description: 'Returns the image task. Poll until status is success or fail. An unknown task, or one of another user, answers 404 (26006, assumed).',
    provenance: imageProvenance.get,
    auth: true,
    request: { params: ImageTaskIdParams },
    response: { status: 200, kind: 'envelope', schema: ImageTask, description: 'the task' },
    errors: [...transportErrors({ auth: true, body: false }), 'IMAGE_INVALID_PARAMETERS', 'IMAGE_TASK_NOT_FOUND'],
    validationError: 'IMAGE_INVALID_PARAMETERS',
  },
  listImageTasks: {
    operationId: 'listImageTasks',
    method: 'get',
    path: '/v1/images/generation/tasks',
    tags: ['Image'],
    summary: "List the caller's image tasks, newest first",
    description: "The current API user's image tasks (asynchronous endpoint), newest first, optionally filtered by status. page >= 1, pageSize 1-100.",
    provenance: imageProvenance.list,
    auth: true,
    request: { query: ListImageTasksQuery },
    response: { status: 200, kind: 'envelope', schema: paginated(ImageTask), description: 'a page of tasks' },
    errors: [...transportErrors({ auth: true, body: false }), 'IMAGE_INVALID_PARAMETERS'],
    validationError: 'IMAGE_INVALID_PARAMETERS',
  },
  estimateImageCredits: {
    operationId: 'estimateImageCredits',
    method: 'post',
    path: '/v1/images/generation/estimate-credits',
    tags: ['Image'],
    summary: 'Estimate an image generation',
    description:
      'Same body (provider optional, prompt optional or empty); the same rules and errors. Spends nothing, calls no model and creates no task. ' +
      'credits is the full price, never reduced by the free allowance, and equals what a generation of the same body charges. ' +
      'Most models are priced at a fixed credit cost per size (mode fixed); image-a-2-official from estimated tokens (mode token-estimate), growing with prompt length, output size, quality and reference image count.',
    provenance: imageProvenance.estimate,
    auth: true,
    request: { body: EstimateImageCreditsRequest, bodyLimitBytes: IMAGE_BODY_LIMIT_BYTES },
    response: { status: 200, kind: 'envelope', schema: ImageEstimateData, description: 'the estimate' },
    errors: [...transportErrors({ auth: true, body: true }), 'IMAGE_INVALID_PARAMETERS', 'IMAGE_UNSUPPORTED_SIZE', 'IMAGE_TOO_MANY_REFERENCE_IMAGES', 'IMAGE_UNSUPPORTED_RATIO', 'IMAGE_B_UNSUPPORTED_RATIO'],
    validationError: 'IMAGE_INVALID_PARAMETERS',
  },
} as const satisfies Record<string, OperationDef>;

export type Operations = typeof operations;
export type OperationId = keyof Operations;
export const operationIds = Object.keys(operations) as OperationId[];

/** Tags of the API document, with their descriptions. */
export const tags = [
  { name: 'Video', description: 'AI video generation: the shared endpoint (families 1-4) and the dedicated family5 endpoint (document 1).' },
  { name: 'Image', description: 'Image generation: synchronous, asynchronous and estimate endpoints shared by nine models (document 1).' },
  { name: 'Account', description: 'The account endpoint the generation services refer to (document 1).' },
];

export { z };
