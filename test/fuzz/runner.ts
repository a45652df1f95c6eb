/**
 * The fuzz driver shared by the bounded pass of `npm test` (test/fuzz.test.ts)
 * and long runs (`npm run fuzz`, scripts/fuzz.ts): one fast-check property over
 * requests of every target (spread by `weightOf`), sent one at a time to a
 * running mock, each answer checked by the oracle. Every `maintenanceEvery`
 * requests the virtual clock moves a minute (tasks progress, rate windows
 * pass), scenario rules are cleared and deleted keys of the run come back.
 * Seeded and reproducible: the same seed, targets and run count send the same
 * requests to a fresh mock.
 *
 * A violation a known defect explains is counted, not failed. Any other stops
 * fast-check, which shrinks the request and reports the seed, the path and the
 * shrunk request; with `failFast` the run ends there, otherwise the failure is
 * recorded (one example per kind) and the run goes on with a derived seed.
 *
 * After the run, every account the run touched is read from the control API:
 * its ledger must sum to its balance, no balance may be negative, and no task
 * may be refunded more than it was charged.
 */
import type http from 'node:http';
import fc from 'fast-check';
import { describeAjvError, makeRouter, validateAt, type FuzzTarget } from './documents.ts';
import { avoided, explain, type RunContext } from './known-defects.ts';
import { makeAgent, send, type NoAnswer, type WireResponse } from './http.ts';
import { checkAnswer, jsonOf, mediaType, violationKey, type Violation } from './oracle.ts';
import { Pools, harvest, type CostCaps, type RequestSpec, type WireRequest } from './model.ts';
import { RequestArbitraries } from './requests.ts';
import { describeWire, writeRequest } from './wire.ts';

/** How to run. */
export interface FuzzConfig {
  /** The mock's base URL, e.g. http://127.0.0.1:4010. */
  base: string;
  seed: number;
  /** Requests to generate (shrinking sends more). */
  runs: number;
  targets: FuzzTarget[];
  /** Targets whose examples create state before the run (default: `targets`; all of them when fuzzing a few, so reads find tasks). */
  warmUpTargets?: FuzzTarget[];
  /** API keys of the run (each its own account). */
  keys: string[];
  caps: CostCaps;
  /** Stop at the first failure that no known defect explains. */
  failFast: boolean;
  /** Mock bugs reported so far (strict mode), when the mock runs in-process. */
  mockBugs?: () => readonly string[];
  /** Every this many requests (default 100): advance the virtual clock by a minute, clear scenario rules, set the run's keys again. */
  maintenanceEvery?: number;
  /** Real ms an event stream is read. */
  streamMs?: number;
  /** Progress lines (long runs). */
  log?: (line: string) => void;
}

/** A kind of failure: how often, one example, and fast-check's report of its shrunk case. */
export interface FailureRecord {
  key: string;
  count: number;
  violation: Violation;
  example: string;
  /** fast-check's report (seed, path, shrunk counterexample), when this kind stopped a check. */
  report?: string;
}

/** An answer's status, or why there is none. */
export type Status = number | 'none' | 'not-sent';

/** What a run saw. */
export interface FuzzReport {
  /** Requests generated and sent (not counting shrinking). */
  requests: number;
  /** Requests sent while shrinking. */
  shrinkRequests: number;
  /** Requests by target and status ('none': no answer; 'not-sent': a request a known defect says would take the mock down). */
  counts: Map<string, Map<Status, number>>;
  /** Answers by target and `status/code` (code `-` when the body had none). */
  codes: Map<string, Map<string, number>>;
  /** Requests by mutation label ('valid' for none). */
  labels: Map<string, number>;
  /** Real ms spent per target (sending and reading). */
  timeByTarget: Map<string, number>;
  /** Failures no known defect explains, by kind. */
  failures: Map<string, FailureRecord>;
  /** Violations explained by known defects, by defect id. */
  known: Map<string, FailureRecord>;
  /** Requests sent a second time after a reset of a reused keep-alive connection before any answer (see `send`). */
  retriedAfterReset: number;
  /** Accounts checked after the run. */
  accountsChecked: number;
  /** Total real ms. */
  ms: number;
  /** fast-check seeds used (the first is the configured one). */
  seeds: number[];
}

/** Thrown by the property so fast-check shrinks the request. */
class FuzzFailure extends Error {
  constructor(
    readonly keys: string[],
    message: string,
  ) {
    super(message);
  }
}

const KEY_PATTERN = /^mg_[A-Za-z0-9]+_[A-Za-z0-9]+$/;

