/**
 * Isolated sessions (X-Mock-Session, or the /sessions/<name> path prefix):
 * each is its own world (clock, seed, accounts, tasks, scenarios, journal),
 * created on first use and dropped by DELETE /__mock/sessions/{name}; media
 * URLs handed out in a session load without the header; the default world
 * stays as it is.
 */
import { describe, expect, it } from 'vitest';
import { errorCatalog } from '../schemas/errors.ts';
import { pathOf, videoBody } from './factories.ts';
import { KEY, useMocks } from './helpers.ts';

const mock = useMocks();
const inSession = (name: string, headers: Record<string, string> = {}) => ({ headers: { 'x-mock-session': name, ...headers } });

describe('X-Mock-Session', () => {
  it('a session has its own tasks, ledger and journal; the default world sees none of them', async () => {
    const m = await mock();
    const created = await m.call('POST', pathOf('createVideoTask'), { body: videoBody(), ...inSession('a') });
    expect(created.status).toBe(200);
    const listIn = async (headers?: Record<string, string>) => (await m.call('GET', pathOf('listVideoTasks'), { headers })).json.data.total as number;
    expect(await listIn({ 'x-mock-session': 'a' })).toBe(1);
    expect(await listIn({ 'x-mock-session': 'b' })).toBe(0);
    expect(await listIn()).toBe(0);
    const credits = async (headers?: Record<string, string>) => (await m.call('GET', `/__mock/accounts/${KEY}`, { key: null, headers })).json.credits as number;
    expect(await credits({ 'x-mock-session': 'a' })).toBeLessThan(await credits());
    const journal = async (headers?: Record<string, string>) =>
      ((await m.call('GET', '/__mock/requests', { key: null, headers })).json.items as { operationId: string }[]).map((e) => e.operationId);
    expect(await journal({ 'x-mock-session': 'a' })).toEqual(['createVideoTask', 'listVideoTasks']);
    expect(await journal()).toEqual(['listVideoTasks']);
  });

  it('clocks, seeds and resets are per session', async () => {
    const m = await mock();
    const clock = async (name?: string) => (await m.call('GET', '/__mock/clock', { key: null, ...(name ? inSession(name) : {}) })).json.now as number;
    const start = await clock();
    expect((await m.call('POST', '/__mock/clock/advance', { key: null, body: { ms: 5000 }, ...inSession('a') })).status).toBe(200);
    expect(await clock('a')).toBe(start + 5000);
    expect(await clock('b')).toBe(start);
    expect(await clock()).toBe(start);
    expect((await m.call('POST', '/__mock/reset', { key: null, body: { seed: 99 }, ...inSession('b') })).json.seed).toBe(99);
    const seed = async (name?: string) => (await m.call('GET', '/__mock/health', { key: null, ...(name ? inSession(name) : {}) })).json.seed as number;
    expect([await seed('b'), await seed('a'), await seed()]).toEqual([99, 1, 1]);
    // the same request in two sessions of the same seed gives the same id (each world is deterministic on its own)
    const id = async (name: string) => (await m.call('POST', pathOf('createVideoTask'), { body: videoBody(), ...inSession(name) })).json.data.taskId as string;
    expect(await id('c')).toBe(await id('d'));
  });

  it('media URLs handed out in a session carry /sessions/<name> and load without the header; the prefix also selects the session for API calls', async () => {
    const m = await mock();
    const { taskId } = (await m.call('POST', pathOf('createVideoTask'), { body: videoBody(), ...inSession('media-1') })).json.data as { taskId: string };
    await m.call('POST', '/__mock/clock/advance', { key: null, body: { ms: 10 * 60_000 }, ...inSession('media-1') });
    const viaPrefix = await m.call('GET', `/sessions/media-1${pathOf('getVideoTask', { taskId })}`);
    expect(viaPrefix.json.data.status).toBe('success');
    const url = new URL(JSON.stringify(viaPrefix.json.data).match(/https?:\/\/[^"]+\.mp4/)![0]);
    expect(url.pathname).toMatch(/^\/sessions\/media-1\/media\//);
    const video = await fetch(m.base + url.pathname);
    expect(video.status).toBe(200);
    expect(video.headers.get('content-type')).toBe('video/mp4');
    // the same file without the prefix is not in the default world
    expect((await fetch(m.base + url.pathname.replace('/sessions/media-1', ''))).status).toBe(404);
  });

  it('GET /__mock/sessions lists them; DELETE drops one, and its next request starts it afresh', async () => {
    const m = await mock();
    await m.call('POST', pathOf('createVideoTask'), { body: videoBody(), ...inSession('w1') });
    await m.call('GET', pathOf('getSubscription'), inSession('w2'));
    const names = async () => ((await m.call('GET', '/__mock/sessions', { key: null })).json.items as { name: string }[]).map((s) => s.name);
    expect(await names()).toEqual(['w1', 'w2']);
    expect((await m.call('DELETE', '/__mock/sessions/w1', { key: null })).json).toEqual({ name: 'w1', existed: true });
    expect((await m.call('DELETE', '/__mock/sessions/w1', { key: null })).json).toEqual({ name: 'w1', existed: false });
    expect(await names()).toEqual(['w2']);
    expect((await m.call('GET', pathOf('listVideoTasks'), inSession('w1'))).json.data.total).toBe(0);
  });

  it.each([['a b'], ['x'.repeat(65)], ['ünïcode'], ['semi;colon']])('an invalid session name (%s) is a 400 naming the header', async (name) => {
    const m = await mock();
    const res = await m.call('GET', pathOf('getSubscription'), { headers: { 'x-mock-session': encodeURIComponent(name) === name ? name : encodeURI(name) } });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe(errorCatalog.MALFORMED_REQUEST.code);
    expect(res.json.message).toMatch(/X-Mock-Session/);
  });
});

describe('who opens a session (decisions/0019-sessions.md)', () => {
  const names = async (m: Awaited<ReturnType<typeof mock>>) =>
    ((await m.call('GET', '/__mock/sessions', { key: null })).json.items as { name: string }[]).map((s) => s.name);

  it.each([
    ['media by prefix', 'GET', '/sessions/m1/media/videos/vt_x.mp4', null],
    ['an API request without a key', 'GET', '/sessions/m2/v1/user/subscription', null],
    ['an API request with a Bearer that is no API key', 'GET', '/sessions/m3/v1/user/subscription', 'not-a-key'],
    ['the sign-in page', 'GET', '/sessions/m4/oauth/authorize?sessionId=ls_x', null],
    ['the documentation', 'GET', '/sessions/m5/docs', null],
  ])('%s: 404 (10018) and no session', async (_what, method, path, key) => {
    const m = await mock();
    const r = await m.call(method, path, { key });
    expect(r.status).toBe(404);
    expect(r.json.code).toBe(errorCatalog.SESSION_NOT_FOUND.code);
    expect(await names(m)).toEqual([]);
  });

  it('by header too: media and unauthenticated requests open nothing; an API key or a control request opens it', async () => {
    const m = await mock();
    expect((await m.call('GET', '/media/videos/vt_x.mp4', { key: null, ...inSession('h1') })).json.code).toBe(errorCatalog.SESSION_NOT_FOUND.code);
    expect((await m.call('GET', pathOf('getSubscription'), { key: null, ...inSession('h1') })).status).toBe(404);
    expect(await names(m)).toEqual([]);
    expect((await m.call('GET', pathOf('getSubscription'), inSession('h1'))).status).toBe(200);
    expect((await m.call('GET', '/__mock/health', { key: null, ...inSession('h2') })).status).toBe(200);
    expect(await names(m)).toEqual(['h1', 'h2']);
    // once open, media and unauthenticated requests act in it (404 of the media route, 401 of the API)
    expect((await m.call('GET', '/media/videos/vt_x.mp4', { key: null, ...inSession('h1') })).json.code).toBe(errorCatalog.ROUTE_NOT_FOUND.code);
    expect((await m.call('GET', pathOf('getSubscription'), { key: null, ...inSession('h1') })).status).toBe(401);
  });

  it('a refused control request opens nothing: without the control token, or from a page of another origin (Origin, Referer or Sec-Fetch-Site)', async () => {
    const m = await mock({ controlToken: 'tok' });
    expect((await m.call('POST', '/sessions/x/__mock/reset', { key: null })).json.code).toBe(errorCatalog.CONTROL_FORBIDDEN.code);
    const asPage = (headers: Record<string, string>) => ({ key: null, headers: { authorization: 'Bearer tok', ...headers } });
    for (const headers of <Record<string, string>[]>[
      { origin: 'https://evil.example' },
      { referer: 'https://evil.example/page.html' },
      { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors' },
    ]) {
      const r = await m.call('GET', '/sessions/y/__mock/health', asPage(headers));
      expect(r.status, JSON.stringify(headers)).toBe(403);
      expect(r.json.code).toBe(errorCatalog.CONTROL_FORBIDDEN.code);
    }
    const listed = async () => ((await m.call('GET', '/__mock/sessions', asPage({}))).json.items as { name: string }[]).map((s) => s.name);
    expect(await listed()).toEqual([]);
    // this machine's pages and tools pass, and open it
    expect((await m.call('GET', '/sessions/y/__mock/health', asPage({ referer: 'http://localhost:5173/' }))).status).toBe(200);
    expect((await m.call('POST', '/sessions/x/__mock/reset', asPage({}))).status).toBe(200);
    expect(await listed()).toEqual(['y', 'x']);
  });
});
