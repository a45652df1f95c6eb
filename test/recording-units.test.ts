/**
 * The parts of record and replay on hand-written cases: what the redactor
 * replaces (docs/guides/proxy.md, "What is and is not stored"), the recorder's
 * media caps and fetch-once rule with a fake fetch, its time limit per media
 * file against a local host that stalls, and the new ids a replay
 * gives a recorded create asked again (never a recorded one).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRecordingFile } from '../mock/http/recording/format.ts';
import { createRecorder } from '../mock/http/recording/recorder.ts';
import { Redactor, canonicalJson } from '../mock/http/recording/redact.ts';
import { createReplay } from '../mock/http/recording/replay.ts';
import { createMock, defaultServices } from '../mock/index.ts';
import type { ProxyExchange } from '../mock/http/proxy/exchange.ts';

const dir = mkdtempSync(join(tmpdir(), 'mg-recording-units-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const enc = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));

/** An exchange of `operationId` answering `data` in the envelope, sent with key mg_unit_secret1 at `at` ms. */
function exchange(operationId: string, method: string, path: string, data: unknown, at: number, body?: unknown): ProxyExchange {
  return {
    operationId,
    method,
    path,
    query: '',
    requestHeaders: { Authorization: 'Bearer mg_unit_secret1', 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { requestBody: enc(body) }),
    status: 200,
    responseHeaders: { 'Content-Type': 'application/json' },
    responseBody: enc({ code: 0, message: '', data }),
    startedAtMs: at,
    endedAtMs: at,
    fromFallback: false,
  };
}

describe('the redactor', () => {
  it('replaces keys by their owner, drops Authorization and cookies, redacts tokens and URL signatures, and counts', () => {
    const r = new Redactor();
    const h = r.headers(
      { Authorization: 'Bearer mg_a1_s3cret', Cookie: 'sid=42', 'Content-Type': 'application/json', Prefer: 'code=401', 'X-Api-Key': 'mg_b2_other' },
      ['content-type', 'prefer'],
    );
    expect(h).toEqual({ headers: { 'content-type': 'application/json', prefer: 'code=401' }, owner: 'key-1' });
    expect(
      r.json({
        note: 'call with mg_a1_s3cret or mg_b2_other',
        accessToken: 'at_9f8e',
        refresh_token: 'rt_1',
        code: 'oauth-code',
        count: 3,
        audioUrl: 'https://cdn.example.com/a.mp3?expires=1767229800000&sig=b6d7&w=3',
        s3: 'https://b.s3.amazonaws.com/k.png?X-Amz-Signature=ff00&X-Amz-Credential=AK%2F1&partNumber=1',
      }),
    ).toEqual({
      note: 'call with <key-1> or <key-2>',
      accessToken: 'REDACTED',
      refresh_token: 'REDACTED',
      code: 'REDACTED',
      count: 3,
      audioUrl: 'https://cdn.example.com/a.mp3?expires=REDACTED&sig=REDACTED&w=3',
      s3: 'https://b.s3.amazonaws.com/k.png?X-Amz-Signature=REDACTED&X-Amz-Credential=REDACTED&partNumber=1',
    });
    expect(r.query('page=2&token=xyz&key=mg_a1_s3cret')).toBe('page=2&token=REDACTED&key=REDACTED');
    expect(r.owners()).toEqual(['key-1', 'key-2']);
    expect(r.redactions()).toEqual([
      { what: 'Authorization header', count: 1 },
      { what: 'cookie header', count: 1 },
      { what: 'API key (mg_...) in a body, query or header', count: 3 },
      { what: 'OAuth token, code or secret field', count: 3 },
      { what: 'signed URL parameter (sig, signature, expires, token...)', count: 6 },
    ]);
  });

  it('canonical JSON does not depend on key order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: null } })).toBe('{"a":{"c":null,"d":[2,{"e":0,"f":1}]},"b":1}');
  });
});

