/**
 * Every rule of the video sections of document 1 as a table: one row per
 * request, with the expected outcome (ok, or the catalogued error and the field
 * path it names). Each row runs twice: at schema level, through the router's own
 * `parseOrThrow` (so the catalogued error is picked exactly as the HTTP adapter
 * picks it), and over HTTP against a fresh mock (HTTP status, envelope code, and
 * a message that names the field).
 *
 * Seed: document 1, "Video models", "Content items (shared video endpoint)",
 * "Video: create task (shared)" incl. "Model limits", "Video: list tasks",
 * "Video: estimate (shared)", "Video: family5 create" incl. the options table
 * and "Capability rules", "Video: family5 estimate", "Errors", "Limits".
 * The numeric codes of the shared endpoint are assumed (the seed says "not
 * shown"); the family5 codes 32004 and 32006 are the seed's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCatalog, type ErrorName } from '../schemas/errors.ts';
import { operations } from '../schemas/operations.ts';
import type { OperationDef } from '../schemas/registry-types.ts';
import { CreateFamily5VideoTaskRequest, CreateVideoTaskRequest, family5Defaults, type Family5Capability } from '../schemas/video.ts';
import { ApiError } from '../mock/engine/api-error.ts';
import { issuePath, parseOrThrow } from '../mock/core/validate.ts';
import { family5Body, pathOf, textItem, videoBody } from './factories.ts';
import { KEY, startMock, type TestMock } from './helpers.ts';

// ---------------------------------------------------------------------------
// Row builders
// ---------------------------------------------------------------------------

type Expect = 'ok' | [ErrorName, string];
interface Row {
  name: string;
  input: unknown;
  expect: Expect;
  /** Only at schema level (the row needs state the mock does not have, e.g. a prior task). */
  schemaOnly?: boolean;
}

const U = 'https://example.com/';
const image = (role?: string) => ({ type: 'image_url', image_url: { url: `${U}a.png` }, ...(role ? { role } : {}) });
const video = () => ({ type: 'video_url', video_url: { url: `${U}a.mp4` } });
const audio = () => ({ type: 'audio_url', audio_url: { url: `${U}a.mp3` } });
const times = <T>(n: number, f: () => T): T[] => Array.from({ length: n }, f);
const ok = 'ok' as const;
const INVALID = 'VIDEO_INVALID_PARAMETERS' as const;
const COMBO = 'VIDEO_UNSUPPORTED_COMBINATION' as const;
const MISSING = 'VIDEO_MISSING_MEDIA_DURATION' as const;
const F5 = 'F5_INVALID_PARAMETERS' as const;
const F5AUDIO = 'F5_AUDIO_NEEDS_VISUAL' as const;

// ---------------------------------------------------------------------------
// The seed's model table, restated literally ("Video models", "Model limits")
// ---------------------------------------------------------------------------

const SIX = ['16:9', '4:3', '1:1', '3:4', '9:16', '21:9'];
const seedModels: Record<string, { resolutions: string[]; duration: [number, number]; ratios: string[] }> = {
  'family1-video-2-fast': { resolutions: ['480p', '720p'], duration: [4, 15], ratios: SIX },
  'family1-video-2-pro': { resolutions: ['480p', '720p', '1080p'], duration: [4, 15], ratios: SIX },
  'family2-video': { resolutions: ['480p', '720p', '1080p'], duration: [2, 30], ratios: ['16:9', '4:3', '1:1', '3:4', '9:16'] },
  'family2-video-prime': { resolutions: ['480p', '720p', '1080p'], duration: [2, 30], ratios: ['16:9', '4:3', '1:1', '3:4', '9:16'] },
  'family3-h3': { resolutions: ['768p', '2k'], duration: [4, 15], ratios: SIX },
  'family4-video': { resolutions: ['720p', '1080p'], duration: [3, 15], ratios: [...SIX, '4:5', '5:4'] },
};
const ALL_RESOLUTIONS = ['480p', '720p', '1080p', '768p', '2k'];
const ALL_RATIOS = ['16:9', '4:3', '1:1', '3:4', '9:16', '21:9', '4:5', '5:4'];

/** A valid shared request for `model`, with overrides. */
const shared = (model: string, o: Record<string, unknown> = {}) => videoBody({ model, resolution: seedModels[model].resolutions[0], ...o });

const modelLimitRows: Row[] = Object.entries(seedModels).flatMap(([model, m]) => [
  ...ALL_RESOLUTIONS.map((r): Row => ({
    name: `${model} resolution ${r}`,
    input: shared(model, { resolution: r }),
    expect: m.resolutions.includes(r) ? ok : [COMBO, 'resolution'],
  })),
  ...ALL_RATIOS.map((r): Row => ({ name: `${model} ratio ${r}`, input: shared(model, { ratio: r }), expect: m.ratios.includes(r) ? ok : [COMBO, 'ratio'] })),
  ...[m.duration[0] - 1, m.duration[0], m.duration[1], m.duration[1] + 1].map((d): Row => ({
    name: `${model} duration ${d}`,
    input: shared(model, { duration: d }),
    expect: d >= m.duration[0] && d <= m.duration[1] ? ok : [COMBO, 'duration'],
  })),
]);

