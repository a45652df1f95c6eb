/**
 * The generated types fit real clients: every request body of the guides'
 * curl walkthroughs (docs/guides/*.md), extracted from them (so they cannot drift),
 * compiles as the body of its operation with openapi-fetch under `strict`,
 * `exactOptionalPropertyTypes` and `noUncheckedIndexedAccess`; and the wrong
 * bodies of test/type-fixtures/wrong-bodies.ts fail to compile (their
 * `@ts-expect-error` lines would otherwise fail the compile).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { operations } from '../schemas/operations.ts';

const root = new URL('..', import.meta.url).pathname;

interface ReadmeBody {
  file: string;
  line: number;
  method: 'POST' | 'PUT';
  path: string;
  template: string;
  params: Record<string, string>;
  body: unknown;
}

/** The guides with walkthroughs: docs/guides/*.md, and the README. */
const guideFiles = () => [
  'README.md',
  ...readdirSync(join(root, 'docs/guides'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/guides/${f}`),
];

/** The JSON bodies of the guides' curl commands to API operations, with the operation's path template. */
function readmeBodies(): ReadmeBody[] {
  return guideFiles().flatMap((f) => bodiesOf(f));
}

function bodiesOf(file: string): ReadmeBody[] {
  const text = readFileSync(join(root, file), 'utf8').replace(/\\\n/g, ' ');
  const templates = Object.values(operations).map((op) => {
    const names: string[] = [];
    const re = new RegExp(`^${op.path.replace(/\{(\w+)\}/g, (_m, n: string) => (names.push(n), '([^/]+)'))}$`);
    return { op, re, names };
  });
  const out: ReadmeBody[] = [];
  for (const m of text.matchAll(/curl [^\n]*?-X (POST|PUT) +"?(?:\$BASE|https?:\/\/[^/\s"]+|localhost:\d+)(\/v1\/[^\s"'?]+)[^\n]*?-d '([^']*)'/g)) {
    let body: unknown;
    try {
      body = JSON.parse(m[3]);
    } catch {
      continue; // a body built from shell variables
    }
    const path = m[2];
    const hit = templates.find((t) => t.re.test(path) && t.op.method === m[1].toLowerCase());
    if (!hit) continue;
    const values = hit.re.exec(path)!.slice(1);
    out.push({
      file,
      line: text.slice(0, m.index).split('\n').length,
      method: m[1] as 'POST' | 'PUT',
      path,
      template: hit.op.path,
      params: Object.fromEntries(hit.names.map((n, i) => [n, values[i]])),
      body,
    });
  }
  return out;
}

describe('types that fit real clients', () => {
  it("the guides' request bodies compile with openapi-fetch under strict options; the wrong bodies do not", () => {
    const found = readmeBodies();
    // the walkthroughs' JSON bodies: enough of them, over several areas
    expect(found.length).toBeGreaterThanOrEqual(20);
    expect(new Set(found.map((b) => b.template.split('/')[2])).size).toBeGreaterThanOrEqual(6);
    const calls = found.map(
      (b) =>
        `  // ${b.file} line ${b.line}: ${b.method} ${b.path}\n  await client.${b.method}(${JSON.stringify(b.template)}, { ${
          Object.keys(b.params).length ? `params: { path: ${JSON.stringify(b.params)} }, ` : ''
        }body: ${JSON.stringify(b.body)} });`,
    );
    mkdirSync(join(root, 'test/type-fixtures/.gen'), { recursive: true });
    writeFileSync(
      join(root, 'test/type-fixtures/.gen/readme-bodies.ts'),
      `/* Written by test/types.test.ts from the guides (docs/guides/*.md). */\nimport createClient from 'openapi-fetch';\nimport type { paths } from '../../../generated/api.d.ts';\n\nconst client = createClient<paths>({ baseUrl: 'http://localhost:4010' });\n\nexport async function readmeBodies(): Promise<void> {\n${calls.join('\n')}\n}\n`,
    );
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    let output = '';
    try {
      execFileSync(process.execPath, [tsc, '-p', join(root, 'test/type-fixtures/tsconfig.json')], { encoding: 'utf8' });
    } catch (e) {
      output = (e as { stdout?: string }).stdout ?? String(e);
    }
    expect(output).toBe('');
  });
});
