/**
 * Music tasks (document 3, "Music task", "States and transitions", "Music:
 * asynchronous generation (prefix /v1/music)", "Limits"), continued from
 * test/music.test.ts (the JSON creates' rules, routing, prices): the lifecycle
 * on the manual clock (forced failures, stuck tasks and the timeout, with
 * refunds), the signed track URLs (expiry an hour after the fetch, refresh,
 * tampering), every track decoded with music-metadata at its declared
 * duration, /extend, owner scoping, the list and determinism.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { errorCatalog } from '../schemas/errors.ts';
import { MUSIC_URL_TTL_MS, musicDurations, musicSchedule } from '../schemas/music.ts';
import type { OperationId } from '../schemas/operations.ts';
import { musicGeneratingMs, signTrackPath } from '../mock/services/music.ts';
import { decodeAudio } from '../verify/decoders.ts';
import { type Body, magicFiles, musicBody, musicCoverBody, musicForm, musicFormFields, musicSong, pathOf } from './factories.ts';
import { KEY, OTHER_KEY, type TestMock, useMocks } from './helpers.ts';
import {
  account,
  badModel,
  create,
  DONE_MS,
  expectError,
  type Failure,
  fails,
  getTask,
  invalid,
  ledgerOf,
  listTasks,
  load,
  musicB,
  type MusicTask,
  OPENING,
  SEED,
  send,
  T0,
  unsupported,
} from './music-helpers.ts';

const start = useMocks();

describe('lifecycle on the manual clock (assumed schedule: pending 10 s, generating 50-140 s, uploading 10 s)', () => {
  let m: TestMock;
  beforeEach(async () => {
    m = await start();
  });
  const { pendingMs, uploadingMs, timeoutMs } = musicSchedule;

  it('pending -> generating -> uploading -> success at the scheduled times; tracks and creditCost only at success', async () => {
    const id = await create(m, 'generateMusic', musicB());
    const gen = musicGeneratingMs(SEED, id);
    expect(gen).toBeGreaterThanOrEqual(musicSchedule.generatingMinMs);
    expect(gen).toBeLessThanOrEqual(musicSchedule.generatingMaxMs);
    const at = async (ms: number) => {
      await m.advance(ms);
      return getTask(m, id);
    };
    const steps: [number, string][] = [
      [pendingMs - 1, 'pending'],
      [1, 'generating'],
      [gen - 1, 'generating'],
      [1, 'uploading'],
      [uploadingMs - 1, 'uploading'],
      [1, 'success'],
    ];
    let now = T0;
    for (const [ms, status] of steps) {
      now += ms;
      const t = await at(ms);
      expect(t.status, `at +${now - T0} ms`).toBe(status);
      expect(t.createdAt).toBe(T0);
      if (status !== 'success') expect(t).toMatchObject({ tracks: [], creditCost: 0 });
    }
    const t = await getTask(m, id);
    expect(t.updatedAt).toBe(T0 + pendingMs + gen + uploadingMs);
    expect(t.tracks).toHaveLength(2);
    expect(t.creditCost).toBe(20);
    expect(t.errorMessage).toBeUndefined();
    const total = pendingMs + gen + uploadingMs;
    expect(total, 'typical 1-3 minutes').toBeGreaterThanOrEqual(60_000);
    expect(total).toBeLessThanOrEqual(180_000);
    // nothing changes later
    await m.advance(2 * timeoutMs);
    expect((await getTask(m, id)).status).toBe('success');
  });

  it.each([
    ['outcome=failed', 'MUSIC_GENERATION_FAILED'],
    [`outcome=failed, error=${errorCatalog.MUSIC_PROVIDER_REJECTED.code}`, 'MUSIC_PROVIDER_REJECTED'],
    ['outcome=failed, error=MUSIC_GENERATION_FAILED', 'MUSIC_GENERATION_FAILED'],
  ] as const)('Prefer: %s: failed when generating ends, refunded, errorMessage with the code', async (prefer, reason) => {
    const id = await create(m, 'generateMusic', musicBody(), { prefer });
    const gen = musicGeneratingMs(SEED, id);
    await m.advance(pendingMs + gen - 1);
    expect((await getTask(m, id)).status).toBe('generating');
    await m.advance(1);
    const t = await getTask(m, id);
    expect(t).toMatchObject({ status: 'failed', tracks: [], creditCost: 0, updatedAt: T0 + pendingMs + gen });
    expect(t.errorMessage).toMatch(new RegExp(`^${errorCatalog[reason].code}: `));
    expect(await ledgerOf(m, id)).toEqual([
      ['reserve', -10],
      ['release', 10],
    ]);
    expect((await account(m)).credits).toBe(OPENING);
  });

  it.each(['outcome=stuck', `outcome=failed, error=${errorCatalog.MUSIC_TIMED_OUT.code}`])(
    'Prefer: %s: stays generating; 30 minutes after its last update it fails with 39013, refunded',
    async (prefer) => {
      const id = await create(m, 'generateMusic', musicB(), { prefer });
      await m.advance(pendingMs + timeoutMs - 1);
      expect((await getTask(m, id)).status).toBe('generating');
      await m.advance(1);
      const t = await getTask(m, id);
      expect(t).toMatchObject({ status: 'failed', tracks: [], creditCost: 0, updatedAt: T0 + pendingMs + timeoutMs });
      expect(t.errorMessage).toMatch(/^39013: no progress for 30 minutes/);
      expect(await ledgerOf(m, id)).toEqual([
        ['reserve', -20],
        ['release', 20],
      ]);
    },
  );

  it('an error= without outcome answers that error at once (nothing created)', async () => {
    expectError(await send(m, 'generateMusic', musicBody(), { prefer: `error=${errorCatalog.MUSIC_PROVIDER_UNSUPPORTED.code}` }), 'MUSIC_PROVIDER_UNSUPPORTED');
    expect((await listTasks(m)).total).toBe(0);
  });
});

/** A valid request of each create, for `key` (the song-based ones make their source song first). */
const everyCreate: [OperationId, (m: TestMock) => Promise<Body | FormData>][] = [
  ['generateMusic', async () => musicBody()],
  ['coverMusic', async () => musicCoverBody()],
  ['generateInstrumental', async () => musicForm(musicFormFields.instrumental)],
  ['generateSoundtrack', async () => musicForm(musicFormFields.soundtrack, { image: { bytes: magicFiles.jpeg, name: 'cover.jpg' } })],
  ['generateTrack', async (m) => musicForm({ ...musicFormFields.track, providerSongId: (await musicSong(m)).providerSongId })],
  ['remixMusic', async (m) => musicForm({ ...musicFormFields.remix, providerSongId: (await musicSong(m)).providerSongId })],
  ['extendMusic', async (m) => musicForm({ taskId: (await musicSong(m)).taskId })],
];

