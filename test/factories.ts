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
import { audioFrames, encodedAudio, loadAudioLoops } from '../mock/media/audio.ts';
import type { CreateLyricsRequest } from '../schemas/lyrics.ts';
import type { CreateMusicCoverRequest, CreateMusicGenerateRequest } from '../schemas/music.ts';
import type { CreateFamily5VideoTaskRequest, CreateVideoTaskRequest, EstimateFamily5CreditsRequest, EstimateVideoCreditsRequest } from '../schemas/video.ts';

// audioFrames (below) is synchronous: the encoded loops it copies load on first use
await loadAudioLoops();

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

/** synthesizeSpeech and createSpeech: 8 words (3.2 s at speed 1, 1 credit) in the built-in voice en_ava, mp3 by default. */
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

/** generateMusic: a musicA song (the request's default provider) with a style prompt, lyrics and a title (10 credits on auto). */
export function musicBody(over: Body = {}): Body {
  return {
    ...({
      prompt: 'warm indie pop, acoustic guitar, hand claps',
      lyrics: '[Verse]\nSummer roads and open windows\n[Chorus]\nSing it loud, we are going home',
      title: 'Open Windows',
    } satisfies z.input<typeof CreateMusicGenerateRequest>),
    ...over,
  };
}

/** coverMusic: custom mode (style, title, prompt as lyrics) over a public recording URL, on V6 (20 credits). */
export function musicCoverBody(over: Body = {}): Body {
  return {
    ...({
      uploadUrl: 'https://example.com/recordings/demo.mp3',
      style: 'lo-fi jazz, brushed drums',
      title: 'Demo (Jazz Cover)',
      prompt: '[Verse]\nThe same old melody in a brand new room',
    } satisfies z.input<typeof CreateMusicCoverRequest>),
    ...over,
  };
}

/** A file of a multipart music upload. */
export interface FormFile {
  bytes: Uint8Array;
  name?: string;
  type?: string;
}

/**
 * A multipart form for the music uploads (generateInstrumental, generateSoundtrack, generateTrack,
 * remixMusic, extendMusic): the text fields (strings, as a form sends them; null leaves one out) and
 * the files by field name.
 */
export function musicForm(fields: Record<string, string | null> = {}, files: Record<string, FormFile> = {}): FormData {
  const form = new FormData();
  for (const [k, f] of Object.entries(files))
    form.append(k, new Blob([f.bytes as Uint8Array<ArrayBuffer>], { type: f.type ?? 'application/octet-stream' }), f.name ?? `upload-${k}`);
  for (const [k, v] of Object.entries(fields)) if (v !== null) form.append(k, v);
  return form;
}

/** Default text fields of each music upload (valid with the source the test adds: a file, a URL or a song id). */
export const musicFormFields = {
  instrumental: { prompt: 'calm piano over soft rain' },
  soundtrack: { prompt: 'gentle strings' },
  track: { generateType: 'Bass', prompt: 'a walking bass line' },
  remix: { lyrics: '[Verse]\nNew words for an old tune', prompt: 'upbeat disco' },
} as const;

/**
 * Leading bytes of each upload type the music endpoints accept (document 3), enough for a type judged by its
 * content: a JPEG SOI and APP0 marker, a WebP RIFF header with a VP8L chunk, an MP4/QuickTime ftyp box, an AVI
 * RIFF header, Matroska and WebM EBML headers. Every byte is ASCII where the format allows it (Prism forwards
 * bodies as text).
 */
export const magicFiles = {
  jpeg: new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9]),
  webp: new TextEncoder().encode('RIFF\x1a\x00\x00\x00WEBPVP8L\x0e\x00\x00\x00/\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00'),
  mp4: new TextEncoder().encode('\x00\x00\x00\x14ftypisom\x00\x00\x02\x00isom\x00\x00\x00\x08free'),
  mov: new TextEncoder().encode('\x00\x00\x00\x14ftypqt  \x00\x00\x02\x00qt  \x00\x00\x00\x08wide'),
  avi: new TextEncoder().encode('RIFF\x04\x00\x00\x00AVI LIST\x04\x00\x00\x00hdrl'),
  mkv: new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x88, ...new TextEncoder().encode('matroska')]),
  webm: new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84, ...new TextEncoder().encode('webm')]),
} as const;

