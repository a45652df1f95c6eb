/**
 * The music operations through Prism's validation proxy (test/prism.ts):
 * every request goes client -> Prism (--errors, spec/openapi.yaml) -> a fresh
 * mock, and any violation in either direction fails the test. The seven
 * creates (JSON and multipart) and the task in every status (tracks, failed
 * with errorMessage), the list, the documented errors the spec cannot rule
 * out, every Prefer-forced answer of the nine operations, and requests the
 * spec itself forbids (flagged by Prism, answered by the mock with its
 * documented error).
 *
 * Prism 5.14.2 forwards a body as text, so bytes that are not UTF-8 arrive
 * altered: the files sent through it are ASCII (a WebP and an MP4 header, an
 * 8-bit PCM WAV with ASCII chunk sizes and samples); real MP3 and M4A uploads
 * are tested against the mock directly (test/music-uploads.test.ts). Track
 * URLs are loaded from the mock: the document holds no /media paths.
 */
import { describe, expect, it } from 'vitest';
import { errorCatalog } from '../schemas/errors.ts';
import { musicSchedule } from '../schemas/music.ts';
import { operationIds, operations, type OperationId } from '../schemas/operations.ts';
import type { OperationDef } from '../schemas/registry-types.ts';
import { decodeAudio } from '../verify/decoders.ts';
import { asciiWav, type Body, magicFiles, musicBody, musicCoverBody, musicForm, musicFormFields, pathOf } from './factories.ts';
import {
  expectErrorEnvelope as expectError,
  expectForwarded,
  forcedCases,
  KEY,
  OTHER_KEY,
  usePrism,
  viaSpecOrMock,
  type MockHandle,
  type PrismHarness,
} from './prism.ts';

const prism = usePrism();

const DONE_MS = 200_000;
const ok = (method: string, path: string, opts: Parameters<PrismHarness['call']>[2] = {}, status = 200) => expectForwarded(prism, method, path, opts, status);
const musicB = (over: Body = {}) => ({ provider: 'musicB', prompt: '[Verse]\nRain on the harbor', ...over });
const wav = asciiWav(6); // 6.1 s

const create = async (op: OperationId, body: Body | FormData, headers: Record<string, string> = {}, key?: string) => {
  const r = await ok('POST', pathOf(op), { body, headers, key }, 202);
  expect(r.json).toEqual({ code: 0, message: '', data: { taskId: expect.stringMatching(/^mus_/), status: 'pending' } });
  return r.json.data.taskId as string;
};
const getTask = async (id: string, key?: string) => (await ok('GET', pathOf('getMusicTask', { taskId: id }), { key })).json.data;
const list = async (query: Record<string, string | number> = {}, key?: string) => (await ok('GET', pathOf('listMusicTasks', {}, query), { key })).json.data;
const setCredits = (m: MockHandle, credits: number) => m.call('PUT', `/__mock/accounts/${KEY}`, { key: null, body: { credits } });
const call = (method: string, path: string, opts: Parameters<PrismHarness['call']>[2] = {}) => prism.call(method, path, opts);
/** A request that may break a body rule the spec carries (docs/rules.md): refused by Prism itself, then answered by the mock directly. */
const ruled = (method: string, path: string, opts: Parameters<PrismHarness['call']>[2] = {}) => viaSpecOrMock(prism, method, path, opts);

/** A succeeded song of the key, read through Prism. */
async function song(m: MockHandle, body: Body = musicBody(), key?: string) {
  const id = await create('generateMusic', body, {}, key);
  await m.advance(DONE_MS);
  return getTask(id, key);
}

