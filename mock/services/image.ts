/**
 * The image service: synchronous and asynchronous generation, task read and
 * list, and the estimate (document 1, image sections). Money: the estimate's
 * credits are reserved at creation (or one free generation consumed for 1K/2K
 * with freeUsages[model] > 0), captured on success, refunded (and the
 * allowance returned) on any failure. The lifecycle runs on the engine's
 * scheduler in virtual time:
 *
 *   create -> pending --(pendingMs)--> generating --(generatingMs)--> success
 *                     \--(forced or free-lane failure)--> fail (refunded)
 *   pending or generating for more than 30 minutes --(timeout event)--> fail
 *
 * The restricted free lane (image-b-3-pro, never-paid accounts) is simulated
 * with `freeLane` of schemas/image.ts. Standard JavaScript only (images come
 * from ./png.ts), so the service runs outside Node too.
 */
import type { ErrorName } from '../../schemas/errors.ts';
import {
  IMAGE_TASK_TIMEOUT_MS,
  OUTPUT_MIME_TYPE,
  freeAllowanceApplies,
  freeLane,
  freeLaneReasonOf,
  imageFailures,
  imageGeneratingMs,
  imagePixels,
  imagePrice,
  imageRateLimits,
  imageSchedule,
  inFreeLane,
  requiresSubscription,
  resolveImageRequest,
  type ImageEstimateWarning,
  type ImageGenerationRequest,
  type ImageTask,
  type ResolvedImageRequest,
} from '../../schemas/image.ts';
import { operations } from '../../schemas/operations.ts';
import { ApiError } from '../engine/api-error.ts';
import { colourFor, encodePng, toBase64 } from './png.ts';
import type { Account } from '../engine/accounts.ts';
import type { Engine } from '../engine/engine.ts';
import type { Handlers, ServiceContext } from './context.ts';

/** A stored task: the wire object plus what the service needs. */
export interface StoredImageTask {
  task: ImageTask;
  apiKey: string;
  width: number;
  height: number;
  imageSize: ResolvedImageRequest['imageSize'];
  /** A free generation was consumed instead of credits. */
  freeUsed: boolean;
  /** Runs in the restricted free lane. */
  lane: boolean;
  /** Forced never to finish generating (Prefer: outcome=stuck). */
  stuck: boolean;
}

/** State of the restricted free lane, one per engine (a store record, so reset drops it). */
interface LaneState {
  inFlight: Set<string>;
  queue: string[];
}

const STORE = 'image';
const LANE_STORE = 'image-free-lane';

function store(engine: Engine) {
  return engine.store<StoredImageTask>(STORE);
}

function laneState(engine: Engine): LaneState {
  const s = engine.store<LaneState>(LANE_STORE);
  return s.get('lane')?.record ?? s.insert('(lane)', 'lane', { inFlight: new Set(), queue: [] });
}

/** URL of the n-th image of a task, hosted by the mock (assumed path). */
export function imageUrl(engine: Engine, taskId: string, n: number): string {
  return `${engine.publicUrl}/media/images/${taskId}/${n}.png`;
}

// ---------------------------------------------------------------------------
// Money
// ---------------------------------------------------------------------------

/**
 * Takes the price of a generation `id`: one free generation (1K/2K, freeUsages[model] > 0) or the
 * credits. Errors: IMAGE_SUBSCRIPTION_REQUIRED, IMAGE_INSUFFICIENT_CREDITS (nothing taken).
 */
function charge(ctx: ServiceContext, id: string, r: ResolvedImageRequest, credits: number): { freeUsed: boolean } {
  const { engine, account, now } = ctx;
  if (requiresSubscription(r) && account.plan !== 'paid')
    throw new ApiError('IMAGE_SUBSCRIPTION_REQUIRED', `${r.model} at ${r.imageSize}${r.quality === 'high' ? ' with quality high' : ''} requires a subscription; the account is on plan ${account.plan}`);
  if (freeAllowanceApplies(account.freeUsages, r.model, r.imageSize)) {
    account.freeUsages[r.model] -= 1;
    engine.accounts.reserve(account, id, 0, now, `image ${r.model} ${r.imageSize}: free generation (${account.freeUsages[r.model]} left)`);
    return { freeUsed: true };
  }
  if (account.credits < credits) throw new ApiError('IMAGE_INSUFFICIENT_CREDITS', `insufficient credits: this image costs ${credits} credits and the balance is ${account.credits}`);
  engine.accounts.reserve(account, id, credits, now, `image ${r.model} ${r.imageSize}`);
  return { freeUsed: false };
}

/** Refunds a generation in full and returns its free allowance; true when an allowance was returned. */
function refund(engine: Engine, account: Account, id: string, model: string, freeUsed: boolean, at: number, note: string): boolean {
  engine.accounts.release(id, at, note);
  if (!freeUsed) return false;
  account.freeUsages[model] = (account.freeUsages[model] ?? 0) + 1;
  return true;
}

