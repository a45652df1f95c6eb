// `npm run size:handlers`: the MSW handlers as a Vite app gets them. A Vite
// production build (no minification settings of our own: Vite's defaults) of
// an entry that loads `mock/web/msw.ts` by a dynamic import, as the README's
// development-only recipe does; prints every chunk of it, minified and gzip
// (level 9), and checks the handlers' main chunk against the budget: at most
// 250 KB gzip, the media renderers, faker, zod-to-openapi and the audio
// loops in chunks of their own. `--json` prints the figures as JSON.
// Plain JavaScript on purpose: it runs without a TypeScript loader.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
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
  const main = rows.find((r) => r.main);
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  if (process.argv.includes('--json')) console.log(JSON.stringify({ budgetGzipBytes: BUDGET_GZIP, chunks: rows }));
  else {
    console.log('chunk'.padEnd(44), 'minified'.padStart(10), 'gzip'.padStart(10), ' contains');
    for (const r of rows)
      console.log(`${r.main ? '* ' : '  '}${r.file}`.padEnd(44), kb(r.minBytes).padStart(10), kb(r.gzipBytes).padStart(10), ` ${r.has.join(', ')}`);
    const total = rows.reduce((a, r) => [a[0] + r.minBytes, a[1] + r.gzipBytes], [0, 0]);
    console.log('  all chunks'.padEnd(44), kb(total[0]).padStart(10), kb(total[1]).padStart(10));
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
