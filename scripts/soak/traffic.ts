/**
 * The soak's traffic (scripts/soak.ts): the mix of requests, the open-loop
 * scheduler that sends them on time, the tasks and media it polls and loads,
 * and the counts of what came back.
 */
import { stream } from '../../mock/engine/rng.ts';
import { type Kind, KINDS, MEDIA_KEPT, NO_CREDITS, NOT_FOUND, OPEN_TASKS_KEPT, RATE_LIMITED, RECENT_TASKS_KEPT, TOP_UP_CREDITS } from './config.ts';
import type { Answer } from './mock-process.ts';
import { Histogram } from './stats.ts';

// ---------------------------------------------------------------- traffic

/** Share of the scheduled slots per kind (new accounts and top-ups take slots of their own). */
const MIX: [Kind, number][] = [
  ['video-create', 5],
  ['image-create', 8],
  ['video-poll', 18],
  ['image-poll', 16],
  ['video-list', 7],
  ['image-list', 7],
  ['subscription', 12],
  ['media-mp4', 8],
  ['media-cover', 9],
  ['media-image', 9],
  ['journal-read', 0.5],
];
export const CLASSES = ['2xx', '3xx', '4xx', '5xx', 'conn'] as const;
type StatusClass = (typeof CLASSES)[number];

interface TaskRef {
  area: 'video' | 'image';
  id: string;
  key: string;
  /** The status last seen; a terminal one is counted once. */
  terminal: boolean;
  /** Answered not-found (evicted): dropped from what the soak polls and loads. */
  gone: boolean;
}
/** A medium of a succeeded task, with its task (so an eviction found through either drops both). */
interface MediaRef {
  path: string;
  task: TaskRef;
}
export interface Planned {
  kind: Kind;
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Parse the answer (JSON); media bodies are only counted. */
  json: boolean;
  onAnswer?: (a: Answer) => void;
}

/** The last `capacity` elements pushed (the oldest goes first); `pick` draws any element, `removeWhere` drops some. */
class Recent<T> {
  private items: T[] = [];
  constructor(private readonly capacity: number) {}
  get size(): number {
    return this.items.length;
  }
  push(x: T): void {
    if (this.items.length >= this.capacity) this.items.shift();
    this.items.push(x);
  }
  pick(r: number): T | undefined {
    return this.items[Math.floor(r * this.items.length)];
  }
  /** Drops every element `drop` matches; returns how many went. */
  removeWhere(drop: (x: T) => boolean): number {
    const before = this.items.length;
    this.items = this.items.filter((x) => !drop(x));
    return before - this.items.length;
  }
}

/** The run: its state, counters and the traffic it plans. */
export class Soak {
  readonly rand = stream(20260101);
  readonly keys: string[] = [];
  private nextKeyNo: number;
  readonly openTasks: Record<'video' | 'image', TaskRef[]> = { video: [], image: [] };
  readonly recentTasks = { video: new Recent<TaskRef>(RECENT_TASKS_KEPT), image: new Recent<TaskRef>(RECENT_TASKS_KEPT) };
  readonly media: Record<'mp4' | 'cover' | 'image', Recent<MediaRef>> = {
    mp4: new Recent(MEDIA_KEPT),
    cover: new Recent(MEDIA_KEPT),
    image: new Recent(MEDIA_KEPT),
  };
  /** Tasks dropped after a not-found (evicted by the mock), by area and by what found it out; media paths dropped with them. */
  readonly forgotten = { video: 0, image: 0, byPoll: 0, byMedia: 0, mediaDropped: 0 };
  /** Size in bytes of every distinct rendered medium loaded, by ETag (one per render the mock caches; tasks may share one). */
  readonly mediaSizes = new Map<string, number>();
  /** Bytes of the distinct media loaded so far, the most the mock's media cache can hold (until it is full). */
  mediaRendered = 0;
  private pending: Planned[] = [];
  private toppingUp = new Set<string>();
  private created = 0;

