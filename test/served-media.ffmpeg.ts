/**
 * Every kind of media the mock serves, judged by an independent decoder: a
 * mock on the manual clock makes tasks in every area that hosts media (videos
 * at each resolution and at a long duration, images, speech in each format,
 * podcasts with their HLS playlist, narrated page decks and their video, music),
 * and every URL its answers carry is fetched and decoded whole by Debian's
 * ffmpeg (`ffprobe -count_frames` decodes every frame of every stream), which
 * must print no error and find the stream kind the Content-Type names; each
 * video lasts what its task asked for. The binary answers of /v1/tts in its
 * six formats are decoded too. A file served under several URLs is decoded once.
 *
 * Run by `npm run test:media` (vitest.media.config.ts), which `.ci/run` calls:
 * about forty ffmpeg processes are too heavy for `npm test`'s time budget.
 *
 * Where ffmpeg is absent the suite is skipped, except in CI (CI=true), where
 * `.ci/run` installs it and its absence fails the run: these checks are the
 * outside truth for the hand-written encoders (docs/guides/media.md).
 *
 * Seed: document 1, "Video task" and "Image: response"; document 2, "POST /v1/tts
 * and POST /v1/audio/speech" (the six formats), "Podcast episode" (MP3, HLS,
 * SRT); document 3, "Music task", "Page-deck episode". What a file must decode
 * as comes from its Content-Type (schemas/media.ts), not from the renderer.
 */
import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audioFormats, durationMatches, renderedAudio } from '../schemas/media.ts';
import { family5Body, flowSpeechBody, imageBody, musicBody, pathOf, podcastBody, speechBody, storybookBody, ttsBody, videoBody } from './factories.ts';
import { KEY, startMock, type TestMock } from './helpers.ts';

const hasFfmpeg = spawnSync('ffmpeg', ['-version']).status === 0 && spawnSync('ffprobe', ['-version']).status === 0;

describe('ffmpeg is installed in CI', () => {
  it.runIf(process.env.CI === 'true')('ffmpeg and ffprobe run (.ci/run installs them)', () => {
    expect(hasFfmpeg).toBe(true);
  });
});

const run = promisify(execFile);

/** What ffprobe read of one input after decoding every frame of it (`-count_frames`). */
interface Probe {
  /** Each stream's codec type (video, audio, subtitle) and name, and the frames decoded. */
  streams: { codec_type: string; codec_name: string; nb_read_frames?: string }[];
  /** The container's duration in seconds, where it has one. */
  seconds: number;
  /** What ffprobe printed at level error while decoding: empty when the input is clean. */
  errors: string;
}

/**
 * Decodes every frame of every stream of `input` with ffprobe (`-count_frames`), one process per input.
 * Asynchronous: ffprobe may read the input over HTTP from the mock, which answers in this process.
 */
async function probe(input: string, inputArgs: string[] = []): Promise<Probe> {
  const args = [
    '-v',
    'error',
    ...inputArgs,
    '-count_frames',
    '-show_entries',
    'stream=codec_type,codec_name,nb_read_frames:format=duration',
    '-of',
    'json',
    input,
  ];
  let stdout: string;
  let errors: string;
  try {
    ({ stdout, stderr: errors } = await run('ffprobe', args, { maxBuffer: 1 << 24 }));
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    stdout = err.stdout || '{}';
    errors = `exit ${err.code}: ${err.stderr}`;
  }
  const out = JSON.parse(stdout) as { streams?: Probe['streams']; format?: { duration?: string } };
  return { streams: out.streams ?? [], seconds: Number(out.format?.duration ?? NaN), errors };
}

/** The stream kind a Content-Type must decode to (schemas/media.ts), or null for files ffmpeg does not decode (MIDI, SRT is text). */
function expectedKind(contentType: string): 'video' | 'audio' | 'image' | 'playlist' | 'subtitle' | null {
  // Content-Types of schemas/media.ts: audio/* (MIDI aside) and raw PCM are audio; the HLS playlist's segments are audio
  if (contentType.startsWith('video/')) return 'video';
  if (contentType === 'audio/midi') return null;
  if (contentType.startsWith('audio/')) return 'audio';
  if (contentType.startsWith('image/')) return 'image';
  if (contentType === 'application/vnd.apple.mpegurl') return 'playlist';
  if (contentType === 'application/x-subrip') return 'subtitle';
  return null;
}

