/**
 * Voice-clone lifecycle on the manual clock (document 2, "Voice-clone task
 * (poll result)", "Private voice", "States and transitions", "Voice cloning
 * (prefix /v1/voice-clone)"): pending -> processing -> completed with a hosted
 * MP3 preview; forced failures and the 30-minute timeout; owner scoping and
 * unknown ids; the 7-day expiry of an unconfirmed task; the private voices
 * (list, get, update, delete and the slot it frees); and a confirmed voice in
 * every speech endpoint and the speaker list, until it is deleted.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { errorCatalog, type ErrorName } from '../schemas/errors.ts';
import { CLONE_DEMO_MS, CLONE_EXPIRY_MS, cloneSchedule } from '../schemas/voice-clone.ts';
import { cloneForm, flowSpeechBody, pathOf, speechBody, ttsBody } from './factories.ts';
import { decodeAudio } from '../verify/decoders.ts';
import { type CallResult, KEY, OTHER_KEY, type TestMock, useMocks } from './helpers.ts';

const start = useMocks();
let m: TestMock;
beforeEach(async () => {
  m = await start();
});

const DONE_MS = cloneSchedule.pendingMs + cloneSchedule.processingMs;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const iso = (ms: number) => new Date(ms).toISOString();

function expectError(r: CallResult, name: ErrorName, messagePart?: string) {
  const e = errorCatalog[name];
  expect(r.status, `${name}: ${r.text}`).toBe(e.httpStatus);
  expect(r.json).toEqual({ code: e.code, message: expect.any(String), data: null });
  if (messagePart) expect(r.json.message).toContain(messagePart);
}

async function create(fields: Record<string, string | null> = {}, headers: Record<string, string> = {}, key = KEY): Promise<string> {
  const r = await m.call('POST', pathOf('createVoiceClone'), { body: cloneForm(fields), headers, key });
  expect(r.status, r.text).toBe(200);
  expect(r.json).toEqual({ code: 0, message: '', data: { taskId: expect.stringMatching(/^vct_/), status: 'pending' } });
  return r.json.data.taskId as string;
}
const poll = (id: string, key = KEY) => m.call('GET', pathOf('getVoiceClone', { taskId: id }), { key });
const task = async (id: string) => {
  const r = await poll(id);
  expect(r.status, r.text).toBe(200);
  return r.json.data;
};
const confirm = (taskId: string, over: Record<string, unknown> = {}, key = KEY) =>
  m.call('POST', pathOf('confirmVoiceClone'), { body: { taskId, name: 'Narrator', gender: 'female', ...over }, key });
/** Creates a clone in `language`, lets it complete and confirms it; returns the speakerId. */
async function voice(language = 'en', name = 'Narrator', gender = 'female', key = KEY): Promise<string> {
  const id = await create({ language }, {}, key);
  await m.advance(DONE_MS);
  const r = await confirm(id, { name, gender }, key);
  expect(r.status, r.text).toBe(200);
  return r.json.data.speakerId as string;
}
const setAccount = async (body: Record<string, unknown>) => {
  const r = await m.call('PUT', `/__mock/accounts/${KEY}`, { key: null, body });
  expect(r.status, r.text).toBe(200);
};

