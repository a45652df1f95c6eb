/**
 * Requests of the shared video endpoint (families 1-4; schemas/video.ts
 * re-exports them): content items, the create and estimate bodies and their
 * rules, read from the tables. Seed: document 1, "Content items (shared video
 * endpoint)", "Video: create task (shared)", "Video: estimate (shared)".
 */
import { z } from '../zod.ts';
import { js, rule, whenSchema, withRules, type BodyRule, type JsonSchema } from '../rules.ts';
import { uriString } from '../common.ts';
import { assumed, provenanceMeta } from '../provenance.ts';
import {
  videoResolutions,
  videoRatios,
  type VideoResolution,
  type SharedVideoModel,
  sharedVideoModels,
  type SharedVideoModelId,
  sharedVideoModelIds,
  DEFAULT_SHARED_VIDEO_MODEL,
  MAX_VIDEO_SEED,
  DEFAULT_VIDEO_DURATION,
  VIDEO_DURATION_FIELD,
  contentLimits,
  frameRoles,
  referenceRoles,
  renderSharedModelTable,
} from './tables.ts';

// ---------------------------------------------------------------------------
// Shared endpoint: content items and create request
// ---------------------------------------------------------------------------

export const Url = uriString().meta({
  description: 'http(s) URL or data: URI of the asset (a URI: spaces and non-ASCII characters percent-encoded)',
  example: 'https://example.com/cat.png',
});

export const TextContentItem = z.object({
  type: z.literal('text'),
  text: z
    .string()
    .min(1)
    .max(contentLimits.maxTextLength)
    .meta({ description: `prompt text, up to ${contentLimits.maxTextLength} characters; family1 models reject more than 1500` }),
});
export const ImageContentItem = z.object({
  type: z.literal('image_url'),
  image_url: z.object({ url: Url }),
  role: z
    .enum(['first_frame', 'last_frame', 'reference_image'])
    .optional()
    .meta(
      provenanceMeta(
        assumed('the document does not say what an image without a role means; it counts as reference_image'),
        'first_frame, last_frame or reference_image (default reference_image)',
      ),
    ),
});
export const VideoContentItem = z.object({
  type: z.literal('video_url'),
  video_url: z.object({ url: Url }),
  role: z.literal('reference_video').optional(),
});
export const AudioContentItem = z.object({
  type: z.literal('audio_url'),
  audio_url: z.object({ url: Url }),
  role: z.literal('reference_audio').optional(),
});
/** One content item of the shared endpoint (document 1, "Content items (shared video endpoint)"). */
export const ContentItem = z.discriminatedUnion('type', [TextContentItem, ImageContentItem, VideoContentItem, AudioContentItem]).openapi('VideoContentItem');
export type ContentItem = z.infer<typeof ContentItem>;

/** Effective role of a content item (absent roles default to the reference role, assumed). */
export function contentRole(item: ContentItem): string | undefined {
  switch (item.type) {
    case 'text':
      return undefined;
    case 'image_url':
      return item.role ?? 'reference_image';
    case 'video_url':
      return 'reference_video';
    case 'audio_url':
      return 'reference_audio';
  }
}

const sharedModelField = z.enum(sharedVideoModelIds).meta({ description: 'model id; the shared endpoint does not accept family5' });

