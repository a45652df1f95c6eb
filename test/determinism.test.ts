/**
 * Determinism (docs/architecture.md, "The engine"): given the same seed,
 * the same requests in the same order and the same clock advances, the mock
 * returns byte-identical responses; a different seed gives different ids; and
 * one account's traffic does not change what another account sees.
 *
 * One scripted session covers every video operation and the account endpoint,
 * list pages and filters, task bodies after clock advances, forced failures,
 * error answers (400, 401, 429 with Retry-After), the account ledgers
 * (GET /__mock/accounts/{apiKey}) and the journal (GET /__mock/requests). Every
 * response is recorded as "METHOD path -> status [Retry-After]" plus its raw body
 * text, and the records are compared exactly.
 */
import { describe, expect, it } from 'vitest';
import { videoGenerateRateLimit } from '../schemas/video.ts';
import { family5Body, family5EstimateBody, pathOf, textItem, videoBody, videoEstimateBody } from './factories.ts';
import { KEY, OTHER_KEY, type CallOptions, type TestMock, useMocks } from './helpers.ts';

const start = useMocks();
const mock = (seed: number): Promise<TestMock> => start({ seed });

type Recorder = (method: string, path: string, opts?: CallOptions) => Promise<{ status: number; json: any; text: string }>;

/**
 * A recorder on `m`: every call's status, Retry-After and raw body go to `log` (unless `log` is null).
 * Each call names the same host (X-Forwarded-Host), as the same requests to two servers would: media
 * URLs are built from it, and the mocks listen on different ports.
 */
function recorder(m: TestMock, log: string[] | null): Recorder {
  return async (method, path, opts = {}) => {
    const r = await m.call(method, path, { ...opts, headers: { 'x-forwarded-host': 'mock.test:4010', ...opts.headers } });
    const ra = r.headers.get('retry-after');
    log?.push(
      `${method} ${path}${opts.key !== undefined ? ` [key ${opts.key}]` : ''}${opts.headers?.prefer ? ` [prefer ${opts.headers.prefer}]` : ''} -> ${r.status}${ra ? ` retry-after=${ra}` : ''}\n${r.text}`,
    );
    return r;
  };
}

/** A task id no seed produces (for the not-found answer); excluded from id comparisons. */
const UNKNOWN_ID = 'vt_0000000000000000';

/**
 * The scripted session of `key`. `between` runs at several points (other
 * accounts' traffic in the isolation test); it must not move the clock.
 */
async function session(m: TestMock, rec: Recorder, key: string, between: (step: number) => Promise<void> = async () => {}): Promise<void> {
  const k = { key };
  await rec('GET', pathOf('getSubscription'), k);
  await rec('POST', pathOf('estimateVideoCredits'), {
    ...k,
    body: videoEstimateBody({ model: 'family2-video', resolution: '1080p', duration: 10, hasVideoInput: true, inputVideoDuration: 5 }),
  });
  await rec('POST', pathOf('estimateFamily5Credits'), {
    ...k,
    body: family5EstimateBody({ capability: 'agent', duration: 30, quality: '1080p', pixverse: { agentType: 'promo_mix' } }),
  });
  await between(1);
  const ids: string[] = [];
  const created = async (path: string, body: unknown, prefer?: string) => {
    const r = await rec('POST', path, { ...k, body, ...(prefer ? { headers: { prefer } } : {}) });
    expect(r.status, r.text).toBe(200);
    ids.push(r.json.data.taskId);
  };
  // a random seed (-1), a fixed seed, a family3-h3 task, a family5 task without prompt (generated title), a forced failure
  await created(pathOf('createVideoTask'), videoBody());
  await created(pathOf('createVideoTask'), {
    model: 'family1-video-2-pro',
    resolution: '1080p',
    seed: 42,
    duration: 8,
    content: [{ type: 'image_url', image_url: { url: 'https://example.com/a.png' }, role: 'first_frame' }],
  });
  await between(2);
  await created(pathOf('createVideoTask'), {
    model: 'family3-h3',
    content: [textItem('Waves'), { type: 'audio_url', audio_url: { url: 'https://example.com/a.mp3' } }],
  });
  await created(pathOf('createFamily5VideoTask'), {
    capability: 'multi_transition',
    pixverse: { multiTransition: [{ imageUrl: 'https://example.com/1.png' }, { imageUrl: 'https://example.com/2.png' }] },
  });
  await created(pathOf('createFamily5VideoTask'), family5Body({ prompt: 'Doomed' }), 'outcome=failed, error=32008');
  // the 6th create in the minute is rate limited
  expect(ids).toHaveLength(videoGenerateRateLimit.limit);
  expect((await rec('POST', pathOf('createVideoTask'), { ...k, body: videoBody({ content: [textItem('one too many')] }) })).status).toBe(429);
  await between(3);
  // errors
  await rec('GET', pathOf('getVideoTask', { taskId: UNKNOWN_ID }), k);
  await rec('POST', pathOf('createVideoTask'), { ...k, body: { model: 'family1-video-2-fast', resolution: '1080p', content: [textItem('x')] } });
  await rec('GET', pathOf('listVideoTasks'), { key: 'mg_bad' });
  await rec('GET', pathOf('listVideoTasks'), { ...k, headers: { prefer: 'code=400' } });
  // reads, then time passes in steps
  const readAll = async () => {
    for (const id of ids) await rec('GET', pathOf('getVideoTask', { taskId: id }), k);
    const queries: Record<string, string | number>[] = [
      {},
      { page: 1, pageSize: 2 },
      { page: 2, pageSize: 2 },
      { page: 3, pageSize: 2 },
      { page: 4, pageSize: 2 },
      { status: 'generating' },
      { status: 'uploading' },
      { status: 'success' },
      { status: 'failed' },
    ];
    for (const q of queries) await rec('GET', pathOf('listVideoTasks', {}, q), k);
    await rec('GET', pathOf('getSubscription'), k);
  };
  await readAll();
  for (const ms of [30_000, 30_000, 60_000]) {
    await m.advance(ms);
    await between(4);
    await readAll();
  }
  // after the window: a restyle of the succeeded family5 task, then it finishes too
  await created(pathOf('createFamily5VideoTask'), { capability: 'restyle', sourceTaskId: ids[3], pixverse: { restyleId: 3 } });
  await m.advance(120_000);
  await readAll();
  await rec('GET', `/__mock/accounts/${key}`, { key: null });
}