const sharedRows: Row[] = [
  ...modelLimitRows,
  { name: 'model family5 is not accepted by the shared endpoint', input: { model: 'family5', content: [textItem()] }, expect: [COMBO, 'model'] },
  { name: 'unknown model', input: { model: 'family9', content: [textItem()] }, expect: [COMBO, 'model'] },
  { name: 'content is required', input: { model: 'family1-video-2-fast' }, expect: [INVALID, 'content'] },
  // Content items, rule 1
  { name: 'content with 0 items', input: { content: [] }, expect: [INVALID, 'content'] },
  { name: 'content with 1 item', input: { content: [textItem()] }, expect: ok },
  {
    name: 'content with 16 items (1 text, 9 images, 3 videos, 3 audios)',
    input: { content: [textItem(), ...times(9, image), ...times(3, video), ...times(3, audio)], inputVideoDuration: 5 },
    expect: ok,
  },
  {
    name: 'content with 17 items',
    input: { content: [textItem(), ...times(9, image), ...times(3, video), ...times(3, audio), textItem()], inputVideoDuration: 5 },
    expect: [INVALID, 'content'],
  },
  { name: 'two text items', input: { content: [textItem(), textItem()] }, expect: [INVALID, 'content'] },
  { name: '9 images', input: { content: [textItem(), ...times(9, image)] }, expect: ok },
  { name: '10 images', input: { content: [textItem(), ...times(10, image)] }, expect: [INVALID, 'content'] },
  { name: '3 videos', input: { content: [textItem(), ...times(3, video)], inputVideoDuration: 5 }, expect: ok },
  { name: '4 videos', input: { content: [textItem(), ...times(4, video)], inputVideoDuration: 5 }, expect: [INVALID, 'content'] },
  { name: '3 audios (with an image)', input: { content: [textItem(), image(), ...times(3, audio)] }, expect: ok },
  { name: '4 audios (with an image)', input: { content: [textItem(), image(), ...times(4, audio)] }, expect: [INVALID, 'content'] },
  { name: 'family3-h3 with 5 images', input: shared('family3-h3', { content: [textItem(), ...times(5, image)] }), expect: ok },
  { name: 'family3-h3 with 6 images', input: shared('family3-h3', { content: [textItem(), ...times(6, image)] }), expect: [INVALID, 'content'] },
  { name: 'family2-video with 9 images', input: shared('family2-video', { content: [textItem(), ...times(9, image)] }), expect: ok },
  // Content item shapes
  { name: 'text item without text', input: { content: [{ type: 'text' }] }, expect: [INVALID, 'content[0].text'] },
  { name: 'image_url item without url', input: { content: [textItem(), { type: 'image_url', image_url: {} }] }, expect: [INVALID, 'content[1].image_url.url'] },
  {
    name: 'video_url item without url',
    input: { content: [textItem(), { type: 'video_url', video_url: {} }], inputVideoDuration: 5 },
    expect: [INVALID, 'content[1].video_url.url'],
  },
  {
    name: 'audio_url item without url',
    input: { content: [textItem(), image(), { type: 'audio_url', audio_url: {} }] },
    expect: [INVALID, 'content[2].audio_url.url'],
  },
  { name: 'unknown content type', input: { content: [{ type: 'gif_url', gif_url: { url: `${U}a.gif` } }] }, expect: [INVALID, 'content[0].type'] },
  { name: 'image role reference_video is not an image role', input: { content: [textItem(), image('reference_video')] }, expect: [INVALID, 'content[1].role'] },
  {
    name: 'video role first_frame is not a video role',
    input: { content: [textItem(), { ...video(), role: 'first_frame' }], inputVideoDuration: 5 },
    expect: [INVALID, 'content[1].role'],
  },
  // Text length ("Limits": 2500; family1 1500)
  { name: 'family1-video-2-fast text of 1500 characters', input: { content: [textItem('x'.repeat(1500))] }, expect: ok },
  { name: 'family1-video-2-fast text of 1501 characters', input: { content: [textItem('x'.repeat(1501))] }, expect: [INVALID, 'content[0].text'] },
  {
    name: 'family1-video-2-pro text of 1501 characters',
    input: shared('family1-video-2-pro', { content: [textItem('x'.repeat(1501))] }),
    expect: [INVALID, 'content[0].text'],
  },
  ...['family2-video', 'family2-video-prime', 'family3-h3', 'family4-video'].flatMap((model): Row[] => [
    { name: `${model} text of 2500 characters`, input: shared(model, { content: [textItem('x'.repeat(2500))] }), expect: ok },
    { name: `${model} text of 2501 characters`, input: shared(model, { content: [textItem('x'.repeat(2501))] }), expect: [INVALID, 'content[0].text'] },
  ]),
  // Rule 2: frame roles and reference roles not mixed
  { name: 'first_frame alone', input: { content: [textItem(), image('first_frame')] }, expect: ok },
  { name: 'first_frame + last_frame', input: { content: [textItem(), image('first_frame'), image('last_frame')] }, expect: ok },
  { name: 'reference images only', input: { content: [textItem(), image('reference_image'), image('reference_image')] }, expect: ok },
  {
    name: 'first_frame + reference_image',
    input: { content: [textItem(), image('first_frame'), image('reference_image')] },
    expect: [INVALID, 'content[2].role'],
  },
  {
    name: 'first_frame + an image without role (reference_image)',
    input: { content: [textItem(), image('first_frame'), image()] },
    expect: [INVALID, 'content[2].role'],
  },
  {
    name: 'first_frame + reference_video',
    input: { content: [textItem(), image('first_frame'), video()], inputVideoDuration: 5 },
    expect: [INVALID, 'content[2].role'],
  },
  { name: 'first_frame + reference_audio', input: { content: [textItem(), image('first_frame'), audio()] }, expect: [INVALID, 'content[2].role'] },
  {
    name: 'last_frame + reference_image (family3-h3)',
    input: shared('family3-h3', { content: [textItem(), image('last_frame'), image('reference_image')] }),
    expect: [INVALID, 'content[2].role'],
  },
  // last_frame needs first_frame except on family3-h3; family4 has no last_frame
  ...['family1-video-2-fast', 'family1-video-2-pro', 'family2-video', 'family2-video-prime'].map((model): Row => ({
    name: `${model} last_frame alone`,
    input: shared(model, { content: [textItem(), image('last_frame')] }),
    expect: [INVALID, 'content[1].role'],
  })),
  { name: 'family3-h3 last_frame alone', input: shared('family3-h3', { content: [textItem(), image('last_frame')] }), expect: ok },
  {
    name: 'family3-h3 first_frame + last_frame',
    input: shared('family3-h3', { content: [textItem(), image('first_frame'), image('last_frame')] }),
    expect: ok,
  },
  {
    name: 'family4-video last_frame with first_frame',
    input: shared('family4-video', { content: [textItem(), image('first_frame'), image('last_frame')] }),
    expect: [INVALID, 'content[2].role'],
  },
  {
    name: 'family4-video last_frame alone',
    input: shared('family4-video', { content: [textItem(), image('last_frame')] }),
    expect: [INVALID, 'content[1].role'],
  },
  { name: 'family4-video first_frame alone', input: shared('family4-video', { content: [textItem(), image('first_frame')] }), expect: ok },
  // audio_url: needs an image or video except on family2 and family3-h3; unsupported on family4
  ...['family1-video-2-fast', 'family1-video-2-pro'].flatMap((model): Row[] => [
    { name: `${model} prompt + audio alone`, input: shared(model, { content: [textItem(), audio()] }), expect: [INVALID, 'content[1]'] },
    { name: `${model} audio + image`, input: shared(model, { content: [textItem(), image(), audio()] }), expect: ok },
    { name: `${model} audio + video`, input: shared(model, { content: [textItem(), video(), audio()], inputVideoDuration: 5 }), expect: ok },
  ]),
  ...['family2-video', 'family2-video-prime', 'family3-h3'].map((model): Row => ({
    name: `${model} prompt + audio alone`,
    input: shared(model, { content: [textItem(), audio()] }),
    expect: ok,
  })),
  {
    name: 'family4-video audio_url (with an image)',
    input: shared('family4-video', { content: [textItem(), image(), audio()] }),
    expect: [INVALID, 'content[2]'],
  },
  { name: 'family4-video audio_url alone', input: shared('family4-video', { content: [textItem(), audio()] }), expect: [INVALID, 'content[1]'] },
  // video_url needs inputVideoDuration; per-family ranges; family2 sum <= 30
  { name: 'video_url without inputVideoDuration', input: { content: [textItem(), video()] }, expect: [MISSING, 'inputVideoDuration'] },
  { name: 'video_url with inputVideoDuration 0', input: { content: [textItem(), video()], inputVideoDuration: 0 }, expect: [MISSING, 'inputVideoDuration'] },
  { name: 'inputVideoDuration without video_url is accepted', input: { content: [textItem()], inputVideoDuration: 100 }, expect: ok },
  { name: 'inputVideoDuration negative', input: { content: [textItem()], inputVideoDuration: -1 }, expect: [INVALID, 'inputVideoDuration'] },
  ...(
    [
      ['family1-video-2-fast', 2, 15],
      ['family1-video-2-pro', 2, 15],
      ['family3-h3', 2, 15],
      ['family4-video', 3, 60],
      ['family2-video', 1, 15],
      ['family2-video-prime', 1, 15],
    ] as const
  ).flatMap(([model, lo, hi]) =>
    [lo - 1, lo, hi, hi + 1]
      .filter((d) => d > 0)
      .map((d): Row => ({
        name: `${model} video input of ${d} s`,
        input: shared(model, { content: [textItem(), video()], inputVideoDuration: d, duration: 5 }),
        expect: d >= lo && d <= hi ? ok : [INVALID, 'inputVideoDuration'],
      })),
  ),
  {
    name: 'family2-video input 15 + duration 15 = 30',
    input: shared('family2-video', { content: [textItem(), video()], inputVideoDuration: 15, duration: 15 }),
    expect: ok,
  },
  {
    name: 'family2-video input 15 + duration 16 = 31',
    input: shared('family2-video', { content: [textItem(), video()], inputVideoDuration: 15, duration: 16 }),
    expect: [INVALID, 'inputVideoDuration'],
  },
  {
    name: 'family2-video-prime input 1 + duration 30 = 31',
    input: shared('family2-video-prime', { content: [textItem(), video()], inputVideoDuration: 1, duration: 30 }),
    expect: [INVALID, 'inputVideoDuration'],
  },
  { name: 'family2-video duration 30 without video', input: shared('family2-video', { duration: 30 }), expect: ok },
  {
    name: 'family4-video input 60 + duration 15 (no sum rule)',
    input: shared('family4-video', { content: [textItem(), video()], inputVideoDuration: 60, duration: 15 }),
    expect: ok,
  },
  // Other fields
  { name: 'seed -1', input: { content: [textItem()], seed: -1 }, expect: ok },
  { name: 'seed 0', input: { content: [textItem()], seed: 0 }, expect: ok },
  { name: 'seed 4294967295', input: { content: [textItem()], seed: 4294967295 }, expect: ok },
  { name: 'seed 4294967296', input: { content: [textItem()], seed: 4294967296 }, expect: [INVALID, 'seed'] },
  { name: 'seed -2', input: { content: [textItem()], seed: -2 }, expect: [INVALID, 'seed'] },
  { name: 'seed 1.5', input: { content: [textItem()], seed: 1.5 }, expect: [INVALID, 'seed'] },
  { name: 'duration 5.5', input: { content: [textItem()], duration: 5.5 }, expect: [INVALID, 'duration'] },
  { name: 'generateAudio false', input: { content: [textItem()], generateAudio: false }, expect: ok },
  { name: 'generateAudio "yes"', input: { content: [textItem()], generateAudio: 'yes' }, expect: [INVALID, 'generateAudio'] },
  { name: 'audioSetting auto', input: { content: [textItem()], audioSetting: 'auto' }, expect: ok },
  { name: 'audioSetting origin', input: { content: [textItem(), video()], inputVideoDuration: 5, audioSetting: 'origin' }, expect: ok },
  { name: 'audioSetting mute', input: { content: [textItem()], audioSetting: 'mute' }, expect: [INVALID, 'audioSetting'] },
  { name: 'family3-h3 generateAudio false and seed 42 are accepted (ignored)', input: shared('family3-h3', { generateAudio: false, seed: 42 }), expect: ok },
];

