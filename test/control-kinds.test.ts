/**
 * The control routes built on the request and response kinds: deleting a key
 * (document 1, "Authentication": deletion takes effect immediately), task
 * activity as Server-Sent Events on the manual and the real clock, sample
 * media streamed as binary, and the multipart upload inspector.
 */
import { createHash } from 'node:crypto';
import { parseBuffer } from 'music-metadata';
import { describe, expect, it, vi } from 'vitest';
import { createMock } from '../mock/index.ts';
import { controlOperations, TaskActivityEvent, UploadReport } from '../schemas/control.ts';
import { errorCatalog, type ErrorName } from '../schemas/errors.ts';
import { audioFileTypes, audioFormats, durationMatches } from '../schemas/media.ts';
import { videoPhases } from '../schemas/video.ts';
import { pathOf, videoBody } from './factories.ts';
import { KEY, OTHER_KEY, readEventStream, type CallResult, type TestMock, untilTimerSet, useMocks } from './helpers.ts';

const mock = useMocks();
const phases = videoPhases('family1-video-2-fast', 5);

function expectError(res: { status: number; json?: any; text?: string }, name: ErrorName, ...mentions: string[]) {
  expect(res.status, res.text).toBe(errorCatalog[name].httpStatus);
  expect(res.json?.code, res.text).toBe(errorCatalog[name].code);
  for (const m of mentions) expect(res.json.message).toContain(m);
}

const createVideo = async (m: TestMock, key = KEY, prefer?: string) => {
  const r = await m.call('POST', pathOf('createVideoTask'), { key, body: videoBody(), headers: prefer ? { prefer } : {} });
  expect(r.status, r.text).toBe(200);
  return r.json.data.taskId as string;
};

describe('DELETE /__mock/accounts/{apiKey}', () => {
  it('later API requests with the key answer 401 at once; the control API answers 404 until PUT creates it again', async () => {
    const m = await mock();
    expect((await m.call('GET', pathOf('getSubscription'))).status).toBe(200);
    const del = await m.call('DELETE', `/__mock/accounts/${KEY}`, { key: null });
    expect(del.status).toBe(200);
    expect(del.json).toEqual({ apiKey: KEY, existed: true });
    expectError(await m.call('GET', pathOf('getSubscription')), 'UNAUTHORIZED', 'deleted');
    expectError(await m.call('POST', pathOf('createVideoTask'), { body: videoBody() }), 'UNAUTHORIZED', 'deleted');
    expectError(await m.call('GET', `/__mock/accounts/${KEY}`, { key: null }), 'CONTROL_NOT_FOUND', KEY);
    expect((await m.call('GET', pathOf('getSubscription'), { key: OTHER_KEY })).status).toBe(200);
    const put = await m.call('PUT', `/__mock/accounts/${KEY}`, { key: null, body: { credits: 50 } });
    expect(put.status, put.text).toBe(200);
    expect(put.json.credits).toBe(50);
    const sub = await m.call('GET', pathOf('getSubscription'));
    expect(sub.status).toBe(200);
    expect(sub.json.data.balance).toBe(50);
  });

  it('a key never used is refused too (existed: false)', async () => {
    const m = await mock();
    const del = await m.call('DELETE', `/__mock/accounts/${OTHER_KEY}`, { key: null });
    expect(del.json).toEqual({ apiKey: OTHER_KEY, existed: false });
    expectError(await m.call('GET', pathOf('getSubscription'), { key: OTHER_KEY }), 'UNAUTHORIZED');
  });

  it('a request waiting on a delay when the key is deleted answers 401', async () => {
    // in process, with setTimeout faked: the delay ends when the test says, after the deletion, however slow the machine
    const inProcess = createMock({ clock: 'manual' });
    const auth = { authorization: `Bearer ${KEY}` };
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      expect((await inProcess.fetch(pathOf('getSubscription'), { headers: auth })).status).toBe(200);
      const timers = vi.getTimerCount();
      const pending = inProcess.fetch(pathOf('getSubscription'), { headers: { ...auth, prefer: 'delay=300' } });
      await untilTimerSet(timers); // the request is waiting on its delay
      expect((await inProcess.fetch(`/__mock/accounts/${KEY}`, { method: 'DELETE' })).status).toBe(200);
      await vi.advanceTimersByTimeAsync(300);
      const res = await pending;
      expectError({ status: res.status, json: await res.json() }, 'UNAUTHORIZED');
    } finally {
      vi.useRealTimers();
      await inProcess.close();
    }
  });

  it('a running task of a deleted key ends without refunding into a new account (no 500, nothing negative)', async () => {
    const m = await mock();
    await createVideo(m, KEY, 'outcome=failed');
    await m.call('DELETE', `/__mock/accounts/${KEY}`, { key: null });
    await m.call('PUT', `/__mock/accounts/${KEY}`, { key: null, body: {} });
    await m.advance(3_600_000);
    const acc = (await m.call('GET', `/__mock/accounts/${KEY}`, { key: null })).json;
    expect(acc.credits).toBe(10_000);
    expect(acc.ledger.map((e: { type: string }) => e.type)).toEqual(['adjust']);
  });

  it('a malformed key is a control error, not a deletion', async () => {
    const m = await mock();
    expectError(await m.call('DELETE', '/__mock/accounts/not-a-key', { key: null }), 'CONTROL_INVALID_REQUEST', 'apiKey');
  });
});

