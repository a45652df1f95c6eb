/**
 * The two generated-audio services (document 2, "Generated-audio task",
 * "Generated-audio tasks (prefix P = ...)", "Errors", "Limits"), every case
 * parameterised by service (P1 /v1/platform-voice, P2 /v1/seed-audio, from
 * `generatedAudioServices`): the request rules (status, code, the message
 * naming the field), the lifecycle on the manual clock with the audio decoded,
 * money (price, reserve, capture, release, refunds), the rate and concurrency
 * limits, the list (order, pages, status, keyword), owner scoping and the
 * params echo.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { errorCatalog, type ErrorName } from '../schemas/errors.ts';
import {
  GENERATED_AUDIO_CONCURRENCY,
  generatedAudioFormats,
  generatedAudioLimits,
  generatedAudioPrice,
  generatedAudioRateLimit,
  generatedAudioSchedule,
  generatedAudioServices,
  type GeneratedAudioFormat,
} from '../schemas/generated-audio.ts';
import type { AudioFormat } from '../schemas/media.ts';
import type { OperationId } from '../schemas/operations.ts';
import { builtInSpeakers } from '../schemas/speech.ts';
import { decodeAudio, pngSize } from '../verify/decoders.ts';
import { type Body, pathOf } from './factories.ts';
import { type CallResult, KEY, OTHER_KEY, type TestMock, useMocks } from './helpers.ts';

const start = useMocks();

// ---------------------------------------------------------------------------
// The two services, from their one definition
// ---------------------------------------------------------------------------

const upper = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

const services = Object.entries(generatedAudioServices).map(([name, s]) => ({
  name,
  prefix: s.prefix,
  model: s.model,
  idPrefix: s.idPrefix,
  creditsPerMinute: s.creditsPerMinute,
  create: `create${upper(name)}Task` as OperationId,
  get: `get${upper(name)}Task` as OperationId,
  list: `list${upper(name)}Tasks` as OperationId,
}));
type Svc = (typeof services)[number];
const otherOf = (svc: Svc) => services.find((o) => o !== svc)!;

const SPEAKERS = builtInSpeakers.map((s) => s.speakerId);
const speaker = (id: string) => ({ type: 'speaker', id });
const speakers = (n: number) => Array.from({ length: n }, (_, i) => speaker(SPEAKERS[i]));
const EMOJI = '\u{1F600}'; // one code point, two UTF-16 units

/** A 1x1 PNG and a 1x1 GIF, Base64. */
const PNG_B64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const GIF_B64 = 'R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

/** Base64 of a PNG of exactly `bytes` bytes (the signature, then zeros): the 10 MB image limit. */
const pngOfBytes = (bytes: number) => {
  const b = Buffer.alloc(bytes);
  Buffer.from(PNG_B64, 'base64').copy(b);
  return b.toString('base64');
};
const PNG_10MB = pngOfBytes(generatedAudioLimits.imageBytes);
const PNG_10MB_PLUS_1 = pngOfBytes(generatedAudioLimits.imageBytes + 1);

/** A generate body: a short narration (8 words), every other field omitted, with the overrides. */
const genBody = (over: Body = {}): Body => ({ text: 'The quick brown fox jumps over the dog.', ...over });

/** The renderer's format of each audioConfig.format (what decodeAudio calls it). */
const decodedAs: Record<GeneratedAudioFormat, AudioFormat> = { mp3: 'mp3', wav: 'wav', pcm: 'pcm', ogg_opus: 'opus' };
/** How far the decoded length may be from audioDuration: one 24 ms frame for mp3, about a ms otherwise. */
const toleranceMs: Record<GeneratedAudioFormat, number> = { mp3: 24, wav: 1, pcm: 0.001, ogg_opus: 1 };

type Failure = { error: ErrorName; names: string[] };
type Expected = 'ok' | Failure;
type Case = [name: string, body: Body, expected: Expected];
const ok = 'ok' as const;
const invalid = (...names: string[]): Failure => ({ error: 'GEN_AUDIO_INVALID_PARAMETERS', names });
const tooMany = (...names: string[]): Failure => ({ error: 'GEN_AUDIO_TOO_MANY_VOICES', names });
const unknownSpeaker = (...names: string[]): Failure => ({ error: 'GEN_AUDIO_SPEAKER_NOT_FOUND', names });

