/**
 * The request-rule table of test/spec-rules.test.ts and `npm run spec:agreement`:
 * for every operation whose body carries rules (schemas/rules.ts), bodies that
 * keep every rule, and for each rule a body that breaks only that rule.
 * `rule` names a body rule (its id) or a rule of the operation's `stateRules`
 * that reads the body alone (`x-rules:<index>`), which no schema carries.
 */
import { sharedVideoModelIds, sharedVideoModels, videoRatios, videoResolutions, type SharedVideoModel } from '../schemas/video.ts';
import type { OperationId } from '../schemas/operations.ts';
import { cloneSchedule } from '../schemas/voice-clone.ts';
import type { InProcessMock } from '../mock/index.ts';
import {
  imageFamilies,
  imageModelIds,
  imageModels,
  imageSizes,
  allImageRatios,
  legacyImageModelIds,
  MAX_REFERENCE_IMAGES,
  type ImageModel,
} from '../schemas/image.ts';
import {
  family5Body,
  family5EstimateBody,
  lyricsBody,
  magicFiles,
  mp3Bytes,
  musicBody,
  musicCoverBody,
  musicFormFields,
  speechBody,
  ttsBody,
  podcastBody,
  podcastTextBody,
  storybookBody,
  imageBody,
  imageEstimateBody,
  imageRefs,
  textItem,
  cloneForm,
  extractBody,
  flowSpeechBody,
  flowSpeechTtsBody,
  wavBytes,
  videoBody,
  videoEstimateBody,
  type Body,
} from './factories.ts';
import { KEY } from './helpers.ts';

/** One request of the table: a valid body (`rule` null) or one breaking `rule` only. */
export interface RuleCase {
  op: OperationId;
  rule: string | null;
  name: string;
  /** A JSON body, or the fields of a multipart form: a file as `formFile` or as bytes (a repeated file field: an array of them), other values sent as their text. */
  body: Body;
  /** The path parameters, made on the case's mock (a voice to rename). */
  params?: (mock: InProcessMock) => Promise<Record<string, string>>;
  /** Makes the state the case needs on the mock (a succeeded task to extend); its fields are merged into the body. */
  prepare?: (mock: InProcessMock) => Promise<Body>;
}

/** A file of a multipart case: its name and bytes. */
export interface CaseFile {
  kind: 'case-file';
  name: string;
  bytes: Uint8Array;
}
/** True when `v` is a file of a multipart case. */
export const isFormFile = (v: unknown): v is CaseFile => typeof v === 'object' && v !== null && (v as CaseFile).kind === 'case-file';
const formFile = (name: string, bytes: Uint8Array): CaseFile => ({ kind: 'case-file', name, bytes });

const U = 'https://example.com/';
const image = (role?: string) => ({ type: 'image_url', image_url: { url: `${U}a.png` }, ...(role ? { role } : {}) });
const video = () => ({ type: 'video_url', video_url: { url: `${U}a.mp4` } });
const audio = () => ({ type: 'audio_url', audio_url: { url: `${U}a.mp3` } });
const times = <T>(n: number, f: () => T): T[] => Array.from({ length: n }, f);
const asset = (over: Body = {}) => ({ url: `${U}a.png`, ...over });

const valid = (op: OperationId, name: string, body: Body): RuleCase => ({ op, rule: null, name, body });
const breaks = (op: OperationId, rule: string, name: string, body: Body): RuleCase => ({ op, rule, name, body });

// ---------------------------------------------------------------------------
// Video: shared endpoint and its estimate
// ---------------------------------------------------------------------------

