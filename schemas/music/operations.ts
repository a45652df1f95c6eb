/**
 * Music responses, operations and the area (schemas/music.ts re-exports them):
 * the task and its tracks, the lifecycle, the nine operations and the table
 * assumptions. Seed: document 3, "Music task", "States and transitions",
 * "Music: asynchronous generation (prefix /v1/music)", "Errors".
 */
import { z } from '../zod.ts';
import { EpochMs, paginated } from '../common.ts';
import { assumed, describeProvenance, fromSeed, provenanceMeta, type TableAssumption } from '../provenance.ts';
import { defineOperations, operationsWith, json, multipart, type Area } from '../define.ts';
import type { LifecycleDef } from '../registry-types.ts';
import {
  extendPricing,
  MUSIC_A_DEFAULT_MODEL,
  MUSIC_B_DEFAULT_MODEL,
  musicAModelAllows,
  musicAModels,
  musicBModels,
  musicProviders,
  providerTable,
} from '../music-providers.ts';
import {
  MUSIC_AUDIO_MAX_BYTES,
  MUSIC_PAGE_SIZE_MAX,
  MUSIC_URL_TTL_MS,
  musicAModelsFor,
  musicBVocalGenders,
  musicDurations,
  musicFileTypes,
  musicFlatCredits,
  musicSchedule,
  musicStatuses,
  musicTextLimits,
  musicTrackCount,
  soundtrackUploads,
  trackGenerateTypes,
  trackVocalGenders,
} from './tables.ts';
import { coverStateRules, CreateMusicCoverRequest, CreateMusicGenerateRequest, generateStateRules } from './requests.ts';
import {
  CreateMusicExtendRequest,
  CreateMusicInstrumentalRequest,
  CreateMusicRemixRequest,
  CreateMusicSoundtrackRequest,
  CreateMusicTrackRequest,
  extendStateRules,
  instrumentalStateRules,
  ListMusicQuery,
  MusicTaskPathParams,
  remixStateRules,
  soundtrackStateRules,
  trackStateRules,
} from './uploads.ts';

// ---------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------

export const CreateMusicData = z
  .strictObject({ taskId: z.string(), status: z.literal('pending') })
  .openapi('CreateMusicData', { example: { taskId: 'mus_1a2b3c4d5e6f7a8b', status: 'pending' } });

/** One track (document 3, "Music task": { title, tags, duration, audioUrl }; providerSongId assumed). */
export const MusicTrack = z
  .strictObject({
    title: z.string(),
    tags: z.string().meta(provenanceMeta(assumed('document 3 does not give the type of tags'), 'style tags, comma-separated')),
    duration: z.number().positive().meta({ description: 'seconds: the decoded length of the MP3 at audioUrl' }),
    audioUrl: z.string().meta({
      description:
        'MP3 of the track, signed; it stops loading about 1 hour after the fetch of the task that produced it (then 403 with 39014; an altered URL 403 with 39015): fetch the task again for a fresh URL',
      'x-provenance': describeProvenance(
        assumed(
          `document 3 says signed URLs expire "about 1 hour" after the fetch, without their form: here ?expires=<epoch ms>&sig=<hex>, valid exactly ${MUSIC_URL_TTL_MS / 60_000} minutes`,
        ),
      ),
    }),
    providerSongId: z
      .string()
      .meta(
        provenanceMeta(
          assumed('document 3 takes a providerSongId on /track, /remix and /extend without saying where a client reads it'),
          "the provider's id of this song: pass it to /track, /remix (musicA) or /extend",
        ),
      ),
  })
  .openapi('MusicTrack');
export type MusicTrack = z.infer<typeof MusicTrack>;

const UploadEcho = z
  .strictObject({
    filename: z.string(),
    bytes: z.number().int().nonnegative(),
    type: z.string().meta({ description: 'the file type read from its content (mp3, m4a, wav, jpeg, png, webp, mp4, mov, avi, mkv, webm)' }),
  })
  .meta({ description: 'an uploaded file: its name, size and type' });

