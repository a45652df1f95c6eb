/**
 * Retries (client/retry.ts), in-process and over HTTP, the waits on the
 * client clock (the mock's virtual clock): answers 429 forced by a scenario
 * rule of the control API and the real rate limit of video creates (5 a
 * minute, its Retry-After the rest of the window) are retried after their
 * Retry-After when the caller opts in for creates, and not otherwise; reads are
 * retried by default, also on a network error (creates are not); the budget
 * (retries, total wait) bounds it all, and the last answer's ApiError carries
 * its Retry-After.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isApiError, realClock, type ApiError } from '../client/index.ts';
import { clientHarness, CLIENT_KEY, transports, type ClientHarness } from './client-harness.ts';

const videoBody = { model: 'family1-video-2-fast' as const, content: [{ type: 'text' as const, text: 'a fox in the snow' }] };
let h: ClientHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});
const count = async (operationId: string) => ((await h!.control.countRequests({ query: { operationId } })) as { count: number }).count;

describe.each(transports)('retries (%s)', (transport) => {
  it('a create answered 429 twice (a scenario rule) succeeds on the third attempt when the caller opts in, after each Retry-After', async () => {
    h = await clientHarness(transport);
    await h.control.addScenario({ body: { apiKey: CLIENT_KEY, operationId: 'createVideoTask', code: 429, times: 2 } });
    // two waits of 60 s: over the default budget of 60 s in all, so this call's own
    const created = await h.client.call('createVideoTask', { body: videoBody, retry: { creates: true, maxWaitMs: 120_000 } });
    expect(created.status).toBe('generating');
    expect(await count('createVideoTask')).toBe(3);
    // the forced 429 of an operation with a rate limit says: wait the window (60 s)
    expect(h.sleeps).toEqual([60_000, 60_000]);
  });

  it('a create is not retried by default: the 429 is an ApiError with its Retry-After', async () => {
    h = await clientHarness(transport);
    await h.control.addScenario({ body: { apiKey: CLIENT_KEY, operationId: 'createVideoTask', code: 429 } });
    const e = (await h.client.call('createVideoTask', { body: videoBody }).catch((x: unknown) => x)) as ApiError;
    expect(isApiError(e, 'VIDEO_RATE_LIMITED')).toBe(true);
    expect([e.status, e.retryAfter]).toEqual([429, 60]);
    expect(await count('createVideoTask')).toBe(1);
    expect(h.sleeps).toEqual([]);
  });

  it('the real rate limit: the sixth create in a minute waits the rest of the window (Retry-After), then succeeds', async () => {
    h = await clientHarness(transport, { retry: { creates: true, maxWaitMs: 120_000 } });
    for (let i = 0; i < 5; i++) await h.client.call('createVideoTask', { body: videoBody });
    await h.control.advanceClock({ body: { ms: 20_000 } });
    const sixth = await h.client.call('createVideoTask', { body: videoBody });
    expect(sixth.status).toBe('generating');
    // the window opened at the first create, 20 s ago: 40 s left
    expect(h.sleeps).toEqual([40_000]);
    expect(await count('createVideoTask')).toBe(7);
  });

  it('the budget bounds the retries: a Retry-After beyond maxWaitMs is not waited for', async () => {
    h = await clientHarness(transport, { retry: { creates: true, maxWaitMs: 30_000 } });
    await h.control.addScenario({ body: { apiKey: CLIENT_KEY, operationId: 'createVideoTask', code: 429 } });
    const e = (await h.client.call('createVideoTask', { body: videoBody }).catch((x: unknown) => x)) as ApiError;
    expect([e.name, e.retryAfter]).toEqual(['VIDEO_RATE_LIMITED', 60]);
    expect(h.sleeps).toEqual([]);
  });

  it('the budget bounds the retries: after maxRetries the last answer is the error', async () => {
    h = await clientHarness(transport, { retry: { creates: true, maxRetries: 2, maxWaitMs: 600_000 } });
    await h.control.addScenario({ body: { apiKey: CLIENT_KEY, operationId: 'createVideoTask', code: 429, times: 5 } });
    const e = (await h.client.call('createVideoTask', { body: videoBody }).catch((x: unknown) => x)) as ApiError;
    expect(e.status).toBe(429);
    expect(await count('createVideoTask')).toBe(3);
    expect(h.sleeps).toHaveLength(2);
  });

  it('a 503 of voice-clone confirmation (its own Retry-After, 5 s) is retried when opted in', async () => {
    h = await clientHarness(transport);
    await h.control.addScenario({ body: { apiKey: CLIENT_KEY, operationId: 'confirmVoiceClone', code: 503 } });
    // the confirmation of a task that does not exist: after the 503, the real answer (404) comes through
    const e = (await h.client
      .call('confirmVoiceClone', { body: { taskId: 'vc_missing', name: 'Ava', gender: 'female' }, retry: true })
      .catch((x: unknown) => x)) as ApiError;
    expect(h.sleeps).toEqual([5_000]);
    expect(e.name).toBe('VOICE_CLONE_TASK_NOT_FOUND');
  });

  it('a read is retried on 503 and on a network error by default; a create on a network error is not', async () => {
    let failures = 0;
    const gate = { busy: 1, down: 1 };
    h = await clientHarness(transport, {}, (send) => async (r) => {
      if (r.method === 'GET' && gate.busy-- > 0)
        return new Response('{"code":10019,"message":"busy","data":null}', { status: 503, headers: { 'Retry-After': '3' } });
      if (gate.down-- > 0) {
        failures++;
        throw new TypeError('fetch failed');
      }
      return send(r);
    });
    const sub = await h.client.call('getSubscription');
    expect(sub.balance).toBeGreaterThan(0);
    // 503 (its Retry-After, 3 s), then a network failure (the backoff of a second retry, 1 s), then the answer
    expect(h.sleeps).toEqual([3_000, 1_000]);
    expect(failures).toBe(1);
    gate.down = 1;
    const e: unknown = await h.client.call('createVideoTask', { body: videoBody }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(TypeError);
    expect(await count('createVideoTask')).toBe(0);
  });

  it('openapi-fetch calls (client.GET) are retried too, and retry: false turns it off', async () => {
    let busy = 1;
    const wrap = (send: (r: Request) => Promise<Response>) => (r: Request) =>
      busy-- > 0
        ? Promise.resolve(new Response('{"code":29998,"message":"slow down","data":null}', { status: 429, headers: { 'Retry-After': '2' } }))
        : send(r);
    h = await clientHarness(transport, {}, wrap);
    const { data } = await h.client.GET('/v1/user/subscription');
    expect(data?.code).toBe(0);
    expect(h.sleeps).toEqual([2_000]);
    await h.close();
    busy = 1;
    h = await clientHarness(transport, { retry: false }, wrap);
    const off = await h.client.GET('/v1/user/subscription');
    expect(off.response.status).toBe(429);
    expect(h.sleeps).toEqual([]);
  });
});

describe('realClock (the default: timers)', () => {
  it('sleep resolves after its time and rejects with the reason when aborted first', async () => {
    vi.useFakeTimers();
    try {
      let done = false;
      const slept = realClock.sleep(1_000).then(() => (done = true));
      await vi.advanceTimersByTimeAsync(999);
      expect(done).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await slept;
      expect(done).toBe(true);
      const abort = new AbortController();
      const stopped = realClock.sleep(60_000, abort.signal);
      abort.abort(new Error('left'));
      await expect(stopped).rejects.toThrow('left');
      expect(vi.getTimerCount()).toBe(0);
      await expect(realClock.sleep(10, abort.signal)).rejects.toThrow('left');
    } finally {
      vi.useRealTimers();
    }
  });
});