/** Asserts the error envelope of `expected` (status, code, data null) and that the message names every field. */
function expectError(r: CallResult, expected: Failure | ErrorName) {
  const f = typeof expected === 'string' ? { error: expected, names: [] } : expected;
  const e = errorCatalog[f.error];
  expect(r.status, r.text).toBe(e.httpStatus);
  expect(r.headers.get('content-type'), r.text).toMatch(/^application\/json/);
  expect(r.json, r.text).toEqual({ code: e.code, message: expect.any(String), data: null });
  for (const name of f.names) expect(r.json.message, `the message names ${name}`).toContain(name);
}

/** Sends generate; returns the task id after checking the 202 answer. */
async function create(m: TestMock, svc: Svc, body: Body = genBody(), headers: Record<string, string> = {}, key?: string): Promise<string> {
  const r = await m.call('POST', pathOf(svc.create), { body, headers, key });
  expect(r.status, r.text).toBe(202);
  expect(r.json).toEqual({ code: 0, message: expect.any(String), data: { taskId: expect.stringMatching(new RegExp(`^${svc.idPrefix}_`)), status: 'pending' } });
  return r.json.data.taskId as string;
}

async function getTask(m: TestMock, svc: Svc, id: string, key?: string) {
  const r = await m.call('GET', pathOf(svc.get, { taskId: id }), { key });
  expect(r.status, r.text).toBe(200);
  expect(r.json.code).toBe(0);
  return r.json.data;
}

async function listTasks(m: TestMock, svc: Svc, query: Record<string, string | number> = {}, key?: string) {
  const r = await m.call('GET', pathOf(svc.list, {}, query), { key });
  expect(r.status, r.text).toBe(200);
  return r.json.data as { items: { id: string; status: string; params: { text: string } }[]; page: number; pageSize: number; total: number };
}

interface LedgerEntry {
  type: string;
  amount: number;
  taskId: string | null;
}
async function account(m: TestMock): Promise<{ credits: number; ledger: LedgerEntry[] }> {
  return (await m.call('GET', `/__mock/accounts/${KEY}?ledgerPageSize=100`, { key: null })).json;
}
const ledgerOf = async (m: TestMock, id: string) => (await account(m)).ledger.filter((e) => e.taskId === id).map((e) => [e.type, e.amount]);
const setCredits = (m: TestMock, credits: number) => m.call('PUT', `/__mock/accounts/${KEY}`, { key: null, body: { credits } });

/** Virtual time until a task with `durationMs` of audio is done (the assumed schedule). */
const doneAfterMs = (durationMs: number) =>
  generatedAudioSchedule.pendingMs +
  generatedAudioSchedule.generatingBaseMs +
  Math.round(durationMs * generatedAudioSchedule.generatingPerAudio) +
  generatedAudioSchedule.uploadingMs;

// ---------------------------------------------------------------------------
// Rules
// ---------------------------------------------------------------------------

