/**
 * `verify(options)`: checks a running implementation of the Media Generation
 * Service (the service, a staging build, a gateway, the mock) against the
 * emitted contract, spec/openapi.json (docs/guides/verify.md):
 *
 * 1. every answer (verify/answers.ts): a declared status; errors in the
 *    envelope with a code declared for that status; successes valid against
 *    the response schema (ajv 2020); Content-Types; Retry-After on 429/503;
 * 2. request rules (verify/requests.ts, verify/rules.ts): a valid request is
 *    accepted, a body breaking each rule of its schema is refused with one of
 *    the operation's validation codes;
 * 3. lifecycles (verify/lifecycles.ts, `x-lifecycle`) and whole media
 *    (verify/media.ts, verify/containers.ts);
 * 4. credits (verify/credits.ts): the measured spend, a hard budget in full
 *    mode, none at all in safe mode;
 * 5. access: no key and a malformed key answer 401; another key's task is refused.
 *
 * Every run ends with a report (verify/report.ts): a request has a time
 * limit, the run has one, bodies are capped, redirects are not followed; a
 * server that stops answering stops the run, and the checks not run are
 * reported as errors.
 */
import { createControlClient } from '../mock/web/controls.ts';
import { cleanUp, deletable, type Made } from './cleanup.ts';
import { Credits } from './credits.ts';
import { sendWithin } from './deadline.ts';
import { loadPackageDocument, operationsOf, validatorsOf, type SpecOperation } from './document.ts';
import { lifecycle, oneShot, type Followed } from './lifecycles.ts';
import { isPaginated, pagination } from './pages.ts';
import { coverage, groupCauses, summarize, uniqueNames } from './report.ts';
import { access, bodyRules, declaredBodies, isEstimate, otherKey, reads } from './requests.ts';
import { Run, Stopped, type RunShared } from './run.ts';
import type { VerifyOptions, VerifyReport } from './types.ts';

export type { ApiDocument, SpecOperation } from './document.ts';
export type { CheckResult, CoverageRow, Evidence, FailureGroup, SummaryRow, VerifyOptions, VerifyReport } from './types.ts';
export { formatTable, summarize, toJUnit } from './report.ts';

/** A refused configuration (an unknown operation or tag, --mock beyond loopback, ...): nothing was sent. */
export class ConfigError extends Error {}

/** True for localhost, 127.0.0.0/8 and ::1. */
export function isLoopback(url: string): boolean {
  const h = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/** Levenshtein distance (for "did you mean"). */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length];
}

/** The known names closest to `name` (case ignored), at most three. */
export function closeMatches(name: string, known: string[]): string[] {
  const n = name.toLowerCase();
  return known
    .map((k) => ({ k, d: k.toLowerCase() === n ? 0 : k.toLowerCase().includes(n) || n.includes(k.toLowerCase()) ? 1 : distance(n, k.toLowerCase()) }))
    .filter((x) => x.d <= Math.max(2, Math.floor(name.length / 3)))
    .sort((a, b) => a.d - b.d)
    .slice(0, 3)
    .map((x) => x.k);
}

function checkNames(kind: string, given: string[] | undefined, known: string[]): void {
  for (const name of given ?? []) {
    if (known.includes(name)) continue;
    const close = closeMatches(name, known);
    throw new ConfigError(
      `unknown ${kind} "${name}"${close.length ? `; did you mean ${close.map((c) => `"${c}"`).join(', ')}?` : ''} (the document has ${known.length})`,
    );
  }
}

/** With --mock: the operations whose task the mock can be forced to fail (its control API's `listOperations`), read once. */
async function forcible(shared: RunShared): Promise<Set<string>> {
  if (shared.forcible) return shared.forcible;
  try {
    const { items } = (await shared.control!.listOperations({})) as { items: { operationId: string; outcomes?: string[] }[] };
    shared.forcible = new Set(items.filter((o) => o.outcomes?.includes('failed')).map((o) => o.operationId));
  } catch {
    // an older mock without the list: try every lifecycle (one that cannot be forced answers its Prefer error)
    shared.forcible = new Set(shared.all.map((o) => o.operationId));
  }
  return shared.forcible;
}

/**
 * One task of `op` through its lifecycle; a later stage (`continues`) first gets a task of its earlier stage brought
 * to success (the one this run already followed, unless `forceFailure`: a fresh one, as a finished stage may not
 * start again). The successful tasks are kept in `succeeded` by create operation.
 */
