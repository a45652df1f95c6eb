/**
 * `npm run test:container` (run by .ci/run after `npm test`): builds the
 * container image (Dockerfile) the way docs/guides/container.md says, and
 * checks it the way a CI `services:` entry or a compose file uses it
 * (decisions/0023-container-image.md).
 *
 * 1. podman, runc and debootstrap: installed with apt when missing (one
 *    `apt-get update`). Where the machine cannot run containers (not Linux, no
 *    apt and no podman, not root, `podman info` fails) it prints why and exits
 *    0: a skip, not a pass.
 * 2. The guide's own steps ("With podman and no registry"), taken from the
 *    guide: its containers.conf settings as CONTAINERS_CONF; its base block
 *    (debootstrap of Debian 13 from the mirror apt uses, `podman import`) when
 *    there is no `localhost/mediagen-base` yet; its build block (`podman build
 *    --pull=never`); its run block with a free loopback port, container and
 *    volume names of this run, every annotated output checked
 *    (test/walkthrough.ts). The image's size must be at most 250 MB and within
 *    5% of what the guide quotes.
 * 3. A second container on a free loopback port, a fresh volume on /data, the
 *    manual clock and a control token by their variables: the time from
 *    `podman run` to healthy (the image's HEALTHCHECK, run by `podman
 *    healthcheck run`: no systemd schedules it) is reported; the dashboard is
 *    opened through the published port in headless Chromium (when there is one).
 * 4. A walkthrough through the published port: the control API refuses a
 *    request without the token; an image task (estimate, create, advance the
 *    clock with the token, poll to success) whose media URL loads a PNG of the
 *    estimated pixel size; a video task whose MP4 renders (mediabunny, bundled);
 *    /docs and /openapi.json answer.
 * 5. `podman stop` (SIGTERM): exit 0, the state saved into the volume. A new
 *    container on the same volume reads the same tasks (same status, same
 *    result), the same balance and the same PNG bytes.
 *
 * Containers and volumes it made are removed, whatever happens; the images
 * (the base, localhost/mediagen-mock) stay as the next run's cache, and those
 * they replace are removed. Exits non-zero on any failure, with the container's log.
 *
 *   npm run test:container            (or: npx tsx scripts/test-container.ts)
 *   MEDIAGEN_CONTAINER_REBUILD_BASE=1 npm run test:container    (make the base again)
 */
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM, launchChromium } from '../test/browser.ts';
import { claimedOutputs, outputMatches, scriptOf, walkthroughSteps } from '../test/walkthrough.ts';

const root = new URL('..', import.meta.url).pathname;
const started = performance.now();
const BASE_IMAGE = 'localhost/mediagen-base';
/** The image as the guide's build block tags it. */
const IMAGE = 'localhost/mediagen-mock:latest';
const GUIDE = readFileSync(join(root, 'docs/guides/container.md'), 'utf8');
const MAX_IMAGE_MB = 250;
const TARGET_HEALTHY_MS = 2000;
const TOKEN = randomBytes(12).toString('hex');
const API_KEY = 'mg_ct_secret1';
const tag = `${process.pid}-${Date.now().toString(36)}`;
const made = { containers: [] as string[], volumes: [] as string[] };

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const log = (line: string) => console.log(`[container] ${line}`);

/** Ends the run as skipped: a notice and exit 0. */
function skip(why: string): never {
  console.log(`[container] SKIPPED: ${why}; the container image was not built or tested on this machine`);
  process.exit(0);
}

class Failure extends Error {}
function check(ok: unknown, what: string): asserts ok {
  if (!ok) throw new Failure(what);
}

/** Runs a command; its output is returned (stdout trimmed), or, with `fail`, a failure names the command and its stderr. */
function run(cmd: string, args: string[], opts: SpawnSyncOptions & { fail?: boolean } = {}): { code: number; out: string; err: string } {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...opts });
  const res = { code: r.status ?? 1, out: String(r.stdout ?? '').trim(), err: String(r.stderr ?? '').trim() };
  if (r.error) res.err = r.error.message;
  if (opts.fail !== false && res.code !== 0)
    throw new Failure(`${cmd} ${args.join(' ')} exited ${res.code}${res.err ? `:\n${res.err.split('\n').slice(-20).join('\n')}` : ''}`);
  return res;
}
const has = (cmd: string) => run('sh', ['-c', `command -v ${cmd}`], { fail: false }).code === 0;

