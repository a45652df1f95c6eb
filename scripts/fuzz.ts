/**
 * Long fuzz runs against an in-process mock (test/fuzz/ has the generator,
 * the oracle and the driver; test/fuzz.test.ts runs a bounded pass in npm test):
 *
 *   npm run fuzz -- --runs 20000 [--seed N] [--operation id[,id...]] [--fail-fast]
 *
 * Operation ids are the registry's (createVideoTask) or the control API's
 * (control:getAccount, or just getAccount). Prints requests by operation and
 * status, by mutation, every kind of failure with one example and the shrunk
 * case fast-check found, and the known defects seen. Exits 1 when a failure
 * no known defect explains was found.
 */
import { parseArgs } from 'node:util';
import { allTargets } from '../test/fuzz/documents.ts';
import { knownDefects } from '../test/fuzz/known-defects.ts';
import { fullCaps } from '../test/fuzz/model.ts';
import { runFuzz, type FuzzReport } from '../test/fuzz/runner.ts';
import { startFuzzMock } from '../test/fuzz/server.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '2000' },
    seed: { type: 'string' },
    operation: { type: 'string', multiple: true },
    'fail-fast': { type: 'boolean', default: false },
    keys: { type: 'string', default: '8' },
  },
});

const runs = Number(values.runs);
const seed = values.seed !== undefined ? Number(values.seed) : Math.floor(Date.now() % 2 ** 31);
if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive integer, got ${values.runs}`);
if (!Number.isInteger(seed) || seed < 0) throw new Error(`--seed must be a non-negative integer, got ${values.seed}`);

const every = allTargets();
const wanted = (values.operation ?? []).flatMap((o) => o.split(',')).map((o) => o.trim());
const targets = wanted.length ? every.filter((t) => wanted.includes(t.id) || wanted.includes(t.operationId)) : every;
const unknown = wanted.filter((w) => !every.some((t) => t.id === w || t.operationId === w));
if (unknown.length) throw new Error(`unknown operation ${unknown.join(', ')}; known: ${every.map((t) => t.id).join(', ')}`);

const keys = Array.from({ length: Number(values.keys) }, (_, i) => `mg_fuzz${i}_s${i}`);
const mock = await startFuzzMock();
console.log(`fuzz: ${runs} requests over ${targets.length} operations, seed ${seed}, mock ${mock.base}`);
let report: FuzzReport;
try {
  report = await runFuzz({
    base: mock.base,
    seed,
    runs,
    targets,
    warmUpTargets: every,
    keys,
    caps: fullCaps,
    failFast: values['fail-fast'],
    mockBugs: () => mock.bugs,
    log: (line) => console.log(line),
  });
} finally {
  await mock.close();
}

// requests by operation and status
const statuses = [...new Set([...report.counts.values()].flatMap((m) => [...m.keys()]))].sort((a, b) => String(a).localeCompare(String(b)));
const width = Math.max(...targets.map((t) => t.id.length), 9);
console.log(
  `\nrequests by operation and status (${report.requests} requests, ${report.shrinkRequests} more while shrinking, ${(report.ms / 1000).toFixed(1)} s):`,
);
console.log(`${'operation'.padEnd(width)} ${statuses.map((s) => String(s).padStart(9)).join('')}  total     ms`);
for (const t of targets) {
  const m = report.counts.get(t.id) ?? new Map();
  const total = [...m.values()].reduce((a, b) => a + b, 0);
  const ms = Math.round(report.timeByTarget.get(t.id) ?? 0);
  console.log(
    `${t.id.padEnd(width)} ${statuses.map((s) => String(m.get(s) ?? '').padStart(9)).join('')}  ${String(total).padStart(5)} ${String(ms).padStart(6)}`,
  );
}
console.log('\nanswers by operation, status/code:');
for (const t of targets) {
  const m = report.codes.get(t.id) ?? new Map<string, number>();
  const parts = [...m].sort((a, b) => a[0].localeCompare(b[0])).map(([k, n]) => `${k} x${n}`);
  console.log(`  ${t.id.padEnd(width)} ${parts.join('  ')}`);
}
console.log('\nrequests by mutation:');
for (const [label, n] of [...report.labels].sort((a, b) => b[1] - a[1])) console.log(`  ${label.padEnd(36)} ${n}`);

console.log(`\nledgers checked: ${report.accountsChecked} accounts; seeds used: ${report.seeds.join(', ')}`);
console.log(`requests sent again after a reused keep-alive connection was reset before any answer: ${report.retriedAfterReset}`);
console.log(`\nknown defects seen (${report.known.size}):`);
for (const d of knownDefects) {
  const rec = report.known.get(d.id);
  console.log(`  ${d.id}: ${rec ? `${rec.count} times; e.g. ${rec.example.split('\n')[0]}` : 'not seen in this run'}`);
}
console.log(`\nfailures (${report.failures.size} kinds):`);
for (const rec of report.failures.values()) {
  console.log(`- ${rec.key} (${rec.count} times)\n  ${rec.example.replace(/\n/g, '\n  ')}`);
  if (rec.report) console.log(`  shrunk by fast-check:\n    ${rec.report.split('\n').slice(0, 30).join('\n    ')}`);
}
// answers by status class, and requests without one (a connection error or a timeout)
const classes = new Map<string, number>();
for (const m of report.counts.values())
  for (const [status, n] of m) {
    const c = typeof status === 'number' ? `${Math.floor(status / 100)}xx` : status === 'none' ? 'no answer' : status;
    classes.set(c, (classes.get(c) ?? 0) + n);
  }
console.log(
  `\nanswers by class: ${[...classes]
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([c, n]) => `${c} ${n}`)
    .join(', ')}`,
);

// The headline: what the run exists to show is zero.
const byKind = new Map<string, number>();
for (const rec of report.failures.values()) byKind.set(rec.violation.kind, (byKind.get(rec.violation.kind) ?? 0) + rec.count);
const sum = (kinds: string[]) => kinds.reduce((n, k) => n + (byKind.get(k) ?? 0), 0);
const undeclared = ['undeclared-status', 'undeclared-code', 'unrouted', 'error-not-json', 'error-envelope'];
const invalid = ['response-schema', 'event-schema', 'error-schema', 'content-type', 'header'];
const other = [...byKind.keys()].filter((k) => k !== '5xx' && !undeclared.includes(k) && !invalid.includes(k));
console.log(
  `
${report.requests} requests: ${sum(['5xx'])} answers of 5xx, ${sum(undeclared)} undeclared statuses or codes, ${sum(invalid)} answers invalid against the documents, ${sum(other)} other failures (${other.join(', ') || 'none'})`,
);
process.exitCode = report.failures.size ? 1 : 0;
