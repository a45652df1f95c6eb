/**
 * Types generated from the document the way the frontend guide says
 * (docs/guides/frontend.md, "Types of your own, from the document": the
 * openapi-typescript command after `<!-- openapi-typescript -->`, run here as
 * written but on this checkout's spec/openapi.json) accept every request body
 * the README's and the guides' snippets send (`client.POST(path, { body })`);
 * with openapi-typescript's default options the same bodies fail (a defaulted
 * field such as `ratio` becomes required), so the option the guide shows is
 * the one that matters. Part of `npm run test:package`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allSnippets, openapiTypescriptCommand, postBodies } from './snippets.ts';

const root = new URL('..', import.meta.url).pathname;
const bin = join(root, 'node_modules/.bin/openapi-typescript');
const tsc = join(root, 'node_modules/typescript/bin/tsc');

/** The guide's command's arguments after the program, the document and the output replaced. */
function guideArgs(out: string): string[] {
  const words = openapiTypescriptCommand(root);
  expect(words.slice(0, 2)).toEqual(['npx', 'openapi-typescript']);
  return words.slice(2).map((w, i, all) => (w.endsWith('spec/openapi.json') ? join(root, 'spec/openapi.json') : all[i - 1] === '-o' ? out : w));
}

/** tsc's report on check.ts in `dir` (empty when it compiles). */
function compile(dir: string): string {
  try {
    execFileSync(process.execPath, [tsc, '-p', dir], { cwd: dir, encoding: 'utf8' });
    return '';
  } catch (e) {
    return (e as { stdout?: string }).stdout ?? String(e);
  }
}

describe("the guide's openapi-typescript options and the snippets' request bodies", () => {
  let dir: string;
  const bodies = postBodies(allSnippets(root));
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mediagen-own-types-'));
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: false },
        files: ['check.ts'],
      }),
    );
    writeFileSync(
      join(dir, 'check.ts'),
      [
        "import type { paths } from './api.js';",
        "type Body<P extends keyof paths> = paths[P] extends { post: { requestBody?: { content: { 'application/json': infer B } } } } ? B : never;",
        ...bodies.map((b, i) => `// ${b.at}\nexport const body${i}: Body<${JSON.stringify(b.path)}> = ${b.body};`),
        '',
      ].join('\n'),
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('the snippets send bodies to at least the video create', () => {
    expect(bodies.length).toBeGreaterThanOrEqual(3);
    expect(bodies.map((b) => b.path)).toContain('/v1/video-generation/generate');
  });

  it('types generated with the options the guide shows accept every body', () => {
    const args = guideArgs(join(dir, 'api.d.ts'));
    expect(args).toEqual(expect.arrayContaining(['--default-non-nullable', 'false']));
    execFileSync(bin, args, { cwd: dir, stdio: 'ignore' });
    expect(compile(dir)).toBe('');
  }, 180_000);

  it("with openapi-typescript's default options the same bodies fail (a defaulted field is required)", () => {
    execFileSync(bin, [join(root, 'spec/openapi.json'), '-o', join(dir, 'api.d.ts')], { cwd: dir, stdio: 'ignore' });
    expect(compile(dir)).toMatch(/TS2322|TS2741/);
  }, 180_000);
});
