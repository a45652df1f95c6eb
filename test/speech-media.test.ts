/**
 * What the TTS endpoints serve (document 2, "POST /v1/tts and POST
 * /v1/audio/speech", "GET /v1/speakers/list"): the binary TTS answer in each of the
 * six formats (its Content-Type rule, chunked streaming, bytes of the requested
 * format lasting `speechDurationMs`), the JSON envelope of a failure before audio
 * starts, the speakers' demo clips, and Range on speech media. The MP3 and SRT of
 * a script: test/speech-script-media.test.ts; flow-speech episodes:
 * test/flow-speech-media.test.ts; shared checks: test/speech-media-helpers.ts.
 */
import { describe, expect, it } from 'vitest';
import { type ErrorName } from '../schemas/errors.ts';
import { audioFormats } from '../schemas/media.ts';
import { SPEAKER_DEMO_MS, builtInSpeakers, speechDurationMs } from '../schemas/speech.ts';
import { flowSpeechBody, pathOf, speechBody, ttsBody } from './factories.ts';
import { KEY, useMocks } from './helpers.ts';
import {
  createEpisode,
  expectAudio,
  expectError,
  json,
  load,
  post,
  readChunks,
  succeeded,
  toleranceMs,
  ttsPaths,
  ttsType,
  wavData,
} from './speech-media-helpers.ts';

const mock = useMocks({ rateLimit: false });

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
