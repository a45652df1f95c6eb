/**
 * Tasks through their lifecycles (docs/guides/verify.md, "What it checks" 3
 * and 4), full mode only: the cost estimated first and the create admitted
 * by the budget (verify/credits.ts); then create, poll (the mock's clock
 * moved instead of waiting with --mock) through allowed moves only to a
 * terminal status that stays put, the task read back being the one created;
 * a success carries its fields and whole media (verify/media.ts); the
 * balance moves by what the task says it cost, a forced failure is refunded.
 */
import type { LifecycleDef } from '../schemas/registry-types.ts';
import type { Answer } from './answers.ts';
import type { Credits } from './credits.ts';
import type { SpecOperation } from './document.ts';
import { checkMedia } from './media.ts';
import { dataOf, type Run } from './run.ts';
import { sampleValue } from './rules.ts';

/** The path of `op` with every path parameter set to `id`. */
export const fill = (op: SpecOperation, id: string) => op.path.replace(/\{\w+\}/g, encodeURIComponent(id));

/** The cost in credits of `lc`'s example body from its estimate operation; undefined when it has none or it does not say. */
export async function estimateCost(run: Run, lc: LifecycleDef): Promise<number | undefined> {
  const est = lc.estimate && run.s.byId.get(lc.estimate.operationId);
  if (!lc.estimate || !est) return undefined;
  const a = await run.call(est, est.path, { body: lc.estimate.body }, 'estimate before a create');
  const c = dataOf(a)?.[lc.estimate.creditsField];
  return typeof c === 'number' && Number.isFinite(c) && c >= 0 ? Math.ceil(c / (lc.estimate.unitsPerCredit ?? 1)) : undefined;
}