/** The task's params (document 3: "includes model ..., prompt, instrumental"; the other echoed fields are assumed). */
export const MusicTaskParams = z
  .strictObject({
    model: z.string().meta({ description: 'the tier the task ran on, which creditCost is priced against (an extend on auto ran on musicA-7.6)' }),
    prompt: z.string().meta({ description: 'the prompt used: the prompt sent, else the style (its fallback on /generate), else empty' }),
    instrumental: z.boolean(),
    lyrics: z.string().optional(),
    style: z.string().optional(),
    title: z.string().optional(),
    customMode: z.boolean().optional().meta({ description: 'musicB' }),
    vocalId: z.string().optional(),
    providerParams: z
      .strictObject({
        negativeTags: z.string().optional(),
        vocalGender: z.enum(musicBVocalGenders).optional(),
        styleWeight: z.number().optional(),
        weirdnessConstraint: z.number().optional(),
        audioWeight: z.number().optional(),
        personaId: z.string().optional(),
        personaModel: z.string().optional(),
      })
      .optional()
      .meta({ description: 'the musicB parameters kept (on /extend: the top-level ones)' }),
    generateType: z.enum(trackGenerateTypes).optional(),
    vocalGender: z.enum(trackVocalGenders).optional(),
    generateStart: z.number().optional(),
    generateEnd: z.number().optional(),
    referenceAudio: UploadEcho.optional(),
    image: UploadEcho.optional(),
    video: UploadEcho.optional(),
    audio: UploadEcho.optional(),
    audioUrl: z.string().optional(),
    uploadUrl: z.string().optional(),
    providerSongId: z.string().optional(),
    taskId: z.string().optional().meta({ description: 'extend: the source task' }),
    trackIndex: z.number().int().optional().meta({ description: 'extend: the source track' }),
    continueAt: z.number().optional().meta({ description: 'extend: seconds' }),
  })
  .meta(
    provenanceMeta(
      assumed(
        'document 3 says params includes model, prompt and instrumental; this contract echoes the other request fields too, files by name, size and type',
      ),
    ),
  )
  .openapi('MusicTaskParams');
export type MusicTaskParams = z.infer<typeof MusicTaskParams>;

/** The music task (document 3, "Music task"). */
export const MusicTask = z
  .strictObject({
    id: z.string().meta({ description: 'task id' }),
    provider: z.enum(musicProviders).meta({ description: 'the provider that ran it (default resolves to musicA)' }),
    // document 3 types it as a string, "operation type (for example GENERATE)": open, so a client must accept a type it does not know
    taskType: z.string().meta({
      description: 'operation type (for example GENERATE); an open set: a client keeps a value it does not know',
      examples: ['GENERATE'],
    }),
    status: z.enum(musicStatuses),
    params: MusicTaskParams,
    tracks: z
      .array(MusicTrack)
      .meta({ description: 'empty until success; musicA one track, musicB two (assumed); audioUrl values are signed and expire an hour after this fetch' }),
    creditCost: z
      .number()
      .nonnegative()
      .meta(
        provenanceMeta(
          assumed('document 3 gives creditCost without saying when it is set; as lyrics: 0 until success'),
          'credits: 0 until success, then the price',
        ),
      ),
    errorMessage: z.string().optional().meta({ description: 'only when failed: the code and what went wrong' }),
    createdAt: EpochMs,
    updatedAt: EpochMs,
  })
  .openapi('MusicTask');
export type MusicTask = z.infer<typeof MusicTask>;

// ---------------------------------------------------------------------------
// Operations
// ---------------------------------------------------------------------------

const section = fromSeed(3, 'Music: asynchronous generation (prefix /v1/music)');
const s = musicSchedule;
const sec = (ms: number) => `${ms / 1000} s`;

