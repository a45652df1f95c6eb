// `npm run test:media`: served media judged by independent tools (ffmpeg), apart from `npm test` for its time budget;
// `.ci/run` installs the tools and runs it.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.ffmpeg.ts'],
    testTimeout: 120_000,
    hookTimeout: 300_000,
  },
});
