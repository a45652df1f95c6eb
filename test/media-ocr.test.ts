/**
 * The labels of the mock's pictures, judged from outside: tesseract (Debian's tesseract-ocr) reads the label
 * back from an image task's PNG, a video task's cover and a frame that ffmpeg extracts from its MP4 at a known
 * time, all fetched from the mock's URLs. Recovered: every word of the prompt, the model and the pixel size; in
 * the frame, the timecode and frame number of the frame ffmpeg says it took (its pts, from ffmpeg's showinfo).
 *
 * OCR of a bitmap font confuses look-alike characters (the 8x13 font's `1` read as `i`, `l` or `t`, `0` as `O`,
 * `.` as `,`), so expected and read text are both folded before comparing: lower case, `i l 1 |` as one letter,
 * `o 0` as one, `,` as `.`, dashes as `-`; a token of 10 or more characters (the model) is recovered when a
 * stretch of the text is within one edit per 10 characters of it (character error rate at most 10%), a shorter
 * one (a word, the size, the timecode, the frame number) only when found exactly. Each check prints its score
 * (tokens recovered / expected) and what tesseract read.
 *
 * Where tesseract or ffmpeg is missing the tests are skipped, except under CI=true, where they fail: CI
 * (.ci/run installs tesseract-ocr and ffmpeg) always runs them.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { videoPixels } from '../schemas/video.ts';
import { pathOf } from './factories.ts';
import { startMock, type TestMock } from './helpers.ts';

const has = (cmd: string, arg: string) => spawnSync(cmd, [arg]).status === 0;
const tools = { tesseract: has('tesseract', '--version'), ffmpeg: has('ffmpeg', '-version') };
const ci = process.env.CI === 'true';

/** Lower case, look-alike characters folded (see the file's comment). */
const fold = (s: string) =>
  s
    .toLowerCase()
    .replace(/[il1|!]/g, 'l')
    .replace(/o/g, '0')
    .replace(/,/g, '.')
    .replace(/[\u2014\u2013]/g, '-');

/** Fewest edits (insertions, deletions, substitutions) turning `pattern` into some stretch of `text` (Sellers, 1980). */
function substringDistance(pattern: string, text: string): number {
  let prev = new Array<number>(text.length + 1).fill(0);
  for (let i = 1; i <= pattern.length; i++) {
    const row = [i];
    for (let j = 1; j <= text.length; j++) row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (pattern[i - 1] === text[j - 1] ? 0 : 1));
    prev = row;
  }
  return Math.min(...prev);
}

/** Tokens of `expected` recovered in the OCR text (see the file's comment), and the score line. */
function score(what: string, read: string, expected: string[]): { missing: string[] } {
  const text = fold(read);
  const missing = expected.filter((t) => substringDistance(fold(t), text) > Math.floor(t.length / 10));
  console.log(
    `OCR ${what}: ${expected.length - missing.length}/${expected.length} recovered${missing.length ? ` (missing ${missing.join(', ')})` : ''}; read: ${JSON.stringify(read.trim())}`,
  );
  return { missing };
}