describe('the music task through Prism', () => {
  it('generate on musicA and musicB: pending, generating, uploading, success with tracks that play; the list', async () => {
    const m = prism.useMock();
    const a = await create('generateMusic', musicBody());
    const b = await create('generateMusic', musicB({ model: 'V4_5', providerParams: { vocalGender: 'f', dropped: true } }));
    const first = await getTask(b);
    expect(Object.keys(first).sort()).toEqual(['createdAt', 'creditCost', 'id', 'params', 'provider', 'status', 'taskType', 'tracks', 'updatedAt']);
    expect(first).toMatchObject({ provider: 'musicB', taskType: 'GENERATE', status: 'pending', tracks: [], creditCost: 0 });
    expect(first.params).toEqual({
      model: 'V4_5',
      prompt: '[Verse]\nRain on the harbor',
      instrumental: false,
      customMode: true,
      providerParams: { vocalGender: 'f' },
    });
    await m.advance(musicSchedule.pendingMs);
    expect((await getTask(a)).status).toBe('generating');
    expect(await list({ status: 'generating' })).toMatchObject({ total: 2, page: 1, pageSize: 20 });
    await m.advance(musicSchedule.generatingMaxMs);
    expect((await getTask(a)).status).toMatch(/uploading|success/);
    await m.advance(musicSchedule.uploadingMs);
    for (const [id, provider, tracks, credits] of [
      [a, 'musicA', 1, 10],
      [b, 'musicB', 2, 15],
    ] as const) {
      const t = await getTask(id);
      expect(t).toMatchObject({ provider, status: 'success', creditCost: credits });
      expect(t.tracks).toHaveLength(tracks);
      for (const track of t.tracks) {
        expect(Object.keys(track).sort()).toEqual(['audioUrl', 'duration', 'providerSongId', 'tags', 'title']);
        const res = await fetch(track.audioUrl as string);
        expect(res.status).toBe(200);
        expect((await decodeAudio(new Uint8Array(await res.arrayBuffer()), 'mp3')).durationMs).toBeCloseTo(track.duration * 1000, 6);
      }
    }
    const page = await list({ status: 'success', page: 1, pageSize: 1 });
    expect(page).toMatchObject({ page: 1, pageSize: 1, total: 2 });
    expect(page.items[0].id).toBe(b);
    expect(await list({ status: 'pending' })).toMatchObject({ items: [], total: 0 });
  });

  it('the multipart creates and cover: instrumental (prompt), soundtrack (WebP, MP4), track (song id, WAV with a window), remix (own URL, song id), cover (own URL), extend (numbers as text)', async () => {
    const m = prism.useMock();
    const a = await song(m);
    const b = await song(m, musicB());
    const ids = [
      await create('generateInstrumental', musicForm({ ...musicFormFields.instrumental, model: 'musicA-o2' })),
      await create('generateSoundtrack', musicForm({}, { image: { bytes: magicFiles.webp, name: 'still.webp', type: 'image/webp' } })),
      await create(
        'generateSoundtrack',
        musicForm({ model: 'musicA-9', prompt: 'tense' }, { video: { bytes: magicFiles.mp4, name: 'clip.mp4', type: 'video/mp4' } }),
      ),
      await create('generateTrack', musicForm({ ...musicFormFields.track, providerSongId: a.tracks[0].providerSongId })),
      await create(
        'generateTrack',
        musicForm(
          { generateType: 'Vocals', prompt: 'harmonies', lyrics: 'oh', vocalGender: 'male', generateStart: '1', generateEnd: '4' },
          { audio: { bytes: wav, name: 'mix.wav', type: 'audio/wav' } },
        ),
      ),
      await create('remixMusic', musicForm({ ...musicFormFields.remix, audioUrl: a.tracks[0].audioUrl })),
      await create('remixMusic', musicForm({ ...musicFormFields.remix, providerSongId: a.tracks[0].providerSongId })),
      await create('coverMusic', musicCoverBody({ uploadUrl: b.tracks[1].audioUrl, model: 'V5', providerParams: { personaId: 'p1', personaModel: 'V5' } })),
      await create('extendMusic', musicForm({ taskId: b.id, trackIndex: '1', continueAt: '12.5', styleWeight: '0.5', vocalGender: 'm' })),
      await create('extendMusic', musicForm({ taskId: a.id, providerSongId: a.tracks[0].providerSongId, model: 'musicA-8', provider: 'default' })),
    ];
    await m.advance(DONE_MS);
    const tasks = [];
    for (const id of ids) tasks.push(await getTask(id));
    expect(tasks.map((t) => t.taskType)).toEqual(['INSTRUMENTAL', 'SOUNDTRACK', 'SOUNDTRACK', 'TRACK', 'TRACK', 'REMIX', 'REMIX', 'COVER', 'EXTEND', 'EXTEND']);
    expect(tasks.map((t) => t.status)).toEqual(Array(10).fill('success'));
    expect(tasks.map((t) => t.creditCost)).toEqual([10, 15, 15, 10, 10, 10, 10, 15, 15, 15]);
    expect(tasks[4].tracks[0].duration).toBe(3);
    expect(tasks[4].params.audio).toEqual({ filename: 'mix.wav', bytes: wav.length, type: 'wav' });
    expect(tasks[7].tracks.map((t: { duration: number }) => t.duration)).toEqual([b.tracks[1].duration, b.tracks[1].duration]);
    expect(tasks[8].params).toMatchObject({ trackIndex: 1, continueAt: 12.5, providerParams: { styleWeight: 0.5, vocalGender: 'm' } });
    expect(tasks[9].params).toMatchObject({ model: 'musicA-8', trackIndex: 0 });
    expect((await list({ pageSize: 100 })).total).toBe(12);
  });

  it('failed tasks carry errorMessage: forced failures, a provider rejection, a stuck task after the timeout', async () => {
    const m = prism.useMock();
    const ids = [
      await create('generateMusic', musicBody(), { prefer: 'outcome=failed' }),
      await create('coverMusic', musicCoverBody(), { prefer: `outcome=failed, error=${errorCatalog.MUSIC_PROVIDER_REJECTED.code}` }),
      await create('generateInstrumental', musicForm(musicFormFields.instrumental), { prefer: 'outcome=stuck' }),
    ];
    await m.advance(musicSchedule.pendingMs + musicSchedule.timeoutMs);
    const codes = [];
    for (const id of ids) {
      const t = await getTask(id);
      expect(t).toMatchObject({ status: 'failed', tracks: [], creditCost: 0, errorMessage: expect.any(String) });
      codes.push(Number(t.errorMessage.slice(0, 5)));
    }
    expect(codes).toEqual([39011, 39012, 39013]);
    expect((await list({ status: 'failed' })).total).toBe(3);
    expect((await m.call('GET', `/__mock/accounts/${KEY}`, { key: null })).json.credits).toBe(10_000);
  });
});

