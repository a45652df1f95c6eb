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
