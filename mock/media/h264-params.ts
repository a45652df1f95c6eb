/**
 * The sizes, rates and levels the mock's H.264 writer (mock/media/h264.ts) accepts (ITU-T H.264 Table A-1,
 * A.3.1), and its colour conversion (BT.601 limited range). Standard JavaScript only.
 */
import type { Rgb } from './types.ts';

/** Largest picture side, pixels. */
export const H264_MAX_SIDE = 4096;
/** Largest picture area in 16x16 macroblocks (level 5.1/5.2 MaxFS: 4096x2304 = 36864). */
export const H264_MAX_MACROBLOCKS = 36864;
/** Highest frame rate accepted, fps. */
export const H264_MAX_FPS = 60;

/** Levels of Table A-1: level_idc, MaxMBPS (macroblocks per second), MaxFS (macroblocks per frame); not 1b, nor 4.1 (4.0's limits at a higher bitrate). */
const LEVELS: readonly [number, number, number][] = [
  [10, 1485, 99],
  [11, 3000, 396],
  [12, 6000, 396],
  [13, 11880, 396],
  [20, 11880, 396],
  [21, 19800, 792],
  [22, 20250, 1620],
  [30, 40500, 1620],
  [31, 108000, 3600],
  [32, 216000, 5120],
  [40, 245760, 8192],
  [42, 522240, 8704],
  [50, 589824, 22080],
  [51, 983040, 36864],
  [52, 2073600, 36864],
];

/**
 * Checks a picture size and rate; throws RangeError unless width and height are even integers of
 * 16-4096 pixels, the frame has at most 36864 macroblocks and fps is an integer of 1-60 that some level allows.
 */
export function checkH264Size(width: number, height: number, fps: number): void {
  const side = (n: number) => Number.isInteger(n) && n >= 16 && n <= H264_MAX_SIDE && n % 2 === 0;
  if (!side(width) || !side(height)) {
    throw new RangeError(`video size ${width}x${height}: width and height must be even integers of 16-${H264_MAX_SIDE} pixels`);
  }
  const mbs = Math.ceil(width / 16) * Math.ceil(height / 16);
  if (mbs > H264_MAX_MACROBLOCKS) throw new RangeError(`video size ${width}x${height}: ${mbs} macroblocks, at most ${H264_MAX_MACROBLOCKS} (4096x2304)`);
  if (!Number.isInteger(fps) || fps < 1 || fps > H264_MAX_FPS) throw new RangeError(`frame rate ${fps}: must be an integer of 1-${H264_MAX_FPS} fps`);
  if (mbs * fps > LEVELS[LEVELS.length - 1][1]) throw new RangeError(`video size ${width}x${height} at ${fps} fps exceeds level 5.2`);
}

/**
 * The lowest level (level_idc, e.g. 40 for 4.0) whose frame size, macroblock rate and frame side limits
 * (Table A-1, A.3.1) admit `width` x `height` pixels at `fps`. Throws RangeError as checkH264Size.
 */
export function h264Level(width: number, height: number, fps: number): number {
  checkH264Size(width, height, fps);
  const mbW = Math.ceil(width / 16);
  const mbH = Math.ceil(height / 16);
  const fs = mbW * mbH;
  for (const [idc, maxMbps, maxFs] of LEVELS) {
    const maxSide = Math.sqrt(maxFs * 8);
    if (fs <= maxFs && fs * fps <= maxMbps && mbW <= maxSide && mbH <= maxSide) return idc;
  }
  throw new RangeError(`video size ${width}x${height} at ${fps} fps exceeds level 5.2`);
}

/** BT.601 limited-range YCbCr (Y 16-235, Cb and Cr 16-240) of an RGB colour. */
export function rgbToYcbcr([r, g, b]: Rgb): [number, number, number] {
  const clamp = (v: number, hi: number) => Math.min(hi, Math.max(16, Math.round(v)));
  return [
    clamp(16 + (65.481 * r + 128.553 * g + 24.966 * b) / 255, 235),
    clamp(128 + (-37.797 * r - 74.203 * g + 112 * b) / 255, 240),
    clamp(128 + (112 * r - 93.786 * g - 18.214 * b) / 255, 240),
  ];
}