describe('the clone task', () => {
  it('pending -> processing (after 2 s) -> completed (after 10 s) with a demoAudioUrl that decodes as an MP3 of about 4 s', async () => {
    const id = await create();
    expect(await task(id)).toEqual({ taskId: id, status: 'pending' });
    await m.advance(cloneSchedule.pendingMs - 1);
    expect(await task(id)).toEqual({ taskId: id, status: 'pending' });
    await m.advance(1);
    expect(await task(id)).toEqual({ taskId: id, status: 'processing' });
    await m.advance(cloneSchedule.processingMs - 1);
    expect(await task(id)).toEqual({ taskId: id, status: 'processing' });
    await m.advance(1);
    const done = await task(id);
    expect(done).toEqual({ taskId: id, status: 'completed', demoAudioUrl: `${m.base}/media/voice-clone/${id}/demo.mp3` });
    const res = await fetch(done.demoAudioUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^audio\/mpeg/);
    const audio = await decodeAudio(new Uint8Array(await res.arrayBuffer()), 'mp3');
    expect(audio.container).toBe('MPEG');
    expect(Math.abs(audio.durationMs - CLONE_DEMO_MS)).toBeLessThan(150);
  });

  it('a confirm before completion: 409, 36011; the poll of a confirmed task carries its speakerId', async () => {
    const id = await create();
    expectError(await confirm(id), 'VOICE_CLONE_TASK_NOT_COMPLETED', id);
    await m.advance(cloneSchedule.pendingMs);
    expectError(await confirm(id), 'VOICE_CLONE_TASK_NOT_COMPLETED', id);
    await m.advance(cloneSchedule.processingMs);
    const r = await confirm(id);
    expect(r.status, r.text).toBe(200);
    const speakerId = r.json.data.speakerId as string;
    expect(await task(id)).toEqual({ taskId: id, status: 'completed', demoAudioUrl: expect.any(String), speakerId });
    expectError(await confirm(id), 'ALREADY_CONFIRMED', id);
  });

  it.each([
    ['outcome=failed', 'TASK_FAILED'],
    ['outcome=failed, error=TASK_FAILED', 'TASK_FAILED'],
    ['outcome=failed, error=AUDIO_DURATION_INVALID', 'AUDIO_DURATION_INVALID'],
    ['outcome=failed, error=NO_VALID_SPEECH', 'NO_VALID_SPEECH'],
    ['outcome=failed, error=36007', 'NO_VALID_SPEECH'],
  ])('Prefer: %s: processing, then failed with errorCode %s at the end of processing', async (prefer, errorCode) => {
    const id = await create({}, { prefer });
    await m.advance(cloneSchedule.pendingMs);
    expect(await task(id)).toEqual({ taskId: id, status: 'processing' });
    await m.advance(cloneSchedule.processingMs - 1);
    expect((await task(id)).status).toBe('processing');
    await m.advance(1);
    expect(await task(id)).toEqual({ taskId: id, status: 'failed', errorCode, errorMessage: expect.stringMatching(/\S/) });
    expectError(await confirm(id), 'VOICE_CLONE_TASK_NOT_COMPLETED', id);
  });

  it('Prefer: outcome=stuck stays processing; 30 minutes after creation it fails with TASK_FAILED', async () => {
    const id = await create({}, { prefer: 'outcome=stuck' });
    await m.advance(DONE_MS);
    expect(await task(id)).toEqual({ taskId: id, status: 'processing' });
    await m.advance(cloneSchedule.timeoutMs - DONE_MS - 1);
    expect((await task(id)).status).toBe('processing');
    await m.advance(1);
    expect(await task(id)).toEqual({ taskId: id, status: 'failed', errorCode: 'TASK_FAILED', errorMessage: expect.stringContaining('30 minutes') });
  });

  it('Prefer: outcome=failed with an error the task cannot fail with: 400, 10007', async () => {
    const r = await m.call('POST', pathOf('createVoiceClone'), { body: cloneForm(), headers: { prefer: 'outcome=failed, error=NEED_CREDIT' } });
    expectError(r, 'INVALID_PREFER');
  });
});

