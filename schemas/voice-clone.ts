/**
 * Voice-cloning contract: clone tasks from uploaded reference recordings
 * (multipart), their confirmation (free within the plan's quota, then 300
 * credits with useCredits), automatic confirmation inside a poll, and the
 * account's private voices.
 *
 * Seed: document 2, "Voice-clone task (poll result)", "Private voice", "States
 * and transitions", "Voice cloning (prefix /v1/voice-clone)", "Errors"
 * (voice-cloning error names and retry statuses), "Limits". The error numbers
 * and statuses, the accepted reference duration, the schedule, the plan
 * allowances and the expiry clock are assumed (`voiceCloneTableAssumptions`).
 */
import { z } from './zod.ts';
import { idParams } from './common.ts';
import { js, rule, withRules, type StateRule } from './rules.ts';
import { assumed, fromSeed, provenanceMeta, type TableAssumption } from './provenance.ts';
import { defineOperations, operationsWith, json, multipart, uploadedFile, type Area } from './define.ts';
import type { LifecycleDef } from './registry-types.ts';
import { defaultVoiceClone } from './plans.ts';
import { voiceGenders, voiceLanguages } from './speech.ts';

// ---------------------------------------------------------------------------
// Tables
// ---------------------------------------------------------------------------

/** Reference files (document 2, "Limits"): 1-6 files, each at most 5 MB, at most 20 MB together. */
export const cloneFiles = { min: 1, max: 6, maxFileBytes: 5 * 1024 * 1024, maxTotalBytes: 20 * 1024 * 1024 } as const;
/** Longest voice name, characters (document 2). */
export const VOICE_NAME_MAX = 50;
/** Credits of a confirmation beyond the period's quota (document 2, "Limits"). */
export const CONFIRM_CREDITS = 300;
/** Unconfirmed completed tasks expire (document 2: "after 7 days"; counted from completion, assumed). */
export const CLONE_EXPIRY_MS = 7 * 24 * 3_600_000;
/** Accepted total duration of the reference audio, ms (assumed: the seed says only "too short or too long"). */
export const referenceDurationMs = { min: 5_000, max: 300_000 } as const;
/** The simulated schedule (assumed): pending 2 s, processing 8 s, then completed; a task stalled for 30 minutes fails (TASK_FAILED). */
export const cloneSchedule = { pendingMs: 2_000, processingMs: 8_000, timeoutMs: 30 * 60_000 } as const;
/** Create requests per minute per user (document 2, "Limits"). */
export const cloneRateLimit = { bucket: 'voice-clone-create', limit: 5, windowMs: 60_000, provenance: fromSeed(2, 'Errors') } as const;
/** Length of a clone's preview, ms (assumed). */
export const CLONE_DEMO_MS = 4_000;

export const cloneStatuses = ['pending', 'processing', 'completed', 'failed'] as const;
export type CloneStatus = (typeof cloneStatuses)[number];
/** The names a failed task reports as errorCode (document 2). */
export const cloneFailureNames = ['TASK_FAILED', 'AUDIO_DURATION_INVALID', 'NO_VALID_SPEECH'] as const;

// ---------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------

const Name = z
  .string()
  .min(1)
  .max(VOICE_NAME_MAX)
  .meta({ description: `the voice's name, 1 to ${VOICE_NAME_MAX} characters` });
const Gender = z.enum(voiceGenders).meta({ description: 'male, female or other' });

const INVALID = 'VOICE_CLONE_INVALID_PARAMETERS' as const;

/**
 * Rules of a clone request's text fields (document 2, "Voice cloning"): consent, and name and gender with
 * autoConfirm. Carried by the multipart schema too; what the files hold is `createCloneStateRules`.
 */
/** autoConfirm true (sent: its default is false); typed so a validator coercing form text reads "true" as true. */
const autoConfirmed = { schema: { properties: { autoConfirm: { type: 'boolean', const: true } }, required: ['autoConfirm'] } };

const createCloneRules = [
  rule({
    id: 'voice-clone.consent',
    rule: 'consentConfirmed is true',
    code: INVALID,
    path: ['consentConfirmed'],
    message: "consentConfirmed must be true: declare the cloned person's consent",
    // type: a validator that coerces form text ("true") coerces it here, before const compares
    then: js.prop('consentConfirmed', { type: 'boolean', const: true }),
  }),
  rule({
    id: 'voice-clone.auto-confirm-name',
    rule: 'autoConfirm: name required',
    code: INVALID,
    path: ['name'],
    message: 'name is required with autoConfirm',
    when: autoConfirmed,
    then: { required: ['name'] },
  }),
  rule({
    id: 'voice-clone.auto-confirm-gender',
    rule: 'autoConfirm: gender required',
    code: INVALID,
    path: ['gender'],
    message: 'gender is required with autoConfirm',
    when: autoConfirmed,
    then: { required: ['gender'] },
  }),
];

