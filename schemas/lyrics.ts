/**
 * Lyrics contract: a short prompt becomes song lyrics on one of two providers.
 * musicA (also `default`) writes one variant inside the create call; musicB
 * answers later through a provider callback, typically with two variants, and
 * a musicB task that hears nothing for 30 minutes fails with a full refund.
 * A flat 2 credits per request, reserved at creation, captured on success.
 *
 * Seed: document 3, "Providers and models (lyrics and music)", "Lyrics task",
 * "States and transitions", "Lyrics (prefix /v1/lyrics)", "Errors", "Limits".
 * The error numbers, the musicB schedule, the request limit, the blank-prompt
 * rule, the create answer of a musicA task and the failed-variant shape are
 * assumed (`lyricsTableAssumptions`).
 */
import { z } from './zod.ts';
import { js, rule, withRules } from './rules.ts';
import { EpochMs, pageQuery, paginated } from './common.ts';
import { assumed, fromSeed, provenanceMeta, type TableAssumption } from './provenance.ts';
import { defineOperations, operationsWith, json, type Area } from './define.ts';
import type { LifecycleDef } from './registry-types.ts';
import { musicProviders, providerTable, providerValues } from './music-providers.ts';
import { charCount } from './speech.ts';

// ---------------------------------------------------------------------------
// Tables
// ---------------------------------------------------------------------------

/** Longest prompt, characters as Unicode code points (document 3, "Limits": "at most 200 characters"). */
export const LYRICS_PROMPT_MAX = 200;
/** Credits per request, both providers (document 3, "Limits": "flat 2 credits per request"). */
export const LYRICS_CREDITS = 2;
/** Task statuses (document 3, "Lyrics task"). */
export const lyricsStatuses = ['pending', 'generating', 'success', 'failed'] as const;
export type LyricsStatus = (typeof lyricsStatuses)[number];
/** Statuses of one variant (document 3, "Lyrics task"). */
export const lyricsVariantStatuses = ['complete', 'failed'] as const;
/** Variants a provider writes (document 3, "States and transitions": musicA one, musicB "typically two"). */
export const lyricsVariantCount = { musicA: 1, musicB: 2 } as const;
/** Largest list page (document 3, "Limits": "List pageSize 1-100 (lyrics)"). */
export const LYRICS_PAGE_SIZE_MAX = 100;

/**
 * The musicB schedule: pending for `pendingMs`, then generating until the
 * provider's callback, `callbackMinMs`-`callbackMaxMs` after creation (fixed
 * per task id from the seed); assumed: the document gives no durations. The
 * 30-minute timeout without an update is the document's ("States and
 * transitions", "Limits").
 */
export const lyricsSchedule = {
  pendingMs: 2_000,
  callbackMinMs: 20_000,
  callbackMaxMs: 40_000,
  timeoutMs: 30 * 60_000,
} as const;

/** Create requests per minute per user (document 3, "Limits": a limit applies; the value, 10 a minute, is assumed). */
export const lyricsRateLimit = {
  bucket: 'lyrics-generate',
  limit: 10,
  windowMs: 60_000,
  provenance: assumed('document 3, "Limits": a limit applies to POST /v1/lyrics/generate; its numeric value is not shown'),
} as const;

// ---------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------

/** Body of POST /v1/lyrics/generate (document 3, "Lyrics (prefix /v1/lyrics)"). */
export const CreateLyricsRequest = withRules(
  z.object({
    prompt: z
      .string()
      .min(1)
      .meta({
        description: `what the song is about: 1 to ${LYRICS_PROMPT_MAX} characters (Unicode code points); longer is rejected before credits are reserved`,
      })
      .openapi({ maxLength: LYRICS_PROMPT_MAX }),
    provider: z
      .enum(providerValues)
      .default('default')
      .meta({ description: 'default (resolves to musicA), musicA or musicB; the task reports the provider that ran it' }),
  }),
  // the prompt's length in code points and a blank prompt (document 3, "Lyrics"). Error: 38001
  [
    rule<{ prompt: string }>({
      id: 'lyrics.prompt-length',
      rule: `prompt at most ${LYRICS_PROMPT_MAX} characters (code points)`,
      code: 'LYRICS_INVALID_PARAMETERS',
      path: ['prompt'],
      message: (v) => `${charCount(v.prompt)} characters (code points); at most ${LYRICS_PROMPT_MAX}`,
      then: { properties: { prompt: { maxLength: LYRICS_PROMPT_MAX } } },
    }),
    rule<{ prompt: string }>({
      id: 'lyrics.prompt-not-blank',
      rule: 'prompt is not blank',
      code: 'LYRICS_INVALID_PARAMETERS',
      path: ['prompt'],
      message: 'must not be blank',
      then: { properties: { prompt: js.notBlank } },
    }),
  ],
  'CreateLyricsRequest',
  { example: { prompt: 'a summer road trip with old friends', provider: 'musicB' } },
);