// ---------------------------------------------------------------------------
// family5 create
// ---------------------------------------------------------------------------

const asset = (o: Record<string, unknown> = {}) => ({ url: `${U}asset`, ...o });
const P = 'A paper boat drifting down a rainy street';
const clip = (o: Record<string, unknown> = {}) => ({ imageUrl: `${U}c.png`, duration: 5, prompt: 'clip', ...o });
const ref = (refName: string, type = 'subject') => ({ type, imageUrl: `${U}r.png`, refName });

/** A minimal valid request per capability (from "Capability rules"). */
const valid: Record<Family5Capability, Record<string, unknown>> = {
  text_to_video: family5Body(),
  image_to_video: { capability: 'image_to_video', prompt: P, images: [asset()] },
  transition: { capability: 'transition', prompt: P, images: [asset(), asset()] },
  multi_transition: { capability: 'multi_transition', pixverse: { multiTransition: [clip(), clip()] } },
  fusion: { capability: 'fusion', prompt: 'Put @hero in front of @bg', pixverse: { imageReferences: [ref('hero'), ref('bg', 'background')] } },
  restyle: { capability: 'restyle', pixverse: { sourceVideoId: 'v123', restyleId: 7 } },
  mimic: { capability: 'mimic', images: [asset()], videos: [asset({ duration: 10 })] },
  lip_sync: { capability: 'lip_sync', videos: [asset()], audios: [asset({ duration: 10 })] },
  agent: { capability: 'agent', prompt: P, images: times(4, () => asset()), pixverse: { agentType: 'promo_mix' } },
};
const f5 = (cap: Family5Capability, o: Record<string, unknown> = {}) => ({ ...valid[cap], ...o });
const px = (cap: Family5Capability, o: Record<string, unknown>) => ({ ...valid[cap], pixverse: { ...(valid[cap].pixverse as object), ...o } });
const CAPS = Object.keys(valid) as Family5Capability[];
const PROMPT_REQUIRED: Family5Capability[] = ['text_to_video', 'image_to_video', 'transition', 'fusion', 'agent'];

