/**
 * A recording replayed in the mock's default world (`--replay FILE`,
 * docs/guides/proxy.md, "Replaying offline"; decisions/0029-record-and-replay.md).
 * `load(engine)` puts every recorded task into the world at the engine's time:
 * a task of the area that keeps its kind (mock/services/tasks.ts, a task
 * with `replayed` set), with its recorded id, owned by the key its recorded
 * (redacted) owner maps to (`<prefix>_replay<n>_recorded` for `key-<n>`,
 * printed at start), holding the credits its answers say it was charged. It
 * moves through its recorded statuses at their recorded offsets on the
 * engine's clock through its kit's events (activity events, the hold captured
 * at success and refunded at a failure), is listed, counted and paged by the
 * area's list like any task, and deleted by the area's delete; a read by its
 * owner answers the first recorded read of the status it is in. A request
 * whose operation, path, query and body (canonical JSON, keys and signatures
 * redacted) match a recorded one gets that recorded answer; a recorded create
 * puts its task into the world again for the caller, under new ids of the
 * mock (never a recorded one: `Engine.declareTakenIds`), its credits held as
 * for a create (refused with the operation's insufficient-credits error when
 * the balance is short). Every media URL of a replayed answer points to the
 * mock's own `/media/replay/<sha256>.<ext>`, which serves the recorded bytes
 * through the mock's media router. Everything else is the mock's own answer:
 * replay is `OperationOptions.intercept` of the default world's runner
 * (mock/core/operation.ts), a view of replayed tasks in lists, and a media route.
 */
import { operations } from '../../../schemas/operations.ts';
import type { OperationDef } from '../../../schemas/registry-types.ts';
import type { Answer } from '../../core/answer.ts';
import type { InterceptedCall } from '../../core/operation.ts';
import { ApiError } from '../../engine/api-error.ts';
import type { Engine } from '../../engine/engine.ts';
import type { MediaRoute, ServiceContext } from '../../services/context.ts';
import type { AnyService } from '../../services/index.ts';
import { replayedTaskOf, setReplayedView, type Task, type TaskKit } from '../../services/tasks.ts';
import type { RecordedExchange, Recording } from './format.ts';
import { canonicalJson, Redactor } from './redact.ts';
import {
  chargeOf,
  dataOf,
  insufficientErrorOf,
  kitFor,
  listItemOf,
  listItemShape,
  prefixOf,
  RECORDED_FAILURE,
  RECORDING_ENDED,
  replayedLifecycle,
} from './replay-world.ts';

/** The mock key of a recorded owner reference (`key-2` -> `mg_replay2_recorded`). */
export function replayKeyOf(ref: string, keyPrefix = 'mg'): string {
  return `${keyPrefix}_replay${ref.replace(/^key-/, '')}_recorded`;
}

/** What `createReplay` gives the mock: its intercept, its media route (as a service), the owners' keys; `load` puts the recorded tasks into a world. */
export interface Replay {
  intercept: (call: InterceptedCall) => Answer | undefined;
  /** A service hosting `/media/replay/{file}` (compose it with the default services). */
  service: AnyService;
  /**
   * Binds the replay to `engine` (the default world's, before it serves) and puts every recorded task into it at
   * the engine's time. Returns how many were placed (a task of a kind no area of the mock keeps is not).
   */
  load(engine: Engine): number;
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

const ops = operations as Record<string, OperationDef>;

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
  /** Every id a recorded task's answers gave: the mock never makes one of them for a task of its own. */
  const recordedIds = new Set(rec.tasks.flatMap((t) => [t.taskId, ...t.otherIds]));
  const taskOfCreate = new Map(rec.tasks.map((t, i) => [t.createSeq, i]));
  /** The recorded task a path names, if any. */
  const taskNamed = (path: string) => path.split('/').find((seg) => taskIds.has(decodeURIComponent(seg)));
  /** Recorded requests that name no recorded task, by what they match on. */
  const byRequest = new Map<string, RecordedExchange[]>();
  for (const x of rec.exchanges) {
    if (taskNamed(x.path) || (x.requestBody && !('json' in x.requestBody))) continue;
    const k = matchKey(x.operationId, x.path, Object.fromEntries(new URLSearchParams(x.query)), x.requestBody?.json);
    byRequest.set(k, [...(byRequest.get(k) ?? []), x]);
  }
  /** Each recorded task's item in the last recorded list answer that showed it (for the fields a read does not give). */
  const listed = new Map<string, Record<string, unknown>>();
  for (const x of rec.exchanges) {
    const items = dataOf(x)?.items;
    if (!Array.isArray(items)) continue;
    for (const item of items as Record<string, unknown>[])
      for (const v of Object.values(item ?? {})) if (typeof v === 'string' && taskIds.has(v)) listed.set(v, item);
  }
  const served = new Map<string, number>();
  let engine: Engine | undefined;

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

