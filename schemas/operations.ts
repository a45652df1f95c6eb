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

const defaultPhases = videoPhases('family1-video-2-fast', 5);

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
      `Simulated lifecycle (assumed): generating for a model-dependent time that grows with duration (family1-video-2-fast, 5 s: ${defaultPhases.generatingMs / 1000} s), then uploading ${defaultPhases.uploadingMs / 1000} s, then success.\n\n${renderSharedModelTable()}`,
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
} as const satisfies Record<string, OperationDef>;

export type Operations = typeof operations;
export type OperationId = keyof Operations;
export const operationIds = Object.keys(operations) as OperationId[];

/** Tags of the API document, with their descriptions. */
export const tags = [
  { name: 'Video', description: 'AI video generation: the shared endpoint (families 1-4) and the dedicated family5 endpoint (document 1).' },
  { name: 'Account', description: 'The account endpoint the generation services refer to (document 1).' },
];

export { z };
