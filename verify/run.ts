/**
 * A verification run's shared state and its one way of talking to the
 * server: every request goes through `Run.exchange` (the key, the time
 * limits, the body caps, no redirects) and every answer the verifier relies
 * on through `Run.call` (checked against the contract, a 429 waited out
 * within the time limits and sent again, each retry counted apart from the
 * checks). Three requests in a row without an answer, or the run's time up,
 * stop the run: `Stopped` unwinds to `verify`, which reports what ran.
 */
import type { ErrorObject } from 'ajv';
import type { createControlClient } from '../mock/web/controls.ts';
import { answerProblems, describeAnswer, exchange, type Answer, type ExchangeLimits, type Problem } from './answers.ts';
import type { ApiDocument, SpecOperation } from './document.ts';
import type { CheckResult, Evidence, VerifyOptions } from './types.ts';

/** The run stopped: the server stopped answering, or its time is up. */
export class Stopped extends Error {}

/** A failed check's verdict; `{ skip }` a skipped one's; null a pass. */
export type Verdict = null | { violation: string; cause?: string; evidence: Evidence } | { skip: string };

/** What every fork of a run shares. */
export interface RunShared {
  options: VerifyOptions;
  base: string;
  mode: 'safe' | 'full';
  seed: number;
  budget: number;
  doc: ApiDocument;
  validate: (pointer: string, value: unknown) => ErrorObject[];
  all: SpecOperation[];
  byId: Map<string, SpecOperation>;
  send: (r: Request) => Promise<Response>;
  control?: ReturnType<typeof createControlClient>;
  /** With --mock: the operations whose task can be forced to fail (read once from the control API). */
  forcible?: Set<string>;
  limits: ExchangeLimits;
  runAbort: AbortController;
  deadline: number;
  retries: number;
  polls: number;
  noAnswerInARow: number;
  stopped?: string;
  area: string;
  progress: (line: string) => void;
}

/** Request options of one exchange. */
export interface SendOptions {
  body?: unknown;
  /** A multipart body (sent as is, its own Content-Type). */
  form?: FormData;
  /** The key to send: undefined the run's, null none. */
  key?: string | null;
  /** How the key is described in the request line (`no key`, `malformed key`, `second key`). */
  keyLabel?: string;
  headers?: Record<string, string>;
  absolute?: boolean;
}

/** A run, or one branch of it whose checks are merged in order (`pool`). */
export class Run {
  constructor(
    readonly s: RunShared,
    readonly checks: CheckResult[] = [],
  ) {}

  /** Records one check of `op`. */
  record(op: SpecOperation, rule: string, verdict: Verdict, durationMs = 0): void {
    const base = { operationId: op.operationId, tag: op.tag, rule, durationMs };
    if (verdict === null) this.checks.push({ ...base, outcome: 'passed' });
    else if ('skip' in verdict) this.checks.push({ ...base, outcome: 'skipped', reason: verdict.skip });
    else this.checks.push({ ...base, outcome: 'failed', violation: verdict.violation, cause: verdict.cause ?? verdict.violation, evidence: verdict.evidence });
  }

  /** A failure verdict with `a` as its evidence. */
  fail(a: Answer, violation: string, detail: string, cause?: string): Verdict {
    return { violation, cause, evidence: { request: a.requestLine, answer: describeAnswer(a), detail } };
  }

  progress(line: string): void {
    this.s.progress(`${this.s.area}: ${line}`);
  }

  /** Stops the run (the rest is reported as not run). */
  stop(reason: string): never {
    this.s.stopped ??= reason;
    this.s.runAbort.abort();
    throw new Stopped(this.s.stopped);
  }

  private checkTime(): void {
    if (this.s.stopped) throw new Stopped(this.s.stopped);
    if (performance.now() >= this.s.deadline) this.stop(`the run's time is up (--max-duration ${this.s.options.maxDurationS ?? 1800} s)`);
  }