describe('forcing on every create: failed and stuck tasks are refunded in full', () => {
  it.each(everyCreate)('%s', async (op, bodyOf) => {
    const m = await start();
    const bodies = [await bodyOf(m), await bodyOf(m), await bodyOf(m), await bodyOf(m)];
    const ids = [
      await create(m, op, bodies[0], { prefer: 'outcome=failed' }),
      await create(m, op, bodies[1], { prefer: `outcome=failed, error=${errorCatalog.MUSIC_PROVIDER_REJECTED.code}` }),
      await create(m, op, bodies[2], { prefer: 'outcome=stuck' }),
      await create(m, op, bodies[3]),
    ];
    const price = -Number((await ledgerOf(m, ids[3]))[0][1]);
    expect(price).toBeGreaterThan(0);
    await m.advance(musicSchedule.pendingMs + musicSchedule.timeoutMs + DONE_MS);
    const tasks = await Promise.all(ids.map((id) => getTask(m, id)));
    expect(tasks.map((t) => t.status)).toEqual(['failed', 'failed', 'failed', 'success']);
    expect(tasks.map((t) => t.errorMessage?.slice(0, 5))).toEqual(['39011', '39012', '39013', undefined]);
    expect(tasks.map((t) => t.creditCost)).toEqual([0, 0, 0, price]);
    for (const id of ids.slice(0, 3))
      expect(await ledgerOf(m, id)).toEqual([
        ['reserve', -price],
        ['release', price],
      ]);
    expect(await ledgerOf(m, ids[3])).toEqual([
      ['reserve', -price],
      ['capture', 0],
    ]);
  });
});

