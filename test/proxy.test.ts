/**
 * The proxy (`--upstream`, docs/guides/proxy.md): an in-process mock is the upstream, a mutating proxy between
 * (test/verify-servers.ts) makes it drift one realistic way at a time, and a second mock forwards to it with
 * createProxy. A clean upstream gives no violation over a session of several areas; each drift is caught under the
 * contract rule it breaks (the expected rule names come from the contract: docs/guides/verify.md's list); a missing
 * upstream is answered by the mock with --fallback mock, or 502 / 504 without.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMock, type InProcessMock } from '../mock/index.ts';
import { createMockServer } from '../mock/http/app.ts';
import { createProxy, type Proxy, type ProxyExchange } from '../mock/http/proxy/forward.ts';
import { proxyJUnit } from '../mock/http/proxy/report.ts';
import type { ProxyReport } from '../schemas/control.ts';
import { editJson, hostile, mutatingProxy, silent, type Exchange, type Listening, type Mutation } from './verify-servers.ts';

const KEY = 'mg_proxy1_secret1';
const auth = { authorization: `Bearer ${KEY}` };
const json = { ...auth, 'content-type': 'application/json' };

let upstream: InProcessMock;
let drift: Listening & { use(m: Mutation | undefined): void };
let proxy: Proxy;
let front: { url: string; server: Server };
const exchanges: ProxyExchange[] = [];
/** The figures of the run: violations caught per drift injected. */
const table: string[] = [];
afterAll(() => console.log(`drift | violations caught | rules\n${table.join('\n')}`));
/** Faults the proxied mocks found in themselves (strict mode: a control answer off its schema is one). */
const bugs: string[] = [];

