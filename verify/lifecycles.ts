/**
 * Tasks through their lifecycles (docs/guides/verify.md, "What it checks" 3
 * and 4), full mode only: the cost estimated first and the create admitted
 * by the budget (verify/credits.ts); then create, poll (the mock's clock
 * moved instead of waiting with --mock) through allowed moves only to a
 * terminal status that stays put, the task read back being the one created;
 * a success carries its fields and whole media (verify/media.ts); the
 * balance moves by what the task says it cost, a forced failure is refunded,
 * an operation the contract does not charge leaves it alone. A later stage
 * of a task (`continues`: the podcast's audio, a page deck's video, a
 * clone's confirmation) is sent for a task its earlier stage brought to
 * success, and polled on that task.
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

/**
 * A WAV file (PCM, 8 kHz, 16-bit mono) of a steady 220 Hz tone lasting `seconds`: the reference recording of a
 * multipart create (`exampleFiles` of x-lifecycle).
 */
export function toneWav(seconds: number): Uint8Array {
  const rate = 8000;
  const samples = Math.round(seconds * rate);
  const bytes = new Uint8Array(44 + samples * 2);
  const v = new DataView(bytes.buffer);
  const ascii = (at: number, text: string) => [...text].forEach((c, i) => v.setUint8(at + i, c.charCodeAt(0)));
  ascii(0, 'RIFF');
  v.setUint32(4, 36 + samples * 2, true);
  ascii(8, 'WAVEfmt ');
  v.setUint32(16, 16, true);
  v.setUint16(20, 1, true);
  v.setUint16(22, 1, true);
  v.setUint32(24, rate, true);
  v.setUint32(28, rate * 2, true);
  v.setUint16(32, 2, true);
  v.setUint16(34, 16, true);
  ascii(36, 'data');
  v.setUint32(40, samples * 2, true);
  for (let i = 0; i < samples; i++) v.setInt16(44 + i * 2, Math.round(8000 * Math.sin((2 * Math.PI * 220 * i) / rate)), true);
  return bytes;
}

/** A task the run followed: its id, its last read, whether it reached its success. */
export interface Followed {
  id: string;
  task: Record<string, unknown>;
  succeeded: boolean;
}

/** The request that creates `lc`'s task (or its later stage, for the task `prior`): path, then a JSON body or a form. */
function createRequest(op: SpecOperation, lc: LifecycleDef, prior: Followed | undefined): { path: string; body?: unknown; form?: FormData } {
  const path = prior && op.pathParams.length ? fill(op, prior.id) : op.path;
  const fields: Record<string, unknown> = { ...lc.example, ...(prior && lc.continues?.bodyField ? { [lc.continues.bodyField]: prior.id } : {}) };
  if (!lc.exampleFiles) return { path, body: fields };
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, typeof value === 'string' ? value : JSON.stringify(value));
  for (const [name, f] of Object.entries(lc.exampleFiles)) form.append(name, new File([toneWav(f.seconds) as BlobPart], f.filename, { type: 'audio/wav' }));
  return { path, form };
}

/**
 * One task of `op` through `lc`, the balance around it; `prior`: for a later stage (`continues`), the earlier
 * stage's successful task it is sent for. Returns the task followed (undefined when none was created).
 */
export async function lifecycle(
  run: Run,
  credits: Credits,
  op: SpecOperation,
  lc: LifecycleDef,
  forceFailure: boolean,
  prior?: Followed,
): Promise<Followed | undefined> {
  const label = forceFailure ? 'forced failure' : 'lifecycle';
  const poll = run.s.byId.get(lc.pollOperationId);
  if (!poll)
    return void run.record(op, label, {
      violation: 'lifecycle',
      evidence: { request: '', answer: '', detail: `poll operation ${lc.pollOperationId} is not in the document` },
    });
  const cost = await estimateCost(run, lc);
  const refused = await credits.admit(run, cost, op.charges);
  if (refused) return void run.record(op, label, { skip: refused });
  const before = credits.last;
  run.progress(`${label} of ${op.operationId}${prior ? ` for ${prior.id}` : ''}${cost !== undefined ? ` (estimated ${cost} credits)` : ''}`);
  const { path: createPath, ...send } = createRequest(op, lc, prior);
  const created = await run.call(op, createPath, { ...send, headers: forceFailure ? { Prefer: 'outcome=failed' } : {} }, `${label}: create`);
  const code = (created.json as { code?: number } | undefined)?.code;
  if (forceFailure && created.status === 400 && /INVALID_PREFER/.test(op.codeNames.get(code ?? -1) ?? ''))
    return void run.record(op, label, { skip: 'this operation cannot be forced to fail' });
  // the account cannot pay for it now (a quota used, no credits): the contract's answer to the account, not a violation
  if (created.status === 402 && op.codes.get(402)?.includes(code ?? -1))
    return void run.record(op, `${label}: valid request accepted`, {
      skip: `the account cannot pay for it now: HTTP 402 ${op.codeNames.get(code!) ?? code} ${(created.json as { message?: string } | undefined)?.message ?? ''}`.trim(),
    });
  if (created.status !== op.successStatus)
    return void run.record(
      op,
      `${label}: valid request accepted`,
      run.fail(created, 'valid request accepted', `the declared example body answered HTTP ${created.status}`),
    );
  run.record(op, `${label}: valid request accepted`, null);
  const answeredId = dataOf(created)?.[lc.idField];
  // a later stage names the earlier stage's task (its answer may leave the id out, but may not name another)
  const id = prior && answeredId === undefined ? prior.id : answeredId;
  if (typeof id !== 'string') return void run.record(op, `${label}: task id`, run.fail(created, 'task id', `no ${lc.idField} in the answer's data`));
  if (prior && id !== prior.id)
    return void run.record(op, `${label}: task id`, run.fail(created, 'task id', `sent for ${lc.idField} ${prior.id}, the answer names ${id}`));
  let last = (dataOf(created)?.[lc.statusField] ?? prior?.task[lc.statusField]) as string | undefined;
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
  const followed: Followed = { id, task: task ?? {}, succeeded: reached && terminal === lc.success };
  if (!reached) return followed;
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
  if (before === undefined || after === undefined) {
    run.record(op, `${label}: credits`, { skip: 'the balance could not be read' });
    return followed;
  }
  const delta = before - after;
  const evidence = (detail: string) => ({ request: `${label} of ${id}`, answer: `balance ${before} -> ${after}`, detail });
  if (!op.charges)
    run.record(
      op,
      `${label}: nothing charged`,
      delta !== 0
        ? { violation: 'free operation charges nothing', evidence: evidence(`an operation the contract does not charge took ${delta} credits`) }
        : null,
    );
  else if (terminal !== lc.success)
    run.record(
      op,
      `${label}: credits refunded`,
      delta !== 0 ? { violation: 'failure refunded', evidence: evidence(`a failed task kept ${delta} credits`) } : null,
    );
  else {
    // a later stage's field counts the earlier stages too: its charge is the increase
    const priorCharge = prior && lc.chargedField ? prior.task[lc.chargedField] : undefined;
    const total = lc.chargedField ? finalTask[lc.chargedField] : cost;
    const charged = typeof total === 'number' && typeof priorCharge === 'number' ? total - priorCharge : total;
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
  return followed;
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
