/**
 * Voice-cloning operations through Prism's validation proxy (test/prism.ts):
 * every request goes client -> Prism (--errors) -> a fresh mock, and any
 * violation in either direction fails the test. Covers the multipart create
 * with real WAV recordings and the task in each status, the confirmation (by
 * call and inside a poll), the private voices (list, get, update, delete),
 * the documented errors the document cannot rule out up front, every
 * Prefer-forced answer of the seven operations, and requests the document
 * forbids (flagged by Prism, answered by the mock with its documented error).
 *
 * Two limits of Prism 5.14.2 shape the multipart create:
 * - it maps a repeated multipart field to its last value, never to an array
 *   (https://github.com/stoplightio/prism/pull/2654, unmerged), so it refuses
 *   every create as "audioFiles must be array" before it reaches the mock.
 *   Prism here reads spec/openapi.json with one change, pinned below:
 *   audioFiles also accepts a single value; everything else, every response
 *   above all, is validated as the document says;
 * - its proxy forwards the body as text, so bytes that are not UTF-8 arrive
 *   altered (a WAV of 16-bit samples reaches the mock as something else).
 *   The recordings sent through Prism are therefore WAVs whose every byte is
 *   ASCII: 8-bit PCM at 8 kHz with ASCII-safe chunk sizes and samples (real
 *   WAVs the mock measures like any other).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { operationIds, operations, type OperationId } from '../schemas/operations.ts';
import type { OperationDef } from '../schemas/registry-types.ts';
import { CLONE_EXPIRY_MS, CONFIRM_CREDITS, cloneFiles, cloneRateLimit, cloneSchedule } from '../schemas/voice-clone.ts';
import { asciiWav, type Body, cloneForm, pathOf } from './factories.ts';
import { decodeAudio } from '../verify/decoders.ts';
import { forcedCases, KEY, OTHER_KEY, usePrism, type MockHandle, type PrismHarness, expectErrorEnvelope, expectForwarded, viaSpecOrMock } from './prism.ts';

const SPEC = JSON.parse(readFileSync(new URL('../spec/openapi.json', import.meta.url), 'utf8'));
/** spec/openapi.json, but audioFiles of the create also takes one value (Prism's reading of a repeated field). */
function prismDocument(): typeof SPEC {
  const doc = structuredClone(SPEC);
  const props = doc.components.schemas.CreateCloneRequest.properties;
  props.audioFiles = { anyOf: [props.audioFiles, { type: 'string', format: 'binary' }] };
  return doc;
}

const prism = usePrism({ specDocument: prismDocument() });

const DONE_MS = cloneSchedule.pendingMs + cloneSchedule.processingMs;

const wav6 = asciiWav(6); // 8.192 s
const wav3 = asciiWav(3); // 3.008 s: long enough only with another
const wav4 = asciiWav(4); // 4 s: too short
const form = (fields: Record<string, string | null> = {}, files: Uint8Array[] = [wav6]) =>
  cloneForm(
    fields,
    files.map((bytes) => ({ bytes })),
  );

const ok = (method: string, path: string, opts: Parameters<PrismHarness['call']>[2] = {}, status = 200) => expectForwarded(prism, method, path, opts, status);

const expectError = expectErrorEnvelope;

const create = async (body: FormData = form(), headers: Record<string, string> = {}, key?: string) => {
  const r = await ok('POST', pathOf('createVoiceClone'), { body, headers, key });
  expect(r.json).toEqual({ code: 0, message: '', data: { taskId: expect.stringMatching(/^vct_/), status: 'pending' } });
  return r.json.data.taskId as string;
};
const poll = async (taskId: string, key?: string) => (await ok('GET', pathOf('getVoiceClone', { taskId }), { key })).json.data;
const confirmBody = (taskId: string, over: Body = {}): Body => ({ taskId, name: 'Narrator', gender: 'female', ...over });
const confirm = async (taskId: string, over: Body = {}) =>
  (await ok('POST', pathOf('confirmVoiceClone'), { body: confirmBody(taskId, over) })).json.data.speakerId as string;
