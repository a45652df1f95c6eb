// `npm run test:frontend`: the heavy browser tests, apart from `npm test`: the mock inside a Vite + React app
// (test/frontend-app.e2e.ts) and every TypeScript snippet of the README and the guides run where it says it lives
// (test/snippets.e2e.ts: an app from the create-vite react-ts template built and opened in Chromium, a Node
// project with MSW 2 on this Node and MSW 3 on Node 22).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/frontend-app.e2e.ts', 'test/snippets.e2e.ts'],
    testTimeout: 120_000,
    hookTimeout: 900_000,
    maxWorkers: 1,
  },
});
