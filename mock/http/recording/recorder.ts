/**
 * The recorder of `--record FILE` (docs/guides/proxy.md, "Recording a
 * session"): it observes every exchange the proxy forwards
 * (`ProxyExchange`, mock/http/proxy/exchange.ts) and keeps, secrets redacted
 * (./redact.ts): each request and answer; each task's statuses in the order
 * first seen, with their offsets from the create (the task's create operation,
 * id field, poll operation and status field are the contract's `x-lifecycle`,
 * `LifecycleDef` of schemas/registry-types.ts; an area's other creates use its
 * one lifecycle); and the media the answers point to, fetched once each and
 * stored by sha256, within a per-file and a total cap (what is over a cap is
 * listed, not stored). A media host that sends nothing for `mediaTimeoutMs`
 * is given up, and its file listed with why. `close()` waits for the media
 * still being fetched and writes the file (./format.ts) atomically: a
 * temporary file beside it, renamed over it.
 */
import { createHash } from 'node:crypto';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { operations } from '../../../schemas/operations.ts';
import type { LifecycleDef, OperationDef } from '../../../schemas/registry-types.ts';
import { DEFAULT_UPSTREAM_TIMEOUT_MS, type ProxyExchange } from '../proxy/exchange.ts';
import { tempNameFor } from '../state-file.ts';
import {
  RECORDING_FORMAT,
  RECORDING_VERSION,
  type RecordedExchange,
  type RecordedMedia,
  type RecordedTask,
  type Recording,
  type StoredBody,
} from './format.ts';
import { KEPT_REQUEST_HEADERS, KEPT_RESPONSE_HEADERS, Redactor } from './redact.ts';

/**
 * Defaults: 32 MB per media file, 256 MB of media in all, 10,000 exchanges (assumed: a working session's worth), and
 * 30 s of silence from a media host before its file is given up (the proxy's own for the upstream,
 * `DEFAULT_UPSTREAM_TIMEOUT_MS`, which `--upstream-timeout` sets for both).
 */
export const RECORDING_DEFAULTS = {
  maxMediaBytes: 32 * 1024 * 1024,
  maxTotalMediaBytes: 256 * 1024 * 1024,
  maxExchanges: 10_000,
  mediaTimeoutMs: DEFAULT_UPSTREAM_TIMEOUT_MS,
};

export interface RecorderOptions {
  /** Where the recording is written at `close()`. */
  file: string;
  /** How media URLs are fetched (default: the global fetch); `signal` aborts when the file is given up. */
  fetchMedia?: (url: string, signal: AbortSignal) => Promise<Response>;
  /** Silence from a media host (no headers, no body byte) before its file is given up, ms; the file is listed, not stored. */
  mediaTimeoutMs?: number;
  /** The most bytes of one media file stored; a larger file is listed as over the cap. */
  maxMediaBytes?: number;
  /** The most bytes of media stored in all; files beyond are listed as over the total cap. */
  maxTotalMediaBytes?: number;
  /** The most exchanges kept; later ones are counted, not kept. */
  maxExchanges?: number;
  /** The upstream's origin, written into the file (credentials are never part of it). */
  upstream?: string;
}

/** What `close()` reports: the file's size and what it holds. */
export interface RecordingSummary {
  file: string;
  bytes: number;
  exchanges: number;
  tasks: number;
  mediaStored: number;
  mediaNotStored: number;
  mediaBytes: number;
  redactions: { what: string; count: number }[];
}

export interface Recorder {
  /** Takes one exchange in (synchronously; the media it points to are fetched in the background). */
  observe: (exchange: ProxyExchange) => void;
  /** Waits for the media being fetched, writes the file; resolves with what it holds. Later exchanges are ignored. */
  close: () => Promise<RecordingSummary>;
}