describe('the recorder', () => {
  it('fetches each media URL once (signatures aside), not the URLs of the request, within the per-file and total caps', async () => {
    const sizes: Record<string, number> = { '/a.png': 10, '/big.mp4': 100, '/b.mp3': 40 };
    const fetched: string[] = [];
    const fetchMedia = async (url: string) => {
      fetched.push(url);
      const path = new URL(url).pathname;
      if (!(path in sizes)) return new Response('{"code":10004}', { status: 404, headers: { 'content-type': 'application/json' } });
      return new Response(new Uint8Array(sizes[path]).fill(7), { headers: { 'content-type': 'application/octet-stream' } });
    };
    const file = join(dir, 'caps.json');
    const rec = createRecorder({ file, fetchMedia, maxMediaBytes: 50, maxTotalMediaBytes: 45 });
    const data = {
      taskId: 'vt_00000000000000aa',
      status: 'success',
      urls: [
        'https://m.example/a.png?sig=1',
        'https://m.example/a.png?sig=2',
        'https://m.example/big.mp4',
        'https://m.example/b.mp3',
        'https://m.example/gone.srt',
      ],
      source: 'https://in.example/upload.wav',
    };
    rec.observe(
      exchange('createVideoTask', 'POST', '/v1/video-generation/generate', data, 1000, {
        content: [{ type: 'image_url', url: 'https://in.example/upload.wav' }],
      }),
    );
    const summary = await rec.close();
    expect(fetched.sort()).toEqual(['https://m.example/a.png?sig=1', 'https://m.example/b.mp3', 'https://m.example/big.mp4', 'https://m.example/gone.srt']);
    const media = readRecordingFile(file).media;
    expect(media.map((m) => [m.url, m.size, m.notStored ?? 'stored'])).toEqual([
      ['https://m.example/a.png?sig=REDACTED', 10, 'stored'],
      ['https://m.example/big.mp4', 100, 'over the per-file cap of 50 bytes'],
      ['https://m.example/b.mp3', 40, 'over the total cap of 45 bytes'],
      ['https://m.example/gone.srt', 0, 'the fetch answered 404'],
    ]);
    expect(summary).toMatchObject({ exchanges: 1, tasks: 1, mediaStored: 1, mediaNotStored: 3, mediaBytes: 10 });
    expect(readFileSync(file, 'utf8')).not.toContain('mg_unit');
  });

  it('a media host that stalls (no answer, or headers then nothing) is listed once it has sent nothing for the time limit, and close() writes the file', async () => {
    const server = createServer((req, res) => {
      req.resume();
      if (req.url === '/ok.png') res.end('png');
      else if (req.url === '/drip.mp4') {
        res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': '1000' });
        res.write('....');
      } // anything else: no answer at all
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const file = join(dir, 'stalled.json');
      // the global fetch (the recorder's default), given up after 2 s of silence: long enough for the local host that
      // answers to be heard on a loaded machine, short enough for the test
      const rec = createRecorder({ file, mediaTimeoutMs: 2000 });
      const data = { taskId: 'vt_00000000000000bb', status: 'success', urls: [`${base}/ok.png`, `${base}/silent.mp3`, `${base}/drip.mp4`] };
      rec.observe(exchange('createVideoTask', 'POST', '/v1/video-generation/generate', data, 1000, { content: [{ type: 'text', text: 'a fox' }] }));
      const summary = await rec.close();
      const media = readRecordingFile(file).media;
      expect(media.map((m) => [new URL(m.url).pathname, m.notStored ?? 'stored'])).toEqual([
        ['/ok.png', 'stored'],
        ['/silent.mp3', 'the fetch failed: the host sent nothing for 2 s'],
        ['/drip.mp4', 'the fetch failed: the host sent nothing for 2 s'],
      ]);
      expect(summary).toMatchObject({ mediaStored: 1, mediaNotStored: 2 });
    } finally {
      server.closeAllConnections();
      server.close();
    }
  }, 30_000);

  it('keeps at most maxExchanges, and counts the rest', async () => {
    const file = join(dir, 'bounded.json');
    const rec = createRecorder({ file, maxExchanges: 2 });
    for (let i = 0; i < 5; i++) rec.observe(exchange('getSubscription', 'GET', '/v1/user/subscription', { balance: i }, i));
    await rec.close();
    const doc = readRecordingFile(file);
    expect(doc.exchanges.map((x) => (x.responseBody as { json: { data: { balance: number } } }).json.data.balance)).toEqual([0, 1]);
    expect(doc.droppedExchanges).toBe(3);
  });
});

describe('a replay', () => {
  it('puts a recorded create again into the world under new ids of the same form, never the recorded ones, and maps them in its answers', async () => {
    const file = join(dir, 'fresh.json');
    const rec = createRecorder({ file, fetchMedia: async () => new Response('x') });
    const body = { content: [{ type: 'text', text: 'a fox' }] };
    const created = { taskId: 'vt_1a2b3c4d5e6f7a8b', episodeId: 'ep_1a2b3c4d5e6f7a8b', status: 'generating' };
    rec.observe(exchange('createVideoTask', 'POST', '/v1/video-generation/generate', created, 0, body));
    rec.observe(exchange('getVideoTask', 'GET', '/v1/video-generation/tasks/vt_1a2b3c4d5e6f7a8b', { ...created, id: created.taskId, status: 'success' }, 5000));
    await rec.close();
    const replay = createReplay(readRecordingFile(file));
    const mock = createMock({ seed: 1, services: [...defaultServices, replay.service], intercept: replay.intercept });
    expect(replay.load(mock.engine)).toBe(1);
    const call = async (method: string, path: string, key = 'mg_me_secret1', sent?: unknown) => {
      const res = await mock.fetch(path, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        ...(sent === undefined ? {} : { body: JSON.stringify(sent) }),
      });
      return (await res.json()) as { code: number; data: Record<string, string> };
    };
    mock.advance(2_000);
    // the same body, keys in another order: the recorded answer
    const { data } = await call('POST', '/v1/video-generation/generate', undefined, { content: [{ text: 'a fox', type: 'text' }] });
    expect(data.taskId).toMatch(/^vt_[0-9a-f]{16}$/);
    expect(data.taskId).not.toBe(created.taskId);
    expect(data.episodeId).toMatch(/^ep_[0-9a-f]{16}$/);
    expect(data.episodeId).not.toBe(created.episodeId);
    const read = (key?: string) => call('GET', `/v1/video-generation/tasks/${data.taskId}`, key);
    // the status seen at 5 s is reached 5 s after this create, not before
    mock.advance(4_999);
    expect((await read()).data).toMatchObject({ taskId: data.taskId, status: 'generating' });
    mock.advance(1);
    expect((await read()).data).toMatchObject({ id: data.taskId, episodeId: data.episodeId, status: 'success' });
    // another key's read is the mock's: a task it does not have (31006)
    expect((await read('mg_other_secret1')).code).toBe(31006);
    // a body that was not recorded is the mock's own create
    const own = await call('POST', '/v1/video-generation/generate', undefined, { content: [{ type: 'text', text: 'a cat' }] });
    expect(own.code).toBe(0);
    expect([created.taskId, data.taskId]).not.toContain(own.data.taskId);
    expect(mock.bugs()).toEqual([]);
  });
});
