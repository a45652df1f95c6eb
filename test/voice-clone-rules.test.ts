/**
 * Voice-clone request rules as table cases (document 2, "Voice cloning (prefix
 * /v1/voice-clone)", "Errors", "Limits"), through the HTTP interface: the
 * multipart create (file count, per-file and total size, every text field),
 * the reference audio the clone is judged by (its total duration and digital
 * silence, which fail the task later, not the create), the create rate limit
 * on the virtual clock, and the confirm and update bodies. Each error case
 * asserts the status, the envelope's catalog code and that the message names
 * the field.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { errorCatalog, type ErrorName } from '../schemas/errors.ts';
import { voiceLanguages } from '../schemas/speech.ts';
import { cloneFiles, cloneRateLimit, cloneSchedule, referenceDurationMs, VOICE_NAME_MAX } from '../schemas/voice-clone.ts';
import { type Body, cloneForm, pathOf, wavBytes } from './factories.ts';
import { type CallResult, KEY, OTHER_KEY, type TestMock, useMocks } from './helpers.ts';

const start = useMocks();
let m: TestMock;
beforeEach(async () => {
  m = await start();
});

/** What a case expects: accepted, or an error whose message contains each of `names`. */
type Failure = { error: ErrorName; names: string[] };
type Expected = 'ok' | Failure;
type Files = { name?: string; bytes: Uint8Array; type?: string }[];
type Fields = Record<string, string | null>;

const ok = 'ok' as const;
const invalid = (...names: string[]): Failure => ({ error: 'VOICE_CLONE_INVALID_PARAMETERS', names });
const tooLarge = (...names: string[]): Failure => ({ error: 'VOICE_CLONE_FILES_TOO_LARGE', names });

/** Asserts the error envelope of `expected` (status, code, data null, JSON) and that the message names every field. */
function expectError(r: CallResult, expected: Failure) {
  const e = errorCatalog[expected.error];
  expect(r.status, r.text).toBe(e.httpStatus);
  expect(r.headers.get('content-type'), r.text).toMatch(/^application\/json/);
  expect(r.json, r.text).toEqual({ code: e.code, message: expect.any(String), data: null });
  for (const name of expected.names) expect(r.json.message, `the message names ${name}`).toContain(name);
}

/** Asserts a create answered 200 with a pending task; returns its id. */
function expectCreated(r: CallResult): string {
  expect(r.status, r.text.slice(0, 300)).toBe(200);
  expect(r.json).toEqual({ code: 0, message: '', data: { taskId: expect.stringMatching(/^vct_/), status: 'pending' } });
  return r.json.data.taskId as string;
}

const create = (fields: Fields = {}, files?: Files, key = KEY) => m.call('POST', pathOf('createVoiceClone'), { body: cloneForm(fields, files), key });
const poll = (id: string) => m.call('GET', pathOf('getVoiceClone', { taskId: id }));

/**
 * A valid 16-bit PCM WAV (RIFF) of `sampleRate` and `channels`: `seconds` long, or exactly `totalBytes` long
 * (`totalBytes` - 44 must be a whole number of sample frames). A sawtooth, never digital silence.
 */
