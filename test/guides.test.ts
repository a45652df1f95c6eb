/**
 * The guides' walkthroughs run as pasted (docs/guides/<area>.md): the shell
 * blocks of each area's guide, in order, against a mock of its own in this
 * process (seed 1, manual clock, on a free port) with `localhost:4010`
 * replaced by its address, in a temporary folder, with the shell variables
 * the video walkthrough defines first (BASE, AUTH, json). The run must exit
 * 0, and every API answer must be a success unless the guide shows that
 * error: each non-zero envelope code the journal records appears in the
 * guide's text, and nothing answers 5xx. Lines that follow a live stream
 * (`curl -N`, which waits for a second shell to move the clock) and the
 * guide's own `npm start` are left out; the blocks of that second shell run
 * in their turn.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMock } from '../mock/index.ts';

const root = new URL('..', import.meta.url).pathname;
const guidePath = (area: string) => join(root, 'docs/guides', `${area}.md`);
/** Every area's guide with a walkthrough. */
const AREAS = [
  'video',
  'images',
  'speech',
  'voice-cloning',
  'generated-audio',
  'podcasts',
  'lyrics',
  'music-analysis',
  'page-decks',
  'extraction',
  'music',
  'oauth',
];

/** The shell blocks of a guide, joined, without the lines that wait on a live stream. */
function walkthrough(text: string): string {
  return (
    [...text.matchAll(/^```sh\n([\s\S]*?)^```/gm)]
      .map((m) => m[1])
      .join('\n')
      .split('\n')
      // the mock is this test's (the guide's own `npm start` is left out), and a live stream waits for a second shell
      .filter((l) => !/^\s*curl\s+-s?N\b/.test(l) && !/^\s*npm start\b/.test(l))
      .join('\n')
  );
}

/** BASE, AUTH and json() as the video walkthrough defines them (the other guides use them). */
const preamble = readFileSync(guidePath('video'), 'utf8')
  .split('\n')
  .filter((l) => /^(AUTH=|json\(\) )/.test(l))
  .join('\n');

const hasTool = (name: string) => new Promise<boolean>((resolve) => execFile('bash', ['-c', `command -v ${name}`], (e) => resolve(!e)));

describe('the walkthroughs of the guides, run as pasted', () => {
  it.concurrent.each(AREAS)(
    '%s',
    async (area) => {
      const text = readFileSync(guidePath(area), 'utf8');
      let script = walkthrough(text);
      for (const tool of ['jq', 'file'])
        if (new RegExp(`\\b${tool} `).test(script) && !(await hasTool(tool))) return void console.warn(`[guide ${area} skipped] no ${tool}`);
      const mock = createMock({ seed: 1 });
      const base = await mock.listen();
      const dir = mkdtempSync(join(tmpdir(), `mg-guide-${area}-`));
      try {
        script = script.replace(/^BASE=.*$/m, '').replace(/(?:https?:\/\/)?localhost:4010/g, base);
        // in a process group of its own: what the walkthrough starts in the background (the OAuth guide's callback
        // listener) is stopped with it, even when the walkthrough fails before it is used (or runs past 90 s)
        const child = spawn('bash', ['-c', `set -e\nBASE=${base}\n${preamble}\n${script}`], { cwd: dir, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
        const stopGroup = () => {
          try {
            process.kill(-child.pid!, 'SIGKILL');
          } catch {
            // the group has ended already
          }
        };
        const timer = setTimeout(stopGroup, 90_000);
        let out = '';
        child.stdout.on('data', (c: Buffer) => (out += c.toString()));
        child.stderr.on('data', (c: Buffer) => (out += c.toString()));
        const closed = new Promise<void>((resolve) => {
          child.on('close', () => resolve());
          child.on('error', () => resolve());
        });
        // bash's exit, not the pipes' close: a background job still holds them
        const code = await new Promise<number>((resolve) => {
          child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0)));
          // bash could not be started: no exit event comes
          child.on('error', (e) => {
            out += String(e);
            resolve(127);
          });
        });
        clearTimeout(timer);
        stopGroup();
        await closed;
        const run = { code, out };
        expect(run.code, run.out.slice(-3000)).toBe(0);
        const answers = mock.requests();
        expect(answers.length).toBeGreaterThan(2);
        expect(answers.filter((a) => a.status >= 500)).toEqual([]);
        const unshown = answers.filter((a) => a.code !== null && a.code !== 0 && !text.includes(String(a.code)));
        expect(unshown.map((a) => `${a.method} ${a.path}: ${a.status} ${a.code}`)).toEqual([]);
        expect(answers.filter((a) => a.code === 0).length).toBeGreaterThan(0);
        expect(mock.bugs()).toEqual([]);
      } finally {
        await mock.close();
        rmSync(dir, { recursive: true, force: true });
      }
    },
    120_000,
  );
});
