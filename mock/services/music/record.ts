/**
 * The music task (mock/services/music.ts re-exports what the other modules
 * use): its record, its task kit, lengths, titles and tags, the signed track
 * URLs, how a task is presented, and how a create reserves, stores and runs
 * it. Standard JavaScript only.
 */
import { errorCatalog, type ErrorName } from '../../../schemas/errors.ts';
import { AUDIO_TIMBRES, audioFileTypes } from '../../../schemas/media.ts';
import {
  MUSIC_URL_TTL_MS,
  musicDurations,
  musicSchedule,
  musicStatuses,
  musicTaskTypes,
  musicTrackCount,
  MusicTaskParams,
  type MusicTask,
  type MusicTaskType,
  type MusicTrack,
} from '../../../schemas/music.ts';
import { musicProviders, type MusicProvider } from '../../../schemas/music-providers.ts';
import { z } from 'zod';
import { hash32 } from '../../engine/rng.ts';
import { audioFrameCount, audioFrameSamples, audioMaxDurationMs } from '../../media/audio.ts';
import type { ServiceContext } from '../context.ts';
import { fake } from '../fake.ts';
import { failureMessage, forcedFailureReason, TaskKit, taskRecordSchema } from '../tasks.ts';
import { cutText } from '../../../schemas/text.ts';

/** One planned track: shown from success on. Lengths are whole MP3 frames, so the file decodes to exactly `durationMs`; `variant` is the timbre of the rendered audio (0-5). */
const MusicTrackPlan = z.strictObject({ title: z.string(), tags: z.string(), durationMs: z.number(), variant: z.number().int() });
export type MusicTrackPlan = z.infer<typeof MusicTrackPlan>;

/**
 * A stored music task, as saved (checked before a saved state is loaded): `price` is the credits reserved at
 * creation, captured on success.
 */
export const musicRecordSchema = taskRecordSchema(musicStatuses, {
  provider: z.enum(musicProviders),
  taskType: z.enum(musicTaskTypes),
  params: MusicTaskParams,
  price: z.number().int().min(0),
  creditCost: z.number(),
  tracks: z.array(MusicTrackPlan),
  errorMessage: z.string().optional(),
});
export type MusicRecord = z.infer<typeof musicRecordSchema>;

const TIMED_OUT: ErrorName = 'MUSIC_TIMED_OUT';
export const ID_PREFIX = 'mus';

/** The errorMessage of a failure reason: the timeout's own words, else `failureMessage` (`<code>: <meaning>`). */
function musicFailureMessage(reason: string): string {
  if (reason === TIMED_OUT)
    return `${errorCatalog.MUSIC_TIMED_OUT.code}: no progress for ${musicSchedule.timeoutMs / 60_000} minutes; the credits were refunded`;
  return failureMessage(reason);
}

export const kit = new TaskKit<MusicRecord>(
  { area: 'music', idPrefix: ID_PREFIX, noun: 'music task', terminal: ['success', 'failed'], failStatus: 'failed' },
  {
    onEnter(engine, r, status, at) {
      // "without progress": each move restarts the clock of the timeout
      if (status === 'generating' || status === 'uploading') kit.timeout(engine, r, at + musicSchedule.timeoutMs, [status], TIMED_OUT);
      if (status === 'success') r.creditCost = r.price;
    },
    onFail(_engine, r, reason) {
      r.errorMessage = musicFailureMessage(reason);
    },
  },
);

// ---------------------------------------------------------------------------
// Lengths, titles and tags
// ---------------------------------------------------------------------------

const FRAME_MS = (audioFrameSamples.mp3 * 1000) / 24_000; // 24 ms

/** `ms` as the rendered MP3 lasts: whole 24 ms frames (at least the renderer's minimum), at most the renderer's maximum. */
export function frameExactMs(ms: number): number {
  return audioFrameCount('mp3', Math.min(Math.max(ms, 1), audioMaxDurationMs)) * FRAME_MS;
}

/** A length in [min, max] in steps of `musicDurations.stepMs`, fixed by (seed, ...parts). */
export function seededMs(seed: number, range: { minMs: number; maxMs: number }, ...parts: (string | number)[]): number {
  const step = musicDurations.stepMs;
  const steps = (range.maxMs - range.minMs) / step;
  return range.minMs + (hash32(seed, ...parts) % (steps + 1)) * step;
}