const ruleCases = (svc: Svc): Case[] => [
  // model
  ['model omitted (the default)', genBody(), ok],
  [`model ${svc.model} (its own id)`, genBody({ model: svc.model }), ok],
  [`model ${otherOf(svc).model} (the other service's id)`, genBody({ model: otherOf(svc).model }), invalid('model')],
  // text
  ['text of 1,400 characters', genBody({ text: 'x'.repeat(1400) }), ok],
  ['text of 1,400 emoji (code points)', genBody({ text: EMOJI.repeat(1400) }), ok],
  ['text of 1,401 characters', genBody({ text: 'x'.repeat(1401) }), invalid('text')],
  ['text of 1,401 emoji', genBody({ text: EMOJI.repeat(1401) }), invalid('text')],
  ['text blank', genBody({ text: '   ' }), invalid('text')],
  ['text empty', genBody({ text: '' }), invalid('text')],
  ['text missing', {}, invalid('text')],
  // voices
  ['voices empty (0 entries)', genBody({ voices: [] }), invalid('voices')],
  ['voices of 1', genBody({ voices: speakers(1) }), ok],
  ['voices of 3', genBody({ voices: speakers(3) }), ok],
  ['voices of 4', genBody({ voices: speakers(4) }), tooMany('voices')],
  ['a reference voice', genBody({ voices: [{ type: 'reference', url: 'https://example.com/ref.wav' }] }), ok],
  ['a speaker entry with id and url', genBody({ voices: [{ type: 'speaker', id: SPEAKERS[0], url: 'https://example.com/a.wav' }] }), invalid('voices[0]')],
  ['a speaker entry without id', genBody({ voices: [speaker(SPEAKERS[0]), { type: 'speaker' }] }), invalid('voices[1].id')],
  ['a reference entry without url', genBody({ voices: [{ type: 'reference' }] }), invalid('voices[0].url')],
  ['a reference entry with id (and no url)', genBody({ voices: [{ type: 'reference', id: SPEAKERS[0] }] }), invalid('voices[0]')],
  ['a reference entry with a non-http url', genBody({ voices: [{ type: 'reference', url: 'ftp://example.com/a.wav' }] }), invalid('voices[0].url')],
  ['an entry of an unknown type', genBody({ voices: [{ type: 'clone', id: SPEAKERS[0] }] }), invalid('voices[0].type')],
  ['an unknown speaker id', genBody({ voices: [speaker(SPEAKERS[0]), speaker('xx_ghost')] }), unknownSpeaker('voices[1].id', 'xx_ghost')],
  // dialogue tags
  ['@音频2 with one voice', genBody({ text: '@音频1 Hello.\n@音频2 Hi.', voices: speakers(1) }), invalid('text', '@音频2')],
  ['@音频2 with two voices', genBody({ text: '@音频1 Hello.\n@音频2 Hi.', voices: speakers(2) }), ok],
  ['@音频1 with no voices', genBody({ text: '@音频1 Hello.' }), invalid('text', '@音频1')],
  // image
  ['image by url', genBody({ image: { url: 'https://example.com/a.png' } }), ok],
  ['image by a non-http url', genBody({ image: { url: 'ftp://example.com/a.png' } }), invalid('image.url')],
  ['image data: a PNG in Base64', genBody({ image: { data: PNG_B64 } }), ok],
  ['image data: a PNG with the data:image/png;base64, prefix', genBody({ image: { data: `data:image/png;base64,${PNG_B64}` } }), ok],
  ['image with both url and data', genBody({ image: { url: 'https://example.com/a.png', data: PNG_B64 } }), invalid('image')],
  ['image with neither url nor data', genBody({ image: {} }), invalid('image')],
  ['image data: a GIF (refused)', genBody({ image: { data: GIF_B64 } }), invalid('image.data')],
  ['image data: a GIF with its data:image/gif prefix', genBody({ image: { data: `data:image/gif;base64,${GIF_B64}` } }), invalid('image.data')],
  ['image data not Base64', genBody({ image: { data: 'not base64!' } }), invalid('image.data')],
  ['image data empty', genBody({ image: { data: '' } }), invalid('image.data')],
  ['image data of exactly 10 MB', genBody({ image: { data: PNG_10MB } }), ok],
  ['image data of 10 MB and 1 byte', genBody({ image: { data: PNG_10MB_PLUS_1 } }), invalid('image.data')],
  ['voices and image together', genBody({ voices: speakers(1), image: { url: 'https://example.com/a.png' } }), invalid('image')],
  // audioConfig
  ...[-50, 100].map((v): Case => [`speechRate ${v}`, genBody({ audioConfig: { speechRate: v } }), ok]),
  ...[-51, 101].map((v): Case => [`speechRate ${v}`, genBody({ audioConfig: { speechRate: v } }), invalid('audioConfig.speechRate')]),
  ...[-50, 100].map((v): Case => [`loudnessRate ${v}`, genBody({ audioConfig: { loudnessRate: v } }), ok]),
  ...[-51, 101].map((v): Case => [`loudnessRate ${v}`, genBody({ audioConfig: { loudnessRate: v } }), invalid('audioConfig.loudnessRate')]),
  ...[-12, 12].map((v): Case => [`pitchRate ${v}`, genBody({ audioConfig: { pitchRate: v } }), ok]),
  ...[-13, 13].map((v): Case => [`pitchRate ${v}`, genBody({ audioConfig: { pitchRate: v } }), invalid('audioConfig.pitchRate')]),
  ...generatedAudioFormats.map((f): Case => [`format ${f}`, genBody({ audioConfig: { format: f } }), ok]),
  ['format flac (unknown)', genBody({ audioConfig: { format: 'flac' } }), invalid('audioConfig.format')],
  ['format opus (not ogg_opus)', genBody({ audioConfig: { format: 'opus' } }), invalid('audioConfig.format')],
  // durationHint
  ...[generatedAudioLimits.durationHint.min, generatedAudioLimits.durationHint.max, 30.5].map((v): Case => [
    `durationHint ${v}`,
    genBody({ durationHint: v }),
    ok,
  ]),
  ...[0.5, 111, 0].map((v): Case => [`durationHint ${v}`, genBody({ durationHint: v }), invalid('durationHint')]),
  ['durationHint as a string', genBody({ durationHint: '10' }), invalid('durationHint')],
  // watermark
  ['watermark true', genBody({ watermark: true }), ok],
  ['watermark false', genBody({ watermark: false }), ok],
  ['watermark "yes"', genBody({ watermark: 'yes' }), invalid('watermark')],
];

