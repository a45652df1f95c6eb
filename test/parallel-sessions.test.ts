/**
 * Parallel CI workers against one mock process: vitest runs three test files
 * (test/parallel/*.session.ts) in three worker processes at once, each in its
 * own X-Mock-Session, each resetting, advancing its clock and creating tasks
 * while the others do; every worker sees only its own world.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { useMocks } from './helpers.ts';

const mock = useMocks();

describe('parallel workers with their own sessions', () => {
  it('three vitest workers advance and reset their own clocks against one mock without disturbing each other', async () => {
    const m = await mock();
    const root = new URL('..', import.meta.url).pathname;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['node_modules/vitest/vitest.mjs', 'run', '--config', 'test/parallel/vitest.config.ts', '--reporter', 'json'],
      {
        cwd: root,
        env: { ...process.env, MOCK_URL: m.base },
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as { numPassedTests: number; numFailedTests: number };
    expect({ passed: report.numPassedTests, failed: report.numFailedTests }).toEqual({ passed: 3, failed: 0 });
    // the default world saw none of it
    expect(m.engine.journal.total).toBe(0);
    const sessions = (await m.call('GET', '/__mock/sessions', { key: null })).json.items as { name: string; requests: number }[];
    expect(sessions.map((s) => [s.name, s.requests]).sort()).toEqual([
      ['worker-1', 24],
      ['worker-2', 24],
      ['worker-3', 24],
    ]);
  });
});
