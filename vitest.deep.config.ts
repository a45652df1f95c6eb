// `npm run test:deep`: the long property runs, apart from `npm test` for its time budget (together about 60 s of a
// 2-core machine): the fuzzer over every operation (test/fuzz.test.ts) and the money invariants under mixed,
// concurrent, slow and reset traffic (test/money-invariants.test.ts). `.ci/run` runs it after `npm test`.
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/** The suites of this run (vitest.config.ts leaves them out of `npm test`). */
export const deepSuites = ['test/fuzz.test.ts', 'test/money-invariants.test.ts'];

export default defineConfig({
  test: {
    include: deepSuites,
    // limits that only catch a hang (the fuzzer's own is longer, in its file)
    testTimeout: 180_000,
    hookTimeout: 180_000,
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