/** Rules of a clone request no schema carries (x-rules): what the uploaded files hold and weigh. */
const createCloneStateRules: StateRule[] = [
  {
    code: 'VOICE_CLONE_UNSUPPORTED_AUDIO',
    fields: ['audioFiles'],
    rule: 'each file is audio a demuxer reads (WAV, MP3, Ogg, FLAC, AAC or M4A), whatever its Content-Type',
    reads: 'body',
  },
  {
    code: 'VOICE_CLONE_FILES_TOO_LARGE',
    fields: ['audioFiles'],
    rule: `each file at most ${cloneFiles.maxFileBytes / 1024 / 1024} MB, the files at most ${cloneFiles.maxTotalBytes / 1024 / 1024} MB together; larger bodies answer 413`,
    reads: 'body',
  },
];

/** Body of POST /v1/voice-clone/clone (document 2). */
export const CreateCloneRequest = withRules(
  z.object({
    audioFiles: z
      .array(uploadedFile('a reference recording (WAV, MP3, Ogg, FLAC, AAC or M4A)'))
      .min(cloneFiles.min)
      .max(cloneFiles.max)
      .meta({ description: '1 to 6 files (repeat the field), each at most 5 MB, at most 20 MB together' }),
    language: z.enum(voiceLanguages).meta({ description: voiceLanguages.join(', ') }),
    consentConfirmed: z.boolean().meta({ description: "must be true: the cloned person's consent (stored with the task)" }),
    mode: z.enum(['upload']).default('upload').meta({ description: 'upload (default and only accepted value)' }),
    autoConfirm: z.boolean().default(false).meta({ description: 'confirm inside the poll that first sees the clone finished (default false)' }),
    name: Name.optional().meta({ description: 'required with autoConfirm; up to 50 characters' }),
    gender: Gender.optional().meta({ description: 'required with autoConfirm: male, female or other' }),
    useCredits: z.boolean().default(false).meta({ description: 'authorizes the 300-credit charge once the quota is used (default false)' }),
  }),
  createCloneRules,
  'CreateCloneRequest',
  { description: 'multipart/form-data: text fields and the repeated audioFiles file field.' },
);

/** Body of POST /v1/voice-clone/confirm (document 2). */
export const ConfirmCloneRequest = z
  .object({
    taskId: z.string().min(1).meta({ description: 'a completed clone task' }),
    name: Name,
    gender: Gender,
    useCredits: z.boolean().default(false).meta({ description: 'authorizes the 300-credit charge once the quota is used (default false)' }),
  })
  .openapi('ConfirmCloneRequest', { example: { taskId: 'vct_1a2b3c4d5e6f7a8b', name: 'My narrator', gender: 'female', useCredits: false } });

/** Body of PUT /v1/voice-clone/speakers/{speakerId}: name and/or gender, at least one. */
export const UpdateVoiceRequest = withRules(
  z.object({ name: Name.optional(), gender: Gender.optional() }),
  [
    rule({
      id: 'voice-clone.update-something',
      rule: 'at least one of name or gender',
      code: INVALID,
      path: [],
      message: 'send name, gender or both',
      then: { anyOf: [{ required: ['name'] }, { required: ['gender'] }] },
    }),
  ],
  'UpdateVoiceRequest',
  { example: { name: 'Narrator (warm)' } },
);

export const CloneTaskParams = idParams('taskId', 'clone task id', 'vct_1a2b3c4d5e6f7a8b');
export const VoiceParams = idParams('speakerId', "the voice's speakerInnerId (or its id)", 'vc_1a2b3c4d5e6f7a8b');

// ---------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------

const mediaUrl = (what: string) =>
  z.string().meta(provenanceMeta(assumed('the files are hosted by the service under /media/ (no auth; Range answered 206)'), what));
const IsoTime = z.string().meta({ description: 'ISO 8601 timestamp (UTC)', example: '2026-01-01T00:00:10.000Z' });

export const CreateCloneData = z
  .strictObject({ taskId: z.string(), status: z.literal('pending') })
  .openapi('CreateCloneData', { example: { taskId: 'vct_1a2b3c4d5e6f7a8b', status: 'pending' } });

