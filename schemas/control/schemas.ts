/**
 * Schemas of the control API's requests and answers (schemas/control.ts
 * re-exports them): health, reset, the clock, accounts and ledgers, scenario
 * rules, the operation list, the request journal, task activity, sample media
 * and the upload inspector. Mock-only: not part of the Media Generation
 * Service.
 */
import { z } from '../zod.ts';
import { FreeUsages } from '../account.ts';
import { plans } from '../plans.ts';
import { uploadedFile } from '../define.ts';
import { audioFileTypes, audioFormats, mediaFileTypes } from '../media.ts';
import { forcedOutcomes } from '../registry-types.ts';

export const clockModes = ['manual', 'real'] as const;

export const Health = z.strictObject({
  status: z.literal('ok'),
  seed: z.number().int(),
  clock: z.strictObject({ now: z.number().int(), mode: z.enum(clockModes) }),
});
export const ResetRequest = z.strictObject({
  seed: z.number().int().min(0).max(4294967295).optional().meta({ description: 'new seed; default: keep the current one' }),
});
export const ResetResponse = z.strictObject({ seed: z.number().int(), now: z.number().int() });
export const ClockState = z.strictObject({ now: z.number().int().meta({ description: 'virtual now, epoch ms' }), mode: z.enum(clockModes) });
/** Latest virtual time the clock may reach: 9999-12-31T23:59:59.999Z (time stays a safe integer and a valid date). */
export const MAX_VIRTUAL_TIME = 253_402_300_799_999;
export const AdvanceRequest = z.strictObject({
  ms: z
    .number()
    .int()
    .min(0)
    .max(10 * 365 * 24 * 3600 * 1000)
    .meta({ description: 'milliseconds to move the virtual clock forward (the clock stops at 9999-12-31T23:59:59.999Z)' }),
});
/** When the next scheduled event is due (GET /__mock/clock/next). */
export const NextEvent = z.strictObject({
  due: z.number().int().nullable().meta({ description: 'virtual time the earliest scheduled event is due, epoch ms; null when nothing is scheduled' }),
  inMs: z
    .number()
    .int()
    .nonnegative()
    .nullable()
    .meta({ description: 'ms from virtual now until then (advance by this much to run it); null when nothing is scheduled' }),
});
export const AdvanceResponse = z.strictObject({
  now: z.number().int(),
  eventsRun: z.number().int().nonnegative().meta({ description: 'scheduled events that came due and ran' }),
});

/** One movement of credits (docs/architecture.md, "The engine"): reserve at submission, capture on success, release on failure, adjust from the control API. */
export const LedgerEntry = z.strictObject({
  seq: z.number().int().positive().meta({ description: "position in this account's ledger, from 1" }),
  at: z.number().int().meta({ description: 'virtual time, epoch ms' }),
  type: z.enum(['reserve', 'capture', 'release', 'adjust']),
  amount: z.number().int().meta({ description: 'credits; negative when taken from the balance' }),
  balance: z.number().int().nonnegative().meta({ description: 'balance after the entry' }),
  taskId: z.string().nullable(),
  note: z.string(),
});
export type LedgerEntry = z.infer<typeof LedgerEntry>;

const count = z.number().int().nonnegative();

/** The voice-clone allowance of an account (assumed defaults: paid 3 confirmations per period and 5 voices, free none). */
export const VoiceCloneAllowance = z
  .strictObject({
    quota: count.meta({ description: 'confirmations included per period' }),
    confirmationsUsed: count.meta({ description: 'confirmations spent this period (the period never resets by itself: set it back here)' }),
    maxSpeakers: count.meta({ description: 'private voices kept at once' }),
  })
  .meta({ description: 'voice cloning: quota, confirmations used this period, voice slots' });

export const AccountView = z.strictObject({
  apiKey: z.string(),
  keyId: z.string(),
  credits: z.number().int().nonnegative(),
  plan: z.enum(plans),
  everPaid: z.boolean(),
  freeUsages: FreeUsages,
  /** Optional only in saved states written before voice cloning existed (loaded with the plan's defaults). */
  voiceClone: VoiceCloneAllowance.optional(),
  ledger: z.array(LedgerEntry),
});

