/**
 * The system Chromium for browser tests (Debian package `chromium`, driven by
 * playwright-core; `.ci/run` installs it when missing). On a machine without
 * it the browser suites are skipped with a printed notice:
 *
 *   describe.skipIf(!CHROMIUM)('...', () => { ... openChromium() ... })
 *
 * One Chromium serves every browser file a test worker runs (a launch costs
 * about a second of CPU): each file gets its own pages, each page in a
 * browser context of its own (no cookies or storage shared), and closes them
 * when it is done. The browser goes with the worker's process.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/** Path of the system Chromium, or undefined when there is none. */
export const CHROMIUM: string | undefined = CANDIDATES.find((p): p is string => !!p && existsSync(p));

if (!CHROMIUM) console.warn('[browser tests skipped] no system Chromium found (apt-get install chromium, or set CHROMIUM_PATH)');

const BASE_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'];

/** Launches a Chromium of the caller's own (a script, a single e2e run), with `args` besides the usual ones; the caller closes it. */
export function launchChromium(args: readonly string[] = []): Promise<Browser> {
  if (!CHROMIUM) throw new Error('no system Chromium');
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...BASE_ARGS, ...args] });
}

/**
 * Flags of the shared launch besides the usual ones: `evil.test` resolves to this machine, so a page can be served
 * from a site other than the mock's (the DNS-rebinding and cross-site tests).
 */
const EXTRA_ARGS = ['--host-resolver-rules=MAP evil.test 127.0.0.1'];

let shared: Promise<Browser> | undefined;

/** A test file's view of the shared Chromium: pages it opens, each in a context of its own; `close` closes them. */
export interface TestBrowser {
  newPage(options?: Parameters<Browser['newPage']>[0]): Promise<Page>;
  /** Closes every page this file opened (and their contexts); the browser stays for the next file. */
  close(): Promise<void>;
}

/** The worker's Chromium (launched headless on first use), as a TestBrowser of the calling file. */
export async function openChromium(): Promise<TestBrowser> {
  if (!CHROMIUM) throw new Error('no system Chromium');
  const launching = (shared ??= launchChromium(EXTRA_ARGS));
  // a launch that failed is tried again by the next file
  launching.catch(() => (shared = undefined));
  const browser = await launching;
  const pages = new Set<Page>();
  return {
    async newPage(options) {
      const page = await browser.newPage(options);
      pages.add(page);
      return page;
    },
    async close() {
      await Promise.all([...pages].map((p) => p.close()));
      pages.clear();
    },
  };
}
