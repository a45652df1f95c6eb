// The dashboard's bundle (docs/guides/dashboard.md): mock/ui/ (preact + htm) into
// dist/ui/app.js and dist/ui/style.css with esbuild, for the browser, minified,
// nothing left to load from elsewhere. Called by scripts/bundle.mjs (`npm run
// bundle`, `prepack`), by scripts/bundle-container.mjs and by test/dashboard.test.ts, so the test
// serves the sources as they are. Plain JavaScript on purpose: it runs before anything else.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Bundles the dashboard into `outdir` (default dist/ui); returns the paths written. */
export async function buildUi(outdir = join(root, 'dist/ui')) {
  mkdirSync(outdir, { recursive: true });
  await build({
    entryPoints: { app: join(root, 'mock/ui/app.ts'), style: join(root, 'mock/ui/style.css') },
    outdir,
    bundle: true,
    minify: true,
    platform: 'browser',
    format: 'esm',
    target: ['chrome111', 'firefox111', 'safari16.4'],
    legalComments: 'none',
    logLevel: 'warning',
  });
  return { js: join(outdir, 'app.js'), css: join(outdir, 'style.css') };
}
