/**
 * CORS from a real browser: a page on another origin (a static server on
 * 127.0.0.1) calls the mock on localhost with `credentials: 'include'`, a
 * `traceparent` and an `Idempotency-Key` header (both need a preflight), reads
 * a JSON answer, reads Retry-After of a 429, and loads a Range of a media
 * file. Runs in the system Chromium; skipped with a notice when there is none.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, openChromium, type TestBrowser } from './browser.ts';
import { pathOf, videoBody } from './factories.ts';
import { KEY, startMock, type TestMock } from './helpers.ts';

describe.skipIf(!CHROMIUM)('CORS from a page of another origin in headless Chromium', () => {
  let page: Server;
  let pageOrigin: string;
  let m: TestMock;
  let browser: TestBrowser;

  beforeAll(async () => {
    m = await startMock();
    page = createServer((_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>app</title><p>app</p>'));
    await new Promise<void>((r) => page.listen(0, '127.0.0.1', r));
    pageOrigin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
    browser = await openChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((r) => page?.close(() => r()));
    await m?.close();
  });

  it('credentials, extra headers, exposed Retry-After and a media range all work', async () => {
    const tab = await browser.newPage();
    const errors: string[] = [];
    tab.on('console', (msg) => void (msg.type() === 'error' && errors.push(msg.text())));
    await tab.goto(pageOrigin + '/');
    // the mock on another origin than the page: localhost instead of 127.0.0.1
    const api = m.base.replace('127.0.0.1', 'localhost');
    const out = await tab.evaluate(
      async ({ api, key, createPath, body }) => {
        const headers = {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
          'idempotency-key': 'k-1',
        };
        const created = await fetch(api + createPath, { method: 'POST', credentials: 'include', headers, body: JSON.stringify(body) });
        const json = (await created.json()) as { code: number; data: { taskId: string } };
        const limited = await fetch(api + createPath, {
          method: 'POST',
          credentials: 'include',
          headers: { ...headers, prefer: 'code=429' },
          body: JSON.stringify(body),
        });
        return {
          status: created.status,
          code: json.code,
          taskId: json.data.taskId,
          limited: limited.status,
          retryAfter: limited.headers.get('retry-after'),
          length: created.headers.get('content-length'),
        };
      },
      { api, key: KEY, createPath: pathOf('createVideoTask'), body: videoBody() },
    );
    expect(out).toMatchObject({ status: 200, code: 0, limited: 429 });
    expect(out.retryAfter).toMatch(/^\d+$/);
    expect(Number(out.length)).toBeGreaterThan(0);

    await m.advance(10 * 60_000);
    const media = await tab.evaluate(
      async ({ api, key, path }) => {
        const task = (await (await fetch(api + path, { credentials: 'include', headers: { authorization: `Bearer ${key}` } })).json()) as { data: unknown };
        const url = JSON.stringify(task.data).match(/https?:\/\/[^"]+\.mp4/)![0];
        const part = await fetch(url, { credentials: 'include', headers: { range: 'bytes=0-99' } });
        return { status: part.status, range: part.headers.get('content-range'), etag: part.headers.get('etag'), bytes: (await part.arrayBuffer()).byteLength };
      },
      { api, key: KEY, path: pathOf('getVideoTask', { taskId: out.taskId }) },
    );
    expect(media.status).toBe(206);
    expect(media.range).toMatch(/^bytes 0-99\/\d+$/);
    expect(media.etag).toBeTruthy();
    expect(media.bytes).toBe(100);
    // Chromium logs every non-2xx answer (the forced 429) as a console error; none may be a CORS refusal
    expect(errors.filter((e) => !/status of 429/.test(e))).toEqual([]);
  });
});
