/**
 * Requests for the tests, from one place: paths from the registry (`pathOf`)
 * and fixture factories for the bodies the tests send, each a fixed, valid
 * default plus overrides (docs/architecture.md, "Adding an area"). Running
 * mocks is test/helpers.ts.
 *
 * The defaults are what the tests' numbers rest on (credits charged, phase
 * lengths, prices): `videoEstimateBody()` estimates exactly what `videoBody()`
 * creates, and `family5EstimateBody()` what `family5Body()` creates. Each
 * default is checked at compile time against its request schema's input type
 * (`satisfies`); overrides are not, so a test can make a body invalid on purpose.
 */
import type { z } from 'zod';
import type { EstimateImageCreditsRequest, ImageGenerationRequest, ImageSize } from '../schemas/image.ts';
import type { FlowSpeechRequest, FlowSpeechTtsRequest, SpeechRequest, TtsRequest } from '../schemas/speech.ts';
import type { PodcastRequest, PodcastTextContentRequest } from '../schemas/podcast.ts';
import type { StorybookEpisodeRequest } from '../schemas/storybook.ts';
import type { ExtractRequest } from '../schemas/extraction.ts';
import { operations, type OperationId } from '../schemas/operations.ts';
import type { CreateLyricsRequest } from '../schemas/lyrics.ts';
import type { CreateFamily5VideoTaskRequest, CreateVideoTaskRequest, EstimateFamily5CreditsRequest, EstimateVideoCreditsRequest } from '../schemas/video.ts';

/** A request body: the builder's defaults with the test's overrides (which may make it invalid on purpose). */
export type Body = Record<string, unknown>;

/**
 * The path of operation `id` from the registry, its `{params}` filled (URI-encoded)
 * and `query` appended as a query string. Throws when the template names a
 * parameter that `params` does not give.
 */
export function pathOf(id: OperationId, params: Record<string, string> = {}, query?: Record<string, string | number | boolean>): string {
  const template = operations[id].path;
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (!Object.hasOwn(params, name)) throw new Error(`pathOf(${id}): parameter {${name}} of ${template} not given`);
    return encodeURIComponent(params[name]);
  });
  if (query === undefined) return path;
  const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  return search ? `${path}?${search}` : path;
}

/** A text item of the shared video endpoint's `content` (createVideoTask). */
export function textItem(text = 'A red fox running through snow at dawn'): { type: 'text'; text: string } {
  return { type: 'text', text };
}

/** createVideoTask: one text item, every other field at its default (family1-video-2-fast, 720p, 5 s). */
export function videoBody(over: Body = {}): Body {
  return { ...({ content: [textItem()] } satisfies z.input<typeof CreateVideoTaskRequest>), ...over };
}

/** estimateVideoCredits: the configuration `videoBody()` resolves to (family1-video-2-fast, 720p, 5 s, no video input). */
export function videoEstimateBody(over: Body = {}): Body {
  return { ...({ model: 'family1-video-2-fast', resolution: '720p', duration: 5 } satisfies z.input<typeof EstimateVideoCreditsRequest>), ...over };
}

/** createFamily5VideoTask: text_to_video with a prompt, every other field at its default (family5, 720p, 5 s). */
export function family5Body(over: Body = {}): Body {
  return {
    ...({ capability: 'text_to_video', prompt: 'A paper boat drifting down a rainy street' } satisfies z.input<typeof CreateFamily5VideoTaskRequest>),
    ...over,
  };
}

/** estimateFamily5Credits: the configuration `family5Body()` resolves to (text_to_video, family5, 720p, 5 s). */
export function family5EstimateBody(over: Body = {}): Body {
  return { ...({ capability: 'text_to_video' } satisfies z.input<typeof EstimateFamily5CreditsRequest>), ...over };
}

/** generateImage and createImageTask: image-a-2 with a prompt, no imageConfig (2K, the model picks the ratio). */
export function imageBody(over: Body = {}): Body {
  return { ...({ provider: 'vendor_a', model: 'image-a-2', prompt: 'a red kite over a beach' } satisfies z.input<typeof ImageGenerationRequest>), ...over };
}

/** generateImage and createImageTask: `imageBody()` for `model` at `imageSize`. */
export function imageBodyAt(model: string, imageSize: ImageSize = '2K'): Body {
  return imageBody({ model, imageConfig: { imageSize } });
}

/** estimateImageCredits: image-a-2 only (provider and prompt are optional there). */
export function imageEstimateBody(over: Body = {}): Body {
  return { ...({ model: 'image-a-2' } satisfies z.input<typeof EstimateImageCreditsRequest>), ...over };
}

/** `n` reference images by URL for an image body's `referenceImages` (generateImage, createImageTask, estimateImageCredits). */
export function imageRefs(n: number): Body[] {
  return Array.from({ length: n }, (_, i) => ({ fileData: { fileUri: `https://example.com/${i}.png`, mimeType: 'image/png' } }));
}

