/**
 * The control API under /__mock (docs/architecture.md, "The control API"),
 * exactly: health, reset, clock, advance, accounts and ledgers, scenario rules,
 * the request journal; and its own document, spec/mock-control.openapi.yaml.
 * The routes built on the other request and response kinds (key deletion,
 * events, samples, uploads) are in control-kinds.test.ts.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import {
  AccountPage,
  AdvanceResponse,
  ClockState,
  controlOperations,
  Health,
  Journal,
  NextEvent,
  OperationList,
  ResetResponse,
  Scenario,
  ScenarioDeleted,
  ScenarioList,
  ScenariosCleared,
} from '../schemas/control.ts';
import { errorCatalog, type ErrorName } from '../schemas/errors.ts';
import { operations } from '../schemas/operations.ts';
import { videoPhases } from '../schemas/video.ts';
import { DEFAULT_START_TIME } from '../mock/engine/engine.ts';
import { pathOf, videoBody } from './factories.ts';
import { KEY, OTHER_KEY, readEventStream, type CallResult, type TestMock, useMocks } from './helpers.ts';

const mock = useMocks();

const phases = videoPhases('family1-video-2-fast', 5);
const DONE_MS = phases.generatingMs + phases.uploadingMs;

/** A control call (no API key), its answer checked against `schema` when 200. */
async function control<T extends z.ZodType>(
  m: TestMock,
  method: string,
  path: string,
  schema: T | null,
  body?: unknown,
): Promise<CallResult & { data: z.output<T> }> {
  const res = await m.call(method, path, { key: null, ...(body !== undefined ? { body } : {}) });
  if (schema && res.status === 200) {
    const r = schema.safeParse(res.json);
    expect(r.success, `${method} ${path} answer does not match its schema: ${res.text}`).toBe(true);
  }
  return Object.assign(res, { data: res.json });
}

function expectError(res: CallResult, name: ErrorName) {
  expect(res.status, res.text).toBe(errorCatalog[name].httpStatus);
  expect(res.json).toEqual({ code: errorCatalog[name].code, message: expect.any(String), data: null });
}

const sum = (ledger: { amount: number }[]) => ledger.reduce((s, e) => s + e.amount, 0);

describe('GET /__mock/health', () => {
  it('answers ok with the seed and the clock, without a key', async () => {
    const m = await mock();
    const res = await control(m, 'GET', '/__mock/health', Health);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: 'ok', seed: 1, clock: { now: DEFAULT_START_TIME, mode: 'manual' } });
  });
});