describe('owner scoping and unknown ids', () => {
  it("another key's task answers 404 (36009) to poll and confirm; its voice 404 (36012) to get, update and delete", async () => {
    const id = await create();
    expectError(await poll(id, OTHER_KEY), 'VOICE_CLONE_TASK_NOT_FOUND', id);
    await m.advance(DONE_MS);
    expectError(await poll(id, OTHER_KEY), 'VOICE_CLONE_TASK_NOT_FOUND', id);
    expectError(await confirm(id, {}, OTHER_KEY), 'VOICE_CLONE_TASK_NOT_FOUND', id);
    const speakerId = (await confirm(id)).json.data.speakerId as string;
    const own = (await m.call('GET', pathOf('getPrivateVoice', { speakerId }))).json.data;
    for (const ref of [speakerId, own.id as string]) {
      expectError(await m.call('GET', pathOf('getPrivateVoice', { speakerId: ref }), { key: OTHER_KEY }), 'VOICE_CLONE_SPEAKER_NOT_FOUND', ref);
      expectError(
        await m.call('PUT', pathOf('updatePrivateVoice', { speakerId: ref }), { key: OTHER_KEY, body: { name: 'Mine now' } }),
        'VOICE_CLONE_SPEAKER_NOT_FOUND',
        ref,
      );
      expectError(await m.call('DELETE', pathOf('deletePrivateVoice', { speakerId: ref }), { key: OTHER_KEY }), 'VOICE_CLONE_SPEAKER_NOT_FOUND', ref);
    }
    expect((await m.call('GET', pathOf('listPrivateVoices'), { key: OTHER_KEY })).json.data.speakers).toEqual([]);
    // untouched for its owner
    expect((await m.call('GET', pathOf('getPrivateVoice', { speakerId }))).json.data.name).toBe('Narrator');
  });

  it('unknown ids: 404 with 36009 (task) and 36012 (voice), naming the id', async () => {
    expectError(await poll('vct_0000000000000000'), 'VOICE_CLONE_TASK_NOT_FOUND', 'vct_0000000000000000');
    expectError(await confirm('vct_0000000000000000'), 'VOICE_CLONE_TASK_NOT_FOUND', 'vct_0000000000000000');
    expectError(await m.call('GET', pathOf('getPrivateVoice', { speakerId: 'vc_missing' })), 'VOICE_CLONE_SPEAKER_NOT_FOUND', 'vc_missing');
    expectError(
      await m.call('PUT', pathOf('updatePrivateVoice', { speakerId: 'vc_missing' }), { body: { gender: 'male' } }),
      'VOICE_CLONE_SPEAKER_NOT_FOUND',
      'vc_missing',
    );
    expectError(await m.call('DELETE', pathOf('deletePrivateVoice', { speakerId: 'vc_missing' })), 'VOICE_CLONE_SPEAKER_NOT_FOUND', 'vc_missing');
  });
});

describe('expiry: an unconfirmed task 7 days after completing', () => {
  it('answers until completion + 7 days - 1 ms; from completion + 7 days, poll and confirm answer 410 (36010); a confirmed task never expires', async () => {
    const [expiring, confirmedEarly, confirmedLate] = [await create(), await create(), await create()];
    await m.advance(DONE_MS);
    const early = (await confirm(confirmedEarly)).json.data.speakerId as string;
    await m.advance(CLONE_EXPIRY_MS - 1);
    expect(await task(expiring)).toEqual({ taskId: expiring, status: 'completed', demoAudioUrl: expect.any(String) });
    const late = await confirm(confirmedLate);
    expect(late.status, late.text).toBe(200);
    await m.advance(1);
    expectError(await poll(expiring), 'VOICE_CLONE_TASK_EXPIRED', expiring);
    expectError(await confirm(expiring), 'VOICE_CLONE_TASK_EXPIRED', expiring);
    await m.advance(30 * 24 * 3_600_000);
    expectError(await poll(expiring), 'VOICE_CLONE_TASK_EXPIRED', expiring);
    expect(await task(confirmedEarly)).toEqual({ taskId: confirmedEarly, status: 'completed', demoAudioUrl: expect.any(String), speakerId: early });
    expect((await task(confirmedLate)).speakerId).toBe(late.json.data.speakerId);
    // the expired task took no confirmation
    expect((await m.call('GET', pathOf('listPrivateVoices'))).json.data).toMatchObject({ remainingConfirmations: 1 });
  });
});

