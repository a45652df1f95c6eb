/**
 * The error catalog: every error the API (and the mock's transport layer) can
 * return, once. Each entry has the numeric `code` carried in the envelope, the
 * HTTP status it is answered with, its meaning and its provenance.
 *
 * Seed: document 1, "Errors" (family5 codes 32001-32008 and 29998) and
 * "Authentication". Every other number here is assumed: the seed says the
 * numeric values of the shared video endpoint and of the common transport
 * errors are "not shown" (decisions/0003-assumed-codes.md).
 *
 * An error is referred to by its code, its catalog name, or, for the reasons a
 * failed task reports as a string (`failReason: "free_relax_busy"`), that string.
 */
import { assumed, fromSeed, type Provenance } from './provenance.ts';

/** One catalogued error. `failure` marks codes that can also be a failed task's reason. */
export interface CatalogError {
  code: number;
  httpStatus: 400 | 401 | 402 | 403 | 404 | 405 | 408 | 409 | 410 | 413 | 415 | 416 | 429 | 431 | 500 | 502 | 503 | 504 | 507;
  meaning: string;
  provenance: Provenance;
  /** True when a task that was accepted can later fail with this code (forced with `Prefer: outcome=failed, error=<code>`). */
  failure?: boolean;
  /** Retry-After of a 429 or 503 of this error when nothing else sets it, seconds (default 60). */
  retryAfterSeconds?: number;
  /** The string a failed task reports for this error (e.g. `failReason: "free_relax_busy"`); also accepted by `Prefer: error=`. */
  reason?: string;
}

const sharedVideoCodes = assumed(
  'document 1 says the numeric codes of the shared video endpoints are "not shown"; the 31xxx range sits beside the documented family5 32xxx range',
);
const transport = assumed('document 1 does not number transport-level errors; the 10xxx range is reserved for them');
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
const lyricsCodes = assumed(
  'document 3 says the numeric codes of lyrics errors are "not shown"; the 38xxx range is this contract\'s (HTTP statuses as the image and speech blocks: 402 for credits, 404 for a task)',
);
const musicAnalysisCodes = assumed(
  'document 3 says the numeric code values of the music errors are "not shown"; the 39501-39599 range is this contract\'s, for the synchronous analysis endpoints',
);
const storybookCodes = assumed(
  "document 3 says the numeric codes of page-deck errors are not shown; the 40xxx range is this contract's; a missing resource, or one of another user, answers HTTP 404",
);
const oauthCodes = assumed(
  "document 1 says the OAuth user-token operations exist but shows neither their paths, payloads nor codes; the 42xxx range is this contract's (401 for a token that does not work, 400 otherwise)",
);
const extractionCodes = assumed(
  "document 3 says the numeric codes of extraction errors are not shown; the 41xxx range is this contract's; a missing resource, or one of another user, answers HTTP 404",
);
const musicCodes = assumed(
  'document 3 says the numeric codes of music errors are "not shown"; the 39001-39099 range is this contract\'s (HTTP statuses as the lyrics block: 402 for credits, 404 for a task, 413 for an upload over its limit, 403 for a signed URL that no longer loads)',
);
const imageCodes = assumed(
  'document 1 shows only 29003 and 26019 for the image endpoints ("Other image codes ... not shown"); the others sit in the 26xxx range beside 26019; a missing resource, or one of another user, answers HTTP 404',
);

