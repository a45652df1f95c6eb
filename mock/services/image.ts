/**
 * The image service: synchronous and asynchronous generation, task read and
 * list, and the estimate (document 1, image sections), on the task kit.
 * Money: the estimate's credits are reserved at creation (or one free
 * generation consumed for 1K/2K with freeUsages[model] > 0), captured on
 * success, refunded (and the allowance returned) on any failure. The lifecycle
 * runs in virtual time:
 *
 *   create -> pending --(pendingMs)--> generating --(generatingMs)--> success
 *                     \--(forced or free-lane failure)--> fail (refunded)
 *   pending or generating for more than 30 minutes --(timeout sweep)--> fail
 *
 * The restricted free lane (image-b-3-pro, never-paid accounts) is simulated
 * with `freeLane` of schemas/image.ts. Hosted images: the PNG of a succeeded
 * task, at the resolved pixel size.
 */
import { freeLaneFailReasons, imageModelIds, imageSizes, imageTaskStatuses } from '../../schemas/image.ts';
import { z } from 'zod';
import { errorReason, type ErrorName } from '../../schemas/errors.ts';
import {
  IMAGE_TASK_TIMEOUT_MS,
  OUTPUT_MIME_TYPE,
  freeAllowanceApplies,
  freeLane,
  imageFailures,
  imageGeneratingMs,
  imagePixels,
  imagePrice,
  imageRateLimits,
  imageSchedule,
  inFreeLane,
  requiresSubscription,
  resolveImageRequest,
  type FreeLaneFailReason,
  type ImageEstimateWarning,
  type ImageGenerationRequest,
  type ImageTask,
  type ImageTaskStatus,
  type ResolvedImageRequest,
} from '../../schemas/image.ts';
import { mediaFileTypes } from '../../schemas/media.ts';
import { defaultAccount } from '../../schemas/plans.ts';
import { accountExtension } from '../engine/accounts.ts';
import type { Engine } from '../engine/engine.ts';
import { labelKey, promptStart } from '../media/label-text.ts';
import { colourFor, rgbHex, toBase64 } from '../media/colour.ts';
import { labelledImage } from '../media/renderers.ts';
import type { Handler, Service, ServiceContext } from './context.ts';
import { forcedFailureReason, TaskKit, type Lifecycle, taskRecordSchema } from './tasks.ts';

/**
 * A stored image task, as saved (checked before a saved state is loaded): the wire fields (URLs are built when
 * answering) plus what the service needs. `freeUsed`: a free generation was consumed instead of credits; `lane`: it
 * runs in the restricted free lane; `stuck`: forced never to finish generating (Prefer: outcome=stuck);
 * `imageCount`: images of the succeeded task (one, assumed); `prompt`: the prompt's start, drawn in the image's label
 * (absent in states saved before labels).
 */
const imageRecordSchema = taskRecordSchema(imageTaskStatuses, {
  model: z.enum(imageModelIds),
  width: z.number().int(),
  height: z.number().int(),
  imageSize: z.enum(imageSizes),
  freeUsed: z.boolean(),
  lane: z.boolean(),
  stuck: z.boolean(),
  imageCount: z.number().int(),
  prompt: z.string().optional(),
  completedAt: z.number().optional(),
  failure: z
    .strictObject({
      failMsg: z.string(),
      failReason: z.enum(freeLaneFailReasons).optional(),
      retryable: z.boolean(),
      freeUsageRolledBack: z.boolean(),
      userMessage: z.string(),
    })
    .optional(),
});
export type ImageRecord = z.infer<typeof imageRecordSchema>;

/** A kind of failure and how it reads on the task (`imageFailures` of schemas/image.ts). */
type FailureKind = keyof typeof imageFailures;

/** State of the restricted free lane, one per engine (task ids: saved with the state). */
interface LaneState {
  inFlight: string[];
  queue: string[];
}

