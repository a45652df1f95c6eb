/**
 * Sessions out of reach of other pages, in a real browser: a page on another
 * origin (evil.test, mapped to 127.0.0.1 inside Chromium) loads 300 images
 * under /sessions/<n>/ of the mock (its control API, media and API paths,
 * some with no Referer at all), then 300 fetches with an API key under
 * /sessions/ev<n>/ (the API answers every origin with CORS, so the page can
 * read the refusals): no session is created and the one a CI worker opened
 * keeps its world. Runs in the system Chromium; skipped with a notice when
 * there is none.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, openChromium, type TestBrowser } from './browser.ts';
import { KEY, startMock, type TestMock } from './helpers.ts';

describe.skipIf(!CHROMIUM)('a page of another origin cannot open or evict sessions (headless Chromium)', () => {
  let page: Server;
  let pagePort: number;
  let m: TestMock;
  let browser: TestBrowser;

  beforeAll(async () => {
    m = await startMock();
    page = createServer((_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>elsewhere</title><p>hi</p>'));
    await new Promise<void>((r) => page.listen(0, '127.0.0.1', r));
    pagePort = (page.address() as AddressInfo).port;
    browser = await openChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((r) => page?.close(() => r()));
    await m?.close();
  });

  it('300 images under /sessions/<n>/ create no session and evict none', async () => {
    const session = { key: null, headers: { 'x-mock-session': 'ci-worker-1' } };
    expect((await m.call('PUT', `/__mock/accounts/${KEY}`, { ...session, body: { credits: 777 } })).status).toBe(200);
    const tab = await browser.newPage();
    await tab.goto(`http://evil.test:${pagePort}/`);
    const mockBase = m.base.replace('127.0.0.1', 'localhost');
    const loaded = await tab.evaluate(
      async ({ mockBase }) => {
        const paths = ['/__mock/health', '/media/videos/vt_1.mp4', '/v1/user/subscription'];
        const loads = Array.from({ length: 300 }, (_, i) => {
          const img = new Image();
          if (i % 2) img.referrerPolicy = 'no-referrer';
          return new Promise<void>((resolve) => {
            img.onload = img.onerror = () => resolve();
            img.src = `${mockBase}/sessions/n${i}${paths[i % paths.length]}`;
          });
        });
        await Promise.all(loads);
        return loads.length;
      },
      { mockBase },
    );
    expect(loaded).toBe(300);
    const listed = (await m.call('GET', '/__mock/sessions', { key: null })).json.items as { name: string }[];
    expect(listed.map((s) => s.name)).toEqual(['ci-worker-1']);
    expect((await m.call('GET', `/__mock/accounts/${KEY}`, session)).json.credits).toBe(777);
  });

  it('300 fetches with an API key under /sessions/ev<n>/ are refused (404, 10018): no session opened, none evicted', async () => {
    const session = { key: null, headers: { 'x-mock-session': 'ci-worker-2' } };
    expect((await m.call('PUT', `/__mock/accounts/${KEY}`, { ...session, body: { credits: 555 } })).status).toBe(200);
    const tab = await browser.newPage();
    await tab.goto(`http://evil.test:${pagePort}/`);
    const mockBase = m.base.replace('127.0.0.1', 'localhost');
    const answers = await tab.evaluate(
      async ({ mockBase, key }) => {
        const codes = await Promise.all(
          Array.from({ length: 300 }, async (_, i) => {
            const r = await fetch(`${mockBase}/sessions/ev${i}/v1/user/subscription`, { headers: { authorization: `Bearer ${key}` } });
            return `${r.status} ${((await r.json()) as { code: number }).code}`;
          }),
        );
        return [...new Set(codes)];
      },
      { mockBase, key: KEY },
    );
    expect(answers).toEqual(['404 10018']);
    const listed = (await m.call('GET', '/__mock/sessions', { key: null })).json.items as { name: string }[];
    expect(listed.map((s) => s.name).filter((n) => n.startsWith('ev'))).toEqual([]);
    expect((await m.call('GET', `/__mock/accounts/${KEY}`, session)).json.credits).toBe(555);
  });
});
