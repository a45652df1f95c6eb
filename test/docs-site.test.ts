/**
 * The documentation site in headless Chromium: the static site of
 * `npm run docs` (scripts/docs.ts, served from a temporary folder) and the
 * running mock's /docs. Both list every operation of the registry, log no
 * console error and no document validation warning of the renderer, and
 * make no request to a host other than the one serving them (the renderer,
 * its fonts and the documents all come from there). The tables of the
 * introduction and of the operations' descriptions are readable.
 * Skipped with a notice without a system Chromium.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationIds, operations } from '../schemas/operations.ts';
import type { OperationDef } from '../schemas/registry-types.ts';
import { inServiceDocument } from '../scripts/spec.ts';
import { buildDocsSite } from '../scripts/docs.ts';
import { CHROMIUM, openChromium, type TestBrowser } from './browser.ts';
import { startMock, type TestMock } from './helpers.ts';

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.json': 'application/json', '.yaml': 'application/yaml' };

/** Opens `url`, waits for the reference to render; returns its text, the console errors and warnings and the hosts requested. */
async function visit(browser: TestBrowser, url: string, width = 1280) {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  const errors: string[] = [];
  const warnings: string[] = [];
  const hosts = new Set<string>();
  page.on('console', (m) => void (m.type() === 'error' ? errors.push(m.text()) : m.type() === 'warning' && warnings.push(m.text())));
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.protocol !== 'data:') hosts.add(u.host);
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  await page.waitForFunction(() => document.body.innerText.includes('Create a video task'), undefined, { timeout: 30_000 });
  const text = await page.evaluate(() => document.body.innerText);
  return { page, text, errors, warnings, hosts: [...hosts] };
}

// the operations of the service document (the mock's sign-in page is in the control document: scripts/spec.ts, inServiceDocument)
const summaries = operationIds.filter((id) => inServiceDocument(operations[id] as OperationDef)).map((id) => operations[id].summary);