/** Named actions of image tasks (scheduled with kit.action). */
const QUEUE_TIMEOUT = 'free-lane-queue-timeout';
const LANE_BUSY = 'free-lane-busy';

const kit = new TaskKit<ImageRecord>(
  { area: 'image', idPrefix: 'img', noun: 'image task', terminal: ['success', 'fail'], failStatus: 'fail' },
  {
    onEnter(engine, r, status, at) {
      if (status !== 'success') return;
      r.imageCount = 1;
      r.completedAt = at;
      leaveLane(engine, r, at);
    },
    onFail: (engine, r, reason, _refunded, at) =>
      afterFail(engine, r, at, (Object.hasOwn(imageFailures, reason) ? reason : 'MOCK_INTERNAL_ERROR') as FailureKind),
    onAction(engine, r, action, at) {
      if (action === LANE_BUSY) kit.fail(engine, r, at, 'IMAGE_FREE_RELAX_BUSY');
      else if (action === QUEUE_TIMEOUT && laneState(engine).queue.includes(r.id)) kit.fail(engine, r, at, 'IMAGE_FREE_RELAX_TIMEOUT');
    },
  },
);
const OPEN: readonly ImageTaskStatus[] = ['pending', 'generating'];
const laneState = (engine: Engine) => engine.state<LaneState>('image-free-lane', () => ({ inFlight: [], queue: [] }));

/**
 * The free generations left on an account, by normalised model id (document 1, "Free allowance for image
 * generation"; the key is assumed): the image area's part of every account, shown and saved as its `freeUsages`,
 * preloaded from `--accounts`, replaced by a control-API update.
 */
const FreeUsagesValue = z.record(z.string(), z.number().int().min(0));
export const freeUsages = accountExtension<Record<string, number>>({
  field: 'freeUsages',
  init: (_plan, preloaded) => ({ ...(preloaded === undefined ? defaultAccount.freeUsages : FreeUsagesValue.parse(preloaded)) }),
});
/** Path of the n-th image of a task, hosted by the mock (assumed path). */
const imagePath = (taskId: string, n: number | string) => `/media/images/${taskId}/${n}.${mediaFileTypes.png.extension}`;

/** The task as the API answers it, with this request's absolute image URLs. */
function present(r: ImageRecord, ctx: Pick<ServiceContext, 'url'>): ImageTask {
  const f = r.failure;
  return {
    taskId: r.id,
    status: r.status,
    model: r.model,
    createdAt: r.createdAt,
    ...(r.status === 'success'
      ? { images: Array.from({ length: r.imageCount }, (_, n) => ({ url: ctx.url(imagePath(r.id, n)), mimeType: OUTPUT_MIME_TYPE })) }
      : {}),
    ...(f ? { failMsg: f.failMsg } : {}),
    ...(r.completedAt !== undefined ? { completedAt: r.completedAt } : {}),
    ...(f?.failReason ? { failReason: f.failReason } : {}),
    ...(f ? { retryable: f.retryable, freeUsageRolledBack: f.freeUsageRolledBack, userMessage: f.userMessage } : {}),
  };
}

// ---------------------------------------------------------------------------
// Money
// ---------------------------------------------------------------------------

/**
 * Takes the price of a generation `id`: one free generation (1K/2K, freeUsages[model] > 0) or the
 * credits. Errors: IMAGE_SUBSCRIPTION_REQUIRED, IMAGE_INSUFFICIENT_CREDITS (nothing taken).
 */
