/**
 * The multipart music creates, musicA only (document 3, "Music: asynchronous
 * generation (prefix /v1/music)", "Limits"): /instrumental, /soundtrack,
 * /track and /remix. Their exactly-one-of sources, the file types judged by
 * the content (a real MP3, M4A and WAV; PNG, JPEG, WebP; the video
 * containers by their headers), the 10 MB audio limit at the byte (exactly
 * 10 MB accepted, one byte more refused with 413), the model lists, the /track
 * rules (generateType, lyrics with Vocals, vocalGender male|female, the
 * generateStart-generateEnd window within the source), the remix audioUrl
 * (platform audio only: another host is refused) and its
 * ownership, every price on the ledger, and the tracks decoded at their
 * duration (a source's own length where the mock knows it).
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MUSIC_AUDIO_MAX_BYTES, musicFlatCredits, soundtrackUploads } from '../schemas/music.ts';
import { musicAModels } from '../schemas/music-providers.ts';
import type { OperationId } from '../schemas/operations.ts';
import { encodePng } from '../mock/media/png.ts';
import { renderVideo } from '../mock/media/video.ts';
import { decodeAudio } from '../verify/decoders.ts';
import { type FormFile, magicFiles, musicM4a, mp3Bytes, musicBody, musicForm, musicFormFields, musicSong, wavBytes, wavOfSize } from './factories.ts';
import { OTHER_KEY, type TestMock, useMocks } from './helpers.ts';
import { account, create, DONE_MS, expectError, type Failure, fails, getTask, invalid, ledgerOf, load, type MusicTask, send } from './music-helpers.ts';

const start = useMocks();
const MB10 = MUSIC_AUDIO_MAX_BYTES;

const png = encodePng(64, 48, [20, 30, 40], [200, 100, 0]);
const text = new TextEncoder().encode('not a recording, just text');
const id3Garbage = (() => {
  const b = new Uint8Array(200).fill(0x55);
  b.set([0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, 10]); // an ID3v2 tag of 10 bytes, then no MP3 frames
  return b;
})();
const mp3 = mp3Bytes({ seconds: 5 }); // 4.992 s (208 frames of 24 ms)
const wav6 = wavBytes(6);
let m4a: Uint8Array; // AAC in MP4, brand isom
let m4aBrand: Uint8Array; // the same with brand M4A
beforeAll(async () => {
  m4a = await musicM4a(5);
  m4aBrand = await musicM4a(5, 'M4A ');
});

const file = (bytes: Uint8Array, name = 'upload.bin', type = 'application/octet-stream'): FormFile => ({ bytes, name, type });
const tooLarge = (...names: string[]): Failure => fails('MUSIC_FILE_TOO_LARGE', ...names);
const unsupportedFile = (...names: string[]): Failure => fails('MUSIC_UNSUPPORTED_FILE', ...names);

type UploadCase = [name: string, fields: () => Record<string, string | null>, files: () => Record<string, FormFile>, expected: 'ok' | Failure];

/** Runs `cases` against `op`: 202, or the error with nothing reserved. `setup` runs first on each mock (sources). */
function uploadTable(op: OperationId, cases: UploadCase[], setup?: (m: TestMock) => Promise<void>) {
  let m: TestMock;
  beforeEach(async () => {
    m = await start();
    await setup?.(m);
  });
  it.each(cases)('%s', async (_n, fields, files, expected) => {
    const before = await account(m);
    const r = await send(m, op, musicForm(fields(), files()));
    if (expected === 'ok') {
      expect(r.status, r.text).toBe(202);
      return;
    }
    expectError(r, expected);
    expect(await account(m), 'a refused request reserves nothing').toEqual(before);
  });
}

