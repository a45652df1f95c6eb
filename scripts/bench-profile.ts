/**
 * A CPU profile of the mock's request path: starts the mock as `npm run bench`
 * does (dist/cli.js, the installed command's code: run `npm run bundle` first;
 * `--clock manual --no-rate-limit --quiet`, a preloaded account) under
 * `node --cpu-prof` (sampling every 200 µs, five times the default, so that a
 * function of a microsecond per request gets a few hundred samples), loads one
 * route with autocannon from this process, stops the mock (its profile is
 * written at exit) and prints the functions with the most self time.
 *
 *   tsx scripts/bench-profile.ts [--route post|get] [--duration 5] [--connections 10] [--top 30] [--out DIR] [--no-profile] [--trace-gc] [--server mock|bare|node] [--cli dist/cli.js]
 *
 * The profile (.cpuprofile, for Chrome DevTools or speedscope) stays in DIR
 * (default: a temporary directory, printed). With --no-profile the mock runs
 * without the profiler and only the throughput and CPU per request are printed.
 * With --server bare the load goes to the bare Express server of `npm run bench`
 * (scripts/bench-bare.ts, answering the mock's captured body bytes, with a
 * Content-Type and no other header) instead: its CPU per request is the ceiling
 * the mock is measured against; with --server node, the bare node:http server
 * (scripts/bench-node.ts, which also parses the POST body), the machine's.
 * --cli runs another build of the mock (a copy of an earlier dist/, to compare
 * two versions interleaved on a shared machine). --trace-gc runs the server
 * under `node --trace-gc-nvp` and prints its garbage collections while the
 * load lasted (scripts/bench-gc.ts): pauses by kind, the longest, the bytes
 * allocated and promoted per request.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { operations } from '../schemas/operations.ts';
import { freePort } from './bench-util.ts';
import { expressPath } from '../mock/http/dispatcher.ts';
import type { BareFixtures, BareRoute } from './bench-bare.ts';
import { GcLog } from './bench-gc.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values: argv } = parseArgs({
  options: {
    route: { type: 'string', default: 'post' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10' },
    top: { type: 'string', default: '30' },
    out: { type: 'string' },
    'no-profile': { type: 'boolean', default: false },
    server: { type: 'string', default: 'mock' },
    cli: { type: 'string', default: 'dist/cli.js' },
    'trace-gc': { type: 'boolean', default: false },
  },
});
const KEY = 'mg_bench_secret1';
const AUTH = { authorization: `Bearer ${KEY}` };
const CREATE_BODY = JSON.stringify({ model: 'family1-video-2-fast', content: [{ type: 'text', text: 'a cat on a skateboard, golden hour' }], duration: 5 });

/** A status and a body text. */
interface HttpResult {
  status: number;
  text: string;
}

/** One request on a fresh connection: status and body text. */
function http(port: number, method: string, path: string, headers: Record<string, string>, body?: string): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** CPU time (user + system, ms) process `pid` has used so far, from /proc (Linux; NaN elsewhere). */
function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return NaN;
  }
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

/** The `top` call frames by self time (share of all samples), from a .cpuprofile. */
export function topSelf(file: string, top: number): string[] {
  const prof = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[] };
  const byFrame = new Map<string, number>();
  let total = 0;
  for (const n of prof.nodes) {
    const hits = n.hitCount ?? 0;
    total += hits;
    const url = n.callFrame.url.replace(/^file:\/\//, '');
    const where = url ? `${url.startsWith(ROOT) ? relative(ROOT, url) : url}:${n.callFrame.lineNumber + 1}` : '';
    const key = `${n.callFrame.functionName || '(anonymous)'} ${where}`.trim();
    byFrame.set(key, (byFrame.get(key) ?? 0) + hits);
  }
  return [...byFrame]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([k, h]) => `${((100 * h) / total).toFixed(1).padStart(5)}%  ${k}`);
}