function sharedCases(): RuleCase[] {
  const out: RuleCase[] = [];
  const C = 'createVideoTask' as const;
  const E = 'estimateVideoCredits' as const;
  for (const id of sharedVideoModelIds) {
    const m: SharedVideoModel = sharedVideoModels[id];
    const base = { model: id, resolution: m.resolutions[0] };
    out.push(valid(C, `${id} text`, videoBody(base)), valid(E, `${id}`, videoEstimateBody(base)));
    const badRes = videoResolutions.find((r) => !(m.resolutions as readonly string[]).includes(r))!;
    const badRatio = videoRatios.find((r) => !(m.ratios as readonly string[]).includes(r));
    for (const [op, body] of [
      [C, videoBody],
      [E, videoEstimateBody],
    ] as const) {
      out.push(breaks(op, `video.resolution.${id}`, `${id} at ${badRes}`, body({ ...base, resolution: badRes })));
      if (badRatio) out.push(breaks(op, `video.ratio.${id}`, `${id} at ${badRatio}`, body({ ...base, ratio: badRatio })));
      else if (op === C) out.push(valid(op, `${id} takes every ratio`, body({ ...base, ratio: '5:4' })));
      if (m.duration.min > 2) out.push(breaks(op, `video.duration.${id}`, `${id} ${m.duration.min - 1} s`, body({ ...base, duration: m.duration.min - 1 })));
      if (m.duration.max < 30) out.push(breaks(op, `video.duration.${id}`, `${id} ${m.duration.max + 1} s`, body({ ...base, duration: m.duration.max + 1 })));
      // video input: a valid one, too short, missing
      const withVideo =
        op === C ? (o: Body) => body({ ...base, content: [textItem(), video()], ...o }) : (o: Body) => body({ ...base, hasVideoInput: true, ...o });
      out.push(valid(op, `${id} with video input`, withVideo({ inputVideoDuration: m.videoInput.min, duration: m.duration.min })));
      out.push(breaks(op, 'video.input-duration-required', `${id} video without inputVideoDuration`, withVideo({})));
      const range = `video.input-duration-range.${groupOf(id, (x) => `${x.videoInput.min}-${x.videoInput.max}`)}`;
      out.push(breaks(op, range, `${id} input ${m.videoInput.max + 1} s`, withVideo({ inputVideoDuration: m.videoInput.max + 1, duration: m.duration.min })));
      if (m.maxInputPlusOutput)
        out.push(
          breaks(
            op,
            `video.input-plus-output.${groupOf(id, (x) => x.maxInputPlusOutput)}`,
            `${id} input + output over ${m.maxInputPlusOutput}`,
            withVideo({ inputVideoDuration: m.videoInput.max, duration: m.maxInputPlusOutput - m.videoInput.max + 1 }),
          ),
        );
    }
    // content rules per model
    out.push(
      breaks(
        C,
        `video.content.image_url-max.${groupOf(id, (x) => x.maxImages)}`,
        `${id} ${m.maxImages + 1} images`,
        videoBody({ ...base, content: [textItem(), ...times(m.maxImages + 1, () => image())] }),
      ),
    );
    out.push(valid(C, `${id} ${m.maxImages} images`, videoBody({ ...base, content: [textItem(), ...times(m.maxImages, () => image())] })));
    if (m.maxTextLength < 2500)
      out.push(
        breaks(
          C,
          `video.content.text-length.${groupOf(id, (x) => (x.maxTextLength < 2500 ? x.maxTextLength : undefined))}`,
          `${id} text of ${m.maxTextLength + 1}`,
          videoBody({ ...base, content: [textItem('x'.repeat(m.maxTextLength + 1))] }),
        ),
      );
    if (!m.lastFrame)
      out.push(
        breaks(
          C,
          'video.content.last-frame-unsupported',
          `${id} last_frame`,
          videoBody({ ...base, content: [textItem(), image('first_frame'), image('last_frame')] }),
        ),
      );
    else if (!m.lastFrameAlone)
      out.push(breaks(C, 'video.content.last-frame-needs-first', `${id} last_frame alone`, videoBody({ ...base, content: [textItem(), image('last_frame')] })));
    else out.push(valid(C, `${id} last_frame alone`, videoBody({ ...base, content: [textItem(), image('last_frame')] })));
    if (m.lastFrame) out.push(valid(C, `${id} first and last frame`, videoBody({ ...base, content: [textItem(), image('first_frame'), image('last_frame')] })));
    if (!m.audio) out.push(breaks(C, 'video.content.audio-unsupported', `${id} audio`, videoBody({ ...base, content: [textItem(), image(), audio()] })));
    else if (!m.audioAlone)
      out.push(breaks(C, 'video.content.audio-needs-visual', `${id} audio alone`, videoBody({ ...base, content: [textItem(), audio()] })));
    else out.push(valid(C, `${id} prompt and audio`, videoBody({ ...base, content: [textItem(), audio()] })));
  }
  out.push(
    breaks(C, 'video.content.text-max', 'two text items', videoBody({ content: [textItem(), textItem('again')] })),
    breaks(C, 'video.content.video_url-max', 'four videos', videoBody({ content: [textItem(), ...times(4, video)], inputVideoDuration: 5 })),
    breaks(C, 'video.content.audio_url-max', 'four audios', videoBody({ content: [textItem(), image(), ...times(4, audio)] })),
    breaks(C, 'video.content.roles-not-mixed', 'a frame and a reference', videoBody({ content: [textItem(), image('first_frame'), image()] })),
    breaks(
      C,
      'video.content.roles-not-mixed',
      'a frame and a video',
      videoBody({ content: [textItem(), image('first_frame'), video()], inputVideoDuration: 5 }),
    ),
    breaks(C, 'video.content.one-first-frame', 'two first frames', videoBody({ content: [textItem(), image('first_frame'), image('first_frame')] })),
    breaks(
      C,
      'video.content.one-last-frame',
      'two last frames',
      videoBody({ content: [textItem(), image('first_frame'), image('last_frame'), image('last_frame')] }),
    ),
    valid(C, 'references of every kind', videoBody({ content: [textItem(), image(), image('reference_image'), video(), audio()], inputVideoDuration: 5 })),
  );
  return out;
}

/** The rule-id suffix of `id`'s group: the models sharing its value of `key`, joined with +. */
function groupOf(id: keyof typeof sharedVideoModels, key: (m: SharedVideoModel) => unknown): string {
  const v = key(sharedVideoModels[id]);
  return sharedVideoModelIds.filter((x) => key(sharedVideoModels[x]) === v).join('+');
}

// ---------------------------------------------------------------------------
// Video: family5
// ---------------------------------------------------------------------------

