/**
 * Hosted media, transport-neutral (docs/architecture.md, "Media"): answers a
 * request for any media route the areas declare (`MediaRoute` of
 * mock/services/context.ts); it knows no area by name. No auth: media URLs are
 * loaded by <video>, <audio> and <img> tags, which send no Authorization header.
 *
 * Every answer carries Content-Type, Content-Length, ETag and Accept-Ranges:
 * bytes; a file past its validity answers 410 (10015), a request its URL does
 * not authorize (a signed URL's signature or expiry) the route's catalogued
 * error (403); a single valid `Range` is answered 206 (416 when unsatisfiable; an invalid one is ignored),
 * If-Range and If-None-Match are honoured. Rendered bytes are kept in a cache
 * bounded by size (least recently used first out), keyed by what names them
 * (`MediaAsset.key`), and concurrent first requests of one asset share one render.
 * One cache may serve several engines (the sessions of a process), each
 * answerer putting its own prefix before the keys.
 */
import { LRUCache } from 'lru-cache';
import type { Engine } from '../engine/engine.ts';
import { hash32 } from '../engine/rng.ts';
import type { MediaAsset, MediaRoute } from '../services/context.ts';
import { loadAudioLoops } from '../media/audio.ts';
import { loadRenderers } from '../media/renderers.ts';
import { loadFake } from '../services/fake.ts';
import { mediaRouteMatcher } from '../services/hosted-media.ts';
import { errorAnswer, type Answer } from './answer.ts';

/** Rendered bytes kept in memory (bounded by size, least recently used first out) and the renders under way; shareable by several answerers. */
export interface MediaCache {
  /** By key; an interface of its own, not lru-cache's class, so the package's declarations need no Node typings (lru-cache's mention NodeJS). */
  bytes: {
    get(key: string): Uint8Array | undefined;
    set(key: string, bytes: Uint8Array): unknown;
    keys(): IterableIterator<string>;
    readonly calculatedSize: number;
  };
  rendering: Map<string, Promise<Uint8Array>>;
}

/** A media cache of at most `maxBytes` bytes (default 256 MiB). */
export function createMediaCache(maxBytes = 256 * 1024 * 1024): MediaCache {
  return { bytes: new LRUCache<string, Uint8Array>({ maxSize: maxBytes, sizeCalculation: (v) => Math.max(1, v.byteLength) }), rendering: new Map() };
}

export interface MediaOptions {
  /** Most bytes of rendered media kept in memory (default 256 MiB), when no `cache` is given. */
  cacheBytes?: number;
  /** A cache shared with other answerers (one per process: every session's world uses it), instead of one of `cacheBytes`. */
  cache?: MediaCache;
  /** Put before every key in a shared `cache`, so that worlds never share an entry (a session's `/sessions/<name>`). */
  keyPrefix?: string;
  /** Called when a render fails (a mock bug). */
  onMockBug?: (where: string, problem: string) => void;
}

/** The request headers media answers read (lower-case names). */
export interface MediaRequestHeaders {
  range?: string;
  'if-range'?: string;
  'if-none-match'?: string;
}

/**
 * The byte range of a `Range: bytes=...` header for a body of `size` bytes: a
 * range, 'unsatisfiable', or undefined (serve it all). As RFC 9110, "Range"
 * says, a header that is not a valid single byte range (another unit, several
 * ranges, a last position before the first: `bytes=5-1`) is ignored, and a
 * valid one that the body cannot satisfy (it starts at or past the end, or is
 * a suffix of 0 bytes) is unsatisfiable (416).
 */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  if (!header) return undefined;
  const m = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!m || (m[1] === '' && m[2] === '')) return undefined; // several ranges or not bytes: ignored, the whole body is sent
  if (m[1] === '') {
    const n = Number(m[2]);
    if (n === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  if (m[2] !== '' && Number(m[2]) < start) return undefined; // an invalid range: ignored
  if (start >= size) return 'unsatisfiable';
  return { start, end: m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1) };
}