describe('documented errors the spec cannot rule out', () => {
  it('generate and cover: 39001, 39006, 39007, 39003, 39008, 39009', async () => {
    const m = prism.useMock();
    const gen = (body: Body) => ruled('POST', pathOf('generateMusic'), { body });
    expectError(await gen(musicBody({ lyrics: undefined })), 'MUSIC_INVALID_PARAMETERS', 'lyrics');
    expectError(await gen(musicB({ vocalId: 'v1' })), 'MUSIC_PROVIDER_UNSUPPORTED', 'vocalId');
    expectError(await gen(musicBody({ customMode: false })), 'MUSIC_PROVIDER_UNSUPPORTED', 'customMode');
    expectError(await gen(musicBody({ model: 'V6' })), 'MUSIC_MODEL_UNSUPPORTED', 'model');
    expectError(await gen(musicB({ providerParams: { personaModel: 'V6' } })), 'MUSIC_INVALID_PARAMETERS', 'personaId');
    expectError(await ruled('POST', pathOf('coverMusic'), { body: musicCoverBody({ style: undefined }) }), 'MUSIC_INVALID_PARAMETERS', 'style');
    const theirs = await song(m, musicBody(), OTHER_KEY);
    expectError(await call('POST', pathOf('coverMusic'), { body: musicCoverBody({ uploadUrl: theirs.tracks[0].audioUrl }) }), 'MUSIC_SOURCE_FORBIDDEN');
    expectError(
      await call('POST', pathOf('coverMusic'), { body: musicCoverBody({ uploadUrl: `${m.base}/media/music/mus_0/0.mp3` }) }),
      'MUSIC_SOURCE_NOT_FOUND',
    );
    await setCredits(m, 9);
    expectError(await gen(musicBody()), 'MUSIC_INSUFFICIENT_CREDITS');
  });

  it('uploads: a file of the wrong type (39004), an unknown song (39009), a musicB song on /track (39006), a window past the source (39001)', async () => {
    const m = prism.useMock();
    const b = await song(m, musicB());
    const text = { bytes: new TextEncoder().encode('plain text'), name: 'a.png', type: 'image/png' };
    expectError(await call('POST', pathOf('generateSoundtrack'), { body: musicForm({}, { image: text }) }), 'MUSIC_UNSUPPORTED_FILE', 'image');
    expectError(
      await call('POST', pathOf('generateTrack'), { body: musicForm({ ...musicFormFields.track, providerSongId: 'ma_0000000000000000_0' }) }),
      'MUSIC_SOURCE_NOT_FOUND',
      'providerSongId',
    );
    expectError(
      await call('POST', pathOf('generateTrack'), { body: musicForm({ ...musicFormFields.track, providerSongId: b.tracks[0].providerSongId }) }),
      'MUSIC_PROVIDER_UNSUPPORTED',
    );
    expectError(
      await call('POST', pathOf('generateTrack'), {
        body: musicForm({ ...musicFormFields.track, generateEnd: '60' }, { audio: { bytes: wav, name: 'a.wav' } }),
      }),
      'MUSIC_INVALID_PARAMETERS',
      'generateEnd',
    );
    expectError(
      await ruled('POST', pathOf('remixMusic'), { body: musicForm({ ...musicFormFields.remix, audioUrl: 'ftp://example.com/a.mp3' }) }),
      'MUSIC_INVALID_PARAMETERS',
      'audioUrl',
    );
  });

  it('extend: an unknown task (39002), one not finished (39010), musicB fields on a musicA task (39006), trackIndex out of range (39001); reads: 39002', async () => {
    const m = prism.useMock();
    const a = await song(m);
    const ext = (fields: Record<string, string>, key?: string) => call('POST', pathOf('extendMusic'), { body: musicForm(fields), key });
    expectError(await ext({ taskId: 'mus_missing' }), 'MUSIC_TASK_NOT_FOUND', 'mus_missing');
    expectError(await ext({ taskId: a.id }, OTHER_KEY), 'MUSIC_TASK_NOT_FOUND');
    const pending = await create('generateMusic', musicBody());
    expectError(await ext({ taskId: pending }), 'MUSIC_TASK_NOT_READY');
    expectError(await ext({ taskId: a.id, negativeTags: 'metal' }), 'MUSIC_PROVIDER_UNSUPPORTED', 'negativeTags');
    expectError(await ext({ taskId: a.id, trackIndex: '1' }), 'MUSIC_INVALID_PARAMETERS', 'trackIndex');
    expectError(await ext({ taskId: a.id, model: 'V6' }), 'MUSIC_MODEL_UNSUPPORTED', 'model');
    expectError(await call('GET', pathOf('getMusicTask', { taskId: a.id }), { key: OTHER_KEY }), 'MUSIC_TASK_NOT_FOUND');
    expect(await list({}, OTHER_KEY)).toMatchObject({ items: [], total: 0 });
  });
});