describe.each(services)('$prefix ($model): generate rules', (svc) => {
  let m: TestMock;
  beforeEach(async () => {
    m = await start({ rateLimit: false });
  });

  it.each(ruleCases(svc))('%s', async (_case, body, expected) => {
    const r = await m.call('POST', pathOf(svc.create), { body });
    if (expected === 'ok') {
      expect(r.status, r.text).toBe(202);
      expect(r.json.data).toEqual({ taskId: expect.stringMatching(new RegExp(`^${svc.idPrefix}_`)), status: 'pending' });
    } else {
      expectError(r, expected);
      expect((await account(m)).credits, 'a refused request reserves nothing').toBe(10_000);
    }
  });
});

// ---------------------------------------------------------------------------
// Lifecycle and the audio
// ---------------------------------------------------------------------------

describe.each(services)('$prefix ($model): lifecycle on the manual clock', (svc) => {
  let m: TestMock;
  beforeEach(async () => {
    m = await start({ rateLimit: false });
  });

  it.each(generatedAudioFormats.map((f) => [f]))(
    'format %s: pending -> generating -> uploading -> success; the audio decodes to audioDuration',
    async (format) => {
      const hint = 4;
      const id = await create(m, svc, genBody({ durationHint: hint, audioConfig: { format } }));
      const pending = await getTask(m, svc, id);
      expect(pending).toMatchObject({ id, status: 'pending', model: svc.model, audioDuration: 0, creditCharged: 0, creditRefunded: 0 });
      expect(pending.audioUrl).toBeUndefined();
      expect(pending.errorMessage).toBeUndefined();
      const t0 = pending.createdAt as number;
      expect(pending.updatedAt).toBe(t0);

      await m.advance(generatedAudioSchedule.pendingMs - 1);
      expect((await getTask(m, svc, id)).status).toBe('pending');
      await m.advance(1);
      const generating = await getTask(m, svc, id);
      expect(generating).toMatchObject({ status: 'generating', audioDuration: 0, creditCharged: 0, updatedAt: t0 + generatedAudioSchedule.pendingMs });
      expect(generating.audioUrl).toBeUndefined();

      // generating lasts 2 s + 10% of the audio (about hint s): uploading half a second after that
      const uploadingAt = generatedAudioSchedule.pendingMs + generatedAudioSchedule.generatingBaseMs + hint * 1000 * generatedAudioSchedule.generatingPerAudio;
      await m.advance(uploadingAt + 500 - generatedAudioSchedule.pendingMs);
      const uploading = await getTask(m, svc, id);
      expect(uploading).toMatchObject({ status: 'uploading', audioDuration: 0, creditCharged: 0 });
      expect(uploading.audioUrl, 'no audioUrl while uploading').toBeUndefined();

      await m.advance(generatedAudioSchedule.uploadingMs);
      const done = await getTask(m, svc, id);
      expect(done).toMatchObject({ status: 'success', audioUrl: expect.any(String), creditRefunded: expect.any(Number) });
      expect(done.audioDuration).toBeGreaterThan(0);
      expect(done.audioDuration).toBeLessThanOrEqual(hint);
      expect(done.creditCharged).toBe(generatedAudioPrice(done.audioDuration, svc.creditsPerMinute));
      expect(done.errorMessage).toBeUndefined();
      expect(done.params.audioConfig.format).toBe(format);

      const res = await fetch(done.audioUrl);
      expect(res.status).toBe(200);
      const bytes = new Uint8Array(await res.arrayBuffer());
      const a = await decodeAudio(bytes, decodedAs[format]);
      expect(Math.abs(a.durationMs - done.audioDuration * 1000), `${format}: ${a.durationMs} ms for ${done.audioDuration} s`).toBeLessThanOrEqual(
        toleranceMs[format] + 1e-6,
      );
      // the audio is this service's own media
      expect(new URL(done.audioUrl).pathname.startsWith(`/media/${svc.prefix.split('/').pop()}/`)).toBe(true);
    },
  );

  it('without durationHint the audio is the speaking-rate estimate (within 1-110 s) and succeeds on schedule', async () => {
    const id = await create(m, svc, genBody({ audioConfig: { format: 'wav' } }));
    await m.advance(doneAfterMs(110_000));
    const t = await getTask(m, svc, id);
    expect(t.status).toBe('success');
    expect(t.audioDuration).toBeGreaterThanOrEqual(1);
    expect(t.audioDuration).toBeLessThan(10);
  });

  it('a faster speechRate makes shorter audio', async () => {
    const text = 'one two three four five six seven eight nine ten eleven twelve';
    const slow = await create(m, svc, genBody({ text, audioConfig: { format: 'wav' } }));
    const fast = await create(m, svc, genBody({ text, audioConfig: { format: 'wav', speechRate: 100 } }));
    await m.advance(doneAfterMs(110_000));
    const [a, b] = [await getTask(m, svc, slow), await getTask(m, svc, fast)];
    expect(b.audioDuration).toBeLessThan(a.audioDuration);
  });

  it("the audio is not served before success, nor under the other service's media", async () => {
    const id = await create(m, svc, genBody({ durationHint: 2 }));
    const base = `/media/${svc.prefix.split('/').pop()}`;
    expect((await fetch(`${m.base}${base}/${id}.mp3`)).status).toBe(404);
    await m.advance(doneAfterMs(2000));
    const t = await getTask(m, svc, id);
    expect((await fetch(t.audioUrl)).status).toBe(200);
    const otherBase = `/media/${otherOf(svc).prefix.split('/').pop()}`;
    expect((await fetch(`${m.base}${otherBase}/${id}.mp3`)).status).toBe(404);
  });
});

