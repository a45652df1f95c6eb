/**
 * The music area (document 3, "Providers and models (lyrics and music)",
 * "musicB parameters", "Music task", "States and transitions", "Music:
 * asynchronous generation (prefix /v1/music)", "Limits"): seven creates on the
 * task kit, the task read and the list, and the tracks' signed MP3s.
 *
 *   create -> pending --(10 s)--> generating --(50-140 s, per task)--> uploading --(10 s)--> success (tracks, credits captured)
 *                                            \--(forced failure)--> failed (refunded)
 *   30 minutes without progress in pending, generating or uploading --(timeout)--> failed (39013, refunded)
 *
 * Every create reserves its price (by model tier, the extend table, or a
 * flat price) and plans its tracks (titles, tags, lengths, timbres) at once;
 * success reveals them. A track's MP3 is rendered on request at
 * /media/music/{taskId}/{n}.mp3 and only with a valid signature: each fetch of
 * the task signs `?expires=<now + 1 h>&sig=<hex>` afresh (a keyed hash of the
 * path and the expiry under a secret derived from the engine seed), and the
 * media route refuses a URL past its expiry or with a signature that does not
 * match (403). Sources are judged for real: uploads by their content (magic
 * bytes, audio read with mediabunny for its length), platform URLs and
 * providerSongIds by the caller's own tasks (ownership verified).
 */
import { z } from 'zod';
import { musicStatuses } from '../../schemas/music.ts';
import { errorCatalog, type ErrorName } from '../../schemas/errors.ts';
import { AUDIO_TIMBRES, audioFileTypes } from '../../schemas/media.ts';
import {
  isHttpUrl,
  modelsOf,
  MUSIC_URL_TTL_MS,
  musicBParameterNames,
  musicDurations,
  musicFileTypes,
  musicFlatCredits,
  musicSchedule,
  musicTrackCount,
  type MusicStatus,
  type MusicTask,
  type MusicTaskParams,
  type MusicTaskType,
  type MusicTrack,
} from '../../schemas/music.ts';
import { defaultModelOf, extendCredits, extendPricedModel, modelCredits, resolveProvider, type MusicProvider } from '../../schemas/music-providers.ts';
import type { UploadedFile } from '../../schemas/registry-types.ts';
import { ApiError } from '../engine/api-error.ts';
import type { Engine } from '../engine/engine.ts';
import { hash32 } from '../engine/rng.ts';
import { audioFrameCount, audioFrameSamples, audioMaxDurationMs, renderAudio } from '../media/audio.ts';
import { inspectReferenceAudio, mediaDurationMs } from '../media/reference-audio.ts';
import { sniffFileType, type SniffedType } from '../media/sniff.ts';
import type { Handler, MediaAsset, Service, ServiceContext } from './context.ts';
import { fake } from './fake.ts';
import { TaskKit, type Task, taskRecordSchema } from './tasks.ts';
import { cutText } from '../../schemas/text.ts';

/** One planned track: shown from success on. Lengths are whole MP3 frames, so the file decodes to exactly `durationMs`. */
export interface MusicTrackPlan {
  title: string;
  tags: string;
  durationMs: number;
  /** Timbre of the rendered audio (0-5). */
  variant: number;
}

/** A stored music task. */
export interface MusicRecord extends Task<MusicStatus> {
  provider: MusicProvider;
  taskType: MusicTaskType;
  params: MusicTaskParams;
  /** Credits reserved at creation, captured on success. */
  price: number;
  creditCost: number;
  tracks: MusicTrackPlan[];
  errorMessage?: string;
}

const TIMED_OUT: ErrorName = 'MUSIC_TIMED_OUT';
const ID_PREFIX = 'mus';

/** The errorMessage of a failure reason: `<code>: <meaning>` for a catalogued reason, else the reason itself. */
function failureMessage(reason: string): string {
  if (reason === TIMED_OUT)
    return `${errorCatalog.MUSIC_TIMED_OUT.code}: no progress for ${musicSchedule.timeoutMs / 60_000} minutes; the credits were refunded`;
  const known = Object.hasOwn(errorCatalog, reason) ? errorCatalog[reason as ErrorName] : undefined;
  return known ? `${known.code}: ${known.meaning}` : reason;
}

