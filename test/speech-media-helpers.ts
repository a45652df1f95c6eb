/**
 * Shared by the speech media suites (test/speech-media.test.ts, speech-script-media, flow-speech-media): requests
 * and loads, the audio checks of each format (document 2, "POST /v1/tts and POST /v1/audio/speech"), SRT and HLS
 * readers, and the voice comparisons.
 *
 * Voices are told apart by their MP3 (or AAC) frames: a voice's audio repeats
 * a loop of frames of its own, so a span of audio is in a voice when its
 * frames are that voice's (its demo clip holds them all). A few frames of
 * silence are common to every voice; they are left out of the comparisons.
 */
import { Parser as M3u8Parser } from 'm3u8-parser';
import SrtParser from 'srt-parser-2';
import { expect } from 'vitest';
import { errorCatalog, type ErrorName } from '../schemas/errors.ts';
import { durationMatches, type AudioFormat } from '../schemas/media.ts';
import { audioSignatures, decodeAudio, mp3Frames } from '../verify/decoders.ts';
import { pathOf } from './factories.ts';
import { KEY, type TestMock } from './helpers.ts';

/** The sample rate of every speech render, Hz. */
export const RATE = 24_000;
export const MP3_FRAME_MS = (576 * 1000) / RATE; // 24 ms
export const AAC_FRAME_MS = (1024 * 1000) / RATE; // 42.67 ms
export const HOUR = 3_600_000;

/** How far each format's decoded duration may be from the declared one, ms: whole frames for mp3 (half a frame) and aac (music-metadata may skip a short last frame); exact otherwise. */
export const toleranceMs: Record<AudioFormat, number> = { mp3: MP3_FRAME_MS / 2, aac: 2 * AAC_FRAME_MS, opus: 1, flac: 1, wav: 1, pcm: 0 };

/** The Content-Type of the TTS answer (document 2): audio/mpeg for every format but opus, audio/ogg. */
export const ttsType = (format: AudioFormat) => (format === 'opus' ? 'audio/ogg' : 'audio/mpeg');

/** The two TTS endpoints that answer audio bytes (document 2, "POST /v1/tts and POST /v1/audio/speech"). */
export const ttsPaths = [pathOf('synthesizeSpeech'), pathOf('createSpeech')] as const;

