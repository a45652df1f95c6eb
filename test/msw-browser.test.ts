/**
 * The MSW handlers in a real browser: a small page (test/browser/msw-page.ts,
 * bundled by esbuild for the browser) registers MSW's service worker with the
 * mock's handlers, creates an image task, and polls it; the test advances the
 * virtual clock from outside, and the page shows the finished image, loaded
 * from a media URL the handlers serve. Runs in the system Chromium; skipped
 * with a notice when there is none.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, openChromium, type TestBrowser } from './browser.ts';

const require = createRequire(import.meta.url);

describe.skipIf(!CHROMIUM)('MSW handlers in headless Chromium', () => {
  let server: Server;
  let origin: string;
  let browser: TestBrowser;
  const served: string[] = [];

  beforeAll(async () => {
    const bundle = await build({
      entryPoints: [new URL('./browser/msw-page.ts', import.meta.url).pathname],
      bundle: true,
      write: false,
      platform: 'browser',
      format: 'esm',
      target: 'chrome120',
      logLevel: 'silent',
    });
    const files: Record<string, [string, string | Uint8Array]> = {
      '/': [
        'text/html',
        '<!doctype html><html><head><title>mock in the browser</title></head><body><p id="status">starting</p><script type="module" src="/app.js"></script></body></html>',
      ],
      '/app.js': ['text/javascript', bundle.outputFiles[0].contents],
      '/mockServiceWorker.js': ['text/javascript', readFileSync(require.resolve('msw/mockServiceWorker.js'))],
    };
    server = createServer((req, res) => {
      served.push(req.url ?? '');
      if (req.url === '/favicon.ico') return void res.writeHead(204).end();
      const f = files[req.url ?? ''];
      if (!f) return void res.writeHead(404).end('not found');
      res.writeHead(200, { 'content-type': f[0] }).end(f[1]);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await openChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((r) => server?.close(() => r()));
  });

  it('creates a task, advances the clock and shows the finished image, every request answered by the worker', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
    await page.goto(origin + '/');
    await page.waitForFunction(() => document.getElementById('status')?.dataset.taskId, undefined, { timeout: 20_000 });
    expect(await page.textContent('#status')).toBe('pending');
    await page.evaluate(() => (window as unknown as { mock: { advance(ms: number): unknown } }).mock.advance(10 * 60_000));
    await page.waitForSelector('#result', { timeout: 20_000 });
    const img = await page.waitForFunction(
      () => {
        const i = document.getElementById('result') as HTMLImageElement | null;
        return i?.complete && i.naturalWidth > 0 ? { w: i.naturalWidth, h: i.naturalHeight, src: i.src, dw: i.dataset.width, dh: i.dataset.height } : null;
      },
      undefined,
      { timeout: 20_000 },
    );
    const shown = (await img.jsonValue())!;
    expect(await page.textContent('#status')).toBe('success');
    // the PNG decoded in the browser has the pixel size the estimate declares for the same request
    expect(shown.src).toMatch(new RegExp(`^${origin}/media/images/.+\\.png$`));
    expect([shown.w, shown.h]).toEqual([Number(shown.dw), Number(shown.dh)]);
    // the static server saw the page, its script and the worker only: the API and the media were answered in the browser
    expect(served.filter((u) => u.startsWith('/v1/') || u.startsWith('/media/'))).toEqual([]);
    expect(errors).toEqual([]);
  });
});
