/**
 * The journal's memory is bounded in bytes (docs/architecture.md, "The engine", Bounds;
 * mock/engine/journal.ts): a body is kept as a copy of its cut, never as a
 * view of the whole request text, and the default world's and every
 * session's journals together keep at most the journal's byte budget
 * (--journal-mb), response bodies included. The heap is measured with the garbage collector run first.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { JOURNAL_BODY_CHARS } from '../schemas/control.ts';
import { jsonAnswer } from '../mock/core/answer.ts';
import { journalResponse } from '../mock/core/front.ts';
import { journalBody } from '../mock/core/journal-body.ts';
import { createWorlds } from '../mock/core/worlds.ts';
import { DEFAULT_JOURNAL_BYTES } from '../mock/engine/engine.ts';
import { Journal } from '../mock/engine/journal.ts';
import { createFetchHandler } from '../mock/web/fetch.ts';
import { pathOf, videoBody } from './factories.ts';
import { KEY } from './helpers.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
/** Bytes of the heap in use after two full collections, with the memory of ArrayBuffers and Buffers (the journal keeps its entries there). */
function heapUsed(): number {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}
const MB = 1024 * 1024;

/** A distinct string of `mb` MiB (one byte a character), made at run time so V8 cannot share it. */
const bigText = (mb: number, tag: number) => `${tag}:${'z'.repeat(mb * MB)}`;

