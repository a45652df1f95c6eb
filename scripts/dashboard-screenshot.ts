/**
 * `npx tsx scripts/dashboard-screenshot.ts [out.png]`: the screenshot of the
 * dashboard in docs/images/dashboard.png, taken with the system Chromium
 * (test/browser.ts) on an in-process mock (seed 1, manual clock): a few tasks
 * of several areas created through the API, one forced to fail, a minute
 * advanced from the page, a scenario rule waiting, an account opened.
 */
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createMockServer } from '../mock/http/app.ts';
import { buildUi } from './ui-build.mjs';
import { launchChromium } from '../test/browser.ts';
import { imageBody, lyricsBody, musicBody, pathOf, speechBody, videoBody } from '../test/factories.ts';

const out = process.argv[2] ?? join(import.meta.dirname, '../docs/images/dashboard.png');
const KEY = 'mg_demo_secret1';

await buildUi();
const { app } = createMockServer({ clock: 'manual', seed: 1 });
const server = app.listen(0, '127.0.0.1');
await new Promise((r) => server.once('listening', r));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
  const res = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 500) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res;
};

const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 1300 }, colorScheme: 'light' });
  await page.goto(`${base}/__mock/ui/`);
  await page.getByRole('button', { name: 'Advance 1 min' }).waitFor();
  await call('POST', pathOf('createImageTask'), imageBody());
  await call('POST', pathOf('createVideoTask'), videoBody(), { prefer: 'outcome=failed' });
  await call('POST', pathOf('createLyricsTask'), lyricsBody());
  await call('POST', pathOf('createSpeechScript'), speechBody());
  await call('POST', pathOf('createImageTask'), imageBody({ prompt: 'a lighthouse at dusk' }));
  await call('POST', pathOf('generateMusic'), musicBody());
  // a second session, as a parallel test worker would make
  await call('GET', pathOf('getSubscription'), undefined, { 'x-mock-session': 'worker-1' });
  await page.waitForTimeout(500);
  await page.getByRole('button', { name: 'Advance 1 min' }).click();
  await page.waitForTimeout(1500);
  const form = page.getByRole('form', { name: 'Add a scenario rule' });
  await form.getByLabel('Operation', { exact: true }).selectOption('createImageTask');
  await form.getByLabel('API key', { exact: true }).fill(KEY);
  await form.getByLabel('Error', { exact: true }).selectOption('26004');
  await form.getByRole('button', { name: 'Add rule' }).click();
  await page.getByLabel('Account', { exact: true }).selectOption(KEY);
  await page.waitForTimeout(1500);
  await page.screenshot({ path: out, fullPage: true });
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
  server.closeAllConnections();
  server.close();
}
