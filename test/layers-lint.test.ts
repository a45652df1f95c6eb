/**
 * The layer order holds for dynamic `import()` too (docs/architecture.md, "The layers": engine < media < services <
 * core < http, web < index, cli; schemas/ never imports mock/): the rule of scripts/eslint-layers.mjs, run by ESLint
 * over hand-written files placed in each layer.
 */
import { ESLint } from 'eslint';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { layersPlugin } from '../scripts/eslint-layers.mjs';

const eslint = new ESLint({
  cwd: join(import.meta.dirname, '..'),
  overrideConfigFile: true,
  overrideConfig: [{ files: ['**/*.ts'], plugins: { layers: layersPlugin }, rules: { 'layers/no-upward-dynamic-import': 'error' } }],
});

/** The rule's messages for `code` linted as if it were the file `file` of the repository. */
async function problems(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(import.meta.dirname, '..', file) });
  return result.messages.map((m) => m.message);
}

describe('no upward dynamic import', () => {
  it.each([
    ['mock/engine/x.ts', "import('../services/fake.ts')", 'mock/engine never imports mock/services'],
    ['mock/media/x.ts', "import('../core/answer.ts')", 'mock/media never imports mock/core'],
    ['mock/services/x.ts', "import('../web/fetch.ts')", 'mock/services never imports mock/web'],
    ['mock/core/x.ts', "import('../http/app.ts')", 'mock/core never imports mock/http'],
    ['mock/http/x.ts', "import('../index.ts')", 'mock/http never imports mock/index.ts'],
    ['mock/web/x.ts', "import('../cli.ts')", 'mock/web never imports mock/cli.ts'],
    ['schemas/x.ts', "import('../mock/engine/clock.ts')", 'schemas/ never imports mock/engine'],
    ['mock/ui/x.ts', "import('../engine/clock.ts')", 'mock/ui never imports mock/engine'],
  ])('%s: %s is refused', async (file, expression, message) => {
    const found = await problems(file, `export const load = () => ${expression};\n`);
    expect(found).toHaveLength(1);
    expect(found[0]).toContain(message);
  });

  it.each([
    ['mock/engine/x.ts', "import('./clock.ts')"],
    ['mock/services/x.ts', "import('../media/video.ts')"],
    ['mock/media/x.ts', "import('mediabunny')"],
    ['mock/index.ts', "import('./http/app.ts')"],
    ['mock/http/x.ts', "import('../core/answer.ts')"],
    ['mock/engine/x.ts', "import('../../schemas/errors.ts')"],
    ['scripts/x.ts', "import('../mock/cli.ts')"],
  ])('%s: %s is allowed', async (file, expression) => {
    expect(await problems(file, `export const load = () => ${expression};\n`)).toEqual([]);
  });
});

describe('no Node global below the transports', () => {
  // the project's own configuration (eslint.config.js): these layers run in browsers too (MSW). Only that rule runs,
  // so no type information is needed: the project service would build a program for each snippet (about 6 s)
  const project = new ESLint({
    cwd: join(import.meta.dirname, '..'),
    overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parserOptions: { projectService: false } } }],
    ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-globals',
  });
  /** The no-restricted-globals messages for `code` linted as the file `file`. */
  const globalsFound = async (file: string, code: string) => {
    const [result] = await project.lintText(code, { filePath: join(import.meta.dirname, '..', file) });
    return result.messages.filter((m) => m.ruleId === 'no-restricted-globals').map((m) => m.message);
  };

  it.each([
    ['mock/engine/journal.ts', "export const bytes = Buffer.from('x');\n"],
    ['mock/core/answer.ts', 'export const argv = process.argv;\n'],
    ['mock/services/video.ts', 'export const later = (f: () => void) => setImmediate(f);\n'],
  ])('%s: %s is refused', async (file, code) => {
    expect(await globalsFound(file, code)).toEqual([expect.stringContaining('runs in browsers too')]);
  });

  it('mock/http may use them (Node only)', async () => {
    expect(await globalsFound('mock/http/respond.ts', "export const bytes = Buffer.from('x');\n")).toEqual([]);
  });
});