/** Ledger paging of the account routes. */
export const LedgerQuery = z.object({
  ledgerPage: z.coerce.number().int().min(1).default(1).meta({ description: 'page of the ledger, oldest entries first; the last page holds the latest' }),
  ledgerPageSize: z.coerce.number().int().min(1).max(1000).default(100).meta({ description: 'entries per page, 1-1000' }),
});
/** An account with one page of its ledger. */
export const AccountPage = AccountView.extend({
  ledgerTotal: z.number().int().nonnegative().meta({ description: 'entries in the ledger (older ones may be folded into one, beyond --max-ledger-entries)' }),
  ledgerPage: z.number().int().min(1),
  ledgerPageSize: z.number().int().min(1),
}).meta({ description: 'the account, with one page of its ledger' });

/** The mock's own faults, most recent last. */
export const Bugs = z.strictObject({
  items: z
    .array(z.strictObject({ at: z.number().int(), where: z.string(), problem: z.string() }))
    .meta({ description: 'the last 100 faults: where (an operation, a scheduled event, a media path), what' }),
});
export const AccountUpdate = z.strictObject({
  credits: z.number().int().min(0).optional(),
  plan: z.enum(plans).optional(),
  everPaid: z.boolean().optional(),
  freeUsages: FreeUsages.optional().meta({ description: 'replaces the map, keyed by model id' }),
  voiceClone: VoiceCloneAllowance.partial().optional().meta({ description: 'any of quota, confirmationsUsed, maxSpeakers' }),
});
export type AccountUpdate = z.infer<typeof AccountUpdate>;

/** A scenario rule: the next `times` matching requests get the forced behaviour. */
export const ScenarioRequest = z
  .strictObject({
    apiKey: z.string().optional().meta({ description: 'only requests with this key (default: any key)' }),
    operationId: z
      .union([z.string(), z.array(z.string()).min(1)])
      .optional()
      .meta({ description: 'only these operations (default: any operation)' }),
    times: z.number().int().min(1).default(1).meta({ description: 'how many matching requests the rule applies to' }),
    code: z.number().int().min(100).max(599).optional().meta({ description: 'as Prefer code=: answer with this declared status' }),
    error: z
      .union([z.number().int(), z.string()])
      .optional()
      .meta({ description: 'as Prefer error=: reject with this catalogued error (code or name); with outcome, the failure reason' }),
    outcome: z.enum(forcedOutcomes).optional().meta({
      description: 'as Prefer outcome=: the created task later fails (refunded), stalls (stuck) or succeeds with part of its result failed (partial)',
    }),
    delay: z.number().int().min(0).max(60_000).optional().meta({ description: 'as Prefer delay=: answer after this many real ms' }),
  })
  .refine((r) => r.code !== undefined || r.error !== undefined || r.outcome !== undefined || r.delay !== undefined, {
    message: 'a scenario needs at least one of code, error, outcome, delay',
  });
export type ScenarioRequest = z.infer<typeof ScenarioRequest>;
export const Scenario = z.strictObject({
  id: z.string(),
  apiKey: z.string().nullable(),
  operationIds: z.array(z.string()).nullable(),
  remaining: z.number().int(),
  code: z.number().int().nullable(),
  error: z.number().int().nullable(),
  outcome: z.enum(forcedOutcomes).nullable(),
  delay: z.number().int().nullable(),
});
export type Scenario = z.infer<typeof Scenario>;
export const ScenariosCleared = z.strictObject({ removed: z.number().int().nonnegative() });
export const ScenarioList = z.strictObject({
  items: z.array(Scenario).meta({ description: 'the rules, oldest first (the first that matches a request applies)' }),
});
export const ScenarioDeleted = z.strictObject({ id: z.string(), existed: z.boolean() });
export const ScenarioParams = z.strictObject({ id: z.string().meta({ param: { description: 'the id of the rule, e.g. sc_1' } }) });

/** One operation of the API with what it can be forced to do (GET /__mock/operations). */
export const OperationSummary = z
  .strictObject({
    operationId: z.string(),
    method: z.string().meta({ description: 'HTTP method, upper case' }),
    path: z.string().meta({ description: 'the path template, e.g. /v1/images/generation/tasks/{taskId}' }),
    summary: z.string(),
    errors: z
      .array(z.strictObject({ code: z.number().int(), name: z.string(), status: z.number().int() }))
      .meta({ description: 'every catalogued error it declares: envelope code, catalog name, HTTP status' }),
    outcomes: z.array(z.enum(forcedOutcomes)).meta({ description: 'outcomes a created task can be forced to (scenario outcome)' }),
    failureReasons: z
      .array(z.strictObject({ code: z.number().int(), name: z.string() }))
      .meta({ description: 'errors a task forced to fail can fail with (scenario error with outcome failed); the first is the default' }),
  })
  .openapi('MockOperationSummary');
