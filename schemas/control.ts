/**
 * The mock's control API under /__mock (docs/architecture.md, "The control
 * API"): schemas and routes, emitted to spec/mock-control.openapi.yaml and used
 * by the mock to validate control requests. Not part of the Media Generation
 * Service.
 */
import { z } from './zod.ts';
import { FreeUsages } from './account.ts';
import { plans } from './plans.ts';
import { json, multipart, transportErrors, uploadedFile } from './define.ts';
import { assumed } from './provenance.ts';
import { errorNames, type ErrorName } from './errors.ts';
import { audioFileTypes, audioFormats, mediaFileTypes } from './media.ts';
import {
  forcedOutcomes,
  type BinaryResponse,
  type EventStreamResponse,
  type JsonBody,
  type MultipartBody,
  type OperationDef,
  type RawResponse,
} from './registry-types.ts';

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
const ScenarioParams = z.strictObject({ id: z.string().meta({ param: { description: 'the id of the rule, e.g. sc_1' } }) });

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

const ApiKeyParams = z.object({ apiKey: z.string().meta({ param: { description: 'the full API key, e.g. mg_demo_secret1' } }) });

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

// ---------------------------------------------------------------------------
// Saved state
// ---------------------------------------------------------------------------

/** The `format` of a state file. */
export const STATE_FORMAT = 'mediagen-mock-state';
/** The version of the state format: a file of another version is refused (never half-loaded). */
export const STATE_VERSION = 1;

const Int = z.number().int();
const SafeInt = Int.min(Number.MIN_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);
/** A stored task record: the fields every task has; the rest is its area's own. */
const StateTaskRecord = z.looseObject({ id: z.string().min(1), owner: z.string().min(1), status: z.string().min(1), createdAt: SafeInt, updatedAt: SafeInt });

/** The engine's state (seed, clock, schedule, accounts, stores, counters, windows, scenarios, journal, activity). */
export const EngineState = z
  .strictObject({
    seed: Int.min(0).max(4294967295),
    now: Int.min(0).max(MAX_VIRTUAL_TIME).meta({ description: 'virtual now, epoch ms; at most 9999-12-31T23:59:59.999Z, where the clock stops' }),
    scheduler: z.strictObject({
      events: z.array(z.strictObject({ due: SafeInt, seq: Int.positive(), kind: z.string().min(1), args: z.record(z.string(), z.unknown()) })),
      seq: Int.min(0),
    }),
    accounts: z.strictObject({
      accounts: z.array(AccountView),
      holds: z.array(z.tuple([z.string().min(1), z.strictObject({ apiKey: z.string().min(1), amount: Int.min(0) })])),
      deleted: z.array(z.string()),
    }),
    stores: z.record(
      z.string(),
      z.strictObject({
        seq: Int.min(0),
        entries: z.array(z.strictObject({ id: z.string().min(1), owner: z.string().min(1), group: z.string().optional(), record: StateTaskRecord })),
      }),
    ),
    counters: z.array(z.tuple([z.string(), Int.min(0)])),
    limiter: z.array(z.tuple([z.string(), z.array(SafeInt)])),
    scenarios: z.strictObject({
      rules: z.array(
        z.strictObject({
          id: z.string(),
          apiKey: z.string().nullable(),
          operationIds: z.array(z.string()).nullable(),
          remaining: Int.min(1),
          forcing: z.strictObject({
            code: Int.optional(),
            // a catalogued error's name: a rule is listed and applied by its catalogue entry
            error: z.enum(errorNames as [ErrorName, ...ErrorName[]]).optional(),
            outcome: z.enum(forcedOutcomes).optional(),
            delayMs: Int.min(0).optional(),
          }),
        }),
      ),
      seq: Int.min(0),
    }),
    journal: z.strictObject({ entries: z.array(JournalEntry), seq: Int.min(0) }),
    activity: z.strictObject({ entries: z.array(TaskActivityEvent), seq: Int.min(0) }),
    singletons: z.array(z.tuple([z.string(), z.unknown()])),
  })
  .superRefine((st, ctx) => {
    const bad = (path: (string | number)[], message: string) => ctx.addIssue({ code: 'custom', path, message });
    const keys = new Set<string>();
    st.accounts.accounts.forEach((a, i) => {
      keys.add(a.apiKey);
      const sum = a.ledger.reduce((n, e) => n + e.amount, 0);
      if (sum !== a.credits) bad(['accounts', 'accounts', i], `the ledger of ${a.apiKey} sums to ${sum}, not to its credits ${a.credits}`);
    });
    st.accounts.holds.forEach(([taskId, h], i) => {
      if (!keys.has(h.apiKey)) bad(['accounts', 'holds', i], `the hold of ${taskId} belongs to ${h.apiKey}, which has no account`);
    });
    const ids = new Set<string>();
    for (const [name, store] of Object.entries(st.stores))
      store.entries.forEach((e, i) => {
        if (ids.has(e.id)) bad(['stores', name, 'entries', i], `task id ${e.id} is stored twice`);
        ids.add(e.id);
        if (e.record.id !== e.id || e.record.owner !== e.owner) bad(['stores', name, 'entries', i], `entry ${e.id} does not match its record`);
      });
  })
  .meta({ description: "the engine's whole state; task records are their areas' own" });