describe('clock', () => {
  it('GET /__mock/clock -> {now, mode}', async () => {
    const m = await mock();
    const res = await control(m, 'GET', '/__mock/clock', ClockState);
    expect(res.json).toEqual({ now: DEFAULT_START_TIME, mode: 'manual' });
  });

  it('POST /__mock/clock/advance moves now and runs due events (eventsRun)', async () => {
    const m = await mock();
    const a0 = await control(m, 'POST', '/__mock/clock/advance', AdvanceResponse, { ms: 1000 });
    expect(a0.json).toEqual({ now: DEFAULT_START_TIME + 1000, eventsRun: 0 });
    expect((await control(m, 'GET', '/__mock/clock', ClockState)).json.now).toBe(DEFAULT_START_TIME + 1000);

    const created = await m.call('POST', pathOf('createVideoTask'), { body: videoBody() });
    expect(created.status, created.text).toBe(200);
    const id = created.json.data.taskId;
    // not yet due
    const a1 = await control(m, 'POST', '/__mock/clock/advance', AdvanceResponse, { ms: phases.generatingMs - 1 });
    expect(a1.json.eventsRun).toBe(0);
    expect((await m.call('GET', pathOf('getVideoTask', { taskId: id }))).json.data.status).toBe('generating');
    // generating -> uploading -> success: both phase events run in one advance
    const a2 = await control(m, 'POST', '/__mock/clock/advance', AdvanceResponse, { ms: DONE_MS });
    expect(a2.json.now).toBe(DEFAULT_START_TIME + 1000 + phases.generatingMs - 1 + DONE_MS);
    expect(a2.json.eventsRun).toBe(2);
    expect((await m.call('GET', pathOf('getVideoTask', { taskId: id }))).json.data.status).toBe('success');
    // ms 0 is allowed and moves nothing
    expect((await control(m, 'POST', '/__mock/clock/advance', AdvanceResponse, { ms: 0 })).json).toEqual({ now: a2.json.now, eventsRun: 0 });
  });

  it('GET /__mock/clock/next tells when the next scheduled event is due; advancing by inMs runs it', async () => {
    const m = await mock();
    expect((await control(m, 'GET', '/__mock/clock/next', NextEvent)).json).toEqual({ due: null, inMs: null });
    await m.advance(500);
    const created = await m.call('POST', pathOf('createVideoTask'), { body: videoBody() });
    expect(created.status, created.text).toBe(200);
    const next = await control(m, 'GET', '/__mock/clock/next', NextEvent);
    expect(next.json).toEqual({ due: DEFAULT_START_TIME + 500 + phases.generatingMs, inMs: phases.generatingMs });
    const a = await control(m, 'POST', '/__mock/clock/advance', AdvanceResponse, { ms: next.json.inMs });
    expect(a.json.eventsRun).toBe(1);
    expect((await m.call('GET', pathOf('getVideoTask', { taskId: created.json.data.taskId }))).json.data.status).toBe('uploading');
    expect((await control(m, 'GET', '/__mock/clock/next', NextEvent)).json.inMs).toBe(phases.uploadingMs);
  });

  it.each([
    ['no body', undefined, 'CONTROL_INVALID_REQUEST'],
    ['empty object', {}, 'CONTROL_INVALID_REQUEST'],
    ['negative ms', { ms: -1 }, 'CONTROL_INVALID_REQUEST'],
    ['fractional ms', { ms: 1.5 }, 'CONTROL_INVALID_REQUEST'],
    ['string ms', { ms: '100' }, 'CONTROL_INVALID_REQUEST'],
    ['unknown field', { ms: 1, extra: true }, 'CONTROL_INVALID_REQUEST'],
    ['array', [1], 'CONTROL_INVALID_REQUEST'],
  ] as const)('advance with %s -> 400 code 10008, clock unchanged', async (_n, body, name) => {
    const m = await mock();
    const res = await control(m, 'POST', '/__mock/clock/advance', null, body);
    expectError(res, name);
    expect((await control(m, 'GET', '/__mock/clock', ClockState)).json.now).toBe(DEFAULT_START_TIME);
  });

  it('advance with malformed JSON -> 400 code 10002', async () => {
    const m = await mock();
    expectError(
      await m.call('POST', '/__mock/clock/advance', { key: null, raw: '{"ms": ', headers: { 'content-type': 'application/json' } }),
      'MALFORMED_JSON',
    );
  });
});