/** textToSpeech and createSpeech: 8 words (3.2 s at speed 1, 1 credit) in the built-in voice en_ava, mp3 by default. */
export function ttsBody(over: Body = {}): Body {
  return { ...({ input: 'The quick brown fox jumps over the dog.', voice: 'en_ava' } satisfies z.input<typeof TtsRequest>), ...over };
}

/** createSpeechScript: two lines by two built-in voices (en_ava 2 words, en_noah 4 words). */
export function speechBody(over: Body = {}): Body {
  return {
    ...({
      scripts: [
        { speakerId: 'en_ava', content: 'Hello there.' },
        { speakerId: 'en_noah', content: 'Hi, how are you?' },
      ],
    } satisfies z.input<typeof SpeechRequest>),
    ...over,
  };
}

/** createFlowSpeechEpisode: a text source of 12 words read by en_ava (smart mode, language inferred). */
export function flowSpeechBody(over: Body = {}): Body {
  return {
    ...({
      sources: [{ type: 'text', content: 'Mock servers let frontend teams work early. This one keeps its state.' }],
      speakers: [{ speakerId: 'en_ava' }],
    } satisfies z.input<typeof FlowSpeechRequest>),
    ...over,
  };
}

/** createPodcastEpisode: a quick episode on a query, hosted by en_ava with en_noah (language inferred: en). */
export function podcastBody(over: Body = {}): Body {
  return {
    ...({ query: 'Why frontend teams mock their APIs', speakers: [{ speakerId: 'en_ava' }, { speakerId: 'en_noah' }] } satisfies z.input<
      typeof PodcastRequest
    >),
    ...over,
  };
}

/** createPodcastTextContent: `podcastBody()` with language en (required in the two-stage flow). */
export function podcastTextBody(over: Body = {}): Body {
  return { ...({ ...(podcastBody() as z.input<typeof PodcastRequest>), language: 'en' } satisfies z.input<typeof PodcastTextContentRequest>), ...over };
}

/** createStorybookEpisode: an info deck of a two-sentence text narrated by en_ava. */
export function storybookBody(over: Body = {}): Body {
  return {
    ...({
      sources: [
        { type: 'text', content: 'Mock servers let frontend teams work before the backend exists. They keep state, so a whole flow can be tried offline.' },
      ],
      speakers: [{ speakerId: 'en_ava' }],
    } satisfies z.input<typeof StorybookEpisodeRequest>),
    ...over,
  };
}

/** createExtraction: a web article URL with the default options (`uri` overrides the URL, `options` the options). */
export function extractBody(uri = 'https://example.com/blog/why-mock-servers-help', options?: Body): Body {
  return { ...({ source: { type: 'url', uri } } satisfies z.input<typeof ExtractRequest>), ...(options ? { options } : {}) };
}

/** createFlowSpeechTtsEpisode: `speechBody()`'s two-voice script. */
export function flowSpeechTtsBody(over: Body = {}): Body {
  return { ...({ scripts: speechBody().scripts as z.input<typeof FlowSpeechTtsRequest>['scripts'] } satisfies z.input<typeof FlowSpeechTtsRequest>), ...over };
}

/**
 * A WAV file (RIFF, 16-bit mono PCM, 24 kHz) of `seconds`: a 220 Hz tone at a third of full scale, or digital
 * silence (every sample 0) with `silent`.
 */
