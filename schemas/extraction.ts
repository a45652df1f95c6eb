/**
 * Content extraction contract (`/v1/content/extract`): the text of a URL (a
 * web article, a microblog profile or post, a video-platform video, a
 * messaging-platform official-account article), extracted asynchronously.
 *
 * Seed: document 3, "Extraction task", "States and transitions", "Content
 * extraction", "Errors", "Limits". The URL patterns of each kind, the shape
 * of metadata and references, the schedule, the price and the failCodes are
 * assumed (the seed does not show them): each is a table below, listed in
 * `extractionTableAssumptions`.
 */
import { z } from './zod.ts';
import { EpochMs, idParams, uriString } from './common.ts';
import { errorCatalog } from './errors.ts';
import { assumed, fromSeed, provenanceMeta, type TableAssumption } from './provenance.ts';
import { defineOperations, operationsWith, json, type Area } from './define.ts';
import { js, rule, withRules, type StateRule } from './rules.ts';
import type { LifecycleDef } from './registry-types.ts';
import { formatCount } from './text.ts';

// ---------------------------------------------------------------------------
// Tables
// ---------------------------------------------------------------------------

/** Extraction task states (document 3, "Extraction task"). */
export const extractionStatuses = ['processing', 'completed', 'failed'] as const;
export type ExtractionStatus = (typeof extractionStatuses)[number];

/** options.maxLength (document 3, "Limits": default 100000, 1 to 500000 characters). */
export const EXTRACTION_MAX_LENGTH = { default: 100_000, min: 1, max: 500_000 } as const;
/** options.twitter.count (document 3, "Limits": 1-100, default 20). */
export const EXTRACTION_POST_COUNT = { default: 20, min: 1, max: 100 } as const;

/** The kinds of page the mock tells apart, by URL (assumed patterns; document 3 names the kinds). */
export const extractionKinds = ['web-article', 'microblog-profile', 'microblog-post', 'video', 'official-account-article'] as const;
export type ExtractionKind = (typeof extractionKinds)[number];

/** Hosts of each kind's pattern (assumed): microblogs, video platforms, the messaging platform's article host. */
export const extractionHosts = {
  microblog: ['x.com', 'twitter.com', 'mobile.twitter.com', 'weibo.com', 'm.weibo.cn'],
  video: ['youtube.com', 'm.youtube.com', 'youtu.be', 'bilibili.com', 'vimeo.com'],
  officialAccount: ['mp.weixin.qq.com'],
} as const;

/** The kind of page `url` names (assumed patterns, `extractionHosts`): microblog `/<user>` is a profile and `/<user>/status/<id>` (or `/<user>/<id>`) a post; any other page is a web article. */
export function extractionKindOf(url: string): ExtractionKind {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'web-article';
  }
  const host = u.hostname.toLowerCase().replace(/^www\./, '');
  const parts = u.pathname.split('/').filter(Boolean);
  if ((extractionHosts.officialAccount as readonly string[]).includes(host) && parts[0] === 's') return 'official-account-article';
  if ((extractionHosts.video as readonly string[]).includes(host)) {
    if (host === 'youtu.be' || host === 'vimeo.com' ? parts.length === 1 : (parts[0] === 'watch' && u.searchParams.has('v')) || parts[0] === 'video')
      return 'video';
  }
  if ((extractionHosts.microblog as readonly string[]).includes(host)) {
    if (parts.length === 1) return 'microblog-profile';
    if (parts.length >= 2) return 'microblog-post';
  }
  return 'web-article';
}

/**
 * Price (assumed; document 3: "a small hold at start; final charge from the
 * number of characters extracted, capped by maxLength"): `holdCredits` held at
 * creation; the final charge is 1 credit per `charsPerCredit` characters of
 * the content delivered (after summarizing and maxLength), at least 1. The
 * mock's pages are at most `maxContentChars` long, so the hold always covers
 * the final charge: the capture keeps the final charge and releases the rest.
 */
export const extractionPricing = { holdCredits: 5, charsPerCredit: 10_000, maxContentChars: 50_000 } as const;

