/**
 * POST /v1/audio/speech through the official OpenAI SDK (document 2, "POST
 * /v1/tts and POST /v1/audio/speech": the alias follows the SDK's request
 * shape): `client.audio.speech.create({ model, voice, input, response_format })`
 * with baseURL `{base}/v1` gives audio of each of the six formats lasting
 * `speechDurationMs`, streamed; a failure before audio starts surfaces as the
 * SDK's APIError with the status of the error envelope.
 */
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { errorCatalog } from '../schemas/errors.ts';
import { audioFormats, durationMatches, type AudioFormat } from '../schemas/media.ts';
import { speechDurationMs } from '../schemas/speech.ts';
import { audioSignatures, decodeAudio, mp3Frames } from '../verify/decoders.ts';
import { type TestMock, useMocks } from './helpers.ts';

const mock = useMocks({ rateLimit: false });

const SDK_KEY = 'mg_sdk1_secret';
const RATE = 24_000;
const AAC_FRAME_MS = (1024 * 1000) / RATE;
/** How far each format's decoded duration may be from the declared one, ms (whole frames for mp3 and aac; exact otherwise). */
const toleranceMs: Record<AudioFormat, number> = { mp3: 12, aac: 2 * AAC_FRAME_MS, opus: 1, flac: 1, wav: 1, pcm: 0 };

const input = 'Hello from the OpenAI SDK. This sentence is spoken by the mock in one voice.'; // 15 words: 6 s at speed 1

function client(m: TestMock, apiKey: string = SDK_KEY): OpenAI {
  return new OpenAI({ apiKey, baseURL: `${m.base}/v1`, maxRetries: 0 });
}

/** Checks `bytes` decode as `format` (24 kHz mono) lasting `declaredMs`; returns the decoded duration, ms. */
async function expectAudio(bytes: Uint8Array, format: AudioFormat, declaredMs: number): Promise<number> {
  const a = await decodeAudio(bytes, format);
  if (format !== 'pcm') {
    expect({ container: a.container, codec: a.codec }).toEqual(audioSignatures[format]);
    expect(a.sampleRate).toBe(RATE);
    expect(a.channels).toBe(1);
  } else expect(bytes.length).toBe(declaredMs * 48);
  expect(durationMatches(a.durationMs, declaredMs), `${format}: ${a.durationMs} ms for ${declaredMs}`).toBe(true);
  expect(Math.abs(a.durationMs - declaredMs), `${format}: ${a.durationMs} ms for ${declaredMs}`).toBeLessThanOrEqual(toleranceMs[format] + 1e-6);
  return a.durationMs;
}

/** What the SDK throws for `promise` (fails when it resolves). */
async function thrown(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  throw new Error('expected the SDK call to throw');
}

describe('the OpenAI SDK against /v1/audio/speech', () => {
  it.each(audioFormats)('client.audio.speech.create in %s: audio of that format lasting speechDurationMs', async (format) => {
    const m = await mock();
    const res = await client(m).audio.speech.create({ model: 'tts-1', voice: 'en_ava', input, response_format: format });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(format === 'opus' ? 'audio/ogg' : 'audio/mpeg');
    const bytes = new Uint8Array(await res.arrayBuffer());
    await expectAudio(bytes, format, speechDurationMs(input, 1));
  });

  it('speed is the speaking rate; fields the mock does not know (model, instructions) are ignored', async () => {
    const m = await mock();
    const sdk = client(m);
    const at = async (speed: number) => {
      const res = await sdk.audio.speech.create({
        model: 'gpt-4o-mini-tts',
        voice: 'en_noah',
        input,
        response_format: 'wav',
        speed,
        instructions: 'Speak cheerfully.',
      });
      return expectAudio(new Uint8Array(await res.arrayBuffer()), 'wav', speechDurationMs(input, speed));
    };
    const [normal, fast, slow] = await Promise.all([at(1), at(2), at(0.5)]);
    expect(fast).toBeCloseTo(normal / 2, 0);
    expect(slow).toBeCloseTo(normal * 2, 0);
  });

  it('the response body streams: read chunk by chunk, a long input arrives in several chunks that make the whole MP3', async () => {
    const m = await mock();
    const words = Array.from({ length: 3000 }, (_, i) => `w${i % 10}`).join(' ');
    const res = await client(m).audio.speech.create({ model: 'tts-1', voice: 'en_ava', input: words, response_format: 'mp3' });
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    expect(res.headers.get('content-length')).toBeNull();
    const reader = res.body!.getReader();
    const chunks: Uint8Array[] = [];
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      chunks.push(value);
    }
    expect(chunks.length).toBeGreaterThan(1);
    const bytes = new Uint8Array(Buffer.concat(chunks));
    expect(mp3Frames(bytes).length * 24).toBe(speechDurationMs(words, 1)); // 20 minutes, whole 24 ms frames
  });

  it('an unknown voice surfaces as an OpenAI.APIError with status 400', async () => {
    const m = await mock();
    const e = await thrown(client(m).audio.speech.create({ model: 'tts-1', voice: 'alloy', input, response_format: 'mp3' }));
    expect(e).toBeInstanceOf(OpenAI.APIError);
    expect(e).toBeInstanceOf(OpenAI.BadRequestError);
    expect((e as InstanceType<typeof OpenAI.APIError>).status).toBe(errorCatalog.SPEECH_SPEAKER_NOT_FOUND.httpStatus);
    expect((e as InstanceType<typeof OpenAI.APIError>).status).toBe(400);
  });

  it('a short balance surfaces as an OpenAI.APIError with status 402', async () => {
    const m = await mock();
    expect((await m.call('PUT', `/__mock/accounts/${SDK_KEY}`, { key: null, body: { credits: 0 } })).status).toBe(200);
    const e = await thrown(client(m).audio.speech.create({ model: 'tts-1', voice: 'en_ava', input }));
    expect(e).toBeInstanceOf(OpenAI.APIError);
    expect((e as InstanceType<typeof OpenAI.APIError>).status).toBe(402);
  });

  it('a key the mock does not accept surfaces as an OpenAI.AuthenticationError (401)', async () => {
    const m = await mock();
    const e = await thrown(client(m, 'sk-not-a-mock-key').audio.speech.create({ model: 'tts-1', voice: 'en_ava', input }));
    expect(e).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((e as InstanceType<typeof OpenAI.APIError>).status).toBe(401);
  });
});
