/**
 * The shared endpoint's rows of test/video-rules.test.ts (and what the
 * family5 rows share): every rule of its sections of document 1, one row per
 * request with its expected outcome (ok, or the catalogued error and the field
 * path it names). Seed: document 1, "Video models", "Content items (shared
 * video endpoint)", "Video: create task (shared)", "Video: list tasks",
 * "Video: estimate (shared)", "Limits".
 */
import type { ErrorName } from '../schemas/errors.ts';
import { textItem, videoBody } from './factories.ts';

// ---------------------------------------------------------------------------
// Row builders
// ---------------------------------------------------------------------------

export type Expect = 'ok' | [ErrorName, string];
export interface Row {
  name: string;
  input: unknown;
  expect: Expect;
  /** Only at schema level (the row needs state the mock does not have, e.g. a prior task). */
  schemaOnly?: boolean;
}

export const U = 'https://example.com/';
const image = (role?: string) => ({ type: 'image_url', image_url: { url: `${U}a.png` }, ...(role ? { role } : {}) });
const video = () => ({ type: 'video_url', video_url: { url: `${U}a.mp4` } });
const audio = () => ({ type: 'audio_url', audio_url: { url: `${U}a.mp3` } });
export const times = <T>(n: number, f: () => T): T[] => Array.from({ length: n }, f);
export const ok = 'ok' as const;
export const INVALID = 'VIDEO_INVALID_PARAMETERS' as const;
export const COMBO = 'VIDEO_UNSUPPORTED_COMBINATION' as const;
export const MISSING = 'VIDEO_MISSING_MEDIA_DURATION' as const;
export const F5 = 'F5_INVALID_PARAMETERS' as const;
export const F5AUDIO = 'F5_AUDIO_NEEDS_VISUAL' as const;

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

export const sharedRows: Row[] = [
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
