/**
 * The shell walkthroughs of README.md and docs/guides/*.md run as pasted
 * (test/walkthrough.ts says which blocks and steps, and how an annotated
 * output is read): each guide's walkthrough blocks, in order, against a mock
 * of its own in this process (seed 1, manual clock, on a free port) with
 * `localhost:4010` replaced by its address, in a temporary folder, with the
 * shell variables the video walkthrough defines first (BASE, AUTH, json). The
 * run must exit 0; every output a comment annotates must match it; every API
 * answer must be a success unless the guide shows that error: each non-zero
 * envelope code the journal records appears in the guide's text, and nothing
 * answers 5xx. The CI guide's recipe runs in test/ci-recipe.test.ts, the
 * container guide's in `npm run test:container`. The blocks of project commands
 * (`npm`, `npx`, `docker`) are checked for the scripts and commands they name.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMock } from '../mock/index.ts';
import { claimedOutputs, isWalkthrough, outputMatches, scriptOf, shellBlocks, walkthroughSteps } from './walkthrough.ts';

const root = new URL('..', import.meta.url).pathname;
const docPath = (doc: string) => (doc === 'README' ? join(root, 'README.md') : join(root, 'docs/guides', `${doc}.md`));
const read = (doc: string) => readFileSync(docPath(doc), 'utf8');

/** The runs: each a guide, or guides that go on from one another (media.md reads the video walkthrough's task). */
const RUNS: string[][] = [
  ['README'],
  ['video', 'media'],
  ['images'],
  ['speech'],
  ['voice-cloning'],
  ['generated-audio'],
  ['podcasts'],
  ['lyrics'],
  ['music-analysis'],
  ['page-decks'],
  ['extraction'],
  ['music'],
  ['oauth'],
  ['control-api'],
];
/** Guides whose walkthrough another test runs as pasted. */
const RUN_ELSEWHERE: Record<string, string> = {
  ci: 'test/ci-recipe.test.ts',
  container: 'npm run test:container',
  proxy: 'test/proxy-guide.test.ts and test/record-replay-cli.test.ts',
};

/** BASE, AUTH and json() as the video walkthrough defines them (the other guides use them). */
const preamble = read('video')
  .split('\n')
  .filter((l) => /^(AUTH=|json\(\) )/.test(l))
  .join('\n');

const hasTool = (name: string) => new Promise<boolean>((resolve) => execFile('bash', ['-c', `command -v ${name}`], (e) => resolve(!e)));

const totals = { steps: 0, claims: 0 };
afterAll(() => console.log(`[guides] ${totals.steps} walkthrough steps run as pasted, ${totals.claims} annotated outputs matched`));

describe('how a walkthrough is read (hand-written cases)', () => {
  const steps = walkthroughSteps(
    [
      '```sh',
      'curl -s $BASE/x | json data.status     # uploading',
      "curl -s $BASE/y -H 'Prefer: a#b'  # 9920: charged at creation",
      'curl -s $BASE/z \\',
      '  -d \'{"a":1}\'',
      '# {"code":0,"message":"",',
      '#   "data":{"id":"t_…"}}',
      'curl -s -o out.png $BASE/p     # the image',
      '',
      '# a section comment after a blank line',
      'curl -sN $BASE/__mock/events   # event: task',
      'echo done                      # (a remark)',
      '```',
      '```sh',
      'npm run build   # a project command',
      '```',
    ].join('\n'),
  );
  it('steps, claims and remarks', () => {
    expect(steps.map((s) => s.claim)).toEqual([
      ['uploading'],
      ['9920: charged at creation', '9920'],
      ['{"code":0,"message":"",\n  "data":{"id":"t_…"}}', '{"code":0,"message":"",   "data":{"id":"t_…"}}'],
      undefined,
      undefined,
    ]);
    expect(steps[2].command).toBe('curl -s $BASE/z \\\n  -d \'{"a":1}\'');
    expect(steps.map((s) => s.command.split(' ')[0])).toEqual(['curl', 'curl', 'curl', 'curl', 'echo']);
  });
  it('an output matches its claim whole, `…` standing for any text, blanks aside; anything else does not', () => {
    expect(outputMatches(steps[2].claim!, '{"code":0,"message":"","data":{"id":"t_1a2b"}}')).toBe(true);
    expect(outputMatches(steps[2].claim!, '{"code":0,"message":"x","data":{"id":"t_1a2b"}}')).toBe(false);
    expect(outputMatches(steps[1].claim!, '9920')).toBe(true);
    expect(outputMatches(steps[1].claim!, '99200')).toBe(false);
    expect(outputMatches(['song.mp3: MPEG ADTS, v2, 32 kbps'], 'song.mp3: MPEG ADTS, v2,  32 kbps\n')).toBe(true);
  });
});

