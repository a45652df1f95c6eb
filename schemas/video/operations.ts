/**
 * Video responses and operations (schemas/video.ts re-exports them): the
 * task, list items, estimates, share and delete answers, the task lifecycle,
 * and the operations of the video area with its table assumptions. Seed:
 * document 1, "Video task", "Video: get task", "Video: list tasks".
 */
import { z } from '../zod.ts';
import { EpochMs, idParams, pageQuery, paginated } from '../common.ts';
import type { ErrorName } from '../errors.ts';
import { assumed, fromSeed, provenanceMeta, type TableAssumption } from '../provenance.ts';
import { defineOperations, operationsWith, json, type Area } from '../define.ts';
import type { LifecycleDef } from '../registry-types.ts';
import type { StateRule } from '../rules.ts';
import {
  videoResolutions,
  videoRatios,
  videoStatuses,
  DEFAULT_SHARED_VIDEO_MODEL,
  DEFAULT_VIDEO_DURATION,
  sharedVideoModels,
  family5Models,
  family5Qualities,
  family5Ratios,
  family5Capabilities,
  videoGenerateRateLimit,
  videoEstimateUnits,
  videoPhases,
  videoShortSide,
  ADAPTIVE_RATIO_OUTPUT,
  renderSharedModelTable,
  renderFamily5RuleTable,
  renderVideoPixelTable,
} from './tables.ts';
import { ContentItem, CreateVideoTaskRequest, EstimateVideoCreditsRequest } from './requests.ts';
import { Family5Asset, Family5Options, CreateFamily5VideoTaskRequest, family5StateRules, EstimateFamily5CreditsRequest } from './family5.ts';

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
  .meta(provenanceMeta(assumed('the document lists params fields only for the shared endpoint'), 'echo of a family5 request'));
export const VideoParams = z.union([SharedVideoParams, Family5VideoParams]).openapi('VideoTaskParams');

const nullableUrl = (what: string) =>
  z
    .string()
    .nullable()
    .meta(provenanceMeta(assumed('null until the task succeeds; the document types it as string'), what));
const failureFields = {
  errorCode: z
    .number()
    .int()
    .nullable()
    // optional: document 1's task has no such field, so an answer without it stays valid
    .optional()
    .meta(
      provenanceMeta(
        assumed('the document does not show where a failed video task carries its reason'),
        'catalog code of the failure when status is failed, else null',
      ),
    ),
  errorMessage: z
    .string()
    .nullable()
    .optional()
    .meta(
      provenanceMeta(assumed('the document does not show where a failed video task carries its reason'), 'failure message when status is failed, else null'),
    ),
};

/** The video task (document 1, "Video task"), for every family. */
export const VideoTask = z
  .strictObject({
    id: z.string(),
    taskId: z.string().meta({ description: 'same value as id' }),
    episodeId: z.string(),
    status: z.enum(videoStatuses).meta({
      description:
        'pending, generating, uploading, success or failed; a create answers generating; poll until success (videoUrl usable) or failed (credits refunded automatically)',
    }),
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
        provenanceMeta(
          assumed('the document does not say how a title is made'),
          'the first 60 characters of the prompt, or a generated title when there is none',
        ),
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

export const VideoTaskIdParams = idParams('taskId', 'task id', 'vt_1a2b3c4d5e6f7a8b');

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
    provenance: assumed('document 1 says to poll until success or failed without timings: first poll after 30 s, then every 10 s, giving up after 30 minutes'),
    example,
    successRequires: ['videoUrl', 'coverUrl'],
    media: [
      { urlField: 'videoUrl', contentTypes: ['video/mp4'], durationField: 'duration', resolutionField: 'resolution', shortSides: videoShortSide },
      { urlField: 'coverUrl', contentTypes: ['image/png'], resolutionField: 'resolution', shortSides: videoShortSide },
    ],
    chargedField: 'creditCharged',
    // the shared estimate prices the model, resolution and duration the example's defaults mean
    estimate: {
      operationId: 'estimateVideoCredits',
      body: {
        model: DEFAULT_SHARED_VIDEO_MODEL,
        resolution: sharedVideoModels[DEFAULT_SHARED_VIDEO_MODEL].defaultResolution,
        duration: DEFAULT_VIDEO_DURATION,
      },
      creditsField: 'tokens',
      unitsPerCredit: videoEstimateUnits.tokensPerCredit,
    },
  };
}