function family5Cases(): RuleCase[] {
  const C = 'createFamily5VideoTask' as const;
  const E = 'estimateFamily5Credits' as const;
  const f = family5Body;
  const prompt = 'A paper boat drifting down a rainy street';
  const imgs = (n: number) => times(n, () => asset());
  const vids = (n: number, duration?: number) => times(n, () => asset({ url: `${U}a.mp4`, ...(duration === undefined ? {} : { duration }) }));
  const auds = (n: number, duration?: number) => times(n, () => asset({ url: `${U}a.mp3`, ...(duration === undefined ? {} : { duration }) }));
  const agent = (agentType: string, o: Body = {}) => f({ capability: 'agent', prompt, images: imgs(4), pixverse: { agentType }, ...o });
  const refs = [{ type: 'subject', imageUrl: `${U}cat.png`, refName: 'cat' }];
  return [
    valid(C, 'text_to_video', f()),
    valid(C, 'image_to_video', f({ capability: 'image_to_video', images: imgs(1) })),
    valid(C, 'transition', f({ capability: 'transition', images: imgs(2) })),
    valid(C, 'multi_transition', { capability: 'multi_transition', pixverse: { multiTransition: [{ imageUrl: `${U}a.png` }, { imageUrl: `${U}b.png` }] } }),
    valid(C, 'fusion', f({ capability: 'fusion', prompt: 'the @cat in a garden', pixverse: { imageReferences: refs } })),
    valid(C, 'mimic', { capability: 'mimic', images: imgs(1), videos: vids(1, 10) }),
    valid(C, 'lip_sync with audio', { capability: 'lip_sync', videos: vids(1), audios: auds(1, 10) }),
    valid(C, 'lip_sync with tts', { capability: 'lip_sync', videos: vids(1), pixverse: { tts: { speakerId: 'en_ava', content: 'hello there' } } }),
    valid(C, 'agent promo_mix', agent('promo_mix')),
    valid(C, 'agent ad_master', agent('ad_master', { images: imgs(1), duration: 20, quality: '1080p' })),
    valid(C, 'audio with an image', f({ capability: 'image_to_video', images: imgs(1), audios: auds(1) })),
    breaks(C, 'family5.agent.duration', 'agent 25 s', agent('promo_mix', { duration: 25 })),
    breaks(C, 'family5.agent.quality', 'agent 540p', agent('promo_mix', { quality: '540p' })),
    breaks(C, 'family5.agent.agent-type', 'agent without agentType', f({ capability: 'agent', images: imgs(4) })),
    breaks(C, 'family5.mimic.quality', 'mimic 1080p', { capability: 'mimic', images: imgs(1), videos: vids(1), quality: '1080p' }),
    breaks(C, 'family5.prompt-required', 'text_to_video without prompt', { capability: 'text_to_video' }),
    breaks(C, 'family5.prompt-required', 'image_to_video with a blank prompt', f({ capability: 'image_to_video', images: imgs(1), prompt: '   ' })),
    breaks(
      C,
      'family5.audio-needs-visual',
      'audio alone',
      f({ capability: 'multi_transition', audios: auds(1), pixverse: { multiTransition: [{ imageUrl: `${U}a.png` }, { imageUrl: `${U}b.png` }] } }),
    ),
    breaks(C, 'family5.text_to_video.no-assets', 'text_to_video with an image', f({ images: imgs(1) })),
    breaks(C, 'family5.image_to_video.images', 'image_to_video without images', f({ capability: 'image_to_video' })),
    breaks(C, 'family5.transition.images', 'transition with 3 images', f({ capability: 'transition', images: imgs(3) })),
    breaks(C, 'family5.multi_transition.clips', 'multi_transition without clips', { capability: 'multi_transition' }),
    breaks(C, 'family5.multi_transition.no-assets', 'multi_transition with a video', {
      capability: 'multi_transition',
      videos: vids(1),
      pixverse: { multiTransition: [{ imageUrl: `${U}a.png` }, { imageUrl: `${U}b.png` }] },
    }),
    breaks(C, 'family5.fusion.references', 'fusion without references', f({ capability: 'fusion' })),
    breaks(C, 'family5.restyle.source', 'restyle without a source', { capability: 'restyle', pixverse: { restyleId: 'style_1' } }),
    breaks(C, 'family5.restyle.restyle-id', 'restyle without restyleId', { capability: 'restyle', pixverse: { sourceVideoId: 'v_1' } }),
    breaks(C, 'family5.restyle.no-assets', 'restyle with an image', {
      capability: 'restyle',
      images: imgs(1),
      pixverse: { sourceVideoId: 'v_1', restyleId: 's_1' },
    }),
    valid(C, 'restyle', { capability: 'restyle', pixverse: { sourceVideoId: 'v_1', restyleId: 's_1' } }),
    breaks(C, 'family5.mimic.assets', 'mimic without a video', { capability: 'mimic', images: imgs(1) }),
    breaks(C, 'family5.mimic.video-duration', 'mimic video of 40 s', { capability: 'mimic', images: imgs(1), videos: vids(1, 40) }),
    breaks(C, 'family5.lip_sync.source', 'lip_sync with a video and a source id', {
      capability: 'lip_sync',
      videos: vids(1),
      audios: auds(1),
      pixverse: { sourceVideoId: 'v_1' },
    }),
    breaks(C, 'family5.lip_sync.source', 'lip_sync without a source', { capability: 'lip_sync', audios: auds(1), images: imgs(1) }),
    breaks(C, 'family5.lip_sync.audio-source', 'lip_sync with audio and tts', {
      capability: 'lip_sync',
      videos: vids(1),
      audios: auds(1),
      pixverse: { tts: { speakerId: 'en_ava', content: 'hi' } },
    }),
    breaks(C, 'family5.lip_sync.audio-source', 'lip_sync without audio', { capability: 'lip_sync', videos: vids(1) }),
    breaks(C, 'family5.lip_sync.audio-duration', 'lip_sync audio of 3 s', { capability: 'lip_sync', videos: vids(1), audios: auds(1, 3) }),
    breaks(C, 'family5.agent.promo-mix-images', 'promo_mix with 3 images', agent('promo_mix', { images: imgs(3) })),
    breaks(C, 'family5.agent.ad-master-images', 'ad_master without images', agent('ad_master', { images: [] })),
    breaks(C, 'family5.agent.ad-master-videos', 'ad_master with a video', agent('ad_master', { videos: vids(1) })),
    breaks(C, 'x-rules:0', 'fusion prompt without @cat', f({ capability: 'fusion', prompt: 'a garden', pixverse: { imageReferences: refs } })),
    valid(E, 'text_to_video', family5EstimateBody()),
    valid(E, 'agent', family5EstimateBody({ capability: 'agent', duration: 60, quality: '720p', pixverse: { agentType: 'ad_master' } })),
    breaks(E, 'family5.agent.duration', 'agent 25 s', family5EstimateBody({ capability: 'agent', duration: 25, pixverse: { agentType: 'ad_master' } })),
    breaks(E, 'family5.agent.quality', 'agent 360p', family5EstimateBody({ capability: 'agent', quality: '360p', pixverse: { agentType: 'ad_master' } })),
    breaks(E, 'family5.agent.agent-type', 'agent without agentType', family5EstimateBody({ capability: 'agent' })),
    breaks(E, 'family5.mimic.quality', 'mimic 540p', family5EstimateBody({ capability: 'mimic', quality: '540p' })),
  ];
}