/** Creates, lets it finish, asserts the ledger and creditCost, and returns the task (its tracks decoded at their duration). */
async function finished(m: TestMock, op: OperationId, form: FormData, credits: number): Promise<MusicTask> {
  const id = await create(m, op, form);
  expect(await ledgerOf(m, id)).toEqual([['reserve', -credits]]);
  await m.advance(DONE_MS);
  const t = await getTask(m, id);
  expect(t).toMatchObject({ status: 'success', provider: 'musicA', creditCost: credits });
  expect(await ledgerOf(m, id)).toEqual([
    ['reserve', -credits],
    ['capture', 0],
  ]);
  expect(t.tracks).toHaveLength(1);
  for (const track of t.tracks) {
    const r = await load(track.audioUrl);
    expect(r.status).toBe(200);
    expect((await decodeAudio(r.bytes, 'mp3')).durationMs).toBeCloseTo(track.duration * 1000, 6);
  }
  return t;
}

// ---------------------------------------------------------------------------
// /instrumental
// ---------------------------------------------------------------------------

describe('POST /v1/music/instrumental: rules', () => {
  const prompt = () => ({ ...musicFormFields.instrumental });
  const none = () => ({});
  const ref = (f: FormFile) => () => ({ referenceAudio: f });
  uploadTable('generateInstrumental', [
    ['prompt only', prompt, none, 'ok'],
    ['referenceAudio: an MP3', none, ref(file(mp3, 'a.mp3', 'audio/mpeg')), 'ok'],
    ['referenceAudio: an M4A (brand isom)', none, () => ({ referenceAudio: file(m4a, 'a.m4a', 'audio/mp4') }), 'ok'],
    ['referenceAudio: an M4A (brand M4A)', none, () => ({ referenceAudio: file(m4aBrand, 'a.m4a', 'audio/mp4') }), 'ok'],
    ['referenceAudio: an MP3 named notes.txt, sent as text/plain (the content decides)', none, ref(file(mp3, 'notes.txt', 'text/plain')), 'ok'],
    [`referenceAudio: an MP3 of exactly ${MB10} bytes`, none, () => ({ referenceAudio: file(mp3Bytes({ totalBytes: MB10 }), 'big.mp3') }), 'ok'],
    [
      `referenceAudio: ${MB10 + 1} bytes`,
      none,
      () => ({ referenceAudio: file(mp3Bytes({ totalBytes: MB10 + 1 }), 'big.mp3') }),
      tooLarge('referenceAudio', '10 MB'),
    ],
    ['referenceAudio: a WAV (mp3 or m4a only)', none, ref(file(wav6, 'a.wav', 'audio/wav')), unsupportedFile('referenceAudio', 'wav')],
    ['referenceAudio: a PNG named a.mp3', none, ref(file(png, 'a.mp3', 'audio/mpeg')), unsupportedFile('referenceAudio', 'png', 'a.mp3')],
    ['referenceAudio: text named a.mp3', none, ref(file(text, 'a.mp3', 'audio/mpeg')), unsupportedFile('referenceAudio')],
    ['referenceAudio: an ID3 tag over no MP3 frames', none, ref(file(id3Garbage, 'a.mp3')), unsupportedFile('referenceAudio', 'no mp3 audio')],
    ['referenceAudio: empty', none, ref(file(new Uint8Array(0), 'a.mp3')), unsupportedFile('referenceAudio')],
    ['referenceAudio sent as a text field', () => ({ referenceAudio: 'song.mp3' }), none, invalid('referenceAudio')],
    ['neither prompt nor referenceAudio', none, none, invalid('prompt', 'exactly one')],
    ['both prompt and referenceAudio', prompt, ref(file(mp3)), invalid('referenceAudio', 'exactly one')],
    ['prompt blank', () => ({ prompt: '   ' }), none, invalid('prompt', 'blank')],
    ['prompt of 5001 characters', () => ({ prompt: 'p'.repeat(5001) }), none, invalid('prompt', '5001')],
    ...musicAModels.filter((x) => x.model !== 'musicA-9').map((x): UploadCase => [`model ${x.model}`, () => ({ ...prompt(), model: x.model }), none, 'ok']),
    ['model musicA-9 (not for /instrumental)', () => ({ ...prompt(), model: 'musicA-9' }), none, fails('MUSIC_MODEL_UNSUPPORTED', 'model')],
    ['model V6 (musicB)', () => ({ ...prompt(), model: 'V6' }), none, fails('MUSIC_MODEL_UNSUPPORTED', 'model')],
  ]);

  it('a JSON body: 415 (10003)', async () => {
    const m = await start();
    expectError(await send(m, 'generateInstrumental', { prompt: 'piano' }), 'UNSUPPORTED_MEDIA_TYPE');
  });
});

