/**
 * mediagen-verify (verify/): against the in-process mock (manual clock,
 * --mock, full mode) every check passes for the video, image and
 * generated-audio areas; against a mutating proxy in front of the mock, each
 * kind of contract violation is found and named by operation and rule
 * (docs/guides/verify.md).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock, type InProcessMock } from '../mock/index.ts';
import { verify, toJUnit, formatTable, isLoopback, type VerifyReport } from '../verify/index.ts';
import { main } from '../verify/cli.ts';

const KEY = 'mg_verify1_secret1';
const OTHER = 'mg_verify2_secret2';

let mock: InProcessMock;
let mockUrl: string;

beforeAll(async () => {
  mock = createMock({ seed: 1 });
  mockUrl = await mock.listen();
});
afterAll(() => mock.close());

/** What a proxy sees of an exchange; a mutation returns the answer it passes on. */
interface Exchange {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
}
interface Reply {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}
type Mutation = (req: Exchange, reply: Reply) => Reply;

const jsonReply = (r: Reply, edit: (j: Record<string, unknown>) => void): Reply => {
  const j = JSON.parse(r.body.toString()) as Record<string, unknown>;
  edit(j);
  const body = Buffer.from(JSON.stringify(j));
  return { ...r, body, headers: { ...r.headers, 'content-length': String(body.length) } };
};

/** A proxy in front of the mock that passes every answer through `mutate` (and may rewrite the request first). */
async function proxy(mutate: Mutation, rewrite: (req: Exchange) => Exchange = (r) => r): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const host = req.headers.host!;
        const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'content-length', 'connection'].includes(k))) as Record<
          string,
          string
        >;
        const ex = rewrite({ method: req.method!, path: req.url!, headers, body: Buffer.concat(chunks) });
        const up = await fetch(mockUrl + ex.path, {
          method: ex.method,
          headers: { ...ex.headers, 'x-forwarded-host': host, 'x-forwarded-proto': 'http' },
          body: ex.body.length ? new Uint8Array(ex.body) : undefined,
        });
        const reply = mutate(ex, {
          status: up.status,
          headers: Object.fromEntries([...up.headers].filter(([k]) => !['transfer-encoding', 'connection', 'content-encoding'].includes(k))),
          body: Buffer.from(await up.arrayBuffer()),
        });
        res.writeHead(reply.status, { ...reply.headers, 'content-length': String(reply.body.length) });
        res.end(reply.body);
      })();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))) };
}

const failures = (r: VerifyReport) => r.checks.filter((c) => c.outcome === 'failed').map((c) => `${c.operationId}: ${c.rule}`);
const passedRules = (r: VerifyReport, op: string) => r.checks.filter((c) => c.operationId === op && c.outcome === 'passed').map((c) => c.rule);

