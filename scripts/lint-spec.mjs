// `npm run lint:spec` (part of `npm test`): both OpenAPI documents against
// Redocly's recommended ruleset (redocly.yaml) and Spectral's spectral:oas
// (.spectral.yaml). Any error or warning fails; a rule switched off carries
// its reason in the config. Offline: Redocly's telemetry and update check are off.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const documents = ['spec/openapi.yaml', 'spec/mock-control.openapi.yaml'];
const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_UPDATE_NOTIFIER: '1' };
const bin = (pkg, name) => join(dirname(require.resolve(`${pkg}/package.json`)), require(`${pkg}/package.json`).bin[name]);

function run(label, args) {
  try {
    return { ok: true, out: execFileSync(process.execPath, args, { cwd: root, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }) };
  } catch (e) {
    return { ok: false, out: `${e.stdout ?? ''}${e.stderr ?? ''}` || String(e), label };
  }
}

let failed = false;
// Redocly: JSON output (one document per run), so warnings count too
for (const doc of documents) {
  const redocly = run('redocly', [bin('@redocly/cli', 'redocly'), 'lint', doc, '--format', 'json']);
  let problems;
  try {
    // the report is the first top-level JSON object of the output (notices may follow it)
    const text = redocly.out.slice(redocly.out.indexOf('{'));
    problems = JSON.parse(text.slice(0, text.indexOf('\n}') + 2)).problems ?? [];
  } catch {
    console.error(`redocly could not lint ${doc}:\n${redocly.out}`);
    failed = true;
    continue;
  }
  for (const p of problems) console.error(`redocly ${p.severity} ${p.ruleId}: ${p.message} (${doc} ${p.location?.[0]?.pointer ?? ''})`);
  console.log(`redocly (recommended): ${problems.length} problems in ${doc}`);
  failed ||= problems.length > 0;
}

const spectral = run('spectral', [
  bin('@stoplight/spectral-cli', 'spectral'),
  'lint',
  ...documents,
  '--ruleset',
  '.spectral.yaml',
  '--fail-severity',
  'warn',
  '--display-only-failures',
]);
console.log(spectral.out.trim() ? spectral.out.trim() : `spectral (spectral:oas): no problems`);
failed ||= !spectral.ok;

if (failed) {
  console.error('lint:spec failed: fix the schemas (then npm run build), or switch the rule off in redocly.yaml / .spectral.yaml with a one-line reason');
  process.exit(1);
}
