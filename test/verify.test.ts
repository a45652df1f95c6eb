/**
 * mediagen-verify (verify/) against the unmutated in-process mock: no false
 * failure over several seeds in safe and full mode, the same number of checks
 * on every run, unique JUnit names, every operation of the document in the
 * coverage table, the budget a hard cap on the spend the mock itself
 * records, and the command's configuration errors (docs/guides/verify.md).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock, type InProcessMock } from '../mock/index.ts';
import { loadPackageDocument, operationsOf, type SpecOperation } from '../verify/document.ts';
import { toneWav } from '../verify/lifecycles.ts';
import { closeMatches, formatTable, isLoopback, toJUnit, verify, type VerifyReport } from '../verify/index.ts';
import { runCli } from './verify-servers.ts';

const KEY = 'mg_verify1_secret1';
const OTHER = 'mg_verify2_secret2';
const FRESH = 'mg_verifyfresh_secret1';

let mock: InProcessMock;
let mockUrl: string;

beforeAll(async () => {
  mock = createMock({ seed: 1 });
  mockUrl = await mock.listen();
});
afterAll(() => mock.close());

const failures = (r: VerifyReport) =>
  r.checks.filter((c) => c.outcome === 'failed' || c.outcome === 'error').map((c) => `${c.operationId}: ${c.rule}: ${c.evidence?.detail}`);

const cli = runCli;

describe('verify against the unmutated mock', () => {
  const doc = loadPackageDocument();
  const operationIds = operationsOf(doc).map((o) => o.operationId);

  it('full mode over every area passes with several seeds, the same checks every run; the coverage table lists every operation', async () => {
    const counts: number[] = [];
    for (const seed of [1, 2]) {
      mock.reset(seed);
      const fresh = mock.account(FRESH).credits;
      const lines: string[] = [];
      const report = await verify({
        baseUrl: mockUrl,
        apiKey: KEY,
        secondApiKey: OTHER,
        mode: 'full',
        mock: true,
        allowUnpriced: true,
        seed,
        onProgress: (l) => lines.push(l),
      });
      expect(failures(report), `seed ${seed}`).toEqual([]);
      expect(report.ok).toBe(true);
      counts.push(report.checks.length);
      // the report's spend is the balance change the mock itself records
      expect(report.creditsSpent).toBe(fresh - mock.account(KEY).credits);
      expect(report.creditsSpent).toBeGreaterThan(0);
      expect(report.polls).toBeGreaterThan(0);
      // every operation of the document has a row, with checks or a reason
      expect(report.coverage.map((c) => c.operationId).sort()).toEqual([...operationIds].sort());
      for (const c of report.coverage) expect(c.checks > 0 || Boolean(c.reason), c.operationId).toBe(true);
      // JUnit: unique names, each with a time
      const names = [...toJUnit(report).matchAll(/<testcase classname="[^"]*" name="([^"]*)" time="\d+\.\d{3}"/g)].map((m) => m[1]);
      expect(names.length).toBe(report.checks.length);
      expect(new Set(names).size).toBe(names.length);
      // progress inside an area: its phases, then its total
      expect(lines.some((l) => l.startsWith('Video: lifecycle of createVideoTask'))).toBe(true);
      if (seed === 1) {
        const media = report.checks.filter((c) => c.operationId === 'createVideoTask' && c.outcome === 'passed').map((c) => c.rule);
        expect(media).toEqual(
          expect.arrayContaining([
            'lifecycle: media videoUrl: whole file',
            'lifecycle: media videoUrl: duration',
            'lifecycle: media videoUrl: pixel size',
            'lifecycle: media coverUrl: whole file',
            'lifecycle: credits as charged',
            'lifecycle: credits within the estimate',
            'forced failure: credits refunded',
          ]),
        );
        expect(report.checks.find((c) => c.operationId === 'getImageTask' && c.rule === "another key's task refused")?.outcome).toBe('passed');
        // the later stages of a task, each on a task its earlier stage brought to success
        const passed = (op: string, rule: string) => report.checks.find((c) => c.operationId === op && c.rule === rule)?.outcome;
        for (const op of ['createPodcastTextContent', 'createPodcastAudio', 'createStorybookVideo', 'createVoiceClone', 'confirmVoiceClone'])
          for (const rule of ['lifecycle: terminal status reached', 'lifecycle: transition allowed', 'lifecycle: success carries', 'lifecycle: task read back'])
            expect(passed(op, rule), `${op}: ${rule}`).toBe('passed');
        expect(passed('createPodcastAudio', 'lifecycle: media audioUrl: decodes')).toBe('passed');
        expect(passed('createStorybookVideo', 'lifecycle: media videoUrl: duration')).toBe('passed');
        expect(passed('createStorybookVideo', 'lifecycle: credits as charged')).toBe('passed');
        expect(passed('createStorybookVideo', 'forced failure: credits refunded')).toBe('passed');
        expect(passed('confirmVoiceClone', 'lifecycle: nothing charged')).toBe('passed');
        // the contains and not rules: refused with the fragment's code (hand-picked rules of documents 1 and 2)
        expect(passed('createVideoTask', 'body rule: contains video.content.last-frame-needs-first')).toBe('passed');
        expect(passed('createPlatformVoiceTask', 'body rule: not gen-audio.voices-or-image')).toBe('passed');
      }
    }
    expect(new Set(counts).size).toBe(1);
  }, 240_000);

  it('safe mode passes with several seeds, spends nothing, and runs the same checks every time', async () => {
    const counts: number[] = [];
    for (const seed of [3, 4, 5]) {
      mock.reset(seed);
      const report = await verify({ baseUrl: mockUrl, apiKey: KEY, secondApiKey: OTHER, mock: true, seed });
      expect(failures(report), `seed ${seed}`).toEqual([]);
      expect(report.creditsSpent).toBe(0);
      expect(mock.account(KEY).credits).toBe(mock.account(FRESH).credits);
      expect(report.checks.find((c) => c.operationId === 'getSubscription' && c.rule === 'credits: safe mode spends nothing')?.outcome).toBe('passed');
      expect(report.checks.find((c) => c.operationId === 'createImageTask' && c.rule === 'lifecycle')).toMatchObject({
        outcome: 'skipped',
        reason: 'safe mode creates nothing',
      });
      // a clone is free: safe mode follows it, and sends no confirmation (it takes one of the plan's)
      expect(report.checks.find((c) => c.operationId === 'createVoiceClone' && c.rule === 'lifecycle: nothing charged')?.outcome).toBe('passed');
      expect(report.checks.find((c) => c.operationId === 'confirmVoiceClone' && c.rule === 'lifecycle')?.outcome).toBe('skipped');
      counts.push(report.checks.length);
    }
    expect(new Set(counts).size).toBe(1);
  }, 120_000);

  it('six full runs in a row on one account pass: each deletes what it made (its video tasks, its confirmed voice)', async () => {
    mock.reset(1);
    const key = 'mg_verifysix_secret1';
    const voices = async () => {
      const a = await fetch(`${mockUrl}/v1/voice-clone/speakers`, { headers: { authorization: `Bearer ${key}` } });
      return ((await a.json()) as { data: { speakers: unknown[] } }).data.speakers.length;
    };
    for (let run = 1; run <= 6; run++) {
      const report = await verify({ baseUrl: mockUrl, apiKey: key, mode: 'full', mock: true, allowUnpriced: true, seed: run });
      expect(failures(report), `run ${run}`).toEqual([]);
      expect(report.ok, `run ${run}`).toBe(true);
      const deleted = report.checks.filter((c) => c.rule === 'clean-up: deleted' && c.outcome === 'passed').map((c) => c.operationId);
      expect(deleted, `run ${run}`).toContain('deleteVideoTask');
      // the plan's three free confirmations a period: the first three runs confirm (and delete) a voice, the others are told 402
      if (run <= 3) expect(deleted, `run ${run}`).toContain('deletePrivateVoice');
      else
        expect(report.checks.find((c) => c.operationId === 'confirmVoiceClone' && c.rule === 'lifecycle: valid request accepted')?.reason).toMatch(
          /cannot pay for it now: HTTP 402 NEED_CREDIT/,
        );
      expect(await voices(), `run ${run}`).toBe(0);
    }
  }, 600_000);

  it('the budget is a hard cap on the measured spend: --budget 15 (video estimated above it: not created), --budget 1 creates nothing', async () => {
    mock.reset(1);
    const fresh = mock.account(FRESH).credits;
    const r15 = await verify({ baseUrl: mockUrl, apiKey: KEY, mode: 'full', mock: true, budget: 15, tags: ['Video', 'Image'] });
    const spent = fresh - mock.account(KEY).credits;
    expect(r15.creditsSpent).toBe(spent);
    expect(spent).toBeLessThanOrEqual(15);
    expect(spent).toBeGreaterThan(0);
    expect(r15.checks.find((c) => c.operationId === 'createVideoTask' && c.rule === 'lifecycle')?.reason).toMatch(/credits would pass the budget/);
    expect(formatTable(r15)).toContain(`${spent} credits spent (balance ${fresh} -> ${fresh - spent}, budget 15)`);
    mock.reset(1);
    const r1 = await verify({ baseUrl: mockUrl, apiKey: KEY, mode: 'full', mock: true, budget: 1, tags: ['Video'] });
    expect(r1.creditsSpent).toBe(0);
    expect(mock.account(KEY).credits).toBe(fresh);
    // unpriced creates are not sent unless allowed
    mock.reset(1);
    const unpriced = await verify({ baseUrl: mockUrl, apiKey: KEY, mode: 'full', mock: true, operations: ['createPlatformVoiceTask'] });
    expect(unpriced.checks.find((c) => c.rule === 'lifecycle')?.reason).toMatch(/cost is not known beforehand/);
    expect(mock.account(KEY).credits).toBe(fresh);
  }, 120_000);
});

describe('the command', () => {
  it('writes JUnit and exits 0 on a conforming server; the key may come from MEDIAGEN_API_KEY', async () => {
    mock.reset(1);
    const file = join(mkdtempSync(join(tmpdir(), 'verify-')), 'junit.xml');
    const r = await cli(['--base-url', mockUrl, '--operations', 'estimateImageCredits', '--junit', file], { MEDIAGEN_API_KEY: KEY });
    expect(r.status).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('name="estimateImageCredits: body rule: enum model" time="');
    expect(r.out).toContain('Coverage: 2 of');
  });

  it('refuses (exit 2, nothing sent) an unknown operationId or tag naming the close matches, --mock beyond loopback, no key', async () => {
    const op = await cli(['--base-url', mockUrl, '--api-key', KEY, '--operations', 'createVideoTsk']);
    expect(op).toMatchObject({ status: 2 });
    expect(op.out).toContain('unknown operationId "createVideoTsk"; did you mean "createVideoTask"');
    const tag = await cli(['--base-url', mockUrl, '--api-key', KEY, '--tags', 'video']);
    expect(tag.status).toBe(2);
    expect(tag.out).toContain('unknown tag "video"; did you mean "Video"');
    expect((await cli(['--base-url', 'http://api.example.com', '--api-key', KEY, '--mock'])).status).toBe(2);
    expect((await cli(['--base-url', 'http://api.example.com', '--api-key', KEY, '--mode', 'full'])).out).toContain('--budget');
    expect((await cli(['--base-url', mockUrl], { MEDIAGEN_API_KEY: '' })).out).toContain('MEDIAGEN_API_KEY');
    expect(closeMatches('noSuchOperation', ['getVideoTask'])).toEqual([]);
    expect([isLoopback('http://127.0.0.1:1'), isLoopback('http://[::1]:1'), isLoopback('http://localhost'), isLoopback('https://10.0.0.1')]).toEqual([
      true,
      true,
      true,
      false,
    ]);
  });
});

describe('OpenAPI links', () => {
  it('every create with a lifecycle links to its read, and the link followed on the mock reads the task created', async () => {
    mock.reset(1);
    const doc = loadPackageDocument();
    const ops = operationsOf(doc);
    const creates = ops.filter((o) => o.lifecycle);
    // video, family5, image, platform voice, seed audio, music, lyrics, extraction, podcasts (one-shot, script, audio),
    // page decks (episode, video), flow speech (two), voice cloning (clone, confirmation)
    expect(creates.length).toBeGreaterThanOrEqual(17);
    const send = async (op: SpecOperation, path: string, body: Record<string, unknown>) => {
      const lc = op.lifecycle!;
      let payload: string | FormData = JSON.stringify(body);
      const headers: Record<string, string> = { authorization: `Bearer ${KEY}` };
      if (lc.exampleFiles) {
        payload = new FormData();
        for (const [k, v] of Object.entries(body)) payload.append(k, String(v));
        for (const [k, f] of Object.entries(lc.exampleFiles)) payload.append(k, new File([toneWav(f.seconds) as BlobPart], f.filename, { type: 'audio/wav' }));
      } else headers['content-type'] = 'application/json';
      const a = await fetch(mockUrl + path, { method: 'POST', headers, body: payload });
      return { status: a.status, json: (await a.json()) as Record<string, unknown> };
    };
    /** A task of `op` (and of its earlier stage first), brought to its success on the mock's clock; the link's id and the read's answer. */
    const follow = async (op: SpecOperation): Promise<{ id: string; status: number }> => {
      const lc = op.lifecycle!;
      const read = ops.find((o) => o.operationId === lc.pollOperationId)!;
      const response = (
        doc.paths[op.path][op.method] as unknown as {
          responses: Record<string, { links?: Record<string, { operationId: string; parameters: Record<string, string> }> }>;
        }
      ).responses[op.successStatus];
      const link = response.links?.[lc.pollOperationId];
      expect(link?.operationId, op.operationId).toBe(lc.pollOperationId);
      const earlier = lc.continues && (await follow(ops.find((o) => o.operationId === lc.continues!.operationId)!));
      const path = earlier && op.pathParams.length ? op.path.replace(/\{\w+\}/, earlier.id) : op.path;
      const body = { ...lc.example, ...(earlier && lc.continues?.bodyField ? { [lc.continues.bodyField]: earlier.id } : {}) };
      const created = await send(op, path, body);
      expect(created.status, op.operationId).toBe(op.successStatus);
      // follow the link's runtime expression: the create answer's data, or (a later stage) the request's path or body
      const [param, expr] = Object.entries(link!.parameters)[0];
      const value = expr.startsWith('$request.path.')
        ? earlier!.id
        : expr.startsWith('$request.body#/')
          ? body[expr.slice('$request.body#/'.length)]
          : expr
              .replace('$response.body#/', '')
              .split('/')
              .reduce<unknown>((at, k) => (at as Record<string, unknown>)[k], created.json);
      if (lc.continues) expect(value, op.operationId).toBe(earlier!.id);
      mock.advance(lc.timeoutMs);
      const answer = await fetch(mockUrl + read.path.replace(`{${param}}`, String(value)), { headers: { authorization: `Bearer ${KEY}` } });
      const task = ((await answer.json()) as { data?: Record<string, unknown> }).data ?? {};
      expect(task[lc.statusField], op.operationId).toBe(lc.success);
      return { id: String(value), status: answer.status };
    };
    for (const op of creates) expect((await follow(op)).status, op.operationId).toBe(200);
  });
});
