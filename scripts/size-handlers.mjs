// `npm run size:handlers`: the MSW handlers as a Vite app gets them. A Vite
// production build (no minification settings of our own: Vite's defaults) of
// an entry that loads `mock/web/msw.ts` by a dynamic import, as the README's
// development-only recipe does; prints every chunk of it, minified and gzip
// (level 9), and checks the handlers' main chunk against the budget: at most
// 250 KB gzip, the media renderers, faker, zod-to-openapi and the audio
// loops in chunks of their own. It also prints the first-load weight: the
// chunks a page fetches when the recipe's dynamic imports resolve, before
// its first API request (those the two imports need, statically, and those
// a module of ours imports with a top-level await), apart from the chunks
// that load on first use (faker, the audio loops and the renderers with
// the first API request, the video muxer with the first video). `--json` prints the figures as JSON.
// Plain JavaScript on purpose: it runs without a TypeScript loader.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const BUDGET_GZIP = 250 * 1024;
// inside the repository, so `msw/browser` resolves from its node_modules
mkdirSync(join(root, 'node_modules/.cache'), { recursive: true });
const dir = mkdtempSync(join(root, 'node_modules/.cache/size-handlers-'));
const entry = join(dir, 'entry.js');
// the README's recipe: MSW's worker and the handlers, loaded together on demand
writeFileSync(entry, `export const load = () => Promise.all([import('msw/browser'), import(${JSON.stringify(join(root, 'mock/web/msw.ts'))})]);\n`);
try {
  const out = await build({
    configFile: false,
    logLevel: 'silent',
    root: dir,
    build: { outDir: join(dir, 'dist'), write: false, rollupOptions: { input: entry, preserveEntrySignatures: 'exports-only' }, reportCompressedSize: false },
  });
  const outputs = (Array.isArray(out) ? out : [out]).flatMap((o) => o.output).filter((c) => c.type === 'chunk');
  const rows = outputs.map((c) => {
    const bytes = Buffer.from(c.code);
    const modules = Object.keys(c.modules);
    return {
      file: c.fileName,
      main: modules.some((m) => m.endsWith('mock/web/msw.ts')),
      entry: c.isEntry,
      minBytes: bytes.byteLength,
      gzipBytes: gzipSync(bytes, { level: 9 }).byteLength,
      has: ['zod', '@faker-js/faker', '@asteasolutions/zod-to-openapi', 'mediabunny', 'msw', 'tldts', '-loops.ts'].filter((n) =>
        modules.some((m) => m.includes(n.startsWith('-') ? n : `node_modules/${n}/`)),
      ),
    };
  });
  rows.sort((a, b) => Number(b.main) - Number(a.main) || b.minBytes - a.minBytes);
  // the first load: from the entry's dynamic imports, every static import, and what our modules import with a top-level await
  const byFile = new Map(outputs.map((c) => [c.fileName, c]));
  const chunkOfModule = (id) => outputs.find((c) => Object.keys(c.modules).includes(id) || c.facadeModuleId === id);
  const awaitedBy = (c) =>
    Object.keys(c.modules)
      .filter((m) => m.startsWith(root) && !m.includes('/node_modules/') && existsSync(m))
      .flatMap((m) => {
        const src = readFileSync(m, 'utf8');
        // a top-level statement (at column 0) that awaits import(...) or Promise.all([import(...), ...])
        const statements = src.match(/^(?:export )?(?:const|let|var)[^\n]*=\s*await (?:import\(|Promise\.all\(\[)[\s\S]*?\);$/gm) ?? [];
        return statements.flatMap((st) => [...st.matchAll(/import\((['"])([^'"]+)\1\)/g)].map((x) => x[2])).map((spec) => ({ from: m, spec }));
      })
      .map(({ from, spec }) =>
        spec.startsWith('.')
          ? chunkOfModule(resolve(dirname(from), spec))
          : outputs.find(
              (o) =>
                o !== c &&
                Object.keys(o.modules).some((id) =>
                  id.includes(
                    `/node_modules/${spec
                      .split('/')
                      .slice(0, spec.startsWith('@') ? 2 : 1)
                      .join('/')}/`,
                  ),
                ),
            ),
      )
      .filter(Boolean);
  const entryChunk = outputs.find((c) => c.isEntry);
  const first = new Set();
  const visit = (c) => {
    if (!c || first.has(c.fileName)) return;
    first.add(c.fileName);
    for (const f of c.imports) visit(byFile.get(f));
    for (const d of awaitedBy(c)) visit(d);
  };
  for (const f of entryChunk.dynamicImports) visit(byFile.get(f));
  for (const r of rows) r.firstLoad = first.has(r.file);
  const sum = (list) => list.reduce((a, r) => [a[0] + r.minBytes, a[1] + r.gzipBytes], [0, 0]);
  const firstLoad = sum(rows.filter((r) => r.firstLoad));
  const main = rows.find((r) => r.main);
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  if (process.argv.includes('--json'))
    console.log(JSON.stringify({ budgetGzipBytes: BUDGET_GZIP, firstLoad: { minBytes: firstLoad[0], gzipBytes: firstLoad[1] }, chunks: rows }));
  else {
    console.log('chunk'.padEnd(44), 'minified'.padStart(10), 'gzip'.padStart(10), '  load   contains');
    for (const r of rows)
      console.log(
        `${r.main ? '* ' : '  '}${r.file}`.padEnd(44),
        kb(r.minBytes).padStart(10),
        kb(r.gzipBytes).padStart(10),
        ` ${r.firstLoad ? 'first' : 'later'}  ${r.has.join(', ')}`,
      );
    const total = rows.reduce((a, r) => [a[0] + r.minBytes, a[1] + r.gzipBytes], [0, 0]);
    console.log('  all chunks'.padEnd(44), kb(total[0]).padStart(10), kb(total[1]).padStart(10));
    console.log(`  first load (msw/browser and the handlers, before the first API request): ${kb(firstLoad[0])} minified, ${kb(firstLoad[1])} gzip`);
    console.log(`* the handlers' main chunk: ${kb(main.minBytes)} minified, ${kb(main.gzipBytes)} gzip (budget ${kb(BUDGET_GZIP)} gzip)`);
  }
  const bad = main.has.filter((n) => n !== 'zod' && n !== 'msw');
  if (main.gzipBytes > BUDGET_GZIP || bad.length) {
    console.error(`MISS: the main chunk is ${kb(main.gzipBytes)} gzip${bad.length ? ` and carries ${bad.join(', ')}` : ''}`);
    process.exitCode = 1;
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
