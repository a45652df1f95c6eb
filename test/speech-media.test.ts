/**
 * What the speech endpoints serve (document 2, "POST /v1/tts and POST
 * /v1/audio/speech", "POST /v1/speech", "Flow-speech episode (GET result)",
 * "GET /v1/speakers/list"): the binary TTS answer in each of the six formats
 * (its Content-Type rule, chunked streaming, bytes of the requested format
 * lasting `speechDurationMs`), the JSON envelope of a failure before audio
 * starts, the MP3 and SRT of a multi-voice script (one cue per line, a voice
 * per speaker, subtitles gone after 24 virtual hours), the media of
 * flow-speech episodes (MP3, HLS of packed AAC, SRT, PNG cover; 404 before
 * success), the speakers' demo clips, and Range on speech media.
 *
 * Voices are told apart by their MP3 (or AAC) frames: a voice's audio repeats
 * a loop of frames of its own, so a span of audio is in a voice when its
 * frames are that voice's (its demo clip holds them all). A few frames of
 * silence are common to every voice; they are left out of the comparisons.
 */
import { Parser as M3u8Parser } from 'm3u8-parser';
import SrtParser from 'srt-parser-2';
import { describe, expect, it } from 'vitest';
import { errorCatalog, type ErrorName } from '../schemas/errors.ts';
import { audioFormats, durationMatches, type AudioFormat } from '../schemas/media.ts';
import { SPEAKER_DEMO_MS, builtInSpeakers, speechDurationMs } from '../schemas/speech.ts';
import { adtsFrames, audioSignatures, decodeAudio, id3Length, mp3Frames, pngSize } from '../verify/decoders.ts';
import { flowSpeechBody, flowSpeechTtsBody, pathOf, speechBody, ttsBody } from './factories.ts';
import { KEY, type TestMock, useMocks } from './helpers.ts';

const mock = useMocks({ rateLimit: false });

const RATE = 24_000;
const MP3_FRAME_MS = (576 * 1000) / RATE; // 24 ms
const AAC_FRAME_MS = (1024 * 1000) / RATE; // 42.67 ms
const HOUR = 3_600_000;

/** How far each format's decoded duration may be from the declared one, ms: whole frames for mp3 (half a frame) and aac (music-metadata may skip a short last frame); exact otherwise. */
const toleranceMs: Record<AudioFormat, number> = { mp3: MP3_FRAME_MS / 2, aac: 2 * AAC_FRAME_MS, opus: 1, flac: 1, wav: 1, pcm: 0 };

/** The Content-Type of the TTS answer (document 2): audio/mpeg for every format but opus, audio/ogg. */
const ttsType = (format: AudioFormat) => (format === 'opus' ? 'audio/ogg' : 'audio/mpeg');

const ttsPaths = [pathOf('synthesizeSpeech'), pathOf('createSpeech')] as const;

