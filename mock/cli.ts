/**
 * The `mediagen-mock` command. Flags are parsed with commander, request lines
 * are logged with morgan. Prints the addresses it listens on, a ready-to-use
 * API key and how the control API is protected. With --state FILE it starts
 * from the saved state (refusing to start on a file it cannot use, which it
 * leaves untouched) and saves it at a clean shutdown. On SIGINT or SIGTERM it
 * stops accepting connections, answers the requests in flight, saves the
 * state, and exits 0.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { Command, InvalidArgumentError, Option } from 'commander';
import morgan from 'morgan';
import { z } from 'zod';
import { MAX_SESSIONS, MAX_STATE_BYTES } from '../schemas/control.ts';
import { plans } from '../schemas/plans.ts';
import { DEFAULT_SHARED_VIDEO_MODEL, DEFAULT_VIDEO_DURATION, videoPhases } from '../schemas/video.ts';
import { createMockServer } from './http/app.ts';
import { DEFAULT_CAPACITY } from './http/capacity.ts';
import { chooseSpeech, speechModes } from './http/espeak.ts';
import { loadState, readStateFile, stateLocationProblem, writeStateFile } from './http/state-file.ts';
import { DEFAULT_LIMITS, DEFAULT_START_TIME } from './engine/engine.ts';
import { readRecordingFile, type Recording } from './http/recording/format.ts';
import { DEFAULT_UPSTREAM_TIMEOUT_MS } from './http/proxy/exchange.ts';
import { createRecorder } from './http/recording/recorder.ts';
import { createReplay } from './http/recording/replay.ts';
import { loadAudioLoops } from './media/audio.ts';
import { preloadRenderers } from './media/renderers.ts';
import { loadFake } from './services/fake.ts';
import { defaultServices } from './services/index.ts';

/** The version of the package (package.json is one directory up from both mock/cli.ts and dist/cli.js). */
function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

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

/** Collects --allowed-host values (repeatable; its variable MEDIAGEN_MOCK_ALLOWED_HOST takes several, comma-separated). */
function allowedHost(v: string, previous: string[] = []): string[] {
  const hosts = v
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
  for (const h of hosts)
    if (!/^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/.test(h))
      throw new InvalidArgumentError(`allowed-host ${h}: a host name, optionally with :port, e.g. mock.internal or mock.internal:4010`);
  return [...previous, ...hosts];
}

function upstreamUrl(v: string): string {
  if (!/^https?:\/\/[^\s/]+(\/[^\s]*)?$/.test(v) || !URL.canParse(v))
    throw new InvalidArgumentError('upstream must be an http(s) URL, e.g. https://staging.example.com');
  return v.replace(/\/+$/, '');
}

function speed(v: string): number {
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('speed must be a positive number');
  return n;
}

/** The environment variable of a flag: MEDIAGEN_MOCK_ and its long name in capitals (--no-rate-limit -> MEDIAGEN_MOCK_NO_RATE_LIMIT). */
const envName = (flags: string) => `MEDIAGEN_MOCK_${/--([\w-]+)/.exec(flags)![1].replace(/-/g, '_').toUpperCase()}`;

/** An option with its environment variable. */
const envOption = (flags: string, description: string) => new Option(flags, description).env(envName(flags));

/** A Command whose every option also reads its environment variable (set before the option is added, as commander needs). */
class EnvCommand extends Command {
  override createOption(flags: string, description?: string): Option {
    const option = super.createOption(flags, description);
    return /--(version|help)\b/.test(flags) ? option : option.env(envName(flags));
  }
}

