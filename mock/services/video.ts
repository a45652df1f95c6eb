/**
 * The video service: both create endpoints, get, list and both estimates
 * (document 1, video sections). Credits are reserved at creation and captured on
 * success or released in full on failure; the lifecycle runs on the engine's
 * scheduler in virtual time:
 *
 *   create -> generating --(generatingMs)--> uploading --(uploadingMs)--> success
 *                        \--(generatingMs, forced failure)--> failed (refunded)
 *
 * with the phase lengths of `videoPhases` (schemas/video.ts).
 */
import { errorCatalog, type ErrorName } from '../../schemas/errors.ts';
import { operations } from '../../schemas/operations.ts';
import {
  contentRole,
  effectiveResolution,
  family5Credits,
  family5Defaults,
  family5Quality,
  sharedVideoCredits,
  sharedVideoModels,
  videoEstimateFromCredits,
  videoPhases,
  type CreateFamily5VideoTaskRequest,
  type VideoTask,
  type VideoTaskListItem,
} from '../../schemas/video.ts';
import { ApiError } from '../engine/api-error.ts';
import type { Engine } from '../engine/engine.ts';
import type { Handlers, ServiceContext } from './context.ts';
import { fake } from './fake.ts';

/** A stored task: the wire object plus what list items add. */
export interface StoredVideoTask {
  task: VideoTask;
  title: string;
  prompt: string | null;
}

const STORE = 'video';
const MAX_SEED = 4294967295;

/** URLs of a task's media, hosted by the mock itself (assumed paths). */
export function videoMediaUrls(engine: Engine, taskId: string) {
  return {
    videoUrl: `${engine.publicUrl}/media/videos/${taskId}.mp4`,
    coverUrl: `${engine.publicUrl}/media/videos/${taskId}.png`,
    providerVideoUrl: `${engine.publicUrl}/media/provider/${taskId}.mp4`,
  };
}

function titleFor(engine: Engine, taskId: string, prompt: string | null): string {
  if (prompt && prompt.trim()) return prompt.trim().slice(0, 60);
  return fake(engine.seed, [taskId, 'title'], (f) => {
    const words = f.lorem.words(3);
    return words.charAt(0).toUpperCase() + words.slice(1);
  });
}

interface NewTask {
  model: string;
  scheduleKey: Parameters<typeof videoPhases>[0];
  params: VideoTask['params'];
  duration: number;
  resolution: string;
  ratio: string;
  requestedSeed: number;
  credits: number;
  prompt: string | null;
  insufficient: ErrorName;
  failureReasons: readonly ErrorName[];
}

/** Creates, charges and schedules a task; throws the `insufficient` error with nothing charged when the balance is short. */
function createTask(ctx: ServiceContext, t: NewTask) {
  const { engine, account, now } = ctx;
  const taskId = engine.nextId('vt', account.apiKey, 'video');
  if (account.credits < t.credits) throw new ApiError(t.insufficient, `insufficient credits: this task costs ${t.credits} credits and the balance is ${account.credits}`);
  engine.accounts.reserve(account, taskId, t.credits, now, `video task ${t.model}`);
  const seed = t.requestedSeed >= 0 ? t.requestedSeed : engine.rng.int(0, MAX_SEED, taskId, 'seed');
  const task: VideoTask = {
    id: taskId,
    taskId,
    episodeId: engine.rng.id('ep', taskId, 'episode'),
    status: 'generating',
    model: t.model,
    params: t.params,
    videoUrl: null,
    coverUrl: null,
    providerVideoUrl: null,
    duration: t.duration,
    resolution: t.resolution,
    ratio: t.ratio,
    seed,
    creditCharged: t.credits,
    enabledShare: false,
    errorCode: null,
    errorMessage: null,
    createdAt: now,
    updatedAt: now,
  };
  const store = engine.store<StoredVideoTask>(STORE);
  store.insert(account.apiKey, taskId, { task, title: titleFor(engine, taskId, t.prompt), prompt: t.prompt }, task.status);
  const moveTo = (status: VideoTask['status'], at: number) => {
    task.status = status;
    task.updatedAt = at;
    store.regroup(taskId, status);
  };

  const { generatingMs, uploadingMs } = videoPhases(t.scheduleKey, t.duration);
  const urls = videoMediaUrls(engine, taskId);
  const failWith = ctx.forcing.outcome === 'failed' ? (ctx.forcing.error ?? t.failureReasons[0]) : undefined;
  engine.scheduler.at(now + generatingMs, (at) => {
    if (failWith) {
      const refunded = engine.accounts.release(taskId, at, `refund: ${errorCatalog[failWith].meaning}`);
      moveTo('failed', at);
      task.errorCode = errorCatalog[failWith].code;
      task.errorMessage = errorCatalog[failWith].meaning;
      task.creditCharged -= refunded;
      return;
    }
    moveTo('uploading', at);
    task.providerVideoUrl = urls.providerVideoUrl;
    engine.scheduler.at(at + uploadingMs, (done) => {
      engine.accounts.capture(taskId, done);
      moveTo('success', done);
      task.videoUrl = urls.videoUrl;
      task.coverUrl = urls.coverUrl;
    });
  });
  return { taskId, episodeId: task.episodeId, status: 'generating' as const };
}

