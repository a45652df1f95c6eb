/**
 * The mock's control API under /__mock (DESIGN.md, "The control API"): schemas
 * and routes, emitted to spec/mock-control.openapi.yaml and used by the mock to
 * validate control requests. Not part of the Media Generation Service.
 */
import { z } from './zod.ts';
import { FreeUsages, plans } from './account.ts';

export const clockModes = ['manual', 'real'] as const;
/** Outcomes a scenario or `Prefer: outcome=` can force on a created task. */
export const forcedOutcomes = ['failed', 'stuck'] as const;
export type ForcedOutcome = (typeof forcedOutcomes)[number];

export const Health = z.strictObject({ status: z.literal('ok'), seed: z.number().int(), clock: z.strictObject({ now: z.number().int(), mode: z.enum(clockModes) }) });
export const ResetRequest = z.strictObject({ seed: z.number().int().min(0).max(4294967295).optional().meta({ description: 'new seed; default: keep the current one' }) });
export const ResetResponse = z.strictObject({ seed: z.number().int(), now: z.number().int() });
export const ClockState = z.strictObject({ now: z.number().int().meta({ description: 'virtual now, epoch ms' }), mode: z.enum(clockModes) });
export const AdvanceRequest = z.strictObject({ ms: z.number().int().min(0).max(10 * 365 * 24 * 3600 * 1000).meta({ description: 'milliseconds to move the virtual clock forward' }) });
export const AdvanceResponse = z.strictObject({ now: z.number().int(), eventsRun: z.number().int().nonnegative().meta({ description: 'scheduled events that came due and ran' }) });

/** One movement of credits (DESIGN.md, "Credits"): reserve at submission, capture on success, release on failure, adjust from the control API. */
export const LedgerEntry = z.strictObject({
  seq: z.number().int().positive().meta({ description: 'position in this account\'s ledger, from 1' }),
  at: z.number().int().meta({ description: 'virtual time, epoch ms' }),
  type: z.enum(['reserve', 'capture', 'release', 'adjust']),
  amount: z.number().int().meta({ description: 'credits; negative when taken from the balance' }),
  balance: z.number().int().nonnegative().meta({ description: 'balance after the entry' }),
  taskId: z.string().nullable(),
  note: z.string(),
});
export type LedgerEntry = z.infer<typeof LedgerEntry>;

export const AccountView = z.strictObject({
  apiKey: z.string(),
  keyId: z.string(),
  credits: z.number().int().nonnegative(),
  plan: z.enum(plans),
  everPaid: z.boolean(),
  freeUsages: FreeUsages,
  ledger: z.array(LedgerEntry),
});
export const AccountUpdate = z.strictObject({
  credits: z.number().int().min(0).optional(),
  plan: z.enum(plans).optional(),
  everPaid: z.boolean().optional(),
  freeUsages: FreeUsages.optional().meta({ description: 'replaces the map, keyed by model id' }),
});
export type AccountUpdate = z.infer<typeof AccountUpdate>;

/** A scenario rule: the next `times` matching requests get the forced behaviour. */
export const ScenarioRequest = z
  .strictObject({
    apiKey: z.string().optional().meta({ description: 'only requests with this key (default: any key)' }),
    operationId: z.union([z.string(), z.array(z.string()).min(1)]).optional().meta({ description: 'only these operations (default: any operation)' }),
    times: z.number().int().min(1).default(1).meta({ description: 'how many matching requests the rule applies to' }),
    code: z.number().int().min(100).max(599).optional().meta({ description: 'as Prefer code=: answer with this declared status' }),
    error: z.union([z.number().int(), z.string()]).optional().meta({ description: 'as Prefer error=: reject with this catalogued error (code or name); with outcome, the failure reason' }),
    outcome: z.enum(forcedOutcomes).optional().meta({ description: 'as Prefer outcome=: the created task later ends this way (refunded)' }),
    delay: z.number().int().min(0).max(60_000).optional().meta({ description: 'as Prefer delay=: answer after this many real ms' }),
  })
  .refine((r) => r.code !== undefined || r.error !== undefined || r.outcome !== undefined || r.delay !== undefined, { message: 'a scenario needs at least one of code, error, outcome, delay' });
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

