/**
 * What an answer says about itself: a forced error names what forced it (the
 * Prefer header, the query string, or the scenario rule by id); a request
 * refused before its body was read (its Prefer header, a forced error, a
 * missing key) still has its body in the journal, and an observer's read
 * (the dashboard's) is not journaled; and a value breaking one
 * rule gets one message (the model's narrower range, not the field's too).
 * Over HTTP (the Express server) and through the fetch handler.
 */
import { describe, expect, it } from 'vitest';
import { errorCatalog } from '../schemas/errors.ts';
import { createFetchHandler } from '../mock/web/fetch.ts';
import { pathOf, videoBody } from './factories.ts';
import { KEY, useMocks } from './helpers.ts';

const mock = useMocks();
/** The status of 31004 (VIDEO_INSUFFICIENT_CREDITS), as the catalog transcribes it. */
const CREDITS = errorCatalog.VIDEO_INSUFFICIENT_CREDITS.httpStatus;

describe('a forced answer names what forced it', () => {
  it('the Prefer header, the query string, a scenario rule by its id', async () => {
    const m = await mock();
    const prefer = await m.call('GET', pathOf('getSubscription'), { headers: { prefer: 'code=401' } });
    expect(prefer.status).toBe(401);
    expect(prefer.json.message).toMatch(/^forced by Prefer code=401: /);
    const query = await m.call('GET', `${pathOf('getSubscription')}?__code=401`);
    expect(query.json.message).toMatch(/^forced by \?__code=401: /);

    const rule = await m.call('POST', '/__mock/scenarios', { key: null, body: { operationId: 'createVideoTask', error: 31004 } });
    expect(rule.status, rule.text).toBe(200);
    const byRule = await m.call('POST', pathOf('createVideoTask'), { body: videoBody() });
    expect(byRule.json.code).toBe(31004);
    expect(byRule.json.message).toMatch(new RegExp(`^forced by scenario ${rule.json.id} \\(error=31004[^)]*\\): `));
    expect(byRule.json.message).not.toContain('Prefer');

    const codeRule = await m.call('POST', '/__mock/scenarios', { key: null, body: { operationId: 'getSubscription', code: 401 } });
    const byCodeRule = await m.call('GET', pathOf('getSubscription'));
    expect(byCodeRule.json.message).toMatch(new RegExp(`^forced by scenario ${codeRule.json.id} \\(code=401\\): `));
  });
});

describe('the journal has the body of a request refused before reading it', () => {
  const body = videoBody({ duration: 5 });

  it('an invalid Prefer, a forced error, a missing key, over HTTP', async () => {
    const m = await mock();
    await m.call('POST', pathOf('createVideoTask'), { body, headers: { prefer: 'code=418' } });
    await m.call('POST', pathOf('createVideoTask'), { body, headers: { prefer: 'error=31004' } });
    await m.call('POST', pathOf('createVideoTask'), { body, key: null });
    await m.call('POST', pathOf('createVideoTask'), { raw: '{not json', headers: { 'content-type': 'application/json', prefer: 'code=418' } });
    const journal = await m.call('GET', '/__mock/requests', { key: null });
    expect(journal.json.items.map((e: { status: number; code: number; body?: unknown }) => [e.status, e.code, e.body])).toEqual([
      [400, 10007, body],
      [CREDITS, 31004, body],
      [401, 10001, body],
      // a body that is not JSON has no value to record
      [400, 10007, undefined],
    ]);
  });

  it('the same through the fetch handler', async () => {
    const handle = createFetchHandler({ clock: 'manual' });
    const send = (prefer: string) =>
      handle(
        new Request(`http://mock.test${pathOf('createVideoTask')}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', prefer },
          body: JSON.stringify(body),
        }),
      );
    expect((await send('code=418')).status).toBe(400);
    expect((await send('error=31004')).status).toBe(CREDITS);
    const journal = (await (await handle(new Request('http://mock.test/__mock/requests'))).json()) as { items: { body?: unknown }[] };
    expect(journal.items.map((e) => e.body)).toEqual([body, body]);
  });
});

describe("an observer's read (X-Mock-Observer, the dashboard's) is not journaled", () => {
  it('over HTTP and through the fetch handler', async () => {
    const m = await mock();
    await m.call('GET', pathOf('getSubscription'));
    await m.call('GET', pathOf('getSubscription'), { headers: { 'x-mock-observer': 'dashboard' } });
    expect((await m.call('GET', '/__mock/requests/count', { key: null })).json.count).toBe(1);

    const handle = createFetchHandler({ clock: 'manual' });
    const read = (headers: Record<string, string>) =>
      handle(new Request(`http://mock.test${pathOf('getSubscription')}`, { headers: { authorization: `Bearer ${KEY}`, ...headers } }));
    expect((await read({})).status).toBe(200);
    expect((await read({ 'x-mock-observer': 'dashboard' })).status).toBe(200);
    expect(((await (await handle(new Request('http://mock.test/__mock/requests/count'))).json()) as { count: number }).count).toBe(1);
  });
});

describe('one message per rule broken', () => {
  it('duration 99 on family1-video-2-fast: the model range (4-15) only, not the field range (<=30) too', async () => {
    const m = await mock();
    const r = await m.call('POST', pathOf('createVideoTask'), { body: videoBody({ model: 'family1-video-2-fast', duration: 99 }) });
    expect(r.status).toBe(400);
    expect(r.json.code).toBe(31002);
    expect(r.json.message).toBe('duration: duration 99 is outside 4-15 for family1-video-2-fast');
  });

  it('two rules broken still give two messages (a choice outside its set, then the field range: the model rules wait for a valid body)', async () => {
    const m = await mock();
    const r = await m.call('POST', pathOf('createVideoTask'), { body: videoBody({ model: 'family1-video-2-fast', duration: 99, ratio: '5:7' }) });
    expect(r.status).toBe(400);
    const parts = r.json.message.split('; ');
    expect(parts).toHaveLength(2);
    expect(parts[0]).toMatch(/^ratio: /);
    expect(parts[1]).toMatch(/^duration: .*30/);
  });
});
