/**
 * The journal keeps each API request's response body (docs/guides/control-api.md, "Verifying calls: the journal";
 * mock/core/front.ts, journalResponse): the JSON the client received, cut beyond JOURNAL_BODY_CHARS characters of
 * its text as a request body is, and a body that is not JSON described by its media type and size. Over HTTP (the
 * Express server) and through the fetch handler, read back through the control API's journal operation. The
 * expected values are what the client itself received.
 */
import { describe, expect, it } from 'vitest';
import { JOURNAL_BODY_CHARS } from '../schemas/control.ts';
import { createFetchHandler } from '../mock/web/fetch.ts';
import { imageBody, pathOf, textItem, ttsBody, videoBody } from './factories.ts';
import { KEY, useMocks } from './helpers.ts';

const mock = useMocks();

/** The description a body that is not JSON gets, from what the client received: its type and length, or "streamed" when sent chunked. */
function described(contentType: string | null, contentLength: string | null): string {
  return contentLength === null ? `${contentType}, streamed` : `${contentType}, ${Number(contentLength).toLocaleString('en-US')} bytes`;
}

describe('response bodies in the journal, over HTTP', () => {
  it('a created task, a refused request and a read each carry the JSON their client received', async () => {
    const m = await mock();
    const created = await m.call('POST', pathOf('createImageTask'), { body: imageBody() });
    expect(created.status).toBe(202);
    const refused = await m.call('POST', pathOf('createImageTask'), { body: imageBody(), headers: { prefer: 'code=429' } });
    expect(refused.status).toBe(429);
    const taskId = created.json.data.taskId as string;
    const read = await m.call('GET', pathOf('getImageTask', { taskId }));
    expect(read.status).toBe(200);
    const journal = await m.call('GET', '/__mock/requests', { key: null });
    const items = journal.json.items as { status: number; responseBody?: unknown; responseBodyTruncated?: boolean; responseMedia?: string }[];
    expect(items.map((e) => e.status)).toEqual([202, 429, 200]);
    expect(items[0].responseBody).toEqual(created.json);
    expect(items[1].responseBody).toEqual(refused.json);
    expect(items[1].responseBody).toMatchObject({ data: null });
    expect(items[2].responseBody).toEqual(read.json);
    for (const e of items) expect(e.responseBodyTruncated === undefined && e.responseMedia === undefined).toBe(true);
  });

  it("a response longer than the cut keeps its text's first characters, marked cut", async () => {
    const m = await mock();
    // five video tasks whose prompts the list echoes: several times the cut (an ASCII text: its characters are its code units)
    for (let i = 0; i < 5; i++) {
      const created = await m.call('POST', pathOf('createVideoTask'), { body: videoBody({ content: [textItem(`${i} ${'a fox in the snow '.repeat(80)}`)] }) });
      expect(created.status, created.text).toBe(200);
    }
    const list = await m.call('GET', pathOf('listVideoTasks', {}, { pageSize: 5 }));
    expect(list.status).toBe(200);
    expect(list.text.length).toBeGreaterThan(2 * JOURNAL_BODY_CHARS);
    const [entry] = (await m.call('GET', '/__mock/requests?operationId=listVideoTasks', { key: null })).json.items;
    expect(entry.responseBodyTruncated).toBe(true);
    expect(entry.responseBody).toBe(list.text.slice(0, JOURNAL_BODY_CHARS));
  });

  it('audio is described by its media type and size, never kept', async () => {
    const m = await mock();
    const tts = await m.call('POST', pathOf('synthesizeSpeech'), { body: ttsBody() });
    expect(tts.status).toBe(200);
    const [entry] = (await m.call('GET', '/__mock/requests?operationId=synthesizeSpeech', { key: null })).json.items;
    expect(entry.responseBody).toBeUndefined();
    expect(entry.responseMedia).toBe(described(tts.headers.get('content-type'), tts.headers.get('content-length')));
    expect(entry.responseMedia).toMatch(/^audio\/mpeg, /);
  });
});

describe('response bodies in the journal, through the fetch handler', () => {
  it('a created task and its audio, read back through the control API', async () => {
    const handle = createFetchHandler({ clock: 'manual', seed: 1 });
    const send = (path: string, body?: unknown, headers: Record<string, string> = {}) =>
      handle(
        new Request(`http://mock.test${path}`, {
          method: body === undefined ? 'GET' : 'POST',
          headers: { authorization: `Bearer ${KEY}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
          body: body === undefined ? undefined : JSON.stringify(body),
        }),
      );
    const created = await send(pathOf('createImageTask'), imageBody());
    const createdJson = (await created.json()) as unknown;
    const tts = await send(pathOf('synthesizeSpeech'), ttsBody());
    const audio = new Uint8Array(await tts.arrayBuffer());
    expect(audio.byteLength).toBeGreaterThan(1000);
    const journal = (await (await handle(new Request('http://mock.test/__mock/requests'))).json()) as { items: Record<string, unknown>[] };
    expect(journal.items).toHaveLength(2);
    expect(journal.items[0].responseBody).toEqual(createdJson);
    expect(journal.items[1].responseBody).toBeUndefined();
    expect(journal.items[1].responseMedia).toBe(described(tts.headers.get('content-type'), tts.headers.get('content-length')));
  });
});
