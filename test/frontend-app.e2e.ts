/**
 * The mock inside a real frontend app (`npm run test:frontend`, run by .ci/run
 * after `npm test`; too heavy for the main suite). The packed package is
 * installed into a Vite + React + TypeScript app (test/frontend-app/, with
 * react, react-dom, vite, @vitejs/plugin-react and MSW 3; the app's
 * node_modules are kept between runs, keyed by the tarball's hash), whose
 * dev server runs in this process on a free loopback port. The app starts
 * MSW's service worker with `createMockHandlers({ baseUrl: location.origin })`
 * in development only and calls the API on its own origin through relative
 * URLs. In the system Chromium:
 *
 * - a video task reaches success once the virtual clock is advanced, and its
 *   video plays: loadedmetadata gives the declared duration and the pixel
 *   size of 720p 16:9 (the H.264 muxer is a chunk Vite loads lazily, which
 *   the worker lets through);
 * - an edit of a component hot-reloads (no full reload);
 * - the app's modules, Vite's own requests and the favicon reach the dev
 *   server with their own content types, and no API or media request does.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import type * as Vite from 'vite';
import type { PluginOption, ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, launchChromium } from './browser.ts';

const root = new URL('..', import.meta.url).pathname;
const fixture = join(root, 'test/frontend-app');
/** What the app installs besides the packed package (pinned, so the cache key holds). */
const APP_DEPENDENCIES = ['react@19.3.1', 'react-dom@19.3.1', 'vite@8.3.8', '@vitejs/plugin-react@6.3.0', 'msw@3.0.5'];

/** Packs the package and returns an app folder with it and APP_DEPENDENCIES installed (reused when the tarball is unchanged). */
function prepareApp(): string {
  const packs = join(tmpdir(), 'mediagen-frontend-packs');
  rmSync(packs, { recursive: true, force: true });
  mkdirSync(packs, { recursive: true });
  execFileSync('npm', ['pack', '--pack-destination', packs, '--silent'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  const tarball = join(
    packs,
    readdirSync(packs).find((f) => f.endsWith('.tgz'))!,
  );
  const hash = createHash('sha256').update(readFileSync(tarball)).update(APP_DEPENDENCIES.join(' ')).digest('hex').slice(0, 16);
  const app = join(tmpdir(), `mediagen-frontend-app-${hash}`);
  if (!existsSync(join(app, 'node_modules/.installed'))) {
    rmSync(app, { recursive: true, force: true });
    mkdirSync(app, { recursive: true });
    cpSync(tarball, join(app, 'mediagen-contract.tgz'));
    writeFileSync(join(app, 'package.json'), readFileSync(join(fixture, 'package.json')));
    execFileSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', './mediagen-contract.tgz', ...APP_DEPENDENCIES], {
      cwd: app,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, npm_config_loglevel: 'error' },
    });
    writeFileSync(join(app, 'node_modules/.installed'), hash);
  }
  // the app's own files, fresh every run (the test edits one)
  for (const f of ['index.html', 'tsconfig.json', 'src', 'public']) {
    rmSync(join(app, f), { recursive: true, force: true });
    cpSync(join(fixture, f), join(app, f), { recursive: true });
  }
  // the worker script of the installed MSW, as `npx msw init public/` would copy it
  cpSync(join(app, 'node_modules/msw/lib/mockServiceWorker.js'), join(app, 'public/mockServiceWorker.js'));
  return app;
}