// ---------------------------------------------------------------------------
// Signed URLs
// ---------------------------------------------------------------------------

describe('signed track URLs: they load for an hour after the fetch that produced them', () => {
  let m: TestMock;
  let song: MusicTask;
  beforeEach(async () => {
    m = await start();
    song = (await musicSong(m)).task;
  });

  const parts = (url: string) => {
    const u = new URL(url);
    return { path: u.pathname, expires: Number(u.searchParams.get('expires')), sig: u.searchParams.get('sig')! };
  };

  it('the URL carries expires (fetch time + 1 h) and a 32-hex signature of its path and expiry under the seed', async () => {
    const fetchedAt = T0 + 600_000; // musicSong reads the task after 10 minutes
    const { path, expires, sig } = parts(song.tracks[0].audioUrl);
    expect(path).toBe(`/media/music/${song.id}/0.mp3`);
    expect(expires).toBe(fetchedAt + MUSIC_URL_TTL_MS);
    expect(sig).toMatch(/^[0-9a-f]{32}$/);
    expect(sig).toBe(signTrackPath(SEED, path, expires));
    expect(signTrackPath(SEED + 1, path, expires), 'another seed, another key').not.toBe(sig);
  });

  it('loads until its expiry; at the expiry 403 (39014); a new fetch signs a fresh URL that loads; the old one stays refused', async () => {
    const url = song.tracks[0].audioUrl;
    const ok = await load(url);
    expect(ok.status).toBe(200);
    expect(ok.type).toBe('audio/mpeg');
    await m.advance(MUSIC_URL_TTL_MS - 1);
    expect((await load(url)).status).toBe(200);
    await m.advance(1);
    const gone = await load(url);
    expect(gone.status).toBe(403);
    expect(gone.json).toEqual({ code: errorCatalog.MUSIC_AUDIO_URL_EXPIRED.code, message: expect.stringContaining('fetch the task again'), data: null });
    const fresh = (await getTask(m, song.id)).tracks[0].audioUrl;
    expect(fresh).not.toBe(url);
    expect(parts(fresh).expires).toBe(parts(url).expires + MUSIC_URL_TTL_MS);
    const again = await load(fresh);
    expect(again.status).toBe(200);
    // Buffer.compare, not toEqual: a deep compare of a few MB blocks the event loop for seconds, and the in-process
    // server then closes the idle keep-alive socket under the next request (ECONNRESET)
    expect(Buffer.compare(again.bytes, ok.bytes)).toBe(0);
    expect((await load(url)).status).toBe(403);
  });

  it('the list signs its URLs too', async () => {
    await m.advance(MUSIC_URL_TTL_MS);
    expect((await load(song.tracks[0].audioUrl)).status).toBe(403);
    const listed = (await listTasks(m)).items[0].tracks[0].audioUrl;
    expect(parts(listed).expires).toBe(T0 + 600_000 + 2 * MUSIC_URL_TTL_MS);
    expect((await load(listed)).status).toBe(200);
  });

  const tampered: [string, (u: URL) => void][] = [
    ['a digit of the signature changed', (u) => u.searchParams.set('sig', flip(u.searchParams.get('sig')!))],
    ['the signature in upper case', (u) => u.searchParams.set('sig', u.searchParams.get('sig')!.toUpperCase())],
    ['the expiry moved a day later', (u) => u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 86_400_000))],
    ['the expiry moved 1 ms earlier', (u) => u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) - 1))],
    ['the signature left out', (u) => u.searchParams.delete('sig')],
    ['the expiry left out', (u) => u.searchParams.delete('expires')],
    ['no query at all', (u) => (u.search = '')],
    ['the expiry not a number', (u) => u.searchParams.set('expires', 'never')],
    ['the signature of another track', (u) => (u.pathname = u.pathname.replace('/0.mp3', '/1.mp3'))],
  ];
  const flip = (hex: string) => (hex[0] === '0' ? '1' : '0') + hex.slice(1);

  it.each(tampered)('%s: 403 (39015)', async (_n, change) => {
    const b = (await musicSong(m, undefined, musicB())).task;
    const u = new URL(b.tracks[0].audioUrl);
    change(u);
    const r = await load(u.toString());
    expect(r.status).toBe(403);
    expect(r.json).toEqual({ code: errorCatalog.MUSIC_AUDIO_URL_INVALID_SIGNATURE.code, message: expect.any(String), data: null });
  });

  it('a track that does not exist (index, task) answers 404; a Range request 206; HEAD without a body', async () => {
    const u = new URL(song.tracks[0].audioUrl);
    u.pathname = u.pathname.replace('/0.mp3', '/1.mp3'); // musicA has one track
    expect((await load(u.toString())).status).toBe(404);
    expect((await load(song.tracks[0].audioUrl.replace(song.id, 'mus_0000000000000000'))).status).toBe(404);
    const part = await load(song.tracks[0].audioUrl, { headers: { range: 'bytes=0-99' } });
    expect(part.status).toBe(206);
    expect(part.bytes.length).toBe(100);
    const head = await fetch(song.tracks[0].audioUrl, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0);
  });

  it('a task that has not succeeded has no tracks, and its would-be URL answers 404 even when signed', async () => {
    const id = await create(m, 'generateMusic', musicBody());
    const path = `/media/music/${id}/0.mp3`;
    const expires = T0 + 600_000 + MUSIC_URL_TTL_MS;
    expect((await load(`${m.base}${path}?expires=${expires}&sig=${signTrackPath(SEED, path, expires)}`)).status).toBe(404);
  });
});

