/**
 * Rule issues: how a refinement that reads a data table reports a violation,
 * so the HTTP layer can answer with the catalogued error the rule names
 * (docs/architecture.md, "The registry").
 */
import type { z } from './zod.ts';
import type { ErrorName } from './errors.ts';

/** A rule violation found by a refinement: path, a message naming field and rule, and the catalogued error to answer with. */
export interface RuleIssue {
  path: (string | number)[];
  message: string;
  error: ErrorName;
}

/** Adds `issues` to a refinement context as custom issues carrying `params.error`. */
export function report(ctx: z.RefinementCtx, issues: RuleIssue[]): void {
  for (const i of issues) ctx.addIssue({ code: 'custom', path: i.path, message: i.message, params: { error: i.error } });
}
