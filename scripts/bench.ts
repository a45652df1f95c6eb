/**
 * `npm run bench`: throughput and latency of the mock against
 * Prism (`prism mock spec/openapi.yaml`, static mode, as users run it), a bare
 * Express 5 app returning the same bytes (scripts/bench-bare.ts, the ceiling of
 * any Express mock) and a bare `node:http` server returning them, reading and
 * parsing the POST body (scripts/bench-node.ts, the machine's ceiling for any
 * Node server); cold start of the mock and of Prism; 100,000 stored tasks
 * (scripts/bench-store.ts); media render times, cached media and the API
 * beside media load (scripts/bench-media.ts); speech in words with espeak-ng
 * (scripts/bench-speech.ts). Prints the figures and one PASS/MISS line per
 * target; it asserts nothing (exit code 0 unless the bench itself breaks).
 *
 *   npm run bench [-- --duration 4 --rounds 3 --runs 5 --tasks 100000 --quick --only cold,http,store,media --no-prism --cli dist/cli.js]
 *
 * `--only` runs the sections named (default all): cold start, throughput (the
 * four servers), the stored tasks, media; the report and the targets are those
 * of the sections run. `--no-prism` leaves Prism out (its columns read NaN).
 * `--cli` loads another build of the mock in the throughput section (a copy of
 * an earlier dist/, with a node_modules link beside it: two versions compared
 * one run after the other).
 *
 * The sections live in scripts/bench/: the server processes (processes.ts),
 * cold start (cold.ts), throughput (throughput.ts), the report and its
 * targets (report.ts).
 *
 * Method:
 * - each server is its own child process (stdout to /dev/null, so no pipe is
 *   drained during a run); autocannon runs inside this process, which does
 *   nothing else while a run lasts. On 2 cores that gives one core to the server
 *   under test and one to the load generator; a separate autocannon child would
 *   only add a process doing the same thing.
 * - the four servers stay up together, but only one is loaded at a time;
 *   runs are interleaved: for each round, for each (route, connections), mock
 *   then Prism then bare Express then bare node:http. Figures are the median
 *   over rounds.
 * - the mock runs as the installed command does (dist/cli.js), with `--clock
 *   manual` (a fixed GET body, byte-identical to the bare server's) and
 *   `--no-rate-limit` (else most creates would be 429), with `--quiet` and an
 *   account preloaded with enough credits for every create.
 */
import { spawn } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { StoreReport } from './bench-store.ts';
import type { MediaReport } from './bench-media.ts';
import type { SpeechReport } from './bench-speech.ts';
import { fmt } from './bench-util.ts';
import { coldStart } from './bench/cold.ts';
import { cleanup, log, NODE, ROOT } from './bench/processes.ts';
import { reportTables, reportTargets, type BenchFigures } from './bench/report.ts';
import { throughput } from './bench/throughput.ts';

const { values: argv } = parseArgs({
  options: {
    duration: { type: 'string', default: '4' },
    rounds: { type: 'string', default: '3' },
    runs: { type: 'string', default: '5' },
    tasks: { type: 'string', default: '100000' },
    quick: { type: 'boolean', default: false },
    only: { type: 'string', default: 'cold,http,store,media,speech' },
    'no-prism': { type: 'boolean', default: false },
    cli: { type: 'string', default: 'dist/cli.js' },
  },
});
const DURATION = argv.quick ? 2 : Number(argv.duration);
const ROUNDS = argv.quick ? 1 : Number(argv.rounds);
const COLD_RUNS = argv.quick ? 2 : Number(argv.runs);
const TASKS = Number(argv.tasks);
const SECTIONS = new Set(argv.only.split(',').map((x) => x.trim()));
for (const x of SECTIONS)
  if (!['cold', 'http', 'store', 'media', 'speech'].includes(x)) throw new Error(`--only ${x}: the sections are cold, http, store, media and speech`);
const run = (section: string) => SECTIONS.has(section);
const PRISM = !argv['no-prism'];

/** Runs `script` (a section of its own, under tsx) and resolves with the JSON it prints. */
function jsonChild<T>(script: string, args: string[], nodeFlags: string[] = []): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const child = spawn(NODE, [...nodeFlags, '--import', 'tsx', script, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as T) : reject(new Error(`${script} exited ${code}`))));
  });
}

const loads = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

async function main() {
  const started = performance.now();
  log(`bench: ${cpus().length} cores (${cpus()[0]?.model.trim()}), Node ${process.version}, load average ${loads()}`);
  log(`bench: ${ROUNDS} interleaved round(s) of ${DURATION} s per (route, connections, server); ${COLD_RUNS} cold starts each`);
  const f: BenchFigures = { cold: [], prism: PRISM };
  if (run('cold')) {
    log('cold start...');
    f.cold = await coldStart(COLD_RUNS, PRISM);
  }
  if (run('http')) f.http = await throughput(ROUNDS, DURATION, PRISM, argv.cli);
  if (run('store')) {
    log(`store: ${fmt(TASKS)} tasks...`);
    f.store = await jsonChild<StoreReport>('scripts/bench-store.ts', [String(TASKS)], ['--expose-gc']);
  }
  if (run('media')) {
    log('media: render times and media over HTTP...');
    f.media = await jsonChild<MediaReport>('scripts/bench-media.ts', ['--json']);
  }
  if (run('speech')) {
    log('speech: espeak-ng renders and MP3 encodes...');
    f.speech = await jsonChild<SpeechReport>('scripts/bench-speech.ts', ['--json']);
  }
  const out = [
    ...reportTables(f),
    ...reportTargets(f),
    '',
    `bench took ${fmt((performance.now() - started) / 1000)} s; load average now ${loads()} (other processes on the machine skew every figure)`,
  ];
  process.stdout.write(out.join('\n') + '\n');
}

try {
  await main();
} finally {
  cleanup();
}
