/**
 * One request entry for every transport (mock/core/front.ts,
 * docs/architecture.md, "The request path"): what is decided before an
 * operation runs (the session and who opens one, the control guard and which
 * control requests need no token, the journal, unknown paths and wrong
 * methods, query folding) gives the same answers, the same sessions and the
 * same journal over HTTP and through the fetch handler. These once drifted:
 * the fetch handler opened any session a request named (media included),
 * journaled a bad session name and the documents' paths, and let an unknown
 * control path through without the control token.
 */
import { describe, expect, it } from 'vitest';
import { createMock, type InProcessMock } from '../mock/index.ts';
import { errorCatalog } from '../schemas/errors.ts';
import { pathOf } from './factories.ts';
import { KEY, sendRequest } from './helpers.ts';

const TOKEN = 'tok-front';
const OPTIONS = { seed: 5, controlToken: TOKEN, maxSessions: 8 } as const;

interface Case {
  what: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  /** The status and envelope code the documents and decisions give (decisions/0011, 0019; document 1, "Errors"). */
  status: number;
  code?: number;
}

const key = { authorization: `Bearer ${KEY}` };
const control = { authorization: `Bearer ${TOKEN}` };
const { SESSION_NOT_FOUND, CONTROL_FORBIDDEN, MALFORMED_REQUEST, METHOD_NOT_ALLOWED, ROUTE_NOT_FOUND, UNAUTHORIZED } = errorCatalog;

const CASES: Case[] = [
  { what: 'media in an unknown session (prefix)', method: 'GET', path: '/sessions/m1/media/videos/vt_x.mp4', status: 404, code: SESSION_NOT_FOUND.code },
  {
    what: 'media in an unknown session (header)',
    method: 'GET',
    path: '/media/videos/vt_x.mp4',
    headers: { 'x-mock-session': 'm2' },
    status: 404,
    code: SESSION_NOT_FOUND.code,
  },
  {
    what: 'an API request without a key in an unknown session',
    method: 'GET',
    path: `/sessions/m3${pathOf('getSubscription')}`,
    status: 404,
    code: SESSION_NOT_FOUND.code,
  },
  { what: 'the documents in an unknown session', method: 'GET', path: '/sessions/m4/openapi.json', status: 404, code: SESSION_NOT_FOUND.code },
  {
    what: 'a session name that is none',
    method: 'GET',
    path: pathOf('getSubscription'),
    headers: { ...key, 'x-mock-session': 'a b' },
    status: 400,
    code: MALFORMED_REQUEST.code,
  },
  { what: 'an unknown control path without the token', method: 'GET', path: '/__mock/nothing', status: 403, code: CONTROL_FORBIDDEN.code },
  { what: 'an unknown control path with the token', method: 'GET', path: '/__mock/nothing', headers: control, status: 404, code: ROUTE_NOT_FOUND.code },
  { what: 'health, open, without the token', method: 'GET', path: '/__mock/health', status: 200 },
  {
    what: 'health with another method, without the token (no open operation)',
    method: 'POST',
    path: '/__mock/health',
    status: 403,
    code: CONTROL_FORBIDDEN.code,
  },
  { what: 'health with another method, with the token', method: 'POST', path: '/__mock/health', headers: control, status: 405, code: METHOD_NOT_ALLOWED.code },
  { what: 'a guarded control operation without the token', method: 'GET', path: '/__mock/clock', status: 403, code: CONTROL_FORBIDDEN.code },
  { what: 'an API path with another method', method: 'DELETE', path: pathOf('getSubscription'), headers: key, status: 405, code: METHOD_NOT_ALLOWED.code },
  { what: 'an unknown API path', method: 'GET', path: '/v1/nothing-here', headers: key, status: 404, code: ROUTE_NOT_FOUND.code },
  { what: 'an API request without a key', method: 'GET', path: pathOf('getSubscription'), status: 401, code: UNAUTHORIZED.code },
  {
    what: 'a repeated query parameter (folded into a list, refused by its schema)',
    method: 'GET',
    path: `${pathOf('listVideoTasks')}?page=1&page=2`,
    headers: key,
    status: 400,
  },
  { what: 'an API request with a key opens its session', method: 'GET', path: `/sessions/k1${pathOf('getSubscription')}`, headers: key, status: 200 },
  { what: 'a control request with the token opens its session', method: 'GET', path: '/sessions/c1/__mock/clock', headers: control, status: 200 },
];

type Send = (method: string, path: string, headers: Record<string, string>) => Promise<{ status: number; json: any; allow: string | null }>;

/** Sends every case through `send`; returns each answer, the sessions and the default world's and k1's journals. */
async function run(send: Send) {
  const answers = [];
  for (const c of CASES) {
    const r = await send(c.method, c.path, c.headers ?? {});
    answers.push({ what: c.what, status: r.status, code: r.json?.code as number | undefined, message: r.json?.message as string | undefined, allow: r.allow });
  }
  const sessions = ((await send('GET', '/__mock/sessions', control)).json.items as { name: string }[]).map((s) => s.name);
  const journal = async (headers: Record<string, string>) =>
    (
      (await send('GET', '/__mock/requests', { ...control, ...headers })).json.items as { method: string; path: string; status: number; code: number | null }[]
    ).map((e) => `${e.method} ${e.path} ${e.status} ${e.code}`);
  return { answers, sessions, journal: await journal({}), sessionJournal: await journal({ 'x-mock-session': 'k1' }) };
}

describe('one request entry (mock/core/front.ts)', () => {
  it('HTTP and the fetch handler answer, open sessions and journal alike', async () => {
    const overHttp: InProcessMock = createMock(OPTIONS);
    const base = await overHttp.listen();
    let http;
    try {
      http = await run(async (method, path, headers) => {
        const r = await sendRequest(base, method, path, { key: null, headers });
        return { status: r.status, json: r.json, allow: r.headers.get('allow') };
      });
    } finally {
      await overHttp.close();
    }
    const inProcess = createMock(OPTIONS);
    const viaFetch = await run(async (method, path, headers) => {
      const r = await inProcess.fetch(new Request(`http://localhost:4010${path}`, { method, headers }));
      const text = await r.text();
      return { status: r.status, json: text ? JSON.parse(text) : undefined, allow: r.headers.get('allow') };
    });

    // the expected statuses and codes are the cases' (not either transport's)
    for (const [i, c] of CASES.entries()) {
      expect(http.answers[i].status, c.what).toBe(c.status);
      if (c.code !== undefined) expect(http.answers[i].code, c.what).toBe(c.code);
    }
    expect(http.answers.find((a) => a.what === 'an API path with another method')?.allow).toBe('GET');
    // only the two requests that may open a session opened one
    expect(http.sessions).toEqual(['k1', 'c1']);
    // journaled: API requests of the default world, known or not, with their final status; never control requests,
    // media, documents or a request refused for its session
    expect(http.journal).toEqual([
      `DELETE ${pathOf('getSubscription')} 405 ${METHOD_NOT_ALLOWED.code}`,
      `GET /v1/nothing-here 404 ${ROUTE_NOT_FOUND.code}`,
      `GET ${pathOf('getSubscription')} 401 ${UNAUTHORIZED.code}`,
      `GET ${pathOf('listVideoTasks')} 400 ${http.answers[14].code}`,
    ]);
    expect(http.sessionJournal).toEqual([`GET ${pathOf('getSubscription')} 200 0`]);
    expect(viaFetch).toEqual(http);
  });
});
