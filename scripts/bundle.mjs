// `npm run bundle` (also run by `npm start`, `npm test` and `npm pack`):
// precompiles the mock into dist/cli.js with esbuild, dependencies left as
// imports, so the installed `mediagen-mock` command starts without a
// TypeScript loader (cold start), and the dashboard's browser bundle into
// dist/ui/ (scripts/ui-build.mjs), which the mock serves at /__mock/ui. `npm
// start` runs the mock's sources through tsx but serves the dashboard from
// dist/ui/. Plain JavaScript on purpose: it runs before anything else.
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildUi } from './ui-build.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
mkdirSync(dist, { recursive: true });
await build({
  entryPoints: [join(root, 'mock/cli.ts')],
  outfile: join(dist, 'cli.js'),
  bundle: true,
  packages: 'external',
  // mediabunny is bundled in (the package ships it, not depends on it: decisions/0022-contract-package.md)
  alias: { mediabunny: join(dirname(createRequire(import.meta.url).resolve('mediabunny')), 'mediabunny.min.mjs') },
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
});
console.log('bundled mock/cli.ts -> dist/cli.js');
await buildUi(join(dist, 'ui'));
console.log('bundled mock/ui -> dist/ui/app.js, dist/ui/style.css');
