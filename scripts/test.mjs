// `npm test`: the static checks (check:generated, lint:code (tsc's type check and ESLint over one program), lint:format,
// lint:spec) and the vitest suite, all at once, instead of the checks first and the suite after them. vitest is the long pole and runs at
// normal priority; the checks run at a lower one, so they use the time the suite's workers wait (child processes,
// the browser, timers) and do not slow its tests towards their timeouts. (At normal priority beside the suite, on a
// loaded machine, tests timed out; the cost of the lower priority: when the suite keeps both cores busy to its end,
// the rest of ESLint's run, single-threaded, follows it.) Each line of output is prefixed with its task's name; at
// the end a table gives each task's result and wall time, and the exit code is non-zero when any task failed. Extra
// arguments go to vitest (`npm test -- test/foo.test.ts`). Plain JavaScript on purpose, like the other scripts npm runs.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

// a check runs as `npm run <script>` under a small node process that lowers its own priority first (children inherit it)
const niceRun = `
const { spawnSync } = require('node:child_process');
try { require('node:os').setPriority(10); } catch { /* not permitted here: normal priority */ }
const win = process.platform === 'win32';
const r = spawnSync(win ? 'npm.cmd' : 'npm', ['run', '--silent', process.argv[1]], { stdio: 'inherit', shell: win });
process.exit(r.status ?? 1);
`;
const tasks = [
  { name: 'vitest', args: ['node_modules/vitest/vitest.mjs', 'run', ...process.argv.slice(2)] },
  ...['check:generated', 'lint:code', 'lint:format', 'lint:spec'].map((script) => ({ name: script, args: ['-e', niceRun, script] })),
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