/** The tighter limit on requests carrying base64 references. Errors: IMAGE_RATE_LIMITED. */
function inlineReferenceLimit(ctx: ServiceContext, r: ResolvedImageRequest): void {
  if (r.inlineReferenceCount === 0) return;
  const l = imageRateLimits.inlineReferences;
  const d = ctx.engine.limiter.hit(ctx.account.apiKey, l.bucket, l.limit, l.windowMs, ctx.now);
  if (!d.allowed) {
    const retryAfterSeconds = Math.max(1, Math.ceil(d.retryAfterMs / 1000));
    throw new ApiError('IMAGE_RATE_LIMITED', `rate limit: at most ${l.limit} image requests with base64 reference images per ${l.windowMs / 1000} s; retry after ${retryAfterSeconds} s`, { retryAfterSeconds });
  }
}

// ---------------------------------------------------------------------------
// Async lifecycle
// ---------------------------------------------------------------------------

function isOpen(st: StoredImageTask): boolean {
  return st.task.status === 'pending' || st.task.status === 'generating';
}

/** Leaves the free lane (slot or queue) and starts waiting tasks while slots are free. */
function leaveLane(engine: Engine, st: StoredImageTask, at: number): void {
  if (!st.lane) return;
  const lane = laneState(engine);
  lane.inFlight.delete(st.task.taskId);
  const qi = lane.queue.indexOf(st.task.taskId);
  if (qi >= 0) lane.queue.splice(qi, 1);
  while (lane.inFlight.size < freeLane.capacity && lane.queue.length > 0) {
    const next = store(engine).get(lane.queue.shift()!)!.record;
    lane.inFlight.add(next.task.taskId);
    startGenerating(engine, next, at);
  }
}

function fail(engine: Engine, st: StoredImageTask, at: number, kind: keyof typeof imageFailures): void {
  if (!isOpen(st)) return;
  const f = imageFailures[kind];
  const account = engine.accounts.get(st.apiKey, at);
  const rolledBack = refund(engine, account, st.task.taskId, st.task.model, st.freeUsed, at, `refund: ${f.failMsg}`);
  const reason = freeLaneReasonOf[kind as ErrorName];
  Object.assign(st.task, {
    status: 'fail',
    failMsg: f.failMsg,
    completedAt: at,
    ...(reason ? { failReason: reason } : {}),
    retryable: f.retryable,
    freeUsageRolledBack: rolledBack,
    userMessage: f.userMessage,
  } satisfies Partial<ImageTask>);
  store(engine).regroup(st.task.taskId, 'fail');
  leaveLane(engine, st, at);
}

function succeed(engine: Engine, st: StoredImageTask, at: number): void {
  if (st.task.status !== 'generating') return;
  engine.accounts.capture(st.task.taskId, at);
  st.task.status = 'success';
  store(engine).regroup(st.task.taskId, 'success');
  st.task.images = [{ url: imageUrl(engine, st.task.taskId, 0), mimeType: OUTPUT_MIME_TYPE }];
  st.task.completedAt = at;
  leaveLane(engine, st, at);
}

/** Schedules pending -> generating at `at`, then success after the generating time (never when stuck). */
function startGenerating(engine: Engine, st: StoredImageTask, at: number): void {
  engine.scheduler.at(at, (t) => {
    if (st.task.status !== 'pending') return;
    st.task.status = 'generating';
    store(engine).regroup(st.task.taskId, 'generating');
    if (st.stuck) return;
    engine.scheduler.at(t + imageGeneratingMs(st.task.model, st.imageSize), (done) => succeed(engine, st, done));
  });
}

/** Admits a lane task: a slot, a place in the queue (with its timeout), or a busy failure. */
function admitToLane(engine: Engine, st: StoredImageTask, now: number): void {
  const lane = laneState(engine);
  const startAt = now + imageSchedule.pendingMs;
  if (lane.inFlight.size < freeLane.capacity) {
    lane.inFlight.add(st.task.taskId);
    startGenerating(engine, st, startAt);
  } else if (lane.queue.length < freeLane.queueCapacity) {
    lane.queue.push(st.task.taskId);
    engine.scheduler.at(now + freeLane.queueTimeoutMs, (t) => {
      if (st.task.status === 'pending' && lane.queue.includes(st.task.taskId)) fail(engine, st, t, 'IMAGE_FREE_RELAX_TIMEOUT');
    });
  } else {
    engine.scheduler.at(startAt, (t) => fail(engine, st, t, 'IMAGE_FREE_RELAX_BUSY'));
  }
}

// ---------------------------------------------------------------------------
// Images
// ---------------------------------------------------------------------------

/** The bytes of image `n` of generation `id` (deterministic in (seed, id, n)). */
export function renderImage(seed: number, id: string, n: number, width: number, height: number): Uint8Array {
  return encodePng(width, height, colourFor(seed, `${id}/${n}`, 'image-bg'), colourFor(seed, `${id}/${n}`, 'image-fg'));
}

/** The PNG of image `n` of a succeeded task, for the media route; undefined when there is none. */
export function hostedImage(engine: Engine, taskId: string, n: number): Uint8Array | undefined {
  const st = store(engine).get(taskId)?.record;
  if (!st || st.task.status !== 'success' || !Number.isInteger(n) || n < 0 || n >= (st.task.images?.length ?? 0)) return undefined;
  return renderImage(engine.seed, taskId, n, st.width, st.height);
}