/** POSTs `body` as JSON with the test key; the raw fetch Response (its body unread). */
export function post(m: TestMock, path: string, body: unknown, key: string = KEY): Promise<Response> {
  return fetch(m.base + path, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

/** GETs a media URL without any Authorization header. */
export async function load(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

/** The bytes of a JSON answer, parsed. */
export function json(bytes: Uint8Array): any {
  return JSON.parse(new TextDecoder().decode(bytes));
}

/** Asserts `r` is the error envelope of `name`: its status, code and a message. */
export function expectError(r: { status: number; json: any; text?: string }, name: ErrorName) {
  expect(r.status, r.text).toBe(errorCatalog[name].httpStatus);
  expect(r.json.code, r.text).toBe(errorCatalog[name].code);
  expect(typeof r.json.message).toBe('string');
  expect(r.json.data).toBeNull();
}

/** The data chunk of a RIFF/WAVE file, after checking it is 24 kHz mono 16-bit PCM and its sizes add up. */
export function wavData(bytes: Uint8Array): Uint8Array {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const tag = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  expect(dv.getUint32(4, true)).toBe(bytes.length - 8);
  for (let at = 12; at + 8 <= bytes.length;) {
    const size = dv.getUint32(at + 4, true);
    if (tag(at) === 'fmt ')
      expect([dv.getUint16(at + 8, true), dv.getUint16(at + 10, true), dv.getUint32(at + 12, true), dv.getUint16(at + 22, true)]).toEqual([1, 1, RATE, 16]);
    if (tag(at) === 'data') {
      expect(at + 8 + size).toBe(bytes.length);
      return bytes.subarray(at + 8, at + 8 + size);
    }
    at += 8 + size + (size & 1);
  }
  throw new Error('no data chunk');
}

/** The root mean square of 16-bit little-endian PCM samples. */
export function rms(bytes: Uint8Array): number {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  let sum = 0;
  for (let i = 0; i + 1 < bytes.length; i += 2) sum += dv.getInt16(i, true) ** 2;
  return Math.sqrt(sum / (bytes.length / 2));
}

/**
 * Checks `bytes` are audio of `format` (24 kHz mono) lasting `declaredMs`: within
 * `durationMatches`, and within the format's frame (`toleranceMs`). Returns the decoded duration, ms.
 */
export async function expectAudio(bytes: Uint8Array, format: AudioFormat, declaredMs: number): Promise<number> {
  const a = await decodeAudio(bytes, format);
  if (format !== 'pcm') {
    expect({ container: a.container, codec: a.codec }).toEqual(audioSignatures[format]);
    expect(a.sampleRate).toBe(RATE);
    expect(a.channels).toBe(1);
  }
  expect(durationMatches(a.durationMs, declaredMs), `${format}: ${a.durationMs} ms for ${declaredMs}`).toBe(true);
  expect(Math.abs(a.durationMs - declaredMs), `${format}: ${a.durationMs} ms for ${declaredMs}`).toBeLessThanOrEqual(toleranceMs[format] + 1e-6);
  if (format === 'mp3') {
    const frames = mp3Frames(bytes);
    expect(frames.every((f) => f.sampleRate === RATE && f.samples === 576)).toBe(true);
    expect(Math.abs(a.durationMs - frames.length * MP3_FRAME_MS)).toBeLessThanOrEqual(1);
  }
  if (format === 'wav') {
    const data = wavData(bytes);
    expect(data.length).toBe(declaredMs * 48);
    expect(rms(data)).toBeGreaterThan(500);
  }
  if (format === 'pcm') {
    expect(bytes.length).toBe(declaredMs * 48);
    expect(rms(bytes)).toBeGreaterThan(500);
  }
  return a.durationMs;
}

/** Reads a body chunk by chunk as fetch delivers it: the number of chunks, the total bytes and the first `keep` bytes. */
export async function readChunks(res: Response, keep = 64): Promise<{ chunks: number; total: number; head: Uint8Array }> {
  const reader = res.body!.getReader();
  const head = new Uint8Array(keep);
  let chunks = 0;
  let total = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    chunks++;
    if (total < keep) head.set(value.subarray(0, keep - total), total);
    total += value.length;
  }
  return { chunks, total, head };
}

/** An SRT as cues with times in whole ms (parsed by srt-parser-2). */
export function srtCues(text: string): { id: string; startMs: number; endMs: number; text: string }[] {
  const ms = (t: string) => {
    const m = /^(\d+):(\d\d):(\d\d),(\d\d\d)$/.exec(t);
    expect(m, t).not.toBeNull();
    return ((Number(m![1]) * 60 + Number(m![2])) * 60 + Number(m![3])) * 1000 + Number(m![4]);
  };
  return new SrtParser().fromSrt(text).map((c) => ({ id: c.id, startMs: ms(c.startTime), endMs: ms(c.endTime), text: c.text }));
}

/** `s` with runs of white space made one space, trimmed. */
export const collapse = (s: string) => s.split(/\s+/).filter(Boolean).join(' ');
/** A frame's bytes as a string key (base64), for sets of frames. */
export const keyOf = (frame: Uint8Array) => Buffer.from(frame.buffer, frame.byteOffset, frame.length).toString('base64');

/** The MP3 frames of each speaker's demo clip (GET /v1/speakers/list), as sets of frame bytes: each voice's frames. */
export async function demoVoices(m: TestMock): Promise<Map<string, Set<string>>> {
  const r = await m.call('GET', pathOf('listSpeakers'));
  expect(r.status, r.text).toBe(200);
  const voices = new Map<string, Set<string>>();
  await Promise.all(
    (r.json.data.speakers as { speakerId: string; demoAudioUrl: string }[]).map(async (s) => {
      voices.set(s.speakerId, new Set(mp3Frames((await load(s.demoAudioUrl)).bytes).map((f) => keyOf(f.bytes))));
    }),
  );
  return voices;
}

/** Frames that are in every one of `sets` (silence sounds the same in any voice). */
export function common(sets: Set<string>[]): Set<string> {
  return new Set([...sets[0]].filter((k) => sets.every((s) => s.has(k))));
}

/**
 * Checks the span `frames` is in voice `own` and in no voice of `others`: every
 * frame not common to all of them is one of `own`'s, none is another's, and
 * at least 80% of the span is such a voice-specific frame.
 */
export function expectVoice(frames: string[], own: Set<string>, others: Set<string>[], what: string) {
  const shared = common([own, ...others]);
  const specific = frames.filter((k) => !shared.has(k));
  expect(specific.length, `${what}: voice-specific frames`).toBeGreaterThanOrEqual(0.8 * frames.length);
  expect(specific.filter((k) => !own.has(k)).length, `${what}: frames not of its voice, of ${frames.length}`).toBe(0);
  for (const [i, o] of others.entries())
    expect(specific.filter((k) => o.has(k)).length, `${what}: frames of another voice (${i + 1}), of ${frames.length}`).toBe(0);
}

/** MP3 frames of a line lasting `ms`: the nearest whole 24 ms frame. */
export function audioFramesOf(ms: number): number {
  return Math.round(ms / MP3_FRAME_MS);
}

/** Frames `from`..`to` (ms) of a list of 24 ms MP3 frames, both ends at frame boundaries. */
export function mp3Span(frames: string[], fromMs: number, toMs: number): string[] {
  expect(fromMs % MP3_FRAME_MS).toBe(0);
  expect(toMs % MP3_FRAME_MS).toBe(0);
  return frames.slice(fromMs / MP3_FRAME_MS, toMs / MP3_FRAME_MS);
}

/** An M3U8 text parsed by m3u8-parser, which must give no warning. */
export function parsePlaylist(text: string) {
  const parser = new M3u8Parser();
  const warnings: string[] = [];
  parser.on('warn', (w) => warnings.push(w.message));
  parser.push(text);
  parser.end();
  expect(warnings).toEqual([]);
  return parser.manifest;
}

/** The M3U8 at `url` parsed (no parser warnings). */
export async function playlistAt(url: string) {
  const r = await load(url);
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toMatch(/^application\/vnd\.apple\.mpegurl/i);
  const text = new TextDecoder().decode(r.bytes);
  return { text, manifest: parsePlaylist(text) };
}

/** Advances the clock past an episode's processing and answers its GET data (expected success). */
export async function succeeded(m: TestMock, episodeId: string): Promise<any> {
  await m.advance(120_000);
  const r = await m.call('GET', pathOf('getFlowSpeechEpisode', { episodeId }));
  expect(r.status, r.text).toBe(200);
  expect(r.json.data.processStatus).toBe('success');
  return r.json.data;
}

/** Creates a flow-speech episode at `path` (expected 200); its episode id. */
export async function createEpisode(m: TestMock, path: string, body: unknown): Promise<string> {
  const r = await m.call('POST', path, { body });
  expect(r.status, r.text).toBe(200);
  return r.json.data.episodeId as string;
}

/** The bytes of a POST /v1/tts in `format` saying `input` with voice en_ava at speed 1 (the test key), which must answer 200. */
export async function ttsBytes(base: string, format: string, input: string): Promise<Uint8Array> {
  const r = await fetch(`${base}/v1/tts`, {
    method: 'POST',
    headers: { authorization: 'Bearer mg_test_secret1', 'content-type': 'application/json' },
    body: JSON.stringify({ input, voice: 'en_ava', response_format: format, speed: 1 }),
  });
  expect(r.status).toBe(200);
  return new Uint8Array(await r.arrayBuffer());
}