// 1. The tools.
if (process.platform !== 'linux') skip(`containers are built here with podman on Linux (this is ${process.platform})`);
// Rootful podman: debootstrap and the base need root, and rootless podman needs a user namespace set-up this test does not make.
if (process.getuid?.() !== 0) skip('podman runs as root here (debootstrap and rootful podman); run it as root, as CI does');
const missing = ['podman', 'runc', 'debootstrap'].filter((c) => !has(c) && !existsSync(`/usr/sbin/${c}`));
if (missing.length) {
  if (!has('apt-get')) skip(`${missing.join(', ')} missing and no apt-get to install them`);
  log(`installing ${missing.join(' ')} (Debian packages)`);
  run('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  run('apt-get', ['install', '-y', '-qq', ...missing], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
}
const runc = ['/usr/sbin/runc', '/usr/bin/runc'].find(existsSync) ?? 'runc';
// runc and cgroupfs: Debian's default crun refuses hybrid cgroup hierarchies, and without systemd there is no systemd cgroup manager.
const PODMAN = ['--runtime', runc, '--cgroup-manager=cgroupfs'];
const podman = (args: string[], opts: SpawnSyncOptions & { fail?: boolean } = {}) => run('podman', [...PODMAN, ...args], opts);
const info = podman(['info', '--format', '{{.Version.Version}} (runtime {{.Host.OCIRuntime.Name}}'], { fail: false });
if (info.code !== 0) skip(`podman cannot run here (podman info: ${info.err.split('\n').pop()})`);
log(`podman ${info.out}, cgroupfs)`);
// Limits the runtime may set without CAP_SYS_RESOURCE: the current ones (podman's defaults are higher and refused in some sandboxes).
const limit = (flag: string, fallback: number) => Number(run('sh', ['-c', `ulimit ${flag}`], { fail: false }).out) || fallback;
const ULIMITS = [
  '--ulimit',
  `nofile=${limit('-n', 1024)}:${limit('-n', 1024)}`,
  '--ulimit',
  `nproc=${Math.min(limit('-u', 4096), 4096)}:${Math.min(limit('-u', 4096), 4096)}`,
];

/** A free TCP port on loopback. */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** Width and height from a PNG's IHDR chunk, or undefined when the bytes are no PNG. */
function pngSize(b: Buffer): { width: number; height: number } | undefined {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (b.length < 24 || !b.subarray(0, 8).equals(signature) || b.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
}

/** The block of the guide after `<!-- container-test: NAME -->`. */
function guideBlock(name: string): string {
  const m = new RegExp(`<!-- container-test: ${name} -->\\s*\`\`\`\\w+\\n([\\s\\S]*?)\`\`\``).exec(GUIDE);
  if (!m) throw new Failure(`docs/guides/container.md has no block marked "container-test: ${name}"`);
  return m[1];
}

/** Runs `script` (a block of the guide) with `bash -e` in `cwd`; its stdout as written (untrimmed), or a failure with the tail of its output. */
function runBlock(name: string, script: string, cwd: string): string {
  const r = spawnSync('bash', ['-ec', script], { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0)
    throw new Failure(`the guide's ${name} block exited ${r.status ?? r.signal}:\n${`${r.stdout}\n${r.stderr}`.trim().split('\n').slice(-30).join('\n')}`);
  return r.stdout;
}

/** Failures found after the run could go on (the size the guide quotes), reported at the end. */
const late: string[] = [];

async function main() {
  // 2. The guide's steps: its podman settings, its base (made when there is none), its build, its run block.
  const confDir = mkdtempSync(join(tmpdir(), 'mediagen-conf-'));
  writeFileSync(join(confDir, 'containers.conf'), guideBlock('conf'));
  process.env.CONTAINERS_CONF = join(confDir, 'containers.conf');
  /** The id of an image, or undefined when there is none of that name. */
  const imageId = (ref: string) => {
    const r = podman(['image', 'inspect', '--format', '{{.Id}}', ref], { fail: false });
    return r.code === 0 ? r.out : undefined;
  };
  const previous = [IMAGE, BASE_IMAGE].map((ref) => ({ ref, id: imageId(ref) }));
  const rebuild = !!process.env.MEDIAGEN_CONTAINER_REBUILD_BASE;
  if (rebuild || !previous[1].id) {
    const t = performance.now();
    const dir = mkdtempSync(join(tmpdir(), 'mediagen-base-'));
    try {
      log(`making ${BASE_IMAGE}: the guide's base block (debootstrap of Debian 13 from the mirror apt uses, podman import)`);
      runBlock('base', guideBlock('base'), dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    log(`made ${BASE_IMAGE} in ${seconds(performance.now() - t)}`);
  } else log(`reusing ${BASE_IMAGE} (MEDIAGEN_CONTAINER_REBUILD_BASE=1 makes it again with the guide's base block)`);
  log(`base: ${podman(['run', '--rm', ...ULIMITS, BASE_IMAGE, 'node', '--version']).out} (Debian's nodejs)`);

  let t = performance.now();
  log("building the image: the guide's build block (minutes when npm ci is not cached yet)");
  runBlock('build', guideBlock('build'), root);
  // The images these replaced, and their layers no other image uses: each new base or lock file would otherwise leave 1.4 GB behind.
  for (const { ref, id } of previous) if (id && id !== imageId(ref)) podman(['rmi', id], { fail: false });
  const buildMs = performance.now() - t;
  const sizeMb = Number(podman(['image', 'inspect', '--format', '{{.Size}}', IMAGE]).out) / 1e6;
  log(`built ${IMAGE} in ${seconds(buildMs)}: ${sizeMb.toFixed(1)} MB`);
  check(sizeMb <= MAX_IMAGE_MB, `the image is ${sizeMb.toFixed(1)} MB, above the ${MAX_IMAGE_MB} MB target`);
  const quoted = Number(/The image is \*\*(\d+) MB\*\*/.exec(GUIDE)?.[1]);
  if (!(Math.abs(sizeMb - quoted) <= quoted * 0.05))
    late.push(`docs/guides/container.md quotes the image as ${quoted} MB; it measures ${sizeMb.toFixed(1)} MB: quote ${Math.round(sizeMb)}`);

  // The guide's run block: its own commands, with a free loopback port and container and volume names of this run.
  const guidePort = await freePort();
  const guideName = `mediagen-guide-${tag}`;
  made.containers.push(guideName);
  made.volumes.push(guideName);
  const block = guideBlock('run')
    .replace(/127\.0\.0\.1:4010:4010/g, `127.0.0.1:${guidePort}:4010`)
    .replace(/(?:http:\/\/)?localhost:4010/g, `http://127.0.0.1:${guidePort}`)
    .replace(/\bmediagen-state\b/g, guideName)
    .replace(/\bmediagen\b(?![-\w])/g, guideName);
  const steps = walkthroughSteps(`\`\`\`sh\n${block}\`\`\`\n`);
  t = performance.now();
  const out = runBlock('run', scriptOf(steps), root);
  const wrong = [...claimedOutputs(steps, out)]
    .filter(([i, output]) => output === undefined || !outputMatches(steps[i].claim!, output))
    .map(([i, output]) => `${steps[i].command.split('\n').pop()!.trim()}\n    guide:  ${steps[i].claim!.at(-1)}\n    output: ${output?.trim() ?? '(none)'}`);
  check(wrong.length === 0, `outputs of the guide's run block differ from what it annotates:\n${wrong.join('\n')}`);
  log(
    `the guide's run block: ${steps.length} steps as written, ${claimedOutputs(steps, out).size} annotated outputs matched (${seconds(performance.now() - t)})`,
  );

  // 3. Run it again, on a volume of this run: the time to healthy, the dashboard, the walkthrough, a restart.
  const volume = `mediagen-test-${tag}`;
  podman(['volume', 'create', volume]);
  made.volumes.push(volume);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const api = (path: string, init: RequestInit = {}) =>
    fetch(base + path, { ...init, headers: { Authorization: `Bearer ${API_KEY}`, 'Content-Type': 'application/json', ...init.headers } });
  const control = (path: string, body: unknown, token: string | null = TOKEN) =>
    fetch(base + path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
  const json = async (r: Response) => (await r.json()) as { code: number; message: string; data: Record<string, unknown> };

  /** Starts a container on the volume; resolves with the time from `podman run` to the first health answer on the published port. */
  async function start(name: string): Promise<number> {
    const t0 = performance.now();
    podman(['run', '-d', '--name', name, ...ULIMITS, '-p', `127.0.0.1:${port}:4010`, '-v', `${volume}:/data`,
      '-e', 'MEDIAGEN_MOCK_CLOCK=manual', '-e', `MEDIAGEN_MOCK_CONTROL_TOKEN=${TOKEN}`, IMAGE]); // prettier-ignore
    made.containers.push(name);
    for (;;) {
      const r = await fetch(`${base}/__mock/health`, { signal: AbortSignal.timeout(1000) }).catch(() => undefined);
      if (r?.ok) return performance.now() - t0;
      if (performance.now() - t0 > 30_000) throw new Failure(`no answer from ${base}/__mock/health within 30 s`);
      if (podman(['inspect', '--format', '{{.State.Running}}', name]).out !== 'true') throw new Failure(`the container ${name} stopped before answering`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  /**
   * The image's HEALTHCHECK, run by podman until it says healthy (no systemd here to schedule it); returns when it
   * does. `podman healthcheck run` starts a node process in the container: each try takes a moment of its own.
   */
  async function healthy(name: string, t0: number) {
    for (;;) {
      const r = podman(['healthcheck', 'run', name], { fail: false });
      if (r.code === 0) break;
      if (performance.now() - t0 > 60_000) throw new Failure(`podman healthcheck run ${name}: not healthy within 60 s (${r.out} ${r.err})`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const status = podman(['inspect', '--format', '{{.State.Health.Status}}', name]).out;
    check(status === 'healthy', `health status ${status}, expected healthy`);
    return performance.now() - t0;
  }

  // What any container of this image costs here before the mock's own start-up: `podman run` of `node -e 0`.
  t = performance.now();
  podman(['run', '--rm', ...ULIMITS, '--entrypoint', 'node', IMAGE, '-e', '0']);
  const bareMs = performance.now() - t;

  const first = `mediagen-test-${tag}-1`;
  const t0 = performance.now();
  const answeringMs = await start(first);
  const healthyMs = await healthy(first, t0);
  log(
    `run -> answering /__mock/health: ${seconds(answeringMs)}, -> healthy (podman healthcheck run): ${seconds(healthyMs)} ` +
      `(target < ${seconds(TARGET_HEALTHY_MS)}; a bare \`podman run ... node -e 0\` takes ${seconds(bareMs)} here)`,
  );
  const banner = podman(['logs', first]);
  check(!/on the LAN/.test(banner.out + banner.err), `the start-up lines list the container's own addresses:\n${banner.out}`);
  check(!(banner.out + banner.err).includes(TOKEN), 'the start-up lines print the control token it was given');

  // The dashboard, through the published port: in Chromium when there is one (the token asked, the clock shown), else its page and bundle.
  for (const path of ['/__mock/ui/', '/__mock/ui/app.js', '/__mock/ui/style.css']) {
    const r = await fetch(base + path);
    check(r.status === 200, `GET ${path} through the published port: ${r.status} ${r.status === 404 ? await r.text() : ''}`);
  }
  if (CHROMIUM) {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${base}/__mock/ui/`);
      await page.getByLabel('Control token').fill(TOKEN);
      await page.getByRole('button', { name: 'Use token' }).click();
      await page.getByRole('button', { name: 'Advance 1 min' }).waitFor({ timeout: 15_000 });
      await page.getByTestId('virtual-time').filter({ hasText: '2026-01-01 00:00:00' }).waitFor({ timeout: 15_000 });
      check(errors.length === 0, `the dashboard's page logged errors: ${errors.join('; ')}`);
    } finally {
      await browser.close();
    }
    log('dashboard: opened through the published port in Chromium (the control token asked and taken, the virtual clock shown)');
  } else log('dashboard: its page and bundle answer through the published port (no Chromium here to open it)');

  // 4. The walkthrough through the published port.
  t = performance.now();
  const refused = await control('/__mock/clock/advance', { ms: 1000 }, null);
  check(refused.status === 403, `the control API without the token answered ${refused.status}, expected 403`);
  const foreign = await fetch(`${base}/__mock/clock`, { headers: { Authorization: `Bearer ${TOKEN}`, Origin: 'https://evil.example' } });
  check(foreign.status === 403, `a web page of another origin answered ${foreign.status} on the control API, expected 403`);

  const imageBody = {
    provider: 'vendor_a',
    model: 'image-a-2',
    prompt: 'A lighthouse at dusk, watercolor',
    imageConfig: { imageSize: '2K', aspectRatio: '16:9' },
  };
  const estimate = await json(await api('/v1/images/generation/estimate-credits', { method: 'POST', body: JSON.stringify(imageBody) }));
  const pixels = estimate.data.pixels as { width: number; height: number };
  check(estimate.code === 0 && pixels?.width > 0, `estimate: ${JSON.stringify(estimate)}`);
  const created = await api('/v1/images/generation/async', { method: 'POST', body: JSON.stringify(imageBody) });
  const createdBody = await json(created);
  check(created.status === 202 && createdBody.code === 0, `create an image task: ${created.status} ${JSON.stringify(createdBody)}`);
  const imageTask = createdBody.data.taskId as string;
  const video = await json(
    await api('/v1/video-generation/generate', {
      method: 'POST',
      body: JSON.stringify({ content: [{ type: 'text', text: 'A red fox running through snow at dawn' }] }),
    }),
  );
  check(video.code === 0, `create a video task: ${JSON.stringify(video)}`);
  const videoTask = video.data.taskId as string;

  const readImage = async () => json(await api(`/v1/images/generation/tasks/${imageTask}`));
  const readVideo = async () => json(await api(`/v1/video-generation/tasks/${videoTask}`));
  check((await readImage()).data.status === 'pending', 'the image task starts pending');
  // poll to success, moving the manual clock with the token: 1 s pending, 8 s generating (image-a at 2K); the video takes 60 s
  let image = await readImage();
  for (let i = 0; i < 10 && image.data.status !== 'success'; i++) {
    const advanced = await control('/__mock/clock/advance', { ms: 1000 });
    check(advanced.ok, `POST /__mock/clock/advance with the token: ${advanced.status}`);
    image = await readImage();
  }
  check(image.data.status === 'success', `the image task is ${String(image.data.status)} after 10 s of virtual time, expected success`);
  check((await control('/__mock/clock/advance', { ms: 60_000 })).ok, 'advance 60 s');
  const videoDone = await readVideo();
  check(videoDone.data.status === 'success', `the video task is ${String(videoDone.data.status)}, expected success`);

  const imageUrl = (image.data.images as { url: string }[])[0].url;
  check(imageUrl.startsWith(`${base}/media/`), `the media URL ${imageUrl} names the published address ${base}`);
  const png = await fetch(imageUrl);
  const pngBytes = Buffer.from(await png.arrayBuffer());
  const size = pngSize(pngBytes);
  check(png.status === 200 && png.headers.get('content-type') === 'image/png', `GET ${imageUrl}: ${png.status} ${png.headers.get('content-type')}`);
  check(size?.width === pixels.width && size.height === pixels.height, `the PNG is ${JSON.stringify(size)}, the estimate said ${JSON.stringify(pixels)}`);
  const mp4 = await fetch(videoDone.data.videoUrl as string);
  const mp4Bytes = Buffer.from(await mp4.arrayBuffer());
  check(mp4.status === 200 && mp4Bytes.toString('latin1', 4, 8) === 'ftyp' && mp4Bytes.length > 10_000, `the video: ${mp4.status}, ${mp4Bytes.length} bytes`);
  for (const path of ['/docs', '/openapi.json']) check((await fetch(base + path)).ok, `GET ${path}`);
  // Speech in words in every format the image encodes: eSpeak NG installed, opusscript's WebAssembly beside the bundle,
  // the AAC encoder's inline in it (a failing encoder would answer tones and log "encoder failed", checked below).
  const sizes: string[] = [];
  for (const [format, magic] of [
    ['opus', 'OggS'],
    ['flac', 'fLaC'],
    ['mp3', '\xff'],
    ['aac', '\xff'],
  ] as const) {
    const r = await api('/v1/tts', {
      method: 'POST',
      body: JSON.stringify({ input: 'The container speaks its words.', voice: 'en_ava', response_format: format }),
    });
    const b = Buffer.from(await r.arrayBuffer());
    check(
      r.status === 200 && b.toString('latin1', 0, magic.length) === magic,
      `TTS ${format}: ${r.status}, ${b.length} bytes starting ${b.toString('hex', 0, 4)}`,
    );
    sizes.push(`${format} ${b.length} bytes`);
  }
  const spoken = podman(['logs', first]);
  check(/speech: {3}words/.test(spoken.out + spoken.err), `the start-up lines say speech in words:\n${spoken.out}`);
  check(!/encoder failed|failed again/.test(spoken.out + spoken.err), `the log tells a speech failure:\n${spoken.out}${spoken.err}`);
  log(`speech in words: TTS ${sizes.join(', ')}`);
  const balance = (await json(await api('/v1/user/subscription'))).data.balance;
  log(
    `walkthrough in ${seconds(performance.now() - t)}: image ${imageTask} ${size.width}x${size.height} PNG, video ${videoTask} ${mp4Bytes.length} bytes MP4, balance ${String(balance)}`,
  );

  // 5. SIGTERM, then a new container on the same volume.
  t = performance.now();
  podman(['stop', '-t', '15', first]);
  const stopMs = performance.now() - t;
  const exit = podman(['inspect', '--format', '{{.State.ExitCode}}', first]).out;
  const logs = podman(['logs', first]);
  check(exit === '0', `the mock exited ${exit} on SIGTERM, expected 0`);
  check(/state: saved \/data\/state\.json/.test(logs.out + logs.err), 'the log says the state was saved to /data/state.json');
  podman(['rm', first]);
  log(`stopped (SIGTERM) in ${seconds(stopMs)}, exit 0, state saved in the volume`);

  const second = `mediagen-test-${tag}-2`;
  const restartMs = await start(second);
  const again = await readImage();
  const videoAgain = await readVideo();
  check(
    JSON.stringify(again.data) === JSON.stringify(image.data),
    `after the restart the image task reads ${JSON.stringify(again.data)}, was ${JSON.stringify(image.data)}`,
  );
  check(JSON.stringify(videoAgain.data) === JSON.stringify(videoDone.data), 'after the restart the video task reads the same');
  check((await json(await api('/v1/user/subscription'))).data.balance === balance, 'after the restart the balance is the same');
  const pngAgain = Buffer.from(await (await fetch(imageUrl)).arrayBuffer());
  const digest = (b: Buffer) => createHash('sha256').update(b).digest('hex');
  check(digest(pngAgain) === digest(pngBytes), 'after the restart the PNG has the same bytes');
  podman(['stop', '-t', '15', second]);
  log(`restarted on the same volume: answering in ${seconds(restartMs)}; the same tasks, balance and PNG`);

  if (late.length) throw new Failure(late.join('\n'));
  console.log(
    `[container] PASSED: image ${sizeMb.toFixed(1)} MB (target <= ${MAX_IMAGE_MB} MB), run -> healthy ${seconds(healthyMs)} ` +
      `(restart ${seconds(restartMs)}; target < ${seconds(TARGET_HEALTHY_MS)}), build ${seconds(buildMs)}, total ${seconds(performance.now() - started)}`,
  );
  if (healthyMs > TARGET_HEALTHY_MS)
    log(`note: run -> healthy took longer than the ${seconds(TARGET_HEALTHY_MS)} target (machine load: ${run('cat', ['/proc/loadavg']).out})`);
}

function cleanUp() {
  for (const c of made.containers.reverse()) podman(['rm', '-f', '-t', '2', c], { fail: false });
  for (const v of made.volumes) podman(['volume', 'rm', '-f', v], { fail: false });
}

try {
  await main();
  cleanUp();
} catch (e) {
  for (const c of made.containers.slice(-1)) {
    const l = podman(['logs', '--tail', '40', c], { fail: false });
    console.error(`[container] log of ${c}:\n${l.out}\n${l.err}`);
  }
  cleanUp();
  console.error(`[container] FAILED: ${e instanceof Failure ? e.message : (e as Error).stack}`);
  process.exit(1);
}
