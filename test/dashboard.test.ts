/**
 * The dashboard at /__mock/ui (docs/guides/dashboard.md) in headless Chromium,
 * on one mock started with a control token and one browser: the page asks for
 * the token once and keeps it for the tab; a task created through the API
 * appears within a second; "Advance 1 min" brings it to success and its image
 * loads; a failure forced from the page's form makes the next create answer
 * that code; opening the page leaves the journal's counts as they were; no
 * console error, nothing requested from another host. Each test opens a page
 * of its own (the first signs in; the others hold the token already) and makes
 * the tasks, rules and requests it reads, so none depends on another. The bundle
 * is built from mock/ui/ first (scripts/ui-build.mjs), so the page tested is
 * the sources'. Also the page's pure helpers (mock/ui/media.ts). The browser
 * part is skipped with a notice without a system Chromium.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCatalog } from '../schemas/errors.ts';
import { operations, type OperationId } from '../schemas/operations.ts';
import { mediaIn, mediaKind, readOperationOf, readPath } from '../mock/ui/media.ts';
import { buildUi } from '../scripts/ui-build.mjs';
import { CHROMIUM, openChromium, type TestBrowser } from './browser.ts';
import { imageBody, pathOf } from './factories.ts';
import { KEY, startMock, type TestMock } from './helpers.ts';

const TOKEN = 'dashboard-test-token';
const FORCED = errorCatalog.IMAGE_INSUFFICIENT_CREDITS;

describe("the dashboard's helpers", () => {
  it('every area it reads names a GET operation of the registry with one path parameter', () => {
    for (const [area, id] of Object.entries(readOperationOf)) {
      const op = operations[id as OperationId];
      expect(op, area).toBeDefined();
      expect(op.method, area).toBe('get');
      expect(op.path.match(/\{[^}]+\}/g), area).toHaveLength(1);
    }
    expect(readPath('/v1/podcast/episodes/{episodeId}', 'pe 1')).toBe('/v1/podcast/episodes/pe%201');
  });

  it.each([
    ['http://m/media/images/a.png', 'image'],
    ['http://m/media/music/t.mp3?expires=1&sig=ab', 'audio'],
    ['http://m/media/videos/v.mp4', 'video'],
    ['http://m/media/speech/s.srt', 'link'],
    ['http://m/media/hls/x.m3u8', 'link'],
  ] as const)('%s is shown as %s', (url, kind) => expect(mediaKind(url)).toBe(kind));

  it("finds every URL of a result once, with its path; another host's URL stays a link", () => {
    const task = { images: [{ url: 'http://me:1/media/i/a.png' }, { url: 'http://me:1/media/i/a.png' }], ref: 'https://example.com/r.png', n: 1 };
    expect(mediaIn(task, 'http://me:1')).toEqual([
      { kind: 'image', url: 'http://me:1/media/i/a.png', where: 'images[0].url' },
      { kind: 'link', url: 'https://example.com/r.png', where: 'ref' },
    ]);
  });
});

describe.skipIf(!CHROMIUM)('the dashboard at /__mock/ui in headless Chromium', () => {
  let m: TestMock;
  let browser: TestBrowser;
  /** The page of the sign-in test; every other test opens its own (openPage). */
  let page: Page;
  const errors: string[] = [];
  const hosts = new Set<string>();
  /** Paths the page loaded that answered 404. */
  const notFound: string[] = [];
  const control = { key: null, headers: { authorization: `Bearer ${TOKEN}` } };
  const createImage = (headers: Record<string, string> = {}) => m.call('POST', pathOf('createImageTask'), { body: imageBody(), headers });

  /** `p` with the run's listeners: console errors, hosts requested, 404s. */
  function watched(p: Page): Page {
    // a change of the host's network interfaces (another container starting) makes Chromium fail a load in flight
    // with ERR_NETWORK_CHANGED: the machine's doing, not the page's
    p.on('console', (msg) => void (msg.type() === 'error' && !msg.text().includes('net::ERR_NETWORK_CHANGED') && errors.push(msg.text())));
    p.on('pageerror', (e) => errors.push(e.message));
    p.on('request', (r) => void (!r.url().startsWith('data:') && hosts.add(new URL(r.url()).host)));
    p.on('response', (r) => void (r.status() === 404 && notFound.push(new URL(r.url()).pathname)));
    return p;
  }

  /** A page of a test's own on the dashboard, holding the token already (the tab's sessionStorage), shown. */
  async function openPage(): Promise<Page> {
    const p = watched(await browser.newPage({ viewport: { width: 1400, height: 1000 } }));
    await p.addInitScript((t) => sessionStorage.setItem('mediagen-mock.control-token', t), TOKEN);
    await p.goto(`${m.base}/__mock/ui/`);
    await p.getByRole('button', { name: 'Advance 1 min' }).waitFor({ timeout: 60_000 });
    return p;
  }

  /** A task created through the API and brought to success through the control API (an image task takes under 1 min). */
  async function finishedImage(): Promise<string> {
    const created = await createImage();
    expect(created.status, created.text).toBe(202);
    expect((await m.call('POST', '/__mock/clock/advance', { ...control, body: { ms: 60_000 } })).status).toBe(200);
    const id = created.json.data.taskId as string;
    expect((await m.call('GET', pathOf('getImageTask', { taskId: id }))).json.data.status).toBe('success');
    return id;
  }

  beforeAll(async () => {
    await buildUi();
    m = await startMock({ controlToken: TOKEN });
    browser = await openChromium();
    page = watched(await browser.newPage({ viewport: { width: 1400, height: 1000 } }));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await m?.close();
  });

  it('the shell and its bundle need no token, every data request does; the page asks for the token once and keeps it for the tab', async () => {
    for (const path of ['/__mock/ui/', '/__mock/ui/app.js', '/__mock/ui/style.css']) expect((await m.call('GET', path, { key: null })).status, path).toBe(200);
    expect((await m.call('GET', '/__mock/clock', { key: null })).status).toBe(403);

    await page.goto(`${m.base}/__mock/ui`);
    expect(new URL(page.url()).pathname).toBe('/__mock/ui/');
    // a wrong token is refused and forgotten; the page asks again
    await page.getByLabel('Control token').fill('not-the-token');
    await page.getByRole('button', { name: 'Use token' }).click();
    await page.getByRole('alert').filter({ hasText: 'The mock refused that token.' }).waitFor();
    expect(await page.evaluate(() => Object.values(sessionStorage))).not.toContain('not-the-token');
    // (Chromium logs each refused request as a failed load: those are expected, the rest of the run must log none)
    await page.waitForTimeout(300);
    errors.splice(0);
    await page.getByLabel('Control token').fill(TOKEN);
    await page.getByRole('button', { name: 'Use token' }).click();
    await page.getByRole('button', { name: 'Advance 1 min' }).waitFor();
    expect(await page.evaluate(() => Object.values(sessionStorage))).toContain(TOKEN);
    // a reload in the same tab does not ask again
    await page.reload();
    await page.getByRole('button', { name: 'Advance 1 min' }).waitFor();
    expect(await page.getByLabel('Control token').count()).toBe(0);
  });

  it('a task created through the API appears without a reload; "Advance 1 min" brings it to success and its image loads', async () => {
    const page = await openPage();
    const created = await createImage();
    expect(created.status, created.text).toBe(202);
    const id = created.json.data.taskId as string;
    const row = page.locator(`tr[data-task="${id}"]`);
    // waited for, not timed: how soon is the page's polling to say, not a loaded machine
    await row.waitFor({ timeout: 60_000 });
    await expect.poll(() => row.getByTestId('status').textContent()).toBe('pending');

    // a rule meant for the app under test, which the page's own read of the task must leave alone
    const meant = await m.call('POST', '/__mock/scenarios', { ...control, body: { operationId: 'getImageTask', error: 'IMAGE_TASK_NOT_FOUND' } });
    expect(meant.status, meant.text).toBe(200);

    await page.getByRole('button', { name: 'Advance 1 min' }).click();
    await expect.poll(() => row.getByTestId('status').textContent(), { timeout: 60_000 }).toBe('success');
    // the history in virtual time, and the result's image rendered from the mock's own media URL
    expect(await row.locator('.history').textContent()).toMatch(/pending .*→ .*success \+\d/);
    const img = row.locator('img');
    await img.waitFor({ timeout: 60_000 });
    await expect.poll(() => img.evaluate((e: HTMLImageElement) => e.complete && e.naturalWidth), { timeout: 60_000 }).toBeGreaterThan(0);
    expect(await img.getAttribute('src')).toMatch(new RegExp(`^${m.base}/media/`));
    // labelled with the field it comes from
    expect(await row.locator('figure figcaption').first().textContent()).toBe('images[0].url');
    expect((await m.call('GET', '/__mock/scenarios', control)).json.items).toEqual([meant.json]);
    expect((await m.call('DELETE', `/__mock/scenarios/${meant.json.id}`, control)).json.existed).toBe(true);
    await page.close();
  });

  it('opening the page only watches: the journal and its counts are the same before and after the page shows a result', async () => {
    const count = async (q = '') => (await m.call('GET', `/__mock/requests/count${q}`, control)).json.count as number;
    const id = await finishedImage();
    const before = { all: await count(), reads: await count('?operationId=getImageTask') };
    const fresh = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await fresh.addInitScript((t) => sessionStorage.setItem('mediagen-mock.control-token', t), TOKEN);
    await fresh.goto(`${m.base}/__mock/ui/`);
    // the finished task: its result is read and its image shown
    const img = fresh.locator(`tr[data-task="${id}"] img`);
    await img.waitFor({ timeout: 60_000 });
    await expect.poll(() => img.evaluate((e: HTMLImageElement) => e.complete && e.naturalWidth), { timeout: 60_000 }).toBeGreaterThan(0);
    const after = { all: await count(), reads: await count('?operationId=getImageTask') };
    console.log(`[dashboard] journal count before opening the page ${before.all} (getImageTask ${before.reads}), after ${after.all} (${after.reads})`);
    expect(after).toEqual(before);
    expect(before.all).toBeGreaterThan(0);
    await fresh.close();
  });

  it('a failure forced from the page: the next create through the API answers that code, and the journal shows it', async () => {
    const page = await openPage();
    const form = page.getByRole('form', { name: 'Add a scenario rule' });
    await form.getByLabel('Operation', { exact: true }).selectOption('createImageTask');
    await form.getByLabel('API key', { exact: true }).fill(KEY);
    await form.getByLabel('Forcing', { exact: true }).selectOption('error');
    await form.getByLabel('Error', { exact: true }).selectOption(String(FORCED.code));
    await form.getByRole('button', { name: 'Add rule' }).click();
    await expect.poll(async () => (await m.call('GET', '/__mock/scenarios', control)).json.items.length).toBe(1);
    const [rule] = (await m.call('GET', '/__mock/scenarios', control)).json.items;
    expect(rule).toMatchObject({ apiKey: KEY, operationIds: ['createImageTask'], error: FORCED.code, remaining: 1 });
    const deleteButton = page.getByRole('button', { name: `Delete ${rule.id}` });
    await deleteButton.waitFor({ timeout: 60_000 });

    const refused = await createImage();
    expect(refused.status).toBe(FORCED.httpStatus);
    expect(refused.json.code).toBe(FORCED.code);
    // the rule is used up and leaves the list; the journal lists the refused request with its code
    await deleteButton.waitFor({ state: 'detached', timeout: 60_000 });
    const journal = page.locator('section[aria-labelledby="journal-h"]');
    await journal
      .getByRole('cell', { name: String(FORCED.code), exact: true })
      .first()
      .waitFor({ timeout: 60_000 });
    await page.close();
  });

  it('accounts: the ledger with its running sum, balance and plan set from the page; the journal filtered by status', async () => {
    await finishedImage(); // a charge on the ledger
    // one request of its own with a status no other test makes: a 429 forced through Prefer
    const limited = await createImage({ prefer: 'code=429' });
    expect(limited.status, limited.text).toBe(429);
    const page = await openPage();
    await page.getByLabel('Account', { exact: true }).selectOption(KEY);
    const accounts = page.locator('section[aria-labelledby="accounts-h"]');
    const ledgerRows = accounts.locator('tbody tr');
    await expect.poll(() => ledgerRows.count()).toBeGreaterThan(1);
    const before = (await m.call('GET', `/__mock/accounts/${KEY}`, control)).json;
    // the running sum of the last row is the balance
    await expect.poll(() => ledgerRows.last().locator('td').nth(4).textContent()).toBe(String(before.credits));

    await page.getByLabel('Balance (credits)').fill('1234');
    await page.getByLabel('Plan', { exact: true }).selectOption('free');
    await page.getByRole('button', { name: 'Save account' }).click();
    await expect.poll(async () => (await m.call('GET', `/__mock/accounts/${KEY}`, control)).json).toMatchObject({ credits: 1234, plan: 'free' });
    await expect.poll(() => accounts.getByTestId('balance').textContent()).toBe('1234 credits');
    await expect.poll(() => ledgerRows.last().locator('td').nth(2).textContent()).toBe('adjust');

    const journal = page.locator('section[aria-labelledby="journal-h"]');
    await journal.getByLabel('Status').fill('429');
    await expect.poll(() => journal.locator('tbody tr').count()).toBe(1);
    expect(await journal.locator('tbody tr td').nth(6).textContent()).toBe(String(limited.json.code));
    await page.close();
  });

  it('sessions: the default row filled; open one from the page, at a URL of its own that a reload keeps; its tasks (and only its) appear; switch back; drop it', async () => {
    const page = await openPage();
    const defaultRow = page.locator('section[aria-labelledby="sessions-h"] tr[data-session=""] td');
    const journaled = (await m.call('GET', '/__mock/requests/count', control)).json.count as number;
    await expect.poll(async () => (await defaultRow.allTextContents()).slice(1, 4)).toEqual(['1', expect.stringMatching(/^2026-01-01 /), String(journaled)]);

    await page.getByLabel('Session name').fill('worker-1');
    await page.getByRole('button', { name: 'Open session' }).click();
    await expect.poll(() => page.getByTestId('session').textContent()).toBe('worker-1');
    expect(new URL(page.url()).pathname).toBe('/sessions/worker-1/__mock/ui/');
    await page.reload();
    await expect.poll(() => page.getByTestId('session').textContent()).toBe('worker-1');
    await page.getByText('No task yet').waitFor({ timeout: 60_000 });
    const created = await m.call('POST', pathOf('createImageTask'), { body: imageBody(), headers: { 'x-mock-session': 'worker-1' } });
    expect(created.status, created.text).toBe(202);
    await page.locator(`tr[data-task="${created.json.data.taskId}"]`).waitFor({ timeout: 60_000 });

    await page.getByRole('button', { name: 'Switch to default' }).click();
    await expect.poll(() => page.getByTestId('session').textContent()).toBe('default');
    expect(new URL(page.url()).pathname).toBe('/__mock/ui/');
    await page.getByRole('button', { name: 'Drop worker-1' }).click();
    await expect.poll(async () => (await m.call('GET', '/__mock/sessions', control)).json.items).toEqual([]);
    await page.close();
  });

  it('advance by a chosen amount, then reset from the page (a new seed); the page follows the new activity feed', async () => {
    const page = await openPage();
    const now = async () => (await m.call('GET', '/__mock/clock', control)).json.now as number;
    const before = await now();
    await page.getByLabel('Amount', { exact: true }).fill('90');
    await page.getByLabel('Unit', { exact: true }).selectOption('s');
    await page.getByRole('button', { name: 'Advance', exact: true }).click();
    await expect.poll(now).toBe(before + 90_000);

    await page.getByLabel('Seed', { exact: true }).fill('7');
    await page.getByRole('button', { name: 'Reset default' }).click();
    await expect.poll(async () => (await m.call('GET', '/__mock/health', control)).json.seed).toBe(7);
    await page.getByText('No task yet').waitFor({ timeout: 60_000 });
    const created = await createImage();
    await page.locator(`tr[data-task="${created.json.data.taskId}"]`).waitFor({ timeout: 60_000 });
    await page.close();
  });

  it('logged no console error and requested nothing from another host', () => {
    // a task (its read, its <img> or <video>) that a reset or a dropped session took away answers 404, and the
    // browser logs the failed load: API reads and media only; a 404 of the page's own control calls, or any other
    // error, is the page's fault
    expect(notFound.filter((p) => !/^(\/sessions\/[^/]+)?\/(media|v1)\//.test(p))).toEqual([]);
    const mediaGone = notFound.length > 0;
    expect(errors.filter((e) => !(mediaGone && /^Failed to load resource: the server responded with a status of 404/.test(e)))).toEqual([]);
    expect([...hosts]).toEqual([new URL(m.base).host]);
    expect(m.bugs).toEqual([]);
  });
});