function pcmWav(o: { sampleRate: number; channels: number; seconds?: number; totalBytes?: number }): Uint8Array {
  const frame = 2 * o.channels;
  const dataBytes = o.totalBytes !== undefined ? o.totalBytes - 44 : Math.round(o.sampleRate * o.seconds!) * frame;
  if (dataBytes % frame !== 0) throw new Error(`pcmWav: ${dataBytes} data bytes are not whole frames of ${frame} bytes`);
  const out = new Uint8Array(44 + dataBytes);
  const dv = new DataView(out.buffer);
  const ascii = (at: number, t: string) => [...t].forEach((c, i) => (out[at + i] = c.charCodeAt(0)));
  ascii(0, 'RIFF');
  dv.setUint32(4, 36 + dataBytes, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  dv.setUint32(16, 16, true);
  dv.setUint16(20, 1, true);
  dv.setUint16(22, o.channels, true);
  dv.setUint32(24, o.sampleRate, true);
  dv.setUint32(28, o.sampleRate * frame, true);
  dv.setUint16(32, frame, true);
  dv.setUint16(34, 16, true);
  ascii(36, 'data');
  dv.setUint32(40, dataBytes, true);
  for (let i = 0; i < dataBytes / 2; i++) dv.setInt16(44 + i * 2, ((i % 200) - 100) * 100, true);
  return out;
}

/** `bytes` and `extra` bytes more (a trailing pad, as RIFF writers add after an odd chunk). */
const plus = (bytes: Uint8Array, extra: number) => {
  const out = new Uint8Array(bytes.length + extra);
  out.set(bytes);
  return out;
};

const MB = 1024 * 1024;
// 48 kHz stereo: 5 MB is 27.3 s, so four of them (109 s) are a valid reference as well as 20 MB.
const wav5MB = pcmWav({ sampleRate: 48_000, channels: 2, totalBytes: cloneFiles.maxFileBytes });
const wav4MB = pcmWav({ sampleRate: 48_000, channels: 2, totalBytes: 4 * MB });
const wav = (seconds: number) => ({ bytes: wavBytes(seconds) });
const textFile = { name: 'notes.txt', bytes: new TextEncoder().encode('These are my notes, not a recording.\n'), type: 'text/plain' };

describe('POST /v1/voice-clone/clone: files and fields', () => {
  it('the sizes the cases rest on', () => {
    expect(wav5MB.length).toBe(5 * MB);
    expect(4 * wav5MB.length).toBe(cloneFiles.maxTotalBytes);
    expect(4 * wav4MB.length + plus(wav4MB, 1).length).toBe(cloneFiles.maxTotalBytes + 1);
  });

  const cases: [name: string, fields: Fields, files: Files | undefined, expected: Expected][] = [
    ['the default form (one 6 s WAV, en, consent)', {}, undefined, ok],
    // audioFiles: 1-6 files, each at most 5 MB, at most 20 MB together
    ['audioFiles: no file', {}, [], invalid('audioFiles')],
    ['audioFiles: 1 file', {}, [wav(6)], ok],
    ['audioFiles: 6 files', {}, Array.from({ length: 6 }, () => wav(1)), ok],
    ['audioFiles: 7 files', {}, Array.from({ length: 7 }, () => wav(1)), invalid('audioFiles', '6')],
    ['audioFiles: a file of exactly 5 MB', {}, [{ bytes: wav5MB }], ok],
    ['audioFiles: a file of 5 MB + 1 byte', {}, [{ bytes: plus(wav5MB, 1) }], tooLarge('audioFiles', '5 MB')],
    ['audioFiles: 4 files of 5 MB (exactly 20 MB together)', {}, Array.from({ length: 4 }, () => ({ bytes: wav5MB })), ok],
    [
      'audioFiles: 5 files of 20 MB + 1 byte together (each under 5 MB)',
      {},
      [...Array.from({ length: 4 }, () => ({ bytes: wav4MB })), { bytes: plus(wav4MB, 1) }],
      tooLarge('audioFiles', '20 MB'),
    ],
    ['audioFiles: the second file is text, not audio', {}, [wav(6), textFile], { error: 'VOICE_CLONE_UNSUPPORTED_AUDIO', names: ['audioFiles[1]'] }],
    ['audioFiles: the only file is text', {}, [textFile], { error: 'VOICE_CLONE_UNSUPPORTED_AUDIO', names: ['audioFiles[0]'] }],
    ['audioFiles: an empty file', {}, [{ bytes: new Uint8Array(0) }], { error: 'VOICE_CLONE_UNSUPPORTED_AUDIO', names: ['audioFiles[0]'] }],
    // language
    ...voiceLanguages.map((language): [string, Fields, undefined, Expected] => [`language ${language}`, { language }, undefined, ok]),
    ['language xx (unknown)', { language: 'xx' }, undefined, invalid('language')],
    ['language missing', { language: null }, undefined, invalid('language')],
    // consentConfirmed: must be true
    ['consentConfirmed missing', { consentConfirmed: null }, undefined, invalid('consentConfirmed')],
    ['consentConfirmed "false"', { consentConfirmed: 'false' }, undefined, invalid('consentConfirmed')],
    ['consentConfirmed "true"', { consentConfirmed: 'true' }, undefined, ok],
    // mode: upload only
    ['mode upload', { mode: 'upload' }, undefined, ok],
    ['mode record (other)', { mode: 'record' }, undefined, invalid('mode')],
    // autoConfirm: name and gender then required
    ['autoConfirm true with name and gender', { autoConfirm: 'true', name: 'Narrator', gender: 'female' }, undefined, ok],
    ['autoConfirm true without name', { autoConfirm: 'true', gender: 'female' }, undefined, invalid('name')],
    ['autoConfirm true without gender', { autoConfirm: 'true', name: 'Narrator' }, undefined, invalid('gender')],
    ['autoConfirm "false" without name or gender', { autoConfirm: 'false' }, undefined, ok],
    ['autoConfirm "yes" (not a boolean)', { autoConfirm: 'yes' }, undefined, invalid('autoConfirm')],
    // name: up to 50 characters
    [`name of ${VOICE_NAME_MAX} characters`, { autoConfirm: 'true', name: 'n'.repeat(VOICE_NAME_MAX), gender: 'male' }, undefined, ok],
    [`name of ${VOICE_NAME_MAX + 1} characters`, { autoConfirm: 'true', name: 'n'.repeat(VOICE_NAME_MAX + 1), gender: 'male' }, undefined, invalid('name')],
    [`name of ${VOICE_NAME_MAX + 1} characters without autoConfirm`, { name: 'n'.repeat(VOICE_NAME_MAX + 1) }, undefined, invalid('name')],
    // gender
    ...(['male', 'female', 'other'] as const).map((gender): [string, Fields, undefined, Expected] => [
      `gender ${gender}`,
      { autoConfirm: 'true', name: 'Narrator', gender },
      undefined,
      ok,
    ]),
    ['gender unknown', { autoConfirm: 'true', name: 'Narrator', gender: 'unknown' }, undefined, invalid('gender')],
    // useCredits
    ['useCredits "true"', { useCredits: 'true' }, undefined, ok],
    ['useCredits "nope"', { useCredits: 'nope' }, undefined, invalid('useCredits')],
  ];

  it.each(cases)('%s', async (_case, fields, files, expected) => {
    const r = await create(fields, files);
    if (expected === 'ok') expectCreated(r);
    else expectError(r, expected);
  });

  it('a JSON body (not multipart): 415, 10003', async () => {
    const r = await m.call('POST', pathOf('createVoiceClone'), { body: { audioFiles: [], language: 'en', consentConfirmed: true } });
    expectError(r, { error: 'UNSUPPORTED_MEDIA_TYPE', names: ['multipart/form-data'] });
  });
});

describe('reference audio: judged by its total duration and silence; the create answers pending, the task fails at the end of processing', () => {
  const cases: [name: string, files: Files, failure: 'AUDIO_DURATION_INVALID' | 'NO_VALID_SPEECH' | undefined][] = [
    ['4.9 s', [wav(4.9)], 'AUDIO_DURATION_INVALID'],
    [`${referenceDurationMs.min / 1000} s (the shortest)`, [wav(5)], undefined],
    ['two files of 3 s (6 s together)', [wav(3), wav(3)], undefined],
    ['two files of 2.4 s (4.8 s together)', [wav(2.4), wav(2.4)], 'AUDIO_DURATION_INVALID'],
    [`${referenceDurationMs.max / 1000} s (the longest)`, [{ bytes: pcmWav({ sampleRate: 8_000, channels: 1, seconds: 300 }) }], undefined],
    ['301 s', [{ bytes: pcmWav({ sampleRate: 8_000, channels: 1, seconds: 301 }) }], 'AUDIO_DURATION_INVALID'],
    ['a silent WAV (every sample 0)', [{ bytes: wavBytes(6, { silent: true }) }], 'NO_VALID_SPEECH'],
    ['two silent WAVs', [{ bytes: wavBytes(3, { silent: true }) }, { bytes: wavBytes(3, { silent: true }) }], 'NO_VALID_SPEECH'],
    ['a silent WAV and a spoken one', [{ bytes: wavBytes(3, { silent: true }) }, wav(3)], undefined],
    ['4 files of 5 MB (109 s together)', Array.from({ length: 4 }, () => ({ bytes: wav5MB })), undefined],
  ];

  it.each(cases)('%s', async (_case, files, failure) => {
    const id = expectCreated(await create({}, files));
    await m.advance(cloneSchedule.pendingMs);
    expect((await poll(id)).json.data).toEqual({ taskId: id, status: 'processing' });
    await m.advance(cloneSchedule.processingMs);
    const r = await poll(id);
    expect(r.status, r.text).toBe(200);
    if (failure) expect(r.json.data).toEqual({ taskId: id, status: 'failed', errorCode: failure, errorMessage: expect.stringMatching(/\S/) });
    else expect(r.json.data).toEqual({ taskId: id, status: 'completed', demoAudioUrl: `${m.base}/media/voice-clone/${id}/demo.mp3` });
  });
});

describe('reference audio in the other formats (the samples of GET /__mock/samples/audio): measured from the file', () => {
  const sample = async (format: string, durationMs: number) => {
    const res = await fetch(`${m.base}/__mock/samples/audio?format=${format}&durationMs=${durationMs}`);
    expect(res.status).toBe(200);
    return { name: `reference.${format}`, bytes: new Uint8Array(await res.arrayBuffer()), type: res.headers.get('content-type') ?? '' };
  };

  it.each([
    ['mp3', 6_000, undefined],
    ['mp3', 4_000, 'AUDIO_DURATION_INVALID'],
    ['mp3', 300_000, undefined],
    ['mp3', 301_000, 'AUDIO_DURATION_INVALID'],
    ['opus', 5_000, undefined],
    ['opus', 4_000, 'AUDIO_DURATION_INVALID'],
    ['aac', 6_000, undefined],
    ['aac', 4_000, 'AUDIO_DURATION_INVALID'],
    ['flac', 6_000, undefined],
    ['flac', 4_000, 'AUDIO_DURATION_INVALID'],
    // 120,000 samples at 24 kHz (STREAMINFO; ffmpeg decodes them all): its last FLAC frame holds 192 samples
    ['flac', 5_000, undefined],
  ] as const)('%s of %i ms', async (format, durationMs, failure) => {
    const id = expectCreated(await create({}, [await sample(format, durationMs)]));
    await m.advance(cloneSchedule.pendingMs + cloneSchedule.processingMs);
    const t = (await poll(id)).json.data;
    if (failure) expect(t).toEqual({ taskId: id, status: 'failed', errorCode: failure, errorMessage: expect.stringMatching(/\S/) });
    else expect(t).toEqual({ taskId: id, status: 'completed', demoAudioUrl: expect.any(String) });
  });

  it('raw pcm (no container) is not audio the service reads: 400, 36013 naming audioFiles[0]', async () => {
    expectError(await create({}, [await sample('pcm', 6_000)]), { error: 'VOICE_CLONE_UNSUPPORTED_AUDIO', names: ['audioFiles[0]'] });
  });
});

describe(`rate limit: ${cloneRateLimit.limit} creates per minute per user`, () => {
  it('the 6th create within a minute: 429, 36029 with the documented Retry-After of 2 s; a minute after the first, allowed again', async () => {
    for (let i = 0; i < cloneRateLimit.limit; i++) expectCreated(await create());
    await m.advance(20_000);
    const sixth = await create();
    expectError(sixth, { error: 'VOICE_CLONE_RATE_LIMITED', names: [] });
    // document 2, "Errors": voice-clone 429s carry Retry-After, default 2 s (not the 40 s left in the window)
    expect(sixth.headers.get('retry-after')).toBe('2');
    // the refused request takes no place in the window
    await m.advance(39_000);
    const still = await create();
    expectError(still, { error: 'VOICE_CLONE_RATE_LIMITED', names: [] });
    expect(still.headers.get('retry-after')).toBe('2');
    await m.advance(1_000);
    expectCreated(await create());
  });

  it('per user: another key creates while the first is limited', async () => {
    for (let i = 0; i < cloneRateLimit.limit; i++) expectCreated(await create());
    expectError(await create(), { error: 'VOICE_CLONE_RATE_LIMITED', names: [] });
    expectCreated(await create({}, undefined, OTHER_KEY));
  });
});

describe('POST /v1/voice-clone/confirm body', () => {
  let taskId: string;
  beforeEach(async () => {
    taskId = expectCreated(await create());
    await m.advance(cloneSchedule.pendingMs + cloneSchedule.processingMs);
  });

  const cases: [name: string, body: (taskId: string) => Body, expected: Expected][] = [
    ['taskId, name and gender', (taskId) => ({ taskId, name: 'Narrator', gender: 'other' }), ok],
    [`name of ${VOICE_NAME_MAX} characters, useCredits false`, (taskId) => ({ taskId, name: 'n'.repeat(50), gender: 'male', useCredits: false }), ok],
    ['taskId missing', () => ({ name: 'Narrator', gender: 'male' }), invalid('taskId')],
    ['name missing', (taskId) => ({ taskId, gender: 'male' }), invalid('name')],
    ['name empty', (taskId) => ({ taskId, name: '', gender: 'male' }), invalid('name')],
    [`name of ${VOICE_NAME_MAX + 1} characters`, (taskId) => ({ taskId, name: 'n'.repeat(51), gender: 'male' }), invalid('name')],
    ['gender missing', (taskId) => ({ taskId, name: 'Narrator' }), invalid('gender')],
    ['gender unknown', (taskId) => ({ taskId, name: 'Narrator', gender: 'unknown' }), invalid('gender')],
    ['useCredits "true" (a string in JSON)', (taskId) => ({ taskId, name: 'Narrator', gender: 'male', useCredits: 'true' }), invalid('useCredits')],
  ];

  it.each(cases)('%s', async (_case, body, expected) => {
    const r = await m.call('POST', pathOf('confirmVoiceClone'), { body: body(taskId) });
    if (expected === 'ok') {
      expect(r.status, r.text).toBe(200);
      expect(r.json).toEqual({ code: 0, message: '', data: { speakerId: expect.stringMatching(/^vc_/) } });
    } else expectError(r, expected);
  });
});

describe('PUT /v1/voice-clone/speakers/{speakerId} body', () => {
  let speakerId: string;
  beforeEach(async () => {
    const taskId = expectCreated(await create());
    await m.advance(cloneSchedule.pendingMs + cloneSchedule.processingMs);
    speakerId = (await m.call('POST', pathOf('confirmVoiceClone'), { body: { taskId, name: 'Narrator', gender: 'female' } })).json.data.speakerId;
  });

  const cases: [name: string, body: Body, expected: Expected][] = [
    ['name only', { name: 'Renamed' }, ok],
    ['gender only', { gender: 'male' }, ok],
    ['name and gender', { name: 'Renamed', gender: 'other' }, ok],
    [`name of ${VOICE_NAME_MAX} characters`, { name: 'n'.repeat(VOICE_NAME_MAX) }, ok],
    ['neither name nor gender', {}, invalid('name', 'gender')],
    ['only an unknown field', { label: 'x' }, invalid('name', 'gender')],
    [`name of ${VOICE_NAME_MAX + 1} characters`, { name: 'n'.repeat(VOICE_NAME_MAX + 1) }, invalid('name')],
    ['name empty', { name: '' }, invalid('name')],
    ['gender unknown', { gender: 'unknown' }, invalid('gender')],
  ];

  it.each(cases)('%s', async (_case, body, expected) => {
    const r = await m.call('PUT', pathOf('updatePrivateVoice', { speakerId }), { body });
    if (expected === 'ok') {
      expect(r.status, r.text).toBe(200);
      expect(r.json.data).toMatchObject({ speakerInnerId: speakerId, ...body });
    } else expectError(r, expected);
  });
});