describe('the walkthroughs of the guides, run as pasted', () => {
  it('every guide with a walkthrough is run here or by the test named for it', () => {
    const docs = ['README', ...readdirSync(join(root, 'docs/guides')).map((f) => f.replace(/\.md$/, ''))];
    const withWalkthrough = docs.filter((d) => shellBlocks(read(d)).some(isWalkthrough));
    expect(withWalkthrough.filter((d) => !RUNS.flat().includes(d) && !RUN_ELSEWHERE[d])).toEqual([]);
  });

  it.concurrent.each(RUNS.map((docs) => [docs.join(' + '), docs] as const))(
    '%s',
    async (_name, docs) => {
      const text = docs.map(read).join('\n');
      const steps = docs.flatMap((d) => walkthroughSteps(read(d)));
      let script = scriptOf(steps);
      for (const tool of ['jq', 'file'])
        if (new RegExp(`\\b${tool} `).test(script) && !(await hasTool(tool))) return void console.warn(`[guide ${docs.join(' + ')} skipped] no ${tool}`);
      const mock = createMock({ seed: 1 });
      const base = await mock.listen();
      const dir = mkdtempSync(join(tmpdir(), `mg-guide-${docs[0]}-`));
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
        let err = '';
        child.stdout.on('data', (c: Buffer) => (out += c.toString()));
        child.stderr.on('data', (c: Buffer) => (err += c.toString()));
        const closed = new Promise<void>((resolve) => {
          child.on('close', () => resolve());
          child.on('error', () => resolve());
        });
        // bash's exit, not the pipes' close: a background job still holds them
        const code = await new Promise<number>((resolve) => {
          child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0)));
          // bash could not be started: no exit event comes
          child.on('error', (e) => {
            err += String(e);
            resolve(127);
          });
        });
        clearTimeout(timer);
        stopGroup();
        await closed;
        expect(code, (out + err).slice(-3000)).toBe(0);

        // every annotated output, as the guide shows it
        const outputs = claimedOutputs(steps, out);
        const wrong: string[] = [];
        for (const [i, output] of outputs) {
          const claims = steps[i].claim!.map((c) => c.replace(/(?:https?:\/\/)?localhost:4010/g, base));
          if (output === undefined || !outputMatches(claims, output))
            wrong.push(`${steps[i].command.split('\n').pop()!.trim()}\n    guide:  ${claims.at(-1)}\n    output: ${output?.trim() ?? '(none)'}`);
        }
        expect(wrong, wrong.join('\n')).toEqual([]);
        totals.steps += steps.length;
        totals.claims += outputs.size;

        const answers = mock.requests();
        expect(answers.length).toBeGreaterThan(0);
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

describe('the project commands the guides name exist', () => {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string>; bin: Record<string, string> };
  const docs = ['README', ...readdirSync(join(root, 'docs/guides')).map((f) => f.replace(/\.md$/, ''))];
  const all = docs.map((d) => [d, read(d)] as const);

  it('every `npm run <script>` and npm lifecycle script named is in package.json', () => {
    const missing: string[] = [];
    for (const [doc, text] of all) {
      for (const m of text.matchAll(/\bnpm run ([\w:.-]+)/g)) if (!pkg.scripts[m[1]] && m[1] !== 'test:my-client') missing.push(`${doc}: npm run ${m[1]}`);
      // a lifecycle script said to run (`prepare`, `postinstall`...) must be there
      for (const m of text.matchAll(/`(prepare|postinstall|preinstall|install|prepublishOnly)`/g)) if (!pkg.scripts[m[1]]) missing.push(`${doc}: ${m[1]}`);
    }
    expect(missing).toEqual([]);
  });

  it('every command started from node_modules/.bin, ./bin or npx is one the package or its dependencies install', () => {
    const missing: string[] = [];
    for (const [doc, text] of all)
      for (const m of text.matchAll(/(?:^|[\s`"(])(?:npx|\.\/node_modules\/\.bin\/|\.\/bin\/)([\w.-]+)/gm)) {
        const name = m[1];
        if (!pkg.bin[name] && !existsSync(join(root, 'node_modules/.bin', name)) && !existsSync(join(root, 'bin', name)))
          missing.push(`${doc}: ${m[0].trim()}`);
      }
    expect(missing).toEqual([]);
  });
});
