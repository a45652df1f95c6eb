// `npm run compile` (and `npm pack` / `npm publish` through `prepack`): the
// package's JavaScript and declarations in lib/, compiled by tsc from the
// entry points (tsconfig.build.json: the in-process mock, the MSW handlers,
// the typed client) so consumers need no TypeScript loader at run time. tsc
// rewrites the `.ts` import paths of the JavaScript; the declarations keep
// them, so they are rewritten here to `.js` (which TypeScript resolves to the
// `.d.ts` beside it), and the generated API types are copied beside the
// client that imports them. mediabunny (MPL-2.0) is shipped as its own
// self-contained ES module bundle in lib/vendor/ (with its licence), and the
// dynamic imports of it point there: the package does not depend on it, so
// installing it does not bring @types/dom-webcodecs, whose declarations clash
// with TypeScript's lib.dom for consumers that check libraries
// (decisions/0022-contract-package.md); its AAC encoder extension likewise. Plain JavaScript on purpose: it runs before anything else.
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
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

// mediabunny, vendored: the minified ES module bundle and its licence
// (the package exports no package.json: its CommonJS entry lies in dist/bundles/, beside the ES module bundle)
const mediabunnyBundles = dirname(createRequire(import.meta.url).resolve('mediabunny'));
mkdirSync(join(lib, 'vendor'), { recursive: true });
copyFileSync(join(mediabunnyBundles, 'mediabunny.min.mjs'), join(lib, 'vendor/mediabunny.js'));
copyFileSync(join(mediabunnyBundles, '../../LICENSE'), join(lib, 'vendor/mediabunny.LICENSE'));
// its AAC encoder extension (FFmpeg's AAC encoder in WebAssembly, MPL-2.0; spoken AAC: mock/media/speech-codecs.ts),
// vendored the same way, its imports of mediabunny pointed at the vendored bundle (one registry of encoders)
const aacBundles = dirname(createRequire(import.meta.url).resolve('@mediabunny/aac-encoder'));
const aacText = readFileSync(join(aacBundles, 'mediabunny-aac-encoder.min.mjs'), 'utf8');
const aacOut = aacText.replace(/from\s*(['"])mediabunny\1/g, 'from"./mediabunny.js"');
if (aacOut === aacText) throw new Error('@mediabunny/aac-encoder: no import of mediabunny found to point at the vendored bundle');
writeFileSync(join(lib, 'vendor/mediabunny-aac-encoder.js'), aacOut);
copyFileSync(join(aacBundles, '../../LICENSE'), join(lib, 'vendor/mediabunny-aac-encoder.LICENSE'));

let rewritten = 0;
let vendored = 0;
function walk(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p);
    else if (p.endsWith('.js') && !p.startsWith(join(lib, 'vendor'))) {
      const text = readFileSync(p, 'utf8');
      const vendor = (file) => {
        const target = relative(dirname(p), join(lib, 'vendor', file));
        return `import(${JSON.stringify(target.startsWith('.') ? target : `./${target}`)})`;
      };
      const out = text
        .replace(/import\((['"])mediabunny\1\)/g, () => vendor('mediabunny.js'))
        .replace(/import\((['"])@mediabunny\/aac-encoder\1\)/g, () => vendor('mediabunny-aac-encoder.js'));
      if (out !== text) {
        writeFileSync(p, out);
        vendored += (text.match(/import\((['"])(mediabunny|@mediabunny\/aac-encoder)\1\)/g) ?? []).length;
      }
    } else if (p.endsWith('.d.ts') && !p.startsWith(join(lib, 'generated')) && !p.startsWith(join(lib, 'docs'))) {
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
if (vendored !== 4) throw new Error(`expected the four dynamic imports of mediabunny and its AAC encoder in lib/, found ${vendored}`);
// nothing compiled may still name the packages
for (const f of ['mock/media/video.js', 'mock/media/reference-audio.js', 'mock/media/speech-codecs.js'])
  if (/from\s*['"](mediabunny|@mediabunny\/aac-encoder)['"]|import\(['"](mediabunny|@mediabunny\/aac-encoder)['"]\)/.test(readFileSync(join(lib, f), 'utf8')))
    throw new Error(`${f} still imports mediabunny or its AAC encoder`);
console.log(`compiled the package into lib/ (${rewritten} declaration files with rewritten import paths, mediabunny vendored)`);