/** Runs the fuzzer; resolves with what it saw (with `failFast`, rejects with fast-check's report at the first unexplained failure). */
export async function runFuzz(cfg: FuzzConfig): Promise<FuzzReport> {
  const t0 = performance.now();
  const base = new URL(cfg.base);
  const agent = makeAgent();
  // every route the mock serves answers, not only the targets drawn (a run limited to some operations still meets the others)
  const route = makeRouter(cfg.warmUpTargets ?? cfg.targets);
  const byId = new Map(cfg.targets.map((t) => [t.id, t]));
  const pools = new Pools(cfg.keys);
  const arbs = new RequestArbitraries({ keyCount: cfg.keys.length, caps: cfg.caps });
  const sendOpts = { timeoutMs: 20_000, maxBinaryBytes: 64 * 1024, streamMs: cfg.streamMs ?? 8 };
  const report: FuzzReport = {
    requests: 0,
    shrinkRequests: 0,
    counts: new Map(),
    codes: new Map(),
    labels: new Map(),
    timeByTarget: new Map(),
    failures: new Map(),
    known: new Map(),
    retriedAfterReset: 0,
    accountsChecked: 0,
    ms: 0,
    seeds: [],
  };
  const touchedKeys = new Set<string>(cfg.keys);
  let bugsSeen = cfg.mockBugs?.().length ?? 0;
  const context: RunContext = { stateLoaded: false };

  const control = async (method: string, path: string, body?: unknown): Promise<WireResponse | NoAnswer> =>
    send(
      base,
      {
        target: 'maintenance',
        method,
        path,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: Buffer.from(JSON.stringify(body)) }),
        labels: [],
      },
      agent,
      sendOpts,
    );

  await warmUp(cfg, base, agent, pools, sendOpts);

  /** Sends one request and checks it; returns the violations no known defect explains. */
  const exercise = async (t: FuzzTarget, spec: RequestSpec, counting: boolean): Promise<{ w: WireRequest; unexplained: Violation[] }> => {
    const w = writeRequest(t, spec, { keys: cfg.keys, pools, caps: cfg.caps });
    const skip = avoided(w);
    if (skip) {
      if (counting) {
        record(report.known, skip.id, { kind: 'not-sent', target: t.id, status: null, code: null, detail: skip.summary }, w);
        report.requests++;
        const byStatus = report.counts.get(t.id) ?? new Map<Status, number>();
        byStatus.set('not-sent', (byStatus.get('not-sent') ?? 0) + 1);
        report.counts.set(t.id, byStatus);
      }
      return { w, unexplained: [] };
    }
    const r = await send(base, w, agent, sendOpts);
    if (!('error' in r) && r.retried) report.retriedAfterReset++;
    const hit = route(w.method, w.path);
    const violations = checkAnswer(hit, w, r);
    const bugs = cfg.mockBugs?.() ?? [];
    if (bugs.length > bugsSeen) {
      for (const b of bugs.slice(bugsSeen)) violations.push({ kind: 'mock-bug', target: t.id, status: 'error' in r ? null : r.status, code: null, detail: b });
      bugsSeen = bugs.length;
    }
    if (!('error' in r) && r.status >= 200 && r.status < 300 && mediaType(r.headers['content-type']) === 'application/json' && hit.kind === 'target')
      harvest(pools, hit.target, jsonOf(r), w.owner);
    if (t.doc === 'control') {
      const m = /^\/__mock\/accounts\/([^/?]+)/i.exec(w.path);
      if (m) {
        try {
          const key = decodeURIComponent(m[1]);
          if (KEY_PATTERN.test(key)) touchedKeys.add(key);
        } catch {
          // not a key
        }
      }
    }
    if (counting) {
      report.requests++;
      const status = 'error' in r ? ('none' as const) : r.status;
      const byStatus = report.counts.get(t.id) ?? new Map<Status, number>();
      byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
      report.counts.set(t.id, byStatus);
      const body = 'error' in r ? undefined : jsonOf(r);
      const code = body !== null && typeof body === 'object' && typeof (body as { code?: unknown }).code === 'number' ? (body as { code: number }).code : '-';
      const byCode = report.codes.get(t.id) ?? new Map<string, number>();
      const k = `${status}/${code}`;
      byCode.set(k, (byCode.get(k) ?? 0) + 1);
      report.codes.set(t.id, byCode);
      for (const l of w.labels.length ? w.labels : ['valid']) report.labels.set(l, (report.labels.get(l) ?? 0) + 1);
      report.timeByTarget.set(t.id, (report.timeByTarget.get(t.id) ?? 0) + r.ms);
    } else report.shrinkRequests++;
    if (hit.kind === 'target' && hit.target.id === 'control:putState' && !('error' in r) && r.status === 200) context.stateLoaded = true;
    const unexplained: Violation[] = [];
    for (const v of violations) {
      const d = explain(v, w, 'error' in r ? undefined : r, context);
      if (d) {
        if (counting) record(report.known, d.id, v, w);
        continue;
      }
      unexplained.push(v);
    }
    return { w, unexplained };
  };

  const reported = new Set<string>();
  let remaining = cfg.runs;
  let seed = cfg.seed;
  let sinceMaintenance = 0;
  const every = cfg.maintenanceEvery ?? 100;
  const requestArb = fc.oneof(...cfg.targets.map((t) => ({ weight: weightOf(t), arbitrary: arbs.of(t) })));

  for (let attempt = 0; remaining > 0; attempt++) {
    report.seeds.push(seed);
    let shrinking = false;
    let executed = 0;
    const property = fc.asyncProperty(requestArb, async (spec) => {
      const t = byId.get(spec.target)!;
      if (!shrinking) {
        executed++;
        if (++sinceMaintenance >= every) {
          sinceMaintenance = 0;
          await control('POST', '/__mock/clock/advance', { ms: 61_000 });
          await control('DELETE', '/__mock/scenarios');
          // keys the run deleted come back (an empty update re-creates a deleted key and changes nothing else)
          for (const key of cfg.keys) await control('PUT', `/__mock/accounts/${key}`, {});
        }
        if (cfg.log && report.requests > 0 && report.requests % 1000 === 0) cfg.log(`  ${report.requests} requests, ${Math.round(performance.now() - t0)} ms`);
      }
      const { w, unexplained } = await exercise(t, spec, !shrinking);
      if (!unexplained.length) return;
      const keys = unexplained.map(violationKey);
      if (!shrinking) for (const v of unexplained) record(report.failures, violationKey(v), v, w);
      const fresh = keys.filter((k) => !reported.has(k));
      if (!cfg.failFast && fresh.length === 0) return;
      shrinking = true;
      throw new FuzzFailure(
        keys,
        `${unexplained.map((v) => `[${violationKey(v)}] ${v.detail}`).join('\n')}\nrequest:\n  ${describeWire(w)}\nanswer: ${describeAnswer(unexplained)}`,
      );
    });
    const details = await fc.check(property, { seed, numRuns: remaining, endOnFailure: false });
    remaining -= executed;
    if (!details.failed) break;
    const err = details.errorInstance;
    const message = shorten(
      `${fc.defaultReportMessage(details) ?? 'fast-check reported a failure'}\nThe shrunk request broke:\n${err instanceof Error ? err.message : String(err)}`,
    );
    const keys = err instanceof FuzzFailure ? err.keys : [`exception ${String(err)}`];
    for (const k of keys) {
      reported.add(k);
      const rec = report.failures.get(k);
      if (rec && !rec.report) rec.report = message;
      if (!rec)
        report.failures.set(k, {
          key: k,
          count: 1,
          violation: { kind: 'exception', target: '-', status: null, code: null, detail: String(err) },
          example: String(err),
          report: message,
        });
    }
    if (cfg.failFast) {
      report.ms = performance.now() - t0;
      agent.destroy();
      throw new Error(`fuzz: a request broke a property (rerun with FUZZ_SEED=${cfg.seed}).\n${message}`);
    }
    cfg.log?.(`  failure: ${keys.join('; ')} (continuing with a derived seed)`);
    seed = (seed * 1_103_515_245 + 12_345 + attempt) % 2 ** 31;
  }

  // the ledgers of every account the run touched
  for (const key of touchedKeys) {
    const pages = await readAccount(control, key);
    if (pages === 'deleted') continue;
    report.accountsChecked++;
    for (const v of checkLedger(key, pages, cfg.targets)) record(report.failures, violationKey(v), v, undefined);
  }
  agent.destroy();
  report.ms = performance.now() - t0;
  return report;
}