describe('POST /__mock/reset', () => {
  it('drops all state: accounts, tasks, scenarios, journal, rate limits, clock', async () => {
    const m = await mock();
    const created = await m.call('POST', pathOf('createVideoTask'), { body: videoBody() });
    const id = created.json.data.taskId;
    await control(m, 'PUT', `/__mock/accounts/${OTHER_KEY}`, AccountPage, { credits: 5, plan: 'free' });
    await control(m, 'POST', '/__mock/scenarios', Scenario, { code: 401 });
    await m.advance(5000);
    const reset = await control(m, 'POST', '/__mock/reset', ResetResponse);
    expect(reset.status).toBe(200);
    expect(reset.json).toEqual({ seed: 1, now: DEFAULT_START_TIME });
    expect((await control(m, 'GET', '/__mock/requests', Journal)).json.items).toEqual([]);
    expect((await control(m, 'DELETE', '/__mock/scenarios', ScenariosCleared)).json).toEqual({ removed: 0 });
    const other = await control(m, 'GET', `/__mock/accounts/${OTHER_KEY}`, AccountPage);
    expect(other.json).toMatchObject({ credits: 10_000, plan: 'paid' });
    expect(other.json.ledger).toHaveLength(1);
    expect((await m.call('GET', pathOf('getSubscription'))).json.data.balance).toBe(10_000);
    const gone = await m.call('GET', pathOf('getVideoTask', { taskId: id }));
    expectError(gone, 'VIDEO_TASK_NOT_FOUND');
    expect((await control(m, 'GET', '/__mock/clock', ClockState)).json.now).toBe(DEFAULT_START_TIME);
  });

  it('resets the rate limiter', async () => {
    const m = await mock();
    const rl = operations.createVideoTask.rateLimit;
    for (let i = 0; i < rl.limit; i++) expect((await m.call('POST', pathOf('createVideoTask'), { body: videoBody() })).status).toBe(200);
    expect((await m.call('POST', pathOf('createVideoTask'), { body: videoBody() })).status).toBe(429);
    await control(m, 'POST', '/__mock/reset', ResetResponse, {});
    expect((await m.call('POST', pathOf('createVideoTask'), { body: videoBody() })).status).toBe(200);
  });

  it('same seed -> same ids after reset; {"seed": n} changes them and the health seed', async () => {
    const m = await mock();
    const first = (await m.call('POST', pathOf('createVideoTask'), { body: videoBody() })).json.data.taskId;
    await control(m, 'POST', '/__mock/reset', ResetResponse);
    expect((await m.call('POST', pathOf('createVideoTask'), { body: videoBody() })).json.data.taskId).toBe(first);
    const r = await control(m, 'POST', '/__mock/reset', ResetResponse, { seed: 2 });
    expect(r.json.seed).toBe(2);
    expect((await control(m, 'GET', '/__mock/health', Health)).json.seed).toBe(2);
    const second = (await m.call('POST', pathOf('createVideoTask'), { body: videoBody() })).json.data.taskId;
    expect(second).not.toBe(first);
    // the seed is kept by a later plain reset
    await control(m, 'POST', '/__mock/reset', ResetResponse);
    expect((await m.call('POST', pathOf('createVideoTask'), { body: videoBody() })).json.data.taskId).toBe(second);
  });

  it.each([
    ['negative seed', { seed: -1 }],
    ['string seed', { seed: 'x' }],
    ['fractional seed', { seed: 1.5 }],
    ['unknown field', { sede: 2 }],
  ])('%s -> 400 code 10008, nothing dropped', async (_n, body) => {
    const m = await mock();
    await m.call('GET', pathOf('getSubscription'));
    expectError(await control(m, 'POST', '/__mock/reset', null, body), 'CONTROL_INVALID_REQUEST');
    expect((await control(m, 'GET', '/__mock/requests', Journal)).json.items).toHaveLength(1);
  });

  it('malformed JSON -> 400 code 10002', async () => {
    const m = await mock();
    expectError(await m.call('POST', '/__mock/reset', { key: null, raw: '{', headers: { 'content-type': 'application/json' } }), 'MALFORMED_JSON');
  });
});