function charge(
  ctx: ServiceContext<'IMAGE_SUBSCRIPTION_REQUIRED' | 'IMAGE_INSUFFICIENT_CREDITS'>,
  id: string,
  r: ResolvedImageRequest,
  credits: number,
): { freeUsed: boolean } {
  const { engine, account } = ctx;
  if (requiresSubscription(r) && account.plan !== 'paid')
    throw ctx.fail(
      'IMAGE_SUBSCRIPTION_REQUIRED',
      `${r.model} at ${r.imageSize}${r.quality === 'high' ? ' with quality high' : ''} requires a subscription; the account is on plan ${account.plan}`,
    );
  const free = engine.accounts.extension(account, freeUsages);
  if (freeAllowanceApplies(free, r.model, r.imageSize)) {
    free[r.model] -= 1;
    // a hold of nothing: the ledger shows the free generation like any other
    kit.reserve(ctx, id, 0, 'IMAGE_INSUFFICIENT_CREDITS', `image ${r.model} ${r.imageSize}: free generation (${free[r.model]} left)`);
    return { freeUsed: true };
  }
  kit.reserve(ctx, id, credits, 'IMAGE_INSUFFICIENT_CREDITS', `image ${r.model} ${r.imageSize}`);
  return { freeUsed: false };
}

/** The tighter limit on requests carrying base64 references. Errors: IMAGE_RATE_LIMITED. */
function inlineReferenceLimit(ctx: ServiceContext<'IMAGE_RATE_LIMITED'>, r: ResolvedImageRequest): void {
  if (r.inlineReferenceCount === 0) return;
  const l = imageRateLimits.inlineReferences;
  const d = ctx.engine.limiter.hit(ctx.account.apiKey, l.bucket, l.limit, l.windowMs, ctx.now);
  if (!d.allowed) {
    const retryAfterSeconds = Math.max(1, Math.ceil(d.retryAfterMs / 1000));
    throw ctx.fail(
      'IMAGE_RATE_LIMITED',
      `rate limit: at most ${l.limit} image requests with base64 reference images per ${l.windowMs / 1000} s; retry after ${retryAfterSeconds} s`,
      { retryAfterSeconds },
    );
  }
}

// ---------------------------------------------------------------------------
// Async lifecycle
// ---------------------------------------------------------------------------

/** Leaves the free lane (slot or queue) and starts waiting tasks while slots are free. */
function leaveLane(engine: Engine, r: ImageRecord, at: number): void {
  if (!r.lane) return;
  const lane = laneState(engine);
  lane.inFlight = lane.inFlight.filter((id) => id !== r.id);
  lane.queue = lane.queue.filter((id) => id !== r.id);
  while (lane.inFlight.length < freeLane.capacity && lane.queue.length > 0) {
    const next = kit.find(engine, lane.queue.shift()!);
    if (next?.status !== 'pending') continue;
    lane.inFlight.push(next.id);
    kit.run(engine, next, lifecycle(next, 0), at);
  }
}

/** After a refund: returns the free allowance, records how the failure reads, frees the lane slot. */
function afterFail(engine: Engine, r: ImageRecord, at: number, kind: FailureKind): void {
  const f = imageFailures[kind];
  const account = engine.accounts.find(r.owner);
  const rolledBack = r.freeUsed && account !== undefined;
  if (rolledBack) {
    const free = engine.accounts.extension(account, freeUsages);
    free[r.model] = (free[r.model] ?? 0) + 1;
  }
  const reason = kind === 'timeout' ? undefined : errorReason(kind);
  r.completedAt = at;
  r.failure = {
    failMsg: f.failMsg,
    ...(reason ? { failReason: reason as FreeLaneFailReason } : {}),
    retryable: f.retryable,
    freeUsageRolledBack: rolledBack,
    userMessage: f.userMessage,
  };
  leaveLane(engine, r, at);
}

/** pending -> generating after `pendingMs`, then success after the generating time (never when stuck). */
function lifecycle(r: ImageRecord, pendingMs: number): Lifecycle<ImageTaskStatus> {
  return {
    steps: [
      { status: 'generating', afterMs: pendingMs },
      { status: 'success', afterMs: imageGeneratingMs(r.model, r.imageSize) },
    ],
    ...(r.stuck ? { stuckBefore: 1 } : {}),
  };
}

