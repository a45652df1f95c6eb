/**
 * One control plane for every transport (docs/architecture.md, "The control
 * API", "Transports"): one scripted control session (clock, accounts,
 * scenarios, OAuth authorization, state save and load, sessions, journal) run
 * over HTTP against the server, through the in-process mock's socket-free
 * fetch, through MSW's setupServer, and through the typed control client of
 * createMock gives the same statuses and the same JSON bodies.
 */
import { setupServer } from 'msw/node';
import { afterAll, describe, expect, it } from 'vitest';
import { createMock } from '../mock/index.ts';
import { createMockHandlers } from '../mock/web/msw.ts';
import { imageBody, pathOf } from './factories.ts';
import { KEY } from './helpers.ts';

const SEED = 77;

/** One step's answer: its status and JSON body. */
interface Step {
  step: string;
  status: number;
  json: unknown;
}

type Send = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<{ status: number; json: unknown }>;

/** The scripted control session. Paths are relative to the mock's base URL. */
async function script(send: Send): Promise<Step[]> {
  const out: Step[] = [];
  const step = async (name: string, method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
    const r = await send(method, path, body, headers);
    out.push({ step: name, ...r });
    return r.json as { data?: Record<string, unknown> } & Record<string, unknown>;
  };
  const auth = { authorization: `Bearer ${KEY}` };
  await step('health', 'GET', '/__mock/health');
  await step('clock', 'GET', '/__mock/clock');
  await step('set account', 'PUT', `/__mock/accounts/${KEY}`, { credits: 500, plan: 'paid' });
  await step('scenario', 'POST', '/__mock/scenarios', { apiKey: KEY, operationId: 'createImageTask', outcome: 'failed' });
  await step('scenarios', 'GET', '/__mock/scenarios');
  const created = await step('create image (forced to fail)', 'POST', pathOf('createImageTask'), imageBody(), auth);
  await step('next event', 'GET', '/__mock/clock/next');
  await step('advance', 'POST', '/__mock/clock/advance', { ms: 600_000 });
  const taskId = (created.data as { taskId?: string } | undefined)?.taskId ?? 'none';
  await step('task', 'GET', pathOf('getImageTask', { taskId }), undefined, auth);
  await step('account and ledger', 'GET', `/__mock/accounts/${KEY}`);
  await step('journal', 'GET', '/__mock/requests?operationId=createImageTask');
  await step('journal count', 'GET', '/__mock/requests/count');
  const login = await step('login session', 'POST', pathOf('startLoginSession'), { callbackPort: 53682, state: 'x7Kp2' });
  const sessionId = (login.data as { sessionId?: string } | undefined)?.sessionId ?? 'none';
  const users = await step('users', 'GET', '/__mock/users');
  const userId = (users.items as { userId: string }[] | undefined)?.[0]?.userId;
  await step('authorize', 'POST', `/__mock/oauth/sessions/${sessionId}/authorize`, { userId });
  await step('login sessions', 'GET', '/__mock/oauth/sessions');
  const state = await step('state', 'GET', '/__mock/state');
  await step('reset', 'POST', '/__mock/reset', {});
  await step('state loaded', 'PUT', '/__mock/state', state);
  await step('state after load', 'GET', `/__mock/accounts/${KEY}`);
  await step('session opened', 'POST', '/sessions/w1/__mock/clock/advance', { ms: 1000 });
  await step('session clock', 'GET', '/__mock/clock', undefined, { 'x-mock-session': 'w1' });
  await step('sessions', 'GET', '/__mock/sessions');
  await step('session dropped', 'DELETE', '/__mock/sessions/w1');
  await step('bad request', 'POST', '/__mock/clock/advance', { ms: -1 });
  await step('unknown control path', 'GET', '/__mock/nothing');
  return out;
}

/** A Send over `fetch` at `base`. */
const over =
  (base: string, fetchFn: (r: Request) => Promise<Response>): Send =>
  async (method, path, body, headers = {}) => {
    const r = await fetchFn(
      new Request(base + path, {
        method,
        headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    const text = await r.text();
    return { status: r.status, json: text ? (JSON.parse(text) as unknown) : null };
  };

describe('one scripted control session over every transport', () => {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const c of cleanup) await c();
  });

  it('gives the same statuses and bodies over HTTP, the fetch handler, MSW (setupServer) and createMock', async () => {
    // HTTP: the server on a socket
    const server = createMock({ seed: SEED });
    const url = await server.listen();
    cleanup.push(() => server.close());
    const http = await script(over(url, (r) => fetch(r)));

    // the in-process mock's socket-free fetch (its own mock, same seed)
    const inProcess = createMock({ seed: SEED });
    const viaFetch = await script(over('http://localhost:4010', (r) => inProcess.fetch(r)));

    // MSW in Node: the handlers behind the global fetch
    const BASE = 'http://mock.test';
    const handlers = createMockHandlers({ baseUrl: BASE, seed: SEED });
    const msw = setupServer(...handlers.handlers);
    msw.listen({ onUnhandledRequest: 'error' });
    cleanup.push(() => msw.close());
    const viaMsw = await script(over(BASE, (r) => fetch(r)));
    msw.close();

    // media URLs carry each transport's origin: compare them with the origin taken out
    const strip = (steps: Step[], origin: string) => JSON.parse(JSON.stringify(steps).split(origin).join('<base>')) as Step[];
    const expected = strip(http, url);
    expect(expected.every((s) => s.status < 500)).toBe(true);
    expect(expected.find((s) => s.step === 'authorize')?.status).toBe(200);
    expect((expected.find((s) => s.step === 'sessions')?.json as { items: { name: string }[] }).items.map((s) => s.name)).toEqual(['w1']);
    expect(expected.find((s) => s.step === 'bad request')?.status).toBe(400);
    expect(strip(viaFetch, 'http://localhost:4010')).toEqual(expected);
    expect(strip(viaMsw, BASE)).toEqual(expected);
  });

  it('the typed control client answers as the HTTP path does (names are the operationIds)', async () => {
    const a = createMock({ seed: SEED });
    const b = createMock({ seed: SEED });
    const url = await b.listen();
    cleanup.push(() => b.close());
    await a.control.putAccount({ params: { apiKey: KEY }, body: { credits: 123 } });
    const advanced = await a.control.advanceClock({ body: { ms: 5000 } });
    const account = await a.control.getAccount({ params: { apiKey: KEY } });
    const send = over(url, (r) => fetch(r));
    await send('PUT', `/__mock/accounts/${KEY}`, { credits: 123 });
    expect(advanced).toEqual((await send('POST', '/__mock/clock/advance', { ms: 5000 })).json);
    expect(account).toEqual((await send('GET', `/__mock/accounts/${KEY}`)).json);
    await expect(a.control.advanceClock({ body: { ms: -1 } })).rejects.toMatchObject({ status: 400, code: 10008 });
  });
});
