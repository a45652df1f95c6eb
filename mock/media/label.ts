/**
 * The label drawn into every picture the mock serves (generated images, covers, video frames): a black
 * box at the top-left holding, in white, the prompt's start (wrapped to two lines at twice the text size),
 * the model and the pixel size, and the task id; a video frame adds a line with its timecode, its frame
 * number and a mark that steps one cell a frame. Glyphs: mock/media/font.ts (public-domain 8x13 bitmap
 * font), scaled by whole pixels to the picture (TEXT_SCALE_STEP). The box and every text line sit on the
 * 16-pixel grid, so the H.264 writer codes the box's empty macroblocks as flat ones and re-codes only the
 * cells of the time line that change. The ink is stored once per distinct row (a glyph row repeats `scale`
 * times, the spacing rows are all blank); nothing here depends on the clock or on chance. Standard JavaScript
 * only.
 */
import { FULL_BLOCK, GLYPH_HEIGHT, GLYPH_WIDTH, glyph } from './font.ts';

/** The text size grows by one step (another whole pixel per font pixel) for every this many pixels of the picture's shorter side. */
export const TEXT_SCALE_STEP = 720;
/** Most characters of a prompt line (drawn at twice the text size), and most prompt lines. */
export const PROMPT_LINE_CHARS = 32;
export const PROMPT_LINES = 2;
/** Cells of the moving mark's track on a video frame's time line. */
export const MARK_CELLS = 10;

import type { LabelText } from './label-text.ts';
export { PROMPT_KEPT, labelKey, promptStart, type LabelText } from './label-text.ts';