/**
 * How often a target is drawn, out of 50: operations that wipe state (a reset
 * drops every task, a deleted key refuses every later request) less often, so
 * the run builds up tasks that reads and lists can find.
 */
export function weightOf(t: FuzzTarget): number {
  if (t.id === 'control:reset') return 5;
  if (t.id === 'control:deleteAccount') return 10;
  return 50;
}

/** `text` with runs of one character longer than 100 written as `x…(n times)`, so a long generated string does not flood the report. */
function shorten(text: string): string {
  return text.replace(/(.)\1{100,}/gsu, (run, c: string) => `${c}…(${[...run].length} times)`);
}

function describeAnswer(vs: Violation[]): string {
  return vs.map((v) => `${v.status ?? '-'} code ${v.code ?? '-'}`).join(', ');
}

function record(map: Map<string, FailureRecord>, key: string, v: Violation, w: WireRequest | undefined): void {
  const rec = map.get(key);
  if (rec) rec.count++;
  else map.set(key, { key, count: 1, violation: v, example: `[${violationKey(v)}] ${v.detail}${w ? `\n  request: ${describeWire(w, 300)}` : ''}` });
}

/** Sends each API operation's example body a few times (no path parameters), so the pools hold task ids before the run. */
async function warmUp(cfg: FuzzConfig, base: URL, agent: http.Agent, pools: Pools, sendOpts: Parameters<typeof send>[3]): Promise<void> {
  for (const t of cfg.warmUpTargets ?? cfg.targets) {
    if (t.doc !== 'api' || t.body?.kind !== 'json' || t.body.example === undefined || t.params.some((p) => p.in === 'path')) continue;
    for (const key of cfg.keys) {
      const r = await send(
        base,
        {
          target: t.id,
          method: t.method.toUpperCase(),
          path: t.path,
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: Buffer.from(JSON.stringify(t.body.example)),
          labels: [],
        },
        agent,
        sendOpts,
      );
      if (!('error' in r) && r.status < 300) harvest(pools, t, jsonOf(r), key);
    }
  }
}