/** How long the task stays generating, ms: fixed per task id within the assumed window. */
export function musicGeneratingMs(seed: number, taskId: string): number {
  const { generatingMinMs: lo, generatingMaxMs: hi } = musicSchedule;
  return lo + (hash32(seed, taskId, 'music-generating') % ((hi - lo) / 1000 + 1)) * 1000;
}

const GENRES = ['pop', 'indie', 'synth-pop', 'lo-fi', 'jazz', 'rock', 'folk', 'electronic', 'ambient', 'soul', 'funk', 'cinematic', 'acoustic', 'dream pop'];
const MOODS = ['upbeat', 'dreamy', 'melancholic', 'energetic', 'calm', 'warm', 'dark', 'bright', 'nostalgic', 'driving'];
const NOUNS = ['Harbor', 'Highway', 'Morning', 'Lanterns', 'Satellite', 'Summer', 'Window', 'River', 'Neon', 'Echoes', 'Paper Moon', 'Tides'];
const ADJS = ['Golden', 'Quiet', 'Electric', 'Velvet', 'Distant', 'Silver', 'Restless', 'Endless', 'Gentle', 'Wild'];

const titleCase = (s: string) => s.replace(/\p{L}+/gu, (w) => w.charAt(0).toUpperCase() + w.slice(1));

/** The first sung line of lyrics (section headers like [Verse] skipped), cut to 40 characters, or ''. */
function firstLine(lyrics: string | undefined): string {
  const line = (lyrics ?? '')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .find((l) => l !== '' && !/^\[.*\]$/.test(l));
  return line ? cutText(line, 40).trim() : '';
}

