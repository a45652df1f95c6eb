/**
 * The three lyrics operations through Prism's validation proxy (test/prism.ts):
 * every request goes client -> Prism (--errors, spec/openapi.yaml) -> a fresh
 * mock, and any violation in either direction fails the test. Create (202 with
 * success for musicA, pending for musicB), the task in every status (success
 * with one or two variants, a failed variant, failed with errorMessage after a
 * forced failure or the timeout), the list with its filters, the documented
 * errors the spec cannot rule out (38001 blank prompt, 38002, 38003, 38029 with
 * Retry-After, 10007), every Prefer-forced answer, and requests the spec itself
 * forbids (flagged by Prism, answered by the mock with 38001).
 */
import { describe, expect, it } from 'vitest';
import { errorCatalog } from '../schemas/errors.ts';
import { LYRICS_CREDITS, lyricsRateLimit, lyricsSchedule } from '../schemas/lyrics.ts';
import { operations, type OperationId } from '../schemas/operations.ts';
import type { OperationDef } from '../schemas/registry-types.ts';
import { type Body, lyricsBody, pathOf } from './factories.ts';
import {
  expectErrorEnvelope as expectError,
  expectForwarded,
  forcedCases,
  KEY,
  OTHER_KEY,
  usePrism,
  type MockHandle,
  type PrismHarness,
  viaSpecOrMock,
} from './prism.ts';

const prism = usePrism();

const EMOJI = '\u{1F3B5}';
const DONE_MS = lyricsSchedule.callbackMaxMs;
const TIMEOUT_MS = lyricsSchedule.pendingMs + lyricsSchedule.timeoutMs;

const ok = (method: string, path: string, opts: Parameters<PrismHarness['call']>[2] = {}, status = 200) => expectForwarded(prism, method, path, opts, status);
const musicB = (over: Body = {}) => lyricsBody({ provider: 'musicB', ...over });

const create = async (body: Body = lyricsBody(), headers: Record<string, string> = {}) => {
  const r = await ok('POST', pathOf('createLyricsTask'), { body, headers }, 202);
  expect(r.json).toEqual({ code: 0, message: expect.any(String), data: { taskId: expect.stringMatching(/^lyr_/), status: expect.any(String) } });
  return r.json.data as { taskId: string; status: string };
};
const getTask = async (id: string) => (await ok('GET', pathOf('getLyricsTask', { taskId: id }))).json.data;
const list = async (query: Record<string, string | number> = {}, key?: string) => (await ok('GET', pathOf('listLyricsTasks', {}, query), { key })).json.data;
const setCredits = (m: MockHandle, credits: number) => m.call('PUT', `/__mock/accounts/${KEY}`, { key: null, body: { credits } });

