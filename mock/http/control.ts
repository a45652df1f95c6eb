/**
 * The control API under /__mock (issue 2, item 7; DESIGN.md, "The control API"),
 * validated with the schemas of schemas/control.ts.
 */
import express, { type Request, type Response, type Router } from 'express';
import type { z } from 'zod';
import { controlOperations, type ControlOperation } from '../../schemas/control.ts';
import { resolveErrorRef } from '../../schemas/errors.ts';
import { ApiError } from '../engine/api-error.ts';
import type { Account } from '../engine/accounts.ts';
import type { Engine } from '../engine/engine.ts';
import { sendError, sendJson } from './respond.ts';
import { expressPath, forcingApplies } from './router.ts';
import { operationIds, operations, type OperationId } from '../../schemas/operations.ts';
import type { OperationDef } from '../../schemas/registry-types.ts';

type Ops = typeof controlOperations;

function parse<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  throw new ApiError('CONTROL_INVALID_REQUEST', r.error.issues.map((i) => `${i.path.length ? i.path.join('.') : 'body'}: ${i.message}`).join('; '));
}

function view(a: Account) {
  return { apiKey: a.apiKey, keyId: a.keyId, credits: a.credits, plan: a.plan, everPaid: a.everPaid, freeUsages: { ...a.freeUsages }, ledger: [...a.ledger] };
}

function body(req: Request, required: boolean): unknown {
  const raw = req.body as Buffer | undefined;
  if (!Buffer.isBuffer(raw) || raw.length === 0) return required ? undefined : {};
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch (e) {
    throw new ApiError('MALFORMED_JSON', `request body is not valid JSON: ${(e as Error).message}`);
  }
}

/** The control router, bound to `engine`. */
export function createControlRouter(engine: Engine): Router {
  const router = express.Router();
  const handlers: { [K in keyof Ops]: (req: Request) => unknown } = {
    health: () => ({ status: 'ok', seed: engine.seed, clock: { now: engine.tick(), mode: engine.clock.mode } }),
    reset: (req) => {
      const b = parse(controlOperations.reset.body, body(req, false));
      engine.reset(b.seed);
      return { seed: engine.seed, now: engine.clock.now() };
    },
    getClock: () => ({ now: engine.tick(), mode: engine.clock.mode }),
    advanceClock: (req) => {
      const b = parse(controlOperations.advanceClock.body, body(req, true));
      engine.tick();
      return engine.advance(b.ms);
    },
    getAccount: (req) => {
      const { apiKey } = keyParams(parse(controlOperations.getAccount.params, req.params));
      return view(engine.accounts.get(apiKey, engine.tick()));
    },
    putAccount: (req) => {
      const { apiKey } = keyParams(parse(controlOperations.putAccount.params, req.params));
      const b = parse(controlOperations.putAccount.body, body(req, true));
      return view(engine.accounts.update(apiKey, b, engine.tick()));
    },
    addScenario: (req) => {
      const b = parse(controlOperations.addScenario.body, body(req, true));
      const error = b.error === undefined ? undefined : resolveErrorRef(String(b.error));
      if (b.error !== undefined && !error) throw new ApiError('CONTROL_INVALID_REQUEST', `error: ${b.error} is not a catalogued error code or name`);
      const ids = b.operationId === undefined ? undefined : [b.operationId].flat();
      const unknown = ids?.filter((i) => !(i in operations));
      if (unknown?.length) throw new ApiError('CONTROL_INVALID_REQUEST', `operationId: ${unknown.join(', ')} is not an operation of the API`);
      const forcing = { code: b.code, error, outcome: b.outcome, delayMs: b.delay };
      const targets = (ids ?? operationIds) as OperationId[];
      if (!targets.some((i) => forcingApplies(forcing, operations[i] as OperationDef)))
        throw new ApiError('CONTROL_INVALID_REQUEST', `the rule can never apply: none of ${ids ? ids.join(', ') : 'the operations'} declares that code, error or outcome`);
      return engine.scenarios.add({ apiKey: b.apiKey, operationIds: ids, times: b.times, forcing });
    },
    clearScenarios: () => ({ removed: engine.scenarios.clear() }),
    requests: () => ({ items: engine.journal.list() }),
  };
  /** An account exists only for a well-formed key: anything else is a control error, not a new account. */
  function keyParams(p: { apiKey: string }): { apiKey: string } {
    if (!engine.keyPattern.test(p.apiKey)) throw new ApiError('CONTROL_INVALID_REQUEST', `apiKey: ${p.apiKey} is not of the form ${engine.keyPrefix}_<keyId>_<secret> (letters and digits)`);
    return p;
  }
  const raw = express.raw({ type: () => true, limit: 1024 * 1024 });
  for (const [name, op] of Object.entries(controlOperations) as [keyof Ops, ControlOperation][]) {
    router[op.method](expressPath(op.path), raw, (req: Request, res: Response) => {
      try {
        sendJson(res, 200, handlers[name](req));
      } catch (e) {
        if (e instanceof ApiError) return sendError(res, e);
        return sendError(res, 'MOCK_INTERNAL_ERROR', `mock bug in control API: ${(e as Error)?.message}`);
      }
    });
  }
  return router;
}
