/**
 * Transport edges answered with the envelope like every other answer: a
 * request line or headers slower than Node's headersTimeout (408, 10016), a
 * CONNECT (405, 10005, with Allow), and an invalid Range, which RFC 9110 says
 * to ignore (200, the whole file) while an unsatisfiable valid one stays 416.
 */
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { errorCatalog } from '../schemas/errors.ts';
import { createMockServer } from '../mock/http/app.ts';
import { answerParserErrors } from '../mock/http/parser-errors.ts';
import { pathOf, videoBody } from './factories.ts';
import { useMocks } from './helpers.ts';

const mock = useMocks();
let servers: Server[] = [];
afterEach(async () => {
  for (const s of servers) s.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  servers = [];
});

/** Writes `chunks` to a raw connection (each after `gapMs`) and resolves with everything the server sends until it closes. */
function raw(port: number, chunks: string[], gapMs = 0): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let got = '';
    socket.on('data', (d) => (got += d.toString('latin1')));
    socket.on('close', () => resolve(got));
    socket.on('error', reject);
    let i = 0;
    const next = () => {
      if (i < chunks.length && !socket.destroyed) socket.write(chunks[i++]);
      if (i < chunks.length) setTimeout(next, gapMs);
    };
    socket.on('connect', next);
  });
}

const envelopeOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { code: number; message: string; data: null };

describe('slow request line or headers', () => {
  it('408 with the JSON envelope (10016), then the connection closes', async () => {
    const { app } = createMockServer({ clock: 'manual' });
    // the defaults are 60 s and 300 s, checked every 30 s; the same path, sooner
    const server = answerParserErrors(createServer({ headersTimeout: 300, requestTimeout: 400, connectionsCheckingInterval: 50 }, app));
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    for (const chunks of [['GET /v1/user/subs'], ['GET /v1/user/subscription HTTP/1.1\r\nHost: x\r\n', 'X-Slow: 1\r\n']]) {
      const answer = await raw(port, chunks, 100);
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(answer).toMatch(/\r\ncontent-type: application\/json/i);
      expect(answer).toMatch(/\r\nconnection: close/i);
      const body = envelopeOf(answer);
      expect(body.code).toBe(errorCatalog.REQUEST_TIMEOUT.code);
      expect(body.data).toBeNull();
    }
  });

  it('the catalogued 408 is a transport error every operation declares', async () => {
    const { operations, operationIds } = await import('../schemas/operations.ts');
    for (const id of operationIds) expect(operations[id].errors, id).toContain('REQUEST_TIMEOUT');
  });
});

describe('CONNECT', () => {
  it('405 with the envelope and Allow, never a dropped connection', async () => {
    const m = await mock();
    const port = Number(new URL(m.base).port);
    const answer = await raw(port, ['CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n']);
    expect(answer).toMatch(/^HTTP\/1\.1 405 /);
    expect(answer).toMatch(/\r\nallow: GET, HEAD, POST, PUT, DELETE, OPTIONS\r\n/i);
    expect(envelopeOf(answer).code).toBe(errorCatalog.METHOD_NOT_ALLOWED.code);
    // the server goes on answering
    expect((await m.call('GET', '/__mock/health', { key: null })).status).toBe(200);
  });
});

describe('Range on hosted media (RFC 9110, "Range")', () => {
  it.each([
    ['bytes=5-1', 200],
    ['bytes=100-99', 200],
    ['bytes=0-4', 206],
    ['bytes=99999999-', 416],
    ['bytes=-0', 416],
  ])('%s: %i', async (range, status) => {
    const m = await mock();
    const { taskId } = (await m.call('POST', pathOf('createVideoTask'), { body: videoBody() })).json.data as { taskId: string };
    await m.advance(10 * 60_000);
    const url = JSON.stringify((await m.call('GET', pathOf('getVideoTask', { taskId }))).json.data).match(/https?:\/\/[^"]+\.mp4/)![0];
    const whole = await fetch(url);
    const size = (await whole.arrayBuffer()).byteLength;
    const r = await fetch(url, { headers: { range } });
    expect(r.status).toBe(status);
    const body = await r.arrayBuffer();
    if (status === 200) expect(body.byteLength).toBe(size);
    if (status === 206) expect(body.byteLength).toBe(5);
    if (status === 416) expect(r.headers.get('content-range')).toBe(`bytes */${size}`);
  });
});