const program = new EnvCommand()
  .name('mediagen-mock')
  .description('Stateful, deterministic mock of the Media Generation Service')
  .option('--port <port>', 'port to listen on', int('port', 0, 65535), 4010)
  .option('--host <host>', 'interface to bind', '127.0.0.1')
  .option('--seed <n>', 'seed of every generated id and value', int('seed', 0, 4294967295), 1)
  .addOption(
    envOption('--clock <mode>', 'real: follows wall time x speed; manual: moves only with POST /__mock/clock/advance')
      .choices(['real', 'manual'])
      .default('real'),
  )
  .addOption(
    envOption('--speed <x>', 'real mode: virtual ms per wall ms')
      .argParser(speed)
      .default(DEFAULT_SPEED, `${Math.round(DEFAULT_SPEED * 100) / 100}: a default video task takes about 10 s`),
  )
  .addOption(
    envOption('--start-time <iso>', 'clock start instant').argParser(startTime).default(DEFAULT_START_TIME, new Date(DEFAULT_START_TIME).toISOString()),
  )
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
  .option(
    '--media-cache-mb <mb>',
    'memory for rendered media (videos, audio, images) of the whole process, sessions included; least recently used first out',
    int('media-cache-mb', 1, 65536),
    256,
  )
  .addOption(
    new Option('--speech <mode>', 'speech in words with espeak-ng (espeak), tones (tones), or words when espeak-ng is installed (auto)')
      .choices(speechModes)
      .default('auto'),
  )
  .option(
    '--state <file>',
    'start from the state saved in this file (when it exists) and save the state there at a clean shutdown and on POST /__mock/state/save',
  )
  .option(
    '--record <file>',
    'with --upstream: record what passes through (requests, answers, task statuses, the media they point to; keys, Authorization, cookies and URL signatures redacted) into this file, written at shutdown',
  )
  .option(
    '--replay <file>',
    "load a recording into the default world: its tasks (owned by the keys printed at start) move through their recorded statuses on the mock's clock, a request like a recorded one gets its recorded answer, its media are served by the mock",
  )
  .option('--control-token <token>', 'require Authorization: Bearer <token> on the control API (/__mock); generated when listening beyond this machine')
  .option('--control-origin <origin...>', 'web origins besides this machine allowed to call the control API from a browser, e.g. http://192.168.1.20:5173')
  .option(
    '--allowed-host <host>',
    'a Host name (any port, or name:port) the control API and the sign-in page answer besides localhost, 127.0.0.1, [::1] and the --public-url host (repeatable; the variable takes a comma-separated list); bound beyond this machine, Host is checked only when this is given',
    allowedHost,
  )
  .option('--unsafe-open-control', 'listening beyond this machine, leave the control API open to anyone who can reach the port (no token)', false)
  .option('--journal-size <n>', 'API requests kept in the journal (GET /__mock/requests)', int('journal-size', 1, 1_000_000), DEFAULT_LIMITS.journal)
  .option(
    '--journal-mb <mb>',
    "memory for the journal's entries (request bodies included) of the whole process: half for the default world, half shared equally by the sessions; oldest first out",
    int('journal-mb', 1, 65536),
    DEFAULT_LIMITS.journalBytes / (1024 * 1024),
  )
  .option('--activity-size <n>', 'task changes kept in the activity feed (GET /__mock/events)', int('activity-size', 1, 1_000_000), DEFAULT_LIMITS.activity)
  .option(
    '--max-tasks-per-key <n>',
    'tasks kept per key and area; beyond, the oldest finished ones are dropped',
    int('max-tasks-per-key', 1, 10_000_000),
    DEFAULT_LIMITS.tasksPerKey,
  )
  .option(
    '--max-tasks <n>',
    'tasks kept per area, all keys together; beyond, the oldest finished ones are dropped',
    int('max-tasks', 1, 100_000_000),
    DEFAULT_LIMITS.tasks,
  )
  .option(
    '--max-accounts <n>',
    'accounts kept; beyond, the least recently used idle one is forgotten',
    int('max-accounts', 1, 10_000_000),
    DEFAULT_LIMITS.accounts,
  )
  .option(
    '--max-ledger-entries <n>',
    'ledger entries kept per account; beyond, the oldest are folded into one',
    int('max-ledger-entries', 2, 10_000_000),
    DEFAULT_LIMITS.ledgerEntries,
  )
  .option(
    '--max-sessions <n>',
    'isolated sessions (X-Mock-Session) kept at once; beyond, the least recently used is dropped. They share one budget of tasks, accounts, journal and activity: each keeps its part (at least 100 tasks per area)',
    int('max-sessions', 1, 100_000),
    MAX_SESSIONS,
  )
  .option(
    '--max-inflight-body-mb <mb>',
    'request bodies received at once, all together; beyond, 503 with Retry-After (a body is counted by its Content-Length, or the most its operation takes)',
    int('max-inflight-body-mb', 1, 65536),
    DEFAULT_CAPACITY.maxInflightBodyBytes / 1024 / 1024,
  )
  .option(
    '--max-state-mb <mb>',
    'the largest state document PUT /__mock/state reads; beyond, 413 before a byte of it is read',
    int('max-state-mb', 1, 4096),
    MAX_STATE_BYTES / 1024 / 1024,
  )
  .option(
    '--max-streams <n>',
    'event streams open at once, all together; beyond, 503 with Retry-After',
    int('max-streams', 1, 1_000_000),
    DEFAULT_CAPACITY.maxStreams,
  )
  .option(
    '--upstream <url>',
    "forward API and media requests to this server (staging, production, another mock) with the callers' credentials, pass its answers back and check each against the contract (docs/guides/proxy.md)",
    upstreamUrl,
  )
  .addOption(
    envOption(
      '--fallback <mode>',
      'with --upstream: mock answers what the upstream does not (unreachable, no answer in time, 404 for the route, 501); off: 502 or 504',
    )
      .choices(['off', 'mock'])
      .default('off'),
  )
  .option(
    '--upstream-timeout <s>',
    'with --upstream: seconds the upstream (with --record, also a media host) may stay silent before the request is given up',
    int('upstream-timeout', 1, 3600),
    DEFAULT_UPSTREAM_TIMEOUT_MS / 1000,
  )
  .option(
    '--check-report <file>',
    'with --upstream: write the contract violations found to this file every 5 s when they change and at shutdown (JSON; JUnit XML when the name ends in .xml)',
  )
  .option('--ready-file <path>', 'when listening, write the base URL (e.g. http://127.0.0.1:4010) to this file; removed at shutdown')
  .option('--quiet', 'no request log', false)
  .version(packageVersion(), '-v, --version', 'print the version and exit')
  .addHelpText(
    'after',
    `
Every flag can also be set with an environment variable: MEDIAGEN_MOCK_ and the flag's name in capitals
(--port 0 -> MEDIAGEN_MOCK_PORT=0, --clock manual -> MEDIAGEN_MOCK_CLOCK=manual, --no-rate-limit -> MEDIAGEN_MOCK_NO_RATE_LIMIT=1).
A switch (--strict, --quiet, --no-rate-limit...) is set by its variable being defined, whatever its value.
A flag on the command line wins over its variable.

Examples:
  mediagen-mock                                   real clock on http://localhost:4010
  mediagen-mock --clock manual --seed 7 --strict  for tests: time moves only with POST /__mock/clock/advance
  mediagen-mock --port 0 --ready-file .mock-url   a free port; its base URL is written to .mock-url when ready
  mediagen-mock --host 0.0.0.0                    reachable from the LAN (the control API then needs a token)
  mediagen-mock --upstream https://staging.example.com --fallback mock --check-report drift.xml
                                                  in front of another server: its answers checked (docs/guides/proxy.md)
  mediagen-mock --upstream https://staging.example.com --record session.json   record a session through the proxy
  mediagen-mock --clock manual --replay session.json                          replay it offline

When it is ready it prints a line "mediagen-mock ready <base URL>" (scripts can wait for it, or for GET /__mock/health).

Forcing outcomes (any API request):
  Prefer: code=401                 answer that status (any the operation declares: 401 wherever a key is needed, 429 on a create)
  Prefer: error=31008              answer that catalogued error (code, name, or failure reason)
  Prefer: outcome=failed|stuck|partial   a created task fails, never finishes, or partly succeeds
  Prefer: delay=500                answer after 500 ms (several at once: Prefer: outcome=failed, delay=200)
  The query string works too: ?__code=401, ?__error=..., ?__outcome=..., ?__delay=...

Control API (spec/mock-control.openapi.yaml):
  GET  /__mock/health                 POST /__mock/reset {seed?}
  GET  /__mock/clock                  POST /__mock/clock/advance {ms}
  GET|PUT|DELETE /__mock/accounts/{apiKey}
  POST|DELETE /__mock/scenarios       forced outcomes for the next matching requests
  GET  /__mock/requests               the journal of API requests
  GET  /__mock/events                 task activity (event stream)
  GET|PUT /__mock/state, POST /__mock/state/save
  GET  /__mock/users, POST /__mock/users, GET /__mock/oauth/sessions, POST /__mock/oauth/sessions/{id}/authorize
  GET  /__mock/sessions, DELETE /__mock/sessions/{name}   (X-Mock-Session: <name> selects an isolated world)
  GET  /__mock/samples/{kind}, POST /__mock/uploads, GET /__mock/bugs
  GET|DELETE /__mock/proxy/report    with --upstream: the upstream's answers that broke the contract
`,
  );

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
  state?: string;
  record?: string;
  replay?: string;
  controlToken?: string;
  controlOrigin?: string[];
  allowedHost?: string[];
  unsafeOpenControl: boolean;
  journalSize: number;
  journalMb: number;
  readyFile?: string;
  upstream?: string;
  fallback: 'off' | 'mock';
  upstreamTimeout: number;
  checkReport?: string;
  activitySize: number;
  maxTasksPerKey: number;
  maxTasks: number;
  maxAccounts: number;
  maxLedgerEntries: number;
  maxSessions: number;
  maxInflightBodyMb: number;
  maxStreams: number;
  maxStateMb: number;
  quiet: boolean;
  speech: (typeof speechModes)[number];
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

