/**
 * The MSW handlers (mock/web/msw.ts) against the Express server: one scripted
 * session (JSON envelopes, errors, multipart upload, binary speech, media with
 * Range, an event stream, the virtual clock) run through `setupServer` and
 * over HTTP gives the same statuses, content types and body bytes. Both
 * engines have the same seed and build media URLs on the same base.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { getResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer } from '../mock/http/app.ts';
import { createMockHandlers } from '../mock/web/msw.ts';
import { cloneForm, imageBody, pathOf, podcastBody, speechBody, ttsBody, videoBody } from './factories.ts';
import { KEY } from './helpers.ts';

const BASE = 'http://localhost:4010';
const SEED = 4242;

interface Sent {
  step: string;
  status: number;
  type: string | null;
  body: Buffer;
}

type Send = (
  step: string,
  method: string,
  path: string,
  opts?: { body?: unknown; form?: FormData; headers?: Record<string, string>; key?: string | null },
) => Promise<Sent>;

/** The scripted session; `send` paths are relative to the base (media URLs are given whole and rebased by the caller). */
async function session(send: Send, advance: (ms: number) => void): Promise<Sent[]> {
  const out: Sent[] = [];
  const json = (s: Sent) => JSON.parse(s.body.toString('utf8')) as { data: Record<string, unknown> };
  const rec = async (p: Promise<Sent>) => {
    const s = await p;
    out.push(s);
    return s;
  };
  await rec(send('subscription', 'GET', pathOf('getSubscription')));
  await rec(send('no auth', 'GET', pathOf('getSubscription'), { key: null }));
  // paths the handlers claim with nothing there: hosted media, and a typo under the API's prefix (/v1/)
  await rec(send('unknown route', 'GET', '/media/nothing-here.png'));
  await rec(send('unknown api path', 'GET', '/v1/nope'));
  // a typo opens no session (the request entry: only an operation with a key does); in an open session it is a 404 too
  await rec(send('unknown api path, unknown session', 'POST', '/sessions/typo/v1/video-generation/generat', { body: videoBody() }));
  await rec(send('a session opened', 'GET', '/sessions/typo/v1/user/subscription'));
  await rec(send('unknown api path in a session', 'POST', '/sessions/typo/v1/video-generation/generat', { body: videoBody() }));
  await rec(send('method not allowed', 'DELETE', pathOf('getSubscription')));
  await rec(send('invalid body', 'POST', pathOf('createVideoTask'), { body: { model: 'nope' } }));
  await rec(send('malformed json', 'POST', pathOf('createVideoTask'), { body: '{"model":', headers: { 'content-type': 'application/json' } }));

  await rec(send('image sync (inline PNG)', 'POST', pathOf('generateImage'), { body: imageBody() }));
  const imageTask = json(await rec(send('image task create', 'POST', pathOf('createImageTask'), { body: imageBody() })));
  advance(5 * 60_000);
  const image = await rec(send('image task done', 'GET', pathOf('getImageTask', { taskId: String(imageTask.data.taskId) })));
  const imageUrl = image.body.toString('utf8').match(/https?:\/\/[^"]+\.png[^"]*/)?.[0];
  expect(imageUrl).toBeDefined();
  await rec(send('image media', 'GET', imageUrl!));

  const video = json(await rec(send('video create', 'POST', pathOf('createVideoTask'), { body: videoBody() })));
  const taskId = String(video.data.taskId);
  await rec(send('video pending', 'GET', pathOf('getVideoTask', { taskId })));
  advance(10 * 60_000);
  const done = await rec(send('video done', 'GET', pathOf('getVideoTask', { taskId })));
  const videoUrl = done.body.toString('utf8').match(/https?:\/\/[^"]+\.mp4[^"]*/)?.[0];
  expect(videoUrl).toBeDefined();
  await rec(send('video media', 'GET', videoUrl!));
  await rec(send('video range', 'GET', videoUrl!, { headers: { range: 'bytes=100-299' } }));
  await rec(send('video failed (forced)', 'POST', pathOf('createVideoTask'), { body: videoBody(), headers: { prefer: 'outcome=failed' } }));

  await rec(send('speech binary', 'POST', pathOf('synthesizeSpeech'), { body: ttsBody() }));
  await rec(send('speech script', 'POST', pathOf('createSpeechScript'), { body: speechBody() }));
  const clone = json(await rec(send('voice clone upload', 'POST', pathOf('createVoiceClone'), { form: cloneForm() })));
  await rec(send('voice clone poll', 'GET', pathOf('getVoiceClone', { taskId: String(clone.data.taskId) })));

  const episode = json(await rec(send('podcast create', 'POST', pathOf('createPodcastEpisode'), { body: podcastBody() })));
  const episodeId = String(episode.data.episodeId);
  advance(60 * 60_000);
  await rec(send('podcast done', 'GET', pathOf('getPodcastEpisode', { episodeId })));
  await rec(send('podcast script stream', 'GET', pathOf('streamPodcastText', { episodeId }, { event: 'script' })));
  return out;
}