// ---------------------------------------------------------------------------
// Money
// ---------------------------------------------------------------------------

/** Credits charged for durationHint 1, 2, 59 and 61 s of mp3 (the rendered length: whole 24 ms frames, never over the hint). */
const chargesByHint: Record<string, number[]> = { platformVoice: [1, 1, 30, 31], seedAudio: [1, 2, 40, 41] };
const HINTS = [1, 2, 59, 61];

describe.each(services)('$prefix ($model): money', (svc) => {
  let m: TestMock;
  beforeEach(async () => {
    m = await start({ rateLimit: false });
  });

  it.each(HINTS.map((hint, i) => [hint, chargesByHint[svc.name][i]]))(
    'durationHint %s s: charges %s; the ledger reserves the hint, captures, releases any difference',
    async (hint, charge) => {
      const reserve = generatedAudioPrice(hint, svc.creditsPerMinute);
      const id = await create(m, svc, genBody({ durationHint: hint }));
      expect(await ledgerOf(m, id)).toEqual([['reserve', -reserve]]);
      expect((await account(m)).credits).toBe(10_000 - reserve);
      await m.advance(doneAfterMs(hint * 1000));
      const t = await getTask(m, svc, id);
      expect(t.status).toBe('success');
      expect(t.audioDuration).toBeLessThanOrEqual(hint);
      expect(t.audioDuration).toBeGreaterThan(hint - 0.024);
      expect(t.creditCharged).toBe(charge);
      expect(t.creditCharged).toBe(Math.max(1, Math.ceil((Math.round(t.audioDuration * 1000) * svc.creditsPerMinute) / 60_000)));
      expect(t.creditRefunded).toBe(reserve - charge);
      const entries = await ledgerOf(m, id);
      expect(entries.slice(0, 2)).toEqual([
        ['reserve', -reserve],
        ['capture', 0],
      ]);
      expect(entries.slice(2)).toEqual(reserve > charge ? [['release', reserve - charge]] : []);
      expect((await account(m)).credits).toBe(10_000 - charge);
    },
  );

  it('wav at durationHint 59 and 61 s: the exact length is billed (P1 29.5 -> 30, 30.5 -> 31 at 30 a minute)', async () => {
    for (const hint of [59, 61]) {
      const id = await create(m, svc, genBody({ durationHint: hint, audioConfig: { format: 'wav' } }));
      await m.advance(doneAfterMs(hint * 1000));
      const t = await getTask(m, svc, id);
      expect(t.audioDuration).toBe(hint);
      expect(t.creditCharged).toBe(Math.ceil((hint * svc.creditsPerMinute) / 60));
      expect(t.creditRefunded).toBe(0);
    }
  });

  it('without durationHint: reserves the price of 110 s, captures the short audio, releases the rest', async () => {
    const reserve = generatedAudioPrice(generatedAudioLimits.durationHint.max, svc.creditsPerMinute);
    const id = await create(m, svc, genBody());
    expect(await ledgerOf(m, id)).toEqual([['reserve', -reserve]]);
    await m.advance(doneAfterMs(110_000));
    const t = await getTask(m, svc, id);
    expect(t.status).toBe('success');
    const charge = generatedAudioPrice(t.audioDuration, svc.creditsPerMinute);
    expect(charge).toBeLessThan(reserve);
    expect(t.creditCharged).toBe(charge);
    expect(t.creditRefunded).toBe(reserve - charge);
    expect(await ledgerOf(m, id)).toEqual([
      ['reserve', -reserve],
      ['capture', 0],
      ['release', reserve - charge],
    ]);
    expect((await account(m)).credits).toBe(10_000 - charge);
  });

  it.each([
    ['Prefer: outcome=failed', 'outcome=failed', errorCatalog.GEN_AUDIO_UNAVAILABLE.code],
    ['Prefer: outcome=failed, error=33008', `outcome=failed, error=${errorCatalog.GEN_AUDIO_TIMED_OUT.code}`, errorCatalog.GEN_AUDIO_TIMED_OUT.code],
  ])('%s: failed, every reserved credit refunded', async (_n, prefer, code) => {
    const hint = 30;
    const reserve = generatedAudioPrice(hint, svc.creditsPerMinute);
    const id = await create(m, svc, genBody({ durationHint: hint }), { prefer });
    await m.advance(doneAfterMs(hint * 1000));
    const t = await getTask(m, svc, id);
    expect(t).toMatchObject({ status: 'failed', audioDuration: 0, creditCharged: 0, creditRefunded: reserve });
    expect(t.errorMessage).toMatch(new RegExp(`^${code}\\b`));
    expect(t.audioUrl).toBeUndefined();
    expect(await ledgerOf(m, id)).toEqual([
      ['reserve', -reserve],
      ['release', reserve],
    ]);
    expect((await account(m)).credits).toBe(10_000);
  });

  it('Prefer: outcome=stuck: still open after 9 minutes, failed with 33008 and refunded at 10 minutes', async () => {
    const reserve = generatedAudioPrice(generatedAudioLimits.durationHint.max, svc.creditsPerMinute);
    const id = await create(m, svc, genBody(), { prefer: 'outcome=stuck' });
    await m.advance(9 * 60_000);
    const open = await getTask(m, svc, id);
    expect(['pending', 'generating', 'uploading']).toContain(open.status);
    expect((await account(m)).credits).toBe(10_000 - reserve);
    await m.advance(generatedAudioSchedule.timeoutMs - 9 * 60_000);
    const t = await getTask(m, svc, id);
    expect(t).toMatchObject({ status: 'failed', audioDuration: 0, creditCharged: 0, creditRefunded: reserve });
    expect(t.errorMessage).toMatch(new RegExp(`^${errorCatalog.GEN_AUDIO_TIMED_OUT.code}\\b`));
    expect((await account(m)).credits).toBe(10_000);
  });

  it('a short balance: 400 33006, nothing reserved, no task', async () => {
    const reserve = generatedAudioPrice(61, svc.creditsPerMinute);
    await setCredits(m, reserve - 1);
    const before = (await account(m)).ledger.length;
    expectError(await m.call('POST', pathOf(svc.create), { body: genBody({ durationHint: 61 }) }), 'GEN_AUDIO_INSUFFICIENT_CREDITS');
    const after = await account(m);
    expect(after.credits).toBe(reserve - 1);
    expect(after.ledger.length).toBe(before);
    expect((await listTasks(m, svc)).total).toBe(0);
    // exactly the reservation is enough
    await setCredits(m, reserve);
    await create(m, svc, genBody({ durationHint: 61 }));
    expect((await account(m)).credits).toBe(0);
  });
});

