/**
 * Hosted media as production serves it (the server of createMockServer: the
 * request entry decides a media path, the world's answerer of mock/core/media.ts
 * answers it) on synthetic routes of a service of its own: what every hosted
 * file gets whatever its area (Content-Type, Content-Length, ETag,
 * Accept-Ranges), Range answered 206 and 416, If-None-Match and If-Range,
 * HEAD, 404 and 405 envelopes, routes that read the query and deny a request
 * (403), one render shared by concurrent first
 * requests, and a cache bounded by size. The areas' own media are decoded in
 * their tests.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCatalog } from '../schemas/errors.ts';
import { parseRange } from '../mock/core/media.ts';
import { createMockServer } from '../mock/http/app.ts';
import type { MediaRoute } from '../mock/services/context.ts';

const SIZE = 1000;
const bytesFor = (id: string) => Uint8Array.from({ length: SIZE }, (_, i) => (i + id.length) % 251);
let renders: Record<string, number> = {};

const routes: MediaRoute[] = [
  {
    path: '/media/things/{id}.bin',
    resolve: (_engine, p) =>
      p.id.startsWith('missing')
        ? undefined
        : {
            contentType: 'application/x-thing',
            key: `thing ${p.id}`,
            render: async () => {
              renders[p.id] = (renders[p.id] ?? 0) + 1;
              await new Promise((r) => setTimeout(r, 20));
              return bytesFor(p.id);
            },
          },
  },
  {
    path: '/media/big/{n}.bin',
    resolve: (_e, p) => ({
      contentType: 'application/octet-stream',
      key: `big ${p.n}`,
      render: () => ((renders[`big${p.n}`] = (renders[`big${p.n}`] ?? 0) + 1), new Uint8Array(600)),
    }),
  },
  {
    // a URL that carries its own authorization: ?token=open loads, ?token=late is past its time, anything else is refused
    path: '/media/signed/{id}.bin',
    resolve: (_e, p, query) =>
      query.token === 'open'
        ? { contentType: 'application/octet-stream', key: `signed ${p.id}`, render: () => bytesFor(p.id) }
        : {
            denied: `token ${query.token ?? '(none)'} does not open ${p.id}`,
            error: query.token === 'late' ? 'MUSIC_AUDIO_URL_EXPIRED' : 'MUSIC_AUDIO_URL_INVALID_SIGNATURE',
          },
  },
  {
    path: '/media/broken.bin',
    resolve: () => ({
      contentType: 'application/octet-stream',
      key: 'broken',
      render: () => {
        throw new RangeError('cannot render');
      },
    }),
  },
];

let server: Server;
let base: string;
const bugs: string[] = [];
beforeAll(async () => {
  // the only service: the synthetic media routes (no operations)
  const { app } = createMockServer({ services: [{ handlers: {}, media: routes }], mediaCacheBytes: 1000, onMockBug: (w, p) => bugs.push(`${w}: ${p}`) });
  server = await new Promise((r) => {
    const s = app.listen(0, '127.0.0.1', () => r(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const get = async (path: string, headers: Record<string, string> = {}, method = 'GET') => {
  const res = await fetch(base + path, { method, headers });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
};

describe('routes that read the query and deny a request', () => {
  it('the route sees the query (the first value of each name); a denial answers its catalogued error (403) with the message', async () => {
    expect((await get('/media/signed/s1.bin?token=open&token=late')).status).toBe(200);
    for (const [query, name] of [
      ['?token=late', 'MUSIC_AUDIO_URL_EXPIRED'],
      ['?token=other', 'MUSIC_AUDIO_URL_INVALID_SIGNATURE'],
      ['', 'MUSIC_AUDIO_URL_INVALID_SIGNATURE'],
      ['?token=%E0%A4%A', 'MUSIC_AUDIO_URL_INVALID_SIGNATURE'],
    ] as const) {
      const r = await get(`/media/signed/s1.bin${query}`);
      expect(r.status, query).toBe(403);
      const body = JSON.parse(new TextDecoder().decode(r.bytes));
      expect(body).toEqual({ code: errorCatalog[name].code, message: expect.stringContaining('/media/signed/s1.bin: token'), data: null });
    }
  });
});

describe('headers and body', () => {
  it('a whole file: 200 with Content-Type, Content-Length, ETag, Accept-Ranges and the bytes', async () => {
    const r = await get('/media/things/a1.bin');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/x-thing');
    expect(r.headers.get('content-length')).toBe(String(SIZE));
    expect(r.headers.get('accept-ranges')).toBe('bytes');
    expect(r.headers.get('etag')).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(r.bytes).toEqual(bytesFor('a1'));
  });

  it('HEAD: the same headers, no body', async () => {
    const r = await get('/media/things/a1.bin', {}, 'HEAD');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-length')).toBe(String(SIZE));
    expect(r.bytes.length).toBe(0);
  });

  it.each([
    ['bytes=0-99', 0, 99],
    ['bytes=100-', 100, SIZE - 1],
    ['bytes=-10', SIZE - 10, SIZE - 1],
    ['bytes=990-5000', 990, SIZE - 1],
    ['bytes=999-999', 999, 999],
  ])('Range %s: 206 with Content-Range and exactly those bytes', async (range, start, end) => {
    const r = await get('/media/things/r1.bin', { range });
    expect(r.status).toBe(206);
    expect(r.headers.get('content-range')).toBe(`bytes ${start}-${end}/${SIZE}`);
    expect(r.headers.get('content-length')).toBe(String(end - start + 1));
    expect(r.bytes).toEqual(bytesFor('r1').subarray(start, end + 1));
  });

  it.each(['bytes=1000-', 'bytes=2000-3000', 'bytes=-0'])('unsatisfiable Range %s: 416 with Content-Range bytes */size and the envelope', async (range) => {
    const r = await get('/media/things/r2.bin', { range });
    expect(r.status).toBe(416);
    expect(r.headers.get('content-range')).toBe(`bytes */${SIZE}`);
    expect(JSON.parse(new TextDecoder().decode(r.bytes)).code).toBe(errorCatalog.RANGE_NOT_SATISFIABLE.code);
  });

  it('several ranges, another unit or an invalid range (last before first): the whole file (200), as RFC 9110 says', async () => {
    for (const range of ['bytes=0-1,5-6', 'items=0-1', 'bytes=5-4', 'bytes=5-1', 'bytes=2000-1000'])
      expect((await get('/media/things/r3.bin', { range })).status).toBe(200);
  });

  it('If-None-Match with the ETag: 304; If-Range with the ETag: 206, with another: 200', async () => {
    const etag = (await get('/media/things/e1.bin')).headers.get('etag')!;
    expect((await get('/media/things/e1.bin', { 'if-none-match': etag })).status).toBe(304);
    expect((await get('/media/things/e1.bin', { range: 'bytes=0-9', 'if-range': etag })).status).toBe(206);
    expect((await get('/media/things/e1.bin', { range: 'bytes=0-9', 'if-range': '"other"' })).status).toBe(200);
  });
});