/** The clone task (document 2, "Voice-clone task (poll result)"); taskId is added (assumed). Terminal shapes: failed; completed without speakerId; confirmed. */
export const CloneTask = z
  .strictObject({
    // optional: an answer that follows document 2's table (no id) stays valid
    taskId: z
      .string()
      .optional()
      .meta(provenanceMeta(assumed('the poll result table does not list the id; this contract echoes it'), 'the task id, echoed')),
    status: z.enum(cloneStatuses),
    demoAudioUrl: mediaUrl('MP3 preview of the temporary voice, when completed').optional(),
    speakerId: z.string().optional().meta({ description: 'present once the voice is confirmed: pass it wherever a voice is expected' }),
    confirmError: z
      .string()
      .optional()
      .meta({ description: 'present when automatic confirmation failed: the error name and why (NEED_CREDIT, NEED_UPGRADE, SPEAKER_LIMIT_REACHED)' }),
    errorCode: z.enum(cloneFailureNames).optional().meta({ description: 'present when failed' }),
    errorMessage: z.string().optional().meta({ description: 'present when failed' }),
  })
  .openapi('CloneTask', {
    example: { taskId: 'vct_1a2b3c4d5e6f7a8b', status: 'completed', demoAudioUrl: 'http://localhost:4010/media/voice-clone/vct_1a2b3c4d5e6f7a8b/demo.mp3' },
  });
export type CloneTask = z.infer<typeof CloneTask>;

export const ConfirmCloneData = z.strictObject({ speakerId: z.string() }).openapi('ConfirmCloneData', { example: { speakerId: 'vc_1a2b3c4d5e6f7a8b' } });

/** A private voice (document 2, "Private voice"). updatedAt only on get and update. */
export const PrivateVoice = z
  .strictObject({
    id: z.string().meta({ description: 'record id' }),
    speakerInnerId: z.string().meta({ description: 'the id to pass to speech and TTS endpoints' }),
    name: z.string(),
    language: z.enum(voiceLanguages),
    gender: z.enum(voiceGenders),
    demoAudioUrl: mediaUrl('MP3 preview'),
    createdAt: IsoTime,
    updatedAt: IsoTime.optional().meta({ description: 'ISO 8601; on get and update' }),
  })
  .openapi('PrivateVoice');

/** Data of GET /v1/voice-clone/speakers (document 2, "Private voice": the list data). */
export const PrivateVoiceList = z
  .strictObject({
    speakers: z.array(PrivateVoice),
    quota: z.number().int().nonnegative().meta({ description: 'confirmations included per period' }),
    remainingConfirmations: z.number().int().nonnegative(),
    maxSpeakers: z.number().int().nonnegative().meta({ description: 'private voices kept at once' }),
    isLimitReached: z.boolean().meta({ description: "true once the period's confirmations are used up" }),
  })
  .openapi('PrivateVoiceList');

export const DeletedVoice = z.strictObject({ speakerId: z.string() }).openapi('DeletedVoice');

// ---------------------------------------------------------------------------
// Assumptions
// ---------------------------------------------------------------------------

export const voiceCloneTableAssumptions: TableAssumption[] = [
  {
    subject:
      'voice-clone error numbers 36001-36014, 36029-36031 and statuses: NEED_UPGRADE 403, NEED_CREDIT 402, SPEAKER_LIMIT_REACHED and ALREADY_CONFIRMED 409, task not found 404, expired 410; a failed task reports the name as errorCode, and an envelope message starts with the name',
    reason: 'document 2 names the errors without numbers or HTTP statuses',
  },
  {
    subject: `reference audio: ${referenceDurationMs.min / 1000} s to ${referenceDurationMs.max / 60_000} minutes in total, measured from the files (AUDIO_DURATION_INVALID outside); all-zero PCM (WAV) is NO_VALID_SPEECH; compressed audio is not checked for silence; a file no demuxer reads as audio is refused at create (36013)`,
    reason: 'document 2 says only "too short or too long" and "no speech"',
  },
  {
    subject: `clone schedule: pending ${cloneSchedule.pendingMs / 1000} s, processing ${cloneSchedule.processingMs / 1000} s, then completed (failures at the end of processing); stalled for ${cloneSchedule.timeoutMs / 60_000} minutes: failed (TASK_FAILED)`,
    reason: 'document 2 says the transitions between pending, processing, completed and failed are not shown',
  },
  {
    subject: `voice-clone allowance by plan: paid ${defaultVoiceClone.paid.quota} confirmations per period and ${defaultVoiceClone.paid.maxSpeakers} voices; free none; the period never resets by itself (PUT /__mock/accounts/{apiKey} sets confirmationsUsed)`,
    reason: 'document 2 says the quota and maxSpeakers are per plan and period without numbers or the period',
  },
  {
    subject:
      'a clone task can be created on plan free (its confirmation answers NEED_UPGRADE); the 7-day expiry counts from completion; a confirmation beyond the quota with useCredits and a balance under 300 answers NEED_CREDIT',
    reason: 'document 2 gives these rules without these details',
  },
  {
    subject:
      'confirmations are atomic in the mock: a concurrent second confirmation answers ALREADY_CONFIRMED; the 429 "another confirmation in flight" (36030) and the 503 (36031) are forced with Prefer (error=36030, code=503)',
    reason: 'document 2 describes the in-flight lock of a service whose confirmation takes time; the mock confirms within one request',
  },
];