// ---------------------------------------------------------------------------
// Images
// ---------------------------------------------------------------------------

function imageCases(): RuleCase[] {
  const out: RuleCase[] = [];
  for (const [op, body] of [
    ['createImageTask', imageBody],
    ['estimateImageCredits', imageEstimateBody],
  ] as const) {
    for (const id of imageModelIds) {
      const m: ImageModel = imageModels[id];
      const fam = imageFamilies[m.family];
      const max = Math.min(fam.maxReferenceImages, MAX_REFERENCE_IMAGES);
      out.push(
        valid(
          op,
          `${id} with ${max} references`,
          body({ model: id, referenceImages: imageRefs(max), imageConfig: { imageSize: '1K', aspectRatio: m.ratios[0] } }),
        ),
      );
      out.push(breaks(op, `image.references-max.${m.family}`, `${id} with ${max + 1} references`, body({ model: id, referenceImages: imageRefs(max + 1) })));
      const noSize = imageSizes.find((z) => !(m.sizes as readonly string[]).includes(z));
      if (noSize) out.push(breaks(op, `image.size.${id}`, `${id} at ${noSize}`, body({ model: id, imageConfig: { imageSize: noSize } })));
      if (m.fourKTextToImageOnly) {
        out.push(valid(op, `${id} 4K text to image`, body({ model: id, imageConfig: { imageSize: '4K' } })));
        out.push(
          breaks(
            op,
            `image.4k-text-only.${id}`,
            `${id} 4K with a reference`,
            body({ model: id, referenceImages: imageRefs(1), imageConfig: { imageSize: '4K' } }),
          ),
        );
      }
      const noRatio = allImageRatios.find((r) => !m.ratios.includes(r)) ?? '7:3';
      if (fam.unsupportedRatioError && noRatio)
        out.push(breaks(op, `image.ratio.${id}`, `${id} at ${noRatio}`, body({ model: id, imageConfig: { aspectRatio: noRatio } })));
      // document 1: "image-c accepts any ratio (validated on size only)"
      if (!fam.unsupportedRatioError)
        for (const ratio of ['7:3', '100:1', '1:250', '2000:3'])
          out.push(valid(op, `${id} takes any ratio: ${ratio}`, body({ model: id, imageConfig: { aspectRatio: ratio } })));
    }
    for (const [legacy, id] of Object.entries(legacyImageModelIds)) {
      const fam = imageFamilies[imageModels[id].family];
      out.push(
        breaks(
          op,
          `image.references-max.${imageModels[id].family}`,
          `${legacy} with too many references`,
          body({ model: legacy, referenceImages: imageRefs(fam.maxReferenceImages + 1) }),
        ),
      );
    }
    out.push(
      breaks(op, 'image.references-max.image-a', 'the default model with 5 references', body({ model: undefined, referenceImages: imageRefs(5) })),
      breaks(op, 'image.reference-has-data', 'a reference without data', body({ referenceImages: [{}] })),
      valid(op, 'an inline reference', body({ referenceImages: [{ inlineData: { data: 'iVBORw0KGgo=', mimeType: 'image/png' } }] })),
    );
  }
  out.push(breaks('createImageTask', 'image.prompt-not-blank', 'a blank prompt', imageBody({ prompt: '  ' })));
  out.push(valid('estimateImageCredits', 'a blank prompt', imageEstimateBody({ prompt: '  ' })));
  return out;
}

// ---------------------------------------------------------------------------
// Generated audio (both services: one body schema each, the same rules)
// ---------------------------------------------------------------------------

const PNG_B64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

function generatedAudioCases(): RuleCase[] {
  const out: RuleCase[] = [];
  for (const op of ['createPlatformVoiceTask', 'createSeedAudioTask'] as const) {
    const b = (o: Body = {}): Body => ({ text: 'Rain on a tin roof, then thunder far away.', durationHint: 5, ...o });
    const sp = (id = 'en_ava') => ({ type: 'speaker', id });
    const v = (rule: string, name: string, o: Body) => out.push(breaks(op, rule, name, b(o)));
    out.push(
      valid(op, 'narration', b()),
      valid(op, 'dialogue of two', b({ text: '@音频1 Hello.\n@音频2 Hi there.', voices: [sp(), sp('en_noah')] })),
      valid(op, 'a reference voice', b({ voices: [{ type: 'reference', url: 'https://example.com/v.mp3' }] })),
      valid(op, 'an image by data', b({ image: { data: `data:image/png;base64,${PNG_B64}` } })),
      valid(op, 'an image by url', b({ image: { url: 'https://example.com/a.png' } })),
      valid(op, 'a tag inside a line is text', b({ text: 'say @音频7 aloud', voices: [sp()] })),
    );
    v('gen-audio.text-length', '1,401 characters', { text: 'a'.repeat(1401) });
    v('gen-audio.text-not-blank', 'blank text', { text: '   ' });
    v('gen-audio.voices-max', 'four voices', { voices: [sp(), sp(), sp(), sp()] });
    v('gen-audio.voices-min', 'no voices', { voices: [] });
    v('gen-audio.voice-id-or-url', 'id and url', { voices: [{ type: 'speaker', id: 'en_ava', url: 'https://example.com/v.mp3' }] });
    v('gen-audio.speaker-needs-id', 'a speaker without id', { voices: [{ type: 'speaker' }] });
    v('gen-audio.reference-needs-url', 'a reference without url', { voices: [{ type: 'reference' }] });
    v('gen-audio.voice-url-http', 'an ftp reference', { voices: [{ type: 'reference', url: 'ftp://example.com/v.mp3' }] });
    v('gen-audio.voices-or-image', 'voices and image', { voices: [sp()], image: { url: 'https://example.com/a.png' } });
    v('gen-audio.dialogue-voice-1', '@音频1 without voices', { text: '@音频1 Hello.' });
    v('gen-audio.dialogue-voice-2', '@音频2 with one voice', { text: '@音频1 Hello.\n  @音频2 Hi.', voices: [sp()] });
    v('gen-audio.dialogue-voice-3', '@音频3 with two voices', { text: '@音频3 Hello.', voices: [sp(), sp()] });
    v('gen-audio.dialogue-voice-range', '@音频0', { text: '@音频0 Hello.', voices: [sp()] });
    v('gen-audio.dialogue-voice-range', '@音频12', { text: 'One.\n@音频12 Hello.', voices: [sp()] });
    v('gen-audio.image-url-or-data', 'an empty image', { image: {} });
    v('gen-audio.image-url-http', 'an image on ftp', { image: { url: 'ftp://example.com/a.png' } });
    v('x-rules:0', 'image data that is not an image', { image: { data: 'aGVsbG8gd29ybGQh' } });
  }
  return out;
}

