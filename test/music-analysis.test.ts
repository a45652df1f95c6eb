/**
 * The synchronous music-analysis endpoints (document 3, "Music: asynchronous
 * generation (prefix /v1/music)", last paragraph; "Providers and models";
 * "Limits"), through the HTTP interface:
 *
 * - the request rules as table cases, for each of the three operations: the
 *   source rule (audio or audioUrl, exactly one), the file type read from the
 *   bytes (not the name or declared type), empty files, the 10 MB limit (exactly
 *   10 MB accepted, one byte more 413), the duration bounds, the model;
 * - analysis of generated WAV, MP3 and m4a inputs: recognized segments inside
 *   the real (decoded) duration, the description, stems decoded with
 *   music-metadata as long as the input to within a frame, the MIDI of
 *   audio-separation-2 parsed with @tonejs/midi;
 * - audioUrl: the mock's own hosted media (own, another account's, another
 *   area's public file, unknown, expired, too large) and external URLs;
 * - determinism (the same bytes give the same answer, for every key) and money
 *   (charged at once; a short balance takes nothing; a rejected request takes nothing).
 */
import ToneMidi from '@tonejs/midi';
import { beforeEach, describe, expect, it } from 'vitest';
import { errorCatalog, type ErrorName } from '../schemas/errors.ts';
import {
  externalRecordingSeconds,
  MUSIC_AUDIO_MAX_BYTES,
  musicAnalysisCredits,
  musicAnalysisDurationMs,
  musicBpm,
  musicGenres,
  musicInstruments,
  musicMoods,
  stemModels,
  type StemModel,
} from '../schemas/music-analysis.ts';
import type { OperationId } from '../schemas/operations.ts';
import { renderAudio } from '../mock/media/audio.ts';
import { decodeAudio } from '../verify/decoders.ts';
import { analysisForm, m4aBytes, musicSong, pathOf, speechBody, wavBytes, wavOfSize } from './factories.ts';
import { type CallResult, KEY, OTHER_KEY, type TestMock, useMocks } from './helpers.ts';

const { Midi } = ToneMidi;

const start = useMocks();
let m: TestMock;
beforeEach(async () => {
  m = await start();
});

const OPS = ['recognizeMusic', 'describeMusic', 'separateMusicStems'] as const satisfies readonly OperationId[];
type Op = (typeof OPS)[number];

/** The price of one call of `op` with its default model. */
const priceOf = (op: Op, model: StemModel = 'audio-separation-1') =>
  op === 'recognizeMusic' ? musicAnalysisCredits.recognize : op === 'describeMusic' ? musicAnalysisCredits.describe : musicAnalysisCredits.stem[model];

type File = { bytes: Uint8Array; name?: string; type?: string } | null;
const call = (op: Op, fields: Record<string, string> = {}, file: File = { bytes: wavBytes(6) }, key = KEY) =>
  m.call('POST', pathOf(op), { body: analysisForm(fields, file), key });

/** Asserts the error envelope of `error` (status, code, data null) and that the message names each of `names`. */
function expectError(r: CallResult, error: ErrorName, ...names: string[]) {
  const e = errorCatalog[error];
  expect(r.status, r.text).toBe(e.httpStatus);
  expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  expect(r.json, r.text).toEqual({ code: e.code, message: expect.any(String), data: null });
  for (const n of names) expect(r.json.message, `the message names ${n}`).toContain(n);
}

function expectOk(r: CallResult) {
  expect(r.status, r.text.slice(0, 400)).toBe(200);
  expect(r.json.code).toBe(0);
  return r.json.data;
}

interface LedgerEntry {
  type: 'reserve' | 'capture' | 'release' | 'adjust';
  amount: number;
  balance: number;
  taskId: string | null;
}

/** The account of `key`: its balance and ledger, checked to sum up. */
async function account(key = KEY): Promise<{ credits: number; ledger: LedgerEntry[] }> {
  const r = await m.call('GET', `/__mock/accounts/${key}?ledgerPageSize=1000`, { key: null });
  expect(r.status, r.text).toBe(200);
  let running = 0;
  for (const e of r.json.ledger as LedgerEntry[]) {
    running += e.amount;
    expect(e.balance).toBe(running);
    expect(e.balance).toBeGreaterThanOrEqual(0);
  }
  expect(running).toBe(r.json.credits);
  return { credits: r.json.credits, ledger: r.json.ledger };
}

