/**
 * `npm run soak`: a soak test of the mock. Starts it as users run it, as a child
 * process (`node bin/mediagen-mock.js --port <free port> --clock real --speed 60
 * --quiet`: a real clock sixty times wall time, so a default video task finishes
 * in about a second and a stuck image task times out after 30 s), drives steady
 * mixed traffic at it for a while, and watches its resident memory.
 *
 *   npm run soak -- --minutes N [--rate R] [--port P] [--keys K] [--default-bounds]
 *   npm run soak -- --distinct-keys N [--max-accounts M] [--port P]
 *   (or: npx tsx scripts/soak.ts --minutes N ...)
 *   npm run soak -- --sessions [...]: the memory of many sessions instead (scripts/soak-sessions.ts)
 *   npm run soak -- --bodies [...]: the memory of large request bodies from many sessions (scripts/soak-bodies.ts)
 *   npm run soak -- --state-load [...]: how long requests wait while a state at the cap loads (scripts/soak-state.ts)
 *
 *   --minutes         how long to drive traffic (default 10; fractions allowed)
 *   --rate            requests per second (default 200)
 *   --port            port for the mock (default: a free one)
 *   --keys            API keys the traffic is spread over, mg_soak1_secret .. mg_soak<K>_secret (default 50);
 *                     six new keys (new accounts) join them every minute
 *   --default-bounds  start the mock with its own bounds instead of the scaled-down ones (below)
 *   --distinct-keys   the distinct-keys mode (below) with N keys, instead of the timed soak
 *   --max-accounts    the distinct-keys mode: the mock's --max-accounts (default 500)
 *
 * The distinct-keys mode shows that what the mock keeps per key is bounded by
 * `--max-accounts` (and the task bounds), not by how many keys it has seen:
 * the same traffic twice, each time against a fresh mock started with the
 * scaled bounds and `--max-accounts M`: first spread over 50 keys (at most
 * 20,000 rounds: past every bound), then N rounds with a new key each. A round is a video create (an id
 * counter, a rate window, a task in a per-owner index), a subscription read
 * and, every tenth round, the key's deletion (the deleted-keys set). It
 * prints each run's RSS before and after (and its peak, sampled every
 * second), the accounts the mock reports, and the difference between the two
 * runs' final RSS, judged against 100 MB.
 *
 * Bounds: the soak exists to show that a mock at hour 8 behaves like at minute
 * 1, that is that its memory is flat once everything that grows with traffic
 * has reached its bound. The mock's default bounds take hours to reach: 10
 * minutes at 200 req/s store some 6,000 video and 10,000 image tasks, short of
 * `--max-tasks` 20,000 per area, a few hundred ledger entries per account,
 * short of `--max-ledger-entries` 1,000, and a media cache short of
 * `--media-cache-mb` 256. So, to compress hours into minutes, the soak starts
 * the mock by default with those three bounds scaled down: `--max-tasks 2000
 * --max-ledger-entries 200 --media-cache-mb 64`. The media cache fills within
 * the first minute, the image store reaches its bound after about two minutes
 * and the video store after about three and a half (from then on they evict
 * their oldest finished tasks), and the ledgers of the first keys (two entries
 * a task) fold from about the fourth minute: by the second half of a
 * 10-minute run, the steady state the defaults reach after hours. (New keys
 * keep joining, six a minute, each with a ledger of its own: the accounts stay
 * far below `--max-accounts`.) The other bounds keep their defaults
 * (`--max-tasks-per-key` 1,000, `--max-accounts` 10,000, `--journal-size`
 * 500, `--activity-size` 1,000: the journal and the activity feed fill within
 * seconds anyway). `--default-bounds` starts the mock with its own defaults
 * (no bound flag), to measure the way up to them.
 *
 * Traffic: an open-loop scheduler issues requests on time (a slot every 1/rate
 * s; at most 256 in flight, a slot that finds them all busy is counted as
 * missed, never sent late) over `node:http` with a keep-alive agent, from a
 * seeded generator, so two runs send the same mix. The mix: video creates (one
 * in twenty forced to fail with `Prefer: outcome=failed`), image creates (one in
 * twenty forced stuck with `Prefer: outcome=stuck`, so the 30-minute timeout
 * fires), polls of the tasks it created (mostly unfinished ones, as a client
 * polls; else any of the last 2,500 of the area), list pages of both areas,
 * subscription reads, media loads of the last 2,500 succeeded tasks
 * (`videoUrl`, `coverUrl`, `images[0].url`; one in four with a `Range`
 * header), occasional journal reads (`GET /__mock/requests`), a new key
 * every ten seconds, and a top-up (`PUT /__mock/accounts/{key}`) of a key whose
 * create found its credits spent, so creates keep succeeding however long the
 * run. 2,500 is more than the scaled `--max-tasks`, so at the steady state
 * some polls and loads reach a task the mock has evicted (beyond `--max-tasks`,
 * the oldest finished ones go), as a client coming back to an old task does;
 * it answers not-found: a poll with 400 code 31006 (video; the shared video
 * codes answer 400) or 404 code 26006 (image), a load of its media with 404
 * code 10004; the soak then drops the task, and every medium of it, from what
 * it polls and loads, as a client would. Answers are counted by kind and status
 * class, and every 4xx by status and code; the expected ones are listed apart
 * with their reason (a 429 of a rate limit, spent credits, an evicted task's
 * not-found), so an unexpected 4xx stands out. A 5xx, a connection error
 * (refused, reset, 30 s without an answer) or an answer the soak cannot read
 * is an error.
 *
 * Prints (stdout), every 30 s: elapsed time, requests sent, answers per second,
 * errors, p50/p99 latency of the last 30 s and the mock's resident memory
 * (VmRSS of /proc/<pid>/status; the child is Node itself; its heap cannot be
 * read from outside, so RSS it is). At the end: the bounds the mock ran with,
 * totals by kind of request and status class, the 4xx (expected and not) and
 * errors by status and code, overall p50/p99, the tasks it saw finish and the
 * evicted ones it dropped, the distinct media it loaded, what the mock stores
 * (tasks, accounts, ledger entries; counted through the API at the end of the
 * warm-up, at half-time and at the end of the run), RSS after the warm-up (the
 * first minute, or the first third of a shorter run) and at the end, and the
 * slope of RSS (least squares over a sample every 5 s) over the run after the
 * warm-up and over its second half, each called "flat" under 1 MB/min and
 * "growing" otherwise. The second half is the verdict that matters with the
 * scaled bounds: by then the task stores, the media cache and the ledgers of
 * the first keys are at their bounds (the summary says whether the task store
 * is); only the new keys' accounts and ledgers still grow, by design. Why 1 MB/min: a server whose memory
 * is bounded still moves with garbage collection, a sawtooth of a few MB that
 * a fit over minutes of samples averages to a small fraction of 1 MB/min;
 * 1 MB/min is 60 MB an hour, a leak that a mock left running all day would
 * feel. The media cache is bounded yet grows until it is full: the summary
 * also gives the slope of RSS less the cache's fill, estimated from the
 * distinct renders loaded (by ETag, their full sizes, at most the cache's
 * size), the slope since the cache filled, and the growth per task stored
 * with and without the cache.
 *
 * It asserts nothing: exit code 0 unless the soak itself broke (1: the mock did
 * not start or exited; 2: bad flags; 130: interrupted). Ctrl-C stops the traffic,
 * prints the summary of what ran and stops the mock (SIGTERM, then SIGKILL
 * after 5 s); a second Ctrl-C kills it at once.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { freePort, median } from './bench-util.ts';
import { stream } from '../mock/engine/rng.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SPEED = 60;
const REPORT_EVERY_MS = 30_000;
const RSS_EVERY_MS = 5_000;
const FLAT_MB_PER_MIN = 1;
/** The bounds that grow with traffic, as the soak may set them: tasks per area, ledger entries per account, media cache in MB. */
interface Bounds {
  maxTasks: number;
  maxLedgerEntries: number;
  mediaCacheMb: number;
}
/** The mock's own defaults (`node bin/mediagen-mock.js --help`): reached after hours of traffic. */
const DEFAULT_BOUNDS: Bounds = { maxTasks: 20_000, maxLedgerEntries: 1_000, mediaCacheMb: 256 };
/** What the soak starts the mock with unless `--default-bounds`: reached within minutes, the steady state of hours. */
const SCALED_BOUNDS: Bounds = { maxTasks: 2_000, maxLedgerEntries: 200, mediaCacheMb: 64 };
const MAX_IN_FLIGHT = 256;
const REQUEST_TIMEOUT_MS = 30_000;
const NEW_KEYS_PER_MINUTE = 6;
const TOP_UP_CREDITS = 10_000;
const OPEN_TASKS_KEPT = 5_000;
/**
 * Tasks (per area) and media (per kind) the soak remembers to poll and load: more than the scaled `--max-tasks`
 * (2,000 per area), so at the steady state some polls and loads reach tasks the mock has evicted, as a client
 * coming back to an old task would (answered not-found, then dropped). With the default bounds none is evicted
 * in a run of minutes.
 */