  /**
   * Puts recorded task `index` into the world of `e` for `owner` at `now` under `ids` (recorded -> here): holds
   * what it was charged (when `strict`, a short balance refuses with the operation's insufficient-credits error;
   * at load, the task is placed without a hold), stores it in its area and starts its recorded lifecycle.
   */
  function place(e: Engine, kit: TaskKit<Task>, index: number, owner: string, ids: [string, string][], now: number, strict: boolean): Task {
    const t = rec.tasks[index];
    const id = ids[0][1];
    const charge = chargeOf(rec, t);
    const account = e.accounts.get(owner, now);
    let held = 0;
    if (charge > 0) {
      const insufficient = insufficientErrorOf(t.operationId);
      if (account.credits < charge && strict && insufficient)
        throw new ApiError(insufficient, `insufficient credits: this recorded task was charged ${charge} credits and the balance is ${account.credits}`);
      if (e.accounts.reserve(account, id, charge, now, `${t.operationId} replayed (recorded as ${t.taskId})`)) held = charge;
    }
    const run = replayedLifecycle(t);
    const task: Task = { id, owner, status: run.initial, createdAt: now, updatedAt: now, replayed: { task: index, ids } };
    kit.add(e, task);
    if (run.lifecycle) kit.run(e, task, { ...run.lifecycle, charge: held }, now);
    if (run.timeoutMs !== undefined)
      kit.timeout(
        e,
        task,
        now + run.timeoutMs,
        t.statuses.map((s) => s.status),
        RECORDING_ENDED,
      );
    if (run.settle === 'capture') e.accounts.capture(id, now);
    else if (run.settle === 'release') e.accounts.release(id, now, `refund: ${t.operationId} recorded as failed`);
    return task;
  }

  /** The answer to a read of replayed `task`: the first recorded read of the status it is in (that status written over the first read's when no read showed it). */
  function readOf(task: Task, origin: string): Answer | undefined {
    const t = rec.tasks[task.replayed!.task];
    const read = (seq: number) => rec.exchanges[seq].operationId === t.pollOperationId;
    // failed as recorded: the kit's failed status stands for the recorded one (a podcast's audio-fail)
    let status = task.status;
    if (task.lifecycle?.failure?.reason === RECORDED_FAILURE && !t.statuses.some((s) => s.status === status)) status = t.statuses[t.statuses.length - 1].status;
    const seen = t.statuses.find((s) => s.status === status && read(s.seq));
    if (seen) return answerOf(rec.exchanges[seen.seq], task.replayed!.ids, origin);
    const first = t.statuses.find((s) => read(s.seq));
    return first && answerOf(rec.exchanges[first.seq], task.replayed!.ids, origin, { field: t.statusField, value: status });
  }

  /** How a list shows replayed `task`: its read's fields the list's item has (the rest from a recorded list or its create's body). */
  function listView(ctx: ServiceContext, task: Task): unknown {
    const t = rec.tasks[task.replayed!.task];
    const answer = readOf(task, ctx.url(''));
    const read = answer?.body && 'json' in answer.body ? ((JSON.parse(answer.body.json) as { data?: Record<string, unknown> }).data ?? {}) : {};
    const shape = listItemShape(ctx.operationId);
    if (!shape) return read;
    const item = listed.get(t.taskId);
    const mapped = item && (JSON.parse(mapIds(JSON.stringify(rewriteUrls(item, ctx.url(''))), task.replayed!.ids)) as Record<string, unknown>);
    const body = rec.exchanges[t.createSeq].requestBody;
    return listItemOf(shape, read, mapped, body && 'json' in body ? body.json : undefined);
  }

  /** The answer to another operation on replayed `task` (a share): a recorded one on this task, else on another task of the same operation. */
  function otherOf(task: Task, operationId: string, origin: string): Answer | undefined {
    const recorded = rec.tasks[task.replayed!.task];
    const candidates = rec.exchanges.filter((x) => x.operationId === operationId && taskNamed(x.path));
    const own = candidates.find((x) => taskNamed(x.path) === recorded.taskId);
    const x = own ?? candidates[0];
    if (!x) return undefined;
    const recordedFor = rec.tasks.find((t) => t.taskId === taskNamed(x.path))!;
    return answerOf(x, own ? task.replayed!.ids : [[recordedFor.taskId, task.id]], origin);
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
    load(e) {
      engine = e;
      e.declareTakenIds((id) => recordedIds.has(id));
      setReplayedView(e, listView);
      const now = e.tick();
      let placed = 0;
      rec.tasks.forEach((t, i) => {
        const kit = kitFor(e, t);
        if (!kit || !t.owner) return;
        const owner = ownerKey.get(t.owner)!;
        // a saved state loaded before may hold a task by a recorded id: then the mock's new ids
        const taken = [t.taskId, ...t.otherIds].some((id) => kit.store(e).get(id));
        const ids: [string, string][] = [t.taskId, ...t.otherIds].map((id) => [
          id,
          taken ? e.nextId(prefixOf(id) ?? kit.config.idPrefix, owner, kit.config.area) : id,
        ]);
        place(e, kit, i, owner, ids, now, false);
        placed++;
      });
      e.changed();
      return placed;
    },
    intercept: (call) => {
      const op = ops[call.operationId];
      if (!op) return undefined;
      if (engine)
        for (const v of Object.values(call.params)) {
          const found = typeof v === 'string' ? replayedTaskOf(engine, v) : undefined;
          if (!found || found.task.owner !== call.apiKey) continue;
          if (call.operationId === rec.tasks[found.task.replayed!.task].pollOperationId) return readOf(found.task, call.origin);
          // a delete is the area's own: it removes the task from the world (and its lists) as it would its own
          return op.method === 'delete' ? undefined : otherOf(found.task, call.operationId, call.origin);
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
      const x = list[Math.min(n, list.length - 1)];
      const index = taskOfCreate.get(x.seq);
      const t = index === undefined ? undefined : rec.tasks[index];
      const kit = t && engine && call.apiKey ? kitFor(engine, t) : undefined;
      let ids: [string, string][] = [];
      if (t && kit && engine && call.apiKey) {
        const e = engine;
        const owner = call.apiKey;
        // the mock's new ids, of the recorded ids' form (their prefix), never a recorded one
        ids = [t.taskId, ...t.otherIds].map((id) => [id, e.nextId(prefixOf(id) ?? kit.config.idPrefix, owner, kit.config.area)]);
        place(e, kit, index!, owner, ids, call.now, true);
      }
      served.set(k, n + 1);
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
