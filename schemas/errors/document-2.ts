/**
 * The error catalog's blocks of document 2 (schemas/errors.ts joins them into
 * the one catalog, decisions/0003-assumed-codes.md): speech, generated audio,
 * voice cloning, podcasts. Seed: document 2, "Errors"; every number it does not
 * show is assumed and says why.
 */
import { assumed, fromSeed } from '../provenance.ts';
import type { CatalogError } from './catalog-error.ts';

const speechCodes = assumed(
  'document 2 says the HTTP status codes of speech failures are "not shown" and numbers none of them; the 35xxx range sits beside the documented generated-audio 33xxx range; a missing resource, or one of another user, answers HTTP 404',
);
const voiceCloneCodes = assumed(
  "document 2 names the voice-cloning errors (NEED_UPGRADE, NEED_CREDIT, ...) without numbers or HTTP statuses; the 36xxx range is this contract's; a missing resource, or one of another user, answers HTTP 404",
);
const voiceCloneRetry = assumed(
  'document 2, "Errors", gives these retry answers (HTTP 429 or 503, Retry-After 2 s or 5 s, safe to retry, nothing charged) but no numbers; 36029-36031 sit in the voice-cloning range',
);
const podcastCodes = assumed(
  'document 2 names one podcast error ("Speaker language mismatch") without a number or an HTTP status, and says the failCode values are not shown; the 37xxx range is this contract\'s; a missing resource, or one of another user, answers HTTP 404',
);

/** The speech endpoints (document 2; every number and status assumed). */
export const speechErrors = {
  SPEECH_INVALID_PARAMETERS: { code: 35001, httpStatus: 400, meaning: 'invalid speech request parameters', provenance: speechCodes },
  SPEECH_SPEAKER_NOT_FOUND: {
    code: 35002,
    httpStatus: 400,
    meaning: 'a voice or speakerId that GET /v1/speakers/list does not list for this account (the message names the id)',
    provenance: speechCodes,
  },
  SPEECH_INSUFFICIENT_CREDITS: {
    code: 35004,
    httpStatus: 402,
    meaning: 'insufficient credits for the speech (HTTP 402, as the image endpoints of document 1); nothing charged',
    provenance: speechCodes,
  },
  SPEECH_EPISODE_NOT_FOUND: { code: 35006, httpStatus: 404, meaning: 'flow-speech episode not found (or it belongs to another user)', provenance: speechCodes },
  SPEECH_GENERATION_FAILED: { code: 35008, httpStatus: 400, meaning: 'speech synthesis failed; nothing charged', provenance: speechCodes, failure: true },
  SPEECH_CONTENT_REJECTED: { code: 35009, httpStatus: 400, meaning: 'content rejected by moderation; nothing charged', provenance: speechCodes, failure: true },
  SPEECH_SOURCE_UNREADABLE: {
    code: 35010,
    httpStatus: 400,
    meaning: 'the page of a url source could not be read; nothing charged',
    provenance: speechCodes,
    failure: true,
  },
  SPEECH_TIMED_OUT: {
    code: 35011,
    httpStatus: 400,
    meaning: 'the episode was not produced within 30 minutes (a failCode only); nothing charged',
    provenance: speechCodes,
    failure: true,
  },
} as const satisfies Record<string, CatalogError>;

