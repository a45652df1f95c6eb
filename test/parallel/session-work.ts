/**
 * What each parallel worker does (test/parallel-sessions.test.ts): in its own
 * session it resets with its own seed, then advances its clock and creates
 * tasks in small steps, checking after each step that the clock, the task
 * count and the journal are exactly its own. Other workers do the same at the
 * same time against the same mock process.
 */
import { expect, it } from 'vitest';

const base = process.env.MOCK_URL!;
const KEY = 'mg_parallel_secret1';

/** The steps of worker `n` (1-based). */
export function work(n: number): void {
  const session = `worker-${n}`;
  const headers = { 'x-mock-session': session, 'content-type': 'application/json' };
  const call = async (method: string, path: string, body?: unknown, auth = false) => {
    const res = await fetch(base + path, {
      method,
      headers: { ...headers, ...(auth ? { authorization: `Bearer ${KEY}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await res.json()) as Record<string, any>;
  };

  it(`worker ${n}: its clock, seed, tasks and journal stay its own`, async () => {
    const reset = await call('POST', '/__mock/reset', { seed: 1000 + n });
    expect(reset.seed).toBe(1000 + n);
    const start = (await call('GET', '/__mock/clock')).now as number;
    let elapsed = 0;
    for (let step = 1; step <= 12; step++) {
      const ms = n * 15_000 + step; // at most 4 creates a minute: under the video rate limit
      elapsed += ms;
      expect((await call('POST', '/__mock/clock/advance', { ms })).now).toBe(start + elapsed);
      const created = await call(
        'POST',
        '/v1/video-generation/generate',
        { model: 'family1-video-2-fast', content: [{ type: 'text', text: `worker ${n} step ${step}` }] },
        true,
      );
      expect(created.code).toBe(0);
      const list = await call('GET', '/v1/video-generation/tasks', undefined, true);
      expect(list.data.total).toBe(step);
      expect((await call('GET', '/__mock/health')).seed).toBe(1000 + n);
      await new Promise((r) => setTimeout(r, 5));
    }
    const journal = (await call('GET', '/__mock/requests')).items as { operationId: string }[];
    expect(journal).toHaveLength(24);
  });
}
