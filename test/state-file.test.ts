/**
 * State files (mock/http/state-file.ts): saved atomically through a temporary
 * file of an unpredictable name, created exclusively in the target's
 * directory, so a file or symbolic link planted at a temporary name is never
 * followed (the review planted one at the old predictable name,
 * `<state>.<pid>.tmp`, and the target of the link was overwritten); a
 * location the mock cannot write in stops it at start with what to do; a save
 * that fails at run time answers STATE_SAVE_FAILED (10020, HTTP 507), not a
 * mock bug.
 */
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { errorCatalog } from '../schemas/errors.ts';
import { Engine } from '../mock/engine/engine.ts';
import { saveStateFile, stateLocationProblem, tempNameFor, writeStateFile } from '../mock/http/state-file.ts';
import { useMocks } from './helpers.ts';

const mock = useMocks();
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dirOf = () => mkdtempSync(join(tmpdir(), 'mg-state-'));

describe('writeStateFile', () => {
  it('a symbolic link planted at the old temporary name is not followed: its target is untouched', () => {
    const dir = dirOf();
    const file = join(dir, 'state.json');
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'precious');
    symlinkSync(victim, `${file}.${process.pid}.tmp`);
    const bytes = writeStateFile(file, new Engine({ seed: 3 }));
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    expect(lstatSync(`${file}.${process.pid}.tmp`).isSymbolicLink()).toBe(true);
    const saved = JSON.parse(readFileSync(file, 'utf8'));
    expect(saved.state.seed).toBe(3);
    expect(bytes).toBe(readFileSync(file).byteLength);
    // no temporary file is left beside it
    expect(readdirSync(dir).sort()).toEqual([`state.json.${process.pid}.tmp`, 'state.json', 'victim.txt'].sort());
  });

  it('the temporary file is created exclusively: a link planted at its very name fails the save, nothing overwritten', () => {
    const dir = dirOf();
    const file = join(dir, 'state.json');
    writeFileSync(file, 'the previous state');
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'precious');
    const tmp = tempNameFor(file);
    symlinkSync(victim, tmp);
    expect(() => writeStateFile(file, new Engine(), tmp)).toThrow(/EEXIST/);
    expect(readFileSync(victim, 'utf8')).toBe('precious');
    expect(readFileSync(file, 'utf8')).toBe('the previous state');
  });

  it('temporary names are unpredictable: in the target’s directory, 24 random hex digits, never twice', () => {
    const names = Array.from({ length: 50 }, () => tempNameFor('/some/dir/state.json'));
    expect(new Set(names).size).toBe(50);
    for (const n of names) expect(n).toMatch(/^\/some\/dir\/\.state\.json\.[0-9a-f]{24}\.tmp$/);
  });
});

describe('stateLocationProblem (checked at start)', () => {
  it('a directory it can write in: none, and no probe file is left', () => {
    const dir = dirOf();
    expect(stateLocationProblem(join(dir, 'state.json'))).toBeUndefined();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a directory that does not exist: what is wrong and what to do, for a container too', () => {
    const problem = stateLocationProblem('/nonexistent/dir/s.json');
    expect(problem).toContain('cannot write in /nonexistent/dir (ENOENT');
    expect(problem).toContain('chown');
    expect(problem).toContain('uid 10001');
    expect(problem).toContain(':U');
  });

  it('a path that is a directory, or under a file: refused', () => {
    const dir = dirOf();
    expect(stateLocationProblem(dir)).toContain('is a directory');
    writeFileSync(join(dir, 'plain'), '');
    expect(stateLocationProblem(join(dir, 'plain', 's.json'))).toContain('ENOTDIR');
  });

  it('the command refuses to start with it, exit 1, nothing listening', async () => {
    const child = spawn(process.execPath, ['bin/mediagen-mock.js', '--port', '0', '--state', '/nonexistent/dir/s.json'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise<number | null>((r) => child.on('exit', r));
    expect(code).toBe(1);
    expect(out).toContain('--state /nonexistent/dir/s.json: the mock cannot write in /nonexistent/dir');
    expect(out).not.toContain('listening');
  }, 60_000);
});

describe('a save that fails at run time', () => {
  it('saveStateFile: STATE_SAVE_FAILED with the reason', () => {
    expect(() => saveStateFile('/nonexistent/dir/s.json', new Engine())).toThrow(
      expect.objectContaining({ error: 'STATE_SAVE_FAILED', message: expect.stringContaining('ENOENT') }),
    );
  });

  it('POST /__mock/state/save: 507 (10020) naming the reason, no mock bug, the state kept; it works again once the directory is back', async () => {
    const dir = join(dirOf(), 'data');
    mkdirSync(dir);
    const file = join(dir, 'state.json');
    const m = await mock({ stateFile: file });
    expect((await m.call('POST', '/__mock/state/save', { key: null })).status).toBe(200);
    rmSync(dir, { recursive: true });
    const r = await m.call('POST', '/__mock/state/save', { key: null });
    expect(r.status).toBe(507);
    expect(r.json.code).toBe(errorCatalog.STATE_SAVE_FAILED.code);
    expect(r.json.message).toContain(`the state could not be written to ${file} (ENOENT`);
    expect(r.json.message).toContain('saved again at shutdown');
    expect((await m.call('GET', '/__mock/state', { key: null })).status).toBe(200);
    mkdirSync(dir);
    expect((await m.call('POST', '/__mock/state/save', { key: null })).status).toBe(200);
    expect(existsSync(file)).toBe(true);
    // useMocks checks that no mock bug was reported
  });
});
