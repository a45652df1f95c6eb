/**
 * The error catalog's blocks of document 3 (schemas/errors.ts joins them into
 * the one catalog, decisions/0003-assumed-codes.md): page decks, content
 * extraction, lyrics, music analysis, music generation. Seed: document 3,
 * "Errors"; its numbers are not shown, so every one is assumed and says why.
 */
import { assumed } from '../provenance.ts';
import type { CatalogError } from './catalog-error.ts';

const storybookCodes = assumed(
  "document 3 says the numeric codes of page-deck errors are not shown; the 40xxx range is this contract's; a missing resource, or one of another user, answers HTTP 404",
);
const extractionCodes = assumed(
  "document 3 says the numeric codes of extraction errors are not shown; the 41xxx range is this contract's; a missing resource, or one of another user, answers HTTP 404",
);
const lyricsCodes = assumed(
  'document 3 says the numeric codes of lyrics errors are "not shown"; the 38xxx range is this contract\'s (HTTP statuses as the image and speech blocks: 402 for credits, 404 for a task)',
);
const musicAnalysisCodes = assumed(
  'document 3 says the numeric code values of the music errors are "not shown"; the 39501-39599 range is this contract\'s, for the synchronous analysis endpoints',
);
const musicCodes = assumed(
  'document 3 says the numeric codes of music errors are "not shown"; the 39001-39099 range is this contract\'s (HTTP statuses as the lyrics block: 402 for credits, 404 for a task, 413 for an upload over its limit, 403 for a signed URL that no longer loads)',
);

/** Page decks (document 3: every number and status assumed). */
export const storybookErrors = {
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
} as const satisfies Record<string, CatalogError>;

/** Content extraction (document 3: every number and status assumed). */
export const extractionErrors = {
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
} as const satisfies Record<string, CatalogError>;

/** Lyrics (document 3, "Errors": every number and status assumed). */
export const lyricsErrors = {
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
} as const satisfies Record<string, CatalogError>;

/** Music analysis (document 3, "Errors": numbers not shown; 39501-39599 assumed). */
export const musicAnalysisErrors = {
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
} as const satisfies Record<string, CatalogError>;

/** Music generation (document 3, "Errors": every number and status assumed). */
export const musicErrors = {
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
} as const satisfies Record<string, CatalogError>;
