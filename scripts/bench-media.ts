/**
 * The media part of `npm run bench` (also on its own: `npx tsx scripts/bench-media.ts`,
 * `--json` for the report bench.ts reads):
 *
 * 1. Render times of every kind of media the mock hosts (mock/media/), in this
 *    process: each audio format at 10 minutes, HLS, MIDI, MP4 video, PNG (the
 *    pictures labelled, as the mock serves them). The
 *    first run (cold: the JIT and the variant's loop warming up) and the median
 *    of the next 5; every run renders a new input (another variant or colour),
 *    so no run is a cache hit.
 * 2. Over HTTP, against the mock as users run it (a child process): the first
 *    request of a 10-minute MP3, a 60 s 1080p video and a 4K PNG (the render),
 *    then the median of later requests (the bounded cache); and the API's
 *    latency (GET /v1/user/subscription) while ten clients load a 4K image,
 *    against its latency idle: rendering must not block the API.
 *
 * Prints figures; asserts nothing.
 */
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { encodedAudio, loadAudioLoops, renderAudio } from '../mock/media/audio.ts';
import { hlsAudio } from '../mock/media/hls.ts';
import { renderMidi } from '../mock/media/midi.ts';
import { labelledImage } from '../mock/media/png.ts';
import type { Rgb } from '../mock/media/types.ts';
import { renderVideo, VIDEO_FPS } from '../mock/media/video.ts';
import { audioFormats } from '../schemas/media.ts';
import { freePort, median } from './bench-util.ts';

await loadAudioLoops(); // hlsAudio is synchronous: the loops load on first use

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const TEN_MINUTES = 600_000;
const KEY = 'mg_bench_secret1';
const json = process.argv.includes('--json');
const log = (s: string) => process.stderr.write(`${s}\n`);

export interface RenderRow {
  what: string;
  firstMs: number;
  medianMs: number;
  bytes: number;
}
export interface HttpRow {
  what: string;
  firstMs: number;
  cachedMedianMs: number;
  bytes: number;
}
export interface MediaReport {
  renders: RenderRow[];
  http: HttpRow[];
  apiIdle: { p50: number; p99: number };
  apiUnderImageLoad: { p50: number; p99: number; imageRps: number };
}

const pct = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))];
const round = (n: number) => Math.round(n * 10) / 10;

async function timeRender(what: string, run: (i: number) => Promise<number> | number): Promise<RenderRow> {
  let t = performance.now();
  const bytes = await run(0);
  const firstMs = performance.now() - t;
  const times: number[] = [];
  for (let i = 1; i <= 5; i++) {
    t = performance.now();
    await run(i);
    times.push(performance.now() - t);
  }
  return { what, firstMs: round(firstMs), medianMs: round(median(times)), bytes };
}

const colours = (i: number) => ({ bg: [30, 60, (200 + i) & 0xff] as Rgb, fg: [250, 200, 40] as Rgb });
/** The label pictures carry, as the mock draws it (mock/media/label.ts): a prompt that wraps to two lines, a model, an id. */
const label = (i: number) => ({
  prompt: `a lighthouse at dusk, waves crashing on the rocks below, take ${i}`,
  model: 'image-b-3.1-flash',
  id: `igen_0f3a9c2e${i}`,
});

async function renders(): Promise<RenderRow[]> {
  const rows: RenderRow[] = [];
  for (const [n, format] of audioFormats.entries())
    rows.push(await timeRender(`audio ${format}, 10 min`, async (i) => (await renderAudio({ format, durationMs: TEN_MINUTES, variant: n * 10 + i })).length));
  rows.push(await timeRender('AAC packets of 10 min (a sound track)', async (i) => (await encodedAudio('aac', TEN_MINUTES, i)).packets.length));
  rows.push(
    await timeRender('HLS: playlist and one segment of 3 h', async (i) => {
      const h = hlsAudio(3 * 3_600_000, i);
      return h.playlist((k) => `s${k}.aac`).length + (await h.segment(i)).length;
    }),
  );
  rows.push(await timeRender('MIDI, 10 min', (i) => renderMidi({ durationMs: TEN_MINUTES, variant: i }).length));
  rows.push(
    await timeRender(
      `MP4 1920x1080 60 s ${VIDEO_FPS} fps + AAC`,
      async (i) =>
        (
          await renderVideo({
            width: 1920,
            height: 1080,
            durationMs: 60_000,
            colours: colours(i),
            label: label(i),
            audio: await encodedAudio('aac', 60_000, i),
          })
        ).length,
    ),
  );
  rows.push(
    await timeRender(
      `MP4 1280x720 10 s ${VIDEO_FPS} fps + AAC`,
      async (i) =>
        (await renderVideo({ width: 1280, height: 720, durationMs: 10_000, colours: colours(i), label: label(i), audio: await encodedAudio('aac', 10_000, i) }))
          .length,
    ),
  );
  rows.push(await timeRender('PNG 4096x4096', (i) => labelledImage(4096, 4096, colours(i).bg, colours(i).fg, label(i)).length));
  rows.push(await timeRender('PNG 1280x720', (i) => labelledImage(1280, 720, colours(i).bg, colours(i).fg, label(i)).length));
  return rows;
}

// ------------------------------------------------------------------ HTTP

function call(port: number, method: string, path: string, body?: unknown): Promise<{ status: number; ms: number; bytes: number; json: any }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      { host: '127.0.0.1', port, method, path, headers: { authorization: `Bearer ${KEY}`, ...(data ? { 'content-type': 'application/json' } : {}) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const buf = Buffer.concat(chunks);
          let parsed: unknown;
          try {
            parsed = JSON.parse(buf.toString('utf8'));
          } catch {
            parsed = undefined;
          }
          resolve({ status: res.statusCode ?? 0, ms: performance.now() - t0, bytes: buf.length, json: parsed });
        });
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

