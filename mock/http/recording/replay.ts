/**
 * A recording replayed in the mock's default world (`--replay FILE`,
 * docs/guides/proxy.md, "Replaying offline"). At load every recorded task is
 * started again at the engine's time, with its recorded id, owned by the key
 * its recorded (redacted) owner maps to (`<prefix>_replay<n>_recorded` for
 * `key-<n>`, printed at start). A task moves through its recorded statuses at
 * their recorded offsets on the engine's clock (virtual time: a manual clock
 * moves only when advanced); a read by its owner answers the first recorded
 * read of its status at that moment, a delete removes it. A request whose
 * operation, path, query and body (canonical JSON, keys and signatures
 * redacted) match a recorded one gets that recorded answer; a recorded create
 * starts the task again, under fresh ids when its recorded ids are taken (the
 * ids rewritten throughout its answers). Every media URL of a replayed answer
 * points to the mock's own `/media/replay/<sha256>.<ext>`, which serves the
 * recorded bytes through the mock's media router. Everything else is the
 * mock's own answer: replay is `OperationOptions.intercept` of the default
 * world's runner (mock/core/operation.ts) plus a media route
 * (decisions/0029-record-and-replay.md).
 */
import { createHash } from 'node:crypto';
import { operations } from '../../../schemas/operations.ts';
import type { OperationDef } from '../../../schemas/registry-types.ts';
import type { Answer } from '../../core/answer.ts';
import type { InterceptedCall } from '../../core/operation.ts';
import type { MediaRoute } from '../../services/context.ts';
import type { AnyService } from '../../services/index.ts';
import type { RecordedExchange, RecordedTask, Recording } from './format.ts';
import { canonicalJson, Redactor } from './redact.ts';

/** Replayed tasks kept at once (assumed, like the stores' bounds); beyond, the one started first is dropped. */
export const MAX_REPLAYED_TASKS = 10_000;

/** The mock key of a recorded owner reference (`key-2` -> `mg_replay2_recorded`). */
export function replayKeyOf(ref: string, keyPrefix = 'mg'): string {
  return `${keyPrefix}_replay${ref.replace(/^key-/, '')}_recorded`;
}

/** A recorded task started again: its current id, its recorded one's ids mapped, its owner, when it started (engine time). */
interface Instance {
  id: string;
  task: RecordedTask;
  ids: [string, string][];
  owner: string | null;
  startAt: number;
}

/** What `createReplay` gives the mock: its intercept, its media route (as a service), the owners' keys; `load` starts the recorded tasks. */
export interface Replay {
  intercept: (call: InterceptedCall) => Answer | undefined;
  /** A service hosting `/media/replay/{file}` (compose it with the default services). */
  service: AnyService;
  /** Starts every recorded task at engine time `now`. Returns how many. */
  load(now: number): number;
  /** Each recorded owner and the mock key its tasks belong to. */
  owners: { ref: string; key: string }[];
}

const EXT: Record<string, string> = { 'video/mp4': 'mp4', 'image/png': 'png', 'audio/mpeg': 'mp3', 'application/x-subrip': 'srt', 'audio/midi': 'mid' };

/** The extension of a media file: its URL's, else its type's, else `bin`. */
function extOf(url: string, contentType: string): string {
  const m = /\.([A-Za-z0-9]{1,5})$/.exec(new URL(url).pathname);
  return m ? m[1].toLowerCase() : (EXT[contentType.split(';')[0].trim()] ?? 'bin');
}

/** Replaces every `[from, to]` of `ids` in `text`. */
function mapIds(text: string, ids: readonly [string, string][]): string {
  for (const [from, to] of ids) if (from !== to) text = text.split(from).join(to);
  return text;
}

