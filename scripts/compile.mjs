// `npm run compile` (and `npm pack` / `npm publish` through `prepack`): the
// package's JavaScript and declarations in lib/, compiled by tsc from the
// entry points (tsconfig.build.json: the in-process mock, the MSW handlers,
// the typed client) so consumers need no TypeScript loader at run time. tsc
// rewrites the `.ts` import paths of the JavaScript; the declarations keep
// them, so they are rewritten here to `.js` (which TypeScript resolves to the
// `.d.ts` beside it), and the generated API types are copied beside the
// client that imports them. Plain JavaScript on purpose: it runs before anything else.
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const lib = join(root, 'lib');
rmSync(lib, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
cpSync(join(root, 'generated'), join(lib, 'generated'), { recursive: true, filter: (p) => !p.endsWith('.json') });
// the documentation site's renderer (a devDependency here), shipped so an installed mock serves /docs
const scalarEntry = createRequire(import.meta.url).resolve('@scalar/api-reference');
mkdirSync(join(lib, 'docs'), { recursive: true });
copyFileSync(join(dirname(scalarEntry), 'browser/standalone.js'), join(lib, 'docs/scalar.js'));

let rewritten = 0;
function walk(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p);
    else if (p.endsWith('.d.ts') && !p.startsWith(join(lib, 'generated')) && !p.startsWith(join(lib, 'docs'))) {
      const text = readFileSync(p, 'utf8');
      const out = text.replace(/(from\s+|import\()(['"])(\.{1,2}\/[^'"]+?)(\.d)?\.ts\2/g, (_m, kw, q, path) => `${kw}${q}${path}.js${q}`);
      if (out !== text) {
        writeFileSync(p, out);
        rewritten++;
      }
    }
  }
}
walk(lib);
console.log(`compiled the package into lib/ (${rewritten} declaration files with rewritten import paths)`);