const lifecycleText =
  'Poll GET /v1/music/tasks/{taskId} (document 3: wait about 30 s, then every 10 s; typical 1-3 minutes). ' +
  `Schedule: pending ${sec(s.pendingMs)}, generating ${sec(s.generatingMinMs)}-${sec(s.generatingMaxMs)} (fixed per task), uploading ${sec(s.uploadingMs)}, then success with its tracks (assumed schedule; document 3: typical 1-3 minutes). ` +
  `A task without progress for ${s.timeoutMs / 60_000} minutes fails with 39013, refunded in full (assumed). ` +
  'Credits are reserved at creation (402 with 39003 when the balance is short, nothing reserved), captured on success (creditCost is 0 until then), refunded on failure.';

const musicAModelTable = musicAModels.map((m) => `${m.model} ${m.credits}`).join(', ');
const musicBModelTable = musicBModels.map((m) => `${m.model} ${m.credits}`).join(', ');
const createErrors = ['MUSIC_INVALID_PARAMETERS', 'MUSIC_MODEL_UNSUPPORTED', 'MUSIC_INSUFFICIENT_CREDITS'] as const;
const uploadErrors = [...createErrors, 'MUSIC_UNSUPPORTED_FILE', 'MUSIC_FILE_TOO_LARGE'] as const;
const failureReasons = ['MUSIC_GENERATION_FAILED', 'MUSIC_PROVIDER_REJECTED', 'MUSIC_TIMED_OUT'] as const;
const created = { status: 202, kind: 'envelope', schema: CreateMusicData, description: 'the task, pending' } as const;
// What the operations below share: each states only what differs (operationsWith, schemas/define.ts).
const op = operationsWith({ auth: true, validationError: 'MUSIC_INVALID_PARAMETERS' });
const taskOp = operationsWith({
  provenance: section,
  auth: true,
  validationError: 'MUSIC_INVALID_PARAMETERS',
  fieldErrors: { model: 'MUSIC_MODEL_UNSUPPORTED' },
  charges: true,
  outcomes: ['failed', 'stuck'],
  failureReasons: [...failureReasons],
});
const audioUpload = { maxFileBytes: MUSIC_AUDIO_MAX_BYTES };

/** The music task's states as data (document 3, "States and transitions"; recommended polling: wait about 30 s, then every 10 s). */
const musicLifecycle: LifecycleDef = {
  statusField: 'status',
  states: musicStatuses,
  transitions: { pending: ['generating', 'failed'], generating: ['uploading', 'success', 'failed'], uploading: ['success', 'failed'] },
  terminal: ['success', 'failed'],
  success: 'success',
  pollOperationId: 'getMusicTask',
  idField: 'taskId',
  firstPollMs: 30_000,
  intervalMs: 10_000,
  timeoutMs: musicSchedule.timeoutMs + 60_000,
  provenance: assumed(
    "document 3 recommends waiting about 30 s, then polling every 10 s (typically 1-3 minutes); the timeout is not shown: the assumed schedule's, plus a minute",
  ),
  example: {
    prompt: 'warm indie pop, acoustic guitar, hand claps',
    lyrics: '[Verse]\nSummer roads and open windows\n[Chorus]\nSing it loud, we are going home',
    title: 'Open Windows',
  },
  successRequires: ['tracks'],
  media: [{ urlField: 'tracks[].audioUrl', contentTypes: ['audio/mpeg'], durationField: 'tracks[].duration' }],
  chargedField: 'creditCost',
};