describe('verify against the mock', () => {
  it('passes every check of the video, image and generated-audio areas in full mode (--mock), lifecycles, media and credits included', async () => {
    mock.reset(1);
    const lines: string[] = [];
    const report = await verify({
      baseUrl: mockUrl,
      apiKey: KEY,
      secondApiKey: OTHER,
      mode: 'full',
      mock: true,
      tags: ['Video', 'Image', 'Platform voice'],
      onProgress: (l) => lines.push(l),
    });
    expect(failures(report)).toEqual([]);
    expect(report.ok).toBe(true);
    expect(lines.map((l) => l.split(':')[0])).toEqual(['Video', 'Image', 'Platform voice']);
    for (const op of ['createVideoTask', 'createImageTask', 'createPlatformVoiceTask']) {
      const rules = passedRules(report, op);
      for (const rule of ['transition allowed', 'lifecycle: terminal status reached', 'success carries', 'credits: failure refunded', 'forced failure: failed'])
        expect(rules, `${op}: ${rule}`).toContain(rule);
      expect(rules.some((r) => r.startsWith('body rule: required'))).toBe(true);
    }
    expect(passedRules(report, 'createVideoTask')).toEqual(
      expect.arrayContaining(['media videoUrl: duration', 'media videoUrl: pixel size', 'media coverUrl: pixel size', 'credits: balance moves as charged']),
    );
    expect(passedRules(report, 'createPlatformVoiceTask')).toContain('media audioUrl: duration');
    expect(passedRules(report, 'getImageTask')).toContain("another key's task refused");
    expect(report.creditsSpent).toBeGreaterThan(0);
    const junit = toJUnit(report);
    expect(junit).toContain('<testsuite name="Video"');
    expect(junit).not.toContain('<failure');
    expect(formatTable(report)).toMatch(/createVideoTask\s+\d+\s+\d+\s+0/);
  });

  it('creates nothing in safe mode, and refuses --mock and an implicit full mode beyond loopback', async () => {
    mock.reset(1);
    const report = await verify({ baseUrl: mockUrl, apiKey: KEY, tags: ['Image'], mock: true });
    expect(report.ok).toBe(true);
    expect(mock.account(KEY).credits).toBe(mock.account('mg_fresh1_secret1').credits);
    expect(report.checks.find((c) => c.operationId === 'createImageTask' && c.rule.startsWith('lifecycle'))?.outcome).toBe('skipped');
    await expect(verify({ baseUrl: 'http://api.example.com', apiKey: KEY, mock: true })).rejects.toThrow(/loopback/);
    await expect(verify({ baseUrl: 'http://api.example.com', apiKey: KEY, mode: 'full' })).rejects.toThrow(/--budget/);
    expect([isLoopback('http://127.0.0.1:1'), isLoopback('http://[::1]:1'), isLoopback('http://localhost'), isLoopback('https://10.0.0.1')]).toEqual([
      true,
      true,
      true,
      false,
    ]);
  });

  it('stops before passing the budget: a task whose estimate exceeds it is not created', async () => {
    mock.reset(1);
    const report = await verify({ baseUrl: mockUrl, apiKey: KEY, mode: 'full', mock: true, budget: 5, operations: ['createImageTask'] });
    expect(report.ok).toBe(true);
    expect(report.checks.find((c) => c.operationId === 'createImageTask' && c.rule.startsWith('lifecycle (skipped'))?.rule).toMatch(
      /6 credits would pass the budget of 5/,
    );
    expect(report.creditsSpent).toBe(0);
    expect(mock.account(KEY).credits).toBe(mock.account('mg_fresh1_secret1').credits);
  });

  it('the command writes JUnit and exits 0 on a conforming server, 2 on a refused configuration', async () => {
    mock.reset(1);
    const file = join(mkdtempSync(join(tmpdir(), 'verify-')), 'junit.xml');
    const out: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    const writeErr = process.stderr.write.bind(process.stderr);
    process.stdout.write = (s: string) => (out.push(s), true);
    process.stderr.write = (s: string) => (out.push(s), true);
    try {
      expect(await main(['node', 'mediagen-verify', '--base-url', mockUrl, '--api-key', KEY, '--operations', 'estimateImageCredits', '--junit', file])).toBe(0);
      expect(await main(['node', 'mediagen-verify', '--base-url', 'http://api.example.com', '--api-key', KEY, '--mock'])).toBe(2);
    } finally {
      process.stdout.write = write;
      process.stderr.write = writeErr;
    }
    expect(readFileSync(file, 'utf8')).toContain('name="estimateImageCredits: body rule: enum model"');
    expect(out.join('')).toContain('estimateImageCredits');
  });
});