// ---------------------------------------------------------------------------
// Operations
// ---------------------------------------------------------------------------

const confirmErrors = [
  'VOICE_CLONE_INVALID_PARAMETERS',
  'VOICE_CLONE_TASK_NOT_FOUND',
  'VOICE_CLONE_TASK_EXPIRED',
  'VOICE_CLONE_TASK_NOT_COMPLETED',
  'ALREADY_CONFIRMED',
  'NEED_UPGRADE',
  'NEED_CREDIT',
  'SPEAKER_LIMIT_REACHED',
  'VOICE_CLONE_CONFIRM_IN_FLIGHT',
  'VOICE_CLONE_UNAVAILABLE',
] as const;

const confirmRules =
  `Confirmation: free while the period's quota lasts; after it ${CONFIRM_CREDITS} credits, only with useCredits true (else NEED_CREDIT, 402, nothing charged); ` +
  'an account on plan free gets NEED_UPGRADE (403); holding maxSpeakers voices: SPEAKER_LIMIT_REACHED (409); a repeated confirmation: ALREADY_CONFIRMED (409), nothing charged. ' +
  'HTTP 429 (36030, Retry-After 2 s) when another confirmation of the account is in flight and 503 (36031, Retry-After 5 s) when the confirmation dependency is unavailable: both safe to retry, nothing charged.';

/** Rules of a confirmation (POST /v1/voice-clone/confirm), all reading the task or the account (x-rules), in the order checked. */
const confirmStateRules: StateRule[] = [
  {
    code: 'VOICE_CLONE_TASK_NOT_FOUND',
    fields: ['taskId'],
    rule: "taskId names a clone task of the caller's (another user's answers the same)",
    reads: 'state',
  },
  { code: 'ALREADY_CONFIRMED', fields: ['taskId'], rule: 'the task is not confirmed yet', reads: 'state' },
  { code: 'VOICE_CLONE_TASK_NOT_COMPLETED', fields: ['taskId'], rule: 'the task is completed', reads: 'state' },
  { code: 'VOICE_CLONE_TASK_EXPIRED', fields: ['taskId'], rule: 'the task completed less than 7 days ago', reads: 'state' },
  { code: 'NEED_UPGRADE', fields: [], rule: 'the account is on a paid plan', reads: 'account' },
  { code: 'SPEAKER_LIMIT_REACHED', fields: [], rule: 'the account holds fewer than maxSpeakers private voices', reads: 'account' },
  {
    code: 'NEED_CREDIT',
    fields: ['useCredits'],
    rule: `within the period's quota; beyond it, useCredits true and a balance of at least ${CONFIRM_CREDITS} credits`,
    reads: 'account',
  },
];
/** Polling a clone task (assumed: document 2 gives no polling advice): every 2 s, giving up a minute after the stall timeout. */
const clonePolling = {
  firstPollMs: 2_000,
  intervalMs: 2_000,
  timeoutMs: cloneSchedule.timeoutMs + 60_000,
  provenance: assumed('document 2 gives no polling timings for a clone task: every 2 s, giving up a minute after the assumed stall timeout'),
};

/**
 * A clone task (x-lifecycle of POST /v1/voice-clone/clone, multipart; document 2, "Voice-clone task (poll result)",
 * "States and transitions"): status pending -> processing -> completed (demoAudioUrl) or failed; the moves between
 * them are not shown (assumed). Created from a recording of a steady tone, not confirmed (creating is free).
 */
