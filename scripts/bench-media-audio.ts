/**
 * Render times of the audio media (mock/media/): each audio format at 10
 * minutes, the encoded AAC packets of 10 minutes (a video's sound track), an
 * HLS segment of a 3-hour stream, and MIDI. Prints a table: the first run
 * (which also decodes the variant's fixture or encodes its FLAC loop, and
 * warms the JIT) and the median of the 5 runs after it. Asserts nothing.
 *   npx tsx scripts/bench-media-audio.ts
 */
import { encodedAudio, renderAudio } from '../mock/media/audio.ts';
import { hlsAudio } from '../mock/media/hls.ts';
import { renderMidi } from '../mock/media/midi.ts';
import { audioFormats } from '../schemas/media.ts';

const TEN_MINUTES = 600_000;

interface Row {
  what: string;
  first: number;
  median: number;
  size: string;
}

async function time(what: string, run: () => Promise<number> | number): Promise<Row> {
  let t = performance.now();
  const bytes = await run();
  const first = performance.now() - t;
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    t = performance.now();
    await run();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const size = bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${(bytes / 1e3).toFixed(1)} KB`;
  return { what, first, median: times[2], size };
}

const rows: Row[] = [];
// Each format its own variant, so each first run includes loading that variant's loop.
for (const [variant, format] of audioFormats.entries()) {
  rows.push(await time(`${format}, 10 min`, async () => (await renderAudio({ format, durationMs: TEN_MINUTES, variant })).length));
}
rows.push(
  await time('encodedAudio aac, 10 min', async () => {
    const enc = await encodedAudio('aac', TEN_MINUTES, 0);
    return enc.packets.reduce((n, p) => n + p.data.length, 0);
  }),
);
const hls = hlsAudio(3 * 3_600_000, 1);
rows.push(await time('HLS playlist, 3 h', () => hls.playlist((n) => `https://media.example/seg/${n}.aac`).length));
rows.push(await time('HLS segment 1000 of 3 h (6 s)', async () => (await hls.segment(1000)).length));
rows.push(await time('midi, 10 min', () => renderMidi({ durationMs: TEN_MINUTES, variant: 2 }).length));
rows.push(await time('midi, 60 min', () => renderMidi({ durationMs: 3_600_000, variant: 3 }).length));

const w = Math.max(...rows.map((r) => r.what.length));
console.log(`${'render'.padEnd(w)}  ${'first ms'.padStart(9)}  ${'median ms'.padStart(9)}  ${'size'.padStart(9)}`);
for (const r of rows) console.log(`${r.what.padEnd(w)}  ${r.first.toFixed(1).padStart(9)}  ${r.median.toFixed(1).padStart(9)}  ${r.size.padStart(9)}`);