const family5Rows: Row[] = [
  ...CAPS.map((cap): Row => ({ name: `${cap}: minimal valid request`, input: valid[cap], expect: ok })),
  { name: 'capability is required', input: { prompt: P }, expect: [F5, 'capability'] },
  { name: 'unknown capability', input: { capability: 'upscale', prompt: P }, expect: [F5, 'capability'] },
  // prompt: required-for list and length
  ...CAPS.map((cap): Row => {
    const { prompt: _drop, ...rest } = valid[cap];
    return { name: `${cap} without prompt`, input: rest, expect: PROMPT_REQUIRED.includes(cap) ? [F5, 'prompt'] : ok };
  }),
  { name: 'text_to_video with a blank prompt', input: f5('text_to_video', { prompt: '   ' }), expect: [F5, 'prompt'] },
  { name: 'prompt of 2048 characters', input: f5('text_to_video', { prompt: 'x'.repeat(2048) }), expect: ok },
  { name: 'prompt of 2049 characters', input: f5('text_to_video', { prompt: 'x'.repeat(2049) }), expect: [F5, 'prompt'] },
  // model, language, quality, aspectRatio, duration
  ...['family5', 'v6', 'v5', 'v4.5'].map((m): Row => ({ name: `model ${m}`, input: f5('text_to_video', { model: m }), expect: ok })),
  { name: 'model v7', input: f5('text_to_video', { model: 'v7' }), expect: [F5, 'model'] },
  { name: 'language en', input: f5('text_to_video', { language: 'en' }), expect: ok },
  { name: 'language zh', input: f5('text_to_video', { language: 'zh' }), expect: ok },
  { name: 'language fr', input: f5('text_to_video', { language: 'fr' }), expect: [F5, 'language'] },
  ...['360p', '540p', '720p', '1080p'].map((q): Row => ({ name: `quality ${q}`, input: f5('text_to_video', { quality: q }), expect: ok })),
  { name: 'quality 2k', input: f5('text_to_video', { quality: '2k' }), expect: [F5, 'quality'] },
  ...['9:16', '16:9', '1:1', '4:3', '3:4'].map((r): Row => ({ name: `aspectRatio ${r}`, input: f5('text_to_video', { aspectRatio: r }), expect: ok })),
  { name: 'aspectRatio 21:9', input: f5('text_to_video', { aspectRatio: '21:9' }), expect: [F5, 'aspectRatio'] },
  { name: 'duration 1', input: f5('text_to_video', { duration: 1 }), expect: ok },
  { name: 'duration 60', input: f5('text_to_video', { duration: 60 }), expect: ok },
  { name: 'duration 0', input: f5('text_to_video', { duration: 0 }), expect: [F5, 'duration'] },
  { name: 'duration 61', input: f5('text_to_video', { duration: 61 }), expect: [F5, 'duration'] },
  { name: 'duration 2.5', input: f5('text_to_video', { duration: 2.5 }), expect: [F5, 'duration'] },
  // assets: images 10, videos 2, audios 1, duration 0-180
  { name: 'image_to_video with 10 images', input: f5('image_to_video', { images: times(10, () => asset()) }), expect: ok },
  { name: 'image_to_video with 11 images', input: f5('image_to_video', { images: times(11, () => asset()) }), expect: [F5, 'images'] },
  { name: 'image_to_video with 0 images', input: f5('image_to_video', { images: [] }), expect: [F5, 'images'] },
  { name: 'image_to_video with 2 videos', input: f5('image_to_video', { videos: [asset(), asset()] }), expect: ok },
  { name: 'image_to_video with 3 videos', input: f5('image_to_video', { videos: times(3, () => asset()) }), expect: [F5, 'videos'] },
  { name: 'image_to_video with 1 audio', input: f5('image_to_video', { audios: [asset()] }), expect: ok },
  { name: 'image_to_video with 2 audios', input: f5('image_to_video', { audios: [asset(), asset()] }), expect: [F5, 'audios'] },
  { name: 'asset duration 0', input: f5('image_to_video', { images: [asset({ duration: 0 })] }), expect: ok },
  { name: 'asset duration 180', input: f5('image_to_video', { images: [asset({ duration: 180 })] }), expect: ok },
  { name: 'asset duration 181', input: f5('image_to_video', { images: [asset({ duration: 181 })] }), expect: [F5, 'images[0].duration'] },
  { name: 'asset duration -1', input: f5('image_to_video', { videos: [asset({ duration: -1 })] }), expect: [F5, 'videos[0].duration'] },
  { name: 'asset without url', input: f5('image_to_video', { images: [{ duration: 3 }] }), expect: [F5, 'images[0].url'] },
  // audio without image or video -> 32006
  { name: 'transition with only an audio -> 32006', input: f5('transition', { images: [], audios: [asset()] }), expect: [F5AUDIO, 'audios'] },
  { name: 'text_to_video with an audio -> 32006', input: f5('text_to_video', { audios: [asset()] }), expect: [F5AUDIO, 'audios'] },
  { name: 'agent with only an audio -> 32006', input: f5('agent', { images: [], audios: [asset()] }), expect: [F5AUDIO, 'audios'] },
  // text_to_video: no assets
  { name: 'text_to_video with an image', input: f5('text_to_video', { images: [asset()] }), expect: [F5, 'images'] },
  { name: 'text_to_video with a video', input: f5('text_to_video', { videos: [asset()] }), expect: [F5, 'images'] },
  // transition: exactly 2 images
  { name: 'transition with 1 image', input: f5('transition', { images: [asset()] }), expect: [F5, 'images'] },
  { name: 'transition with 3 images', input: f5('transition', { images: times(3, () => asset()) }), expect: [F5, 'images'] },
  // multi_transition
  { name: 'multi_transition with 7 clips', input: px('multi_transition', { multiTransition: times(7, () => clip()) }), expect: ok },
  { name: 'multi_transition with 1 clip', input: px('multi_transition', { multiTransition: [clip()] }), expect: [F5, 'pixverse.multiTransition'] },
  {
    name: 'multi_transition with 8 clips',
    input: px('multi_transition', { multiTransition: times(8, () => clip()) }),
    expect: [F5, 'pixverse.multiTransition'],
  },
  { name: 'multi_transition without clips', input: { capability: 'multi_transition' }, expect: [F5, 'pixverse.multiTransition'] },
  { name: 'multi_transition clip duration 0', input: px('multi_transition', { multiTransition: [clip({ duration: 0 }), clip()] }), expect: ok },
  { name: 'multi_transition clip duration 30', input: px('multi_transition', { multiTransition: [clip({ duration: 30 }), clip()] }), expect: ok },
  {
    name: 'multi_transition clip duration 31',
    input: px('multi_transition', { multiTransition: [clip(), clip({ duration: 31 })] }),
    expect: [F5, 'pixverse.multiTransition[1].duration'],
  },
  {
    name: 'multi_transition clip without imageUrl',
    input: px('multi_transition', { multiTransition: [clip(), { duration: 3 }] }),
    expect: [F5, 'pixverse.multiTransition[1].imageUrl'],
  },
  { name: 'multi_transition with top-level images', input: f5('multi_transition', { images: [asset()] }), expect: [F5, 'images'] },
  { name: 'multi_transition with top-level videos', input: f5('multi_transition', { videos: [asset()] }), expect: [F5, 'images'] },
  {
    name: 'multi_transition with a top-level audio (and an image)',
    input: f5('multi_transition', { images: [asset()], audios: [asset()] }),
    expect: [F5, 'images'],
  },
  // fusion
  { name: 'fusion with 1 reference', input: { capability: 'fusion', prompt: 'A portrait of @hero', pixverse: { imageReferences: [ref('hero')] } }, expect: ok },
  {
    name: 'fusion with 8 references',
    input: {
      capability: 'fusion',
      prompt: times(8, () => 0)
        .map((_, i) => `@r${i}`)
        .join(' '),
      pixverse: { imageReferences: times(8, () => 0).map((_, i) => ref(`r${i}`)) },
    },
    expect: ok,
  },
  {
    name: 'fusion with 9 references',
    input: {
      capability: 'fusion',
      prompt: times(9, () => 0)
        .map((_, i) => `@r${i}`)
        .join(' '),
      pixverse: { imageReferences: times(9, () => 0).map((_, i) => ref(`r${i}`)) },
    },
    expect: [F5, 'pixverse.imageReferences'],
  },
  { name: 'fusion with 0 references', input: px('fusion', { imageReferences: [] }), expect: [F5, 'pixverse.imageReferences'] },
  { name: 'fusion without imageReferences', input: { capability: 'fusion', prompt: P }, expect: [F5, 'pixverse.imageReferences'] },
  { name: 'fusion prompt missing @bg', input: f5('fusion', { prompt: 'Put @hero somewhere' }), expect: [F5, 'pixverse.imageReferences[1].refName'] },
  {
    name: 'fusion reference type foreground',
    input: px('fusion', { imageReferences: [ref('hero', 'foreground')] }),
    expect: [F5, 'pixverse.imageReferences[0].type'],
  },
  ...(
    [
      ['a', true],
      ['A_1', true],
      ['Z' + 'z9_'.repeat(10) + 'x', true], // 32 characters
      ['Z' + 'z9_'.repeat(10) + 'xy', false], // 33 characters
      ['1abc', false],
      ['_abc', false],
      ['a-b', false],
      ['a b', false],
      ['', false],
    ] as const
  ).map(([name, good]): Row => ({
    name: `fusion refName ${JSON.stringify(name)}`,
    input: { capability: 'fusion', prompt: `Show @${name}`, pixverse: { imageReferences: [ref(name)] } },
    expect: good ? ok : [F5, 'pixverse.imageReferences[0].refName'],
  })),
  // restyle
  {
    name: 'restyle with sourceTaskId and restyleId',
    input: { capability: 'restyle', sourceTaskId: 'vt_prior', pixverse: { restyleId: 'warm' } },
    expect: ok,
    schemaOnly: true,
  },
  { name: 'restyle with a numeric sourceVideoId', input: { capability: 'restyle', pixverse: { sourceVideoId: 42, restyleId: 'warm' } }, expect: ok },
  { name: 'restyle without a source', input: { capability: 'restyle', pixverse: { restyleId: 7 } }, expect: [F5, 'sourceTaskId'] },
  { name: 'restyle without restyleId', input: { capability: 'restyle', pixverse: { sourceVideoId: 'v1' } }, expect: [F5, 'pixverse.restyleId'] },
  { name: 'restyle with an image', input: f5('restyle', { images: [asset()] }), expect: [F5, 'images'] },
  { name: 'restyle with a video', input: f5('restyle', { videos: [asset()] }), expect: [F5, 'images'] },
  // mimic
  { name: 'mimic with 2 images', input: f5('mimic', { images: [asset(), asset()] }), expect: [F5, 'images'] },
  { name: 'mimic with no video', input: f5('mimic', { videos: [] }), expect: [F5, 'images'] },
  { name: 'mimic with no image', input: f5('mimic', { images: [] }), expect: [F5, 'images'] },
  { name: 'mimic with 2 videos', input: f5('mimic', { videos: [asset(), asset()] }), expect: [F5, 'images'] },
  { name: 'mimic video without duration', input: f5('mimic', { videos: [asset()] }), expect: ok },
  { name: 'mimic video of 5 s', input: f5('mimic', { videos: [asset({ duration: 5 })] }), expect: ok },
  { name: 'mimic video of 30 s', input: f5('mimic', { videos: [asset({ duration: 30 })] }), expect: ok },
  { name: 'mimic video of 4 s', input: f5('mimic', { videos: [asset({ duration: 4 })] }), expect: [F5, 'videos[0].duration'] },
  { name: 'mimic video of 31 s', input: f5('mimic', { videos: [asset({ duration: 31 })] }), expect: [F5, 'videos[0].duration'] },
  { name: 'mimic quality 720p', input: f5('mimic', { quality: '720p' }), expect: ok },
  { name: 'mimic quality 1080p (locked to 720p)', input: f5('mimic', { quality: '1080p' }), expect: [F5, 'quality'] },
  { name: 'mimic quality 360p (locked to 720p)', input: f5('mimic', { quality: '360p' }), expect: [F5, 'quality'] },
  // lip_sync
  { name: 'lip_sync video + tts', input: f5('lip_sync', { audios: [], pixverse: { tts: { speakerId: 's1', content: 'Hello' } } }), expect: ok },
  { name: 'lip_sync sourceTaskId + audio', input: f5('lip_sync', { videos: [], sourceTaskId: 'vt_prior' }), expect: ok, schemaOnly: true },
  {
    name: 'lip_sync sourceVideoId + tts',
    input: { capability: 'lip_sync', pixverse: { sourceVideoId: 'v1', tts: { speakerId: 's1', content: 'Hello' } } },
    expect: ok,
  },
  { name: 'lip_sync audio of 5 s', input: f5('lip_sync', { audios: [asset({ duration: 5 })] }), expect: ok },
  { name: 'lip_sync audio of 60 s', input: f5('lip_sync', { audios: [asset({ duration: 60 })] }), expect: ok },
  { name: 'lip_sync audio of 4 s', input: f5('lip_sync', { audios: [asset({ duration: 4 })] }), expect: [F5, 'audios[0].duration'] },
  { name: 'lip_sync audio of 61 s', input: f5('lip_sync', { audios: [asset({ duration: 61 })] }), expect: [F5, 'audios[0].duration'] },
  { name: 'lip_sync audio and tts (both)', input: f5('lip_sync', { pixverse: { tts: { speakerId: 's1', content: 'Hello' } } }), expect: [F5, 'audios'] },
  { name: 'lip_sync no audio source', input: f5('lip_sync', { audios: [] }), expect: [F5, 'audios'] },
  { name: 'lip_sync no source video (audio only) -> 32006', input: f5('lip_sync', { videos: [] }), expect: [F5AUDIO, 'audios'] },
  {
    name: 'lip_sync no source video (tts only)',
    input: { capability: 'lip_sync', pixverse: { tts: { speakerId: 's1', content: 'Hello' } } },
    expect: [F5, 'videos'],
  },
  { name: 'lip_sync two videos', input: f5('lip_sync', { videos: [asset(), asset()] }), expect: [F5, 'videos'] },
  { name: 'lip_sync video and sourceVideoId', input: f5('lip_sync', { pixverse: { sourceVideoId: 'v1' } }), expect: [F5, 'videos'] },
  { name: 'lip_sync tts without content', input: f5('lip_sync', { audios: [], pixverse: { tts: { speakerId: 's1' } } }), expect: [F5, 'pixverse.tts.content'] },
  // agent
  { name: 'agent promo_mix with 3 images', input: f5('agent', { images: times(3, () => asset()) }), expect: [F5, 'images'] },
  { name: 'agent ad_master with 1 image', input: { capability: 'agent', prompt: P, images: [asset()], pixverse: { agentType: 'ad_master' } }, expect: ok },
  { name: 'agent ad_master with 0 images', input: { capability: 'agent', prompt: P, pixverse: { agentType: 'ad_master' } }, expect: [F5, 'images'] },
  {
    name: 'agent ad_master with a video',
    input: { capability: 'agent', prompt: P, images: [asset()], videos: [asset()], pixverse: { agentType: 'ad_master' } },
    expect: [F5, 'videos'],
  },
  { name: 'agent without agentType', input: f5('agent', { pixverse: {} }), expect: [F5, 'pixverse.agentType'] },
  { name: 'agent agentType explainer', input: px('agent', { agentType: 'explainer' }), expect: [F5, 'pixverse.agentType'] },
  ...[20, 30, 60].map((d): Row => ({ name: `agent duration ${d}`, input: f5('agent', { duration: d }), expect: ok })),
  ...[5, 25, 59].map((d): Row => ({ name: `agent duration ${d}`, input: f5('agent', { duration: d }), expect: [F5, 'duration'] })),
  { name: 'agent quality 720p', input: f5('agent', { quality: '720p' }), expect: ok },
  { name: 'agent quality 1080p', input: f5('agent', { quality: '1080p' }), expect: ok },
  { name: 'agent quality 540p', input: f5('agent', { quality: '540p' }), expect: [F5, 'quality'] },
  { name: 'agent quality 360p', input: f5('agent', { quality: '360p' }), expect: [F5, 'quality'] },
  ...['up', 'down', 'left', 'right', 'upper_left', 'lower_left', 'upper_right', 'lower_right'].map((p): Row => ({
    name: `agent brandSticker position ${p}`,
    input: px('agent', { brandSticker: { imageUrl: `${U}logo.png`, position: p } }),
    expect: ok,
  })),
  {
    name: 'agent brandSticker position center',
    input: px('agent', { brandSticker: { imageUrl: `${U}logo.png`, position: 'center' } }),
    expect: [F5, 'pixverse.brandSticker.position'],
  },
  { name: 'agent brandSticker without imageUrl', input: px('agent', { brandSticker: { position: 'up' } }), expect: [F5, 'pixverse.brandSticker.imageUrl'] },
  ...['start', 'end'].map((p): Row => ({
    name: `agent introOutroClip position ${p}`,
    input: px('agent', { introOutroClip: { videoUrl: `${U}intro.mp4`, position: p } }),
    expect: ok,
  })),
  {
    name: 'agent introOutroClip position middle',
    input: px('agent', { introOutroClip: { videoUrl: `${U}intro.mp4`, position: 'middle' } }),
    expect: [F5, 'pixverse.introOutroClip.position'],
  },
  // optional options of the table
  {
    name: 'optional options (motionMode, cameraMovement, templateId, sound effects, lip-sync tts fields)',
    input: px('text_to_video', {
      motionMode: 'fast',
      cameraMovement: 'pan_left',
      templateId: 123,
      soundEffectSwitch: true,
      soundEffectContent: 'rain',
      lipSyncTtsSwitch: false,
      lipSyncTtsSpeakerId: 's1',
      lipSyncTtsContent: 'hi',
    }),
    expect: ok,
  },
  { name: 'templateId as a string', input: px('text_to_video', { templateId: 'tpl_1' }), expect: ok },
  { name: 'soundEffectSwitch "on"', input: px('text_to_video', { soundEffectSwitch: 'on' }), expect: [F5, 'pixverse.soundEffectSwitch'] },
];

