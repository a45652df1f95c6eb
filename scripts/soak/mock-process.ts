/**
 * The mock under soak as a child process (scripts/soak.ts): its command line,
 * start, stop, resident memory, one request to it, and the census of what it
 * stores, read through its control API.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { type Agent, request, type IncomingHttpHeaders } from 'node:http';
import { performance } from 'node:perf_hooks';
import { type Bounds, DEFAULT_BOUNDS, REQUEST_TIMEOUT_MS, ROOT, SPEED } from './config.ts';

// ---------------------------------------------------------------- the mock

/** The mock's command line: as users run it, plus `boundFlags`. */
export function mockArgs(port: number, boundFlags: readonly string[]): string[] {
  return ['bin/mediagen-mock.js', '--port', String(port), '--clock', 'real', '--speed', String(SPEED), '--quiet', ...boundFlags];
}

/** The flags that set `bounds` (none for the mock's defaults). */
export function boundFlags(bounds: Bounds): string[] {
  if (bounds === DEFAULT_BOUNDS) return [];
  return ['--max-tasks', String(bounds.maxTasks), '--max-ledger-entries', String(bounds.maxLedgerEntries), '--media-cache-mb', String(bounds.mediaCacheMb)];
}

/** Starts the mock with `args`; the child is Node itself (no shell), in its own process group so Ctrl-C reaches only this process. */
export function startMock(args: string[]): { child: ChildProcess; stderrTail: () => string; mockBugs: () => number } {
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
export async function stopMock(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  child.kill('SIGTERM');
  const t = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(t);
}

/** Resident memory of process `pid` in MB (VmRSS), or undefined where /proc is missing. */
export function rssMB(pid: number): number | undefined {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * One request to the mock through `agent` (false: a fresh connection); rejects on a connection error or after `timeoutMs`.
 * The body is kept when `keepBody` or the answer is an error (an error's envelope names its code).
 */
export function send(
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
export async function waitHealthy(child: ChildProcess, port: number): Promise<number> {
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

// ---------------------------------------------------------------- census

export interface Census {
  keys: number;
  videoTasks: number;
  imageTasks: number;
  ledgerEntries: number;
}

/**
 * What the mock stores for `keys`, through the API (the totals of list pages and of the
 * control API's ledgers), eight keys at a time; not counted as traffic.
 */
export async function census(port: number, agent: Agent, keys: readonly string[]): Promise<Census> {
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
