/**
 * The music-analysis operations through Prism's validation proxy
 * (test/prism.ts): every request goes client -> Prism (--errors) -> a fresh
 * mock, and any violation in either direction fails the test. Covers the three
 * multipart operations with uploaded recordings and with audioUrl (external,
 * and the mock's own stems), the documented errors a client cannot rule out
 * up front (unreadable audio, a short recording, credits, another account's
 * file, an unknown hosted file), every Prefer-forced answer, and requests the
 * document forbids (Prism flags them; the mock answers its documented error).
 *
 * Prism 5.14.2 forwards a body as text, so bytes that are not UTF-8 arrive
 * altered: the recordings sent through Prism are WAVs whose every byte is
 * ASCII (`asciiWav`: 8-bit PCM at 8 kHz, real WAVs the mock measures like any
 * other). The document is spec/openapi.json as emitted: the single `audio`
 * file field needs none of the changes the repeated field of voice cloning does.
 */
import ToneMidi from '@tonejs/midi';
import { describe, expect, it } from 'vitest';
import { musicAnalysisCredits, musicGenres, stemModels } from '../schemas/music-analysis.ts';
import { operationIds, operations, type OperationId } from '../schemas/operations.ts';
import type { OperationDef } from '../schemas/registry-types.ts';
import { asciiWav, analysisForm, pathOf } from './factories.ts';
import { decodeAudio } from '../verify/decoders.ts';
import { expectErrorEnvelope as expectError, expectForwarded, forcedCases, KEY, OTHER_KEY, usePrism, type MockHandle } from './prism.ts';

const { Midi } = ToneMidi;

const prism = usePrism();

const wav6 = asciiWav(6); // 8.192 s: the first ASCII-safe size from 6 s on
const upload = (bytes: Uint8Array = wav6) => ({ bytes, name: 'song.wav', type: 'audio/wav' });
const ok = (op: OperationId, body: FormData, key?: string) => expectForwarded(prism, 'POST', pathOf(op), { body, key });
const call = (
  op: OperationId,
  body: FormData | Record<string, unknown>,
  opts: { key?: string; allowViolations?: boolean; headers?: Record<string, string> } = {},
) => prism.call('POST', pathOf(op), { body, ...opts });
const setCredits = async (m: MockHandle, credits: number, key = KEY) => {
  const r = await m.call('PUT', `/__mock/accounts/${key}`, { key: null, body: { credits } });
  expect(r.status, r.text).toBe(200);
};

describe('the recordings sent through Prism', () => {
  it('are ASCII WAVs of the expected length', async () => {
    expect(wav6.every((b) => b < 0x80)).toBe(true);
    expect((await decodeAudio(wav6, 'wav')).durationMs).toBe(8_192);
  });
});

describe('the three operations through Prism', () => {
  it('recognize and describe an uploaded WAV: the same answer each time, inside its 8.192 s', async () => {
    prism.useMock();
    const r = (await ok('recognizeMusic', analysisForm({}, upload()))).json.data;
    expect(r.segments.length).toBeGreaterThan(0);
    for (const s of r.segments) expect(s.end).toBeLessThanOrEqual(8.192);
    expect(r.lyrics).toBe(r.segments.map((s: { text: string }) => s.text).join('\n'));
    expect((await ok('recognizeMusic', analysisForm({}, upload()))).json.data).toEqual(r);
    const d = (await ok('describeMusic', analysisForm({}, upload()))).json.data;
    expect(musicGenres).toContain(d.genre);
    expect(d.description).toContain('0:08');
  });

  it('stem with audio-separation-2: six MP3 stems as long as the upload and a MIDI; audio-separation-1: four, midiUrl null', async () => {
    const m = prism.useMock();
    const two = (await ok('separateMusicStems', analysisForm({ model: 'audio-separation-2' }, upload()))).json.data;
    expect(two.model).toBe('audio-separation-2');
    expect(two.stems.map((s: { name: string }) => s.name)).toEqual(stemModels['audio-separation-2'].stems);
    for (const s of two.stems as { audioUrl: string }[]) {
      expect(s.audioUrl.startsWith(`${m.base}/media/music/stems/`)).toBe(true);
      const res = await fetch(s.audioUrl);
      expect(res.status).toBe(200);
      const decoded = await decodeAudio(new Uint8Array(await res.arrayBuffer()), 'mp3');
      expect(Math.abs(decoded.durationMs - 8_192)).toBeLessThanOrEqual(24);
    }
    const midi = new Midi(new Uint8Array(await (await fetch(two.midiUrl)).arrayBuffer()));
    expect(Math.abs(midi.duration - 8.192)).toBeLessThanOrEqual(0.01);
    const one = (await ok('separateMusicStems', analysisForm({}, upload()))).json.data;
    expect(one).toEqual({ model: 'audio-separation-1', stems: expect.any(Array), midiUrl: null });
    expect(one.stems).toHaveLength(4);
  });

  it("audioUrl: an external URL, and the caller's own stem (read from the mock: the same answer as its upload would give)", async () => {
    const m = prism.useMock();
    const ext = (await ok('describeMusic', analysisForm({ audioUrl: 'https://example.com/songs/sunrise.mp3' }, null))).json.data;
    expect(ext.description).toMatch(/ track of [0-4]:\d\d /);
    const split = (await ok('separateMusicStems', analysisForm({}, upload()))).json.data;
    const byUrl = (await ok('recognizeMusic', analysisForm({ audioUrl: split.stems[0].audioUrl }, null))).json.data;
    const bytes = new Uint8Array(await (await fetch(split.stems[0].audioUrl)).arrayBuffer());
    const direct = await m.call('POST', pathOf('recognizeMusic'), { body: analysisForm({}, { bytes, name: 'vocals.mp3' }) });
    expect(direct.json.data).toEqual(byUrl);
  });
});