/** The catalog, keyed by a stable name used in code (the wire carries only `code`). */
export const errorCatalog = {
  // ---- transport and auth (every operation) ----
  UNAUTHORIZED: { code: 10001, httpStatus: 401, meaning: 'missing, malformed or deleted API key', provenance: transport },
  MALFORMED_JSON: { code: 10002, httpStatus: 400, meaning: 'the request body is not valid JSON', provenance: transport },
  UNSUPPORTED_MEDIA_TYPE: {
    code: 10003,
    httpStatus: 415,
    meaning: 'the request body has a Content-Type the operation does not accept (application/json, or multipart/form-data for uploads)',
    provenance: transport,
  },
  ROUTE_NOT_FOUND: { code: 10004, httpStatus: 404, meaning: 'no operation at this path', provenance: transport },
  METHOD_NOT_ALLOWED: { code: 10005, httpStatus: 405, meaning: 'the path exists but not with this HTTP method', provenance: transport },
  PAYLOAD_TOO_LARGE: { code: 10006, httpStatus: 413, meaning: 'the request body is larger than the operation accepts', provenance: transport },
  INVALID_PREFER: {
    code: 10007,
    httpStatus: 400,
    meaning: 'the Prefer header (or __code/__error/__outcome/__delay query) asks for something this operation does not declare',
    provenance: assumed('mock-only: forcing outcomes is a feature of the mock, not of the service'),
  },
  CONTROL_INVALID_REQUEST: {
    code: 10008,
    httpStatus: 400,
    meaning: 'a control-API request (/__mock) that does not match its schema',
    provenance: assumed("mock-only: the control API is the mock's own"),
  },
  MALFORMED_MULTIPART: {
    code: 10009,
    httpStatus: 400,
    meaning: 'the multipart/form-data body cannot be parsed (no boundary, truncated, or a part without a name)',
    provenance: transport,
  },
  CONTROL_FORBIDDEN: {
    code: 10012,
    httpStatus: 403,
    meaning: 'a control-API request (/__mock) from a web page of another origin, or without the control token the mock requires',
    provenance: assumed("mock-only: the control API is the mock's own"),
  },
  RANGE_NOT_SATISFIABLE: { code: 10011, httpStatus: 416, meaning: 'the Range of a media request starts beyond the end of the file', provenance: transport },
  CONTROL_NOT_FOUND: {
    code: 10010,
    httpStatus: 404,
    meaning: 'a control-API resource that does not exist (for example a deleted account)',
    provenance: assumed("mock-only: the control API is the mock's own"),
  },
  HEADERS_TOO_LARGE: {
    code: 10013,
    httpStatus: 431,
    meaning: 'the request line and headers together are larger than the server reads (16 KiB)',
    provenance: transport,
  },
  MALFORMED_REQUEST: {
    code: 10014,
    httpStatus: 400,
    meaning: 'the request cannot be parsed as HTTP (for example a byte HTTP does not allow in the path or a header)',
    provenance: transport,
  },
  MEDIA_EXPIRED: {
    code: 10015,
    httpStatus: 410,
    meaning: 'a hosted file whose validity has ended (for example the subtitles of POST /v1/speech, valid 24 hours)',
    provenance: transport,
  },
  REQUEST_TIMEOUT: {
    code: 10016,
    httpStatus: 408,
    meaning:
      'the request line and headers, or the whole request, did not arrive in time (60 s for the request line and headers, 300 s for the whole request; checked every 30 s); the connection then closes',
    provenance: transport,
  },
  HOST_FORBIDDEN: {
    code: 10017,
    httpStatus: 403,
    meaning:
      "a control-API (/__mock) or sign-in page (/oauth) request whose Host is not a name of this mock (this machine's, the --public-url host, --allowed-host): a DNS-rebound page",
    provenance: assumed("mock-only: the control API and the sign-in page are the mock's own"),
  },
  SERVER_BUSY: {
    code: 10019,
    httpStatus: 503,
    meaning:
      'the mock is receiving as many bytes of request bodies (--max-inflight-body-mb) or serving as many event streams (--max-streams) as it takes at once; retry after Retry-After seconds',
    provenance: assumed("mock-only: the mock's own caps on concurrent work (the service's are not documented)"),
    retryAfterSeconds: 1,
  },
  SESSION_NOT_FOUND: {
    code: 10018,
    httpStatus: 404,
    meaning:
      'a request in a session (X-Mock-Session or /sessions/<name>) that does not exist, which this request cannot open: media, the sign-in page and unauthenticated requests open none',
    provenance: assumed('mock-only: sessions are a feature of the mock (decisions/0019-sessions.md)'),
  },
  STATE_SAVE_FAILED: {
    code: 10020,
    httpStatus: 507,
    meaning:
      'the mock could not write its state to the --state file (a directory it may not write in, a full disk): the state stays in memory and the save is tried again at shutdown',
    provenance: assumed(
      "mock-only: the state file is the mock's own; 507 Insufficient Storage (RFC 4918) as the server could not store what the request asked it to",
    ),
  },
  UPSTREAM_UNREACHABLE: {
    code: 10021,
    httpStatus: 502,
    meaning:
      'the mock forwards to an upstream (--upstream) that could not be reached (connection refused, no such host, connection reset before an answer), and no fallback answers for it (--fallback mock)',
    provenance: assumed("mock-only: the proxy is the mock's own; 502 Bad Gateway as RFC 9110 section 15.6.3 says of a gateway"),
  },
  UPSTREAM_TIMEOUT: {
    code: 10022,
    httpStatus: 504,
    meaning:
      'the mock forwards to an upstream (--upstream) that sent nothing for --upstream-timeout seconds (30 by default), and no fallback answers for it (--fallback mock)',
    provenance: assumed("mock-only: the proxy is the mock's own; 504 Gateway Timeout as RFC 9110 section 15.6.5 says of a gateway"),
  },
  MOCK_INTERNAL_ERROR: {
    code: 10500,
    httpStatus: 500,
    meaning: 'a bug in the mock (for example a response that does not match its declared schema); never expected',
    provenance: assumed('mock-only'),
  },

  // ---- shared video endpoints (numbers assumed) ----
  VIDEO_INVALID_PARAMETERS: { code: 31001, httpStatus: 400, meaning: 'invalid parameters', provenance: sharedVideoCodes },
  VIDEO_UNSUPPORTED_COMBINATION: {
    code: 31002,
    httpStatus: 400,
    meaning: 'unsupported model, ratio, resolution or duration combination',
    provenance: sharedVideoCodes,
  },
  VIDEO_MISSING_MEDIA_DURATION: {
    code: 31003,
    httpStatus: 400,
    meaning: 'missing media duration (inputVideoDuration is required with video input)',
    provenance: sharedVideoCodes,
  },
  VIDEO_INSUFFICIENT_CREDITS: { code: 31004, httpStatus: 400, meaning: 'insufficient credits', provenance: sharedVideoCodes },
  VIDEO_TASK_FORBIDDEN: { code: 31005, httpStatus: 400, meaning: 'the task belongs to another user', provenance: sharedVideoCodes },
  VIDEO_TASK_NOT_FOUND: { code: 31006, httpStatus: 400, meaning: 'the task does not exist', provenance: sharedVideoCodes },
  VIDEO_TASK_NOT_FINISHED: {
    code: 31007,
    httpStatus: 400,
    meaning: 'the task has not finished: only a succeeded or failed task can be deleted',
    provenance: sharedVideoCodes,
  },
  VIDEO_GENERATION_FAILED: { code: 31008, httpStatus: 400, meaning: 'provider error during generation', provenance: sharedVideoCodes, failure: true },
  VIDEO_CONTENT_REJECTED: { code: 31009, httpStatus: 400, meaning: 'content rejected by moderation', provenance: sharedVideoCodes, failure: true },
  VIDEO_RATE_LIMITED: {
    code: 31029,
    httpStatus: 429,
    meaning: 'per-user video generate rate limit (5 per minute), answered with HTTP 429 and Retry-After',
    provenance: sharedVideoCodes,
  },

  // ---- family5 (document 1, "Errors") ----
  F5_TASK_NOT_FOUND: { code: 32001, httpStatus: 400, meaning: 'task not found', provenance: fromSeed(1, 'Errors') },
  F5_INSUFFICIENT_CREDITS: { code: 32002, httpStatus: 400, meaning: 'not enough credits', provenance: fromSeed(1, 'Errors') },
  F5_PROVIDER_ERROR: { code: 32003, httpStatus: 400, meaning: 'provider error during generation', provenance: fromSeed(1, 'Errors'), failure: true },
  F5_INVALID_PARAMETERS: {
    code: 32004,
    httpStatus: 400,
    meaning: 'invalid parameters or unsupported capability combination',
    provenance: fromSeed(1, 'Errors'),
  },
  F5_TASK_FORBIDDEN: { code: 32005, httpStatus: 400, meaning: 'task exists but belongs to another user', provenance: fromSeed(1, 'Errors') },
  F5_AUDIO_NEEDS_VISUAL: { code: 32006, httpStatus: 400, meaning: 'audio input requires at least one image or video', provenance: fromSeed(1, 'Errors') },
  F5_PROVIDER_THROTTLED: {
    code: 32007,
    httpStatus: 400,
    meaning: 'upstream provider throttling or video concurrency slots exhausted',
    provenance: fromSeed(1, 'Errors'),
    failure: true,
  },
  F5_CONTENT_REJECTED: { code: 32008, httpStatus: 400, meaning: 'content rejected by moderation', provenance: fromSeed(1, 'Errors'), failure: true },
  RATE_LIMITED: {
    code: 29998,
    httpStatus: 429,
    meaning: 'per-user request rate limit, answered with a real HTTP 429 and Retry-After',
    provenance: fromSeed(1, 'Errors'),
  },

  // ---- speech endpoints (document 2; every number and status assumed) ----
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

  // ---- generated-audio services (document 2, "Errors": codes and meanings shown; HTTP 400, 429 for the rate limit) ----
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
    meaning:
      'rate limited: more than 5 generate requests per minute per user (HTTP 429, Retry-After); listed by document 2 among the business errors of HTTP 400, so branch on the code whatever the status',
    // document 2 both lists 33007 among the codes of business errors (HTTP 400) and says a 429 answers the generate rate
    provenance: assumed(
      'document 2, "Errors", lists 33007 "rate limited" among the generated-audio codes and says their business errors are HTTP 400, but also that HTTP 429 applies beyond 5 generate requests per minute; which code that 429 carries is not shown: it carries 33007, with HTTP 429 as document 1 answers every rate limit',
    ),
  },
  GEN_AUDIO_TIMED_OUT: { code: 33008, httpStatus: 400, meaning: 'generation timed out', provenance: fromSeed(2, 'Errors'), failure: true },
  GEN_AUDIO_CONCURRENCY_LIMIT: { code: 33009, httpStatus: 400, meaning: 'per-user concurrency limit reached', provenance: fromSeed(2, 'Errors') },

  // ---- voice cloning (document 2: the names are the document's; numbers and statuses assumed) ----
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

  // ---- podcasts (document 2: "Speaker language mismatch" named; every number and status assumed) ----
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

  // ---- page decks (document 3: every number and status assumed) ----
  STORYBOOK_INVALID_PARAMETERS: { code: 40001, httpStatus: 400, meaning: 'invalid page-deck request parameters', provenance: storybookCodes },
  STORYBOOK_SPEAKER_NOT_FOUND: {
    code: 40003,
    httpStatus: 400,
    meaning: 'a speakerId that GET /v1/speakers/list does not list for this account',
    provenance: storybookCodes,
  },
  STORYBOOK_INSUFFICIENT_CREDITS: { code: 40004, httpStatus: 402, meaning: 'insufficient credits; nothing reserved', provenance: storybookCodes },
  STORYBOOK_EPISODE_NOT_FOUND: {
    code: 40005,
    httpStatus: 404,
    meaning: 'page-deck episode not found (or it belongs to another user)',
    provenance: storybookCodes,
  },
  STORYBOOK_VIDEO_NOT_ALLOWED: {
    code: 40006,
    httpStatus: 409,
    meaning: 'a video needs processStatus success (the deck is pending or failed)',
    provenance: storybookCodes,
  },
  STORYBOOK_GENERATION_FAILED: { code: 40008, httpStatus: 400, meaning: 'the deck could not be made; refunded', provenance: storybookCodes, failure: true },
  STORYBOOK_CONTENT_REJECTED: { code: 40009, httpStatus: 400, meaning: 'content rejected by moderation; refunded', provenance: storybookCodes, failure: true },
  STORYBOOK_SOURCE_UNREADABLE: { code: 40010, httpStatus: 400, meaning: 'the source could not be read; refunded', provenance: storybookCodes, failure: true },
  STORYBOOK_TIMED_OUT: { code: 40011, httpStatus: 400, meaning: 'still pending after 30 minutes; refunded', provenance: storybookCodes, failure: true },
  STORYBOOK_VIDEO_FAILED: { code: 40012, httpStatus: 400, meaning: 'the video render failed; the render refunded', provenance: storybookCodes, failure: true },

  // ---- content extraction (document 3: every number and status assumed) ----
  EXTRACTION_INVALID_PARAMETERS: { code: 41001, httpStatus: 400, meaning: 'invalid extraction request parameters', provenance: extractionCodes },
  EXTRACTION_TASK_NOT_FOUND: {
    code: 41002,
    httpStatus: 404,
    meaning: 'extraction task not found (or it belongs to another user)',
    provenance: extractionCodes,
  },
  EXTRACTION_INSUFFICIENT_CREDITS: { code: 41003, httpStatus: 402, meaning: 'the balance does not cover the hold; nothing held', provenance: extractionCodes },
  EXTRACTION_PAGE_UNREACHABLE: {
    code: 41008,
    httpStatus: 400,
    meaning: 'the page could not be fetched; every credit refunded',
    provenance: extractionCodes,
    failure: true,
  },
  EXTRACTION_UNSUPPORTED_CONTENT: {
    code: 41009,
    httpStatus: 400,
    meaning: 'the page has no extractable text; every credit refunded',
    provenance: extractionCodes,
    failure: true,
  },
  EXTRACTION_TIMED_OUT: {
    code: 41010,
    httpStatus: 400,
    meaning: 'the extraction timed out; every credit refunded',
    provenance: extractionCodes,
    failure: true,
  },

  // ---- image endpoints (document 1, "Errors": 29003 and 26019 shown; every other number assumed) ----
  IMAGE_INVALID_PARAMETERS: { code: 26001, httpStatus: 400, meaning: 'invalid image request parameters', provenance: imageCodes },
  IMAGE_UNSUPPORTED_SIZE: {
    code: 26002,
    httpStatus: 400,
    meaning: 'imageSize not supported by the model (image-c-5-0-pro and image-d-2.7 have no 4K; image-d-2.7-pro has 4K only for text-to-image)',
    provenance: imageCodes,
  },
  IMAGE_TOO_MANY_REFERENCE_IMAGES: {
    code: 26003,
    httpStatus: 400,
    meaning: 'more reference images than the model family allows (the message names the limit)',
    provenance: imageCodes,
  },
  IMAGE_INSUFFICIENT_CREDITS: {
    code: 26004,
    httpStatus: 402,
    meaning: 'insufficient credits for the image generation (HTTP 402 per document 1)',
    provenance: imageCodes,
  },
  IMAGE_SUBSCRIPTION_REQUIRED: {
    code: 26005,
    httpStatus: 402,
    meaning: 'image-a-2-official at 4K or quality high requires a subscription (plan paid)',
    provenance: imageCodes,
  },
  IMAGE_TASK_NOT_FOUND: { code: 26006, httpStatus: 404, meaning: 'image task not found (or it belongs to another user)', provenance: imageCodes },
  IMAGE_GENERATION_FAILED: { code: 26008, httpStatus: 400, meaning: 'provider error during image generation', provenance: imageCodes, failure: true },
  IMAGE_UNSUPPORTED_RATIO: {
    code: 26019,
    httpStatus: 400,
    meaning: 'aspect ratio not supported by the model (image-a, image-d); the message lists the supported ratios',
    provenance: fromSeed(1, 'Image: request schema'),
  },
  IMAGE_RATE_LIMITED: {
    code: 26029,
    httpStatus: 429,
    meaning: 'per-user image generate rate limit (tighter with base64 reference images), answered with HTTP 429 and Retry-After',
    provenance: imageCodes,
  },
  IMAGE_FREE_RELAX_BUSY: {
    code: 26030,
    httpStatus: 429,
    meaning: 'free_relax_busy: the restricted free lane (image-b-3-pro, never-paid accounts) is busy; nothing charged, retry later',
    provenance: imageCodes,
    failure: true,
    reason: 'free_relax_busy',
  },
  IMAGE_FREE_RELAX_TIMEOUT: {
    code: 26031,
    httpStatus: 429,
    meaning: 'free_relax_timeout: the request timed out in the restricted free lane; nothing charged, retry later',
    provenance: imageCodes,
    failure: true,
    reason: 'free_relax_timeout',
  },
  IMAGE_B_UNSUPPORTED_RATIO: {
    code: 29003,
    httpStatus: 400,
    meaning: 'aspect ratio not supported by the image-b model',
    provenance: fromSeed(1, 'Image: request schema'),
  },
  // ---- lyrics (document 3, "Errors": every number and status assumed) ----
  LYRICS_INVALID_PARAMETERS: { code: 38001, httpStatus: 400, meaning: 'invalid lyrics request parameters', provenance: lyricsCodes },
  LYRICS_TASK_NOT_FOUND: { code: 38002, httpStatus: 404, meaning: 'lyrics task not found (or it belongs to another user)', provenance: lyricsCodes },
  LYRICS_INSUFFICIENT_CREDITS: {
    code: 38003,
    httpStatus: 402,
    meaning: 'insufficient credits for a lyrics request (2 credits); nothing reserved',
    provenance: lyricsCodes,
  },
  LYRICS_PROVIDER_REJECTED: {
    code: 38004,
    httpStatus: 400,
    meaning: 'the provider rejected the lyrics request; credits refunded',
    provenance: lyricsCodes,
    failure: true,
  },
  LYRICS_GENERATION_FAILED: {
    code: 38005,
    httpStatus: 400,
    meaning: 'lyrics generation failed at the provider; credits refunded (also the errorMessage of a failed variant)',
    provenance: lyricsCodes,
    failure: true,
  },
  LYRICS_TIMED_OUT: {
    code: 38006,
    httpStatus: 400,
    meaning: 'lyrics generation timed out (a musicB task without a provider callback for 30 minutes); credits refunded in full, no later recovery',
    provenance: lyricsCodes,
    failure: true,
  },
  LYRICS_RATE_LIMITED: {
    code: 38029,
    httpStatus: 429,
    meaning: 'per-user lyrics creation rate limit (the value is assumed), answered with HTTP 429 and Retry-After; nothing reserved',
    provenance: lyricsCodes,
  },

  // ---- music analysis: /v1/music/recognize, /describe, /stem (document 3, "Errors": numbers not shown; 39501-39599 assumed) ----
  MUSIC_ANALYSIS_INVALID_PARAMETERS: {
    code: 39501,
    httpStatus: 400,
    meaning:
      'invalid music-analysis parameters (both or neither of audio and audioUrl, an unknown model, an audioUrl that is not http(s)); the message names the field',
    provenance: musicAnalysisCodes,
  },
  MUSIC_ANALYSIS_UNSUPPORTED_AUDIO: {
    code: 39502,
    httpStatus: 400,
    meaning: 'the audio is empty, unreadable, or not mp3, m4a or wav (judged from its bytes, not its name or declared type); nothing charged',
    provenance: musicAnalysisCodes,
  },
  MUSIC_ANALYSIS_AUDIO_DURATION_INVALID: {
    code: 39503,
    httpStatus: 400,
    meaning: 'the audio is too short or too long to analyse (1 s to 60 minutes); nothing charged',
    provenance: musicAnalysisCodes,
  },
  MUSIC_ANALYSIS_FILE_TOO_LARGE: {
    code: 39504,
    httpStatus: 413,
    meaning: 'the audio file is over 10 MB (an upload, or the hosted file an audioUrl names); nothing charged',
    provenance: musicAnalysisCodes,
  },
  MUSIC_ANALYSIS_SOURCE_NOT_FOUND: {
    code: 39505,
    httpStatus: 400,
    meaning: 'audioUrl is an address of the platform but names no hosted media file (unknown, deleted, expired or not produced yet)',
    provenance: musicAnalysisCodes,
  },
  MUSIC_ANALYSIS_SOURCE_FORBIDDEN: {
    code: 39506,
    httpStatus: 403,
    meaning: "audioUrl names hosted media of another account (as document 3 rules for the audioUrl of /remix: the caller's own audio or public audio only)",
    provenance: musicAnalysisCodes,
  },
  MUSIC_ANALYSIS_INSUFFICIENT_CREDITS: {
    code: 39507,
    httpStatus: 402,
    meaning: 'insufficient credits for the analysis (HTTP 402, as the speech endpoints); nothing charged',
    provenance: musicAnalysisCodes,
  },
  MUSIC_ANALYSIS_FAILED: {
    code: 39508,
    httpStatus: 400,
    meaning: 'the analysis failed at the provider; nothing charged',
    provenance: musicAnalysisCodes,
  },

  // ---- music generation (document 3, "Errors": every number and status assumed) ----
  MUSIC_INVALID_PARAMETERS: { code: 39001, httpStatus: 400, meaning: 'invalid music request parameters', provenance: musicCodes },
  MUSIC_TASK_NOT_FOUND: { code: 39002, httpStatus: 404, meaning: 'music task not found (or it belongs to another user)', provenance: musicCodes },
  MUSIC_INSUFFICIENT_CREDITS: {
    code: 39003,
    httpStatus: 402,
    meaning: 'insufficient credits for the music request (its price by model tier or endpoint); nothing reserved',
    provenance: musicCodes,
  },
  MUSIC_UNSUPPORTED_FILE: {
    code: 39004,
    httpStatus: 400,
    meaning: 'an uploaded file is not of a type the field accepts (judged by its content, not its name), or cannot be read',
    provenance: musicCodes,
  },
  MUSIC_FILE_TOO_LARGE: { code: 39005, httpStatus: 413, meaning: 'an uploaded file is over its size limit (audio: 10 MB)', provenance: musicCodes },
  MUSIC_PROVIDER_UNSUPPORTED: {
    code: 39006,
    httpStatus: 400,
    meaning:
      "a field of one music provider sent to the other (vocalId on musicB, customMode or musicB parameters on musicA, another provider than the source task's)",
    provenance: musicCodes,
  },
  MUSIC_MODEL_UNSUPPORTED: {
    code: 39007,
    httpStatus: 400,
    meaning: "the model is not one of the provider's models, or not available on this endpoint (musicA-9 on /instrumental)",
    provenance: musicCodes,
  },
  MUSIC_SOURCE_FORBIDDEN: {
    code: 39008,
    httpStatus: 403,
    meaning: 'a platform audio URL (audioUrl, uploadUrl) that belongs to another account; ownership is verified',
    provenance: musicCodes,
  },
  MUSIC_SOURCE_NOT_FOUND: {
    code: 39009,
    httpStatus: 404,
    meaning: 'the source names no song of the caller: a platform URL or providerSongId of no (or no finished) music track',
    provenance: musicCodes,
  },
  MUSIC_TASK_NOT_READY: {
    code: 39010,
    httpStatus: 409,
    meaning: 'the source music task has not succeeded (only a succeeded task can be extended)',
    provenance: musicCodes,
  },
  MUSIC_GENERATION_FAILED: {
    code: 39011,
    httpStatus: 400,
    meaning: 'music generation failed at the provider; credits refunded',
    provenance: musicCodes,
    failure: true,
  },
  MUSIC_PROVIDER_REJECTED: {
    code: 39012,
    httpStatus: 400,
    meaning: 'the provider rejected the music request (for example its content policy); credits refunded',
    provenance: musicCodes,
    failure: true,
  },
  MUSIC_TIMED_OUT: {
    code: 39013,
    httpStatus: 400,
    meaning: 'music generation timed out (30 minutes without progress); credits refunded in full',
    provenance: musicCodes,
    failure: true,
  },
  MUSIC_AUDIO_URL_EXPIRED: {
    code: 39014,
    httpStatus: 403,
    meaning: 'a signed track audioUrl past its expiry (about 1 hour after the task was fetched); fetch the task again for a fresh URL',
    provenance: musicCodes,
  },
  MUSIC_AUDIO_URL_INVALID_SIGNATURE: {
    code: 39015,
    httpStatus: 403,
    meaning: 'a track audioUrl whose signature does not match (missing, altered, or an altered expiry)',
    provenance: musicCodes,
  },

  // ---- OAuth user tokens (document 1, "Authentication": every code assumed) ----
  OAUTH_INVALID_PARAMETERS: { code: 42001, httpStatus: 400, meaning: 'invalid OAuth request parameters', provenance: oauthCodes },
  OAUTH_SESSION_NOT_FOUND: {
    code: 42002,
    httpStatus: 400,
    meaning: 'the login session does not exist, has expired, or has already been exchanged',
    provenance: oauthCodes,
  },
  OAUTH_INVALID_CODE: {
    code: 42003,
    httpStatus: 400,
    meaning: 'the authorization code is wrong for this login session, already used, or expired',
    provenance: oauthCodes,
  },
  OAUTH_INVALID_REFRESH_TOKEN: {
    code: 42004,
    httpStatus: 401,
    meaning: 'the refresh token is unknown, expired, revoked, or an old one already replaced by a refresh (reuse ends the session)',
    provenance: oauthCodes,
  },
} as const satisfies Record<string, CatalogError>;