function sender(fetcher: (url: string, init: RequestInit) => Promise<Response>, base: string): Send {
  return async (step, method, path, opts = {}) => {
    const url = path.startsWith('http') ? base + new URL(path).pathname + new URL(path).search : base + path;
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.key !== null) headers.authorization = `Bearer ${opts.key ?? KEY}`;
    let body: BodyInit | undefined;
    if (opts.form) body = opts.form;
    else if (typeof opts.body === 'string') body = opts.body;
    else if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetcher(url, { method, headers, body });
    return { step, status: res.status, type: res.headers.get('content-type'), body: Buffer.from(await res.arrayBuffer()) };
  };
}

describe('MSW handlers and the Express server: the same session, the same bytes', () => {
  let server: Server;
  let serverBase: string;
  const express = createMockServer({ seed: SEED, clock: 'manual', strict: true, publicUrl: BASE });
  const msw = createMockHandlers({ seed: SEED, baseUrl: BASE, strict: true });
  const worker = setupServer(...msw.handlers);

  beforeAll(async () => {
    server = await new Promise<Server>((resolve) => {
      const s = express.app.listen(0, '127.0.0.1', () => resolve(s));
    });
    serverBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    worker.listen({ onUnhandledRequest: 'bypass' });
  });
  afterAll(async () => {
    worker.close();
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('every step answers the same status, content type and body', async () => {
    // the server first (MSW is not in the way: its handlers only answer BASE), then the handlers through global fetch
    const viaServer = await session(sender(fetch, serverBase), (ms) => void express.engine.advance(ms));
    const viaMsw = await session(sender(fetch, BASE), (ms) => void msw.advance(ms));
    expect(viaMsw.map((s) => s.step)).toEqual(viaServer.map((s) => s.step));
    for (const [i, s] of viaServer.entries()) {
      const m = viaMsw[i];
      expect({ step: m.step, status: m.status, type: m.type }).toEqual({ step: s.step, status: s.status, type: s.type });
      expect(m.body.equals(s.body), `${s.step}: body differs (${m.body.length} vs ${s.body.length} bytes)`).toBe(true);
    }
    // the session covered what it claims: errors, binary, media, a partial range and a finished stream
    const by = Object.fromEntries(viaServer.map((s) => [s.step, s]));
    expect(by['no auth'].status).toBe(401);
    expect(by['unknown route'].status).toBe(404);
    for (const step of ['unknown api path', 'unknown api path in a session']) {
      expect(by[step].status, step).toBe(404);
      expect(JSON.parse(by[step].body.toString()).code, step).toBe(10004);
    }
    expect(by['unknown api path, unknown session'].status).toBe(404);
    expect(JSON.parse(by['unknown api path, unknown session'].body.toString()).code).toBe(10018);
    expect(by['a session opened'].status).toBe(200);
    expect(by['method not allowed'].status).toBe(405);
    expect(by['invalid body'].status).toBe(400);
    expect(by['video range'].status).toBe(206);
    expect(by['video range'].body.length).toBe(200);
    expect(by['video media'].type).toBe('video/mp4');
    expect(by['image media'].type).toBe('image/png');
    expect(by['speech binary'].type).toMatch(/^audio\//);
    expect(by['podcast script stream'].type).toMatch(/^text\/event-stream/);
    expect(by['podcast script stream'].body.toString()).toMatch(/event: done/);
    expect(JSON.parse(by['video done'].body.toString()).data.status).toBe('success');
    expect(express.engine.bugs).toEqual([]);
    expect(msw.bugs()).toEqual([]);
  });

  it('the journal of the handlers records the API requests as the server does', () => {
    const strip = (e: { seq: number; at: number; method: string; path: string; operationId: string | null; status: number; code: number | null }) => ({
      method: e.method,
      path: e.path,
      operationId: e.operationId,
      status: e.status,
      code: e.code,
    });
    expect(msw.requests().map(strip)).toEqual(express.engine.journal.list().map(strip));
    expect(msw.requests().length).toBeGreaterThan(15);
  });

  it('answers the API, media, control and session paths under the base URL and lets everything else through', async () => {
    const mine = [
      '/v1/user/subscription',
      '/V1/User/Subscription/',
      '/v1/video-generation/tasks/vt_1',
      '/media/videos/vt_1.mp4',
      '/__mock/health',
      '/__mock',
      '/sessions/a/v1/user/subscription',
      '/sessions/a/__mock/clock',
      // a typo under the API's prefix: the 404 envelope, as from the server
      '/v1/nothing-here',
      '/V1/video-generation/generat',
      '/sessions/a/v1/nope',
    ];
    const notMine = [
      '/',
      '/index.html',
      '/favicon.ico',
      '/src/App.tsx?t=1',
      '/@vite/client',
      '/@react-refresh',
      '/node_modules/.vite/deps/chunk-AB12.js?v=1',
      '/v1x/nothing-here',
      '/v2/nothing-here',
      '/oauth/callback',
      '/sessions/a/src/App.tsx',
      '/mediafoo',
      '/__mockery',
    ];
    const answered = async (url: string) => (await getResponse(msw.handlers, new Request(url))) !== undefined;
    for (const p of mine) expect(await answered(BASE + p), p).toBe(true);
    for (const p of notMine) expect(await answered(BASE + p), p).toBe(false);
    // another origin, and a base URL with a path prefix: only the paths below it
    expect(await answered('http://localhost:5173/v1/user/subscription')).toBe(false);
    const prefixed = createMockHandlers({ baseUrl: 'http://localhost:5173/api/' });
    const under = async (p: string) => (await getResponse(prefixed.handlers, new Request('http://localhost:5173' + p))) !== undefined;
    expect(await under('/api/v1/user/subscription')).toBe(true);
    expect(await under('/api/media/images/x/0.png')).toBe(true);
    expect(await under('/v1/user/subscription')).toBe(false);
    expect(await under('/apiv1/user/subscription')).toBe(false);
    expect(await under('/api/src/main.tsx')).toBe(false);
    expect(await under('/api/v1/nope')).toBe(true);
    expect(await under('/v1/nope')).toBe(false);
  });

  it("unknownApiPaths: 'bypass' lets an unknown /v1/ path through, and still answers the API's operations", async () => {
    const own = createMockHandlers({ baseUrl: BASE, unknownApiPaths: 'bypass' });
    const answered = async (p: string) => (await getResponse(own.handlers, new Request(BASE + p))) !== undefined;
    expect(await answered('/v1/nothing-here')).toBe(false);
    expect(await answered('/sessions/a/v1/nothing-here')).toBe(false);
    expect(await answered('/v1/user/subscription')).toBe(true);
    const typo = await getResponse(msw.handlers, new Request(BASE + '/v1/nothing-here'));
    expect(typo?.status).toBe(404);
    expect(((await typo!.json()) as { code: number }).code).toBe(10004);
  });

  it('reset returns the handlers to the start: the same create gives the same id again', async () => {
    const create = () =>
      msw
        .fetch(
          new Request(BASE + pathOf('createVideoTask'), {
            method: 'POST',
            headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
            body: JSON.stringify(videoBody()),
          }),
        )
        .then((r) => r.json() as Promise<{ data: { taskId: string } }>);
    msw.reset();
    const first = await create();
    msw.reset();
    const again = await create();
    expect(again.data.taskId).toBe(first.data.taskId);
    expect(msw.account(KEY).credits).toBeLessThan(msw.account('mg_fresh_secret9').credits);
  });
});