describe('documented errors the document cannot rule out up front', () => {
  it("not audio (39502), too short (39503), an unknown hosted file (39505), another account's stem (403, 39506), a short balance (402, 39507)", async () => {
    const m = prism.useMock();
    const text = new TextEncoder().encode('not a song at all\n'.repeat(20));
    expectError(
      await call('recognizeMusic', analysisForm({}, { bytes: text, name: 'song.mp3', type: 'audio/mpeg' })),
      'MUSIC_ANALYSIS_UNSUPPORTED_AUDIO',
      'audio',
    );
    expectError(await call('describeMusic', analysisForm({}, upload(asciiWav(0.5)))), 'MUSIC_ANALYSIS_AUDIO_DURATION_INVALID', 'audio');
    expectError(
      await call('separateMusicStems', analysisForm({ audioUrl: `${m.base}/media/music/stems/mst_0000000000000000/vocals.mp3` }, null)),
      'MUSIC_ANALYSIS_SOURCE_NOT_FOUND',
      'audioUrl',
    );
    const split = (await ok('separateMusicStems', analysisForm({}, upload()))).json.data;
    expectError(await call('recognizeMusic', analysisForm({ audioUrl: split.stems[0].audioUrl }, null), { key: OTHER_KEY }), 'MUSIC_ANALYSIS_SOURCE_FORBIDDEN');
    await setCredits(m, musicAnalysisCredits.stem['audio-separation-2'] - 1);
    expectError(
      await call('separateMusicStems', analysisForm({ model: 'audio-separation-2' }, upload())),
      'MUSIC_ANALYSIS_INSUFFICIENT_CREDITS',
      `${musicAnalysisCredits.stem['audio-separation-2']} credits`,
    );
  });
});

/** The music-analysis operations: every declared status and code, forced, through Prism. */
const analysisOps = operationIds.map((id) => operations[id] as OperationDef).filter((op) => op.tags.includes('Music analysis'));

describe('Prefer-forced answers of every music-analysis operation, through Prism', () => {
  it('covers the three operations', () => {
    expect(analysisOps.map((op) => op.operationId).sort()).toEqual(['describeMusic', 'recognizeMusic', 'separateMusicStems']);
  });

  it.each(analysisOps.map((op) => [op.operationId, op] as const))('%s', async (_id, op) => {
    prism.useMock();
    const cases = forcedCases(op);
    expect(cases.length).toBeGreaterThan(0);
    for (const c of cases) expectError(await call(op.operationId as OperationId, analysisForm({}, upload()), { headers: { prefer: c.prefer } }), c.error);
  });
});

describe('requests the document forbids: Prism flags them; the mock answers its documented error', () => {
  it.each([
    ['both audio and audioUrl', { audioUrl: 'https://example.com/a.mp3' }, upload(), 'audioUrl'],
    ['neither audio nor audioUrl', {}, null, 'audio'],
    ['audioUrl not a URI', { audioUrl: 'not a url' }, null, 'audioUrl'],
    ['stem: an unknown model', { model: 'audio-separation-9' }, upload(), 'model'],
  ] as const)('%s', async (_n, fields, file, field) => {
    const m = prism.useMock();
    const r = await call('separateMusicStems', analysisForm(fields, file), { allowViolations: true });
    expect(r.status, r.text.slice(0, 300)).toBe(422);
    expect(r.forwarded).toBe(false);
    expect(r.violations[0]).toMatchObject({ direction: 'request' });
    prism.takeViolations();
    expectError(await m.call('POST', pathOf('separateMusicStems'), { body: analysisForm(fields, file) }), 'MUSIC_ANALYSIS_INVALID_PARAMETERS', field);
  });

  it('a JSON body: Prism 422, the mock 415 (10003)', async () => {
    const m = prism.useMock();
    const r = await call('recognizeMusic', { audioUrl: 'https://example.com/a.mp3' }, { allowViolations: true });
    expect(r.status).toBe(422);
    expect(r.forwarded).toBe(false);
    prism.takeViolations();
    expectError(await m.call('POST', pathOf('recognizeMusic'), { body: { audioUrl: 'https://example.com/a.mp3' } }), 'UNSUPPORTED_MEDIA_TYPE');
  });
});
