// `npm run test:interop`: the suites that run real third-party tools (Prism, Chromium, code generators), hostile
// peers, or the mock's own command in processes of its own (started as a user starts it) against the project, apart from `npm test` for its time budget (together about 150 s of CPU on 2 cores);
// `.ci/run` runs it after `npm test`.
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/** The suites of this run (vitest.config.ts leaves them out of `npm test`). */
export const interopSuites = [
  // @hey-api/openapi-ts and orval on the service document, their output compiled with tsc
  'test/generators.test.ts',
  // the docs site and the mock's /docs rendered by Scalar in Chromium
  'test/docs-site.test.ts',
  // mediagen-verify against the mock over several seeds and six runs in a row on one account, a mutating proxy (one provider
  // bug each) and hostile servers
  'test/verify.test.ts',
  'test/verify-mutations.test.ts',
  'test/verify-hostile.test.ts',
  // a body breaking each rule fragment docs/rules.md lists, checked by a validator of its own and refused by the mock (about 15 s)
  'test/verify-negations.test.ts',
  // Prism 5 (@stoplight/prism-cli) in front of the mock, validating every request and answer against the documents
  // (one Prism per document, test/prism-hub.ts)
  'test/*.prism.test.ts',
  // the command `mediagen-mock` in its own process: flags, signals, the state file, the CI guide's recipe, record and replay
  'test/cli.test.ts',
  'test/ci-recipe.test.ts',
  'test/record-replay-cli.test.ts',
  // the system Chromium: the dashboard, MSW's service worker, sessions and CORS as a page meets them
  'test/dashboard.test.ts',
  'test/dashboard-journal.test.ts',
  'test/proxy-dashboard.test.ts',
  'test/msw-browser.test.ts',
  'test/sessions-browser.test.ts',
  'test/cors-browser.test.ts',
];

export default defineConfig({
  test: {
    include: interopSuites,
    testTimeout: 180_000,
    hookTimeout: 180_000,
    maxWorkers: Math.max(2, availableParallelism()),
    // one Prism process per document for the whole run, shared by the contract suites (test/prism.ts, usePrism)
    globalSetup: ['test/prism-hub.ts'],
  },
});