// A saved state is read and checked before anything starts: a file the mock cannot use stops it here, untouched.
let saved: ReturnType<typeof readStateFile> | undefined;
if (o.state && existsSync(o.state)) {
  try {
    saved = readStateFile(o.state);
  } catch (e) {
    console.error(`mediagen-mock: --state ${(e as Error).message}\n  the file is left as it is; fix it, move it away, or start without --state`);
    process.exit(1);
  }
}
// ... and a location it cannot write in stops it too: the state would be lost at shutdown
const stateProblem = o.state ? stateLocationProblem(o.state) : undefined;
if (stateProblem) {
  console.error(`mediagen-mock: --state ${o.state}: ${stateProblem}`);
  process.exit(1);
}
// A recording is made of what the proxy forwards: without an upstream there is nothing to record.
if (o.record && !o.upstream)
  program.error('error: --record needs --upstream <url>: it records what the proxy forwards to that server (to serve a recording, use --replay)');
const recordProblem = o.record ? stateLocationProblem(o.record) : undefined;
if (recordProblem) program.error(`error: --record ${o.record}: ${recordProblem}`);
const recorder = o.record ? createRecorder({ file: o.record, upstream: o.upstream, mediaTimeoutMs: o.upstreamTimeout * 1000 }) : undefined;
// ... and a recording to replay is read and checked before anything starts: a file the mock cannot use stops it here
let recording: Recording | undefined;
if (o.replay)
  try {
    recording = readRecordingFile(o.replay);
  } catch (e) {
    console.error(`mediagen-mock: --replay ${(e as Error).message}\n  record it again, or start without --replay`);
    process.exit(1);
  }