/** Looks up a task of the caller; unknown and foreign ids get their catalogued errors, with a message naming `field`. */
function ownTask(ctx: ServiceContext, taskId: string, errors: { notFound: ErrorName; forbidden: ErrorName }, field = 'taskId'): StoredVideoTask {
  const hit = ctx.engine.store<StoredVideoTask>(STORE).get(taskId);
  if (!hit) throw new ApiError(errors.notFound, `${field} ${taskId}: task not found`);
  if (hit.owner !== ctx.account.apiKey) throw new ApiError(errors.forbidden, `${field} ${taskId}: the task belongs to another user`);
  return hit.record;
}

function family5Resolved(b: CreateFamily5VideoTaskRequest) {
  const d = family5Defaults(b.capability);
  return {
    quality: family5Quality(b.capability, b.quality),
    aspectRatio: b.aspectRatio ?? d.aspectRatio,
    duration: b.duration ?? d.duration,
  };
}

export const videoHandlers: Handlers<'createVideoTask' | 'createFamily5VideoTask' | 'getVideoTask' | 'listVideoTasks' | 'estimateVideoCredits' | 'estimateFamily5Credits'> = {
  createVideoTask({ body }, ctx) {
    const m = sharedVideoModels[body.model];
    const resolution = effectiveResolution(body.model, body.resolution);
    const hasFirstFrame = body.content.some((c) => contentRole(c) === 'first_frame');
    const text = body.content.find((c) => c.type === 'text');
    return createTask(ctx, {
      model: body.model,
      scheduleKey: body.model,
      params: {
        content: body.content,
        resolution,
        ratio: body.ratio,
        duration: body.duration,
        generateAudio: m.ignoresAudioAndSeed ? true : body.generateAudio,
        seed: body.seed,
      },
      duration: body.duration,
      resolution,
      // family3-h3 ignores ratio for image-to-video: the output follows the first frame (assumed: reported as "adaptive").
      ratio: m.ignoresAudioAndSeed && hasFirstFrame ? 'adaptive' : body.ratio,
      requestedSeed: m.ignoresAudioAndSeed ? -1 : body.seed,
      credits: sharedVideoCredits(body.model, resolution, body.duration, body.content.some((c) => c.type === 'video_url') ? body.inputVideoDuration : 0),
      prompt: text?.type === 'text' ? text.text : null,
      insufficient: 'VIDEO_INSUFFICIENT_CREDITS',
      failureReasons: operations.createVideoTask.failureReasons,
    });
  },

  createFamily5VideoTask({ body }, ctx) {
    if (body.sourceTaskId !== undefined) {
      const src = ownTask(ctx, body.sourceTaskId, { notFound: 'F5_TASK_NOT_FOUND', forbidden: 'F5_TASK_FORBIDDEN' }, 'sourceTaskId');
      if (!('capability' in src.task.params)) throw new ApiError('F5_INVALID_PARAMETERS', `sourceTaskId ${body.sourceTaskId}: not a family5 task`);
      if (src.task.status !== 'success') throw new ApiError('F5_INVALID_PARAMETERS', `sourceTaskId ${body.sourceTaskId}: the task has status ${src.task.status}; a succeeded family5 task is required`);
    }
    const r = family5Resolved(body);
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
      insufficient: 'F5_INSUFFICIENT_CREDITS',
      failureReasons: operations.createFamily5VideoTask.failureReasons,
    });
  },

  getVideoTask({ params }, ctx) {
    return ownTask(ctx, params.taskId, { notFound: 'VIDEO_TASK_NOT_FOUND', forbidden: 'VIDEO_TASK_FORBIDDEN' }).task;
  },

  listVideoTasks({ query }, ctx) {
    const status = query.status;
    const page = ctx.engine.store<StoredVideoTask>(STORE).pageNewestFirst(ctx.account.apiKey, query.page, query.pageSize, status);
    return {
      items: page.items.map(({ task, title, prompt }): VideoTaskListItem => ({
        id: task.id,
        episodeId: task.episodeId,
        status: task.status,
        model: task.model,
        title,
        prompt,
        params: task.params,
        videoUrl: task.videoUrl,
        coverUrl: task.coverUrl,
        providerVideoUrl: task.providerVideoUrl,
        seed: task.seed,
        creditCharged: task.creditCharged,
        createdAt: task.createdAt,
      })),
      page: query.page,
      pageSize: query.pageSize,
      total: page.total,
    };
  },

  estimateVideoCredits({ body }) {
    return videoEstimateFromCredits(sharedVideoCredits(body.model, body.resolution, body.duration, body.hasVideoInput ? body.inputVideoDuration : 0));
  },

  estimateFamily5Credits({ body }) {
    const duration = body.duration ?? family5Defaults(body.capability).duration;
    return videoEstimateFromCredits(family5Credits(body.capability, body.model, family5Quality(body.capability, body.quality), duration));
  },
};
