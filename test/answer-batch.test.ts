/**
 * Whole answers written together (AnswerBatch, mock/http/respond.ts; docs/architecture.md, "Keeping the request path
 * fast"): the answers the operations finish on one turn of the event loop are written at its end, or at once when
 * `max` wait. Judged from outside: every client gets its own answer whatever the batching, an answer is never held
 * for a timer, and a write that throws costs only its own response.
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Response } from 'express';
import { describe, expect, it } from 'vitest';
import { jsonAnswer, type Answer } from '../mock/core/answer.ts';
import { AnswerBatch } from '../mock/http/respond.ts';
import { ResponseLocals } from '../mock/http/locals.ts';
import { pathOf, videoBody } from './factories.ts';
import { KEY, OTHER_KEY, useMocks } from './helpers.ts';

const mock = useMocks();

/** One request on a connection of its own: status, headers and parsed body. */
function send(port: number, path: string): Promise<{ status: number; body: any; headers: IncomingMessage['headers'] }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text), headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * A server whose handler answers each request through `batch`: the answer `answerFor(path)` (with `res.locals` as
 * the mock's adapter makes them). Resolves with its port and a `close`.
 */
async function batchServer(batch: () => AnswerBatch, answerFor: (path: string) => Answer) {
  const b = batch();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const r = res as unknown as Response;
    r.locals = new ResponseLocals();
    (r as unknown as { req: IncomingMessage }).req = req;
    b.add(r, answerFor(req.url ?? '/'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

describe('answers written together', () => {
  it('60 creates at once from two keys on 60 connections: each gets its own task, as a GET of it by its owner shows', async () => {
    // the rate limit off: it would refuse all but five creates a minute per key
    const m = await mock({ rateLimit: false });
    const keys = Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? KEY : OTHER_KEY));
    const created = await Promise.all(
      keys.map((key, i) => m.call('POST', pathOf('createVideoTask'), { key, body: videoBody({ content: [{ type: 'text', text: `prompt number ${i}` }] }) })),
    );
    for (const c of created) expect(c.status, c.text).toBe(200);
    const ids = created.map((c) => c.json.data.taskId as string);
    expect(new Set(ids).size).toBe(60);
    // each answer went to the request that made it: the task it names is its key's, with its prompt
    for (const [i, id] of ids.entries()) {
      const got = await m.call('GET', pathOf('getVideoTask', { taskId: id }), { key: keys[i] });
      expect(got.status, got.text).toBe(200);
      expect(JSON.stringify(got.json.data)).toContain(`prompt number ${i}`);
    }
    expect(m.bugs).toEqual([]);
  });

  it('fewer than max answers are written at the end of the turn, without a timer; max of them at once', async () => {
    const written: string[] = [];
    const fake = (name: string) =>
      ({
        locals: new ResponseLocals(),
        req: { method: 'GET', headers: {} },
        writeHead: () => undefined,
        end: () => written.push(name),
      }) as unknown as Response;
    const batch = new AnswerBatch(3, () => undefined);
    batch.add(fake('a'), jsonAnswer(200, { n: 1 }));
    batch.add(fake('b'), jsonAnswer(200, { n: 2 }));
    // two wait: nothing is written in this turn yet
    expect(written).toEqual([]);
    await new Promise<void>((r) => setImmediate(r));
    expect(written).toEqual(['a', 'b']);
    // the third of a turn writes the three at once, in their order
    batch.add(fake('c'), jsonAnswer(200, {}));
    batch.add(fake('d'), jsonAnswer(200, {}));
    batch.add(fake('e'), jsonAnswer(200, {}));
    expect(written).toEqual(['a', 'b', 'c', 'd', 'e']);
    // nothing is left for the end of the turn (an immediate already queued writes nothing twice)
    await new Promise<void>((r) => setImmediate(r));
    expect(written).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('a write that throws answers its own request 500 (MOCK_INTERNAL_ERROR) and reports it; the others are answered', async () => {
    const bugs: string[] = [];
    // a header value with a line break: Node's writeHead throws (ERR_INVALID_CHAR)
    const bad: Answer = { ...jsonAnswer(200, { ok: false }), headers: { 'Content-Type': 'application/json', 'X-Broken': 'a\nb' } };
    const s = await batchServer(
      () => new AnswerBatch(16, (_res, problem) => bugs.push(problem)),
      (path) => (path === '/bad' ? bad : jsonAnswer(200, { path })),
    );
    try {
      const [good1, broken, good2] = await Promise.all([send(s.port, '/one'), send(s.port, '/bad'), send(s.port, '/two')]);
      expect(good1).toMatchObject({ status: 200, body: { path: '/one' } });
      expect(good2).toMatchObject({ status: 200, body: { path: '/two' } });
      expect(broken.status).toBe(500);
      expect(broken.body).toMatchObject({ message: expect.stringContaining('mock bug'), data: null });
      expect(broken.headers['x-broken']).toBeUndefined();
      expect(bugs).toHaveLength(1);
      expect(bugs[0]).toMatch(/Invalid character|ERR_INVALID_CHAR/);
    } finally {
      await s.close();
    }
  });
});