const replay = recording ? createReplay(recording, { keyPrefix: o.keyPrefix }) : undefined;
for (const origin of o.controlOrigin ?? [])
  if (!/^https?:\/\/[^\s/]+$/.test(origin))
    program.error(`error: --control-origin ${origin}: an origin is scheme://host[:port], e.g. http://192.168.1.20:5173`);

for (const [flag, given] of [
  ['--check-report', o.checkReport],
  ['--fallback mock', o.fallback === 'mock' ? 'mock' : undefined],
] as const)
  if (given !== undefined && !o.upstream) program.error(`error: ${flag} needs --upstream <url>`);
// the proxy (and the verifier's checks it loads) only when asked for: a plain mock starts without them
const proxy = o.upstream
  ? (await import('./http/proxy/cli.ts')).startProxy({
      upstream: o.upstream,
      fallback: o.fallback,
      timeoutMs: o.upstreamTimeout * 1000,
      checkReport: o.checkReport,
      quiet: o.quiet,
      ...(recorder ? { onExchange: recorder.observe } : {}),
    })
  : undefined;

const ALL_INTERFACES = o.host === '0.0.0.0' || o.host === '::';
/** Running in a container (Docker writes /.dockerenv, podman /run/.containerenv). */
const IN_CONTAINER = existsSync('/.dockerenv') || existsSync('/run/.containerenv');
const LOOPBACK = ['127.0.0.1', '::1', 'localhost'].includes(o.host) || /^127\./.test(o.host);
// Beyond this machine the control API (reset, accounts, state) needs a token unless the user opens it knowingly.
const generatedToken = o.controlToken === undefined && !LOOPBACK && !o.unsafeOpenControl;
const controlToken = o.controlToken ?? (generatedToken ? randomBytes(18).toString('base64url') : undefined);
const displayHost = ALL_INTERFACES || o.host === '127.0.0.1' ? 'localhost' : o.host;
const speech = (() => {
  try {
    return chooseSpeech(o.speech);
  } catch (e) {
    console.error((e as Error).message);
    process.exit(2);
  }
})();
const mock = createMockServer({
  speech: speech.synth,
  onSpeechProblem: (problem) => console.error(problem),
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
  maxSessions: o.maxSessions,
  maxInflightBodyBytes: o.maxInflightBodyMb * 1024 * 1024,
  maxStreams: o.maxStreams,
  maxStateBytes: o.maxStateMb * 1024 * 1024,
  stateFile: o.state,
  ...(replay ? { services: [...defaultServices, replay.service], intercept: replay.intercept } : {}),
  controlToken,
  controlOrigins: o.controlOrigin,
  allowedHosts: o.allowedHost,
  // Bound to loopback, a DNS-rebound page is the threat: Host is checked. Beyond (0.0.0.0 in a container), the
  // names clients use are not known in advance: the control token is the guard, and Host is checked only against
  // the names given with --allowed-host.
  checkHost: LOOPBACK || (o.allowedHost?.length ?? 0) > 0,
  limits: {
    journal: o.journalSize,
    journalBytes: o.journalMb * 1024 * 1024,
    activity: o.activitySize,
    tasksPerKey: o.maxTasksPerKey,
    tasks: o.maxTasks,
    accounts: o.maxAccounts,
    ledgerEntries: o.maxLedgerEntries,
  },
  logger: o.quiet ? undefined : morgan(':method :url :status :res[content-length] - :response-time ms'),
  onMockBug: (id, problem) => console.error(`MOCK BUG in ${id}: ${problem}`),
  proxy: proxy?.proxy,
});
const { app, engine } = mock;
if (saved)
  try {
    loadState(engine, saved);
  } catch (e) {
    console.error(`mediagen-mock: --state ${o.state}: ${(e as Error).message}\n  the file is left as it is; fix it, move it away, or start without --state`);
    process.exit(1);
  }