async function follow(
  run: Run,
  credits: Credits,
  op: SpecOperation,
  forceFailure: boolean,
  succeeded: Map<string, Followed>,
  made: Made[],
): Promise<Followed | undefined> {
  const lc = op.lifecycle!;
  let prior: Followed | undefined;
  if (lc.continues) {
    const earlier = run.s.byId.get(lc.continues.operationId);
    if (!earlier?.lifecycle)
      return void run.record(op, forceFailure ? 'forced failure' : 'lifecycle', {
        violation: 'lifecycle',
        evidence: { request: '', answer: '', detail: `the earlier stage ${lc.continues.operationId} has no x-lifecycle in the document` },
      });
    prior = forceFailure ? undefined : succeeded.get(earlier.operationId);
    if (!prior) {
      run.progress(`a task of ${earlier.operationId} for ${op.operationId}`);
      prior = await follow(run, credits, earlier, false, succeeded, made);
    }
    if (!prior?.succeeded)
      return void run.record(op, forceFailure ? 'forced failure' : 'lifecycle', {
        skip: `no task of the earlier stage ${earlier.operationId} succeeded`,
      });
  }
  const task = await lifecycle(run, credits, op, lc, forceFailure, prior);
  if (task?.succeeded && !forceFailure) succeeded.set(op.operationId, task);
  made.push(...deletable(run, op, task));
  return task;
}

/**
 * Runs the checks. Throws a `ConfigError` (before sending anything) for a
 * refused configuration: an operationId or tag the document does not have,
 * `mock` against a non-loopback URL, full mode beyond loopback without an
 * explicit budget. Otherwise resolves to a report, also when the server
 * stops answering or the time is up (`stopped`).
 */