/** Admits a lane task: a slot, a place in the queue (with its timeout), or a busy failure when it would have started. */
function admitToLane(engine: Engine, r: ImageRecord, now: number): void {
  const lane = laneState(engine);
  if (lane.inFlight.length < freeLane.capacity) {
    lane.inFlight.push(r.id);
    kit.run(engine, r, lifecycle(r, imageSchedule.pendingMs), now);
  } else if (lane.queue.length < freeLane.queueCapacity) {
    lane.queue.push(r.id);
    kit.action(engine, r, now + freeLane.queueTimeoutMs, QUEUE_TIMEOUT);
  } else {
    kit.action(engine, r, now + imageSchedule.pendingMs, LANE_BUSY);
  }
}

// ---------------------------------------------------------------------------
// Images
// ---------------------------------------------------------------------------

/** The bytes of image `n` of generation `id`, labelled with the prompt's start and the model (deterministic in (seed, id, n, prompt, model)). */
export function renderImage(seed: number, id: string, n: number, width: number, height: number, prompt: string, model: string): Uint8Array {
  return labelledImage(width, height, colourFor(seed, `${id}/${n}`, 'image-bg'), colourFor(seed, `${id}/${n}`, 'image-fg'), { prompt, model, id });
}

// ---------------------------------------------------------------------------
// Handlers
// ---------------------------------------------------------------------------

/** Resolves a generation request, prices it, and applies the tighter limit of base64 references. */
function prepare(ctx: ServiceContext<'IMAGE_RATE_LIMITED'>, body: ImageGenerationRequest) {
  const r = resolveImageRequest(body);
  const { credits } = imagePrice(r, body.prompt.length);
  const { width, height } = imagePixels(r.imageSize, r.aspectRatio);
  inlineReferenceLimit(ctx, r);
  return { r, credits, width, height, lane: inFreeLane(r.model, ctx.account) };
}

const generateImage: Handler<'generateImage'> = ({ body }, ctx) => {
  const { engine } = ctx;
  const p = prepare(ctx, body);
  if (p.lane && laneState(engine).inFlight.length >= freeLane.capacity)
    throw ctx.fail(
      'IMAGE_FREE_RELAX_BUSY',
      `free_relax_busy: the free lane of ${p.r.model} is at capacity (${freeLane.capacity} in flight); nothing was charged, retry later`,
      { retryAfterSeconds: freeLane.syncRetryAfterSeconds },
    );
  // the kit's money and ids, no task stored: the answer is the image
  const id = kit.nextSyncId(ctx, 'igen', 'image-sync');
  charge(ctx, id, p.r, p.credits);
  kit.capture(ctx, id);
  const data = toBase64(renderImage(engine.seed, id, 0, p.width, p.height, promptStart(body.prompt), p.r.model));
  return { candidates: [{ content: { parts: [{ inlineData: { mimeType: OUTPUT_MIME_TYPE, data } }] } }] };
};

const createImageTask: Handler<'createImageTask'> = ({ body }, ctx) => {
  const { engine, now, forcing } = ctx;
  const p = prepare(ctx, body);
  // each of the operation's failureReasons is a key of imageFailures
  const failWith = forcedFailureReason(ctx) as (ErrorName & FailureKind) | undefined;
  const id = kit.nextId(ctx);
  const { freeUsed } = charge(ctx, id, p.r, p.credits);
  const r = kit.create(ctx, id, 'pending', {
    model: p.r.model,
    width: p.width,
    height: p.height,
    imageSize: p.r.imageSize,
    freeUsed,
    lane: p.lane && failWith === undefined,
    stuck: forcing.outcome === 'stuck',
    imageCount: 0,
    prompt: promptStart(body.prompt),
  });
  // The background sweep: more than 30 minutes pending or generating -> fail.
  kit.timeout(engine, r, now + IMAGE_TASK_TIMEOUT_MS + 1, OPEN, 'timeout');
  if (failWith !== undefined) {
    const afterMs = failWith === 'IMAGE_FREE_RELAX_TIMEOUT' ? freeLane.queueTimeoutMs : imageSchedule.pendingMs;
    kit.run(engine, r, { ...lifecycle(r, imageSchedule.pendingMs), failure: { atStep: 0, reason: failWith, afterMs } }, now);
  } else if (r.lane) admitToLane(engine, r, now);
  else kit.run(engine, r, lifecycle(r, imageSchedule.pendingMs), now);
  return { taskId: id, status: 'pending' as const };
};

