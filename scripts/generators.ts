/**
 * `npm run test:generators`: the service document as third-party generators use it. From spec/openapi.json it
 * generates, into a fresh folder, an SDK with @hey-api/openapi-ts (fetch client, types, SDK functions) and a fetch
 * client with MSW mocks with orval, then compiles both with `tsc --strict` and prints the diagnostics. Exits 1 when
 * a generator fails or the compiler reports an error. `runGenerators()` is what test/generators.test.ts calls.
 *
 * The folder sits under node_modules/.cache so the generated imports (msw, @faker-js/faker, the generators'
 * clients) resolve against this repository's node_modules; it is removed afterwards unless --keep is given.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The document the generators read. */
export const SERVICE_DOCUMENT = join(ROOT, 'spec', 'openapi.json');

/** What a run produced: the generated files per generator and the compiler's diagnostics. */
export interface GeneratorRun {
  dir: string;
  files: { heyApi: string[]; orval: string[] };
  diagnostics: string[];
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && d.name.endsWith('.ts'))
    .map((d) => join(d.parentPath, d.name));
}

/** Generates both outputs from `input` into a new folder and compiles them under `strict`. */
export async function runGenerators(input = SERVICE_DOCUMENT): Promise<GeneratorRun> {
  const base = join(ROOT, 'node_modules', '.cache', 'mediagen-generators');
  mkdirSync(base, { recursive: true });
  const dir = mkdtempSync(join(base, 'run-'));
  const heyDir = join(dir, 'hey-api');
  const orvalDir = join(dir, 'orval');

  const { createClient } = await import('@hey-api/openapi-ts');
  await createClient({
    input,
    output: { path: heyDir },
    plugins: ['@hey-api/client-fetch', '@hey-api/typescript', '@hey-api/sdk'],
    logs: { level: 'silent' },
  });

  const { generate } = await import('orval');
  await generate({
    input: { target: input },
    output: { target: join(orvalDir, 'api.ts'), client: 'fetch', mode: 'split', mock: { type: 'msw' } },
  });

  const files = { heyApi: listFiles(heyDir), orval: listFiles(orvalDir) };
  const program = ts.createProgram([...files.heyApi, ...files.orval], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    // the generated code and the libraries it imports (msw, orval's and hey-api's runtime types) checked whole
    skipLibCheck: false,
    types: [],
  });
  const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file ? `${relative(dir, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : '(program)';
    return `${where} TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  });
  return { dir, files, diagnostics };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const run = await runGenerators();
  writeFileSync(join(run.dir, 'diagnostics.txt'), run.diagnostics.join('\n'));
  console.log(`@hey-api/openapi-ts: ${run.files.heyApi.length} files; orval (fetch + MSW): ${run.files.orval.length} files; in ${relative(ROOT, run.dir)}`);
  console.log(`tsc --strict: ${run.diagnostics.length} errors`);
  for (const d of run.diagnostics.slice(0, 50)) console.log(`  ${d}`);
  if (!process.argv.includes('--keep')) rmSync(run.dir, { recursive: true, force: true });
  process.exit(run.diagnostics.length || !run.files.heyApi.length || !run.files.orval.length ? 1 : 0);
}