describe('POST /v1/music/instrumental: prices by model, params, tracks', () => {
  let m: TestMock;
  beforeEach(async () => {
    m = await start();
  });

  it.each(musicAModels.filter((x) => x.model !== 'musicA-9').map((x) => [x.model, x.credits] as const))('model %s: %i credits', async (model, credits) => {
    const t = await finished(m, 'generateInstrumental', musicForm({ ...musicFormFields.instrumental, model }), credits);
    expect(t).toMatchObject({ taskType: 'INSTRUMENTAL', params: { model, prompt: musicFormFields.instrumental.prompt, instrumental: true } });
  });

  it('from a reference recording: params name the file by name, size and the type read from it; without model: auto (10)', async () => {
    const t = await finished(m, 'generateInstrumental', musicForm({}, { referenceAudio: file(m4a, 'take 1.m4a', 'audio/x-m4a') }), 10);
    expect(t.params).toEqual({ model: 'auto', prompt: '', instrumental: true, referenceAudio: { filename: 'take 1.m4a', bytes: m4a.length, type: 'm4a' } });
    expect(t.tracks[0].tags).toMatch(/instrumental$/);
  });
});

// ---------------------------------------------------------------------------
// /soundtrack
// ---------------------------------------------------------------------------

describe('POST /v1/music/soundtrack: rules', () => {
  const none = () => ({});
  const prompt = () => ({ ...musicFormFields.soundtrack });
  const image = (f: FormFile) => () => ({ image: f });
  const video = (f: FormFile) => () => ({ video: f });
  uploadTable('generateSoundtrack', [
    ['image: PNG', prompt, image(file(png, 'a.png', 'image/png')), 'ok'],
    ['image: JPEG', none, image(file(magicFiles.jpeg, 'a.jpg', 'image/jpeg')), 'ok'],
    ['image: JPEG named a.jpeg', none, image(file(magicFiles.jpeg, 'a.jpeg')), 'ok'],
    ['image: WebP', none, image(file(magicFiles.webp, 'a.webp', 'image/webp')), 'ok'],
    ['image: a PNG named photo.gif', none, image(file(png, 'photo.gif', 'image/gif')), 'ok'],
    ...(['mp4', 'mov', 'avi', 'mkv', 'webm'] as const).map((k): UploadCase => [`video: ${k}`, none, video(file(magicFiles[k], `clip.${k}`)), 'ok']),
    ['image: an MP4 (a video in the image field)', none, image(file(magicFiles.mp4, 'a.png')), unsupportedFile('image', 'mp4')],
    ['video: a PNG', none, video(file(png, 'clip.mp4', 'video/mp4')), unsupportedFile('video', 'png')],
    ['image: an MP3', none, image(file(mp3, 'a.jpg')), unsupportedFile('image', 'mp3')],
    ['video: text', none, video(file(text, 'clip.webm')), unsupportedFile('video')],
    [`image: exactly ${soundtrackUploads.imageMaxBytes} bytes`, none, () => ({ image: file(padded(png, soundtrackUploads.imageMaxBytes), 'big.png') }), 'ok'],
    [
      `image: ${soundtrackUploads.imageMaxBytes + 1} bytes`,
      none,
      () => ({ image: file(padded(png, soundtrackUploads.imageMaxBytes + 1), 'big.png') }),
      tooLarge('image'),
    ],
    [
      `video: ${soundtrackUploads.videoMaxBytes + 1} bytes`,
      none,
      () => ({ video: file(padded(magicFiles.mp4, soundtrackUploads.videoMaxBytes + 1), 'big.mp4') }),
      tooLarge('video', '50 MB'),
    ],
    ['neither image nor video', prompt, none, invalid('image', 'exactly one')],
    ['both image and video', none, () => ({ image: file(png), video: file(magicFiles.mp4) }), invalid('video', 'exactly one')],
    ...musicAModels.map((x): UploadCase => [`model ${x.model}`, () => ({ model: x.model }), image(file(png)), 'ok']),
    ['model V5', () => ({ model: 'V5' }), image(file(png)), fails('MUSIC_MODEL_UNSUPPORTED', 'model')],
  ]);
});