const replayedTasks = replay?.load(engine);

// Express 5 calls the listen callback with the error too (port in use, bad host): report it and exit.
const server = app.listen(o.port, o.host, (err?: Error) => {
  if (err) {
    console.error(`mediagen-mock: cannot listen on ${o.host}:${o.port}: ${(err as NodeJS.ErrnoException).code ?? err.message}`);
    process.exit(1);
  }
  const port = (server.address() as AddressInfo).port;
  const base = `http://${displayHost}:${port}`;
  const key = accounts[0]?.apiKey ?? `${o.keyPrefix}_demo_secret1`;
  // After start-up, not during it, in the background: what loads on first use (faker, the audio loops, the renderers,
  // then the video muxer, the largest module). The health check answers without them; the first API request or video
  // finds them loaded (a failure is left to that first use, which tries again and reports it).
  setTimeout(() => void Promise.all([loadFake(), loadAudioLoops()]).catch(() => undefined), 0).unref();
  setTimeout(preloadRenderers, 0).unref();
  console.log(`mediagen-mock listening on ${o.host}:${port}${ALL_INTERFACES ? ' (all interfaces)' : ''}: ${base}`);
  // in a container the interfaces are the container's own (10.88.0.13...), which no other machine reaches: the
  // address to use is the host's, on the port published for this one
  if (ALL_INTERFACES && IN_CONTAINER) console.log(`  container: reach it on the port the host publishes for ${port} (docker/podman run -p)`);
  else if (ALL_INTERFACES) {
    const lan = Object.values(networkInterfaces())
      .flat()
      .filter((i) => i && i.family === 'IPv4' && !i.internal)
      .map((i) => `http://${i!.address}:${port}`);
    if (lan.length) console.log(`  on the LAN: ${lan.join(', ')}   (media URLs follow the address a client uses)`);
  }
  console.log(
    `  control:  ${
      // a token the user supplied is never printed (logs are read by more people than the token's owner); a
      // generated one is printed this once, as nobody else knows it
      controlToken
        ? `/__mock needs Authorization: Bearer ${generatedToken ? `${controlToken}   (generated for this run)` : `<the token of ${tokenSource()}>`}`
        : LOOPBACK
          ? '/__mock open to this machine (browser pages of other origins refused)'
          : '/__mock OPEN to anyone who can reach this port (--unsafe-open-control)'
    }`,
  );
  console.log(`  ${speech.line}`);
  if (proxy) console.log(`  upstream: ${proxy.banner}`);
  if (o.state) console.log(`  state:    ${saved ? `loaded ${o.state}` : `${o.state} (new)`}, saved at shutdown and on POST /__mock/state/save`);
  if (replay && recording)
    console.log(
      `  replay:   ${o.replay}: ${replayedTasks} task${replayedTasks === 1 ? '' : 's'}, ${recording.exchanges.length} recorded answers, ${recording.media.filter((m) => m.sha256).length} media files; ${replay.owners.map((x) => `recorded ${x.ref} -> ${x.key}`).join(', ') || 'no keys'}`,
    );
  if (o.record) console.log(`  record:   ${o.record}, written at shutdown (what passes through to ${o.upstream})`);
  console.log(`  API key:  ${key}   (any ${o.keyPrefix}_<keyId>_<secret> key works; each key is its own account)`);
  console.log(
    `  clock:    ${o.clock}${o.clock === 'real' ? ` x${o.speed}` : ''}, seed ${o.seed}, rate limits ${o.rateLimit ? 'on' : 'OFF'}${o.strict ? ', strict' : ''}`,
  );
  console.log(`  try:      curl -H 'Authorization: Bearer ${key}' ${base}/v1/user/subscription`);
  console.log(`  browse:   ${base}/__mock/ui/ (dashboard: clock, tasks, accounts, forcing, journal)   ${base}/docs/ (API reference)`);
  const ready = `http://${o.host.includes(':') ? `[${o.host}]` : ALL_INTERFACES ? '127.0.0.1' : o.host}:${port}`;
  if (o.readyFile) writeFileSync(o.readyFile, `${ready}\n`);
  console.log(`mediagen-mock ready ${ready}`);
});

