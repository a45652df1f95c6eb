/**
 * The process's caps on concurrent work: bytes of request bodies in flight
 * (--max-inflight-body-mb) and open event streams (--max-streams), beyond
 * which a request gets 503 (SERVER_BUSY, 10019) with Retry-After, a transport
 * error every operation with a body or a stream declares; and an event stream
 * woken only by changes of its own task (or a clock jump), not by every
 * handled request.
 */
import { request, type ClientRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { errorCatalog } from '../schemas/errors.ts';
import { operationIds, operations } from '../schemas/operations.ts';
import type { OperationDef } from '../schemas/registry-types.ts';
import { pumpEvents } from '../mock/core/event-stream.ts';
import { Engine } from '../mock/engine/engine.ts';
import { pathOf, podcastBody, videoBody } from './factories.ts';
import { KEY, useMocks } from './helpers.ts';

const mock = useMocks();
const BUSY = errorCatalog.SERVER_BUSY.code;

/** Starts a POST of `length` declared bytes to `path` and sends only the first `sent` of them; resolves once they are written. */
async function slowUpload(base: string, path: string, length: number, sent: number): Promise<ClientRequest> {
  const url = new URL(path, base);
  const req = request({
    host: url.hostname,
    port: url.port,
    path: url.pathname,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': String(length), authorization: `Bearer ${KEY}` },
  });
  req.on('error', () => {});
  await new Promise<void>((r) => req.write(Buffer.alloc(sent, 0x20), () => r()));
  return req;
}

describe('bodies in flight', () => {
  it('a body that would pass the cap while others arrive: 503 (10019) with Retry-After; once they are done, taken again', async () => {
    const m = await mock({ maxInflightBodyBytes: 1024 * 1024 });
    const slow = await slowUpload(m.base, pathOf('createVideoTask'), 900 * 1024, 1024);
    await new Promise((r) => setTimeout(r, 100));
    const big = await m.call('POST', pathOf('createVideoTask'), {
      raw: JSON.stringify({ ...videoBody(), pad: 'x'.repeat(200 * 1024) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(big.status).toBe(503);
    expect(big.json.code).toBe(BUSY);
    expect(big.headers.get('retry-after')).toBe('1');
    // a request without a body is not held up
    expect((await m.call('GET', pathOf('getSubscription'))).status).toBe(200);
    slow.destroy();
    await new Promise((r) => setTimeout(r, 100));
    const again = await m.call('POST', pathOf('createVideoTask'), {
      raw: JSON.stringify({ ...videoBody(), pad: 'x'.repeat(200 * 1024) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(again.status).toBe(200);
  });
});

describe('open event streams', () => {
  it('beyond --max-streams: 503 (10019) with Retry-After; a stream closed makes room', async () => {
    const m = await mock({ maxStreams: 2 });
    const id = (await m.call('POST', pathOf('createPodcastEpisode'), { body: podcastBody() })).json.data.episodeId as string;
    const path = pathOf('streamPodcastText', { episodeId: id }, { event: 'script' });
    const open = () => {
      const ctrl = new AbortController();
      return { ctrl, res: fetch(m.base + path, { headers: { authorization: `Bearer ${KEY}` }, signal: ctrl.signal }) };
    };
    const a = open();
    const b = open();
    expect([(await a.res).status, (await b.res).status]).toEqual([200, 200]);
    const c = await m.call('GET', path);
    expect(c.status).toBe(503);
    expect(c.json.code).toBe(BUSY);
    expect(c.headers.get('retry-after')).toBe('1');
    // the control API's activity stream counts among them
    expect((await m.call('GET', '/__mock/events', { key: null })).json.code).toBe(BUSY);
    a.ctrl.abort();
    await new Promise((r) => setTimeout(r, 100));
    const d = open();
    expect((await d.res).status).toBe(200);
    b.ctrl.abort();
    d.ctrl.abort();
  });
});

describe('declared', () => {
  it('SERVER_BUSY is declared by every operation with a body or an event stream, and by no other', () => {
    for (const id of operationIds) {
      const op = operations[id] as OperationDef;
      expect(op.errors.includes('SERVER_BUSY'), id).toBe(!!op.request.body || op.response.kind === 'event-stream');
    }
  });
});

describe('what wakes a stream', () => {
  const settle = () => new Promise((r) => setTimeout(r, 5));

  it('a stream with a topic is polled when its task changes or the clock jumps, not on every change; one without, on every change', async () => {
    const engine = new Engine({ clock: 'manual' });
    const polls = { mine: 0, any: 0 };
    const source = (name: 'mine' | 'any', topic?: string) => ({
      ...(topic ? { topic } : {}),
      poll: () => (polls[name]++, { events: [], done: false }),
    });
    const sink = { write: () => {}, end: () => {} };
    const closeMine = pumpEvents(engine, source('mine', 'pe_1'), { heartbeatMs: 60_000 }, sink);
    const closeAny = pumpEvents(engine, source('any'), { heartbeatMs: 60_000 }, sink);
    expect(polls).toEqual({ mine: 1, any: 1 });
    // handled requests that touch other tasks
    for (let i = 0; i < 20; i++) {
      engine.activity.record({ at: 0, area: 'video', taskId: `vt_${i}`, apiKey: KEY, status: 'queued', terminal: false });
      engine.changed();
      await settle();
    }
    expect(polls.mine).toBe(1);
    expect(polls.any).toBe(21);
    engine.activity.record({ at: 0, area: 'podcast', taskId: 'pe_1', apiKey: KEY, status: 'pending', terminal: false });
    engine.changed();
    await settle();
    expect(polls.mine).toBe(2);
    engine.advance(1000);
    await settle();
    expect(polls.mine).toBe(3);
    engine.reset();
    await settle();
    expect(polls.mine).toBe(4);
    closeMine();
    closeAny();
  });
});
