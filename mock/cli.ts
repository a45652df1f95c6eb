/**
 * The `mediagen-mock` command. Flags are parsed with commander,
 * request lines are logged with morgan. Prints the base URL and a ready-to-use
 * API key; shuts down cleanly on SIGINT and SIGTERM.
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { Command, InvalidArgumentError, Option } from 'commander';
import morgan from 'morgan';
import { z } from 'zod';
import { plans } from '../schemas/plans.ts';
import { DEFAULT_SHARED_VIDEO_MODEL, DEFAULT_VIDEO_DURATION, videoPhases } from '../schemas/video.ts';
import { createMock } from './http/app.ts';
import { DEFAULT_START_TIME } from './engine/engine.ts';
import { preloadVideoMuxer } from './media/video.ts';

/** Real-mode speed at which a default video task (family1-video-2-fast, 5 s) finishes in about ten seconds. */
export const DEFAULT_SPEED = (() => {
  const p = videoPhases(DEFAULT_SHARED_VIDEO_MODEL, DEFAULT_VIDEO_DURATION);
  return (p.generatingMs + p.uploadingMs) / 10_000;
})();

const AccountsFile = z.array(
  z.strictObject({
    apiKey: z.string(),
    credits: z.number().int().min(0).optional(),
    plan: z.enum(plans).optional(),
    everPaid: z.boolean().optional(),
    freeUsages: z.record(z.string(), z.number().int().min(0)).optional(),
  }),
);

function int(name: string, min: number, max: number) {
  return (v: string) => {
    if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) throw new InvalidArgumentError(`${name} must be a whole number ${min}-${max}`);
    return Number(v);
  };
}

function latency(v: string): number | [number, number] {
  const m = /^(\d+)(?:-(\d+))?$/.exec(v);
  if (!m || (m[2] !== undefined && Number(m[2]) < Number(m[1]))) throw new InvalidArgumentError('latency must be <ms> or <min>-<max>, e.g. 50 or 20-200');
  return m[2] === undefined ? Number(m[1]) : [Number(m[1]), Number(m[2])];
}

function startTime(v: string): number {
  const t = Date.parse(v);
  if (Number.isNaN(t)) throw new InvalidArgumentError('start-time must be an ISO 8601 instant, e.g. 2026-01-01T00:00:00Z');
  return t;
}

function publicUrl(v: string): string {
  if (!/^https?:\/\/[^\s/]+(\/[^\s]*)?$/.test(v)) throw new InvalidArgumentError('public-url must be an http(s) URL, e.g. http://192.168.1.20:4010');
  return v.replace(/\/+$/, '');
}

function speed(v: string): number {
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('speed must be a positive number');
  return n;
}

const program = new Command()
  .name('mediagen-mock')
  .description('Stateful, deterministic mock of the Media Generation Service')
  .option('--port <port>', 'port to listen on', int('port', 0, 65535), 4010)
  .option('--host <host>', 'interface to bind', '127.0.0.1')
  .option('--seed <n>', 'seed of every generated id and value', int('seed', 0, 4294967295), 1)
  .addOption(
    new Option('--clock <mode>', 'real: follows wall time x speed; manual: moves only with POST /__mock/clock/advance')
      .choices(['real', 'manual'])
      .default('real'),
  )
  .option('--speed <x>', `real mode: virtual ms per wall ms (default: a default video task takes about 10 s)`, speed, DEFAULT_SPEED)
  .option('--start-time <iso>', 'clock start instant', startTime, DEFAULT_START_TIME)
  .option('--accounts <file>', 'JSON array of accounts to preload: [{apiKey, credits, plan, everPaid, freeUsages}]')
  .option('--key-prefix <prefix>', 'API key prefix', 'mg')
  .option('--strict', 'validate every response against the spec (a mismatch is a 500 and a log line)', false)
  .option('--latency <ms>', 'simulated latency: <ms> or <min>-<max> (seeded)', latency)
  .option('--no-rate-limit', 'switch the per-user rate limits off (load tests)')
  .option(
    '--public-url <url>',
    "base URL written into media URLs (default: from each request's Host, or X-Forwarded-Proto and X-Forwarded-Host behind a proxy)",
    publicUrl,
  )
  .option('--media-cache-mb <mb>', 'memory for rendered media (videos, audio, images), least recently used first out', int('media-cache-mb', 1, 65536), 256)
  .option('--quiet', 'no request log', false);

