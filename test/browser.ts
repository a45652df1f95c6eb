/**
 * The system Chromium for browser tests (Debian package `chromium`, driven by
 * playwright-core; `.ci/run` installs it when missing). On a machine without
 * it the browser suites are skipped with a printed notice:
 *
 *   describe.skipIf(!CHROMIUM)('...', () => { ... launchChromium() ... })
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/** Path of the system Chromium, or undefined when there is none. */
export const CHROMIUM: string | undefined = CANDIDATES.find((p): p is string => !!p && existsSync(p));

if (!CHROMIUM) console.warn('[browser tests skipped] no system Chromium found (apt-get install chromium, or set CHROMIUM_PATH)');

/** Launches the system Chromium headless, with `args` besides the usual ones (say, `--host-resolver-rules=MAP evil.test 127.0.0.1`). */
export function launchChromium(args: readonly string[] = []): Promise<Browser> {
  if (!CHROMIUM) throw new Error('no system Chromium');
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', ...args] });
}
