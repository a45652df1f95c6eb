/**
 * Request validation with the registry's Zod schemas: turns the first failing
 * issues into the operation's catalogued error with a message naming each field
 * and rule (docs/architecture.md, "The request path").
 */
import type { z } from 'zod';
import type { ErrorName } from '../../schemas/errors.ts';
import type { OperationDef } from '../../schemas/registry-types.ts';
import { ApiError } from '../engine/api-error.ts';

/** Dotted path of an issue: `content[2].role`; `(body)` for the root. */
export function issuePath(prefix: string, path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out || prefix;
}

/**
 * The catalogued error of an issue: its own (`params.error`), else the field's
 * (`fieldErrors`, for a value out of its set or range), else the operation's. A
 * missing or wrongly typed field is always the operation's validation error.
 */
function errorOf(op: OperationDef, issue: z.core.$ZodIssue, value: unknown): ErrorName {
  const own = issue.code === 'custom' ? (issue.params as { error?: ErrorName } | undefined)?.error : undefined;
  const missing = typeof value !== 'object' || value === null || !(String(issue.path[0]) in value);
  const field = issue.code === 'invalid_type' || missing ? undefined : op.fieldErrors?.[String(issue.path[0])];
  return own ?? field ?? op.validationError;
}

/**
 * The issues with each rule broken once: a number or a choice outside the field's own range or set (`duration: Too
 * big: expected number to be <=30`) is left out when a body rule reports the same field (`duration 99 is outside 4-15
 * for family1-video-2-fast`): the rule narrows the field's range for that request, so its message is the one that
 * holds (and says more).
 */
export function oneIssuePerRule(issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue[] {
  const ruled = new Set<string>();
  for (const i of issues) if (i.code === 'custom') ruled.add(issuePath('', i.path));
  if (ruled.size === 0) return [...issues];
  const fieldRange = (i: z.core.$ZodIssue) =>
    ((i.code === 'too_big' || i.code === 'too_small') && (i.origin === 'number' || i.origin === 'int' || i.origin === 'bigint')) || i.code === 'invalid_value';
  return issues.filter((i) => !(fieldRange(i) && ruled.has(issuePath('', i.path))));
}

/** Parses `value` with `schema`; throws the operation's ApiError listing up to five issues. */
export function parseOrThrow<T extends z.ZodType>(op: OperationDef, schema: T, value: unknown, where: 'body' | 'query' | 'path'): z.output<T> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issues = oneIssuePerRule(r.error.issues);
  const message = issues
    .slice(0, 5)
    .map((i) => `${issuePath(where, i.path)}: ${i.message}`)
    .join('; ');
  throw new ApiError(errorOf(op, issues[0], value), issues.length > 5 ? `${message}; and ${issues.length - 5} more` : message);
}