const call = (method: string, path: string, opts: Parameters<PrismHarness['call']>[2] = {}) => prism.call(method, path, opts);
const setAccount = async (m: MockHandle, body: Record<string, unknown>) => {
  const r = await m.call('PUT', `/__mock/accounts/${KEY}`, { key: null, body });
  expect(r.status, r.text).toBe(200);
};

describe('the document Prism reads', () => {
  it('is spec/openapi.json but for audioFiles, which there is an array of binary strings', () => {
    const doc = prismDocument();
    const audioFiles = SPEC.components.schemas.CreateCloneRequest.properties.audioFiles;
    expect(audioFiles).toMatchObject({ type: 'array', items: { type: 'string', format: 'binary' }, minItems: cloneFiles.min, maxItems: cloneFiles.max });
    expect(doc.components.schemas.CreateCloneRequest.properties.audioFiles.anyOf[0]).toEqual(audioFiles);
    doc.components.schemas.CreateCloneRequest.properties.audioFiles = audioFiles;
    expect(doc).toEqual(SPEC);
  });

  it('the recordings sent through Prism are ASCII WAVs', async () => {
    for (const [w, ms] of [
      [wav6, 8_192],
      [wav3, 3_008],
      [wav4, 4_000],
    ] as const) {
      expect(w.every((b) => b < 0x80)).toBe(true);
      expect((await decodeAudio(w, 'wav')).durationMs).toBe(ms);
    }
  });
});

describe('the clone task through Prism', () => {
  it('create (multipart WAV) -> pending -> processing -> completed; confirm; the poll carries speakerId; a second confirm 409 (36005)', async () => {
    const m = prism.useMock();
    const id = await create(form({ language: 'de', mode: 'upload', useCredits: 'false' }));
    expect(await poll(id)).toEqual({ taskId: id, status: 'pending' });
    await m.advance(cloneSchedule.pendingMs);
    expect(await poll(id)).toEqual({ taskId: id, status: 'processing' });
    await m.advance(cloneSchedule.processingMs);
    const done = await poll(id);
    expect(done).toEqual({ taskId: id, status: 'completed', demoAudioUrl: `${m.base}/media/voice-clone/${id}/demo.mp3` });
    // the preview, from the mock itself (the document holds no /media paths)
    const demo = await fetch(done.demoAudioUrl as string);
    expect(demo.status).toBe(200);
    await decodeAudio(new Uint8Array(await demo.arrayBuffer()), 'mp3');

    const speakerId = await confirm(id, { useCredits: false });
    expect(speakerId).toMatch(/^vc_/);
    expect(await poll(id)).toEqual({ ...done, speakerId });
    expectError(await ok('POST', pathOf('confirmVoiceClone'), { body: confirmBody(id) }, 409), 'ALREADY_CONFIRMED', id);
  });

  it('two files (3 s each, long enough only together) with autoConfirm: both reach the mock; the poll that sees it completed confirms it', async () => {
    const m = prism.useMock();
    const id = await create(form({ autoConfirm: 'true', name: 'Duo', gender: 'other', language: 'ko' }, [wav3, wav3]));
    await m.advance(DONE_MS);
    const t = await poll(id);
    expect(t).toEqual({ taskId: id, status: 'completed', demoAudioUrl: expect.any(String), speakerId: expect.stringMatching(/^vc_/) });
    const list = (await ok('GET', pathOf('listPrivateVoices'))).json.data;
    expect(list.speakers).toEqual([expect.objectContaining({ speakerInnerId: t.speakerId, name: 'Duo', gender: 'other', language: 'ko' })]);
    expect(await poll(id)).toEqual(t);
  });

  it('autoConfirm that cannot confirm (quota used, no useCredits): completed with confirmError; a confirm with useCredits then charges 300', async () => {
    const m = prism.useMock();
    await setAccount(m, { voiceClone: { confirmationsUsed: 3 } });
    const id = await create(form({ autoConfirm: 'true', name: 'Later', gender: 'male' }));
    await m.advance(DONE_MS);
    const t = await poll(id);
    expect(t).toEqual({ taskId: id, status: 'completed', demoAudioUrl: expect.any(String), confirmError: expect.stringMatching(/^NEED_CREDIT/) });
    expect(await poll(id)).toEqual(t);
    const speakerId = await confirm(id, { useCredits: true });
    expect(await poll(id)).toEqual({ taskId: id, status: 'completed', demoAudioUrl: t.demoAudioUrl, speakerId });
    expect((await ok('GET', pathOf('getSubscription'))).json.data.balance).toBe(10_000 - CONFIRM_CREDITS);
  });

  it('failed tasks: forced (TASK_FAILED, AUDIO_DURATION_INVALID, NO_VALID_SPEECH), a 4 s recording, stuck then 30 minutes', async () => {
    const m = prism.useMock();
    const ids = [
      await create(form(), { prefer: 'outcome=failed' }),
      await create(form(), { prefer: 'outcome=failed, error=AUDIO_DURATION_INVALID' }),
      await create(form(), { prefer: 'outcome=failed, error=NO_VALID_SPEECH' }),
      await create(form({}, [wav4])),
      await create(form(), { prefer: 'outcome=stuck' }),
    ];
    await m.advance(DONE_MS);
    expect(await poll(ids[4])).toEqual({ taskId: ids[4], status: 'processing' });
    await m.advance(cloneSchedule.timeoutMs);
    const codes = [];
    for (const id of ids) {
      const t = await poll(id);
      expect(t).toEqual({ taskId: id, status: 'failed', errorCode: expect.any(String), errorMessage: expect.stringMatching(/\S/) });
      codes.push(t.errorCode);
      expectError(await ok('POST', pathOf('confirmVoiceClone'), { body: confirmBody(id) }, 409), 'VOICE_CLONE_TASK_NOT_COMPLETED', id);
    }
    expect(codes).toEqual(['TASK_FAILED', 'AUDIO_DURATION_INVALID', 'NO_VALID_SPEECH', 'AUDIO_DURATION_INVALID', 'TASK_FAILED']);
  });
});

