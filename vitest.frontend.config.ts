// `npm run test:frontend`: the heavy browser test of the mock inside a Vite +
// React app (test/frontend-app.e2e.ts), apart from `npm test`.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/frontend-app.e2e.ts'],
    testTimeout: 120_000,
    hookTimeout: 600_000,
    maxWorkers: 1,
  },
});