/** A state file (and the body of GET and PUT /__mock/state). */
export const MockState = z
  .strictObject({
    format: z.literal(STATE_FORMAT),
    version: z.literal(STATE_VERSION),
    state: EngineState,
  })
  .openapi('MockState');
export type MockState = z.infer<typeof MockState>;

export const StateLoaded = z.strictObject({
  seed: Int,
  now: Int.meta({ description: 'virtual now after loading, epoch ms' }),
  accounts: Int.min(0),
  tasks: Int.min(0),
});
export const StateSaved = z.strictObject({ file: z.string(), bytes: Int.min(0), now: Int.meta({ description: 'virtual now saved, epoch ms' }) });

export const OAuthUser = z
  .strictObject({
    userId: z.string(),
    name: z.string(),
    email: z.string(),
    apiKey: z.string().meta({ description: 'the account the user acts as: an access token of this user works like this key (its credits, its tasks)' }),
    createdAt: Int.meta({ description: 'epoch ms' }),
  })
  .openapi('MockUser');
export const UserList = z.strictObject({ items: z.array(OAuthUser).meta({ description: 'oldest first; three are seeded in every world' }) });
export const CreateUserRequest = z.strictObject({
  name: z.string().trim().min(1).max(100),
  email: z.string().email().optional().meta({ description: 'default: made from the name, at example.com' }),
  credits: Int.min(0).optional().meta({ description: "the account's balance; default that of a new key" }),
  plan: z.enum(plans).optional(),
});
export const LoginSessionInfo = z
  .strictObject({
    sessionId: z.string(),
    callbackPort: Int,
    status: z
      .enum(['pending', 'authorized', 'exchanged', 'expired'])
      .meta({ description: 'pending: waits to be authorized; authorized: its code waits to be exchanged' }),
    userId: z.string().nullable().meta({ description: 'who authorized it' }),
    createdAt: Int.meta({ description: 'epoch ms' }),
    expiresAt: Int.meta({ description: 'epoch ms: until then it can be authorized (pending) or its code exchanged (authorized)' }),
  })
  .openapi('MockLoginSession');
export const LoginSessionList = z.strictObject({ items: z.array(LoginSessionInfo) });
export const AuthorizeRequest = z.strictObject({
  userId: z.string().optional().meta({ description: 'an existing user (GET /__mock/users)' }),
  newUserName: z.string().optional().meta({ description: 'or the name of a new user to create' }),
});
export const AuthorizeResponse = z.strictObject({
  code: z.string(),
  redirectUrl: z.string().meta({ description: 'http://127.0.0.1:<callbackPort>/?code=<code>[&state=...]: where the browser would go' }),
  userId: z.string(),
});
const LoginSessionParams = z.strictObject({ sessionId: z.string() });

/** The name of an isolated session (X-Mock-Session header, /sessions/{name} path prefix). */
export const SESSION_NAME = /^[A-Za-z0-9._-]{1,64}$/;

/** Most sessions kept at once besides the default world by default (assumed; --max-sessions); beyond, the least recently used is dropped. */
export const MAX_SESSIONS = 256;

export const SessionInfo = z
  .strictObject({
    name: z.string().meta({ description: 'the session name (X-Mock-Session)' }),
    seed: Int,
    now: Int.meta({ description: 'virtual now of the session, epoch ms' }),
    requests: Int.min(0).meta({ description: 'API requests the session has answered' }),
    baseUrl: z.string().meta({ description: 'path prefix that selects the session without the header: /sessions/{name}' }),
  })
  .openapi('MockSession');
