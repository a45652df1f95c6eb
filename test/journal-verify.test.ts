/**
 * The journal as a verification tool (GET /__mock/requests and
 * /__mock/requests/count): filters by operationId, keyId, status and since,
 * limit, request bodies (JSON as sent, multipart as fields and file
 * summaries, cut beyond 4,096 characters) and response codes; bad filters
 * answer the control error naming the field.
 */
import { describe, expect, it } from 'vitest';
import { journalBody } from '../mock/core/journal-body.ts';
import { JOURNAL_BODY_CHARS } from '../schemas/control.ts';
import { errorCatalog } from '../schemas/errors.ts';
import { cloneForm, pathOf, videoBody } from './factories.ts';
import { KEY, OTHER_KEY, useMocks, type TestMock } from './helpers.ts';

const mock = useMocks();

const requests = async (m: TestMock, query = '') => (await m.call('GET', `/__mock/requests${query}`, { key: null })).json.items as Record<string, any>[];
const count = async (m: TestMock, query = '') => (await m.call('GET', `/__mock/requests/count${query}`, { key: null })).json.count as number;

describe('the journal as a verification tool', () => {
  it('filters by operationId, keyId, status and since; limit keeps the most recent; count agrees', async () => {
    const m = await mock();
    await m.call('POST', pathOf('createVideoTask'), { body: videoBody() });
    await m.call('POST', pathOf('createVideoTask'), { body: videoBody(), key: OTHER_KEY });
    await m.call('POST', pathOf('createVideoTask'), { body: { model: 'nope' } });
    await m.advance(60_000);
    const since = (await m.call('GET', '/__mock/clock', { key: null })).json.now as number;
    await m.call('GET', pathOf('getSubscription'));
    await m.call('GET', pathOf('getSubscription'), { key: null });

    const table: [string, number][] = [
      ['', 5],
      ['?operationId=createVideoTask', 3],
      ['?operationId=createVideoTask&keyId=test', 2],
      ['?operationId=createVideoTask&status=400', 1],
      ['?keyId=other', 1],
      ['?status=401', 1],
      [`?since=${since}`, 2],
      [`?since=${since}&status=200`, 1],
      ['?operationId=confirmVoiceClone', 0],
    ];
    for (const [q, n] of table) {
      expect(await count(m, q), q).toBe(n);
      expect(await requests(m, q), q).toHaveLength(n);
    }
    const last = await requests(m, '?operationId=createVideoTask&limit=2');
    expect(last.map((e) => e.keyId)).toEqual(['other', 'test']);
    expect(last[1]).toMatchObject({ status: 400, code: errorCatalog.VIDEO_UNSUPPORTED_COMBINATION.code, body: { model: 'nope' } });
    expect((await requests(m, '?operationId=createVideoTask'))[0].body).toEqual(videoBody());
  });

  it('multipart bodies are journaled as their fields with files summarized; long bodies are cut and flagged', async () => {
    const m = await mock();
    await m.call('POST', pathOf('createVoiceClone'), { body: cloneForm({ name: 'Narrator' }) });
    const [clone] = await requests(m, '?operationId=createVoiceClone');
    expect(clone.body).toMatchObject({
      language: 'en',
      consentConfirmed: true,
      name: 'Narrator',
      audioFiles: [{ filename: 'sample0.wav', mimeType: 'audio/wav', size: expect.any(Number) }],
    });
    expect(clone.bodyTruncated).toBeUndefined();

    const long = videoBody({ content: [{ type: 'text', text: 'x'.repeat(5000) }] });
    await m.call('POST', pathOf('createVideoTask'), { body: long });
    const [cut] = await requests(m, '?operationId=createVideoTask');
    expect(cut.bodyTruncated).toBe(true);
    expect(cut.body).toBe(JSON.stringify(long).slice(0, JOURNAL_BODY_CHARS));
  });

  // journalBody skips building the text of a body clearly under the cut: the result is the same as cutting the text
  const N = JOURNAL_BODY_CHARS;
  it.each([
    ['a small object', { model: 'm', duration: 5, content: [{ type: 'text', text: 'a cat' }], flag: true, none: null }],
    ['just under the cut', { text: 'x'.repeat(N - 11) }],
    ['exactly the cut', { text: 'x'.repeat(N - 10) }],
    ['one over the cut', { text: 'x'.repeat(N - 9) }],
    ['escapes that double the text', { text: '"'.repeat(N / 2) }],
    ['control characters (6-character escapes)', { text: '\u0001'.repeat(N / 6) }],
    ['many numbers', { n: Array.from({ length: N / 10 }, (_, i) => 1e21 + i) }],
    ['an array at the top', [1, 'two', { three: 3 }]],
    ['a string at the top', 'x'.repeat(N + 1)],
    ['a __proto__ key', JSON.parse('{"__proto__": {"a": 1}, "b": 2}') as unknown],
  ])('journalBody: %s', (_what, raw) => {
    const text = JSON.stringify(raw);
    expect(journalBody(raw)).toEqual(text.length > N ? { body: text.slice(0, N), bodyTruncated: true } : { body: raw });
  });

  it('a body nested deeper than JSON.stringify can go is still answered (400, not 500) and journaled as a note (found by the fuzzer)', async () => {
    const m = await mock();
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const res = await m.call('POST', pathOf('createFlowSpeechEpisode'), { raw: deep, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    const [entry] = await requests(m, '?operationId=createFlowSpeechEpisode');
    expect(entry).toMatchObject({ status: 400, bodyTruncated: true, body: expect.stringMatching(/too deeply/) });
  });

  it.each([['?status=abc'], ['?limit=0'], ['?since=soon'], ['?unknown=1']])('a bad filter (%s) is a control error naming it', async (q) => {
    const m = await mock();
    const res = await m.call('GET', `/__mock/requests${q}`, { key: null });
    expect([res.status, res.json.code]).toEqual([400, errorCatalog.CONTROL_INVALID_REQUEST.code]);
    expect(res.json.message).toContain(q.slice(1).split('=')[0]);
  });

  it('is per session', async () => {
    const m = await mock();
    await m.call('GET', pathOf('getSubscription'), { headers: { 'x-mock-session': 'a' } });
    expect(await count(m)).toBe(0);
    expect((await m.call('GET', '/__mock/requests/count', { key: null, headers: { 'x-mock-session': 'a' } })).json.count).toBe(1);
    expect(KEY).toMatch(/^mg_test_/);
  });
});