const sharedCreateBase = z.object({
  model: sharedModelField.default(DEFAULT_SHARED_VIDEO_MODEL),
  content: z.array(ContentItem).min(contentLimits.minItems).max(contentLimits.maxItems).meta({ description: 'content items, 1-16' }),
  // the document's default (720p) as the schema's; family3-h3 takes no 720p, so an absent resolution is 768p there (assumed)
  resolution: z
    .enum(videoResolutions)
    .optional()
    .meta({ description: 'default 720p (768p on family3-h3, assumed); limited per model' })
    .openapi({ default: '720p' }),
  ratio: z.enum(videoRatios).default('16:9').meta({ description: 'limited per model; family3-h3 ignores it for image-to-video' }),
  duration: z
    .number()
    .int()
    .min(VIDEO_DURATION_FIELD.min)
    .max(VIDEO_DURATION_FIELD.max)
    .default(DEFAULT_VIDEO_DURATION)
    .meta({ description: 'seconds; family1 and family3-h3 4-15, family2 2-30, family4 3-15' }),
  generateAudio: z.boolean().default(true).meta({ description: 'ignored by family3-h3 (always has a sound track)' }),
  seed: z
    .number()
    .int()
    .min(-1)
    .max(MAX_VIDEO_SEED)
    .default(-1)
    .meta({ description: `-1 means random; ignored by family3-h3; at most ${MAX_VIDEO_SEED}` }),
  inputVideoDuration: z.number().int().min(0).default(0).meta({ description: 'seconds of the input video; required when content has video_url' }),
  audioSetting: z
    .enum(['auto', 'origin'])
    .default('auto')
    .meta({ description: 'auto generates audio; origin keeps the source video audio (video-edit workflows)' }),
});

/** Resolution used for a shared request: the request's, else the model's default. */
export function effectiveResolution(model: SharedVideoModelId, resolution: VideoResolution | undefined): VideoResolution {
  return resolution ?? sharedVideoModels[model].defaultResolution;
}

/** Model ids of the shared endpoint whose table entry satisfies `pick`. */
const modelsWhere = (pick: (m: SharedVideoModel) => boolean) => sharedVideoModelIds.filter((id) => pick(sharedVideoModels[id]));
/** Model ids grouped by the value `key` reads from each, in table order. */
function modelsBy<V extends string | number>(key: (m: SharedVideoModel) => V | undefined): [V, SharedVideoModelId[]][] {
  const out = new Map<V, SharedVideoModelId[]>();
  for (const id of sharedVideoModelIds) {
    const v = key(sharedVideoModels[id]);
    if (v !== undefined) out.set(v, [...(out.get(v) ?? []), id]);
  }
  return [...out];
}

/** Fragments of content items (document 1, "Content items"): by type, and by role (a role-less image is a reference image, assumed). */
const itemOf = (type: ContentItem['type']): JsonSchema => ({ properties: { type: { const: type } }, required: ['type'] });
const frameItem = (role: (typeof frameRoles)[number]): JsonSchema => ({
  properties: { type: { const: 'image_url' }, role: { const: role } },
  required: ['type', 'role'],
});
const anyFrameItem: JsonSchema = { anyOf: frameRoles.map(frameItem) };
const referenceItem: JsonSchema = {
  anyOf: [
    itemOf('video_url'),
    itemOf('audio_url'),
    { allOf: [itemOf('image_url'), { anyOf: [{ not: { required: ['role'] } }, { properties: { role: { const: 'reference_image' } } }] }] },
  ],
};
/** The content holds an item of `item`. */
const contentHas = (item: JsonSchema): JsonSchema => ({ properties: { content: { contains: item } }, required: ['content'] });

type ContentBody = { content: ContentItem[] };
const firstIndex = (v: ContentBody, pick: (c: ContentItem) => boolean) => Math.max(0, v.content.findIndex(pick));
const roleIndex = (v: ContentBody, roles: readonly string[]) => firstIndex(v, (c) => roles.includes(contentRole(c) ?? ''));

/**
 * Model limits of resolution, ratio and duration, one rule per model (document 1,
 * "Model limits"). Errors: VIDEO_UNSUPPORTED_COMBINATION.
 */
type ModelBody = { model: SharedVideoModelId; resolution?: string; ratio: string; duration: number };
type InputBody = { model: SharedVideoModelId; inputVideoDuration: number; duration: number };

