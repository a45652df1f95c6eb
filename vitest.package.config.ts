// `npm run test:package`: the packages as consumers get them (test/package.e2e.ts: npm pack, an install from the
// registry into an empty project, a consumer type-checked and run with plain Node), apart from `npm test` like the
// other interop runs (test:frontend, test:container): about 45 s of CPU in npm and tsc child processes, a third of
// the suite's budget on a 2-core machine. `.ci/run` runs it after `npm test`.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/package.e2e.ts', 'test/generated-types.e2e.ts', 'test/postman.e2e.ts'],
    testTimeout: 180_000,
    hookTimeout: 300_000,
    maxWorkers: 1,
  },
});
