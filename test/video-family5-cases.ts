/**
 * The family5 rows of test/video-rules.test.ts: every rule of the family5
 * sections of document 1, one row per request with its expected outcome.
 * Seed: document 1, "Video: family5 create" incl. the options table and
 * "Capability rules", "Video: family5 estimate", "Errors" (32004, 32006).
 */
import type { Family5Capability } from '../schemas/video.ts';
import { family5Body } from './factories.ts';
import { COMBO, F5, F5AUDIO, INVALID, MISSING, ok, type Row, times, U } from './video-rule-cases.ts';

// ---------------------------------------------------------------------------
// family5 create
// ---------------------------------------------------------------------------

const asset = (o: Record<string, unknown> = {}) => ({ url: `${U}asset`, ...o });
const P = 'A paper boat drifting down a rainy street';
const clip = (o: Record<string, unknown> = {}) => ({ imageUrl: `${U}c.png`, duration: 5, prompt: 'clip', ...o });
const ref = (refName: string, type = 'subject') => ({ type, imageUrl: `${U}r.png`, refName });

/** A minimal valid request per capability (from "Capability rules"). */
export const valid: Record<Family5Capability, Record<string, unknown>> = {
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

export const family5Rows: Row[] = [
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

export const estimateRows: Row[] = [
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

export const family5EstimateRows: Row[] = [
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

export const listRows: Row[] = [
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