describe('private voices through Prism', () => {
  it('list, get (by speakerInnerId and id), update name / gender / both, delete; then 404 (36012)', async () => {
    const m = prism.useMock();
    expect((await ok('GET', pathOf('listPrivateVoices'))).json.data).toEqual({
      speakers: [],
      quota: 3,
      remainingConfirmations: 3,
      maxSpeakers: 5,
      isLimitReached: false,
    });
    const id = await create(form({ language: 'it' }));
    await m.advance(DONE_MS);
    const speakerId = await confirm(id, { name: 'Giulia' });
    const list = (await ok('GET', pathOf('listPrivateVoices'))).json.data;
    expect(list).toMatchObject({ quota: 3, remainingConfirmations: 2, maxSpeakers: 5, isLimitReached: false });
    expect(Object.keys(list.speakers[0]).sort()).toEqual(['createdAt', 'demoAudioUrl', 'gender', 'id', 'language', 'name', 'speakerInnerId']);
    const got = (await ok('GET', pathOf('getPrivateVoice', { speakerId }))).json.data;
    expect(got).toEqual({ ...list.speakers[0], updatedAt: list.speakers[0].createdAt });
    expect((await ok('GET', pathOf('getPrivateVoice', { speakerId: got.id as string }))).json.data).toEqual(got);

    const put = async (body: Body) => (await ok('PUT', pathOf('updatePrivateVoice', { speakerId }), { body })).json.data;
    await m.advance(1_000);
    expect(await put({ name: 'Giulia (warm)' })).toEqual({
      ...got,
      name: 'Giulia (warm)',
      updatedAt: new Date(Date.parse(got.updatedAt) + 1_000).toISOString(),
    });
    expect(await put({ gender: 'other' })).toMatchObject({ name: 'Giulia (warm)', gender: 'other', createdAt: got.createdAt });
    expect(await put({ name: 'G', gender: 'male' })).toMatchObject({ name: 'G', gender: 'male' });

    expect((await ok('DELETE', pathOf('deletePrivateVoice', { speakerId }))).json).toEqual({ code: 0, message: '', data: { speakerId } });
    expectError(await ok('GET', pathOf('getPrivateVoice', { speakerId }), {}, 404), 'VOICE_CLONE_SPEAKER_NOT_FOUND', speakerId);
    expectError(await ok('PUT', pathOf('updatePrivateVoice', { speakerId }), { body: { name: 'Back' } }, 404), 'VOICE_CLONE_SPEAKER_NOT_FOUND', speakerId);
    expectError(await ok('DELETE', pathOf('deletePrivateVoice', { speakerId }), {}, 404), 'VOICE_CLONE_SPEAKER_NOT_FOUND', speakerId);
    expect((await ok('GET', pathOf('listPrivateVoices'))).json.data).toMatchObject({ speakers: [], remainingConfirmations: 2 });
  });
});