export async function verify(options: VerifyOptions): Promise<VerifyReport> {
  const started = performance.now();
  const base = options.baseUrl.replace(/\/+$/, '');
  const mode = options.mode ?? 'safe';
  const loopback = isLoopback(base);
  if (options.mock && !loopback) throw new ConfigError(`--mock moves a mock's clock: refused for ${base}, which is not a loopback address`);
  if (mode === 'full' && !loopback && options.budget === undefined)
    throw new ConfigError(`full mode against ${base} (not loopback) creates paid tasks: give --budget explicitly`);
  if (!options.apiKey) throw new ConfigError('no API key (--api-key, or the environment variable MEDIAGEN_API_KEY)');
  const doc = options.document ?? loadPackageDocument();
  const all = operationsOf(doc);
  checkNames(
    'operationId',
    options.operations,
    all.map((o) => o.operationId),
  );
  checkNames('tag', options.tags, [...new Set(all.map((o) => o.tag))]);
  const inSelection = (o: SpecOperation) =>
    (!options.operations || options.operations.includes(o.operationId)) && (!options.tags || options.tags.includes(o.tag));
  const selected = all.filter(inSelection);
  const rawSend = options.fetch ?? ((r: Request) => fetch(r));
  const requestTimeoutMs = (options.requestTimeoutS ?? 30) * 1000;
  const runAbort = new AbortController();
  const shared: RunShared = {
    options,
    base,
    mode,
    seed: options.seed ?? 1,
    budget: options.budget ?? 1000,
    doc,
    validate: validatorsOf(doc),
    all,
    byId: new Map(all.map((o) => [o.operationId, o])),
    send: rawSend,
    limits: { timeoutMs: requestTimeoutMs, maxBodyBytes: options.maxBodyBytes ?? 16 * 2 ** 20, maxMediaBytes: 512 * 2 ** 20 },
    runAbort,
    deadline: started + (options.maxDurationS ?? 1800) * 1000,
    retries: 0,
    polls: 0,
    noAnswerInARow: 0,
    area: 'start',
    progress: options.onProgress ?? (() => {}),
  };
  if (options.mock) {
    // the clock's requests get the same limits as the API's (verify/deadline.ts)
    shared.control = createControlClient({ baseUrl: base, fetch: sendWithin(rawSend, requestTimeoutMs, runAbort.signal) });
  }
  const run = new Run(shared);
  const credits = new Credits(run, shared.byId.get('getSubscription'));
  const declared = declaredBodies(all);
  const tags = [...new Set(selected.map((o) => o.tag))];
  const done = new Set<string>();
  const succeeded = new Map<string, Followed>();
  const made: Made[] = [];
  try {
    await credits.start();
    for (const tag of tags) {
      shared.area = tag;
      const ops = selected.filter((o) => o.tag === tag);
      const before = run.checks.length;
      run.progress(`reads of ${ops.length} operations`);
      await run.pool(ops, (op, r) => reads(r, credits, op));
      const withBodies = ops.filter(
        (op) => op.method !== 'get' && !op.pathParams.length && (isEstimate(op) || op.lifecycle || op.charges || op.jsonBody || op.multipart || !op.auth),
      );
      if (withBodies.length) run.progress(`body rules of ${withBodies.length} operations`);
      for (const op of withBodies) await bodyRules(run, credits, op, declared);
      const accessOp = ops.find((o) => o.auth && o.method === 'get' && !o.pathParams.length) ?? ops.find((o) => o.auth);
      if (accessOp) await access(run, accessOp);
      for (const op of ops.filter((o) => o.lifecycle)) {
        const lc = op.lifecycle!;
        // safe mode: only a first stage the contract does not charge (a later stage acts on a created task)
        if (mode !== 'full' && (op.charges || lc.continues)) {
          run.record(op, 'lifecycle', { skip: op.charges ? 'safe mode creates nothing' : 'safe mode sends no later stage of a task' });
          continue;
        }
        const task = await follow(run, credits, op, false, succeeded, made);
        if (!options.mock) run.record(op, 'forced failure', { skip: 'a failure can be forced only on the mock (--mock)' });
        else if (!(await forcible(shared)).has(op.operationId)) run.record(op, 'forced failure', { skip: 'this operation cannot be forced to fail' });
        else await follow(run, credits, op, true, succeeded, made);
        const poll = shared.byId.get(lc.pollOperationId);
        if (poll && options.secondApiKey && !lc.continues) {
          if (task) await otherKey(run, poll, task.id);
          else run.record(poll, "another key's task refused", { skip: 'no task was created' });
        }
      }
      if (mode === 'full') for (const op of ops.filter((o) => o.charges && !o.lifecycle && o.jsonBody && !o.pathParams.length)) await oneShot(run, credits, op);
      // lists over more than one page, once the area's tasks exist
      for (const op of ops.filter(isPaginated)) await pagination(run, op);
      // what the area's tasks made, deleted (the body rules of what changes it sent first)
      await cleanUp(run, made.splice(0), (op, path) => bodyRules(run, credits, op, declared, path));
      await credits.checkpoint(run, `the ${tag} area`);
      const mine = run.checks.slice(before);
      const failed = mine.filter((c) => c.outcome === 'failed').length;
      run.progress(`${mine.length} checks, ${failed} failed`);
      done.add(tag);
    }
    shared.area = 'end';
    await credits.finish();
  } catch (e) {
    // whatever stopped the run (the server, the time, a fault of the verifier's own), the report is made of what ran
    if (!(e instanceof Stopped)) shared.stopped ??= `the verifier failed: ${(e as Error).stack ?? String(e)}`;
    runAbort.abort();
    const reason = shared.stopped ?? (e as Error).message;
    shared.progress(`stopped: ${reason}`);
    // the operations of the area under way and of the areas after it: not run (an error each)
    for (const op of selected.filter((o) => !done.has(o.tag)))
      run.checks.push({ operationId: op.operationId, tag: op.tag, rule: 'not run', outcome: 'error', reason: `the run stopped: ${reason}`, durationMs: 0 });
  }
  uniqueNames(run.checks);
  const rows = summarize(run.checks);
  const spent = credits.spent();
  return {
    baseUrl: base,
    mode,
    ok: !shared.stopped && run.checks.every((c) => c.outcome === 'passed' || c.outcome === 'skipped'),
    checks: run.checks,
    rows,
    coverage: coverage(all, rows, run.checks, (op) =>
      inSelection(op) ? undefined : options.operations ? 'not selected (--operations)' : 'not selected (--tags)',
    ),
    causes: groupCauses(run.checks),
    creditsSpent: spent,
    balanceBefore: credits.before,
    balanceAfter: credits.last,
    budget: shared.budget,
    retries: shared.retries,
    polls: shared.polls,
    ...(shared.stopped ? { stopped: shared.stopped } : {}),
    durationMs: Math.round(performance.now() - started),
  };
}