const getImageTask: Handler<'getImageTask'> = ({ params }, ctx) => {
  return present(kit.own(ctx, params.taskId, { notFound: 'IMAGE_TASK_NOT_FOUND' }), ctx);
};

const listImageTasks: Handler<'listImageTasks'> = ({ query }, ctx) => {
  return kit.page(ctx, query, (r) => present(r, ctx));
};

const estimateImageCredits: Handler<'estimateImageCredits'> = ({ body }, ctx) => {
  const { account } = ctx;
  const r = resolveImageRequest(body);
  const { credits, pricing } = imagePrice(r, (body.prompt ?? '').length);
  const subscription = requiresSubscription(r);
  const warnings: ImageEstimateWarning[] = [];
  if (r.qualityIgnored) warnings.push('quality_ignored_for_image_a_2_lite');
  if (pricing.mode === 'token-estimate' && r.referenceCount > 0) warnings.push('reference_image_input_tokens_not_included');
  const pixels = r.aspectRatio === null ? undefined : imagePixels(r.imageSize, r.aspectRatio);
  const affordable = freeAllowanceApplies(ctx.engine.accounts.extension(account, freeUsages), r.model, r.imageSize) || account.credits >= credits;
  return {
    model: r.model,
    imageSize: r.imageSize,
    ...(r.aspectRatio !== null ? { aspectRatio: r.aspectRatio } : {}),
    ...(r.quality !== null ? { quality: r.quality } : {}),
    ...(pixels ? { pixels: { ...pixels, size: `${pixels.width}x${pixels.height}` } } : {}),
    credits,
    canGenerate: affordable && !(subscription && account.plan !== 'paid'),
    requiresSubscription: subscription,
    pricing,
    warnings,
  };
};

/**
 * The five image operations. Errors: the request rules of schemas/image.ts (26001-26003, 26019, 29003), 402 (26004, 26005),
 * 404 (26006), 429 (26029 base64 references; 26030 free lane full on the sync endpoint).
 */
export const imageService: Service<'generateImage' | 'createImageTask' | 'getImageTask' | 'listImageTasks' | 'estimateImageCredits'> = {
  kits: [kit],
  accountExtensions: [freeUsages],
  records: { image: imageRecordSchema },
  handlers: {
    generateImage,
    createImageTask,
    getImageTask,
    listImageTasks,
    estimateImageCredits,
  },

  state: { 'image-free-lane': z.strictObject({ inFlight: z.array(z.string()), queue: z.array(z.string()) }) },

  media: [
    {
      path: imagePath('{taskId}', '{n}'),
      resolve(engine, p) {
        const r = kit.find(engine, p.taskId);
        const n = /^\d+$/.test(p.n) ? Number(p.n) : -1;
        if (!r || r.status !== 'success' || n < 0 || n >= r.imageCount) return undefined;
        const bg = colourFor(engine.seed, `${r.id}/${n}`, 'image-bg');
        const fg = colourFor(engine.seed, `${r.id}/${n}`, 'image-fg');
        const label = { prompt: r.prompt ?? '', model: r.model, id: r.id };
        return {
          contentType: mediaFileTypes.png.contentType,
          key: `png ${r.width}x${r.height} ${rgbHex(bg)}/${rgbHex(fg)} ${labelKey(label)}`,
          render: () => labelledImage(r.width, r.height, bg, fg, label),
        };
      },
    },
  ],
};