export const LyricsTaskParams = z.object({
  taskId: z
    .string()
    .min(1)
    .meta({ param: { description: 'lyrics task id' }, example: 'lyr_1a2b3c4d5e6f7a8b' }),
});

/** Query of GET /v1/lyrics/tasks (document 3): page from 1, pageSize 1-100 (default 20), status. */
export const ListLyricsQuery = z.object({
  ...pageQuery(LYRICS_PAGE_SIZE_MAX),
  status: z.enum(lyricsStatuses).optional().meta({ description: 'only tasks in this status' }),
});

// ---------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------

/** The create answer: the task id and its status after the call, never lyrics (document 3). */
export const CreateLyricsData = z
  .strictObject({
    taskId: z.string(),
    status: z
      .enum(['pending', 'success', 'failed'])
      .meta(
        provenanceMeta(
          assumed('document 3 says only { taskId, status }; musicA runs inside the create call, so its status is already final'),
          'musicB: pending; musicA: success (failed when the provider rejected it)',
        ),
      ),
  })
  .openapi('CreateLyricsData', { example: { taskId: 'lyr_1a2b3c4d5e6f7a8b', status: 'pending' } });

/** One set of lyrics (document 3, "Lyrics task"). */
export const LyricsVariant = z
  .strictObject({
    title: z.string().meta({ description: 'the song title' }),
    text: z.string().meta({ description: 'the lyrics: sections ([Verse 1], [Chorus], ...) of lines separated by newlines; empty when the variant failed' }),
    status: z.enum(lyricsVariantStatuses).meta({ description: 'complete or failed' }),
    errorMessage: z.string().optional().meta({ description: 'only when the variant failed: the code and what went wrong' }),
  })
  .openapi('LyricsVariant');

/** The lyrics task (document 3, "Lyrics task"). */
export const LyricsTask = z
  .strictObject({
    id: z.string().meta({ description: 'task id' }),
    provider: z.enum(musicProviders).meta({ description: 'musicA or musicB: the provider that ran it (default resolves to musicA)' }),
    status: z.enum(lyricsStatuses),
    params: z.strictObject({ prompt: z.string().meta({ description: 'echo of the prompt' }) }),
    variants: z
      .array(LyricsVariant)
      .meta({ description: 'empty until success; musicA writes one, musicB typically two; a successful task may still carry a failed variant' }),
    creditCost: z
      .number()
      .nonnegative()
      .meta({ description: `credits: 0 until the task succeeds, then ${LYRICS_CREDITS}` }),
    errorMessage: z.string().optional().meta({ description: 'only when failed: the code and what went wrong' }),
    createdAt: EpochMs,
    updatedAt: EpochMs,
  })
  .openapi('LyricsTask');
export type LyricsTask = z.infer<typeof LyricsTask>;
export type LyricsVariant = z.infer<typeof LyricsVariant>;

// ---------------------------------------------------------------------------
// Operations
// ---------------------------------------------------------------------------

const section = fromSeed(3, 'Lyrics (prefix /v1/lyrics)');
const s = lyricsSchedule;

/** The lyrics task's states as data (document 3, "States and transitions"; musicA answers success or failed at once): polled every 5 s ("every few seconds"). */
const lyricsLifecycle: LifecycleDef = {
  statusField: 'status',
  states: lyricsStatuses,
  transitions: { pending: ['generating', 'success', 'failed'], generating: ['success', 'failed'] },
  terminal: ['success', 'failed'],
  success: 'success',
  pollOperationId: 'getLyricsTask',
  idField: 'taskId',
  provenance: assumed('document 3 says to poll "every few seconds", read as 5 s; the timeout is its 30 minutes plus a minute'),
  firstPollMs: 5_000,
  intervalMs: 5_000,
  timeoutMs: lyricsSchedule.timeoutMs + 60_000,
  example: { prompt: 'a summer road trip with old friends' },
  successRequires: ['variants'],
};

// What the operations below share: each states only what differs (operationsWith, schemas/define.ts).
const op = operationsWith({ auth: true, validationError: 'LYRICS_INVALID_PARAMETERS' });

