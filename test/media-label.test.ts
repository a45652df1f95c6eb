/**
 * The labels drawn into the mock's pictures (mock/media/label.ts, font.ts): the text they lay out (hand-written
 * cases), the box on the 16-pixel grid, and the pixels: a labelled PNG decoded by pngjs shows the unlabelled
 * picture everywhere outside the box and exactly the label's ink (white on black) inside it; a labelled MP4
 * decoded by ffmpeg (where installed) decodes with no error and shows, in an IDR frame and in P frames, exactly
 * the ink of that frame's time line (the timecode, frame number and mark of the frame's start time).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { glyph, hasGlyph, PLACEHOLDER } from '../mock/media/font.ts';
import { inkAt, layoutLabel, setTime, timeLine, wrapText, type Label } from '../mock/media/label.ts';
import { encodePng, labelledImage } from '../mock/media/png.ts';
import type { Rgb } from '../mock/media/types.ts';
import { renderVideo } from '../mock/media/video.ts';
import { decodePalettePng } from './png-check.ts';

const text = { prompt: 'a lighthouse at dusk, waves crashing on the rocks below', model: 'image-b-3.1-flash', id: 'igen_0f3a9c' };
const bg: Rgb = [30, 60, 200];
const fg: Rgb = [250, 200, 40];
const hasFfmpeg = spawnSync('ffmpeg', ['-version']).status === 0;

describe('the font', () => {
  it('draws ASCII and Latin-1 itself, other scripts as the placeholder box, and falls back to the base letter', () => {
    for (const ch of 'Az09 -_.:éñß¿') expect(hasGlyph(ch.codePointAt(0)!), ch).toBe(true);
    for (const ch of '狐狸ΩЖ') expect(glyph(ch.codePointAt(0)!), ch).toBe(PLACEHOLDER);
    expect(glyph('ő'.codePointAt(0)!)).toEqual(glyph('o'.codePointAt(0)!)); // U+0151 = o + double acute
    // a hyphen is one row of pixels; a vertical bar runs down most rows
    expect([...glyph(0x2d)].filter((r) => r !== 0)).toHaveLength(1);
    expect([...glyph(0x7c)].filter((r) => r !== 0).length).toBeGreaterThanOrEqual(9);
    expect(glyph(0x20).every((r) => r === 0)).toBe(true);
  });
});

describe('the layout', () => {
  it('wraps at spaces, cuts a longer text with ... and a word longer than a line', () => {
    expect(wrapText('a red fox', 32, 2)).toEqual(['a red fox']);
    expect(wrapText('  a   lighthouse at dusk ', 10, 2)).toEqual(['a', 'lightho...']);
    expect(wrapText('a lighthouse at dusk', 20, 2)).toEqual(['a lighthouse at dusk']);
    expect(wrapText('one two three four five six', 9, 2)).toEqual(['one two', 'three...']);
    expect(wrapText('sea waves breaking on the rocks below', 21, 1)).toEqual(['sea waves breaking...']);
    expect(wrapText('sea waves breaking on the rocks below', 12, 1)).toEqual(['sea waves...']);
    expect(wrapText('abcdefghijkl', 5, 2)).toEqual(['abcde', 'fg...']);
    expect(wrapText('狐狸在雪地里奔跑', 4, 2)).toEqual(['狐狸在雪', '地里奔跑']);
    expect(wrapText('狐狸在雪地里奔跑吧', 4, 2)).toEqual(['狐狸在雪', '地...']);
  });

  it.each([
    [1024, 1024],
    [1920, 1080],
    [854, 480],
    [720, 1280],
    [4096, 4096],
    [128, 128],
  ])('%ix%i: the box is on the 16-pixel grid, inside the picture, its lines the prompt, model and size, id', (w, h) => {
    const l = layoutLabel(w, h, text)!;
    expect(l).toBeDefined();
    for (const v of [l.x, l.y, l.width, l.height]) expect(v % 16).toBe(0);
    expect(l.x + l.width).toBeLessThanOrEqual(w);
    expect(l.y + l.height).toBeLessThanOrEqual(h);
    expect(l.rowOf).toHaveLength(l.height);
    expect(l.ink.some((v) => v === 1)).toBe(true);
    // the box's first and last rows are blank (stored row 0, all zero): text never touches the box's edge
    expect(l.ink.subarray(0, l.width).every((v) => v === 0)).toBe(true);
    expect([l.rowOf[0], l.rowOf[l.height - 1]]).toEqual([0, 0]);
    // each glyph row repeats `scale` times: the distinct rows are a 13th or less of the text rows
    expect(new Set(l.rowOf).size).toBeLessThanOrEqual(1 + 13 * 4);
  });

  it('draws a CJK prompt as placeholder boxes, one a character, and composes combining marks', () => {
    const boxes = layoutLabel(1024, 1024, { ...text, prompt: '一只红狐狸' })!;
    const greek = layoutLabel(1024, 1024, { ...text, prompt: 'ΑΒΓΔΕ' })!; // five other characters the font lacks
    expect(Buffer.compare(boxes.ink, greek.ink)).toBe(0);
    expect(Buffer.compare(boxes.ink, layoutLabel(1024, 1024, { ...text, prompt: 'abcde' })!.ink)).not.toBe(0);
    const decomposed = layoutLabel(1024, 1024, { ...text, prompt: 'cafe\u0301' })!;
    expect(Buffer.compare(decomposed.ink, layoutLabel(1024, 1024, { ...text, prompt: 'café' })!.ink)).toBe(0);
  });

  it('has no label where not even a line fits', () => {
    expect(layoutLabel(16, 16, text)).toBeUndefined();
    expect(layoutLabel(1, 333, text)).toBeUndefined();
  });

  it('the time line: timecode of the frame start, zero-padded frame number, a mark in cell frame mod 10', () => {
    expect(timeLine(3_725_300, 37253, 5)).toBe(`01:02:05.300  frame 37253  [   \u2588      ]`);
    expect(timeLine(0, 0, 3)).toBe(`00:00:00.000  frame 000  [\u2588         ]`);
  });

  it('setTime reports exactly the character cells that changed', () => {
    const l = layoutLabel(1920, 1080, text, { frames: 600 })!;
    expect(l.time).toBeDefined();
    // frame 0 -> 1: the tenths digit, the frame number's last digit, the mark's old and new cells
    const rects = setTime(l, 100, 1);
    expect(rects).toHaveLength(4);
    for (const r of rects) expect([r.width, r.height]).toEqual([8, 16]);
    expect(setTime(l, 100, 1)).toEqual([]);
  });
});

/** Decodes a PNG with pngjs: its size and RGBA pixels. */
const pixels = (bytes: Uint8Array) => PNG.sync.read(Buffer.from(bytes));

