/**
 * The process's caps on concurrent work: bytes of request bodies in flight
 * (--max-inflight-body-mb) and open event streams (--max-streams), beyond
 * which a request gets 503 (SERVER_BUSY, 10019) with Retry-After, a transport
 * error every operation with a body or a stream declares; and an event stream
 * woken only by changes of its own task (or a clock jump), not by every
 * handled request.
 */
import { request, type ClientRequest } from 'node:http';
import { connect } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { controlOperations } from '../schemas/control.ts';
import { errorCatalog } from '../schemas/errors.ts';
import { operationIds, operations } from '../schemas/operations.ts';
import type { OperationDef } from '../schemas/registry-types.ts';
import { pumpEvents } from '../mock/core/event-stream.ts';
import { Engine } from '../mock/engine/engine.ts';
import { pathOf, podcastBody, videoBody } from './factories.ts';
import { KEY, type TestMock, useMocks } from './helpers.ts';

const mock = useMocks();
const BUSY = errorCatalog.SERVER_BUSY.code;

/**
 * Starts a request (POST unless `method` says otherwise) of `length` declared bytes to `path` and sends only the
 * first `sent` of them (spaces, or the start of `body`); resolves once they are written.
 */
async function slowUpload(base: string, path: string, length: number, sent: number, opts: { method?: string; body?: Buffer } = {}): Promise<ClientRequest> {
  const url = new URL(path, base);
  const req = request({
    host: url.hostname,
    port: url.port,
    path: url.pathname,
    method: opts.method ?? 'POST',
    headers: { 'content-type': 'application/json', 'content-length': String(length), authorization: `Bearer ${KEY}` },
  });
  req.on('error', () => {});
  const first = opts.body ? opts.body.subarray(0, sent) : Buffer.alloc(sent, 0x20);
  await new Promise<void>((r) => req.write(first, () => r()));
  return req;
}

/** `value` as JSON text padded with trailing spaces (still valid JSON) to `bytes`. */
const padded = (value: unknown, bytes: number) => {
  const text = JSON.stringify(value);
  return text + ' '.repeat(Math.max(0, bytes - Buffer.byteLength(text)));
};

/** A probe of 200 KiB that changes nothing either way (a clock advance by -1 ms): 503 while the cap is full, else 400. */
const capProbe = { key: null, raw: padded({ ms: -1 }, 200 * 1024), headers: { 'content-type': 'application/json' } };

/** Waits until the cap of bodies in flight is free again: the probe is admitted (400 for its -1 ms). A limit only against a hang. */
async function untilCapFree(m: TestMock) {
  await vi.waitFor(
    async () => {
      const r = await m.call('POST', '/__mock/clock/advance', capProbe);
      expect(r.status, r.text).toBe(400);
    },
    { timeout: 60_000, interval: 10 },
  );
}

/**
 * Starts a slow upload with `start` and waits until it holds the cap, however slow the machine: the probe answers 503
 * while the cap is full (only the upload can fill it) and 400 while it is free. On a busy machine a probe can still be
 * in flight when the upload's headers arrive, and then the upload is the one refused (503): it is started again.
 */