/** The query parameters of a request URL (`/media/x.mp3?a=1&b=2`), the first value of each name; malformed encoding leaves the raw text. */
export function queryOf(url: string): Record<string, string> {
  const at = url.indexOf('?');
  const out: Record<string, string> = {};
  if (at < 0) return out;
  for (const [k, v] of new URLSearchParams(url.slice(at + 1))) if (!Object.hasOwn(out, k)) out[k] = v;
  return out;
}

/**
 * The media answerer bound to `engine`, serving `routes`: `answer(method,
 * path, url, headers)` is the Answer to a request, or undefined when `path`
 * is no media route. The body is whole bytes (HEAD: the transport leaves it out).
 */
export function createMediaAnswerer(engine: Engine, routes: readonly MediaRoute[], opts: MediaOptions = {}) {
  const { bytes: cache, rendering } = opts.cache ?? createMediaCache(opts.cacheBytes);
  const prefix = opts.keyPrefix ?? '';

  async function bytesOf(asset: MediaAsset): Promise<Uint8Array> {
    const key = prefix + asset.key;
    const hit = cache.get(key);
    if (hit) return hit;
    let p = rendering.get(key);
    if (!p) {
      p = Promise.resolve()
        .then(() => asset.render())
        .then((bytes) => {
          cache.set(key, bytes);
          return bytes;
        })
        .finally(() => rendering.delete(key));
      rendering.set(key, p);
    }
    return p;
  }

  const find = mediaRouteMatcher(routes);

  return async function answer(method: string, path: string, url: string, headers: MediaRequestHeaders): Promise<Answer | undefined> {
    await Promise.all([loadFake(), loadAudioLoops(), loadRenderers()]); // a render may use faker, the audio loops or the renderers, which load on first use
    const hit = find(path);
    if (!hit) return undefined;
    if (method !== 'GET' && method !== 'HEAD')
      return errorAnswer('METHOD_NOT_ALLOWED', `${method} is not allowed on ${path}; allowed: GET, HEAD`, { Allow: 'GET, HEAD' });
    engine.tick();
    const asset = hit.route.resolve(engine, hit.params, queryOf(url));
    if (!asset) return errorAnswer('ROUTE_NOT_FOUND', `no media at ${path} (an unknown or deleted task, or one that has not produced it yet)`);
    if ('expired' in asset) return errorAnswer('MEDIA_EXPIRED', `${path}: ${asset.expired}`);
    if ('denied' in asset) return errorAnswer(asset.error, `${path}: ${asset.denied}`);
    let bytes: Uint8Array;
    try {
      bytes = await bytesOf(asset);
    } catch (e) {
      opts.onMockBug?.(`media ${path}`, (e as Error)?.stack ?? String(e));
      return errorAnswer('MOCK_INTERNAL_ERROR', `mock bug: media at ${path} could not be rendered`);
    }
    const etag = `"${hash32(asset.key).toString(16)}-${bytes.byteLength.toString(16)}"`;
    const h: Record<string, string> = { 'Content-Type': asset.contentType, 'Accept-Ranges': 'bytes', ETag: etag, 'Cache-Control': 'no-cache' };
    if (headers['if-none-match']?.split(',').some((t) => t.trim() === etag || t.trim() === '*')) return { status: 304, headers: h, envelopeCode: null };
    const ifRange = headers['if-range'];
    const range = ifRange === undefined || ifRange === etag ? parseRange(headers.range, bytes.byteLength) : undefined;
    if (range === 'unsatisfiable') {
      const e = errorAnswer('RANGE_NOT_SATISFIABLE', `Range ${headers.range} is outside the ${bytes.byteLength} bytes of ${path}`, {
        'Content-Range': `bytes */${bytes.byteLength}`,
      });
      return { ...e, headers: { ...h, ...e.headers } };
    }
    if (range) h['Content-Range'] = `bytes ${range.start}-${range.end}/${bytes.byteLength}`;
    return { status: range ? 206 : 200, headers: h, body: { bytes: range ? bytes.subarray(range.start, range.end + 1) : bytes }, envelopeCode: null };
  };
}

/** Answers media requests of one engine (see createMediaAnswerer). */
export type MediaAnswerer = ReturnType<typeof createMediaAnswerer>;
