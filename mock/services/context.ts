/**
 * What a service handler receives besides its parsed input, and the handler
 * types inferred from the registry (DESIGN.md, "One operation, end to end").
 */
import type { Operations, OperationId } from '../../schemas/operations.ts';
import type { OperationInput, OperationOutput } from '../../schemas/registry-types.ts';
import type { Account } from '../engine/accounts.ts';
import type { Engine } from '../engine/engine.ts';
import type { Forcing } from '../engine/scenarios.ts';

export interface ServiceContext {
  engine: Engine;
  /** The caller's account (the key owner). */
  account: Account;
  /** Virtual now, epoch ms, after due events ran. */
  now: number;
  /** Forced outcome for a created task (`outcome`, and `error` as its failure reason). */
  forcing: Forcing;
  operationId: OperationId;
}

/** A handler: parsed input in, the envelope's data (or raw body) out; throws ApiError for catalogued errors. */
export type Handler<K extends OperationId> = (input: OperationInput<Operations[K]>, ctx: ServiceContext) => OperationOutput<Operations[K]>;

/** A set of handlers keyed by operationId. */
export type Handlers<K extends OperationId = OperationId> = { [P in K]: Handler<P> };