// ---------------------------------------------------------------------------
// Estimates and list query
// ---------------------------------------------------------------------------

const estimateRows: Row[] = [
  { name: 'all required fields', input: { model: 'family1-video-2-pro', resolution: '1080p', duration: 5 }, expect: ok },
  { name: 'model missing', input: { resolution: '720p', duration: 5 }, expect: [INVALID, 'model'] },
  { name: 'resolution missing', input: { model: 'family1-video-2-fast', duration: 5 }, expect: [INVALID, 'resolution'] },
  { name: 'duration missing', input: { model: 'family1-video-2-fast', resolution: '720p' }, expect: [INVALID, 'duration'] },
  { name: 'model family5', input: { model: 'family5', resolution: '720p', duration: 5 }, expect: [COMBO, 'model'] },
  { name: 'family1-video-2-fast 1080p', input: { model: 'family1-video-2-fast', resolution: '1080p', duration: 5 }, expect: [COMBO, 'resolution'] },
  { name: 'family3-h3 720p', input: { model: 'family3-h3', resolution: '720p', duration: 5 }, expect: [COMBO, 'resolution'] },
  { name: 'family3-h3 2k', input: { model: 'family3-h3', resolution: '2k', duration: 15 }, expect: ok },
  { name: 'family4-video 480p', input: { model: 'family4-video', resolution: '480p', duration: 5 }, expect: [COMBO, 'resolution'] },
  { name: 'family1-video-2-fast duration 3', input: { model: 'family1-video-2-fast', resolution: '720p', duration: 3 }, expect: [COMBO, 'duration'] },
  { name: 'family2-video duration 30', input: { model: 'family2-video', resolution: '720p', duration: 30 }, expect: ok },
  { name: 'family4-video duration 16', input: { model: 'family4-video', resolution: '720p', duration: 16 }, expect: [COMBO, 'duration'] },
  { name: 'family2-video ratio 21:9', input: { model: 'family2-video', resolution: '720p', duration: 5, ratio: '21:9' }, expect: [COMBO, 'ratio'] },
  { name: 'family4-video ratio 4:5', input: { model: 'family4-video', resolution: '720p', duration: 5, ratio: '4:5' }, expect: ok },
  {
    name: 'hasVideoInput without inputVideoDuration',
    input: { model: 'family1-video-2-fast', resolution: '720p', duration: 5, hasVideoInput: true },
    expect: [MISSING, 'inputVideoDuration'],
  },
  {
    name: 'hasVideoInput with inputVideoDuration 10',
    input: { model: 'family1-video-2-fast', resolution: '720p', duration: 5, hasVideoInput: true, inputVideoDuration: 10 },
    expect: ok,
  },
  {
    name: 'hasVideoInput with inputVideoDuration 16 (family1 2-15)',
    input: { model: 'family1-video-2-fast', resolution: '720p', duration: 5, hasVideoInput: true, inputVideoDuration: 16 },
    expect: [INVALID, 'inputVideoDuration'],
  },
  {
    name: 'family2 hasVideoInput 15 + duration 20',
    input: { model: 'family2-video', resolution: '720p', duration: 20, hasVideoInput: true, inputVideoDuration: 15 },
    expect: [INVALID, 'inputVideoDuration'],
  },
  {
    name: 'inputVideoDuration without hasVideoInput is accepted',
    input: { model: 'family1-video-2-fast', resolution: '720p', duration: 5, inputVideoDuration: 10 },
    expect: ok,
  },
  {
    name: 'hasVideoInput "yes"',
    input: { model: 'family1-video-2-fast', resolution: '720p', duration: 5, hasVideoInput: 'yes' },
    expect: [INVALID, 'hasVideoInput'],
  },
];