// A file over 5 MB (413, 36014) is left to voice-clone-rules.test.ts: Prism takes seconds to parse a 5 MB multipart
// body; the 413 envelope passes Prism among the forced answers below.
describe('documented errors the document cannot rule out up front', () => {
  it('create: a text file (36013), consentConfirmed false and autoConfirm without name (36001), the 6th create in a minute (429, 36029)', async () => {
    const m = prism.useMock();
    const text = new TextEncoder().encode('A text file, not a recording.');
    expectError(await ok('POST', pathOf('createVoiceClone'), { body: form({}, [wav6, text]) }, 400), 'VOICE_CLONE_UNSUPPORTED_AUDIO', 'audioFiles[1]');
    // rules the multipart schema carries (docs/rules.md): Prism refuses them itself; the mock's answer is read directly
    const ruled = (body: FormData) => viaSpecOrMock(prism, 'POST', pathOf('createVoiceClone'), { body });
    expectError(await ruled(form({ consentConfirmed: 'false' })), 'VOICE_CLONE_INVALID_PARAMETERS', 'consentConfirmed');
    expectError(await ruled(form({ autoConfirm: 'true', gender: 'male' })), 'VOICE_CLONE_INVALID_PARAMETERS', 'name');
    // every create that reaches the limiter counts, refused or not: these are the 4th and 5th
    await create();
    await create();
    expectError(await ok('POST', pathOf('createVoiceClone'), { body: form() }, 429), 'VOICE_CLONE_RATE_LIMITED');
    await m.advance(cloneRateLimit.windowMs);
    await create();
  });

  it('poll: unknown (404, 36009), another key (404, 36009), expired 7 days after completing (410, 36010)', async () => {
    const m = prism.useMock();
    expectError(await ok('GET', pathOf('getVoiceClone', { taskId: 'vct_missing' }), {}, 404), 'VOICE_CLONE_TASK_NOT_FOUND', 'vct_missing');
    const id = await create();
    await m.advance(DONE_MS);
    expectError(await ok('GET', pathOf('getVoiceClone', { taskId: id }), { key: OTHER_KEY }, 404), 'VOICE_CLONE_TASK_NOT_FOUND', id);
    await m.advance(CLONE_EXPIRY_MS);
    expectError(await ok('GET', pathOf('getVoiceClone', { taskId: id }), {}, 410), 'VOICE_CLONE_TASK_EXPIRED', id);
    expectError(await ok('POST', pathOf('confirmVoiceClone'), { body: confirmBody(id) }, 410), 'VOICE_CLONE_TASK_EXPIRED', id);
  });

  it('confirm: unknown, another key, NEED_CREDIT (402), NEED_UPGRADE (403), SPEAKER_LIMIT_REACHED (409); beyond the quota with useCredits: 300 credits', async () => {
    const m = prism.useMock();
    const [a, b] = [await create(), await create()];
    await m.advance(DONE_MS);
    const post = (body: Body, status: number, key?: string) => ok('POST', pathOf('confirmVoiceClone'), { body, key }, status);
    expectError(await post(confirmBody('vct_missing'), 404), 'VOICE_CLONE_TASK_NOT_FOUND', 'vct_missing');
    expectError(await post(confirmBody(a), 404, OTHER_KEY), 'VOICE_CLONE_TASK_NOT_FOUND', a);
    await setAccount(m, { voiceClone: { confirmationsUsed: 3 } });
    expectError(await post(confirmBody(a), 402), 'NEED_CREDIT');
    await setAccount(m, { credits: CONFIRM_CREDITS - 1 });
    expectError(await post(confirmBody(a, { useCredits: true }), 402), 'NEED_CREDIT');
    await setAccount(m, { credits: 10_000, plan: 'free' });
    expectError(await post(confirmBody(a, { useCredits: true }), 403), 'NEED_UPGRADE');
    await setAccount(m, { plan: 'paid', voiceClone: { maxSpeakers: 1 } });
    await confirm(a, { useCredits: true });
    expect((await ok('GET', pathOf('getSubscription'))).json.data.balance).toBe(10_000 - CONFIRM_CREDITS);
    expectError(await post(confirmBody(b, { useCredits: true }), 409), 'SPEAKER_LIMIT_REACHED');
    expect((await ok('GET', pathOf('getSubscription'))).json.data.balance).toBe(10_000 - CONFIRM_CREDITS);
  });

  it('update without name or gender: the spec says "at least one" (Prism 422, not forwarded); the mock answers 400 (36001)', async () => {
    const m = prism.useMock();
    const id = await create();
    await m.advance(DONE_MS);
    const speakerId = await confirm(id);
    const r = await call('PUT', pathOf('updatePrivateVoice', { speakerId }), { body: {}, allowViolations: true });
    expect(r.status, r.text.slice(0, 300)).toBe(422);
    expect(r.forwarded).toBe(false);
    prism.takeViolations();
    expectError(await m.call('PUT', pathOf('updatePrivateVoice', { speakerId }), { body: {} }), 'VOICE_CLONE_INVALID_PARAMETERS', 'name');
  });
});