const cloneLifecycle: LifecycleDef = {
  statusField: 'status',
  states: cloneStatuses,
  transitions: { pending: ['processing', 'completed', 'failed'], processing: ['completed', 'failed'] },
  terminal: ['completed', 'failed'],
  success: 'completed',
  pollOperationId: 'getVoiceClone',
  idField: 'taskId',
  ...clonePolling,
  example: { language: 'en', consentConfirmed: true },
  exampleFiles: { audioFiles: { filename: 'reference.wav', seconds: 8 } },
  successRequires: ['demoAudioUrl'],
  media: [{ urlField: 'demoAudioUrl', contentTypes: ['audio/mpeg'] }],
};

/**
 * The confirmation of a completed clone (x-lifecycle of POST /v1/voice-clone/confirm, the task's id in the body's
 * taskId): the task then reads confirmed, speakerId present (document 2: "confirmed (speakerId present)"). Within
 * the plan's quota and with useCredits false it charges nothing.
 */
const confirmLifecycle: LifecycleDef = {
  statusField: 'status',
  states: cloneStatuses,
  transitions: {},
  terminal: ['completed', 'failed'],
  success: 'completed',
  pollOperationId: 'getVoiceClone',
  idField: 'taskId',
  ...clonePolling,
  continues: { operationId: 'createVoiceClone', bodyField: 'taskId' },
  example: { name: 'Verified voice', gender: 'female', useCredits: false },
  successRequires: ['speakerId'],
};

// What the operations below share: each states only what differs (operationsWith, schemas/define.ts).
const op = operationsWith({ auth: true, validationError: 'VOICE_CLONE_INVALID_PARAMETERS' });