/** Stable name of a catalogued error. */
export type ErrorName = keyof typeof errorCatalog;

/** Every catalogued error name. */
export const errorNames = Object.keys(errorCatalog) as ErrorName[];

const byCode = new Map<number, ErrorName>(errorNames.map((n) => [errorCatalog[n].code, n]));
if (byCode.size !== errorNames.length) throw new Error('error catalog: duplicate numeric code');

/** Looks up an error by its numeric wire code; undefined when not catalogued. */
export function errorNameByCode(code: number): ErrorName | undefined {
  return byCode.get(code);
}

const byReason = new Map<string, ErrorName>();
for (const n of errorNames) {
  const reason = (errorCatalog[n] as CatalogError).reason;
  if (reason === undefined) continue;
  if (byReason.has(reason) || Object.hasOwn(errorCatalog, reason)) throw new Error(`error catalog: failure reason ${reason} is not unique`);
  byReason.set(reason, n);
}

/** The failure-reason string of an error, when it has one. */
export function errorReason(name: ErrorName): string | undefined {
  return (errorCatalog[name] as CatalogError).reason;
}

/** Resolves a `Prefer: error=` value: a numeric code, a catalog name, or a failure-reason string (`free_relax_busy`). */
export function resolveErrorRef(ref: string): ErrorName | undefined {
  if (/^\d+$/.test(ref)) return byCode.get(Number(ref));
  return Object.hasOwn(errorCatalog, ref) ? (ref as ErrorName) : byReason.get(ref);
}

/** How an error is named in messages: `26030 IMAGE_FREE_RELAX_BUSY (free_relax_busy)`. */
export function describeErrorRef(name: ErrorName): string {
  const reason = errorReason(name);
  return `${errorCatalog[name].code} ${name}${reason ? ` (${reason})` : ''}`;
}
