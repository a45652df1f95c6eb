/**
 * `npm run test:container` (run by .ci/run after `npm test`): builds the
 * container image (Dockerfile) and checks it the way a CI `services:` entry or
 * a compose file uses it (docs/guides/container.md,
 * decisions/0023-container-image.md).
 *
 * 1. podman, runc and debootstrap: installed with apt when missing (one
 *    `apt-get update`). Where the machine cannot run containers (not Linux, no
 *    apt and no podman, not root, `podman info` fails) it prints why and exits
 *    0: a skip, not a pass.
 * 2. The base image `localhost/mediagen-base`: Debian 13 (trixie) minbase and
 *    Debian's nodejs (20.19) by debootstrap, imported with `podman import`.
 *    Made once: an existing image of that name is reused.
 * 3. The image, `podman build --pull=never --build-arg
 *    BASE=localhost/mediagen-base` (npm trusts the host's CA bundle through
 *    the build secret "ca"). Its size must be at most 250 MB.
 * 4. A container on a free loopback port (`-p 127.0.0.1:PORT:4010`), a fresh
 *    volume on /data, the manual clock and a control token by their variables.
 *    The time from `podman run` to the first answer of /__mock/health through
 *    the published port is reported (target under 2 s); then the image's own
 *    HEALTHCHECK must say healthy (`podman healthcheck run`).
 * 5. A walkthrough through the published port: the control API refuses a
 *    request without the token; an image task (estimate, create, advance the
 *    clock with the token, poll to success) whose media URL loads a PNG of the
 *    estimated pixel size; a video task whose MP4 renders (mediabunny, bundled);
 *    /docs and /openapi.json answer.
 * 6. `podman stop` (SIGTERM): exit 0, the state saved into the volume. A new
 *    container on the same volume reads the same tasks (same status, same
 *    result), the same balance and the same PNG bytes.
 *
 * Containers and volumes it made are removed, whatever happens; the images
 * (the base, localhost/mediagen-mock:build and :test) stay as the next run's
 * cache, and those they replace are removed. Exits non-zero on any failure, with the container's log.
 *
 *   npm run test:container            (or: npx tsx scripts/test-container.ts)
 *   MEDIAGEN_CONTAINER_REBUILD_BASE=1 npm run test:container    (make the base again)
 */
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const started = performance.now();
const BASE_IMAGE = 'localhost/mediagen-base';
const IMAGE = 'localhost/mediagen-mock:test';
/** The build stage, tagged so that its layers (npm ci above all) stay the next run's cache. */
const BUILD_IMAGE = 'localhost/mediagen-mock:build';
const MIRROR = process.env.MEDIAGEN_DEBIAN_MIRROR ?? 'http://deb.debian.org/debian';
const CA_BUNDLE = '/etc/ssl/certs/ca-certificates.crt';
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

