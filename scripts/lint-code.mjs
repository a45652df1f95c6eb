// `npm run lint:code` (part of `npm test`): the type check (tsc's diagnostics for tsconfig.json, as `npm run
// typecheck` reports them) and ESLint (eslint.config.js, `eslint .`) over one TypeScript program. Run apart, tsc
// and typescript-eslint each parse, bind and type the whole project: about 77 s of CPU on a 2-core machine. Here
// the program is built and checked once, and ESLint's typed rules read the types the check already computed
// (`parserOptions.programs`): about 45 s. Files outside tsconfig.json (the JavaScript files, the type fixtures
// with their own tsconfig) keep eslint.config.js's project service. Exit code 1 on a type error or a lint error.
// Then the import graph (scripts/import-cycles.mjs, dpdm): no import cycle among the files ESLint lints, type-only
// imports included.
// Plain JavaScript on purpose, like the other scripts npm runs.
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import ts from 'typescript';
import { importCycles } from './import-cycles.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const started = performance.now();
const seconds = (from) => `${((performance.now() - from) / 1000).toFixed(1)} s`;

const config = ts.getParsedCommandLineOfConfigFile(
  join(root, 'tsconfig.json'),
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  },
);
const program = ts.createProgram({ rootNames: config.fileNames, options: config.options, projectReferences: config.projectReferences });
const diagnostics = [...config.errors, ...ts.getPreEmitDiagnostics(program)];
const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' };
if (diagnostics.length)
  console.log(process.stdout.isTTY ? ts.formatDiagnosticsWithColorAndContext(diagnostics, host) : ts.formatDiagnostics(diagnostics, host));
const typeErrors = diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error).length;
console.log(`types: ${typeErrors} error(s) in ${config.fileNames.length} files (${seconds(started)})`);

// the files of the program lint with it; every other file keeps the config's own parser options
const inProgram = config.fileNames.map((f) => relative(root, f).replaceAll('\\', '/'));
const lintStarted = performance.now();
const eslint = new ESLint({
  cwd: root,
  overrideConfig: [{ files: inProgram, languageOptions: { parserOptions: { projectService: false, programs: [program] } } }],
});
const results = await eslint.lintFiles(['.']);
const formatted = await (await eslint.loadFormatter('stylish')).format(results);
if (formatted) console.log(formatted);
const lintErrors = results.reduce((n, r) => n + r.errorCount + r.fatalErrorCount, 0);
console.log(`eslint: ${lintErrors} error(s) in ${results.length} files (${seconds(lintStarted)}); total ${seconds(started)}`);

const cyclesStarted = performance.now();
const { files, cycles } = await importCycles(root);
for (const cycle of cycles) console.log(`import cycle: ${[...cycle, cycle[0]].join(' -> ')}`);
console.log(`imports: ${cycles.length} cycle(s) in ${files.length} files, type-only imports included (${seconds(cyclesStarted)}); total ${seconds(started)}`);
process.exit(typeErrors || lintErrors || cycles.length ? 1 : 0);