/** An account page as the control API answers it (a page of the ledger; older versions answer the whole ledger). */
interface AccountAnswer {
  credits: number;
  ledger: { seq: number; type: string; amount: number; balance: number; taskId: string | null }[];
  ledgerTotal?: number;
}

/** Reads every page of the account of `key` (1000 entries a page): the answers, or 'deleted' (404), or one failed answer. */
export async function readAccount(
  control: (method: string, path: string) => Promise<WireResponse | NoAnswer>,
  key: string,
): Promise<'deleted' | (WireResponse | NoAnswer)[]> {
  const out: (WireResponse | NoAnswer)[] = [];
  let entries = 0;
  for (let page = 1; page <= 1000; page++) {
    const r = await control('GET', `/__mock/accounts/${key}?ledgerPage=${page}&ledgerPageSize=1000`);
    if (!('error' in r) && r.status === 404 && page === 1) return 'deleted';
    out.push(r);
    const body = 'error' in r || r.status !== 200 ? undefined : (jsonOf(r) as AccountAnswer | undefined);
    if (!body) break;
    entries += body.ledger.length;
    if (body.ledgerTotal === undefined || entries >= body.ledgerTotal || body.ledger.length === 0) break;
  }
  return out;
}

/**
 * Checks the account of `key` from its pages: each page matches the document; the whole ledger is a chain of
 * non-negative balances summing to the balance; every task has one reserve and is settled at most once, never refunded
 * more than it was charged (tasks whose reserve was folded away are skipped).
 */
export function checkLedger(key: string, pages: (WireResponse | NoAnswer)[], targets: FuzzTarget[]): Violation[] {
  const out: Violation[] = [];
  const v = (detail: string, status: number | null = 200) =>
    out.push({ kind: 'ledger', target: 'control:getAccount', status, code: null, detail: `${key}: ${detail}` });
  const t = targets.find((x) => x.id === 'control:getAccount');
  const ledger: AccountAnswer['ledger'] = [];
  let credits = 0;
  for (const r of pages) {
    const body = 'error' in r ? undefined : (jsonOf(r) as AccountAnswer | undefined);
    if ('error' in r || r.status !== 200 || !body) {
      v(`the account could not be read (${'error' in r ? r.error : r.status})`, 'error' in r ? null : r.status);
      return out;
    }
    if (t) {
      const errors = validateAt(t.success.json!, body);
      if (errors.length) v(`the account does not match the document: ${errors.slice(0, 3).map(describeAjvError).join('; ')}`);
    }
    ledger.push(...body.ledger);
    credits = body.credits;
  }
  let running = 0;
  const folded = ledger.length > 0 && ledger[0].seq > 1;
  const perTask = new Map<string, { sum: number; reserves: number; captures: number; releases: number }>();
  for (const e of ledger) {
    running += e.amount;
    if (e.balance < 0) v(`entry ${e.seq} leaves a negative balance ${e.balance}`);
    if (e.balance !== running) v(`entry ${e.seq} says balance ${e.balance}, the entries so far sum to ${running}`);
    if (e.taskId !== null) {
      const s = perTask.get(e.taskId) ?? { sum: 0, reserves: 0, captures: 0, releases: 0 };
      s.sum += e.amount;
      if (e.type === 'reserve') s.reserves++;
      if (e.type === 'capture') s.captures++;
      if (e.type === 'release') s.releases++;
      perTask.set(e.taskId, s);
    }
  }
  if (running !== credits) v(`the ledger sums to ${running}, the balance is ${credits}`);
  for (const [task, s] of perTask) {
    if (s.reserves === 0 && folded) continue;
    if (s.reserves !== 1) v(`task ${task} has ${s.reserves} reserve entries`);
    if (s.sum > 0) v(`task ${task} got back ${s.sum} credits more than it was charged`);
    if (s.captures > 1 || s.releases > 1) v(`task ${task} was settled more than once (${s.captures} captures, ${s.releases} releases)`);
  }
  return out;
}
