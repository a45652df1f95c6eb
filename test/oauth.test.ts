/**
 * OAuth user tokens (document 1, "Authentication"; paths, payloads and
 * lifetimes assumed: schemas/oauth.ts): login session -> authorization (the
 * HTML page, or the control route) -> redirect with the code -> exchange ->
 * access token on API operations as the user's account -> refresh with
 * rotation (reuse refused and ending the session) -> revoke. Expiry on the
 * manual clock.
 */
import { describe, expect, it } from 'vitest';
import { errorCatalog, type ErrorName } from '../schemas/errors.ts';
import { oauthLifetimes, USER_NAME_MAX_CHARS } from '../schemas/oauth.ts';
import { pathOf, videoBody } from './factories.ts';
import { useMocks, type TestMock } from './helpers.ts';

const mock = useMocks();
const code = (name: ErrorName) => errorCatalog[name].code;

async function startSession(m: TestMock, body: Record<string, unknown> = { callbackPort: 53682, state: 'xyz' }) {
  const res = await m.call('POST', pathOf('startLoginSession'), { key: null, body });
  expect(res.status).toBe(200);
  return res.json.data as { sessionId: string; authUrl: string; expiresIn: number };
}

async function authorizeByControl(m: TestMock, sessionId: string, userId?: string) {
  const users = (await m.call('GET', '/__mock/users', { key: null })).json.items as { userId: string; apiKey: string }[];
  const res = await m.call('POST', `/__mock/oauth/sessions/${sessionId}/authorize`, { key: null, body: { userId: userId ?? users[0].userId } });
  expect(res.status).toBe(200);
  return { ...(res.json as { code: string; redirectUrl: string; userId: string }), user: users.find((u) => u.userId === (userId ?? users[0].userId))! };
}

async function signIn(m: TestMock) {
  const s = await startSession(m);
  const a = await authorizeByControl(m, s.sessionId);
  const t = await m.call('POST', pathOf('exchangeOAuthCode'), { key: null, body: { sessionId: s.sessionId, code: a.code } });
  expect(t.status).toBe(200);
  return { ...(t.json.data as { accessToken: string; refreshToken: string; expiresIn: number; tokenType: string }), sessionId: s.sessionId, user: a.user };
}

const asToken = (token: string) => ({ key: null, headers: { authorization: `Bearer ${token}` } });

