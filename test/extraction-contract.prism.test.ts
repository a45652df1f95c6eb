/**
 * The two extraction operations through Prism's validation proxy
 * (test/prism.ts): a task processing (three fields), completed for each kind
 * of URL, failed; the documented errors the spec cannot rule out; every
 * Prefer-forced answer; requests the spec itself forbids.
 */
import { describe, expect, it } from 'vitest';
import { operations, type OperationId } from '../schemas/operations.ts';
import type { OperationDef } from '../schemas/registry-types.ts';
import { type Body, extractBody, pathOf } from './factories.ts';
import { expectErrorEnvelope as expectError, expectForwarded, forcedCases, KEY, OTHER_KEY, usePrism } from './prism.ts';

const prism = usePrism();

const create = async (body: Body, headers: Record<string, string> = {}) =>
  (await expectForwarded(prism, 'POST', pathOf('createExtraction'), { body, headers })).json.data.taskId as string;
const read = async (id: string) => (await expectForwarded(prism, 'GET', pathOf('getExtraction', { taskId: id }))).json;

describe('content extraction through Prism', () => {
  it('processing, then completed for every kind of URL; a forced failure', async () => {
    const m = prism.useMock();
    const urls = ['https://example.com/a-b', 'https://x.com/someone', 'https://x.com/someone/status/1', 'https://youtu.be/abc', 'https://mp.weixin.qq.com/s/x'];
    const ids = [];
    for (const u of urls) ids.push(await create(extractBody(u, { summarize: true, twitter: { count: 2 } })));
    const failed = await create(extractBody(), { prefer: 'outcome=failed' });
    expect(Object.keys((await read(ids[0])).data).sort()).toEqual(['createdAt', 'status', 'taskId']);
    await m.advance(60_000);
    for (const id of ids) {
      const r = await read(id);
      expect(r.data.status).toBe('completed');
      expect(r.message.length).toBeGreaterThan(0);
    }
    expect((await read(failed)).data).toMatchObject({ status: 'failed', failCode: 41008 });
  });

  it('documented errors the spec cannot rule out: 41002, 41003', async () => {
    const m = prism.useMock();
    const id = await create(extractBody());
    expectError(await prism.call('GET', pathOf('getExtraction', { taskId: id }), { key: OTHER_KEY }), 'EXTRACTION_TASK_NOT_FOUND');
    await m.call('PUT', `/__mock/accounts/${KEY}`, { key: null, body: { credits: 0 } });
    expectError(await prism.call('POST', pathOf('createExtraction'), { body: extractBody() }), 'EXTRACTION_INSUFFICIENT_CREDITS');
  });

  it('every Prefer-forced answer of the two operations', async () => {
    prism.useMock();
    for (const id of ['createExtraction', 'getExtraction'] as OperationId[]) {
      const op = operations[id] as OperationDef;
      const path = pathOf(id, { taskId: '0'.repeat(24) });
      const body = id === 'createExtraction' ? extractBody() : undefined;
      for (const c of forcedCases(op)) expectError(await prism.call(op.method.toUpperCase(), path, { body, headers: { prefer: c.prefer } }), c.error);
    }
  });

  it.each([
    ['source.type file', { source: { type: 'file', uri: 'https://example.com/' } }, 'source.type'],
    ['maxLength 500001', extractBody(undefined, { maxLength: 500_001 }), 'options.maxLength'],
    ['twitter.count 0', extractBody(undefined, { twitter: { count: 0 } }), 'options.twitter.count'],
  ] as [string, Body, string][])('%s: Prism flags it; the mock answers 41001 naming it', async (_what, body, field) => {
    const m = prism.useMock();
    const r = await prism.call('POST', pathOf('createExtraction'), { body, allowViolations: true });
    expect(r.status, r.text.slice(0, 300)).toBe(422);
    expect(r.forwarded).toBe(false);
    prism.takeViolations();
    expectError(await m.call('POST', pathOf('createExtraction'), { body }), 'EXTRACTION_INVALID_PARAMETERS', field);
  });
});
