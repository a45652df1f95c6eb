/**
 * The error catalog's blocks of document 1 (schemas/errors.ts joins them into
 * the one catalog, decisions/0003-assumed-codes.md): transport and auth, the
 * shared video endpoints, family5, image, OAuth user tokens. Seed: document 1,
 * "Errors", "Authentication"; every number it does not show is assumed and says
 * why.
 */
import { assumed, fromSeed } from '../provenance.ts';
import type { CatalogError } from './catalog-error.ts';

const transport = assumed('document 1 does not number transport-level errors; the 10xxx range is reserved for them');
const sharedVideoCodes = assumed(
  'document 1 says the numeric codes of the shared video endpoints are "not shown"; the 31xxx range sits beside the documented family5 32xxx range',
);
const imageCodes = assumed(
  'document 1 shows only 29003 and 26019 for the image endpoints ("Other image codes ... not shown"); the others sit in the 26xxx range beside 26019; a missing resource, or one of another user, answers HTTP 404',
);
const oauthCodes = assumed(
  "document 1 says the OAuth user-token operations exist but shows neither their paths, payloads nor codes; the 42xxx range is this contract's (401 for a token that does not work, 400 otherwise)",
);

/** Transport and auth errors: every operation can answer them (numbers assumed: document 1 does not number them). */
export const transportErrors = {
  UNAUTHORIZED: {
    code: 10001,
    httpStatus: 401,
    // document 1, "Authentication": a rejected credential answers 401 or 403, without saying which; both are declared
    alsoHttpStatus: [403],
    meaning: 'missing, malformed or deleted API key',
    provenance: transport,
  },
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
} as const satisfies Record<string, CatalogError>;

/** The shared video endpoints (families 1-4; numbers assumed: document 1 says they are "not shown"). */
export const sharedVideoErrors = {
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
} as const satisfies Record<string, CatalogError>;

/** The family5 endpoint (document 1, "Errors": numbers and meanings shown). */
export const family5Errors = {
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
} as const satisfies Record<string, CatalogError>;

/** The image endpoints (document 1, "Errors": 29003 and 26019 shown; every other number assumed). */
export const imageErrors = {
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
} as const satisfies Record<string, CatalogError>;

/** OAuth user tokens (document 1, "Authentication": every code assumed). */
export const oauthErrors = {
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