describe('errors', () => {
  it('nothing there: 404 envelope naming the path; another method: 405 with Allow; a path no route declares: the 404 envelope', async () => {
    const r = await get('/media/things/missing1.bin');
    expect(r.status).toBe(404);
    const body = JSON.parse(new TextDecoder().decode(r.bytes));
    expect(body.code).toBe(errorCatalog.ROUTE_NOT_FOUND.code);
    expect(body.message).toContain('/media/things/missing1.bin');
    const post = await get('/media/things/a1.bin', {}, 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    const elsewhere = await get('/media/elsewhere/a.bin');
    expect(elsewhere.status).toBe(404);
    expect(JSON.parse(new TextDecoder().decode(elsewhere.bytes)).code).toBe(errorCatalog.ROUTE_NOT_FOUND.code);
  });

  it('a render that throws: 500 envelope (10500) and a reported mock bug', async () => {
    const r = await get('/media/broken.bin');
    expect(r.status).toBe(500);
    expect(JSON.parse(new TextDecoder().decode(r.bytes)).code).toBe(errorCatalog.MOCK_INTERNAL_ERROR.code);
    expect(bugs.some((b) => b.includes('cannot render'))).toBe(true);
    bugs.length = 0;
  });
});

describe('rendering and the cache', () => {
  it('ten concurrent first requests share one render; later ones come from the cache', async () => {
    renders = {};
    const all = await Promise.all(Array.from({ length: 10 }, () => get('/media/things/c1.bin')));
    expect(all.every((r) => r.status === 200)).toBe(true);
    await get('/media/things/c1.bin', { range: 'bytes=0-0' });
    expect(renders.c1).toBe(1);
  });

  it('the cache is bounded by size: the least recently used asset is rendered again', async () => {
    renders = {};
    await get('/media/big/1.bin');
    await get('/media/big/1.bin');
    expect(renders.big1).toBe(1);
    await get('/media/big/2.bin'); // 600 + 600 bytes > 1000: asset 1 leaves the cache
    await get('/media/big/1.bin');
    expect(renders.big1).toBe(2);
  });
});

describe('parseRange', () => {
  it.each([
    [undefined, 10, undefined],
    ['bytes=0-0', 10, { start: 0, end: 0 }],
    ['bytes=-3', 10, { start: 7, end: 9 }],
    ['bytes=-30', 10, { start: 0, end: 9 }],
    ['bytes=10-', 10, 'unsatisfiable'],
    ['bytes=0-', 0, 'unsatisfiable'],
    ['bytes=abc', 10, undefined],
  ])('%s of %i bytes -> %o', (header, size, want) => {
    expect(parseRange(header, size)).toEqual(want);
  });
});