/** The music operations: every declared status and code, forced, through Prism. */
const musicOps = operationIds.map((id) => operations[id] as OperationDef).filter((op) => op.tags.includes('Music'));

const bodyFor: Partial<Record<OperationId, () => Body | FormData>> = {
  generateMusic: () => musicBody(),
  coverMusic: () => musicCoverBody(),
  generateInstrumental: () => musicForm(musicFormFields.instrumental),
  generateSoundtrack: () => musicForm({}, { image: { bytes: magicFiles.webp, name: 'a.webp' } }),
  generateTrack: () => musicForm({ ...musicFormFields.track, providerSongId: 'ma_0000000000000000_0' }),
  remixMusic: () => musicForm({ ...musicFormFields.remix, audioUrl: 'https://example.com/a.mp3' }),
  extendMusic: () => musicForm({ taskId: 'mus_forced' }),
};

describe('Prefer-forced answers of every music operation, through Prism', () => {
  it('covers the nine music operations', () => {
    expect(musicOps.map((op) => op.operationId).sort()).toEqual(
      [
        'coverMusic',
        'extendMusic',
        'generateMusic',
        'generateInstrumental',
        'remixMusic',
        'generateSoundtrack',
        'generateTrack',
        'getMusicTask',
        'listMusicTasks',
      ].sort(),
    );
  });

  it.each(musicOps.map((op) => [op.operationId, op] as const))('%s', async (_id, op) => {
    prism.useMock();
    const method = op.method.toUpperCase();
    const path = pathOf(op.operationId as OperationId, { taskId: 'mus_forced' });
    const cases = forcedCases(op);
    expect(cases.length).toBeGreaterThan(0);
    for (const c of cases) {
      const body = op.request.body ? bodyFor[op.operationId as OperationId]?.() : undefined;
      expectError(await call(method, path, { body, headers: { prefer: c.prefer } }), c.error);
    }
  });
});

