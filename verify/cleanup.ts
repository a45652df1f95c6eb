/**
 * What a full run made, deleted where the document lets it (docs/guides/verify.md,
 * "Spending"): a run on a provider's account should not leave its tasks and voices
 * behind, nor fill the account's slots (an account keeps a few private voices at
 * once: document 2, "Private voice"). A task is deleted by a DELETE on its read's
 * path (a video task), a thing a successful task names by a DELETE whose path
 * parameter is that field (a confirmed voice's speakerId). Before a thing is
 * deleted, the operations that change it with a JSON body (a voice's update) get
 * their body rules on it, since an unknown id may be refused before the body is read.
 */
import type { Followed } from './lifecycles.ts';
import { fill } from './lifecycles.ts';
import type { SpecOperation } from './document.ts';
import type { Run } from './run.ts';

/** A thing the run made: the DELETE that removes it and its id. */
export interface Made {
  del: SpecOperation;
  id: string;
}

/** The things `task` (followed through `op`'s lifecycle) made that a DELETE of the document removes. */
export function deletable(run: Run, op: SpecOperation, task: Followed | undefined): Made[] {
  const lc = op.lifecycle;
  if (!lc || !task) return [];
  const poll = run.s.byId.get(lc.pollOperationId);
  const out: Made[] = [];
  for (const del of run.s.all.filter((o) => o.method === 'delete' && o.pathParams.length === 1)) {
    // the task itself (a terminal one: a task still running may not be deletable)
    if (poll && del.path === poll.path && lc.terminal.includes(String(task.task[lc.statusField]))) out.push({ del, id: task.id });
    // a thing the successful task names (its field is the DELETE's path parameter)
    const field = del.pathParams[0];
    const named = task.task[field];
    if (task.succeeded && lc.successRequires.includes(field) && typeof named === 'string' && named) out.push({ del, id: named });
  }
  return out;
}

/**
 * Deletes what the run made, each a check (`clean-up: deleted`); first, the body rules of the operations that change
 * it (`bodyRules`, sent on its path).
 */
export async function cleanUp(run: Run, made: Made[], bodyRules: (op: SpecOperation, path: string) => Promise<void>): Promise<void> {
  const seen = new Set<string>();
  for (const m of made) {
    const path = fill(m.del, m.id);
    if (seen.has(path)) continue;
    seen.add(path);
    for (const op of run.s.all.filter((o) => o.path === m.del.path && o.jsonBody && !['get', 'delete'].includes(o.method)))
      if (!run.checks.some((c) => c.operationId === op.operationId && c.rule.startsWith('body rule: '))) await bodyRules(op, path);
    run.progress(`clean-up: ${m.del.operationId} ${m.id}`);
    const a = await run.call(m.del, path, {}, 'clean-up: delete');
    run.record(
      m.del,
      'clean-up: deleted',
      a.status === m.del.successStatus
        ? null
        : run.fail(a, 'deleted', `deleting ${m.id}, which the run made, answered HTTP ${a.status}`, `delete: HTTP ${a.status}`),
    );
  }
}