const kit = new TaskKit<MusicRecord>(
  { area: 'music', idPrefix: ID_PREFIX, noun: 'music task', terminal: ['success', 'failed'], failStatus: 'failed' },
  {
    onEnter(engine, r, status, at) {
      // "without progress": each move restarts the clock of the timeout
      if (status === 'generating' || status === 'uploading') kit.timeout(engine, r, at + musicSchedule.timeoutMs, [status], TIMED_OUT);
      if (status === 'success') r.creditCost = r.price;
    },
    onFail(_engine, r, reason) {
      r.errorMessage = failureMessage(reason);
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
function seededMs(seed: number, range: { minMs: number; maxMs: number }, ...parts: (string | number)[]): number {
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
function titleFor(seed: number, id: string, p: { title?: string; lyrics?: string; prompt?: string }): string {
  if (p.title?.trim()) return p.title.trim();
  const line = firstLine(p.lyrics);
  if (line) return line;
  const words = (p.prompt ?? '').match(/\p{L}[\p{L}'-]*/gu)?.slice(0, 4) ?? [];
  if (words.length) return titleCase(words.join(' '));
  return fake(seed, ['music-title', id], (f) => `${f.helpers.arrayElement(ADJS)} ${f.helpers.arrayElement(NOUNS)}`);
}

/** Style tags: the style sent, else a seeded mood and two genres, comma-separated. */
function tagsFor(seed: number, id: string, style: string | undefined, extra: string[] = []): string {
  if (style?.trim()) return [style.trim(), ...extra].join(', ');
  return fake(seed, ['music-tags', id], (f) => [f.helpers.arrayElement(MOODS), ...f.helpers.arrayElements(GENRES, 2), ...extra].join(', '));
}

/** The planned tracks of task `id`: one per take of `provider`, each `durationMs(i)` long (frame-exact), with its own timbre. */
function planTracks(seed: number, id: string, provider: MusicProvider, title: string, tags: string, durationMs: (i: number) => number): MusicTrackPlan[] {
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

const trackPath = (taskId: string, index: number | string) => `/media/music/${taskId}/${index}.${audioFileTypes.mp3.extension}`;
const TRACK_PATH = /^\/media\/music\/([^/]+)\/(\d+)\.mp3$/;

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

function present(r: MusicRecord, ctx: Pick<ServiceContext, 'engine' | 'now' | 'url'>): MusicTask {
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
function start(ctx: ServiceContext, t: NewTask): { taskId: string; status: 'pending' } {
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
  const failWith = forcing.outcome === 'failed' ? (forcing.error ?? 'MUSIC_GENERATION_FAILED') : undefined;
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
function refreshed(ctx: ServiceContext): ServiceContext {
  ctx.now = ctx.engine.tick();
  return ctx;
}

// ---------------------------------------------------------------------------
// Sources: uploads, platform URLs, provider song ids
// ---------------------------------------------------------------------------

/** What an accepted upload was: its echo for params and, for audio, its length. */
interface CheckedUpload {
  echo: { filename: string; bytes: number; type: string };
  durationMs?: number;
}

/** The sniffed types a field's named types stand for (jpg and jpeg are one; an m4a may carry an mp4 brand). */
const SNIFFED_FOR: Record<string, readonly SniffedType[]> = {
  mp3: ['mp3'],
  m4a: ['m4a', 'mp4'],
  wav: ['wav'],
  jpg: ['jpeg'],
  jpeg: ['jpeg'],
  png: ['png'],
  webp: ['webp'],
  mp4: ['mp4'],
  mov: ['mov'],
  avi: ['avi'],
  mkv: ['mkv'],
  webm: ['webm'],
};

/**
 * Checks the upload of `field` against its named `types` by its content
 * (MUSIC_UNSUPPORTED_FILE otherwise); audio must also read as audio with a
 * length (mediabunny), which it returns.
 */
async function checkUpload(field: string, file: UploadedFile, types: readonly string[], audio: boolean): Promise<CheckedUpload> {
  const sniffed = sniffFileType(file.bytes);
  const allowed = types.flatMap((t) => SNIFFED_FOR[t] ?? []);
  const named = `${field} (${JSON.stringify(file.filename)}, ${file.bytes.length} bytes)`;
  if (!sniffed || !allowed.includes(sniffed))
    throw new ApiError(
      'MUSIC_UNSUPPORTED_FILE',
      `${named}: ${sniffed ? `its content is ${sniffed}` : 'its content is no type this field accepts'}; send ${types.join(', ')} (judged by the content, not the name)`,
    );
  const echo = { filename: file.filename, bytes: file.bytes.length, type: sniffed === 'mp4' && audio ? 'm4a' : sniffed };
  if (!audio) return { echo };
  const a = await inspectReferenceAudio(file.bytes);
  // the container's own codec: MP3 frames in an mp3, PCM in a wav (an m4a carries AAC or another codec)
  const codecFits = !a.audio ? false : sniffed === 'mp3' ? a.codec === 'mp3' : sniffed === 'wav' ? a.codec.startsWith('pcm') : true;
  if (!a.audio || a.durationMs <= 0 || !codecFits)
    throw new ApiError('MUSIC_UNSUPPORTED_FILE', `${named}: starts as ${sniffed} but holds no ${sniffed} audio that can be read`);
  return { echo, durationMs: a.durationMs };
}

/** A track of one of the caller's succeeded tasks, or the error naming `field`. */
function ownTrack(ctx: ServiceContext, field: string, shown: string, taskId: string, index: number, foreign: ErrorName): { r: MusicRecord; index: number } {
  const r = kit.find(ctx.engine, taskId);
  if (!r || r.status !== 'success' || index >= r.tracks.length)
    throw new ApiError('MUSIC_SOURCE_NOT_FOUND', `${field}: ${shown} names no track of a succeeded music task`);
  if (r.owner !== ctx.account.apiKey)
    throw new ApiError(foreign, `${field}: ${shown} is a track of another account${foreign === 'MUSIC_SOURCE_FORBIDDEN' ? ' (ownership is verified)' : ''}`);
  return { r, index };
}

/**
 * The source a URL names (cover uploadUrl, remix audioUrl): on the mock's own
 * origin it must be a track of the caller's (MUSIC_SOURCE_FORBIDDEN for
 * another account's, MUSIC_SOURCE_NOT_FOUND for anything else), and its length
 * is known; any other http(s) URL is public (length unknown).
 */
function urlSource(ctx: ServiceContext, field: string, url: string, opts: { platformOnly?: boolean } = {}): { durationMs?: number } {
  if (!isHttpUrl(url)) throw new ApiError('MUSIC_INVALID_PARAMETERS', `${field}: must be an http or https URL`);
  const u = new URL(url);
  const base = new URL(ctx.url('/'));
  if (u.origin !== base.origin || !u.pathname.startsWith(base.pathname)) {
    if (opts.platformOnly)
      throw new ApiError(
        'MUSIC_INVALID_PARAMETERS',
        `${field}: must be an audio URL of this platform (a track audioUrl of one of your music tasks), not ${u.origin}`,
      );
    return {};
  }
  const m = TRACK_PATH.exec(`/${u.pathname.slice(base.pathname.length)}`);
  if (!m) throw new ApiError('MUSIC_SOURCE_NOT_FOUND', `${field}: ${u.pathname} is a URL of this platform but not a music track's audioUrl`);
  let taskId: string;
  try {
    taskId = decodeURIComponent(m[1]);
  } catch {
    throw new ApiError('MUSIC_SOURCE_NOT_FOUND', `${field}: ${u.pathname} names no music track`);
  }
  const { r, index } = ownTrack(ctx, field, u.pathname, taskId, Number(m[2]), 'MUSIC_SOURCE_FORBIDDEN');
  return { durationMs: r.tracks[index].durationMs };
}

const SONG_ID = /^(ma|mb)_([0-9a-f]{16})_(\d{1,3})$/;

/** The track a providerSongId names among the caller's tasks (MUSIC_SOURCE_NOT_FOUND otherwise, another account's too); musicA only where asked. */
function songSource(ctx: ServiceContext, songId: string, musicAOnly: boolean): { r: MusicRecord; index: number } {
  const m = SONG_ID.exec(songId);
  if (!m)
    throw new ApiError(
      'MUSIC_SOURCE_NOT_FOUND',
      `providerSongId: ${songId} is not a song id of this platform (a track providerSongId, e.g. ma_1a2b3c4d5e6f7a8b_0)`,
    );
  const found = ownTrack(ctx, 'providerSongId', songId, `${ID_PREFIX}_${m[2]}`, Number(m[3]), 'MUSIC_SOURCE_NOT_FOUND');
  if (musicAOnly && found.r.provider !== 'musicA')
    throw new ApiError('MUSIC_PROVIDER_UNSUPPORTED', `providerSongId: ${songId} is a ${found.r.provider} song; this endpoint takes musicA songs (musicA only)`);
  return found;
}

// ---------------------------------------------------------------------------
// Handlers
// ---------------------------------------------------------------------------

/** Params with the optional text fields that were sent (blank ones left out). */
function texts<K extends string>(body: Partial<Record<K, unknown>>, keys: readonly K[]): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const k of keys) {
    const v = body[k];
    if (typeof v === 'string' && v.trim() !== '') out[k] = v;
  }
  return out;
}

/** The musicB parameters actually sent (unknown keys were dropped by the schema). */
function keptParams(p: Record<string, unknown> | undefined): MusicTaskParams['providerParams'] | undefined {
  if (!p) return undefined;
  const kept = Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined));
  return Object.keys(kept).length ? kept : undefined;
}

const generate: Handler<'generateMusic'> = ({ body }, ctx) => {
  const provider = resolveProvider(body.provider);
  const model = body.model ?? defaultModelOf[provider];
  const seed = ctx.engine.seed;
  const providerParams = provider === 'musicB' ? keptParams(body.providerParams) : undefined;
  const params: MusicTaskParams = {
    model,
    // style is the fallback for a missing prompt (document 3, "POST /v1/music/generate"): the echo shows what was used
    prompt: body.prompt ?? body.style ?? '',
    instrumental: body.instrumental,
    ...texts(body, ['lyrics', 'style', 'title'] as const),
    ...(provider === 'musicB' ? { customMode: body.customMode ?? true } : {}),
    ...(body.vocalId !== undefined ? { vocalId: body.vocalId } : {}),
    ...(providerParams ? { providerParams } : {}),
  };
  // musicB reads the prompt as lyrics in custom mode
  const lyrics = params.lyrics ?? (provider === 'musicB' && params.customMode ? body.prompt : undefined);
  return start(ctx, {
    provider,
    taskType: 'GENERATE',
    params,
    price: modelCredits(provider, model)!,
    tracks: (id) =>
      planTracks(seed, id, provider, titleFor(seed, id, { ...params, lyrics }), tagsFor(seed, id, params.style), (i) =>
        seededMs(seed, musicDurations.song, id, 'song', i),
      ),
  });
};

const cover: Handler<'coverMusic'> = ({ body }, ctx) => {
  const source = urlSource(ctx, 'uploadUrl', body.uploadUrl);
  const seed = ctx.engine.seed;
  const providerParams = keptParams(body.providerParams);
  const params: MusicTaskParams = {
    model: body.model,
    prompt: body.prompt ?? '',
    instrumental: body.instrumental,
    ...texts(body, ['style', 'title'] as const),
    customMode: body.customMode,
    uploadUrl: body.uploadUrl,
    ...(providerParams ? { providerParams } : {}),
  };
  return start(ctx, {
    provider: 'musicB',
    taskType: 'COVER',
    params,
    price: modelCredits('musicB', body.model)!,
    tracks: (id) =>
      planTracks(
        seed,
        id,
        'musicB',
        titleFor(seed, id, { title: params.title, lyrics: body.customMode ? params.prompt : undefined }),
        tagsFor(seed, id, params.style, ['cover']),
        (i) => source.durationMs ?? seededMs(seed, musicDurations.song, id, 'cover', i),
      ),
  });
};

const instrumental: Handler<'generateInstrumental'> = async ({ body }, ctx0) => {
  const ref = body.referenceAudio ? await checkUpload('referenceAudio', body.referenceAudio, musicFileTypes.referenceAudio, true) : undefined;
  const ctx = refreshed(ctx0);
  const seed = ctx.engine.seed;
  const params: MusicTaskParams = {
    model: body.model,
    prompt: body.prompt ?? '',
    instrumental: true,
    ...(ref ? { referenceAudio: ref.echo } : {}),
  };
  return start(ctx, {
    provider: 'musicA',
    taskType: 'INSTRUMENTAL',
    params,
    price: modelCredits('musicA', body.model)!,
    tracks: (id) =>
      planTracks(seed, id, 'musicA', titleFor(seed, id, { prompt: params.prompt }), tagsFor(seed, id, undefined, ['instrumental']), (i) =>
        seededMs(seed, musicDurations.song, id, 'instrumental', i),
      ),
  });
};

const soundtrack: Handler<'generateSoundtrack'> = async ({ body }, ctx0) => {
  const image = body.image ? await checkUpload('image', body.image, musicFileTypes.image, false) : undefined;
  const video = body.video ? await checkUpload('video', body.video, musicFileTypes.video, false) : undefined;
  // a soundtrack lasts as long as its video, when the video can be read
  const videoMs = body.video ? await mediaDurationMs(body.video.bytes) : undefined;
  const ctx = refreshed(ctx0);
  const seed = ctx.engine.seed;
  const params: MusicTaskParams = {
    model: body.model,
    prompt: body.prompt ?? '',
    instrumental: true,
    ...(image ? { image: image.echo } : {}),
    ...(video ? { video: video.echo } : {}),
  };
  return start(ctx, {
    provider: 'musicA',
    taskType: 'SOUNDTRACK',
    params,
    price: musicFlatCredits.soundtrack,
    tracks: (id) =>
      planTracks(
        seed,
        id,
        'musicA',
        titleFor(seed, id, { prompt: params.prompt }),
        tagsFor(seed, id, undefined, ['soundtrack']),
        (i) => videoMs ?? seededMs(seed, musicDurations.soundtrack, id, 'soundtrack', i),
      ),
  });
};

const track: Handler<'generateTrack'> = async ({ body }, ctx0) => {
  const upload = body.audio ? await checkUpload('audio', body.audio, musicFileTypes.trackAudio, true) : undefined;
  const ctx = refreshed(ctx0);
  const seed = ctx.engine.seed;
  const song = body.providerSongId !== undefined ? songSource(ctx, body.providerSongId, true) : undefined;
  const sourceMs = upload?.durationMs ?? song!.r.tracks[song!.index].durationMs;
  const sourceS = sourceMs / 1000;
  const startS = body.generateStart ?? 0;
  const endS = body.generateEnd ?? sourceS;
  if (startS >= sourceS) throw new ApiError('MUSIC_INVALID_PARAMETERS', `generateStart: ${startS} s is not within the source (${sourceS} s long)`);
  if (endS > sourceS) throw new ApiError('MUSIC_INVALID_PARAMETERS', `generateEnd: ${endS} s is past the end of the source (${sourceS} s long)`);
  if (endS <= startS) throw new ApiError('MUSIC_INVALID_PARAMETERS', `generateEnd: ${endS} s must be after generateStart (${startS} s)`);
  const params: MusicTaskParams = {
    model: defaultModelOf.musicA,
    prompt: body.prompt,
    instrumental: body.generateType !== 'Vocals',
    generateType: body.generateType,
    ...texts(body, ['lyrics'] as const),
    ...(body.vocalGender !== undefined ? { vocalGender: body.vocalGender } : {}),
    ...(body.generateStart !== undefined ? { generateStart: body.generateStart } : {}),
    ...(body.generateEnd !== undefined ? { generateEnd: body.generateEnd } : {}),
    ...(upload ? { audio: upload.echo } : {}),
    ...(body.providerSongId !== undefined ? { providerSongId: body.providerSongId } : {}),
  };
  const sourceTitle = song ? song.r.tracks[song.index].title : undefined;
  return start(ctx, {
    provider: 'musicA',
    taskType: 'TRACK',
    params,
    price: musicFlatCredits.track,
    tracks: (id) =>
      planTracks(
        seed,
        id,
        'musicA',
        `${sourceTitle ?? titleFor(seed, id, { prompt: body.prompt })} (${body.generateType})`,
        tagsFor(seed, id, undefined, [body.generateType.toLowerCase()]),
        () => (endS - startS) * 1000,
      ),
  });
};

const remix: Handler<'remixMusic'> = async ({ body }, ctx0) => {
  const upload = body.audio ? await checkUpload('audio', body.audio, musicFileTypes.remixAudio, true) : undefined;
  const ctx = refreshed(ctx0);
  const seed = ctx.engine.seed;
  let sourceMs = upload?.durationMs;
  // document 3, "POST /v1/music/remix": audioUrl is internal platform audio (the caller's or public), never another host's
  if (body.audioUrl !== undefined) sourceMs = urlSource(ctx, 'audioUrl', body.audioUrl, { platformOnly: true }).durationMs;
  if (body.providerSongId !== undefined) {
    const song = songSource(ctx, body.providerSongId, true);
    sourceMs = song.r.tracks[song.index].durationMs;
  }
  const params: MusicTaskParams = {
    model: defaultModelOf.musicA,
    prompt: body.prompt,
    instrumental: false,
    lyrics: body.lyrics,
    ...(upload ? { audio: upload.echo } : {}),
    ...(body.audioUrl !== undefined ? { audioUrl: body.audioUrl } : {}),
    ...(body.providerSongId !== undefined ? { providerSongId: body.providerSongId } : {}),
  };
  return start(ctx, {
    provider: 'musicA',
    taskType: 'REMIX',
    params,
    price: musicFlatCredits.remix,
    tracks: (id) =>
      planTracks(
        seed,
        id,
        'musicA',
        titleFor(seed, id, { lyrics: body.lyrics }),
        tagsFor(seed, id, body.prompt.length <= 60 ? body.prompt : undefined, ['remix']),
        (i) => sourceMs ?? seededMs(seed, musicDurations.song, id, 'remix', i),
      ),
  });
};

const extend: Handler<'extendMusic'> = ({ body }, ctx) => {
  const src = kit.own(ctx, body.taskId, { notFound: 'MUSIC_TASK_NOT_FOUND' });
  if (src.status !== 'success') throw new ApiError('MUSIC_TASK_NOT_READY', `taskId ${src.id} is ${src.status}; only a succeeded music task can be extended`);
  const provider = src.provider;
  if (body.provider !== undefined && resolveProvider(body.provider) !== provider)
    throw new ApiError(
      'MUSIC_PROVIDER_UNSUPPORTED',
      `provider: ${body.provider} runs on ${resolveProvider(body.provider)}, and task ${src.id} was made by ${provider}`,
    );
  const model = body.model ?? defaultModelOf[provider];
  if (!modelsOf(provider).includes(model))
    throw new ApiError(
      'MUSIC_MODEL_UNSUPPORTED',
      `model: ${model} is not a ${provider} model (task ${src.id} is ${provider}'s); ${provider} takes ${modelsOf(provider).join(', ')}`,
    );
  const musicB = Object.fromEntries(musicBParameterNames.extend.filter((k) => body[k] !== undefined).map((k) => [k, body[k]]));
  if (provider === 'musicA' && Object.keys(musicB).length)
    throw new ApiError('MUSIC_PROVIDER_UNSUPPORTED', `${Object.keys(musicB).join(', ')}: musicB parameters; task ${src.id} is musicA's`);
  let index = body.trackIndex ?? 0;
  if (body.providerSongId !== undefined) {
    index = src.tracks.findIndex((_, i) => providerSongIdOf(provider, src.id, i) === body.providerSongId);
    if (index < 0) throw new ApiError('MUSIC_INVALID_PARAMETERS', `providerSongId: ${body.providerSongId} is not a track of task ${src.id}`);
  } else if (index >= src.tracks.length)
    throw new ApiError(
      'MUSIC_INVALID_PARAMETERS',
      `trackIndex: ${index} is out of range; task ${src.id} has ${src.tracks.length} track${src.tracks.length === 1 ? '' : 's'} (0-${src.tracks.length - 1})`,
    );
  const source = src.tracks[index];
  const sourceS = source.durationMs / 1000;
  const continueAt = body.continueAt ?? sourceS;
  if (continueAt > sourceS) throw new ApiError('MUSIC_INVALID_PARAMETERS', `continueAt: ${continueAt} s is past the end of the track (${sourceS} s long)`);
  const seed = ctx.engine.seed;
  const params: MusicTaskParams = {
    model: extendPricedModel(model),
    prompt: body.prompt ?? '',
    instrumental: src.params.instrumental,
    ...texts(body, ['lyrics'] as const),
    ...(Object.keys(musicB).length ? { providerParams: musicB } : {}),
    taskId: src.id,
    trackIndex: index,
    ...(body.providerSongId !== undefined ? { providerSongId: body.providerSongId } : {}),
    continueAt,
  };
  return start(ctx, {
    provider,
    taskType: 'EXTEND',
    params,
    price: extendCredits(model),
    tracks: (id) =>
      planTracks(
        seed,
        id,
        provider,
        `${source.title} (Extended)`,
        source.tags,
        (i) => continueAt * 1000 + seededMs(seed, musicDurations.extension, id, 'extension', i),
      ),
  });
};

const get: Handler<'getMusicTask'> = ({ params }, ctx) => present(kit.own(ctx, params.taskId, { notFound: 'MUSIC_TASK_NOT_FOUND' }), ctx);

const list: Handler<'listMusicTasks'> = ({ query }, ctx) => kit.page(ctx, query, (r) => present(r, ctx));

// ---------------------------------------------------------------------------
// Media
// ---------------------------------------------------------------------------

function trackAsset(t: MusicTrackPlan): MediaAsset {
  return {
    contentType: audioFileTypes.mp3.contentType,
    key: `music mp3 ${t.durationMs} ${t.variant}`,
    render: () => renderAudio({ format: 'mp3', durationMs: t.durationMs, variant: t.variant }),
  };
}

/** The saved records of the area's stores: checked before a saved state is loaded. */
const musicRecordSchema = taskRecordSchema(musicStatuses, {
  provider: z.string(),
  taskType: z.string(),
  params: z.looseObject({}),
  price: z.number().int().min(0),
  creditCost: z.number(),
  tracks: z.array(z.looseObject({})),
  errorMessage: z.string().optional(),
});

/** The music area's service: seven creates, the task read and the list, and the signed track MP3s. */
export const musicService: Service<
  | 'generateMusic'
  | 'generateInstrumental'
  | 'generateSoundtrack'
  | 'generateTrack'
  | 'remixMusic'
  | 'coverMusic'
  | 'extendMusic'
  | 'getMusicTask'
  | 'listMusicTasks'
> = {
  kits: [kit],
  records: { music: musicRecordSchema },
  handlers: {
    generateMusic: generate,
    generateInstrumental: instrumental,
    generateSoundtrack: soundtrack,
    generateTrack: track,
    remixMusic: remix,
    coverMusic: cover,
    extendMusic: extend,
    getMusicTask: get,
    listMusicTasks: list,
  },
  media: [
    {
      path: trackPath('{taskId}', '{track}'),
      resolve(engine: Engine, p, query) {
        const r = kit.find(engine, p.taskId);
        const index = /^\d{1,3}$/.test(p.track) ? Number(p.track) : -1;
        if (r?.status !== 'success' || index < 0 || index >= r.tracks.length) return undefined;
        const { expires, sig } = query;
        const path = trackPath(r.id, index);
        if (expires === undefined || sig === undefined || !/^\d{1,15}$/.test(expires) || sig !== signTrackPath(engine.seed, path, Number(expires)))
          return {
            error: 'MUSIC_AUDIO_URL_INVALID_SIGNATURE' as const,
            denied: `the signature does not match (${expires === undefined || sig === undefined ? 'expires and sig are required' : 'the URL was altered'}); fetch the task for a signed URL`,
          };
        const now = engine.clock.now();
        if (now >= Number(expires))
          return {
            error: 'MUSIC_AUDIO_URL_EXPIRED' as const,
            denied: `the URL expired at ${new Date(Number(expires)).toISOString()} (now ${new Date(now).toISOString()}); fetch the task again for a fresh URL`,
          };
        return { ...trackAsset(r.tracks[index]), owner: r.owner };
      },
    },
  ],
};
