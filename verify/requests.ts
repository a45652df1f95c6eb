/**
 * Requests whose answer the contract fixes without creating anything
 * (docs/guides/verify.md, "What it checks" 2 and 5): reads (a list accepted,
 * an unknown id refused, on every operation with a path parameter), the body
 * rules (a valid body accepted by an estimate; one body per rule broken, each
 * refused with a validation code; every rule fragment under `allOf`,
 * verify/negations.ts, refused with its own code), multipart parts left out
 * and the multipart rule fragments, and the 401s of
 * a missing and a malformed key. A charged operation that accepts a body the
 * contract refuses may have created a task: nothing more that could create is
 * sent after it (verify/credits.ts).
 */
import type { Credits } from './credits.ts';
import { resolve, type ApiDocument, type SpecOperation } from './document.ts';
import { fill as pathOf } from './lifecycles.ts';
import { fill } from './edits.ts';
import { brokenFragments } from './negations.ts';
import { brokenBodies, brokenForms, formOf, sampleValue } from './rules.ts';
import { codeOf, type Run } from './run.ts';

export const isEstimate = (op: SpecOperation) => !op.charges && /estimate/i.test(op.path);
const missingId = (run: Run) => `verify-missing-${run.s.seed}`;

/** Base bodies the contract itself says are valid: the lifecycles' examples and their estimates' bodies. */
export function declaredBodies(all: SpecOperation[]): Map<string, Record<string, unknown>> {
  const out = new Map<string, Record<string, unknown>>();
  for (const op of all) {
    if (!op.lifecycle) continue;
    // a later stage's example lacks the id it is sent with; a multipart example lacks its files
    if (!op.lifecycle.continues && !op.lifecycle.exampleFiles) out.set(op.operationId, op.lifecycle.example);
    if (op.lifecycle.estimate) out.set(op.lifecycle.estimate.operationId, op.lifecycle.estimate.body);
  }
  return out;
}

/** Reads without a task: a GET without path parameters succeeds; any operation with a path parameter refuses an unknown id. */
export async function reads(run: Run, credits: Credits, op: SpecOperation): Promise<void> {
  if (op.successTypes.includes('text/html'))
    return void run.record(op, 'web page', { skip: 'a page for a browser, opened from a link the API gives: not read' });
  if (op.pathParams.length) {
    if (op.charges && credits.stopCreating) return void run.record(op, 'unknown id refused', { skip: credits.stopCreating });
    const body = op.jsonBody ? (sampleValue(run.s.doc, op.jsonBody) ?? {}) : undefined;
    const a = await run.call(op, pathOf(op, missingId(run)), { body }, 'unknown id');
    run.record(
      op,
      'unknown id refused',
      a.status >= 400 && a.status < 500 ? null : run.fail(a, 'unknown id refused', `an unknown id answered HTTP ${a.status}`),
    );
    if (a.status >= 200 && a.status < 300 && op.charges) await credits.accepted(run, op);
    return;
  }
  if (op.method !== 'get') return;
  const a = await run.call(op, op.path, {}, 'read');
  run.record(op, 'valid request accepted', a.status === op.successStatus ? null : run.fail(a, 'valid request accepted', `expected HTTP ${op.successStatus}`));
}

/** A valid request is accepted (estimates); a body breaking each rule is refused with a validation code. */
export async function bodyRules(run: Run, credits: Credits, op: SpecOperation, declared: Map<string, Record<string, unknown>>, path = op.path): Promise<void> {
  // an operation on a thing (a path parameter): only on one the run made (verify/cleanup.ts gives its path)
  if (op.method === 'get' || (op.pathParams.length && path === op.path)) return;
  if (op.multipart) return multipartRules(run, credits, op);
  if (!op.jsonBody) {
    if (op.auth === false) run.record(op, 'body rules', { skip: 'a form a browser posts (the sign-in page): not sent' });
    return;
  }
  let body = declared.get(op.operationId);
  const isDeclared = body !== undefined;
  body ??= sampleValue(run.s.doc, op.jsonBody) as Record<string, unknown> | undefined;
  if (!body || typeof body !== 'object') return void run.record(op, 'body rules', { skip: 'no object body could be built from the schema' });
  if (isEstimate(op)) {
    const a = await run.call(op, path, { body }, 'valid request');
    const accepted = a.status === op.successStatus;
    if (!accepted && isDeclared) run.record(op, 'valid request accepted', run.fail(a, 'valid request accepted', 'the declared example body was refused'));
    else if (!accepted) return void run.record(op, 'valid request accepted', { skip: 'a body built from the schema was refused: no base for the body rules' });
    else run.record(op, 'valid request accepted', null);
  }
  await run.pool(brokenBodies(run.s.doc, op.jsonBody, body, run.s.seed), async (broken, r) => {
    await refused(r, credits, op, `body rule: ${broken.rule}`, { body: broken.body, path });
  });
  // the rule fragments under allOf: bodies found by search, each refused with its fragment's code
  const negated = brokenFragments(run.s.doc, run.s.validate, bodyPointer(op), searchBases(run.s.doc, op, body));
  await run.pool(negated, async (broken, r) => {
    await refused(r, credits, op, `body rule: ${broken.rule}`, { body: broken.body, path }, broken.code === undefined, broken.code);
  });
}

/**
 * The valid bodies a rule fragment's search starts from (verify/negations.ts): `first` (the declared example; a
 * multipart lifecycle's example with its files as short texts), the schema's smallest body and a fuller one.
 */