const family5EstimateRows: Row[] = [
  { name: 'capability only', input: { capability: 'text_to_video' }, expect: ok },
  { name: 'capability missing', input: { duration: 5 }, expect: [F5, 'capability'] },
  { name: 'capability unknown', input: { capability: 'upscale' }, expect: [F5, 'capability'] },
  { name: 'every field', input: { capability: 'image_to_video', model: 'v5', language: 'zh', duration: 10, quality: '1080p' }, expect: ok },
  { name: 'model v7', input: { capability: 'text_to_video', model: 'v7' }, expect: [F5, 'model'] },
  { name: 'language fr', input: { capability: 'text_to_video', language: 'fr' }, expect: [F5, 'language'] },
  { name: 'duration 0', input: { capability: 'text_to_video', duration: 0 }, expect: [F5, 'duration'] },
  { name: 'duration 61', input: { capability: 'text_to_video', duration: 61 }, expect: [F5, 'duration'] },
  { name: 'duration 60', input: { capability: 'text_to_video', duration: 60 }, expect: ok },
  { name: 'quality 2k', input: { capability: 'text_to_video', quality: '2k' }, expect: [F5, 'quality'] },
  { name: 'agent without agentType', input: { capability: 'agent' }, expect: [F5, 'pixverse.agentType'] },
  { name: 'agent promo_mix (duration default 30)', input: { capability: 'agent', pixverse: { agentType: 'promo_mix' } }, expect: ok },
  { name: 'agent agentType explainer', input: { capability: 'agent', pixverse: { agentType: 'explainer' } }, expect: [F5, 'pixverse.agentType'] },
  ...[20, 30, 60].map((d): Row => ({
    name: `agent duration ${d}`,
    input: { capability: 'agent', duration: d, pixverse: { agentType: 'ad_master' } },
    expect: ok,
  })),
  ...[5, 45].map((d): Row => ({
    name: `agent duration ${d}`,
    input: { capability: 'agent', duration: d, pixverse: { agentType: 'ad_master' } },
    expect: [F5, 'duration'],
  })),
];

