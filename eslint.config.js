// Lint rules of the project (npm run lint, part of npm test): typescript-eslint
// with type information and the layer rules of docs/architecture.md ("The
// layers"). Import cycles are found by `npm run lint:code`
// (scripts/import-cycles.mjs). Formatting is Prettier's (.prettierrc).
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { layersPlugin } from './scripts/eslint-layers.mjs';

const nodeBuiltins = [
  'node:*',
  'fs',
  'path',
  'os',
  'http',
  'https',
  'net',
  'crypto',
  'stream',
  'url',
  'util',
  'zlib',
  'child_process',
  'worker_threads',
  'buffer',
  'events',
];
const httpLibraries = ['express', 'cors', 'morgan', 'busboy', 'commander', 'lru-cache'];

/** Imports a standard-JavaScript layer may not make: Node built-ins, HTTP libraries, the HTTP adapter, the CLI. */
const standardJsOnly = {
  paths: [...nodeBuiltins, ...httpLibraries]
    .filter((p) => !p.includes('*'))
    .map((name) => ({ name, message: 'this layer is standard JavaScript only (docs/architecture.md, "The layers")' })),
  patterns: [
    { group: ['node:*'], message: 'this layer is standard JavaScript only (docs/architecture.md, "The layers")' },
    { group: ['**/http/*', '**/cli.ts'], message: 'the engine, services and media renderers never reach into the HTTP adapter' },
  ],
};

/** What the contract and the core may not read: the wall clock and an unseeded random source. */
const deterministic = [
  { selector: "MemberExpression[object.name='Math'][property.name='random']", message: "no Math.random: use the engine's seeded rng" },
  { selector: "MemberExpression[object.name='Date'][property.name='now']", message: "no Date.now in the contract or the core: use the engine's clock" },
  { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: "no new Date() in the contract or the core: use the engine's clock" },
];

/**
 * The import pattern that keeps `layer` below `higher` (folders of mock/) and below the entry points
 * (mock/index.ts, mock/cli.ts), which nothing under mock/ imports.
 */