describe('private voices', () => {
  it('list: the voices with exactly id, speakerInnerId, name, language, gender, demoAudioUrl, createdAt (no updatedAt), and the allowance', async () => {
    expect((await m.call('GET', pathOf('listPrivateVoices'))).json).toEqual({
      code: 0,
      message: '',
      data: { speakers: [], quota: 3, remainingConfirmations: 3, maxSpeakers: 5, isLimitReached: false },
    });
    const t0 = m.engine.clock.now();
    const a = await voice('fr', 'Aline', 'female');
    await m.advance(5_000);
    const b = await voice('ja', 'Kenji', 'male');
    const r = await m.call('GET', pathOf('listPrivateVoices'));
    expect(r.status, r.text).toBe(200);
    const { speakers, ...allowance } = r.json.data;
    expect(allowance).toEqual({ quota: 3, remainingConfirmations: 1, maxSpeakers: 5, isLimitReached: false });
    expect(speakers).toEqual([
      {
        id: expect.stringMatching(/^pv_/),
        speakerInnerId: a,
        name: 'Aline',
        language: 'fr',
        gender: 'female',
        demoAudioUrl: `${m.base}/media/voice-clone/speakers/${a}/demo.mp3`,
        createdAt: iso(t0 + DONE_MS),
      },
      {
        id: expect.stringMatching(/^pv_/),
        speakerInnerId: b,
        name: 'Kenji',
        language: 'ja',
        gender: 'male',
        demoAudioUrl: `${m.base}/media/voice-clone/speakers/${b}/demo.mp3`,
        createdAt: iso(t0 + DONE_MS + 5_000 + DONE_MS),
      },
    ]);
    for (const s of speakers) {
      expect(Object.keys(s).sort()).toEqual(['createdAt', 'demoAudioUrl', 'gender', 'id', 'language', 'name', 'speakerInnerId']);
      expect(s.createdAt).toMatch(ISO);
      const demo = await fetch(s.demoAudioUrl as string);
      expect(demo.status).toBe(200);
      expect((await decodeAudio(new Uint8Array(await demo.arrayBuffer()), 'mp3')).durationMs).toBeGreaterThan(CLONE_DEMO_MS - 150);
    }
    await voice('de', 'Dora', 'other');
    expect((await m.call('GET', pathOf('listPrivateVoices'))).json.data).toMatchObject({ remainingConfirmations: 0, isLimitReached: true });
  });

  it('get: the voice with updatedAt, by speakerInnerId or by id; update name, gender, both: updatedAt moves with the clock, createdAt stays', async () => {
    const created = m.engine.clock.now() + DONE_MS;
    const speakerId = await voice('en', 'Narrator', 'female');
    const get = async (ref = speakerId) => {
      const r = await m.call('GET', pathOf('getPrivateVoice', { speakerId: ref }));
      expect(r.status, r.text).toBe(200);
      return r.json.data;
    };
    const first = await get();
    expect(first).toEqual({
      id: expect.stringMatching(/^pv_/),
      speakerInnerId: speakerId,
      name: 'Narrator',
      language: 'en',
      gender: 'female',
      demoAudioUrl: `${m.base}/media/voice-clone/speakers/${speakerId}/demo.mp3`,
      createdAt: iso(created),
      updatedAt: iso(created),
    });
    expect(await get(first.id as string)).toEqual(first);

    const put = async (body: Record<string, unknown>) => {
      const r = await m.call('PUT', pathOf('updatePrivateVoice', { speakerId }), { body });
      expect(r.status, r.text).toBe(200);
      return r.json.data;
    };
    await m.advance(60_000);
    expect(await put({ name: 'Warm narrator' })).toEqual({ ...first, name: 'Warm narrator', updatedAt: iso(created + 60_000) });
    await m.advance(3_600_000);
    expect(await put({ gender: 'other' })).toEqual({ ...first, name: 'Warm narrator', gender: 'other', updatedAt: iso(created + 3_660_000) });
    await m.advance(1);
    const both = await put({ name: 'Deep narrator', gender: 'male' });
    expect(both).toEqual({ ...first, name: 'Deep narrator', gender: 'male', updatedAt: iso(created + 3_660_001) });
    expect(await get()).toEqual(both);
    // the list shows the new name and gender, still without updatedAt
    const listed = (await m.call('GET', pathOf('listPrivateVoices'))).json.data.speakers;
    expect(listed).toEqual([
      {
        id: first.id,
        speakerInnerId: speakerId,
        name: 'Deep narrator',
        language: 'en',
        gender: 'male',
        demoAudioUrl: first.demoAudioUrl,
        createdAt: iso(created),
      },
    ]);
  });

  it('delete: returns {speakerId}, frees a slot (SPEAKER_LIMIT_REACHED no longer), the voice then 404s', async () => {
    await setAccount({ voiceClone: { maxSpeakers: 1 } });
    const first = await voice('en', 'First', 'female');
    const second = await create();
    await m.advance(DONE_MS);
    expectError(await confirm(second, { name: 'Second' }), 'SPEAKER_LIMIT_REACHED');
    expect(await task(second)).toEqual({ taskId: second, status: 'completed', demoAudioUrl: expect.any(String) });

    const del = await m.call('DELETE', pathOf('deletePrivateVoice', { speakerId: first }));
    expect(del.status, del.text).toBe(200);
    expect(del.json).toEqual({ code: 0, message: '', data: { speakerId: first } });
    expectError(await m.call('GET', pathOf('getPrivateVoice', { speakerId: first })), 'VOICE_CLONE_SPEAKER_NOT_FOUND', first);
    expectError(await m.call('PUT', pathOf('updatePrivateVoice', { speakerId: first }), { body: { name: 'Back' } }), 'VOICE_CLONE_SPEAKER_NOT_FOUND', first);
    expectError(await m.call('DELETE', pathOf('deletePrivateVoice', { speakerId: first })), 'VOICE_CLONE_SPEAKER_NOT_FOUND', first);
    expect((await fetch(`${m.base}/media/voice-clone/speakers/${first}/demo.mp3`)).status).toBe(404);

    const r = await confirm(second, { name: 'Second' });
    expect(r.status, r.text).toBe(200);
    const list = (await m.call('GET', pathOf('listPrivateVoices'))).json.data;
    expect(list.speakers.map((s: { speakerInnerId: string }) => s.speakerInnerId)).toEqual([r.json.data.speakerId]);
    // a deleted voice does not give its confirmation back
    expect(list).toMatchObject({ quota: 3, remainingConfirmations: 1, maxSpeakers: 1 });
  });
});

