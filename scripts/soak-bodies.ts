/**
 * `npm run soak -- --bodies`: the request-bodies mode of the soak
 * (docs/architecture.md, "The engine", Bounds). The journal keeps each request's body cut
 * to its first 4,096 characters, as a copy, within one byte budget for the
 * default world and every session (--journal-mb); this mode shows the mock's
 * resident memory stays flat however large the bodies and however many
 * sessions send them. It starts the mock as a child process with its default
 * bounds (plus `--clock manual --no-rate-limit`, so every request is read
 * whole) and sends, 16 at a time:
 *
 * 1. `--sessions-count` sessions (default 256) x `--rounds` (default 12)
 *    credit estimates whose body carries `--body-kb` KB (default 900) of text,
 *    each request to the session's own journal;
 * 2. `--large` (default 168) estimates of `--large-mb` MB (default 24) in the
 *    default world (an image estimate: its body may be 25 MB);
 * 3. then deletes every session.
 *
 * It prints the RSS after every 10% of each scene (the curve over time), the
 * peak, and the RSS after the sessions are deleted. At the end of each scene
 * and after the deletion it also reads the RSS after a full garbage collection
 * (the mock runs with a preload that collects on a signal, never part of the
 * mock itself): what the process keeps. Read as the last answer comes, the RSS
 * still holds the garbage of the last bodies in flight (up to 8 of 24 MB, each
 * as bytes, text and parsed): at the end of the large bodies it read 577, 678
 * and 695 MB in three runs of the same code, by the collector's timing alone.
 *
 * Target: the RSS kept at the end of each scene and after the deletion below
 * 600 MB (the journal's budget is 32 MB; the rest is the process, the
 * sessions' worlds and what the allocator keeps). A request the mock cuts off
 * (a 503 for a full budget of bodies in flight closes the connection while the
 * body is still being sent) is counted, not a failure.
 *
 *   npm run soak -- --bodies [--sessions-count N] [--rounds N] [--body-kb K] [--large N] [--large-mb M]
 *
 * Exits 0, or 1 when the target is missed or a request is answered 5xx.
 */
import { parseArgs } from 'node:util';
import { rssMB, start, type Running } from './soak-sessions.ts';

const KEY = 'mg_soak1_secret';
const out = (s = '') => process.stdout.write(`${s}\n`);
const log = (s: string) => process.stderr.write(`${s}\n`);
const mb = (n: number) => `${n.toFixed(0)} MB`;
/** Requests cut off while their body was being sent. */
let cut = 0;

/** Runs `work(i)` for i in [0, n) with `concurrency` at a time. */
async function pool(n: number, concurrency: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) await work(next++);
    }),
  );
}

/**
 * Sends `n` requests made by `send(i)`, `concurrency` at a time, printing the RSS after every tenth of them; returns
 * the samples. A request the mock cuts off (a 503 for a full in-flight budget closes the connection) counts as status 0.
 */
async function scene(
  m: Running,
  name: string,
  n: number,
  concurrency: number,
  send: (i: number) => Promise<number>,
  bad: Map<number, number>,
): Promise<number[]> {
  const samples: number[] = [];
  const t0 = performance.now();
  let done = 0;
  await pool(n, concurrency, async (i) => {
    const status = await send(i).catch(() => 0);
    if (status === 0) cut++;
    if (status > 503 || status === 500) bad.set(status, (bad.get(status) ?? 0) + 1);
    done++;
    if (done % Math.max(1, Math.floor(n / 10)) === 0) samples.push(rssMB(m.child.pid!));
  });
  out(`${name}: ${n} requests in ${((performance.now() - t0) / 1000).toFixed(1)} s; RSS every tenth: ${samples.map((s) => s.toFixed(0)).join(', ')} MB`);
  return samples;
}

