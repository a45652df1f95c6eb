/**
 * mediagen-verify against hostile servers (docs/guides/verify.md, "Every run
 * ends"): one that never answers, one that drips a byte at a time, one whose
 * body never ends, one that redirects to another server, and a proxy in
 * front of the mock that dies mid-run. Each run ends with the table and a
 * JUnit file holding every check so far and an error for the rest, and the
 * right exit status; the time limits are set low with the command's flags.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock, type InProcessMock } from '../mock/index.ts';
import { dripping, dyingProxy, endless, mutatingProxy, redirecting, runCli, silent, type Listening } from './verify-servers.ts';

const KEY = 'mg_verifyh1_secret1';
let mock: InProcessMock;
let mockUrl: string;
const dir = mkdtempSync(join(tmpdir(), 'verify-hostile-'));

beforeAll(async () => {
  mock = createMock({ seed: 2 });
  mockUrl = await mock.listen();
});
afterAll(() => mock.close());

/** Runs the command against `server` with low limits: exit status, output, the JUnit file's text. */
async function against(server: Listening, name: string, extra: string[] = []) {
  const file = join(dir, `${name}.xml`);
  try {
    const r = await runCli(['--base-url', server.url, '--api-key', KEY, '--request-timeout', '1', '--max-duration', '60', '--junit', file, ...extra]);
    return { ...r, junit: readFileSync(file, 'utf8') };
  } finally {
    await server.close();
  }
}

const count = (xml: string, re: RegExp) => [...xml.matchAll(re)].length;

describe('every run ends with a report', () => {
  it('a server that never answers: the run stops after three silent requests, exit 2, every operation reported not run', async () => {
    const r = await against(await silent(), 'silent', ['--tags', 'Image']);
    expect(r.status).toBe(2);
    expect(r.out).toContain('STOPPED: the server stopped answering: no complete answer within 1 s');
    expect(r.out).toContain('Coverage:');
    // the five Image operations, each reported as not run
    expect(count(r.junit, /<error message="the run stopped/g)).toBe(5);
    expect(r.junit).toMatch(/<testsuites name="mediagen-verify" tests="\d+" failures="\d+" errors="5"/);
  }, 60_000);

  it('a server dripping a byte every 200 ms: each answer is cut at the request timeout', async () => {
    const r = await against(await dripping(200), 'dripping', ['--operations', 'listImageTasks']);
    expect(r.status).toBe(2);
    expect(r.out).toMatch(/server answers|the body stopped: no complete answer within 1 s/);
    expect(r.junit).toContain('<error message="the run stopped');
  }, 60_000);

  it('an endless body: read up to the cap on answers, then cut off; the run goes on to its end (exit 1)', async () => {
    const r = await against(await endless(), 'endless', ['--operations', 'listImageTasks', '--request-timeout', '20']);
    expect(r.status).toBe(1);
    expect(r.out).toContain('answer size');
    expect(r.junit).toContain('cut off');
    expect(r.junit).not.toContain('<error');
  }, 120_000);

  it('a redirect to another server is not followed: the 302 is the answer checked', async () => {
    const other = await mutatingProxy(mockUrl);
    const r = await against(await redirecting(other.url), 'redirecting', ['--operations', 'listImageTasks,getImageTask']);
    expect(other.requests).toBe(0);
    await other.close();
    expect(r.status).toBe(1);
    expect(r.junit).toContain('HTTP 302 is not declared');
  }, 60_000);

  it('a server dying mid-run: the checks so far are kept, the rest reported not run, exit 2', async () => {
    mock.reset(2);
    const r = await against(await dyingProxy(mockUrl, 40), 'dying', ['--tags', 'Video,Image']);
    expect(r.status).toBe(2);
    expect(r.out).toMatch(/STOPPED: the server stopped answering: .*\(last request: /);
    const passed = count(r.junit, /time="[\d.]+"><\/testcase>/g);
    expect(passed).toBeGreaterThan(20);
    expect(count(r.junit, /<error message="the run stopped/g)).toBeGreaterThan(0);
  }, 60_000);

  it('the time is up: --max-duration ends the run with its report', async () => {
    const r = await against(await silent(), 'time-up', ['--tags', 'Image', '--request-timeout', '5', '--max-duration', '1']);
    expect(r.status).toBe(2);
    expect(r.out).toContain("STOPPED: the run's time is up (--max-duration 1 s)");
    expect(count(r.junit, /<error message="the run stopped/g)).toBe(5);
  }, 60_000);
});
