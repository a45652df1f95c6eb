/**
 * The verifier's time limits hold after a garbage collection (verify/deadline.ts).
 *
 * In Node 20 a fetch whose signal came from `AbortSignal.timeout` and
 * `AbortSignal.any`, through a copied `Request`, could lose that signal in a
 * collection. The timeout then fired into nothing, and a request to a server
 * that never answers waited for ever. A run with `--max-duration 1` hung for
 * over 60 s while other suites loaded the process.
 *
 * Each case here forces a full collection 50 ms into a request to a silent
 * server. It then expects the exchange to end with the verifier's own words
 * for a time limit or a stopped run. A hang fails the case at vitest's time
 * limit, however slow the machine.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exchange } from '../verify/answers.ts';
import { sendWithin } from '../verify/deadline.ts';
import { silent, type Listening } from './verify-servers.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
/** Collects twice, `ms` from now (the exchange under test is pending by then). */
const collectIn = (ms: number) => setTimeout(() => (gc(), gc()), ms);
const LIMITS = { maxBodyBytes: 1 << 20, maxMediaBytes: 1 << 20 };

let server: Listening;
beforeAll(async () => {
  server = await silent();
});
afterAll(() => server.close());

describe('a time limit survives a garbage collection', () => {
  it("an exchange with a silent server ends at its time limit with 'no complete answer'", async () => {
    collectIn(50);
    const a = await exchange(fetch, new Request(server.url + '/v1/user/subscription'), 'GET /v1/user/subscription', {
      ...LIMITS,
      timeoutMs: 300,
      runSignal: new AbortController().signal,
    });
    expect(a.status).toBe(0);
    expect(a.incomplete).toBe(true);
    expect(a.error).toBe('no complete answer within 0.3 s');
  }, 30_000);

  it("a stop of the run ends an exchange still waiting: 'the run was stopped'", async () => {
    const run = new AbortController();
    collectIn(50);
    setTimeout(() => run.abort(), 200);
    const a = await exchange(fetch, new Request(server.url + '/v1/user/subscription'), 'GET /v1/user/subscription', {
      ...LIMITS,
      timeoutMs: 600_000,
      runSignal: run.signal,
    });
    expect(a.status).toBe(0);
    expect(a.error).toBe('the run was stopped');
  }, 30_000);

  it('a control request (sendWithin) to a silent server rejects with a TimeoutError', async () => {
    collectIn(50);
    const send = sendWithin(fetch, 300, new AbortController().signal);
    await expect(send(new Request(server.url + '/__mock/clock/advance', { method: 'POST', body: '{"ms":1}' }))).rejects.toMatchObject({ name: 'TimeoutError' });
  }, 30_000);

  it('an answer comes back whole through sendWithin, status and headers kept, before its time limit', async () => {
    const send = sendWithin(async () => new Response('{"ok":true}', { status: 201, headers: { 'content-type': 'application/json' } }), 60_000);
    const res = await send(new Request('http://127.0.0.1/'));
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({ ok: true });
  });
});