describe('verify against a server that breaks the contract', () => {
  let failedSeen = false;
  const successes = new Set<string>();
  const cases: { name: string; operations: string[]; mutate: Mutation; rewrite?: (r: Exchange) => Exchange; operationId: string; rule: string }[] = [
    {
      name: 'a required field dropped from a task',
      operations: ['createImageTask'],
      mutate: (req, r) =>
        /^\/v1\/images\/generation\/tasks\/img_/.test(req.path) ? jsonReply(r, (j) => delete (j.data as Record<string, unknown>).taskId) : r,
      operationId: 'getImageTask',
      rule: 'response schema',
    },
    {
      name: 'an undeclared error code',
      operations: ['estimateImageCredits'],
      mutate: (req, r) => (r.status === 400 && req.path.includes('estimate') ? jsonReply(r, (j) => (j.code = 99999)) : r),
      operationId: 'estimateImageCredits',
      rule: 'error code declared',
    },
    {
      name: 'a 500',
      operations: ['listImageTasks'],
      mutate: (req, r) =>
        req.path.startsWith('/v1/images/generation/tasks') && req.method === 'GET'
          ? { ...jsonReply(r, (j) => ((j.code = 10500), (j.data = null))), status: 500 }
          : r,
      operationId: 'listImageTasks',
      rule: 'status declared',
    },
    {
      name: 'a status moving backwards (success to generating)',
      operations: ['createImageTask'],
      mutate: (req, r) => {
        if (!/^\/v1\/images\/generation\/tasks\/img_/.test(req.path) || r.status !== 200) return r;
        return jsonReply(r, (j) => {
          const d = j.data as { status: string; images?: unknown };
          if (d.status === 'success' && successes.has(req.path)) {
            d.status = 'generating';
            delete d.images;
          } else if (d.status === 'success') successes.add(req.path);
        });
      },
      operationId: 'createImageTask',
      rule: 'transition allowed',
    },
    {
      name: 'a wrong media Content-Type',
      operations: ['createImageTask'],
      mutate: (req, r) => (req.path.startsWith('/media/images/') ? { ...r, headers: { ...r.headers, 'content-type': 'image/jpeg' } } : r),
      operationId: 'createImageTask',
      rule: 'media images[].url: content type',
    },
    {
      name: 'a 429 without Retry-After',
      operations: ['createImageTask'],
      mutate: (req, r) => {
        if (req.method !== 'POST' || req.path !== '/v1/images/generation/async' || failedSeen) return r;
        failedSeen = true;
        const body = Buffer.from(JSON.stringify({ code: 26029, message: 'rate limited', data: null }));
        return { status: 429, headers: { 'content-type': 'application/json' }, body };
      },
      operationId: 'createImageTask',
      rule: 'Retry-After',
    },
    {
      name: 'a failed task not refunded',
      operations: ['createImageTask'],
      mutate: (req, r) => {
        if (req.headers.prefer?.includes('outcome=failed')) failedSeen = true;
        return failedSeen && req.path === '/v1/user/subscription' ? jsonReply(r, (j) => ((j.data as { balance: number }).balance -= 6)) : r;
      },
      operationId: 'createImageTask',
      rule: 'credits: failure refunded',
    },
    {
      name: 'a body rule not enforced',
      operations: ['estimateImageCredits'],
      mutate: (_req, r) => r,
      // a server that ignores an unknown model: it estimates the default model instead
      rewrite: (req) => {
        if (!req.path.includes('/v1/images/generation/estimate-credits') || !req.body.length) return req;
        const b = JSON.parse(req.body.toString()) as Record<string, unknown>;
        return String(b.model).startsWith('not-declared') ? { ...req, body: Buffer.from(JSON.stringify({ ...b, model: 'image-a-2' })) } : req;
      },
      operationId: 'estimateImageCredits',
      rule: 'body rule: enum model',
    },
  ];

  it.each(cases)('finds $name: $operationId, $rule', async (c) => {
    mock.reset(1);
    failedSeen = false;
    successes.clear();
    const p = await proxy(c.mutate, c.rewrite);
    try {
      const report = await verify({ baseUrl: p.url, apiKey: KEY, mode: 'full', mock: true, operations: c.operations });
      expect(report.ok).toBe(false);
      const hit = report.checks.find((x) => x.outcome === 'failed' && x.operationId === c.operationId && x.rule === c.rule);
      expect(hit, `expected ${c.operationId}: ${c.rule}; found ${failures(report).join(' | ')}`).toBeDefined();
      expect(hit!.evidence!.request).not.toBe(undefined);
      expect(formatTable(report)).toContain(c.operationId);
      expect(toJUnit(report)).toContain(`name="${c.operationId}: ${c.rule}"><failure`);
    } finally {
      await p.close();
    }
  });
});