/** `head` followed by zero bytes up to `size` bytes. */
function padded(head: Uint8Array, size: number): Uint8Array {
  const out = new Uint8Array(size);
  out.set(head);
  return out;
}

describe('POST /v1/music/soundtrack: a flat price, params, tracks', () => {
  it('a soundtrack of a video the mock reads (an H.264 MP4 of 7.2 s) lasts as long as the video, to the 24 ms MP3 frame', async () => {
    const m = await start();
    const mp4 = await renderVideo({ width: 160, height: 90, durationMs: 7_200, colours: { bg: [0, 0, 0], fg: [255, 255, 255] } });
    const t = await finished(m, 'generateSoundtrack', musicForm({}, { video: file(mp4, 'clip.mp4', 'video/mp4') }), musicFlatCredits.soundtrack);
    expect(t.tracks[0].duration).toBe(7.2); // 300 frames of 24 ms
    expect(t.params.video).toEqual({ filename: 'clip.mp4', bytes: mp4.length, type: 'mp4' });
  });

  it(`${musicFlatCredits.soundtrack} credits whatever the model; params name the upload; a soundtrack of an image (or an unreadable video) lasts 30-90 s`, async () => {
    const m = await start();
    for (const model of ['musicA-7.6', 'musicA-9']) {
      const t = await finished(
        m,
        'generateSoundtrack',
        musicForm({ model }, { video: file(magicFiles.webm, 'clip.webm', 'video/webm') }),
        musicFlatCredits.soundtrack,
      );
      expect(t).toMatchObject({ taskType: 'SOUNDTRACK' });
      expect(t.params).toEqual({ model, prompt: '', instrumental: true, video: { filename: 'clip.webm', bytes: magicFiles.webm.length, type: 'webm' } });
      expect(t.tracks[0].duration).toBeGreaterThanOrEqual(30);
      expect(t.tracks[0].duration).toBeLessThanOrEqual(90);
    }
    const t = await finished(m, 'generateSoundtrack', musicForm(musicFormFields.soundtrack, { image: file(png, 'still.png') }), musicFlatCredits.soundtrack);
    expect(t.params).toMatchObject({ model: 'auto', prompt: musicFormFields.soundtrack.prompt, image: { filename: 'still.png', type: 'png' } });
  });
});

// ---------------------------------------------------------------------------
// /track
// ---------------------------------------------------------------------------

