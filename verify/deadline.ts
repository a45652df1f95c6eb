/**
 * The time limit of one exchange, made to hold after a garbage collection
 * (docs/guides/verify.md, "Every run ends").
 *
 * Node 20's `AbortSignal.timeout` and `AbortSignal.any` signals, and a `Request`
 * copied with a signal, are held only weakly by what aborts them. After a
 * collection in the middle of an exchange, the signal of a pending fetch can be
 * gone: its timer fires into nothing, and a request to a server that never
 * answers waits for ever. This happened in a run against a silent server: the
 * run should have stopped at `--max-duration 1` and hung for over 60 s. The
 * same fetch with one collection 50 ms in hung every time. It is reported
 * upstream as nodejs/undici#4068 and nodejs/node#55428.
 *
 * So the verifier uses one `AbortController` of its own per exchange, held
 * here until the exchange ends. Its own timer aborts it with a `TimeoutError`,
 * and a stop of the whole run aborts it with the run's reason. The copy of the
 * request that carries its signal is held too.
 */

/** What sends a request (the global `fetch`, or the caller's). */
export type Send = (r: Request) => Promise<Response>;

/** One exchange's deadline: `signal` aborts after `timeoutMs` (a `TimeoutError`) or when `runSignal` does (its reason). Call `end` when the exchange is over, answered or not. */
export class Deadline {
  private readonly controller = new AbortController();
  private readonly timer: ReturnType<typeof setTimeout>;
  /** The copy of the request that carries `signal`, held until `end` (see the file's comment). */
  private held: Request | undefined;

  /**
   * @param timeoutMs time for the whole exchange, ms
   * @param runSignal the run's signal (a stop of the run ends every exchange)
   */
  constructor(
    timeoutMs: number,
    private readonly runSignal?: AbortSignal,
  ) {
    this.timer = setTimeout(() => this.controller.abort(new DOMException(`no complete answer within ${timeoutMs} ms`, 'TimeoutError')), timeoutMs);
    if (runSignal?.aborted) this.onRunAbort();
    else runSignal?.addEventListener('abort', this.onRunAbort, { once: true });
  }

  /** Aborts once the time is up (a `TimeoutError`) or the run is stopped (the run's reason, an `AbortError` by default). */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Sends `request` through `send` with this deadline's signal, redirects not followed. */
  send(send: Send, request: Request): Promise<Response> {
    this.held = new Request(request, { signal: this.signal, redirect: 'manual' });
    return send(this.held);
  }

  /** Ends the deadline: its timer and its listener on the run go. */
  end(): void {
    clearTimeout(this.timer);
    this.runSignal?.removeEventListener('abort', this.onRunAbort);
    this.held = undefined;
  }

  private readonly onRunAbort = (): void => this.controller.abort(this.runSignal?.reason);
}

/**
 * A `Send` whose exchanges each end within `timeoutMs` or when `runSignal`
 * aborts, body included. The body is read whole before the answer is returned,
 * so the caller reads it from memory. Used for the mock's control API during a
 * run. Rejects with the signal's reason.
 */
export function sendWithin(send: Send, timeoutMs: number, runSignal?: AbortSignal): Send {
  return async (request) => {
    const d = new Deadline(timeoutMs, runSignal);
    try {
      const res = await d.send(send, request);
      const body = await Promise.race([res.arrayBuffer(), aborted(d.signal)]);
      return new Response(res.status === 204 || res.status === 304 ? null : body, { status: res.status, statusText: res.statusText, headers: res.headers });
    } finally {
      d.end();
    }
  };
}

/** A promise that rejects with `signal`'s reason once it aborts (never resolves). */
export function aborted(signal: AbortSignal): Promise<never> {
  const p = new Promise<never>((_, reject) => {
    const stop = () => reject(signal.reason as Error);
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
  });
  p.catch(() => {});
  return p;
}