const RECENT_TASKS_KEPT = 2_500;
const MEDIA_KEPT = 2_500;
/**
 * Idle keep-alive connections are closed by the soak after 4 s, before the mock's server closes them (Node's
 * default keepAliveTimeout, 5 s): a request sent on a connection the server is closing at that moment would
 * fail with ECONNRESET, an error of the client, not of the mock.
 */
const IDLE_SOCKET_MS = 4_000;
/** Envelope codes of a create refused for spent credits (video 31004, image 26004). */
const NO_CREDITS = new Set([31004, 26004]);
/** Envelope codes of the 429s: the 5-per-minute video limit, the image generate limit, the per-user request limit. */
const RATE_LIMITED = new Map([
  [31029, 'the 5-per-minute video limit'],
  [26029, 'the image generate limit'],
  [29998, 'the per-user request limit'],
]);
/** Envelope code of a task (or a medium of it) no longer stored, by kind: a video poll 400 code 31006, an image poll 404 code 26006, media 404 code 10004. */
const NOT_FOUND: Partial<Record<Kind, number>> = {
  'video-poll': 31006,
  'image-poll': 26006,
  'media-mp4': 10004,
  'media-cover': 10004,
  'media-image': 10004,
};

const USAGE =
  'usage: npm run soak -- --minutes N [--rate R] [--port P] [--keys K] [--default-bounds]\n       npm run soak -- --distinct-keys N [--max-accounts M] [--port P]';
const log = (s: string) => process.stderr.write(`${s}\n`);
const out = (s = '') => process.stdout.write(`${s}\n`);