let dir = '';
let crops = 0;
/** ffmpeg: the top-left 720x240 (at most) of a picture or of a video's frame at `at` seconds, as a PNG file; the frame's pts. */
function crop(input: string, at?: number): { file: string; ptsTime?: number } {
  const file = join(dir, `crop-${crops++}.png`);
  const args = [
    '-v',
    'info',
    '-y',
    ...(at !== undefined ? ['-ss', String(at), '-copyts'] : []),
    '-i',
    input,
    '-frames:v',
    '1',
    '-vf',
    'showinfo,crop=min(iw\\,720):min(ih\\,240):0:0',
    file,
  ];
  const r = spawnSync('ffmpeg', args, { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  const pts = /pts_time:([\d.]+)/.exec(r.stderr);
  return { file, ...(pts ? { ptsTime: Number(pts[1]) } : {}) };
}

function ocr(file: string): string {
  // one thread: tesseract's OpenMP threads only contend with the other test files on a small machine
  const r = spawnSync('tesseract', [file, '-', '--psm', '6'], { encoding: 'utf8', env: { ...process.env, OMP_THREAD_LIMIT: '1' } });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

async function fetchTo(url: string, name: string): Promise<string> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  const file = join(dir, name);
  writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return file;
}

it('the scoring: the fewest edits to a stretch of the text (hand-worked cases)', () => {
  expect(substringDistance('abc', 'xxabcxx')).toBe(0);
  expect(substringDistance('abd', 'xxabcxx')).toBe(1);
  expect(substringDistance('family1-video', 'famiiyt-video-2')).toBe(2);
  expect(substringDistance('1280x720', 'size 1280x72')).toBe(1);
  expect(fold('Familyi—Video 00:00:03,300')).toBe(fold('family1-video 00:00:03.300'));
});

describe.skipIf(!ci && !(tools.tesseract && tools.ffmpeg))('labels read back by tesseract', () => {
  let m: TestMock;
  beforeAll(async () => {
    for (const [tool, ok] of Object.entries(tools))
      if (!ok) throw new Error(`${tool} is not installed: under CI=true the OCR tests must run (.ci/run installs it)`);
    dir = mkdtempSync(join(tmpdir(), 'ocr-'));
    m = await startMock({ rateLimit: false });
  });
  afterAll(async () => {
    await m?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('an image task: the prompt, the model and the size', async () => {
    const prompt = 'a lighthouse at dusk over a calm sea';
    const r = await m.call('POST', pathOf('createImageTask'), {
      body: { provider: 'vendor_b', model: 'image-b-3.1-flash', prompt, imageConfig: { imageSize: '1K', aspectRatio: '1:1' } },
    });
    expect(r.status, r.text).toBe(202);
    await m.advance(60_000);
    const t = (await m.call('GET', pathOf('getImageTask', { taskId: r.json.data.taskId }))).json.data;
    const png = await fetchTo(t.images[0].url, 'image.png');
    const { missing } = score('image', ocr(crop(png).file), [...prompt.split(' '), 'image-b-3.1-flash', '1024x1024']);
    expect(missing).toEqual([]);
  });

  describe('a video task', () => {
    const prompt = 'a red fox running through fresh snow';
    const model = 'family1-video-2-fast';
    let task: { videoUrl: string; coverUrl: string; taskId: string };
    const { width, height } = videoPixels('720p', '16:9');
    beforeAll(async () => {
      const r = await m.call('POST', pathOf('createVideoTask'), {
        body: { model, content: [{ type: 'text', text: prompt }], resolution: '720p', ratio: '16:9', duration: 5 },
      });
      expect(r.status, r.text).toBe(200);
      await m.advance(3_600_000);
      task = (await m.call('GET', pathOf('getVideoTask', { taskId: r.json.data.taskId }))).json.data;
    });

    it('its cover: the prompt, the model and the size', async () => {
      const png = await fetchTo(task.coverUrl, 'cover.png');
      const { missing } = score('cover', ocr(crop(png).file), [...prompt.split(' '), model, `${width}x${height}`]);
      expect(missing).toEqual([]);
    });

    it('a frame ffmpeg takes at 3.25 s: the prompt, the model, the size, and the timecode and number of that frame', async () => {
      const mp4 = await fetchTo(task.videoUrl, 'video.mp4');
      const { file, ptsTime } = crop(mp4, 3.25);
      // ffmpeg's frame: the first that starts at or after 3.25 s (10 fps: 3.3 s, frame 33)
      expect(ptsTime).toBeDefined();
      expect(ptsTime!).toBeGreaterThanOrEqual(3.25);
      expect(ptsTime!).toBeLessThan(3.35);
      const ms = Math.round(ptsTime! * 1000);
      const timecode = `00:00:${String(Math.floor(ms / 1000)).padStart(2, '0')}.${String(ms % 1000).padStart(3, '0')}`;
      const frame = `frame ${Math.round(ptsTime! * 10)}`;
      const { missing } = score('video frame', ocr(file), [...prompt.split(' '), model, `${width}x${height}`, timecode, frame]);
      expect(missing).toEqual([]);
    });
  });
});
