/**
 * The four OAuth operations through Prism's validation proxy (test/prism.ts):
 * client -> Prism (--errors, spec/openapi.yaml) -> a fresh mock; any violation
 * in either direction fails. The whole flow (session, authorize through the
 * control API, exchange, an API call with the access token, refresh, revoke),
 * the documented errors, every Prefer-forced answer, and requests the spec
 * itself forbids (flagged by Prism, answered by the mock with 42001).
 */
import { describe, expect, it } from 'vitest';
import { operations } from '../schemas/operations.ts';
import type { OperationDef } from '../schemas/registry-types.ts';
import { pathOf } from './factories.ts';
import { expectErrorEnvelope as expectError, expectForwarded, forcedCases, usePrism, type PrismHarness } from './prism.ts';

const prism = usePrism();

const ok = (method: string, path: string, opts: Parameters<PrismHarness['call']>[2] = {}) => expectForwarded(prism, method, path, { key: null, ...opts });
const ids = ['startLoginSession', 'exchangeOAuthCode', 'refreshOAuthToken', 'revokeOAuthToken'] as const;

describe('/v1/oauth through Prism', () => {
  it('session, authorize, exchange, the API with the access token, refresh, reuse refused, revoke', async () => {
    const m = prism.useMock();
    const s = (await ok('POST', pathOf('startLoginSession'), { body: { callbackPort: 53682, state: 's1' } })).json.data as {
      sessionId: string;
      authUrl: string;
    };
    expect(s.authUrl).toMatch(/\/oauth\/authorize\?sessionId=ls_/);
    const users = (await m.call('GET', '/__mock/users', { key: null })).json.items as { userId: string }[];
    const a = (await m.call('POST', `/__mock/oauth/sessions/${s.sessionId}/authorize`, { key: null, body: { userId: users[1].userId } })).json as {
      code: string;
    };
    const t = (await ok('POST', pathOf('exchangeOAuthCode'), { body: { sessionId: s.sessionId, code: a.code } })).json.data as {
      accessToken: string;
      refreshToken: string;
    };
    expect((await ok('GET', pathOf('getSubscription'), { headers: { authorization: `Bearer ${t.accessToken}` } })).json.data.balance).toBeGreaterThan(0);
    expectError(await prism.call('POST', pathOf('exchangeOAuthCode'), { key: null, body: { sessionId: s.sessionId, code: a.code } }), 'OAUTH_INVALID_CODE');
    const r = (await ok('POST', pathOf('refreshOAuthToken'), { body: { refreshToken: t.refreshToken } })).json.data as { refreshToken: string };
    expectError(await prism.call('POST', pathOf('refreshOAuthToken'), { key: null, body: { refreshToken: t.refreshToken } }), 'OAUTH_INVALID_REFRESH_TOKEN');
    expect((await ok('POST', pathOf('revokeOAuthToken'), { body: { refreshToken: r.refreshToken } })).json.data).toEqual({ revoked: false });
    expectError(await prism.call('GET', pathOf('getSubscription'), { key: null, headers: { authorization: `Bearer ${t.accessToken}` } }), 'UNAUTHORIZED');
    expectError(await prism.call('POST', pathOf('exchangeOAuthCode'), { key: null, body: { sessionId: 'ls_0000', code: 'x' } }), 'OAUTH_SESSION_NOT_FOUND');
  });

  it('every Prefer-forced answer of the four operations', async () => {
    prism.useMock();
    const bodies: Record<(typeof ids)[number], unknown> = {
      startLoginSession: { callbackPort: 8080 },
      exchangeOAuthCode: { sessionId: 'ls_x', code: 'oc_x' },
      refreshOAuthToken: { refreshToken: 'rt_x' },
      revokeOAuthToken: { refreshToken: 'rt_x' },
    };
    for (const id of ids) {
      const op = operations[id] as OperationDef;
      const cases = forcedCases(op);
      expect(cases.length, id).toBeGreaterThan(0);
      for (const c of cases) expectError(await prism.call('POST', pathOf(id), { key: null, body: bodies[id], headers: { prefer: c.prefer } }), c.error);
    }
  });

  it.each([
    ['startLoginSession', { callbackPort: 0 }, 'callbackPort'],
    ['startLoginSession', { callbackPort: 'x' }, 'callbackPort'],
    ['exchangeOAuthCode', { sessionId: 'ls_x' }, 'code'],
    ['refreshOAuthToken', {}, 'refreshToken'],
  ] as const)('%s with %j: Prism flags it; the mock answers 42001 naming it', async (id, body, field) => {
    prism.useMock();
    const r = await prism.call('POST', pathOf(id), { key: null, body, allowViolations: true });
    expect(r.status, r.text.slice(0, 300)).toBe(422);
    const direct = await prism.mock.call('POST', pathOf(id), { key: null, body });
    expectError(direct, 'OAUTH_INVALID_PARAMETERS', new RegExp(field));
  });
});