// ---------------------------------------------------------------------------
// Limits (rate limits on)
// ---------------------------------------------------------------------------

describe.each(services)('$prefix ($model): limits', (svc) => {
  let m: TestMock;
  beforeEach(async () => {
    m = await start();
  });
  /** Each task of this body is done well within 6 s of virtual time. */
  const quick = genBody({ durationHint: 2 });
  const GAP_MS = 6_000;

  it(`generate request ${generatedAudioRateLimit.limit + 1} within a minute: 429 33007 with Retry-After; the other service still accepts`, async () => {
    for (let i = 0; i < generatedAudioRateLimit.limit; i++) {
      await create(m, svc, quick);
      await m.advance(GAP_MS);
    }
    const r = await m.call('POST', pathOf(svc.create), { body: quick });
    expectError(r, 'GEN_AUDIO_RATE_LIMITED');
    // the oldest request leaves the window a minute after it was made
    expect(r.headers.get('retry-after')).toBe(String((generatedAudioRateLimit.windowMs - generatedAudioRateLimit.limit * GAP_MS) / 1000));
    await create(m, otherOf(svc), quick);
    // a minute after the first request the window has room again
    await m.advance(generatedAudioRateLimit.windowMs - generatedAudioRateLimit.limit * GAP_MS + 1);
    await create(m, svc, quick);
  });

  it(`${GENERATED_AUDIO_CONCURRENCY + 1} tasks running at once: 33009 on the last; the other service still accepts`, async () => {
    for (let i = 0; i < GENERATED_AUDIO_CONCURRENCY; i++) await create(m, svc, quick);
    const r = await m.call('POST', pathOf(svc.create), { body: quick });
    expectError(r, 'GEN_AUDIO_CONCURRENCY_LIMIT');
    expect((await account(m)).credits, 'a refused task reserves nothing').toBe(
      10_000 - GENERATED_AUDIO_CONCURRENCY * generatedAudioPrice(2, svc.creditsPerMinute),
    );
    await create(m, otherOf(svc), quick);
    // another key has its own limit
    await create(m, svc, quick, {}, OTHER_KEY);
    // once they finish there is room again
    await m.advance(GAP_MS);
    await create(m, svc, quick);
  });

  it('the concurrency limit is off with the rate limits', async () => {
    const free = await start({ rateLimit: false });
    for (let i = 0; i < GENERATED_AUDIO_CONCURRENCY + 2; i++) await create(free, svc, quick);
  });
});