// ---------------------------------------------------------------------------
// Media: every track decodes at its duration
// ---------------------------------------------------------------------------

/** Loads and decodes every track of `t`; asserts MP3 at exactly its declared duration. */
async function expectPlayableTracks(t: MusicTask): Promise<void> {
  expect(t.tracks.length).toBeGreaterThan(0);
  for (const track of t.tracks) {
    const r = await load(track.audioUrl);
    expect(r.status, track.audioUrl).toBe(200);
    expect(r.type).toBe('audio/mpeg');
    const a = await decodeAudio(r.bytes, 'mp3');
    expect(a).toMatchObject({ container: 'MPEG', codec: 'MPEG 2 Layer 3', sampleRate: 24_000, channels: 1 });
    expect(a.durationMs, `${track.title}: decoded length = duration`).toBeCloseTo(track.duration * 1000, 6);
  }
}

describe('tracks are real MP3s whose decoded length is their duration', () => {
  it('generate (musicA, musicB), cover of a public URL and of an own track, extend: every track', async () => {
    const m = await start();
    const a = await musicSong(m);
    const b = await musicSong(m, undefined, musicB());
    const { song } = musicDurations;
    for (const t of [a.task, b.task]) {
      await expectPlayableTracks(t);
      for (const track of t.tracks) {
        expect(track.duration * 1000).toBeGreaterThanOrEqual(song.minMs);
        expect(track.duration * 1000).toBeLessThanOrEqual(song.maxMs);
        expect((track.duration * 1000) % musicDurations.stepMs).toBe(0);
      }
    }
    expect(b.task.tracks[0].providerSongId).toBe(`mb_${b.taskId.slice(4)}_0`);
    expect(b.task.tracks[1].providerSongId).toBe(`mb_${b.taskId.slice(4)}_1`);
    const coverPublic = await create(m, 'coverMusic', musicCoverBody());
    const coverOwn = await create(m, 'coverMusic', musicCoverBody({ uploadUrl: b.task.tracks[1].audioUrl }));
    const ext = await create(m, 'extendMusic', musicForm({ taskId: b.taskId, trackIndex: '1', continueAt: '30.5' }));
    await m.advance(DONE_MS);
    const [cp, co, ex] = await Promise.all([coverPublic, coverOwn, ext].map((id) => getTask(m, id)));
    for (const t of [cp, co, ex]) await expectPlayableTracks(t);
    expect(
      co.tracks.map((t) => t.duration),
      'a cover lasts as long as its source',
    ).toEqual([b.task.tracks[1].duration, b.task.tracks[1].duration]);
    expect(cp.tracks.map((t) => t.tags.endsWith('cover'))).toEqual([true, true]);
    for (const t of ex.tracks) {
      const added = t.duration - 30.5;
      expect(added * 1000).toBeGreaterThanOrEqual(musicDurations.extension.minMs - 24);
      expect(added * 1000).toBeLessThanOrEqual(musicDurations.extension.maxMs + 24);
      expect(t.title).toBe(`${b.task.tracks[1].title} (Extended)`);
    }
  });
});