// ---------------------------------------------------------------------------
// Handlers
// ---------------------------------------------------------------------------

/** Resolves a generation request, prices it, and applies the tighter limit of base64 references. */
function prepare(ctx: ServiceContext, body: ImageGenerationRequest) {
  const r = resolveImageRequest(body);
  const { credits } = imagePrice(r, body.prompt.length);
  const { width, height } = imagePixels(r.imageSize, r.aspectRatio);
  inlineReferenceLimit(ctx, r);
  return { r, credits, width, height, lane: inFreeLane(r.model, ctx.account) };
}

/**
 * The five image operations. Errors: the request rules of schemas/image.ts (26001-26003, 26019, 29003), 402 (26004, 26005),
 * 404 (26006), 429 (26029 base64 references; 26030 free lane full on the sync endpoint).
 */
export const imageHandlers: Handlers<'generateImage' | 'createImageTask' | 'getImageTask' | 'listImageTasks' | 'estimateImageCredits'> = {
  generateImage({ body }, ctx) {
    const { engine, account, now } = ctx;
    const p = prepare(ctx, body);
    if (p.lane && laneState(engine).inFlight.size >= freeLane.capacity)
      throw new ApiError('IMAGE_FREE_RELAX_BUSY', `free_relax_busy: the free lane of ${p.r.model} is at capacity (${freeLane.capacity} in flight); nothing was charged, retry later`, { retryAfterSeconds: freeLane.syncRetryAfterSeconds });
    const id = engine.nextId('igen', account.apiKey, 'image-sync');
    charge(ctx, id, p.r, p.credits);
    engine.accounts.capture(id, now);
    const data = toBase64(renderImage(engine.seed, id, 0, p.width, p.height));
    return { candidates: [{ content: { parts: [{ inlineData: { mimeType: OUTPUT_MIME_TYPE, data } }] } }] };
  },

  createImageTask({ body }, ctx) {
    const { engine, account, now, forcing } = ctx;
    const p = prepare(ctx, body);
    // The router has checked forcing.error against the operation's failureReasons, each a key of imageFailures.
    const failWith = forcing.outcome === 'failed' ? ((forcing.error ?? operations.createImageTask.failureReasons[0]) as keyof typeof imageFailures) : undefined;
    const taskId = engine.nextId('img', account.apiKey, 'image');
    const { freeUsed } = charge(ctx, taskId, p.r, p.credits);
    const st: StoredImageTask = {
      task: { taskId, status: 'pending', model: p.r.model, createdAt: now },
      apiKey: account.apiKey,
      width: p.width,
      height: p.height,
      imageSize: p.r.imageSize,
      freeUsed,
      lane: p.lane,
      stuck: forcing.outcome === 'stuck',
    };
    store(engine).insert(account.apiKey, taskId, st, st.task.status);
    // The background sweep: more than 30 minutes pending or generating -> fail.
    engine.scheduler.at(now + IMAGE_TASK_TIMEOUT_MS + 1, (t) => fail(engine, st, t, 'timeout'));
    if (failWith !== undefined) {
      const reason = failWith;
      const due = reason === 'IMAGE_FREE_RELAX_TIMEOUT' ? now + freeLane.queueTimeoutMs : now + imageSchedule.pendingMs;
      st.lane = false;
      engine.scheduler.at(due, (t) => fail(engine, st, t, reason));
    } else if (st.lane) admitToLane(engine, st, now);
    else startGenerating(engine, st, now + imageSchedule.pendingMs);
    return { taskId, status: 'pending' as const };
  },

  getImageTask({ params }, ctx) {
    const hit = store(ctx.engine).get(params.taskId);
    if (!hit || hit.owner !== ctx.account.apiKey) throw new ApiError('IMAGE_TASK_NOT_FOUND', `taskId ${params.taskId}: image task not found`);
    return hit.record.task;
  },

  listImageTasks({ query }, ctx) {
    const status = query.status;
    const page = store(ctx.engine).pageNewestFirst(ctx.account.apiKey, query.page, query.pageSize, status);
    return { items: page.items.map((r) => r.task), page: query.page, pageSize: query.pageSize, total: page.total };
  },

  estimateImageCredits({ body }, ctx) {
    const { account } = ctx;
    const r = resolveImageRequest(body);
    const { credits, pricing } = imagePrice(r, (body.prompt ?? '').length);
    const subscription = requiresSubscription(r);
    const warnings: ImageEstimateWarning[] = [];
    if (r.qualityIgnored) warnings.push('quality_ignored_for_image_a_2_lite');
    if (pricing.mode === 'token-estimate' && r.referenceCount > 0) warnings.push('reference_image_input_tokens_not_included');
    const pixels = r.aspectRatio === null ? undefined : imagePixels(r.imageSize, r.aspectRatio);
    const affordable = freeAllowanceApplies(account.freeUsages, r.model, r.imageSize) || account.credits >= credits;
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
  },
};
