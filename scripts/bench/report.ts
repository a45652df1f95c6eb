/**
 * The report of `npm run bench` (scripts/bench.ts): the tables of the
 * sections run, then one PASS/MISS line per target. It asserts nothing.
 */
import { formatMediaReport, type MediaReport } from '../bench-media.ts';
import { formatSpeechReport, type SpeechReport } from '../bench-speech.ts';
import type { StoreReport } from '../bench-store.ts';
import { fmt, median, table } from '../bench-util.ts';
import type { coldStart } from './cold.ts';
import { CONNECTIONS, type Throughput } from './throughput.ts';

/** What the sections measured (undefined or empty: not run). */
export interface BenchFigures {
  http?: Throughput;
  cold: Awaited<ReturnType<typeof coldStart>>;
  store?: StoreReport;
  media?: MediaReport;
  speech?: SpeechReport;
  /** Prism was run (`--no-prism` leaves it out, and its targets with it). */
  prism: boolean;
}

/** The throughput table: each server's requests per second and p50/p99, and the mock's ratios to each. */
function throughputLines(t: Throughput): string[] {
  const { cells, agg, bodies } = t;
  const rows: string[][] = [];
  for (const { route, connections } of cells) {
    const m = agg('mock', route, connections);
    const pr = agg('prism', route, connections);
    const b = agg('bare', route, connections);
    const n = agg('node', route, connections);
    rows.push([
      `${route.method} ${route.method === 'GET' ? 'tasks/{id}' : 'generate'}`,
      String(connections),
      fmt(m.rps),
      `${m.p50}/${m.p99}`,
      fmt(pr.rps),
      `${pr.p50}/${pr.p99}`,
      fmt(b.rps),
      `${b.p50}/${b.p99}`,
      fmt(n.rps),
      `${n.p50}/${n.p99}`,
      `${fmt(m.rps / pr.rps, 2)}x`,
      `${fmt((100 * m.rps) / b.rps)}%`,
      fmt(m.rps / n.rps, 2),
      `${fmt(m.p99 / n.p99, 2)}x`,
      String(m.bad + pr.bad + b.bad + n.bad),
    ]);
  }
  return [
    '== Throughput (autocannon, median of rounds) ==',
    `mock: node ${t.cli} (the installed command's code) --clock manual --no-rate-limit --quiet (rate limiter OFF: with it on, most creates would be 429)`,
    `prism: prism mock spec/openapi.yaml (static mode, default logging to /dev/null); bare: Express 5 returning the mock's bytes (GET ${bodies.get} B, POST ${bodies.post} B)`,
    "node: a bare node:http server returning the same bytes, reading the POST body whole and parsing it as JSON (the machine's ceiling)",
    'each server a child process; autocannon in the bench process, alone on its event loop; 2 cores: one for the server, one for the load',
    'the mock is reset (POST /__mock/reset, then the GET task recreated: same id, same bytes) before each of its runs, so the tasks',
    'created by one POST run (about 20,000) do not slow the next runs through GC; the 100,000-task section measures a big store',
    table(
      [
        'route',
        'conns',
        'mock req/s',
        'p50/p99 ms',
        'prism req/s',
        'p50/p99 ms',
        'Express req/s',
        'p50/p99 ms',
        'node:http req/s',
        'p50/p99 ms',
        'mock/prism',
        'mock/Express',
        'mock/node:http',
        'p99 mock/node',
        'non-2xx+err',
      ],
      rows,
    ),
  ];
}