/** The flags, checked; exits with code 2 and the usage on a bad one. */
function flags(): {
  minutes: number;
  rate: number;
  port: number | undefined;
  keys: number;
  defaultBounds: boolean;
  distinctKeys: number | undefined;
  maxAccounts: number;
} {
  try {
    const { values } = parseArgs({
      options: {
        minutes: { type: 'string', default: '10' },
        rate: { type: 'string', default: '200' },
        port: { type: 'string' },
        keys: { type: 'string', default: '50' },
        'default-bounds': { type: 'boolean', default: false },
        'distinct-keys': { type: 'string' },
        'max-accounts': { type: 'string', default: '500' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
    if (values.help) {
      out(USAGE);
      process.exit(0);
    }
    const minutes = Number(values.minutes);
    const rate = Number(values.rate);
    const keys = Number(values.keys);
    const port = values.port === undefined ? undefined : Number(values.port);
    if (!(minutes > 0 && Number.isFinite(minutes))) throw new Error('--minutes must be a positive number');
    if (!(rate > 0 && Number.isFinite(rate))) throw new Error('--rate must be a positive number');
    if (!Number.isInteger(keys) || keys < 1) throw new Error('--keys must be a whole number >= 1');
    if (port !== undefined && (!Number.isInteger(port) || port < 1 || port > 65535)) throw new Error('--port must be a whole number 1-65535');
    const distinctKeys = values['distinct-keys'] === undefined ? undefined : Number(values['distinct-keys']);
    const maxAccounts = Number(values['max-accounts']);
    if (distinctKeys !== undefined && (!Number.isInteger(distinctKeys) || distinctKeys < 1)) throw new Error('--distinct-keys must be a whole number >= 1');
    if (!Number.isInteger(maxAccounts) || maxAccounts < 1) throw new Error('--max-accounts must be a whole number >= 1');
    return { minutes, rate, port, keys, defaultBounds: values['default-bounds'], distinctKeys, maxAccounts };
  } catch (e) {
    log(`soak: ${(e as Error).message}\n${USAGE}`);
    process.exit(2);
  }
}

// ---------------------------------------------------------------- the mock

/** The mock's command line: as users run it, plus `boundFlags`. */
function mockArgs(port: number, boundFlags: readonly string[]): string[] {
  return ['bin/mediagen-mock.js', '--port', String(port), '--clock', 'real', '--speed', String(SPEED), '--quiet', ...boundFlags];
}

/** The flags that set `bounds` (none for the mock's defaults). */
function boundFlags(bounds: Bounds): string[] {
  if (bounds === DEFAULT_BOUNDS) return [];
  return ['--max-tasks', String(bounds.maxTasks), '--max-ledger-entries', String(bounds.maxLedgerEntries), '--media-cache-mb', String(bounds.mediaCacheMb)];
}

/** Starts the mock with `args`; the child is Node itself (no shell), in its own process group so Ctrl-C reaches only this process. */
function startMock(args: string[]): { child: ChildProcess; stderrTail: () => string; mockBugs: () => number } {
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  let tail = '';
  let bugs = 0;
  child.stderr.on('data', (c: Buffer) => {
    const s = c.toString();
    bugs += s.split('MOCK BUG').length - 1;
    tail = (tail + s).slice(-2000);
  });
  return { child, stderrTail: () => tail, mockBugs: () => bugs };
}

/** Stops the child: SIGTERM, then SIGKILL if it has not exited after `graceMs`. */
async function stopMock(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const t = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(t);
}

/** Resident memory of process `pid` in MB (VmRSS), or undefined where /proc is missing. */
function rssMB(pid: number): number | undefined {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * One request to the mock through `agent` (false: a fresh connection); rejects on a connection error or after `timeoutMs`.
 * The body is kept when `keepBody` or the answer is an error (an error's envelope names its code).
 */
function send(
  agent: Agent | false,
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string | undefined,
  keepBody: boolean,
  timeoutMs = REQUEST_TIMEOUT_MS,
): Promise<Answer & { bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      const keep = keepBody || (res.statusCode ?? 0) >= 400;
      let bytes = 0;
      res.on('data', (c: Buffer) => {
        bytes += c.length;
        if (keep) chunks.push(c);
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), bytes }));
      res.on('error', reject);
    });
    req.setTimeout(timeoutMs, () => req.destroy(Object.assign(new Error(`no answer in ${timeoutMs} ms`), { code: 'TIMEOUT' })));
    req.on('error', reject);
    req.end(body);
  });
}

