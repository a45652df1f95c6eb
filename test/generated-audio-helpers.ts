/**
 * What the generated-audio suites share (test/generated-audio.test.ts,
 * test/generated-audio-list.test.ts): request bodies per service, creating,
 * reading and listing tasks, the account's ledger and the expected errors.
 */
import { expect } from 'vitest';
import { errorCatalog, type ErrorName } from '../schemas/errors.ts';
import {
  generatedAudioFormats,
  generatedAudioLimits,
  generatedAudioSchedule,
  generatedAudioServices,
  type GeneratedAudioFormat,
} from '../schemas/generated-audio.ts';
import type { AudioFormat } from '../schemas/media.ts';
import type { OperationId } from '../schemas/operations.ts';
import { builtInSpeakers } from '../schemas/speech.ts';
import { type Body, pathOf } from './factories.ts';
import { type CallResult, KEY, type TestMock } from './helpers.ts';

// ---------------------------------------------------------------------------
// The two services, from their one definition
// ---------------------------------------------------------------------------

const upper = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export const services = Object.entries(generatedAudioServices).map(([name, s]) => ({
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
export const otherOf = (svc: Svc) => services.find((o) => o !== svc)!;

export const SPEAKERS = builtInSpeakers.map((s) => s.speakerId);
export const speaker = (id: string) => ({ type: 'speaker', id });
export const speakers = (n: number) => Array.from({ length: n }, (_, i) => speaker(SPEAKERS[i]));
export const EMOJI = '\u{1F600}'; // one code point, two UTF-16 units

/** A 1x1 PNG and a 1x1 GIF, Base64. */
export const PNG_B64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
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
export const genBody = (over: Body = {}): Body => ({ text: 'The quick brown fox jumps over the dog.', ...over });

/** The renderer's format of each audioConfig.format (what decodeAudio calls it). */
export const decodedAs: Record<GeneratedAudioFormat, AudioFormat> = { mp3: 'mp3', wav: 'wav', pcm: 'pcm', ogg_opus: 'opus' };
/** How far the decoded length may be from audioDuration: one 24 ms frame for mp3, about a ms otherwise. */
export const toleranceMs: Record<GeneratedAudioFormat, number> = { mp3: 24, wav: 1, pcm: 0.001, ogg_opus: 1 };

type Failure = { error: ErrorName; names: string[] };
type Expected = 'ok' | Failure;
type Case = [name: string, body: Body, expected: Expected];
const ok = 'ok' as const;
export const invalid = (...names: string[]): Failure => ({ error: 'GEN_AUDIO_INVALID_PARAMETERS', names });
const tooMany = (...names: string[]): Failure => ({ error: 'GEN_AUDIO_TOO_MANY_VOICES', names });
const unknownSpeaker = (...names: string[]): Failure => ({ error: 'GEN_AUDIO_SPEAKER_NOT_FOUND', names });

/** Asserts the error envelope of `expected` (status, code, data null) and that the message names every field. */
export function expectError(r: CallResult, expected: Failure | ErrorName) {
  const f = typeof expected === 'string' ? { error: expected, names: [] } : expected;
  const e = errorCatalog[f.error];
  expect(r.status, r.text).toBe(e.httpStatus);
  expect(r.headers.get('content-type'), r.text).toMatch(/^application\/json/);
  expect(r.json, r.text).toEqual({ code: e.code, message: expect.any(String), data: null });
  for (const name of f.names) expect(r.json.message, `the message names ${name}`).toContain(name);
}

/** Sends generate; returns the task id after checking the 202 answer. */
export async function create(m: TestMock, svc: Svc, body: Body = genBody(), headers: Record<string, string> = {}, key?: string): Promise<string> {
  const r = await m.call('POST', pathOf(svc.create), { body, headers, key });
  expect(r.status, r.text).toBe(202);
  expect(r.json).toEqual({ code: 0, message: expect.any(String), data: { taskId: expect.stringMatching(new RegExp(`^${svc.idPrefix}_`)), status: 'pending' } });
  return r.json.data.taskId as string;
}

export async function getTask(m: TestMock, svc: Svc, id: string, key?: string) {
  const r = await m.call('GET', pathOf(svc.get, { taskId: id }), { key });
  expect(r.status, r.text).toBe(200);
  expect(r.json.code).toBe(0);
  return r.json.data;
}

export async function listTasks(m: TestMock, svc: Svc, query: Record<string, string | number> = {}, key?: string) {
  const r = await m.call('GET', pathOf(svc.list, {}, query), { key });
  expect(r.status, r.text).toBe(200);
  return r.json.data as { items: { id: string; status: string; params: { text: string } }[]; page: number; pageSize: number; total: number };
}

interface LedgerEntry {
  type: string;
  amount: number;
  taskId: string | null;
}
export async function account(m: TestMock): Promise<{ credits: number; ledger: LedgerEntry[] }> {
  return (await m.call('GET', `/__mock/accounts/${KEY}?ledgerPageSize=100`, { key: null })).json;
}
export const ledgerOf = async (m: TestMock, id: string) => (await account(m)).ledger.filter((e) => e.taskId === id).map((e) => [e.type, e.amount]);
export const setCredits = (m: TestMock, credits: number) => m.call('PUT', `/__mock/accounts/${KEY}`, { key: null, body: { credits } });

/** Virtual time until a task with `durationMs` of audio is done (the assumed schedule). */
export const doneAfterMs = (durationMs: number) =>
  generatedAudioSchedule.pendingMs +
  generatedAudioSchedule.generatingBaseMs +
  Math.round(durationMs * generatedAudioSchedule.generatingPerAudio) +
  generatedAudioSchedule.uploadingMs;

// ---------------------------------------------------------------------------
// Rules
// ---------------------------------------------------------------------------

export const ruleCases = (svc: Svc): Case[] => [
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