describe('GET /__mock/events (Server-Sent Events)', () => {
  it('manual clock: with taskId, the stream replays the task, follows each advance, and ends after its terminal change', async () => {
    const m = await mock();
    const id = await createVideo(m);
    const start = m.engine.clock.now();
    const s = await readEventStream(m.base, `/__mock/events?taskId=${id}`, {
      onOpen: async () => {
        await m.advance(phases.generatingMs);
        await m.advance(phases.uploadingMs);
      },
    });
    expect(s.status).toBe(200);
    expect(s.contentType).toMatch(/^text\/event-stream/);
    expect(s.ended).toBe(true);
    expect(s.events.every((e) => e.event === 'task' && TaskActivityEvent.safeParse(e.data).success)).toBe(true);
    expect(s.events.map((e) => [e.data.status, e.data.at - start, e.data.terminal])).toEqual([
      ['generating', 0, false],
      ['uploading', phases.generatingMs, false],
      ['success', phases.generatingMs + phases.uploadingMs, true],
    ]);
    expect(s.events.map((e) => e.id)).toEqual(['1', '2', '3']);
  });

  it('a failed or deleted task ends the stream too', async () => {
    const m = await mock();
    const id = await createVideo(m, KEY, 'outcome=failed');
    const s = await readEventStream(m.base, `/__mock/events?taskId=${id}`, { onOpen: () => m.advance(phases.generatingMs) });
    expect(s.ended).toBe(true);
    expect(s.events.map((e) => e.data.status)).toEqual(['generating', 'failed']);
  });

  it('without taskId: only new changes, filtered by apiKey and area', async () => {
    const m = await mock();
    await createVideo(m); // before the stream opens: not sent
    const s = await readEventStream(m.base, `/__mock/events?apiKey=${OTHER_KEY}&area=video`, {
      onOpen: async () => {
        await createVideo(m, KEY);
        await createVideo(m, OTHER_KEY);
      },
      stop: (events) => events.length >= 1,
      timeoutMs: 60_000,
    });
    expect(s.events.map((e) => [e.data.apiKey, e.data.area, e.data.status])).toEqual([[OTHER_KEY, 'video', 'generating']]);
  });

  it('real clock: the stream wakes when the next event is due, with no request or advance', async () => {
    const m = await mock({ clock: 'real', wallNow: Date.now, speed: 200 });
    // from before the create: the task's events fall due 60 s of virtual time after it, however long the create takes
    const t0 = performance.now();
    const id = await createVideo(m);
    const s = await readEventStream(m.base, `/__mock/events?taskId=${id}`, { timeoutMs: 60_000 });
    expect(s.ended).toBe(true);
    expect(s.events.map((e) => e.data.status)).toEqual(['generating', 'uploading', 'success']);
    // 60 s of virtual time at x200 is 300 ms of wall time
    expect(performance.now() - t0).toBeGreaterThan(200);
  });

  it('heartbeat comments keep an idle stream open', async () => {
    const m = await mock({ heartbeatMs: 40 });
    // read until two heartbeats have come (counted, not timed; the limit only catches a hang)
    const heartbeats = (comments: string[]) => comments.filter((c) => c === 'heartbeat').length;
    const s = await readEventStream(m.base, '/__mock/events', { timeoutMs: 60_000, stop: (_events, comments) => heartbeats(comments) >= 2 });
    expect(s.events).toEqual([]);
    expect(s.comments.filter((c) => c === 'heartbeat').length).toBeGreaterThanOrEqual(2);
  });

  it('an invalid query answers the JSON envelope (10008), not a stream', async () => {
    const m = await mock();
    const r = await m.call('GET', '/__mock/events?since=-1', { key: null });
    expectError(r, 'CONTROL_INVALID_REQUEST', 'since');
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  });
});