  /** Sends one request (never following a redirect) and reads its answer within the limits. */
  async exchange(method: string, path: string, opts: SendOptions = {}): Promise<Answer> {
    this.checkTime();
    const url = opts.absolute ? path : this.s.base + path;
    const headers = new Headers(opts.headers);
    const key = opts.key === undefined ? this.s.options.apiKey : opts.key;
    if (key !== null) headers.set('Authorization', `Bearer ${key}`);
    let body: string | FormData | undefined;
    if (opts.form) body = opts.form;
    else if (opts.body !== undefined) {
      headers.set('Content-Type', 'application/json');
      body = JSON.stringify(opts.body);
    }
    const shown = typeof body === 'string' ? ` ${body.length > 200 ? `${body.slice(0, 200)}...` : body}` : body ? ' (multipart form)' : '';
    const keyNote = key === null ? ' (no key)' : opts.keyLabel ? ` (${opts.keyLabel})` : '';
    const requestLine = `${method.toUpperCase()} ${path}${shown}${keyNote}`;
    const timeoutMs = Math.max(1, Math.ceil(Math.min(this.s.limits.timeoutMs, this.s.deadline - performance.now())));
    const a = await exchange(this.s.send, new Request(url, { method: method.toUpperCase(), headers, body }), requestLine, {
      ...this.s.limits,
      timeoutMs,
      runSignal: this.s.runAbort.signal,
    });
    if (a.incomplete) {
      this.checkTime();
      if (++this.s.noAnswerInARow >= 3) this.stop(`the server stopped answering: ${a.error} (last request: ${requestLine})`);
    } else this.s.noAnswerInARow = 0;
    return a;
  }

  /** Moves the mock's clock, or waits (within the request timeout and the run's time) on a real server. */
  async pass(ms: number): Promise<void> {
    this.checkTime();
    if (this.s.control) {
      try {
        await this.s.control.advanceClock({ body: { ms } });
      } catch (e) {
        this.stop(`the mock's clock cannot be moved: ${(e as Error).message}`);
      }
    } else await new Promise((r) => setTimeout(r, Math.max(0, Math.min(ms, this.s.limits.timeoutMs, this.s.deadline - performance.now()))));
  }

  /** Sends and checks without recording: the final answer, and the problems of every answer (a 429 waited out and sent again, five times at most, the wait doubling). */
  async probe(
    op: SpecOperation,
    path: string,
    opts: SendOptions = {},
  ): Promise<{ answer: Answer; problems: { problem: Problem; answer: Answer }[]; ms: number }> {
    let a = await this.exchange(op.method, path, opts);
    let ms = a.durationMs;
    const problems: { problem: Problem; answer: Answer }[] = [];
    let wait = 0;
    for (let i = 0; i < 5 && a.status === 429; i++) {
      for (const p of answerProblems(op, a, this.s.validate)) problems.push({ problem: p, answer: a });
      this.s.retries++;
      const ra = Number(a.headers.get('retry-after'));
      // without a usable Retry-After: a minute on the mock's clock (a whole window), a second of real time; a 429
      // again doubles the wait (a Retry-After shorter than the limit's window: 2, 4, ... 32 s cover a minute)
      wait = Math.max(Number.isFinite(ra) && ra > 0 ? ra : this.s.control ? 60 : 1, wait * 2);
      await this.pass(wait * 1000);
      a = await this.exchange(op.method, path, opts);
      ms += a.durationMs;
    }
    for (const p of answerProblems(op, a, this.s.validate)) problems.push({ problem: p, answer: a });
    return { answer: a, problems, ms };
  }

  /** Sends, checks the answer and records one check `answer: <label>` (failed with the first problem). */
  async call(op: SpecOperation, path: string, opts: SendOptions, label: string): Promise<Answer> {
    const { answer, problems, ms } = await this.probe(op, path, opts);
    this.record(op, `answer: ${label}`, this.problemVerdict(problems), ms);
    return answer;
  }

  /** The verdict of a list of problems: the first one, the others named in its detail. */
  problemVerdict(problems: { problem: Problem; answer: Answer }[]): Verdict {
    if (!problems.length) return null;
    const [{ problem, answer }] = problems;
    const more =
      problems.length > 1
        ? `; also ${problems
            .slice(1)
            .map((p) => p.problem.violation)
            .join(', ')}`
        : '';
    return this.fail(answer, problem.violation, problem.detail + more, problem.cause);
  }

  /** Runs `work` over `items`, `concurrency` at once, each on a branch of the run; their checks are merged in the items' order. */
  async pool<T>(items: T[], work: (t: T, run: Run) => Promise<void>): Promise<void> {
    const branches = items.map(() => new Run(this.s));
    const queue = items.map((t, i) => [t, i] as const);
    const n = Math.max(1, this.s.options.concurrency ?? 4);
    let stop: Error | undefined;
    await Promise.all(
      Array.from({ length: Math.min(n, queue.length) }, async () => {
        for (let next = queue.shift(); next !== undefined && !stop; next = queue.shift()) {
          try {
            await work(next[0], branches[next[1]]);
          } catch (e) {
            stop ??= e as Error;
          }
        }
      }),
    );
    for (const b of branches) this.checks.push(...b.checks);
    if (stop) throw stop;
  }
}

/** The data of an envelope answer. */
export const dataOf = (a: Answer) => (a.json as { data?: Record<string, unknown> } | undefined)?.data;
/** The envelope's code. */
export const codeOf = (a: Answer) => (a.json as { code?: unknown } | undefined)?.code;