describe('POST /v1/music/track: rules', () => {
  let song: string; // a musicA song of the key (its providerSongId)
  let bSong: string; // a musicB song of the key
  let theirs: string; // a musicA song of another key
  const setup = async (m: TestMock) => {
    song = (await musicSong(m)).providerSongId;
    bSong = (await musicSong(m, undefined, { provider: 'musicB', prompt: 'la la' })).providerSongId;
    theirs = (await musicSong(m, OTHER_KEY)).providerSongId;
  };
  const base =
    (over: Record<string, string | null> = {}) =>
    () => ({ ...musicFormFields.track, providerSongId: song, ...over });
  const withAudio =
    (over: Record<string, string | null> = {}) =>
    () => ({ ...musicFormFields.track, ...over });
  const none = () => ({});
  const audio = (f: FormFile) => () => ({ audio: f });
  uploadTable(
    'generateTrack',
    [
      ['providerSongId of a musicA song of the key', base(), none, 'ok'],
      ['audio: a WAV', withAudio(), audio(file(wav6, 'stem.wav')), 'ok'],
      ['audio: an MP3', withAudio(), audio(file(mp3, 'a.mp3')), 'ok'],
      ['audio: an M4A', withAudio(), () => ({ audio: file(m4a, 'a.m4a') }), 'ok'],
      [`audio: a WAV of exactly ${MB10} bytes`, withAudio(), () => ({ audio: file(wavOfSize(MB10), 'big.wav') }), 'ok'],
      [`audio: ${MB10 + 1} bytes`, withAudio(), () => ({ audio: file(padded(wavOfSize(MB10), MB10 + 1), 'big.wav') }), tooLarge('audio')],
      ['audio: a PNG', withAudio(), audio(file(png, 'a.wav')), unsupportedFile('audio', 'png')],
      ['audio: a WebP (RIFF, not WAVE)', withAudio(), audio(file(magicFiles.webp, 'a.wav')), unsupportedFile('audio', 'webp')],
      ...(['Vocals', 'Instrumental', 'Drums', 'Bass', 'Guitar', 'Keyboard', 'Percussion', 'Strings', 'Synth', 'FX', 'Brass', 'Woodwinds'] as const).map(
        (g): UploadCase => [`generateType ${g}`, base({ generateType: g, ...(g === 'Vocals' ? { lyrics: 'oh oh' } : {}) }), none, 'ok'],
      ),
      ['generateType Cowbell', base({ generateType: 'Cowbell' }), none, invalid('generateType')],
      ['generateType vocals (case matters)', base({ generateType: 'vocals', lyrics: 'x' }), none, invalid('generateType')],
      ['generateType missing', base({ generateType: null }), none, invalid('generateType')],
      ['prompt missing', base({ prompt: null }), none, invalid('prompt')],
      ['prompt blank', base({ prompt: ' ' }), none, invalid('prompt')],
      ['Vocals without lyrics', base({ generateType: 'Vocals' }), none, invalid('lyrics', 'Vocals')],
      ['Vocals with vocalGender male', base({ generateType: 'Vocals', lyrics: 'oh', vocalGender: 'male' }), none, 'ok'],
      ['Vocals with vocalGender female', base({ generateType: 'Vocals', lyrics: 'oh', vocalGender: 'female' }), none, 'ok'],
      ['Vocals with vocalGender m (male or female here)', base({ generateType: 'Vocals', lyrics: 'oh', vocalGender: 'm' }), none, invalid('vocalGender')],
      ['vocalGender with Bass', base({ vocalGender: 'male' }), none, invalid('vocalGender', 'Vocals only')],
      ['lyrics with Bass (allowed)', base({ lyrics: 'hum' }), none, 'ok'],
      ['neither audio nor providerSongId', withAudio(), none, invalid('audio', 'exactly one')],
      ['both audio and providerSongId', base(), audio(file(wav6)), invalid('providerSongId', 'exactly one')],
      ['providerSongId unknown', base({ providerSongId: 'ma_0000000000000000_0' }), none, fails('MUSIC_SOURCE_NOT_FOUND', 'providerSongId')],
      ['providerSongId malformed', base({ providerSongId: 'song-42' }), none, fails('MUSIC_SOURCE_NOT_FOUND', 'providerSongId')],
      ['providerSongId of another key', () => ({ ...musicFormFields.track, providerSongId: theirs }), none, fails('MUSIC_SOURCE_NOT_FOUND', 'providerSongId')],
      ['providerSongId of a musicB song', () => ({ ...musicFormFields.track, providerSongId: bSong }), none, fails('MUSIC_PROVIDER_UNSUPPORTED', 'musicB')],
      ['window 1.5-4.5 s of a 6 s WAV', withAudio({ generateStart: '1.5', generateEnd: '4.5' }), audio(file(wav6)), 'ok'],
      ['window 0-6 s of a 6 s WAV (the whole source)', withAudio({ generateStart: '0', generateEnd: '6' }), audio(file(wav6)), 'ok'],
      ['generateEnd 6.001 of a 6 s WAV', withAudio({ generateEnd: '6.001' }), audio(file(wav6)), invalid('generateEnd', 'past the end')],
      ['generateStart 6 of a 6 s WAV', withAudio({ generateStart: '6' }), audio(file(wav6)), invalid('generateStart')],
      [
        'generateStart 3 = generateEnd 3',
        withAudio({ generateStart: '3', generateEnd: '3' }),
        audio(file(wav6)),
        invalid('generateEnd', 'after generateStart'),
      ],
      ['generateStart 4 > generateEnd 2', withAudio({ generateStart: '4', generateEnd: '2' }), audio(file(wav6)), invalid('generateEnd')],
      ['generateStart -1', withAudio({ generateStart: '-1' }), audio(file(wav6)), invalid('generateStart')],
      ['generateEnd "end"', withAudio({ generateEnd: 'end' }), audio(file(wav6)), invalid('generateEnd')],
    ],
    setup,
  );
});

