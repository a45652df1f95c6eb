// `npm run test:media`: served media judged by independent tools (ffmpeg), apart from `npm test` for its time budget;
// `.ci/run` installs the tools and runs it. Also every image size and ratio decoded whole by pngjs, and the suites that
// replace a module (vi.mock): they need a file's own module graph, which `npm test`'s shared workers
// (vitest.config.ts, isolate: false) do not give.
import { defineConfig } from 'vitest/config';

/** The suites of this run besides `test/*.ffmpeg.ts` (vitest.config.ts leaves them out of `npm test`). */
export const mediaSuites = [
  // every image a model returns, of every size and ratio, decoded whole (pngjs) at its declared pixel size
  'test/image-decode.test.ts',
  // TTS aac when the AAC encoder fails (vi.mock): tones of the spoken length, the host told
  'test/speech-aac-fallback.test.ts',
  // every audio format rendered and decoded whole (music-metadata, and ffmpeg where installed), every length
  'test/media-audio.test.ts',
  // every video rendered and parsed whole (mp4box), its H.264 parameter sets and covers (pngjs)
  'test/media-video.test.ts',
];

export default defineConfig({
  test: {
    include: ['test/**/*.ffmpeg.ts', ...mediaSuites],
    testTimeout: 120_000,
    hookTimeout: 300_000,
  },
});