describe('accounts', () => {
  it('GET /__mock/accounts/{apiKey}: defaults, opening ledger entry', async () => {
    const m = await mock();
    const res = await control(m, 'GET', `/__mock/accounts/${KEY}`, AccountPage);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      apiKey: KEY,
      keyId: 'test',
      credits: 10_000,
      plan: 'paid',
      everPaid: true,
      freeUsages: {},
      voiceClone: { quota: 3, confirmationsUsed: 0, maxSpeakers: 5 },
      ledger: [{ seq: expect.any(Number), at: DEFAULT_START_TIME, type: 'adjust', amount: 10_000, balance: 10_000, taskId: null, note: expect.any(String) }],
      ledgerTotal: 1,
      ledgerPage: 1,
      ledgerPageSize: 100,
    });
  });

  it('the ledger is paged: oldest first, ledgerTotal counts every entry, the last page holds the latest', async () => {
    const m = await mock();
    for (let credits = 1; credits <= 6; credits++) await m.call('PUT', `/__mock/accounts/${KEY}`, { key: null, body: { credits } });
    const page = async (q: string) => (await control(m, 'GET', `/__mock/accounts/${KEY}?${q}`, AccountPage)).json;
    const first = await page('ledgerPageSize=3');
    expect(first.ledgerTotal).toBe(7);
    expect(first.ledger.map((e: { seq: number }) => e.seq)).toEqual([1, 2, 3]);
    const last = await page('ledgerPage=3&ledgerPageSize=3');
    expect(last.ledger.map((e: { seq: number; balance: number }) => [e.seq, e.balance])).toEqual([[7, 6]]);
    expect((await page('ledgerPage=9')).ledger).toEqual([]);
    expect((await m.call('GET', `/__mock/accounts/${KEY}?ledgerPageSize=1001`, { key: null })).json.code).toBe(errorCatalog.CONTROL_INVALID_REQUEST.code);
  });

  it.each([
    ['GET', 'notakey'],
    ['GET', 'mg_only_'],
    ['PUT', 'xx_demo_secret1'],
  ])('%s /__mock/accounts/%s: a malformed key is a control error (10008), not a new account', async (method, key) => {
    const m = await mock();
    const res = await m.call(method, `/__mock/accounts/${key}`, { key: null, ...(method === 'PUT' ? { body: { credits: 5 } } : {}) });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe(errorCatalog.CONTROL_INVALID_REQUEST.code);
    expect(m.engine.accounts.all()).toHaveLength(0);
  });

  it('PUT sets credits (an adjust entry), plan, everPaid and freeUsages; the ledger sums to the balance', async () => {
    const m = await mock();
    const put = await control(m, 'PUT', `/__mock/accounts/${KEY}`, AccountPage, {
      credits: 250,
      plan: 'free',
      everPaid: false,
      freeUsages: { 'image-a-2': 3 },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.json).toMatchObject({ credits: 250, plan: 'free', everPaid: false, freeUsages: { 'image-a-2': 3 } });
    expect(put.json.ledger.at(-1)).toMatchObject({ type: 'adjust', amount: -9_750, balance: 250, taskId: null });
    expect(sum(put.json.ledger)).toBe(250);
    // the API sees it
    expect((await m.call('GET', pathOf('getSubscription'))).json.data).toEqual({ balance: 250, freeUsages: { 'image-a-2': 3 }, plan: 'free' });
    // a task reserves; the ledger still sums to the balance
    const created = await m.call('POST', pathOf('createVideoTask'), { body: videoBody() });
    expect(created.status, created.text).toBe(200);
    const after = await control(m, 'GET', `/__mock/accounts/${KEY}`, AccountPage);
    expect(after.json.ledger.at(-1)).toMatchObject({ type: 'reserve', taskId: created.json.data.taskId });
    expect(after.json.credits).toBeLessThan(250);
    expect(sum(after.json.ledger)).toBe(after.json.credits);
    // raising credits again is one more adjust entry
    const up = await control(m, 'PUT', `/__mock/accounts/${KEY}`, AccountPage, { credits: 1000 });
    expect(up.json.ledger.at(-1)).toMatchObject({ type: 'adjust', amount: 1000 - after.json.credits, balance: 1000 });
    expect(sum(up.json.ledger)).toBe(1000);
    // a PUT without credits adds no ledger entry
    const plan = await control(m, 'PUT', `/__mock/accounts/${KEY}`, AccountPage, { plan: 'paid' });
    expect(plan.json.ledger).toHaveLength(up.json.ledger.length);
    expect(plan.json).toMatchObject({ plan: 'paid', everPaid: true });
  });

  it.each([
    ['no body', undefined],
    ['negative credits', { credits: -1 }],
    ['fractional credits', { credits: 1.5 }],
    ['unknown plan', { plan: 'gold' }],
    ['everPaid not boolean', { everPaid: 'yes' }],
    ['negative free usage', { freeUsages: { m: -1 } }],
    ['unknown field', { balance: 5 }],
  ])('PUT with %s -> 400 code 10008, account unchanged', async (_n, body) => {
    const m = await mock();
    expectError(await control(m, 'PUT', `/__mock/accounts/${KEY}`, null, body), 'CONTROL_INVALID_REQUEST');
    expect((await control(m, 'GET', `/__mock/accounts/${KEY}`, AccountPage)).json).toMatchObject({
      credits: 10_000,
      plan: 'paid',
      ledger: [{ type: 'adjust' }],
    });
  });

  it('PUT with malformed JSON -> 400 code 10002', async () => {
    const m = await mock();
    expectError(await m.call('PUT', `/__mock/accounts/${KEY}`, { key: null, raw: 'nope', headers: { 'content-type': 'application/json' } }), 'MALFORMED_JSON');
  });
});

