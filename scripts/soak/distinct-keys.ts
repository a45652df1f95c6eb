/**
 * The soak's distinct-keys mode (`npm run soak -- --distinct-keys N`,
 * scripts/soak.ts): the same traffic over 50 keys and over N new keys, to show
 * that what the mock keeps per key is bounded by --max-accounts.
 */
import { Agent } from 'node:http';
import { performance } from 'node:perf_hooks';
import { freePort } from '../bench-util.ts';
import { type flags, log, out, REPORT_EVERY_MS, SCALED_BOUNDS } from './config.ts';
import { boundFlags, mockArgs, rssMB, send, startMock, stopMock, waitHealthy } from './mock-process.ts';
import { fmt, mb, table } from './stats.ts';

// ---------------------------------------------------------------- distinct keys

/** Keys of the baseline run of the distinct-keys mode. */
const BASELINE_KEYS = 50;
/** Rounds of the baseline run at most: 400 a key, past every bound the scaled bounds set (2,000 tasks, 200 ledger entries). */
const BASELINE_ROUNDS = 20_000;
/** Requests in flight in the distinct-keys mode (closed loop: as fast as the mock answers). */
const DISTINCT_IN_FLIGHT = 32;
/** The verdict of the distinct-keys mode: the distinct run's final RSS within this of the baseline's. */
const DISTINCT_WITHIN_MB = 100;

/** One run of the distinct-keys mode: a fresh mock, `rounds` rounds whose key is `keyOf(round)`. Returns its memory figures. */
async function distinctRun(
  label: string,
  port: number,
  maxAccounts: number,
  rounds: number,
  keyOf: (round: number) => string,
): Promise<{ before: number; after: number; peak: number; seconds: number; requests: number; failures: number }> {
  const args = mockArgs(port, [...boundFlags(SCALED_BOUNDS), '--max-accounts', String(maxAccounts)]);
  log(`soak: ${label}: node ${args.join(' ')}`);
  const mock = startMock(args);
  const { child } = mock;
  process.on('exit', () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  try {
    await waitHealthy(child, port);
    const agent = new Agent({ keepAlive: true, maxSockets: DISTINCT_IN_FLIGHT + 4 });
    const before = rssMB(child.pid!) ?? NaN;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMB(child.pid!) ?? peak)), 1_000);
    const json = { 'content-type': 'application/json' };
    let next = 0;
    let requests = 0;
    let failures = 0;
    const t0 = performance.now();
    let reported = t0;
    const call = async (method: string, path: string, headers: Record<string, string>, body?: string) => {
      requests++;
      try {
        const a = await send(agent, port, method, path, headers, body, false);
        if (a.status >= 500) failures++;
      } catch {
        failures++;
      }
    };
    await Promise.all(
      Array.from({ length: DISTINCT_IN_FLIGHT }, async () => {
        while (next < rounds) {
          const round = next++;
          const key = keyOf(round);
          const auth = { authorization: `Bearer ${key}` };
          await call('POST', '/v1/video-generation/generate', { ...auth, ...json }, JSON.stringify({ content: [{ type: 'text', text: `distinct ${round}` }] }));
          await call('GET', '/v1/user/subscription', auth);
          if (round % 10 === 9) await call('DELETE', `/__mock/accounts/${key}`, {});
          if (performance.now() - reported > REPORT_EVERY_MS) {
            reported = performance.now();
            log(`soak: ${label}: ${fmt(round)} of ${fmt(rounds)} rounds, RSS ${mb(rssMB(child.pid!))}`);
          }
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    await new Promise((r) => setTimeout(r, 2_000)); // let the tasks of the last rounds finish (speed 60)
    clearInterval(sampler);
    const after = rssMB(child.pid!) ?? NaN;
    peak = Math.max(peak, after);
    agent.destroy();
    return { before, after, peak, seconds, requests, failures };
  } finally {
    await stopMock(child);
  }
}

/** The distinct-keys mode (see the head of this file). */
export async function distinctKeysMain(opt: ReturnType<typeof flags>): Promise<number> {
  const rounds = opt.distinctKeys!;
  const port = opt.port ?? (await freePort());
  // the baseline reaches its steady state (every task and ledger bound) well within BASELINE_ROUNDS
  const baseRounds = Math.min(rounds, BASELINE_ROUNDS);
  const base = await distinctRun(`baseline (${BASELINE_KEYS} keys)`, port, opt.maxAccounts, baseRounds, (r) => `mg_soak${r % BASELINE_KEYS}_secret`);
  const many = await distinctRun(`distinct (${fmt(rounds)} keys)`, port, opt.maxAccounts, rounds, (r) => `mg_dk${r}_secret`);
  out(
    `distinct keys: rounds of a video create, a subscription read and every tenth key deleted; --max-accounts ${opt.maxAccounts}, scaled bounds; ` +
      `baseline ${fmt(baseRounds)} rounds over ${BASELINE_KEYS} keys, then ${fmt(rounds)} rounds each with a new key`,
  );
  out(
    table(
      ['run', 'requests', 'seconds', '5xx or errors', 'RSS before', 'RSS after', 'RSS peak'],
      [
        [`${BASELINE_KEYS} keys`, base],
        [`${fmt(rounds)} keys`, many],
      ].map(([name, r]) => {
        const x = r as Awaited<ReturnType<typeof distinctRun>>;
        return [name as string, fmt(x.requests), fmt(x.seconds, 1), fmt(x.failures), mb(x.before), mb(x.after), mb(x.peak)];
      }),
    ).join('\n'),
  );
  const diff = many.after - base.after;
  out(
    `RSS after, distinct minus baseline: ${diff >= 0 ? '+' : ''}${diff.toFixed(1)} MB: ${Math.abs(diff) <= DISTINCT_WITHIN_MB ? 'within' : 'NOT within'} ${DISTINCT_WITHIN_MB} MB`,
  );
  return 0;
}