/** Where the supplied control token came from, as the banner names it. */
function tokenSource(): string {
  return program.getOptionValueSource('controlToken') === 'env' ? 'MEDIAGEN_MOCK_CONTROL_TOKEN' : '--control-token';
}

let closing = false;
/** Stops accepting connections, answers the requests in flight (10 s at most), saves the state, exits. */
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  const pending = mock.inFlight();
  if (!o.quiet) console.log(`\n${signal}: shutting down${pending ? `, answering ${pending} request(s) in flight` : ''}`);
  server.close();
  const deadline = Date.now() + 10_000;
  while (mock.inFlight() > 0 && Date.now() < deadline) {
    server.closeIdleConnections();
    await new Promise((r) => setTimeout(r, 20));
  }
  server.closeAllConnections(); // event streams, and anything still open after the deadline
  if (o.state) {
    try {
      const bytes = writeStateFile(o.state, engine);
      if (!o.quiet) console.log(`state: saved ${o.state} (${bytes} bytes)`);
    } catch (e) {
      console.error(`mediagen-mock: could not save the state to ${o.state} at shutdown: ${(e as Error).message}`);
      process.exitCode = 1;
    }
  }
  if (recorder) {
    try {
      const r = await recorder.close();
      if (!o.quiet)
        console.log(
          `record: wrote ${r.file} (${r.bytes} bytes: ${r.exchanges} exchanges, ${r.tasks} tasks, ${r.mediaStored} media files${r.mediaNotStored ? `, ${r.mediaNotStored} not stored` : ''}; redacted ${r.redactions.map((x) => `${x.what} x${x.count}`).join(', ') || 'nothing'})`,
        );
    } catch (e) {
      console.error(`mediagen-mock: could not write the recording ${o.record} at shutdown: ${(e as Error).message}`);
      process.exitCode = 1;
    }
  }
  if (o.readyFile) rmSync(o.readyFile, { force: true });
  if (proxy) proxy.stop();
  if (!o.quiet) console.log(`stopped after ${engine.journal.total} API requests`);
  process.exit(process.exitCode ?? 0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