/** The voice-cloning operations: every declared status and code, forced, through Prism. */
const cloneOps = operationIds.map((id) => operations[id] as OperationDef).filter((op) => op.tags.includes('Voice cloning'));

const bodyFor: Partial<Record<OperationId, () => Body | FormData>> = {
  createVoiceClone: () => form(),
  confirmVoiceClone: () => confirmBody('vct_forced'),
  updatePrivateVoice: () => ({ name: 'Forced' }),
};

describe('Prefer-forced answers of every voice-cloning operation, through Prism', () => {
  it('covers the seven voice-cloning operations', () => {
    expect(cloneOps.map((op) => op.operationId).sort()).toEqual(
      ['confirmVoiceClone', 'createVoiceClone', 'deletePrivateVoice', 'getPrivateVoice', 'getVoiceClone', 'listPrivateVoices', 'updatePrivateVoice'].sort(),
    );
  });

  it.each(cloneOps.map((op) => [op.operationId, op] as const))('%s', async (_id, op) => {
    prism.useMock();
    const method = op.method.toUpperCase();
    const path = pathOf(op.operationId as OperationId, { taskId: 'vct_forced', speakerId: 'vc_forced' });
    const cases = forcedCases(op);
    expect(cases.length).toBeGreaterThan(0);
    for (const c of cases) {
      const body = op.request.body ? bodyFor[op.operationId as OperationId]?.() : undefined;
      expectError(await call(method, path, { body, headers: { prefer: c.prefer } }), c.error);
    }
  });
});

