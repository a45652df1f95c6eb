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
 * with `freeLane` of schemas/image.ts. Standard JavaScript only: the PNG
 * encoder below is pure (fixed-Huffman deflate with run-length matches), so the
 * service runs outside Node too.
 */
import { errorCatalog, type ErrorName } from '../../schemas/errors.ts';
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
import { ApiError } from '../engine/api-error.ts';
import type { Account } from '../engine/accounts.ts';
import type { Engine } from '../engine/engine.ts';
import { hash32 } from '../engine/rng.ts';
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
  leaveLane(engine, st, at);
}

function succeed(engine: Engine, st: StoredImageTask, at: number): void {
  if (st.task.status !== 'generating') return;
  engine.accounts.capture(st.task.taskId, at);
  st.task.status = 'success';
  st.task.images = [{ url: imageUrl(engine, st.task.taskId, 0), mimeType: OUTPUT_MIME_TYPE }];
  st.task.completedAt = at;
  leaveLane(engine, st, at);
}

/** Schedules pending -> generating at `at`, then success after the generating time (never when stuck). */
function startGenerating(engine: Engine, st: StoredImageTask, at: number): void {
  engine.scheduler.at(at, (t) => {
    if (st.task.status !== 'pending') return;
    st.task.status = 'generating';
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
// Images: a pure-JS PNG encoder (palette, 1 bit per pixel)
// ---------------------------------------------------------------------------

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function adler32(b: Uint8Array): number {
  let a = 1;
  let s = 0;
  for (let i = 0; i < b.length; ) {
    const end = Math.min(b.length, i + 5552);
    for (; i < end; i++) {
      a += b[i];
      s += a;
    }
    a %= 65521;
    s %= 65521;
  }
  return ((s << 16) | a) >>> 0;
}

/** A growable byte buffer with an LSB-first bit writer (RFC 1951 bit order). */
class ByteWriter {
  buf: Uint8Array;
  len = 0;
  private acc = 0;
  private bits = 0;
  constructor(capacity: number) {
    this.buf = new Uint8Array(capacity);
  }
  byte(b: number): void {
    if (this.len === this.buf.length) {
      const next = new Uint8Array(this.buf.length * 2);
      next.set(this.buf);
      this.buf = next;
    }
    this.buf[this.len++] = b & 0xff;
  }
  u32(v: number): void {
    this.byte(v >>> 24);
    this.byte(v >>> 16);
    this.byte(v >>> 8);
    this.byte(v);
  }
  bytes(b: Uint8Array | number[]): void {
    for (const x of b) this.byte(x);
  }
  /** Writes `n` bits of `v`, least significant first. */
  put(v: number, n: number): void {
    this.acc |= v << this.bits;
    this.bits += n;
    while (this.bits >= 8) {
      this.byte(this.acc & 0xff);
      this.acc >>>= 8;
      this.bits -= 8;
    }
  }
  /** Writes a Huffman code of `n` bits, most significant first. */
  code(c: number, n: number): void {
    let r = 0;
    for (let i = 0; i < n; i++) r = (r << 1) | ((c >>> i) & 1);
    this.put(r, n);
  }
  flushBits(): void {
    if (this.bits > 0) this.byte(this.acc & 0xff);
    this.acc = 0;
    this.bits = 0;
  }
  result(): Uint8Array {
    return this.buf.subarray(0, this.len);
  }
}

const LEN_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
const LEN_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];

/** A literal/length symbol with the fixed Huffman code (RFC 1951, 3.2.6). */
function symbol(w: ByteWriter, s: number): void {
  if (s < 144) w.code(0x30 + s, 8);
  else if (s < 256) w.code(0x190 + s - 144, 9);
  else if (s < 280) w.code(s - 256, 7);
  else w.code(0xc0 + s - 280, 8);
}

/** A match of `len` (3-258) at distance 1. */
function repeat(w: ByteWriter, len: number): void {
  let i = 28;
  if (len < 258) {
    i = 27;
    while (LEN_BASE[i] > len) i--;
  }
  symbol(w, 257 + i);
  if (LEN_EXTRA[i]) w.put(len - LEN_BASE[i], LEN_EXTRA[i]);
  w.code(0, 5); // distance code 0 = distance 1
}

/** zlib stream of `data`: one fixed-Huffman block of literals and distance-1 runs. */
function zlib(data: Uint8Array): Uint8Array {
  const w = new ByteWriter(Math.max(1024, data.length >> 4));
  w.byte(0x78);
  w.byte(0x01);
  w.put(1, 1); // BFINAL
  w.put(1, 2); // BTYPE 01: fixed Huffman
  for (let i = 0; i < data.length; ) {
    const b = data[i++];
    symbol(w, b);
    let run = 0;
    while (i + run < data.length && run < 258 && data[i + run] === b) run++;
    if (run >= 3) {
      repeat(w, run);
      i += run;
    }
  }
  symbol(w, 256);
  w.flushBits();
  w.u32(adler32(data));
  return w.result();
}

function chunk(w: ByteWriter, type: string, data: Uint8Array): void {
  const td = new Uint8Array(4 + data.length);
  for (let i = 0; i < 4; i++) td[i] = type.charCodeAt(i);
  td.set(data, 4);
  w.u32(data.length);
  w.bytes(td);
  w.u32(crc32(td));
}

/** An RGB colour, 0-255 each. */
export type Rgb = [number, number, number];

/**
 * A `width` x `height` PNG (palette, 1 bit per pixel): background `bg` with a diagonal band of `fg`.
 * Pure JavaScript; a 4096x4096 image encodes to about 50 KB. Throws RangeError outside 1-16384.
 */
export function encodeImagePng(width: number, height: number, bg: Rgb, fg: Rgb): Uint8Array {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 || width > 16384 || height > 16384) throw new RangeError(`bad PNG size ${width}x${height}`);
  const stride = Math.ceil(width / 8);
  const raw = new Uint8Array((stride + 1) * height);
  const band = Math.max(1, Math.floor(Math.min(width, height) / 8));
  for (let y = 0; y < height; y++) {
    const row = y * (stride + 1) + 1;
    const center = Math.floor((y * width) / height);
    for (let x = Math.max(0, center - band); x < Math.min(width, center + band); x++) raw[row + (x >> 3)] |= 0x80 >> (x & 7);
  }
  const ihdr = new Uint8Array(13);
  const dv = new DataView(ihdr.buffer);
  dv.setUint32(0, width);
  dv.setUint32(4, height);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 3; // palette
  const w = new ByteWriter(1024);
  w.bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  chunk(w, 'IHDR', ihdr);
  chunk(w, 'PLTE', new Uint8Array([...bg, ...fg]));
  chunk(w, 'IDAT', zlib(raw));
  chunk(w, 'IEND', new Uint8Array(0));
  return w.result();
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Standard base64 of `bytes`. */
export function toBase64(bytes: Uint8Array): string {
  const out: string[] = [];
  let line = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    line += B64[(n >>> 18) & 63] + B64[(n >>> 12) & 63] + (i + 1 < bytes.length ? B64[(n >>> 6) & 63] : '=') + (i + 2 < bytes.length ? B64[n & 63] : '=');
    if (line.length >= 4096) {
      out.push(line);
      line = '';
    }
  }
  out.push(line);
  return out.join('');
}

function colour(seed: number, id: string, purpose: string): Rgb {
  const h = hash32(seed, id, purpose);
  return [h & 0xff, (h >>> 8) & 0xff, (h >>> 16) & 0xff];
}

/** The bytes of image `n` of generation `id` (deterministic in (seed, id, n)). */
export function renderImage(seed: number, id: string, n: number, width: number, height: number): Uint8Array {
  return encodeImagePng(width, height, colour(seed, `${id}/${n}`, 'image-bg'), colour(seed, `${id}/${n}`, 'image-fg'));
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
    const failWith = forcing.outcome === 'failed' ? ((forcing.error ?? 'IMAGE_GENERATION_FAILED') as ErrorName) : undefined;
    if (failWith !== undefined && !(failWith in imageFailures)) throw new ApiError('INVALID_PREFER', `Prefer error=${errorCatalog[failWith].code} is not a failure reason of image tasks`);
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
    store(engine).insert(account.apiKey, taskId, st);
    // The background sweep: more than 30 minutes pending or generating -> fail.
    engine.scheduler.at(now + IMAGE_TASK_TIMEOUT_MS + 1, (t) => fail(engine, st, t, 'timeout'));
    if (failWith !== undefined) {
      const reason = failWith as keyof typeof imageFailures;
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
    const page = store(ctx.engine).pageNewestFirst(ctx.account.apiKey, query.page, query.pageSize, status ? (r) => r.task.status === status : undefined);
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
