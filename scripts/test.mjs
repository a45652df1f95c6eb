// `npm test`: the static checks (check:generated, typecheck, lint:eslint, lint:format, lint:spec) and the vitest
// suite, all at once, so the single-threaded checks (ESLint with type information, tsc) overlap the suite instead of
// running before it on a machine of two cores. (At a lower priority they would be starved while vitest keeps both cores
// busy and end the run alone, on one core.) Each line of output is prefixed with its task's name; at the end a table
// gives each task's result and wall time, and the exit code is non-zero when any task failed. Extra arguments go to
// vitest (`npm test -- test/foo.test.ts`). Plain JavaScript on purpose, like the other scripts npm runs.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const tasks = [
  { name: 'vitest', cmd: process.execPath, args: ['node_modules/vitest/vitest.mjs', 'run', ...process.argv.slice(2)] },
  ...['check:generated', 'typecheck', 'lint:eslint', 'lint:format', 'lint:spec'].map((script) => ({
    name: script,
    cmd: npm,
    args: ['run', '--silent', script],
  })),
];
const width = Math.max(...tasks.map((t) => t.name.length));
const started = Date.now();

const results = await Promise.all(
  tasks.map(
    (t) =>
      new Promise((resolve) => {
        const t0 = Date.now();
        const child = spawn(t.cmd, t.args, { stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' });
        for (const stream of [child.stdout, child.stderr])
          createInterface({ input: stream }).on('line', (line) => console.log(`[${t.name.padEnd(width)}] ${line}`));
        child.on('error', (e) => resolve({ name: t.name, code: 1, seconds: (Date.now() - t0) / 1000, error: e.message }));
        child.on('exit', (code, signal) => resolve({ name: t.name, code: code ?? (signal ? 1 : 0), seconds: (Date.now() - t0) / 1000 }));
      }),
  ),
);

console.log(`\nnpm test: ${((Date.now() - started) / 1000).toFixed(1)} s`);
for (const r of results)
  console.log(`  ${r.code === 0 ? 'ok  ' : 'FAIL'} ${r.name.padEnd(width)} ${r.seconds.toFixed(1).padStart(6)} s${r.error ? ` (${r.error})` : ''}`);
process.exit(results.some((r) => r.code !== 0) ? 1 : 0);
