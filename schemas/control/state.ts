/**
 * Schemas of the mock's worlds (schemas/control.ts re-exports them): the saved
 * state (`GET`/`PUT /__mock/state`, the `--state` file; decisions/0010-saved-state.md),
 * the sign-in page's users and login sessions, and the isolated sessions.
 * Mock-only.
 */
import { z } from '../zod.ts';
import { plans } from '../plans.ts';
import { forcedOutcomes } from '../registry-types.ts';
import { USER_NAME_MAX_CHARS } from '../oauth.ts';
import { errorNames, type ErrorName } from '../errors.ts';
import { MAX_VIRTUAL_TIME, AccountView, JournalEntry, TaskActivityEvent } from './schemas.ts';

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

/** The part of a state the rules across records read. */
interface StateRecords {
  accounts: {
    accounts: readonly { apiKey: string; credits: number; ledger: readonly { amount: number }[] }[];
    holds: readonly (readonly [string, { apiKey: string }])[];
  };
  stores: Record<string, { entries: readonly { id: string; owner: string; record: { id: string; owner: string } }[] }>;
}

/**
 * The rules of a saved state across its records (the refinement of
 * `EngineState`): every ledger sums to its account's credits, every hold is
 * of an account there, no task id is stored twice, and each store entry's id
 * and owner are its record's. Calls `bad` with the path and the message of
 * each problem. A generator that yields every few thousand records, for a
 * load checked in slices (mock/services/saved-state.ts); `stateConsistency`
 * runs it at once.
 */
export function* stateConsistencySteps(st: StateRecords, bad: (path: (string | number)[], message: string) => void): Generator<void, void, void> {
  const SLICE = 5000;
  const keys = new Set<string>();
  for (const [i, a] of st.accounts.accounts.entries()) {
    keys.add(a.apiKey);
    let sum = 0;
    for (const e of a.ledger) sum += e.amount;
    if (sum !== a.credits) bad(['accounts', 'accounts', i], `the ledger of ${a.apiKey} sums to ${sum}, not to its credits ${a.credits}`);
    if (i % SLICE === SLICE - 1) yield;
  }
  for (const [i, [taskId, h]] of st.accounts.holds.entries()) {
    if (!keys.has(h.apiKey)) bad(['accounts', 'holds', i], `the hold of ${taskId} belongs to ${h.apiKey}, which has no account`);
    if (i % SLICE === SLICE - 1) yield;
  }
  const ids = new Set<string>();
  for (const [name, store] of Object.entries(st.stores))
    for (const [i, e] of store.entries.entries()) {
      if (ids.has(e.id)) bad(['stores', name, 'entries', i], `task id ${e.id} is stored twice`);
      ids.add(e.id);
      if (e.record.id !== e.id || e.record.owner !== e.owner) bad(['stores', name, 'entries', i], `entry ${e.id} does not match its record`);
      if (i % SLICE === SLICE - 1) yield;
    }
}

/** stateConsistencySteps run at once. */
export function stateConsistency(st: StateRecords, bad: (path: (string | number)[], message: string) => void): void {
  for (const _ of stateConsistencySteps(st, bad));
}

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
  .superRefine((st, ctx) => stateConsistency(st, (path, message) => ctx.addIssue({ code: 'custom', path, message })))
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
  name: z.string().trim().min(1).max(USER_NAME_MAX_CHARS),
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
export const LoginSessionParams = z.strictObject({ sessionId: z.string() });

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
export const SessionParams = z.strictObject({ name: z.string().regex(SESSION_NAME, '1-64 letters, digits, ".", "_" or "-"') });

/**
 * Largest state a PUT accepts by default (assumed; the CLI's --max-state-mb):
 * 64 MiB, some hundred thousand tasks. Small enough that reading and checking
 * one keeps the mock answering (docs/architecture.md, "The request path")..
 */
export const MAX_STATE_BYTES = 64 * 1024 * 1024;