// ---------------------------------------------------------------------------
// Extend
// ---------------------------------------------------------------------------

describe('POST /v1/music/extend: rules (assumed multipart shape)', () => {
  let m: TestMock;
  let a: { taskId: string; providerSongId: string; task: MusicTask };
  let b: { taskId: string; providerSongId: string; task: MusicTask };
  beforeEach(async () => {
    m = await start();
    a = await musicSong(m);
    b = await musicSong(m, undefined, musicB());
  });
  const extend = (fields: Record<string, string>) => send(m, 'extendMusic', musicForm(fields));

  it.each([
    ['taskId missing', () => ({}), invalid('taskId')],
    ['trackIndex 1 of a musicA task (one track)', () => ({ taskId: a.taskId, trackIndex: '1' }), invalid('trackIndex', '0-0')],
    ['trackIndex -1', () => ({ taskId: a.taskId, trackIndex: '-1' }), invalid('trackIndex')],
    ['trackIndex 0.5', () => ({ taskId: a.taskId, trackIndex: '0.5' }), invalid('trackIndex')],
    ['trackIndex and providerSongId', () => ({ taskId: a.taskId, trackIndex: '0', providerSongId: a.providerSongId }), invalid('providerSongId', 'not both')],
    ['providerSongId of another task', () => ({ taskId: a.taskId, providerSongId: b.providerSongId }), invalid('providerSongId')],
    ['continueAt 0', () => ({ taskId: a.taskId, continueAt: '0' }), invalid('continueAt')],
    ['continueAt past the end', () => ({ taskId: a.taskId, continueAt: String(a.task.tracks[0].duration + 0.001) }), invalid('continueAt', 'past the end')],
    ['continueAt "soon"', () => ({ taskId: a.taskId, continueAt: 'soon' }), invalid('continueAt')],
    ['provider musicB for a musicA task', () => ({ taskId: a.taskId, provider: 'musicB' }), unsupported('provider', 'musicA')],
    ['provider default for a musicB task', () => ({ taskId: b.taskId, provider: 'default' }), unsupported('provider')],
    ['model V6 for a musicA task', () => ({ taskId: a.taskId, model: 'V6' }), badModel('model', 'musicA')],
    ['model auto for a musicB task', () => ({ taskId: b.taskId, model: 'auto' }), badModel('model', 'musicB')],
    ['model V7', () => ({ taskId: b.taskId, model: 'V7' }), badModel('model')],
    ['negativeTags on a musicA task', () => ({ taskId: a.taskId, negativeTags: 'metal' }), unsupported('negativeTags', 'musicB parameters')],
    ['vocalGender male (m or f)', () => ({ taskId: b.taskId, vocalGender: 'male' }), invalid('vocalGender')],
    ['styleWeight 1.5', () => ({ taskId: b.taskId, styleWeight: '1.5' }), invalid('styleWeight')],
    ['audioWeight -1', () => ({ taskId: b.taskId, audioWeight: '-1' }), invalid('audioWeight')],
    ['prompt of 5001 characters', () => ({ taskId: b.taskId, prompt: 'p'.repeat(5001) }), invalid('prompt')],
  ] as [string, () => Record<string, string>, Failure][])('%s', async (_n, fields, expected) => {
    const before = (await account(m)).credits;
    expectError(await extend(fields()), expected);
    expect((await account(m)).credits).toBe(before);
  });

  it.each([
    ['the end of track 0 (defaults)', () => ({ taskId: a.taskId }), 'musicA', 0, () => a.task.tracks[0].duration],
    [
      'continueAt exactly the duration',
      () => ({ taskId: a.taskId, continueAt: String(a.task.tracks[0].duration) }),
      'musicA',
      0,
      () => a.task.tracks[0].duration,
    ],
    ['continueAt 0.024', () => ({ taskId: a.taskId, continueAt: '0.024', provider: 'musicA' }), 'musicA', 0, () => 0.024],
    [
      'track 1 of a musicB task by providerSongId',
      () => ({ taskId: b.taskId, providerSongId: b.task.tracks[1].providerSongId }),
      'musicB',
      1,
      () => b.task.tracks[1].duration,
    ],
  ] as [string, () => Record<string, string>, string, number, () => number][])('%s', async (_n, fields, provider, index, continueAt) => {
    const id = await create(m, 'extendMusic', musicForm(fields()));
    const t = await getTask(m, id);
    expect(t).toMatchObject({ provider, taskType: 'EXTEND' });
    expect(t.params).toMatchObject({ taskId: fields().taskId, trackIndex: index, continueAt: continueAt() });
  });

  it('musicB parameters are top-level fields of a musicB extend, echoed in params.providerParams', async () => {
    const id = await create(
      m,
      'extendMusic',
      musicForm({
        taskId: b.taskId,
        negativeTags: 'metal',
        vocalGender: 'f',
        styleWeight: '0',
        weirdnessConstraint: '1',
        audioWeight: '0.25',
        lyrics: 'more words',
      }),
    );
    expect((await getTask(m, id)).params).toEqual({
      model: 'V6',
      prompt: '',
      instrumental: false,
      lyrics: 'more words',
      providerParams: { negativeTags: 'metal', vocalGender: 'f', styleWeight: 0, weirdnessConstraint: 1, audioWeight: 0.25 },
      taskId: b.taskId,
      trackIndex: 0,
      continueAt: b.task.tracks[0].duration,
    });
  });

  it('a task of another key: 404 (39002); an unknown one: 404; a task that has not succeeded: 409 (39010); an extend of an extend works', async () => {
    expectError(await send(m, 'extendMusic', musicForm({ taskId: a.taskId }), {}, OTHER_KEY), fails('MUSIC_TASK_NOT_FOUND', a.taskId));
    expectError(await extend({ taskId: 'mus_0000000000000000' }), fails('MUSIC_TASK_NOT_FOUND', 'mus_0000000000000000'));
    const running = await create(m, 'generateMusic', musicBody());
    expectError(await extend({ taskId: running }), fails('MUSIC_TASK_NOT_READY', running, 'pending'));
    const failed = await create(m, 'generateMusic', musicBody(), { prefer: 'outcome=failed' });
    const first = await create(m, 'extendMusic', musicForm({ taskId: a.taskId }));
    await m.advance(DONE_MS);
    expectError(await extend({ taskId: failed }), fails('MUSIC_TASK_NOT_READY', 'failed'));
    const second = await create(m, 'extendMusic', musicForm({ taskId: first, continueAt: '60' }));
    await m.advance(DONE_MS);
    const t = await getTask(m, second);
    expect(t.status).toBe('success');
    expect(t.tracks[0].title).toBe(`${a.task.tracks[0].title} (Extended) (Extended)`);
  });
});

