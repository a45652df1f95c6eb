/**
 * The "100,000 stored tasks" part of `npm run bench`, run by
 * scripts/bench.ts as its own process (so its heap does not skew the
 * throughput runs):
 *
 *   node --expose-gc --import tsx scripts/bench-store.ts [tasks]
 *
 * Builds an in-process mock (manual clock, rate limits off), seeds the tasks by
 * calling the createVideoTask handler directly (the same code path as HTTP minus
 * parsing), advancing the clock between batches so the tasks end up in every
 * status (success, uploading, generating, and 1 in 10 failed), then times list
 * pages (first page, deepest page, status filters) through HTTP and in-process,
 * and measures memory. Prints one JSON object (StoreReport) on stdout.
 */
import type { AddressInfo } from 'node:net';
import { request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { createMockServer } from '../mock/http/app.ts';
import { composeServices, type HandlerInput } from '../mock/services/index.ts';

const handlers = composeServices().handlers;
import type { ServiceContext } from '../mock/services/context.ts';
import { ApiError } from '../mock/engine/api-error.ts';
import type { ErrorName } from '../schemas/errors.ts';
import { operations } from '../schemas/operations.ts';

/** Timing of one kind of list page. */
export interface PageTiming {
  name: string;
  query: string;
  items: number;
  total: number;
  httpP50Ms: number;
  httpP99Ms: number;
  inProcessP50Ms: number;
  inProcessP99Ms: number;
}

/** What this script prints. */
export interface StoreReport {
  tasks: number;
  seedMs: number;
  heapUsedMB: number;
  rssMB: number;
  heapUsedBeforeMB: number;
  rssBeforeMB: number;
  pages: PageTiming[];
  /** The five slowest creates while seeding: the task's number (1-based) and its time, ms (a stall at a map's growth shows here; so does a garbage collection). */
  slowestCreates: { task: number; ms: number }[];
}

const N = Number(process.argv[2] ?? 100_000);
const KEY = 'mg_bench_secret1';
const REPS = 200;
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const mb = (n: number) => Math.round((n / 1024 / 1024) * 10) / 10;

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] * 1000) / 1000;
}

gc();
const before = process.memoryUsage();
const { app, engine } = createMockServer({
  clock: 'manual',
  seed: 1,
  rateLimit: false,
  strict: false,
  limits: { tasksPerKey: N * 2, tasks: N * 2, ledgerEntries: N * 10 },
});
engine.accounts.update(KEY, { credits: 1_000_000_000_000 }, engine.tick());
const account = engine.accounts.get(KEY, engine.tick());
const bodySchema = operations.createVideoTask.request.body.schema;
const url = (path: string) => `http://localhost:4010${path}`;
const fail = (error: ErrorName, message?: string) => new ApiError(error, message);
/** An API handler of the composition, as the runner calls it (its kind checked). */
function apiHandler(id: string) {
  const h = handlers[id];
  if (h?.kind !== 'api') throw new Error(`bench-store: ${id} is not an API operation of the composition`);
  return h.run;
}
const create = apiHandler('createVideoTask');

const t0 = performance.now();
const BATCHES = 10;
const slowest: { task: number; ms: number }[] = [];
for (let b = 0; b < BATCHES; b++) {
  for (let i = 0; i < N / BATCHES; i++) {
    const n = b * (N / BATCHES) + i;
    // A fresh parsed body per task (as HTTP would give), prompts all different.
    const body = bodySchema.parse({ model: 'family1-video-2-fast', content: [{ type: 'text', text: `a cat on a skateboard, take ${n}` }], duration: 5 });
    const ctx: ServiceContext<ErrorName> = {
      engine,
      account,
      now: engine.tick(),
      forcing: n % 10 === 0 ? { outcome: 'failed' } : {},
      operationId: 'createVideoTask',
      url,
      fail,
    };
    const s = performance.now();
    create({ body, params: {}, query: {} }, ctx);
    const ms = performance.now() - s;
    if (slowest.length < 5 || ms > slowest[4].ms) {
      slowest.push({ task: n + 1, ms: Math.round(ms * 100) / 100 });
      slowest.sort((a, b) => b.ms - a.ms);
      slowest.length = Math.min(slowest.length, 5);
    }
  }
  // 20 s of virtual time between batches: the oldest batches reach success, later ones stay generating.
  engine.advance(20_000);
}
const seedMs = Math.round(performance.now() - t0);
gc();
const after = process.memoryUsage();

const server = app.listen(0, '127.0.0.1');
await new Promise<void>((r) => server.once('listening', () => r()));
const port = (server.address() as AddressInfo).port;

function get(path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { authorization: `Bearer ${KEY}` } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

const pageSize = 20;
const listTasks = apiHandler('listVideoTasks');
const list = (input: HandlerInput, ctx: ServiceContext<ErrorName>) => listTasks(input, ctx) as { items: unknown[]; total: number };
const cases: { name: string; page: number; status?: string }[] = [
  { name: 'first page', page: 1 },
  { name: 'deepest page', page: N / pageSize },
  { name: 'status=failed, first page', page: 1, status: 'failed' },
  { name: 'status=success, deepest page', page: 0, status: 'success' },
  { name: 'status=generating, first page', page: 1, status: 'generating' },
];
const pages: PageTiming[] = [];
for (const c of cases) {
  const ctx: ServiceContext<ErrorName> = { engine, account, now: engine.tick(), forcing: {}, operationId: 'listVideoTasks', url, fail };
  if (c.page === 0) {
    const total = list({ body: undefined, params: {}, query: { page: 1, pageSize, status: c.status } }, ctx).total;
    c.page = Math.max(1, Math.ceil(total / pageSize));
  }
  const query = `page=${c.page}&pageSize=${pageSize}${c.status ? `&status=${c.status}` : ''}`;
  const http: number[] = [];
  const inproc: number[] = [];
  let items = 0;
  let total = 0;
  for (let i = 0; i < REPS; i++) {
    const s = performance.now();
    const r = await get(`/v1/video-generation/tasks?${query}`);
    http.push(performance.now() - s);
    if (r.status !== 200) throw new Error(`GET ?${query}: HTTP ${r.status} ${r.body.slice(0, 200)}`);
    if (i === 0) {
      const data = (JSON.parse(r.body) as { data: { items: unknown[]; total: number } }).data;
      items = data.items.length;
      total = data.total;
    }
    const s2 = performance.now();
    list({ body: undefined, params: {}, query: { page: c.page, pageSize, status: c.status } }, ctx);
    inproc.push(performance.now() - s2);
  }
  pages.push({
    name: c.name,
    query,
    items,
    total,
    httpP50Ms: pct(http, 50),
    httpP99Ms: pct(http, 99),
    inProcessP50Ms: pct(inproc, 50),
    inProcessP99Ms: pct(inproc, 99),
  });
}
server.close();

const report: StoreReport = {
  tasks: engine.store('video').size,
  seedMs,
  heapUsedMB: mb(after.heapUsed),
  rssMB: mb(after.rss),
  heapUsedBeforeMB: mb(before.heapUsed),
  rssBeforeMB: mb(before.rss),
  pages,
  slowestCreates: slowest,
};
process.stdout.write(JSON.stringify(report) + '\n');
process.exit(0);