function sharedModelRules(): BodyRule<ModelBody>[] {
  return sharedVideoModelIds.flatMap((id) => {
    const m: SharedVideoModel = sharedVideoModels[id];
    // a rule where the model narrows the field's own set or range (family2's 2-30 s is the field's)
    return [
      rule<ModelBody>({
        id: `video.resolution.${id}`,
        rule: `${id}: resolution ${m.resolutions.join(' or ')}`,
        code: 'VIDEO_UNSUPPORTED_COMBINATION',
        path: ['resolution'],
        message: (v) => `resolution ${v.resolution} is not supported by ${id} (supported: ${m.resolutions.join(', ')})`,
        when: { model: id },
        then: { properties: { resolution: { enum: [...m.resolutions] } } },
      }),
      ...(m.ratios.length === videoRatios.length
        ? []
        : [
            rule<ModelBody>({
              id: `video.ratio.${id}`,
              rule: `${id}: ratio ${m.ratios.join(', ')}`,
              code: 'VIDEO_UNSUPPORTED_COMBINATION',
              path: ['ratio'],
              message: (v) => `ratio ${v.ratio} is not supported by ${id} (supported: ${m.ratios.join(', ')})`,
              when: { model: id },
              then: { properties: { ratio: { enum: [...m.ratios] } } },
            }),
          ]),
      ...(m.duration.min <= VIDEO_DURATION_FIELD.min && m.duration.max >= VIDEO_DURATION_FIELD.max
        ? []
        : [
            rule<ModelBody>({
              id: `video.duration.${id}`,
              rule: `${id}: duration ${m.duration.min}-${m.duration.max} s`,
              code: 'VIDEO_UNSUPPORTED_COMBINATION',
              path: ['duration'],
              message: (v) => `duration ${v.duration} is outside ${m.duration.min}-${m.duration.max} for ${id}`,
              when: { model: id },
              then: { properties: { duration: { minimum: m.duration.min, maximum: m.duration.max } } },
            }),
          ]),
    ];
  });
}

/**
 * Video input rules (document 1, "Content items" rule 3): `hasVideo` is the
 * condition of a request with video input. Errors: VIDEO_MISSING_MEDIA_DURATION,
 * VIDEO_INVALID_PARAMETERS.
 */
function videoInputRules(hasVideo: JsonSchema, shape: Record<string, z.ZodType>): BodyRule<InputBody>[] {
  return [
    rule<InputBody>({
      id: 'video.input-duration-required',
      rule: 'a request with video input (video_url) needs inputVideoDuration above 0',
      code: 'VIDEO_MISSING_MEDIA_DURATION',
      path: ['inputVideoDuration'],
      message: 'inputVideoDuration is required when content has video_url',
      then: { if: hasVideo, then: { required: ['inputVideoDuration'], properties: { inputVideoDuration: { exclusiveMinimum: 0 } } } },
    }),
    ...modelsBy((m) => `${m.videoInput.min}-${m.videoInput.max}`).map(([range, ids]) =>
      rule<InputBody>({
        id: `video.input-duration-range.${ids.join('+')}`,
        rule: `${ids.join(', ')}: inputVideoDuration ${range} s with video input`,
        code: 'VIDEO_INVALID_PARAMETERS',
        path: ['inputVideoDuration'],
        message: (v) => `inputVideoDuration ${v.inputVideoDuration} is outside ${range} s for ${v.model}`,
        when: { model: ids },
        then: {
          if: hasVideo,
          then: {
            properties: { inputVideoDuration: { minimum: sharedVideoModels[ids[0]].videoInput.min, maximum: sharedVideoModels[ids[0]].videoInput.max } },
          },
        },
      }),
    ),
    ...modelsBy((m) => m.maxInputPlusOutput).map(([max, ids]) => {
      const d = sharedVideoModels[ids[0]].duration;
      // one branch per output duration: inputVideoDuration at most max - duration
      const branches = Array.from({ length: d.max - d.min + 1 }, (_, i) => d.min + i).map((s) => ({
        if: whenSchema({ duration: s }, shape),
        then: { properties: { inputVideoDuration: { maximum: max - s } } },
      }));
      return rule<InputBody>({
        id: `video.input-plus-output.${ids.join('+')}`,
        rule: `${ids.join(', ')}: inputVideoDuration + duration at most ${max} s`,
        code: 'VIDEO_INVALID_PARAMETERS',
        path: ['inputVideoDuration'],
        message: (v) => `inputVideoDuration + duration = ${v.inputVideoDuration + v.duration} exceeds ${max} s for ${v.model}`,
        when: { model: ids },
        then: { if: hasVideo, then: { allOf: branches } },
      });
    }),
  ];
}