export const OperationList = z.strictObject({ items: z.array(OperationSummary).meta({ description: 'every operation of the API, in registry order' }) });

/** Characters of JSON text the journal keeps of a request body. */
export const JOURNAL_BODY_CHARS = 4096;

export const JournalEntry = z.strictObject({
  seq: z.number().int().positive(),
  at: z.number().int().meta({ description: 'virtual time of the request, epoch ms' }),
  method: z.string(),
  path: z.string(),
  operationId: z.string().nullable(),
  keyId: z.string().nullable(),
  status: z.number().int(),
  code: z.number().int().nullable().meta({ description: 'envelope code of the response, when it had one' }),
  body: z
    .unknown()
    .optional()
    .meta({
      description: `the request body as the mock read it: JSON as sent, a multipart form as its fields with each file as {filename, mimeType, size}; cut to its first ${JOURNAL_BODY_CHARS} characters of JSON text (then a string, with bodyTruncated) beyond that; absent without a body`,
    }),
  bodyTruncated: z.boolean().optional().meta({ description: 'true when body was cut' }),
  responseBody: z
    .unknown()
    .optional()
    .meta({
      description: `the JSON body of the response as the client received it (the envelope, or the raw JSON of a raw operation); cut to its first ${JOURNAL_BODY_CHARS} characters of JSON text (then a string, with responseBodyTruncated) beyond that; absent for a response without a JSON body (see responseMedia)`,
    }),
  responseBodyTruncated: z.boolean().optional().meta({ description: 'true when responseBody was cut' }),
  responseDropped: z.literal(true).optional().meta({
    description:
      "true when the response's body (or its description) was let go to keep the journal within its byte budget (--journal-mb): the responses of the oldest entries go first, so the requests stay listed",
  }),
  responseMedia: z.string().optional().meta({
    description:
      'a response body that is not JSON (audio, an event stream), described instead of kept: its media type and size, e.g. "audio/mpeg, 53,812 bytes", or "audio/mpeg, streamed" when it was sent in chunks of a total not known in advance',
  }),
  proxy: z
    .strictObject({
      fallback: z.boolean().meta({ description: 'true: the mock answered, as the upstream did not (--fallback mock)' }),
      violations: z
        .array(z.strictObject({ rule: z.string(), cause: z.string(), detail: z.string() }))
        .meta({ description: 'the contract rules the upstream answer broke (at most 10 listed; GET /__mock/proxy/report has them all)' }),
      note: z.string().optional().meta({ description: 'why the answer was not checked whole, or why the mock answered' }),
    })
    .optional()
    .meta({ description: 'with --upstream: the request was forwarded to the upstream; its answer checked against the contract (docs/guides/proxy.md)' }),
});
export type JournalEntry = z.infer<typeof JournalEntry>;
export const Journal = z.strictObject({ items: z.array(JournalEntry).meta({ description: 'most recent last; at most the last 500 requests' }) });
export const JournalCount = z.strictObject({ count: z.number().int().nonnegative().meta({ description: 'journaled requests that match the filters' }) });
/** Filters of the journal (GET /__mock/requests and /__mock/requests/count); all must match. */
export const JournalQuery = z.strictObject({
  operationId: z.string().optional().meta({ description: 'only requests of this operation' }),
  keyId: z.string().optional().meta({ description: 'only requests of this key (the keyId of mg_<keyId>_<secret>; a user token counts as its account key)' }),
  status: z.coerce.number().int().min(100).max(599).optional().meta({ description: 'only answers with this HTTP status' }),
  since: z.coerce.number().int().optional().meta({ description: 'only requests at or after this virtual time, epoch ms' }),
  limit: z.coerce.number().int().min(1).max(1_000_000).optional().meta({ description: 'only the most recent N of the matches (the list only)' }),
});

export const ApiKeyParams = z.object({ apiKey: z.string().meta({ param: { description: 'the full API key, e.g. mg_demo_secret1' } }) });

export const AccountDeleted = z.strictObject({
  apiKey: z.string(),
  existed: z.boolean().meta({ description: 'the key had an account (false: it was never used; it is refused from now on all the same)' }),
});