describe('labelled PNGs (decoded by pngjs)', () => {
  it.each([
    [1024, 1024],
    [1366, 768],
    [333, 250],
    [128, 128],
  ])('%ix%i: the unlabelled picture outside the box, the ink inside it', (w, h) => {
    const label = layoutLabel(w, h, text)!;
    const bytes = labelledImage(w, h, bg, fg, text);
    expect(Buffer.compare(bytes, encodePng(w, h, bg, fg, label))).toBe(0);
    const png = pixels(bytes);
    const plain = pixels(encodePng(w, h, bg, fg));
    expect([png.width, png.height]).toEqual([w, h]);
    let ink = 0;
    for (let y = 0, i = 0; y < h; y++) {
      for (let x = 0; x < w; x++, i += 4) {
        const inBox = x >= label.x && x < label.x + label.width && y >= label.y && y < label.y + label.height;
        const white = inBox && inkAt(label, x - label.x, y - label.y) === 1;
        for (let c = 0; c < 3; c++) {
          const want = inBox ? (white ? 255 : 0) : plain.data[i + c];
          if (png.data[i + c] !== want) throw new Error(`pixel ${x},${y} channel ${c}: ${png.data[i + c]}, expected ${want}`);
        }
        if (white) ink++;
      }
    }
    expect(ink).toBeGreaterThan(100);
    // the fast decoder of test/png-check.ts counts the same
    const counts = decodePalettePng(Buffer.from(bytes)).counts;
    expect(counts[3]).toBe(ink);
    expect(counts[2]).toBe(label.width * label.height - ink);
  });

  it('is deterministic and names the prompt: another prompt, other bytes', () => {
    const a = labelledImage(640, 360, bg, fg, text);
    expect(Buffer.compare(a, labelledImage(640, 360, bg, fg, text))).toBe(0);
    expect(Buffer.compare(a, labelledImage(640, 360, bg, fg, { ...text, prompt: 'a red fox' }))).not.toBe(0);
  });
});

/** RGB of frame `n` of an MP4 (ffmpeg, by decoded frame index). */
function frameRgb(file: string, n: number, width: number, height: number): Buffer {
  const out = spawnSync('ffmpeg', ['-v', 'error', '-i', file, '-vf', `select=eq(n\\,${n})`, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], {
    maxBuffer: 64 << 20,
  });
  expect(out.status, out.stderr.toString()).toBe(0);
  expect(out.stdout.length).toBe(width * height * 3);
  return out.stdout;
}

/** Mismatching label pixels of a decoded frame against `label`'s ink (white 255, black 0, within 2 per channel). */
function labelMismatches(rgb: Buffer, width: number, label: Label): number {
  let bad = 0;
  for (let y = 0; y < label.height; y++) {
    for (let x = 0; x < label.width; x++) {
      const want = inkAt(label, x, y) ? 255 : 0;
      const at = ((label.y + y) * width + label.x + x) * 3;
      for (let c = 0; c < 3; c++) if (Math.abs(rgb[at + c] - want) > 2) bad++;
    }
  }
  return bad;
}

describe.skipIf(!hasFfmpeg)('labelled MP4s (decoded by ffmpeg, where installed)', () => {
  it('decode with no error and show each frame its own time line, in IDR and P frames alike', async () => {
    const [width, height, durationMs] = [854, 480, 5000];
    const frames = 50;
    const mp4 = await renderVideo({ width, height, durationMs, colours: { bg, fg }, label: text });
    const dir = mkdtempSync(join(tmpdir(), 'label-'));
    const file = join(dir, 'v.mp4');
    writeFileSync(file, mp4);
    try {
      const check = spawnSync('ffmpeg', ['-v', 'error', '-i', file, '-f', 'null', '-']);
      expect(check.status).toBe(0);
      expect(check.stderr.toString()).toBe('');
      // The expected ink of frame n: the label laid out afresh, its time line set to frame n's start.
      for (const n of [0, 7, 20, 33, 49]) {
        const label = layoutLabel(width, height, text, { frames, maxBottom: Math.floor(height / 16 - 2) * 16 })!;
        setTime(label, n * 100, n);
        expect(labelMismatches(frameRgb(file, n, width, height), width, label), `frame ${n}`).toBe(0);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