// ---------------------------------------------------------------------------
// Podcast, page-deck episodes, lyrics
// ---------------------------------------------------------------------------

function podcastCases(): RuleCase[] {
  const out: RuleCase[] = [];
  for (const [op, b] of [
    ['createPodcastEpisode', podcastBody],
    ['createPodcastTextContent', podcastTextBody],
  ] as const) {
    const text = (content: string) => ({ type: 'text', content });
    out.push(
      valid(op, 'a query', b()),
      valid(
        op,
        'sources and an empty query',
        b({ query: '', sources: [text('Some material to talk about.'), { type: 'url', content: 'https://example.com/a' }] }),
      ),
      valid(op, 'a debate', b({ mode: 'debate' })),
      breaks(op, 'podcast.query-length', 'a query of 2,001', b({ query: 'q'.repeat(2001) })),
      breaks(op, 'podcast.query-or-sources', 'neither', b({ query: undefined })),
      breaks(op, 'podcast.query-or-sources', 'a blank query and no sources', b({ query: '  ', sources: [] })),
      breaks(op, 'podcast.text-source', 'a blank text source', b({ sources: [text('  ')] })),
      breaks(op, 'podcast.text-source', 'a text source of 20,001', b({ sources: [text('a'.repeat(20_001))] })),
      breaks(op, 'podcast.url-source', 'an ftp source', b({ sources: [{ type: 'url', content: 'ftp://example.com/a' }] })),
      breaks(op, 'podcast.debate-speakers', 'a debate of one', b({ mode: 'debate', speakers: [{ speakerId: 'en_ava' }] })),
      breaks(op, 'podcast.distinct-speakers', 'the same voice twice', b({ speakers: [{ speakerId: 'en_ava' }, { speakerId: 'en_ava' }] })),
      breaks(op, 'x-rules:0', 'a url source with a space', b({ sources: [{ type: 'url', content: 'https://example.com/a b' }] })),
    );
  }
  return out;
}

function storybookCases(): RuleCase[] {
  const op = 'createStorybookEpisode' as const;
  const b = storybookBody;
  return [
    valid(op, 'a text', b()),
    valid(op, 'a url', b({ sources: [{ type: 'url', content: 'https://example.com/a' }] })),
    valid(op, 'skipAudio without speakers', b({ skipAudio: true, speakers: undefined })),
    breaks(op, 'storybook.text-source', 'a blank text', b({ sources: [{ type: 'text', content: ' ' }] })),
    breaks(op, 'storybook.text-source', 'a text of 20,001', b({ sources: [{ type: 'text', content: 'a'.repeat(20_001) }] })),
    breaks(op, 'storybook.url-source', 'a url that is not http', b({ sources: [{ type: 'url', content: 'example.com/a' }] })),
    breaks(op, 'storybook.speakers-unless-skip-audio', 'no speakers', b({ speakers: undefined })),
    breaks(op, 'storybook.speakers-unless-skip-audio', 'no speakers, skipAudio false', b({ speakers: [], skipAudio: false })),
    breaks(op, 'x-rules:0', 'a url with a space', b({ sources: [{ type: 'url', content: 'https://example.com/a b' }] })),
  ];
}

function lyricsCases(): RuleCase[] {
  const op = 'createLyricsTask' as const;
  return [
    valid(op, 'a prompt', lyricsBody()),
    valid(op, 'a prompt of 200 emoji', lyricsBody({ prompt: '🎵'.repeat(200) })),
    breaks(op, 'lyrics.prompt-length', 'a prompt of 201', lyricsBody({ prompt: 'a'.repeat(201) })),
    breaks(op, 'lyrics.prompt-not-blank', 'a blank prompt', lyricsBody({ prompt: '   ' })),
  ];
}