/** One change of a task's status in the activity feed. */
export const TaskActivityEvent = z
  .strictObject({
    seq: z.number().int().positive().meta({ description: 'position in the feed, from 1' }),
    at: z.number().int().meta({ description: 'virtual time of the change, epoch ms' }),
    area: z.string().meta({ description: 'the area whose task changed: video, image, ...' }),
    taskId: z.string(),
    apiKey: z.string().meta({ description: 'the key that owns the task' }),
    status: z.string().meta({ description: 'the task\'s new status, in its area\'s own words; "deleted" when it was deleted' }),
    terminal: z.boolean().meta({ description: 'the task will not change again' }),
  })
  .openapi('TaskActivityEvent');
export type TaskActivityEvent = z.infer<typeof TaskActivityEvent>;

export const EventsQuery = z.object({
  apiKey: z.string().optional().meta({ description: 'only tasks of this key' }),
  area: z.string().optional().meta({ description: 'only tasks of this area (video, image, ...)' }),
  taskId: z.string().optional().meta({ description: 'only this task; the stream replays its changes still in the feed and ends after its terminal one' }),
  since: z.coerce
    .number()
    .int()
    .min(0)
    .optional()
    .meta({ description: 'send changes after this seq (default: with taskId, every retained change of the task; without, only new ones)' }),
});

/** Kinds of sample media. */
export const sampleKinds = ['audio', 'video', 'image', 'midi'] as const;
export const SampleParams = z.object({ kind: z.enum(sampleKinds).meta({ param: { description: 'audio, video (MP4), image (PNG) or midi' } }) });
/** Limits of sample media (the renderers' own limits). */
export const sampleLimits = { audioMaxMs: 3_600_000, videoMaxMs: 600_000, minSide: 16, videoMaxWidth: 4096, videoMaxHeight: 4096, imageMaxSide: 8192 } as const;
/** A true/false query flag with its default (given as the text a query carries). */
const flag = (byDefault: 'true' | 'false') =>
  z
    .enum(['true', 'false'])
    .default(byDefault)
    .transform((v) => v === 'true');
export const SampleQuery = z
  .object({
    format: z.enum(audioFormats).default('mp3').meta({ description: 'audio only: mp3, opus, aac, flac, wav or pcm' }),
    durationMs: z.coerce
      .number()
      .int()
      .min(100)
      .max(sampleLimits.audioMaxMs)
      .default(5000)
      .meta({ description: `audio, video and midi: length in ms (video at most ${sampleLimits.videoMaxMs})` }),
    width: z.coerce
      .number()
      .int()
      .min(sampleLimits.minSide)
      .max(sampleLimits.imageMaxSide)
      .default(1280)
      .meta({ description: 'video and image: pixels (video: even, at most 4096)' }),
    height: z.coerce
      .number()
      .int()
      .min(sampleLimits.minSide)
      .max(sampleLimits.imageMaxSide)
      .default(720)
      .meta({ description: 'video and image: pixels (video: even, at most 4096)' }),
    audio: flag('true').meta({ description: 'video: with an AAC sound track' }),
    variant: z.coerce.number().int().min(0).max(1_000_000).default(0).meta({ description: 'audio, video and midi: which pitch or melody (deterministic)' }),
  })
  .meta({ description: 'parameters of the sample; those of other kinds are ignored' });

/** Every Content-Type a sample can have. */
export const sampleContentTypes = [
  ...new Set([
    ...audioFormats.map((f) => audioFileTypes[f].contentType),
    mediaFileTypes.mp4.contentType,
    mediaFileTypes.png.contentType,
    mediaFileTypes.midi.contentType,
  ]),
];

/** Limits of the upload inspector. */
export const uploadLimits = { maxFiles: 10, maxFileBytes: 10 * 1024 * 1024, maxTotalBytes: 20 * 1024 * 1024 } as const;
export const UploadForm = z
  .looseObject({
    files: z
      .array(uploadedFile('a file to inspect'))
      .max(uploadLimits.maxFiles)
      .optional()
      .meta({ description: `files under the field name "files" (repeated), at most ${uploadLimits.maxFiles}` }),
  })
  .meta({ description: 'files under "files", and any text fields' });
export const UploadReport = z.strictObject({
  files: z.array(
    z.strictObject({
      field: z.string(),
      filename: z.string(),
      mimeType: z.string(),
      size: z.number().int().nonnegative().meta({ description: 'bytes' }),
      checksum: z.string().meta({ description: 'hex SHA-256 of the bytes (compare with `sha256sum` of the file the client meant to send)' }),
    }),
  ),
  fields: z
    .record(z.string(), z.union([z.string(), z.array(z.string())]))
    .meta({ description: 'text fields as received (strings; a repeated field as an array)' }),
});
