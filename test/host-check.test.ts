/**
 * DNS rebinding and cross-site posts (decisions/0011-control-api-protection.md):
 * the control API and the sign-in page answer only the Host names of this
 * mock (this machine's, the --public-url host, --allowed-host), any other
 * gets 403 (10017); the sign-in form is taken only with its per-page token or
 * a same-origin Origin; and a user's account is not reachable by a key
 * computed from the user id the page shows.
 */
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { errorCatalog } from '../schemas/errors.ts';
import { pathOf } from './factories.ts';
import { freePort } from './prism.ts';
import { type TestMock, useMocks } from './helpers.ts';

const mock = useMocks();

/** GET `path` of `m` with the Host header `host` (fetch cannot set it): status and envelope code. */
function withHost(base: string, path: string, host: string, headers: Record<string, string> = {}): Promise<{ status: number; code?: number }> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname + url.search, headers: { ...headers, host } }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => {
        let code: number | undefined;
        try {
          code = (JSON.parse(text) as { code?: number }).code;
        } catch {
          code = undefined;
        }
        resolve({ status: res.statusCode!, code });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const FORBIDDEN = errorCatalog.HOST_FORBIDDEN.code;

describe('the Host check (DNS rebinding)', () => {
  it.each([
    ['/__mock/state', 'attacker.example'],
    ['/__mock/requests', 'attacker.example:4010'],
    ['/__mock/users', '192.168.1.20:4010'],
    ['/oauth/authorize?sessionId=ls_x', 'attacker.example'],
    ['/sessions/s1/__mock/health', 'localhost.attacker.example'],
  ])('%s with Host %s: 403 (10017)', async (path, host) => {
    const m = await mock();
    expect(await withHost(m.base, path, host)).toEqual({ status: 403, code: FORBIDDEN });
  });

  it.each(['localhost', 'localhost:4010', '127.0.0.1:1', '[::1]:4010', 'LOCALHOST:80'])('Host %s: answered', async (host) => {
    const m = await mock();
    expect((await withHost(m.base, '/__mock/state', host)).status).toBe(200);
  });

  it('the API and media keep answering any Host, as the service does', async () => {
    const m = await mock();
    expect((await withHost(m.base, pathOf('getSubscription'), 'attacker.example', { authorization: 'Bearer mg_test_secret1' })).status).toBe(200);
  });

  it('the --public-url host and --allowed-host names are answered; checkHost false answers any', async () => {
    const m = await mock({ publicUrl: 'https://mock.example.com', allowedHosts: ['mock.internal', 'pinned.test:8080'] });
    expect((await withHost(m.base, '/__mock/health', 'mock.example.com')).status).toBe(200);
    expect((await withHost(m.base, '/__mock/health', 'mock.internal:4010')).status).toBe(200);
    expect((await withHost(m.base, '/__mock/health', 'pinned.test:8080')).status).toBe(200);
    expect(await withHost(m.base, '/__mock/health', 'pinned.test:9090')).toEqual({ status: 403, code: FORBIDDEN });
    expect(await withHost(m.base, '/__mock/health', 'other.example')).toEqual({ status: 403, code: FORBIDDEN });
    const open = await mock({ checkHost: false });
    expect((await withHost(open.base, '/__mock/health', 'other.example')).status).toBe(200);
  });

  it('the CLI: --allowed-host (repeatable, or comma-separated) and MEDIAGEN_MOCK_ALLOWED_HOST add names', async () => {
    const run = async (args: string[], env: Record<string, string>) => {
      const port = await freePort();
      const child = spawn(process.execPath, ['bin/mediagen-mock.js', '--port', String(port), '--quiet', ...args], {
        cwd: new URL('..', import.meta.url).pathname,
        env: { ...process.env, ...env },
        stdio: 'ignore',
      });
      try {
        const base = `http://127.0.0.1:${port}`;
        for (const t0 = Date.now(); ; await new Promise((r) => setTimeout(r, 100))) {
          if ((await fetch(`${base}/__mock/health`).catch(() => undefined))?.status === 200) break;
          if (Date.now() - t0 > 120_000) throw new Error('the mock did not start');
        }
        return await Promise.all(
          ['a.test:4010', 'b.test:81', 'c.test', 'b.test:82', 'd.test'].map(async (h) => (await withHost(base, '/__mock/health', h)).status),
        );
      } finally {
        child.kill('SIGKILL');
      }
    };
    const [flags, variable] = await Promise.all([
      run(['--allowed-host', 'a.test,b.test:81', '--allowed-host', 'c.test'], {}),
      run([], { MEDIAGEN_MOCK_ALLOWED_HOST: 'a.test, b.test:81,c.test' }),
    ]);
    expect(flags).toEqual([200, 200, 200, 403, 403]);
    expect(variable).toEqual([200, 200, 200, 403, 403]);
  });
});

describe('the sign-in form', () => {
  async function pending(m: TestMock) {
    const s = (await m.call('POST', pathOf('startLoginSession'), { key: null, body: { callbackPort: 8765 } })).json.data as {
      sessionId: string;
      authUrl: string;
    };
    const html = await (await fetch(s.authUrl)).text();
    const users = [...html.matchAll(/name="userId" value="(usr_[0-9a-f]+)"/g)].map((x) => x[1]);
    return { ...s, users, csrf: /name="csrf" value="([0-9a-f]+)"/.exec(html)?.[1] };
  }
  const post = (authUrl: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(new URL('authorize', authUrl), {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(form),
    });
  const status = async (m: TestMock, sessionId: string) =>
    ((await m.call('GET', '/__mock/oauth/sessions', { key: null })).json.items as { sessionId: string; status: string }[]).find(
      (s) => s.sessionId === sessionId,
    )!.status;

  it('a post from another site (no page token, a foreign Origin) is refused (403) and the sign-in stays pending', async () => {
    const m = await mock();
    const s = await pending(m);
    for (const headers of [{ origin: 'https://evil.example' }, {}] as Record<string, string>[]) {
      const r = await post(s.authUrl, { sessionId: s.sessionId, userId: s.users[0] }, headers);
      expect(r.status).toBe(403);
      expect(await r.text()).toMatch(/role="alert"/);
    }
    // the token of another login session does not do either
    const other = await pending(m);
    expect((await post(s.authUrl, { sessionId: s.sessionId, userId: s.users[0], csrf: other.csrf! })).status).toBe(403);
    expect(await status(m, s.sessionId)).toBe('pending');
  });

  it("the page's own token, or a same-origin Origin, is taken", async () => {
    const m = await mock();
    const a = await pending(m);
    expect(a.csrf).toMatch(/^[0-9a-f]{32}$/);
    expect((await post(a.authUrl, { sessionId: a.sessionId, userId: a.users[0], csrf: a.csrf! })).status).toBe(302);
    const b = await pending(m);
    expect((await post(b.authUrl, { sessionId: b.sessionId, userId: b.users[1] }, { origin: m.base })).status).toBe(302);
    expect([await status(m, a.sessionId), await status(m, b.sessionId)]).toEqual(['authorized', 'authorized']);
  });

  it('a page of another site cannot read the sign-in page (no CORS headers) nor frame it; the API keeps CORS', async () => {
    const m = await mock();
    const s = await pending(m);
    const page = await fetch(s.authUrl, { headers: { origin: 'https://evil.example' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('access-control-allow-origin')).toBeNull();
    expect([page.headers.get('x-frame-options'), page.headers.get('content-security-policy')]).toEqual(['DENY', "frame-ancestors 'none'"]);
    const preflight = await fetch(s.authUrl, { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'GET' } });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const api = await fetch(`${m.base}${pathOf('getSubscription')}`, { headers: { origin: 'https://evil.example', authorization: 'Bearer mg_test_secret1' } });
    expect(api.headers.get('access-control-allow-origin')).toBe('https://evil.example');
  });

  it("a user's API key cannot be computed from the user id the page shows", async () => {
    const m = await mock();
    const user = (await m.call('POST', '/__mock/users', { key: null, body: { name: 'Grace', credits: 42 } })).json as { userId: string; apiKey: string };
    const hex = user.userId.slice(4);
    const derived = `mg_u${hex.slice(0, 8)}_${hex.slice(8)}oauth`;
    expect(user.apiKey).not.toBe(derived);
    expect(user.apiKey.split('_')[2]).not.toContain(hex.slice(8));
    const credits = async (key: string) => (await m.call('GET', `/__mock/accounts/${key}`, { key: null })).json.credits as number | undefined;
    expect(await credits(user.apiKey)).toBe(42);
    expect(await credits(derived)).not.toBe(42);
  });
});