describe('POST /v1/music/track: a flat price, the window, params', () => {
  it(`${musicFlatCredits.track} credits; the track lasts generateEnd - generateStart of an upload, or the whole song of a providerSongId`, async () => {
    const m = await start();
    const a = await finished(
      m,
      'generateTrack',
      musicForm(
        { generateType: 'Vocals', prompt: 'soft harmonies', lyrics: 'oh oh', vocalGender: 'female', generateStart: '1.5', generateEnd: '4.5' },
        { audio: file(wav6, 'mix.wav') },
      ),
      musicFlatCredits.track,
    );
    expect(a.tracks[0].duration).toBe(3);
    expect(a).toMatchObject({ taskType: 'TRACK' });
    expect(a.params).toEqual({
      model: 'auto',
      prompt: 'soft harmonies',
      instrumental: false,
      generateType: 'Vocals',
      lyrics: 'oh oh',
      vocalGender: 'female',
      generateStart: 1.5,
      generateEnd: 4.5,
      audio: { filename: 'mix.wav', bytes: wav6.length, type: 'wav' },
    });
    const { providerSongId, task } = await musicSong(m);
    const b = await finished(m, 'generateTrack', musicForm({ ...musicFormFields.track, providerSongId }), musicFlatCredits.track);
    expect(b.tracks[0].duration).toBe(task.tracks[0].duration);
    expect(b.tracks[0].title).toBe(`${task.tracks[0].title} (Bass)`);
    expect(b.params).toMatchObject({ instrumental: true, generateType: 'Bass', providerSongId });
    // a window of an MP3 source: from 2 s to its end (4.992 s): 2.992 s, rendered as 125 whole frames of 24 ms
    const c = await finished(
      m,
      'generateTrack',
      musicForm({ ...musicFormFields.track, generateStart: '2' }, { audio: file(mp3, 'a.mp3') }),
      musicFlatCredits.track,
    );
    expect(c.tracks[0].duration).toBe(3);
  });
});

// ---------------------------------------------------------------------------
// /remix
// ---------------------------------------------------------------------------