async function holdCap(m: TestMock, start: () => Promise<ClientRequest>): Promise<ClientRequest> {
  for (const until = Date.now() + 60_000; Date.now() < until;) {
    const upload = await start();
    let refused = false;
    upload.on('response', (res) => ((refused = true), res.resume()));
    while (!refused && Date.now() < until) {
      const r = await m.call('POST', '/__mock/clock/advance', capProbe);
      if (r.status === 503) return upload;
      expect(r.status, r.text).toBe(400);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    upload.destroy();
  }
  throw new Error('the slow upload never held the cap of bodies in flight');
}

describe('bodies in flight', () => {
  it('a body that would pass the cap while others arrive: 503 (10019) with Retry-After; once they are done, taken again', async () => {
    const m = await mock({ maxInflightBodyBytes: 1024 * 1024 });
    const slow = await holdCap(m, () => slowUpload(m.base, pathOf('createVideoTask'), 900 * 1024, 1024));
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
    await untilCapFree(m);
    const again = await m.call('POST', pathOf('createVideoTask'), {
      raw: JSON.stringify({ ...videoBody(), pad: 'x'.repeat(200 * 1024) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(again.status).toBe(200);
  });
});

describe('control bodies in flight', () => {
  // The control API's bodies count against the same cap: a state document can be as large as the whole state.
  it('large control bodies beyond the cap while a state document arrives: 503 (10019) with Retry-After, and none of them changes the state', async () => {
    const m = await mock({ maxInflightBodyBytes: 1024 * 1024 });
    await m.call('POST', pathOf('createVideoTask'), { body: videoBody() });
    const before = await m.call('GET', '/__mock/state', { key: null });
    expect(before.status).toBe(200);
    // a state document one hour later, 900 KiB with padding, of which only the first KiB arrives for now
    const later = structuredClone(before.json);
    later.state.now += 3_600_000;
    const slowBody = Buffer.from(padded(later, 900 * 1024));
    const slow = await holdCap(m, () => slowUpload(m.base, '/__mock/state', slowBody.length, 1024, { method: 'PUT', body: slowBody }));

    const bigJson = (value: unknown) => ({ key: null, raw: padded(value, 200 * 1024), headers: { 'content-type': 'application/json' } });
    const form = `--B\r\nContent-Disposition: form-data; name="files"; filename="a.bin"\r\n\r\n${'x'.repeat(200 * 1024)}\r\n--B--\r\n`;
    const refused = await Promise.all([
      m.call('PUT', '/__mock/state', bigJson({ ...before.json, state: { ...before.json.state, now: before.json.state.now + 7_200_000 } })),
      m.call('POST', '/__mock/clock/advance', bigJson({ ms: 60_000 })),
      m.call('PUT', `/__mock/accounts/${KEY}`, bigJson({ credits: 1 })),
      m.call('POST', '/__mock/uploads', { key: null, raw: form, headers: { 'content-type': 'multipart/form-data; boundary=B' } }),
    ]);
    for (const r of refused) {
      expect(r.status, r.text).toBe(503);
      expect(r.json.code).toBe(BUSY);
      expect(r.headers.get('retry-after')).toBe('1');
    }
    // nothing of the refused requests (nor of the half-sent document) reached the state
    const during = await m.call('GET', '/__mock/state', { key: null });
    expect(during.json).toEqual(before.json);

    // the document that was being received arrives whole and is taken; the cap is free again afterwards
    const answered = new Promise<number>((resolve) => slow.on('response', (res) => (res.resume(), resolve(res.statusCode ?? 0))));
    slow.end(slowBody.subarray(1024));
    expect(await answered).toBe(200);
    const after = await m.call('GET', '/__mock/state', { key: null });
    expect(after.json.state.now).toBe(later.state.now);
    const advance = await m.call('POST', '/__mock/clock/advance', bigJson({ ms: 60_000 }));
    expect(advance.status, advance.text).toBe(200);
    expect((await m.call('GET', '/__mock/clock', { key: null })).json.now).toBe(later.state.now + 60_000);
  });

  it('a control request without a body (no Content-Length, not chunked) reserves nothing: a bare reset is answered while the cap is full', async () => {
    const m = await mock({ maxInflightBodyBytes: 1024 * 1024 });
    const slow = await holdCap(m, () => slowUpload(m.base, pathOf('createVideoTask'), 1024 * 1024, 1024));
    // written by hand: Node's client would add Content-Length: 0
    const url = new URL(m.base);
    const head = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () =>
        socket.write(`POST /__mock/reset HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`),
      );
      let text = '';
      socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    slow.destroy();
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
    // the server sees the stream go when its socket closes: a new one is taken then (waited for, not timed; a refused
    // attempt is a whole 503 answer and holds nothing)
    let d = open();
    await vi.waitFor(
      async () => {
        const res = await d.res;
        if (res.status !== 200) {
          await res.text();
          d = open();
        }
        expect(res.status).toBe(200);
      },
      { timeout: 60_000, interval: 10 },
    );
    b.ctrl.abort();
    d.ctrl.abort();
  });
});

describe('declared', () => {
  it('SERVER_BUSY is declared by every operation with a body or an event stream, and by no other (the control API too)', () => {
    for (const op of [...operationIds.map((id) => operations[id] as OperationDef), ...(Object.values(controlOperations) as OperationDef[])])
      expect(op.errors.includes('SERVER_BUSY'), op.operationId).toBe(!!op.request.body || op.response.kind === 'event-stream');
  });
});

describe('what wakes a stream', () => {
  // a woken stream polls on a 0 ms timer set before this one: timers run in order of when they are due, so after this
  // one every poll a change asked for has run, however slow the machine (ordering, not wall time)
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
