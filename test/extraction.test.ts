/**
 * Content extraction on the manual clock (document 3, "Extraction task",
 * "Content extraction", "Limits"): the request rules at their boundaries;
 * processing with only taskId, status and createdAt, then completed with
 * data, credits and a success message; each kind of URL recognisable;
 * summarize and maxLength; the hold replaced by the final charge in the
 * ledger; forced failures and stalls refunded in full; owner scoping.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { errorCatalog, type ErrorName } from '../schemas/errors.ts';
import { extractionCredits, extractionPricing, extractionSchedule } from '../schemas/extraction.ts';
import { type Body, extractBody, pathOf } from './factories.ts';
import { type CallResult, OTHER_KEY, type TestMock, useMocks } from './helpers.ts';

const start = useMocks();
let m: TestMock;
beforeEach(async () => {
  m = await start();
});

function expectError(r: CallResult, name: ErrorName) {
  const e = errorCatalog[name];
  expect(r.status, r.text).toBe(e.httpStatus);
  expect(r.json, r.text).toEqual({ code: e.code, message: expect.any(String), data: null });
}

const create = async (body: Body = extractBody(), headers: Record<string, string> = {}) => {
  const r = await m.call('POST', pathOf('createExtraction'), { body, headers });
  expect(r.status, r.text).toBe(200);
  expect(r.json.data.taskId).toMatch(/^[0-9a-f]{24}$/);
  return r.json.data.taskId as string;
};
const read = (id: string, key?: string) => m.call('GET', pathOf('getExtraction', { taskId: id }), key ? { key } : {});
const done = async (id: string) => {
  await m.advance(extractionSchedule.maxMs);
  const r = await read(id);
  expect(r.status, r.text).toBe(200);
  return r.json;
};
const ledgerOf = async (id: string) =>
  ((await m.call('GET', '/__mock/accounts/mg_test_secret1', { key: null })).json.ledger as { type: string; amount: number; taskId: string }[])
    .filter((e) => e.taskId === id)
    .map((e) => [e.type, e.amount]);
const chars = (s: string) => [...s].length;

describe('request rules', () => {
  it.each([
    ['source missing', {}, 'source'],
    ['source.type file', { source: { type: 'file', uri: 'https://example.com/' } }, 'source.type'],
    ['source.uri missing', { source: { type: 'url' } }, 'source.uri'],
    ['source.uri not http', { source: { type: 'url', uri: 'ftp://example.com/a' } }, 'source.uri'],
    ['maxLength 0', extractBody(undefined, { maxLength: 0 }), 'options.maxLength'],
    ['maxLength 500001', extractBody(undefined, { maxLength: 500_001 }), 'options.maxLength'],
    ['maxLength 1.5', extractBody(undefined, { maxLength: 1.5 }), 'options.maxLength'],
    ['twitter.count 0', extractBody(undefined, { twitter: { count: 0 } }), 'options.twitter.count'],
    ['twitter.count 101', extractBody(undefined, { twitter: { count: 101 } }), 'options.twitter.count'],
    ['summarize "yes"', extractBody(undefined, { summarize: 'yes' }), 'options.summarize'],
  ])('%s -> 400 (41001) naming %s, nothing held', async (_what, body, field) => {
    const r = await m.call('POST', pathOf('createExtraction'), { body });
    expectError(r, 'EXTRACTION_INVALID_PARAMETERS');
    expect(r.json.message).toContain(field);
    expect(
      (await m.call('GET', '/__mock/accounts/mg_test_secret1', { key: null })).json.ledger.filter((e: { type: string }) => e.type === 'reserve'),
    ).toHaveLength(0);
  });

  it.each([
    ['maxLength 1', { maxLength: 1 }],
    ['maxLength 500000', { maxLength: 500_000 }],
    ['twitter.count 1', { twitter: { count: 1 } }],
    ['twitter.count 100', { twitter: { count: 100 } }],
    ['no options', undefined],
  ])('accepted: %s', async (_what, options) => {
    await create(extractBody(undefined, options));
  });

  it('a short balance -> 402 (41003), nothing held', async () => {
    await m.call('PUT', '/__mock/accounts/mg_test_secret1', { key: null, body: { credits: extractionPricing.holdCredits - 1 } });
    expectError(await m.call('POST', pathOf('createExtraction'), { body: extractBody() }), 'EXTRACTION_INSUFFICIENT_CREDITS');
  });
});

describe('lifecycle and money', () => {
  it('processing shows only taskId, status and createdAt, with a success text; completed has data, credits and a success message; the hold is replaced by the final charge', async () => {
    const id = await create();
    const processing = await read(id);
    // a success envelope carries a short success text while processing too (document 3, "Content extraction")
    expect(processing.json).toEqual({ code: 0, message: 'processing', data: { taskId: id, status: 'processing', createdAt: 1767225600000 } });
    const r = await done(id);
    expect(r.message).toMatch(/^extracted [\d,]+ characters$/);
    expect(r.data).toMatchObject({ taskId: id, status: 'completed', createdAt: 1767225600000 });
    const { content, metadata, references } = r.data.data;
    expect(metadata).toMatchObject({
      kind: 'web-article',
      url: extractBody().source && 'https://example.com/blog/why-mock-servers-help',
      title: 'Why mock servers help',
    });
    expect(content.startsWith('Why mock servers help')).toBe(true);
    for (const ref of references) expect(content).toContain(ref);
    expect(r.data.credits).toBe(extractionCredits(chars(content)));
    // the hold is captured at the final charge and the rest released
    expect(await ledgerOf(id)).toEqual([
      ['reserve', -extractionPricing.holdCredits],
      ['capture', 0],
      ['release', extractionPricing.holdCredits - r.data.credits],
    ]);
  });

  it('finishes within 10-30 s, at a time fixed by the URL', async () => {
    const id = await create();
    await m.advance(extractionSchedule.minMs - 1);
    expect((await read(id)).json.data.status).toBe('processing');
    await m.advance(extractionSchedule.maxMs - extractionSchedule.minMs + 1);
    expect((await read(id)).json.data.status).toBe('completed');
  });

  it.each([
    ['outcome=failed', 41008],
    ['outcome=failed, error=41009', 41009],
  ])('%s: failed with failCode %i and a message, every credit refunded', async (prefer, failCode) => {
    const id = await create(extractBody(), { prefer });
    const r = await done(id);
    expect(r.data).toEqual({ taskId: id, status: 'failed', createdAt: expect.any(Number), failCode, message: expect.any(String) });
    expect(await ledgerOf(id)).toEqual([
      ['reserve', -extractionPricing.holdCredits],
      ['release', extractionPricing.holdCredits],
    ]);
  });

  it('outcome=stuck keeps it processing until the 10-minute timeout (41010), refunded', async () => {
    const id = await create(extractBody(), { prefer: 'outcome=stuck' });
    await m.advance(extractionSchedule.timeoutMs - 1);
    expect((await read(id)).json.data.status).toBe('processing');
    await m.advance(1);
    expect((await read(id)).json.data).toMatchObject({ status: 'failed', failCode: 41010 });
  });

  it("another key's task, or an unknown id, is not found (404, 41002)", async () => {
    const id = await create();
    expectError(await read(id, OTHER_KEY), 'EXTRACTION_TASK_NOT_FOUND');
    expectError(await read('0'.repeat(24)), 'EXTRACTION_TASK_NOT_FOUND');
  });
});

describe('content', () => {
  it.each([1, 20, 100])('a microblog profile delivers exactly twitter.count posts (%i)', async (count) => {
    const r = await done(await create(extractBody('https://x.com/mockfan', { twitter: { count } })));
    const { content, metadata } = r.data.data;
    expect(metadata).toMatchObject({ kind: 'microblog-profile', postCount: count });
    expect(content.split('\n').filter((l: string) => /^\d+\. \[\d{4}-\d\d-\d\d\] /.test(l))).toHaveLength(count);
    expect(content.startsWith('@mockfan')).toBe(true);
  });

  it('twitter.count is ignored for other URLs', async () => {
    const a = await done(await create(extractBody('https://example.com/a-b-c', { twitter: { count: 3 } })));
    const b = await done(await create(extractBody('https://example.com/a-b-c', { twitter: { count: 90 } })));
    expect(a.data.data.content).toBe(b.data.data.content);
  });

  it.each([
    ['https://x.com/mockfan/status/123', 'microblog-post', /^@mockfan: .*\n\nReplies:\n/s],
    ['https://twitter.com/mockfan/status/9', 'microblog-post', /^@mockfan: /],
    ['https://www.youtube.com/watch?v=abc123', 'video', /\n\nTranscript:\n\[00:00\] .*\n\[00:15\] /s],
    ['https://youtu.be/abc123', 'video', /Transcript:/],
    ['https://www.bilibili.com/video/BV1xx', 'video', /Transcript:/],
    ['https://mp.weixin.qq.com/s/abcdef', 'official-account-article', /\p{Script=Han}/u],
    ['https://blog.example.com/why-mocks-help', 'web-article', /^Why mocks help\n\n/],
  ])('%s is a %s', async (url, kind, shape) => {
    const r = await done(await create(extractBody(url)));
    expect(r.data.data.metadata.kind).toBe(kind);
    expect(r.data.data.content).toMatch(shape);
    if (kind === 'video') expect(r.data.data.metadata.durationSeconds).toBeGreaterThan(0);
  });

  it('summarize gives a shorter text; maxLength cuts it (and the credits follow what is delivered); the same URL gives the same page', async () => {
    const full = (await done(await create(extractBody()))).data.data.content as string;
    const summary = (await done(await create(extractBody(undefined, { summarize: true })))).data.data.content as string;
    expect(summary.startsWith('Summary: ')).toBe(true);
    expect(chars(summary)).toBeLessThan(chars(full) / 2);
    const cut = (await done(await create(extractBody(undefined, { maxLength: 100 })))).data;
    expect(cut.data.content).toBe([...full].slice(0, 100).join(''));
    expect(cut.credits).toBe(1);
    const one = (await done(await create(extractBody(undefined, { maxLength: 1 })))).data.data.content;
    expect(chars(one)).toBe(1);
    expect((await done(await create(extractBody()))).data.data.content).toBe(full);
  });
});
