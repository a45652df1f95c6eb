/**
 * Request bodies read by the Express adapter (mock/http/dispatcher.ts): a body
 * with a Content-Length is read by the dispatcher itself, a chunked one by
 * raw-body. The same bytes get the same answer either way (one write or
 * several, empty, malformed), and an upload cut off before its last byte
 * leaves nothing behind: nothing in flight, the request journaled as a body
 * that could not be read (400, 10002), the next request answered.
 */
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { errorCatalog } from '../schemas/errors.ts';
import { createMockServer } from '../mock/http/app.ts';
import { pathOf, videoBody } from './factories.ts';
import { KEY } from './helpers.ts';

/** Starts a mock on an ephemeral port. */
async function start() {
  const mock = createMockServer({ clock: 'manual', seed: 1, strict: true });
  const server = await new Promise<ReturnType<typeof mock.app.listen>>((resolve) => {
    const s = mock.app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const port = (server.address() as { port: number }).port;
  const close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return { mock, port, close };
}

/** Writes `chunks` on a raw connection (each after `gapMs`) and resolves with everything sent back until the connection closes. */
function raw(port: number, chunks: string[], gapMs = 0): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let got = '';
    socket.on('data', (d) => (got += d.toString('utf8')));
    socket.on('close', () => resolve(got));
    socket.on('error', reject);
    let i = 0;
    const next = () => {
      if (i < chunks.length) socket.write(chunks[i++]);
      if (i < chunks.length) setTimeout(next, gapMs);
    };
    socket.on('connect', next);
  });
}

const PATH = pathOf('createVideoTask');

/** A POST of `body` with its Content-Length (Connection: close), in `pieces` writes. */
function withLength(body: string, pieces = 1): string[] {
  const head = `POST ${PATH} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`;
  const size = Math.ceil(body.length / pieces) || 1;
  const parts = [];
  for (let i = 0; i < body.length; i += size) parts.push(body.slice(i, i + size));
  return [head, ...parts];
}

/** The same POST, chunked (raw-body reads it). */
function chunked(body: string): string[] {
  const head = `POST ${PATH} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`;
  const len = Buffer.byteLength(body);
  return [head, `${len ? `${len.toString(16)}\r\n${body}\r\n` : ''}0\r\n\r\n`];
}

/** Status line and body of a raw answer. */
function answer(text: string): { status: number; body: string } {
  return { status: Number(text.slice(9, 12)), body: text.slice(text.indexOf('\r\n\r\n') + 4) };
}

describe('request bodies with a Content-Length and chunked', () => {
  it('give the same answers: a create, a create sent in pieces, an empty body, malformed JSON, a body the rules refuse', async () => {
    const good = JSON.stringify(videoBody({ prompt: 'a heron on a pier, é and 😀' }));
    const cases = [good, '', '{"model": ', JSON.stringify({ model: 'no-such-model' })];
    const byLength: { status: number; body: string }[] = [];
    const byChunks: { status: number; body: string }[] = [];
    // two mocks of the same seed: each answers the same sequence of requests, one way each
    const a = await start();
    const b = await start();
    try {
      for (const body of cases) {
        byLength.push(answer(await raw(a.port, withLength(body))));
        byChunks.push(answer(await raw(b.port, chunked(body))));
      }
      // sent in five writes 20 ms apart: read whole all the same
      const pieces = answer(await raw(a.port, withLength(good, 5), 20));
      const again = answer(await raw(b.port, chunked(good)));
      expect(pieces).toEqual(again);
      expect(pieces.status).toBe(200);
    } finally {
      await a.close();
      await b.close();
    }
    expect(byLength).toEqual(byChunks);
    expect(byLength.map((r) => r.status)).toEqual([200, 400, 400, 400]);
    expect((JSON.parse(byLength[0].body) as { data: { taskId: string } }).data.taskId).toMatch(/\S/);
    expect((JSON.parse(byLength[2].body) as { code: number }).code).toBe(errorCatalog.MALFORMED_JSON.code);
  });

  it('an upload cut off before its last byte leaves nothing in flight, is journaled as unreadable, and the next request is answered', async () => {
    const { mock, port, close } = await start();
    try {
      const body = JSON.stringify(videoBody({ prompt: 'cut off' }));
      const head = withLength(body)[0];
      await new Promise<void>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.write(head + body.slice(0, 10));
          // the server has the head (the request is in flight) before the connection goes
          const check = setInterval(() => {
            if (mock.inFlight() === 1) {
              clearInterval(check);
              socket.destroy();
              resolve();
            }
          }, 5);
        });
        socket.on('error', reject);
      });
      for (let i = 0; i < 400 && mock.inFlight() > 0; i++) await new Promise((r) => setTimeout(r, 5));
      expect(mock.inFlight()).toBe(0);
      expect(mock.engine.journal.list().map((e) => [e.status, e.code])).toEqual([[400, errorCatalog.MALFORMED_JSON.code]]);
      const next = answer(await raw(port, withLength(body)));
      expect(next.status).toBe(200);
      expect(mock.engine.journal.list().map((e) => e.status)).toEqual([400, 200]);
    } finally {
      await close();
    }
  });
});
