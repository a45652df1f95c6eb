/**
 * The server processes of `npm run bench` (scripts/bench.ts): each server its
 * own child process in its own process group, stopped with it; one HTTP
 * request on a fresh connection; the wait for a server's first answer. Also
 * the fixtures every section shares (the API key, the create body).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

/** The repository's root (the servers' working directory). */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
export const NODE = process.execPath;
export const TSX_CLI = join(ROOT, 'node_modules/tsx/dist/cli.mjs');
export const PRISM_CLI = join(ROOT, 'node_modules/@stoplight/prism-cli/dist/index.js');
/** The API key of the bench's preloaded account. */
export const KEY = 'mg_bench_secret1';
export const AUTH = { authorization: `Bearer ${KEY}` };
/** The body of the benchmarked create. */
export const CREATE_BODY = JSON.stringify({
  model: 'family1-video-2-fast',
  content: [{ type: 'text', text: 'a cat on a skateboard, golden hour' }],
  duration: 5,
});
/** A directory of the bench's own (fixtures, the accounts file), removed by `cleanup`. */
export const tmp = mkdtempSync(join(tmpdir(), 'mg-bench-'));
/** A progress line on stderr (the report goes to stdout). */
export const log = (s: string) => process.stderr.write(`${s}\n`);

const children = new Set<ChildProcess>();

/** Spawns a server in its own process group (so tsx's and npm's children go with it). */
export function spawnServer(cmd: string, args: string[]): ChildProcess {
  const child = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err = (err + c.toString()).slice(-2000)));
  child.on('exit', (code, signal) => {
    if (children.has(child)) log(`  ! ${[cmd, ...args].join(' ')} exited (${code ?? signal})\n${err}`);
    children.delete(child);
  });
  children.add(child);
  return child;
}

/** Stops a server (its whole process group, by its pid) and waits for it to exit. */
export async function stop(child: ChildProcess): Promise<void> {
  if (!children.has(child)) return;
  children.delete(child);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  try {
    process.kill(-child.pid!, 'SIGTERM');
  } catch {
    return;
  }
  const t = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }, 3000);
  await exited;
  clearTimeout(t);
}

/** Kills every server still running (its process group) and removes the bench's directory. */
export function cleanup() {
  for (const c of children) {
    try {
      process.kill(-c.pid!, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
  children.clear();
  rmSync(tmp, { recursive: true, force: true });
}
process.on('SIGINT', () => {
  cleanup();
  process.exit(130);
});

export interface HttpResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One HTTP request on a fresh connection. */
export function http(port: number, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Polls every 2 ms until `path` answers 200; resolves with ms since `t0`. */
export async function firstAnswer(child: ChildProcess, port: number, path: string, t0: number, timeoutMs = 120_000): Promise<number> {
  for (;;) {
    if (!children.has(child)) throw new Error('server exited before answering');
    try {
      const r = await http(port, 'GET', path, AUTH);
      if (r.status === 200) return performance.now() - t0;
    } catch {
      /* already gone */
    }
    if (performance.now() - t0 > timeoutMs) throw new Error(`no answer on port ${port} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 2));
  }
}