/** A replay of `rec` (validated by parseRecording) for a mock whose keys start with `keyPrefix`. */
export function createReplay(rec: Recording, o: { keyPrefix?: string } = {}): Replay {
  const owners = rec.owners.map((ref) => ({ ref, key: replayKeyOf(ref, o.keyPrefix) }));
  const ownerKey = new Map(owners.map((x) => [x.ref, x.key]));
  const bytes = new Map(Object.entries(rec.blobs).map(([h, b64]) => [h, new Uint8Array(Buffer.from(b64, 'base64'))]));
  const types = new Map<string, string>();
  /** Recorded media URL -> its path on this mock. */
  const mediaPath = new Map<string, string>();
  rec.media.forEach((m, i) => {
    if (m.sha256) {
      types.set(m.sha256, m.contentType);
      mediaPath.set(m.url, `/media/replay/${m.sha256}.${extOf(m.url, m.contentType)}`);
    } else mediaPath.set(m.url, `/media/replay/not-stored-${i}`);
  });
  const taskIds = new Set(rec.tasks.map((t) => t.taskId));
  const taskOfCreate = new Map(rec.tasks.map((t) => [t.createSeq, t]));
  /** The recorded task a path names, if any. */
  const taskNamed = (path: string) => path.split('/').find((seg) => taskIds.has(decodeURIComponent(seg)));
  /** Recorded requests that name no recorded task, by what they match on. */
  const byRequest = new Map<string, RecordedExchange[]>();
  for (const x of rec.exchanges) {
    if (taskNamed(x.path) || (x.requestBody && !('json' in x.requestBody))) continue;
    const k = matchKey(x.operationId, x.path, Object.fromEntries(new URLSearchParams(x.query)), x.requestBody?.json);
    byRequest.set(k, [...(byRequest.get(k) ?? []), x]);
  }
  const served = new Map<string, number>();
  const instances = new Map<string, Instance>();
  let fresh = 0;

  /** A recorded answer with `ids` mapped and its media URLs on this mock's origin; undefined for an answer not stored. */
  function answerOf(x: RecordedExchange, ids: readonly [string, string][], origin: string, status?: { field: string; value: string }): Answer | undefined {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(x.responseHeaders)) if (k !== 'location' || x.status >= 300) headers[k] = v;
    const b = x.responseBody;
    if ('media' in b) return { status: x.status, headers, body: { bytes: bytes.get(b.media)! }, envelopeCode: null };
    if (!('json' in b)) return undefined;
    let value = rewriteUrls(b.json, origin);
    if (status) {
      const data = (value as { data?: Record<string, unknown> }).data;
      if (data && typeof data === 'object') value = { ...(value as object), data: { ...data, [status.field]: status.value } };
    }
    const code = (value as { code?: unknown })?.code;
    return { status: x.status, headers, body: { json: mapIds(JSON.stringify(value), ids) }, envelopeCode: typeof code === 'number' ? code : null };
  }

  function rewriteUrls(value: unknown, origin: string): unknown {
    if (typeof value === 'string') {
      const path = mediaPath.get(value);
      return path ? origin + path : value;
    }
    if (Array.isArray(value)) return value.map((v) => rewriteUrls(v, origin));
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewriteUrls(v, origin)]));
    return value;
  }

  /** Starts `task` for `owner` at `now`: under its recorded ids when free, else under fresh ones of the same form. */
  function start(task: RecordedTask, owner: string | null, now: number): Instance {
    const taken = instances.has(task.taskId);
    const n = ++fresh;
    const ids: [string, string][] = [task.taskId, ...task.otherIds].map((id) => [id, taken ? freshId(id, n) : id]);
    const inst: Instance = { id: ids[0][1], task, ids, owner, startAt: now };
    instances.set(inst.id, inst);
    // bounded whatever clients send: beyond, the task started first goes (a Map keeps the order of insertion)
    if (instances.size > MAX_REPLAYED_TASKS) instances.delete(instances.keys().next().value!);
    return inst;
  }

  /** The answer to a read of `inst` at `now`: the first recorded read of the status it has reached. */
  function readOf(inst: Instance, now: number, origin: string): Answer | undefined {
    const t = inst.task;
    let current = t.statuses[0];
    for (const s of t.statuses) if (s.atMs <= now - inst.startAt) current = s;
    const x = rec.exchanges[current.seq];
    if (x.operationId === t.pollOperationId) return answerOf(x, inst.ids, origin);
    // a status seen only in the create answer: the first recorded read, showing that status
    const first = t.statuses.find((s) => rec.exchanges[s.seq].operationId === t.pollOperationId);
    return first && answerOf(rec.exchanges[first.seq], inst.ids, origin, { field: t.statusField, value: current.status });
  }

  /** The answer to another operation on `inst` (a delete, a share): a recorded one on this task, else on another task of the same operation. */
  function otherOf(inst: Instance, operationId: string, origin: string): Answer | undefined {
    const candidates = rec.exchanges.filter((x) => x.operationId === operationId && taskNamed(x.path));
    const own = candidates.find((x) => taskNamed(x.path) === inst.task.taskId);
    const x = own ?? candidates[0];
    if (!x) return undefined;
    const recordedFor = rec.tasks.find((t) => t.taskId === taskNamed(x.path))!;
    const ids: [string, string][] = own ? inst.ids : [[recordedFor.taskId, inst.id]];
    if ((operations as Record<string, OperationDef>)[operationId]?.method === 'delete' && x.status < 300) instances.delete(inst.id);
    return answerOf(x, ids, origin);
  }

  const mediaRoute: MediaRoute = {
    path: '/media/replay/{file}',
    resolve(_engine, params) {
      const sha = /^([0-9a-f]{64})\.[A-Za-z0-9]{1,5}$/.exec(params.file)?.[1];
      const b = sha ? bytes.get(sha) : undefined;
      if (!sha || !b) return undefined;
      return { contentType: types.get(sha) || 'application/octet-stream', key: `replay:${sha}`, render: () => b };
    },
  };

  return {
    owners,
    service: { handlers: {}, media: [mediaRoute] },
    load(now) {
      for (const t of rec.tasks) start(t, t.owner ? ownerKey.get(t.owner)! : null, now);
      return rec.tasks.length;
    },
    intercept: (call) => {
      const op = (operations as Record<string, OperationDef>)[call.operationId];
      if (!op) return undefined;
      for (const v of Object.values(call.params)) {
        const inst = typeof v === 'string' ? instances.get(v) : undefined;
        if (!inst || inst.owner !== call.apiKey) continue;
        return call.operationId === inst.task.pollOperationId ? readOf(inst, call.now, call.origin) : otherOf(inst, call.operationId, call.origin);
      }
      // an upload is never recorded (only its size and hash): nothing to match, and its files are not walked
      if (op.request.body?.kind === 'multipart') return undefined;
      const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) =>
        encodeURIComponent(typeof call.params[name] === 'string' ? call.params[name] : JSON.stringify(call.params[name] ?? '')),
      );
      const k = matchKey(call.operationId, path, call.query, call.body);
      const list = byRequest.get(k);
      if (!list) return undefined;
      const n = served.get(k) ?? 0;
      served.set(k, n + 1);
      const x = list[Math.min(n, list.length - 1)];
      const task = taskOfCreate.get(x.seq);
      const ids = task ? start(task, call.apiKey, call.now).ids : [];
      return answerOf(x, ids, call.origin);
    },
  };
}

/** What a request is matched on: operation, path, query and body, keys and signatures redacted, JSON canonical. */
function matchKey(operationId: string, path: string, query: Record<string, unknown>, body: unknown): string {
  const r = new Redactor();
  const q = Object.fromEntries(Object.entries(query).filter(([k]) => !k.startsWith('__')));
  return `${operationId} ${path} ${canonicalJson(r.json(q))} ${body === undefined ? '' : canonicalJson(r.json(body))}`.replace(/<key-\d+>/g, '<key>');
}

/** A new id of the same form as `id` (its prefix, then as many hex digits), the `n`th given by this replay. */
function freshId(id: string, n: number): string {
  const cut = id.lastIndexOf('_') + 1;
  const tail = id.slice(cut);
  const hex = createHash('sha256').update(`${id}#${n}`).digest('hex');
  return id.slice(0, cut) + (/^[0-9a-f]+$/.test(tail) ? hex.slice(0, tail.length) : `${tail}r${hex.slice(0, 6)}`);
}