// What the operations below share: each states only what differs (operationsWith, schemas/define.ts).
const op = operationsWith({ auth: true, validationError: 'VIDEO_INVALID_PARAMETERS' });
const taskOp = operationsWith({ auth: true, validationError: 'VIDEO_INVALID_PARAMETERS', charges: true, outcomes: ['failed'] });

/** The task a share or a delete names (x-rules: they read the store). */
const ownTaskStateRules: StateRule[] = [
  { code: 'VIDEO_TASK_NOT_FOUND', fields: ['taskId'], rule: 'taskId names a video task', reads: 'state' },
  { code: 'VIDEO_TASK_FORBIDDEN', fields: ['taskId'], rule: "taskId is the caller's own task", reads: 'state' },
];

/** The video operations (document 1, video sections): both create endpoints, get, list, share, delete and both estimates. */
export const videoOperations = defineOperations('Video', {
  createVideoTask: taskOp({
    method: 'post',
    path: '/v1/video-generation/generate',
    summary: 'Create a video task (shared endpoint, families 1-4)',
    description:
      'Creates a video task and charges its credits at once; the task is refunded in full if generation fails. ' +
      `Returns status generating. Rate limit: ${videoGenerateRateLimit.limit} generate requests per minute per user across both video generate endpoints (HTTP 429 with Retry-After).\n\n` +
      `Lifecycle (assumed timings): generating for a model-dependent time that grows with duration (${DEFAULT_SHARED_VIDEO_MODEL}, ${DEFAULT_VIDEO_DURATION} s: ${defaultPhases.generatingMs / 1000} s), then uploading ${defaultPhases.uploadingMs / 1000} s, then success.\n\n${renderSharedModelTable()}`,
    provenance: fromSeed(1, 'Video: create task (shared)'),
    request: { body: json(CreateVideoTaskRequest) },
    response: { status: 200, kind: 'envelope', schema: CreateVideoTaskData, description: 'task created, status generating' },
    errors: ['VIDEO_INVALID_PARAMETERS', 'VIDEO_UNSUPPORTED_COMBINATION', 'VIDEO_MISSING_MEDIA_DURATION', 'VIDEO_INSUFFICIENT_CREDITS', 'VIDEO_RATE_LIMITED'],
    fieldErrors: videoFieldErrors,
    stateRules: [{ code: 'VIDEO_INSUFFICIENT_CREDITS', fields: [], rule: 'the balance covers the price', reads: 'account' }],
    rateLimit: { ...videoGenerateRateLimit, error: 'VIDEO_RATE_LIMITED' },
    failureReasons: ['VIDEO_GENERATION_FAILED', 'VIDEO_CONTENT_REJECTED'],
    lifecycle: videoLifecycle({ content: [{ type: 'text', text: 'A red fox running through snow at dawn' }] }),
  }),
  createFamily5VideoTask: taskOp({
    method: 'post',
    path: '/v1/video-generation/family5/generate',
    summary: 'Create a family5 video task (dedicated endpoint, nine capabilities)',
    description:
      'Creates a family5 task and charges its credits at once; refunded in full if generation fails. Returns status generating. ' +
      `Shares the ${videoGenerateRateLimit.limit} per minute generate limit with the shared endpoint (HTTP 429, code 29998, Retry-After). ` +
      `Provider keys, internal media ids, trace ids and raw provider responses are never returned.\n\n${renderFamily5RuleTable()}`,
    provenance: fromSeed(1, 'Video: family5 create'),
    request: { body: json(CreateFamily5VideoTaskRequest) },
    response: { status: 200, kind: 'envelope', schema: CreateVideoTaskData, description: 'task created, status generating' },
    // the video task's states, estimated by the family5 estimate
    lifecycle: {
      ...videoLifecycle({ capability: 'text_to_video', prompt: 'A paper boat drifting down a rainy street', duration: 5 }),
      estimate: {
        operationId: 'estimateFamily5Credits',
        body: { capability: 'text_to_video', duration: 5 },
        creditsField: 'tokens',
        unitsPerCredit: videoEstimateUnits.tokensPerCredit,
      },
    },
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
    failureReasons: ['F5_PROVIDER_ERROR', 'F5_PROVIDER_THROTTLED', 'F5_CONTENT_REJECTED'],
  }),
  getVideoTask: op({
    method: 'get',
    path: '/v1/video-generation/tasks/{taskId}',
    summary: 'Get a video task (any family)',
    description: `Returns the video task of any family, family5 included. Poll until status is success or failed.\n\n${mediaNote}${renderVideoPixelTable()}`,
    provenance: fromSeed(1, 'Video: get task'),
    request: { params: VideoTaskIdParams },
    response: { status: 200, kind: 'envelope', schema: VideoTask, description: 'the task' },
    errors: ['VIDEO_INVALID_PARAMETERS', 'VIDEO_TASK_NOT_FOUND', 'VIDEO_TASK_FORBIDDEN'],
  }),
  listVideoTasks: op({
    method: 'get',
    path: '/v1/video-generation/tasks',
    summary: "List the caller's video tasks, newest first (all families)",
    description: "The current API user's tasks of both video endpoints, newest first, optionally filtered by status. Deleted tasks are not listed.",
    provenance: fromSeed(1, 'Video: list tasks'),
    request: { query: ListVideoTasksQuery },
    response: { status: 200, kind: 'envelope', schema: paginated(VideoTaskListItem), description: 'a page of tasks' },
    errors: ['VIDEO_INVALID_PARAMETERS'],
  }),
  shareVideoTask: op({
    method: 'post',
    path: '/v1/video-generation/tasks/{taskId}/share',
    summary: 'Set or toggle the share flag of a video task (assumed shape)',
    description:
      'Sets enabledShare to the value sent, or toggles it when the body is empty or has no enabledShare; returns the task id and the new flag. Owner-scoped like the task read. Path, body and response are assumed: document 1 says share shapes are not shown.',
    provenance: assumedPaths,
    request: { params: VideoTaskIdParams, body: json(ShareVideoTaskRequest), bodyOptional: true },
    response: { status: 200, kind: 'envelope', schema: ShareVideoTaskData, description: 'the new share flag' },
    errors: ['VIDEO_INVALID_PARAMETERS', 'VIDEO_TASK_NOT_FOUND', 'VIDEO_TASK_FORBIDDEN'],
    stateRules: ownTaskStateRules,
  }),
  deleteVideoTask: op({
    method: 'delete',
    path: '/v1/video-generation/tasks/{taskId}',
    summary: 'Delete a finished video task (assumed shape)',
    description:
      'Deletes a succeeded or failed task of the caller: later reads answer 31006 and lists leave it out; its media URLs stop loading. A task still pending, generating or uploading is refused with 31007 (a delete cancels and refunds nothing). Owner-scoped like the task read. Path and response are assumed: document 1 says delete shapes are not shown.',
    provenance: assumedPaths,
    request: { params: VideoTaskIdParams },
    response: { status: 200, kind: 'envelope', schema: DeleteVideoTaskData, description: 'the task was deleted' },
    errors: ['VIDEO_INVALID_PARAMETERS', 'VIDEO_TASK_NOT_FOUND', 'VIDEO_TASK_FORBIDDEN', 'VIDEO_TASK_NOT_FINISHED'],
    stateRules: [...ownTaskStateRules, { code: 'VIDEO_TASK_NOT_FINISHED', fields: ['taskId'], rule: 'the task has succeeded or failed', reads: 'state' }],
  }),
  estimateVideoCredits: op({
    method: 'post',
    path: '/v1/video-generation/estimate-credits',
    summary: 'Estimate a shared-endpoint video task',
    description:
      'Returns tokens and estimatedCostUsd for the configuration; credits are an internal unit and are not returned (read the balance from GET /v1/user/subscription). The estimate matches what creation charges.',
    provenance: fromSeed(1, 'Video: estimate (shared)'),
    request: { body: json(EstimateVideoCreditsRequest) },
    response: { status: 200, kind: 'envelope', schema: VideoEstimateData, description: 'the estimate' },
    errors: ['VIDEO_INVALID_PARAMETERS', 'VIDEO_UNSUPPORTED_COMBINATION', 'VIDEO_MISSING_MEDIA_DURATION'],
    fieldErrors: videoFieldErrors,
  }),
  estimateFamily5Credits: op({
    method: 'post',
    path: '/v1/video-generation/family5/estimate-credits',
    summary: 'Estimate a family5 video task',
    description: 'Returns tokens and estimatedCostUsd for the configuration; matches what creation charges.',
    provenance: fromSeed(1, 'Video: family5 estimate'),
    request: { body: json(EstimateFamily5CreditsRequest) },
    response: { status: 200, kind: 'envelope', schema: VideoEstimateData, description: 'the estimate' },
    errors: ['F5_INVALID_PARAMETERS'],
    validationError: 'F5_INVALID_PARAMETERS',
  }),
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