/** POSTs `body` as JSON with the test key; the raw fetch Response (its body unread). */
function post(m: TestMock, path: string, body: unknown, key: string = KEY): Promise<Response> {
  return fetch(m.base + path, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

/** GETs a media URL without any Authorization header. */
async function load(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

function json(bytes: Uint8Array): any {
  return JSON.parse(new TextDecoder().decode(bytes));
}

function expectError(r: { status: number; json: any; text?: string }, name: ErrorName) {
  expect(r.status, r.text).toBe(errorCatalog[name].httpStatus);
  expect(r.json.code, r.text).toBe(errorCatalog[name].code);
  expect(typeof r.json.message).toBe('string');
  expect(r.json.data).toBeNull();
}

/** The data chunk of a RIFF/WAVE file, after checking it is 24 kHz mono 16-bit PCM and its sizes add up. */
function wavData(bytes: Uint8Array): Uint8Array {
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

function rms(bytes: Uint8Array): number {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  let sum = 0;
  for (let i = 0; i + 1 < bytes.length; i += 2) sum += dv.getInt16(i, true) ** 2;
  return Math.sqrt(sum / (bytes.length / 2));
}

/**
 * Checks `bytes` are audio of `format` (24 kHz mono) lasting `declaredMs`: within
 * `durationMatches`, and within the format's frame (`toleranceMs`). Returns the decoded duration, ms.
 */
async function expectAudio(bytes: Uint8Array, format: AudioFormat, declaredMs: number): Promise<number> {
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
async function readChunks(res: Response, keep = 64): Promise<{ chunks: number; total: number; head: Uint8Array }> {
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
function srtCues(text: string): { id: string; startMs: number; endMs: number; text: string }[] {
  const ms = (t: string) => {
    const m = /^(\d+):(\d\d):(\d\d),(\d\d\d)$/.exec(t);
    expect(m, t).not.toBeNull();
    return ((Number(m![1]) * 60 + Number(m![2])) * 60 + Number(m![3])) * 1000 + Number(m![4]);
  };
  return new SrtParser().fromSrt(text).map((c) => ({ id: c.id, startMs: ms(c.startTime), endMs: ms(c.endTime), text: c.text }));
}

const collapse = (s: string) => s.split(/\s+/).filter(Boolean).join(' ');
const keyOf = (frame: Uint8Array) => Buffer.from(frame.buffer, frame.byteOffset, frame.length).toString('base64');

/** The MP3 frames of each speaker's demo clip (GET /v1/speakers/list), as sets of frame bytes: each voice's frames. */
async function demoVoices(m: TestMock): Promise<Map<string, Set<string>>> {
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
function common(sets: Set<string>[]): Set<string> {
  return new Set([...sets[0]].filter((k) => sets.every((s) => s.has(k))));
}

/**
 * Checks the span `frames` is in voice `own` and in no voice of `others`: every
 * frame not common to all of them is one of `own`'s, none is another's, and
 * at least 80% of the span is such a voice-specific frame.
 */
function expectVoice(frames: string[], own: Set<string>, others: Set<string>[], what: string) {
  const shared = common([own, ...others]);
  const specific = frames.filter((k) => !shared.has(k));
  expect(specific.length, `${what}: voice-specific frames`).toBeGreaterThanOrEqual(0.8 * frames.length);
  expect(specific.filter((k) => !own.has(k)).length, `${what}: frames not of its voice, of ${frames.length}`).toBe(0);
  for (const [i, o] of others.entries())
    expect(specific.filter((k) => o.has(k)).length, `${what}: frames of another voice (${i + 1}), of ${frames.length}`).toBe(0);
}

/** MP3 frames of a line lasting `ms`: the nearest whole 24 ms frame. */
function audioFramesOf(ms: number): number {
  return Math.round(ms / MP3_FRAME_MS);
}

/** Frames `from`..`to` (ms) of a list of 24 ms MP3 frames, both ends at frame boundaries. */
function mp3Span(frames: string[], fromMs: number, toMs: number): string[] {
  expect(fromMs % MP3_FRAME_MS).toBe(0);
  expect(toMs % MP3_FRAME_MS).toBe(0);
  return frames.slice(fromMs / MP3_FRAME_MS, toMs / MP3_FRAME_MS);
}

/** The M3U8 at `url` parsed (no parser warnings). */
async function playlistAt(url: string) {
  const r = await load(url);
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toMatch(/^application\/vnd\.apple\.mpegurl/i);
  const text = new TextDecoder().decode(r.bytes);
  const parser = new M3u8Parser();
  const warnings: string[] = [];
  parser.on('warn', (w) => warnings.push(w.message));
  parser.push(text);
  parser.end();
  expect(warnings).toEqual([]);
  return { text, manifest: parser.manifest };
}

/** Advances the clock past an episode's processing and answers its GET data (expected success). */
async function succeeded(m: TestMock, episodeId: string): Promise<any> {
  await m.advance(120_000);
  const r = await m.call('GET', pathOf('getFlowSpeechEpisode', { episodeId }));
  expect(r.status, r.text).toBe(200);
  expect(r.json.data.processStatus).toBe('success');
  return r.json.data;
}

async function createEpisode(m: TestMock, path: string, body: unknown): Promise<string> {
  const r = await m.call('POST', path, { body });
  expect(r.status, r.text).toBe(200);
  return r.json.data.episodeId as string;
}

// ---------------------------------------------------------------------------

describe('POST /v1/tts and POST /v1/audio/speech: the binary answer', () => {
  const input = 'The quick brown fox jumps over the lazy dog near the river bank.'; // 13 words: 5.2 s at speed 1
  const cases = ttsPaths.flatMap((path) => audioFormats.map((format) => [path, format] as const));

  it.each(cases)('%s %s: 200, its Content-Type, chunked, bytes of that format lasting speechDurationMs', async (path, format) => {
    const m = await mock();
    const res = await post(m, path, ttsBody({ input, response_format: format }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(ttsType(format));
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    expect(res.headers.get('content-length')).toBeNull();
    const bytes = new Uint8Array(await res.arrayBuffer());
    await expectAudio(bytes, format, speechDurationMs(input, 1));
  });

  it('mp3 is the default format', async () => {
    const m = await mock();
    const res = await post(m, pathOf('synthesizeSpeech'), { input, voice: 'en_noah' });
    expect(res.headers.get('content-type')).toBe('audio/mpeg');
    await expectAudio(new Uint8Array(await res.arrayBuffer()), 'mp3', speechDurationMs(input, 1));
  });

  it('pcm is the samples of the wav without its header (raw 16-bit little-endian, 24 kHz mono)', async () => {
    const m = await mock();
    const wav = new Uint8Array(await (await post(m, pathOf('synthesizeSpeech'), ttsBody({ input, response_format: 'wav', speed: 1.25 }))).arrayBuffer());
    const pcm = new Uint8Array(await (await post(m, pathOf('createSpeech'), ttsBody({ input, response_format: 'pcm', speed: 1.25 }))).arrayBuffer());
    expect(pcm.length).toBe(speechDurationMs(input, 1.25) * 48);
    expect(Buffer.from(pcm).equals(Buffer.from(wavData(wav)))).toBe(true);
  });

  it.each(audioFormats)('%s: the duration grows with the input and shrinks with speed (speed 2 halves it, 0.5 doubles it)', async (format) => {
    const m = await mock();
    const short = 'The quick brown fox jumps over the dog.'; // 8 words: 3.2 s
    const long = `${short} ${short}`; // 16 words: 6.4 s
    const decoded = async (text: string, speed: number) => {
      const res = await post(m, pathOf('synthesizeSpeech'), ttsBody({ input: text, response_format: format, speed }));
      expect(res.status).toBe(200);
      return expectAudio(new Uint8Array(await res.arrayBuffer()), format, speechDurationMs(text, speed));
    };
    const [base, longer, fast, slow] = await Promise.all([decoded(short, 1), decoded(long, 1), decoded(short, 2), decoded(short, 0.5)]);
    const tol = 2 * toleranceMs[format] + 1e-6;
    expect(longer).toBeGreaterThan(base);
    expect(fast).toBeLessThan(base);
    expect(Math.abs(longer - 2 * base)).toBeLessThanOrEqual(2 * tol);
    expect(Math.abs(slow - 2 * base)).toBeLessThanOrEqual(2 * tol);
    expect(Math.abs(fast - base / 2)).toBeLessThanOrEqual(tol);
  });

  it('Chinese text lasts 250 ms a character (the speaking-rate model)', async () => {
    const m = await mock();
    const zh = '你好，欢迎收听今天的节目。'; // 11 Han characters
    expect(speechDurationMs(zh, 1)).toBe(11 * 250);
    const res = await post(m, pathOf('synthesizeSpeech'), ttsBody({ input: zh, voice: 'zh_mei', response_format: 'wav' }));
    expect(res.status).toBe(200);
    await expectAudio(new Uint8Array(await res.arrayBuffer()), 'wav', 11 * 250);
  });

  it.each(ttsPaths)('%s: 3,000 words in wav (20 minutes) stream in several chunks and add up to the whole file', async (path) => {
    const m = await mock();
    const words = Array.from({ length: 3000 }, (_, i) => `w${i % 10}`).join(' ');
    const durationMs = speechDurationMs(words, 1);
    expect(durationMs).toBe(1_200_000);
    const res = await post(m, path, ttsBody({ input: words, response_format: 'wav' }));
    expect(res.status).toBe(200);
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    expect(res.headers.get('content-length')).toBeNull();
    const { chunks, total, head } = await readChunks(res, 44);
    expect(chunks).toBeGreaterThan(1);
    expect(total).toBe(44 + durationMs * 48);
    const dv = new DataView(head.buffer);
    expect(String.fromCharCode(...head.subarray(0, 4))).toBe('RIFF');
    expect(dv.getUint32(4, true)).toBe(total - 8);
    expect(String.fromCharCode(...head.subarray(36, 40))).toBe('data');
    expect(dv.getUint32(40, true)).toBe(durationMs * 48);
  });
});

describe('POST /v1/tts and POST /v1/audio/speech: a failure before audio starts', () => {
  const failures: [string, Record<string, unknown>, ErrorName][] = [
    ['an unknown voice', { voice: 'xx_nobody' }, 'SPEECH_SPEAKER_NOT_FOUND'],
    ['speed over 2', { speed: 2.5 }, 'SPEECH_INVALID_PARAMETERS'],
    ['speed under 0.5', { speed: 0.25 }, 'SPEECH_INVALID_PARAMETERS'],
    ['speed with three decimals', { speed: 1.005 }, 'SPEECH_INVALID_PARAMETERS'],
    ['an unknown response_format', { response_format: 'ogg' }, 'SPEECH_INVALID_PARAMETERS'],
    ['an empty input', { input: '' }, 'SPEECH_INVALID_PARAMETERS'],
  ];
  const cases = ttsPaths.flatMap((path) => failures.map(([what, over, name]) => [path, what, over, name] as const));

  it.each(cases)('%s, %s: JSON envelope, 4xx, nothing charged', async (path, _what, over, name) => {
    const m = await mock();
    const before = (await m.call('GET', `/__mock/accounts/${KEY}`, { key: null })).json.credits;
    const res = await post(m, path, ttsBody(over));
    expect(res.headers.get('content-type')).toMatch(/^application\/json(;|$)/);
    expect(res.headers.get('transfer-encoding')).toBeNull();
    const body = json(new Uint8Array(await res.arrayBuffer()));
    expectError({ status: res.status, json: body }, name);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect((await m.call('GET', `/__mock/accounts/${KEY}`, { key: null })).json.credits).toBe(before);
  });

  it.each(ttsPaths)('%s, a short balance: 402 (35004) as JSON, nothing charged', async (path) => {
    const m = await mock();
    expect((await m.call('PUT', `/__mock/accounts/${KEY}`, { key: null, body: { credits: 0 } })).status).toBe(200);
    const res = await post(m, path, ttsBody({ response_format: 'flac' }));
    expect(res.headers.get('content-type')).toMatch(/^application\/json(;|$)/);
    expectError({ status: res.status, json: json(new Uint8Array(await res.arrayBuffer())) }, 'SPEECH_INSUFFICIENT_CREDITS');
    expect((await m.call('GET', `/__mock/accounts/${KEY}`, { key: null })).json.credits).toBe(0);
  });
});

describe('POST /v1/speech: the MP3 and SRT of a script', () => {
  const scripts = [
    { speakerId: 'en_ava', content: 'Welcome back to the show.' },
    { speakerId: 'en_noah', content: 'Thanks.   Today we talk about\n mock servers and why they matter.' },
    { speakerId: 'en_ava', content: 'Let us begin with the basics, shall we?' },
    { speakerId: 'en_noah', content: 'Sure.' },
  ];

  it('the audioUrl loads without auth and decodes as an MP3 lasting audioDuration (to the frame)', async () => {
    const m = await mock();
    const speed = 1.25;
    const r = await m.call('POST', pathOf('createSpeechScript'), { body: speechBody({ scripts, speed }) });
    expect(r.status, r.text).toBe(200);
    const { audioUrl, audioDuration } = r.json.data;
    const audio = await load(audioUrl);
    expect(audio.status).toBe(200);
    expect(audio.headers.get('content-type')).toBe('audio/mpeg');
    const decoded = await expectAudio(audio.bytes, 'mp3', audioDuration);
    expect(Math.abs(decoded - audioDuration)).toBeLessThanOrEqual(MP3_FRAME_MS);
    expect(mp3Frames(audio.bytes).length * MP3_FRAME_MS).toBe(audioDuration);
    // Each line lasts its speechDurationMs to the nearest 24 ms frame.
    const declared = scripts.reduce((n, l) => n + speechDurationMs(l.content, speed), 0);
    expect(Math.abs(audioDuration - declared)).toBeLessThanOrEqual((scripts.length * MP3_FRAME_MS) / 2);
  });

  it('the subtitlesUrl is an SRT with one cue per line, in order, end to end, the last ending at audioDuration', async () => {
    const m = await mock();
    const r = await m.call('POST', pathOf('createSpeechScript'), { body: speechBody({ scripts }) });
    const { subtitlesUrl, audioDuration } = r.json.data;
    const srt = await load(subtitlesUrl);
    expect(srt.status).toBe(200);
    expect(srt.headers.get('content-type')).toMatch(/^application\/x-subrip/);
    const cues = srtCues(new TextDecoder().decode(srt.bytes));
    expect(cues.map((c) => c.id)).toEqual(scripts.map((_, i) => String(i + 1)));
    expect(cues.map((c) => c.text)).toEqual(scripts.map((l) => collapse(l.content)));
    expect(cues[0].startMs).toBe(0);
    for (let i = 1; i < cues.length; i++) expect(cues[i].startMs).toBe(cues[i - 1].endMs);
    expect(cues.at(-1)!.endMs).toBe(audioDuration);
    for (const [i, c] of cues.entries()) expect(Math.abs(c.endMs - c.startMs - speechDurationMs(scripts[i].content, 1))).toBeLessThanOrEqual(MP3_FRAME_MS / 2);
  });

  it("each line is in its speaker's voice: lines by different speakers sound different, lines by one speaker the same", async () => {
    const m = await mock();
    const voices = await demoVoices(m);
    const r = await m.call('POST', pathOf('createSpeechScript'), { body: speechBody({ scripts }) });
    const frames = mp3Frames((await load(r.json.data.audioUrl)).bytes).map((f) => keyOf(f.bytes));
    const cues = srtCues(new TextDecoder().decode((await load(r.json.data.subtitlesUrl)).bytes));
    const ava = voices.get('en_ava')!;
    const noah = voices.get('en_noah')!;
    for (const [i, line] of scripts.entries()) {
      const span = mp3Span(frames, cues[i].startMs, cues[i].endMs);
      const [own, other] = line.speakerId === 'en_ava' ? [ava, noah] : [noah, ava];
      expectVoice(span, own, [other], `line ${i + 1} (${line.speakerId})`);
    }
  });

  it('the same script by one speaker differs only where the speaker differs', async () => {
    const m = await mock();
    const lines = (second: string) => [
      { speakerId: 'en_ava', content: 'A first line of eight words for you.' },
      { speakerId: second, content: 'A second line of eight words for you.' },
    ];
    const mp3Of = async (second: string) => {
      const r = await m.call('POST', pathOf('createSpeechScript'), { body: speechBody({ scripts: lines(second) }) });
      expect(r.status, r.text).toBe(200);
      return { frames: mp3Frames((await load(r.json.data.audioUrl)).bytes).map((f) => keyOf(f.bytes)), duration: r.json.data.audioDuration as number };
    };
    const [same, other] = await Promise.all([mp3Of('en_ava'), mp3Of('en_noah')]);
    expect(other.duration).toBe(same.duration);
    const firstLine = audioFramesOf(speechDurationMs(lines('x')[0].content, 1));
    // The first line (en_ava in both) is the same audio; the second is not.
    expect(other.frames.slice(0, firstLine)).toEqual(same.frames.slice(0, firstLine));
    const a = same.frames.slice(firstLine);
    const b = other.frames.slice(firstLine);
    const differing = a.filter((k, i) => k !== b[i]).length;
    expect(differing).toBeGreaterThanOrEqual(0.9 * a.length);
    // The second line by en_ava is in en_ava's voice: the frames of the first line's voice.
    const firstSet = new Set(same.frames.slice(0, firstLine));
    expect(a.filter((k) => !firstSet.has(k))).toEqual([]);
  });

  it('six speakers whose catalogue voices coincide still get six distinct voices in one script', async () => {
    const m = await mock();
    // en_ava, es_lucia and de_lena share a catalogue timbre (as do en_noah, es_mateo, de_felix); within one script each speaker must still sound distinct.
    const speakers = ['en_ava', 'es_lucia', 'de_lena', 'en_noah', 'es_mateo', 'de_felix'];
    const r = await m.call('POST', pathOf('createSpeechScript'), {
      body: speechBody({ scripts: speakers.map((speakerId) => ({ speakerId, content: 'Six words spoken by this voice.' })) }),
    });
    expect(r.status, r.text).toBe(200);
    const frames = mp3Frames((await load(r.json.data.audioUrl)).bytes).map((f) => keyOf(f.bytes));
    const cues = srtCues(new TextDecoder().decode((await load(r.json.data.subtitlesUrl)).bytes));
    const sets = cues.map((c) => new Set(mp3Span(frames, c.startMs, c.endMs)));
    for (let i = 0; i < sets.length; i++)
      for (let j = i + 1; j < sets.length; j++) {
        const shared = [...sets[i]].filter((k) => sets[j].has(k)).length;
        expect(shared, `${speakers[i]} and ${speakers[j]} share ${shared} of ${sets[i].size} frames`).toBeLessThanOrEqual(0.1 * sets[i].size);
      }
  });

  it('after 24 virtual hours the SRT answers 410 (10015) while the MP3 still loads; just before, both load', async () => {
    const m = await mock();
    const r = await m.call('POST', pathOf('createSpeechScript'), { body: speechBody({ scripts }) });
    const { audioUrl, subtitlesUrl } = r.json.data;
    const mp3 = await load(audioUrl);
    const srt = await load(subtitlesUrl);
    await m.advance(24 * HOUR - 1);
    const before = await load(subtitlesUrl);
    expect(before.status).toBe(200);
    expect(Buffer.from(before.bytes).equals(Buffer.from(srt.bytes))).toBe(true);
    await m.advance(1);
    const gone = await load(subtitlesUrl);
    expect(gone.headers.get('content-type')).toMatch(/^application\/json/);
    expectError({ status: gone.status, json: json(gone.bytes) }, 'MEDIA_EXPIRED');
    expect(gone.status).toBe(410);
    expect(json(gone.bytes).code).toBe(10015);
    const still = await load(audioUrl);
    expect(still.status).toBe(200);
    expect(Buffer.from(still.bytes).equals(Buffer.from(mp3.bytes))).toBe(true);
    await m.advance(30 * 24 * HOUR);
    expect((await load(subtitlesUrl)).status).toBe(410);
    expect((await load(audioUrl)).status).toBe(200);
  });
});

describe('flow-speech episodes: the media of a succeeded episode', () => {
  const text =
    '# Why mock servers?\n\nMock servers let a frontend team work before the backend exists. ' +
    'They answer like the real API, keep state between calls, and make failures easy to reproduce!! ' +
    'This episode walks through the ideas, one by one, with a few examples along the way. ' +
    'By the end you will know when a mock helps and when it gets in the way.';
  const speed = 1.5;

  it('before success every media URL answers 404 (10004); the GET carries no media URLs', async () => {
    const m = await mock();
    const id = await createEpisode(m, pathOf('createFlowSpeechEpisode'), flowSpeechBody());
    const ep = (await m.call('GET', pathOf('getFlowSpeechEpisode', { episodeId: id }))).json.data;
    expect(ep.processStatus).toBe('pending');
    for (const field of ['audioUrl', 'audioStreamUrl', 'subtitlesUrl', 'cover']) expect(ep[field]).toBeUndefined();
    const urls = ['audio.mp3', 'audio.m3u8', 'subtitles.srt', 'cover.png', 'segments/0.aac'].map((f) => `${m.base}/media/flow-speech/${id}/${f}`);
    for (const url of urls) {
      const r = await load(url);
      expect(r.headers.get('content-type'), url).toMatch(/^application\/json/);
      expectError({ status: r.status, json: json(r.bytes) }, 'ROUTE_NOT_FOUND');
    }
    // The same URLs load once it succeeds.
    const done = await succeeded(m, id);
    expect([done.audioUrl, done.audioStreamUrl, done.subtitlesUrl, done.cover]).toEqual(urls.slice(0, 4));
    for (const url of urls) expect((await load(url)).status, url).toBe(200);
  });

  it('audioUrl is an MP3 lasting speechDurationMs(scripts, speed); audioStreamUrl an HLS VOD of ADTS segments adding up to it', async () => {
    const m = await mock();
    const id = await createEpisode(m, pathOf('createFlowSpeechEpisode'), flowSpeechBody({ sources: [{ type: 'text', content: text }], speed }));
    const ep = await succeeded(m, id);
    expect(ep.scripts).not.toMatch(/[#!]{2}|^#/); // smart mode cleaned it
    const declared = speechDurationMs(ep.scripts, speed);
    const mp3 = await load(ep.audioUrl);
    expect(mp3.status).toBe(200);
    expect(mp3.headers.get('content-type')).toBe('audio/mpeg');
    const mp3Ms = await expectAudio(mp3.bytes, 'mp3', declared);
    expect(mp3Ms).toBeGreaterThan(6000); // several HLS segments

    const { text: playlist, manifest } = await playlistAt(ep.audioStreamUrl);
    expect(playlist.startsWith('#EXTM3U\n')).toBe(true);
    expect(manifest.playlistType).toBe('VOD');
    expect(manifest.endList).toBe(true);
    expect(manifest.segments.length).toBeGreaterThan(1);
    let listedMs = 0;
    let decodedMs = 0;
    for (const s of manifest.segments) {
      expect(s.uri).not.toMatch(/^(\/|[a-z]+:)/i); // relative
      expect(Math.round(s.duration)).toBeLessThanOrEqual(manifest.targetDuration!);
      const seg = await load(new URL(s.uri, ep.audioStreamUrl).href);
      expect(seg.status, s.uri).toBe(200);
      expect(seg.headers.get('content-type')).toBe('audio/aac');
      // Packed audio: an ID3 tag carrying the segment's start as a transport stream timestamp, then ADTS frames.
      expect(String.fromCharCode(...seg.bytes.subarray(0, 3))).toBe('ID3');
      expect(new TextDecoder().decode(seg.bytes.subarray(0, id3Length(seg.bytes)))).toContain('com.apple.streaming.transportStreamTimestamp');
      const frames = adtsFrames(seg.bytes);
      expect(frames.length * AAC_FRAME_MS).toBeCloseTo(s.duration * 1000, 0);
      const a = await decodeAudio(seg.bytes.subarray(id3Length(seg.bytes)), 'aac');
      expect({ container: a.container, codec: a.codec, sampleRate: a.sampleRate, channels: a.channels }).toEqual({
        ...audioSignatures.aac,
        sampleRate: RATE,
        channels: 1,
      });
      expect(Math.abs(a.durationMs - s.duration * 1000)).toBeLessThanOrEqual(AAC_FRAME_MS + 0.01);
      listedMs += s.duration * 1000;
      decodedMs += a.durationMs;
    }
    expect(Math.abs(listedMs - mp3Ms)).toBeLessThanOrEqual(AAC_FRAME_MS);
    expect(durationMatches(decodedMs, mp3Ms)).toBe(true);
  });

  it('subtitlesUrl cues are in order within the audio and cover the narration; the cover is a 1024x1024 PNG', async () => {
    const m = await mock();
    const id = await createEpisode(m, pathOf('createFlowSpeechEpisode'), flowSpeechBody({ sources: [{ type: 'text', content: text }], speed }));
    const ep = await succeeded(m, id);
    const mp3Ms = mp3Frames((await load(ep.audioUrl)).bytes).length * MP3_FRAME_MS;
    const srt = await load(ep.subtitlesUrl);
    expect(srt.status).toBe(200);
    expect(srt.headers.get('content-type')).toMatch(/^application\/x-subrip/);
    const cues = srtCues(new TextDecoder().decode(srt.bytes));
    expect(cues.length).toBeGreaterThan(1);
    expect(cues.map((c) => c.id)).toEqual(cues.map((_, i) => String(i + 1)));
    expect(cues[0].startMs).toBe(0);
    for (const [i, c] of cues.entries()) {
      expect(c.endMs).toBeGreaterThan(c.startMs);
      expect(c.endMs).toBeLessThanOrEqual(mp3Ms);
      if (i > 0) expect(c.startMs).toBeGreaterThanOrEqual(cues[i - 1].endMs);
    }
    expect(cues.at(-1)!.endMs).toBe(mp3Ms);
    expect(collapse(cues.map((c) => c.text).join(' '))).toBe(collapse(ep.scripts));

    const cover = await load(ep.cover);
    expect(cover.status).toBe(200);
    expect(cover.headers.get('content-type')).toBe('image/png');
    expect(pngSize(cover.bytes)).toEqual({ width: 1024, height: 1024 });
  });

  describe('a multi-voice script episode (tts)', () => {
    const lines = [
      { speakerId: 'en_ava', content: 'Chapter one. The lighthouse keeper woke before dawn and climbed the stairs.' },
      { speakerId: 'en_noah', content: 'Is anyone there? he called into the fog, and waited for an answer.' },
      { speakerId: 'en_ava', content: 'Nobody answered. Only the gulls, and the sea against the rocks below.' },
    ];
    /** Where each line lies in the audio, ms: its speechDurationMs in whole 24 ms frames. */
    const bounds = [0];
    for (const l of lines) bounds.push(bounds.at(-1)! + audioFramesOf(speechDurationMs(l.content, 1)) * MP3_FRAME_MS);

    async function episode(m: TestMock) {
      const ep = await succeeded(m, await createEpisode(m, pathOf('createFlowSpeechTtsEpisode'), flowSpeechTtsBody({ scripts: lines })));
      expect(ep.scripts).toBe(lines.map((l) => l.content).join('\n'));
      return ep;
    }

    it("the MP3 alternates voices like /v1/speech: each line in its speaker's voice; the SRT covers every line", async () => {
      const m = await mock();
      const ep = await episode(m);
      const mp3 = (await load(ep.audioUrl)).bytes;
      const mp3Ms = await expectAudio(mp3, 'mp3', bounds.at(-1)!);
      expect(durationMatches(mp3Ms, speechDurationMs(ep.scripts, 1))).toBe(true);
      const voices = await demoVoices(m);
      const frames = mp3Frames(mp3).map((f) => keyOf(f.bytes));
      const ava = voices.get('en_ava')!;
      const noah = voices.get('en_noah')!;
      for (const [i, l] of lines.entries()) {
        const [own, other] = l.speakerId === 'en_ava' ? [ava, noah] : [noah, ava];
        expectVoice(mp3Span(frames, bounds[i], bounds[i + 1]), own, [other], `MP3 line ${i + 1} (${l.speakerId})`);
      }
      const cues = srtCues(new TextDecoder().decode((await load(ep.subtitlesUrl)).bytes));
      expect(collapse(cues.map((c) => c.text).join(' '))).toBe(collapse(ep.scripts));
      expect(cues.at(-1)!.endMs).toBe(mp3Ms);
    });

    it("the HLS stream is the same audio as the MP3: each line in its speaker's voice", async () => {
      const m = await mock();
      const ep = await episode(m);
      // Each voice's AAC frames, from POST /v1/tts in aac (3.2 s: more than one 1.92 s loop of the voice's frames).
      const aacVoice = async (voice: string) => {
        const res = await post(m, pathOf('synthesizeSpeech'), ttsBody({ voice, response_format: 'aac' }));
        return new Set(adtsFrames(new Uint8Array(await res.arrayBuffer())).map(keyOf));
      };
      const [avaAac, noahAac] = await Promise.all([aacVoice('en_ava'), aacVoice('en_noah')]);
      const { manifest } = await playlistAt(ep.audioStreamUrl);
      const aacFrames: string[] = [];
      for (const s of manifest.segments) aacFrames.push(...adtsFrames((await load(new URL(s.uri, ep.audioStreamUrl).href)).bytes).map(keyOf));
      expect(Math.abs(aacFrames.length * AAC_FRAME_MS - bounds.at(-1)!)).toBeLessThanOrEqual(AAC_FRAME_MS);
      for (const [i, l] of lines.entries()) {
        // The line's AAC frames, a frame in from each end (a frame may straddle two lines).
        const span = aacFrames.slice(Math.ceil(bounds[i] / AAC_FRAME_MS) + 1, Math.floor(bounds[i + 1] / AAC_FRAME_MS) - 1);
        const [own, other] = l.speakerId === 'en_ava' ? [avaAac, noahAac] : [noahAac, avaAac];
        expectVoice(span, own, [other], `HLS line ${i + 1} (${l.speakerId})`);
      }
    });
  });
});

describe('GET /v1/speakers/list: demo clips', () => {
  it('every demoAudioUrl loads without auth and decodes as an MP3 of about 4 s', async () => {
    const m = await mock();
    const r = await m.call('GET', pathOf('listSpeakers'));
    expect(r.status, r.text).toBe(200);
    const speakers = r.json.data.speakers as { speakerId: string; demoAudioUrl: string }[];
    expect(speakers.map((s) => s.speakerId)).toEqual(builtInSpeakers.map((s) => s.speakerId));
    const demos = await Promise.all(speakers.map((s) => load(s.demoAudioUrl)));
    for (const [i, d] of demos.entries()) {
      expect(d.status, speakers[i].speakerId).toBe(200);
      expect(d.headers.get('content-type')).toBe('audio/mpeg');
      await expectAudio(d.bytes, 'mp3', SPEAKER_DEMO_MS);
    }
  });
});

describe('Range on speech media', () => {
  it('a speech MP3, an episode MP3 and a demo clip answer byte ranges with 206', async () => {
    const m = await mock();
    const speech = (await m.call('POST', pathOf('createSpeechScript'), { body: speechBody() })).json.data;
    const id = await createEpisode(m, pathOf('createFlowSpeechEpisode'), flowSpeechBody());
    const ep = await succeeded(m, id);
    const demo = (await m.call('GET', pathOf('listSpeakers'))).json.data.speakers[0].demoAudioUrl;
    for (const url of [speech.audioUrl, ep.audioUrl, demo] as string[]) {
      const full = await load(url);
      expect(full.status).toBe(200);
      expect(full.headers.get('accept-ranges')).toBe('bytes');
      const size = full.bytes.length;
      const cases: [string, number, number][] = [
        ['bytes=100-1099', 100, 1099],
        ['bytes=1000-', 1000, size - 1],
        ['bytes=-500', size - 500, size - 1],
      ];
      for (const [range, start, end] of cases) {
        const part = await load(url, { range });
        expect(part.status, `${url} ${range}`).toBe(206);
        expect(part.headers.get('content-type')).toBe('audio/mpeg');
        expect(part.headers.get('content-range')).toBe(`bytes ${start}-${end}/${size}`);
        expect(Number(part.headers.get('content-length'))).toBe(end - start + 1);
        expect(Buffer.from(part.bytes).equals(Buffer.from(full.bytes.subarray(start, end + 1)))).toBe(true);
      }
      const etag = full.headers.get('etag')!;
      expect((await load(url, { range: 'bytes=0-9', 'if-range': etag })).status).toBe(206);
      expect((await load(url, { range: `bytes=${size}-` })).status).toBe(416);
    }
  });
});
