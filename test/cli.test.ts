/**
 * The mediagen-mock command as users run it (a child process): SIGTERM
 * answers the requests in flight before it exits 0; --state saves the state
 * at shutdown and a restart answers a task poll exactly as the mock would
 * have without the restart; a state file it cannot use stops it at start
 * with a message and is left as it was; beyond this machine the control API
 * needs the token the banner prints (a generated one, once; a supplied one
 * never).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { videoPhases } from '../schemas/video.ts';
import { pathOf, videoBody } from './factories.ts';
import { freePort } from './prism.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const AUTH = { authorization: 'Bearer mg_cli_secret1' };
let children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  children = [];
});

interface Running {
  base: string;
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts `mediagen-mock` with `args` on a free port and waits until it answers and has printed its ready line. */
async function start(args: string[], host = '127.0.0.1', env: Record<string, string> = {}): Promise<Running> {
  const port = await freePort();
  const child = spawn(process.execPath, ['bin/mediagen-mock.js', '--port', String(port), '--host', host, '--clock', 'manual', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  children.push(child);
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const base = `http://127.0.0.1:${port}`;
  for (const t0 = Date.now(); ;) {
    if (child.exitCode !== null) break;
    try {
      // answering and done printing its banner (the ready line is its last; health can answer a moment before it)
      if ((await fetch(`${base}/__mock/health`)).status === 200 && out.includes('mediagen-mock ready')) break;
    } catch {
      /* not yet */
    }
    if (Date.now() - t0 > 120_000) throw new Error(`the mock did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { base, child, output: () => out, exited };
}

const json = async (r: Response) => (await r.json()) as { data: Record<string, unknown>; code: number };

describe('mediagen-mock', () => {
  it('SIGTERM: requests in flight are answered, then it exits 0', async () => {
    const m = await start(['--quiet']);
    // a scenario rule delays the next 10 requests; a request takes its use when it arrives, before its delay, so an empty
    // list of rules says all 10 are in the server (waited for, not timed)
    const rule = await fetch(`${m.base}/__mock/scenarios`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ operationId: 'getSubscription', times: 10, delay: 3000 }),
    });
    expect(rule.status).toBe(200);
    const inFlight = Array.from({ length: 10 }, () => fetch(`${m.base}${pathOf('getSubscription')}`, { headers: AUTH }));
    const rules = async () => ((await (await fetch(`${m.base}/__mock/scenarios`)).json()) as { items: unknown[] }).items.length;
    for (const until = Date.now() + 60_000; (await rules()) > 0 && Date.now() < until;) await new Promise((r) => setTimeout(r, 10));
    expect(await rules()).toBe(0);
    m.child.kill('SIGTERM');
    const answers = await Promise.all(inFlight);
    expect(answers.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(await m.exited).toBe(0);
  });

  it('--state: saved at shutdown; a restart answers a task poll as it would have without the restart', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'mg-cli-')), 'state.json');
    const a = await start(['--state', file, '--quiet']);
    const created = await json(
      await fetch(`${a.base}${pathOf('createVideoTask')}`, {
        method: 'POST',
        headers: { ...AUTH, 'content-type': 'application/json' },
        body: JSON.stringify(videoBody()),
      }),
    );
    const taskId = created.data.taskId as string;
    const p = videoPhases('family1-video-2-fast', 5);
    await fetch(`${a.base}/__mock/clock/advance`, { method: 'POST', body: JSON.stringify({ ms: p.generatingMs }) });
    a.child.kill('SIGTERM');
    expect(await a.exited).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).format).toBe('mediagen-mock-state');

    const b = await start(['--state', file]);
    expect(b.output()).toContain(`loaded ${file}`);
    const poll = async () => json(await fetch(`${b.base}${pathOf('getVideoTask', { taskId })}`, { headers: AUTH }));
    expect((await poll()).data.status).toBe('uploading');
    await fetch(`${b.base}/__mock/clock/advance`, { method: 'POST', body: JSON.stringify({ ms: p.uploadingMs }) });
    const done = (await poll()).data;
    expect(done.status).toBe('success');
    expect(done.updatedAt).toBe((done.createdAt as number) + p.generatingMs + p.uploadingMs);
    expect((await json(await fetch(`${b.base}${pathOf('getSubscription')}`, { headers: AUTH }))).data.balance).toBe(10_000 - 40);
  });

  it('a state file it cannot use stops it at start with a message, and the file is left as it was', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mg-cli-'));
    for (const [name, text, mention] of [
      ['garbage.json', '{"format": "mediagen-mock-state", "version": 1, "state": 42', 'not JSON'],
      ['future.json', JSON.stringify({ format: 'mediagen-mock-state', version: 999, state: {} }), 'version 999'],
    ]) {
      const file = join(dir, name);
      writeFileSync(file, text);
      const before = createHash('sha256').update(readFileSync(file)).digest('hex');
      const m = await start(['--state', file]);
      expect(await m.exited).toBe(1);
      expect(m.output()).toContain(mention);
      expect(createHash('sha256').update(readFileSync(file)).digest('hex')).toBe(before);
    }
  });

  it('listening beyond this machine, the control API needs the token the banner prints; the API does not', async () => {
    const m = await start(['--quiet'], '0.0.0.0');
    const token = /Bearer (\S+)/.exec(m.output())?.[1];
    expect(token).toBeDefined();
    expect((await fetch(`${m.base}/__mock/requests`)).status).toBe(403);
    expect((await fetch(`${m.base}/__mock/requests`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    expect((await fetch(`${m.base}${pathOf('getSubscription')}`, { headers: AUTH })).status).toBe(200);
    expect(m.output()).toContain('0.0.0.0');
    // the banner links the dashboard, whose page is served without the token (its data requests carry it)
    expect(m.output()).toMatch(/browse: +http:\/\/\S+\/__mock\/ui\/ /);
    expect((await fetch(`${m.base}/__mock/ui/`)).status).toBe(200);
    // a generated token is printed once, at start
    expect(m.output().split(token!).length - 1).toBe(1);
  });

  it('a control token the user supplies (flag or variable) is never printed; it still guards the control API', async () => {
    for (const [args, env, source] of [
      [['--control-token', 'tok123'], {}, '--control-token'],
      [[], { MEDIAGEN_MOCK_CONTROL_TOKEN: 'tok123' }, 'MEDIAGEN_MOCK_CONTROL_TOKEN'],
    ] as const) {
      const m = await start(['--quiet', ...args], '0.0.0.0', env);
      expect((await fetch(`${m.base}/__mock/requests`, { headers: { authorization: 'Bearer tok123' } })).status).toBe(200);
      expect((await fetch(`${m.base}/__mock/requests`)).status).toBe(403);
      m.child.kill('SIGTERM');
      await m.exited;
      expect(m.output()).not.toContain('tok123');
      expect(m.output()).toContain(`Bearer <the token of ${source}>`);
    }
  });
});

describe('mediagen-mock: flags, environment, readiness', () => {
  const runOnce = (args: string[], env: Record<string, string> = {}) =>
    new Promise<{ code: number | null; out: string }>((resolveRun) => {
      const child = spawn(process.execPath, ['bin/mediagen-mock.js', ...args], {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, ...env },
      });
      children.push(child);
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      child.on('exit', (code) => resolveRun({ code, out }));
    });

  /** Starts the command with `args` and `env`; resolves when it prints its ready line, with the base URL of that line. */
  const startReady = async (args: string[], env: Record<string, string>) => {
    const child = spawn(process.execPath, ['bin/mediagen-mock.js', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    children.push(child);
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    for (const t0 = Date.now(); !/mediagen-mock ready \S+/.test(out);) {
      if (child.exitCode !== null || Date.now() - t0 > 120_000) throw new Error(`no ready line:\n${out}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return { child, base: /mediagen-mock ready (\S+)/.exec(out)![1] };
  };

  it('--version prints the package version; --help has examples, the environment variables, Prefer and the control routes, and each default once', async () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect((await runOnce(['--version'])).out.trim()).toBe(pkg.version);
    const help = (await runOnce(['--help'])).out;
    for (const part of ['Examples:', 'MEDIAGEN_MOCK_PORT', 'Prefer: code=', '/__mock/clock/advance', '/__mock/sessions', 'mediagen-mock ready'])
      expect(help).toContain(part);
    expect(help.match(/about 10 s/g)).toHaveLength(1);
    // --help and --version have no variable (one would do nothing)
    expect(help).not.toMatch(/MEDIAGEN_MOCK_(HELP|VERSION)/);
    expect(help).toContain('2026-01-01T00:00:00.000Z');
  });

  it("--help's first forcing example works on the endpoint a newcomer calls first (GET /v1/user/subscription)", async () => {
    const help = (await runOnce(['--help'])).out;
    const first = /^\s+Prefer: (\S+)/m.exec(help)![1];
    const { child, base } = await startReady(['--port', '0', '--quiet', '--clock', 'manual'], {});
    const forced = await fetch(`${base}${pathOf('getSubscription')}`, { headers: { ...AUTH, prefer: first } });
    const status = Number(/^code=(\d{3})$/.exec(first)?.[1]);
    expect(forced.status).toBe(status);
    expect(((await forced.json()) as { message: string }).message).toContain(`forced by Prefer ${first}`);
    child.kill('SIGTERM');
  });

  it('--port 0 (from MEDIAGEN_MOCK_PORT) binds a free port, prints it in the ready line, writes it to --ready-file, and media URLs carry it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mg-cli-'));
    const readyFile = join(dir, 'url');
    const { child, base } = await startReady(['--ready-file', readyFile, '--quiet'], {
      MEDIAGEN_MOCK_PORT: '0',
      MEDIAGEN_MOCK_CLOCK: 'manual',
      MEDIAGEN_MOCK_SEED: '9',
    });
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:(?!0$)\d+$/);
    expect(readFileSync(readyFile, 'utf8').trim()).toBe(base);
    const health = (await (await fetch(`${base}/__mock/health`)).json()) as { seed: number; clock: { mode: string } };
    expect(health).toMatchObject({ seed: 9, clock: { mode: 'manual' } });
    const created = await fetch(`${base}/v1/images/generation/async`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: JSON.stringify({ provider: 'vendor_a', model: 'image-a-2', prompt: 'a kite' }),
    });
    const { taskId } = ((await created.json()) as { data: { taskId: string } }).data;
    await fetch(`${base}/__mock/clock/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"ms": 600000}' });
    const task = await (await fetch(`${base}/v1/images/generation/tasks/${taskId}`, { headers: AUTH })).text();
    expect(task).toContain(`${base}/media/`);
    child.kill('SIGTERM');
    await new Promise((r) => child.on('exit', r));
    expect(existsSync(readyFile)).toBe(false);
  });

  it('a flag on the command line wins over its environment variable; a bad value from the environment names the variable', async () => {
    const refused = await runOnce([], { MEDIAGEN_MOCK_PORT: 'eighty' });
    expect(refused.code).not.toBe(0);
    expect(refused.out).toContain('MEDIAGEN_MOCK_PORT');
    const { base } = await startReady(['--port', '0', '--seed', '3', '--quiet'], { MEDIAGEN_MOCK_SEED: '5', MEDIAGEN_MOCK_CLOCK: 'manual' });
    expect(await (await fetch(`${base}/__mock/health`)).json()).toMatchObject({ seed: 3, clock: { mode: 'manual' } });
  });
});