describe('scenarios', () => {
  it('applies to the next `times` matching requests only, then is consumed', async () => {
    const m = await mock();
    const add = await control(m, 'POST', '/__mock/scenarios', Scenario, { apiKey: KEY, operationId: 'getSubscription', times: 2, code: 401 });
    expect(add.status, add.text).toBe(200);
    expect(add.json).toEqual({
      id: expect.any(String),
      apiKey: KEY,
      operationIds: ['getSubscription'],
      remaining: 2,
      code: 401,
      error: null,
      outcome: null,
      delay: null,
    });
    // another key and another operation are not matched (and consume nothing)
    expect((await m.call('GET', pathOf('getSubscription'), { key: OTHER_KEY })).status).toBe(200);
    expect((await m.call('GET', pathOf('listVideoTasks'))).status).toBe(200);
    expectError(await m.call('GET', pathOf('getSubscription')), 'UNAUTHORIZED');
    expectError(await m.call('GET', pathOf('getSubscription')), 'UNAUTHORIZED');
    expect((await m.call('GET', pathOf('getSubscription'))).status).toBe(200);
    expect((await control(m, 'DELETE', '/__mock/scenarios', ScenariosCleared)).json).toEqual({ removed: 0 });
  });

  it('error by code or by name; operationId as a list; default times 1', async () => {
    const m = await mock();
    const add = await control(m, 'POST', '/__mock/scenarios', Scenario, {
      operationId: ['createVideoTask', 'createFamily5VideoTask'],
      error: 'VIDEO_INSUFFICIENT_CREDITS',
    });
    expect(add.json).toMatchObject({ apiKey: null, operationIds: ['createVideoTask', 'createFamily5VideoTask'], remaining: 1, error: 31004 });
    expectError(await m.call('POST', pathOf('createVideoTask'), { body: videoBody() }), 'VIDEO_INSUFFICIENT_CREDITS');
    expect((await m.call('POST', pathOf('createVideoTask'), { body: videoBody() })).status).toBe(200);
    await control(m, 'POST', '/__mock/scenarios', Scenario, { operationId: 'createVideoTask', error: 31029 });
    const limited = await m.call('POST', pathOf('createVideoTask'), { body: videoBody() });
    expectError(limited, 'VIDEO_RATE_LIMITED');
    expect(limited.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
  });

  it('outcome=failed with an error: the created task fails later with that code and is refunded', async () => {
    const m = await mock();
    await control(m, 'POST', '/__mock/scenarios', Scenario, { apiKey: KEY, operationId: 'createVideoTask', outcome: 'failed', error: 31009 });
    const created = await m.call('POST', pathOf('createVideoTask'), { body: videoBody() });
    expect(created.status, created.text).toBe(200);
    const id = created.json.data.taskId;
    expect((await control(m, 'GET', `/__mock/accounts/${KEY}`, AccountPage)).json.credits).toBeLessThan(10_000);
    await m.advance(DONE_MS);
    const task = (await m.call('GET', pathOf('getVideoTask', { taskId: id }))).json.data;
    expect(task).toMatchObject({ status: 'failed', errorCode: 31009 });
    const acc = (await control(m, 'GET', `/__mock/accounts/${KEY}`, AccountPage)).json;
    expect(acc.credits).toBe(10_000);
    expect(sum(acc.ledger)).toBe(10_000);
    // consumed: the next task succeeds
    const next = (await m.call('POST', pathOf('createVideoTask'), { body: videoBody() })).json.data.taskId;
    await m.advance(DONE_MS);
    expect((await m.call('GET', pathOf('getVideoTask', { taskId: next }))).json.data.status).toBe('success');
  });

  it('delay: the matching request is answered after about that many ms', async () => {
    const m = await mock();
    await control(m, 'POST', '/__mock/scenarios', Scenario, { operationId: 'getSubscription', delay: 150 });
    const t0 = performance.now();
    expect((await m.call('GET', pathOf('getSubscription'))).status).toBe(200);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(140);
  });

  it('a request with its own Prefer header (or __ query) ignores the rules and does not consume them', async () => {
    const m = await mock();
    await control(m, 'POST', '/__mock/scenarios', Scenario, { operationId: 'getSubscription', code: 401 });
    expect((await m.call('GET', pathOf('getSubscription'), { headers: { prefer: 'delay=0' } })).status).toBe(200);
    expect((await m.call('GET', pathOf('getSubscription', {}, { __delay: 0 }))).status).toBe(200);
    expectError(await m.call('GET', pathOf('getSubscription'), { headers: { prefer: 'code=401' } }), 'UNAUTHORIZED');
    // the rule is still there for a plain request
    expectError(await m.call('GET', pathOf('getSubscription')), 'UNAUTHORIZED');
    expect((await m.call('GET', pathOf('getSubscription'))).status).toBe(200);
  });

  it('a Prism-only Prefer (example=) is no forcing: the rule applies', async () => {
    const m = await mock();
    await control(m, 'POST', '/__mock/scenarios', Scenario, { operationId: 'getSubscription', code: 401 });
    expectError(await m.call('GET', pathOf('getSubscription'), { headers: { prefer: 'example=x' } }), 'UNAUTHORIZED');
  });

  it('GET /__mock/scenarios lists the rules with their uses left; DELETE /__mock/scenarios/{id} removes one', async () => {
    const m = await mock();
    const a = await control(m, 'POST', '/__mock/scenarios', Scenario, { apiKey: KEY, code: 401, times: 2 });
    const b = await control(m, 'POST', '/__mock/scenarios', Scenario, { operationId: 'createVideoTask', outcome: 'failed' });
    expect((await control(m, 'GET', '/__mock/scenarios', ScenarioList)).json.items).toEqual([a.json, b.json]);
    expectError(await m.call('GET', pathOf('getSubscription')), 'UNAUTHORIZED');
    expect((await control(m, 'GET', '/__mock/scenarios', ScenarioList)).json.items.map((r: { remaining: number }) => r.remaining)).toEqual([1, 1]);
    expect((await control(m, 'DELETE', `/__mock/scenarios/${a.json.id}`, ScenarioDeleted)).json).toEqual({ id: a.json.id, existed: true });
    expect((await control(m, 'DELETE', `/__mock/scenarios/${a.json.id}`, ScenarioDeleted)).json).toEqual({ id: a.json.id, existed: false });
    expect((await m.call('GET', pathOf('getSubscription'))).status).toBe(200);
    expect((await control(m, 'GET', '/__mock/scenarios', ScenarioList)).json.items).toEqual([b.json]);
  });

  it('GET /__mock/operations: every operation with its declared errors (code, name, status), outcomes and failure reasons', async () => {
    const m = await mock();
    const items = (await control(m, 'GET', '/__mock/operations', OperationList)).json.items as z.infer<typeof OperationList>['items'];
    expect(items.map((o) => o.operationId)).toEqual(Object.keys(operations));
    const image = items.find((o) => o.operationId === 'createImageTask')!;
    expect(image).toMatchObject({ method: 'POST', path: operations.createImageTask.path, outcomes: ['failed', 'stuck'] });
    expect(image.errors).toContainEqual({ code: 10001, name: 'UNAUTHORIZED', status: 401 });
    expect(image.errors.map((e) => e.name)).toEqual(operations.createImageTask.errors);
    expect(image.failureReasons[0]).toEqual({ code: errorCatalog.IMAGE_GENERATION_FAILED.code, name: 'IMAGE_GENERATION_FAILED' });
  });

  it('DELETE /__mock/scenarios clears every rule', async () => {
    const m = await mock();
    await control(m, 'POST', '/__mock/scenarios', Scenario, { code: 401, times: 5 });
    await control(m, 'POST', '/__mock/scenarios', Scenario, { operationId: 'createVideoTask', outcome: 'failed' });
    const cleared = await control(m, 'DELETE', '/__mock/scenarios', ScenariosCleared);
    expect(cleared.json).toEqual({ removed: 2 });
    expect((await m.call('GET', pathOf('getSubscription'))).status).toBe(200);
  });

  it.each([
    ['no body', undefined],
    ['no forcing at all', { operationId: 'getSubscription' }],
    ['times 0', { code: 401, times: 0 }],
    ['unknown error', { error: 'NOT_AN_ERROR' }],
    ['unknown numeric error', { error: 99999 }],
    ['unknown outcome', { outcome: 'exploded' }],
    ['delay too long', { delay: 60_001 }],
    ['status out of range', { code: 99 }],
    ['unknown field', { code: 401, when: 'now' }],
  ])('POST with %s -> 400 code 10008, nothing added', async (_n, body) => {
    const m = await mock();
    expectError(await control(m, 'POST', '/__mock/scenarios', null, body), 'CONTROL_INVALID_REQUEST');
    expect((await control(m, 'DELETE', '/__mock/scenarios', ScenariosCleared)).json.removed).toBe(0);
  });
});

describe('GET /__mock/requests', () => {
  it('journals recent API requests with status and envelope code, not control requests', async () => {
    const m = await mock();
    await m.call('GET', pathOf('getSubscription'));
    await m.call('GET', pathOf('getSubscription'), { key: null });
    await m.call('POST', pathOf('createVideoTask'), { body: videoBody({ duration: 3 }) });
    await m.call('GET', '/nope');
    await m.call('DELETE', pathOf('getSubscription'));
    await control(m, 'GET', '/__mock/health', Health);
    await m.advance(10);
    await m.call('GET', pathOf('getSubscription'), { key: OTHER_KEY, headers: { prefer: 'code=401' } });
    const res = await control(m, 'GET', '/__mock/requests', Journal);
    expect(
      res.json.items.map(
        (e: {
          seq: number;
          at: number;
          method: string;
          path: string;
          operationId: string | null;
          keyId: string | null;
          status: number;
          code: number | null;
        }) => [e.method, e.path, e.operationId, e.keyId, e.status, e.code],
      ),
    ).toEqual([
      ['GET', pathOf('getSubscription'), 'getSubscription', 'test', 200, 0],
      ['GET', pathOf('getSubscription'), 'getSubscription', null, 401, 10001],
      ['POST', pathOf('createVideoTask'), 'createVideoTask', 'test', 400, 31002],
      ['GET', '/nope', null, null, 404, 10004],
      ['DELETE', pathOf('getSubscription'), null, null, 405, 10005],
      ['GET', pathOf('getSubscription'), 'getSubscription', 'other', 401, 10001],
    ]);
    const seqs = res.json.items.map((e: { seq: number }) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(res.json.items.at(-1).at).toBe(DEFAULT_START_TIME + 10);
    expect(res.json.items.every((e: { path: string }) => !e.path.startsWith('/__mock'))).toBe(true);
  });
});

describe('spec/mock-control.openapi.yaml', () => {
  const expected = [
    'GET /__mock/health',
    'POST /__mock/reset',
    'GET /__mock/clock',
    'POST /__mock/clock/advance',
    'GET /__mock/accounts/{apiKey}',
    'PUT /__mock/accounts/{apiKey}',
    'POST /__mock/scenarios',
    'DELETE /__mock/scenarios',
    'GET /__mock/requests',
    'DELETE /__mock/accounts/{apiKey}',
    'GET /__mock/events',
    'GET /__mock/samples/{kind}',
    'POST /__mock/uploads',
    'GET /__mock/state',
    'PUT /__mock/state',
    'POST /__mock/state/save',
    'GET /__mock/bugs',
    'GET /__mock/sessions',
    'DELETE /__mock/sessions/{name}',
    'GET /__mock/users',
    'POST /__mock/users',
    'GET /__mock/requests/count',
    'GET /__mock/oauth/sessions',
    'POST /__mock/oauth/sessions/{sessionId}/authorize',
    'GET /__mock/clock/next',
    'GET /__mock/scenarios',
    'DELETE /__mock/scenarios/{id}',
    'GET /__mock/operations',
    'GET /__mock/proxy/report',
    'DELETE /__mock/proxy/report',
  ].sort();
  const doc = parseYaml(readFileSync(new URL('../spec/mock-control.openapi.yaml', import.meta.url), 'utf8'));
  const methods = ['get', 'post', 'put', 'delete', 'patch', 'head', 'options', 'trace'];
  const listed = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([p, item]) =>
    Object.keys(item)
      .filter((k) => methods.includes(k))
      .map((k) => `${k.toUpperCase()} ${p}`),
  );

  // the mock's sign-in page (an API route of the mock, no /__mock prefix) is described here too, not in the service document
  const signIn = ['GET /oauth/authorize', 'POST /oauth/authorize'];

  it('lists exactly the control routes, which are exactly controlOperations, and the sign-in page', () => {
    expect(listed.sort()).toEqual([...expected, ...signIn].sort());
    expect(
      Object.values(controlOperations)
        .map((o) => `${o.method.toUpperCase()} ${o.path}`)
        .sort(),
    ).toEqual(expected);
  });

  it('is never mixed into the API document, and the API document has no /__mock path', () => {
    const api = JSON.parse(readFileSync(new URL('../spec/openapi.json', import.meta.url), 'utf8'));
    expect(Object.keys(api.paths).filter((p) => p.startsWith('/__mock'))).toEqual([]);
    expect(Object.keys(doc.paths).filter((p) => !p.startsWith('/__mock/'))).toEqual(['/oauth/authorize']);
    expect(Object.keys(api.paths).filter((p) => p.startsWith('/oauth/'))).toEqual([]);
  });

  it('every listed route is served (no 404/405)', async () => {
    const m = await mock({ stateFile: join(mkdtempSync(join(tmpdir(), 'mg-state-')), 'state.json') });
    const bodies: Record<string, unknown> = {
      'POST /__mock/clock/advance': { ms: 0 },
      'PUT /__mock/accounts/{apiKey}': { plan: 'paid' },
      'POST /__mock/scenarios': { delay: 0 },
      'POST /__mock/users': { name: 'Test User' },
    };
    const form = new FormData();
    form.append('files', new Blob(['x']), 'x.txt');
    // the event stream never ends by itself without taskId: read its status and leave
    const special: Record<string, () => Promise<number>> = {
      'GET /__mock/events': async () => (await readEventStream(m.base, '/__mock/events', { timeoutMs: 200 })).status,
      'POST /__mock/uploads': async () => (await fetch(`${m.base}/__mock/uploads`, { method: 'POST', body: form })).status,
      'POST /__mock/oauth/sessions/{sessionId}/authorize': async () => {
        const s = await m.call('POST', '/v1/oauth/login-sessions', { key: null, body: { callbackPort: 5000 } });
        return (await m.call('POST', `/__mock/oauth/sessions/${s.json.data.sessionId}/authorize`, { key: null, body: { newUserName: 'New' } })).status;
      },
      // served without --upstream too: it says how to start a proxy (10008); test/proxy.test.ts reads a real report
      ...Object.fromEntries(
        ['GET', 'DELETE'].map((method) => [
          `${method} /__mock/proxy/report`,
          async () => {
            const r = await m.call(method, '/__mock/proxy/report', { key: null });
            return r.status === 400 && r.json.code === 10008 ? 200 : r.status;
          },
        ]),
      ),
      'PUT /__mock/state': async () =>
        (await m.call('PUT', '/__mock/state', { key: null, body: (await m.call('GET', '/__mock/state', { key: null })).json })).status,
    };
    for (const route of expected) {
      const [method, path] = route.split(' ');
      if (special[route]) {
        expect(await special[route](), route).toBe(200);
        continue;
      }
      // the deletion (sorted first) takes another key, so the account routes still find theirs
      const res = await m.call(
        method,
        path
          .replace('{apiKey}', method === 'DELETE' ? OTHER_KEY : KEY)
          .replace('{kind}', 'image')
          .replace('{name}', 'worker-1')
          .replace('{id}', 'sc_1'),
        {
          key: null,
          ...(bodies[route] !== undefined ? { body: bodies[route] } : {}),
        },
      );
      expect(res.status, `${route}: ${res.text}`).toBe(200);
    }
  });
});
