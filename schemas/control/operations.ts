/**
 * The control routes (schemas/control.ts re-exports them):
 * `defineControlOperations`, which makes registry entries of the control
 * operations (the control guard in place of an API key, no forcing, no
 * journal), and every route under /__mock. Mock-only.
 */
import { type z } from '../zod.ts';
import { json, multipart, transportErrors, type TransportErrorsOf } from '../define.ts';
import { assumed } from '../provenance.ts';
import type { ErrorName } from '../errors.ts';
import { type BinaryResponse, type EventStreamResponse, type JsonBody, type MultipartBody, type OperationDef, type RawResponse } from '../registry-types.ts';
import {
  Health,
  ResetRequest,
  ResetResponse,
  ClockState,
  AdvanceRequest,
  NextEvent,
  AdvanceResponse,
  LedgerQuery,
  AccountPage,
  Bugs,
  AccountUpdate,
  ScenarioRequest,
  Scenario,
  ScenariosCleared,
  ScenarioList,
  ScenarioDeleted,
  ScenarioParams,
  OperationList,
  Journal,
  JournalCount,
  JournalQuery,
  ApiKeyParams,
  AccountDeleted,
  TaskActivityEvent,
  EventsQuery,
  SampleParams,
  SampleQuery,
  sampleContentTypes,
  uploadLimits,
  UploadForm,
  UploadReport,
} from './schemas.ts';
import { ProxyReport } from './proxy.ts';
import {
  MockState,
  StateLoaded,
  StateSaved,
  OAuthUser,
  UserList,
  CreateUserRequest,
  LoginSessionList,
  AuthorizeRequest,
  AuthorizeResponse,
  LoginSessionParams,
  MAX_SESSIONS,
  SessionList,
  SessionDropped,
  SessionParams,
  MAX_STATE_BYTES,
} from './state.ts';

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

/**
 * The errors `defineControlOperations` declares for a control operation written as `S`, as a type: the transport's
 * (no Prefer header), the guard's, an invalid request when it takes any input, and its own.
 */
export type ControlErrorsOf<S extends ControlOperationSpec> =
  | Exclude<TransportErrorsOf<{ auth: false; request: { params: S['params']; body: S['body'] }; response: S['response'] }>, 'INVALID_PREFER'>
  | 'CONTROL_FORBIDDEN'
  | (S extends { body: object } | { params: object } | { query: object } ? 'CONTROL_INVALID_REQUEST' : never)
  | (S['errors'] extends readonly ErrorName[] ? S['errors'][number] : never);

/** A control operation after `defineControlOperations`: a registry entry run by the same runner as the API's, behind the control guard. */
export type ControlOperation<K extends string = string, S extends ControlOperationSpec = ControlOperationSpec> = Omit<
  OperationDef,
  'operationId' | 'request' | 'response' | 'errors'
> & {
  /** Its errors as a type too (see `ControlErrorsOf`), so a control handler's ctx.fail takes only those. */
  errors: readonly ControlErrorsOf<S>[];
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
      'Writes the state to the file the mock was started with (--state FILE), atomically (a temporary file of an unpredictable name beside it, created exclusively and flushed to disk, then a rename). Without --state it answers 10008; when the file cannot be written, 10020 (HTTP 507) with the reason, the state kept in memory. The mock also writes it at a clean shutdown.',
    response: ok(StateSaved, 'the state was written'),
    errors: ['CONTROL_INVALID_REQUEST', 'STATE_SAVE_FAILED'],
  },
  listRequests: {
    method: 'get',
    path: '/__mock/requests',
    summary: 'Recent requests',
    description:
      'The journal of recent API requests: each with its operation, key, request body, HTTP status, envelope code and response body (each body cut beyond 4,096 characters; a response that is not JSON, such as audio, described by its media type and size) (control and media requests are not journaled). Filters narrow it, like a verify of WireMock: operationId, keyId, status, since; limit keeps the most recent N.',
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
  getProxyReport: {
    method: 'get',
    path: '/__mock/proxy/report',
    summary: "The proxy's contract violations",
    description:
      'With --upstream URL the mock forwards API requests to that server and checks each answer against the contract with the checks of mediagen-verify (status and envelope code declared, body valid against the document, Content-Type, Retry-After, the moves between the statuses of a task, the Content-Type of its media). This report counts what was forwarded, checked and answered by the fallback, and lists the most recent violations with their request and rule (docs/guides/proxy.md). Without --upstream it answers 10008.',
    response: ok(ProxyReport),
    errors: ['CONTROL_INVALID_REQUEST'],
  },
  clearProxyReport: {
    method: 'delete',
    path: '/__mock/proxy/report',
    summary: "Clear the proxy's report",
    description:
      "Sets the proxy's counts to zero and forgets its violations (the tasks it follows are kept); answers the report as it was. Without --upstream it answers 10008.",
    response: ok(ProxyReport),
    errors: ['CONTROL_INVALID_REQUEST'],
  },
});

export const controlTags = [{ name: 'Mock control', description: 'Drive the mock: clock, accounts, scenarios, journal, activity, sample media.' }];

export type ControlOperations = typeof controlOperations;
export type ControlOperationId = keyof ControlOperations;
