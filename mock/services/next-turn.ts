/**
 * Yielding to the event loop between slices of a long piece of work (a large
 * state document parsed and checked: docs/architecture.md, "The control API"),
 * so the requests that arrive meanwhile are answered. Standard JavaScript
 * only: `setImmediate` where the platform has it (Node: after the I/O that is
 * ready), else a `MessageChannel` message (browsers and service workers, where
 * `setTimeout(0)` is clamped to 4 ms once nested).
 */

/** Resolves on a later turn of the event loop, after the I/O and timers already due. */
export function nextTurn(): Promise<void> {
  const immediate = (globalThis as { setImmediate?: (f: () => void) => unknown }).setImmediate;
  if (typeof immediate === 'function') return new Promise((resolve) => void immediate(resolve));
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(undefined);
  });
}

/**
 * Runs `steps` (a generator that yields between slices of its work) to its
 * end, on the next turn of the event loop after each slice; resolves with what
 * it returns, rejects with what it throws.
 */
export async function runInTurns<T>(steps: Generator<void, T, void>): Promise<T> {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    await nextTurn();
  }
}

/** Runs `steps` to its end at once, without yielding (where nothing else waits: a start-up, a test). */
export function runAtOnce<T>(steps: Generator<void, T, void>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}