/** A music track as GET /v1/music/tasks/{taskId} answers it. */
export interface MusicTrack {
  title: string;
  tags: string;
  duration: number;
  audioUrl: string;
  providerSongId: string;
}
/** A music task as GET /v1/music/tasks/{taskId} answers it. */
export interface MusicTask {
  id: string;
  provider: string;
  taskType: string;
  status: string;
  params: Record<string, any>;
  tracks: MusicTrack[];
  creditCost: number;
  errorMessage?: string;
  createdAt: number;
  updatedAt: number;
}

/** What `musicSong` needs of a running mock. */
interface MockLike {
  call(method: string, path: string, opts?: { key?: string | null; body?: unknown }): Promise<{ status: number; json: any; text: string }>;
  advance(ms: number): Promise<void>;
}

/**
 * A succeeded musicA song of `key` (generateMusic with `musicBody()`, then 10 minutes of virtual time): its
 * task id, its track's providerSongId and the task as read (track URLs signed by that read).
 */
export async function musicSong(m: MockLike, key?: string, body: Body = musicBody()): Promise<{ taskId: string; providerSongId: string; task: MusicTask }> {
  const r = await m.call('POST', pathOf('generateMusic'), { body, key });
  if (r.status !== 202) throw new Error(`musicSong: ${r.text}`);
  await m.advance(600_000);
  const t = await m.call('GET', pathOf('getMusicTask', { taskId: r.json.data.taskId }), { key });
  if (t.json?.data?.status !== 'success') throw new Error(`musicSong: ${t.text}`);
  return { taskId: r.json.data.taskId, providerSongId: t.json.data.tracks[0].providerSongId, task: t.json.data };
}

/** Bytes of one MP3 frame of the mock's renderer (MPEG-2 Layer III, 32 kbit/s, 24 kHz: 24 ms). */
const MP3_FRAME_BYTES = 96;

/**
 * An MP3 of whole 24 ms frames (the mock's own renderer, timbre `variant`): `seconds` long, or, with `totalBytes`,
 * as many frames as fit after a 10-byte ID3v2 tag whose padding makes the file exactly `totalBytes` long.
 */
export function mp3Bytes(opts: { seconds?: number; totalBytes?: number; variant?: number }): Uint8Array {
  const frames =
    opts.totalBytes !== undefined ? Math.floor((opts.totalBytes - 10) / MP3_FRAME_BYTES) : Math.max(5, Math.round(((opts.seconds ?? 5) * 1000) / 24));
  const audio = audioFrames('mp3', opts.variant ?? 0, 0, frames);
  if (opts.totalBytes === undefined) return audio;
  const pad = opts.totalBytes - 10 - audio.length;
  const out = new Uint8Array(opts.totalBytes);
  out.set([0x49, 0x44, 0x33, 3, 0, 0, (pad >> 21) & 0x7f, (pad >> 14) & 0x7f, (pad >> 7) & 0x7f, pad & 0x7f]);
  out.set(audio, 10 + pad);
  return out;
}

/** An M4A: AAC-LC of `seconds` muxed into MP4 by mediabunny (brand isom), or with its major brand set to `brand` (e.g. `M4A `). */
export async function musicM4a(seconds: number, brand?: string): Promise<Uint8Array> {
  const mb = await import('mediabunny');
  const enc = await encodedAudio('aac', seconds * 1000, 1);
  const target = new mb.BufferTarget();
  const out = new mb.Output({ format: new mb.Mp4OutputFormat({ fastStart: 'in-memory' }), target });
  const src = new mb.EncodedAudioPacketSource('aac');
  out.addAudioTrack(src);
  await out.start();
  for (const [i, p] of enc.packets.entries())
    await src.add(
      new mb.EncodedPacket(p.data, 'key', p.timestamp, p.duration),
      i === 0 ? { decoderConfig: { codec: enc.codec, sampleRate: enc.sampleRate, numberOfChannels: 1, description: enc.description } } : undefined,
    );
  await out.finalize();
  const bytes = new Uint8Array(target.buffer!);
  if (brand) bytes.set(new TextEncoder().encode(brand.padEnd(4).slice(0, 4)), 8);
  return bytes;
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
export function analysisForm(
  fields: Record<string, string> = {},
  file: { bytes: Uint8Array; name?: string; type?: string } | null = { bytes: wavBytes(6) },
): FormData {
  const form = new FormData();
  if (file) form.append('audio', new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.type ?? 'audio/wav' }), file.name ?? 'song.wav');
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return form;
}