/** The tables of the sections run, one block each. */
export function reportTables(f: BenchFigures): string[] {
  const out: string[] = [];
  const p = (s = '') => out.push(s);
  if (f.http) {
    p('');
    for (const l of throughputLines(f.http)) p(l);
  }
  if (f.cold.length) {
    p('');
    p('== Cold start: spawn to first 200 on GET /v1/user/subscription (median of runs, ms) ==');
    p(
      table(
        ['command', 'median', 'min', 'max', 'note'],
        f.cold.map((c) => [c.name, fmt(median(c.ms)), fmt(Math.min(...c.ms)), fmt(Math.max(...c.ms)), c.note]),
      ),
    );
  }
  const store = f.store;
  if (store) {
    p('');
    p(
      `== ${fmt(store.tasks)} stored tasks (one account; seeded in ${fmt(store.seedMs)} ms; heapUsed ${store.heapUsedMB} MB (was ${store.heapUsedBeforeMB}), RSS ${store.rssMB} MB (was ${store.rssBeforeMB})) ==`,
    );
    p(`slowest single creates while seeding (task number: ms): ${store.slowestCreates.map((c) => `#${fmt(c.task)}: ${c.ms}`).join(', ')}`);
    p(
      table(
        ['list page', 'query', 'items', 'total', 'HTTP p50/p99 ms', 'in-process p50/p99 ms'],
        store.pages.map((pg) => [
          pg.name,
          pg.query,
          String(pg.items),
          fmt(pg.total),
          `${pg.httpP50Ms}/${pg.httpP99Ms}`,
          `${pg.inProcessP50Ms}/${pg.inProcessP99Ms}`,
        ]),
      ),
    );
  }
  if (f.media) {
    p('');
    for (const l of formatMediaReport(f.media)) p(l);
  }
  if (f.speech) {
    p('');
    for (const l of formatSpeechReport(f.speech)) p(l);
  }
  return out;
}

/** One PASS/MISS line per target of the sections run. */
export function reportTargets(f: BenchFigures): string[] {
  const out: string[] = ['', '== Targets =='];
  const line = (ok: boolean, what: string, detail: string) => out.push(`${ok ? 'PASS' : 'MISS'}  ${what}: ${detail}`);
  const routes = f.http?.routes ?? [];
  const agg = f.http ? f.http.agg : () => ({ rps: NaN, p50: NaN, p99: NaN, bad: 0 });
  if (f.prism)
    for (const route of routes) {
      const ratios = CONNECTIONS.map((c) => agg('mock', route, c).rps / agg('prism', route, c).rps);
      line(Math.min(...ratios) >= 2.5, `mock >= 2.5x Prism, ${route.method}`, CONNECTIONS.map((c, i) => `c=${c} ${fmt(ratios[i], 2)}x`).join(', '));
    }
  for (const route of routes) {
    const ratios = CONNECTIONS.map((c) => agg('mock', route, c).rps / agg('bare', route, c).rps);
    line(Math.min(...ratios) >= 0.6, `mock >= 60% of bare Express, ${route.method}`, CONNECTIONS.map((c, i) => `c=${c} ${fmt(100 * ratios[i])}%`).join(', '));
  }
  // p99 at 100 connections against bare Express's on the same run (an absolute figure would measure the machine:
  // bare Express's own p99 there is about 17-30 ms on 2 cores, from one day to the next)
  for (const route of routes) {
    const mock = agg('mock', route, 100).p99;
    const bare = agg('bare', route, 100).p99;
    line(
      mock <= 1.5 * bare,
      `mock p99 <= 1.5x bare Express's at 100 connections, ${route.method}`,
      `${mock} ms, ${fmt(mock / bare, 2)}x (bare Express ${bare} ms${f.prism ? `, Prism ${agg('prism', route, 100).p99} ms` : ''})`,
    );
  }
  // the machine's ceiling: a bare node:http server answering the same bytes (GET at least 0.35 of it, POST 0.25)
  for (const route of routes) {
    const floor = route.method === 'GET' ? 0.35 : 0.25;
    const ratios = CONNECTIONS.map((c) => agg('mock', route, c).rps / agg('node', route, c).rps);
    line(
      Math.min(...ratios) >= floor,
      `mock >= ${floor} of bare node:http, ${route.method}`,
      CONNECTIONS.map((c, i) => `c=${c} ${fmt(ratios[i], 2)}`).join(', '),
    );
  }
  // In a closed loop of c connections each server's mean latency is c / its rate (Little's law), so this ratio is the
  // inverse of the rate ratio times the ratio of the tails (p99 / mean): the detail gives both factors.
  for (const route of routes) {
    const m = agg('mock', route, 100);
    const n = agg('node', route, 100);
    const meanMs = (rps: number) => (1000 * 100) / rps;
    line(
      m.p99 <= 2 * n.p99,
      `mock p99 <= 2x bare node:http's at 100 connections, ${route.method}`,
      `${m.p99} ms, ${fmt(m.p99 / n.p99, 2)}x (node:http ${n.p99} ms); mean latency (100 / rate) ${fmt(n.rps / m.rps, 2)}x node:http's, p99 / mean ${fmt(m.p99 / meanMs(m.rps), 2)} (node:http ${fmt(n.p99 / meanMs(n.rps), 2)})`,
    );
  }
  const cold = f.cold;
  for (const c of cold.filter((c) => c.target))
    line(
      median(c.ms) < 400,
      `cold start < 400 ms, ${c.name}`,
      `median ${fmt(median(c.ms))} ms${f.prism ? ` (Prism ${fmt(median(cold[cold.length - 1].ms))} ms)` : ''}`,
    );
  const store = f.store;
  if (store)
    for (const [what, pages] of [
      ['unfiltered', store.pages.filter((pg) => !pg.query.includes('status='))],
      ['status-filtered', store.pages.filter((pg) => pg.query.includes('status='))],
    ] as const) {
      const worst = Math.max(...pages.map((pg) => pg.httpP50Ms));
      line(
        worst < 5,
        `${fmt(store.tasks)} tasks, ${what} list pages < 5 ms (HTTP, median)`,
        pages.map((pg) => `${pg.name} ${pg.httpP50Ms} ms (in-process ${pg.inProcessP50Ms} ms)`).join(', '),
      );
    }
  const media = f.media;
  if (media) {
    for (const [what, match] of [
      ['a 10-minute MP3', 'audio mp3, 10 min'],
      ['a 60-second 1080p video', 'MP4 1920x1080 60 s'],
      ['a 4K PNG', 'PNG 4096x4096'],
    ] as const) {
      const r = media.renders.find((x) => x.what.startsWith(match))!;
      line(r.medianMs < 50, `render < 50 ms, ${what}`, `median ${r.medianMs} ms, first (cold) ${r.firstMs} ms`);
    }
    for (const h of media.http)
      line(h.cachedMedianMs < 50, `served from the cache < 50 ms, ${h.what}`, `first request ${h.firstMs} ms, later ${h.cachedMedianMs} ms`);
    const api = media.apiUnderImageLoad;
    line(
      api.p99 < 50,
      'API p99 < 50 ms while 10 clients load a 4K image',
      `p50/p99 ${api.p50}/${api.p99} ms (idle ${media.apiIdle.p50}/${media.apiIdle.p99} ms)`,
    );
  }
  return out;
}
