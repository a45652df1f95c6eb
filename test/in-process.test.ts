/**
 * The in-process mock (mock/index.ts, `import { createMock } from
 * 'mediagen-contract'`): listen on a free port and close, a socket-free fetch
 * that answers as the server does, and the control operations as methods.
 */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createMock } from '../mock/index.ts';
import { pathOf, videoBody } from './factories.ts';
import { KEY } from './helpers.ts';

const auth = { authorization: `Bearer ${KEY}` };
const post = (body: unknown) => ({ method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** True when nothing listens on `port` of 127.0.0.1. */
const portFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });

describe('createMock (in-process)', () => {
  it('listen() answers over HTTP at the URL it resolves; close() frees the port', async () => {
    const mock = createMock({ seed: 3 });
    const base = await mock.listen();
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(mock.url).toBe(base);
    const res = await fetch(base + pathOf('getSubscription'), { headers: auth });
    expect(res.status).toBe(200);
    await expect(mock.listen()).rejects.toThrow(/already listening/);
    await mock.close();
    expect(mock.url).toBeUndefined();
    expect(await portFree(Number(new URL(base).port))).toBe(true);
  });

  it('fetch() without a socket gives the bytes HTTP gives, on the same engine', async () => {
    const mock = createMock({ seed: 3 });
    const base = await mock.listen();
    try {
      const viaHttp = await (await fetch(base + pathOf('createVideoTask'), post(videoBody()))).text();
      const viaFetch = await (await mock.fetch(pathOf('createVideoTask'), post(videoBody()))).text();
      // the same engine: the second create is the second task of the key
      const [a, b] = [JSON.parse(viaHttp), JSON.parse(viaFetch)] as { data: { taskId: string } }[];
      expect(a.data.taskId).not.toBe(b.data.taskId);
      const list = await mock.fetch(pathOf('listVideoTasks'), { headers: auth });
      expect(((await list.json()) as { data: { items: unknown[] } }).data.items).toHaveLength(2);
      // a request sent both ways at the same state answers the same bytes
      const one = await (await fetch(base + pathOf('getVideoTask', { taskId: a.data.taskId }), { headers: auth })).text();
      const two = await (await mock.fetch(base + pathOf('getVideoTask', { taskId: a.data.taskId }), { headers: auth })).text();
      expect(two).toBe(one);
    } finally {
      await mock.close();
    }
  });

  it('advance, account, setAccount, requests and reset act on the engine', async () => {
    const mock = createMock({ seed: 5 });
    const created = (await (await mock.fetch(pathOf('createVideoTask'), post(videoBody()))).json()) as { data: { taskId: string } };
    const task = () =>
      mock.fetch(pathOf('getVideoTask', { taskId: created.data.taskId }), { headers: auth }).then((r) => r.json() as Promise<{ data: { status: string } }>);
    expect((await task()).data.status).not.toBe('success');
    const before = mock.now();
    expect(mock.advance(10 * 60_000).now).toBe(before + 10 * 60_000);
    expect((await task()).data.status).toBe('success');
    expect(() => mock.advance(-1)).toThrow(RangeError);

    expect(mock.setAccount(KEY, { credits: 7 }).credits).toBe(7);
    expect(mock.account(KEY).credits).toBe(7);
    expect(mock.requests().map((r) => r.operationId)).toEqual(['createVideoTask', 'getVideoTask', 'getVideoTask']);

    mock.reset(9);
    expect(mock.engine.seed).toBe(9);
    expect(mock.requests()).toEqual([]);
    expect(mock.now()).toBe(before);
    expect(mock.bugs()).toEqual([]);
  });
});