export const musicOperations = defineOperations('Music', {
  generateMusic: taskOp({
    method: 'post',
    path: '/v1/music/generate',
    summary: 'Generate a song (musicA or musicB)',
    description:
      `HTTP 202 with {taskId, status: pending}. provider: default (runs on ${providerTable.default}), musicA or musicB; the task reports the provider that ran it. ` +
      `musicA requires lyrics unless instrumental is true; musicB reads prompt as lyrics (or takes lyrics) in custom mode (customMode, default true) and drives the whole song from prompt with customMode false. ` +
      `vocalId is musicA only; customMode and providerParams (the musicB parameters: negativeTags, vocalGender m|f, styleWeight, weirdnessConstraint, audioWeight 0-1, personaId, personaModel with personaId; other keys dropped) are musicB only (the other provider: 39006). ` +
      `model: default ${MUSIC_A_DEFAULT_MODEL} on musicA, ${MUSIC_B_DEFAULT_MODEL} on musicB; one of the provider's models (39007). Price by model: musicA ${musicAModelTable}; musicB ${musicBModelTable}. ${lifecycleText}`,
    provenance: section,
    request: { body: json(CreateMusicGenerateRequest) },
    stateRules: generateStateRules,
    response: created,
    errors: [...createErrors, 'MUSIC_PROVIDER_UNSUPPORTED'],
    lifecycle: musicLifecycle,
  }),
  generateInstrumental: taskOp({
    method: 'post',
    path: '/v1/music/instrumental',
    summary: 'Generate an instrumental (musicA, multipart)',
    description:
      `multipart/form-data: prompt or referenceAudio (${musicFileTypes.referenceAudio.join(' or ')}, judged by its content, at most 10 MB: 413 with 39005), exactly one; model (${musicAModelsFor('instrumental').join(', ')}; default auto; musicA-9 is not available here: 39007). musicA only. ` +
      `Price by model: ${musicAModels
        .filter((m) => musicAModelAllows(m.model, 'instrumental'))
        .map((m) => `${m.model} ${m.credits}`)
        .join(', ')}. One track. ${lifecycleText}`,
    request: {
      body: multipart(CreateMusicInstrumentalRequest, {
        files: { referenceAudio: audioUpload },
        maxTotalBytes: MUSIC_AUDIO_MAX_BYTES,
        limitError: 'MUSIC_FILE_TOO_LARGE',
      }),
    },
    stateRules: instrumentalStateRules,
    response: created,
    errors: [...uploadErrors],
  }),
  generateSoundtrack: taskOp({
    method: 'post',
    path: '/v1/music/soundtrack',
    summary: 'Generate a soundtrack for an image or a video (musicA, multipart)',
    description:
      `multipart/form-data: image (${musicFileTypes.image.join(', ')}; at most ${soundtrackUploads.imageMaxBytes / 1024 / 1024} MB, assumed) or video (${musicFileTypes.video.join(', ')}; at most ${soundtrackUploads.videoMaxBytes / 1024 / 1024} MB, assumed), exactly one, judged by their content (39004); prompt (optional); model (${musicAModelsFor('soundtrack').join(', ')}; default auto). musicA only. ` +
      `Price: a flat ${musicFlatCredits.soundtrack} credits (assumed). One track: as long as the video (when it can be read; AVI cannot), else 30-90 s. ${lifecycleText}`,
    request: {
      body: multipart(CreateMusicSoundtrackRequest, {
        files: { image: { maxFileBytes: soundtrackUploads.imageMaxBytes }, video: { maxFileBytes: soundtrackUploads.videoMaxBytes } },
        maxTotalBytes: soundtrackUploads.videoMaxBytes + soundtrackUploads.imageMaxBytes,
        limitError: 'MUSIC_FILE_TOO_LARGE',
      }),
    },
    stateRules: soundtrackStateRules,
    response: created,
    errors: [...uploadErrors],
  }),
  generateTrack: taskOp({
    method: 'post',
    path: '/v1/music/track',
    summary: 'Generate one instrument or vocal track over a song (musicA, multipart)',
    description:
      `multipart/form-data: generateType (${trackGenerateTypes.join(', ')}), prompt, audio (${musicFileTypes.trackAudio.join(', ')}, judged by its content, at most 10 MB) or providerSongId (a musicA track of the caller's: 404 with 39009 otherwise; a musicB song: 39006), exactly one; ` +
      'lyrics (required with Vocals); vocalGender (male or female, Vocals only); generateStart and generateEnd (seconds: start before end, end within the source). The track lasts generateEnd - generateStart (default: the whole source). musicA only. ' +
      `Price: a flat ${musicFlatCredits.track} credits (assumed). ${lifecycleText}`,
    request: {
      body: multipart(CreateMusicTrackRequest, { files: { audio: audioUpload }, maxTotalBytes: MUSIC_AUDIO_MAX_BYTES, limitError: 'MUSIC_FILE_TOO_LARGE' }),
    },
    stateRules: trackStateRules,
    response: created,
    errors: [...uploadErrors, 'MUSIC_PROVIDER_UNSUPPORTED', 'MUSIC_SOURCE_NOT_FOUND'],
  }),
  remixMusic: taskOp({
    method: 'post',
    path: '/v1/music/remix',
    summary: 'Re-sing a musicA song with new lyrics (multipart)',
    description:
      `multipart/form-data: lyrics (the new lyrics), prompt, and exactly one source: audio (${musicFileTypes.remixAudio.join(' or ')}, judged by its content, at most 10 MB), audioUrl (an internal platform audio URL that belongs to the caller or is public: a track audioUrl of one of its music tasks; another account's track: 403 with 39008; one naming no track: 404 with 39009; another site's URL: 39001), or providerSongId (a musicA track of the caller's: 404 with 39009 otherwise; a musicB song: 39006). musicA only. ` +
      `Price: a flat ${musicFlatCredits.remix} credits (assumed). ${lifecycleText}`,
    request: {
      body: multipart(CreateMusicRemixRequest, { files: { audio: audioUpload }, maxTotalBytes: MUSIC_AUDIO_MAX_BYTES, limitError: 'MUSIC_FILE_TOO_LARGE' }),
    },
    stateRules: remixStateRules,
    response: created,
    errors: [...uploadErrors, 'MUSIC_PROVIDER_UNSUPPORTED', 'MUSIC_SOURCE_FORBIDDEN', 'MUSIC_SOURCE_NOT_FOUND'],
  }),
  coverMusic: taskOp({
    method: 'post',
    path: '/v1/music/cover',
    summary: 'Re-record a recording in a new style, keeping its melody (musicB)',
    description:
      "JSON. uploadUrl (required): a public http(s) URL, or a platform asset URL the caller owns (a track audioUrl of one of its music tasks); ownership is verified (another account's: 403 with 39008; naming no track: 404 with 39009). " +
      `model (a musicB tier, default ${MUSIC_B_DEFAULT_MODEL}); customMode (default true: style and title required, prompt holds the lyrics and is required unless instrumental; false: prompt alone drives the cover); instrumental (default false); providerParams (the musicB parameters; personaId in custom mode only). musicB only. ` +
      `Price by tier: ${musicBModelTable}. Two tracks. ${lifecycleText}`,
    request: { body: json(CreateMusicCoverRequest) },
    stateRules: coverStateRules,
    response: created,
    errors: [...createErrors, 'MUSIC_SOURCE_FORBIDDEN', 'MUSIC_SOURCE_NOT_FOUND'],
  }),
  extendMusic: taskOp({
    method: 'post',
    path: '/v1/music/extend',
    summary: 'Extend a song (multipart)',
    description:
      "multipart/form-data: taskId (a succeeded music task of the caller: 404 with 39002 otherwise, 409 with 39010 before it succeeds), trackIndex (default 0) or providerSongId (one of that task's tracks), continueAt (seconds: after 0, at most the track's duration; default its end), prompt, lyrics, " +
      `model (of the task's provider; default ${MUSIC_A_DEFAULT_MODEL} or ${MUSIC_B_DEFAULT_MODEL}), provider (default the task's; another: 39006), and on musicB tasks the musicB parameters as top-level fields (negativeTags, vocalGender m|f, styleWeight, weirdnessConstraint, audioWeight; on a musicA task: 39006). ` +
      `The new tracks last continueAt plus the continuation. Price (document 3): ${extendPricing.reducedCredits} credits for musicA-7.6 and for auto (priced, and reported in params.model, as musicA-7.6); ${extendPricing.otherCredits} for every other model, every musicB tier included. ${lifecycleText}`,
    // the price is document 3's ("Providers and models": extend pricing); the operation's shape is not shown
    provenance: assumed(
      'document 3 names /extend, its musicB parameters and its price ("Providers and models (lyrics and music)", "musicB parameters") but says its request and response shapes are not shown: the method (POST), the multipart body and the answer are assumed',
    ),
    request: { body: multipart(CreateMusicExtendRequest, { files: {}, maxTotalBytes: 0 }) },
    stateRules: extendStateRules,
    response: created,
    errors: [...createErrors, 'MUSIC_PROVIDER_UNSUPPORTED', 'MUSIC_TASK_NOT_FOUND', 'MUSIC_TASK_NOT_READY'],
  }),
  listMusicTasks: op({
    method: 'get',
    path: '/v1/music/tasks',
    summary: 'List music tasks of both providers, newest first',
    description: `page >= 1 (default 1), pageSize 1-${MUSIC_PAGE_SIZE_MAX} (default 20), status (${musicStatuses.join(', ')}). The caller's tasks only; track URLs are signed afresh by each list.`,
    provenance: section,
    request: { query: ListMusicQuery },
    response: { status: 200, kind: 'envelope', schema: paginated(MusicTask), description: 'a page of tasks' },
    errors: ['MUSIC_INVALID_PARAMETERS'],
  }),
  getMusicTask: op({
    method: 'get',
    path: '/v1/music/tasks/{taskId}',
    summary: 'Get a music task',
    description: `The task. Poll it until status is success or failed: wait about 30 s after the create, then every 10 s (typical 1-3 minutes). Each fetch signs its tracks' audioUrl afresh, valid about 1 hour from this fetch. An unknown task, or one of another user, answers 404 with 39002.`,
    provenance: fromSeed(3, 'Music task'),
    request: { params: MusicTaskPathParams },
    response: { status: 200, kind: 'envelope', schema: MusicTask, description: 'the task' },
    errors: ['MUSIC_INVALID_PARAMETERS', 'MUSIC_TASK_NOT_FOUND'],
  }),
});

