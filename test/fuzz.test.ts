/**
 * Spec-driven fuzzing, the bounded pass of `npm test` (long runs: `npm run
 * fuzz`; the generator, the oracle and the driver are in test/fuzz/). Every
 * operation of the API registry and of the control API gets valid requests
 * generated from the emitted documents' schemas (bodies seeded by their
 * examples) and mutated ones, and every answer is checked: no 5xx, errors as
 * the JSON envelope with a status and code the operation declares, 2xx valid
 * against the emitted document (ajv), and, after the run, every ledger sums to
 * its balance with no negative balance.
 *
 * Reproduce a failure with the seed it prints: FUZZ_SEED=<seed> npx vitest run test/fuzz.test.ts
 * (FUZZ_RUNS changes the number of requests).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { controlOperations } from '../schemas/control.ts';
import { operationIds } from '../schemas/operations.ts';
import { allTargets, makeRouter, validateAt } from './fuzz/documents.ts';
import { knownDefects } from './fuzz/known-defects.ts';
import { boundedCaps, Pools } from './fuzz/model.ts';
import { cutPointsOfNode } from './fuzz/mutations.ts';
import { RequestArbitraries } from './fuzz/requests.ts';
import { runFuzz, weightOf, type FuzzReport } from './fuzz/runner.ts';
import { plain } from './fuzz/values.ts';
import { writeRequest } from './fuzz/wire.ts';
import { startMock } from './helpers.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20_260_101);
const RUNS = Number(process.env.FUZZ_RUNS ?? 3000);
const KEYS = Array.from({ length: 8 }, (_, i) => `mg_fuzz${i}_s${i}`);

const targets = allTargets();

describe('fuzz targets and generator', () => {
  it('every operation of the API registry and of the control API is a target', () => {
    expect(targets.map((t) => t.id).sort()).toEqual([...operationIds, ...Object.values(controlOperations).map((c) => `control:${c.operationId}`)].sort());
    for (const t of targets) expect(t.success, `${t.id} has its success response in its document`).toBeDefined();
  });

  it.each(targets.map((t) => [t.id, t] as const))('%s: valid requests validate against the emitted document', (_id, t) => {
    const arbs = new RequestArbitraries({ keyCount: KEYS.length, caps: boundedCaps });
    const samples = fc.sample(arbs.valid(t), { numRuns: 25, seed: SEED });
    for (const spec of samples) {
      expect(spec.mutations).toEqual([]);
      if (t.body?.kind === 'json' && spec.body !== undefined) expect(validateAt(t.body.schema, plain(spec.body)), JSON.stringify(spec.body)).toEqual([]);
      if (t.body?.required) expect(spec.body !== undefined || spec.multipart !== undefined, 'a required body is sent').toBe(true);
      for (const p of t.params) {
        const v = p.in === 'path' ? spec.path[p.name] : spec.query[p.name];
        if (v === undefined) expect(p.required, `${p.name} may be left out`).toBe(false);
        else expect(validateAt(p.schema, plain(v)), `${p.name}: ${JSON.stringify(plain(v))}`).toEqual([]);
      }
    }
  });
});

describe('the route model', () => {
  // `npm run fuzz -- --seed 1`: DELETE /__mock/sessions/ answered 405 (one route table for both documents), the model said 404
  it('a control or API path with another method is method-not-allowed; an unknown path is not-found', () => {
    const route = makeRouter(targets);
    expect(route('DELETE', '/__mock/sessions/').kind).toBe('method-not-allowed');
    expect(route('PUT', '/__mock/clock').kind).toBe('method-not-allowed');
    expect(route('DELETE', '/v1/user/subscription').kind).toBe('method-not-allowed');
    expect(route('DELETE', '/__mock/nothing').kind).toBe('not-found');
    expect(route('GET', '/__mock/clock')).toMatchObject({ kind: 'target', target: { id: 'control:getClock' } });
  });
});

describe('astral characters near cut points outside JSON bodies', () => {
  const keys = ['mg_a_b'];
  /** Requests of `id` whose one mutation is `kind` (query-astral, or the multipart astral-field), as written on the wire. */
  const written = (id: string, kind: 'query-astral' | 'astral-field') => {
    const t = targets.find((x) => x.id === id)!;
    const arbs = new RequestArbitraries({ keyCount: 1, caps: boundedCaps });
    return fc.sample(arbs.of(t), { numRuns: 1500, seed: SEED }).flatMap((spec) => {
      const m = spec.mutations.length === 1 ? spec.mutations[0] : undefined;
      const placement = m?.kind === 'query-astral' ? m : m?.kind === 'multipart' && m.m.kind === 'astral-field' ? m.m : undefined;
      return placement && (m!.kind === kind || placement.kind === kind)
        ? [{ placement, w: writeRequest(t, spec, { keys, pools: new Pools(keys), caps: boundedCaps }) }]
        : [];
    });
  };
  /** The UTF-16 index of the first astral character of `text` (-1: none). */
  const astralIndex = (text: string) => text.search(/[\u{10000}-\u{10FFFF}]/u);

  it('a limited query parameter (keyword, at most 64) gets an astral character at an index near its limit or a cut point', () => {
    const cases = written('listSeedAudioTasks', 'query-astral');
    expect(cases.length).toBeGreaterThan(5);
    const points = cutPointsOfNode({ maxLength: 64 });
    for (const { placement, w } of cases) {
      const value = decodeURIComponent(/[?&]keyword=([^&]*)/.exec(w.path)![1]);
      expect(astralIndex(value), value).toBe(Math.max(0, points[placement.which % points.length] + placement.offset));
    }
  });

  it('a multipart text field (the voice name, at most 50) gets an astral character at an index near its limit or a cut point', () => {
    const cases = written('createVoiceClone', 'astral-field');
    expect(cases.length).toBeGreaterThan(5);
    const points = cutPointsOfNode({ maxLength: 50, minLength: 1 });
    for (const { placement, w } of cases) {
      const text = w.body!.toString('utf8');
      const names = [...text.matchAll(/name="name"\r\n\r\n([^\r]*)\r\n/g)].map((x) => x[1]);
      expect(names).toHaveLength(1);
      expect(astralIndex(names[0]), names[0]).toBe(Math.max(0, points[placement.which % points.length] + placement.offset));
    }
  });
});