async function overHttp(): Promise<Pick<MediaReport, 'http' | 'apiIdle' | 'apiUnderImageLoad'>> {
  const port = await freePort();
  const child = spawn(process.execPath, ['bin/mediagen-mock.js', '--port', String(port), '--clock', 'manual', '--quiet', '--no-rate-limit'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await call(port, 'GET', '/__mock/health')).status === 200) break;
      } catch {
        if (i > 200) throw new Error('the mock did not start');
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    const rows: HttpRow[] = [];
    const fetchTwice = async (what: string, path: string) => {
      const first = await call(port, 'GET', path);
      if (first.status !== 200) throw new Error(`${what}: HTTP ${first.status}`);
      const later: number[] = [];
      for (let i = 0; i < 15; i++) later.push((await call(port, 'GET', path)).ms);
      rows.push({ what, firstMs: round(first.ms), cachedMedianMs: round(median(later)), bytes: first.bytes });
    };
    await fetchTwice('sample audio mp3, 10 min', `/__mock/samples/audio?format=mp3&durationMs=${TEN_MINUTES}`);
    const video = await call(port, 'POST', '/v1/video-generation/generate', {
      model: 'family1-video-2-pro',
      resolution: '1080p',
      duration: 15,
      content: [{ type: 'text', text: 'a lighthouse' }],
    });
    const image = await call(port, 'POST', '/v1/images/generation/async', {
      provider: 'vendor_b',
      model: 'image-b-3.1-flash',
      prompt: 'tiles',
      imageConfig: { imageSize: '4K', aspectRatio: '1:1' },
    });
    await call(port, 'POST', '/__mock/clock/advance', { ms: 3_600_000 });
    const v = (await call(port, 'GET', `/v1/video-generation/tasks/${video.json.data.taskId}`)).json.data;
    const img = (await call(port, 'GET', `/v1/images/generation/tasks/${image.json.data.taskId}`)).json.data;
    await fetchTwice('video task MP4, 1080p 15 s + AAC', new URL(v.videoUrl).pathname);
    await fetchTwice('image task PNG, 4096x4096', new URL(img.images[0].url).pathname);

    const apiLatency = async (n: number) => {
      const xs: number[] = [];
      for (let i = 0; i < n; i++) xs.push((await call(port, 'GET', '/v1/user/subscription')).ms);
      return { p50: round(pct(xs, 0.5)), p99: round(pct(xs, 0.99)) };
    };
    const apiIdle = await apiLatency(300);
    // A fresh 4K image (never rendered), loaded by ten clients while the API is measured.
    const fresh = await call(port, 'POST', '/v1/images/generation/async', {
      provider: 'vendor_b',
      model: 'image-b-3.1-flash',
      prompt: 'stripes',
      imageConfig: { imageSize: '4K', aspectRatio: '1:1' },
    });
    await call(port, 'POST', '/__mock/clock/advance', { ms: 3_600_000 });
    const freshUrl = new URL((await call(port, 'GET', `/v1/images/generation/tasks/${fresh.json.data.taskId}`)).json.data.images[0].url).pathname;
    const load = autocannon({ url: `http://127.0.0.1:${port}${freshUrl}`, connections: 10, duration: 3 });
    const api = await apiLatency(300);
    const result = await load;
    return { http: rows, apiIdle, apiUnderImageLoad: { ...api, imageRps: Math.round(result.requests.average) } };
  } finally {
    child.kill('SIGTERM');
  }
}

/** Runs both parts; prints a table (or the JSON report with --json). */
async function main() {
  log('media: render times...');
  const r = await renders();
  log('media: over HTTP...');
  const h = await overHttp();
  const report: MediaReport = { renders: r, ...h };
  if (json) return void process.stdout.write(JSON.stringify(report));
  console.log(formatMediaReport(report).join('\n'));
}

/** The report as printed lines (bench.ts prints the same). */
export function formatMediaReport(m: MediaReport): string[] {
  const kb = (b: number) => (b >= 1e6 ? `${(b / 1e6).toFixed(1)} MB` : `${(b / 1e3).toFixed(1)} KB`);
  const out = [
    '== Media render times (ms; first = cold, median of 5 more, each a new input) ==',
    `${'what'.padEnd(44)} ${'first'.padStart(8)} ${'median'.padStart(8)}  size`,
  ];
  for (const x of m.renders)
    out.push(
      `${x.what.padEnd(44)} ${String(x.firstMs).padStart(8)} ${String(x.medianMs).padStart(8)}  ${x.what.startsWith('AAC packets') ? `${x.bytes} packets` : kb(x.bytes)}`,
    );
  out.push(
    '',
    '== Media over HTTP (the mock as a child process; first request renders, later ones hit the cache) ==',
    `${'what'.padEnd(44)} ${'first'.padStart(8)} ${'cached'.padStart(8)}  size`,
  );
  for (const x of m.http) out.push(`${x.what.padEnd(44)} ${String(x.firstMs).padStart(8)} ${String(x.cachedMedianMs).padStart(8)}  ${kb(x.bytes)}`);
  out.push(
    '',
    `API GET /v1/user/subscription p50/p99: idle ${m.apiIdle.p50}/${m.apiIdle.p99} ms; while 10 clients load a 4K PNG (${m.apiUnderImageLoad.imageRps} req/s) ${m.apiUnderImageLoad.p50}/${m.apiUnderImageLoad.p99} ms`,
  );
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