/** How tasks are read, from the registry's lifecycles: per create operation, and the one lifecycle of each tag. */
function lifecycleIndex() {
  const byCreate = new Map<string, LifecycleDef>();
  const byTag = new Map<string, LifecycleDef[]>();
  for (const [id, op] of Object.entries(operations as Record<string, OperationDef>)) {
    if (!op.lifecycle) continue;
    byCreate.set(id, op.lifecycle);
    for (const tag of op.tags) byTag.set(tag, [...(byTag.get(tag) ?? []), op.lifecycle]);
  }
  return {
    /** The lifecycle of a create `operationId` whose answer carries `data`: its own, else its tag's only one naming a field of `data`. */
    of(operationId: string, data: Record<string, unknown>): LifecycleDef | undefined {
      const own = byCreate.get(operationId);
      if (own) return own;
      const op = (operations as Record<string, OperationDef>)[operationId];
      if (!op || op.method === 'get') return undefined;
      const candidates = op.tags.flatMap((t) => byTag.get(t) ?? []).filter((l) => typeof data[l.idField] === 'string');
      return new Set(candidates.map((l) => l.pollOperationId)).size === 1 ? candidates[0] : undefined;
    },
  };
}

/** A path segment decoded (as it is when it is not valid percent-encoding). */
function decodeSafe(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

const isJson = (contentType: string | undefined) => !!contentType && /\bjson\b/i.test(contentType);
const lower = (h: Record<string, string>) => Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const decoder = new TextDecoder();

function parseJson(bytes: Uint8Array | undefined): { ok: true; value: unknown } | { ok: false } {
  if (!bytes) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(decoder.decode(bytes)) };
  } catch {
    return { ok: false };
  }
}

/** Every absolute http(s) URL among the strings of `value`. */
function urlsIn(value: unknown, out: Set<string> = new Set()): Set<string> {
  if (typeof value === 'string') {
    if (/^https?:\/\/\S+$/.test(value)) out.add(value);
  } else if (Array.isArray(value)) for (const v of value) urlsIn(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) urlsIn(v, out);
  return out;
}