describe('a confirmed voice in the speech endpoints', () => {
  it('its speakerInnerId works in /v1/tts, /v1/audio/speech, /v1/speech and /v1/flow-speech/episodes, and is listed (type cloned) until deleted', async () => {
    const speakerId = await voice('fr', 'Aline', 'female');

    for (const op of ['synthesizeSpeech', 'createSpeech'] as const) {
      const r = await m.call('POST', pathOf(op), { body: ttsBody({ voice: speakerId }) });
      expect(r.status, `${op}: ${r.text.slice(0, 300)}`).toBe(200);
      expect(r.headers.get('content-type')).toBe('audio/mpeg');
    }
    const script = await m.call('POST', pathOf('createSpeechScript'), {
      body: speechBody({
        scripts: [
          { speakerId, content: 'Bonjour à tous.' },
          { speakerId: 'en_ava', content: 'Hello.' },
        ],
      }),
    });
    expect(script.status, script.text).toBe(200);
    const episode = await m.call('POST', pathOf('createFlowSpeechEpisode'), { body: flowSpeechBody({ speakers: [{ speakerId }] }) });
    expect(episode.status, episode.text).toBe(200);

    const listed = async (key = KEY) =>
      (await m.call('GET', pathOf('listSpeakers', {}, { language: 'fr' }), { key })).json.data.speakers.filter(
        (s: { speakerId: string }) => s.speakerId === speakerId,
      );
    const [entry] = await listed();
    expect(entry).toEqual({
      speakerId,
      name: 'Aline',
      language: 'fr',
      gender: 'female',
      demoAudioUrl: `${m.base}/media/voice-clone/speakers/${speakerId}/demo.mp3`,
      type: 'cloned',
    });
    const demo = await fetch(entry.demoAudioUrl as string);
    expect(demo.status).toBe(200);
    expect(demo.headers.get('content-type')).toMatch(/^audio\/mpeg/);
    await decodeAudio(new Uint8Array(await demo.arrayBuffer()), 'mp3');
    // not under another language
    const en = (await m.call('GET', pathOf('listSpeakers', {}, { language: 'en' }))).json.data.speakers;
    expect(en.map((s: { speakerId: string }) => s.speakerId)).not.toContain(speakerId);

    // another key can neither use nor see it
    expectError(
      await m.call('POST', pathOf('synthesizeSpeech'), { body: ttsBody({ voice: speakerId }), key: OTHER_KEY }),
      'SPEECH_SPEAKER_NOT_FOUND',
      speakerId,
    );
    expect(await listed(OTHER_KEY)).toEqual([]);

    expect((await m.call('DELETE', pathOf('deletePrivateVoice', { speakerId }))).status).toBe(200);
    expectError(await m.call('POST', pathOf('synthesizeSpeech'), { body: ttsBody({ voice: speakerId }) }), 'SPEECH_SPEAKER_NOT_FOUND', speakerId);
    expectError(
      await m.call('POST', pathOf('createSpeechScript'), { body: speechBody({ scripts: [{ speakerId, content: 'Encore.' }] }) }),
      'SPEECH_SPEAKER_NOT_FOUND',
      speakerId,
    );
    expect(await listed()).toEqual([]);
  });
});