export const musicTableAssumptions: TableAssumption[] = [
  {
    subject: 'music error numbers 39001-39015 and their HTTP statuses',
    reason: 'document 3, "Errors": "The numeric code values for lyrics, music, page-deck and extraction errors: not shown"',
  },
  {
    subject: `music schedule: pending ${sec(s.pendingMs)}, generating ${sec(s.generatingMinMs)}-${sec(s.generatingMaxMs)} (fixed per task id), uploading ${sec(s.uploadingMs)}; ${s.timeoutMs / 60_000} minutes without progress: failed (39013), refunded in full`,
    reason: 'document 3 gives the states and "typical 1-3 minutes", not the durations nor a timeout',
  },
  {
    subject: `flat prices: /soundtrack ${musicFlatCredits.soundtrack}, /track ${musicFlatCredits.track}, /remix ${musicFlatCredits.remix} credits; creditCost 0 until success`,
    reason: 'document 3, "Limits": "flat costs of the remaining music endpoints: not shown"; creditCost follows the lyrics task',
  },
  {
    subject:
      "POST /v1/music/extend is multipart/form-data with taskId, trackIndex (default 0) or providerSongId, continueAt (seconds, default the end of the track), prompt, lyrics, model (default the provider's), provider (default the task's) and the musicB parameters; params.model reports the tier an extend was priced on (auto: musicA-7.6)",
    reason: 'document 3 says the shape of /extend is not shown, and that the musicB parameters are its top-level form fields',
  },
  {
    subject: `tracks: musicA ${musicTrackCount.musicA}, musicB ${musicTrackCount.musicB} per task; a song lasts ${musicDurations.song.minMs / 1000}-${musicDurations.song.maxMs / 1000} s and a soundtrack of an image ${musicDurations.soundtrack.minMs / 1000}-${musicDurations.soundtrack.maxMs / 1000} s (steps of ${musicDurations.stepMs / 1000} s, fixed per task); a track of a known source lasts as long as it (a /track window: generateEnd - generateStart; a soundtrack: its video, when the video can be read: not AVI); an extension adds ${musicDurations.extension.minMs / 1000}-${musicDurations.extension.maxMs / 1000} s after continueAt; tags is a comma-separated string; each track has a providerSongId`,
    reason: 'document 3 gives the track fields, not how many tracks or how long; it takes providerSongId without saying where it is read',
  },
  {
    subject: `a signed audioUrl (?expires=<ms>&sig=<hex>, a keyed hash of the path and the expiry under a secret derived from the seed) loads for exactly ${MUSIC_URL_TTL_MS / 60_000} minutes after the fetch (GET or list) that produced it: then 403 with 39014; an altered or missing signature or expiry: 403 with 39015`,
    reason: 'document 3 says the URLs are signed and expire "about 1 hour" after the task is fetched, without the scheme',
  },
  {
    subject:
      "a platform URL (uploadUrl, audioUrl) is one on the service's own origin: it must be a track audioUrl of one of the caller's succeeded music tasks (its signature and expiry are not required: ownership is what is checked); another account's: 403 (39008), no track being public; any other: 404 (39009). On /cover any other http(s) URL counts as public and is accepted unread (its length assumed as a song's); on /remix, whose audioUrl document 3 calls internal platform audio, another site's URL is refused (39001)",
    reason:
      'document 3 says ownership is verified for platform asset URLs and that public URLs are accepted, not how either is recognised nor how a track is made public',
  },
  {
    subject:
      "providerSongId (/track, /remix, /extend) must name a musicA track of one of the caller's succeeded tasks (on /extend: a track of the task named); anything else: 404 (39009)",
    reason: 'document 3 calls it a musicA song id without saying which ids are valid; the mock knows only the songs it made',
  },
  {
    subject: `upload limits of /soundtrack: an image up to ${soundtrackUploads.imageMaxBytes / 1024 / 1024} MB, a video up to ${soundtrackUploads.videoMaxBytes / 1024 / 1024} MB; every upload is judged by its content (magic bytes; audio must also be readable as audio), not its name`,
    reason: 'document 3 gives 10 MB for audio uploads only, and the accepted types by name',
  },
  {
    subject: `text limits: prompt ${musicTextLimits.prompt}, lyrics ${musicTextLimits.lyrics}, style ${musicTextLimits.style}, title ${musicTextLimits.title}, negativeTags ${musicTextLimits.negativeTags}, ids ${musicTextLimits.id} characters (code points); an instrumental needs prompt or style; a cover with customMode false needs prompt`,
    reason: 'document 3 gives no lengths, and does not say what an instrumental or a non-custom cover is made from',
  },
  {
    subject:
      'customMode and providerParams keys sent with musicA, and musicB parameters on an extend of a musicA task, answer 39006 rather than being ignored; params echoes the request fields (providerParams with the listed keys only)',
    reason: 'document 3 says these fields are musicB only (as vocalId is musicA only) without saying what happens otherwise',
  },
  {
    subject: 'the music list takes pageSize 1-100 (default 20) and status; no request limit on the music creates',
    reason: 'document 3 gives pageSize 1-100 for lyrics and shows no music request limit',
  },
];

export const musicArea = {
  tag: {
    name: 'Music',
    description: 'Songs, instrumentals, soundtracks, single tracks, remixes, covers and extensions, generated asynchronously by musicA or musicB (document 3).',
  },
  operations: musicOperations,
  tableAssumptions: musicTableAssumptions,
} satisfies Area;