/** Polls `GET /__mock/health` every 50 ms until it answers 200; throws if the child exits first or after 30 s. */
async function waitHealthy(child: ChildProcess, port: number): Promise<number> {
  const t0 = performance.now();
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the mock exited (${child.exitCode ?? child.signalCode}) before answering`);
    try {
      const r = await send(false, port, 'GET', '/__mock/health', {}, undefined, false, 1_000);
      if (r.status === 200) return performance.now() - t0;
    } catch {
      /* not listening yet */
    }
    if (performance.now() - t0 > 30_000) throw new Error(`no answer from /__mock/health on port ${port} after 30 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// ---------------------------------------------------------------- statistics

/** The `q` quantile (0..1) of ascending `sorted`, nearest rank. */
function quantile(sorted: number[], q: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/** Latencies over a whole run in logarithmic buckets 1% wide (from 0.01 ms), so a run of any length costs the same memory. */
class Histogram {
  private counts: number[] = [];
  count = 0;
  add(ms: number): void {
    const i = Math.max(0, Math.ceil(Math.log(Math.max(ms, 0.01) / 0.01) / Math.log(1.01)));
    this.counts[i] = (this.counts[i] ?? 0) + 1;
    this.count++;
  }
  /** The `q` quantile, as the upper bound of its bucket (within 1%). */
  quantile(q: number): number {
    const rank = Math.max(1, Math.ceil(q * this.count));
    let seen = 0;
    for (let i = 0; i < this.counts.length; i++) {
      seen += this.counts[i] ?? 0;
      if (seen >= rank) return 0.01 * 1.01 ** i;
    }
    return NaN;
  }
}

/** Slope (y per x) of the least-squares line through the points, or NaN with fewer than 3. */
function slope(points: { x: number; y: number }[]): number {
  const n = points.length;
  if (n < 3) return NaN;
  const mx = points.reduce((a, p) => a + p.x, 0) / n;
  const my = points.reduce((a, p) => a + p.y, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (const p of points) {
    sxy += (p.x - mx) * (p.y - my);
    sxx += (p.x - mx) ** 2;
  }
  return sxx === 0 ? NaN : sxy / sxx;
}

const fmt = (n: number, d = 0) => (Number.isFinite(n) ? n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d }) : 'n/a');
const ms = (n: number) => (Number.isFinite(n) ? (n < 10 ? n.toFixed(2) : n.toFixed(1)) : 'n/a');
const mb = (n: number | undefined) => (n === undefined ? 'n/a' : `${n.toFixed(1)} MB`);
const clock = (t: number) => `${Math.floor(t / 60_000)}:${String(Math.floor((t % 60_000) / 1000)).padStart(2, '0')}`;
const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));
const lpad = (s: string, n: number) => (s.length >= n ? s : ' '.repeat(n - s.length) + s);
function table(head: string[], rows: string[][]): string[] {
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? pad(c, w[i]) : lpad(c, w[i]))).join('  ');
  return [line(head), w.map((n) => '-'.repeat(n)).join('  '), ...rows.map(line)];
}

// ---------------------------------------------------------------- traffic

const KINDS = [
  'video-create',
  'image-create',
  'video-poll',
  'image-poll',
  'video-list',
  'image-list',
  'subscription',
  'media-mp4',
  'media-cover',
  'media-image',
  'journal-read',
  'new-account',
  'top-up',
] as const;
type Kind = (typeof KINDS)[number];
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
const CLASSES = ['2xx', '3xx', '4xx', '5xx', 'conn'] as const;
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
interface Planned {
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
class Soak {
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

// ---------------------------------------------------------------- census

interface Census {
  keys: number;
  videoTasks: number;
  imageTasks: number;
  ledgerEntries: number;
}

/**
 * What the mock stores for `keys`, through the API (the totals of list pages and of the
 * control API's ledgers), eight keys at a time; not counted as traffic.
 */
async function census(port: number, agent: Agent, keys: readonly string[]): Promise<Census> {
  const c: Census = { keys: keys.length, videoTasks: 0, imageTasks: 0, ledgerEntries: 0 };
  const queue = [...keys];
  const get = async (path: string, key?: string) => {
    const a = await send(agent, port, 'GET', path, key ? { authorization: `Bearer ${key}` } : {}, undefined, true);
    return a.status === 200 ? (JSON.parse(a.body.toString()) as unknown) : undefined;
  };
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let key = queue.shift(); key !== undefined; key = queue.shift()) {
        const v = (await get('/v1/video-generation/tasks?pageSize=1', key)) as { data: { total: number } } | undefined;
        const i = (await get('/v1/images/generation/tasks?pageSize=1', key)) as { data: { total: number } } | undefined;
        const acc = (await get(`/__mock/accounts/${key}?ledgerPageSize=1`)) as { ledger: unknown[]; ledgerTotal?: number } | undefined;
        c.videoTasks += v?.data.total ?? 0;
        c.imageTasks += i?.data.total ?? 0;
        c.ledgerEntries += acc?.ledgerTotal ?? acc?.ledger.length ?? 0;
      }
    }),
  );
  return c;
}

// ---------------------------------------------------------------- main

// ---------------------------------------------------------------- distinct keys

/** Keys of the baseline run of the distinct-keys mode. */
const BASELINE_KEYS = 50;
/** Rounds of the baseline run at most: 400 a key, past every bound the scaled bounds set (2,000 tasks, 200 ledger entries). */
const BASELINE_ROUNDS = 20_000;
/** Requests in flight in the distinct-keys mode (closed loop: as fast as the mock answers). */
const DISTINCT_IN_FLIGHT = 32;
/** The verdict of the distinct-keys mode: the distinct run's final RSS within this of the baseline's. */
const DISTINCT_WITHIN_MB = 100;