describe('requests the document forbids: Prism flags them; the mock answers its documented error', () => {
  it.each([
    ['create: language xx', { language: 'xx' }, 'language'],
    ['create: mode record', { mode: 'record' }, 'mode'],
    ['create: name of 51 characters', { autoConfirm: 'true', name: 'n'.repeat(51), gender: 'male' }, 'name'],
    ['create: gender unknown', { autoConfirm: 'true', name: 'Narrator', gender: 'unknown' }, 'gender'],
    ['create: consentConfirmed missing', { consentConfirmed: null }, 'consentConfirmed'],
    ['create: language missing', { language: null }, 'language'],
  ] as [string, Record<string, string | null>, string][])('%s', async (_n, fields, field) => {
    const m = prism.useMock();
    const r = await call('POST', pathOf('createVoiceClone'), { body: form(fields), allowViolations: true });
    expect(r.status, r.text.slice(0, 300)).toBe(422);
    expect(r.forwarded).toBe(false);
    expect(r.violations[0]).toMatchObject({ direction: 'request' });
    prism.takeViolations();
    expectError(await m.call('POST', pathOf('createVoiceClone'), { body: cloneForm(fields) }), 'VOICE_CLONE_INVALID_PARAMETERS', field);
  });

  it('create: no file (36001) and a JSON body (415, 10003)', async () => {
    const m = prism.useMock();
    for (const body of [form({}, []), { language: 'en', consentConfirmed: true }]) {
      const r = await call('POST', pathOf('createVoiceClone'), { body, allowViolations: true });
      expect(r.status).toBe(422);
      expect(r.forwarded).toBe(false);
    }
    prism.takeViolations();
    expectError(await m.call('POST', pathOf('createVoiceClone'), { body: cloneForm({}, []) }), 'VOICE_CLONE_INVALID_PARAMETERS', 'audioFiles');
    expectError(await m.call('POST', pathOf('createVoiceClone'), { body: { language: 'en', consentConfirmed: true } }), 'UNSUPPORTED_MEDIA_TYPE');
  });

  it.each([
    ['confirm: taskId missing', pathOf('confirmVoiceClone'), 'POST', { name: 'Narrator', gender: 'male' }, 'taskId'],
    ['confirm: name missing', pathOf('confirmVoiceClone'), 'POST', { taskId: 'vct_x', gender: 'male' }, 'name'],
    ['confirm: name of 51 characters', pathOf('confirmVoiceClone'), 'POST', confirmBody('vct_x', { name: 'n'.repeat(51) }), 'name'],
    ['confirm: gender unknown', pathOf('confirmVoiceClone'), 'POST', confirmBody('vct_x', { gender: 'unknown' }), 'gender'],
    ['confirm: useCredits "yes"', pathOf('confirmVoiceClone'), 'POST', confirmBody('vct_x', { useCredits: 'yes' }), 'useCredits'],
    ['update: name of 51 characters', pathOf('updatePrivateVoice', { speakerId: 'vc_x' }), 'PUT', { name: 'n'.repeat(51) }, 'name'],
    ['update: name empty', pathOf('updatePrivateVoice', { speakerId: 'vc_x' }), 'PUT', { name: '' }, 'name'],
    ['update: gender unknown', pathOf('updatePrivateVoice', { speakerId: 'vc_x' }), 'PUT', { gender: 'unknown' }, 'gender'],
  ] as [string, string, string, Body, string][])('%s', async (_n, path, method, body, field) => {
    const m = prism.useMock();
    const r = await call(method, path, { body, allowViolations: true });
    expect(r.status, r.text.slice(0, 300)).toBe(422);
    expect(r.forwarded).toBe(false);
    expect(r.violations[0]).toMatchObject({ direction: 'request' });
    prism.takeViolations();
    expectError(await m.call(method, path, { body }), 'VOICE_CLONE_INVALID_PARAMETERS', field);
  });
});