/** The voice-cloning operations (document 2, "Voice cloning (prefix /v1/voice-clone)"). */
export const voiceCloneOperations = defineOperations('Voice cloning', {
  createVoiceClone: op({
    method: 'post',
    path: '/v1/voice-clone/clone',
    summary: 'Clone a voice from reference recordings (multipart)',
    description:
      'multipart/form-data: audioFiles (1 to 6 files, each at most 5 MB, at most 20 MB together: 413, 36014), language, consentConfirmed (must be true), mode (upload), autoConfirm (name and gender then required), useCredits. ' +
      `Returns {taskId, status: pending}. ${cloneRateLimit.limit} creates per minute per user (429, 36029, Retry-After). ` +
      `The reference audio is measured: a file that is not audio is refused here (36013); a total under ${referenceDurationMs.min / 1000} s or over ${referenceDurationMs.max / 60_000} minutes fails the task with AUDIO_DURATION_INVALID, digital silence (WAV) with NO_VALID_SPEECH (assumed bounds). ` +
      `Lifecycle (assumed): pending ${cloneSchedule.pendingMs / 1000} s, processing ${cloneSchedule.processingMs / 1000} s, completed with demoAudioUrl. Creating is free.`,
    provenance: fromSeed(2, 'Voice cloning (prefix /v1/voice-clone)'),
    request: {
      body: multipart(CreateCloneRequest, {
        files: { audioFiles: { maxFileBytes: cloneFiles.maxFileBytes } },
        maxTotalBytes: cloneFiles.maxTotalBytes,
        limitError: 'VOICE_CLONE_FILES_TOO_LARGE',
      }),
    },
    response: { status: 200, kind: 'envelope', schema: CreateCloneData, description: 'the task, pending' },
    errors: ['VOICE_CLONE_INVALID_PARAMETERS', 'VOICE_CLONE_UNSUPPORTED_AUDIO', 'VOICE_CLONE_FILES_TOO_LARGE', 'VOICE_CLONE_RATE_LIMITED'],
    stateRules: createCloneStateRules,
    rateLimit: { ...cloneRateLimit, error: 'VOICE_CLONE_RATE_LIMITED' },
    outcomes: ['failed', 'stuck'],
    failureReasons: [...cloneFailureNames],
    lifecycle: cloneLifecycle,
  }),
  getVoiceClone: op({
    method: 'get',
    path: '/v1/voice-clone/clone/{taskId}',
    summary: 'Poll a clone task (and confirm it, with autoConfirm)',
    description:
      'Returns the task. Terminal shapes, in this order: failed (errorCode, errorMessage); completed without speakerId (confirmError explains a failed automatic confirmation); confirmed (speakerId). ' +
      'With autoConfirm, the poll that first sees the clone completed confirms it and charges as POST /v1/voice-clone/confirm would; later or concurrent polls never charge again. ' +
      `A completed task not confirmed within 7 days of completing answers 410 (36010). ${confirmRules} ` +
      'A poll that confirms answers those two retry statuses itself (document 2, "Errors"); its other confirmation errors are reported in confirmError.',
    provenance: fromSeed(2, 'Voice cloning (prefix /v1/voice-clone)'),
    request: { params: CloneTaskParams },
    response: { status: 200, kind: 'envelope', schema: CloneTask, description: 'the task' },
    errors: [
      'VOICE_CLONE_INVALID_PARAMETERS',
      'VOICE_CLONE_TASK_NOT_FOUND',
      'VOICE_CLONE_TASK_EXPIRED',
      'VOICE_CLONE_CONFIRM_IN_FLIGHT',
      'VOICE_CLONE_UNAVAILABLE',
    ],
  }),
  confirmVoiceClone: op({
    method: 'post',
    path: '/v1/voice-clone/confirm',
    summary: 'Confirm a completed clone as a private voice',
    description: `taskId of a completed task, name (up to 50 characters), gender, useCredits. Returns {speakerId}, usable wherever a voice is expected. ${confirmRules}`,
    provenance: fromSeed(2, 'Voice cloning (prefix /v1/voice-clone)'),
    request: { body: json(ConfirmCloneRequest) },
    response: { status: 200, kind: 'envelope', schema: ConfirmCloneData, description: 'the new voice' },
    errors: [...confirmErrors],
    stateRules: confirmStateRules,
    lifecycle: confirmLifecycle,
  }),
  listPrivateVoices: op({
    method: 'get',
    path: '/v1/voice-clone/speakers',
    summary: "List the account's private voices and its allowance",
    description: 'The private voices (oldest first), the quota, the confirmations left this period, maxSpeakers and isLimitReached.',
    provenance: fromSeed(2, 'Private voice'),
    request: {},
    response: { status: 200, kind: 'envelope', schema: PrivateVoiceList, description: 'the voices and the allowance' },
    errors: [],
    validationError: 'INVALID_PREFER',
  }),
  getPrivateVoice: op({
    method: 'get',
    path: '/v1/voice-clone/speakers/{speakerId}',
    summary: 'Get a private voice',
    description: "One of the caller's private voices, by speakerInnerId (or id); another user's answers 404 (36012).",
    provenance: fromSeed(2, 'Voice cloning (prefix /v1/voice-clone)'),
    request: { params: VoiceParams },
    response: { status: 200, kind: 'envelope', schema: PrivateVoice, description: 'the voice' },
    errors: ['VOICE_CLONE_INVALID_PARAMETERS', 'VOICE_CLONE_SPEAKER_NOT_FOUND'],
  }),
  updatePrivateVoice: op({
    method: 'put',
    path: '/v1/voice-clone/speakers/{speakerId}',
    summary: 'Rename a private voice or change its gender',
    description: 'Body: name and/or gender (at least one). Returns the voice; updatedAt moves.',
    provenance: fromSeed(2, 'Voice cloning (prefix /v1/voice-clone)'),
    request: { params: VoiceParams, body: json(UpdateVoiceRequest) },
    response: { status: 200, kind: 'envelope', schema: PrivateVoice, description: 'the voice' },
    errors: ['VOICE_CLONE_INVALID_PARAMETERS', 'VOICE_CLONE_SPEAKER_NOT_FOUND'],
    stateRules: [
      { code: 'VOICE_CLONE_SPEAKER_NOT_FOUND', fields: ['speakerId'], rule: "the path's speakerId is one of the caller's private voices", reads: 'state' },
    ],
  }),
  deletePrivateVoice: op({
    method: 'delete',
    path: '/v1/voice-clone/speakers/{speakerId}',
    summary: 'Delete a private voice',
    description:
      'Returns {speakerId}. Frees one slot against maxSpeakers; confirmations already spent this period are not returned. The id stops working in every speech endpoint.',
    provenance: fromSeed(2, 'Voice cloning (prefix /v1/voice-clone)'),
    request: { params: VoiceParams },
    response: { status: 200, kind: 'envelope', schema: DeletedVoice, description: 'the deleted voice' },
    errors: ['VOICE_CLONE_INVALID_PARAMETERS', 'VOICE_CLONE_SPEAKER_NOT_FOUND'],
  }),
});

export const voiceCloneArea = {
  tag: {
    name: 'Voice cloning',
    description: 'Private voices cloned from consented reference recordings: clone tasks, confirmation with quota and credits, the voices (document 2).',
  },
  operations: voiceCloneOperations,
  tableAssumptions: voiceCloneTableAssumptions,
} satisfies Area;