describe('requests the spec forbids: Prism flags them; the mock answers its documented error', () => {
  it.each([
    ['generate: provider musicC', 'generateMusic', () => musicBody({ provider: 'musicC' }), 'MUSIC_INVALID_PARAMETERS', 'provider'],
    ['generate: prompt of 5001 characters', 'generateMusic', () => musicBody({ prompt: 'x'.repeat(5001) }), 'MUSIC_INVALID_PARAMETERS', 'prompt'],
    ['generate: model musicA-10', 'generateMusic', () => musicBody({ model: 'musicA-10' }), 'MUSIC_MODEL_UNSUPPORTED', 'model'],
    ['generate: styleWeight 2', 'generateMusic', () => musicB({ providerParams: { styleWeight: 2 } }), 'MUSIC_INVALID_PARAMETERS', 'styleWeight'],
    ['cover: uploadUrl missing', 'coverMusic', () => musicCoverBody({ uploadUrl: undefined }), 'MUSIC_INVALID_PARAMETERS', 'uploadUrl'],
    ['cover: model auto', 'coverMusic', () => musicCoverBody({ model: 'auto' }), 'MUSIC_MODEL_UNSUPPORTED', 'model'],
    ['instrumental: neither prompt nor referenceAudio', 'generateInstrumental', () => musicForm({ model: 'auto' }), 'MUSIC_INVALID_PARAMETERS', 'prompt'],
    ['instrumental: model musicA-9', 'generateInstrumental', () => musicForm({ prompt: 'x', model: 'musicA-9' }), 'MUSIC_MODEL_UNSUPPORTED', 'model'],
    [
      'soundtrack: both image and video',
      'generateSoundtrack',
      () => musicForm({}, { image: { bytes: magicFiles.webp }, video: { bytes: magicFiles.mp4 } }),
      'MUSIC_INVALID_PARAMETERS',
      'exactly one',
    ],
    [
      'track: generateType Cowbell',
      'generateTrack',
      () => musicForm({ generateType: 'Cowbell', prompt: 'x', providerSongId: 'ma_0_0' }),
      'MUSIC_INVALID_PARAMETERS',
      'generateType',
    ],
    [
      'track: vocalGender m',
      'generateTrack',
      () => musicForm({ generateType: 'Vocals', prompt: 'x', lyrics: 'y', vocalGender: 'm', providerSongId: 'ma_0_0' }),
      'MUSIC_INVALID_PARAMETERS',
      'vocalGender',
    ],
    ['remix: lyrics missing', 'remixMusic', () => musicForm({ prompt: 'x', audioUrl: 'https://example.com/a.mp3' }), 'MUSIC_INVALID_PARAMETERS', 'lyrics'],
    ['extend: taskId missing', 'extendMusic', () => musicForm({ trackIndex: '0' }), 'MUSIC_INVALID_PARAMETERS', 'taskId'],
    [
      'extend: vocalGender female (m or f)',
      'extendMusic',
      () => musicForm({ taskId: 'mus_x', vocalGender: 'female' }),
      'MUSIC_INVALID_PARAMETERS',
      'vocalGender',
    ],
  ] as [string, OperationId, () => Body | FormData, 'MUSIC_INVALID_PARAMETERS' | 'MUSIC_MODEL_UNSUPPORTED', string][])(
    '%s',
    async (_n, op, body, error, part) => {
      const m = prism.useMock();
      const r = await call('POST', pathOf(op), { body: body(), allowViolations: true });
      expect(r.status, r.text.slice(0, 300)).toBe(422);
      expect(r.forwarded).toBe(false);
      expect(r.violations[0]).toMatchObject({ direction: 'request' });
      prism.takeViolations();
      expectError(await m.call('POST', pathOf(op), { body: body() }), error, part);
    },
  );

  it('list: pageSize 101 and status done', async () => {
    const m = prism.useMock();
    for (const query of [{ pageSize: 101 }, { status: 'done' }] as Record<string, string | number>[]) {
      const r = await call('GET', pathOf('listMusicTasks', {}, query), { allowViolations: true });
      expect(r.status).toBe(422);
      prism.takeViolations();
      expectError(await m.call('GET', pathOf('listMusicTasks', {}, query)), 'MUSIC_INVALID_PARAMETERS');
    }
  });
});