/** The bodies mode; `argv` are the soak's arguments (with --bodies). Returns the exit code. */
export async function soakBodies(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      bodies: { type: 'boolean' },
      'sessions-count': { type: 'string', default: '256' },
      rounds: { type: 'string', default: '12' },
      'body-kb': { type: 'string', default: '900' },
      large: { type: 'string', default: '168' },
      'large-mb': { type: 'string', default: '24' },
    },
  });
  const sessions = Number(values['sessions-count']);
  const rounds = Number(values.rounds);
  const bodyKb = Number(values['body-kb']);
  const large = Number(values.large);
  const largeMb = Number(values['large-mb']);
  const bad = new Map<number, number>();
  const auth = { authorization: `Bearer ${KEY}` };

  log(`soak --bodies: ${sessions} sessions x ${rounds} bodies of ${bodyKb} KB, then ${large} bodies of ${largeMb} MB, default bounds`);
  const m = await start([], { collectable: true });
  const idle = await m.settledRss();
  out(`RSS idle ${mb(idle)}`);
  // a distinct filler per request (so nothing is shared between bodies), built once per size
  const filler = (bytes: number, i: number) => `${i}:`.padEnd(bytes, 'abcdefghij');
  const small = filler(bodyKb * 1000, 0);
  const sent = await scene(
    m,
    `${sessions} sessions x ${rounds} bodies of ${bodyKb} KB`,
    sessions * rounds,
    16,
    async (i) =>
      (
        await m.call(
          'POST',
          '/v1/video-generation/estimate-credits',
          { ...auth, 'x-mock-session': `body-${i % sessions}` },
          {
            model: 'family1-video-2-fast',
            resolution: '720p',
            duration: 5,
            note: `${i}${small}`,
          },
        )
      ).status,
    bad,
  );
  const keptScene1 = await m.settledRss();
  const big = filler(largeMb * 1000 * 1000, 0);
  const sentLarge = await scene(
    m,
    `${large} bodies of ${largeMb} MB (default world)`,
    large,
    // within the 256 MiB of bodies in flight
    8,
    async (i) => (await m.call('POST', '/v1/images/generation/estimate-credits', auth, { model: 'image-a-2', note: `${i}${big}` })).status,
    bad,
  );
  const keptScene2 = await m.settledRss();
  const journal = (await m.call('GET', '/__mock/requests')).json as { items: { bodyTruncated?: boolean }[] };
  const beforeDelete = rssMB(m.child.pid!);
  const listed = ((await m.call('GET', '/__mock/sessions')).json as { items: { name: string }[] }).items;
  for (const s of listed) await m.call('DELETE', `/__mock/sessions/${s.name}`);
  await new Promise((r) => setTimeout(r, 2000));
  const afterDelete = await m.settledRss();
  const peak = m.peak();
  await m.stop();
  out(`default world's journal: ${journal.items.length} entries, ${journal.items.filter((e) => e.bodyTruncated).length} of them cut`);
  out(
    `RSS kept (after a full collection): idle ${mb(idle)}, end of scene 1 ${mb(keptScene1)}, end of scene 2 ${mb(keptScene2)}, ` +
      `after deleting ${listed.length} sessions ${mb(afterDelete)} (target: each below 600 MB)`,
  );
  out(
    `RSS as read: end of scene 1 ${mb(sent.at(-1) ?? Number.NaN)}, end of scene 2 ${mb(sentLarge.at(-1) ?? Number.NaN)}, ` +
      `before deleting ${mb(beforeDelete)}; peak ${mb(peak)} (the bodies in flight: up to 8 of 24 MB, each held as bytes, text and parsed)`,
  );
  if (bad.size) out(`5xx answers: ${[...bad].map(([s, n]) => `${s} x${n}`).join(', ')}`);
  if (cut) out(`cut off while sending (503, busy): ${cut}`);
  const ok = Math.max(keptScene1, keptScene2, afterDelete) < 600 && bad.size === 0;
  out(ok ? 'bodies: every target met' : 'bodies: a target was missed');
  return ok ? 0 : 1;
}
