/**
 * Music generation contract: asynchronous songs on two providers. Seven
 * creates answer HTTP 202 `{taskId, status: pending}`: /generate (JSON, musicA
 * or musicB), /instrumental, /soundtrack, /track, /remix (multipart uploads,
 * musicA only), /cover (JSON, musicB only) and /extend (assumed multipart).
 * A task moves pending, generating, uploading, success (or failed) on the
 * virtual clock; its tracks' audioUrl values are signed and stop loading about
 * an hour after the fetch that produced them. Credits by model tier (or the
 * extend table, or an assumed flat price), reserved at creation, captured on
 * success, refunded on failure.
 *
 * Seed: document 3, "Providers and models (lyrics and music)", "musicB
 * parameters", "Music task", "States and transitions", "Music: asynchronous
 * generation (prefix /v1/music)", "Errors", "Limits". The shapes of /extend,
 * the error numbers, the schedule, the flat prices, the track counts and
 * durations, the text limits and the image and video size limits are assumed
 * (`musicTableAssumptions`). The provider and model tables are shared with the
 * lyrics area (schemas/music-providers.ts). /recognize, /describe and /stem are
 * another area's.
 *
 * The parts: music/tables.ts (statuses, prices, schedule, limits), music/params.ts
 * (rule helpers, the musicB parameters), music/requests.ts (/generate, /cover),
 * music/uploads.ts (the multipart creates and /extend), music/operations.ts
 * (responses, operations, the area).
 */
export * from './music/tables.ts';
export * from './music/params.ts';
export * from './music/requests.ts';
export * from './music/uploads.ts';
export * from './music/operations.ts';
