/**
 * The dashboard of a mock with --upstream (docs/guides/proxy.md): its "Upstream contract checks" panel lists a
 * violation of the upstream live, with its request and rule, in headless Chromium; the page logs no error. The shell
 * of a mock without an upstream does not ask for the panel (test/dashboard.test.ts holds that page to no console
 * error).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock, type InProcessMock } from '../mock/index.ts';
import { createMockServer } from '../mock/http/app.ts';
import { uiShell } from '../mock/http/ui.ts';
import { createProxy } from '../mock/http/proxy/forward.ts';
import { buildUi } from '../scripts/ui-build.mjs';
import { CHROMIUM, openChromium, type TestBrowser } from './browser.ts';
import { editJson, mutatingProxy, type Listening, type Mutation } from './verify-servers.ts';

const KEY = 'mg_proxyui_secret1';
const root = new URL('..', import.meta.url).pathname;

it('the shell says whether the mock has an upstream', () => {
  expect(uiShell(false, true)).toContain('data-upstream="true"');
  expect(uiShell(false)).not.toContain('data-upstream');
});

describe.skipIf(!CHROMIUM)('the proxy panel in headless Chromium', () => {
  let upstream: InProcessMock;
  let drift: Listening & { use(m: Mutation | undefined): void };
  let server: ReturnType<ReturnType<typeof createMockServer>['app']['listen']>;
  let base: string;
  let browser: TestBrowser;
  beforeAll(async () => {
    // built only when older than the page's sources (`npm test` bundles first): another file's page may be loading it
    const built = join(root, 'dist/ui/app.js');
    const newest = Math.max(...readdirSync(join(root, 'mock/ui')).map((f) => statSync(join(root, 'mock/ui', f)).mtimeMs));
    if (!existsSync(built) || statSync(built).mtimeMs < newest) await buildUi();
    upstream = createMock({ seed: 2 });
    drift = await mutatingProxy(await upstream.listen());
    server = createMockServer({ clock: 'manual', proxy: createProxy({ upstream: drift.url }) }).app.listen(0, '127.0.0.1');
    await new Promise<void>((r) => server.once('listening', () => r()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await openChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r())));
    await drift.close();
    await upstream.close();
  });

  it('lists the violation with its request and rule, live', async () => {
    const errors: string[] = [];
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.on('console', (msg) => void (msg.type() === 'error' && !msg.text().includes('net::ERR_NETWORK_CHANGED') && errors.push(msg.text())));
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${base}/__mock/ui/`);
    const panel = page.getByRole('region', { name: 'Upstream contract checks' });
    await panel.getByText('No violation: every answer checked so far conforms.').waitFor();
    // the upstream starts sending the envelope code as a string
    drift.use({ answer: (req, r) => (req.path === '/v1/user/subscription' ? editJson(r, (j) => (j.code = String(j.code))) : r) });
    await (await fetch(`${base}/v1/user/subscription`, { headers: { authorization: `Bearer ${KEY}` } })).arrayBuffer();
    const row = panel.getByRole('row').filter({ hasText: 'GET /v1/user/subscription' });
    await row.waitFor({ timeout: 30_000 });
    expect(await row.textContent()).toContain('response schema');
    expect((await page.getByTestId('proxy-counts').textContent())?.replace(/\s+/g, ' ')).toMatch(/1 checked, 1 violation\(s\)/);
    expect(errors).toEqual([]);
  });
});
