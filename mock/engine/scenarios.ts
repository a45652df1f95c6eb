/**
 * Scenario rules (docs/architecture.md, "Forcing outcomes"): "the next N matching requests
 * get this forced behaviour". The same `Forcing` is produced by the Prefer
 * header, so both paths share one implementation downstream.
 */
import type { ErrorName } from '../../schemas/errors.ts';
import type { Scenario } from '../../schemas/control.ts';
import type { ForcedOutcome } from '../../schemas/registry-types.ts';
import { errorCatalog } from '../../schemas/errors.ts';

/** What a request is forced to do. */
export interface Forcing {
  /** Answer with this declared HTTP status. */
  code?: number;
  /** Reject with this catalogued error; with `outcome`, the failure reason. */
  error?: ErrorName;
  /** The created task later ends this way. */
  outcome?: ForcedOutcome;
  /** Answer after this many real ms. */
  delayMs?: number;
}

/** A scenario rule as kept (and saved). */
export interface ScenarioRule {
  id: string;
  apiKey: string | null;
  operationIds: string[] | null;
  remaining: number;
  forcing: Forcing;
}

export class Scenarios {
  private rules: ScenarioRule[] = [];
  private seq = 0;

  /** Adds a rule; returns its public view. */
  add(rule: { apiKey?: string; operationIds?: string[]; times: number; forcing: Forcing }): Scenario {
    const r: ScenarioRule = {
      id: `sc_${++this.seq}`,
      apiKey: rule.apiKey ?? null,
      operationIds: rule.operationIds ?? null,
      remaining: rule.times,
      forcing: rule.forcing,
    };
    this.rules.push(r);
    return view(r);
  }

  /**
   * The first rule matching (apiKey, operationId) whose forcing `applies` to
   * that operation, consuming one use of it: its id (for the message of the
   * answer it forces) and its forcing. A rule that does not apply (say,
   * failure reason 32008 on the shared video endpoint) is left for a later
   * request.
   */
  take(apiKey: string | null, operationId: string, applies: (f: Forcing) => boolean = () => true): { id: string; forcing: Forcing } | undefined {
    const i = this.rules.findIndex(
      (r) => (r.apiKey === null || r.apiKey === apiKey) && (r.operationIds === null || r.operationIds.includes(operationId)) && applies(r.forcing),
    );
    if (i < 0) return undefined;
    const r = this.rules[i];
    if (--r.remaining <= 0) this.rules.splice(i, 1);
    return { id: r.id, forcing: r.forcing };
  }

  /** The public view of every rule, oldest first. */
  list(): Scenario[] {
    return this.rules.map(view);
  }

  /** Removes the rule `id`; false when there is none. */
  remove(id: string): boolean {
    const i = this.rules.findIndex((r) => r.id === id);
    if (i < 0) return false;
    this.rules.splice(i, 1);
    return true;
  }

  /** The rules and the sequence counter (for saving the state). */
  dump(): { rules: ScenarioRule[]; seq: number } {
    return { rules: this.rules.map((r) => ({ ...r, forcing: { ...r.forcing } })), seq: this.seq };
  }

  /** Replaces the rules with saved ones. */
  load(saved: { rules: readonly ScenarioRule[]; seq: number }): void {
    this.rules = saved.rules.map((r) => ({ ...r, forcing: { ...r.forcing } }));
    this.seq = saved.seq;
  }

  /** Removes every rule; returns how many there were. */
  clear(): number {
    const n = this.rules.length;
    this.rules = [];
    return n;
  }
}

function view(r: ScenarioRule): Scenario {
  return {
    id: r.id,
    apiKey: r.apiKey,
    operationIds: r.operationIds,
    remaining: r.remaining,
    code: r.forcing.code ?? null,
    error: r.forcing.error ? errorCatalog[r.forcing.error].code : null,
    outcome: r.forcing.outcome ?? null,
    delay: r.forcing.delayMs ?? null,
  };
}