describe('/v1/lyrics through Prism', () => {
  it('musicA answers success with one variant; musicB pending, generating, then success with two; the list in every status', async () => {
    const m = prism.useMock({ rateLimit: false });
    const a = await create(lyricsBody({ prompt: EMOJI.repeat(200) }));
    expect(a.status).toBe('success');
    const ta = await getTask(a.taskId);
    expect(Object.keys(ta).sort()).toEqual(['createdAt', 'creditCost', 'id', 'params', 'provider', 'status', 'updatedAt', 'variants'].sort());
    expect(ta).toMatchObject({ provider: 'musicA', status: 'success', creditCost: LYRICS_CREDITS });
    expect(ta.variants).toHaveLength(1);

    const b = await create(musicB({ prompt: '夏天的海边' }));
    expect(b.status).toBe('pending');
    expect(await getTask(b.taskId)).toMatchObject({ provider: 'musicB', status: 'pending', variants: [], creditCost: 0 });
    await m.advance(lyricsSchedule.pendingMs);
    expect((await getTask(b.taskId)).status).toBe('generating');
    expect(await list({ status: 'generating' })).toMatchObject({ total: 1, page: 1, pageSize: 20 });
    await m.advance(DONE_MS);
    const tb = await getTask(b.taskId);
    expect(tb).toMatchObject({ status: 'success', creditCost: LYRICS_CREDITS });
    expect(tb.variants.map((v: { status: string }) => v.status)).toEqual(['complete', 'complete']);

    const page = await list({ status: 'success', page: 1, pageSize: 1 });
    expect(page).toMatchObject({ page: 1, pageSize: 1, total: 2 });
    expect(page.items[0]).toEqual(tb);
    expect(await list({ status: 'pending' })).toMatchObject({ items: [], total: 0 });
  });

  it('a failed variant, forced failures and the timeout: failed tasks carry errorMessage', async () => {
    const m = prism.useMock({ rateLimit: false });
    const partial = await create(musicB(), { prefer: 'outcome=partial' });
    const failedA = await create(lyricsBody(), { prefer: `outcome=failed, error=${errorCatalog.LYRICS_PROVIDER_REJECTED.code}` });
    expect(failedA.status).toBe('failed');
    const failedB = await create(musicB(), { prefer: 'outcome=failed' });
    const stuck = await create(musicB(), { prefer: 'outcome=stuck' });
    await m.advance(DONE_MS);
    const p = await getTask(partial.taskId);
    expect(p.status).toBe('success');
    expect(p.variants[1]).toMatchObject({ status: 'failed', text: '', errorMessage: expect.stringMatching(/^38005: /) });
    await m.advance(TIMEOUT_MS);
    const codes = [];
    for (const id of [failedA.taskId, failedB.taskId, stuck.taskId]) {
      const t = await getTask(id);
      expect(t).toMatchObject({ status: 'failed', variants: [], creditCost: 0, errorMessage: expect.any(String) });
      codes.push(Number(t.errorMessage.slice(0, 5)));
    }
    expect(codes).toEqual([38004, 38005, 38006]);
    expect((await list({ status: 'failed' })).total).toBe(3);
    expect((await m.call('GET', `/__mock/accounts/${KEY}`, { key: null })).json.credits).toBe(10_000 - LYRICS_CREDITS);
  });

  it('documented errors the spec cannot rule out: 38001 (blank), 38003, 38002, 10007', async () => {
    const m = prism.useMock({ rateLimit: false });
    const gen = (body: Body, headers: Record<string, string> = {}) => viaSpecOrMock(prism, 'POST', pathOf('createLyricsTask'), { body, headers });
    expectError(await gen(lyricsBody({ prompt: '   ' })), 'LYRICS_INVALID_PARAMETERS', 'prompt');
    expectError(await gen(lyricsBody(), { prefer: 'outcome=stuck' }), 'INVALID_PREFER', 'musicB');
    await setCredits(m, 1);
    expectError(await gen(musicB()), 'LYRICS_INSUFFICIENT_CREDITS');
    await setCredits(m, 10_000);
    const { taskId } = await create(musicB());
    expectError(await prism.call('GET', pathOf('getLyricsTask', { taskId }), { key: OTHER_KEY }), 'LYRICS_TASK_NOT_FOUND');
    expectError(await prism.call('GET', pathOf('getLyricsTask', { taskId: 'lyr_missing' })), 'LYRICS_TASK_NOT_FOUND');
    expect(await list({}, OTHER_KEY)).toMatchObject({ items: [], total: 0 });
  });

  it(`the request limit: 429 38029 with Retry-After on request ${lyricsRateLimit.limit + 1} of a minute`, async () => {
    prism.useMock();
    for (let i = 0; i < lyricsRateLimit.limit; i++) await create();
    const r = await prism.call('POST', pathOf('createLyricsTask'), { body: lyricsBody() });
    expectError(r, 'LYRICS_RATE_LIMITED');
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('every Prefer-forced answer of its three operations', async () => {
    prism.useMock();
    for (const id of ['createLyricsTask', 'getLyricsTask', 'listLyricsTasks'] as const) {
      const op = operations[id] as OperationDef;
      const path = pathOf(op.operationId as OperationId, { taskId: 'lyr_forced' });
      const body = op.request.body ? lyricsBody() : undefined;
      const cases = forcedCases(op);
      expect(cases.length, op.operationId).toBeGreaterThan(0);
      for (const c of cases) expectError(await prism.call(op.method.toUpperCase(), path, { body, headers: { prefer: c.prefer } }), c.error);
    }
  });

  it.each([
    ['prompt of 201 characters', () => lyricsBody({ prompt: 'x'.repeat(201) }), 'prompt'],
    ['prompt of 201 emoji', () => lyricsBody({ prompt: EMOJI.repeat(201) }), 'prompt'],
    ['prompt empty', () => lyricsBody({ prompt: '' }), 'prompt'],
    ['prompt missing', () => ({ provider: 'musicB' }), 'prompt'],
    ['provider musicC', () => lyricsBody({ provider: 'musicC' }), 'provider'],
  ] as [string, () => Body, string][])('generate, %s: Prism flags it; the mock answers 38001 naming it', async (_n, body, name) => {
    const m = prism.useMock({ rateLimit: false });
    const r = await prism.call('POST', pathOf('createLyricsTask'), { body: body(), allowViolations: true });
    expect(r.status, r.text.slice(0, 300)).toBe(422);
    expect(r.forwarded).toBe(false);
    expect(r.violations[0]).toMatchObject({ direction: 'request' });
    prism.takeViolations();
    expectError(await m.call('POST', pathOf('createLyricsTask'), { body: body() }), 'LYRICS_INVALID_PARAMETERS', name);
  });

  it.each([
    ['pageSize 101', { pageSize: 101 }, 'pageSize'],
    ['page 0', { page: 0 }, 'page'],
    ['status done', { status: 'done' }, 'status'],
  ])('list, %s: Prism flags it; the mock answers 38001 naming it', async (_n, query, name) => {
    const m = prism.useMock();
    const r = await prism.call('GET', pathOf('listLyricsTasks', {}, query), { allowViolations: true });
    expect(r.status).toBe(422);
    expect(r.forwarded).toBe(false);
    prism.takeViolations();
    expectError(await m.call('GET', pathOf('listLyricsTasks', {}, query)), 'LYRICS_INVALID_PARAMETERS', name);
  });
});
