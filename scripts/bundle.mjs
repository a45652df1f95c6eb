// `npm run bundle` (also run by `npm start`, `npm test` and `npm pack`):
// precompiles the mock into dist/cli.js with esbuild, dependencies left as
// imports, so the installed `mediagen-mock` command starts without a
// TypeScript loader (cold start), and the dashboard's browser bundle into
// dist/ui/ (scripts/ui-build.mjs), which the mock serves at /__mock/ui. `npm
// start` runs the mock's sources through tsx but serves the dashboard from
// dist/ui/. Plain JavaScript on purpose: it runs before anything else.
import { mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildUi } from './ui-build.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
mkdirSync(dist, { recursive: true });
// what the mock imports only when it needs it (mediabunny, on the first video; the audio loops) is a chunk of its own
// in dist/chunks/, read then: the entry file Node parses at start-up is 0.8 MB instead of 2 MB (about 30 ms of cold
// start). The chunks of an earlier build go first, so `npm pack` ships only this build's.
rmSync(join(dist, 'chunks'), { recursive: true, force: true });
await build({
  entryPoints: { cli: join(root, 'mock/cli.ts') },
  outdir: dist,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  packages: 'external',
  // mediabunny and its AAC encoder extension are bundled in (the package ships them, not depends on them:
  // decisions/0022-contract-package.md); the extension's own imports of mediabunny resolve to the same file
  alias: {
    mediabunny: join(dirname(createRequire(import.meta.url).resolve('mediabunny')), 'mediabunny.min.mjs'),
    '@mediabunny/aac-encoder': join(dirname(createRequire(import.meta.url).resolve('@mediabunny/aac-encoder')), 'mediabunny-aac-encoder.min.mjs'),
  },
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
});
console.log('bundled mock/cli.ts -> dist/cli.js (and dist/chunks/)');
await buildUi(join(dist, 'ui'));
console.log('bundled mock/ui -> dist/ui/app.js, dist/ui/style.css');
