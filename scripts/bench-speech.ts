/**
 * The speech part of `npm run bench` (also on its own: `npx tsx scripts/bench-speech.ts`,
 * `--json` for the report bench.ts reads): what speech in words costs, with
 * eSpeak NG (mock/http/espeak.ts) in an in-process mock (createMock's fetch,
 * no sockets). For a script of about 170 and 1,000 characters:
 *
 * - create: POST /v1/speech, which renders each sentence with espeak-ng and
 *   measures it (cold: a new mock and engine, nothing cached; cached: the same
 *   script again, the engine's renders kept);
 * - mp3: the first GET of its MP3 (the sentences again from the engine's cache,
 *   resampled, encoded with lamejs), then later GETs (the media cache);
 * - formats: POST /v1/tts of the 1,000-character text in each format, once
 *   the engine has its sentences (so the time is the encoder's: lamejs for
 *   mp3, libopus in WebAssembly for opus, the FLAC writer of mock/media/audio,
 *   none for wav), its CPU time and its size; aac is tones (no encoder).
 *
 * Prints figures; asserts nothing. Without espeak-ng it says so and prints no rows.
 */
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { median } from './bench-util.ts';

const KEY = 'mg_bench_secret1';
const json = process.argv.includes('--json');

export interface SpeechRow {
  what: string;
  chars: number;
  audioSeconds: number;
  createColdMs: number;
  createCachedMs: number;
  mp3FirstMs: number;
  /** CPU time of this process for the first GET (user + system; the encode), steadier than wall time on a loaded machine. */
  mp3FirstCpuMs: number;
  mp3CachedMs: number;
  bytes: number;
}
/** One TTS format: the answer's time (wall and CPU of this process) and size, once the engine has the sentences. */
export interface FormatRow {
  format: string;
  audioSeconds: number;
  ms: number;
  cpuMs: number;
  bytes: number;
}
export interface SpeechReport {
  engine: string | null;
  rows: SpeechRow[];
  formats?: FormatRow[];
}

const round = (n: number) => Math.round(n * 10) / 10;
const SENTENCES = [
  'Mock servers let frontend teams work before the backend exists.',
  'This one keeps its state, so a whole flow can be tried offline.',
  'Every task moves on a virtual clock that a test can advance.',
  'Media files decode at their declared size and duration.',
  'Errors come in the documented envelope with a catalogued code.',
  'Sessions keep worlds apart, so parallel tests never meet.',
];
/** A script of about `chars` characters: the sentences above in turn, two voices alternating by sentence group. */
function scriptOf(chars: number): { speakerId: string; content: string }[] {
  const out: string[] = [];
  let n = 0;
  for (let i = 0; n < chars; i++) {
    const s = SENTENCES[i % SENTENCES.length];
    out.push(s);
    n += s.length + 1;
  }
  const half = Math.ceil(out.length / 2);
  return [
    { speakerId: 'en_ava', content: out.slice(0, half).join(' ') },
    { speakerId: 'en_noah', content: out.slice(half).join(' ') },
  ];
}

async function measure(version: string, chars: number): Promise<SpeechRow> {
  // loaded here, not at the top: bench.ts imports this module for its report's format only
  const { createEspeakSynth } = await import('../mock/http/espeak.ts');
  const { createMock } = await import('../mock/index.ts');
  const scripts = scriptOf(chars);
  const total = scripts.reduce((n, s) => n + s.content.length, 0);
  const mock = createMock({ seed: 1, clock: 'manual', speech: createEspeakSynth(version) });
  try {
    const create = async () => {
      const t = performance.now();
      const r = await mock.fetch('http://bench/v1/speech', {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ scripts, speed: 1 }),
      });
      const data = ((await r.json()) as { data: { audioUrl: string; audioDuration: number } }).data;
      return { ms: performance.now() - t, ...data };
    };
    const get = async (url: string) => {
      const t = performance.now();
      const cpu = process.cpuUsage();
      const bytes = (await (await mock.fetch(url.replace(/^https?:\/\/[^/]+/, 'http://bench'))).arrayBuffer()).byteLength;
      const used = process.cpuUsage(cpu);
      return { ms: performance.now() - t, cpuMs: (used.user + used.system) / 1000, bytes };
    };
    const cold = await create();
    const first = await get(cold.audioUrl);
    const later: number[] = [];
    for (let i = 0; i < 5; i++) later.push((await get(cold.audioUrl)).ms);
    const again: number[] = [];
    for (let i = 0; i < 3; i++) again.push((await create()).ms);
    return {
      what: `/v1/speech, ${total} characters`,
      chars: total,
      audioSeconds: round(cold.audioDuration / 1000),
      createColdMs: round(cold.ms),
      createCachedMs: round(median(again)),
      mp3FirstMs: round(first.ms),
      mp3FirstCpuMs: round(first.cpuMs),
      mp3CachedMs: round(median(later)),
      bytes: first.bytes,
    };
  } finally {
    await mock.close();
  }
}

