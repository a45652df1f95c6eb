/**
 * The throughput section of `npm run bench` (scripts/bench.ts): the mock,
 * Prism, a bare Express 5 app (scripts/bench-bare.ts) and a bare `node:http`
 * server (scripts/bench-node.ts) answering the same bytes, each its own child
 * process, loaded one at a time by autocannon in the bench's process, in
 * interleaved rounds: for each round, for each (route, connections), mock then
 * Prism then bare Express then bare node:http. The mock is reset before each of
 * its runs (same seed: the same task id and bytes).
 */
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { operations } from '../../schemas/operations.ts';
import { expressPath } from '../../mock/http/dispatcher.ts';
import type { BareFixtures } from '../bench-bare.ts';
import { fmt, freePort, lpad, median, pad } from '../bench-util.ts';
import { AUTH, CREATE_BODY, firstAnswer, http, KEY, log, NODE, PRISM_CLI, spawnServer, stop, tmp, type HttpResult } from './processes.ts';

const GET_PATH = operations.getVideoTask.path;
const CREATE_PATH = operations.createVideoTask.path;
/** The connection counts every route is loaded with. */
export const CONNECTIONS = [10, 100];

export type ServerName = 'mock' | 'prism' | 'bare' | 'node';
interface Target {
  name: ServerName;
  port: number;
  child: ChildProcess;
}
export interface Route {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

/** Starts the servers (Prism's unless `prism` is false), captures the mock's answers for the bare ones, and checks they give the same bytes. */
async function startServers(
  prism: boolean,
  cli: string,
): Promise<{ servers: Target[]; routes: Route[]; bodies: Record<string, number>; resetMock: () => Promise<void> }> {
  const accountsFile = join(tmp, 'accounts.json');
  writeFileSync(accountsFile, JSON.stringify([{ apiKey: KEY, credits: 1_000_000_000_000 }]));
  const mockPort = await freePort();
  // the installed command's code (`npm run bench` bundles it first): what users run
  const mock = spawnServer(NODE, [cli, '--port', String(mockPort), '--clock', 'manual', '--no-rate-limit', '--quiet', '--accounts', accountsFile]);
  const prismPort = await freePort();
  const prismChild = prism ? spawnServer(NODE, [PRISM_CLI, 'mock', 'spec/openapi.yaml', '-p', String(prismPort)]) : undefined;
  await firstAnswer(mock, mockPort, '/v1/user/subscription', performance.now());
  if (prismChild) await firstAnswer(prismChild, prismPort, '/v1/user/subscription', performance.now());

  // Capture the mock's answers: a create (the POST fixture) and a GET of the created task.
  const jsonHeaders = { ...AUTH, 'content-type': 'application/json' };
  const created = await http(mockPort, 'POST', CREATE_PATH, jsonHeaders, CREATE_BODY);
  if (created.status !== 200) throw new Error(`mock create: HTTP ${created.status} ${created.body.toString()}`);
  const taskId = (JSON.parse(created.body.toString()) as { data: { taskId: string } }).data.taskId;
  const getPath = GET_PATH.replace('{taskId}', taskId);
  const got = await http(mockPort, 'GET', getPath, AUTH);
  if (got.status !== 200) throw new Error(`mock get: HTTP ${got.status} ${got.body.toString()}`);
  const keep = (h: HttpResult['headers']) =>
    Object.fromEntries(
      Object.entries(h)
        .filter(([k]) => !['date', 'connection', 'keep-alive'].includes(k))
        .map(([k, v]) => [k, String(v)]),
    );
  const barePort = await freePort();
  const fixtures: BareFixtures = {
    port: barePort,
    routes: [
      { method: 'get', path: expressPath(GET_PATH), status: got.status, headers: keep(got.headers), bodyBase64: got.body.toString('base64') },
      { method: 'post', path: expressPath(CREATE_PATH), status: created.status, headers: keep(created.headers), bodyBase64: created.body.toString('base64') },
    ],
  };
  const fixturesFile = join(tmp, 'bare.json');
  writeFileSync(fixturesFile, JSON.stringify(fixtures));
  const bare = spawnServer(NODE, ['--import', 'tsx', 'scripts/bench-bare.ts', fixturesFile]);
  await firstAnswer(bare, barePort, getPath, performance.now());
  const check = await http(barePort, 'GET', getPath);
  if (!check.body.equals(got.body)) throw new Error('bare server body differs from the mock');
  // the same answers from a bare node:http server (its own port)
  const nodePort = await freePort();
  const nodeFixturesFile = join(tmp, 'node.json');
  writeFileSync(nodeFixturesFile, JSON.stringify({ ...fixtures, port: nodePort }));
  const bareNode = spawnServer(NODE, ['--import', 'tsx', 'scripts/bench-node.ts', nodeFixturesFile]);
  await firstAnswer(bareNode, nodePort, getPath, performance.now());
  for (const [method, path, body, expected] of [
    ['GET', getPath, undefined, got],
    ['POST', CREATE_PATH, CREATE_BODY, created],
  ] as const) {
    const r = await http(nodePort, method, path, jsonHeaders, body);
    if (!r.body.equals(expected.body) || r.status !== expected.status) throw new Error(`bare node:http ${method} answer differs from the mock`);
  }

  /** Drops the mock's state and recreates the GET task: same seed, so the same id and the same bytes. */
  async function resetMock() {
    const r = await http(mockPort, 'POST', '/__mock/reset', { 'content-type': 'application/json' }, '{}');
    if (r.status !== 200) throw new Error(`mock reset: HTTP ${r.status} ${r.body.toString()}`);
    await http(mockPort, 'POST', CREATE_PATH, jsonHeaders, CREATE_BODY);
    const again = await http(mockPort, 'GET', getPath, AUTH);
    if (!again.body.equals(got.body)) throw new Error(`mock GET after reset differs: ${again.body.toString()}`);
  }

  return {
    servers: [
      { name: 'mock', port: mockPort, child: mock },
      ...(prismChild ? [{ name: 'prism' as const, port: prismPort, child: prismChild }] : []),
      { name: 'bare', port: barePort, child: bare },
      { name: 'node', port: nodePort, child: bareNode },
    ],
    routes: [
      { name: `GET ${GET_PATH}`, method: 'GET', path: getPath },
      { name: `POST ${CREATE_PATH}`, method: 'POST', path: CREATE_PATH, body: CREATE_BODY },
    ],
    bodies: { get: got.body.length, post: created.body.length },
    resetMock,
  };
}

/** One autocannon run: requests per second, latency percentiles (ms), failures. */
export interface Run {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

/** One autocannon run of `seconds` against `port`. */
async function load(port: number, route: Route, connections: number, seconds: number): Promise<Run> {
  const r = await autocannon({
    url: `http://127.0.0.1:${port}${route.path}`,
    method: route.method,
    headers: route.body ? { ...AUTH, 'content-type': 'application/json' } : AUTH,
    body: route.body,
    connections,
    duration: seconds,
  });
  return { rps: r.requests.total / r.duration, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors };
}

/** The throughput figures: the routes loaded, the answers' sizes, the (route, connections) cells, and the median of each server's runs in a cell. */
export interface Throughput {
  /** The mock's build (dist/cli.js unless --cli). */
  cli: string;
  routes: Route[];
  bodies: Record<string, number>;
  cells: { route: Route; connections: number }[];
  agg: (s: ServerName, route: Route, connections: number) => { rps: number; p50: number; p99: number; bad: number };
}

/** Runs the section: `rounds` interleaved rounds of `seconds` per (route, connections, server); the mock is `cli` (dist/cli.js, or another build). */
export async function throughput(rounds: number, seconds: number, prism: boolean, cli = 'dist/cli.js'): Promise<Throughput> {
  const results = new Map<string, Run[]>();
  const keyOf = (s: ServerName, route: Route, c: number) => `${s} ${route.method} ${c}`;
  log(`throughput: starting mock${prism ? ', Prism' : ''}, bare Express and bare node:http...`);
  const { servers, resetMock, routes, bodies } = await startServers(prism, cli);
  const cells = routes.flatMap((route) => CONNECTIONS.map((connections) => ({ route, connections })));
  // Warm-up: JIT and connection set-up of every server on every route.
  for (const route of routes) for (const s of servers) await load(s.port, route, 10, 1);
  for (let round = 0; round < rounds; round++) {
    for (const { route, connections } of cells) {
      for (const s of servers) {
        if (s.name === 'mock') await resetMock();
        const run = await load(s.port, route, connections, seconds);
        const k = keyOf(s.name, route, connections);
        results.set(k, [...(results.get(k) ?? []), run]);
        log(
          `  round ${round + 1}/${rounds}  ${pad(s.name, 5)} ${pad(route.method, 4)} c=${pad(String(connections), 3)}  ${lpad(fmt(run.rps), 7)} req/s  p50 ${run.p50} ms  p99 ${run.p99} ms${run.non2xx || run.errors ? `  non-2xx ${run.non2xx} errors ${run.errors}` : ''}`,
        );
      }
    }
  }
  for (const s of servers) await stop(s.child);
  const agg = (s: ServerName, route: Route, c: number) => {
    const runs = results.get(keyOf(s, route, c)) ?? [];
    return {
      rps: median(runs.map((r) => r.rps)),
      p50: median(runs.map((r) => r.p50)),
      p99: median(runs.map((r) => r.p99)),
      bad: runs.reduce((a, r) => a + r.non2xx + r.errors, 0),
    };
  };
  return { cli, routes, bodies, cells, agg };
}