async function main() {
  // 2. The base image from Debian's packages.
  /** The id of an image, or undefined when there is none of that name. */
  const imageId = (ref: string) => {
    const r = podman(['image', 'inspect', '--format', '{{.Id}}', ref], { fail: false });
    return r.code === 0 ? r.out : undefined;
  };
  const previous = [BUILD_IMAGE, IMAGE, BASE_IMAGE].map((ref) => ({ ref, id: imageId(ref) }));
  const rebuild = !!process.env.MEDIAGEN_CONTAINER_REBUILD_BASE;
  if (rebuild || podman(['image', 'exists', BASE_IMAGE], { fail: false }).code !== 0) {
    const t = performance.now();
    const dir = mkdtempSync(join(tmpdir(), 'mediagen-base-'));
    try {
      log(`making ${BASE_IMAGE}: debootstrap --variant=minbase --include=nodejs trixie (${MIRROR})`);
      run('debootstrap', ['--variant=minbase', '--include=nodejs', 'trixie', join(dir, 'root'), MIRROR], { stdio: ['ignore', 'ignore', 'pipe'] });
      // what an image does not need: downloaded packages, package lists, documentation, translations
      run('sh', [
        '-c',
        'cd "$1" && rm -rf var/cache/apt/archives/*.deb var/cache/apt/*.bin var/lib/apt/lists/* usr/share/doc/* usr/share/man/* usr/share/info/* usr/share/locale/*',
        'sh',
        join(dir, 'root'),
      ]);
      run('sh', [
        '-c',
        `tar -C "$1" -c . | podman ${PODMAN.join(' ')} import --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' - ${BASE_IMAGE}`,
        'sh',
        join(dir, 'root'),
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    log(`made ${BASE_IMAGE} in ${seconds(performance.now() - t)}`);
  } else log(`reusing ${BASE_IMAGE} (MEDIAGEN_CONTAINER_REBUILD_BASE=1 makes it again)`);
  log(`base: ${podman(['run', '--rm', ...ULIMITS, BASE_IMAGE, 'node', '--version']).out} (Debian's nodejs)`);

  // 3. The image.
  let t = performance.now();
  const secret = existsSync(CA_BUNDLE) ? ['--secret', `id=ca,src=${CA_BUNDLE}`] : [];
  log('building the image (podman build --pull=never; minutes when npm ci is not cached yet)');
  for (const [target, tagged] of [
    ['build', BUILD_IMAGE],
    ['', IMAGE],
  ]) {
    const args = ['build', '--format', 'docker', '--pull=never', '--network', 'host', ...ULIMITS, ...secret, '--build-arg', `BASE=${BASE_IMAGE}`];
    const build = podman([...args, ...(target ? ['--target', target] : []), '-t', tagged, root], { fail: false });
    if (build.code !== 0) throw new Failure(`podman build exited ${build.code}:\n${(build.out + '\n' + build.err).split('\n').slice(-30).join('\n')}`);
  }
  // The images these replaced, and their layers no other image uses: each new base or lock file would otherwise leave 1.4 GB behind.
  for (const { ref, id } of previous) if (id && id !== imageId(ref)) podman(['rmi', id], { fail: false });
  const buildMs = performance.now() - t;
  const sizeMb = Number(podman(['image', 'inspect', '--format', '{{.Size}}', IMAGE]).out) / 1e6;
  log(`built ${IMAGE} in ${seconds(buildMs)}: ${sizeMb.toFixed(1)} MB`);
  check(sizeMb <= MAX_IMAGE_MB, `the image is ${sizeMb.toFixed(1)} MB, above the ${MAX_IMAGE_MB} MB target`);

  // 4. Run it.
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

  /** The image's HEALTHCHECK, run by podman (no systemd here to schedule it): it must say healthy. */
  function healthcheck(name: string) {
    const t0 = performance.now();
    const r = podman(['healthcheck', 'run', name], { fail: false });
    check(r.code === 0, `podman healthcheck run ${name}: exit ${r.code} ${r.out} ${r.err}`);
    const status = podman(['inspect', '--format', '{{.State.Health.Status}}', name]).out;
    check(status === 'healthy', `health status ${status}, expected healthy`);
    return performance.now() - t0;
  }

  // What any container of this image costs here before the mock's own start-up: `podman run` of `node -e 0`.
  t = performance.now();
  podman(['run', '--rm', ...ULIMITS, '--entrypoint', 'node', IMAGE, '-e', '0']);
  const bareMs = performance.now() - t;

  const first = `mediagen-test-${tag}-1`;
  const healthyMs = await start(first);
  const hcMs = healthcheck(first);
  log(
    `run -> answering /__mock/health: ${seconds(healthyMs)} (target < ${seconds(TARGET_HEALTHY_MS)}; a bare \`podman run ... node -e 0\` takes ${seconds(bareMs)} here); ` +
      `HEALTHCHECK healthy (${seconds(hcMs)})`,
  );

  // 5. The walkthrough through the published port.
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
  const balance = (await json(await api('/v1/user/subscription'))).data.balance;
  log(
    `walkthrough in ${seconds(performance.now() - t)}: image ${imageTask} ${size.width}x${size.height} PNG, video ${videoTask} ${mp4Bytes.length} bytes MP4, balance ${String(balance)}`,
  );

  // 6. SIGTERM, then a new container on the same volume.
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
