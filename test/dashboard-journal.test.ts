/**
 * The dashboard's journal shows each request's response body beside its request body (docs/guides/dashboard.md,
 * "Journal"), in headless Chromium: a created task's envelope, folded under "response", holds the task id the client
 * received; a TTS request's audio is shown as its media type and size, not as bytes. The bundle is built from
 * mock/ui/ first, so the page tested is the sources'. Skipped with a notice without a system Chromium.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUi } from '../scripts/ui-build.mjs';
import { CHROMIUM, openChromium, type TestBrowser } from './browser.ts';
import { imageBody, pathOf, ttsBody } from './factories.ts';
import { startMock, type TestMock } from './helpers.ts';

describe.skipIf(!CHROMIUM)("the dashboard's journal in headless Chromium", () => {
  let m: TestMock;
  let browser: TestBrowser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    await buildUi();
    m = await startMock();
    browser = await openChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.on('console', (msg) => void (msg.type() === 'error' && !msg.text().includes('net::ERR_NETWORK_CHANGED') && errors.push(msg.text())));
    page.on('pageerror', (e) => errors.push(e.message));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await m?.close();
  });

  it('a JSON response is folded under "response" with the body the client received; audio is its type and size', async () => {
    const created = await m.call('POST', pathOf('createImageTask'), { body: imageBody() });
    expect(created.status, created.text).toBe(202);
    const taskId = created.json.data.taskId as string;
    const tts = await m.call('POST', pathOf('synthesizeSpeech'), { body: ttsBody() });
    expect(tts.status, tts.text).toBe(200);
    const audioType = tts.headers.get('content-type')!;

    await page.goto(`${m.base}/__mock/ui/`);
    const journal = page.locator('section[aria-labelledby="journal-h"]');
    const createRow = journal.locator('tbody tr').filter({ hasText: 'createImageTask' });
    await createRow.waitFor({ timeout: 60_000 });
    const response = createRow.locator('details').filter({ has: page.locator('summary', { hasText: /^response$/ }) });
    await response.locator('summary').click();
    const shown = JSON.parse((await response.locator('pre').textContent()) ?? '') as unknown;
    expect(shown).toEqual(created.json);
    expect(JSON.stringify(shown)).toContain(taskId);
    // the request body beside it, as before
    expect(await createRow.locator('summary', { hasText: /^body$/ }).count()).toBe(1);

    const ttsRow = journal.locator('tbody tr').filter({ hasText: 'synthesizeSpeech' });
    await ttsRow.waitFor({ timeout: 60_000 });
    expect(await ttsRow.locator('td').last().textContent()).toMatch(new RegExp(`^${audioType.replace(/[/.+]/g, '\\$&')}, (streamed|[\\d,]+ bytes)$`));
    expect(errors).toEqual([]);
  });
});
