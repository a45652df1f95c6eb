/**
 * One control plane for every transport (docs/architecture.md, "The control
 * API", "Transports"): one scripted control session (clock, accounts,
 * scenarios, OAuth authorization, state save and load, sessions, journal) run
 * over HTTP against the server, through the in-process mock's socket-free
 * fetch, through MSW's setupServer, and through the typed control client of
 * createMock gives the same statuses and the same JSON bodies; each step's
 * status and the body facts the script determines are also checked on every
 * transport against values written here by hand.
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
type Json = { data?: Record<string, unknown> } & Record<string, unknown>;

/** The mock's default start time (its manual clock starts at 2026-01-01T00:00:00Z). */
const START = Date.UTC(2026, 0, 1);

/** A value a step needs from an earlier answer; a missing one fails the test here, naming the step. */
function need<T>(value: T | undefined | null, what: string): T {
  if (value === undefined || value === null) throw new Error(`control session: ${what} is missing`);
  return value;
}

/**
 * The scripted control session. Paths are relative to the mock's base URL. Every step states its expected status and
 * the part of its body the script determines (written by hand from the control document and the script itself: the
 * clock it moved, the credits it set, the outcome it forced), checked on each transport as it runs.
 */
async function script(send: Send): Promise<Step[]> {
  const out: Step[] = [];
  const step = async (
    name: string,
    method: string,
    path: string,
    expected: { status: number; body?: object },
    body?: unknown,
    headers?: Record<string, string>,
  ) => {
    const r = await send(method, path, body, headers);
    out.push({ step: name, ...r });
    expect(r.status, `${name}: status`).toBe(expected.status);
    if (expected.body) expect(r.json, `${name}: body`).toMatchObject(expected.body);
    return r.json as Json;
  };
  const auth = { authorization: `Bearer ${KEY}` };
  await step('health', 'GET', '/__mock/health', { status: 200, body: { status: 'ok', seed: SEED } });
  await step('clock', 'GET', '/__mock/clock', { status: 200, body: { now: START, mode: 'manual' } });
  await step(
    'set account',
    'PUT',
    `/__mock/accounts/${KEY}`,
    { status: 200, body: { apiKey: KEY, credits: 500, plan: 'paid' } },
    { credits: 500, plan: 'paid' },
  );
  await step(
    'scenario',
    'POST',
    '/__mock/scenarios',
    { status: 200, body: { apiKey: KEY, operationIds: ['createImageTask'], outcome: 'failed', remaining: 1 } },
    { apiKey: KEY, operationId: 'createImageTask', outcome: 'failed' },
  );
  const scenarios = await step('scenarios', 'GET', '/__mock/scenarios', { status: 200 });
  expect(scenarios.items).toHaveLength(1);
  const created = await step(
    'create image (forced to fail)',
    'POST',
    pathOf('createImageTask'),
    { status: 202, body: { code: 0, data: { status: 'pending' } } },
    imageBody(),
    auth,
  );
  const next = await step('next event', 'GET', '/__mock/clock/next', { status: 200 });
  expect(next.inMs).toBeGreaterThan(0);
  const advanced = await step('advance', 'POST', '/__mock/clock/advance', { status: 200, body: { now: START + 600_000 } }, { ms: 600_000 });
  expect(advanced.eventsRun).toBeGreaterThanOrEqual(1);
  const taskId = need((created.data as { taskId?: string } | undefined)?.taskId, 'the created task id');
  // the scenario forced the task to fail: failed, and its credits refunded (the balance set above)
  await step('task', 'GET', pathOf('getImageTask', { taskId }), { status: 200, body: { code: 0, data: { taskId, status: 'fail' } } }, undefined, auth);
  await step('account and ledger', 'GET', `/__mock/accounts/${KEY}`, { status: 200, body: { credits: 500 } });
  await step('journal', 'GET', '/__mock/requests?operationId=createImageTask', {
    status: 200,
    body: { items: [{ method: 'POST', operationId: 'createImageTask', status: 202 }] },
  });
  // the API requests so far: the create and the task read (control requests are not journaled)
  await step('journal count', 'GET', '/__mock/requests/count', { status: 200, body: { count: 2 } });
  const login = await step('login session', 'POST', pathOf('startLoginSession'), { status: 200, body: { code: 0 } }, { callbackPort: 53682, state: 'x7Kp2' });
  const sessionId = need((login.data as { sessionId?: string } | undefined)?.sessionId, 'the login session id');
  const users = await step('users', 'GET', '/__mock/users', { status: 200 });
  const userId = need((users.items as { userId: string }[] | undefined)?.[0]?.userId, 'a seeded user');
  const authorized = await step('authorize', 'POST', `/__mock/oauth/sessions/${sessionId}/authorize`, { status: 200, body: { userId } }, { userId });
  expect(String(authorized.redirectUrl)).toMatch(/^http:\/\/127\.0\.0\.1:53682\/\?code=[^&]+&state=x7Kp2$/);
  await step('login sessions', 'GET', '/__mock/oauth/sessions', { status: 200, body: { items: [{ sessionId, status: 'authorized', userId }] } });
  const state = await step('state', 'GET', '/__mock/state', {
    status: 200,
    body: { format: 'mediagen-mock-state', state: { seed: SEED, now: START + 600_000 } },
  });
  await step('reset', 'POST', '/__mock/reset', { status: 200, body: { seed: SEED, now: START } }, {});
  await step('state loaded', 'PUT', '/__mock/state', { status: 200, body: { seed: SEED, now: START + 600_000, tasks: 1 } }, state);
  await step('state after load', 'GET', `/__mock/accounts/${KEY}`, { status: 200, body: { credits: 500, plan: 'paid' } });
  // a new session is a new world: its clock starts at START, then the advance
  await step('session opened', 'POST', '/sessions/w1/__mock/clock/advance', { status: 200, body: { now: START + 1000, eventsRun: 0 } }, { ms: 1000 });
  await step('session clock', 'GET', '/__mock/clock', { status: 200, body: { now: START + 1000 } }, undefined, { 'x-mock-session': 'w1' });
  await step('sessions', 'GET', '/__mock/sessions', { status: 200, body: { items: [{ name: 'w1', now: START + 1000 }] } });
  await step('session dropped', 'DELETE', '/__mock/sessions/w1', { status: 200, body: { name: 'w1', existed: true } });
  await step('bad request', 'POST', '/__mock/clock/advance', { status: 400, body: { code: 10008, data: null } }, { ms: -1 });
  await step('unknown control path', 'GET', '/__mock/nothing', { status: 404, body: { code: 10004, data: null } });
  expect(out).toHaveLength(26);
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