describe('spec-driven fuzzing (bounded pass)', () => {
  it(`${RUNS} requests over every operation: no 5xx, declared errors as envelopes, 2xx valid against the emitted documents, ledgers sum to their balances`, async () => {
    // started directly, not with useMocks: faults of the mock that a known defect explains are allowed here (checked below)
    const m = await startMock();
    let report: FuzzReport;
    try {
      report = await runFuzz({ base: m.base, seed: SEED, runs: RUNS, targets, keys: KEYS, caps: boundedCaps, failFast: true, mockBugs: () => m.bugs });
    } finally {
      await m.close();
    }
    // every fault the mock reported in strict mode was a violation the run saw, and a known defect explained it
    const explainedBugs = [...report.known.values()].filter((r) => r.violation.kind === 'mock-bug').reduce((n, r) => n + r.count, 0);
    expect(m.bugs.length, m.bugs.join('\n')).toBe(explainedBugs);
    expect(report.requests).toBe(RUNS);
    expect([...report.failures.keys()]).toEqual([]);
    // spread over every operation, each by its weight (operations that wipe state less often)
    const total = targets.reduce((n, t) => n + weightOf(t), 0);
    for (const t of targets) {
      const n = [...(report.counts.get(t.id)?.values() ?? [])].reduce((a, b) => a + b, 0);
      expect(n, `${t.id} got requests`).toBeGreaterThan(0);
      // at least a third of its expected share (rounded down: a rarely drawn operation may get one request)
      expect(n, `${t.id} got its share of the requests`).toBeGreaterThanOrEqual(Math.floor((RUNS * weightOf(t)) / total / 3));
    }
    // both valid and mutated requests were sent
    expect(report.labels.get('valid') ?? 0).toBeGreaterThan(RUNS / 10);
    expect(report.labels.size).toBeGreaterThan(20);
    // the ledgers of the run's keys were read (a key the run deleted answers 404 and is skipped)
    expect(report.accountsChecked).toBeGreaterThan(KEYS.length / 2);
    // only catalogued defects were excused
    for (const id of report.known.keys()) expect(knownDefects.map((d) => d.id)).toContain(id);
    // the verdict counts requests; the limit only catches a hang (9 s alone, over 60 s with both cores busy)
  }, 900_000);
});
