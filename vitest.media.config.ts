// `npm run test:media`: served media judged by independent tools (ffmpeg), apart from `npm test` for its time budget;
// `.ci/run` installs the tools and runs it. Also the suites that replace a module (vi.mock): they need a file's own
// module graph, which `npm test`'s shared workers (vitest.config.ts, isolate: false) do not give.
import { defineConfig } from 'vitest/config';

/** Suites that replace a module with vi.mock (vitest.config.ts leaves them out of `npm test`). */
export const isolatedSuites = [
  // TTS aac when the AAC encoder fails: tones of the spoken length, the host told
  'test/speech-aac-fallback.test.ts',
];

export default defineConfig({
  test: {
    include: ['test/**/*.ffmpeg.ts', ...isolatedSuites],
    testTimeout: 120_000,
    hookTimeout: 300_000,
  },
});
