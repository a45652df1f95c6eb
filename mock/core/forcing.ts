/**
 * Forcing outcomes from a request (docs/architecture.md, "Forcing outcomes"):
 * the `Prefer` header, Prism-compatible (`code=<status>`) and extended
 * (`error=<code, name or failure reason>`, `outcome=failed|stuck|partial`,
 * `delay=<ms>`), several at once separated by commas; and the query-string
 * equivalents `__code`, `__error`, `__outcome`, `__delay`. Unknown Prefer keys
 * (Prism's `example=`, `dynamic=`) are ignored.
 */
import { describeErrorRef, errorCatalog, resolveErrorRef, type ErrorName } from '../../schemas/errors.ts';
import { transportErrors } from '../../schemas/define.ts';
import type { OperationDef } from '../../schemas/registry-types.ts';
import { ApiError } from '../engine/api-error.ts';
import type { Forcing } from '../engine/scenarios.ts';

/** Longest accepted `delay`, in ms. */
export const MAX_DELAY_MS = 60_000;

/** Raw directives: key -> value. */
export type Directives = Partial<Record<'code' | 'error' | 'outcome' | 'delay', string>>;

const KEYS = ['code', 'error', 'outcome', 'delay'] as const;
/** The query parameters of the directives (`__code`, ...), named once. */
const QUERY_NAMES = KEYS.map((k) => `__${k}`);

/** Reads the Prefer header and the `__` query parameters; undefined when the request forces nothing. */
export function readDirectives(prefer: string | undefined, query: Record<string, unknown>): Directives | undefined {
  const out: Directives = {};
  let any = false;
  if (prefer) {
    for (const part of prefer.split(/[,;]/)) {
      const [k, ...rest] = part.split('=');
      const key = k.trim().toLowerCase();
      if ((KEYS as readonly string[]).includes(key)) {
        out[key as (typeof KEYS)[number]] = rest
          .join('=')
          .trim()
          .replace(/^"(.*)"$/, '$1');
        any = true;
      }
    }
  }
  for (let i = 0; i < KEYS.length; i++) {
    const v = query[QUERY_NAMES[i]];
    if (typeof v === 'string') {
      out[KEYS[i]] = v;
      any = true;
    }
  }
  return any ? out : undefined;
}

const invalid = (message: string) => new ApiError('INVALID_PREFER', message);

/** Turns directives into a Forcing checked against what `op` declares. Errors: INVALID_PREFER. */
export function toForcing(d: Directives, op: OperationDef): Forcing {
  const f: Forcing = {};
  if (d.delay !== undefined) {
    if (!/^\d+$/.test(d.delay) || Number(d.delay) > MAX_DELAY_MS) throw invalid(`Prefer delay=${d.delay}: must be whole milliseconds 0-${MAX_DELAY_MS}`);
    f.delayMs = Number(d.delay);
  }
  if (d.code !== undefined) {
    const declared = declaredStatuses(op);
    if (!/^\d{3}$/.test(d.code) || !declared.includes(Number(d.code)))
      throw invalid(`Prefer code=${d.code}: ${op.operationId} declares ${declared.join(', ')}`);
    f.code = Number(d.code);
  }
  if (d.outcome !== undefined) {
    const allowed: readonly string[] = op.outcomes ?? [];
    if (!allowed.includes(d.outcome))
      throw invalid(
        `Prefer outcome=${d.outcome}: ${op.operationId} ${allowed.length ? `accepts outcome=${allowed.join(' or ')}` : 'creates no task whose outcome can be forced'}`,
      );
    f.outcome = d.outcome as Forcing['outcome'];
  }
  if (d.error !== undefined) {
    const name = resolveErrorRef(d.error);
    const allowed: readonly ErrorName[] = f.outcome === 'failed' ? (op.failureReasons ?? []) : op.errors;
    if (!name || !allowed.includes(name))
      throw invalid(
        `Prefer error=${d.error}: ${op.operationId} ${f.outcome ? 'tasks can fail with' : 'can answer with'} ${allowed.map(describeErrorRef).join(', ')}`,
      );
    f.error = name;
  }
  return f;
}

/** Every HTTP status `op` declares: its success status and those of its errors. */
export function declaredStatuses(op: OperationDef): number[] {
  return [...new Set([op.response.status, ...op.errors.map((n) => errorCatalog[n].httpStatus)])].sort((a, b) => a - b);
}

/**
 * The error a forced `code=<status>` answers with: the validation error when it has that status, else
 * the first of the operation's own errors with it, else the first shared transport error with it.
 */
export function errorForStatus(op: OperationDef, status: number): ErrorName | undefined {
  if (errorCatalog[op.validationError].httpStatus === status) return op.validationError;
  const shared = transportErrors(op);
  const withStatus = op.errors.filter((n) => errorCatalog[n].httpStatus === status);
  return withStatus.find((n) => !shared.includes(n)) ?? withStatus[0];
}

/** Parses a scenario's forcing fields the same way as the Prefer header. */
export function scenarioForcing(s: { code?: number; error?: number | string; outcome?: string; delay?: number }): Directives {
  return {
    ...(s.code !== undefined ? { code: String(s.code) } : {}),
    ...(s.error !== undefined ? { error: String(s.error) } : {}),
    ...(s.outcome !== undefined ? { outcome: s.outcome } : {}),
    ...(s.delay !== undefined ? { delay: String(s.delay) } : {}),
  };
}

/** The directives of a scenario rule's forcing (the same as a Prefer header's). */
export function forcingToDirectives(f: Forcing): Directives {
  return scenarioForcing({ code: f.code, error: f.error, outcome: f.outcome, delay: f.delayMs });
}

/** True when a scenario's forcing is something `op` declares (see toForcing). */
export function forcingApplies(f: Forcing, op: OperationDef): boolean {
  try {
    toForcing(forcingToDirectives(f), op);
    return true;
  } catch {
    return false;
  }
}

/**
 * What forced an answer, as its message says it: `Prefer code=429` (the header), `?__code=429` (the query string),
 * or `scenario sc_2 (code=429)` (a scenario rule, by id). `key` and `value` are the directive that decided the answer.
 */
export function forcedBy(key: 'code' | 'error', value: string, via: { scenarioId?: string; query: Record<string, unknown> }): string {
  if (via.scenarioId !== undefined) return `scenario ${via.scenarioId} (${key}=${value})`;
  return typeof via.query[`__${key}`] === 'string' ? `?__${key}=${value}` : `Prefer ${key}=${value}`;
}
