import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // vitest's default leaves a core free (one worker on a 2-core machine); the suites are I/O- and CPU-bound
    // in turns, so a worker per core (at least two) finishes in about half the time
    maxWorkers: Math.max(2, availableParallelism()),
    // one Prism process per document for the whole run, shared by the contract suites (test/prism.ts, usePrism)
    globalSetup: ['test/prism-hub.ts'],
  },
});