// ---------------------------------------------------------------------------
// Owner scoping and platform URLs
// ---------------------------------------------------------------------------

describe('owner scoping and source ownership', () => {
  let m: TestMock;
  beforeEach(async () => {
    m = await start();
  });

  it("another key's task: 404 (39002) on read, absent from its list; an unknown task: 404", async () => {
    const id = await create(m, 'generateMusic', musicBody());
    expectError(await m.call('GET', pathOf('getMusicTask', { taskId: id }), { key: OTHER_KEY }), fails('MUSIC_TASK_NOT_FOUND', id));
    expectError(await m.call('GET', pathOf('getMusicTask', { taskId: 'mus_missing' })), fails('MUSIC_TASK_NOT_FOUND', 'mus_missing'));
    expect(await listTasks(m, {}, OTHER_KEY)).toEqual({ items: [], page: 1, pageSize: 20, total: 0 });
    expect((await listTasks(m)).total).toBe(1);
  });

  it("cover: the caller's own track URL is accepted (even once its signature expired); another account's is refused 403 (39008); a platform URL naming no track 404 (39009)", async () => {
    const mine = (await musicSong(m)).task;
    const theirs = (await musicSong(m, OTHER_KEY)).task;
    await m.advance(2 * MUSIC_URL_TTL_MS);
    await create(m, 'coverMusic', musicCoverBody({ uploadUrl: mine.tracks[0].audioUrl }));
    expectError(await send(m, 'coverMusic', musicCoverBody({ uploadUrl: theirs.tracks[0].audioUrl })), fails('MUSIC_SOURCE_FORBIDDEN', 'uploadUrl'));
    for (const url of [
      `${m.base}/media/videos/vt_1.mp4`,
      `${m.base}/media/music/mus_0000000000000000/0.mp3`,
      mine.tracks[0].audioUrl.replace('/0.mp3', '/3.mp3'),
      `${m.base}/v1/music/tasks`,
    ])
      expectError(await send(m, 'coverMusic', musicCoverBody({ uploadUrl: url })), fails('MUSIC_SOURCE_NOT_FOUND', 'uploadUrl'));
    // a task that has not succeeded has no track to cover
    const pending = await create(m, 'generateMusic', musicBody());
    expectError(await send(m, 'coverMusic', musicCoverBody({ uploadUrl: `${m.base}/media/music/${pending}/0.mp3` })), 'MUSIC_SOURCE_NOT_FOUND');
    // the refused covers reserved nothing: one cover and three generates were charged
    expect((await account(m)).credits).toBe(OPENING - 20 - 10 - 10);
  });
});