const listRows: Row[] = [
  { name: 'no query', input: {}, expect: ok },
  { name: 'page 1', input: { page: '1' }, expect: ok },
  { name: 'page 0', input: { page: '0' }, expect: [INVALID, 'page'] },
  { name: 'page abc', input: { page: 'abc' }, expect: [INVALID, 'page'] },
  { name: 'pageSize 1', input: { pageSize: '1' }, expect: ok },
  { name: 'pageSize 100', input: { pageSize: '100' }, expect: ok },
  { name: 'pageSize 0', input: { pageSize: '0' }, expect: [INVALID, 'pageSize'] },
  { name: 'pageSize 101', input: { pageSize: '101' }, expect: [INVALID, 'pageSize'] },
  ...['pending', 'generating', 'uploading', 'success', 'failed'].map((s): Row => ({ name: `status ${s}`, input: { status: s }, expect: ok })),
  { name: 'status done', input: { status: 'done' }, expect: [INVALID, 'status'] },
];

// ---------------------------------------------------------------------------
// Runner
// ---------------------------------------------------------------------------

interface Suite {
  title: string;
  op: OperationDef;
  where: 'body' | 'query';
  rows: Row[];
}

const suite = (op: OperationDef, where: Suite['where'], rows: Row[]): Suite => ({ title: `${op.method.toUpperCase()} ${op.path}`, op, where, rows });
const suites: Suite[] = [
  suite(operations.createVideoTask, 'body', sharedRows),
  suite(operations.createFamily5VideoTask, 'body', family5Rows),
  suite(operations.estimateVideoCredits, 'body', estimateRows),
  suite(operations.estimateFamily5Credits, 'body', family5EstimateRows),
  suite(operations.listVideoTasks, 'query', listRows),
];