describe.skipIf(!CHROMIUM)('the documentation site in headless Chromium', () => {
  let browser: TestBrowser;
  let site: Server;
  let siteDir: string;
  let m: TestMock;
  /** The mock's /docs, rendered once for the two tests that read it (Scalar's render of the document is most of a visit). */
  let mockDocs: ReturnType<typeof visit> | undefined;
  const visitMockDocs = () => (mockDocs ??= visit(browser, `${m.base}/docs`));

  beforeAll(async () => {
    siteDir = mkdtempSync(join(tmpdir(), 'mg-site-'));
    buildDocsSite(siteDir);
    site = createServer((req, res) => {
      const name = req.url === '/' ? 'index.html' : (req.url ?? '').slice(1).split('?')[0];
      try {
        const body = readFileSync(join(siteDir, name));
        res.writeHead(200, { 'content-type': TYPES[extname(name)] ?? 'application/octet-stream' }).end(body);
      } catch {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
    m = await startMock();
    browser = await openChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((r) => site?.close(() => r()));
    await m?.close();
    rmSync(siteDir, { recursive: true, force: true });
  });

  it('the static site of npm run docs: every operation listed, no console error, nothing from another host', async () => {
    const origin = `127.0.0.1:${(site.address() as AddressInfo).port}`;
    const v = await visit(browser, `http://${origin}/`);
    expect(summaries.filter((s) => !v.text.includes(s))).toEqual([]);
    expect(v.errors).toEqual([]);
    expect(v.warnings.filter((w) => /validation/i.test(w))).toEqual([]);
    expect(v.hosts).toEqual([origin]);
    // Scalar goes on rendering the rest of the document: closed, it does not take the CPU of the next visit
    await v.page.close();
  });

  it("the mock's /docs: the same, with try-it pointed at the mock itself, and the documents served beside it", async () => {
    const origin = new URL(m.base).host;
    const v = await visitMockDocs();
    expect(summaries.filter((s) => !v.text.includes(s))).toEqual([]);
    expect(v.errors).toEqual([]);
    expect(v.hosts).toEqual([origin]);
    // the server the reference shows (and "try it" calls) is the mock itself
    expect(await v.page.content()).toContain(m.base);
    // and links the mock's dashboard (read from the page as served: the rendered page is busy with Scalar)
    expect(await (await fetch(`${m.base}/docs/`)).text()).toMatch(/<a href="\.\.\/__mock\/ui\/"[^>]*>Dashboard of this mock<\/a>/);
    const api = (await (await fetch(`${m.base}/openapi.json`)).json()) as { servers: { url: string }[]; paths: object };
    expect(api.servers).toEqual([{ url: m.base, description: 'this mock' }]);
    expect(Object.keys(api.paths).length).toBeGreaterThan(40);
    expect(await (await fetch(`${m.base}/openapi.yaml`)).text()).toMatch(/^openapi: 3\.1/);
    expect((await fetch(`${m.base}/mock-control.openapi.yaml`)).status).toBe(200);
    // none of it is an API request
    expect(m.engine.journal.total).toBe(0);
  });

  it('"Try it" starts with the demo key, and the error catalog is readable at 1280 px (the table spans the section)', async () => {
    const v = await visitMockDocs();
    const keys = await v.page.evaluate(() => [...document.querySelectorAll('input')].map((i) => i.value).filter((x) => x.startsWith('mg_')));
    expect(keys).toContain('mg_demo_secret1');
    // Scalar renders the description's sections after the operations list: wait for the catalog's table
    await v.page.waitForFunction(() => [...document.querySelectorAll('table')].some((x) => x.innerText.includes('UNAUTHORIZED')), undefined, {
      timeout: 30_000,
    });
    const table = await v.page.evaluate(() => {
      const t = [...document.querySelectorAll('table')].find((x) => x.innerText.includes('UNAUTHORIZED'));
      if (!t) return undefined;
      const widths = [...t.querySelectorAll('tr:nth-child(2) td')].map((c) => Math.round(c.getBoundingClientRect().width));
      return { width: Math.round(t.getBoundingClientRect().width), widths };
    });
    expect(table).toBeDefined();
    expect(table!.width).toBeGreaterThan(800); // the whole section, not the 400 px column beside the key box
    expect(Math.min(...table!.widths)).toBeGreaterThan(60); // no column squeezed to a letter per line
    expect(table!.widths[1]).toBeGreaterThan(150); // the names (UNSUPPORTED_MEDIA_TYPE) on one or two lines
  }, 120_000);
  it("the tables of the operations' descriptions are readable at 1400 px: no column squeezed, whole words, and the renderer logs no validation error", async () => {
    const v = await visit(browser, `${m.base}/docs`, 1400);
    // the document checks the renderer makes run as it reads the schemas: give it the time of the page's render
    await v.page.waitForFunction(() => [...document.querySelectorAll('.operation-details table')].length >= 4, undefined, { timeout: 30_000 });
    const tables = await v.page.evaluate(() =>
      [...document.querySelectorAll('.operation-details .markdown table')].map((t) => {
        const cells = [...t.querySelectorAll('td, th')] as HTMLElement[];
        return { head: (t as HTMLElement).innerText.slice(0, 20), minCell: Math.min(...cells.map((c) => Math.round(c.getBoundingClientRect().width))) };
      }),
    );
    // createVideoTask (10 columns), createFamily5VideoTask, getVideoTask, generateImage and more
    expect(tables.length).toBeGreaterThanOrEqual(4);
    // a cell of one or two letters a line is 10-20 px wide; 60 px holds a word like "1080p" or "reference"
    expect(tables.filter((t) => t.minCell < 60)).toEqual([]);
    expect(v.warnings.filter((w) => /validation/i.test(w))).toEqual([]);
    expect(v.errors).toEqual([]);
    await v.page.close();
  }, 120_000);
});