// ---------------------------------------------------------------------------
// The list
// ---------------------------------------------------------------------------

describe('GET /v1/music/tasks: both providers, newest first, paged, by status', () => {
  it('lists every task type of the key, newest first; page and pageSize; status filter', async () => {
    const m = await start();
    const a = await musicSong(m); // success
    const ids = [a.taskId];
    const bodies = [];
    for (const [op, bodyOf] of everyCreate) bodies.push([op, await bodyOf(m)] as const);
    for (const [op, body] of bodies) {
      ids.push(await create(m, op, body));
      await m.advance(1);
    }
    const all = await listTasks(m, { pageSize: 100 });
    const created = all.items.map((t) => t.id);
    expect(all.total).toBe(all.items.length);
    expect(new Set(all.items.map((t) => t.provider))).toEqual(new Set(['musicA', 'musicB']));
    expect(new Set(all.items.map((t) => t.taskType))).toEqual(new Set(['GENERATE', 'COVER', 'INSTRUMENTAL', 'SOUNDTRACK', 'TRACK', 'REMIX', 'EXTEND']));
    const times = all.items.map((t) => t.createdAt);
    expect(times, 'newest first').toEqual([...times].sort((x, y) => y - x));
    for (const id of ids) expect(created).toContain(id);
    const page2 = await listTasks(m, { page: 2, pageSize: 3 });
    expect(page2).toMatchObject({ page: 2, pageSize: 3, total: all.total });
    expect(page2.items.map((t) => t.id)).toEqual(created.slice(3, 6));
    const pending = await listTasks(m, { status: 'pending' });
    expect(pending.total).toBe(7);
    expect((await listTasks(m, { status: 'uploading' })).total).toBe(0);
    await m.advance(DONE_MS);
    expect((await listTasks(m, { status: 'success' })).total).toBe(all.total);
  });

  it.each([
    [{ pageSize: 0 }, 'pageSize'],
    [{ pageSize: 101 }, 'pageSize'],
    [{ page: 0 }, 'page'],
    [{ status: 'done' }, 'status'],
  ] as [Record<string, string | number>, string][])('%j: 400 (39001)', async (query, field) => {
    const m = await start();
    expectError(await m.call('GET', pathOf('listMusicTasks', {}, query)), invalid(field));
    expect((await listTasks(m, { pageSize: 100 })).pageSize).toBe(100);
    expect((await listTasks(m, { pageSize: 1 })).pageSize).toBe(1);
  });
});

describe('determinism', () => {
  it('the same requests on the same seed give the same tasks, URLs and bytes', async () => {
    const run = async () => {
      const m = await start();
      const { task } = await musicSong(m, KEY, musicB());
      const bytes = (await load(task.tracks[1].audioUrl)).bytes;
      return { task: { ...task, tracks: task.tracks.map((t) => ({ ...t, audioUrl: new URL(t.audioUrl).pathname + new URL(t.audioUrl).search })) }, bytes };
    };
    const [x, y] = [await run(), await run()];
    expect(x.task).toEqual(y.task);
    expect(Buffer.compare(x.bytes, y.bytes)).toBe(0);
  });
});