/** The generated-audio services (document 2, "Errors": codes and meanings shown). */
export const generatedAudioErrors = {
  GEN_AUDIO_TASK_NOT_FOUND: { code: 33001, httpStatus: 400, meaning: 'task not found or not owned by the caller', provenance: fromSeed(2, 'Errors') },
  GEN_AUDIO_SPEAKER_NOT_FOUND: { code: 33002, httpStatus: 400, meaning: 'speaker not found for a speaker entry', provenance: fromSeed(2, 'Errors') },
  GEN_AUDIO_UNAVAILABLE: { code: 33003, httpStatus: 400, meaning: 'generation service unavailable', provenance: fromSeed(2, 'Errors'), failure: true },
  GEN_AUDIO_INVALID_PARAMETERS: {
    code: 33004,
    httpStatus: 400,
    meaning: 'invalid parameters (for example voices and image together, or an entry mixing id and url)',
    provenance: fromSeed(2, 'Errors'),
  },
  GEN_AUDIO_TOO_MANY_VOICES: { code: 33005, httpStatus: 400, meaning: 'too many voices (max 3)', provenance: fromSeed(2, 'Errors') },
  GEN_AUDIO_INSUFFICIENT_CREDITS: { code: 33006, httpStatus: 400, meaning: 'not enough credits; nothing reserved', provenance: fromSeed(2, 'Errors') },
  GEN_AUDIO_RATE_LIMITED: {
    code: 33007,
    httpStatus: 429,
    // document 2 lists it among the business errors of HTTP 400: declared under 400 too
    alsoHttpStatus: [400],
    meaning:
      'rate limited: more than 5 generate requests per minute per user (HTTP 429, Retry-After); listed by document 2 among the business errors of HTTP 400, so branch on the code whatever the status',
    // document 2 both lists 33007 among the codes of business errors (HTTP 400) and says a 429 answers the generate rate
    provenance: assumed(
      'document 2, "Errors", lists 33007 "rate limited" among the generated-audio codes and says their business errors are HTTP 400, but also that HTTP 429 applies beyond 5 generate requests per minute; which code that 429 carries is not shown: it carries 33007, with HTTP 429 as document 1 answers every rate limit',
    ),
  },
  GEN_AUDIO_TIMED_OUT: { code: 33008, httpStatus: 400, meaning: 'generation timed out', provenance: fromSeed(2, 'Errors'), failure: true },
  GEN_AUDIO_CONCURRENCY_LIMIT: { code: 33009, httpStatus: 400, meaning: 'per-user concurrency limit reached', provenance: fromSeed(2, 'Errors') },
} as const satisfies Record<string, CatalogError>;

/** Voice cloning (document 2: the names are the document's; numbers and statuses assumed). */
export const voiceCloneErrors = {
  VOICE_CLONE_INVALID_PARAMETERS: { code: 36001, httpStatus: 400, meaning: 'invalid voice-clone request parameters', provenance: voiceCloneCodes },
  NEED_UPGRADE: {
    code: 36002,
    httpStatus: 403,
    meaning: 'NEED_UPGRADE: cloning needs a paid plan (a free-tier confirmation returns it)',
    provenance: voiceCloneCodes,
  },
  NEED_CREDIT: {
    code: 36003,
    httpStatus: 402,
    meaning: 'NEED_CREDIT: the quota is used up and useCredits is not set (or the balance is under 300); nothing charged',
    provenance: voiceCloneCodes,
  },
  SPEAKER_LIMIT_REACHED: {
    code: 36004,
    httpStatus: 409,
    meaning: 'SPEAKER_LIMIT_REACHED: the account holds maxSpeakers private voices; delete one first',
    provenance: voiceCloneCodes,
  },
  ALREADY_CONFIRMED: {
    code: 36005,
    httpStatus: 409,
    meaning: 'ALREADY_CONFIRMED: the task is already confirmed; no second charge',
    provenance: voiceCloneCodes,
  },
  AUDIO_DURATION_INVALID: {
    code: 36006,
    httpStatus: 400,
    meaning: 'AUDIO_DURATION_INVALID: the reference audio is too short or too long',
    provenance: voiceCloneCodes,
    failure: true,
  },
  NO_VALID_SPEECH: { code: 36007, httpStatus: 400, meaning: 'NO_VALID_SPEECH: no speech in the reference audio', provenance: voiceCloneCodes, failure: true },
  TASK_FAILED: { code: 36008, httpStatus: 400, meaning: 'TASK_FAILED: cloning failed; errorMessage has detail', provenance: voiceCloneCodes, failure: true },
  VOICE_CLONE_TASK_NOT_FOUND: {
    code: 36009,
    httpStatus: 404,
    meaning: 'voice-clone task not found (or it belongs to another user)',
    provenance: voiceCloneCodes,
  },
  VOICE_CLONE_TASK_EXPIRED: {
    code: 36010,
    httpStatus: 410,
    meaning: 'the voice-clone task was not confirmed within 7 days of completing and has expired',
    provenance: voiceCloneCodes,
  },
  VOICE_CLONE_TASK_NOT_COMPLETED: {
    code: 36011,
    httpStatus: 409,
    meaning: 'only a completed voice-clone task can be confirmed (this one is pending, processing or failed)',
    provenance: voiceCloneCodes,
  },
  VOICE_CLONE_SPEAKER_NOT_FOUND: {
    code: 36012,
    httpStatus: 404,
    meaning: 'private voice not found (or it belongs to another user)',
    provenance: voiceCloneCodes,
  },
  VOICE_CLONE_UNSUPPORTED_AUDIO: {
    code: 36013,
    httpStatus: 400,
    meaning: 'a reference file is not audio the service reads (WAV, MP3, Ogg, FLAC, AAC or M4A)',
    provenance: voiceCloneCodes,
  },
  VOICE_CLONE_FILES_TOO_LARGE: {
    code: 36014,
    httpStatus: 413,
    meaning: 'a reference file over 5 MB, or files over 20 MB together',
    provenance: voiceCloneCodes,
  },
  VOICE_CLONE_RATE_LIMITED: {
    code: 36029,
    httpStatus: 429,
    meaning: 'more than 5 voice-clone creates per minute per user (HTTP 429, Retry-After); safe to retry, nothing charged',
    provenance: voiceCloneRetry,
    retryAfterSeconds: 2,
  },
  VOICE_CLONE_CONFIRM_IN_FLIGHT: {
    code: 36030,
    httpStatus: 429,
    meaning: 'another confirmation for the same account is in flight (HTTP 429, Retry-After 2 s); safe to retry, nothing charged',
    provenance: voiceCloneRetry,
    retryAfterSeconds: 2,
  },
  VOICE_CLONE_UNAVAILABLE: {
    code: 36031,
    httpStatus: 503,
    meaning: 'the confirmation dependency is unavailable (HTTP 503, Retry-After 5 s); safe to retry, nothing charged',
    provenance: voiceCloneRetry,
    retryAfterSeconds: 5,
  },
} as const satisfies Record<string, CatalogError>;