describe('journal bodies are copies of their cut', () => {
  it('a cut by slice keeps its parent alive (the measurement sees it); the journal keeps a copy of the cut', () => {
    const kept: string[] = [];
    const before = heapUsed();
    for (let i = 0; i < 8; i++) kept.push(bigText(8, i).slice(0, JOURNAL_BODY_CHARS));
    const bySlice = heapUsed() - before;
    kept.length = 0;
    const journal = new Journal(500);
    const before2 = heapUsed();
    for (let i = 0; i < 8; i++)
      journal.record({
        at: 0,
        method: 'POST',
        path: '/v1/x',
        operationId: null,
        keyId: 'k',
        status: 200,
        code: 0,
        body: bigText(8, i).slice(0, JOURNAL_BODY_CHARS),
      });
    const byJournal = heapUsed() - before2;
    expect(journal.list()[3].body).toBe(`3:${'z'.repeat(JOURNAL_BODY_CHARS - 2)}`);
    // 8 x 8 MiB retained by views; 8 x 4 KiB (plus noise) by the journal's copies
    expect(bySlice).toBeGreaterThan(48 * MB);
    expect(byJournal).toBeLessThan(8 * MB);
  });

  it('the journal gives back every UTF-16 unit of a body, a lone surrogate and an emoji too', () => {
    const s = `a\uD800b😀${'é'.repeat(5000)}\uDC00`;
    const journal = new Journal(500);
    journal.record({
      at: 0,
      method: 'POST',
      path: '/v1/é',
      operationId: null,
      keyId: null,
      status: 200,
      code: 0,
      body: { text: s },
      responseBody: [s, 'short'],
    });
    journal.record(
      { at: 1, method: 'GET', path: '/v1/x', operationId: null, keyId: null, status: 200, code: 0, responseBody: `{"text":"${'é😀'.repeat(100)}"}` },
      true,
    );
    const [first, second] = journal.list();
    expect(first).toMatchObject({ path: '/v1/é', body: { text: s }, responseBody: [s, 'short'] });
    expect(second.responseBody).toEqual({ text: 'é😀'.repeat(100) });
  });

  it('texts the journal is handed as they are (a response JSON text, a body) hold their own bytes, not the strings they were cut from', () => {
    const journal = new Journal(500);
    const record = (i: number) => {
      // a cut of an 8 MiB string (a slice shares its parent's memory in V8), handed over as the response's JSON text
      journal.recordParts(
        { at: 0, method: 'GET', path: '/v1/x', operationId: null, keyId: 'k', status: 200, code: 0 },
        undefined,
        `"${bigText(8, i).slice(0, 100)}"`,
        true,
      );
    };
    record(0);
    // from the first entry on (V8 may keep the last large string it made in a cache of its own)
    const before = heapUsed();
    for (let i = 1; i < 8; i++) record(i);
    const grown = heapUsed() - before;
    expect(journal.list()[7].responseBody).toBe(`7:${'z'.repeat(98)}`);
    // the parents, kept by views, would be 7 x 8 MiB
    expect(grown).toBeLessThan(4 * MB);
  });

  it('24 MiB bodies journaled 8 times hold kilobytes, not the bodies', () => {
    const journal = new Journal(500);
    const record = (i: number) => {
      // the body as JSON.parse hands it over: one long string member
      const { body, bodyTruncated } = journalBody({ prompt: bigText(24, i) });
      journal.record({ at: 0, method: 'POST', path: '/v1/x', operationId: null, keyId: 'k', status: 400, code: 10001, body, bodyTruncated });
    };
    record(0);
    // from the first entry on (V8 may keep the last large string it made in a cache of its own)
    const before = heapUsed();
    for (let i = 1; i < 8; i++) record(i);
    const grown = heapUsed() - before;
    expect(journal.length).toBe(8);
    expect(journal.list()[7]).toMatchObject({ bodyTruncated: true, body: expect.stringMatching(/^\{"prompt":"7:z+$/) });
    expect((journal.list()[7].body as string).length).toBe(JOURNAL_BODY_CHARS);
    // views of the bodies would hold 7 x 24 MiB
    expect(grown).toBeLessThan(8 * MB);
  });

  it('8 MiB response bodies journaled 8 times hold kilobytes, not the responses', () => {
    const journal = new Journal(500);
    const record = (i: number) => {
      // the answer as the transports write it: its JSON text made whole
      const response = journalResponse(jsonAnswer(200, { code: 0, message: '', data: { text: bigText(8, i) } }));
      journal.record({ at: 0, method: 'GET', path: '/v1/x', operationId: null, keyId: 'k', status: 200, code: 0, ...response });
    };
    record(0);
    const before = heapUsed();
    for (let i = 1; i < 8; i++) record(i);
    const grown = heapUsed() - before;
    expect(journal.length).toBe(8);
    expect(journal.list()[7]).toMatchObject({
      responseBodyTruncated: true,
      responseBody: expect.stringMatching(/^\{"code":0,"message":"","data":\{"text":"7:z+$/),
    });
    expect((journal.list()[7].responseBody as string).length).toBe(JOURNAL_BODY_CHARS);
    // views of the answers' texts would hold 7 x 8 MiB
    expect(grown).toBeLessThan(8 * MB);
  });
});

describe('the journal byte budget', () => {
  it('drops the oldest entries past maxBytes, keeps the newest, and counts what it keeps', () => {
    const j = new Journal(500, 40_000);
    for (let i = 0; i < 30; i++)
      j.record({ at: i, method: 'POST', path: '/p', operationId: null, keyId: null, status: 200, code: null, body: 'b'.repeat(4000) + i });
    // an entry costs a little over 8,000 bytes (two a character): four fit
    expect(j.length).toBe(4);
    expect(j.bytes).toBeLessThanOrEqual(40_000);
    expect(j.list().map((e) => e.seq)).toEqual([27, 28, 29, 30]);
    expect(j.total).toBe(30);
    // a response body takes its share of the same budget, and goes first: with one as long as the request (8 KB
    // each), the newest entry whole (16 KB) and two older requests without their responses (8 KB each) fit in 40 KB
    const both = new Journal(500, 40_000);
    for (let i = 0; i < 30; i++)
      both.record({
        at: i,
        method: 'POST',
        path: '/p',
        operationId: null,
        keyId: null,
        status: 200,
        code: 0,
        body: 'b'.repeat(4000) + i,
        responseBody: { text: 'r'.repeat(4000) },
      });
    expect(both.list().map((e) => [e.seq, e.responseDropped ?? false])).toEqual([
      [28, true],
      [29, true],
      [30, false],
    ]);
    expect(both.bytes).toBeLessThanOrEqual(40_000);
    // a described body (audio) costs its description
    const media = new Journal(500, 40_000);
    for (let i = 0; i < 30; i++)
      media.record({
        at: i,
        method: 'POST',
        path: '/p',
        operationId: null,
        keyId: null,
        status: 200,
        code: null,
        body: 'b'.repeat(4000) + i,
        responseMedia: 'audio/mpeg, 53,812 bytes',
      });
    expect(media.length).toBe(4);
    const tiny = new Journal(500, 10);
    tiny.record({ at: 0, method: 'GET', path: '/p', operationId: null, keyId: null, status: 200, code: null });
    tiny.record({ at: 0, method: 'GET', path: '/q', operationId: null, keyId: null, status: 200, code: null });
    expect(tiny.list().map((e) => e.path)).toEqual(['/q']);
  });

  it('the default is tens of MB for the whole process', () => {
    expect(DEFAULT_JOURNAL_BYTES).toBeGreaterThanOrEqual(10 * MB);
    expect(DEFAULT_JOURNAL_BYTES).toBeLessThanOrEqual(64 * MB);
  });

  it('large bodies across many sessions stay within the budget; dropping the sessions frees their bytes', async () => {
    const budget = 2 * MB;
    const sessions = 16;
    const worlds = createWorlds({
      engine: { clock: 'manual', seed: 1, rateLimit: false, limits: { journalBytes: budget } },
      maxSessions: sessions,
      runner: () => ({ strict: false, control: { anyOrigin: true } }),
    });
    const handle = createFetchHandler({}, worlds);
    const before = heapUsed();
    for (let s = 0; s < sessions; s++)
      for (let i = 0; i < 12; i++) {
        const body = JSON.stringify(videoBody({ prompt: `${s}/${i}:${'w'.repeat(200_000)}` }));
        const r = await handle(
          new Request(`http://mock.test/sessions/s${s}${pathOf('createVideoTask')}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
            body,
          }),
        );
        expect(r.status).toBeLessThan(500);
        await r.arrayBuffer();
      }
    expect(worlds.list()).toHaveLength(sessions);
    expect(worlds.journalBytes()).toBeLessThanOrEqual(budget);
    for (const { name } of worlds.list()) {
      const j = worlds.existing(name)!.engine.journal;
      // a session's part, 2 MiB / 2 / 16 = 64 KiB, holds 7 entries of a 4,096-character cut
      expect(j.bytes).toBeLessThanOrEqual(budget / 2 / sessions);
      expect(j.length).toBe(7);
      expect(j.total).toBe(12);
      expect(j.list().every((e) => e.status === 200 && e.bodyTruncated)).toBe(true);
    }
    const filled = heapUsed() - before;
    // 192 bodies of 200 KB went through: what stays is the journals' part
    expect(filled).toBeLessThan(budget * 4 + 4 * MB);
    for (const { name } of worlds.list()) worlds.drop(name);
    expect(worlds.journalBytes()).toBe(worlds.main.engine.journal.bytes);
    expect(heapUsed() - before).toBeLessThan(filled);
  });
});
