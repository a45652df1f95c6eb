/**
 * Every rule of the video sections of document 1 as a table: one row per
 * request, with the expected outcome (ok, or the catalogued error and the field
 * path it names). Each row runs twice: at schema level, through the router's own
 * `parseOrThrow` (so the catalogued error is picked exactly as the HTTP adapter
 * picks it), and over HTTP against a fresh mock (HTTP status, envelope code, and
 * a message that names the field).
 *
 * Seed: document 1, "Video models", "Content items (shared video endpoint)",
 * "Video: create task (shared)" incl. "Model limits", "Video: list tasks",
 * "Video: estimate (shared)", "Video: family5 create" incl. the options table
 * and "Capability rules", "Video: family5 estimate", "Errors", "Limits".
 * The numeric codes of the shared endpoint are assumed (the seed says "not
 * shown"); the family5 codes 32004 and 32006 are the seed's.
 *
 * The rows: test/video-rule-cases.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCatalog } from '../schemas/errors.ts';
import { operations } from '../schemas/operations.ts';
import type { OperationDef } from '../schemas/registry-types.ts';
import { CreateFamily5VideoTaskRequest, CreateVideoTaskRequest, family5Defaults } from '../schemas/video.ts';
import { ApiError } from '../mock/engine/api-error.ts';
import { issuePath, parseOrThrow } from '../mock/core/validate.ts';
import { family5Body, pathOf, videoBody } from './factories.ts';
import { KEY, startMock, type TestMock } from './helpers.ts';
import { type Expect, type Row, sharedRows } from './video-rule-cases.ts';
import { estimateRows, family5EstimateRows, family5Rows, listRows, valid } from './video-family5-cases.ts';

// ---------------------------------------------------------------------------
// Runner
// ---------------------------------------------------------------------------

interface Suite {
  title: string;
  op: OperationDef;
  where: 'body' | 'query';
  rows: Row[];
}

const suite = (op: OperationDef, where: Suite['where'], rows: Row[]): Suite => ({ title: `${op.method.toUpperCase()} ${op.path}`, op, where, rows });
const suites: Suite[] = [
  suite(operations.createVideoTask, 'body', sharedRows),
  suite(operations.createFamily5VideoTask, 'body', family5Rows),
  suite(operations.estimateVideoCredits, 'body', estimateRows),
  suite(operations.estimateFamily5Credits, 'body', family5EstimateRows),
  suite(operations.listVideoTasks, 'query', listRows),
];

/** Schema-level outcome, picked exactly as the router picks it: ok, or [catalogued error, path of the first issue]. */
function schemaOutcome(op: OperationDef, where: 'body' | 'query', input: unknown): Expect {
  const schema = (where === 'body' ? op.request.body?.schema : op.request.query)!;
  try {
    parseOrThrow(op, schema, input, where);
    return 'ok';
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    const r = schema.safeParse(input);
    if (r.success) throw new Error('parseOrThrow threw but safeParse succeeded', { cause: e });
    return [e.error, issuePath(where, r.error.issues[0].path)];
  }
}

for (const s of suites) {
  describe(`${s.title}: rules at schema level`, () => {
    it.each(s.rows.map((r) => [r.name, r] as const))('%s', (_name, row) => {
      expect(schemaOutcome(s.op, s.where, row.input)).toEqual(row.expect);
    });
  });
}

describe('rules over HTTP', () => {
  let mock: TestMock;
  beforeAll(async () => {
    // Rate limit off: this suite sends hundreds of generate requests (the limit has its own tests).
    mock = await startMock({ rateLimit: false });
    const r = await mock.call('PUT', `/__mock/accounts/${KEY}`, { key: null, body: { credits: 100_000_000 } });
    expect(r.status).toBe(200);
  });
  afterAll(async () => {
    expect(mock.bugs).toEqual([]);
    await mock.close();
  });

  for (const s of suites) {
    describe(s.title, () => {
      it.each(s.rows.filter((r) => !r.schemaOnly).map((r) => [r.name, r] as const))('%s', async (_name, row) => {
        const path = s.op.path;
        const res =
          s.where === 'body'
            ? await mock.call(s.op.method.toUpperCase(), path, { body: row.input })
            : await mock.call('GET', `${path}?${new URLSearchParams(row.input as Record<string, string>)}`);
        if (row.expect === 'ok') {
          expect(res.status, res.text).toBe(200);
          expect(res.json.code).toBe(0);
          return;
        }
        const [error, field] = row.expect;
        expect(res.status, res.text).toBe(errorCatalog[error].httpStatus);
        expect(res.status).toBe(400);
        expect(res.json.code).toBe(errorCatalog[error].code);
        expect(res.json.message).toContain(field);
        expect(res.json.data).toBeNull();
      });
    });
  }
});