function speedCases(): RuleCase[] {
  return [
    valid('synthesizeSpeech', 'speed 1.1', ttsBody({ speed: 1.1 })),
    // 1.15 / 0.01 is 114.99999999999999 in binary floating point: the value multipleOf 0.01 made validators refuse
    valid('synthesizeSpeech', 'speed 1.15', ttsBody({ speed: 1.15 })),
    valid('createSpeechScript', 'speed 0.55', speechBody({ speed: 0.55 })),
    valid('createSpeechScript', 'speed 1.15', speechBody({ speed: 1.15 })),
    // the two-decimal rule is an x-rules entry (schemas/speech.ts, speedRule): ajv accepts these, the mock refuses
    breaks('synthesizeSpeech', 'x-rules:2', 'speed 1.005', ttsBody({ speed: 1.005 })),
    breaks('createSpeechScript', 'x-rules:3', 'speed 1.333', speechBody({ speed: 1.333 })),
  ];
}

// ---------------------------------------------------------------------------
// Speech, voice cloning, extraction
// ---------------------------------------------------------------------------

function speechCases(): RuleCase[] {
  const out: RuleCase[] = [];
  const line = (n: number, speakerId = 'en_ava') => ({ speakerId, content: 'a'.repeat(n) });
  for (const [op, b] of [
    ['createSpeechScript', speechBody],
    ['createFlowSpeechTtsEpisode', flowSpeechTtsBody],
  ] as const) {
    out.push(
      valid(op, 'two voices', b()),
      valid(op, 'two lines of 10,000 (20,000 together)', b({ scripts: [line(10_000), line(10_000, 'en_noah')] })),
      valid(op, 'one line of 20,000 emoji', b({ scripts: [{ speakerId: 'en_ava', content: '😀'.repeat(20_000) }] })),
      breaks(op, 'speech.script-line-length', 'one line of 20,001', b({ scripts: [line(20_001)] })),
      breaks(op, 'x-rules:0', 'two lines of 10,001 (20,002 together)', b({ scripts: [line(10_001), line(10_001, 'en_noah')] })),
    );
  }
  const op = 'createFlowSpeechEpisode' as const;
  const src = (s: Body) => flowSpeechBody({ sources: [s] });
  out.push(
    valid(op, 'a text', flowSpeechBody()),
    valid(op, 'a text of 10 Japanese characters', src({ type: 'text', content: 'これは日本語の文です' })),
    valid(op, 'a text of 10 Kangxi radicals (Han, not letters)', src({ type: 'text', content: '⼀⼁⼂⼃⼄⼅⼆⼇⼈⼉' })),
    valid(op, 'a text of 20,000', src({ type: 'text', content: 'a'.repeat(20_000) })),
    valid(op, 'a url by uri', src({ type: 'url', uri: 'https://example.com/a' })),
    valid(op, 'a url by uri, content ignored', src({ type: 'url', uri: 'https://example.com/a', content: 'not a url' })),
    valid(op, 'a url by content', src({ type: 'url', content: 'HTTPS://example.com/a' })),
    breaks(op, 'flow-speech.text-content', 'a text without content', src({ type: 'text', uri: 'https://example.com/a' })),
    breaks(op, 'flow-speech.text-length', 'a text of 9', src({ type: 'text', content: 'abcdefghi' })),
    breaks(op, 'flow-speech.text-length', 'a text of 20,001', src({ type: 'text', content: 'a'.repeat(20_001) })),
    breaks(op, 'flow-speech.text-readable', 'punctuation only', src({ type: 'text', content: '... !!! ??? ---' })),
    breaks(op, 'flow-speech.url-source', 'a url without uri or content', src({ type: 'url' })),
    breaks(op, 'flow-speech.url-uri-http', 'an ftp uri', src({ type: 'url', uri: 'ftp://example.com/a' })),
    breaks(op, 'flow-speech.url-content-http', 'content that is not http', src({ type: 'url', content: 'example.com/a' })),
    breaks(op, 'x-rules:0', 'content with a space', src({ type: 'url', content: 'https://example.com/a b' })),
  );
  return out;
}

/** A confirmed private voice of KEY on `mock`: cloned, processed, confirmed. */
async function confirmedVoice(mock: InProcessMock): Promise<Record<string, string>> {
  const auth = { authorization: `Bearer ${KEY}` };
  const created = (await (await mock.fetch('/v1/voice-clone/clone', { method: 'POST', headers: auth, body: cloneForm() })).json()) as {
    data: { taskId: string };
  };
  mock.advance(cloneSchedule.pendingMs + cloneSchedule.processingMs);
  const confirmed = (await (
    await mock.fetch('/v1/voice-clone/confirm', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ taskId: created.data.taskId, name: 'Narrator', gender: 'female' }),
    })
  ).json()) as { data: { speakerId: string } };
  return { speakerId: confirmed.data.speakerId };
}

function voiceCloneCases(): RuleCase[] {
  const op = 'createVoiceClone' as const;
  const b = (o: Body = {}): Body => ({ audioFiles: [wavBytes(6)], language: 'en', consentConfirmed: true, ...o });
  const U = 'updatePrivateVoice' as const;
  return [
    valid(op, 'one file', b()),
    valid(op, 'autoConfirm with name and gender', b({ autoConfirm: true, name: 'Narrator', gender: 'other' })),
    valid(op, 'name without autoConfirm', b({ name: 'Narrator' })),
    breaks(op, 'voice-clone.consent', 'consent false', b({ consentConfirmed: false })),
    breaks(op, 'voice-clone.auto-confirm-name', 'autoConfirm without name', b({ autoConfirm: true, gender: 'male' })),
    breaks(op, 'voice-clone.auto-confirm-gender', 'autoConfirm without gender', b({ autoConfirm: true, name: 'Narrator' })),
    breaks(op, 'x-rules:0', 'a file that is not audio', b({ audioFiles: [new TextEncoder().encode('hello, not audio')] })),
    { ...valid(U, 'a new name', { name: 'Narrator (warm)' }), params: confirmedVoice },
    { ...valid(U, 'a new gender', { gender: 'male' }), params: confirmedVoice },
    { ...breaks(U, 'voice-clone.update-something', 'neither name nor gender', {}), params: confirmedVoice },
  ];
}