/** Podcasts (document 2: "Speaker language mismatch" named; every number and status assumed). */
export const podcastErrors = {
  PODCAST_INVALID_PARAMETERS: { code: 37001, httpStatus: 400, meaning: 'invalid podcast request parameters', provenance: podcastCodes },
  SPEAKER_LANGUAGE_MISMATCH: {
    code: 37002,
    httpStatus: 400,
    meaning: "Speaker language mismatch: in the two-stage flow a speaker's language differs from language",
    provenance: podcastCodes,
  },
  PODCAST_SPEAKER_NOT_FOUND: {
    code: 37003,
    httpStatus: 400,
    meaning: 'a speakerId that GET /v1/speakers/list does not list for this account',
    provenance: podcastCodes,
  },
  PODCAST_INSUFFICIENT_CREDITS: { code: 37004, httpStatus: 402, meaning: 'insufficient credits; nothing reserved', provenance: podcastCodes },
  PODCAST_EPISODE_NOT_FOUND: { code: 37005, httpStatus: 404, meaning: 'podcast episode not found (or it belongs to another user)', provenance: podcastCodes },
  PODCAST_AUDIO_NOT_ALLOWED: {
    code: 37006,
    httpStatus: 409,
    meaning: 'the episode cannot render audio now: it is one-shot, its script is not ready (or failed), or its audio is rendering; the message says which',
    provenance: podcastCodes,
  },
  PODCAST_GENERATION_FAILED: { code: 37008, httpStatus: 400, meaning: 'podcast generation failed; refunded', provenance: podcastCodes, failure: true },
  PODCAST_CONTENT_REJECTED: { code: 37009, httpStatus: 400, meaning: 'content rejected by moderation; refunded', provenance: podcastCodes, failure: true },
  PODCAST_SOURCE_UNREADABLE: {
    code: 37010,
    httpStatus: 400,
    meaning: 'a source could not be read (a url source that does not load); refunded',
    provenance: podcastCodes,
    failure: true,
  },
  PODCAST_TIMED_OUT: {
    code: 37011,
    httpStatus: 400,
    meaning: 'a stage was still pending after 30 minutes; refunded',
    provenance: podcastCodes,
    failure: true,
  },
} as const satisfies Record<string, CatalogError>;