export function wavBytes(seconds: number, opts: { silent?: boolean } = {}): Uint8Array {
  const n = Math.round(24_000 * seconds);
  const out = new Uint8Array(44 + n * 2);
  const dv = new DataView(out.buffer);
  const ascii = (at: number, t: string) => [...t].forEach((c, i) => (out[at + i] = c.charCodeAt(0)));
  ascii(0, 'RIFF');
  dv.setUint32(4, 36 + n * 2, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  dv.setUint32(16, 16, true);
  dv.setUint16(20, 1, true);
  dv.setUint16(22, 1, true);
  dv.setUint32(24, 24_000, true);
  dv.setUint32(28, 48_000, true);
  dv.setUint16(32, 2, true);
  dv.setUint16(34, 16, true);
  ascii(36, 'data');
  dv.setUint32(40, n * 2, true);
  if (!opts.silent) for (let i = 0; i < n; i++) dv.setInt16(44 + i * 2, Math.round(10_000 * Math.sin((i * 2 * Math.PI * 220) / 24_000)), true);
  return out;
}

/**
 * createVoiceClone: a multipart form with `files` (default one 6-second WAV, sample.wav), language en,
 * consentConfirmed true, and the text fields of `fields` (strings, as a form sends them; null leaves a default out).
 */
export function cloneForm(
  fields: Record<string, string | null> = {},
  files: { name?: string; bytes: Uint8Array; type?: string }[] = [{ bytes: wavBytes(6) }],
): FormData {
  const form = new FormData();
  for (const [i, f] of files.entries())
    form.append('audioFiles', new Blob([f.bytes as Uint8Array<ArrayBuffer>], { type: f.type ?? 'audio/wav' }), f.name ?? `sample${i}.wav`);
  const all: Record<string, string | null> = { language: 'en', consentConfirmed: 'true', ...fields };
  for (const [k, v] of Object.entries(all)) if (v !== null) form.append(k, v);
  return form;
}

/** createLyricsTask: an English prompt (8 words) on `provider` (default: the request's default, which runs on musicA). */
export function lyricsBody(over: Body = {}): Body {
  return { ...({ prompt: 'a summer road trip with old friends' } satisfies z.input<typeof CreateLyricsRequest>), ...over };
}

/**
 * A WAV (RIFF, 16-bit mono PCM, 24 kHz) of exactly `totalBytes` bytes (44 of header, the rest samples: an even
 * number of bytes; an odd total gets a pad byte after the data, as RIFF does): a 220 Hz tone, built by doubling copies so
 * that 10 MB costs a few milliseconds.
 */
export function wavOfSize(totalBytes: number): Uint8Array {
  const dataBytes = (totalBytes - 44) & ~1;
  const out = new Uint8Array(totalBytes);
  const head = wavBytes(0.1);
  out.set(head.subarray(0, 44));
  const dv = new DataView(out.buffer);
  dv.setUint32(4, totalBytes - 8, true);
  dv.setUint32(40, dataBytes, true);
  // 0.1 s of the tone is 22 whole periods of 220 Hz (2,400 samples): repeated, it stays seamless
  const period = head.subarray(44);
  let at = 44;
  out.set(period.subarray(0, Math.min(period.length, dataBytes)), at);
  at += Math.min(period.length, dataBytes);
  while (at < 44 + dataBytes) {
    const n = Math.min(at - 44, 44 + dataBytes - at);
    out.copyWithin(at, 44, 44 + n);
    at += n;
  }
  return out;
}

/** True when every little-endian byte of the uint32 `n` is ASCII. */
const asciiLE = (n: number) => [0, 8, 16, 24].every((shift) => ((n >>> shift) & 0xff) < 0x80);

/**
 * A WAV (RIFF, unsigned 8-bit mono PCM at 8 kHz) of at least `seconds` whose every byte is ASCII, so it survives
 * a proxy that forwards bodies as text (Prism 5.14.2): the data size is the first from `seconds` on whose chunk
 * sizes are ASCII bytes; the samples a sawtooth of 0x20-0x5f (`variant` shifts its phase, so two variants differ).
 */
export function asciiWav(seconds: number, variant = 0): Uint8Array {
  let n = Math.round(seconds * 8_000);
  while (!asciiLE(n) || !asciiLE(n + 36)) n++;
  const out = new Uint8Array(44 + n);
  const dv = new DataView(out.buffer);
  const ascii = (at: number, t: string) => [...t].forEach((c, i) => (out[at + i] = c.charCodeAt(0)));
  ascii(0, 'RIFF');
  dv.setUint32(4, 36 + n, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  dv.setUint32(16, 16, true);
  dv.setUint16(20, 1, true);
  dv.setUint16(22, 1, true);
  dv.setUint32(24, 8_000, true);
  dv.setUint32(28, 8_000, true);
  dv.setUint16(32, 1, true);
  dv.setUint16(34, 8, true);
  ascii(36, 'data');
  dv.setUint32(40, n, true);
  for (let i = 0; i < n; i++) out[44 + i] = 0x20 + ((i + variant) % 64);
  return out;
}

/**
 * An m4a (MP4 with one AAC-LC track, no video) of `durationMs` in timbre `variant`: the mock's AAC frames
 * muxed by mediabunny (the last packet cut to end at the duration).
 */
export async function m4aBytes(durationMs: number, variant = 0): Promise<Uint8Array> {
  const { BufferTarget, EncodedAudioPacketSource, EncodedPacket, Mp4OutputFormat, Output } = await import('mediabunny');
  const { encodedAudio } = await import('../mock/media/audio.ts');
  const audio = await encodedAudio('aac', durationMs, variant);
  const target = new BufferTarget();
  const output = new Output({ format: new Mp4OutputFormat({ fastStart: 'in-memory' }), target });
  const track = new EncodedAudioPacketSource('aac');
  output.addAudioTrack(track);
  await output.start();
  const end = durationMs / 1000;
  for (const [i, p] of audio.packets.entries()) {
    if (p.timestamp >= end) break;
    const packet = new EncodedPacket(p.data, 'key', p.timestamp, Math.min(p.duration, end - p.timestamp));
    const { codec, sampleRate, numberOfChannels, description } = audio;
    await track.add(packet, i === 0 ? { decoderConfig: { codec, sampleRate, numberOfChannels, ...(description ? { description } : {}) } } : undefined);
  }
  await output.finalize();
  return new Uint8Array(target.buffer!);
}

/**
 * recognizeMusic, describeMusic and separateMusicStems: a multipart form with the `audio` file (default a
 * 6-second WAV, song.wav, audio/wav; null: no file) and the text fields of `fields` (strings, as a form sends them).
 */
export function musicForm(
  fields: Record<string, string> = {},
  file: { bytes: Uint8Array; name?: string; type?: string } | null = { bytes: wavBytes(6) },
): FormData {
  const form = new FormData();
  if (file) form.append('audio', new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.type ?? 'audio/wav' }), file.name ?? 'song.wav');
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return form;
}
