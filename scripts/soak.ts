/**
 * `npm run soak`: a soak test of the mock. Starts it as users run it, as a child
 * process (`node bin/mediagen-mock.js --port <free port> --clock real --speed 60
 * --quiet`: a real clock sixty times wall time, so a default video task finishes
 * in about a second and a stuck image task times out after 30 s), drives steady
 * mixed traffic at it for a while, and watches its resident memory.
 *
 *   npm run soak -- --minutes N [--rate R] [--port P] [--keys K] [--default-bounds]
 *   npm run soak -- --distinct-keys N [--max-accounts M] [--port P]
 *   (or: npx tsx scripts/soak.ts --minutes N ...)
 *   npm run soak -- --sessions [...]: the memory of many sessions instead (scripts/soak-sessions.ts)
 *   npm run soak -- --bodies [...]: the memory of large request bodies from many sessions (scripts/soak-bodies.ts)
 *   npm run soak -- --state-load [...]: how long requests wait while a state at the cap loads (scripts/soak-state.ts)
 *
 *   --minutes         how long to drive traffic (default 10; fractions allowed)
 *   --rate            requests per second (default 200)
 *   --port            port for the mock (default: a free one)
 *   --keys            API keys the traffic is spread over, mg_soak1_secret .. mg_soak<K>_secret (default 50);
 *                     six new keys (new accounts) join them every minute
 *   --default-bounds  start the mock with its own bounds instead of the scaled-down ones (below)
 *   --distinct-keys   the distinct-keys mode (below) with N keys, instead of the timed soak
 *   --max-accounts    the distinct-keys mode: the mock's --max-accounts (default 500)
 *
 * The distinct-keys mode shows that what the mock keeps per key is bounded by
 * `--max-accounts` (and the task bounds), not by how many keys it has seen:
 * the same traffic twice, each time against a fresh mock started with the
 * scaled bounds and `--max-accounts M`: first spread over 50 keys (at most
 * 20,000 rounds: past every bound), then N rounds with a new key each. A round is a video create (an id
 * counter, a rate window, a task in a per-owner index), a subscription read
 * and, every tenth round, the key's deletion (the deleted-keys set). It
 * prints each run's RSS before and after (and its peak, sampled every
 * second), the accounts the mock reports, and the difference between the two
 * runs' final RSS, judged against 100 MB.
 *
 * Bounds: the soak exists to show that a mock at hour 8 behaves like at minute
 * 1, that is that its memory is flat once everything that grows with traffic
 * has reached its bound. The mock's default bounds take hours to reach: 10
 * minutes at 200 req/s store some 6,000 video and 10,000 image tasks, short of
 * `--max-tasks` 20,000 per area, a few hundred ledger entries per account,
 * short of `--max-ledger-entries` 1,000, and a media cache short of
 * `--media-cache-mb` 256. So, to compress hours into minutes, the soak starts
 * the mock by default with those three bounds scaled down: `--max-tasks 2000
 * --max-ledger-entries 200 --media-cache-mb 64`. The media cache fills within
 * the first minute, the image store reaches its bound after about two minutes
 * and the video store after about three and a half (from then on they evict
 * their oldest finished tasks), and the ledgers of the first keys (two entries
 * a task) fold from about the fourth minute: by the second half of a
 * 10-minute run, the steady state the defaults reach after hours. (New keys
 * keep joining, six a minute, each with a ledger of its own: the accounts stay
 * far below `--max-accounts`.) The other bounds keep their defaults
 * (`--max-tasks-per-key` 1,000, `--max-accounts` 10,000, `--journal-size`
 * 500, `--activity-size` 1,000: the journal and the activity feed fill within
 * seconds anyway). `--default-bounds` starts the mock with its own defaults
 * (no bound flag), to measure the way up to them.
 *
 * Traffic: an open-loop scheduler issues requests on time (a slot every 1/rate
 * s; at most 256 in flight, a slot that finds them all busy is counted as
 * missed, never sent late) over `node:http` with a keep-alive agent, from a
 * seeded generator, so two runs send the same mix. The mix: video creates (one
 * in twenty forced to fail with `Prefer: outcome=failed`), image creates (one in
 * twenty forced stuck with `Prefer: outcome=stuck`, so the 30-minute timeout
 * fires), polls of the tasks it created (mostly unfinished ones, as a client
 * polls; else any of the last 2,500 of the area), list pages of both areas,
 * subscription reads, media loads of the last 2,500 succeeded tasks
 * (`videoUrl`, `coverUrl`, `images[0].url`; one in four with a `Range`
 * header), occasional journal reads (`GET /__mock/requests`), a new key
 * every ten seconds, and a top-up (`PUT /__mock/accounts/{key}`) of a key whose
 * create found its credits spent, so creates keep succeeding however long the
 * run. 2,500 is more than the scaled `--max-tasks`, so at the steady state
 * some polls and loads reach a task the mock has evicted (beyond `--max-tasks`,
 * the oldest finished ones go), as a client coming back to an old task does;
 * it answers not-found: a poll with 400 code 31006 (video; the shared video
 * codes answer 400) or 404 code 26006 (image), a load of its media with 404
 * code 10004; the soak then drops the task, and every medium of it, from what
 * it polls and loads, as a client would. Answers are counted by kind and status
 * class, and every 4xx by status and code; the expected ones are listed apart
 * with their reason (a 429 of a rate limit, spent credits, an evicted task's
 * not-found), so an unexpected 4xx stands out. A 5xx, a connection error
 * (refused, reset, 30 s without an answer) or an answer the soak cannot read
 * is an error.
 *
 * Prints (stdout), every 30 s: elapsed time, requests sent, answers per second,
 * errors, p50/p99 latency of the last 30 s and the mock's resident memory
 * (VmRSS of /proc/<pid>/status; the child is Node itself; its heap cannot be
 * read from outside, so RSS it is). At the end: the bounds the mock ran with,
 * totals by kind of request and status class, the 4xx (expected and not) and
 * errors by status and code, overall p50/p99, the tasks it saw finish and the
 * evicted ones it dropped, the distinct media it loaded, what the mock stores
 * (tasks, accounts, ledger entries; counted through the API at the end of the
 * warm-up, at half-time and at the end of the run), RSS after the warm-up (the
 * first minute, or the first third of a shorter run) and at the end, and the
 * slope of RSS (least squares over a sample every 5 s) over the run after the
 * warm-up and over its second half, each called "flat" under 1 MB/min and
 * "growing" otherwise. The second half is the verdict that matters with the
 * scaled bounds: by then the task stores, the media cache and the ledgers of
 * the first keys are at their bounds (the summary says whether the task store
 * is); only the new keys' accounts and ledgers still grow, by design. Why 1 MB/min: a server whose memory
 * is bounded still moves with garbage collection, a sawtooth of a few MB that
 * a fit over minutes of samples averages to a small fraction of 1 MB/min;
 * 1 MB/min is 60 MB an hour, a leak that a mock left running all day would
 * feel. The media cache is bounded yet grows until it is full: the summary
 * also gives the slope of RSS less the cache's fill, estimated from the
 * distinct renders loaded (by ETag, their full sizes, at most the cache's
 * size), the slope since the cache filled, and the growth per task stored
 * with and without the cache.
 *
 * It asserts nothing: exit code 0 unless the soak itself broke (1: the mock did
 * not start or exited; 2: bad flags; 130: interrupted). Ctrl-C stops the traffic,
 * prints the summary of what ran and stops the mock (SIGTERM, then SIGKILL
 * after 5 s); a second Ctrl-C kills it at once.
 *
 * The parts: soak/config.ts (settings and flags), soak/mock-process.ts (the
 * child process, requests, the census), soak/traffic.ts (the mix and the
 * scheduler), soak/stats.ts (statistics and tables), soak/distinct-keys.ts
 * (the distinct-keys mode); this file runs the timed soak and picks the mode.
 */
