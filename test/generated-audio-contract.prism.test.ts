/**
 * The six generated-audio operations (three per service, one definition)
 * through Prism's validation proxy (test/prism.ts): every request goes client
 * -> Prism (--errors, spec/openapi.yaml) -> a fresh mock, and any violation in
 * either direction fails the test. Per service: generate (202), the task in
 * every status (success with audioUrl, failed with errorMessage, an inline
 * image's echo), the list with its filters, the documented errors the spec
 * cannot rule out (33001, 33002, 33004, 33005, 33006, 33007 with Retry-After,
 * 33009), every Prefer-forced answer, and requests the spec itself forbids
 * (flagged by Prism, answered by the mock with 33004).
 */
import { describe, expect, it } from 'vitest';
import { errorCatalog } from '../schemas/errors.ts';
import { GENERATED_AUDIO_CONCURRENCY, generatedAudioRateLimit, generatedAudioServices } from '../schemas/generated-audio.ts';
import { operations, type OperationId } from '../schemas/operations.ts';
import type { OperationDef } from '../schemas/registry-types.ts';
import { builtInSpeakers } from '../schemas/speech.ts';
import { type Body, pathOf } from './factories.ts';
import { forcedCases, KEY, OTHER_KEY, usePrism, type MockHandle, type PrismHarness, expectErrorEnvelope, expectForwarded, viaSpecOrMock } from './prism.ts';

const prism = usePrism();

const upper = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const services = Object.entries(generatedAudioServices).map(([name, s]) => ({
  name,
  prefix: s.prefix,
  model: s.model,
  idPrefix: s.idPrefix,
  create: `create${upper(name)}Task` as OperationId,
  get: `get${upper(name)}Task` as OperationId,
  list: `list${upper(name)}Tasks` as OperationId,
}));
type Svc = (typeof services)[number];
const otherOf = (svc: Svc) => services.find((o) => o !== svc)!;

const SPEAKERS = builtInSpeakers.map((s) => s.speakerId);
const speakers = (n: number) => Array.from({ length: n }, (_, i) => ({ type: 'speaker', id: SPEAKERS[i] }));
const PNG_B64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const GIF_B64 = 'R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';
const genBody = (over: Body = {}): Body => ({ text: 'The quick brown fox jumps over the dog.', durationHint: 2, ...over });
/** Virtual time after which a 2-second task is done (1 s + 2.2 s + 1 s, with room). */
const DONE_MS = 6_000;

const ok = (method: string, path: string, opts: Parameters<PrismHarness['call']>[2] = {}, status = 200) => expectForwarded(prism, method, path, opts, status);

const expectError = expectErrorEnvelope;

const create = async (svc: Svc, body: Body = genBody(), headers: Record<string, string> = {}) => {
  const r = await ok('POST', pathOf(svc.create), { body, headers }, 202);
  expect(r.json).toEqual({ code: 0, message: expect.any(String), data: { taskId: expect.stringMatching(new RegExp(`^${svc.idPrefix}_`)), status: 'pending' } });
  return r.json.data.taskId as string;
};
const getTask = async (svc: Svc, id: string) => (await ok('GET', pathOf(svc.get, { taskId: id }))).json.data;
const list = async (svc: Svc, query: Record<string, string | number> = {}, key?: string) => (await ok('GET', pathOf(svc.list, {}, query), { key })).json.data;
const setCredits = (m: MockHandle, credits: number) => m.call('PUT', `/__mock/accounts/${KEY}`, { key: null, body: { credits } });

