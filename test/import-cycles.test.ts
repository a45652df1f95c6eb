/**
 * No import cycles (docs/architecture.md, "The layers"): scripts/import-cycles.mjs, which `npm run lint:code` runs,
 * finds a cycle made by a static, a dynamic or a type-only import, in the package's folders and in scripts/ and test/,
 * and leaves out the folders ESLint ignores; the repository has none.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importCycles } from '../scripts/import-cycles.mjs';

const root = join(import.meta.dirname, '..');

describe('import cycles', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mg-cycles-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (files: Record<string, string>) => {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
  };
  write({
    // a type-only import closes the cycle
    'mock/a.ts': "import { b } from './b.ts';\nexport interface A { n: number }\nexport const a = b + 1;\n",
    'mock/b.ts': "import type { A } from './a.ts';\nexport const b = 1;\nexport type B = A;\n",
    // a dynamic import closes it, in scripts/
    'scripts/x.mjs': "import { y } from './y.mjs';\nexport const x = y;\n",
    'scripts/y.mjs': "export const y = 2;\nexport const later = () => import('./x.mjs');\n",
    // test/ importing the package: no cycle
    'test/c.test.ts': "import { a } from '../mock/a.ts';\nexport const c = a;\n",
    // folders ESLint ignores are left out
    'test/types/p.ts': "import { q } from './q.ts';\nexport const p = q;\n",
    'test/types/q.ts': "import { p } from './p.ts';\nexport const q = () => p;\n",
    'dist/r.js': "import { s } from './s.js';\nexport const r = s;\n",
    'dist/s.js': "import { r } from './r.js';\nexport const s = () => r;\n",
  });

  it('finds the static-and-type-only cycle and the dynamic one, and nothing in the ignored folders', async () => {
    const { cycles, files } = await importCycles(dir);
    expect(cycles.map((c) => [...c].sort())).toEqual(
      expect.arrayContaining([
        ['mock/a.ts', 'mock/b.ts'],
        ['scripts/x.mjs', 'scripts/y.mjs'],
      ]),
    );
    expect(cycles).toHaveLength(2);
    expect(files).toContain('test/c.test.ts');
    expect(files.some((f) => f.startsWith('test/types/') || f.startsWith('dist/'))).toBe(false);
  });

  it('a checkout that itself lives in a folder named lib or dist is read all the same', async () => {
    const nested = join(dir, 'lib', 'dist', 'checkout');
    mkdirSync(join(nested, 'mock'), { recursive: true });
    writeFileSync(join(nested, 'mock/e.ts'), "import { f } from './f.ts';\nexport const e = f;\n");
    writeFileSync(join(nested, 'mock/f.ts'), "export const f = 1;\nexport const later = () => import('./e.ts');\n");
    const { cycles, files } = await importCycles(nested);
    expect(files.sort()).toEqual(['mock/e.ts', 'mock/f.ts']);
    expect(cycles.map((c) => [...c].sort())).toEqual([['mock/e.ts', 'mock/f.ts']]);
  });

  it('the repository has none, and its scripts and tests are read', async () => {
    const { cycles, files } = await importCycles(root);
    expect(cycles).toEqual([]);
    for (const f of [
      'mock/engine/engine.ts',
      'schemas/operations.ts',
      'scripts/bench.ts',
      'scripts/lint-code.mjs',
      'test/helpers.ts',
      'bin/mediagen-mock.js',
      'eslint.config.js',
    ])
      expect(files).toContain(f);
    expect(files.some((f) => f.startsWith('generated/') || f.startsWith('dist/') || f.startsWith('test/frontend-app/'))).toBe(false);
  });
});