/** A rectangle of the picture, pixels. */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * A laid-out label: the box (a rectangle on the 16-pixel grid, within the picture) and its ink: stored rows
 * of `width` bytes (1 = text, 0 = the box's black), box row r showing stored row `rowOf[r]` (row 0 is blank).
 */
export interface Label extends Rect {
  ink: Uint8Array;
  rowOf: Int32Array;
  /** The time line of a video frame: its rectangle (whole 16-pixel rows), scale and first stored row, and what it shows now. */
  time?: Rect & { scale: number; text: string; digits: number; stored: number };
}

/** The ink (1 or 0) of the label's pixel at box column x, box row y. */
export function inkAt(label: Label, x: number, y: number): number {
  return label.ink[label.rowOf[y] * label.width + x];
}

interface Line {
  text: string;
  scale: number;
}

/** Whole-pixel text scale of a width x height picture: 1 below 1440 pixels on the shorter side, then one more per 720. */
export function textScale(width: number, height: number): number {
  return Math.max(1, Math.floor(Math.min(width, height) / TEXT_SCALE_STEP));
}

/**
 * Splits `text` into at most `lines` lines of at most `chars` characters (code points), at spaces where it
 * can; the last line ends in `...` when the text goes on. White space runs count as one space.
 */
export function wrapText(text: string, chars: number, lines: number): string[] {
  const words = text.trim().split(/\s+/u).filter(Boolean);
  const out: string[] = [];
  let line = '';
  const len = (s: string) => [...s].length;
  for (let i = 0; i < words.length; i++) {
    let w = words[i];
    while (len(w) > chars) {
      // a word longer than a line: cut it
      if (line) {
        out.push(line);
        line = '';
      }
      out.push([...w].slice(0, chars).join(''));
      w = [...w].slice(chars).join('');
      if (out.length >= lines) return ellipsis(out.slice(0, lines), chars, true);
    }
    const next = line ? `${line} ${w}` : w;
    if (len(next) <= chars) line = next;
    else {
      out.push(line);
      line = w;
    }
    if (out.length >= lines) return ellipsis(out.slice(0, lines), chars, true);
  }
  if (line) out.push(line);
  return out.length > lines ? ellipsis(out.slice(0, lines), chars, true) : out;
}

function ellipsis(lines: string[], chars: number, more: boolean): string[] {
  if (!more) return lines;
  // the last line loses whole words until `...` fits after it (or, one word left, letters)
  let last = lines[lines.length - 1];
  while ([...last].length + 3 > chars && last.includes(' ')) last = last.slice(0, last.lastIndexOf(' '));
  const cps = [...last];
  lines[lines.length - 1] = cps.length + 3 <= chars ? `${last}...` : `${cps.slice(0, Math.max(0, chars - 3)).join('')}...`;
  return lines;
}

/** `s` composed (NFC: `e` + U+0301 is `é`), the combining marks left over dropped (a cell a character). */
function clean(s: string): string {
  return s.normalize('NFC').replace(/\p{M}/gu, '');
}

/** `s` cut to `chars` code points (the last three `...` when cut). */
function cut(s: string, chars: number): string {
  const cps = [...s];
  return cps.length <= chars ? s : `${cps.slice(0, Math.max(0, chars - 3)).join('')}...`;
}

/**
 * Lays out the label of a `width` x `height` picture showing `text` (and, with `video`, a time line), or
 * undefined when not even one line fits (pictures under about 64 x 32 pixels). The box starts one
 * macroblock in from the top-left corner (at the corner in pictures under 320 x 192), its lines are
 * dropped from the bottom (the id first) and the prompt drawn at the text size instead of twice it when the
 * picture is too small. `video`: the video's frame count (the frame number's digits) and the lowest row the
 * box may reach (above the progress bar). Deterministic.
 */
export function layoutLabel(width: number, height: number, text: LabelText, video?: { frames: number; maxBottom?: number }): Label | undefined {
  text = { prompt: clean(text.prompt), model: clean(text.model), id: clean(text.id) };
  const s = textScale(width, height);
  const margin = width >= 320 && height >= 192 ? 16 : 0;
  const pad = GLYPH_WIDTH * s; // one cell each side
  const roomW = Math.floor((width - 2 * margin) / 16) * 16 - 2 * pad;
  const roomH = Math.floor((Math.min(height - margin, video?.maxBottom ?? height) - margin) / 16) * 16;
  if (roomW < GLYPH_WIDTH * s * 4 || roomH < 16 * s) return undefined;
  const cols = (scale: number) => Math.floor(roomW / (GLYPH_WIDTH * scale));
  let promptScale = 2 * s;
  if (cols(promptScale) < 12) promptScale = s;
  const prompt = text.prompt.trim()
    ? wrapText(text.prompt, Math.min(PROMPT_LINE_CHARS * ((2 * s) / promptScale), cols(promptScale)), PROMPT_LINES)
    : ['(no prompt)'];
  const lines: Line[] = [
    ...prompt.map((t) => ({ text: t, scale: promptScale })),
    { text: cut(`${text.model}  ${width}x${height}`, cols(s)), scale: s },
    { text: cut(text.id, cols(s)), scale: s },
  ];
  const digits = video ? String(Math.max(1, video.frames - 1)).length : 0;
  const timeText = video ? timeLine(0, 0, digits) : '';
  if (video) lines.push({ text: timeText, scale: s });
  const heightOf = (ls: Line[]) => ls.reduce((h, l) => h + 16 * l.scale, 0);
  // Too tall: drop lines from the bottom up (the time line stays while it fits), then the prompt's second line.
  while (lines.length > 1 && heightOf(lines) > roomH) lines.splice(video && lines.length > 2 ? lines.length - 2 : lines.length - 1, 1);
  if (heightOf(lines) > roomH) return undefined;
  const hasTime = video && lines[lines.length - 1].text === timeText;
  const textW = Math.max(...lines.map((l) => Math.min([...l.text].length, cols(l.scale)) * GLYPH_WIDTH * l.scale));
  const boxW = Math.min(width - 2 * margin, Math.ceil((textW + 2 * pad) / 16) * 16);
  const boxH = heightOf(lines);
  const label: Label = {
    x: margin,
    y: margin,
    width: boxW,
    height: boxH,
    ink: new Uint8Array(boxW * (1 + GLYPH_HEIGHT * lines.length)),
    rowOf: new Int32Array(boxH),
  };
  let y = 0;
  for (const [n, l] of lines.entries()) {
    // The line's rows: one font row blank, the glyph's 13 rows (stored rows 1 + 13 n...), two blank; each `scale` times.
    const stored = 1 + GLYPH_HEIGHT * n;
    for (let r = 0; r < 16 * l.scale; r++) {
      const g = Math.floor(r / l.scale) - 1;
      label.rowOf[y + r] = g >= 0 && g < GLYPH_HEIGHT ? stored + g : 0;
    }
    drawLine(label, pad, stored, l.text, l.scale, Math.floor((boxW - pad) / (GLYPH_WIDTH * l.scale)));
    if (hasTime && l.text === timeText && l === lines[lines.length - 1]) {
      label.time = { x: margin, y: margin + y, width: boxW, height: 16 * l.scale, scale: l.scale, text: timeText, digits, stored };
    }
    y += 16 * l.scale;
  }
  return label;
}

/**
 * The time line of frame `frame` starting at `ms`: `HH:MM:SS.mmm  frame N` (N zero-padded to `digits`), then
 * the mark's track: `[`, ten cells with a block (U+2588, drawn as a full cell) in cell frame mod 10, `]`.
 */
export function timeLine(ms: number, frame: number, digits = 1): string {
  const t = Math.floor(ms);
  const hh = String(Math.floor(t / 3_600_000)).padStart(2, '0');
  const mm = String(Math.floor(t / 60_000) % 60).padStart(2, '0');
  const ss = String(Math.floor(t / 1000) % 60).padStart(2, '0');
  const mmm = String(t % 1000).padStart(3, '0');
  const mark = Array.from({ length: MARK_CELLS }, (_, i) => (i === frame % MARK_CELLS ? '\u2588' : ' ')).join('');
  return `${hh}:${mm}:${ss}.${mmm}  frame ${String(frame).padStart(digits, '0')}  [${mark}]`;
}

/**
 * Redraws the time line of `label` to show frame `frame` starting at `ms`; returns the rectangles (picture
 * pixels, one a changed character cell) that differ from what it showed. No-op (and []) without a time line.
 */
export function setTime(label: Label, ms: number, frame: number): Rect[] {
  const t = label.time;
  if (!t) return [];
  const next = timeLine(ms, frame, t.digits);
  const before = [...t.text];
  const after = [...next];
  const pad = GLYPH_WIDTH * t.scale;
  const cell = GLYPH_WIDTH * t.scale;
  const fits = Math.floor((label.width - pad) / cell);
  const changed: Rect[] = [];
  for (let i = 0; i < Math.min(fits, Math.max(before.length, after.length)); i++) {
    if (before[i] === after[i]) continue;
    const x = pad + i * cell;
    if (x + cell > label.width) break;
    drawChar(label, x, t.stored, after[i] ?? ' ', t.scale, true);
    changed.push({ x: label.x + x, y: t.y, width: cell, height: t.height });
  }
  t.text = next;
  return changed;
}

/** Draws `text` (at most `fits` cells) at box column x into the 13 stored rows from `stored`. */
function drawLine(label: Label, x: number, stored: number, text: string, scale: number, fits: number): void {
  let i = 0;
  for (const ch of text) {
    if (i++ >= fits) break;
    drawChar(label, x, stored, ch, scale, false);
    x += GLYPH_WIDTH * scale;
  }
}

/**
 * Draws one character cell (8 font pixels wide, each `scale` pixels) at box column x into the 13 stored rows
 * from `stored`, clearing the cell first when `clear`.
 */
function drawChar(label: Label, x: number, stored: number, ch: string, scale: number, clear: boolean): void {
  const rows = ch === '\u2588' ? FULL_BLOCK : glyph(ch.codePointAt(0)!);
  const { ink, width } = label;
  for (let g = 0; g < GLYPH_HEIGHT; g++) {
    const row = (stored + g) * width + x;
    if (clear) ink.fill(0, row, row + GLYPH_WIDTH * scale);
    const bits = rows[g] | (rows[g] >> 1); // emboldened: each pixel doubled to the right, as the font's bold cut
    // runs of set bits, most significant (leftmost) first
    for (let c = 0; c < GLYPH_WIDTH;) {
      if (!((bits >> (7 - c)) & 1)) {
        c++;
        continue;
      }
      const c0 = c;
      while (c < GLYPH_WIDTH && (bits >> (7 - c)) & 1) c++;
      ink.fill(1, row + c0 * scale, row + c * scale);
    }
  }
}
