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
 *
 * The parts: music/record.ts (the task, its kit, signed URLs, starting a
 * task), music/sources.ts (uploads and sources), music/handlers.ts (the
 * handlers), music/service.ts (the service and its media).
 */
export { frameExactMs, musicGeneratingMs, providerSongIdOf, signTrackPath, type MusicRecord, type MusicTrackPlan } from './music/record.ts';
export { musicService } from './music/service.ts';
