/**
 * Render times of the media of video tasks (mock/media/video.ts and png.ts):
 *
 *   npx tsx scripts/bench-media-video.ts
 *
 * For each case prints the first run (cold: includes the JIT warming up on
 * that code path) and the median of the next 5, in ms, and the output size.
 * Cases: a 60 s 1920x1080 MP4 with and without its AAC track, a 10 s 1280x720
 * MP4, a 4096x4096 PNG and a 1280x720 PNG. The cases run in this order in one
 * process, so only the first case's first run is fully cold. Prints figures,
 * asserts nothing.
 */
import { performance } from 'node:perf_hooks';
import { encodedAudio } from '../mock/media/audio.ts';
import { encodePng } from '../mock/media/png.ts';
import type { Rgb } from '../mock/media/types.ts';
import { renderVideo, VIDEO_FPS } from '../mock/media/video.ts';

const bg: Rgb = [30, 60, 200];
const fg: Rgb = [250, 200, 40];

interface Case {
  name: string;
  /** Renders once; returns the output size in bytes. The colour varies per run so no run repeats another's input. */
  run: (i: number) => Promise<number> | number;
}

const colours = (i: number) => ({ bg: [bg[0], bg[1], (bg[2] + i) & 0xff] as Rgb, fg });

const cases: Case[] = [
  {
    name: `MP4 1920x1080 60 s ${VIDEO_FPS} fps, no audio`,
    run: async (i) => (await renderVideo({ width: 1920, height: 1080, durationMs: 60_000, colours: colours(i) })).length,
  },
  {
    name: `MP4 1920x1080 60 s ${VIDEO_FPS} fps + AAC (audio packets included)`,
    run: async (i) => {
      const audio = await encodedAudio('aac', 60_000, i);
      return (await renderVideo({ width: 1920, height: 1080, durationMs: 60_000, colours: colours(i), audio })).length;
    },
  },
  {
    name: `MP4 1280x720 10 s ${VIDEO_FPS} fps, no audio`,
    run: async (i) => (await renderVideo({ width: 1280, height: 720, durationMs: 10_000, colours: colours(i) })).length,
  },
  { name: 'PNG 4096x4096', run: (i) => encodePng(4096, 4096, colours(i).bg, fg).length },
  { name: 'PNG 1280x720', run: (i) => encodePng(1280, 720, colours(i).bg, fg).length },
];

async function time(c: Case, i: number): Promise<{ ms: number; bytes: number }> {
  const t0 = performance.now();
  const bytes = await c.run(i);
  return { ms: performance.now() - t0, bytes };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

console.log(`${'case'.padEnd(56)} ${'first ms'.padStart(9)} ${'median ms'.padStart(10)} ${'bytes'.padStart(11)}`);
for (const c of cases) {
  const first = await time(c, 0);
  const rest: number[] = [];
  for (let i = 1; i <= 5; i++) rest.push((await time(c, i)).ms);
  console.log(`${c.name.padEnd(56)} ${first.ms.toFixed(1).padStart(9)} ${median(rest).toFixed(1).padStart(10)} ${String(first.bytes).padStart(11)}`);
}