describe('GET /__mock/samples/{kind} (binary)', () => {
  it.each(audioFormats.filter((f) => f !== 'pcm'))('audio %s: its content type, streamed in chunks, decodes to the duration asked for', async (format) => {
    const m = await mock();
    const res = await fetch(`${m.base}/__mock/samples/audio?format=${format}&durationMs=2500`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(audioFileTypes[format].contentType);
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    expect(res.headers.get('content-length')).toBeNull();
    const meta = await parseBuffer(new Uint8Array(await res.arrayBuffer()), { mimeType: audioFileTypes[format].contentType }, { duration: true });
    expect(durationMatches(meta.format.duration! * 1000, 2500), `${meta.format.duration}`).toBe(true);
  });

  it('pcm: 16-bit mono samples for the duration', async () => {
    const m = await mock();
    const bytes = new Uint8Array(await (await fetch(`${m.base}/__mock/samples/audio?format=pcm&durationMs=1000`)).arrayBuffer());
    expect(durationMatches((bytes.length / 2 / 24_000) * 1000, 1000)).toBe(true);
  });

  it('image and midi: the file signatures; video: an MP4 (ftyp)', async () => {
    const m = await mock();
    const png = new Uint8Array(await (await fetch(`${m.base}/__mock/samples/image?width=320&height=200`)).arrayBuffer());
    expect([...png.subarray(1, 4)].map((c) => String.fromCharCode(c)).join('')).toBe('PNG');
    expect(new DataView(png.buffer).getUint32(16)).toBe(320);
    expect(new DataView(png.buffer).getUint32(20)).toBe(200);
    const mid = new Uint8Array(await (await fetch(`${m.base}/__mock/samples/midi?durationMs=3000`)).arrayBuffer());
    expect(new TextDecoder().decode(mid.subarray(0, 4))).toBe('MThd');
    const mp4 = await fetch(`${m.base}/__mock/samples/video?width=320&height=180&durationMs=2000`);
    expect(mp4.headers.get('content-type')).toBe('video/mp4');
    const b = new Uint8Array(await mp4.arrayBuffer());
    expect(new TextDecoder().decode(b.subarray(4, 8))).toBe('ftyp');
  });

  it.each([
    ['video?width=321&height=180', 'even'],
    ['video?width=320&height=180&durationMs=600001', 'durationMs'],
    ['audio?format=wma', 'format'],
    ['audio?durationMs=10', 'durationMs'],
    ['image?width=99999', 'width'],
    ['sound', 'kind'],
  ])('%s: 400 (10008) naming %s, as JSON', async (q, field) => {
    const m = await mock();
    const r = await m.call('GET', `/__mock/samples/${q}`, { key: null });
    expectError(r, 'CONTROL_INVALID_REQUEST', field);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('declares every content type it answers with', () => {
    for (const f of audioFormats) expect(controlOperations.getSample.response.contentTypes).toContain(audioFileTypes[f].contentType);
  });
});

describe('POST /__mock/uploads (multipart)', () => {
  it('reports each file with its SHA-256 and the text fields as received', async () => {
    const m = await mock();
    const a = new Uint8Array(3000).fill(3);
    const b = new TextEncoder().encode('hello upload');
    const form = new FormData();
    form.append('files', new Blob([a], { type: 'audio/mpeg' }), 'a.mp3');
    form.append('files', new Blob([b], { type: 'text/plain' }), 'b.txt');
    form.append('language', 'en');
    form.append('tag', 'x');
    form.append('tag', 'y');
    const res = await fetch(`${m.base}/__mock/uploads`, { method: 'POST', body: form });
    const json = await res.json();
    expect(res.status, JSON.stringify(json)).toBe(200);
    expect(UploadReport.safeParse(json).success).toBe(true);
    const sha = (x: Uint8Array) => createHash('sha256').update(x).digest('hex');
    expect(json.files).toEqual([
      { field: 'files', filename: 'a.mp3', mimeType: 'audio/mpeg', size: 3000, checksum: sha(a) },
      { field: 'files', filename: 'b.txt', mimeType: 'text/plain', size: b.length, checksum: sha(b) },
    ]);
    expect(json.fields).toEqual({ language: 'en', tag: ['x', 'y'] });
  });

  it('a file over 10 MB answers 413 (10006) naming the limit; JSON answers 415; more than 10 files 400', async () => {
    const m = await mock();
    const big = new FormData();
    big.append('files', new Blob([new Uint8Array(10 * 1024 * 1024 + 1)]), 'big.bin');
    const r1 = await fetch(`${m.base}/__mock/uploads`, { method: 'POST', body: big });
    expectError({ status: r1.status, json: await r1.json() }, 'PAYLOAD_TOO_LARGE', 'big.bin', '10 MB');
    const r2: CallResult = await m.call('POST', '/__mock/uploads', { key: null, body: { files: [] } });
    expectError(r2, 'UNSUPPORTED_MEDIA_TYPE', 'multipart/form-data');
    const many = new FormData();
    for (let i = 0; i < 11; i++) many.append('files', new Blob([new Uint8Array(1)]), `${i}.bin`);
    const r3 = await fetch(`${m.base}/__mock/uploads`, { method: 'POST', body: many });
    expectError({ status: r3.status, json: await r3.json() }, 'CONTROL_INVALID_REQUEST', 'at most 10');
  });
});