/** A track title: the title sent, else the first line of the lyrics, else a few words of the prompt, else seeded words. */
export function titleFor(seed: number, id: string, p: { title?: string; lyrics?: string; prompt?: string }): string {
  if (p.title?.trim()) return p.title.trim();
  const line = firstLine(p.lyrics);
  if (line) return line;
  const words = (p.prompt ?? '').match(/\p{L}[\p{L}'-]*/gu)?.slice(0, 4) ?? [];
  if (words.length) return titleCase(words.join(' '));
  return fake(seed, ['music-title', id], (f) => `${f.helpers.arrayElement(ADJS)} ${f.helpers.arrayElement(NOUNS)}`);
}

/** Style tags: the style sent, else a seeded mood and two genres, comma-separated. */
export function tagsFor(seed: number, id: string, style: string | undefined, extra: string[] = []): string {
  if (style?.trim()) return [style.trim(), ...extra].join(', ');
  return fake(seed, ['music-tags', id], (f) => [f.helpers.arrayElement(MOODS), ...f.helpers.arrayElements(GENRES, 2), ...extra].join(', '));
}

/** The planned tracks of task `id`: one per take of `provider`, each `durationMs(i)` long (frame-exact), with its own timbre. */
export function planTracks(
  seed: number,
  id: string,
  provider: MusicProvider,
  title: string,
  tags: string,
  durationMs: (i: number) => number,
): MusicTrackPlan[] {
  return Array.from({ length: musicTrackCount[provider] }, (_, i) => ({
    title,
    tags,
    durationMs: frameExactMs(durationMs(i)),
    variant: hash32(seed, id, 'music-timbre', i) % AUDIO_TIMBRES,
  }));
}

// ---------------------------------------------------------------------------
// Signed URLs
// ---------------------------------------------------------------------------

export const trackPath = (taskId: string, index: number | string) => `/media/music/${taskId}/${index}.${audioFileTypes.mp3.extension}`;
export const TRACK_PATH = /^\/media\/music\/([^/]+)\/(\d+)\.mp3$/;

/** The signing key of an engine: derived from its seed (a mock's secret: deterministic, never sent). */
function signingKey(seed: number): string {
  return [hash32(seed, 'music-url-key', 1), hash32(seed, 'music-url-key', 2)].map((h) => h.toString(16).padStart(8, '0')).join('');
}

/**
 * The signature of `path` valid until `expires` (epoch ms) under the engine's
 * key: 32 hex digits, an HMAC-shaped construction over a 32-bit hash
 * (inner hash of key and message, outer hash of key and inner), four lanes.
 */
export function signTrackPath(seed: number, path: string, expires: number): string {
  const key = signingKey(seed);
  return [1, 2, 3, 4]
    .map((lane) =>
      hash32('outer', key, lane, hash32('inner', key, lane, path, expires))
        .toString(16)
        .padStart(8, '0'),
    )
    .join('');
}

/** The signed URL of track `index` of task `taskId`, valid `MUSIC_URL_TTL_MS` from `now`. */
function signedTrackUrl(ctx: Pick<ServiceContext, 'engine' | 'now' | 'url'>, taskId: string, index: number): string {
  const path = trackPath(taskId, index);
  const expires = ctx.now + MUSIC_URL_TTL_MS;
  return `${ctx.url(path)}?expires=${expires}&sig=${signTrackPath(ctx.engine.seed, path, expires)}`;
}

/** The provider's id of track `index` of task `taskId`: `ma_<hex>_<n>` (musicA) or `mb_<hex>_<n>` (musicB). */
export function providerSongIdOf(provider: MusicProvider, taskId: string, index: number): string {
  return `${provider === 'musicA' ? 'ma' : 'mb'}_${taskId.slice(ID_PREFIX.length + 1)}_${index}`;
}

// ---------------------------------------------------------------------------
// Presenting
// ---------------------------------------------------------------------------

export function present(r: MusicRecord, ctx: Pick<ServiceContext, 'engine' | 'now' | 'url'>): MusicTask {
  const tracks: MusicTrack[] =
    r.status === 'success'
      ? r.tracks.map((t, i) => ({
          title: t.title,
          tags: t.tags,
          duration: t.durationMs / 1000,
          audioUrl: signedTrackUrl(ctx, r.id, i),
          providerSongId: providerSongIdOf(r.provider, r.id, i),
        }))
      : [];
  return {
    id: r.id,
    provider: r.provider,
    taskType: r.taskType,
    status: r.status,
    params: r.params,
    tracks,
    creditCost: r.creditCost,
    ...(r.errorMessage !== undefined ? { errorMessage: r.errorMessage } : {}),
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

// ---------------------------------------------------------------------------
// Creating and running a task
// ---------------------------------------------------------------------------

interface NewTask {
  provider: MusicProvider;
  taskType: MusicTaskType;
  params: MusicTaskParams;
  price: number;
  /** The tracks, planned from the task id. */
  tracks: (id: string) => MusicTrackPlan[];
}

/**
 * Reserves the price (MUSIC_INSUFFICIENT_CREDITS, nothing taken), stores the
 * task pending with its planned tracks, and runs its lifecycle: forced
 * failures end generating instead of reaching uploading; a stuck task (or one
 * forced to time out) stays generating until the timeout fails it.
 */
export function start(ctx: ServiceContext<'MUSIC_INSUFFICIENT_CREDITS'>, t: NewTask): { taskId: string; status: 'pending' } {
  const { engine, now, forcing } = ctx;
  const id = kit.nextId(ctx);
  kit.reserve(ctx, id, t.price, 'MUSIC_INSUFFICIENT_CREDITS', `music ${t.taskType.toLowerCase()} (${t.provider}, ${t.params.model})`);
  const r = kit.create(ctx, id, 'pending', {
    provider: t.provider,
    taskType: t.taskType,
    params: t.params,
    price: t.price,
    creditCost: 0,
    tracks: t.tracks(id),
  });
  const s = musicSchedule;
  kit.timeout(engine, r, now + s.timeoutMs, ['pending'], TIMED_OUT);
  const failWith = forcedFailureReason(ctx);
  const stuck = forcing.outcome === 'stuck' || failWith === TIMED_OUT;
  kit.run(
    engine,
    r,
    {
      steps: [
        { status: 'generating', afterMs: s.pendingMs },
        { status: 'uploading', afterMs: musicGeneratingMs(engine.seed, id) },
        { status: 'success', afterMs: s.uploadingMs },
      ],
      ...(failWith && !stuck ? { failure: { atStep: 1, reason: failWith } } : {}),
      ...(stuck ? { stuckBefore: 1 } : {}),
    },
    now,
  );
  return { taskId: id, status: 'pending' };
}

/** The state after an asynchronous step (reading uploads): due events run, `now` read again (`ctx.account` is read live already). */
export function refreshed<E extends ErrorName>(ctx: ServiceContext<E>): ServiceContext<E> {
  ctx.now = ctx.engine.tick();
  return ctx;
}
