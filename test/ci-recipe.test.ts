/**
 * The CI guide's recipe (docs/guides/ci.md, the block after `<!-- ci-recipe -->`), run as
 * written in a temporary directory laid out as a project that installed the
 * package (`./node_modules/.bin/mediagen-mock`, linked as npm links it) or as
 * a checkout of this repository (`./bin/mediagen-mock.js`), with `npm run
 * test:my-client` a stand-in that calls the mock (once passing, once failing).
 * Afterwards the mock's port is free and its process gone, whatever the tests did.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('..', import.meta.url).pathname;
const guide = readFileSync(join(root, 'docs/guides/ci.md'), 'utf8');
const recipe = /<!-- ci-recipe -->\s*```sh\n([\s\S]*?)```/.exec(guide)![1];

const portFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * Runs the recipe with `test:my-client` replaced by `testCommand`, in a project (`installed`: the command linked
 * into node_modules/.bin as npm links it) or a checkout (bin/ of this one); the mock's URL and PID are recorded to files.
 */
function run(testCommand: string, installed: boolean): Promise<{ code: number; url: string; pid: number; out: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'mg-ci-recipe-'));
  if (installed) {
    mkdirSync(join(dir, 'node_modules/.bin'), { recursive: true });
    symlinkSync(join(root, 'bin/mediagen-mock.js'), join(dir, 'node_modules/.bin/mediagen-mock'));
  } else symlinkSync(join(root, 'bin'), join(dir, 'bin'));
  const script = recipe.replace('npm run test:my-client', `echo "$MEDIAGEN_BASE_URL" > url.txt; echo "$MOCK_PID" > pid.txt; ${testCommand}`);
  writeFileSync(join(dir, 'recipe.sh'), script);
  return new Promise((resolve) => {
    execFile('bash', ['recipe.sh'], { cwd: dir, timeout: 60_000 }, (err, stdout, stderr) => {
      const read = (f: string) => readFileSync(join(dir, f), 'utf8').trim();
      const out = { code: err ? ((err as { code?: number }).code ?? 1) : 0, url: read('url.txt'), pid: Number(read('pid.txt')), out: stdout + stderr };
      rmSync(dir, { recursive: true, force: true });
      resolve(out);
    });
  });
}

describe("the CI guide's recipe", () => {
  it.each([
    ['tests that pass', 'curl -sf -H "Authorization: Bearer mg_ci_secret1" "$MEDIAGEN_BASE_URL/v1/user/subscription" > /dev/null', 0, true],
    ['tests that fail', 'curl -sf "$MEDIAGEN_BASE_URL/v1/user/subscription" > /dev/null', 22, true],
    ['tests that pass, in a checkout', 'curl -sf -H "Authorization: Bearer mg_ci_secret1" "$MEDIAGEN_BASE_URL/v1/user/subscription" > /dev/null', 0, false],
  ])('with %s: the mock answered at its free port, and afterwards the port is free and the process gone', async (_name, command, exit, installed) => {
    const r = await run(command, installed);
    expect(r.code, r.out).toBe(exit);
    expect(r.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(Number(new URL(r.url).port)).toBeGreaterThan(0);
    expect(alive(r.pid)).toBe(false);
    expect(await portFree(Number(new URL(r.url).port))).toBe(true);
  });
});