/** Starts scripts/bench-bare.ts (or bench-node.ts: `script`) answering the mock's captured create and get (as `npm run bench` does). */
async function startBare(mockPort: number, created: HttpResult, got: HttpResult, script: string) {
  const port = await freePort();
  const route = (method: 'get' | 'post', path: string, a: HttpResult): BareRoute => ({
    method,
    path: expressPath(path),
    status: a.status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    bodyBase64: Buffer.from(a.text).toString('base64'),
  });
  const fixtures: BareFixtures = { port, routes: [route('get', operations.getVideoTask.path, got), route('post', operations.createVideoTask.path, created)] };
  const file = join(mkdtempSync(join(tmpdir(), 'mg-bare-')), 'bare.json');
  writeFileSync(file, JSON.stringify(fixtures));
  const prof = argv['no-profile'] ? [] : ['--cpu-prof', '--cpu-prof-dir', join(argv.out ?? tmpdir(), 'bare')];
  const bare = spawn(process.execPath, [...prof, ...gcFlags, '--import', 'tsx', script, file], {
    cwd: ROOT,
    stdio: ['ignore', gc ? 'pipe' : 'ignore', 'inherit'],
  });
  if (gc) gc.follow(bare.stdout!);
  const exited = new Promise<void>((r) => bare.once('exit', () => r()));
  for (let i = 0; ; i++) {
    try {
      if ((await http(port, 'GET', '/', {})).status > 0) break;
    } catch {
      if (i > 3000) throw new Error(`${script} did not start (mock on ${mockPort})`);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  return {
    port,
    pid: bare.pid!,
    stop: async () => {
      bare.kill('SIGTERM');
      await exited;
    },
  };
}

const gc = argv['trace-gc'] ? new GcLog() : undefined;
const gcFlags = gc ? ['--trace-gc-nvp'] : [];

async function main() {
  const out = argv.out ?? mkdtempSync(join(tmpdir(), 'mg-profile-'));
  mkdirSync(out, { recursive: true });
  const accountsFile = join(out, 'accounts.json');
  writeFileSync(accountsFile, JSON.stringify([{ apiKey: KEY, credits: 1_000_000_000_000 }]));
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      ...(argv['no-profile'] ? [] : ['--cpu-prof', '--cpu-prof-interval', '200', '--cpu-prof-dir', out]),
      ...(argv.server === 'mock' ? gcFlags : []),
      argv.cli,
      '--port',
      String(port),
      '--clock',
      'manual',
      '--no-rate-limit',
      '--quiet',
      '--accounts',
      accountsFile,
    ],
    { cwd: ROOT, stdio: ['ignore', gc && argv.server === 'mock' ? 'pipe' : 'ignore', 'inherit'] },
  );
  if (gc && argv.server === 'mock') gc.follow(child.stdout!);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  for (let i = 0; ; i++) {
    try {
      if ((await http(port, 'GET', '/v1/user/subscription', AUTH)).status === 200) break;
    } catch {
      if (i > 3000) throw new Error('the mock did not start');
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  const json = { ...AUTH, 'content-type': 'application/json' };
  const created = await http(port, 'POST', operations.createVideoTask.path, json, CREATE_BODY);
  const taskId = (JSON.parse(created.text) as { data: { taskId: string } }).data.taskId;
  const post = argv.route === 'post';
  const getPath = operations.getVideoTask.path.replace('{taskId}', taskId);
  let target = { port, pid: child.pid!, stop: async () => {} };
  if (argv.server === 'bare' || argv.server === 'node')
    target = await startBare(port, created, await http(port, 'GET', getPath, AUTH), `scripts/bench-${argv.server}.ts`);
  const cpu0 = cpuMs(target.pid);
  gc?.start();
  const r = await autocannon({
    url: `http://127.0.0.1:${target.port}${post ? operations.createVideoTask.path : getPath}`,
    method: post ? 'POST' : 'GET',
    headers: post ? json : AUTH,
    body: post ? CREATE_BODY : undefined,
    connections: Number(argv.connections),
    duration: Number(argv.duration),
  });
  const cpu = cpuMs(target.pid) - cpu0;
  gc?.stop();
  await target.stop();
  child.kill('SIGTERM');
  await exited;
  const head = `${argv.server} ${post ? 'POST' : 'GET'} c=${argv.connections}: ${Math.round(r.requests.total / r.duration)} req/s, p50/p99 ${r.latency.p50}/${r.latency.p99} ms, non-2xx ${r.non2xx}; server CPU ${Math.round((1000 * cpu) / r.requests.total)} µs per request`;
  const gcLines = gc ? [...gc.report(r.requests.total), ''] : [];
  if (argv['no-profile'] || argv.server !== 'mock') return void process.stdout.write([head, ...gcLines].join('\n') + (gc ? '' : '\n'));
  const file = readdirSync(out).find((f) => /\.0\.\d+\.cpuprofile$/.test(f)); // thread 0: the main thread (tsx's loader is another);
  if (!file) throw new Error(`no profile in ${out}`);
  process.stdout.write(
    [
      `${head} (under the profiler)`,
      ...gcLines,
      `profile: ${join(out, file)}`,
      'self time  function  file:line',
      ...topSelf(join(out, file), Number(argv.top)),
      '',
    ].join('\n'),
  );
}

await main();