/** The final credits of `chars` characters extracted. */
export function extractionCredits(chars: number): number {
  return Math.max(1, Math.ceil(chars / extractionPricing.charsPerCredit));
}

/** The simulated schedule (assumed; document 3: typical 10-30 s): processing `minMs` to `maxMs` by URL; a forced stall fails after `timeoutMs`. */
export const extractionSchedule = { minMs: 10_000, maxMs: 30_000, timeoutMs: 10 * 60_000 } as const;

// ---------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------

/** Rules of an extraction body beyond its fields' own (document 3, "Content extraction"). */
const extractRules = [
  rule({
    id: 'extraction.uri-http',
    rule: 'source.uri is an http or https URL',
    code: 'EXTRACTION_INVALID_PARAMETERS',
    path: ['source', 'uri'],
    message: 'source.uri must be an http or https URL',
    then: js.prop('source', js.prop('uri', js.httpUrl)),
  }),
];

/** Rules of the create no schema carries (x-rules). */
const extractStateRules: StateRule[] = [
  { code: 'EXTRACTION_INSUFFICIENT_CREDITS', fields: [], rule: `the balance covers the hold of ${extractionPricing.holdCredits} credits`, reads: 'account' },
];

/** Body of POST /v1/content/extract (document 3, "Content extraction"). */
export const ExtractRequest = withRules(
  z.object({
    source: z
      .object({
        type: z.literal('url').meta({ description: 'must be url' }),
        uri: uriString().meta({ description: 'the URL to extract (http or https)' }),
      })
      .meta({ description: 'what to extract' }),
    options: z
      .object({
        summarize: z.boolean().default(false).meta({ description: 'deliver a summary instead of the whole text (default false)' }),
        maxLength: z
          .number()
          .int()
          .min(EXTRACTION_MAX_LENGTH.min)
          .max(EXTRACTION_MAX_LENGTH.max)
          .default(EXTRACTION_MAX_LENGTH.default)
          .meta({ description: 'characters delivered at most, 1 to 500000 (default 100000); the content is cut there' }),
        twitter: z
          .object({
            count: z
              .number()
              .int()
              .min(EXTRACTION_POST_COUNT.min)
              .max(EXTRACTION_POST_COUNT.max)
              .default(EXTRACTION_POST_COUNT.default)
              .meta({ description: 'posts fetched from a microblog profile URL, 1-100 (default 20); ignored for other URLs' }),
          })
          .default({ count: EXTRACTION_POST_COUNT.default }),
      })
      .default({ summarize: false, maxLength: EXTRACTION_MAX_LENGTH.default, twitter: { count: EXTRACTION_POST_COUNT.default } })
      .meta({ description: 'optional, default {} (each field then takes its own default)' })
      // document 3 gives the default as {}; the parsed default above is the same object with its fields' defaults applied
      .openapi({ default: {} }),
  }),
  extractRules,
  'ExtractRequest',
  {
    example: { source: { type: 'url', uri: 'https://example.com/blog/why-test-servers-help' }, options: { summarize: false, maxLength: 100000 } },
  },
);
export type ExtractRequest = z.infer<typeof ExtractRequest>;

export const ExtractionTaskIdParams = idParams('taskId', 'the 24-character hex task id', '5f2b8c9d0e1a2b3c4d5e6f70');

// ---------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------

/** Data of the create (document 3: taskId, 24-character hex). */
export const CreateExtractionData = z
  .strictObject({
    taskId: z
      .string()
      .regex(/^[0-9a-f]{24}$/)
      .meta({ description: '24-character lowercase hex' }),
  })
  .openapi('CreateExtractionData', { example: { taskId: '5f2b8c9d0e1a2b3c4d5e6f70' } });