export function searchBases(doc: ApiDocument, op: SpecOperation, first?: Record<string, unknown>): Record<string, unknown>[] {
  const schema = op.jsonBody ?? op.multipartBody;
  const lc = op.lifecycle;
  if (!first && op.multipart && lc?.exampleFiles && !lc.continues) {
    const props = resolve(doc, schema)?.properties ?? {};
    first = { ...lc.example };
    for (const k of Object.keys(lc.exampleFiles)) first[k] = resolve(doc, props[k])?.type === 'array' ? ['verify'] : 'verify';
  }
  const out = [first, sampleValue(doc, schema), fill(doc, [schema])];
  return out.filter((b): b is Record<string, unknown> => Boolean(b) && typeof b === 'object' && !Array.isArray(b));
}

/** The JSON pointer of `op`'s JSON body schema in the document (its component, or where the operation holds it). */
export function bodyPointer(op: SpecOperation): string {
  const ref = (op.jsonBody ?? op.multipartBody)?.$ref;
  if (ref?.startsWith('#/')) return ref.slice(1);
  const esc = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
  return `/paths/${esc(op.path)}/${op.method}/requestBody/content/${op.jsonBody ? 'application~1json' : 'multipart~1form-data'}/schema`;
}

/** One request the contract refuses: sent (unless nothing that could create may be sent) and judged. */
async function refused(
  run: Run,
  credits: Credits,
  op: SpecOperation,
  rule: string,
  { path = op.path, ...send }: { body?: unknown; form?: FormData; path?: string },
  anyDeclaredCode = false,
  expectCode?: number,
): Promise<void> {
  if (op.charges && credits.stopCreating) return void run.record(op, rule, { skip: credits.stopCreating });
  const a = await run.call(op, path, send, rule);
  const code = codeOf(a);
  if (a.status === 0) run.record(op, rule, run.fail(a, 'refused with a validation code', `no answer: ${a.error}`, 'server answers'));
  else if (a.status < 400) {
    run.record(
      op,
      rule,
      run.fail(a, 'body rule enforced', `a body breaking "${rule.replace(/^[^:]+: /, '')}" was accepted (HTTP ${a.status})`, 'body rule not enforced'),
    );
    if (op.charges && a.status < 300) await credits.accepted(run, op);
  } else if (a.status >= 500 || typeof code !== 'number')
    run.record(op, rule, run.fail(a, 'refused with a validation code', `refused with HTTP ${a.status}, not a 4xx envelope`, `refused with HTTP ${a.status}`));
  else if (expectCode !== undefined && code !== expectCode && ![402, 429].includes(a.status))
    run.record(
      op,
      rule,
      run.fail(a, "refused with the rule's code", `refused with code ${code}, not the rule's declared code ${expectCode}`, `refused with code ${code}`),
    );
  else if (
    expectCode === undefined &&
    op.validationCodes.length &&
    !op.validationCodes.includes(code) &&
    ![402, 429].includes(a.status) &&
    !(anyDeclaredCode && op.codes.get(a.status)?.includes(code))
  )
    run.record(
      op,
      rule,
      run.fail(
        a,
        'refused with a validation code',
        `refused with code ${code}, not the validation code (${op.validationCodes.join(', ')})`,
        `refused with code ${code}`,
      ),
    );
  else run.record(op, rule, null);
}

/** Multipart bodies: a form missing each required part, the others filled, and a form breaking each rule fragment must be refused. */
async function multipartRules(run: Run, credits: Credits, op: SpecOperation): Promise<void> {
  const forms = brokenForms(run.s.doc, op.multipartBody);
  // the rule fragments: found as bodies (a file part a short text), sent as forms
  const negated = brokenFragments(run.s.doc, run.s.validate, bodyPointer(op), searchBases(run.s.doc, op));
  if (!forms.length && !negated.length) return void run.record(op, 'body rules', { skip: 'the multipart schema has no required part and no rule fragment' });
  await run.pool(forms, async (f, r) => {
    await refused(r, credits, op, `body rule: ${f.rule}`, { form: f.form() });
  });
  await run.pool(negated, async (broken, r) => {
    await refused(
      r,
      credits,
      op,
      `body rule: ${broken.rule}`,
      { form: formOf(run.s.doc, op.multipartBody, broken.body) },
      broken.code === undefined,
      broken.code,
    );
  });
}

/** Access: a request without a key and one with a malformed key answer 401. */
export async function access(run: Run, op: SpecOperation): Promise<void> {
  for (const [label, key] of [
    ['missing key', null],
    ['malformed key', `not-a-valid-key-${run.s.seed}`],
  ] as const) {
    const a = await run.call(
      op,
      op.pathParams.length ? pathOf(op, missingId(run)) : op.path,
      { key, keyLabel: label, body: op.jsonBody ? {} : undefined },
      label,
    );
    run.record(
      op,
      `${label}: 401`,
      a.status === 401 ? null : run.fail(a, 'key required', `a request with a ${label} answered HTTP ${a.status}, not 401`, `${label}: HTTP ${a.status}`),
    );
  }
}

/** With a second key: its read of a task the first key created is refused with the contract's not-found or forbidden error. */
export async function otherKey(run: Run, poll: SpecOperation, id: string): Promise<void> {
  const a = await run.call(poll, pathOf(poll, id), { key: run.s.options.secondApiKey, keyLabel: 'second key' }, "another key's read");
  const name = poll.codeNames.get((codeOf(a) as number | undefined) ?? -1) ?? '';
  run.record(
    poll,
    "another key's task refused",
    a.status >= 400 && a.status < 500 && /NOT_FOUND|FORBIDDEN|NOT_OWNER/.test(name)
      ? null
      : run.fail(a, 'ownership', `another key read the task: HTTP ${a.status} ${name}`, 'another key reads a task'),
  );
}
