/**
 * `npm run soak -- --sessions`: the sessions mode of the soak
 * (decisions/0019-sessions.md, "Bounded"). Starts the mock as a child process
 * with its default bounds (plus `--clock manual --no-rate-limit`, which bound
 * nothing: time moves when the soak says, and creates are not refused) and
 * measures its resident memory in two scenes:
 *
 * 1. tasks: `--count` sessions (default 256, the default --max-sessions), each
 *    filled with `--tasks` video and as many image tasks (default 200 each, twice
 *    the part a session keeps of the default budget), finished by clock
 *    advances so the oldest can be dropped. Target: below 600 MB.
 * 2. media: the same media traffic (`--media-sessions` x `--media-tasks` videos,
 *    default 200 x 3, each loaded whole) under `--media-cache-mb 4`, first
 *    through the default world alone, then spread over that many sessions, in
 *    a fresh mock each. Target: the sessions within 100 MB of the one world.
 *
 *   npm run soak -- --sessions [--count N] [--tasks N] [--media-sessions N] [--media-tasks N]
 *
 * Prints the figures and exits 0 (1 when a target is missed or the mock broke).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const KEY = 'mg_soak1_secret';
const CONCURRENCY = 16;
const log = (s: string) => process.stderr.write(`${s}\n`);
const out = (s = '') => process.stdout.write(`${s}\n`);

/** A free TCP port on 127.0.0.1. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** Resident memory of `pid` in MB (VmRSS). */
export function rssMB(pid: number): number {
  const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

export interface Running {
  child: ChildProcess;
  port: number;
  agent: Agent;
  /** Highest RSS seen (sampled every 250 ms). */
  peak: () => number;
  /**
   * RSS in MB after a full garbage collection (what the process keeps, whatever the collector's timing): only for a
   * mock started with `collectable`; the collection is asked with SIGUSR2 (scripts/soak/collect-on-signal.mjs) and the
   * reading taken once RSS has stopped falling (sampled every 100 ms, at most 3 s).
   */
  settledRss(): Promise<number>;
  call(method: string, path: string, headers?: Record<string, string>, body?: unknown): Promise<{ status: number; json: unknown; bytes: number }>;
  stop(): Promise<void>;
}

/**
 * Starts the mock with `flags` and waits for its health check. `collectable`: the mock runs with `--expose-gc` and a
 * preload that collects on SIGUSR2, so `settledRss` can read its memory with no garbage left.
 */
export async function start(flags: string[], opts: { collectable?: boolean } = {}): Promise<Running> {
  const port = await freePort();
  const nodeFlags = opts.collectable ? ['--expose-gc', '--import', './scripts/soak/collect-on-signal.mjs'] : [];
  const child = spawn(
    process.execPath,
    [...nodeFlags, 'bin/mediagen-mock.js', '--port', String(port), '--quiet', '--clock', 'manual', '--no-rate-limit', ...flags],
    {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  // the child goes with this process, whatever ends it
  process.on('exit', () => child.kill('SIGKILL'));
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const call: Running['call'] = (method, path, headers = {}, body) =>
    new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = request(
        { host: '127.0.0.1', port, method, path, agent, headers: { ...headers, ...(payload ? { 'content-type': 'application/json' } : {}) } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const buf = Buffer.concat(chunks);
            let json: unknown;
            if (/json/.test(String(res.headers['content-type']))) json = JSON.parse(buf.toString());
            resolve({ status: res.statusCode ?? 0, json, bytes: buf.length });
          });
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  for (const t0 = Date.now(); ; await new Promise((r) => setTimeout(r, 100))) {
    if (child.exitCode !== null) throw new Error('the mock exited before answering');
    if ((await call('GET', '/__mock/health').catch(() => undefined))?.status === 200) break;
    if (Date.now() - t0 > 30_000) throw new Error('the mock did not answer in 30 s');
  }
  let peak = rssMB(child.pid!);
  const sampler = setInterval(() => (peak = Math.max(peak, rssMB(child.pid!))), 250);
  return {
    child,
    port,
    agent,
    peak: () => peak,
    call,
    async settledRss() {
      if (!opts.collectable) throw new Error('settledRss needs a mock started with collectable');
      child.kill('SIGUSR2');
      let last = rssMB(child.pid!);
      for (let i = 0; i < 30; i++) {
        await new Promise((r) => setTimeout(r, 100));
        const now = rssMB(child.pid!);
        if (i >= 2 && now >= last) return now;
        last = Math.min(last, now);
      }
      return last;
    },
    async stop() {
      clearInterval(sampler);
      agent.destroy();
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

/** Runs `work(i)` for i in [0, n) with CONCURRENCY at a time. */
export async function pool(n: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < n) await work(next++);
    }),
  );
}

const mb = (n: number) => `${n.toFixed(0)} MB`;

/** Creates and finishes `tasks` video and image tasks in the world of `headers`, 50 at a time with an hour between batches. */
async function fill(m: Running, headers: Record<string, string>, tasks: number, check: (what: string, status: number) => void) {
  check('credits', (await m.call('PUT', `/__mock/accounts/${KEY}`, headers, { credits: 1_000_000_000 })).status);
  const auth = { ...headers, authorization: `Bearer ${KEY}` };
  for (let i = 0; i < tasks; i++) {
    check('video create', (await m.call('POST', '/v1/video-generation/generate', auth, { content: [{ type: 'text', text: `soak video ${i}` }] })).status);
    check('image create', (await m.call('POST', '/v1/images/generation/async', auth, { provider: 'vendor_a', prompt: `soak image ${i}` })).status);
    if (i % 50 === 49 || i === tasks - 1) check('advance', (await m.call('POST', '/__mock/clock/advance', headers, { ms: 3_600_000 })).status);
  }
}

/** Creates `tasks` video tasks in the world of `headers`, finishes them and loads every video whole; returns the bytes loaded. */
async function loadMedia(m: Running, headers: Record<string, string>, tasks: number, check: (what: string, status: number) => void): Promise<number> {
  check('credits', (await m.call('PUT', `/__mock/accounts/${KEY}`, headers, { credits: 1_000_000_000 })).status);
  const auth = { ...headers, authorization: `Bearer ${KEY}` };
  const ids: string[] = [];
  for (let i = 0; i < tasks; i++) {
    const r = await m.call('POST', '/v1/video-generation/generate', auth, { content: [{ type: 'text', text: `soak media ${i}` }] });
    check('video create', r.status);
    ids.push((r.json as { data: { taskId: string } }).data.taskId);
  }
  check('advance', (await m.call('POST', '/__mock/clock/advance', headers, { ms: 3_600_000 })).status);
  let bytes = 0;
  for (const id of ids) {
    const task = await m.call('GET', `/v1/video-generation/tasks/${id}`, auth);
    const url = /https?:\/\/[^"]+\.mp4/.exec(JSON.stringify(task.json))?.[0];
    if (!url) throw new Error(`task ${id} has no video URL`);
    const v = await m.call('GET', new URL(url).pathname);
    check('media', v.status);
    bytes += v.bytes;
  }
  return bytes;
}

/** The sessions mode; `argv` are the soak's arguments (with --sessions). Returns the exit code. */
export async function soakSessions(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      sessions: { type: 'boolean' },
      count: { type: 'string', default: '256' },
      tasks: { type: 'string', default: '200' },
      'media-sessions': { type: 'string', default: '200' },
      'media-tasks': { type: 'string', default: '3' },
    },
  });
  const count = Number(values.count);
  const tasks = Number(values.tasks);
  const mediaSessions = Number(values['media-sessions']);
  const mediaTasks = Number(values['media-tasks']);
  const failures = new Map<string, number>();
  const check = (what: string, status: number) => {
    if (status < 200 || status > 299) failures.set(`${what} ${status}`, (failures.get(`${what} ${status}`) ?? 0) + 1);
  };
  let ok = true;

  // 1. tasks
  log(`soak --sessions: ${count} sessions, ${tasks} video and ${tasks} image tasks each, default bounds`);
  let m = await start([]);
  const idle = rssMB(m.child.pid!);
  const t0 = performance.now();
  await pool(count, (i) => fill(m, { 'x-mock-session': `soak-${i}` }, tasks, check));
  const kept = (await m.call('GET', '/v1/video-generation/tasks?pageSize=1', { 'x-mock-session': 'soak-0', authorization: `Bearer ${KEY}` })).json as {
    data: { total: number };
  };
  const sessionsListed = ((await m.call('GET', '/__mock/sessions')).json as { items: unknown[] }).items.length;
  const filled = rssMB(m.child.pid!);
  const peakTasks = m.peak();
  await m.stop();
  out(`tasks: ${count} sessions x ${tasks * 2} tasks created (${((count * tasks * 2) / ((performance.now() - t0) / 1000)).toFixed(0)} creates/s)`);
  out(`  sessions listed ${sessionsListed}; video tasks kept in one session ${kept.data.total}`);
  out(`  RSS idle ${mb(idle)}, filled ${mb(filled)}, peak ${mb(peakTasks)} (target: below 600 MB)`);
  if (peakTasks >= 600) ok = false;

  // 2. media
  log(`soak --sessions: ${mediaSessions} x ${mediaTasks} videos under --media-cache-mb 4, one world then ${mediaSessions} sessions`);
  m = await start(['--media-cache-mb', '4']);
  let bytes = 0;
  await pool(mediaSessions, async () => void (bytes += await loadMedia(m, {}, mediaTasks, check)));
  const oneWorld = { end: rssMB(m.child.pid!), peak: m.peak() };
  await m.stop();
  m = await start(['--media-cache-mb', '4']);
  await pool(mediaSessions, async (i) => void (bytes += await loadMedia(m, { 'x-mock-session': `media-${i}` }, mediaTasks, check)));
  const spread = { end: rssMB(m.child.pid!), peak: m.peak() };
  await m.stop();
  out(`media: ${mediaSessions * mediaTasks} videos loaded twice, ${(bytes / 1024 / 1024).toFixed(1)} MB in all`);
  out(`  one world:           RSS at the end ${mb(oneWorld.end)}, peak ${mb(oneWorld.peak)}`);
  out(
    `  ${mediaSessions} sessions:${' '.repeat(Math.max(1, 11 - String(mediaSessions).length))}RSS at the end ${mb(spread.end)}, peak ${mb(spread.peak)} (${mb(spread.peak - oneWorld.peak)} above one world; target: within 100 MB)`,
  );
  if (spread.peak - oneWorld.peak > 100) ok = false;

  if (failures.size) {
    ok = false;
    out(`unexpected answers: ${[...failures].map(([k, n]) => `${k} x${n}`).join(', ')}`);
  }
  out(ok ? 'sessions: every target met' : 'sessions: a target was missed');
  return ok ? 0 : 1;
}