/** metadata of a completed extraction (assumed shape; document 3: "object, for example title and author"). */
export const ExtractionMetadata = z
  // every field optional: document 3 gives only examples ("for example title and author"), so any of them may be absent
  .looseObject({
    kind: z.enum(extractionKinds).optional(),
    url: z.string().optional(),
    title: z.string().optional(),
    author: z.string().optional(),
    publishedAt: z.string().optional().meta({ description: 'ISO 8601' }),
    language: z.string().optional(),
  })
  .meta(
    provenanceMeta(
      assumed('document 3 shows only "for example title and author"; this contract sends kind, url, title, author, publishedAt and language, and more by kind'),
      'facts about the source, for example title and author; other fields may appear: postCount (profile), postId (post), durationSeconds and channel (video), accountName (official-account article)',
    ),
  )
  .openapi('ExtractionMetadata');

const failCodes = ['EXTRACTION_PAGE_UNREACHABLE', 'EXTRACTION_UNSUPPORTED_CONTENT', 'EXTRACTION_TIMED_OUT'] as const;

/** The extraction task (document 3, "Extraction task"): while processing only taskId, status and createdAt. */
export const ExtractionTask = z
  .strictObject({
    taskId: z.string(),
    status: z.enum(extractionStatuses),
    createdAt: EpochMs.meta({ description: '13-digit epoch ms' }),
    data: z
      .strictObject({
        content: z.string().meta({ description: 'the text (summarized when requested), at most maxLength characters' }),
        metadata: ExtractionMetadata,
        references: z.array(z.string()).meta({ description: 'the URLs the content links to' }),
      })
      .optional()
      .meta({ description: 'only when completed' }),
    credits: z.number().int().min(1).optional().meta({ description: 'the final charge, when completed' }),
    failCode: z
      .number()
      .int()
      .optional()
      .meta(
        provenanceMeta(
          assumed('document 3 says the numeric codes are not shown'),
          `when failed: ${failCodes.map((n) => `${errorCatalog[n].code} ${errorCatalog[n].meaning}`).join('; ')}`,
        ),
      ),
    message: z.string().optional().meta({ description: 'when failed: the error description' }),
  })
  .openapi('ExtractionTask', {
    example: {
      taskId: '5f2b8c9d0e1a2b3c4d5e6f70',
      status: 'completed',
      createdAt: 1767225600000,
      data: {
        content: 'Why test servers help. ...',
        metadata: {
          kind: 'web-article',
          url: 'https://example.com/blog/why-test-servers-help',
          title: 'Why test servers help',
          author: 'Ada Lovelace',
          publishedAt: '2025-10-01T09:00:00.000Z',
          language: 'en',
        },
        references: ['https://example.org/guide'],
      },
      credits: 1,
    },
  });
export type ExtractionTask = z.infer<typeof ExtractionTask>;

// ---------------------------------------------------------------------------
// Assumptions
// ---------------------------------------------------------------------------

/** Table-level assumptions of the extraction area (listed in docs/assumptions.md). */
export const extractionTableAssumptions: TableAssumption[] = [
  {
    subject: `extraction kinds by URL: ${extractionHosts.microblog.join(', ')} /<user> a microblog profile, /<user>/status/<id> (or /<user>/<id>) a post; ${extractionHosts.video.join(', ')} (watch?v=, /video/<id>, youtu.be/<id>, vimeo.com/<id>) a video with a transcript; ${extractionHosts.officialAccount.join(', ')}/s/... an official-account article (in Chinese); anything else a web article. The content is deterministic from the URL (the mock reads no page)`,
    reason: 'document 3 names the kinds but not how they are recognised or what they contain',
  },
  {
    subject: `extraction price: a hold of ${extractionPricing.holdCredits} credits at creation; the final charge 1 credit per ${formatCount(extractionPricing.charsPerCredit)} characters delivered (at least 1), captured from the hold with the rest released; pages are at most ${formatCount(extractionPricing.maxContentChars)} characters, so the hold always covers it; a failure refunds the hold`,
    reason: 'document 3 says only "a small hold at start; final charge from the number of characters extracted"',
  },
  {
    subject: `extraction schedule: processing ${extractionSchedule.minMs / 1000}-${extractionSchedule.maxMs / 1000} s, fixed per URL; a forced stall fails after ${extractionSchedule.timeoutMs / 60_000} minutes (41010); summarize keeps the first quarter of the sentences (at least one), after "Summary: "; maxLength cuts the delivered text at that many characters (code points)`,
    reason: 'document 3 gives a typical 10-30 seconds and says the transitions are not shown',
  },
];

