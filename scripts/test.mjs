// `npm test`: the static checks (check:generated, lint:code (tsc's type check and ESLint over one program), lint:format,
// lint:spec) and the vitest suite, all at once, instead of the checks first and the suite after them. vitest is the long
// pole and runs at normal priority. The short checks run at a lower one, so they use the time the suite's workers wait
// (child processes, the browser, timers) and do not slow its tests towards their timeouts (at normal priority beside
// the suite, on a loaded machine, tests timed out). lint:code, the longest check and one thread, runs at normal
// priority: at the lower one it got little CPU while the suite ran and then ran alone for about 20 s, one core idle
// (two pairs of runs on 2 cores: 152 and 152 s niced, 143 and 158 s not, the 158 s on a slower spell of the machine;
// per second of CPU used, about 3% faster in both pairs). Each line of output is prefixed with its task's name; at the end
// a table gives each task's result and wall time, and the exit code is non-zero when any task failed. Extra arguments
// go to vitest (`npm test -- test/foo.test.ts`). Plain JavaScript on purpose, like the other scripts npm runs.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

// a check runs as `npm run <script>` under a small node process that sets its own priority first (children inherit it)
const niceRun = `
const { spawnSync } = require('node:child_process');
try { require('node:os').setPriority(Number(process.argv[2])); } catch { /* not permitted here: normal priority */ }
const win = process.platform === 'win32';
const r = spawnSync(win ? 'npm.cmd' : 'npm', ['run', '--silent', process.argv[1]], { stdio: 'inherit', shell: win });
process.exit(r.status ?? 1);
`;
const tasks = [
  { name: 'vitest', args: ['node_modules/vitest/vitest.mjs', 'run', ...process.argv.slice(2)] },
  ...Object.entries({ 'check:generated': 10, 'lint:code': 0, 'lint:format': 10, 'lint:spec': 10 }).map(([script, priority]) => ({
    name: script,
    args: ['-e', niceRun, script, String(priority)],
  })),
];
const width = Math.max(...tasks.map((t) => t.name.length));
const started = Date.now();

const results = await Promise.all(
  tasks.map(
    (t) =>
      new Promise((resolve) => {
        const t0 = Date.now();
        const child = spawn(process.execPath, t.args, { stdio: ['ignore', 'pipe', 'pipe'] });
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