/** Content rules of a shared create request (document 1, "Content items"). Errors: VIDEO_INVALID_PARAMETERS. */
function contentRules(): BodyRule<{ model: SharedVideoModelId } & ContentBody>[] {
  const count = (v: ContentBody, type: ContentItem['type']) => v.content.filter((c) => c.type === type).length;
  const capped = (type: ContentItem['type'], max: number, ids?: SharedVideoModelId[]) =>
    rule<{ model: SharedVideoModelId } & ContentBody>({
      id: ids ? `video.content.${type}-max.${ids.join('+')}` : `video.content.${type}-max`,
      rule: `${ids ? `${ids.join(', ')}: ` : ''}at most ${max} ${type} item${max === 1 ? '' : 's'} in content`,
      code: 'VIDEO_INVALID_PARAMETERS',
      path: ['content'],
      message: (v) => `content has ${count(v, type)} ${type} items; ${ids ? `${v.model} accepts` : ''} at most ${max}`.replace(';  at', '; at'),
      ...(ids ? { when: { model: ids } } : {}),
      then: { properties: { content: js.atMost(itemOf(type), max) } },
    });
  const INVALID = 'VIDEO_INVALID_PARAMETERS' as const;
  return [
    capped('text', contentLimits.maxText),
    ...modelsBy((m) => m.maxImages).map(([max, ids]) => capped('image_url', max, ids)),
    capped('video_url', contentLimits.maxVideos),
    capped('audio_url', contentLimits.maxAudios),
    ...modelsBy((m) => (m.maxTextLength < contentLimits.maxTextLength ? m.maxTextLength : undefined)).map(([max, ids]) =>
      rule<{ model: SharedVideoModelId } & ContentBody>({
        id: `video.content.text-length.${ids.join('+')}`,
        rule: `${ids.join(', ')}: the text item at most ${max} characters`,
        code: INVALID,
        path: (v) => ['content', firstIndex(v, (c) => c.type === 'text' && [...c.text].length > max), 'text'],
        message: (v) => `text has more than ${max} characters; ${v.model} accepts at most ${max}`,
        when: { model: ids },
        then: { properties: { content: { items: { if: itemOf('text'), then: { properties: { text: { maxLength: max } } } } } } },
      }),
    ),
    rule({
      id: 'video.content.roles-not-mixed',
      rule: 'frame roles (first_frame, last_frame) and reference roles (reference_image, reference_video, reference_audio, a role-less image) are not mixed',
      code: INVALID,
      path: (v) => ['content', roleIndex(v, referenceRoles), 'role'],
      message: 'frame roles (first_frame, last_frame) and reference roles must not be mixed in one request',
      then: { not: { allOf: [contentHas(anyFrameItem), contentHas(referenceItem)] } },
    }),
    ...frameRoles.map((role) =>
      rule<ContentBody>({
        id: `video.content.one-${role.replace('_', '-')}`,
        rule: `at most one ${role} image (assumed)`,
        code: INVALID,
        path: ['content'],
        message: `content has more than one ${role} image; at most 1 (assumed)`,
        then: { properties: { content: js.atMost(frameItem(role), 1) } },
      }),
    ),
    rule({
      id: 'video.content.last-frame-unsupported',
      rule: `${modelsWhere((m) => !m.lastFrame).join(', ')}: no last_frame`,
      code: INVALID,
      path: (v) => ['content', roleIndex(v, ['last_frame']), 'role'],
      message: (v) => `last_frame is not supported by ${v.model}`,
      when: { model: modelsWhere((m) => !m.lastFrame) },
      then: { properties: { content: js.none(frameItem('last_frame')) } },
    }),
    rule({
      id: 'video.content.last-frame-needs-first',
      rule: `${modelsWhere((m) => m.lastFrame && !m.lastFrameAlone).join(', ')}: last_frame needs a first_frame`,
      code: INVALID,
      path: (v) => ['content', roleIndex(v, ['last_frame']), 'role'],
      message: (v) => `last_frame needs a first_frame on ${v.model} (only family3-h3 accepts it alone)`,
      when: { model: modelsWhere((m) => m.lastFrame && !m.lastFrameAlone) },
      then: { if: contentHas(frameItem('last_frame')), then: contentHas(frameItem('first_frame')) },
    }),
    rule({
      id: 'video.content.audio-unsupported',
      rule: `${modelsWhere((m) => !m.audio).join(', ')}: no audio_url`,
      code: INVALID,
      path: (v) => ['content', firstIndex(v, (c) => c.type === 'audio_url')],
      message: (v) => `audio_url is not supported by ${v.model}`,
      when: { model: modelsWhere((m) => !m.audio) },
      then: { properties: { content: js.none(itemOf('audio_url')) } },
    }),
    rule({
      id: 'video.content.audio-needs-visual',
      rule: `${modelsWhere((m) => m.audio && !m.audioAlone).join(', ')}: audio_url needs an image_url or video_url item`,
      code: INVALID,
      path: (v) => ['content', firstIndex(v, (c) => c.type === 'audio_url')],
      message: (v) => `audio_url needs at least one image_url or video_url item on ${v.model} (only family2 and family3-h3 accept prompt plus audio alone)`,
      when: { model: modelsWhere((m) => m.audio && !m.audioAlone) },
      then: { if: contentHas(itemOf('audio_url')), then: { anyOf: [contentHas(itemOf('image_url')), contentHas(itemOf('video_url'))] } },
    }),
  ];
}