describe.skipIf(!CHROMIUM)('the mock in a Vite + React app, in a service worker on the app origin', () => {
  let app: string;
  let server: ViteDevServer;
  let origin: string;
  let browser: Browser;
  let page: Page;
  /** Every request the dev server saw, with the content type it answered. */
  const seen: { url: string; type: string }[] = [];
  const errors: string[] = [];
  const logs: string[] = [];

  beforeAll(async () => {
    app = prepareApp();
    const vite = (await import(pathToFileURL(join(app, 'node_modules/vite/dist/node/index.js')).href)) as typeof Vite;
    const react = (await import(pathToFileURL(join(app, 'node_modules/@vitejs/plugin-react/dist/index.js')).href)) as {
      default: () => PluginOption;
    };
    server = await vite.createServer({
      root: app,
      configFile: false,
      logLevel: 'warn',
      clearScreen: false,
      server: { host: '127.0.0.1', port: 0, strictPort: false },
      // found at start, so no dependency is optimised (and the page reloaded) while the test runs
      optimizeDeps: { include: ['react', 'react-dom/client', 'react/jsx-dev-runtime', 'msw/browser', 'mediagen-contract/msw'] },
      plugins: [
        react.default(),
        {
          name: 'record-requests',
          configureServer(s) {
            s.middlewares.use((req, res, next) => {
              res.on('finish', () => seen.push({ url: req.url ?? '', type: String(res.getHeader('content-type') ?? '') }));
              next();
            });
          },
        },
      ],
    });
    await server.listen();
    origin = `http://127.0.0.1:${(server.httpServer!.address() as AddressInfo).port}`;
    browser = await launchChromium();
    page = await browser.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      logs.push(m.text());
      if (m.type() === 'error') errors.push(m.text());
    });
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('a video task reaches success on the advanced clock and its video plays with the declared duration and size', async () => {
    await page.goto(origin + '/');
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'generating', undefined, { timeout: 60_000 });
    // the control API over its HTTP path, answered by the handlers in the service worker as the server would
    const advanced = await page.evaluate(async () => {
      const r = await fetch('/__mock/clock/advance', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ms: 600_000 }),
      });
      return { status: r.status, body: (await r.json()) as { eventsRun: number } };
    });
    expect(advanced.status).toBe(200);
    expect(advanced.body.eventsRun).toBeGreaterThan(0);
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'success', undefined, { timeout: 30_000 });
    const meta = await page.evaluate(
      () =>
        new Promise<{ duration: number; width: number; height: number; declared: number; src: string; played: boolean }>((resolve, reject) => {
          const v = document.getElementById('video') as HTMLVideoElement;
          const declared = Number(document.getElementById('status')!.dataset.duration);
          // playing: the clock of the element moves (polled for up to 10 s: a loaded machine starts slowly)
          const played = async () => {
            for (let i = 0; i < 100 && !(v.currentTime > 0); i++) await new Promise((r) => setTimeout(r, 100));
            return v.currentTime > 0;
          };
          const done = () =>
            void v
              .play()
              .then(played)
              .then((p) => resolve({ duration: v.duration, width: v.videoWidth, height: v.videoHeight, declared, src: v.currentSrc, played: p }), reject);
          v.addEventListener('error', () => reject(new Error(`video error ${v.error?.code}: ${v.error?.message}`)));
          if (v.readyState >= 1) done();
          else v.addEventListener('loadedmetadata', done, { once: true });
        }),
    );
    expect(meta.src).toMatch(new RegExp(`^${origin}/media/videos/.+\\.mp4$`));
    expect(meta.declared).toBe(5);
    expect(meta.duration).toBeCloseTo(meta.declared, 1);
    expect([meta.width, meta.height]).toEqual([1280, 720]);
    expect(meta.played).toBe(true);
  }, 120_000);

  it('an edit of a component hot-reloads without a full reload', async () => {
    await page.evaluate(() => ((window as unknown as { beforeEdit: boolean }).beforeEdit = true));
    const file = join(app, 'src/App.tsx');
    writeFileSync(file, readFileSync(file, 'utf8').replace('Video studio v1', 'Video studio v2'));
    await page.waitForFunction(() => document.getElementById('title')?.textContent === 'Video studio v2', undefined, { timeout: 30_000 });
    expect(await page.evaluate(() => (window as unknown as { beforeEdit?: boolean }).beforeEdit)).toBe(true);
    expect(logs.filter((l) => /failed to reload/i.test(l))).toEqual([]);
  }, 60_000);

  it("the app's modules, Vite's requests and the favicon reach the dev server; the API and media never do", () => {
    const typeOf = (re: RegExp) => seen.filter((s) => re.test(s.url)).map((s) => s.type);
    expect(typeOf(/^\/src\/App\.tsx\?t=\d+/).length).toBeGreaterThan(0); // the hot update's fetch
    expect(typeOf(/^\/src\//).every((t) => t.startsWith('text/javascript'))).toBe(true);
    expect(typeOf(/^\/@vite\/client/)).toEqual(expect.arrayContaining([expect.stringMatching(/^text\/javascript/)]));
    expect(typeOf(/^\/node_modules\/\.vite\/deps\//).length).toBeGreaterThan(0);
    expect(typeOf(/^\/node_modules\/\.vite\/deps\//).every((t) => t.startsWith('text/javascript'))).toBe(true);
    expect(typeOf(/^\/favicon\.svg/)).toEqual(expect.arrayContaining([expect.stringMatching(/^image\/svg\+xml/)]));
    expect(seen.filter((s) => /^\/(v1|media|__mock)\//.test(s.url))).toEqual([]);
    expect(errors).toEqual([]);
  });
});