function extractionCases(): RuleCase[] {
  const op = 'createExtraction' as const;
  return [
    valid(op, 'a web page', extractBody()),
    valid(op, 'HTTP in capitals', extractBody('HTTP://example.com/a')),
    valid(op, 'a microblog profile with a count', extractBody('https://x.com/someone', { twitter: { count: 5 } })),
    breaks(op, 'extraction.uri-http', 'an ftp URL', extractBody('ftp://example.com/a')),
    breaks(op, 'extraction.uri-http', 'a mailto URI', extractBody('mailto:someone@example.com')),
  ];
}

// ---------------------------------------------------------------------------
// Music and music analysis (the uploads are multipart forms)
// ---------------------------------------------------------------------------

const mp3 = () => formFile('song.mp3', mp3Bytes({ seconds: 5 }));
const jpeg = () => formFile('cover.jpg', magicFiles.jpeg);
const SONG_ID = 'ma_1a2b3c4d5e6f7a8b_0';

function musicGenerateCases(): RuleCase[] {
  const op = 'generateMusic' as const;
  const b = musicBody;
  const musicB = (o: Body = {}) => b({ provider: 'musicB', ...o });
  return [
    valid(op, 'musicA with lyrics', b()),
    valid(op, 'an instrumental from style', b({ instrumental: true, prompt: undefined, lyrics: undefined, style: 'ambient pads' })),
    valid(op, 'musicB, prompt as lyrics', musicB({ lyrics: undefined, providerParams: { personaId: 'p_1', personaModel: 'V6', extra: 1 } })),
    valid(op, 'musicB without custom mode', musicB({ customMode: false, lyrics: undefined, model: 'V6' })),
    valid(op, 'musicA ignores unknown providerParams keys', b({ providerParams: { unknown: 'x' } })),
    breaks(op, 'music.generate.model.musicA', 'a musicB tier on musicA', b({ model: 'V6' })),
    breaks(op, 'music.generate.model.musicA', 'a musicB tier on the default provider', b({ provider: undefined, model: 'V5' })),
    breaks(op, 'music.generate.model.musicB', 'a musicA model on musicB', musicB({ model: 'musicA-8' })),
    breaks(op, 'music.generate.vocal-id-musicA-only', 'vocalId on musicB', musicB({ vocalId: 'v_1' })),
    breaks(op, 'music.generate.custom-mode-musicB-only', 'customMode on musicA', b({ customMode: true })),
    breaks(op, 'music.generate.provider-params-musicB-only', 'a musicB parameter on musicA', b({ providerParams: { styleWeight: 0.5 } })),
    breaks(op, 'music.generate.text-length', 'a vocalId of 201', b({ vocalId: 'v'.repeat(201) })),
    breaks(op, 'music.generate.text-length', 'a title of 101 emoji', b({ title: '🎵'.repeat(101) })),
    breaks(op, 'music.generate.provider-params-text-length', 'negativeTags of 1,001', musicB({ providerParams: { negativeTags: 'x'.repeat(1001) } })),
    breaks(op, 'music.generate.persona-model-needs-id', 'personaModel alone', musicB({ providerParams: { personaModel: 'V6' } })),
    breaks(
      op,
      'music.generate.instrumental-needs-description',
      'an instrumental with a blank prompt',
      b({ instrumental: true, prompt: '  ', lyrics: undefined }),
    ),
    breaks(op, 'music.generate.musicA-lyrics', 'musicA without lyrics', b({ lyrics: undefined })),
    breaks(op, 'music.generate.musicA-lyrics', 'musicA with blank lyrics', b({ lyrics: ' \n ' })),
    breaks(op, 'music.generate.musicB-prompt-without-custom-mode', 'customMode false without prompt', musicB({ customMode: false, prompt: undefined })),
    breaks(op, 'music.generate.musicB-lyrics-or-prompt', 'musicB custom mode with neither', musicB({ lyrics: undefined, prompt: ' ' })),
  ];
}

function musicCoverCases(): RuleCase[] {
  const op = 'coverMusic' as const;
  const b = musicCoverBody;
  const free = (o: Body = {}) => b({ customMode: false, style: undefined, title: undefined, ...o });
  return [
    valid(op, 'custom mode', b()),
    valid(op, 'custom mode instrumental', b({ instrumental: true, prompt: undefined, providerParams: { personaId: 'p_1' } })),
    valid(op, 'customMode false', free()),
    breaks(op, 'music.cover.upload-url-http', 'an ftp uploadUrl', b({ uploadUrl: 'ftp://example.com/a.mp3' })),
    breaks(op, 'music.cover.text-length', 'a style of 1,001', b({ style: 's'.repeat(1001) })),
    breaks(op, 'music.cover.provider-params-text-length', 'a personaId of 201', b({ providerParams: { personaId: 'p'.repeat(201) } })),
    breaks(op, 'music.cover.persona-model-needs-id', 'personaModel alone', b({ providerParams: { personaModel: 'V5' } })),
    breaks(op, 'music.cover.custom-style', 'custom mode without style', b({ style: undefined })),
    breaks(op, 'music.cover.custom-title', 'custom mode with a blank title', b({ title: '  ' })),
    breaks(op, 'music.cover.custom-prompt', 'custom mode without prompt', b({ prompt: undefined })),
    breaks(op, 'music.cover.prompt-without-custom-mode', 'customMode false without prompt', free({ prompt: undefined })),
    breaks(op, 'music.cover.persona-custom-only', 'personaId with customMode false', free({ providerParams: { personaId: 'p_1' } })),
  ];
}