async function setCredits(credits: number, key = KEY) {
  const r = await m.call('PUT', `/__mock/accounts/${key}`, { key: null, body: { credits } });
  expect(r.status, r.text).toBe(200);
}

/**
 * A PCM WAV (RIFF) of `samples` sample frames at `rate` Hz, `channels` channels of `bits` (8 or 16) bits:
 * a sawtooth (or digital silence with `silent`).
 */
function pcmWav(o: { rate: number; channels?: number; bits?: 8 | 16; samples: number; silent?: boolean }): Uint8Array {
  const channels = o.channels ?? 1;
  const bits = o.bits ?? 16;
  const frame = (bits / 8) * channels;
  const dataBytes = o.samples * frame;
  const out = new Uint8Array(44 + dataBytes + (dataBytes % 2));
  const dv = new DataView(out.buffer);
  const ascii = (at: number, t: string) => [...t].forEach((c, i) => (out[at + i] = c.charCodeAt(0)));
  ascii(0, 'RIFF');
  dv.setUint32(4, out.length - 8, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  dv.setUint32(16, 16, true);
  dv.setUint16(20, 1, true);
  dv.setUint16(22, channels, true);
  dv.setUint32(24, o.rate, true);
  dv.setUint32(28, o.rate * frame, true);
  dv.setUint16(32, frame, true);
  dv.setUint16(34, bits, true);
  ascii(36, 'data');
  dv.setUint32(40, dataBytes, true);
  if (bits === 8) out.fill(0x80, 44, 44 + dataBytes);
  if (!o.silent) for (let i = 0; i < dataBytes; i++) out[44 + i] = bits === 8 ? 0x40 + (i % 128) : i % 2 ? (i >> 1) % 64 : 0;
  return out;
}

/** A WAV of `ms` at 1 kHz, 8-bit mono: an hour in 3.6 MB (the duration bounds without big files). */
const longWav = (ms: number) => pcmWav({ rate: 1_000, bits: 8, samples: ms });

/** Loads a hosted file: its status, type and bytes. */
async function load(url: string): Promise<{ status: number; type: string | null; bytes: Uint8Array }> {
  const res = await fetch(url);
  return { status: res.status, type: res.headers.get('content-type'), bytes: new Uint8Array(await res.arrayBuffer()) };
}

const mp3Of = (ms: number, variant = 0) => renderAudio({ format: 'mp3', durationMs: ms, variant });

// ---------------------------------------------------------------------------
// Rules
// ---------------------------------------------------------------------------

describe('request rules (each case on each operation; a refused request charges nothing)', () => {
  const text = new TextEncoder().encode('these are not the sounds you are looking for\n'.repeat(50));
  type Case = [name: string, fields: Record<string, string>, file: () => Promise<File> | File, error: ErrorName, names: string[]];
  const cases: Case[] = [
    [
      'both audio and audioUrl',
      { audioUrl: 'https://example.com/a.mp3' },
      () => ({ bytes: wavBytes(3) }),
      'MUSIC_ANALYSIS_INVALID_PARAMETERS',
      ['audioUrl', 'exactly one'],
    ],
    ['neither audio nor audioUrl', {}, () => null, 'MUSIC_ANALYSIS_INVALID_PARAMETERS', ['audio', 'exactly one']],
    ['audioUrl not a URL', { audioUrl: 'song.mp3' }, () => null, 'MUSIC_ANALYSIS_INVALID_PARAMETERS', ['audioUrl']],
    ['audioUrl of another scheme', { audioUrl: 'ftp://example.com/a.mp3' }, () => null, 'MUSIC_ANALYSIS_INVALID_PARAMETERS', ['audioUrl', 'http']],
    ['audioUrl empty', { audioUrl: '' }, () => null, 'MUSIC_ANALYSIS_INVALID_PARAMETERS', ['audioUrl']],
    ['audioUrl over 2048 characters', { audioUrl: `https://example.com/${'a'.repeat(2030)}` }, () => null, 'MUSIC_ANALYSIS_INVALID_PARAMETERS', ['audioUrl']],
    ['audio sent as a text field', { audio: 'hello' }, () => null, 'MUSIC_ANALYSIS_INVALID_PARAMETERS', ['audio']],
    ['an empty file', {}, () => ({ bytes: new Uint8Array(0), name: 'song.mp3', type: 'audio/mpeg' }), 'MUSIC_ANALYSIS_UNSUPPORTED_AUDIO', ['audio', 'empty']],
    [
      'text named song.mp3, declared audio/mpeg',
      {},
      () => ({ bytes: text, name: 'song.mp3', type: 'audio/mpeg' }),
      'MUSIC_ANALYSIS_UNSUPPORTED_AUDIO',
      ['audio'],
    ],
    ['a WAV cut after its header', {}, () => ({ bytes: wavBytes(3).subarray(0, 30) }), 'MUSIC_ANALYSIS_UNSUPPORTED_AUDIO', ['audio']],
    [
      'FLAC named song.wav',
      {},
      async () => ({ bytes: await renderAudio({ format: 'flac', durationMs: 3000, variant: 0 }) }),
      'MUSIC_ANALYSIS_UNSUPPORTED_AUDIO',
      ['flac'],
    ],
    [
      'Ogg Opus',
      {},
      async () => ({ bytes: await renderAudio({ format: 'opus', durationMs: 3000, variant: 0 }), name: 'a.ogg' }),
      'MUSIC_ANALYSIS_UNSUPPORTED_AUDIO',
      ['ogg'],
    ],
    [
      'ADTS AAC (not m4a)',
      {},
      async () => ({ bytes: await renderAudio({ format: 'aac', durationMs: 3000, variant: 0 }), name: 'a.m4a' }),
      'MUSIC_ANALYSIS_UNSUPPORTED_AUDIO',
      ['adts'],
    ],
    [
      'an MP4 video with sound, named song.m4a',
      {},
      async () => ({
        bytes: (await load(`${m.base}/__mock/samples/video?width=64&height=64&durationMs=2000&audio=true`)).bytes,
        name: 'song.m4a',
        type: 'audio/mp4',
      }),
      'MUSIC_ANALYSIS_UNSUPPORTED_AUDIO',
      ['video'],
    ],
    ['999 ms of audio (1 s is the least)', {}, () => ({ bytes: wavBytes(0.999) }), 'MUSIC_ANALYSIS_AUDIO_DURATION_INVALID', ['audio', '0.999 s']],
    [
      '60 minutes and 1 ms of audio',
      {},
      () => ({ bytes: longWav(musicAnalysisDurationMs.max + 1) }),
      'MUSIC_ANALYSIS_AUDIO_DURATION_INVALID',
      ['audio', '60 minutes'],
    ],
    ['10 MB and 1 byte', {}, () => ({ bytes: wavOfSize(MUSIC_AUDIO_MAX_BYTES + 1) }), 'MUSIC_ANALYSIS_FILE_TOO_LARGE', ['audio', '10 MB']],
  ];

  it.each(OPS.flatMap((op) => cases.map((c) => [op, ...c] as const)))('%s: %s', async (op, _name, fields, file, error, names) => {
    const before = await account();
    expectError(await call(op, fields, await file()), error, ...names);
    expect((await account()).ledger).toEqual(before.ledger);
  });

  it.each([
    ['stem: an unknown model', { model: 'audio-separation-3' }, ['model']],
    ['stem: model in another case', { model: 'Audio-Separation-1' }, ['model']],
  ])('%s -> 39501', async (_n, fields, names) => {
    expectError(await call('separateMusicStems', fields), 'MUSIC_ANALYSIS_INVALID_PARAMETERS', ...names);
  });

  type OkCase = [name: string, file: () => Promise<File> | File, ms: number];
  const accepted: OkCase[] = [
    ['exactly 1 s of audio', () => ({ bytes: wavBytes(1) }), 1_000],
    ['exactly 60 minutes (1 kHz 8-bit WAV)', () => ({ bytes: longWav(musicAnalysisDurationMs.max) }), musicAnalysisDurationMs.max],
    [
      'exactly 10 MB (a 16-bit WAV of 218.45 s)',
      () => ({ bytes: wavOfSize(MUSIC_AUDIO_MAX_BYTES) }),
      Math.round(((MUSIC_AUDIO_MAX_BYTES - 44) / 48_000) * 1000),
    ],
    ['a WAV named notes.txt, declared text/plain (the bytes decide)', () => ({ bytes: wavBytes(2), name: 'notes.txt', type: 'text/plain' }), 2_000],
    ['an MP3 named song.wav', async () => ({ bytes: await mp3Of(3_000), name: 'song.wav', type: 'audio/wav' }), 3_000],
    ['an m4a (AAC in MP4, no video)', async () => ({ bytes: await m4aBytes(4_000), name: 'a.m4a', type: 'audio/mp4' }), 4_000],
    ['a 44.1 kHz stereo WAV', () => ({ bytes: pcmWav({ rate: 44_100, channels: 2, samples: 44_100 * 3 }) }), 3_000],
  ];
  it.each(OPS.flatMap((op) => accepted.map((c) => [op, ...c] as const)))('%s: %s -> 200', async (op, _name, file, ms) => {
    const data = expectOk(await call(op, {}, await file()));
    if (op === 'recognizeMusic') expect(Math.max(...data.segments.map((s: { end: number }) => s.end)) * 1000).toBeLessThanOrEqual(ms);
    if (op === 'describeMusic') expect(data.description).toContain(`${Math.floor(Math.round(ms / 1000) / 60)}:`);
    if (op === 'separateMusicStems') expect(data.stems).toHaveLength(4);
  });
});

// ---------------------------------------------------------------------------
// Analyses
// ---------------------------------------------------------------------------

/** Asserts the segments are ordered, non-overlapping, within [0, durationMs], and the lyrics are their lines. */
function expectSegmentsWithin(data: { lyrics: string; segments: { start: number; end: number; text: string }[] }, durationMs: number) {
  expect(data.segments.length).toBeGreaterThan(0);
  let last = 0;
  for (const s of data.segments) {
    expect(s.start).toBeGreaterThanOrEqual(last);
    expect(s.end).toBeGreaterThan(s.start);
    expect(s.end * 1000).toBeLessThanOrEqual(durationMs);
    expect(Number.isInteger(Math.round(s.start * 1000 * 1e6) / 1e6), 'to the ms').toBe(true);
    expect(s.text.trim().length).toBeGreaterThan(0);
    last = s.end;
  }
  expect(data.lyrics).toBe(data.segments.map((s) => s.text).join('\n'));
}

describe('recognize: segments inside the real duration of the recording', () => {
  const inputs: [string, () => Promise<{ bytes: Uint8Array; format: 'wav' | 'mp3' }>][] = [
    ['a 1.5 s WAV', async () => ({ bytes: wavBytes(1.5), format: 'wav' })],
    ['a 6 s WAV', async () => ({ bytes: wavBytes(6), format: 'wav' })],
    ['a 95 s WAV', async () => ({ bytes: wavBytes(95), format: 'wav' })],
    ['a 2.5 s MP3', async () => ({ bytes: await mp3Of(2_500, 1), format: 'mp3' })],
    ['a 4-minute MP3', async () => ({ bytes: await mp3Of(240_000, 3), format: 'mp3' })],
  ];
  it.each(inputs)('%s (the duration decoded with music-metadata)', async (_n, make) => {
    const { bytes, format } = await make();
    const real = (await decodeAudio(bytes, format)).durationMs;
    const data = expectOk(await call('recognizeMusic', {}, { bytes }));
    expectSegmentsWithin(data, real);
    // long recordings get many lines
    if (real > 60_000) expect(data.segments.length).toBeGreaterThan(10);
  });

  it('digital silence (an all-zero WAV) has no lyrics, and is still charged', async () => {
    const before = (await account()).credits;
    expect(expectOk(await call('recognizeMusic', {}, { bytes: wavBytes(5, { silent: true }) }))).toEqual({ lyrics: '', segments: [] });
    expect((await account()).credits).toBe(before - musicAnalysisCredits.recognize);
  });
});

describe('describe', () => {
  it.each([
    ['a 6 s WAV', () => wavBytes(6), '0:06'],
    ['a 185 s MP3', () => mp3Of(185_000, 2), '3:05'],
  ] as const)('%s: the vocabularies, a tempo in range, the length in the description', async (_n, make, length) => {
    const d = expectOk(await call('describeMusic', {}, { bytes: await make() }));
    expect(musicGenres).toContain(d.genre);
    expect(musicMoods).toContain(d.mood);
    expect(Number.isInteger(d.bpm) && d.bpm >= musicBpm.min && d.bpm <= musicBpm.max).toBe(true);
    expect(d.key).toMatch(/^[A-G][#b]? (major|minor)$/);
    expect(d.instruments.length).toBeGreaterThanOrEqual(2);
    expect(new Set(d.instruments).size).toBe(d.instruments.length);
    for (const i of d.instruments) expect(musicInstruments).toContain(i);
    for (const part of [length, d.genre, d.mood, `${d.bpm} BPM`, d.key, d.instruments[0]]) expect(d.description).toContain(part);
  });
});

describe('stem: real stems as long as the input, MIDI with audio-separation-2', () => {
  const inputs: [string, () => Promise<{ bytes: Uint8Array; format: 'wav' | 'mp3' }>][] = [
    ['a 7 s WAV', async () => ({ bytes: wavBytes(7), format: 'wav' })],
    ['a 12.3 s MP3', async () => ({ bytes: await mp3Of(12_300, 4), format: 'mp3' })],
    ['a 44.1 kHz stereo WAV of 5.5 s', async () => ({ bytes: pcmWav({ rate: 44_100, channels: 2, samples: 44_100 * 5.5 }), format: 'wav' })],
  ];
  const FRAME_MS = 24; // one 576-sample MP3 frame at 24 kHz

  it.each(inputs.flatMap(([n, make]) => (['audio-separation-1', 'audio-separation-2'] as const).map((model) => [n, model, make] as const)))(
    '%s with %s',
    async (_n, model, make) => {
      const { bytes, format } = await make();
      const real = (await decodeAudio(bytes, format)).durationMs;
      const before = (await account()).credits;
      const d = expectOk(await call('separateMusicStems', model === 'audio-separation-1' ? {} : { model }, { bytes }));
      expect(d.model).toBe(model);
      expect(d.stems.map((s: { name: string }) => s.name)).toEqual(stemModels[model].stems);
      expect((await account()).credits).toBe(before - musicAnalysisCredits.stem[model]);
      const files: Uint8Array[] = [];
      for (const s of d.stems as { name: string; audioUrl: string }[]) {
        expect(s.audioUrl).toBe(`${m.base}/media/music/stems/${new URL(s.audioUrl).pathname.split('/')[4]}/${s.name}.mp3`);
        const f = await load(s.audioUrl);
        expect(f.status).toBe(200);
        expect(f.type).toBe('audio/mpeg');
        const decoded = await decodeAudio(f.bytes, 'mp3');
        expect(decoded.container).toBe('MPEG');
        expect(Math.abs(decoded.durationMs - real), `${s.name}: ${decoded.durationMs} ms vs ${real} ms`).toBeLessThanOrEqual(FRAME_MS);
        files.push(f.bytes);
      }
      // every stem sounds different (its own timbre)
      expect(new Set(files.map((b) => Buffer.from(b).toString('base64'))).size).toBe(files.length);
      if (model === 'audio-separation-1') {
        expect(d.midiUrl).toBeNull();
        return;
      }
      expect(d.midiUrl).toBe(d.stems[0].audioUrl.replace(/vocals\.mp3$/, 'notes.mid'));
      const midi = await load(d.midiUrl);
      expect(midi.status).toBe(200);
      expect(midi.type).toBe('audio/midi');
      const parsed = new Midi(midi.bytes);
      const notes = parsed.tracks.flatMap((t) => t.notes);
      expect(notes.length).toBeGreaterThan(0);
      expect(Math.abs(parsed.duration * 1000 - real), 'the MIDI lasts as long as the recording, to its 10 ms tick').toBeLessThanOrEqual(10);
    },
  );

  it('the MIDI of an audio-separation-1 split does not exist; unknown splits and stems answer 404', async () => {
    const d = expectOk(await call('separateMusicStems'));
    const split = d.stems[0].audioUrl.replace(/\/vocals\.mp3$/, '');
    expect((await load(`${split}/notes.mid`)).status).toBe(404);
    expect((await load(`${split}/guitar.mp3`)).status).toBe(404);
    expect((await load(`${m.base}/media/music/stems/mst_nope/vocals.mp3`)).status).toBe(404);
  });
});

// ---------------------------------------------------------------------------
// audioUrl
// ---------------------------------------------------------------------------

describe('audioUrl', () => {
  it("the mock's own media: a stem of the caller's split reads as its bytes would (same answer as uploading them)", async () => {
    const d = expectOk(await call('separateMusicStems', {}, { bytes: wavBytes(9) }));
    const url: string = d.stems[1].audioUrl;
    const bytes = (await load(url)).bytes;
    for (const op of ['recognizeMusic', 'describeMusic'] as const) {
      const byUrl = expectOk(await call(op, { audioUrl: url }, null));
      const byUpload = expectOk(await call(op, {}, { bytes, name: 'drums.mp3' }));
      expect(byUrl).toEqual(byUpload);
    }
    const stems = expectOk(await call('separateMusicStems', { audioUrl: url, model: 'audio-separation-2' }, null));
    const first = await decodeAudio((await load(stems.stems[0].audioUrl)).bytes, 'mp3');
    expect(Math.abs(first.durationMs - 9_000)).toBeLessThanOrEqual(24);
  });

  it("another account's stem: 403 (39506), nothing charged; its owner may use it", async () => {
    const d = expectOk(await call('separateMusicStems'));
    const before = await account(OTHER_KEY);
    for (const op of OPS)
      expectError(await call(op, { audioUrl: d.midiUrl ?? d.stems[0].audioUrl }, null, OTHER_KEY), 'MUSIC_ANALYSIS_SOURCE_FORBIDDEN', 'another account');
    expect((await account(OTHER_KEY)).ledger).toEqual(before.ledger);
    expectOk(await call('recognizeMusic', { audioUrl: d.stems[0].audioUrl }, null));
  });

  it("another area's audio: the MP3 of POST /v1/speech is its owner's (another key: 403); a built-in speaker's demo is public", async () => {
    const s = await m.call('POST', pathOf('createSpeechScript'), { body: speechBody() });
    expect(s.status, s.text).toBe(200);
    expectSegmentsWithin(expectOk(await call('recognizeMusic', { audioUrl: s.json.data.audioUrl }, null)), s.json.data.audioDuration);
    expectError(await call('recognizeMusic', { audioUrl: s.json.data.audioUrl }, null, OTHER_KEY), 'MUSIC_ANALYSIS_SOURCE_FORBIDDEN', 'another account');
    const demo = `${m.base}/media/speakers/en_ava/demo.mp3`;
    expect(expectOk(await call('describeMusic', { audioUrl: demo }, null, OTHER_KEY))).toEqual(expectOk(await call('describeMusic', { audioUrl: demo }, null)));
    // its subtitles are not audio; after 24 hours they are gone (expired)
    expectError(await call('recognizeMusic', { audioUrl: s.json.data.subtitlesUrl }, null), 'MUSIC_ANALYSIS_UNSUPPORTED_AUDIO', 'application/x-subrip');
    await m.advance(24 * 3_600_000);
    expectError(await call('recognizeMusic', { audioUrl: s.json.data.subtitlesUrl }, null), 'MUSIC_ANALYSIS_SOURCE_NOT_FOUND', '24 hours');
  });

  it.each([
    ['an unknown split', '/media/music/stems/mst_0000000000000000/vocals.mp3', 'MUSIC_ANALYSIS_SOURCE_NOT_FOUND', 'no hosted media'],
    ['a path that is no media', '/v1/music/stem', 'MUSIC_ANALYSIS_SOURCE_NOT_FOUND', '/media/'],
    ['a sample of the control API', '/__mock/samples/audio?format=wav&durationMs=3000', 'MUSIC_ANALYSIS_SOURCE_NOT_FOUND', '/media/'],
    ['broken percent-encoding', '/media/music/stems/%E0%A4/vocals.mp3', 'MUSIC_ANALYSIS_SOURCE_NOT_FOUND', 'no hosted media'],
  ] as const)("the mock's own origin, %s -> %s", async (_n, path, error, part) => {
    const before = await account();
    for (const op of OPS) expectError(await call(op, { audioUrl: `${m.base}${path}` }, null), error, 'audioUrl', part);
    expect((await account()).ledger).toEqual(before.ledger);
  });

  it('a MIDI file is hosted audio/midi but no audio to analyse: 39502', async () => {
    const d = expectOk(await call('separateMusicStems', { model: 'audio-separation-2' }));
    expectError(await call('describeMusic', { audioUrl: d.midiUrl }, null), 'MUSIC_ANALYSIS_UNSUPPORTED_AUDIO', 'audioUrl');
  });

  it('a hosted file over 10 MB: 413 (39504); the 60-minute stem of a 3.6 MB WAV is a 14 MB MP3', async () => {
    const d = expectOk(await call('separateMusicStems', {}, { bytes: longWav(musicAnalysisDurationMs.max) }));
    const head = await fetch(d.stems[0].audioUrl, { method: 'HEAD' });
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(MUSIC_AUDIO_MAX_BYTES);
    const before = await account();
    expectError(await call('recognizeMusic', { audioUrl: d.stems[0].audioUrl }, null), 'MUSIC_ANALYSIS_FILE_TOO_LARGE', 'audioUrl', '10 MB');
    expect((await account()).ledger).toEqual(before.ledger);
  });

  it('an external URL stands for a recording of 30-240 whole seconds chosen from the URL: the same URL, the same answer', async () => {
    const urls = ['https://example.com/songs/sunrise.mp3', 'http://cdn.example.org/a/b.wav?sig=1', 'https://127.0.0.2/media/music/stems/x/vocals.mp3'];
    for (const audioUrl of urls) {
      const r = expectOk(await call('recognizeMusic', { audioUrl }, null));
      expect(expectOk(await call('recognizeMusic', { audioUrl }, null, OTHER_KEY))).toEqual(r);
      const stems = expectOk(await call('separateMusicStems', { audioUrl }, null));
      const ms = (await decodeAudio((await load(stems.stems[0].audioUrl)).bytes, 'mp3')).durationMs;
      const seconds = Math.round(ms / 1000);
      expect(seconds).toBeGreaterThanOrEqual(externalRecordingSeconds.min);
      expect(seconds).toBeLessThanOrEqual(externalRecordingSeconds.max);
      expect(Math.abs(ms - seconds * 1000)).toBeLessThanOrEqual(24);
      expectSegmentsWithin(r, seconds * 1000);
      const d = expectOk(await call('describeMusic', { audioUrl }, null));
      expect(d.description).toContain(`${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`);
    }
  });
});

// ---------------------------------------------------------------------------
// Determinism
// ---------------------------------------------------------------------------

describe('determinism', () => {
  it('the same bytes give the same answer, for every key and in a fresh mock of the same seed; other bytes another', async () => {
    const a = wavBytes(20);
    const b = await mp3Of(20_000, 5);
    const answers = async (mock: TestMock, key: string, bytes: Uint8Array) => {
      const out: unknown[] = [];
      for (const op of ['recognizeMusic', 'describeMusic'] as const)
        out.push(expectOk(await mock.call('POST', pathOf(op), { body: analysisForm({}, { bytes }), key })));
      const s = expectOk(await mock.call('POST', pathOf('separateMusicStems'), { body: analysisForm({ model: 'audio-separation-2' }, { bytes }), key }));
      out.push(s.stems.map((x: { name: string }) => x.name));
      for (const x of s.stems as { audioUrl: string }[]) out.push(Buffer.from((await load(x.audioUrl)).bytes).toString('base64').length);
      out.push(Buffer.from((await load(s.midiUrl)).bytes).toString('base64'));
      return out;
    };
    const first = await answers(m, KEY, a);
    expect(await answers(m, KEY, a)).toEqual(first);
    expect(await answers(m, OTHER_KEY, a)).toEqual(first);
    expect(await answers(await start(), 'mg_fresh_key1', a)).toEqual(first);
    expect(await answers(m, KEY, b)).not.toEqual(first);
    expect(await answers(await start({ seed: 2 }), KEY, a)).not.toEqual(first);
  });

  it('stem files are the same bytes for the same input (the URLs name each split)', async () => {
    const one = expectOk(await call('separateMusicStems'));
    const two = expectOk(await call('separateMusicStems', {}, { bytes: wavBytes(6), name: 'other-name.wav' }));
    expect(two.stems[0].audioUrl).not.toBe(one.stems[0].audioUrl);
    for (const [i, s] of (one.stems as { audioUrl: string }[]).entries())
      expect(Buffer.compare((await load(two.stems[i].audioUrl)).bytes, (await load(s.audioUrl)).bytes)).toBe(0);
  });
});

// ---------------------------------------------------------------------------
// Money
// ---------------------------------------------------------------------------

describe('money: a flat price charged at once', () => {
  const priced: [Op, Record<string, string>, number][] = [
    ['recognizeMusic', {}, musicAnalysisCredits.recognize],
    ['describeMusic', {}, musicAnalysisCredits.describe],
    ['separateMusicStems', {}, musicAnalysisCredits.stem['audio-separation-1']],
    ['separateMusicStems', { model: 'audio-separation-1' }, musicAnalysisCredits.stem['audio-separation-1']],
    ['separateMusicStems', { model: 'audio-separation-2' }, musicAnalysisCredits.stem['audio-separation-2']],
  ];

  it.each(priced)('%s %j: a reserve captured at once, in full', async (op, fields, price) => {
    expect(priceOf(op, (fields.model as StemModel | undefined) ?? 'audio-separation-1')).toBe(price);
    const before = await account();
    expectOk(await call(op, fields));
    const after = await account();
    expect(after.credits).toBe(before.credits - price);
    const added = after.ledger.slice(before.ledger.length);
    expect(added.map((e) => [e.type, e.amount])).toEqual([
      ['reserve', -price],
      ['capture', 0],
    ]);
    expect(added[0].taskId).toBe(added[1].taskId);
  });

  it.each(priced)('%s %j: a balance of exactly the price is enough; one credit less is 402 (39507), nothing taken', async (op, fields, price) => {
    await setCredits(price - 1);
    const before = await account();
    expectError(await call(op, fields), 'MUSIC_ANALYSIS_INSUFFICIENT_CREDITS', `${price} credits`, `balance is ${price - 1}`);
    expect((await account()).ledger).toEqual(before.ledger);
    await setCredits(price);
    expectOk(await call(op, fields));
    expect((await account()).credits).toBe(0);
  });

  it('concurrent uploads on a balance that covers some of them: exactly that many answered 200, the rest 402, the balance never below 0', async () => {
    const price = musicAnalysisCredits.stem['audio-separation-2'];
    await setCredits(price * 12 + price - 1);
    const before = await account();
    const bodies = Array.from({ length: 40 }, (_, i) => ({ bytes: i % 2 ? wavBytes(2 + (i % 5)) : mp3Of(1_000 + 100 * i, i % 6) }));
    const answers = await Promise.all(bodies.map(async (b) => call('separateMusicStems', { model: 'audio-separation-2' }, { bytes: await b.bytes })));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(12);
    for (const r of answers.filter((x) => x.status !== 200)) expectError(r, 'MUSIC_ANALYSIS_INSUFFICIENT_CREDITS');
    const after = await account();
    expect(after.credits).toBe(price - 1);
    const added = after.ledger.slice(before.ledger.length);
    expect(added.filter((e) => e.type === 'reserve')).toHaveLength(12);
    expect(added.filter((e) => e.type === 'capture')).toHaveLength(12);
  });

  it('a forced provider failure (Prefer: error=39508) and a refused request take nothing', async () => {
    const before = await account();
    for (const op of OPS) {
      expectError(await m.call('POST', pathOf(op), { body: analysisForm(), headers: { prefer: 'error=39508' } }), 'MUSIC_ANALYSIS_FAILED');
      expectError(await call(op, {}, { bytes: new Uint8Array(10) }), 'MUSIC_ANALYSIS_UNSUPPORTED_AUDIO');
    }
    expect((await account()).ledger).toEqual(before.ledger);
  });
});

describe('audioUrl of a music track', () => {
  it("a signed track URL of the caller's song is analysed; another key's is refused (403, 39506)", async () => {
    const { task } = await musicSong(m);
    const url = task.tracks[0].audioUrl;
    const own = await m.call('POST', pathOf('describeMusic'), { body: analysisForm({ audioUrl: url }, null) });
    expect(own.status, own.text).toBe(200);
    const other = await m.call('POST', pathOf('describeMusic'), { key: OTHER_KEY, body: analysisForm({ audioUrl: url }, null) });
    expect(other.status, other.text).toBe(403);
    expect(other.json.code).toBe(errorCatalog.MUSIC_ANALYSIS_SOURCE_FORBIDDEN.code);
  });
});
