// `npm run test:generators`: the third-party generators' interop run (test/generators.interop.ts: @hey-api/openapi-ts
// and orval generate from spec/openapi.json, tsc --strict compiles what they emit), apart from `npm test` like the
// container and the frontend app: it is CPU-heavy (two generators and a compile) and .ci/run calls it.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/*.interop.ts'],
    testTimeout: 180_000,
    maxWorkers: 1,
  },
});