/** Other accounts' traffic, interleaved: creates (some failing), lists, estimates, errors, a look at the other key's task. */
function otherTraffic(m: TestMock, rec: Recorder, victim: string): (step: number) => Promise<void> {
  const others = [OTHER_KEY, 'mg_third_secret3'];
  return async (step) => {
    for (const key of others) {
      const r = await rec('POST', pathOf('createVideoTask'), {
        key,
        body: videoBody({ content: [textItem(`other ${step}`)] }),
        ...(step % 2 ? { headers: { prefer: 'outcome=failed' } } : {}),
      });
      await rec('POST', pathOf('createFamily5VideoTask'), {
        key,
        body: { capability: 'image_to_video', prompt: `other ${step}`, images: [{ url: 'https://example.com/o.png' }] },
      });
      await rec('GET', pathOf('listVideoTasks', {}, { pageSize: 3 }), { key });
      await rec('POST', pathOf('estimateVideoCredits'), { key, body: videoEstimateBody({ model: 'family4-video', duration: 4 }) });
      await rec('GET', pathOf('getVideoTask', { taskId: r.json?.data?.taskId ?? 'none' }), { key: victim });
      await rec('GET', pathOf('getSubscription'), { key });
    }
  };
}

/** The session of KEY with other accounts' traffic, plus the journal and both ledgers. */
async function fullRun(m: TestMock): Promise<string[]> {
  const log: string[] = [];
  const rec = recorder(m, log);
  await session(m, rec, KEY, otherTraffic(m, rec, KEY));
  await rec('GET', `/__mock/accounts/${OTHER_KEY}`, { key: null });
  await rec('GET', '/__mock/requests', { key: null });
  await rec('GET', '/__mock/clock', { key: null });
  return log;
}

const idsIn = (log: string[]) => [...new Set(log.join('\n').match(/\b(vt|ep)_[0-9a-f]{16}\b/g) ?? [])].filter((id) => id !== UNKNOWN_ID);

describe('determinism', () => {
  it('the same seed and the same script give byte-identical responses, journal and ledgers included', async () => {
    const [a, b] = [await mock(1), await mock(1)];
    const logA = await fullRun(a);
    const logB = await fullRun(b);
    expect(logA.length).toBeGreaterThan(150);
    expect(idsIn(logA).length).toBeGreaterThan(20);
    // the script really exercised what it claims: a 429 with Retry-After, failures, successes, the journal and ledgers
    const all = logA.join('\n');
    expect(all).toMatch(/-> 429 retry-after=\d+/);
    expect(all).toContain('"status":"failed"');
    expect(all).toContain('"status":"success"');
    expect(all).toContain('"type":"release"');
    expect(logA.at(-2)).toMatch(/^GET \/__mock\/requests .*-> 200\n\{"items":\[/);
    for (let i = 0; i < Math.max(logA.length, logB.length); i++) expect(logB[i], `response #${i}`).toBe(logA[i]);
  });

  it('a different seed gives different ids (and different random seeds), with the same statuses', async () => {
    const [a, b] = [await mock(1), await mock(2)];
    const logA = await fullRun(a);
    const logB = await fullRun(b);
    const idsA = idsIn(logA);
    const idsB = idsIn(logB);
    expect(idsB.length).toBe(idsA.length);
    expect(idsB.filter((id) => idsA.includes(id))).toEqual([]);
    // the same script has the same shape: the same statuses in the same order
    const statuses = (log: string[]) => log.map((l) => l.split('\n')[0].replace(/\b(vt|ep)_[0-9a-f]{16}\b/g, 'ID'));
    expect(statuses(logB)).toEqual(statuses(logA));
    // the random seed of the first task (seed -1 in the request) differs
    const seedOf = (log: string[]) =>
      log.find((l) => /^GET \/v1\/video-generation\/tasks\/vt_\w+ \[key [^\]]+\] -> 200/.test(l))!.match(/"seed":(\d+),"creditCharged"/)![1];
    expect(seedOf(logB)).not.toBe(seedOf(logA));
  });

  it("one account's traffic does not change another account's ids or responses", async () => {
    // A: KEY alone. B: the same KEY script with two other accounts' traffic interleaved (not recorded).
    const [a, b] = [await mock(1), await mock(1)];
    const logA: string[] = [];
    await session(a, recorder(a, logA), KEY);
    const logB: string[] = [];
    await session(b, recorder(b, logB), KEY, otherTraffic(b, recorder(b, null), KEY));
    // B really had other traffic
    const accountsB = await b.call('GET', `/__mock/accounts/${OTHER_KEY}`, { key: null });
    expect(accountsB.json.ledger.length).toBeGreaterThan(4);
    expect(idsIn(logA).length).toBeGreaterThan(10);
    expect(idsIn(logB)).toEqual(idsIn(logA));
    // every API response of KEY, its ledger included (entries are numbered per account), is byte-identical
    for (let i = 0; i < logA.length; i++) expect(logB[i], `response #${i}`).toBe(logA[i]);
  });
});