/** One run of the distinct-keys mode: a fresh mock, `rounds` rounds whose key is `keyOf(round)`. Returns its memory figures. */
async function distinctRun(
  label: string,
  port: number,
  maxAccounts: number,
  rounds: number,
  keyOf: (round: number) => string,
): Promise<{ before: number; after: number; peak: number; seconds: number; requests: number; failures: number }> {
  const args = mockArgs(port, [...boundFlags(SCALED_BOUNDS), '--max-accounts', String(maxAccounts)]);
  log(`soak: ${label}: node ${args.join(' ')}`);
  const mock = startMock(args);
  const { child } = mock;
  process.on('exit', () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  try {
    await waitHealthy(child, port);
    const agent = new Agent({ keepAlive: true, maxSockets: DISTINCT_IN_FLIGHT + 4 });
    const before = rssMB(child.pid!) ?? NaN;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMB(child.pid!) ?? peak)), 1_000);
    const json = { 'content-type': 'application/json' };
    let next = 0;
    let requests = 0;
    let failures = 0;
    const t0 = performance.now();
    let reported = t0;
    const call = async (method: string, path: string, headers: Record<string, string>, body?: string) => {
      requests++;
      try {
        const a = await send(agent, port, method, path, headers, body, false);
        if (a.status >= 500) failures++;
      } catch {
        failures++;
      }
    };
    await Promise.all(
      Array.from({ length: DISTINCT_IN_FLIGHT }, async () => {
        while (next < rounds) {
          const round = next++;
          const key = keyOf(round);
          const auth = { authorization: `Bearer ${key}` };
          await call('POST', '/v1/video-generation/generate', { ...auth, ...json }, JSON.stringify({ content: [{ type: 'text', text: `distinct ${round}` }] }));
          await call('GET', '/v1/user/subscription', auth);
          if (round % 10 === 9) await call('DELETE', `/__mock/accounts/${key}`, {});
          if (performance.now() - reported > REPORT_EVERY_MS) {
            reported = performance.now();
            log(`soak: ${label}: ${fmt(round)} of ${fmt(rounds)} rounds, RSS ${mb(rssMB(child.pid!))}`);
          }
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    await new Promise((r) => setTimeout(r, 2_000)); // let the tasks of the last rounds finish (speed 60)
    clearInterval(sampler);
    const after = rssMB(child.pid!) ?? NaN;
    peak = Math.max(peak, after);
    agent.destroy();
    return { before, after, peak, seconds, requests, failures };
  } finally {
    await stopMock(child);
  }
}

/** The distinct-keys mode (see the head of this file). */
async function distinctKeysMain(opt: ReturnType<typeof flags>): Promise<number> {
  const rounds = opt.distinctKeys!;
  const port = opt.port ?? (await freePort());
  // the baseline reaches its steady state (every task and ledger bound) well within BASELINE_ROUNDS
  const baseRounds = Math.min(rounds, BASELINE_ROUNDS);
  const base = await distinctRun(`baseline (${BASELINE_KEYS} keys)`, port, opt.maxAccounts, baseRounds, (r) => `mg_soak${r % BASELINE_KEYS}_secret`);
  const many = await distinctRun(`distinct (${fmt(rounds)} keys)`, port, opt.maxAccounts, rounds, (r) => `mg_dk${r}_secret`);
  out(
    `distinct keys: rounds of a video create, a subscription read and every tenth key deleted; --max-accounts ${opt.maxAccounts}, scaled bounds; ` +
      `baseline ${fmt(baseRounds)} rounds over ${BASELINE_KEYS} keys, then ${fmt(rounds)} rounds each with a new key`,
  );
  out(
    table(
      ['run', 'requests', 'seconds', '5xx or errors', 'RSS before', 'RSS after', 'RSS peak'],
      [
        [`${BASELINE_KEYS} keys`, base],
        [`${fmt(rounds)} keys`, many],
      ].map(([name, r]) => {
        const x = r as Awaited<ReturnType<typeof distinctRun>>;
        return [name as string, fmt(x.requests), fmt(x.seconds, 1), fmt(x.failures), mb(x.before), mb(x.after), mb(x.peak)];
      }),
    ).join('\n'),
  );
  const diff = many.after - base.after;
  out(
    `RSS after, distinct minus baseline: ${diff >= 0 ? '+' : ''}${diff.toFixed(1)} MB: ${Math.abs(diff) <= DISTINCT_WITHIN_MB ? 'within' : 'NOT within'} ${DISTINCT_WITHIN_MB} MB`,
  );
  return 0;
}

async function main(): Promise<number> {
  const opt = flags();
  if (opt.distinctKeys !== undefined) return distinctKeysMain(opt);
  const durationMs = opt.minutes * 60_000;
  const warmupMs = Math.min(60_000, durationMs / 3);
  const port = opt.port ?? (await freePort());
  const bounds = opt.defaultBounds ? DEFAULT_BOUNDS : SCALED_BOUNDS;
  const mediaCacheBytes = bounds.mediaCacheMb * 1024 * 1024;
  const args = mockArgs(port, boundFlags(bounds));
  const boundsSaid = `--max-tasks ${fmt(bounds.maxTasks)} per area, --max-ledger-entries ${fmt(bounds.maxLedgerEntries)} per account, --media-cache-mb ${bounds.mediaCacheMb}`;

  log(`soak: starting the mock: node ${args.join(' ')}`);
  log(
    opt.defaultBounds
      ? `soak: the mock runs with its default bounds (${boundsSaid}; --default-bounds): a run of minutes measures the way up to them, not the steady state beyond`
      : `soak: the mock runs with bounds scaled down (${boundsSaid}; its defaults: ${fmt(DEFAULT_BOUNDS.maxTasks)}, ${fmt(DEFAULT_BOUNDS.maxLedgerEntries)}, ${DEFAULT_BOUNDS.mediaCacheMb} MB), ` +
          'compressing hours into minutes: the run reaches the steady state the defaults reach after hours (--default-bounds for the defaults)',
  );
  const mock = startMock(args);
  const { child } = mock;
  let interrupted = 0;
  let broken: string | undefined;
  let stopping = false;
  const onSignal = () => {
    interrupted++;
    if (interrupted === 1) log('\nsoak: interrupted; stopping the traffic (Ctrl-C again to kill the mock at once)');
    else {
      child.kill('SIGKILL');
      process.exit(130);
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // A detached child would outlive a crash of this process.
  process.on('exit', () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  child.on('exit', (code, signal) => {
    if (!stopping) broken = `the mock exited (${code ?? signal}) during the run\n${mock.stderrTail()}`;
  });

  try {
    const startMs = await waitHealthy(child, port);
    log(`soak: mock pid ${child.pid} answered in ${fmt(startMs)} ms, RSS ${mb(rssMB(child.pid!))} before traffic`);
  } catch (e) {
    log(`soak: ${(e as Error).message}\n${mock.stderrTail()}`);
    stopping = true;
    await stopMock(child);
    return 1;
  }
  if (interrupted) {
    stopping = true;
    await stopMock(child);
    return 130;
  }
  log(
    `soak: ${fmt(opt.minutes, opt.minutes % 1 ? 1 : 0)} min at ${fmt(opt.rate)} req/s over ${opt.keys} keys (+${NEW_KEYS_PER_MINUTE} new a minute), warm-up ${fmt(warmupMs / 1000)} s; a line every 30 s`,
  );

  const agent = new Agent({ keepAlive: true, maxSockets: MAX_IN_FLIGHT + 8, timeout: IDLE_SOCKET_MS });
  const soak = new Soak(opt.keys);
  /** RSS samples: time since the traffic started, RSS, and the media cache's estimated fill then (both MB). */
  const rss: { t: number; mb: number; cache: number }[] = [];
  let inFlight = 0;
  let slots = 0;
  let nextNewKeyAt = 60_000 / NEW_KEYS_PER_MINUTE;
  let censusAtWarmup: Promise<Census | undefined> | undefined;
  let censusAtHalf: Promise<Census | undefined> | undefined;
  const t0 = performance.now();

  /** Issues one planned request and counts its answer. */
  const issue = (p: Planned) => {
    inFlight++;
    soak.sent++;
    const started = performance.now();
    send(agent, port, p.method, p.path, p.headers, p.body, p.json)
      .then((a) => {
        soak.record(p.kind, performance.now() - started, a.status, p.json || a.status >= 400 ? a : undefined);
        if (!p.json) soak.mediaBytes += a.bytes;
        try {
          p.onAnswer?.(a);
        } catch (e) {
          soak.unreadable(p.kind, (e as Error).message);
        }
      })
      .catch((e: NodeJS.ErrnoException) => soak.record(p.kind, performance.now() - started, undefined, undefined, e.code ?? e.message))
      .finally(() => inFlight--);
  };

  /** Prints the line of the last 30 s. */
  let lastReport = 0;
  const report = (now: number) => {
    const w = soak.window.sort((a, b) => a - b);
    const secs = (now - lastReport) / 1000;
    out(
      `${lpad(clock(now), 6)}  sent ${lpad(fmt(soak.sent), 9)}  answers/s ${lpad(fmt(soak.windowAnswers / secs, 1), 7)}  errors ${lpad(fmt(soak.windowErrors), 4)}  ` +
        `p50 ${lpad(ms(median(w)), 5)} ms  p99 ${lpad(ms(quantile(w, 0.99)), 6)} ms  rss ${lpad(mb(rssMB(child.pid!) ?? rss.at(-1)?.mb), 9)}${soak.missed ? `  missed slots ${fmt(soak.missed)}` : ''}`,
    );
    soak.window = [];
    soak.windowAnswers = 0;
    soak.windowErrors = 0;
    lastReport = now;
  };

  const sampleRss = () => {
    const v = rssMB(child.pid!);
    if (v !== undefined) rss.push({ t: performance.now() - t0, mb: v, cache: Math.min(soak.mediaRendered, mediaCacheBytes) / 1024 / 1024 });
  };
  sampleRss();
  const rssTimer = setInterval(sampleRss, RSS_EVERY_MS);

  // The scheduler: every 5 ms, issue every slot due by now (slot n is due at n / rate s).
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const now = performance.now() - t0;
      if (now >= durationMs || interrupted || broken) {
        clearInterval(timer);
        resolve();
        return;
      }
      const due = Math.floor((now * opt.rate) / 1000);
      while (slots < due) {
        slots++;
        if (inFlight >= MAX_IN_FLIGHT) {
          soak.missed++;
          continue;
        }
        const newAccountDue = now >= nextNewKeyAt;
        if (newAccountDue) nextNewKeyAt += 60_000 / NEW_KEYS_PER_MINUTE;
        issue(soak.plan(newAccountDue));
      }
      if (!censusAtWarmup && now >= warmupMs)
        censusAtWarmup = census(port, agent, [...soak.keys]).catch((e: Error) => {
          log(`soak: could not count the stored state after the warm-up: ${e.message}`);
          return undefined;
        });
      if (!censusAtHalf && now >= durationMs / 2)
        censusAtHalf = census(port, agent, [...soak.keys]).catch((e: Error) => {
          log(`soak: could not count the stored state at half-time: ${e.message}`);
          return undefined;
        });
      if (now - lastReport >= REPORT_EVERY_MS) report(lastReport + REPORT_EVERY_MS);
    }, 5);
  });
  const ranMs = performance.now() - t0;

  // Let what is in flight finish (at most 10 s), then count what the mock stores.
  const drainUntil = performance.now() + 10_000;
  while (inFlight > 0 && performance.now() < drainUntil) await new Promise((r) => setTimeout(r, 20));
  if (ranMs - lastReport >= 1000) report(ranMs);
  sampleRss();
  clearInterval(rssTimer);
  let atWarmup: Census | undefined;
  let atHalf: Census | undefined;
  let atEnd: Census | undefined;
  if (!broken) {
    try {
      atWarmup = await censusAtWarmup;
      atHalf = await censusAtHalf;
      atEnd = await census(port, agent, soak.keys);
    } catch (e) {
      log(`soak: could not count the stored state: ${(e as Error).message}`);
    }
  }

  // ------------------------------------------------------------ summary
  out('');
  out(`== Summary: ${clock(ranMs)} of traffic at ${fmt(opt.rate)} req/s${interrupted ? ' (interrupted)' : ''}${broken ? ' (the mock died)' : ''} ==`);
  out(
    opt.defaultBounds
      ? `mock bounds: its defaults (${boundsSaid}; --default-bounds)`
      : `mock bounds: scaled down to reach in minutes the steady state of hours (${boundsSaid}; defaults ${fmt(DEFAULT_BOUNDS.maxTasks)}, ${fmt(DEFAULT_BOUNDS.maxLedgerEntries)}, ${DEFAULT_BOUNDS.mediaCacheMb} MB)`,
  );
  const rows = KINDS.map((k) => {
    const c = soak.byKind.get(k)!;
    const lat = soak.latencyByKind.get(k)!.sort((a, b) => a - b);
    const sent = CLASSES.reduce((a, cl) => a + c[cl], 0);
    return [k, fmt(sent), ...CLASSES.map((cl) => fmt(c[cl])), ms(median(lat)), ms(quantile(lat, 0.99))];
  });
  const totals = CLASSES.map((cl) => KINDS.reduce((a, k) => a + soak.byKind.get(k)![cl], 0));
  rows.push(['total', fmt(totals.reduce((a, b) => a + b, 0)), ...totals.map((n) => fmt(n)), ms(soak.overall.quantile(0.5)), ms(soak.overall.quantile(0.99))]);
  for (const l of table(['kind', 'answered', '2xx', '3xx', '4xx', '5xx', 'conn err', 'p50 ms', 'p99 ms'], rows)) out(l);
  out(
    `sent ${fmt(soak.sent)} (${fmt(soak.sent / (ranMs / 1000), 1)}/s), missed slots ${fmt(soak.missed)} (all ${MAX_IN_FLIGHT} in flight), still unanswered at the end ${fmt(inFlight)}`,
  );
  out(
    `errors (5xx, connection errors and unreadable answers): ${fmt(soak.errors)}; unexpected 4xx: ${fmt(soak.unexpected4xx)}${mock.mockBugs() ? `; the mock logged ${mock.mockBugs()} MOCK BUG line(s)` : ''}`,
  );
  out(`overall latency p50 ${ms(soak.overall.quantile(0.5))} ms, p99 ${ms(soak.overall.quantile(0.99))} ms (1% buckets)`);
  const byCount = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  out(`expected 4xx by kind, status and code: ${soak.expected.size ? '' : 'none'}`);
  for (const [what, n] of byCount(soak.expected)) out(`  ${lpad(fmt(n), 7)}  ${what}`);
  out(`unexpected 4xx, 5xx, connection errors and unreadable answers by kind, status and code: ${soak.details.size ? '' : 'none'}`);
  for (const [what, n] of byCount(soak.details)) out(`  ${lpad(fmt(n), 7)}  ${what}`);
  const fin = [...soak.finished].sort().map(([k, n]) => `${k} ${fmt(n)}`);
  out(`tasks seen finishing: ${fin.length ? fin.join(', ') : 'none (no task reached a final status: is the clock moving?)'}`);
  const f = soak.forgotten;
  out(
    `evicted tasks dropped after a not-found: ${fmt(f.video)} video, ${fmt(f.image)} image (found by a poll ${fmt(f.byPoll)}, by a media load ${fmt(f.byMedia)}); ${fmt(f.mediaDropped)} media paths dropped with them`,
  );
  out(
    `media: ${fmt(soak.mediaBytes / 1024 / 1024, 1)} MB served; ${fmt(soak.mediaSizes.size)} distinct renders (ETags) loaded, ${fmt(soak.mediaRendered / 1024 / 1024, 1)} MB, ` +
      `of which the mock's media cache keeps up to ${mediaCacheBytes / 1024 / 1024} MB`,
  );
  const state = (c: Census) =>
    `${fmt(c.keys)} accounts, ${fmt(c.videoTasks)} video tasks, ${fmt(c.imageTasks)} image tasks, ${fmt(c.ledgerEntries)} ledger entries`;
  if (atWarmup) out(`stored after the warm-up: ${state(atWarmup)}`);
  if (atHalf) out(`stored at half-time:      ${state(atHalf)}`);
  if (atEnd) out(`stored at the end:        ${state(atEnd)}`);
  if (atEnd) {
    const at = (n: number) => (n >= bounds.maxTasks ? 'at its bound' : `${fmt((100 * n) / bounds.maxTasks)}% of its bound`);
    out(`task store at the end (--max-tasks ${fmt(bounds.maxTasks)} per area): video ${at(atEnd.videoTasks)}, image ${at(atEnd.imageTasks)}`);
  }

  const afterWarmup = rss.filter((s) => s.t >= warmupMs);
  const first = afterWarmup[0];
  const last = rss.at(-1);
  out(
    `RSS: before traffic ${mb(rss[0]?.mb)}, after the warm-up (${fmt(warmupMs / 1000)} s) ${mb(first?.mb)}, at the end ${mb(last?.mb)}, peak ${mb(rss.length ? Math.max(...rss.map((s) => s.mb)) : undefined)}`,
  );
  if (atWarmup && atEnd && first && last) {
    const tasks = atEnd.videoTasks + atEnd.imageTasks - atWarmup.videoTasks - atWarmup.imageTasks;
    const perTask = (grew: number) => fmt((grew * 1024 * 1024) / tasks);
    if (tasks > 0)
      out(
        `RSS growth per task stored after the warm-up: ${perTask(last.mb - first.mb)} bytes (${fmt(tasks)} tasks); less the media cache's fill: ${perTask(last.mb - last.cache - first.mb + first.cache)} bytes` +
          (atEnd.videoTasks >= bounds.maxTasks || atEnd.imageTasks >= bounds.maxTasks ? ' (a store at its bound evicts as it adds: not a cost per task)' : ''),
      );
    else out(`RSS growth after the warm-up with no more tasks stored (${fmt(tasks)}; the store is at its bound): ${(last.mb - first.mb).toFixed(1)} MB`);
  }
  /** The slope through `points` (minutes, MB) and its verdict. */
  const verdict = (points: { x: number; y: number }[]) => {
    const perMin = slope(points);
    return Number.isFinite(perMin)
      ? `${perMin >= 0 ? '+' : ''}${perMin.toFixed(2)} MB/min: ${perMin < FLAT_MB_PER_MIN ? 'flat' : 'growing'}`
      : `n/a (${points.length} samples; a longer run is needed)`;
  };
  out(
    `RSS slope after the warm-up (least squares, ${afterWarmup.length} samples, flat under ${FLAT_MB_PER_MIN} MB/min): ${verdict(afterWarmup.map((s) => ({ x: s.t / 60_000, y: s.mb })))}`,
  );
  out(
    `  less the media cache's estimated fill (${fmt(first?.cache ?? NaN)} -> ${fmt(last?.cache ?? NaN)} MB, bounded): ${verdict(afterWarmup.map((s) => ({ x: s.t / 60_000, y: s.mb - s.cache })))}`,
  );
  const full = afterWarmup.filter((s) => s.cache >= mediaCacheBytes / 1024 / 1024);
  if (full.length > 0)
    out(
      `  since the media cache filled (${clock(full[0].t)}, ${full.length} samples, nothing estimated): ${verdict(full.map((s) => ({ x: s.t / 60_000, y: s.mb })))}`,
    );
  const halfMs = ranMs / 2;
  const secondHalf = rss.filter((s) => s.t >= halfMs);
  const half0 = secondHalf[0];
  out(
    `RSS slope over the second half (from ${clock(halfMs)}, least squares, ${secondHalf.length} samples; RSS ${mb(half0?.mb)} -> ${mb(last?.mb)}): ${verdict(secondHalf.map((s) => ({ x: s.t / 60_000, y: s.mb })))}`,
  );
  out(
    `  less the media cache's estimated fill (${fmt(half0?.cache ?? NaN)} -> ${fmt(last?.cache ?? NaN)} MB): ${verdict(secondHalf.map((s) => ({ x: s.t / 60_000, y: s.mb - s.cache })))}`,
  );
  /** "flat" / "growing" with the slope, for the closing verdict. */
  const word = (points: { x: number; y: number }[]) => {
    const perMin = slope(points);
    return Number.isFinite(perMin)
      ? `${perMin < FLAT_MB_PER_MIN ? 'flat' : 'growing'} (${perMin >= 0 ? '+' : ''}${perMin.toFixed(2)} MB/min)`
      : 'n/a (too few samples)';
  };
  out(
    `memory against ${FLAT_MB_PER_MIN} MB/min: after the warm-up ${word(afterWarmup.map((s) => ({ x: s.t / 60_000, y: s.mb })))}; ` +
      `second half ${word(secondHalf.map((s) => ({ x: s.t / 60_000, y: s.mb })))}` +
      (opt.defaultBounds ? ' (default bounds: a short run does not reach them)' : ' (scaled bounds: the second half is the steady state)'),
  );

  stopping = true;
  agent.destroy();
  await stopMock(child);
  if (broken) {
    log(`soak: ${broken}`);
    return 1;
  }
  return interrupted ? 130 : 0;
}

// --sessions: the sessions mode (scripts/soak-sessions.ts), memory of many sessions rather than traffic over time
// --bodies: large request bodies from many sessions (scripts/soak-bodies.ts), the journal's byte budget
process.exitCode = process.argv.includes('--sessions')
  ? await (await import('./soak-sessions.ts')).soakSessions(process.argv.slice(2))
  : process.argv.includes('--bodies')
    ? await (await import('./soak-bodies.ts')).soakBodies(process.argv.slice(2))
    : process.argv.includes('--state-load')
      ? await (await import('./soak-state.ts')).soakState(process.argv.slice(2))
      : await main();