// ---------------------------------------------------------------------------
// List, get, owner scoping
// ---------------------------------------------------------------------------

describe.each(services)('$prefix ($model): list and get', (svc) => {
  let m: TestMock;
  beforeEach(async () => {
    m = await start({ rateLimit: false });
  });
  const texts = ['Alpha bravo charlie', 'bravo DELTA echo', 'Charlie alpha foxtrot', 'golf hotel', '@音频1 alphabet soup'];

  /** Creates one task per text, 1 ms apart; the fourth forced to fail. Returns their ids, oldest first. */
  async function seed(): Promise<string[]> {
    const ids: string[] = [];
    for (const [i, text] of texts.entries()) {
      ids.push(
        await create(m, svc, genBody({ text, durationHint: 2, ...(i === 4 ? { voices: speakers(1) } : {}) }), i === 3 ? { prefer: 'outcome=failed' } : {}),
      );
      await m.advance(1);
    }
    return ids;
  }

  it('newest first, with page and pageSize', async () => {
    const ids = await seed();
    const newest = [...ids].reverse();
    const all = await listTasks(m, svc);
    expect(all).toMatchObject({ page: 1, pageSize: 20, total: 5 });
    expect(all.items.map((t) => t.id)).toEqual(newest);
    const p2 = await listTasks(m, svc, { page: 2, pageSize: 2 });
    expect(p2).toMatchObject({ page: 2, pageSize: 2, total: 5 });
    expect(p2.items.map((t) => t.id)).toEqual(newest.slice(2, 4));
    const p4 = await listTasks(m, svc, { page: 4, pageSize: 2 });
    expect(p4.items).toEqual([]);
    expect(p4.total).toBe(5);
  });

  it('status filter', async () => {
    const ids = await seed();
    expect((await listTasks(m, svc, { status: 'pending' })).total).toBe(5);
    await m.advance(doneAfterMs(2000));
    const failed = await listTasks(m, svc, { status: 'failed' });
    expect(failed.items.map((t) => t.id)).toEqual([ids[3]]);
    const success = await listTasks(m, svc, { status: 'success' });
    expect(success.items.map((t) => t.id)).toEqual([ids[4], ids[2], ids[1], ids[0]]);
    expect(success.total).toBe(4);
    expect((await listTasks(m, svc, { status: 'pending' })).total).toBe(0);
  });

  it.each([
    ['ALPHA charlie', [2, 0]],
    ['bravo', [1, 0]],
    ['  delta  ', [1]],
    ['alpha', [4, 2, 0]],
    ['Alphabet Soup', [4]],
    ['zulu', []],
    ['alpha zulu', []],
  ])('keyword %j: every word, ignoring case, with total', async (keyword, hits) => {
    const ids = await seed();
    const r = await listTasks(m, svc, { keyword });
    expect(r.items.map((t) => t.id)).toEqual(hits.map((i) => ids[i]));
    expect(r.total).toBe(hits.length);
  });

  it('keyword with status and pages: total counts every match', async () => {
    const ids = await seed();
    const r = await listTasks(m, svc, { keyword: 'alpha', pageSize: 1, page: 2 });
    expect(r.items.map((t) => t.id)).toEqual([ids[2]]);
    expect(r.total).toBe(3);
  });

  it.each([
    ['keyword of 65 characters', { keyword: 'k'.repeat(65) }, 'keyword'],
    ['keyword of 65 emoji (code points)', { keyword: EMOJI.repeat(65) }, 'keyword'],
    ['pageSize 101', { pageSize: 101 }, 'pageSize'],
    ['pageSize 0', { pageSize: 0 }, 'pageSize'],
    ['page 0', { page: 0 }, 'page'],
    ['status unknown', { status: 'done' }, 'status'],
  ])('%s: 400 33004 naming it', async (_n, query, name) => {
    expectError(await m.call('GET', pathOf(svc.list, {}, query)), invalid(name));
  });

  it('keyword of 64 characters (or 64 emoji) is accepted', async () => {
    expect((await listTasks(m, svc, { keyword: 'k'.repeat(64) })).total).toBe(0);
    expect((await listTasks(m, svc, { keyword: EMOJI.repeat(64) })).total).toBe(0);
  });

  it("another key's task: 33001 on get, absent from its list; an unknown id: 33001", async () => {
    const id = await create(m, svc);
    expectError(await m.call('GET', pathOf(svc.get, { taskId: id }), { key: OTHER_KEY }), 'GEN_AUDIO_TASK_NOT_FOUND');
    expect(await listTasks(m, svc, {}, OTHER_KEY)).toMatchObject({ items: [], total: 0 });
    expectError(await m.call('GET', pathOf(svc.get, { taskId: `${svc.idPrefix}_0000000000000000` })), 'GEN_AUDIO_TASK_NOT_FOUND');
    expectError(await m.call('GET', pathOf(svc.get, { taskId: 'nope' })), 'GEN_AUDIO_TASK_NOT_FOUND');
  });

  it("the other service's task: 33001 here, and absent from this list", async () => {
    const theirs = await create(m, otherOf(svc));
    expectError(await m.call('GET', pathOf(svc.get, { taskId: theirs })), 'GEN_AUDIO_TASK_NOT_FOUND');
    expect((await listTasks(m, svc)).total).toBe(0);
    expect((await listTasks(m, otherOf(svc))).items.map((t) => t.id)).toEqual([theirs]);
  });
});