/** A recorder writing to `o.file` (see the module's comment). */
export function createRecorder(o: RecorderOptions): Recorder {
  const maxMedia = o.maxMediaBytes ?? RECORDING_DEFAULTS.maxMediaBytes;
  const maxTotal = o.maxTotalMediaBytes ?? RECORDING_DEFAULTS.maxTotalMediaBytes;
  const maxExchanges = o.maxExchanges ?? RECORDING_DEFAULTS.maxExchanges;
  const mediaTimeoutMs = o.mediaTimeoutMs ?? RECORDING_DEFAULTS.mediaTimeoutMs;
  // the signal goes to fetch itself, not through a copied Request (a garbage collection can drop that link)
  const fetchMedia = o.fetchMedia ?? ((url: string, signal: AbortSignal) => fetch(url, { signal }));
  const redactor = new Redactor();
  const lifecycles = lifecycleIndex();
  const exchanges: RecordedExchange[] = [];
  const tasks = new Map<string, RecordedTask & { startedAtMs: number }>();
  const media = new Map<string, RecordedMedia>();
  const blobs = new Map<string, Uint8Array>();
  let blobBytes = 0;
  let dropped = 0;
  let origin: number | undefined;
  let closed = false;
  const pending = new Set<Promise<void>>();

  /** Stores `bytes` under their sha256 when they fit the total cap; the hash, or undefined when over it. */
  function keep(bytes: Uint8Array): string | undefined {
    const h = sha(bytes);
    if (blobs.has(h)) return h;
    if (blobBytes + bytes.length > maxTotal) return undefined;
    blobs.set(h, bytes);
    blobBytes += bytes.length;
    return h;
  }

  /**
   * Fetches `url` into `entry`, given up once the host has sent nothing for `mediaTimeoutMs` (the headers, then each
   * chunk, start the wait again): its own controller, held by its timer until the fetch ends.
   */
  async function fetchOne(url: string, entry: RecordedMedia): Promise<void> {
    const limit = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const heard = () => {
      if (limit.signal.aborted) return; // given up, or done: no new wait
      clearTimeout(timer);
      timer = setTimeout(() => limit.abort(new Error(`the host sent nothing for ${mediaTimeoutMs / 1000} s`)), mediaTimeoutMs);
    };
    const silent = new Promise<never>((_, reject) => limit.signal.addEventListener('abort', () => reject(limit.signal.reason as Error), { once: true }));
    silent.catch(() => {});
    heard();
    try {
      await Promise.race([fetchInto(url, entry, limit.signal, heard), silent]);
    } catch (e) {
      entry.notStored = `the fetch failed: ${(e as Error).message}`;
    } finally {
      clearTimeout(timer);
      limit.abort();
    }
  }

  /** Fetches `url` into `entry` (see fetchOne); `heard` is called on the headers and on each chunk. */
  async function fetchInto(url: string, entry: RecordedMedia, signal: AbortSignal, heard: () => void): Promise<void> {
    const res = await fetchMedia(url, signal);
    heard();
    entry.contentType = res.headers.get('content-type') ?? '';
    if (!res.ok) {
      entry.notStored = `the fetch answered ${res.status}`;
      await res.body?.cancel();
      return;
    }
    const declared = Number(res.headers.get('content-length') ?? NaN);
    if (declared > maxMedia) {
      entry.size = declared;
      entry.notStored = `over the per-file cap of ${maxMedia} bytes`;
      await res.body?.cancel();
      return;
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of res.body ?? []) {
      heard();
      size += chunk.length;
      if (size > maxMedia) {
        entry.size = size;
        entry.notStored = `over the per-file cap of ${maxMedia} bytes`;
        return;
      }
      chunks.push(chunk);
    }
    // a fetchMedia that does not heed the signal may finish after the time is up: what it brings is not kept
    if (signal.aborted) return;
    const bytes = Buffer.concat(chunks);
    entry.size = bytes.length;
    const h = keep(bytes);
    if (h) entry.sha256 = h;
    else entry.notStored = `over the total cap of ${maxTotal} bytes`;
  }

  /** Fetches, once each, the URLs of an answer that were not in its request. */
  function mediaOf(answer: unknown, request: unknown): void {
    const asked = urlsIn(request);
    for (const url of urlsIn(answer)) {
      if (asked.has(url)) continue;
      const key = redactor.url(url);
      if (media.has(key)) continue;
      const entry: RecordedMedia = { url: key, contentType: '', size: 0 };
      media.set(key, entry);
      const p = fetchOne(url, entry).finally(() => pending.delete(p));
      pending.add(p);
    }
  }

  /** The stored form of a body: redacted JSON, bytes kept by hash (an answer), or only its size and hash (a request). */
  function stored(bytes: Uint8Array, contentType: string | undefined, kind: 'request' | 'response'): { body: StoredBody; json?: unknown } {
    const parsed = isJson(contentType) || bytes.length === 0 ? parseJson(bytes) : { ok: false as const };
    if (parsed.ok) return { body: { json: redactor.json(parsed.value) }, json: parsed.value };
    const omitted = { omitted: { contentType: contentType ?? '', size: bytes.length, sha256: sha(bytes) } };
    if (kind === 'request') return { body: omitted };
    const h = keep(bytes);
    return { body: h ? { media: h } : omitted };
  }

  function followTask(x: ProxyExchange, seq: number, owner: string | null, data: Record<string, unknown>): void {
    const op = (operations as Record<string, OperationDef>)[x.operationId];
    // a read of a task: the status it shows, if new
    for (const segment of x.path.split('/')) {
      const t = tasks.get(decodeSafe(segment));
      if (!t || t.pollOperationId !== x.operationId) continue;
      const status = data[t.statusField];
      if (typeof status === 'string' && t.statuses[t.statuses.length - 1].status !== status)
        t.statuses.push({ status, atMs: Math.max(0, Math.round(x.startedAtMs - t.startedAtMs)), seq });
      return;
    }
    if (!op || op.method === 'get') return;
    const life = lifecycles.of(x.operationId, data);
    const taskId = life && data[life.idField];
    if (!life || typeof taskId !== 'string' || tasks.has(taskId)) return;
    const first = typeof data[life.statusField] === 'string' ? (data[life.statusField] as string) : life.states[0];
    tasks.set(taskId, {
      taskId,
      otherIds: Object.entries(data)
        .filter(([k, v]) => k !== life.idField && /(^id|Id)$/.test(k) && typeof v === 'string')
        .map(([, v]) => v as string),
      operationId: x.operationId,
      createSeq: seq,
      pollOperationId: life.pollOperationId,
      statusField: life.statusField,
      owner,
      statuses: [{ status: first, atMs: 0, seq }],
      startedAtMs: x.startedAtMs,
    });
  }

  return {
    observe: (x) => {
      if (closed) return;
      if (exchanges.length >= maxExchanges) {
        dropped++;
        return;
      }
      origin ??= x.startedAtMs;
      const seq = exchanges.length;
      const reqHeaders = lower(x.requestHeaders);
      const resHeaders = lower(x.responseHeaders);
      const req = redactor.headers(reqHeaders, KEPT_REQUEST_HEADERS);
      const request = x.requestBody && x.requestBody.length ? stored(x.requestBody, reqHeaders['content-type'], 'request') : undefined;
      const response = stored(x.responseBody, resHeaders['content-type'], 'response');
      exchanges.push({
        seq,
        operationId: x.operationId,
        method: x.method.toUpperCase(),
        path: redactor.text(x.path),
        query: redactor.query(x.query.replace(/^\?/, '')),
        owner: req.owner,
        requestHeaders: req.headers,
        ...(request ? { requestBody: request.body } : {}),
        status: x.status,
        responseHeaders: redactor.headers(resHeaders, KEPT_RESPONSE_HEADERS).headers,
        responseBody: response.body,
        atMs: Math.max(0, Math.round(x.startedAtMs - origin)),
        durationMs: Math.max(0, Math.round(x.endedAtMs - x.startedAtMs)),
        fromFallback: x.fromFallback,
      });
      if (response.json === undefined) return;
      mediaOf(response.json, request?.json);
      const data = (response.json as { data?: unknown }).data;
      if (x.status < 300 && data && typeof data === 'object' && !Array.isArray(data)) followTask(x, seq, req.owner, data as Record<string, unknown>);
    },

    close: async () => {
      closed = true;
      while (pending.size) await Promise.all(pending);
      const doc: Recording = {
        format: RECORDING_FORMAT,
        version: RECORDING_VERSION,
        ...(o.upstream ? { upstream: new URL(o.upstream).origin } : {}),
        redactions: redactor.redactions(),
        owners: redactor.owners(),
        exchanges,
        ...(dropped ? { droppedExchanges: dropped } : {}),
        tasks: [...tasks.values()].map(({ startedAtMs: _, ...t }) => t),
        media: [...media.values()],
        blobs: Object.fromEntries([...blobs].map(([h, b]) => [h, Buffer.from(b).toString('base64')])),
      };
      const text = `${JSON.stringify(doc)}\n`;
      const tmp = tempNameFor(o.file);
      try {
        writeFileSync(tmp, text, { flag: 'wx' });
        renameSync(tmp, o.file);
      } catch (e) {
        rmSync(tmp, { force: true });
        throw e;
      }
      const stats = [...media.values()];
      return {
        file: o.file,
        bytes: Buffer.byteLength(text),
        exchanges: exchanges.length,
        tasks: tasks.size,
        mediaStored: stats.filter((m) => m.sha256).length,
        mediaNotStored: stats.filter((m) => !m.sha256).length,
        mediaBytes: blobBytes,
        redactions: doc.redactions,
      };
    },
  };
}
