/**
 * The video service: both create endpoints, get, list, share, delete and both
 * estimates (document 1, video sections), on the task kit. Credits are
 * reserved at creation and captured on success or refunded in full on failure;
 * the lifecycle runs in virtual time:
 *
 *   create -> generating --(generatingMs)--> uploading --(uploadingMs)--> success
 *                        \--(generatingMs, forced failure)--> failed (refunded)
 *
 * with the phase lengths of `videoPhases` (schemas/video.ts). The media it
 * hosts: the MP4 of a succeeded task (the task's duration, the pixel size of
 * its resolution and ratio, an AAC track when it has audio), its PNG cover of
 * the same size, and the provider's copy from uploading on.
 */
import { z } from 'zod';
import { VideoParams, videoStatuses } from '../../schemas/video.ts';
import { errorCatalog, type ErrorName } from '../../schemas/errors.ts';
import { mediaFileTypes } from '../../schemas/media.ts';
import {
  contentRole,
  effectiveResolution,
  family5Credits,
  family5Defaults,
  family5Quality,
  MAX_VIDEO_SEED,
  sharedVideoCredits,
  sharedVideoModels,
  videoEstimateFromCredits,
  videoPhases,
  videoPixels,
  type CreateFamily5VideoTaskRequest,
  type VideoTask,
  type VideoTaskListItem,
} from '../../schemas/video.ts';
import type { Engine } from '../engine/engine.ts';
import { encodedAudio } from '../media/audio.ts';
import { labelKey, promptStart } from '../media/label-text.ts';
import { colourFor, rgbHex } from '../media/colour.ts';
import { labelledImage, renderVideo } from '../media/renderers.ts';
import type { Handler, MediaAsset, Service, ServiceContext } from './context.ts';
import { fake } from './fake.ts';
import { MOCK_FAULT_REASON, cataloguedReason, forcedFailureReason, TaskKit, taskRecordSchema, type Lifecycle } from './tasks.ts';
import { cutText } from '../../schemas/text.ts';

/**
 * A stored video task, as saved (checked before a saved state is loaded): the wire fields (URLs are built when
 * answering) plus what list items add. `audio`: the video has a sound track (generateAudio; family5 with sound
 * effects or lip sync, assumed).
 */
const videoRecordSchema = taskRecordSchema(videoStatuses, {
  episodeId: z.string(),
  model: z.string(),
  params: VideoParams,
  duration: z.number(),
  resolution: z.string(),
  ratio: z.string(),
  seed: z.number(),
  creditCharged: z.number(),
  enabledShare: z.boolean(),
  errorCode: z.number().nullable(),
  errorMessage: z.string().nullable(),
  title: z.string(),
  prompt: z.string().nullable(),
  audio: z.boolean(),
});
export type VideoRecord = z.infer<typeof videoRecordSchema>;

const kit = new TaskKit<VideoRecord>(
  { area: 'video', idPrefix: 'vt', noun: 'video task', terminal: ['success', 'failed'], failStatus: 'failed' },
  {
    // A failure carries its reason's catalog code and meaning; creditCharged is net of the refund (assumed).
    onFail(_engine, r, reason, refunded) {
      const known = cataloguedReason(reason) ?? errorCatalog[MOCK_FAULT_REASON];
      r.errorCode = known.code;
      r.errorMessage = known.meaning;
      r.creditCharged -= refunded;
    },
  },
);

/** Media paths of a task (assumed paths: the seed shows only that tasks carry URLs). */
const mediaPath = {
  video: (id: string) => `/media/videos/${id}.${mediaFileTypes.mp4.extension}`,
  cover: (id: string) => `/media/videos/${id}.${mediaFileTypes.png.extension}`,
  provider: (id: string) => `/media/provider/${id}.${mediaFileTypes.mp4.extension}`,
};

