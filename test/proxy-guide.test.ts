/**
 * The proxy guide's walkthrough (docs/guides/proxy.md: its proxy, fallback and drift sections), run as pasted (test/walkthrough.ts reads its blocks, steps
 * and annotated outputs), as test/guides.test.ts runs the others: against a mock of this process on a free port
 * standing in for the upstream (`localhost:4010` replaced by its address), with the shell variables of the video
 * walkthrough (AUTH, json), in a temporary folder laid out as a project that installed the package
 * (`./node_modules/.bin/mediagen-mock` linked to bin/mediagen-mock.js, as npm links it). The run must exit 0 (the
 * mocks it starts stop cleanly), every annotated output must match, the upstream must have answered the requests the
 * proxy forwarded, and nothing may answer 5xx.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { createMock } from '../mock/index.ts';
import { claimedOutputs, outputMatches, scriptOf, walkthroughSteps } from './walkthrough.ts';

const root = new URL('..', import.meta.url).pathname;
/**
 * The sections of the guide this test runs: the proxy, the fallback, the drift checks (the record and replay
 * sections of the same guide have their walkthrough run by test/record-replay-cli.test.ts).
 */
const SECTIONS = ['The proxy', 'Fallback to the mock', 'Drift checks in development and in CI'];
const guide = readFileSync(join(root, 'docs/guides/proxy.md'), 'utf8')
  .split(/^(?=## )/m)
  .filter((part) => SECTIONS.some((h) => part.startsWith(`## ${h}\n`)))
  .join('');
const preamble = readFileSync(join(root, 'docs/guides/video.md'), 'utf8')
  .split('\n')
  .filter((l) => /^(AUTH=|json\(\) )/.test(l))
  .join('\n');
const hasJq = () => new Promise<boolean>((resolve) => execFile('bash', ['-c', 'command -v jq'], (e) => resolve(!e)));

it('docs/guides/proxy.md: the walkthrough runs as pasted, its outputs as shown', async () => {
  if (!(await hasJq())) return void console.warn('[proxy guide skipped] no jq');
  const steps = walkthroughSteps(guide);
  expect(guide.match(/^## /gm)).toHaveLength(SECTIONS.length);
  expect(steps.filter((s) => /mediagen-mock .*--upstream/.test(s.command)).length).toBe(2);
  const upstream = createMock({ seed: 1 });
  const base = await upstream.listen();
  const dir = mkdtempSync(join(tmpdir(), 'mg-guide-proxy-'));
  mkdirSync(join(dir, 'node_modules/.bin'), { recursive: true });
  symlinkSync(join(root, 'bin/mediagen-mock.js'), join(dir, 'node_modules/.bin/mediagen-mock'));
  try {
    const script = scriptOf(steps).replace(/(?:https?:\/\/)?localhost:4010/g, base);
    const child = spawn('bash', ['-c', `set -e\n${preamble}\n${script}`], { cwd: dir, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    // the group (the mocks the guide starts in the background included) is stopped after 120 s whatever happens
    const stopGroup = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // the group has ended already
      }
    };
    const timer = setTimeout(stopGroup, 120_000);
    const code = await new Promise<number>((resolve) => child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0))));
    clearTimeout(timer);
    stopGroup();
    expect(code, (out + err).slice(-3000)).toBe(0);
    const wrong: string[] = [];
    for (const [i, output] of claimedOutputs(steps, out))
      if (output === undefined || !outputMatches(steps[i].claim!, output))
        wrong.push(`${steps[i].command.split('\n').pop()!.trim()}\n    guide:  ${steps[i].claim!.at(-1)}\n    output: ${output?.trim() ?? '(none)'}`);
    expect(wrong, wrong.join('\n')).toEqual([]);
    // the upstream answered what the proxy forwarded (two reads of the subscription), all successes; the fallback's read stayed in its mock
    const answers = upstream.requests();
    expect(answers.map((a) => [a.operationId, a.status, a.keyId])).toEqual([
      ['getSubscription', 200, 'demo'],
      ['getSubscription', 200, 'demo'],
    ]);
  } finally {
    await upstream.close();
    rmSync(dir, { recursive: true, force: true });
  }
}, 150_000);