/** Every absolute URL under `/media/` in a JSON value, with the JSON path it was found at. */
function mediaUrls(value: unknown, at = '$', out: { at: string; url: string }[] = []): { at: string; url: string }[] {
  if (typeof value === 'string') {
    if (/^https?:\/\/[^/]+\/media\//.test(value)) out.push({ at, url: value });
  } else if (Array.isArray(value)) value.forEach((v, i) => mediaUrls(v, `${at}[${i}]`, out));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) mediaUrls(v, `${at}.${k}`, out);
  return out;
}

describe.skipIf(!hasFfmpeg)('every served media file decodes in ffmpeg', () => {
  let mock: TestMock;
  let dir: string;
  /** The reads whose answers carry media URLs, by label. */
  const reads: { label: string; path: string; answer?: unknown }[] = [];
  /** The files decoded: where their URL was found, their Content-Type, codecs, duration and size. */
  const decoded: { where: string; type: string; codecs: string; seconds: number; bytes: number }[] = [];
  const skipped: string[] = [];
  /** The duration each video task asked for, in seconds, by label. */
  const declaredSeconds = new Map<string, number>();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ffmpeg-media-'));
    mock = await startMock();
    const create = async (label: string, op: Parameters<typeof pathOf>[0], body: unknown, read: Parameters<typeof pathOf>[0], idField: string) => {
      const r = await mock.call('POST', pathOf(op), { body });
      expect(r.status, `${label}: ${r.text}`).toBeLessThan(300);
      const id = r.json.data[idField] as string;
      reads.push({ label, path: pathOf(read, { [idField]: id }) });
      if (typeof (body as { duration?: unknown }).duration === 'number') declaredSeconds.set(label, (body as { duration: number }).duration);
      return id;
    };
    // Videos: each resolution of the shared endpoint's models at their shortest, one long video, and family5.
    for (const [model, resolution] of [
      ['family1-video-2-pro', '480p'],
      ['family1-video-2-pro', '720p'],
      ['family1-video-2-pro', '1080p'],
      ['family3-h3', '768p'],
      ['family3-h3', '2k'],
    ] as const) {
      await mock.advance(61_000); // the shared video-generate limit: 5 per minute (document 1, "Limits")
      await create(`video ${model} ${resolution}`, 'createVideoTask', videoBody({ model, resolution, duration: 4 }), 'getVideoTask', 'taskId');
    }
    await mock.advance(61_000);
    await create('video 480p 12 s', 'createVideoTask', videoBody({ model: 'family1-video-2-pro', resolution: '480p', duration: 12 }), 'getVideoTask', 'taskId');
    await create('family5 video', 'createFamily5VideoTask', family5Body(), 'getVideoTask', 'taskId');
    await create('image task', 'createImageTask', imageBody(), 'getImageTask', 'taskId');
    await create('podcast', 'createPodcastEpisode', podcastBody(), 'getPodcastEpisode', 'episodeId');
    await create('flow speech', 'createFlowSpeechEpisode', flowSpeechBody(), 'getFlowSpeechEpisode', 'episodeId');
    const deck = await create('page deck', 'createStorybookEpisode', storybookBody(), 'getStorybookEpisode', 'episodeId');
    await mock.advance(3_600_000);
    const v = await mock.call('POST', pathOf('createStorybookVideo', { episodeId: deck }));
    expect(v.status, v.text).toBeLessThan(300);
    await create('music', 'generateMusic', musicBody(), 'getMusicTask', 'taskId');
    await mock.advance(3_600_000);
    const speech = await mock.call('POST', pathOf('createSpeechScript'), { body: speechBody() });
    expect(speech.status, speech.text).toBe(200);
    reads.push({ label: 'speech script', path: '', answer: speech.json });
  });

  afterAll(async () => {
    await mock?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the answers carry media of every kind, and each distinct file loads and decodes whole as its Content-Type says', async () => {
    const seenPaths = new Set<string>();
    const seenBytes = new Set<string>();
    for (const read of reads) {
      const answer = read.path ? (await mock.call('GET', read.path)).json : read.answer;
      for (const { at, url } of mediaUrls(answer)) {
        const path = new URL(url).pathname + new URL(url).search;
        if (seenPaths.has(path)) continue;
        seenPaths.add(path);
        const res = await fetch(mock.base + path);
        const where = `${read.label} ${at}`;
        expect(res.status, where).toBe(200);
        const type = (res.headers.get('content-type') ?? '').split(';')[0];
        const bytes = new Uint8Array(await res.arrayBuffer());
        const hash = createHash('sha256').update(bytes).digest('hex');
        const kind = expectedKind(type);
        if (kind === null) {
          skipped.push(`${where} (${type}): not a kind ffmpeg decodes`);
          continue;
        }
        if (seenBytes.has(hash)) continue; // the same bytes under another URL (a provider URL, a repeated page image)
        seenBytes.add(hash);
        let p: Probe;
        if (kind === 'playlist') {
          // the playlist and its segments read over HTTP from the mock, as a player reads them
          p = await probe(mock.base + path, ['-protocol_whitelist', 'http,tcp,crypto,file']);
        } else {
          const file = join(dir, `${seenBytes.size}`);
          writeFileSync(file, bytes);
          p = await probe(file);
        }
        expect(p.errors, `${where} (${type})`).toBe('');
        const want = kind === 'image' ? 'video' : kind === 'playlist' ? 'audio' : kind;
        expect(
          p.streams.map((s) => s.codec_type),
          `${where} (${type})`,
        ).toContain(want);
        for (const s of p.streams) if (s.codec_type !== 'subtitle') expect(Number(s.nb_read_frames), `${where}: frames decoded`).toBeGreaterThan(0);
        // a video lasts what its task asked for (document 1, "Video task": duration in seconds)
        const declared = declaredSeconds.get(read.label);
        if (type === 'video/mp4' && declared !== undefined)
          expect(durationMatches(p.seconds * 1000, declared * 1000), `${where}: ${p.seconds} s for ${declared} s`).toBe(true);
        decoded.push({ where, type, codecs: p.streams.map((s) => s.codec_name).join('+'), seconds: p.seconds, bytes: bytes.length });
      }
    }
    console.log(
      `ffmpeg decoded ${decoded.length} distinct served media files with 0 errors:\n` +
        decoded
          .map(
            (d) =>
              `  ${d.type.padEnd(31)} ${d.codecs.padEnd(9)} ${String(d.bytes).padStart(8)} B ${Number.isNaN(d.seconds) ? '' : `${d.seconds} s `}${d.where}`,
          )
          .join('\n') +
        (skipped.length ? `\nnot decoded: ${skipped.join('; ')}` : ''),
    );
    const types = new Set(decoded.map((d) => d.type));
    for (const t of ['video/mp4', 'image/png', 'audio/mpeg', 'application/vnd.apple.mpegurl', 'application/x-subrip']) expect(types, t).toContain(t);
    expect(
      decoded.filter((d) => d.type === 'video/mp4' && declaredSeconds.has(d.where.split(' $')[0])).length,
      'videos with a declared duration',
    ).toBeGreaterThanOrEqual(6);
  }, 180_000);

  it.each(audioFormats)('the %s answer of /v1/tts decodes whole', async (format) => {
    const r = await fetch(mock.base + pathOf('synthesizeSpeech'), {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(ttsBody({ format })),
    });
    expect(r.status).toBe(200);
    const file = join(dir, `tts.${format}`);
    writeFileSync(file, new Uint8Array(await r.arrayBuffer()));
    // raw PCM has no header: its layout is the assumed one of schemas/media.ts
    const p = await probe(file, format === 'pcm' ? ['-f', 's16le', '-ar', String(renderedAudio.sampleRate), '-ac', String(renderedAudio.channels)] : []);
    expect(p.errors).toBe('');
    expect(p.streams.map((s) => s.codec_type)).toEqual(['audio']);
    expect(Number(p.streams[0].nb_read_frames)).toBeGreaterThan(0);
  });
});