describe('POST /v1/music/remix: rules', () => {
  let mine: MusicTask;
  let theirs: MusicTask;
  let bSong: string;
  let base: string;
  const setup = async (m: TestMock) => {
    mine = (await musicSong(m)).task;
    theirs = (await musicSong(m, OTHER_KEY)).task;
    bSong = (await musicSong(m, undefined, { provider: 'musicB', prompt: 'la' })).providerSongId;
    base = m.base;
  };
  const fields =
    (over: Record<string, string | null> = {}) =>
    () => ({ ...musicFormFields.remix, ...over });
  const none = () => ({});
  const audio = (f: FormFile) => () => ({ audio: f });
  uploadTable(
    'remixMusic',
    [
      // document 3: remix takes internal platform audio only; another host's URL is refused
      ['audioUrl: a URL outside the platform', fields({ audioUrl: 'https://example.com/songs/original.mp3' }), none, invalid('audioUrl', 'platform')],
      ["audioUrl: a track URL of the caller's own task", () => ({ ...musicFormFields.remix, audioUrl: mine.tracks[0].audioUrl }), none, 'ok'],
      [
        "audioUrl: another account's track URL",
        () => ({ ...musicFormFields.remix, audioUrl: theirs.tracks[0].audioUrl }),
        none,
        fails('MUSIC_SOURCE_FORBIDDEN', 'audioUrl'),
      ],
      [
        'audioUrl: a platform URL that is no track',
        () => ({ ...musicFormFields.remix, audioUrl: `${base}/media/speech/sp_1.mp3` }),
        none,
        fails('MUSIC_SOURCE_NOT_FOUND', 'audioUrl'),
      ],
      ['audioUrl: ftp', fields({ audioUrl: 'ftp://example.com/a.mp3' }), none, invalid('audioUrl', 'http')],
      ['audioUrl: not a URL', fields({ audioUrl: 'original.mp3' }), none, invalid('audioUrl')],
      ['providerSongId of the key', () => ({ ...musicFormFields.remix, providerSongId: mine.tracks[0].providerSongId }), none, 'ok'],
      [
        'providerSongId of another key',
        () => ({ ...musicFormFields.remix, providerSongId: theirs.tracks[0].providerSongId }),
        none,
        fails('MUSIC_SOURCE_NOT_FOUND'),
      ],
      [
        'providerSongId of a musicB song',
        () => ({ ...musicFormFields.remix, providerSongId: bSong }),
        none,
        fails('MUSIC_PROVIDER_UNSUPPORTED', 'providerSongId'),
      ],
      ['audio: an MP3', fields(), audio(file(mp3, 'a.mp3')), 'ok'],
      ['audio: an M4A', fields(), () => ({ audio: file(m4aBrand, 'a.m4a') }), 'ok'],
      ['audio: a WAV (mp3 or m4a only)', fields(), audio(file(wav6, 'a.wav')), unsupportedFile('audio', 'wav')],
      [`audio: an MP3 of exactly ${MB10} bytes`, fields(), () => ({ audio: file(mp3Bytes({ totalBytes: MB10 }), 'big.mp3') }), 'ok'],
      [`audio: ${MB10 + 1} bytes`, fields(), () => ({ audio: file(mp3Bytes({ totalBytes: MB10 + 1 }), 'big.mp3') }), tooLarge('audio')],
      ['no source', fields(), none, invalid('audio', 'exactly one')],
      ['audio and audioUrl', fields({ audioUrl: 'https://example.com/a.mp3' }), audio(file(mp3)), invalid('audioUrl', 'exactly one')],
      [
        'audioUrl and providerSongId',
        () => ({ ...musicFormFields.remix, audioUrl: 'https://example.com/a.mp3', providerSongId: mine.tracks[0].providerSongId }),
        none,
        invalid('providerSongId'),
      ],
      ['lyrics missing', fields({ lyrics: null, audioUrl: 'https://example.com/a.mp3' }), none, invalid('lyrics')],
      ['lyrics blank', fields({ lyrics: '\n', audioUrl: 'https://example.com/a.mp3' }), none, invalid('lyrics', 'blank')],
      ['prompt missing', fields({ prompt: null, audioUrl: 'https://example.com/a.mp3' }), none, invalid('prompt')],
    ],
    setup,
  );
});

describe('POST /v1/music/remix: a flat price, the source length, params', () => {
  it(`${musicFlatCredits.remix} credits; a remix of an own track, an upload or a song id lasts as long as it`, async () => {
    const m = await start();
    const { task } = await musicSong(m, undefined, musicBody({ title: 'Original' }));
    const url = task.tracks[0].audioUrl;
    const a = await finished(m, 'remixMusic', musicForm({ ...musicFormFields.remix, audioUrl: url }), musicFlatCredits.remix);
    // a form sends line breaks of text fields as CRLF (the FormData serialization)
    const lyrics = musicFormFields.remix.lyrics.replace('\n', '\r\n');
    expect(a).toMatchObject({ taskType: 'REMIX', params: { model: 'auto', instrumental: false, lyrics, audioUrl: url } });
    expect(a.tracks[0].duration).toBe(task.tracks[0].duration);
    expect(a.tracks[0].title).toBe('New words for an old tune');
    const b = await finished(m, 'remixMusic', musicForm(musicFormFields.remix, { audio: file(mp3, 'demo.mp3') }), musicFlatCredits.remix);
    expect(b.tracks[0].duration).toBeCloseTo(4.992, 6);
    expect(b.params.audio).toEqual({ filename: 'demo.mp3', bytes: mp3.length, type: 'mp3' });
    const c = await finished(m, 'remixMusic', musicForm({ ...musicFormFields.remix, providerSongId: task.tracks[0].providerSongId }), musicFlatCredits.remix);
    expect(c.tracks[0].duration).toBe(task.tracks[0].duration);
  });
});