export const JournalEntry = z.strictObject({
  seq: z.number().int().positive(),
  at: z.number().int().meta({ description: 'virtual time of the request, epoch ms' }),
  method: z.string(),
  path: z.string(),
  operationId: z.string().nullable(),
  keyId: z.string().nullable(),
  status: z.number().int(),
  code: z.number().int().nullable().meta({ description: 'envelope code of the response, when it had one' }),
});
export type JournalEntry = z.infer<typeof JournalEntry>;
export const Journal = z.strictObject({ items: z.array(JournalEntry).meta({ description: 'most recent last; at most the last 500 requests' }) });

const ApiKeyParams = z.object({ apiKey: z.string().meta({ param: { description: 'the full API key, e.g. mg_demo_secret1' } }) });

/** One control route. */
export interface ControlOperation {
  operationId: string;
  method: 'get' | 'post' | 'put' | 'delete';
  path: string;
  summary: string;
  description: string;
  params?: z.ZodObject;
  body?: z.ZodType;
  bodyRequired?: boolean;
  response: z.ZodType;
}

/** The control routes, exactly (issue 2, item 7). */
export const controlOperations = {
  health: { operationId: 'health', method: 'get', path: '/__mock/health', summary: 'Liveness and current state', description: 'Answers ok with the seed and the clock.', response: Health },
  reset: { operationId: 'reset', method: 'post', path: '/__mock/reset', summary: 'Drop all state', description: 'Drops every account, task, ledger entry, scenario and journal entry, resets the clock to its start time, and optionally changes the seed.', body: ResetRequest, response: ResetResponse },
  getClock: { operationId: 'getClock', method: 'get', path: '/__mock/clock', summary: 'Read the virtual clock', description: 'Virtual now in epoch ms and the clock mode.', response: ClockState },
  advanceClock: { operationId: 'advanceClock', method: 'post', path: '/__mock/clock/advance', summary: 'Move the virtual clock forward', description: 'Moves virtual time forward by ms and runs every scheduled event that came due, in order. Works in both modes (in real mode it adds an offset).', body: AdvanceRequest, bodyRequired: true, response: AdvanceResponse },
  getAccount: { operationId: 'getAccount', method: 'get', path: '/__mock/accounts/{apiKey}', summary: 'Read an account and its ledger', description: 'The account of a key (created with the defaults if new): credits, plan, everPaid, freeUsages and every ledger entry.', params: ApiKeyParams, response: AccountView },
  putAccount: { operationId: 'putAccount', method: 'put', path: '/__mock/accounts/{apiKey}', summary: 'Set an account', description: 'Sets any of credits (recorded as an adjust ledger entry), plan, everPaid and freeUsages.', params: ApiKeyParams, body: AccountUpdate, bodyRequired: true, response: AccountView },
  addScenario: { operationId: 'addScenario', method: 'post', path: '/__mock/scenarios', summary: 'Add a scenario rule', description: 'For example `{"apiKey": "mg_demo_secret1", "operationId": "createFamily5VideoTask", "outcome": "failed", "error": 32008}`: the next family5 task of this key fails with 32008. A rule waits for a request whose operation declares what it forces; a rule that none of its operations declares is refused (10008). A request carrying its own Prefer header ignores the rules.', body: ScenarioRequest, bodyRequired: true, response: Scenario },
  clearScenarios: { operationId: 'clearScenarios', method: 'delete', path: '/__mock/scenarios', summary: 'Remove every scenario rule', description: 'Removes all rules.', response: ScenariosCleared },
  requests: { operationId: 'listRequests', method: 'get', path: '/__mock/requests', summary: 'Recent requests', description: 'The journal of recent API requests and the status codes of their responses (control requests are not journaled).', response: Journal },
} as const satisfies Record<string, ControlOperation>;

export const controlTags = [{ name: 'Mock control', description: 'Drive the mock: clock, accounts, scenarios, journal.' }];
