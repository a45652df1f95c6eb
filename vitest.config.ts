import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './test/sequencer.ts';
import { deepSuites } from './vitest.deep.config.ts';
import { interopSuites } from './vitest.interop.config.ts';
import { mediaSuites } from './vitest.media.config.ts';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // the third-party tools (Prism, Chromium, code generators) and hostile peers run apart, by
    // `npm run test:interop` (vitest.interop.config.ts); the long property runs by `npm run test:deep` (vitest.deep.config.ts);
    // media decoded whole and the suites that replace a module by `npm run test:media` (vitest.media.config.ts)
    exclude: ['**/node_modules/**', ...interopSuites, ...deepSuites, ...mediaSuites],
    // limits that only catch a hang: no verdict may depend on how fast a loaded machine is (a file beside two busy
    // cores runs several times slower); speed targets live in `npm run bench`
    testTimeout: 180_000,
    hookTimeout: 180_000,
    // vitest's default leaves a core free (one worker on a 2-core machine); the suites are I/O- and CPU-bound
    // in turns, so a worker per core (at least two) finishes in about half the time
    maxWorkers: Math.max(2, availableParallelism()),
    // a worker imports the mock, the schemas and the libraries once for all the files it runs, not once per file
    // (importing was about a third of the CPU of the small files). The files keep no state at module level that
    // another file could see: each test builds its own mock (test/helpers.ts); the mock's module-level tables are
    // filled at import and not changed by tests.
    isolate: false,
    // the longest files first, so the two workers share them (test/sequencer.ts)
    sequence: { sequencer: LongestFirstSequencer },
  },
});