export type SessionInfo = z.infer<typeof SessionInfo>;
export const SessionList = z.strictObject({ items: z.array(SessionInfo).meta({ description: 'the sessions, least recently used first' }) });
export const SessionDropped = z.strictObject({ name: z.string(), existed: z.boolean() });
const SessionParams = z.strictObject({ name: z.string().regex(SESSION_NAME, '1-64 letters, digits, ".", "_" or "-"') });

/** Largest state a PUT accepts (a hundred thousand tasks are about 60 MB). */
export const MAX_STATE_BYTES = 512 * 1024 * 1024;

/** A control operation as schemas/control.ts writes it: an OperationSpec without auth, provenance and the shared fields. */
export interface ControlOperationSpec {
  method: OperationDef['method'];
  path: string;
  summary: string;
  description: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: JsonBody | MultipartBody;
  bodyRequired?: boolean;
  /** The handler validates the body itself (see OperationDef's request.bodyCheckedByHandler). */
  bodyCheckedByHandler?: boolean;
  response: RawResponse | BinaryResponse | EventStreamResponse;
  /** Errors besides the transport ones, the guard's and the invalid-request one. */
  errors?: readonly ErrorName[];
  /** Needs no control token (health). */
  open?: boolean;
}

/** A control operation after `defineControlOperations`: a registry entry run by the same runner as the API's, behind the control guard. */
export type ControlOperation<K extends string = string, S extends ControlOperationSpec = ControlOperationSpec> = Omit<
  OperationDef,
  'operationId' | 'request' | 'response'
> & {
  operationId: K;
  control: 'guarded' | 'open';
  request: {
    params: S extends { params: infer P extends z.ZodObject } ? P : undefined;
    query: S extends { query: infer Q extends z.ZodObject } ? Q : undefined;
    body: S extends { body: infer B extends JsonBody | MultipartBody } ? B : undefined;
    bodyOptional: boolean;
    bodyCheckedByHandler?: boolean;
  };
  response: S['response'];
};

/** Provenance of every control operation: the mock's own API. */
const controlProvenance = assumed("mock-only: the mock's own control API, not part of the service");

/**
 * The control area's operations, keyed by operationId: each is an
 * OperationDef (docs/architecture.md, "The control API") with `control` set
 * (the control guard in place of an API key: origin and token), no forcing,
 * its validation error CONTROL_INVALID_REQUEST, and the errors every control
 * operation shares: the transport's (malformed, too large), the guard's
 * (CONTROL_FORBIDDEN) and an invalid request when it takes any input.
 */
export function defineControlOperations<const S extends Record<string, ControlOperationSpec>>(
  specs: S,
): { [K in keyof S & string]: ControlOperation<K, S[K]> } {
  const out: Record<string, unknown> = {};
  for (const [operationId, spec] of Object.entries(specs)) {
    const request = {
      params: spec.params,
      query: spec.query,
      body: spec.body,
      bodyOptional: !spec.bodyRequired,
      ...(spec.bodyCheckedByHandler ? { bodyCheckedByHandler: true } : {}),
    };
    // no forcing; JSON under any Content-Type (curl -d); a body (a whole state document, an upload) counts
    // against the process's cap on bodies in flight like an API body, and the event stream against --max-streams
    const transport = transportErrors({ auth: false, request, response: spec.response }).filter(
      (e) => e !== 'INVALID_PREFER' && !(e === 'UNSUPPORTED_MEDIA_TYPE' && spec.body?.kind === 'json'),
    );
    const invalid: ErrorName[] = spec.body || spec.params || spec.query ? ['CONTROL_INVALID_REQUEST'] : [];
    out[operationId] = {
      operationId,
      control: spec.open ? 'open' : 'guarded',
      method: spec.method,
      path: spec.path,
      tags: ['Mock control'],
      summary: spec.summary,
      description: spec.description,
      provenance: controlProvenance,
      auth: false,
      request,
      response: spec.response,
      errors: [...new Set<ErrorName>([...transport, 'CONTROL_FORBIDDEN', ...invalid, ...(spec.errors ?? [])])],
      validationError: 'CONTROL_INVALID_REQUEST',
    };
  }
  return out as { [K in keyof S & string]: ControlOperation<K, S[K]> };
}