function above(layer, higher) {
  return {
    group: [...higher.map((h) => `**/${h}/*`), '**/mock/index.ts', '../index.ts', '**/cli.ts'],
    message: `${layer} never imports a layer above it (docs/architecture.md, "The layers": engine < media < services < core < http, web < index, cli)`,
  };
}

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'lib/',
      'generated/',
      'spec/',
      'coverage/',
      'test/types/',
      'test/type-fixtures/.gen/',
      'test/frontend-app/',
      'packages/contract/client/',
      'packages/contract/types/',
    ] /* type fixtures: compiled by test/types.test.ts with their own tsconfig */,
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['*.js', 'scripts/*.mjs', 'bin/*.js'] }, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    plugins: { layers: layersPlugin },
    rules: {
      'layers/no-upward-dynamic-import': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      // Zod and the registry are typed generically; a cast at the boundary is clearer than a wrapper.
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      '@typescript-eslint/only-throw-error': 'error',
      // An async function without await is a fine way to promise a value (renderers keep one signature).
      '@typescript-eslint/require-await': 'off',
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='Math'][property.name='random']",
          message: 'no Math.random: use the engine\'s seeded rng (docs/architecture.md, "The engine")',
        },
      ],
    },
  },
  {
    files: ['schemas/**/*.ts', 'mock/engine/**/*.ts', 'mock/services/**/*.ts', 'mock/media/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', ...deterministic] },
  },
  // A service raises an API error only through its context's `fail`, whose type takes the errors its operation
  // declares (docs/architecture.md, "Errors a handler raises"); the saved-state loader, which the CLI runs too, is
  // not a handler (its one refusal, CONTROL_INVALID_REQUEST, is putState's).
  {
    files: ['mock/services/**/*.ts'],
    ignores: ['mock/services/saved-state.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...deterministic,
        {
          selector: "NewExpression[callee.name='ApiError']",
          message: 'a service raises an API error with ctx.fail(error, message): its type takes only the errors the operation declares',
        },
      ],
    },
  },
  {
    files: ['schemas/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/mock/**', '../mock/*'], message: 'the contract (schemas/) never imports the mock' }] },
      ],
    },
  },
  {
    files: ['schemas/api-key.ts', 'schemas/errors.ts', 'schemas/errors/*.ts', 'schemas/provenance.ts', 'schemas/media.ts', 'schemas/plans.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'zod', message: 'a pure-data module of schemas/ (the engine imports it) loads no Zod' }],
          patterns: [{ group: ['**/zod.ts', '**/mock/**'], message: 'a pure-data module of schemas/ (the engine imports it) loads no Zod and no mock' }],
        },
      ],
    },
  },
  // The typed client runs in browsers: standard JavaScript only, and nothing of the mock; its Node entry
  // (client/node.ts, `mediagen-contract/client/node`) is the one place for Node built-ins.
  {
    files: ['client/**/*.ts'],
    ignores: ['client/node.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: standardJsOnly.paths,
          patterns: [
            { group: ['node:*'], message: 'the client runs in browsers: Node built-ins go in client/node.ts' },
            {
              group: ['**/mock/**', '../mock/*', '**/schemas/**', '../schemas/*'],
              message: 'the client is built from the document (generated/, client/catalog.generated.ts), not from the mock or the schemas',
            },
          ],
        },
      ],
    },
  },
  // The layers below the transports run in browsers too (MSW, the in-process fetch): no Node global either (an
  // import of node:* is refused above; a global such as Buffer would only fail in the browser)
  {
    files: ['mock/engine/**/*.ts', 'mock/media/**/*.ts', 'mock/services/**/*.ts', 'mock/core/**/*.ts', 'mock/web/**/*.ts'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...['Buffer', 'process', 'setImmediate', 'clearImmediate', '__dirname', '__filename', 'require', 'global'].map((name) => ({
          name,
          message: 'this layer runs in browsers too (MSW): use standard JavaScript (Uint8Array, TextEncoder, globalThis)',
        })),
      ],
    },
  },
  // The order of the layers (docs/architecture.md, "The layers"): engine < media < services < core < http, web
  // < index, cli. A layer imports only from the layers below it; an upward import fails here.
  {
    files: ['mock/engine/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          ...standardJsOnly,
          patterns: [
            ...standardJsOnly.patterns,
            above('the engine', ['media', 'services', 'core', 'web']),
            {
              group: [
                '**/schemas/**',
                '!**/schemas/api-key.ts',
                '!**/schemas/errors.ts',
                '!**/schemas/plans.ts',
                '!**/schemas/media.ts',
                '!**/schemas/provenance.ts',
              ],
              allowTypeImports: true,
              message: 'the engine imports values only from the pure-data modules of schemas/ (no Zod, no OpenAPI extension); types from anywhere',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['mock/media/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { ...standardJsOnly, patterns: [...standardJsOnly.patterns, above('the media renderers', ['services', 'core', 'web'])] },
      ],
    },
  },
  {
    files: ['mock/services/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { ...standardJsOnly, patterns: [...standardJsOnly.patterns, above('the services', ['core', 'web'])] },
      ],
    },
  },
  {
    // the request path and the fetch handlers run in browsers too (MSW): standard JavaScript, plus lru-cache and msw
    files: ['mock/core/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: standardJsOnly.paths.filter((p) => p.name !== 'lru-cache'),
          patterns: [standardJsOnly.patterns[0], standardJsOnly.patterns[1], above('the transport-neutral core', ['web'])],
        },
      ],
    },
  },
  {
    files: ['mock/web/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: standardJsOnly.paths.filter((p) => p.name !== 'lru-cache'),
          patterns: [standardJsOnly.patterns[0], standardJsOnly.patterns[1], above('the fetch handlers', [])],
        },
      ],
    },
  },
  {
    files: ['mock/http/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [above('the Express adapter', ['web'])] }],
    },
  },
  {
    // the dashboard (/__mock/ui) is a browser page built on the control API over HTTP: no Node, no mock internals,
    // from schemas/ only pure data (types from anywhere)
    files: ['mock/ui/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: standardJsOnly.paths,
          patterns: [
            standardJsOnly.patterns[0],
            {
              group: ['**/http/*', '**/cli.ts', '**/engine/*', '**/services/*', '**/core/*', '**/web/*', '**/media/*', '../index.ts'],
              message: 'the dashboard knows the mock through the control API over HTTP only (docs/guides/dashboard.md)',
            },
            {
              group: ['**/schemas/**', '!**/schemas/plans.ts', '!**/schemas/errors.ts', '!**/schemas/media.ts'],
              allowTypeImports: true,
              message: 'the dashboard bundles only pure-data modules of schemas/ (no Zod); types from anywhere',
            },
          ],
        },
      ],
    },
  },

  {
    files: ['test/**/*.ts', 'scripts/**/*.ts'],
    rules: {
      // Tests read JSON answers as `any` on purpose: they assert fields and codes.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