/** POST /v1/tts of about 1,000 characters in each format (the sentences rendered once before, by a wav answer). */
async function measureFormats(version: string): Promise<FormatRow[]> {
  const { createEspeakSynth } = await import('../mock/http/espeak.ts');
  const { createMock } = await import('../mock/index.ts');
  const input = scriptOf(1_000)
    .map((s) => s.content)
    .join(' ');
  const mock = createMock({ seed: 1, clock: 'manual', speech: createEspeakSynth(version) });
  try {
    const tts = async (format: string) => {
      const t = performance.now();
      const cpu = process.cpuUsage();
      const r = await mock.fetch('http://bench/v1/tts', {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ input, voice: 'en_ava', response_format: format, speed: 1 }),
      });
      const bytes = (await r.arrayBuffer()).byteLength;
      const used = process.cpuUsage(cpu);
      return { ms: performance.now() - t, cpuMs: (used.user + used.system) / 1000, bytes };
    };
    const wav = await tts('wav'); // renders and caches the sentences
    const audioSeconds = round((wav.bytes - 44) / 2 / 24_000);
    const rows: FormatRow[] = [];
    for (const format of ['mp3', 'opus', 'flac', 'wav', 'aac']) {
      const runs = [await tts(format), await tts(format), await tts(format)];
      const best = runs.reduce((a, b) => (b.cpuMs < a.cpuMs ? b : a));
      rows.push({ format, audioSeconds, ms: round(median(runs.map((x) => x.ms))), cpuMs: round(best.cpuMs), bytes: best.bytes });
    }
    return rows;
  } finally {
    await mock.close();
  }
}

/** Runs the measurements (none without espeak-ng). */
export async function speechReport(): Promise<SpeechReport> {
  const { espeakVersion } = await import('../mock/http/espeak.ts');
  const version = espeakVersion();
  if (!version) return { engine: null, rows: [] };
  return { engine: `espeak-ng ${version}`, rows: [await measure(version, 170), await measure(version, 1_000)], formats: await measureFormats(version) };
}

/** The report as printed lines (bench.ts prints the same). */
export function formatSpeechReport(s: SpeechReport): string[] {
  if (!s.engine) return ['== Speech in words: espeak-ng not installed (speech is tones; apt-get install espeak-ng) =='];
  const out = [
    `== Speech in words (${s.engine}; ms; create = POST /v1/speech, mp3 = GET of its MP3) ==`,
    `${'what'.padEnd(34)} ${'audio'.padStart(7)} ${'create cold'.padStart(12)} ${'cached'.padStart(7)} ${'mp3 first'.padStart(10)} ${'(cpu)'.padStart(7)} ${'cached'.padStart(7)}  size`,
  ];
  for (const r of s.rows)
    out.push(
      `${r.what.padEnd(34)} ${`${r.audioSeconds} s`.padStart(7)} ${String(r.createColdMs).padStart(12)} ${String(r.createCachedMs).padStart(7)} ${String(r.mp3FirstMs).padStart(10)} ${String(r.mp3FirstCpuMs).padStart(7)} ${String(r.mp3CachedMs).padStart(7)}  ${(r.bytes / 1e3).toFixed(1)} KB`,
    );
  const per100 = s.rows.map((r) => `${((r.audioSeconds / r.chars) * 100).toFixed(1)} s`).join(', ');
  out.push(`seconds of speech per 100 characters: ${per100}`);
  if (s.formats?.length) {
    out.push(`TTS of ${s.formats[0].audioSeconds} s of speech by format (ms, median of 3; cpu: the least of 3; aac: tones, no encoder):`);
    for (const f of s.formats)
      out.push(`  ${f.format.padEnd(5)} ${String(f.ms).padStart(8)} ms ${`(cpu ${f.cpuMs})`.padStart(13)}  ${(f.bytes / 1e3).toFixed(1).padStart(8)} KB`);
  }
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const report = await speechReport();
  if (json) process.stdout.write(JSON.stringify(report));
  else console.log(formatSpeechReport(report).join('\n'));
}