/** Body of POST /v1/video-generation/generate (document 1, "Video: create task (shared)"). */
export const CreateVideoTaskRequest = withRules(
  sharedCreateBase,
  [...sharedModelRules(), ...contentRules(), ...videoInputRules(contentHas(itemOf('video_url')), sharedCreateBase.shape)],
  'CreateVideoTaskRequest',
  {
    description: `Create a video task on the shared endpoint. Per-model limits (document 1, "Video models" and "Model limits"):\n\n${renderSharedModelTable()}\n\nContent rules: 1-16 items; at most 1 text, 9 images (family3-h3: 5), 3 videos, 3 audios; frame roles and reference roles must not be mixed; last_frame needs a first_frame except on family3-h3; audio_url needs an image or video except on family2 and family3-h3; video_url needs inputVideoDuration.`,
    example: {
      model: 'family1-video-2-fast',
      content: [{ type: 'text', text: 'A red fox running through snow at dawn' }],
      resolution: '720p',
      ratio: '16:9',
      duration: 5,
    },
  },
);
export type CreateVideoTaskRequest = z.infer<typeof CreateVideoTaskRequest>;

const estimateVideoBase = z.object({
  model: sharedModelField,
  resolution: z.enum(videoResolutions).meta({ description: 'limited per model' }),
  duration: z.number().int().min(VIDEO_DURATION_FIELD.min).max(VIDEO_DURATION_FIELD.max).meta({ description: 'seconds, limited per model' }),
  hasVideoInput: z.boolean().default(false).meta({ description: 'true when the request will include video_url' }),
  inputVideoDuration: z.number().int().min(0).default(0).meta({ description: 'required when hasVideoInput is true' }),
  ratio: z.enum(videoRatios).default('16:9'),
});

/** Body of POST /v1/video-generation/estimate-credits (document 1, "Video: estimate (shared)"). */
export const EstimateVideoCreditsRequest = withRules(
  estimateVideoBase,
  [
    ...sharedModelRules(),
    ...videoInputRules({ properties: { hasVideoInput: { const: true } }, required: ['hasVideoInput'] }, estimateVideoBase.shape).map((r) => ({
      ...r,
      rule: r.rule.replace('video input (video_url)', 'hasVideoInput true'),
    })),
  ],
  'EstimateVideoCreditsRequest',
  { example: { model: 'family1-video-2-pro', resolution: '1080p', duration: 5 } },
);
export type EstimateVideoCreditsRequest = z.infer<typeof EstimateVideoCreditsRequest>;