  readonly byKind = new Map<Kind, Record<StatusClass, number>>(KINDS.map((k) => [k, { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0, conn: 0 }]));
  readonly latencyByKind = new Map<Kind, number[]>(KINDS.map((k) => [k, []]));
  /** `kind status code` of every 4xx the soak expects, with the reason. */
  readonly expected = new Map<string, number>();
  /** `kind status code` of every other 4xx and of every 5xx, the code of every connection error, every unreadable answer. */
  readonly details = new Map<string, number>();
  /** 4xx the soak does not expect (counted apart from the errors). */
  unexpected4xx = 0;
  readonly finished = new Map<string, number>();
  readonly overall = new Histogram();
  sent = 0;
  missed = 0;
  errors = 0;
  mediaBytes = 0;
  window: number[] = [];
  windowAnswers = 0;
  windowErrors = 0;

  constructor(keys: number) {
    for (let i = 1; i <= keys; i++) this.keys.push(`mg_soak${i}_secret`);
    this.nextKeyNo = keys + 1;
  }

  private key(): string {
    return this.keys[Math.floor(this.rand() * this.keys.length)];
  }
  private auth(key: string): Record<string, string> {
    return { authorization: `Bearer ${key}` };
  }
  private count(what: string): void {
    this.details.set(what, (this.details.get(what) ?? 0) + 1);
  }

  /** The request of the next slot: a new account when one is due, else a queued top-up, else a draw from the mix. */
  plan(newAccountDue: boolean): Planned {
    if (newAccountDue) return this.newAccount();
    const queued = this.pending.shift();
    if (queued) return queued;
    let r = this.rand() * MIX.reduce((a, [, w]) => a + w, 0);
    let kind: Kind = MIX[0][0];
    for (const [k, w] of MIX) {
      kind = k;
      if ((r -= w) < 0) break;
    }
    return this.request(kind) ?? this.request('subscription')!;
  }

  /** The request of `kind`, or undefined when there is nothing to ask about yet (no task, no media). */
  private request(kind: Kind): Planned | undefined {
    const json = { 'content-type': 'application/json' };
    switch (kind) {
      case 'video-create': {
        const key = this.key();
        const forced: Record<string, string> = this.rand() < 0.05 ? { prefer: 'outcome=failed' } : {};
        const body = JSON.stringify({ content: [{ type: 'text', text: `soak video ${++this.created}` }] });
        return {
          kind,
          method: 'POST',
          path: '/v1/video-generation/generate',
          headers: { ...this.auth(key), ...json, ...forced },
          body,
          json: true,
          onAnswer: (a) => this.onCreate('video', key, a),
        };
      }
      case 'image-create': {
        const key = this.key();
        const forced: Record<string, string> = this.rand() < 0.05 ? { prefer: 'outcome=stuck' } : {};
        const body = JSON.stringify({ provider: 'vendor_a', prompt: `soak image ${++this.created}` });
        return {
          kind,
          method: 'POST',
          path: '/v1/images/generation/async',
          headers: { ...this.auth(key), ...json, ...forced },
          body,
          json: true,
          onAnswer: (a) => this.onCreate('image', key, a),
        };
      }
      case 'video-poll':
      case 'image-poll': {
        const area = kind === 'video-poll' ? 'video' : 'image';
        const open = this.openTasks[area];
        // Mostly unfinished tasks, as a client polls until the end; sometimes any recent one, as a page reloads.
        const t = open.length > 0 && this.rand() < 0.8 ? open[Math.floor(this.rand() * open.length)] : this.recentTasks[area].pick(this.rand());
        if (!t) return undefined;
        const path = area === 'video' ? `/v1/video-generation/tasks/${t.id}` : `/v1/images/generation/tasks/${t.id}`;
        return { kind, method: 'GET', path, headers: this.auth(t.key), json: true, onAnswer: (a) => this.onPoll(kind, t, a) };
      }
      case 'video-list':
      case 'image-list': {
        const base = kind === 'video-list' ? '/v1/video-generation/tasks' : '/v1/images/generation/tasks';
        const page = this.rand() < 0.8 ? 1 : 2;
        const status = this.rand() < 0.25 ? '&status=success' : '';
        return { kind, method: 'GET', path: `${base}?page=${page}&pageSize=20${status}`, headers: this.auth(this.key()), json: true };
      }
      case 'subscription':
        return { kind, method: 'GET', path: '/v1/user/subscription', headers: this.auth(this.key()), json: true };
      case 'media-mp4':
      case 'media-cover':
      case 'media-image': {
        const m = this.media[kind === 'media-mp4' ? 'mp4' : kind === 'media-cover' ? 'cover' : 'image'].pick(this.rand());
        if (!m) return undefined;
        const r = this.rand();
        // A player's first probe, or the last 4 KB (where an MP4 may keep its index); media need no key.
        const headers: Record<string, string> = r < 0.15 ? { range: 'bytes=0-65535' } : r < 0.25 ? { range: 'bytes=-4096' } : {};
        return { kind, method: 'GET', path: m.path, headers, json: false, onAnswer: (a) => this.onMedia(kind, m, a) };
      }
      case 'journal-read':
        return { kind, method: 'GET', path: '/__mock/requests', headers: {}, json: true };
      default:
        return undefined;
    }
  }