const ok = (schema: z.ZodType, description = 'success'): RawResponse => ({ status: 200, kind: 'raw', schema, description });

/** The control routes. */
export const controlOperations = defineControlOperations({
  health: {
    method: 'get',
    path: '/__mock/health',
    summary: 'Liveness and current state',
    description: 'Answers ok with the seed and the clock. Needs no control token.',
    open: true,
    response: ok(Health),
  },
  reset: {
    method: 'post',
    path: '/__mock/reset',
    summary: 'Drop all state',
    description:
      'Drops every account, deleted key, task, ledger entry, scenario, journal entry, activity and recorded fault, resets the clock to its start time, and optionally changes the seed.',
    body: json(ResetRequest),
    response: ok(ResetResponse),
  },
  getClock: {
    method: 'get',
    path: '/__mock/clock',
    summary: 'Read the virtual clock',
    description: 'Virtual now in epoch ms and the clock mode.',
    response: ok(ClockState),
  },
  advanceClock: {
    method: 'post',
    path: '/__mock/clock/advance',
    summary: 'Move the virtual clock forward',
    description:
      'Moves virtual time forward by ms and runs every scheduled event that came due, in order. Works in both modes (in real mode it adds an offset).',
    body: json(AdvanceRequest),
    bodyRequired: true,
    response: ok(AdvanceResponse),
  },
  getNextEvent: {
    method: 'get',
    path: '/__mock/clock/next',
    summary: 'When the next scheduled event is due',
    description:
      'The virtual time of the earliest scheduled event (a task moving on, a timeout, a sweep) and how far it is from now: POST /__mock/clock/advance with inMs runs it. Nulls when nothing is scheduled.',
    response: ok(NextEvent),
  },
  getAccount: {
    method: 'get',
    path: '/__mock/accounts/{apiKey}',
    summary: 'Read an account and its ledger',
    description:
      'The account of a key (created with the defaults if new): credits, plan, everPaid, freeUsages, voiceClone (quota, confirmationsUsed, maxSpeakers) and a page of its ledger (ledgerPage, ledgerPageSize; oldest first, ledgerTotal says how many). A deleted key answers 404 (10010) until it is set again with PUT.',
    params: ApiKeyParams,
    query: LedgerQuery,
    response: ok(AccountPage),
    errors: ['CONTROL_NOT_FOUND'],
  },
  putAccount: {
    method: 'put',
    path: '/__mock/accounts/{apiKey}',
    summary: 'Set an account',
    description:
      'Sets any of credits (recorded as an adjust ledger entry), plan (a new plan brings its voiceClone quota and maxSpeakers), everPaid, freeUsages and voiceClone (any of quota, confirmationsUsed, maxSpeakers: put an account at "quota used" or "slots full" in one call). A deleted key is created again (a new account with the defaults, then the values sent).',
    params: ApiKeyParams,
    query: LedgerQuery,
    body: json(AccountUpdate),
    bodyRequired: true,
    response: ok(AccountPage),
  },
  deleteAccount: {
    method: 'delete',
    path: '/__mock/accounts/{apiKey}',
    summary: 'Delete a key',
    description:
      'Deletes the key with its account and ledger, as the dashboard does (document 1, "Authentication": deletion takes effect immediately): every later API request with the key answers 401 (10001), including requests already waiting on a delay. Its tasks stay and keep running, but capture and refund nothing. PUT creates the key again.',
    params: ApiKeyParams,
    response: ok(AccountDeleted),
  },
  addScenario: {
    method: 'post',
    path: '/__mock/scenarios',
    summary: 'Add a scenario rule',
    description:
      'For example `{"apiKey": "mg_demo_secret1", "operationId": "createFamily5VideoTask", "outcome": "failed", "error": 32008}`: the next family5 task of this key fails with 32008. `error` takes a code, a catalog name or a failure reason (free_relax_busy). A rule waits for a request whose operation declares what it forces; a rule that none of its operations declares is refused (10008). A request carrying its own Prefer header ignores the rules.',
    body: json(ScenarioRequest),
    bodyRequired: true,
    response: ok(Scenario),
  },
  clearScenarios: {
    method: 'delete',
    path: '/__mock/scenarios',
    summary: 'Remove every scenario rule',
    description: 'Removes all rules.',
    response: ok(ScenariosCleared),
  },
  listScenarios: {
    method: 'get',
    path: '/__mock/scenarios',
    summary: 'List the scenario rules',
    description: 'The rules waiting for a request, oldest first, each with the uses it has left (remaining).',
    response: ok(ScenarioList),
  },
  deleteScenario: {
    method: 'delete',
    path: '/__mock/scenarios/{id}',
    summary: 'Remove one scenario rule',
    description: 'Removes the rule with this id. existed is false when there was no such rule (already used up, removed or never added).',
    params: ScenarioParams,
    response: ok(ScenarioDeleted),
  },
  listOperations: {
    method: 'get',
    path: '/__mock/operations',
    summary: 'The operations and what each can be forced to do',
    description:
      'Every operation of the API with the catalogued errors it declares (code, name, HTTP status), the outcomes a created task can be forced to, and the failure reasons it can fail with: what a scenario rule (or a Prefer header) may ask of it.',
    response: ok(OperationList),
  },
  listBugs: {
    method: 'get',
    path: '/__mock/bugs',
    summary: "The mock's own faults",
    description:
      'Faults the mock found in itself: a scheduled event that threw (its task failed and was refunded), a media render that failed, an answer that broke its declared schema in strict mode. Each is also logged. Empty is the normal state.',
    response: ok(Bugs),
  },
  getState: {
    method: 'get',
    path: '/__mock/state',
    summary: "The mock's whole state",
    description:
      'Everything the mock holds (accounts, ledgers, tasks, the schedule, the clock, id counters, rate windows, scenarios, journal, activity), as a versioned document: PUT it back, here or to another instance, or start one with it (--state FILE), and the same requests give the same answers. Rendered media are not saved (they render again).',
    response: ok(MockState, 'the state'),
  },
  putState: {
    method: 'put',
    path: '/__mock/state',
    summary: 'Replace the whole state',
    description:
      'Replaces everything with a document from GET /__mock/state (or a state file). It is validated first (structure, version, ledgers that sum to their balances, holds of existing accounts, unique task ids): anything else is refused (10008, naming what is wrong) and the current state is kept.',
    body: json(MockState, { limitBytes: MAX_STATE_BYTES }),
    bodyRequired: true,
    bodyCheckedByHandler: true,
    response: ok(StateLoaded, 'the state was loaded'),
  },
  saveState: {
    method: 'post',
    path: '/__mock/state/save',
    summary: 'Write the state to the --state file now',
    description:
      'Writes the state to the file the mock was started with (--state FILE), atomically (a temporary file, then a rename). Without --state it answers 10008. The mock also writes it at a clean shutdown.',
    response: ok(StateSaved, 'the state was written'),
    errors: ['CONTROL_INVALID_REQUEST'],
  },
  listRequests: {
    method: 'get',
    path: '/__mock/requests',
    summary: 'Recent requests',
    description:
      'The journal of recent API requests: each with its operation, key, request body (cut beyond 4,096 characters), HTTP status and envelope code (control and media requests are not journaled). Filters narrow it, like a verify of WireMock: operationId, keyId, status, since; limit keeps the most recent N.',
    query: JournalQuery,
    response: ok(Journal),
  },
  countRequests: {
    method: 'get',
    path: '/__mock/requests/count',
    summary: 'Count journaled requests',
    description:
      'How many journaled API requests match the filters (the same as GET /__mock/requests): "exactly one confirm call was made" is count 1 with operationId=confirmVoiceClone.',
    query: JournalQuery.omit({ limit: true }),
    response: ok(JournalCount),
  },
  streamEvents: {
    method: 'get',
    path: '/__mock/events',
    summary: 'Task activity as Server-Sent Events',
    description:
      "A text/event-stream of every change of status of every task of every area (event `task`, data a TaskActivityEvent), in order, as virtual time moves: a task created, moving on, failing, deleted. Filter by apiKey, area or taskId. With taskId the stream replays the task's changes and ends after its terminal one, so `curl -N` or an EventSource can wait for a task without polling. Heartbeat comments keep idle connections open. The feed keeps the last 1000 changes.",
    query: EventsQuery,
    response: { status: 200, kind: 'event-stream', events: { task: TaskActivityEvent }, description: 'the event stream' },
  },
  getSample: {
    method: 'get',
    path: '/__mock/samples/{kind}',
    summary: 'Render sample media',
    description:
      'The media the mock renders for tasks, on demand, to test a player or an upload form: `audio` (format mp3, opus, aac, flac, wav or pcm; durationMs), `video` (an H.264 MP4 of width x height and durationMs, with an AAC track unless audio=false), `image` (a PNG of width x height), `midi` (a Standard MIDI File of durationMs). Streamed (chunked); deterministic in its parameters.',
    params: SampleParams,
    query: SampleQuery,
    response: { status: 200, kind: 'binary', contentTypes: sampleContentTypes, description: 'the sample' },
  },
  inspectUpload: {
    method: 'post',
    path: '/__mock/uploads',
    summary: 'Inspect a multipart/form-data upload',
    description: `Parses a multipart/form-data body with the machinery and limits of the API's upload endpoints, and answers what arrived: each file (field, filename, mimeType, size, checksum) and the text fields. Use it to see what a browser form or an HTTP client really sends. Files under "files": at most ${uploadLimits.maxFiles}, each up to 10 MB, 20 MB together (413, 10006, above). Nothing is stored.`,
    body: multipart(UploadForm, { files: { files: { maxFileBytes: uploadLimits.maxFileBytes } }, maxTotalBytes: uploadLimits.maxTotalBytes }),
    bodyRequired: true,
    response: ok(UploadReport, 'what the mock received'),
  },
  listUsers: {
    method: 'get',
    path: '/__mock/users',
    summary: 'List the users who can sign in',
    description: 'The users of the OAuth user-token flow, each bound to an account (its API key). Three are seeded in every world; POST adds more.',
    response: ok(UserList),
  },
  createUser: {
    method: 'post',
    path: '/__mock/users',
    summary: 'Create a user with an account',
    description: 'Adds a user who can sign in, with an account of its own (credits and plan when given).',
    body: json(CreateUserRequest),
    bodyRequired: true,
    response: ok(OAuthUser),
  },
  listLoginSessions: {
    method: 'get',
    path: '/__mock/oauth/sessions',
    summary: 'List the OAuth login sessions',
    description: 'Every login session started with POST /v1/oauth/login-sessions, with its status now.',
    response: ok(LoginSessionList),
  },
  authorizeLoginSession: {
    method: 'post',
    path: '/__mock/oauth/sessions/{sessionId}/authorize',
    summary: 'Authorize a login session without a browser',
    description:
      "Does what pressing Authorize on the session's authUrl page does, for tests and CI: the code, and the redirect URL the browser would follow. 404 (10010) for a session that is unknown, expired or already authorized; 400 (10008) for an unknown user.",
    params: LoginSessionParams,
    body: json(AuthorizeRequest),
    bodyRequired: true,
    response: ok(AuthorizeResponse),
    errors: ['CONTROL_NOT_FOUND'],
  },
  listSessions: {
    method: 'get',
    path: '/__mock/sessions',
    summary: 'List the isolated sessions',
    description: `Sessions are isolated worlds (their own clock, seed, accounts, tasks, scenarios and journal) for test workers running in parallel against one mock: a request with the header X-Mock-Session: <name> (API, control and media alike), or under the path prefix /sessions/<name>, acts in the session <name>, created with the mock's start options by the first request that passes the guard: an API request with an API key, or a control request; media and unauthenticated requests in an unknown session answer 404 (10018) and create nothing. Media URLs handed out in a session carry the prefix, so they load without the header. Requests without either act in the default world. At most ${MAX_SESSIONS} sessions by default (assumed; --max-sessions); beyond, the least recently used one is dropped. The sessions share one world's budget of tasks, accounts, journal and activity, each keeping an equal part of it (at least 100 tasks per area), and the process's one media cache.`,
    response: ok(SessionList),
  },
  deleteSession: {
    method: 'delete',
    path: '/__mock/sessions/{name}',
    summary: 'Drop an isolated session',
    description: 'Drops the session and everything in it; its next request creates it afresh. existed is false when there was no such session.',
    params: SessionParams,
    response: ok(SessionDropped),
  },
});

export const controlTags = [{ name: 'Mock control', description: 'Drive the mock: clock, accounts, scenarios, journal, activity, sample media.' }];

export type ControlOperations = typeof controlOperations;
export type ControlOperationId = keyof ControlOperations;