import { Agent } from 'node:http';
import { performance } from 'node:perf_hooks';
import { freePort, median } from './bench-util.ts';
import {
  DEFAULT_BOUNDS,
  KINDS,
  flags,
  FLAT_MB_PER_MIN,
  IDLE_SOCKET_MS,
  log,
  MAX_IN_FLIGHT,
  NEW_KEYS_PER_MINUTE,
  out,
  REPORT_EVERY_MS,
  RSS_EVERY_MS,
  SCALED_BOUNDS,
} from './soak/config.ts';
import { boundFlags, type Census, census, mockArgs, rssMB, send, startMock, stopMock, waitHealthy } from './soak/mock-process.ts';
import { clock, fmt, lpad, mb, ms, quantile, slope, table } from './soak/stats.ts';
import { CLASSES, type Planned, Soak } from './soak/traffic.ts';
import { distinctKeysMain } from './soak/distinct-keys.ts';

async function main(): Promise<number> {
  const opt = flags();
  if (opt.distinctKeys !== undefined) return distinctKeysMain(opt);
  const durationMs = opt.minutes * 60_000;
  const warmupMs = Math.min(60_000, durationMs / 3);
  const port = opt.port ?? (await freePort());
  const bounds = opt.defaultBounds ? DEFAULT_BOUNDS : SCALED_BOUNDS;
  const mediaCacheBytes = bounds.mediaCacheMb * 1024 * 1024;
  const args = mockArgs(port, boundFlags(bounds));
  const boundsSaid = `--max-tasks ${fmt(bounds.maxTasks)} per area, --max-ledger-entries ${fmt(bounds.maxLedgerEntries)} per account, --media-cache-mb ${bounds.mediaCacheMb}`;

  log(`soak: starting the mock: node ${args.join(' ')}`);
  log(
    opt.defaultBounds
      ? `soak: the mock runs with its default bounds (${boundsSaid}; --default-bounds): a run of minutes measures the way up to them, not the steady state beyond`
      : `soak: the mock runs with bounds scaled down (${boundsSaid}; its defaults: ${fmt(DEFAULT_BOUNDS.maxTasks)}, ${fmt(DEFAULT_BOUNDS.maxLedgerEntries)}, ${DEFAULT_BOUNDS.mediaCacheMb} MB), ` +
          'compressing hours into minutes: the run reaches the steady state the defaults reach after hours (--default-bounds for the defaults)',
  );
  const mock = startMock(args);
  const { child } = mock;
  let interrupted = 0;
  let broken: string | undefined;
  let stopping = false;
  const onSignal = () => {
    interrupted++;
    if (interrupted === 1) log('\nsoak: interrupted; stopping the traffic (Ctrl-C again to kill the mock at once)');
    else {
      child.kill('SIGKILL');
      process.exit(130);
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // A detached child would outlive a crash of this process.
  process.on('exit', () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  child.on('exit', (code, signal) => {
    if (!stopping) broken = `the mock exited (${code ?? signal}) during the run\n${mock.stderrTail()}`;
  });

  try {
    const startMs = await waitHealthy(child, port);
    log(`soak: mock pid ${child.pid} answered in ${fmt(startMs)} ms, RSS ${mb(rssMB(child.pid!))} before traffic`);
  } catch (e) {
    log(`soak: ${(e as Error).message}\n${mock.stderrTail()}`);
    stopping = true;
    await stopMock(child);
    return 1;
  }
  if (interrupted) {
    stopping = true;
    await stopMock(child);
    return 130;
  }
  log(
    `soak: ${fmt(opt.minutes, opt.minutes % 1 ? 1 : 0)} min at ${fmt(opt.rate)} req/s over ${opt.keys} keys (+${NEW_KEYS_PER_MINUTE} new a minute), warm-up ${fmt(warmupMs / 1000)} s; a line every 30 s`,
  );

  const agent = new Agent({ keepAlive: true, maxSockets: MAX_IN_FLIGHT + 8, timeout: IDLE_SOCKET_MS });
  const soak = new Soak(opt.keys);
  /** RSS samples: time since the traffic started, RSS, and the media cache's estimated fill then (both MB). */
  const rss: { t: number; mb: number; cache: number }[] = [];
  let inFlight = 0;
  let slots = 0;
  let nextNewKeyAt = 60_000 / NEW_KEYS_PER_MINUTE;
  let censusAtWarmup: Promise<Census | undefined> | undefined;
  let censusAtHalf: Promise<Census | undefined> | undefined;
  const t0 = performance.now();

  /** Issues one planned request and counts its answer. */
  const issue = (p: Planned) => {
    inFlight++;
    soak.sent++;
    const started = performance.now();
    send(agent, port, p.method, p.path, p.headers, p.body, p.json)
      .then((a) => {
        soak.record(p.kind, performance.now() - started, a.status, p.json || a.status >= 400 ? a : undefined);
        if (!p.json) soak.mediaBytes += a.bytes;
        try {
          p.onAnswer?.(a);
        } catch (e) {
          soak.unreadable(p.kind, (e as Error).message);
        }
      })
      .catch((e: NodeJS.ErrnoException) => soak.record(p.kind, performance.now() - started, undefined, undefined, e.code ?? e.message))
      .finally(() => inFlight--);
  };

  /** Prints the line of the last 30 s. */
  let lastReport = 0;
  const report = (now: number) => {
    const w = soak.window.sort((a, b) => a - b);
    const secs = (now - lastReport) / 1000;
    out(
      `${lpad(clock(now), 6)}  sent ${lpad(fmt(soak.sent), 9)}  answers/s ${lpad(fmt(soak.windowAnswers / secs, 1), 7)}  errors ${lpad(fmt(soak.windowErrors), 4)}  ` +
        `p50 ${lpad(ms(median(w)), 5)} ms  p99 ${lpad(ms(quantile(w, 0.99)), 6)} ms  rss ${lpad(mb(rssMB(child.pid!) ?? rss.at(-1)?.mb), 9)}${soak.missed ? `  missed slots ${fmt(soak.missed)}` : ''}`,
    );
    soak.window = [];
    soak.windowAnswers = 0;
    soak.windowErrors = 0;
    lastReport = now;
  };

  const sampleRss = () => {
    const v = rssMB(child.pid!);
    if (v !== undefined) rss.push({ t: performance.now() - t0, mb: v, cache: Math.min(soak.mediaRendered, mediaCacheBytes) / 1024 / 1024 });
  };
  sampleRss();
  const rssTimer = setInterval(sampleRss, RSS_EVERY_MS);

  // The scheduler: every 5 ms, issue every slot due by now (slot n is due at n / rate s).
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const now = performance.now() - t0;
      if (now >= durationMs || interrupted || broken) {
        clearInterval(timer);
        resolve();
        return;
      }
      const due = Math.floor((now * opt.rate) / 1000);
      while (slots < due) {
        slots++;
        if (inFlight >= MAX_IN_FLIGHT) {
          soak.missed++;
          continue;
        }
        const newAccountDue = now >= nextNewKeyAt;
        if (newAccountDue) nextNewKeyAt += 60_000 / NEW_KEYS_PER_MINUTE;
        issue(soak.plan(newAccountDue));
      }
      if (!censusAtWarmup && now >= warmupMs)
        censusAtWarmup = census(port, agent, [...soak.keys]).catch((e: Error) => {
          log(`soak: could not count the stored state after the warm-up: ${e.message}`);
          return undefined;
        });
      if (!censusAtHalf && now >= durationMs / 2)
        censusAtHalf = census(port, agent, [...soak.keys]).catch((e: Error) => {
          log(`soak: could not count the stored state at half-time: ${e.message}`);
          return undefined;
        });
      if (now - lastReport >= REPORT_EVERY_MS) report(lastReport + REPORT_EVERY_MS);
    }, 5);
  });
  const ranMs = performance.now() - t0;

  // Let what is in flight finish (at most 10 s), then count what the mock stores.
  const drainUntil = performance.now() + 10_000;
  while (inFlight > 0 && performance.now() < drainUntil) await new Promise((r) => setTimeout(r, 20));
  if (ranMs - lastReport >= 1000) report(ranMs);
  sampleRss();
  clearInterval(rssTimer);
  let atWarmup: Census | undefined;
  let atHalf: Census | undefined;
  let atEnd: Census | undefined;
  if (!broken) {
    try {
      atWarmup = await censusAtWarmup;
      atHalf = await censusAtHalf;
      atEnd = await census(port, agent, soak.keys);
    } catch (e) {
      log(`soak: could not count the stored state: ${(e as Error).message}`);
    }
  }

  // ------------------------------------------------------------ summary
  out('');
  out(`== Summary: ${clock(ranMs)} of traffic at ${fmt(opt.rate)} req/s${interrupted ? ' (interrupted)' : ''}${broken ? ' (the mock died)' : ''} ==`);
  out(
    opt.defaultBounds
      ? `mock bounds: its defaults (${boundsSaid}; --default-bounds)`
      : `mock bounds: scaled down to reach in minutes the steady state of hours (${boundsSaid}; defaults ${fmt(DEFAULT_BOUNDS.maxTasks)}, ${fmt(DEFAULT_BOUNDS.maxLedgerEntries)}, ${DEFAULT_BOUNDS.mediaCacheMb} MB)`,
  );
  const rows = KINDS.map((k) => {
    const c = soak.byKind.get(k)!;
    const lat = soak.latencyByKind.get(k)!.sort((a, b) => a - b);
    const sent = CLASSES.reduce((a, cl) => a + c[cl], 0);
    return [k, fmt(sent), ...CLASSES.map((cl) => fmt(c[cl])), ms(median(lat)), ms(quantile(lat, 0.99))];
  });
  const totals = CLASSES.map((cl) => KINDS.reduce((a, k) => a + soak.byKind.get(k)![cl], 0));
  rows.push(['total', fmt(totals.reduce((a, b) => a + b, 0)), ...totals.map((n) => fmt(n)), ms(soak.overall.quantile(0.5)), ms(soak.overall.quantile(0.99))]);
  for (const l of table(['kind', 'answered', '2xx', '3xx', '4xx', '5xx', 'conn err', 'p50 ms', 'p99 ms'], rows)) out(l);
  out(
    `sent ${fmt(soak.sent)} (${fmt(soak.sent / (ranMs / 1000), 1)}/s), missed slots ${fmt(soak.missed)} (all ${MAX_IN_FLIGHT} in flight), still unanswered at the end ${fmt(inFlight)}`,
  );
  out(
    `errors (5xx, connection errors and unreadable answers): ${fmt(soak.errors)}; unexpected 4xx: ${fmt(soak.unexpected4xx)}${mock.mockBugs() ? `; the mock logged ${mock.mockBugs()} MOCK BUG line(s)` : ''}`,
  );
  out(`overall latency p50 ${ms(soak.overall.quantile(0.5))} ms, p99 ${ms(soak.overall.quantile(0.99))} ms (1% buckets)`);
  const byCount = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  out(`expected 4xx by kind, status and code: ${soak.expected.size ? '' : 'none'}`);
  for (const [what, n] of byCount(soak.expected)) out(`  ${lpad(fmt(n), 7)}  ${what}`);
  out(`unexpected 4xx, 5xx, connection errors and unreadable answers by kind, status and code: ${soak.details.size ? '' : 'none'}`);
  for (const [what, n] of byCount(soak.details)) out(`  ${lpad(fmt(n), 7)}  ${what}`);
  const fin = [...soak.finished].sort().map(([k, n]) => `${k} ${fmt(n)}`);
  out(`tasks seen finishing: ${fin.length ? fin.join(', ') : 'none (no task reached a final status: is the clock moving?)'}`);
  const f = soak.forgotten;
  out(
    `evicted tasks dropped after a not-found: ${fmt(f.video)} video, ${fmt(f.image)} image (found by a poll ${fmt(f.byPoll)}, by a media load ${fmt(f.byMedia)}); ${fmt(f.mediaDropped)} media paths dropped with them`,
  );
  out(
    `media: ${fmt(soak.mediaBytes / 1024 / 1024, 1)} MB served; ${fmt(soak.mediaSizes.size)} distinct renders (ETags) loaded, ${fmt(soak.mediaRendered / 1024 / 1024, 1)} MB, ` +
      `of which the mock's media cache keeps up to ${mediaCacheBytes / 1024 / 1024} MB`,
  );
  const state = (c: Census) =>
    `${fmt(c.keys)} accounts, ${fmt(c.videoTasks)} video tasks, ${fmt(c.imageTasks)} image tasks, ${fmt(c.ledgerEntries)} ledger entries`;
  if (atWarmup) out(`stored after the warm-up: ${state(atWarmup)}`);
  if (atHalf) out(`stored at half-time:      ${state(atHalf)}`);
  if (atEnd) out(`stored at the end:        ${state(atEnd)}`);
  if (atEnd) {
    const at = (n: number) => (n >= bounds.maxTasks ? 'at its bound' : `${fmt((100 * n) / bounds.maxTasks)}% of its bound`);
    out(`task store at the end (--max-tasks ${fmt(bounds.maxTasks)} per area): video ${at(atEnd.videoTasks)}, image ${at(atEnd.imageTasks)}`);
  }

  const afterWarmup = rss.filter((s) => s.t >= warmupMs);
  const first = afterWarmup[0];
  const last = rss.at(-1);
  out(
    `RSS: before traffic ${mb(rss[0]?.mb)}, after the warm-up (${fmt(warmupMs / 1000)} s) ${mb(first?.mb)}, at the end ${mb(last?.mb)}, peak ${mb(rss.length ? Math.max(...rss.map((s) => s.mb)) : undefined)}`,
  );
  if (atWarmup && atEnd && first && last) {
    const tasks = atEnd.videoTasks + atEnd.imageTasks - atWarmup.videoTasks - atWarmup.imageTasks;
    const perTask = (grew: number) => fmt((grew * 1024 * 1024) / tasks);
    if (tasks > 0)
      out(
        `RSS growth per task stored after the warm-up: ${perTask(last.mb - first.mb)} bytes (${fmt(tasks)} tasks); less the media cache's fill: ${perTask(last.mb - last.cache - first.mb + first.cache)} bytes` +
          (atEnd.videoTasks >= bounds.maxTasks || atEnd.imageTasks >= bounds.maxTasks ? ' (a store at its bound evicts as it adds: not a cost per task)' : ''),
      );
    else out(`RSS growth after the warm-up with no more tasks stored (${fmt(tasks)}; the store is at its bound): ${(last.mb - first.mb).toFixed(1)} MB`);
  }
  /** The slope through `points` (minutes, MB) and its verdict. */
  const verdict = (points: { x: number; y: number }[]) => {
    const perMin = slope(points);
    return Number.isFinite(perMin)
      ? `${perMin >= 0 ? '+' : ''}${perMin.toFixed(2)} MB/min: ${perMin < FLAT_MB_PER_MIN ? 'flat' : 'growing'}`
      : `n/a (${points.length} samples; a longer run is needed)`;
  };
  out(
    `RSS slope after the warm-up (least squares, ${afterWarmup.length} samples, flat under ${FLAT_MB_PER_MIN} MB/min): ${verdict(afterWarmup.map((s) => ({ x: s.t / 60_000, y: s.mb })))}`,
  );
  out(
    `  less the media cache's estimated fill (${fmt(first?.cache ?? NaN)} -> ${fmt(last?.cache ?? NaN)} MB, bounded): ${verdict(afterWarmup.map((s) => ({ x: s.t / 60_000, y: s.mb - s.cache })))}`,
  );
  const full = afterWarmup.filter((s) => s.cache >= mediaCacheBytes / 1024 / 1024);
  if (full.length > 0)
    out(
      `  since the media cache filled (${clock(full[0].t)}, ${full.length} samples, nothing estimated): ${verdict(full.map((s) => ({ x: s.t / 60_000, y: s.mb })))}`,
    );
  const halfMs = ranMs / 2;
  const secondHalf = rss.filter((s) => s.t >= halfMs);
  const half0 = secondHalf[0];
  out(
    `RSS slope over the second half (from ${clock(halfMs)}, least squares, ${secondHalf.length} samples; RSS ${mb(half0?.mb)} -> ${mb(last?.mb)}): ${verdict(secondHalf.map((s) => ({ x: s.t / 60_000, y: s.mb })))}`,
  );
  out(
    `  less the media cache's estimated fill (${fmt(half0?.cache ?? NaN)} -> ${fmt(last?.cache ?? NaN)} MB): ${verdict(secondHalf.map((s) => ({ x: s.t / 60_000, y: s.mb - s.cache })))}`,
  );
  /** "flat" / "growing" with the slope, for the closing verdict. */
  const word = (points: { x: number; y: number }[]) => {
    const perMin = slope(points);
    return Number.isFinite(perMin)
      ? `${perMin < FLAT_MB_PER_MIN ? 'flat' : 'growing'} (${perMin >= 0 ? '+' : ''}${perMin.toFixed(2)} MB/min)`
      : 'n/a (too few samples)';
  };
  out(
    `memory against ${FLAT_MB_PER_MIN} MB/min: after the warm-up ${word(afterWarmup.map((s) => ({ x: s.t / 60_000, y: s.mb })))}; ` +
      `second half ${word(secondHalf.map((s) => ({ x: s.t / 60_000, y: s.mb })))}` +
      (opt.defaultBounds ? ' (default bounds: a short run does not reach them)' : ' (scaled bounds: the second half is the steady state)'),
  );

  stopping = true;
  agent.destroy();
  await stopMock(child);
  if (broken) {
    log(`soak: ${broken}`);
    return 1;
  }
  return interrupted ? 130 : 0;
}

// --sessions: the sessions mode (scripts/soak-sessions.ts), memory of many sessions rather than traffic over time
// --bodies: large request bodies from many sessions (scripts/soak-bodies.ts), the journal's byte budget
process.exitCode = process.argv.includes('--sessions')
  ? await (await import('./soak-sessions.ts')).soakSessions(process.argv.slice(2))
  : process.argv.includes('--bodies')
    ? await (await import('./soak-bodies.ts')).soakBodies(process.argv.slice(2))
    : process.argv.includes('--state-load')
      ? await (await import('./soak-state.ts')).soakState(process.argv.slice(2))
      : await main();
