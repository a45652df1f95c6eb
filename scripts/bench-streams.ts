/**
 * `npx tsx scripts/bench-streams.ts`: what open event streams cost the API.
 * Starts the mock as a child (`--clock manual --no-rate-limit --quiet`,
 * `--max-streams` above the count), measures GET /v1/user/subscription with
 * autocannon (10 connections), then opens `--streams` podcast text streams
 * (default 3,000, over 30 episodes, each on its own connection) and measures
 * again, in interleaved rounds (the median of each). Target: the streams cost
 * less than 10% of the throughput.
 *
 *   npx tsx scripts/bench-streams.ts [--streams 3000] [--duration 5] [--rounds 3] [--root DIR]
 *
 * `--root` runs the mock of another checkout (say, an older commit, which
 * has no --max-streams) for a before-and-after figure.
 */
import { spawn } from 'node:child_process';
import { request, type ClientRequest } from 'node:http';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

const { values } = parseArgs({
  options: {
    streams: { type: 'string', default: '3000' },
    duration: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    root: { type: 'string' },
  },
});
const ROUNDS = Number(values.rounds);
const STREAMS = Number(values.streams);
const DURATION = Number(values.duration);
const ROOT = values.root ?? join(dirname(fileURLToPath(import.meta.url)), '..');
const KEY = 'mg_bench_secret1';

const port = await new Promise<number>((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const p = (s.address() as { port: number }).port;
    s.close(() => resolve(p));
  });
});
const child = spawn(
  process.execPath,
  [
    'bin/mediagen-mock.js',
    '--port',
    String(port),
    '--clock',
    'manual',
    '--no-rate-limit',
    '--quiet',
    ...(values.root ? [] : ['--max-streams', String(STREAMS + 100)]),
  ],
  { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] },
);
// the child goes with this process, whatever ends it
process.on('exit', () => child.kill('SIGKILL'));
const base = `http://127.0.0.1:${port}`;
for (const t0 = Date.now(); ; await new Promise((r) => setTimeout(r, 100))) {
  if ((await fetch(`${base}/__mock/health`).catch(() => undefined))?.status === 200) break;
  if (Date.now() - t0 > 30_000) throw new Error('the mock did not start');
}
const auth = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };

async function throughput(label: string): Promise<number> {
  const r = await autocannon({ url: `${base}/v1/user/subscription`, headers: auth, connections: 10, duration: DURATION });
  const rps = r.requests.average;
  console.log(`${label}: ${rps.toFixed(0)} req/s (p99 ${r.latency.p99} ms, errors ${r.errors + r.non2xx})`);
  return rps;
}

await throughput('warm-up');

const episodes: string[] = [];
for (let i = 0; i < 30; i++) {
  const r = (await (
    await fetch(`${base}/v1/podcast/episodes`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ query: `bench ${i}`, speakers: [{ speakerId: 'en_ava' }, { speakerId: 'en_noah' }] }),
    })
  ).json()) as { data?: { episodeId: string } };
  if (!r.data) throw new Error(`could not create an episode: ${JSON.stringify(r)}`);
  episodes.push(r.data.episodeId);
}

/** Opens STREAMS podcast text streams, each on its own connection; resolves when every one answered 200. */
async function openStreams(): Promise<ClientRequest[]> {
  const open: ClientRequest[] = [];
  await Promise.all(
    Array.from(
      { length: STREAMS },
      (_, i) =>
        new Promise<void>((resolve, reject) => {
          const req = request(
            { host: '127.0.0.1', port, path: `/v1/podcast/episodes/${episodes[i % episodes.length]}/text-stream?event=script`, headers: auth, agent: false },
            (res) => {
              if (res.statusCode !== 200) return reject(new Error(`stream ${i}: ${res.statusCode}`));
              res.resume();
              resolve();
            },
          );
          req.on('error', reject);
          req.end();
          open.push(req);
        }),
    ),
  );
  return open;
}

// interleaved rounds (the machine may be shared): without streams, with them, the median of each
const without: number[] = [];
const withStreams: number[] = [];
for (let round = 1; round <= ROUNDS; round++) {
  without.push(await throughput(`round ${round}, no streams`));
  const open = await openStreams();
  withStreams.push(await throughput(`round ${round}, ${open.length} streams open`));
  for (const r of open) r.destroy();
  await new Promise((r) => setTimeout(r, 1000));
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const [before, during] = [median(without), median(withStreams)];
console.log(
  `median ${before.toFixed(0)} req/s without streams, ${during.toFixed(0)} with ${STREAMS}: the streams cost ${(((before - during) / before) * 100).toFixed(1)}% of the throughput (target: under 10%)`,
);
child.kill('SIGKILL');
process.exit(0);