export const lyricsOperations = defineOperations('Lyrics', {
  createLyricsTask: op({
    method: 'post',
    path: '/v1/lyrics/generate',
    summary: 'Generate lyrics',
    description:
      `HTTP 202 with { taskId, status } only; the lyrics are read from the task. prompt: 1 to ${LYRICS_PROMPT_MAX} characters (code points; longer or blank: 38001, nothing reserved). ` +
      `provider: default (runs on ${providerTable.default}), musicA or musicB. ` +
      `musicA writes one variant inside the create call: the answer's status is success (failed when the provider rejects the request). ` +
      `musicB answers pending; the task is generating after ${s.pendingMs / 1000} s and the provider's callback brings typically two variants ${s.callbackMinMs / 1000}-${s.callbackMaxMs / 1000} s after creation (assumed schedule). ` +
      `A musicB task pending or generating for 30 minutes without an update fails with 38006, refunded in full, and never recovers. ` +
      `Price: a flat ${LYRICS_CREDITS} credits, reserved at creation (38003, HTTP 402, when the balance is short), captured on success (creditCost stays 0 until then), refunded on a provider rejection, a failure or the timeout. ` +
      `${lyricsRateLimit.limit} requests per minute per user (HTTP 429 with 38029 and Retry-After). ` +
      'A task can fail with 38005 (generation), 38004 (a provider rejection) or 38006 (a musicB timeout); a musicB task can succeed with one variant failed.',
    provenance: section,
    request: { body: json(CreateLyricsRequest) },
    response: { status: 202, kind: 'envelope', schema: CreateLyricsData, description: 'the task: pending (musicB), or already success or failed (musicA)' },
    errors: ['LYRICS_INVALID_PARAMETERS', 'LYRICS_INSUFFICIENT_CREDITS', 'LYRICS_RATE_LIMITED'],
    stateRules: [{ code: 'LYRICS_INSUFFICIENT_CREDITS', fields: [], rule: 'the balance covers the price', reads: 'account' }],
    rateLimit: { ...lyricsRateLimit, error: 'LYRICS_RATE_LIMITED' },
    charges: true,
    outcomes: ['failed', 'stuck', 'partial'],
    failureReasons: ['LYRICS_GENERATION_FAILED', 'LYRICS_PROVIDER_REJECTED', 'LYRICS_TIMED_OUT'],
    lifecycle: lyricsLifecycle,
  }),
  listLyricsTasks: op({
    method: 'get',
    path: '/v1/lyrics/tasks',
    summary: 'List lyrics tasks, newest first',
    description: `page >= 1 (default 1), pageSize 1-${LYRICS_PAGE_SIZE_MAX} (default 20), status (pending, generating, success, failed). The caller's tasks only.`,
    provenance: section,
    request: { query: ListLyricsQuery },
    response: { status: 200, kind: 'envelope', schema: paginated(LyricsTask), description: 'a page of tasks' },
    errors: ['LYRICS_INVALID_PARAMETERS'],
  }),
  getLyricsTask: op({
    method: 'get',
    path: '/v1/lyrics/tasks/{taskId}',
    summary: 'Get a lyrics task',
    description:
      'The task. musicB has no query endpoint: its callback is the only path to success, so poll every few seconds. An unknown task, or one of another user, answers 404 with 38002.',
    provenance: section,
    request: { params: LyricsTaskParams },
    response: { status: 200, kind: 'envelope', schema: LyricsTask, description: 'the task' },
    errors: ['LYRICS_INVALID_PARAMETERS', 'LYRICS_TASK_NOT_FOUND'],
  }),
});

export const lyricsTableAssumptions: TableAssumption[] = [
  {
    subject: `musicB lyrics schedule: pending ${s.pendingMs / 1000} s, then generating until the provider callback ${s.callbackMinMs / 1000}-${s.callbackMaxMs / 1000} s after creation (fixed per task id)`,
    reason: 'document 3 gives the states and the 30-minute timeout, not the durations',
  },
  {
    subject: `lyrics creation request limit: ${lyricsRateLimit.limit} requests per minute per user (HTTP 429, 38029)`,
    reason: 'document 3, "Limits": "its numeric value: not shown"',
  },
  {
    subject: 'the create answer of a musicA lyrics task reports its final status (success, or failed when the provider rejects it); musicB answers pending',
    reason: 'document 3 says musicA runs synchronously inside the create call and that the answer is { taskId, status }',
  },
  {
    subject: 'a blank lyrics prompt (only whitespace) is invalid (38001)',
    reason: 'document 3 requires the prompt without saying whether blank counts',
  },
  {
    subject:
      'a failed lyrics variant keeps its title, has empty text and an errorMessage (38005); Prefer: outcome=partial fails the second musicB variant; stuck and partial need musicB',
    reason: 'document 3 says a successful task may carry a failed variant, without its shape or when',
  },
  {
    subject: 'lyrics text is derived from the prompt: English templates, or a small Chinese or Japanese bank when the prompt is written in those scripts',
    reason: 'the mock writes its own lyrics',
  },
];

export const lyricsArea = {
  tag: { name: 'Lyrics', description: 'Song lyrics from a short prompt, by musicA (synchronous) or musicB (provider callback) (document 3).' },
  operations: lyricsOperations,
  tableAssumptions: lyricsTableAssumptions,
} satisfies Area;