/** Schema-level outcome, picked exactly as the router picks it: ok, or [catalogued error, path of the first issue]. */
function schemaOutcome(op: OperationDef, where: 'body' | 'query', input: unknown): Expect {
  const schema = (where === 'body' ? op.request.body?.schema : op.request.query)!;
  try {
    parseOrThrow(op, schema, input, where);
    return 'ok';
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    const r = schema.safeParse(input);
    if (r.success) throw new Error('parseOrThrow threw but safeParse succeeded', { cause: e });
    return [e.error, issuePath(where, r.error.issues[0].path)];
  }
}

for (const s of suites) {
  describe(`${s.title}: rules at schema level`, () => {
    it.each(s.rows.map((r) => [r.name, r] as const))('%s', (_name, row) => {
      expect(schemaOutcome(s.op, s.where, row.input)).toEqual(row.expect);
    });
  });
}

describe('rules over HTTP', () => {
  let mock: TestMock;
  beforeAll(async () => {
    // Rate limit off: this suite sends hundreds of generate requests (the limit has its own tests).
    mock = await startMock({ rateLimit: false });
    const r = await mock.call('PUT', `/__mock/accounts/${KEY}`, { key: null, body: { credits: 100_000_000 } });
    expect(r.status).toBe(200);
  });
  afterAll(async () => {
    expect(mock.bugs).toEqual([]);
    await mock.close();
  });

  for (const s of suites) {
    describe(s.title, () => {
      it.each(s.rows.filter((r) => !r.schemaOnly).map((r) => [r.name, r] as const))('%s', async (_name, row) => {
        const path = s.op.path;
        const res =
          s.where === 'body'
            ? await mock.call(s.op.method.toUpperCase(), path, { body: row.input })
            : await mock.call('GET', `${path}?${new URLSearchParams(row.input as Record<string, string>)}`);
        if (row.expect === 'ok') {
          expect(res.status, res.text).toBe(200);
          expect(res.json.code).toBe(0);
          return;
        }
        const [error, field] = row.expect;
        expect(res.status, res.text).toBe(errorCatalog[error].httpStatus);
        expect(res.status).toBe(400);
        expect(res.json.code).toBe(errorCatalog[error].code);
        expect(res.json.message).toContain(field);
        expect(res.json.data).toBeNull();
      });
    });
  }
});

// ---------------------------------------------------------------------------
// Defaults
// ---------------------------------------------------------------------------

describe('defaults', () => {
  it('shared create: model family1-video-2-fast, ratio 16:9, duration 5, generateAudio true, seed -1, inputVideoDuration 0, audioSetting auto', () => {
    const r = CreateVideoTaskRequest.parse(videoBody());
    expect(r).toMatchObject({
      model: 'family1-video-2-fast',
      ratio: '16:9',
      duration: 5,
      generateAudio: true,
      seed: -1,
      inputVideoDuration: 0,
      audioSetting: 'auto',
    });
  });

  it('shared create over HTTP: resolution 720p and the other defaults are echoed in params', async () => {
    const mock = await startMock();
    try {
      const c = await mock.call('POST', pathOf('createVideoTask'), { body: videoBody() });
      expect(c.status).toBe(200);
      const t = await mock.call('GET', pathOf('getVideoTask', { taskId: c.json.data.taskId }));
      expect(t.json.data).toMatchObject({ model: 'family1-video-2-fast', resolution: '720p', ratio: '16:9', duration: 5 });
      expect(t.json.data.params).toMatchObject({ resolution: '720p', ratio: '16:9', duration: 5, generateAudio: true, seed: -1 });
      // seed -1 means random: the task reports the seed used, within 0..4294967295.
      expect(t.json.data.seed).toBeGreaterThanOrEqual(0);
      expect(t.json.data.seed).toBeLessThanOrEqual(4294967295);
      expect(mock.bugs).toEqual([]);
    } finally {
      await mock.close();
    }
  });

  it('family5: model family5, language en, assets []', () => {
    const r = CreateFamily5VideoTaskRequest.parse(family5Body());
    expect(r).toMatchObject({ model: 'family5', language: 'en', images: [], videos: [], audios: [] });
  });

  it.each([
    ['text_to_video', '720p', '16:9', 5],
    ['image_to_video', '720p', '16:9', 5],
    ['transition', '720p', '16:9', 5],
    ['multi_transition', '360p', '16:9', 5],
    ['fusion', '720p', '16:9', 5],
    ['restyle', '720p', '16:9', 5],
    ['mimic', '720p', '16:9', 5],
    ['lip_sync', '720p', '16:9', 5],
    ['agent', '720p', '9:16', 30],
  ] as const)('family5 %s defaults: quality %s, aspectRatio %s, duration %i', async (cap, quality, aspectRatio, duration) => {
    expect(family5Defaults(cap)).toEqual({ quality, aspectRatio, duration });
    const mock = await startMock();
    try {
      const c = await mock.call('POST', pathOf('createFamily5VideoTask'), { body: valid[cap] });
      expect(c.status, c.text).toBe(200);
      const t = await mock.call('GET', pathOf('getVideoTask', { taskId: c.json.data.taskId }));
      expect(t.json.data).toMatchObject({ resolution: quality, ratio: aspectRatio, duration, model: 'family5' });
      expect(t.json.data.params).toMatchObject({ capability: cap, quality, aspectRatio, duration, language: 'en', model: 'family5' });
      expect(mock.bugs).toEqual([]);
    } finally {
      await mock.close();
    }
  });

  it('list: page 1 and pageSize 20 by default', async () => {
    const mock = await startMock();
    try {
      const r = await mock.call('GET', pathOf('listVideoTasks'));
      expect(r.json.data).toEqual({ items: [], page: 1, pageSize: 20, total: 0 });
    } finally {
      await mock.close();
    }
  });
});