// ---------------------------------------------------------------------------
// params echo
// ---------------------------------------------------------------------------

describe.each(services)('$prefix ($model): params echo', (svc) => {
  let m: TestMock;
  beforeEach(async () => {
    m = await start({ rateLimit: false });
  });

  it.each([
    ['Base64', PNG_B64],
    ['a data: URL', `data:image/png;base64,${PNG_B64}`],
  ])('an inline image (%s) shows as { hasData: true, thumbnailUrl }; the thumbnail is a PNG', async (_n, data) => {
    const id = await create(m, svc, genBody({ image: { data } }));
    const t = await getTask(m, svc, id);
    expect(t.params.image).toEqual({ hasData: true, thumbnailUrl: expect.any(String) });
    expect(JSON.stringify(t)).not.toContain(PNG_B64.slice(0, 20));
    const res = await fetch(t.params.image.thumbnailUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\/png/);
    expect(pngSize(new Uint8Array(await res.arrayBuffer()))).toEqual({ width: 128, height: 128 });
    // the list shows the same echo
    expect((await listTasks(m, svc)).items[0].params).toEqual(t.params);
  });

  it('a url image shows as { url }', async () => {
    const id = await create(m, svc, genBody({ image: { url: 'https://example.com/cover.png' } }));
    expect((await getTask(m, svc, id)).params.image).toEqual({ url: 'https://example.com/cover.png' });
  });

  it('voices, audioConfig, durationHint, watermark and the model are echoed', async () => {
    const voices = [speaker(SPEAKERS[0]), { type: 'reference', url: 'https://example.com/ref.wav' }];
    const body = {
      text: '@音频1 Hello.\n@音频2 Hi there.',
      voices,
      audioConfig: { speechRate: 10, loudnessRate: -5, pitchRate: 2, format: 'wav' },
      durationHint: 3,
      watermark: true,
    };
    const id = await create(m, svc, body);
    expect((await getTask(m, svc, id)).params).toEqual({ model: svc.model, ...body });
  });

  it('audioConfig without format echoes the default mp3', async () => {
    const id = await create(m, svc, genBody({ audioConfig: { speechRate: 5 } }));
    expect((await getTask(m, svc, id)).params.audioConfig).toEqual({ speechRate: 5, format: 'mp3' });
  });
});