describe.each(services)('$prefix ($model) through Prism', (svc) => {
  it('generate 202; the task pending, then success with audioUrl and the money; every status through the list', async () => {
    const m = prism.useMock({ rateLimit: false });
    const id = await create(svc, genBody({ audioConfig: { format: 'wav', speechRate: 10, loudnessRate: -10, pitchRate: 3 }, watermark: true }));
    expect(await getTask(svc, id)).toMatchObject({ id, status: 'pending', model: svc.model, audioDuration: 0, creditCharged: 0, creditRefunded: 0 });
    await m.advance(1_000);
    expect((await getTask(svc, id)).status).toBe('generating');
    await m.advance(2_700);
    expect((await getTask(svc, id)).status).toBe('uploading');
    await m.advance(DONE_MS);
    const t = await getTask(svc, id);
    expect(Object.keys(t).sort()).toEqual(
      ['audioDuration', 'audioUrl', 'createdAt', 'creditCharged', 'creditRefunded', 'id', 'model', 'params', 'status', 'updatedAt'].sort(),
    );
    expect(t).toMatchObject({ status: 'success', audioDuration: 2 });
    expect(t.creditCharged).toBeGreaterThan(0);
    const page = await list(svc, { status: 'success', keyword: 'QUICK fox', page: 1, pageSize: 10 });
    expect(page).toMatchObject({ page: 1, pageSize: 10, total: 1 });
    expect(page.items[0]).toEqual(t);
    expect(await list(svc, { status: 'pending' })).toMatchObject({ items: [], total: 0 });
  });

  it('failed tasks (forced 33003, 33008, stuck) carry errorMessage; an inline image echoes { hasData, thumbnailUrl }', async () => {
    const m = prism.useMock({ rateLimit: false });
    const failed = await create(svc, genBody(), { prefer: 'outcome=failed' });
    const timedOut = await create(svc, genBody(), { prefer: `outcome=failed, error=${errorCatalog.GEN_AUDIO_TIMED_OUT.code}` });
    const stuck = await create(svc, genBody(), { prefer: 'outcome=stuck' });
    const inline = await create(svc, genBody({ image: { data: `data:image/png;base64,${PNG_B64}` } }));
    const byUrl = await create(svc, genBody({ image: { url: 'https://example.com/a.png' } }));
    const dialogue = await create(svc, genBody({ text: '@音频1 Hello.\n@音频2 Hi.', voices: speakers(2) }));
    await m.advance(10 * 60_000);
    const codes = [];
    for (const id of [failed, timedOut, stuck]) {
      const t = await getTask(svc, id);
      expect(t).toMatchObject({ status: 'failed', audioDuration: 0, creditCharged: 0, errorMessage: expect.any(String) });
      expect(t.creditRefunded).toBeGreaterThan(0);
      codes.push(Number(t.errorMessage.slice(0, 5)));
    }
    expect(codes).toEqual([33003, 33008, 33008]);
    expect((await getTask(svc, inline)).params.image).toEqual({ hasData: true, thumbnailUrl: expect.any(String) });
    expect((await getTask(svc, byUrl)).params.image).toEqual({ url: 'https://example.com/a.png' });
    expect((await getTask(svc, dialogue)).params.voices).toEqual(speakers(2));
    expect((await list(svc, { status: 'failed' })).total).toBe(3);
    expect((await m.call('GET', `/__mock/accounts/${KEY}`, { key: null })).json.credits).toBeGreaterThan(10_000 - 3 * 100);
  });

  it('documented errors the spec cannot rule out: 33004, 33005, 33002, 33006, 33001', async () => {
    const m = prism.useMock({ rateLimit: false });
    const gen = (body: Body) => viaSpecOrMock(prism, 'POST', pathOf(svc.create), { body });
    expectError(await gen(genBody({ voices: speakers(1), image: { url: 'https://example.com/a.png' } })), 'GEN_AUDIO_INVALID_PARAMETERS', 'image');
    expectError(await gen(genBody({ text: '@音频2 Hi.', voices: speakers(1) })), 'GEN_AUDIO_INVALID_PARAMETERS', 'text');
    expectError(await gen(genBody({ text: 'x'.repeat(1401) })), 'GEN_AUDIO_INVALID_PARAMETERS', 'text');
    expectError(await gen(genBody({ text: '   ' })), 'GEN_AUDIO_INVALID_PARAMETERS', 'text');
    expectError(await gen(genBody({ voices: [] })), 'GEN_AUDIO_INVALID_PARAMETERS', 'voices');
    expectError(
      await gen(genBody({ voices: [{ type: 'speaker', id: SPEAKERS[0], url: 'https://example.com/a.wav' }] })),
      'GEN_AUDIO_INVALID_PARAMETERS',
      'voices[0]',
    );
    expectError(await gen(genBody({ voices: [{ type: 'reference' }] })), 'GEN_AUDIO_INVALID_PARAMETERS', 'voices[0].url');
    expectError(await gen(genBody({ image: {} })), 'GEN_AUDIO_INVALID_PARAMETERS', 'image');
    expectError(await gen(genBody({ image: { data: GIF_B64 } })), 'GEN_AUDIO_INVALID_PARAMETERS', 'image.data');
    expectError(await gen(genBody({ voices: speakers(4) })), 'GEN_AUDIO_TOO_MANY_VOICES', 'voices');
    expectError(await gen(genBody({ voices: [{ type: 'speaker', id: 'xx_ghost' }] })), 'GEN_AUDIO_SPEAKER_NOT_FOUND', 'voices[0].id');
    await setCredits(m, 0);
    expectError(await gen(genBody()), 'GEN_AUDIO_INSUFFICIENT_CREDITS');
    await setCredits(m, 10_000);
    const id = await create(svc);
    expectError(await prism.call('GET', pathOf(svc.get, { taskId: id }), { key: OTHER_KEY }), 'GEN_AUDIO_TASK_NOT_FOUND');
    expectError(await prism.call('GET', pathOf(svc.get, { taskId: `${svc.idPrefix}_missing` })), 'GEN_AUDIO_TASK_NOT_FOUND');
    expectError(await prism.call('GET', pathOf(otherOf(svc).get, { taskId: id })), 'GEN_AUDIO_TASK_NOT_FOUND');
    expect(await list(svc, {}, OTHER_KEY)).toMatchObject({ items: [], total: 0 });
  });

  it('limits: 33009 on the 4th running task, 429 33007 with Retry-After on the 6th generate in a minute', async () => {
    const m = prism.useMock();
    for (let i = 0; i < GENERATED_AUDIO_CONCURRENCY; i++) await create(svc);
    expectError(await prism.call('POST', pathOf(svc.create), { body: genBody() }), 'GEN_AUDIO_CONCURRENCY_LIMIT');
    await m.advance(DONE_MS);
    await create(svc); // the 5th request of the minute
    const r = await prism.call('POST', pathOf(svc.create), { body: genBody() });
    expect(generatedAudioRateLimit.limit).toBe(5);
    expectError(r, 'GEN_AUDIO_RATE_LIMITED');
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('every Prefer-forced answer of its three operations', async () => {
    prism.useMock();
    const ops = [svc.create, svc.get, svc.list].map((id) => operations[id] as OperationDef);
    for (const op of ops) {
      const path = pathOf(op.operationId as OperationId, { taskId: `${svc.idPrefix}_forced` });
      const body = op.request.body ? genBody() : undefined;
      const cases = forcedCases(op);
      expect(cases.length, op.operationId).toBeGreaterThan(0);
      for (const c of cases) expectError(await prism.call(op.method.toUpperCase(), path, { body, headers: { prefer: c.prefer } }), c.error);
    }
  });

  it.each([
    ["model: the other service's id", () => genBody({ model: otherOf(svc).model }), 'model'],
    ['text missing', () => ({ durationHint: 2 }), 'text'],
    ['durationHint 111', () => genBody({ durationHint: 111 }), 'durationHint'],
    ['durationHint 0.5', () => genBody({ durationHint: 0.5 }), 'durationHint'],
    ['format flac', () => genBody({ audioConfig: { format: 'flac' } }), 'audioConfig.format'],
    ['speechRate 101', () => genBody({ audioConfig: { speechRate: 101 } }), 'audioConfig.speechRate'],
    ['pitchRate -13', () => genBody({ audioConfig: { pitchRate: -13 } }), 'audioConfig.pitchRate'],
    ['a voice of type clone', () => genBody({ voices: [{ type: 'clone', id: SPEAKERS[0] }] }), 'voices[0].type'],
    ['watermark "yes"', () => genBody({ watermark: 'yes' }), 'watermark'],
  ] as [string, () => Body, string][])('generate, %s: Prism flags it; the mock answers 33004 naming it', async (_n, body, name) => {
    const m = prism.useMock({ rateLimit: false });
    const r = await prism.call('POST', pathOf(svc.create), { body: body(), allowViolations: true });
    expect(r.status, r.text.slice(0, 300)).toBe(422);
    expect(r.forwarded).toBe(false);
    expect(r.violations[0]).toMatchObject({ direction: 'request' });
    prism.takeViolations();
    expectError(await m.call('POST', pathOf(svc.create), { body: body() }), 'GEN_AUDIO_INVALID_PARAMETERS', name);
  });

  it.each([
    ['keyword of 65 characters', { keyword: 'k'.repeat(65) }, 'keyword'],
    ['pageSize 101', { pageSize: 101 }, 'pageSize'],
    ['status done', { status: 'done' }, 'status'],
  ])('list, %s: Prism flags it; the mock answers 33004 naming it', async (_n, query, name) => {
    const m = prism.useMock();
    const r = await prism.call('GET', pathOf(svc.list, {}, query), { allowViolations: true });
    expect(r.status).toBe(422);
    expect(r.forwarded).toBe(false);
    prism.takeViolations();
    expectError(await m.call('GET', pathOf(svc.list, {}, query)), 'GEN_AUDIO_INVALID_PARAMETERS', name);
  });
});
