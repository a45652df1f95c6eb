/**
 * Waiting for a task: for a create with `x-lifecycle`, poll the read it
 * declares (`pollOperationId`) first after `firstPollMs`, then every
 * `intervalMs`, until the status field reaches a terminal state or
 * `timeoutMs` has passed (all from the document, each overridable). A poll
 * answered 429 or 503 waits its Retry-After and goes on. Resolves with the
 * task that succeeded; rejects with a TaskFailedError (named after the
 * catalogue entry of the failure the task reports), a WaitTimeoutError, the
 * signal's reason on abort, or the ApiError of a poll that failed otherwise.
 */
import { errorCatalog, lifecycles } from './catalog.generated.ts';
import { errorNameOf, isApiError, TaskFailedError, WaitTimeoutError } from './errors.ts';
import type { ClientClock } from './retry.ts';
import type { LifecycleOperationId, TaskOf } from './types.ts';

/** Options of waitFor. */
export interface WaitOptions<Task = unknown> {
  /** Wait before the first poll, ms (default: the declared firstPollMs after a create answer, 0 for an id). */
  firstPollMs?: number;
  /** Wait between polls, ms (default: the declared intervalMs). */
  intervalMs?: number;
  /** Give up after this long, ms (default: the declared timeoutMs). */
  timeoutMs?: number;
  /** Stops waiting: waitFor rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Hears each change of status (the first status read included; a task without its status field yet is not reported), with the task as read. */
  onProgress?: (task: Task, status: string) => void;
}

/** The read of a lifecycle's task, as the client makes it (throws ApiError on an error answer). */
export type PollRead = (
  operationId: string,
  init: { params: { path: Record<string, string> }; signal?: AbortSignal },
) => Promise<{ data: unknown; status: number }>;

type AnyLifecycle = {
  poll: string;
  pathParam: string;
  idField: string;
  statusField: string;
  success: string;
  terminal: readonly string[];
  firstPollMs: number;
  intervalMs: number;
  timeoutMs: number;
  failure: { code?: string; message?: string };
};

/** The TaskFailedError of a task that ended in a failure state. */
function failureOf(operationId: string, lc: AnyLifecycle, task: Record<string, unknown>, status: number): TaskFailedError {
  const raw = lc.failure.code ? task[lc.failure.code] : undefined;
  const message = lc.failure.message ? task[lc.failure.message] : undefined;
  const name = typeof raw === 'number' || typeof raw === 'string' ? errorNameOf(raw) : undefined;
  let code = name ? errorCatalog[name].code : typeof raw === 'number' && raw !== 0 ? raw : undefined;
  const fromMessage = typeof message === 'string' ? /^(\d{4,6})\b/.exec(message) : null;
  if (code === undefined && fromMessage) code = Number(fromMessage[1]);
  const text =
    typeof message === 'string' && message
      ? message
      : `${operationId}: the task ended ${String(task[lc.statusField])}${raw != null ? ` (${JSON.stringify(raw)})` : ''}`;
  return new TaskFailedError({ code, message: text, status, operationId, task });
}

/**
 * Waits for the task `id` of the create `operationId` (see the module's comment).
 * `fromCreate` says the id comes from a create answer just received (the first
 * poll then waits the declared firstPollMs).
 */
export async function waitForTask<Op extends LifecycleOperationId>(
  read: PollRead,
  clock: ClientClock,
  operationId: Op,
  id: string,
  fromCreate: boolean,
  options: WaitOptions<TaskOf<Op>> = {},
): Promise<TaskOf<Op>> {
  const lc = lifecycles[operationId] as AnyLifecycle | undefined;
  if (!lc) throw new TypeError(`${operationId} has no x-lifecycle: there is no task to wait for`);
  const intervalMs = options.intervalMs ?? lc.intervalMs;
  const timeoutMs = options.timeoutMs ?? lc.timeoutMs;
  const started = clock.now();
  let wait = options.firstPollMs ?? (fromCreate ? lc.firstPollMs : 0);
  let last: Record<string, unknown> | undefined;
  let lastStatus: string | undefined;
  for (;;) {
    options.signal?.throwIfAborted();
    const remaining = started + timeoutMs - clock.now();
    if (remaining <= 0) throw new WaitTimeoutError(operationId, last, timeoutMs);
    if (wait > 0) await clock.sleep(Math.min(wait, remaining), options.signal);
    let answer: { data: unknown; status: number };
    try {
      answer = await read(lc.poll, { params: { path: { [lc.pathParam]: id } }, signal: options.signal });
    } catch (e) {
      // a busy service: wait as it says, then poll again (the timeout still applies)
      if (isApiError(e) && (e.status === 429 || e.status === 503)) {
        wait = e.retryAfter !== undefined ? e.retryAfter * 1000 : intervalMs;
        continue;
      }
      throw e;
    }
    const task = answer.data as Record<string, unknown>;
    last = task;
    // a status field may be absent until the first state is reached (the two-stage podcast's contentStatus): no change to hear
    const value = task[lc.statusField];
    const status = typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value);
    if (status && status !== lastStatus) {
      lastStatus = status;
      options.onProgress?.(task as TaskOf<Op>, status);
    }
    if (lc.terminal.includes(status)) {
      if (status === lc.success) return task as TaskOf<Op>;
      throw failureOf(operationId, lc, task, answer.status);
    }
    wait = intervalMs;
  }
}