/** A mock with `p` in front (its own world answers fallbacks), listening on a free port. */
async function proxied(p: Proxy): Promise<{ url: string; server: Server; mock: ReturnType<typeof createMockServer> }> {
  const mock = createMockServer({ clock: 'manual', strict: true, proxy: p, onMockBug: (id, problem) => bugs.push(`${id}: ${problem}`) });
  const server = mock.app.listen(0, '127.0.0.1');
  await new Promise<void>((r) => server.once('listening', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, mock };
}
const closeServer = (s: Server) => new Promise<void>((r) => (s.closeAllConnections(), s.close(() => r())));

beforeAll(async () => {
  upstream = createMock({ seed: 5 });
  drift = await mutatingProxy(await upstream.listen());
  proxy = createProxy({ upstream: drift.url, fallback: 'off', onExchange: (x) => exchanges.push(x) });
  front = await proxied(proxy);
});
afterAll(async () => {
  expect(bugs).toEqual([]);
  await closeServer(front.server);
  await drift.close();
  await upstream.close();
});

/** The spec's x-lifecycle of a create operation (the contract's own example body, poll operation, id field). */
const lifecycles = (await import('../spec/openapi.json', { with: { type: 'json' } })).default as unknown as {
  paths: Record<
    string,
    Record<string, { operationId: string; 'x-lifecycle'?: { example: unknown; idField: string; statusField: string; terminal: string[] } }>
  >;
};
function createOf(operationId: string) {
  for (const [path, item] of Object.entries(lifecycles.paths))
    for (const op of Object.values(item)) if (op.operationId === operationId && op['x-lifecycle']) return { path, lc: op['x-lifecycle'] };
  throw new Error(`no lifecycle for ${operationId}`);
}

/** Creates a task of `operationId` through the proxy and polls `readPath(id)` through it until a terminal status (the upstream's clock moved between polls); returns the last task. */
async function runTask(operationId: string, readPath: (id: string) => string): Promise<Record<string, any>> {
  const { path, lc } = createOf(operationId);
  const created = await fetch(front.url + path, { method: 'POST', headers: json, body: JSON.stringify(lc.example) });
  expect(created.status).toBeLessThan(300);
  const id = ((await created.json()) as { data: Record<string, string> }).data[lc.idField];
  for (let i = 0; i < 40; i++) {
    const r = await fetch(front.url + readPath(id), { headers: auth });
    const task = ((await r.json()) as { data: Record<string, any> }).data;
    if (lc.terminal.includes(task[lc.statusField])) return task;
    upstream.advance(30_000);
  }
  throw new Error(`${operationId}: no terminal status`);
}

/** Loads a media URL of the upstream through the proxy (its path on the proxy's origin). */
const media = async (url: string) => {
  const u = new URL(url);
  const r = await fetch(front.url + u.pathname + u.search);
  await r.arrayBuffer();
  return r;
};

describe('a clean upstream', () => {
  it('passes a session of video, image, music and a podcast with no violation; answers unchanged; journal and exchanges filled', async () => {
    drift.use(undefined);
    proxy.clear();
    upstream.setAccount(KEY, { credits: 100_000 });
    const video = await runTask('createVideoTask', (id) => `/v1/video-generation/tasks/${id}`);
    expect(video.status).toBe('success');
    const mp4 = await media(video.videoUrl as string);
    expect(mp4.headers.get('content-type')).toBe('video/mp4');
    const image = await runTask('createImageTask', (id) => `/v1/images/generation/tasks/${id}`);
    await media(image.images[0].url as string);
    const music = await runTask('generateMusic', (id) => `/v1/music/tasks/${id}`);
    // a signed URL: its query goes along
    expect(new URL(music.tracks[0].audioUrl as string).searchParams.get('sig')).toBeTruthy();
    expect((await media(music.tracks[0].audioUrl as string)).status).toBe(200);
    const podcast = await runTask('createPodcastEpisode', (id) => `/v1/podcast/episodes/${id}`);
    expect(createOf('createPodcastEpisode').lc.terminal).toContain(podcast[createOf('createPodcastEpisode').lc.statusField]);
    // the answer is the upstream's, byte for byte: the same read straight from the upstream
    const direct = await fetch(`${drift.url}/v1/user/subscription`, { headers: auth });
    const via = await fetch(`${front.url}/v1/user/subscription`, { headers: auth });
    expect(Buffer.from(await via.arrayBuffer())).toEqual(Buffer.from(await direct.arrayBuffer()));
    const report = proxy.report();
    expect(report.violations.map((v) => `${v.path} ${v.detail}`)).toEqual([]);
    expect(report.violationCount).toBe(0);
    expect(report.checked).toBeGreaterThanOrEqual(12);
    expect(report.fallbacks).toBe(0);
    table.push(`none (a session of video, image, music, podcast) | ${report.violationCount} | ${report.checked} answers checked`);
    // the caller's credentials reached the upstream (its journal names the key)
    expect(upstream.requests().filter((e) => e.keyId === 'proxy1').length).toBeGreaterThanOrEqual(12);
    // the proxy's own journal: the operations, marked as proxied with no violation
    const journal = (await (await fetch(`${front.url}/__mock/requests?operationId=createVideoTask`)).json()) as { items: any[] };
    expect(journal.items[0]).toMatchObject({
      operationId: 'createVideoTask',
      keyId: 'proxy1',
      status: 200,
      code: 0,
      body: createOf('createVideoTask').lc.example,
      proxy: { fallback: false, violations: [] },
    });
    // the exchange hook saw every forwarded request with both bodies
    const create = exchanges.find((x) => x.operationId === 'createImageTask')!;
    expect(JSON.parse(Buffer.from(create.requestBody!).toString())).toEqual(createOf('createImageTask').lc.example);
    expect(JSON.parse(Buffer.from(create.responseBody).toString())).toMatchObject({ code: 0 });
    expect(create.requestHeaders.authorization).toBe(`Bearer ${KEY}`);
    expect(create.fromFallback).toBe(false);
  });

  it('never forwards the control API or the documents', async () => {
    const before = drift.requests;
    expect((await fetch(`${front.url}/__mock/health`)).status).toBe(200);
    expect((await fetch(`${front.url}/openapi.json`)).status).toBe(200);
    expect(drift.requests).toBe(before);
  });
});

const isImageRead = (req: Exchange) => req.method === 'GET' && /^\/v1\/images\/generation\/tasks\/img_/.test(req.path);
const isBalance = (req: Exchange) => req.path === '/v1/user/subscription';

interface Drift {
  name: string;
  mutation: () => Mutation;
  /** The exchange with the mutation on. */
  run: () => Promise<void>;
  /** The contract rule it breaks (docs/guides/verify.md, "What it checks"). */
  rule: string;
}

const imageTask = async (times: number) => {
  const { lc } = createOf('createImageTask');
  const r = await fetch(`${front.url}/v1/images/generation/async`, { method: 'POST', headers: json, body: JSON.stringify(lc.example) });
  const id = ((await r.json()) as { data: { taskId: string } }).data.taskId;
  for (let i = 0; i < times; i++) {
    await (await fetch(`${front.url}/v1/images/generation/tasks/${id}`, { headers: auth })).arrayBuffer();
    upstream.advance(60_000);
  }
  return id;
};

const drifts: Drift[] = [
  {
    name: 'envelope code as a string',
    mutation: () => ({ answer: (req, r) => (isBalance(req) ? editJson(r, (j) => (j.code = String(j.code))) : r) }),
    run: async () => void (await fetch(`${front.url}/v1/user/subscription`, { headers: auth })).arrayBuffer(),
    rule: 'response schema',
  },
  {
    name: 'an undeclared status (201 for a create answering 202)',
    mutation: () => ({ answer: (req, r) => (req.method === 'POST' && req.path === '/v1/images/generation/async' ? { ...r, status: 201 } : r) }),
    run: () => imageTask(0).then(() => undefined),
    rule: 'status declared',
  },
  {
    name: 'an invalid body (a task without its status)',
    mutation: () => ({ answer: (req, r) => (isImageRead(req) ? editJson(r, (j) => delete j.data.status) : r) }),
    run: () => imageTask(1).then(() => undefined),
    rule: 'response schema',
  },
  {
    name: 'an undeclared error code',
    mutation: () => ({ answer: (_req, r) => (r.status === 400 ? editJson(r, (j) => (j.code = 99999)) : r) }),
    run: async () =>
      void (await fetch(`${front.url}/v1/images/generation/async`, { method: 'POST', headers: json, body: JSON.stringify({ prompt: '' }) })).arrayBuffer(),
    rule: 'error code declared',
  },
  {
    name: '429 without Retry-After',
    mutation: () => ({
      answer: (_req, r) => (r.status === 429 ? { ...r, headers: Object.fromEntries(Object.entries(r.headers).filter(([k]) => k !== 'retry-after')) } : r),
    }),
    run: async () =>
      void (
        await fetch(`${front.url}/v1/images/generation/async`, {
          method: 'POST',
          headers: { ...json, prefer: 'code=429' },
          body: JSON.stringify(createOf('createImageTask').lc.example),
        })
      ).arrayBuffer(),
    rule: 'Retry-After',
  },
  {
    name: 'a status moving back (success, then queued again)',
    mutation: () => {
      let reads = 0;
      return { answer: (req, r) => (isImageRead(req) && ++reads === 3 ? editJson(r, (j) => (j.data.status = 'pending')) : r) };
    },
    run: () => imageTask(3).then(() => undefined),
    rule: 'transition allowed',
  },
  {
    name: 'media with the wrong Content-Type',
    mutation: () => ({ answer: (req, r) => (req.path.startsWith('/media/') ? { ...r, headers: { ...r.headers, 'content-type': 'image/jpeg' } } : r) }),
    run: async () => {
      const id = await imageTask(0);
      upstream.advance(600_000);
      const task = ((await (await fetch(`${front.url}/v1/images/generation/tasks/${id}`, { headers: auth })).json()) as { data: any }).data;
      await media(task.images[0].url as string);
    },
    rule: 'media content type',
  },
];

describe('each drift is caught under its rule', () => {
  it.each(drifts)('$name', async (d) => {
    upstream.setAccount(KEY, { credits: 100_000 });
    proxy.clear();
    drift.use(d.mutation());
    try {
      await d.run();
    } finally {
      drift.use(undefined);
    }
    const report: ProxyReport = proxy.report();
    table.push(`${d.name} | ${report.violationCount} | ${report.byRule.map((r) => `${r.rule} x${r.count}`).join(', ')}`);
    // one answer mutated, one rule broken: nothing else is reported
    expect(report.byRule).toEqual([{ rule: d.rule, count: 1 }]);
    const v = report.violations.find((x) => x.rule === d.rule)!;
    expect(v.path).toMatch(/^\/(v1|media)\//);
    expect(v.detail.length).toBeGreaterThan(10);
    // JUnit: the operation's test case fails
    expect(proxyJUnit(report, proxy.operations())).toMatch(/<failure message="\d+ violation/);
  });

  it('a violation is in the journal entry of its request, with the rule', async () => {
    const reads = async () => ((await (await fetch(`${front.url}/__mock/requests?operationId=getSubscription`)).json()) as { items: any[] }).items;
    const before = (await reads()).length;
    proxy.clear();
    drift.use(drifts[0].mutation());
    await drifts[0].run();
    drift.use(undefined);
    // the entry is written when the answer has closed
    await vi.waitFor(async () => expect((await reads()).length).toBe(before + 1), { timeout: 60_000 });
    const last = (await reads()).at(-1);
    expect(last.proxy.violations[0].rule).toBe('response schema');
    const served = (await (await fetch(`${front.url}/__mock/proxy/report`)).json()) as ProxyReport;
    expect(served.byRule).toEqual([{ rule: 'response schema', count: 1 }]);
  });
});

describe('bodies over the check cap', () => {
  it('pass through whole, both ways; the answer is counted as not checked and the journal says why', async () => {
    const p = createProxy({ upstream: drift.url, checkCapBytes: 64 });
    const f = await proxied(p);
    try {
      const body = JSON.stringify({ ...(createOf('createImageTask').lc.example as object), prompt: 'a red kite over a beach, '.repeat(20) });
      expect(body.length).toBeGreaterThan(64);
      const created = await fetch(`${f.url}/v1/images/generation/async`, { method: 'POST', headers: json, body });
      expect(created.status).toBe(202);
      const id = ((await created.json()) as { data: { taskId: string } }).data.taskId;
      // the upstream got the whole body (its journal has the whole prompt)
      expect(
        (
          upstream
            .requests()
            .filter((e) => e.operationId === 'createImageTask')
            .at(-1)?.body as { prompt: string }
        ).prompt,
      ).toBe(JSON.parse(body).prompt);
      const direct = await fetch(`${drift.url}/v1/images/generation/tasks/${id}`, { headers: auth });
      const via = await fetch(`${f.url}/v1/images/generation/tasks/${id}`, { headers: auth });
      const bytes = Buffer.from(await via.arrayBuffer());
      expect(bytes).toEqual(Buffer.from(await direct.arrayBuffer()));
      expect(JSON.parse(bytes.toString()).data.taskId).toBe(id);
      expect(p.report()).toMatchObject({ checked: 2, notChecked: 2, violationCount: 0 });
      await vi.waitFor(() => expect(f.mock.engine.journal.list().at(-1)?.proxy?.note).toMatch(/^not checked: the body passed the check cap/), {
        timeout: 60_000,
      });
    } finally {
      await closeServer(f.server);
    }
  });
});

describe('the buffers of all requests together', () => {
  it('a body beyond what the proxy may hold at once answers 503 (10019) with Retry-After, before a byte is read or forwarded', async () => {
    const p = createProxy({ upstream: drift.url, maxBufferedBytes: 50 });
    const f = await proxied(p);
    try {
      const before = drift.requests;
      const r = await fetch(`${f.url}/v1/images/generation/async`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify(createOf('createImageTask').lc.example),
      });
      expect([r.status, ((await r.json()) as { code: number }).code, r.headers.get('retry-after')]).toEqual([503, 10019, '1']);
      expect(drift.requests).toBe(before);
    } finally {
      await closeServer(f.server);
    }
  });
});

describe('an upstream that does not answer', () => {
  it('--fallback mock: refused connections, 404 for the route and 501 are answered by the mock, marked in the journal and counted', async () => {
    const gone = await hostile(() => {});
    const port = new URL(gone.url).port;
    await gone.close();
    const seen: ProxyExchange[] = [];
    const p = createProxy({ upstream: `http://127.0.0.1:${port}`, fallback: 'mock', onExchange: (x) => seen.push(x) });
    const f = await proxied(p);
    try {
      const r = await fetch(`${f.url}/v1/user/subscription`, { headers: auth });
      expect(r.status).toBe(200);
      const text = await r.text();
      // the hook saw the mock's answer, marked as the fallback's
      await vi.waitFor(() => expect(seen).toHaveLength(1), { timeout: 60_000 });
      expect(seen[0]).toMatchObject({ operationId: 'getSubscription', status: 200, fromFallback: true });
      expect(seen[0].responseHeaders['content-type']).toMatch(/^application\/json/);
      expect(Buffer.from(seen[0].responseBody).toString()).toBe(text);
      const created = await fetch(`${f.url}/v1/images/generation/async`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify(createOf('createImageTask').lc.example),
      });
      expect(created.status).toBe(202);
      expect(((await created.json()) as { code: number }).code).toBe(0);
      await vi.waitFor(
        () =>
          expect(f.mock.engine.journal.list().map((e) => [e.operationId, e.proxy?.fallback])).toEqual([
            ['getSubscription', true],
            ['createImageTask', true],
          ]),
        { timeout: 60_000 },
      );
      expect(p.report()).toMatchObject({ fallbacks: 2, checked: 0, upstreamErrors: 0 });
    } finally {
      await closeServer(f.server);
    }
    let n = 0;
    const partial = await hostile((_req, res) => {
      n++;
      res.writeHead(n === 1 ? 404 : 501, { 'content-type': 'text/plain' });
      res.end('no such route');
    });
    const p2 = createProxy({ upstream: partial.url, fallback: 'mock' });
    const f2 = await proxied(p2);
    try {
      expect((await fetch(`${f2.url}/v1/user/subscription`, { headers: auth })).status).toBe(200);
      expect((await fetch(`${f2.url}/v1/user/subscription`, { headers: auth })).status).toBe(200);
      expect(p2.report().fallbacks).toBe(2);
    } finally {
      await closeServer(f2.server);
      await partial.close();
    }
  });

  it('a 404 the operation declares is the upstream answer, not a fallback', async () => {
    const p = createProxy({ upstream: drift.url, fallback: 'mock' });
    const f = await proxied(p);
    try {
      const r = await fetch(`${f.url}/v1/images/generation/tasks/img_doesnotexist`, { headers: auth });
      const direct = await fetch(`${drift.url}/v1/images/generation/tasks/img_doesnotexist`, { headers: auth });
      expect(r.status).toBe(direct.status);
      expect(await r.text()).toBe(await direct.text());
      expect(p.report()).toMatchObject({ fallbacks: 0, checked: 1, violationCount: 0 });
      // the answer was finished (its journal entry is written when it is)
      await vi.waitFor(() => expect(f.mock.engine.journal.list().map((e) => [e.status, e.proxy?.fallback])).toEqual([[r.status, false]]), {
        timeout: 60_000,
      });
    } finally {
      await closeServer(f.server);
    }
  });

  it('without a fallback: 502 (10021) when unreachable, 504 (10022) when silent, never a hang', async () => {
    const gone = await hostile(() => {});
    const port = new URL(gone.url).port;
    await gone.close();
    const p = createProxy({ upstream: `http://127.0.0.1:${port}` });
    const f = await proxied(p);
    const quiet = await silent();
    const p2 = createProxy({ upstream: quiet.url, timeoutMs: 200 });
    const f2 = await proxied(p2);
    try {
      const r = await fetch(`${f.url}/v1/user/subscription`, { headers: auth });
      expect([r.status, ((await r.json()) as { code: number }).code]).toEqual([502, 10021]);
      const r2 = await fetch(`${f2.url}/v1/user/subscription`, { headers: auth });
      expect([r2.status, ((await r2.json()) as { code: number }).code]).toEqual([504, 10022]);
      expect(p.report().upstreamErrors).toBe(1);
      await vi.waitFor(() => expect(f.mock.engine.journal.list()[0]?.proxy?.note).toMatch(/ECONNREFUSED/), { timeout: 60_000 });
    } finally {
      await closeServer(f.server);
      await closeServer(f2.server);
      await quiet.close();
    }
  });

  it('the report answers 10008 on a mock without --upstream', async () => {
    const plain = createMock();
    const r = await plain.fetch('/__mock/proxy/report');
    expect([r.status, ((await r.json()) as { code: number }).code]).toEqual([400, 10008]);
  });
});
