import { defineConfig } from 'vitest/config';

/** Several workers at once against one mock (test/parallel-sessions.test.ts runs this). */
export default defineConfig({
  test: {
    root: new URL('.', import.meta.url).pathname,
    include: ['*.session.ts'],
    pool: 'forks',
    maxWorkers: 3,
    fileParallelism: true,
    testTimeout: 180_000, // a limit against a hang only: the machine may be loaded
  },
});