// ---------------------------------------------------------------------------
// Defaults
// ---------------------------------------------------------------------------

describe('defaults', () => {
  it('shared create: model family1-video-2-fast, ratio 16:9, duration 5, generateAudio true, seed -1, inputVideoDuration 0, audioSetting auto', () => {
    const r = CreateVideoTaskRequest.parse(videoBody());
    expect(r).toMatchObject({
      model: 'family1-video-2-fast',
      ratio: '16:9',
      duration: 5,
      generateAudio: true,
      seed: -1,
      inputVideoDuration: 0,
      audioSetting: 'auto',
    });
  });

  it('shared create over HTTP: resolution 720p and the other defaults are echoed in params', async () => {
    const mock = await startMock();
    try {
      const c = await mock.call('POST', pathOf('createVideoTask'), { body: videoBody() });
      expect(c.status).toBe(200);
      const t = await mock.call('GET', pathOf('getVideoTask', { taskId: c.json.data.taskId }));
      expect(t.json.data).toMatchObject({ model: 'family1-video-2-fast', resolution: '720p', ratio: '16:9', duration: 5 });
      expect(t.json.data.params).toMatchObject({ resolution: '720p', ratio: '16:9', duration: 5, generateAudio: true, seed: -1 });
      // seed -1 means random: the task reports the seed used, within 0..4294967295.
      expect(t.json.data.seed).toBeGreaterThanOrEqual(0);
      expect(t.json.data.seed).toBeLessThanOrEqual(4294967295);
      expect(mock.bugs).toEqual([]);
    } finally {
      await mock.close();
    }
  });

  it('family5: model family5, language en, assets []', () => {
    const r = CreateFamily5VideoTaskRequest.parse(family5Body());
    expect(r).toMatchObject({ model: 'family5', language: 'en', images: [], videos: [], audios: [] });
  });

  it.each([
    ['text_to_video', '720p', '16:9', 5],
    ['image_to_video', '720p', '16:9', 5],
    ['transition', '720p', '16:9', 5],
    ['multi_transition', '360p', '16:9', 5],
    ['fusion', '720p', '16:9', 5],
    ['restyle', '720p', '16:9', 5],
    ['mimic', '720p', '16:9', 5],
    ['lip_sync', '720p', '16:9', 5],
    ['agent', '720p', '9:16', 30],
  ] as const)('family5 %s defaults: quality %s, aspectRatio %s, duration %i', async (cap, quality, aspectRatio, duration) => {
    expect(family5Defaults(cap)).toEqual({ quality, aspectRatio, duration });
    const mock = await startMock();
    try {
      const c = await mock.call('POST', pathOf('createFamily5VideoTask'), { body: valid[cap] });
      expect(c.status, c.text).toBe(200);
      const t = await mock.call('GET', pathOf('getVideoTask', { taskId: c.json.data.taskId }));
      expect(t.json.data).toMatchObject({ resolution: quality, ratio: aspectRatio, duration, model: 'family5' });
      expect(t.json.data.params).toMatchObject({ capability: cap, quality, aspectRatio, duration, language: 'en', model: 'family5' });
      expect(mock.bugs).toEqual([]);
    } finally {
      await mock.close();
    }
  });

  it('list: page 1 and pageSize 20 by default', async () => {
    const mock = await startMock();
    try {
      const r = await mock.call('GET', pathOf('listVideoTasks'));
      expect(r.json.data).toEqual({ items: [], page: 1, pageSize: 20, total: 0 });
    } finally {
      await mock.close();
    }
  });
});