/** One task of `op` through `lc`, the balance around it; returns the task id (undefined when none was created). */
export async function lifecycle(run: Run, credits: Credits, op: SpecOperation, lc: LifecycleDef, forceFailure: boolean): Promise<string | undefined> {
  const label = forceFailure ? 'forced failure' : 'lifecycle';
  const poll = run.s.byId.get(lc.pollOperationId);
  if (!poll)
    return void run.record(op, label, {
      violation: 'lifecycle',
      evidence: { request: '', answer: '', detail: `poll operation ${lc.pollOperationId} is not in the document` },
    });
  const cost = await estimateCost(run, lc);
  const refused = await credits.admit(run, cost);
  if (refused) return void run.record(op, label, { skip: refused });
  const before = credits.last;
  run.progress(`${label} of ${op.operationId}${cost !== undefined ? ` (estimated ${cost} credits)` : ''}`);
  const created = await run.call(op, op.path, { body: lc.example, headers: forceFailure ? { Prefer: 'outcome=failed' } : {} }, `${label}: create`);
  const code = (created.json as { code?: number } | undefined)?.code;
  if (forceFailure && created.status === 400 && /INVALID_PREFER/.test(op.codeNames.get(code ?? -1) ?? ''))
    return void run.record(op, label, { skip: 'this operation cannot be forced to fail' });
  if (created.status !== op.successStatus)
    return void run.record(
      op,
      `${label}: valid request accepted`,
      run.fail(created, 'valid request accepted', `the declared example body answered HTTP ${created.status}`),
    );
  run.record(op, `${label}: valid request accepted`, null);
  const id = dataOf(created)?.[lc.idField];
  if (typeof id !== 'string') return void run.record(op, `${label}: task id`, run.fail(created, 'task id', `no ${lc.idField} in the answer's data`));
  let last = dataOf(created)?.[lc.statusField] as string | undefined;
  const path = fill(poll, id);
  let waited = lc.firstPollMs;
  await run.pass(lc.firstPollMs);
  let task: Record<string, unknown> | undefined;
  let answer: Answer | undefined;
  let badMove: ReturnType<Run['fail']> = null;
  let otherTask: ReturnType<Run['fail']> = null;
  const pollProblems: Awaited<ReturnType<Run['probe']>>['problems'] = [];
  let pollMs = 0;
  const read = async () => {
    run.s.polls++;
    const p = await run.probe(poll, path);
    pollProblems.push(...p.problems);
    pollMs += p.ms;
    task = dataOf(p.answer);
    const readId = task?.[lc.idField];
    if (readId !== undefined && readId !== id && !otherTask)
      otherTask = run.fail(p.answer, 'task read back', `created ${lc.idField} ${id}, the read answered ${lc.idField} ${JSON.stringify(readId)}`);
    const status = task?.[lc.statusField] as string | undefined;
    if (status !== undefined && last !== undefined && status !== last && !(lc.transitions[last] ?? []).includes(status) && !badMove)
      badMove = run.fail(
        p.answer,
        'transition allowed',
        `${lc.statusField} moved ${last} -> ${status}; allowed from ${last}: ${(lc.transitions[last] ?? []).join(', ') || 'nothing (terminal)'}`,
      );
    last = status ?? last;
    return p.answer;
  };
  // on the mock's clock a step may be longer than the polling advice: at most about 30 reads up to the timeout
  const step = run.s.control ? Math.max(lc.intervalMs, Math.ceil(lc.timeoutMs / 30)) : lc.intervalMs;
  for (;;) {
    answer = await read();
    if (last !== undefined && lc.terminal.includes(last)) break;
    if (waited >= lc.timeoutMs || answer.status !== poll.successStatus) break;
    const next = Math.min(waited < 3 * lc.intervalMs ? lc.intervalMs : step, lc.timeoutMs - waited);
    await run.pass(Math.max(next, 1));
    waited += Math.max(next, 1);
  }
  const reached = last !== undefined && lc.terminal.includes(last);
  const terminal = last;
  const finalTask = task ?? {};
  let again = answer;
  if (reached) {
    // a terminal status is final: one more read must say the same
    await run.pass(lc.intervalMs);
    again = await read();
  }
  run.record(poll, `${label} of ${op.operationId}: polls answer`, run.problemVerdict(pollProblems), pollMs);
  run.record(op, `${label}: task read back`, otherTask);
  run.record(
    op,
    `${label}: terminal status reached`,
    reached ? null : run.fail(answer, 'terminal status reached', `still ${last} after ${waited} ms (terminal: ${lc.terminal.join(', ')})`),
  );
  run.record(op, `${label}: transition allowed`, badMove);
  if (!reached) return id;
  if (forceFailure)
    run.record(
      op,
      'forced failure: failed',
      terminal === lc.success ? run.fail(again, 'forced failure', 'Prefer: outcome=failed, but the task succeeded') : null,
    );
  else if (terminal === lc.success) {
    const missing = lc.successRequires.filter((f) => finalTask[f] === undefined || finalTask[f] === null);
    run.record(op, 'lifecycle: success carries', missing.length ? run.fail(again, 'success carries', `a successful task lacks ${missing.join(', ')}`) : null);
    for (const m of lc.media ?? []) if (!missing.includes(m.urlField.split(/[.[]/)[0])) await checkMedia(run, op, finalTask, m, label);
  } else run.record(op, 'lifecycle: succeeded', run.fail(again, 'task succeeds', `the task ended ${terminal}`));
  const after = before === undefined ? undefined : await credits.read(run, `after the ${label} of ${op.operationId}`);
  if (before === undefined || after === undefined) return void run.record(op, `${label}: credits`, { skip: 'the balance could not be read' });
  const delta = before - after;
  const evidence = (detail: string) => ({ request: `${label} of ${id}`, answer: `balance ${before} -> ${after}`, detail });
  if (terminal !== lc.success)
    run.record(
      op,
      `${label}: credits refunded`,
      delta !== 0 ? { violation: 'failure refunded', evidence: evidence(`a failed task kept ${delta} credits`) } : null,
    );
  else {
    const charged = lc.chargedField ? finalTask[lc.chargedField] : cost;
    if (typeof charged !== 'number') run.record(op, `${label}: credits as charged`, { skip: 'neither the task nor an estimate says what it cost' });
    else
      run.record(
        op,
        `${label}: credits as charged`,
        delta !== charged ? { violation: 'balance moves as charged', evidence: evidence(`the balance moved by ${delta}, the contract says ${charged}`) } : null,
      );
    if (cost !== undefined && delta > cost)
      run.record(op, `${label}: credits within the estimate`, {
        violation: 'charged as estimated',
        evidence: evidence(`the estimate said ${cost}, the task took ${delta}`),
      });
    else if (cost !== undefined) run.record(op, `${label}: credits within the estimate`, null);
  }
  return id;
}

/** Full mode: a charged operation without a lifecycle, sent once with a body built from its schema: accepted, its answer checked. */
export async function oneShot(run: Run, credits: Credits, op: SpecOperation): Promise<void> {
  const refused = await credits.admit(run, undefined);
  if (refused) return void run.record(op, 'valid request accepted', { skip: refused });
  const a = await run.call(op, op.path, { body: sampleValue(run.s.doc, op.jsonBody) }, 'valid request');
  run.record(
    op,
    'valid request accepted',
    a.status === op.successStatus
      ? null
      : run.fail(a, 'valid request accepted', `a body built from the schema's examples and defaults answered HTTP ${a.status}`),
  );
  await credits.read(run, `after ${op.operationId}`);
}
