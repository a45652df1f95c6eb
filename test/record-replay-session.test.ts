/**
 * A session through the proxy (decisions/0030-upstream-proxy.md, "Sessions";
 * docs/guides/proxy.md, "How requests are forwarded"): a request in a
 * `/sessions/<name>` path session reaches the upstream at the contract's path,
 * without the prefix, with the session in `X-Mock-Session: <name>`, so an
 * upstream mock puts it in the same session as a request that named it in the
 * header, and the upstream's default world does not see it.
 */
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createMock } from '../mock/index.ts';
import { createMockServer } from '../mock/http/app.ts';
import { createProxy } from '../mock/http/proxy/forward.ts';
import type { ProxyExchange } from '../mock/http/proxy/exchange.ts';
import { pathOf, videoBody } from './factories.ts';

const KEY = 'mg_session_secret1';

describe('a /sessions/<name> request through the proxy', () => {
  it('reaches the upstream without the prefix, in the same session (X-Mock-Session), not in its default world', async () => {
    const upstream = createMock({ seed: 1, strict: true });
    const base = await upstream.listen();
    const exchanges: ProxyExchange[] = [];
    const proxy = createProxy({ upstream: base, onExchange: (x) => exchanges.push(x) });
    const front = createMockServer({ clock: 'manual', strict: true, proxy });
    const server = front.app.listen(0, '127.0.0.1');
    await new Promise<void>((r) => server.once('listening', () => r()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const call = async (at: string, path: string, o: { method?: string; body?: unknown; session?: string } = {}) => {
      const res = await fetch(at + path, {
        method: o.method ?? 'GET',
        headers: {
          authorization: `Bearer ${KEY}`,
          ...(o.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(o.session ? { 'x-mock-session': o.session } : {}),
        },
        ...(o.body === undefined ? {} : { body: JSON.stringify(o.body) }),
      });
      return { status: res.status, json: (await res.json()) as { code: number; data: { taskId: string } } };
    };
    try {
      const created = await call(url, `/sessions/demo${pathOf('createVideoTask')}`, { method: 'POST', body: videoBody() });
      expect([created.status, created.json.code]).toEqual([200, 0]);
      const read = pathOf('getVideoTask', { taskId: created.json.data.taskId });
      // the upstream's session "demo" has the task, named by the header; its default world does not (31006)
      expect((await call(base, read, { session: 'demo' })).json.code).toBe(0);
      expect((await call(base, read)).json.code).toBe(31006);
      // through the proxy: the path session and the header session are the same session upstream; no session is the default world
      expect((await call(url, `/sessions/demo${read}`)).json.code).toBe(0);
      expect((await call(url, read, { session: 'demo' })).json.code).toBe(0);
      expect((await call(url, read)).json.code).toBe(31006);
      // the exchanges name the contract's path and the session apart
      expect(exchanges.map((x) => [x.path, x.session ?? null])).toEqual([
        [pathOf('createVideoTask'), 'demo'],
        [read, 'demo'],
        [read, 'demo'],
        [read, null],
      ]);
      expect(proxy.report().violationCount).toBe(0);
    } finally {
      await new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r())));
      await upstream.close();
    }
  });
});