// ---------------------------------------------------------------------------
// Operations
// ---------------------------------------------------------------------------

/** The extraction operations (document 3, "Content extraction"). */
/**
 * The extraction task's states as data (document 3, "Extraction task"). The polling advice is document 3's ("Content
 * extraction": wait 5 s, then every 5 s; typical 10-30 seconds); the longest wait is not shown, so the timeout is
 * assumed (a minute past the assumed stall timeout of the schedule).
 */
const extractionLifecycle: LifecycleDef = {
  statusField: 'status',
  states: extractionStatuses,
  transitions: { processing: ['completed', 'failed'] },
  terminal: ['completed', 'failed'],
  success: 'completed',
  pollOperationId: 'getExtraction',
  idField: 'taskId',
  firstPollMs: 5_000,
  intervalMs: 5_000,
  timeoutMs: extractionSchedule.timeoutMs + 60_000,
  provenance: fromSeed(3, 'Content extraction'),
  timeoutProvenance: assumed(
    `document 3 gives a typical 10-30 seconds but no longest wait: ${(extractionSchedule.timeoutMs + 60_000) / 60_000} minutes, a minute past the assumed stall timeout (41010)`,
  ),
  example: { source: { type: 'url', uri: 'https://example.com/blog/why-test-servers-help' } },
  successRequires: ['data'],
};

// What the operations below share: each states only what differs (operationsWith, schemas/define.ts).
const op = operationsWith({ auth: true, validationError: 'EXTRACTION_INVALID_PARAMETERS' });

export const extractionOperations = defineOperations('Content extraction', {
  createExtraction: op({
    method: 'post',
    path: '/v1/content/extract',
    summary: 'Start extracting the content of a URL',
    description:
      'source.type must be url and source.uri the URL; options.summarize (default false), options.maxLength (default 100000, 1-500000), options.twitter.count (1-100, default 20; microblog profile URLs only). ' +
      `Validates, holds ${extractionPricing.holdCredits} credits (assumed; 402, 41003 when short) and answers the 24-character hex taskId; poll GET /v1/content/extract/{taskId} (wait 5 s, then every 5 s; typical 10-30 s). ` +
      'A failed extraction (failCode 41008, 41009, or 41010 after a 10-minute timeout) refunds every credit.',
    provenance: fromSeed(3, 'Content extraction'),
    request: { body: json(ExtractRequest) },
    response: { status: 200, kind: 'envelope', schema: CreateExtractionData, description: 'the task, processing' },
    errors: ['EXTRACTION_INVALID_PARAMETERS', 'EXTRACTION_INSUFFICIENT_CREDITS'],
    stateRules: extractStateRules,
    charges: true,
    outcomes: ['failed', 'stuck'],
    failureReasons: [...failCodes],
    lifecycle: extractionLifecycle,
  }),
  getExtraction: op({
    method: 'get',
    path: '/v1/content/extract/{taskId}',
    summary: 'Get an extraction task',
    description:
      'While processing: only taskId, status and createdAt (13-digit ms); completed: data { content, metadata, references } and the final credits, with a short success text in the envelope message; failed: failCode and message, every credit refunded. ' +
      'An unknown task, or one of another user, answers 404 (41002, assumed).',
    provenance: fromSeed(3, 'Extraction task'),
    request: { params: ExtractionTaskIdParams },
    response: { status: 200, kind: 'envelope', schema: ExtractionTask, description: 'the task' },
    errors: ['EXTRACTION_INVALID_PARAMETERS', 'EXTRACTION_TASK_NOT_FOUND'],
  }),
});

/** The extraction area: its tag, operations and table assumptions. */
export const extractionArea = {
  tag: {
    name: 'Content extraction',
    description: 'The text of a URL (article, microblog profile or post, video, official-account article), extracted asynchronously (document 3).',
  },
  operations: extractionOperations,
  tableAssumptions: extractionTableAssumptions,
} satisfies Area;