/** The task as the API answers it, with this request's absolute media URLs. */
function present(r: VideoRecord, ctx: Pick<ServiceContext, 'url'>): VideoTask {
  const done = r.status === 'success';
  return {
    id: r.id,
    taskId: r.id,
    episodeId: r.episodeId,
    status: r.status,
    model: r.model,
    params: r.params,
    videoUrl: done ? ctx.url(mediaPath.video(r.id)) : null,
    coverUrl: done ? ctx.url(mediaPath.cover(r.id)) : null,
    providerVideoUrl: done || r.status === 'uploading' ? ctx.url(mediaPath.provider(r.id)) : null,
    duration: r.duration,
    resolution: r.resolution,
    ratio: r.ratio,
    seed: r.seed,
    creditCharged: r.creditCharged,
    enabledShare: r.enabledShare,
    errorCode: r.errorCode,
    errorMessage: r.errorMessage,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

function titleFor(engine: Engine, taskId: string, prompt: string | null): string {
  if (prompt && prompt.trim()) return cutText(prompt.trim(), 60);
  return fake(engine.seed, [taskId, 'title'], (f) => {
    const words = f.lorem.words(3);
    return words.charAt(0).toUpperCase() + words.slice(1);
  });
}

interface NewTask<E extends ErrorName> {
  model: string;
  scheduleKey: Parameters<typeof videoPhases>[0];
  params: VideoTask['params'];
  duration: number;
  resolution: string;
  ratio: string;
  requestedSeed: number;
  credits: number;
  prompt: string | null;
  audio: boolean;
  /** The create's insufficient-credits error (the shared and the family5 endpoints each declare their own). */
  insufficient: E;
}

/** The ledger note of a task's hold, one string per model (kept by every hold's ledger entry). */
const reserveNotes = new Map<string, string>();
function reserveNote(model: string): string {
  let note = reserveNotes.get(model);
  if (note === undefined) reserveNotes.set(model, (note = `video task ${model}`));
  return note;
}

/** Creates, charges and schedules a task; throws the `insufficient` error with nothing charged when the balance is short. */
function createTask<E extends ErrorName>(ctx: ServiceContext<E>, t: NewTask<E>) {
  const { engine, now } = ctx;
  const id = kit.nextId(ctx);
  kit.reserve(ctx, id, t.credits, t.insufficient, reserveNote(t.model));
  // one literal with every field, the lifecycle's included (set by kit.run): V8 keeps them all in the object itself,
  // not in a second array of properties, one object less to copy for each task that survives a scavenge
  const r = kit.add(engine, {
    id,
    owner: ctx.account.apiKey,
    status: 'generating',
    createdAt: now,
    updatedAt: now,
    lifecycle: undefined,
    episodeId: engine.rng.id('ep', id, 'episode'),
    model: t.model,
    params: t.params,
    duration: t.duration,
    resolution: t.resolution,
    ratio: t.ratio,
    seed: t.requestedSeed >= 0 ? t.requestedSeed : engine.rng.int(0, MAX_VIDEO_SEED, id, 'seed'),
    creditCharged: t.credits,
    enabledShare: false,
    errorCode: null,
    errorMessage: null,
    title: titleFor(engine, id, t.prompt),
    prompt: t.prompt,
    audio: t.audio,
  });
  const failWith = forcedFailureReason(ctx);
  kit.run(
    engine,
    r,
    failWith ? { ...videoLifecycle(t.scheduleKey, t.duration), failure: { atStep: 0, reason: failWith } } : videoLifecycle(t.scheduleKey, t.duration),
    now,
  );
  return { taskId: id, episodeId: r.episodeId, status: 'generating' as const };
}

/**
 * The lifecycles of tasks not forced to fail, by schedule, then duration (seconds): one frozen object each, shared by
 * their tasks (nothing writes to a lifecycle). Two maps, not one keyed by a joined string: a create builds no key.
 */
const lifecycles = new Map<string, Map<number, Lifecycle<VideoTask['status']>>>();

/** A video task's lifecycle: generating, then uploading after its schedule's generation time, then success. */
function videoLifecycle(scheduleKey: Parameters<typeof videoPhases>[0], duration: number): Lifecycle<VideoTask['status']> {
  let byDuration = lifecycles.get(scheduleKey);
  if (!byDuration) lifecycles.set(scheduleKey, (byDuration = new Map<number, Lifecycle<VideoTask['status']>>()));
  let l = byDuration.get(duration);
  if (!l) {
    const { generatingMs, uploadingMs } = videoPhases(scheduleKey, duration);
    l = Object.freeze({
      steps: Object.freeze([
        Object.freeze({ status: 'uploading' as const, afterMs: generatingMs }),
        Object.freeze({ status: 'success' as const, afterMs: uploadingMs }),
      ]),
    });
    byDuration.set(duration, l);
  }
  return l;
}

const sharedLookup = { notFound: 'VIDEO_TASK_NOT_FOUND', forbidden: 'VIDEO_TASK_FORBIDDEN' } as const;

function family5Resolved(b: CreateFamily5VideoTaskRequest) {
  const d = family5Defaults(b.capability);
  return {
    quality: family5Quality(b.capability, b.quality),
    aspectRatio: b.aspectRatio ?? d.aspectRatio,
    duration: b.duration ?? d.duration,
  };
}

// ---------------------------------------------------------------------------
// Media
// ---------------------------------------------------------------------------

/** The MP4 of a task: its duration, pixel size and sound track, colours from (seed, task). */
function videoAsset(engine: Engine, r: VideoRecord): MediaAsset {
  const { width, height } = videoPixels(r.resolution, r.ratio);
  const colours = { bg: colourFor(engine.seed, r.id, 'video-bg'), fg: colourFor(engine.seed, r.id, 'video-fg') };
  const durationMs = r.duration * 1000;
  const variant = engine.rng.int(0, 1000, r.id, 'audio-variant');
  const label = videoLabel(r);
  return {
    contentType: mediaFileTypes.mp4.contentType,
    key: `mp4 ${width}x${height} ${durationMs}ms ${rgbHex(colours.bg)}/${rgbHex(colours.fg)} audio:${r.audio ? variant : 'none'} ${labelKey(label)}`,
    render: async () =>
      renderVideo({ width, height, durationMs, colours, label, ...(r.audio ? { audio: await encodedAudio('aac', durationMs, variant) } : {}) }),
  };
}

/** What the label of a task's frames and cover says: its prompt's start (or its title), model and id. */
function videoLabel(r: VideoRecord) {
  return { prompt: promptStart(r.prompt ?? r.title), model: r.model, id: r.id };
}

/** The cover of a task: a PNG of the video's pixel size, with the frames' label (without the time line). */
function coverAsset(engine: Engine, r: VideoRecord): MediaAsset {
  const { width, height } = videoPixels(r.resolution, r.ratio);
  const bg = colourFor(engine.seed, r.id, 'video-bg');
  const fg = colourFor(engine.seed, r.id, 'video-fg');
  const label = videoLabel(r);
  return {
    contentType: mediaFileTypes.png.contentType,
    key: `png ${width}x${height} ${rgbHex(bg)}/${rgbHex(fg)} ${labelKey(label)}`,
    render: () => labelledImage(width, height, bg, fg, label),
  };
}

// ---------------------------------------------------------------------------
// Handlers
// ---------------------------------------------------------------------------

const createVideoTask: Handler<'createVideoTask'> = ({ body }, ctx) => {
  const m = sharedVideoModels[body.model];
  const resolution = effectiveResolution(body.model, body.resolution);
  const hasFirstFrame = body.content.some((c) => contentRole(c) === 'first_frame');
  const text = body.content.find((c) => c.type === 'text');
  const generateAudio = m.ignoresAudioAndSeed ? true : body.generateAudio;
  return createTask(ctx, {
    model: body.model,
    scheduleKey: body.model,
    params: { content: body.content, resolution, ratio: body.ratio, duration: body.duration, generateAudio, seed: body.seed },
    duration: body.duration,
    resolution,
    // family3-h3 ignores ratio for image-to-video: the output follows the first frame (assumed: reported as "adaptive").
    ratio: m.ignoresAudioAndSeed && hasFirstFrame ? 'adaptive' : body.ratio,
    requestedSeed: m.ignoresAudioAndSeed ? -1 : body.seed,
    credits: sharedVideoCredits(body.model, resolution, body.duration, body.content.some((c) => c.type === 'video_url') ? body.inputVideoDuration : 0),
    prompt: text?.type === 'text' ? text.text : null,
    audio: generateAudio,
    insufficient: 'VIDEO_INSUFFICIENT_CREDITS',
  });
};

const createFamily5VideoTask: Handler<'createFamily5VideoTask'> = ({ body }, ctx) => {
  if (body.sourceTaskId !== undefined) {
    const src = kit.own(ctx, body.sourceTaskId, { notFound: 'F5_TASK_NOT_FOUND', forbidden: 'F5_TASK_FORBIDDEN', field: 'sourceTaskId' });
    if (!('capability' in src.params)) throw ctx.fail('F5_INVALID_PARAMETERS', `sourceTaskId ${body.sourceTaskId}: not a family5 task`);
    if (src.status !== 'success')
      throw ctx.fail('F5_INVALID_PARAMETERS', `sourceTaskId ${body.sourceTaskId}: the task has status ${src.status}; a succeeded family5 task is required`);
  }
  const r = family5Resolved(body);
  const px = body.pixverse;
  return createTask(ctx, {
    model: body.model,
    scheduleKey: 'family5',
    params: { ...body, ...r },
    duration: r.duration,
    resolution: r.quality,
    ratio: r.aspectRatio,
    requestedSeed: -1,
    credits: family5Credits(body.capability, body.model, r.quality, r.duration),
    prompt: body.prompt ?? null,
    // family5 has no generateAudio: a sound track with sound effects or lip sync (assumed).
    audio: px.soundEffectSwitch === true || px.lipSyncTtsSwitch === true || body.capability === 'lip_sync',
    insufficient: 'F5_INSUFFICIENT_CREDITS',
  });
};

const getVideoTask: Handler<'getVideoTask'> = ({ params }, ctx) => {
  return present(kit.own(ctx, params.taskId, sharedLookup), ctx);
};

const listVideoTasks: Handler<'listVideoTasks'> = ({ query }, ctx) => {
  return kit.page(ctx, query, (r): VideoTaskListItem => {
    const t = present(r, ctx);
    return {
      id: t.id,
      episodeId: t.episodeId,
      status: t.status,
      model: t.model,
      title: r.title,
      prompt: r.prompt,
      params: t.params,
      videoUrl: t.videoUrl,
      coverUrl: t.coverUrl,
      providerVideoUrl: t.providerVideoUrl,
      seed: t.seed,
      creditCharged: t.creditCharged,
      createdAt: t.createdAt,
    };
  });
};

const shareVideoTask: Handler<'shareVideoTask'> = ({ params, body }, ctx) => {
  const r = kit.own(ctx, params.taskId, sharedLookup);
  r.enabledShare = body.enabledShare ?? !r.enabledShare;
  r.updatedAt = ctx.now;
  return { taskId: r.id, enabledShare: r.enabledShare };
};

const deleteVideoTask: Handler<'deleteVideoTask'> = ({ params }, ctx) => {
  const r = kit.own(ctx, params.taskId, sharedLookup);
  if (!kit.isTerminal(r)) throw ctx.fail('VIDEO_TASK_NOT_FINISHED', `taskId ${r.id}: the task is ${r.status}; only a succeeded or failed task can be deleted`);
  kit.remove(ctx.engine, r);
  return { taskId: r.id, deleted: true as const };
};

const estimateVideoCredits: Handler<'estimateVideoCredits'> = ({ body }) => {
  return videoEstimateFromCredits(sharedVideoCredits(body.model, body.resolution, body.duration, body.hasVideoInput ? body.inputVideoDuration : 0));
};

const estimateFamily5Credits: Handler<'estimateFamily5Credits'> = ({ body }) => {
  const duration = body.duration ?? family5Defaults(body.capability).duration;
  return videoEstimateFromCredits(family5Credits(body.capability, body.model, family5Quality(body.capability, body.quality), duration));
};

export const videoService: Service<
  | 'createVideoTask'
  | 'createFamily5VideoTask'
  | 'getVideoTask'
  | 'listVideoTasks'
  | 'shareVideoTask'
  | 'deleteVideoTask'
  | 'estimateVideoCredits'
  | 'estimateFamily5Credits'
> = {
  kits: [kit],
  records: { video: videoRecordSchema },
  handlers: {
    createVideoTask,
    createFamily5VideoTask,
    getVideoTask,
    listVideoTasks,
    shareVideoTask,
    deleteVideoTask,
    estimateVideoCredits,
    estimateFamily5Credits,
  },

  media: [
    {
      path: mediaPath.video('{taskId}'),
      resolve: (engine, p) => {
        const r = kit.find(engine, p.taskId);
        return r?.status === 'success' ? videoAsset(engine, r) : undefined;
      },
    },
    {
      path: mediaPath.cover('{taskId}'),
      resolve: (engine, p) => {
        const r = kit.find(engine, p.taskId);
        return r?.status === 'success' ? coverAsset(engine, r) : undefined;
      },
    },
    {
      path: mediaPath.provider('{taskId}'),
      resolve: (engine, p) => {
        const r = kit.find(engine, p.taskId);
        return r && (r.status === 'uploading' || r.status === 'success') ? videoAsset(engine, r) : undefined;
      },
    },
  ],
};
