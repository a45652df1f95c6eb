/**
 * Music tables (schemas/music.ts re-exports them): statuses, task types, file
 * types, prices, track counts, the schedule, durations and text limits; the
 * provider and model tables are schemas/music-providers.ts. Seed: document 3,
 * "Providers and models (lyrics and music)", "Music task", "Limits"; what
 * it does not give is assumed (`musicTableAssumptions`).
 */
import { musicAModelAllows, musicAModels, musicBModels, type MusicProvider } from '../music-providers.ts';

// ---------------------------------------------------------------------------
// Tables
// ---------------------------------------------------------------------------

/** Task statuses (document 3, "Music task"): pending, generating, uploading, then success or failed. */
export const musicStatuses = ['pending', 'generating', 'uploading', 'success', 'failed'] as const;
export type MusicStatus = (typeof musicStatuses)[number];

/**
 * Operation types this contract's tasks report as taskType (document 3 shows GENERATE as an example of an open
 * string; the others, naming their endpoints, are assumed and only examples in the schema).
 */
export const musicTaskTypes = ['GENERATE', 'INSTRUMENTAL', 'SOUNDTRACK', 'TRACK', 'REMIX', 'COVER', 'EXTEND'] as const;
export type MusicTaskType = (typeof musicTaskTypes)[number];

/** Largest list page (document 3, "Limits" gives 1-100 for lyrics; the music list follows it, assumed). */
export const MUSIC_PAGE_SIZE_MAX = 100;

/** Largest audio upload, bytes (document 3, "Limits": "audio and reference audio at most 10 MB"). */
export const MUSIC_AUDIO_MAX_BYTES = 10 * 1024 * 1024;

/** Upload limits of /soundtrack (assumed: document 3 gives 10 MB for audio only): an image up to 10 MB, a video up to 50 MB. */
export const soundtrackUploads = { imageMaxBytes: 10 * 1024 * 1024, videoMaxBytes: 50 * 1024 * 1024 } as const;

/** File types each upload field accepts (document 3, "Music: asynchronous generation"), judged by the file's content. */
export const musicFileTypes = {
  referenceAudio: ['mp3', 'm4a'],
  image: ['jpg', 'jpeg', 'png', 'webp'],
  video: ['mp4', 'mov', 'avi', 'mkv', 'webm'],
  trackAudio: ['mp3', 'm4a', 'wav'],
  remixAudio: ['mp3', 'm4a'],
} as const;

/** Stem types of /track (document 3). */
export const trackGenerateTypes = [
  'Vocals',
  'Instrumental',
  'Drums',
  'Bass',
  'Guitar',
  'Keyboard',
  'Percussion',
  'Strings',
  'Synth',
  'FX',
  'Brass',
  'Woodwinds',
] as const;
export type TrackGenerateType = (typeof trackGenerateTypes)[number];
/** Vocal gender of /track (document 3: male or female, unlike m or f of the musicB parameters). */
export const trackVocalGenders = ['male', 'female'] as const;
/** Vocal gender of the musicB parameters (document 3, "musicB parameters": m or f). */
export const musicBVocalGenders = ['m', 'f'] as const;

/**
 * Flat prices of the endpoints document 3 does not price ("Limits": "flat
 * costs of the remaining music endpoints: not shown"); assumed: a soundtrack
 * (an image or video read, then a song) 15, a single track 10, a remix 10.
 */
export const musicFlatCredits = { soundtrack: 15, track: 10, remix: 10 } as const;

/** Tracks a task brings (assumed: musicB two takes per request, musicA one). */
export const musicTrackCount: Readonly<Record<MusicProvider, number>> = { musicA: 1, musicB: 2 };

/**
 * The schedule (assumed; document 3: "typical 1-3 minutes"): pending 10 s,
 * generating 50-140 s (fixed per task id from the seed), uploading 10 s, then
 * success: 70-160 s in all. A task without progress for 30 minutes fails with
 * a full refund (39013), like a musicB lyrics task.
 */
export const musicSchedule = {
  pendingMs: 10_000,
  generatingMinMs: 50_000,
  generatingMaxMs: 140_000,
  uploadingMs: 10_000,
  timeoutMs: 30 * 60_000,
} as const;

/** Lifetime of a signed track audioUrl from the fetch that produced it (document 3: "about 1 hour"; exactly one hour here). */
export const MUSIC_URL_TTL_MS = 3_600_000;

/**
 * Track lengths, ms (assumed): a song 120-240 s and a soundtrack of an image (or of a video the mock
 * cannot read) 30-90 s, in
 * whole steps of 3 s (125 MP3 frames of 24 ms, so the file decodes to exactly
 * that length); an extension adds 60-120 s after continueAt. A track made from
 * a source whose length the mock knows (an upload, a track of the caller's)
 * lasts as long as the source (a /track window: generateEnd - generateStart; a soundtrack: its video).
 */
export const musicDurations = {
  stepMs: 3_000,
  song: { minMs: 120_000, maxMs: 240_000 },
  soundtrack: { minMs: 30_000, maxMs: 90_000 },
  extension: { minMs: 60_000, maxMs: 120_000 },
} as const;

/** Longest text fields, characters as Unicode code points (assumed: document 3 gives none). */
export const musicTextLimits = { prompt: 5000, lyrics: 5000, style: 1000, title: 100, negativeTags: 1000, id: 200 } as const;

/** The musicA models of an endpoint (document 3: musicA-9 is not available for /instrumental). */
export function musicAModelsFor(endpoint: string): string[] {
  return musicAModels.map((m) => m.model as string).filter((m) => musicAModelAllows(m, endpoint));
}
/** Every model of a provider. */
export function modelsOf(provider: MusicProvider): string[] {
  return (provider === 'musicA' ? musicAModels : musicBModels).map((m) => m.model as string);
}
export const allModels = [...musicAModels.map((m) => m.model), ...musicBModels.map((m) => m.model)] as const;
export const musicBTiers = musicBModels.map((m) => m.model) as [string, ...string[]];