  /** A new key: its first request (a subscription read) opens its account; it then joins the others. */
  private newAccount(): Planned {
    const key = `mg_soak${this.nextKeyNo++}_secret`;
    return {
      kind: 'new-account',
      method: 'GET',
      path: '/v1/user/subscription',
      headers: this.auth(key),
      json: true,
      onAnswer: (a) => {
        if (a.status === 200) this.keys.push(key);
      },
    };
  }

  private onCreate(area: 'video' | 'image', key: string, a: Answer): void {
    if (a.status === 200 || a.status === 202) {
      const id = (JSON.parse(a.body.toString()) as { data: { taskId: string } }).data.taskId;
      const t: TaskRef = { area, id, key, terminal: false, gone: false };
      const open = this.openTasks[area];
      if (open.length >= OPEN_TASKS_KEPT) open.splice(0, open.length - OPEN_TASKS_KEPT + 1);
      open.push(t);
      this.recentTasks[area].push(t);
    } else if (NO_CREDITS.has(envelopeCode(a)) && !this.toppingUp.has(key)) {
      // Spent: top the key up in the next slot, so creates keep succeeding however long the run.
      this.toppingUp.add(key);
      this.pending.push({
        kind: 'top-up',
        method: 'PUT',
        path: `/__mock/accounts/${key}`,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ credits: TOP_UP_CREDITS }),
        json: true,
        onAnswer: () => this.toppingUp.delete(key),
      });
    }
  }

  /** True when `a` says the task (or medium) a request of `kind` asked about is no longer stored: the mock evicted it. */
  private notFound(kind: Kind, a: Answer): boolean {
    return a.status >= 400 && a.status < 500 && NOT_FOUND[kind] !== undefined && envelopeCode(a) === NOT_FOUND[kind];
  }

  /** Drops an evicted task from what the soak polls and loads: its polls, and every medium of it. */
  private forget(t: TaskRef, foundBy: 'byPoll' | 'byMedia'): void {
    if (t.gone) return;
    t.gone = true;
    this.forgotten[t.area]++;
    this.forgotten[foundBy]++;
    const open = this.openTasks[t.area];
    const i = open.indexOf(t);
    if (i >= 0) open.splice(i, 1);
    this.recentTasks[t.area].removeWhere((x) => x === t);
    for (const ring of Object.values(this.media)) this.forgotten.mediaDropped += ring.removeWhere((m) => m.task === t);
  }

  private onPoll(kind: 'video-poll' | 'image-poll', t: TaskRef, a: Answer): void {
    const area = t.area;
    if (this.notFound(kind, a)) return this.forget(t, 'byPoll');
    if (a.status !== 200 || t.terminal) return;
    const d = (
      JSON.parse(a.body.toString()) as {
        data: { status: string; videoUrl?: string | null; coverUrl?: string | null; images?: { url: string }[]; failMsg?: string };
      }
    ).data;
    const done = area === 'video' ? ['success', 'failed'].includes(d.status) : ['success', 'fail'].includes(d.status);
    if (!done) return;
    t.terminal = true;
    const open = this.openTasks[area];
    const i = open.indexOf(t);
    if (i >= 0) open.splice(i, 1);
    const timedOut = area === 'image' && d.status === 'fail' && /timed out/i.test(d.failMsg ?? '');
    this.finished.set(
      `${area} ${d.status}${timedOut ? ' (timed out)' : ''}`,
      (this.finished.get(`${area} ${d.status}${timedOut ? ' (timed out)' : ''}`) ?? 0) + 1,
    );
    if (d.status !== 'success') return;
    if (d.videoUrl) this.media.mp4.push({ path: new URL(d.videoUrl).pathname, task: t });
    if (d.coverUrl) this.media.cover.push({ path: new URL(d.coverUrl).pathname, task: t });
    if (d.images?.[0]?.url) this.media.image.push({ path: new URL(d.images[0].url).pathname, task: t });
  }

  private onMedia(kind: Kind, m: MediaRef, a: Answer): void {
    if (this.notFound(kind, a)) return this.forget(m.task, 'byMedia');
    const etag = a.headers.etag;
    if (!etag || this.mediaSizes.has(etag)) return;
    const total =
      a.status === 206 ? /\/(\d+)$/.exec(String(a.headers['content-range'] ?? ''))?.[1] : a.status === 200 ? a.headers['content-length'] : undefined;
    if (total === undefined) return;
    this.mediaSizes.set(etag, Number(total));
    this.mediaRendered += Number(total);
  }

  /** Counts an answer the soak could not read (a body that is not the JSON its status promises) as an error. */
  unreadable(kind: Kind, why: string): void {
    this.errors++;
    this.windowErrors++;
    this.count(`${kind} unreadable answer: ${why}`);
  }

  /** Counts an answer (or a connection error, `status` undefined) of `kind` that took `took` ms. */
  record(kind: Kind, took: number, status: number | undefined, a?: Answer, errCode?: string): void {
    const byClass = this.byKind.get(kind)!;
    if (status === undefined) {
      byClass.conn++;
      this.errors++;
      this.windowErrors++;
      this.count(`${kind} connection error ${errCode ?? '?'}`);
      return;
    }
    const cls = (['2xx', '3xx', '4xx', '5xx'] as const)[Math.floor(status / 100) - 2] ?? '5xx';
    byClass[cls]++;
    this.windowAnswers++;
    this.window.push(took);
    this.latencyByKind.get(kind)!.push(took);
    this.overall.add(took);
    if (cls === '5xx') {
      this.errors++;
      this.windowErrors++;
    }
    if (status < 400) return;
    const code = a ? envelopeCode(a) : NaN;
    const what = `${kind} ${status} code ${code}`;
    const why = cls === '4xx' ? expectedWhy(kind, status, code) : undefined;
    if (why) this.expected.set(`${what}: ${why}`, (this.expected.get(`${what}: ${why}`) ?? 0) + 1);
    else {
      if (cls === '4xx') this.unexpected4xx++;
      this.count(what);
    }
  }
}

/** Why the soak expects a 4xx of `kind` with envelope `code`, or undefined when it does not. */
function expectedWhy(kind: Kind, status: number, code: number): string | undefined {
  if (status === 429) return `rate limited (${RATE_LIMITED.get(code) ?? 'a limit'})`;
  if (NO_CREDITS.has(code) && (kind === 'video-create' || kind === 'image-create')) return 'credits spent (the key is topped up next)';
  if (NOT_FOUND[kind] === code) return 'an evicted task, not found (dropped from what the soak polls and loads)';
  return undefined;
}

/** The `code` of a JSON envelope answer, NaN when there is none. */
function envelopeCode(a: Answer): number {
  try {
    return Number((JSON.parse(a.body.toString()) as { code?: unknown }).code);
  } catch {
    return NaN;
  }
}