function musicUploadCases(): RuleCase[] {
  const I = 'generateInstrumental' as const;
  const S = 'generateSoundtrack' as const;
  const T = 'generateTrack' as const;
  const R = 'remixMusic' as const;
  const E = 'extendMusic' as const;
  const track = (o: Body = {}): Body => ({ ...musicFormFields.track, audio: mp3(), ...o });
  const remix = (o: Body = {}): Body => ({ ...musicFormFields.remix, audio: mp3(), ...o });
  const extend = (o: Body = {}): Body => ({ taskId: 'mus_1a2b3c4d5e6f7a8b', ...o });
  return [
    valid(I, 'a prompt', { ...musicFormFields.instrumental }),
    valid(I, 'reference audio', { referenceAudio: mp3(), model: 'musicA-8' }),
    breaks(I, 'music.instrumental.prompt-or-reference-audio', 'neither', { model: 'auto' }),
    breaks(I, 'music.instrumental.prompt-or-reference-audio', 'both', { prompt: 'piano', referenceAudio: mp3() }),
    breaks(I, 'music.instrumental.prompt-not-blank', 'a blank prompt', { prompt: '   ' }),
    breaks(I, 'music.instrumental.text-length', 'a prompt of 5,001', { prompt: 'p'.repeat(5001) }),
    valid(S, 'an image', { ...musicFormFields.soundtrack, image: jpeg() }),
    breaks(S, 'music.soundtrack.image-or-video', 'neither', { ...musicFormFields.soundtrack }),
    breaks(S, 'music.soundtrack.image-or-video', 'both', { image: jpeg(), video: formFile('clip.mp4', magicFiles.mp4) }),
    breaks(S, 'music.soundtrack.prompt-not-blank', 'a blank prompt', { image: jpeg(), prompt: ' ' }),
    breaks(S, 'music.soundtrack.text-length', 'a prompt of 5,001', { image: jpeg(), prompt: 'p'.repeat(5001) }),
    valid(T, 'a bass line over an upload', track()),
    valid(T, 'vocals in a window', track({ generateType: 'Vocals', lyrics: 'la la la', vocalGender: 'female', generateStart: 1, generateEnd: 3 })),
    breaks(T, 'music.track.audio-or-song-id', 'neither', track({ audio: undefined })),
    breaks(T, 'music.track.audio-or-song-id', 'both', track({ providerSongId: SONG_ID })),
    breaks(T, 'music.track.prompt-not-blank', 'a blank prompt', track({ prompt: ' ' })),
    breaks(T, 'music.track.text-length', 'lyrics of 5,001', track({ generateType: 'Vocals', lyrics: 'l'.repeat(5001) })),
    breaks(T, 'music.track.vocals-need-lyrics', 'Vocals without lyrics', track({ generateType: 'Vocals' })),
    breaks(T, 'music.track.vocal-gender-vocals-only', 'vocalGender on Drums', track({ generateType: 'Drums', vocalGender: 'male' })),
    breaks(T, 'x-rules:0', 'generateEnd before generateStart', track({ generateStart: 3, generateEnd: 2 })),
    valid(R, 'an upload', remix()),
    breaks(R, 'music.remix.one-source', 'no source', remix({ audio: undefined })),
    breaks(R, 'music.remix.one-source', 'an upload and a song id', remix({ providerSongId: SONG_ID })),
    breaks(R, 'music.remix.not-blank', 'blank lyrics', remix({ lyrics: '  ' })),
    breaks(R, 'music.remix.text-length', 'a song id of 201', remix({ audio: undefined, providerSongId: 'm'.repeat(201) })),
    breaks(R, 'music.remix.audio-url-http', 'an ftp audioUrl', remix({ audio: undefined, audioUrl: 'ftp://example.com/a.mp3' })),
    {
      ...valid(E, 'a succeeded task of the caller', { continueAt: 30, prompt: 'a long outro' }),
      prepare: async (mock) => {
        const res = await mock.fetch('/v1/music/generate', {
          method: 'POST',
          headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify(musicBody()),
        });
        const taskId = ((await res.json()) as { data: { taskId: string } }).data.taskId;
        mock.advance(600_000);
        return { taskId };
      },
    },
    breaks(E, 'music.extend.track-index-or-song-id', 'trackIndex and providerSongId', extend({ trackIndex: 0, providerSongId: SONG_ID })),
    breaks(E, 'music.extend.text-length', 'lyrics of 5,001', extend({ lyrics: 'l'.repeat(5001) })),
  ];
}

function musicAnalysisCases(): RuleCase[] {
  const out: RuleCase[] = [];
  for (const op of ['recognizeMusic', 'separateMusicStems'] as const) {
    out.push(
      valid(op, 'a public audioUrl', { audioUrl: 'https://example.com/songs/sunrise.mp3' }),
      breaks(op, 'music-analysis.one-source', 'neither', {}),
      breaks(op, 'music-analysis.one-source', 'both', { audio: mp3(), audioUrl: 'https://example.com/a.mp3' }),
      breaks(op, 'music-analysis.audio-url-http', 'an ftp audioUrl', { audioUrl: 'ftp://example.com/a.mp3' }),
    );
  }
  return out;
}

/** Every case of the table. */
export function ruleCases(): RuleCase[] {
  return [
    ...speedCases(),
    ...sharedCases(),
    ...family5Cases(),
    ...imageCases(),
    ...generatedAudioCases(),
    ...podcastCases(),
    ...storybookCases(),
    ...lyricsCases(),
    ...speechCases(),
    ...voiceCloneCases(),
    ...extractionCases(),
    ...musicGenerateCases(),
    ...musicCoverCases(),
    ...musicUploadCases(),
    ...musicAnalysisCases(),
  ];
}
