/**
 * The sign-in page is an operation of the registry, run by the same runner
 * for every transport (docs/architecture.md, "Transports"): one scripted
 * sign-in (login session, the page, its form refused without the page's token
 * and without a user, posted with the token and from the page's own origin,
 * the redirect with code and state, the code exchanged, the access token on
 * the API) over HTTP against the server, through the in-process mock's
 * socket-free fetch and through MSW's setupServer gives the same statuses,
 * Locations and bodies (the per-world form token and the origin taken out).
 */
import { setupServer } from 'msw/node';
import { afterAll, describe, expect, it } from 'vitest';
import { createMock } from '../mock/index.ts';
import { createMockHandlers } from '../mock/web/msw.ts';
import { pathOf } from './factories.ts';

const SEED = 91;

/** One step's answer: status, Location, Content-Type and body text. */
interface Step {
  step: string;
  status: number;
  location: string | null;
  type: string | null;
  body: string;
}

type Send = (method: string, path: string, body?: { json: unknown } | { form: Record<string, string> }, headers?: Record<string, string>) => Promise<Step>;

const field = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '';

/** The scripted sign-in. Paths are relative to the mock's base URL. */
async function script(send: Send, base: string): Promise<Step[]> {
  const out: Step[] = [];
  const step = async (name: string, ...args: Parameters<Send>) => {
    const r = { ...(await send(...args)), step: name };
    out.push(r);
    return r;
  };
  const login = JSON.parse((await step('login session', 'POST', pathOf('startLoginSession'), { json: { callbackPort: 8765, state: 'st4te' } })).body) as {
    data: { sessionId: string; authUrl: string };
  };
  const { sessionId } = login.data;
  const page = (await step('page', 'GET', `/oauth/authorize?sessionId=${sessionId}`)).body;
  const csrf = field(page, 'csrf');
  const userId = field(page, 'userId');
  await step('no session', 'GET', '/oauth/authorize?sessionId=ls_none');
  await step('another site (no token)', 'POST', '/oauth/authorize', { form: { sessionId, userId } }, { origin: 'https://evil.example' });
  await step('no user', 'POST', '/oauth/authorize', { form: { sessionId, csrf, userId: '' } });
  await step('wrong content type', 'POST', '/oauth/authorize', { json: { sessionId, csrf, userId } });
  const ok = await step('authorize', 'POST', '/oauth/authorize', { form: { sessionId, csrf, userId } });
  await step('already authorized', 'GET', `/oauth/authorize?sessionId=${sessionId}`);
  const code = new URL(ok.location ?? 'http://x/').searchParams.get('code');
  const tokens = JSON.parse((await step('exchange', 'POST', pathOf('exchangeOAuthCode'), { json: { sessionId, code } })).body) as {
    data?: { accessToken: string };
  };
  await step('the API as the user', 'GET', pathOf('getSubscription'), undefined, { authorization: `Bearer ${tokens.data?.accessToken}` });
  // a second sign-in, its form posted from the page's own origin without the token
  const second = JSON.parse((await step('second session', 'POST', pathOf('startLoginSession'), { json: { callbackPort: 8766 } })).body) as {
    data: { sessionId: string };
  };
  await step('same origin', 'POST', '/oauth/authorize', { form: { sessionId: second.data.sessionId, newUserName: 'Ada' } }, { origin: base });
  await step('sessions', 'GET', '/__mock/oauth/sessions');
  return out;
}

/** A Send over `fetchFn` at `base`: redirects answered, not followed. */
const over =
  (base: string, fetchFn: (r: Request) => Promise<Response>): Send =>
  async (method, path, body, headers = {}) => {
    const r = await fetchFn(
      new Request(base + path, {
        method,
        redirect: 'manual',
        headers: {
          ...(body === undefined ? {} : 'json' in body ? { 'content-type': 'application/json' } : { 'content-type': 'application/x-www-form-urlencoded' }),
          ...headers,
        },
        body: body === undefined ? undefined : 'json' in body ? JSON.stringify(body.json) : new URLSearchParams(body.form).toString(),
      }),
    );
    return { step: '', status: r.status, location: r.headers.get('location'), type: r.headers.get('content-type'), body: await r.text() };
  };

/** The steps with `origin` and the world's form tokens taken out (each world draws its own secret). */
const normalized = (steps: Step[], origin: string) =>
  JSON.parse(
    JSON.stringify(steps)
      .split(origin)
      .join('<base>')
      .replace(/name=\\"csrf\\" value=\\"[0-9a-f]{32}\\"/g, 'name=\\"csrf\\" value=\\"<token>\\"'),
  ) as Step[];

describe('the sign-in page over every transport', () => {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const c of cleanup) await c();
  });

  it('gives the same statuses, Locations and bodies over HTTP, the fetch handler and MSW (setupServer)', async () => {
    const server = createMock({ seed: SEED, strict: true });
    const url = await server.listen();
    cleanup.push(() => server.close());
    const http = await script(
      over(url, (r) => fetch(r)),
      url,
    );

    const inProcess = createMock({ seed: SEED, strict: true });
    const viaFetch = await script(
      over('http://localhost:4010', (r) => inProcess.fetch(r)),
      'http://localhost:4010',
    );

    const BASE = 'http://mock.test';
    const handlers = createMockHandlers({ baseUrl: BASE, seed: SEED, strict: true });
    const msw = setupServer(...handlers.handlers);
    msw.listen({ onUnhandledRequest: 'error' });
    cleanup.push(() => msw.close());
    const viaMsw = await script(
      over(BASE, (r) => fetch(r)),
      BASE,
    );
    msw.close();

    const expected = normalized(http, url);
    const at = (name: string) => expected.find((s) => s.step === name)!;
    expect(at('page')).toMatchObject({ status: 200, type: 'text/html; charset=utf-8' });
    expect(at('page').body).toMatch(/<form method="post" action="authorize">/);
    expect(at('no session').status).toBe(404);
    expect(at('another site (no token)')).toMatchObject({ status: 403, type: 'text/html; charset=utf-8' });
    expect(at('no user').status).toBe(400);
    expect(at('no user').body).toMatch(/role="alert"/);
    expect(at('wrong content type').status).toBe(415);
    expect(at('authorize').status).toBe(302);
    expect(at('authorize').location).toMatch(/^http:\/\/127\.0\.0\.1:8765\/\?code=oc_[0-9a-f]+&state=st4te$/);
    expect(at('already authorized').status).toBe(404);
    expect(at('exchange').status).toBe(200);
    expect(at('the API as the user').status).toBe(200);
    expect(at('same origin').status).toBe(302);
    expect(
      (JSON.parse(at('sessions').body) as { items: { status: string }[] }).items.map((s) => s.status),
      'the refused posts authorized nothing',
    ).toEqual(['exchanged', 'authorized']);
    expect(normalized(viaFetch, 'http://localhost:4010')).toEqual(expected);
    expect(normalized(viaMsw, BASE)).toEqual(expected);
  });
});
