/**
 * The mediagen-mock command as users run it (a child process): SIGTERM
 * answers the requests in flight before it exits 0; --state saves the state
 * at shutdown and a restart answers a task poll exactly as the mock would
 * have without the restart; a state file it cannot use stops it at start
 * with a message and is left as it was; beyond this machine the control API
 * needs the token the banner prints.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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

/** Starts `mediagen-mock` with `args` on a free port and waits until it answers. */
async function start(args: string[], host = '127.0.0.1'): Promise<Running> {
  const port = await freePort();
  const child = spawn(process.execPath, ['bin/mediagen-mock.js', '--port', String(port), '--host', host, '--clock', 'manual', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
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
      if ((await fetch(`${base}/__mock/health`)).status === 200) break;
    } catch {
      /* not yet */
    }
    if (Date.now() - t0 > 20_000) throw new Error(`the mock did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { base, child, output: () => out, exited };
}

const json = async (r: Response) => (await r.json()) as { data: Record<string, unknown>; code: number };

describe('mediagen-mock', () => {
  it('SIGTERM: requests in flight are answered, then it exits 0', async () => {
    const m = await start(['--quiet']);
    const inFlight = Array.from({ length: 10 }, () => fetch(`${m.base}${pathOf('getSubscription')}`, { headers: { ...AUTH, prefer: 'delay=800' } }));
    await new Promise((r) => setTimeout(r, 200));
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
  });
});
