/**
 * `--record` and `--replay` from the command line, and the walkthrough of
 * docs/guides/proxy.md's "Replaying offline" run as pasted (test/walkthrough.ts
 * reads it) against a replay of a recorded video task: the recording is made
 * here, from an upstream mock, through the exchanges the proxy hands over
 * (test/proxy-exchange.ts).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock, defaultServices } from '../mock/index.ts';
import { readRecordingFile } from '../mock/http/recording/format.ts';
import { createRecorder } from '../mock/http/recording/recorder.ts';
import { createReplay } from '../mock/http/recording/replay.ts';
import { pathOf, videoBody } from './factories.ts';
import { clientOf } from './proxy-exchange.ts';
import { claimedOutputs, outputMatches, scriptOf, walkthroughSteps } from './walkthrough.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dir = mkdtempSync(join(tmpdir(), 'mg-replay-cli-'));
const file = join(dir, 'session.json');

/** Records one video task, polled every 10 s to success, its media fetched. */
beforeAll(async () => {
  const upstream = createMock({ seed: 3 });
  const base = await upstream.listen();
  const recorder = createRecorder({ file, upstream: base });
  try {
    const c = clientOf(base, 'mg_guide_secret1', { onExchange: recorder.observe, clock: () => upstream.now() });
    const taskId = (await c.call('POST', pathOf('createVideoTask'), { body: videoBody() })).json.data.taskId as string;
    for (let i = 0; i < 30; i++) {
      upstream.advance(10_000);
      const r = await c.call('GET', pathOf('getVideoTask', { taskId }));
      if (r.json.data.status === 'success') break;
    }
    await recorder.close();
  } finally {
    await upstream.close();
  }
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `mediagen-mock` with `args` until it is ready (resolves its base URL and output) or exits (resolves its code and output). */
function run(args: string[]): Promise<{ base?: string; code?: number | null; out: () => string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, ['bin/mediagen-mock.js', '--port', '0', '--clock', 'manual', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolveRun) => {
    const onData = (d: Buffer) => {
      out += d.toString();
      const ready = /mediagen-mock ready (\S+)/.exec(out);
      if (ready) resolveRun({ base: ready[1], out: () => out, stop });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => resolveRun({ code, out: () => out, stop }));
  });
}

describe('mediagen-mock --record and --replay', () => {
  it.concurrent('--record without --upstream is refused, saying why', async () => {
    const r = await run(['--record', join(dir, 'x.json')]);
    expect(r.code).not.toBe(0);
    expect(r.out()).toContain('--record needs --upstream <url>');
  });

  it.concurrent('a changed recording stops it at start, naming the file, the path in it and the rule', async () => {
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    doc.tasks[0].statuses[0].atMs = -1;
    const bad = join(dir, 'changed.json');
    writeFileSync(bad, JSON.stringify(doc));
    const r = await run(['--replay', bad]);
    expect(r.code).toBe(1);
    expect(r.out()).toMatch(new RegExp(`--replay ${bad.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: tasks\\.0\\.statuses\\.0\\.atMs: Too small`));
  });

  it.concurrent('--replay: the start-up lines name the key of the recorded tasks; that key reads them', async () => {
    const r = await run(['--replay', file]);
    try {
      expect(r.base, r.out()).toBeDefined();
      const rec = readRecordingFile(file);
      // one task, its create and its reads, the video, its cover and the provider's copy (the same bytes as the video)
      expect(rec.media.filter((m) => m.sha256)).toHaveLength(3);
      expect(new Set(rec.media.map((m) => m.sha256)).size).toBe(2);
      expect(r.out()).toContain(`replay:   ${file}: 1 task, ${rec.exchanges.length} recorded answers, 3 media files; recorded key-1 -> mg_replay1_recorded`);
      const task = rec.tasks[0];
      const res = await fetch(r.base + pathOf('getVideoTask', { taskId: task.taskId }), { headers: { authorization: 'Bearer mg_replay1_recorded' } });
      expect(((await res.json()) as { data: { status: string } }).data.status).toBe(task.statuses[0].status);
    } finally {
      await r.stop();
    }
  });
});

describe('docs/guides/proxy.md, "Replaying offline", run as pasted', () => {
  it('the walkthrough runs and shows what the guide says', async () => {
    const guide = readFileSync(join(ROOT, 'docs/guides/proxy.md'), 'utf8');
    const section = /^## Replaying offline\n([\s\S]*?)(?=^## )/m.exec(guide)![1];
    const steps = walkthroughSteps(section);
    expect(steps.length).toBeGreaterThan(5);
    const replay = createReplay(readRecordingFile(file));
    const mock = createMock({ seed: 1, services: [...defaultServices, replay.service], intercept: replay.intercept });
    replay.load(mock.engine);
    const base = await mock.listen();
    try {
      const preamble = readFileSync(join(ROOT, 'docs/guides/video.md'), 'utf8')
        .split('\n')
        .filter((l) => /^json\(\) /.test(l))
        .join('\n');
      const script = scriptOf(steps).replace(/(?:https?:\/\/)?localhost:4010/g, base);
      const { code, out } = await new Promise<{ code: number | null; out: string }>((done) => {
        const child = spawn('bash', ['-c', `set -e\nBASE=${base}\n${preamble}\n${script}`], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
        let text = '';
        child.stdout.on('data', (d: Buffer) => (text += d.toString()));
        child.stderr.on('data', (d: Buffer) => (text += d.toString()));
        child.on('close', (c) => done({ code: c, out: text }));
      });
      expect(code, out).toBe(0);
      const wrong: string[] = [];
      for (const [i, output] of claimedOutputs(steps, out)) {
        const claims = steps[i].claim!.map((c) => c.replace(/(?:https?:\/\/)?localhost:4010/g, base));
        if (output === undefined || !outputMatches(claims, output)) wrong.push(`${steps[i].command}\n    guide:  ${claims.at(-1)}\n    output: ${output}`);
      }
      expect(wrong, wrong.join('\n')).toEqual([]);
      expect(claimedOutputs(steps, out).size).toBeGreaterThanOrEqual(5);
    } finally {
      await mock.close();
    }
  });
});
