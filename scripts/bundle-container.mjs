// The container image's build step (Dockerfile, build stage), run as
// `node scripts/bundle-container.mjs OUTDIR`: the mock and every runtime
// dependency bundled by esbuild into OUTDIR/dist/ (the
// entry cli.js plus chunks: mediabunny stays a chunk of its own, loaded on the
// first video as in dist/cli.js), the dashboard's bundle in OUTDIR/dist/ui/
// (scripts/ui-build.mjs: mock/http/ui.ts finds it beside cli.js), with the
// files the running mock reads beside it: package.json (its version), spec/openapi.json and
// spec/mock-control.openapi.yaml (the /docs site and the documents), and
// Scalar's standalone bundle as lib/docs/scalar.js (mock/http/docs.ts looks
// there first). The runtime stage copies OUTDIR and needs no
// node_modules (decisions/0023-container-image.md). Plain JavaScript on
// purpose, like scripts/bundle.mjs.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildUi } from './ui-build.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
// Outside the checkout in the image (/opt/mediagen-mock); never dist/, which `npm pack` ships.
const out = process.argv[2] ? resolve(process.argv[2]) : undefined;
if (!out) {
  console.error('usage: node scripts/bundle-container.mjs OUTDIR');
  process.exit(2);
}
// A fresh directory, or one this script wrote before (it leaves a marker): never a checkout by mistake.
const MARKER = '.mediagen-container-bundle';
if (existsSync(out) && readdirSync(out).length && !existsSync(join(out, MARKER))) {
  console.error(`bundle-container: ${out} is neither empty nor a bundle of this script; give a new directory`);
  process.exit(2);
}
for (const entry of ['dist', 'spec', 'lib', 'package.json']) rmSync(join(out, entry), { recursive: true, force: true });
mkdirSync(join(out, 'spec'), { recursive: true });
mkdirSync(join(out, 'lib/docs'), { recursive: true });

// opusscript (libopus in WebAssembly, Ogg Opus speech: mock/media/speech-codecs.ts) reads its .wasm from its own
// __dirname, which an ES module bundle has not: its loader is given the bundle's directory, where the .wasm is copied.
const opusWasm = createRequire(import.meta.url).resolve('opusscript/build/opusscript_native_wasm.wasm');
const opusWasmBeside = {
  name: 'opus-wasm-beside',
  setup(b) {
    b.onLoad({ filter: /opusscript_native_wasm\.js$/ }, (args) => ({
      contents: `var __dirname = __mgDirname;\n${readFileSync(args.path, 'utf8')}`,
      loader: 'js',
    }));
  },
};

const result = await build({
  entryPoints: { cli: join(root, 'mock/cli.ts') },
  outdir: join(out, 'dist'),
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  minify: true,
  legalComments: 'linked',
  metafile: true,
  // CommonJS dependencies (express, morgan, busboy...) call require() for Node's built-ins: give the ES module one;
  // and the directory of the bundle's files, where opusscript's WebAssembly loader looks for its .wasm (below).
  banner: {
    js: "import { createRequire as __mgCreateRequire } from 'node:module'; const require = __mgCreateRequire(import.meta.url); const __mgDirname = import.meta.dirname;",
  },
  plugins: [opusWasmBeside],
  logLevel: 'warning',
});

// The dashboard (/__mock/ui): its browser bundle where the mock looks for it, dist/ui beside dist/cli.js.
await buildUi(join(out, 'dist/ui'));

// Only the fields the mock reads (its version) and those that say what the files are.
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
writeFileSync(join(out, 'package.json'), `${JSON.stringify({ name: pkg.name, version: pkg.version, license: pkg.license, type: 'module' }, null, 2)}\n`);
copyFileSync(opusWasm, join(out, 'dist/opusscript_native_wasm.wasm'));
copyFileSync(join(root, 'spec/openapi.json'), join(out, 'spec/openapi.json'));
copyFileSync(join(root, 'spec/mock-control.openapi.yaml'), join(out, 'spec/mock-control.openapi.yaml'));
const scalarEntry = createRequire(import.meta.url).resolve('@scalar/api-reference');
copyFileSync(join(dirname(scalarEntry), 'browser/standalone.js'), join(out, 'lib/docs/scalar.js'));

writeFileSync(join(out, MARKER), 'written by scripts/bundle-container.mjs of mediagen-contract\n');

const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
console.log(`bundled mock/cli.ts and its dependencies -> ${out}/dist (${(bytes / 1e6).toFixed(1)} MB), the dashboard -> ${out}/dist/ui`);
