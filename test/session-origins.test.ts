/**
 * Who may open a session, by origin (decisions/0019-sessions.md,
 * decisions/0011-control-api-protection.md): an API request opens one only
 * from no web page or a page of an origin the control API answers (this
 * machine's, --control-origin). A probe once evicted a CI worker's session
 * (its clock and tasks) with fetches from `http://evil.example` under
 * /sessions/evN/..., each with any `mg_` key: every such request now answers
 * 404 (10018) and opens nothing, over HTTP and through the fetch handler.
 */
import { describe, expect, it } from 'vitest';
import { createMock } from '../mock/index.ts';
import { createFetchHandler } from '../mock/web/fetch.ts';
import { errorCatalog } from '../schemas/errors.ts';
import { pathOf, videoBody } from './factories.ts';
import { KEY, sendRequest, useMocks } from './helpers.ts';

const mock = useMocks();
const TOKEN = 'tok-origins';
const MAX_SESSIONS = 4;
const EVIL = 'http://evil.example';

type Send = (method: string, path: string, headers?: Record<string, string>, body?: unknown) => Promise<{ status: number; json: any }>;

const key = (k = KEY) => ({ authorization: `Bearer ${k}` });
const control = { authorization: `Bearer ${TOKEN}` };

/** The probe, then the worker's session checked: `send` reaches a mock with MAX_SESSIONS sessions and TOKEN. */
async function probe(send: Send) {
  // a CI worker's session: a task and an advanced clock
  expect((await send('POST', `/sessions/worker${pathOf('createVideoTask')}`, { ...key(), 'content-type': 'application/json' }, videoBody())).status).toBe(200);
  expect((await send('POST', '/sessions/worker/__mock/clock/advance', { ...control, 'content-type': 'application/json' }, { ms: 1234 })).status).toBe(200);

  // more pages' requests than sessions fit, each naming a new one, each with a key of the API-key form
  const refused: { status: number; code: number }[] = [];
  for (let i = 0; i < 3 * MAX_SESSIONS; i++) {
    const headers: Record<string, string> = [{ origin: EVIL }, { referer: `${EVIL}/page.html` }, { 'sec-fetch-site': 'cross-site' }][i % 3];
    const r = await send('GET', `/sessions/ev${i}${pathOf('getSubscription')}`, { ...key(`mg_ev${i}_secret${i}`), ...headers });
    refused.push({ status: r.status, code: r.json?.code });
  }
  expect(refused).toEqual(Array.from({ length: 3 * MAX_SESSIONS }, () => ({ status: 404, code: errorCatalog.SESSION_NOT_FOUND.code })));

  const names = async () => ((await send('GET', '/__mock/sessions', control)).json.items as { name: string }[]).map((s) => s.name);
  expect(await names()).toEqual(['worker']);
  // the worker's session is whole: its task and its clock
  expect((await send('GET', `/sessions/worker${pathOf('listVideoTasks')}`, key())).json.data.total).toBe(1);
  const clock = async (session?: string) => (await send('GET', `${session ? `/sessions/${session}` : ''}/__mock/clock`, control)).json.now as number;
  expect((await clock('worker')) - (await clock())).toBe(1234);
  // an existing session answers a page of any origin, as the API does (only opening is refused)
  expect((await send('GET', `/sessions/worker${pathOf('getSubscription')}`, { ...key(), origin: EVIL })).status).toBe(200);

  // pages of this machine and of a listed origin, and tools (no page), open theirs
  for (const [name, headers] of [
    ['dev', { origin: 'http://localhost:5173' }],
    ['listed', { origin: 'https://app.example' }],
    ['tool', {}],
  ] as const)
    expect((await send('GET', `/sessions/${name}${pathOf('getSubscription')}`, { ...key(), ...headers })).status, name).toBe(200);
  expect(await names()).toEqual(['worker', 'dev', 'listed', 'tool']);
}

describe('sessions open only from allowed origins', () => {
  it('over HTTP: pages of another origin cannot open (or evict) sessions, even with a control token set', async () => {
    const m = await mock({ controlToken: TOKEN, maxSessions: MAX_SESSIONS, controlOrigins: ['https://app.example'] });
    await probe(async (method, path, headers = {}, body) => {
      const r = await sendRequest(m.base, method, path, { key: null, headers, body });
      return { status: r.status, json: r.json };
    });
  });

  it('through the in-process fetch (the server guard shared) and a fetch handler given an allow-list', async () => {
    const viaFetch =
      (handle: (r: Request) => Promise<Response>): Send =>
      async (method, path, headers = {}, body) => {
        const r = await handle(new Request(`http://localhost:4010${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
        const text = await r.text();
        return { status: r.status, json: text ? JSON.parse(text) : undefined };
      };
    const inProcess = createMock({ controlToken: TOKEN, maxSessions: MAX_SESSIONS, controlOrigins: ['https://app.example'] });
    await probe(viaFetch((r) => inProcess.fetch(r)));

    const handler = createFetchHandler({ seed: 1, clock: 'manual', control: { origins: ['https://app.example'], token: TOKEN } });
    // a fetch handler's own worlds keep the default number of sessions: the probe's bound is checked above
    const send = viaFetch(handler);
    const r = await send('GET', `/sessions/ev${pathOf('getSubscription')}`, { ...key(), origin: EVIL });
    expect([r.status, r.json.code]).toEqual([404, errorCatalog.SESSION_NOT_FOUND.code]);
    expect((await send('GET', `/sessions/ok${pathOf('getSubscription')}`, { ...key(), origin: 'https://app.example' })).status).toBe(200);
    expect(((await send('GET', '/__mock/sessions', control)).json.items as { name: string }[]).map((s) => s.name)).toEqual(['ok']);
  });
});