program.parse();
const o = program.opts<{
  port: number;
  host: string;
  seed: number;
  clock: 'real' | 'manual';
  speed: number;
  startTime: number;
  accounts?: string;
  keyPrefix: string;
  strict: boolean;
  latency?: number | [number, number];
  rateLimit: boolean;
  publicUrl?: string;
  mediaCacheMb: number;
  quiet: boolean;
}>();

if (!/^[A-Za-z0-9]+$/.test(o.keyPrefix)) program.error('error: --key-prefix must be letters and digits');
let accounts: z.infer<typeof AccountsFile> = [];
if (o.accounts) {
  try {
    accounts = AccountsFile.parse(JSON.parse(readFileSync(o.accounts, 'utf8')));
  } catch (e) {
    program.error(
      `error: --accounts ${o.accounts}: ${e instanceof z.ZodError ? e.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') : (e as Error).message}`,
    );
  }
}

const displayHost = o.host === '0.0.0.0' || o.host === '::' ? 'localhost' : o.host === '127.0.0.1' ? 'localhost' : o.host;
const { app, engine } = createMock({
  seed: o.seed,
  clock: o.clock,
  speed: o.speed,
  startTime: o.startTime,
  wallNow: Date.now,
  keyPrefix: o.keyPrefix,
  accounts,
  strict: o.strict,
  latency: o.latency,
  rateLimit: o.rateLimit,
  publicUrl: o.publicUrl,
  mediaCacheBytes: o.mediaCacheMb * 1024 * 1024,
  logger: o.quiet ? undefined : morgan(':method :url :status :res[content-length] - :response-time ms'),
  onMockBug: (id, problem) => console.error(`MOCK BUG in ${id}: ${problem}`),
});

// Express 5 calls the listen callback with the error too (port in use, bad host): report it and exit.
const server = app.listen(o.port, o.host, (err?: Error) => {
  if (err) {
    console.error(`mediagen-mock: cannot listen on ${o.host}:${o.port}: ${(err as NodeJS.ErrnoException).code ?? err.message}`);
    process.exit(1);
  }
  const port = (server.address() as AddressInfo).port;
  const base = `http://${displayHost}:${port}`;
  const key = accounts[0]?.apiKey ?? `${o.keyPrefix}_demo_secret1`;
  // After start-up, not during it: the video muxer is the largest module; the first video then need not wait for it.
  setTimeout(preloadVideoMuxer, 0).unref();
  console.log(`mediagen-mock listening on ${base}`);
  if (o.host === '0.0.0.0' || o.host === '::') {
    const lan = Object.values(networkInterfaces())
      .flat()
      .filter((i) => i && i.family === 'IPv4' && !i.internal)
      .map((i) => `http://${i!.address}:${port}`);
    if (lan.length) console.log(`  on the LAN: ${lan.join(', ')}   (media URLs follow the address a client uses)`);
  }
  console.log(`  API key:  ${key}   (any ${o.keyPrefix}_<keyId>_<secret> key works; each key is its own account)`);
  console.log(
    `  clock:    ${o.clock}${o.clock === 'real' ? ` x${o.speed}` : ''}, seed ${o.seed}, rate limits ${o.rateLimit ? 'on' : 'OFF'}${o.strict ? ', strict' : ''}`,
  );
  console.log(`  try:      curl -H 'Authorization: Bearer ${key}' ${base}/v1/user/subscription`);
});

let closing = false;
function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  if (!o.quiet) console.log(`\n${signal}: shutting down (${engine.journal.list().length} requests journaled)`);
  server.close(() => process.exit(0));
  server.closeAllConnections();
  setTimeout(() => process.exit(0), 2000).unref();
}
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));