describe('OAuth user tokens', () => {
  it('the whole flow: session, authorize, redirect with code and state, exchange, the API as the user, refresh, revoke', async () => {
    const m = await mock();
    const s = await startSession(m);
    expect(s.authUrl).toBe(`${m.base}/oauth/authorize?sessionId=${s.sessionId}`);
    expect(s.expiresIn).toBe(oauthLifetimes.loginSessionSeconds);
    const a = await authorizeByControl(m, s.sessionId);
    expect(a.redirectUrl).toBe(`http://127.0.0.1:53682/?code=${a.code}&state=xyz`);

    const t = await m.call('POST', pathOf('exchangeOAuthCode'), { key: null, body: { sessionId: s.sessionId, code: a.code } });
    expect(t.json.data).toMatchObject({ expiresIn: oauthLifetimes.accessTokenSeconds, tokenType: 'Bearer' });
    const { accessToken, refreshToken } = t.json.data as { accessToken: string; refreshToken: string };

    // the access token acts as the user's account: its balance moves, its tasks are the key's tasks
    const before = (await m.call('GET', pathOf('getSubscription'), asToken(accessToken))).json.data.balance as number;
    const created = await m.call('POST', pathOf('createVideoTask'), { ...asToken(accessToken), body: videoBody() });
    expect(created.status).toBe(200);
    expect((await m.call('GET', pathOf('getSubscription'), asToken(accessToken))).json.data.balance).toBeLessThan(before);
    const viaKey = await m.call('GET', pathOf('getVideoTask', { taskId: created.json.data.taskId }), { key: a.user.apiKey });
    expect(viaKey.status).toBe(200);
    const journal = (await m.call('GET', '/__mock/requests', { key: null })).json.items as { operationId: string; keyId: string | null }[];
    expect(journal.find((e) => e.operationId === 'createVideoTask')!.keyId).toBe(a.user.apiKey.split('_')[1]);

    const r = await m.call('POST', pathOf('refreshOAuthToken'), { key: null, body: { refreshToken } });
    expect(r.status).toBe(200);
    expect(r.json.data.accessToken).not.toBe(accessToken);
    expect(r.json.data.refreshToken).not.toBe(refreshToken);
    // the old access token stopped working (saying why), the new one works
    const old = await m.call('GET', pathOf('getSubscription'), asToken(accessToken));
    expect([old.status, old.json.code]).toEqual([401, code('UNAUTHORIZED')]);
    expect(old.json.message).toMatch(/replaced by a refresh/);
    expect((await m.call('GET', pathOf('getSubscription'), asToken(r.json.data.accessToken))).status).toBe(200);

    const v = await m.call('POST', pathOf('revokeOAuthToken'), { key: null, body: { refreshToken: r.json.data.refreshToken } });
    expect(v.json.data).toEqual({ revoked: true });
    const revoked = await m.call('GET', pathOf('getSubscription'), asToken(r.json.data.accessToken));
    expect(revoked.json.code).toBe(code('UNAUTHORIZED'));
    expect(revoked.json.message).toMatch(/ended \(revoked\)/);
    const again = await m.call('POST', pathOf('refreshOAuthToken'), { key: null, body: { refreshToken: r.json.data.refreshToken } });
    expect([again.status, again.json.code]).toEqual([401, code('OAUTH_INVALID_REFRESH_TOKEN')]);
    expect((await m.call('POST', pathOf('revokeOAuthToken'), { key: null, body: { refreshToken: r.json.data.refreshToken } })).json.data).toEqual({
      revoked: false,
    });
  });

  it('the authorization page: a real form; Authorize redirects to the callback port with the code; a new user can be typed', async () => {
    const m = await mock();
    const s = await startSession(m, { callbackPort: 8765 });
    const pageRes = await fetch(s.authUrl);
    expect(pageRes.status).toBe(200);
    expect(pageRes.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await pageRes.text();
    expect(html).toMatch(/<form method="post" action="authorize">/);
    expect(html).not.toMatch(/https?:\/\/(?!127\.0\.0\.1:8765)/); // no external resources
    const users = [...html.matchAll(/name="userId" value="(usr_[0-9a-f]+)"/g)].map((x) => x[1]);
    expect(users).toHaveLength(3);
    // the form carries its page token (test/host-check.test.ts: a post without it is refused)
    const csrf = /name="csrf" value="([0-9a-f]+)"/.exec(html)![1];

    const post = (form: Record<string, string>) =>
      fetch(new URL('authorize', s.authUrl), {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ ...form, csrf }),
      });
    const nobody = await post({ sessionId: s.sessionId, userId: '' });
    expect(nobody.status).toBe(400);
    expect(await nobody.text()).toMatch(/role="alert"/);
    const ok = await post({ sessionId: s.sessionId, userId: '', newUserName: 'Ada Lovelace' });
    expect(ok.status).toBe(302);
    const location = new URL(ok.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe('http://127.0.0.1:8765/');
    const t = await m.call('POST', pathOf('exchangeOAuthCode'), { key: null, body: { sessionId: s.sessionId, code: location.searchParams.get('code') } });
    expect(t.status).toBe(200);
    expect(((await m.call('GET', '/__mock/users', { key: null })).json.items as { name: string }[]).map((u) => u.name)).toContain('Ada Lovelace');
    // the page of a session already authorized is an error page
    const used = await fetch(s.authUrl);
    expect(used.status).toBe(404);
    expect((await fetch(`${m.base}/oauth/authorize?sessionId=ls_nope`)).status).toBe(404);
  });

  it(`a new user's name: the page's field takes at most ${USER_NAME_MAX_CHARS} characters, and a longer posted name is cut there by code points`, async () => {
    const m = await mock();
    const s = await startSession(m);
    const html = await (await fetch(s.authUrl)).text();
    expect(html).toContain(`name="newUserName" aria-label="new user name" maxlength="${USER_NAME_MAX_CHARS}"`);
    const csrf = /name="csrf" value="([0-9a-f]+)"/.exec(html)![1];
    // an astral character across the cut: kept whole or left out, never split
    const name = `${'a'.repeat(USER_NAME_MAX_CHARS - 1)}\u{1F3B5}tail`;
    const ok = await fetch(new URL('authorize', s.authUrl), {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ sessionId: s.sessionId, userId: '', newUserName: name, csrf }),
    });
    expect(ok.status).toBe(302);
    const names = ((await m.call('GET', '/__mock/users', { key: null })).json.items as { name: string }[]).map((u) => u.name);
    expect(names).toContain([...name].slice(0, USER_NAME_MAX_CHARS).join(''));
  });

  it('codes are single-use and expire; sessions expire unauthorized (manual clock)', async () => {
    const m = await mock();
    const s = await startSession(m);
    const early = await m.call('POST', pathOf('exchangeOAuthCode'), { key: null, body: { sessionId: s.sessionId, code: 'oc_x' } });
    expect(early.json.code).toBe(code('OAUTH_INVALID_CODE'));
    const a = await authorizeByControl(m, s.sessionId);
    const wrong = await m.call('POST', pathOf('exchangeOAuthCode'), { key: null, body: { sessionId: s.sessionId, code: `${a.code}0` } });
    expect([wrong.status, wrong.json.code]).toEqual([400, code('OAUTH_INVALID_CODE')]);
    expect((await m.call('POST', pathOf('exchangeOAuthCode'), { key: null, body: { sessionId: s.sessionId, code: a.code } })).status).toBe(200);
    const twice = await m.call('POST', pathOf('exchangeOAuthCode'), { key: null, body: { sessionId: s.sessionId, code: a.code } });
    expect(twice.json.code).toBe(code('OAUTH_INVALID_CODE'));

    const late = await startSession(m);
    const la = await authorizeByControl(m, late.sessionId);
    await m.advance(oauthLifetimes.codeSeconds * 1000 + 1);
    expect((await m.call('POST', pathOf('exchangeOAuthCode'), { key: null, body: { sessionId: late.sessionId, code: la.code } })).json.code).toBe(
      code('OAUTH_INVALID_CODE'),
    );

    const idle = await startSession(m);
    await m.advance(oauthLifetimes.loginSessionSeconds * 1000 + 1);
    const expired = await m.call('POST', `/__mock/oauth/sessions/${idle.sessionId}/authorize`, { key: null, body: { userId: 'usr_x' } });
    expect([expired.status, expired.json.code]).toEqual([404, code('CONTROL_NOT_FOUND')]);
    const sessions = (await m.call('GET', '/__mock/oauth/sessions', { key: null })).json.items as { sessionId: string; status: string }[];
    expect(Object.fromEntries(sessions.map((x) => [x.sessionId, x.status]))).toEqual({
      [s.sessionId]: 'exchanged',
      [late.sessionId]: 'expired',
      [idle.sessionId]: 'expired',
    });
    expect((await m.call('POST', pathOf('exchangeOAuthCode'), { key: null, body: { sessionId: 'ls_unknown', code: 'x' } })).json.code).toBe(
      code('OAUTH_SESSION_NOT_FOUND'),
    );
  });

  it('an access token expires on the virtual clock; a refresh gives a working one', async () => {
    const m = await mock();
    const t = await signIn(m);
    await m.advance(oauthLifetimes.accessTokenSeconds * 1000 - 1);
    expect((await m.call('GET', pathOf('getSubscription'), asToken(t.accessToken))).status).toBe(200);
    await m.advance(2);
    const expired = await m.call('GET', pathOf('getSubscription'), asToken(t.accessToken));
    expect([expired.status, expired.json.code]).toEqual([401, code('UNAUTHORIZED')]);
    expect(expired.json.message).toMatch(/expired/);
    const r = await m.call('POST', pathOf('refreshOAuthToken'), { key: null, body: { refreshToken: t.refreshToken } });
    expect((await m.call('GET', pathOf('getSubscription'), asToken(r.json.data.accessToken))).status).toBe(200);
    await m.advance(oauthLifetimes.refreshTokenSeconds * 1000 + 1);
    expect((await m.call('POST', pathOf('refreshOAuthToken'), { key: null, body: { refreshToken: r.json.data.refreshToken } })).json.code).toBe(
      code('OAUTH_INVALID_REFRESH_TOKEN'),
    );
  });

  it('a replaced refresh token sent again is refused and ends the session (reuse detection)', async () => {
    const m = await mock();
    const t = await signIn(m);
    const r = await m.call('POST', pathOf('refreshOAuthToken'), { key: null, body: { refreshToken: t.refreshToken } });
    const reuse = await m.call('POST', pathOf('refreshOAuthToken'), { key: null, body: { refreshToken: t.refreshToken } });
    expect([reuse.status, reuse.json.code]).toEqual([401, code('OAUTH_INVALID_REFRESH_TOKEN')]);
    expect(reuse.json.message).toMatch(/already replaced/);
    // the newest tokens stopped working too
    const newest = await m.call('GET', pathOf('getSubscription'), asToken(r.json.data.accessToken));
    expect(newest.status).toBe(401);
    expect(newest.json.message).toMatch(/replaced refresh token was sent again/);
    expect((await m.call('POST', pathOf('refreshOAuthToken'), { key: null, body: { refreshToken: r.json.data.refreshToken } })).status).toBe(401);
  });

  it.each([
    ['an unknown access token', 'Bearer at_0123456789abcdef', code('UNAUTHORIZED')],
    ['something that is neither a key nor a token', 'Bearer hello', code('UNAUTHORIZED')],
  ])('%s is 401 in the envelope', async (_name, header, expected) => {
    const m = await mock();
    const res = await m.call('GET', pathOf('getSubscription'), { key: null, headers: { authorization: header } });
    expect([res.status, res.json.code, res.json.data]).toEqual([401, expected, null]);
  });

  it.each([
    ['startLoginSession', {}, 'callbackPort'],
    ['startLoginSession', { callbackPort: 70000 }, 'callbackPort'],
    ['startLoginSession', { callbackPort: 8080, state: 'x'.repeat(513) }, 'state'],
    ['exchangeOAuthCode', { sessionId: 'ls_x' }, 'code'],
    ['refreshOAuthToken', { refreshToken: '' }, 'refreshToken'],
    ['revokeOAuthToken', {}, 'refreshToken'],
  ] as const)('%s with %j is 400 (42001) naming %s; the login operations need no credential', async (id, body, field) => {
    const m = await mock();
    const res = await m.call('POST', pathOf(id), { key: null, body });
    expect([res.status, res.json.code]).toEqual([400, code('OAUTH_INVALID_PARAMETERS')]);
    expect(res.json.message).toContain(field);
  });

  it('the control API creates a user with an account; its key and its token see the same balance', async () => {
    const m = await mock();
    const created = await m.call('POST', '/__mock/users', { key: null, body: { name: 'Grace Hopper', credits: 42, plan: 'free' } });
    expect(created.status).toBe(200);
    const s = await startSession(m);
    const a = await authorizeByControl(m, s.sessionId, created.json.userId);
    const t = await m.call('POST', pathOf('exchangeOAuthCode'), { key: null, body: { sessionId: s.sessionId, code: a.code } });
    const sub = (await m.call('GET', pathOf('getSubscription'), asToken(t.json.data.accessToken))).json.data;
    expect(sub).toMatchObject({ balance: 42, plan: 'free' });
    expect((await m.call('GET', pathOf('getSubscription'), { key: created.json.apiKey })).json.data).toEqual(sub);
    expect((await m.call('POST', '/__mock/users', { key: null, body: { name: '' } })).json.code).toBe(code('CONTROL_INVALID_REQUEST'));
  });

  /** How many grants, access tokens, refresh tokens and login sessions the engine keeps. */
  const kept = (m: TestMock) => {
    const st = m.engine.peekState<Record<'grants' | 'accessTokens' | 'refreshTokens' | 'sessions', object>>('oauth');
    return st ? (['grants', 'accessTokens', 'refreshTokens', 'sessions'] as const).map((k) => Object.keys(st[k]).length) : [0, 0, 0, 0];
  };

  it.each([
    ['its key is deleted', async (m: TestMock, apiKey: string) => void (await m.call('DELETE', `/__mock/accounts/${apiKey}`, { key: null }))],
    [
      'its account is forgotten at the account bound',
      async (m: TestMock) => {
        for (const k of ['mg_a_1', 'mg_b_2', 'mg_c_3']) await m.call('GET', pathOf('getSubscription'), { key: k });
      },
    ],
    ['the mock is reset', async (m: TestMock) => void (await m.call('POST', '/__mock/reset', { key: null, body: {} }))],
  ] as const)('grants, their tokens and the sessions authorized go with the account when %s', async (_when, goes) => {
    const m = await mock({ limits: { accounts: 2 } });
    const t = await signIn(m);
    // refreshed once: a replaced pair of tokens is kept too (reuse detection), and goes as well
    const r = (await m.call('POST', pathOf('refreshOAuthToken'), { key: null, body: { refreshToken: t.refreshToken } })).json.data as { accessToken: string };
    // another user's grant, whose account stays (used last, so the bound keeps it)
    const s = await startSession(m);
    const users = (await m.call('GET', '/__mock/users', { key: null })).json.items as { userId: string }[];
    const a = await authorizeByControl(m, s.sessionId, users[1].userId);
    const other = (await m.call('POST', pathOf('exchangeOAuthCode'), { key: null, body: { sessionId: s.sessionId, code: a.code } })).json.data as {
      accessToken: string;
    };
    expect((await m.call('GET', pathOf('getSubscription'), asToken(r.accessToken))).status).toBe(200);
    expect(kept(m)).toEqual([2, 3, 3, 2]);
    await goes(m, t.user.apiKey);
    const reset = _when === 'the mock is reset';
    expect(kept(m)).toEqual(reset ? [0, 0, 0, 0] : [1, 1, 1, 1]);
    for (const token of [t.accessToken, r.accessToken]) {
      const gone = await m.call('GET', pathOf('getSubscription'), asToken(token));
      expect([gone.status, gone.json.code]).toEqual([401, code('UNAUTHORIZED')]);
      expect(gone.json.message).toMatch(/unknown/);
    }
    if (!reset) expect((await m.call('GET', pathOf('getSubscription'), asToken(other.accessToken))).status).toBe(200);
  });

  it('tokens survive a saved state: an access token works in a mock loaded from it', async () => {
    const m = await mock();
    const t = await signIn(m);
    const state = (await m.call('GET', '/__mock/state', { key: null })).json;
    const other = await mock();
    expect((await other.call('PUT', '/__mock/state', { key: null, body: state })).status).toBe(200);
    expect((await other.call('GET', pathOf('getSubscription'), asToken(t.accessToken))).status).toBe(200);
    expect((await other.call('POST', pathOf('refreshOAuthToken'), { key: null, body: { refreshToken: t.refreshToken } })).status).toBe(200);
  });
});
