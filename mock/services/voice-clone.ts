/**
 * The voice-cloning service (document 2, voice-cloning sections): clone tasks
 * on the task kit, confirmation with quota and credits, automatic confirmation
 * inside a poll, and the private voices, which it lends to the speech area as
 * a voice source (so every speech endpoint and GET /v1/speakers/list take them).
 *
 *   create -> pending --(2 s)--> processing --(8 s)--> completed (demoAudioUrl)
 *                                           \--(bad reference audio, forced)--> failed (errorCode)
 *   pending or processing for 30 minutes --(timeout)--> failed (TASK_FAILED)
 *   completed, not confirmed, 7 days after completing: polls and confirms answer 410
 *
 * Money: creating is free. A confirmation is free while the account's quota
 * lasts (`voiceClone.confirmationsUsed < quota`), else 300 credits with
 * useCredits (reserved and captured at once, under the task's id). A request
 * is handled whole before the next one reads the state, and a confirmed task
 * carries its speakerId, so concurrent polls and confirms charge once: the
 * first confirms, the others see it confirmed (a confirm answers
 * ALREADY_CONFIRMED, a poll the confirmed task).
 */
import { cloneStatuses } from '../../schemas/voice-clone.ts';
import { z } from 'zod';
import { AUDIO_TIMBRES, audioFileTypes } from '../../schemas/media.ts';
import {
  CLONE_DEMO_MS,
  CLONE_EXPIRY_MS,
  cloneFailureNames,
  cloneSchedule,
  CONFIRM_CREDITS,
  referenceDurationMs,
  type CloneTask,
} from '../../schemas/voice-clone.ts';
import { voiceGenders, voiceLanguages, type VoiceLanguage } from '../../schemas/speech.ts';
import { accountExtension } from '../engine/accounts.ts';
import { defaultVoiceClone, type VoiceCloneAllowance } from '../../schemas/plans.ts';
import type { Engine } from '../engine/engine.ts';
import { hash32 } from '../engine/rng.ts';
import { inspectReferenceAudio } from '../media/reference-audio.ts';
import { demoAsset } from './demo-speech.ts';
import { contribute, type Handler, type MediaAsset, type Service, type ServiceContext } from './context.ts';
import { voiceSources, type VoiceSource } from './voices.ts';
import { forcedFailureReason, TaskKit, taskRecordSchema } from './tasks.ts';

type Gender = (typeof voiceGenders)[number];
type FailureName = (typeof cloneFailureNames)[number];

/**
 * A stored clone task, as saved: `consentConfirmed` as sent (always true: the request is refused without it), `files`
 * what was uploaded (names, sizes and measured durations; the bytes are not kept), `variant` the timbre of the cloned
 * voice in rendered audio, `speakerId` the speakerInnerId of the voice once confirmed.
 */
const voiceCloneRecordSchema = taskRecordSchema(cloneStatuses, {
  language: z.enum(voiceLanguages),
  consentConfirmed: z.literal(true),
  autoConfirm: z.boolean(),
  name: z.string().optional(),
  gender: z.enum(voiceGenders).optional(),
  useCredits: z.boolean(),
  files: z.array(z.strictObject({ filename: z.string(), bytes: z.number(), durationMs: z.number() })),
  variant: z.number().int(),
  completedAt: z.number().optional(),
  speakerId: z.string().optional(),
  confirmError: z.string().optional(),
  failure: z.strictObject({ errorCode: z.enum(cloneFailureNames), errorMessage: z.string() }).optional(),
});
export type CloneRecord = z.infer<typeof voiceCloneRecordSchema>;

/** A private voice. */
interface VoiceRecord {
  id: string;
  speakerInnerId: string;
  owner: string;
  taskId: string;
  name: string;
  language: VoiceLanguage;
  gender: Gender;
  variant: number;
  createdAt: number;
  updatedAt: number;
}

const failureMessages: Record<FailureName, string> = {
  TASK_FAILED: 'cloning failed: the voice model could not be trained from the recordings',
  AUDIO_DURATION_INVALID: `the reference audio must last ${referenceDurationMs.min / 1000} s to ${referenceDurationMs.max / 60_000} minutes in total`,
  NO_VALID_SPEECH: 'no speech was found in the reference audio (it is silent)',
};

const kit = new TaskKit<CloneRecord>(
  { area: 'voice-clone', idPrefix: 'vct', noun: 'clone task', terminal: ['completed', 'failed'], failStatus: 'failed' },
  {
    onEnter(_engine, r, status, at) {
      if (status === 'completed') r.completedAt = at;
    },
    onFail(_engine, r, reason) {
      const errorCode = (cloneFailureNames as readonly string[]).includes(reason) ? (reason as FailureName) : 'TASK_FAILED';
      r.failure = { errorCode, errorMessage: reason === 'timeout' ? 'cloning timed out after 30 minutes' : failureMessages[errorCode] };
    },
  },
);

const voicesState = (engine: Engine) => engine.state<{ voices: VoiceRecord[] }>('private-voices', () => ({ voices: [] }));
const voicesOfOwner = (engine: Engine, owner: string) => voicesState(engine).voices.filter((v) => v.owner === owner);

const taskDemoPath = (taskId: string) => `/media/voice-clone/${taskId}/demo.${audioFileTypes.mp3.extension}`;
const voiceDemoPath = (speakerInnerId: string) => `/media/voice-clone/speakers/${speakerInnerId}/demo.${audioFileTypes.mp3.extension}`;

/** The confirmed voices of `owner`: speaker ids of their owner in every speech endpoint (the service's voice source). */
const confirmedVoices: VoiceSource = (engine, owner) =>
  voicesOfOwner(engine, owner).map((v) => ({
    speakerId: v.speakerInnerId,
    name: v.name,
    language: v.language,
    gender: v.gender,
    variant: v.variant,
    type: 'cloned' as const,
    demoPath: voiceDemoPath(v.speakerInnerId),
  }));

/** True when `r` completed, was not confirmed, and its 7 days have passed at `now`. */
const expired = (r: CloneRecord, now: number) =>
  r.status === 'completed' && !r.speakerId && r.completedAt !== undefined && now >= r.completedAt + CLONE_EXPIRY_MS;

/** Why a task past its 7 days cannot be confirmed (VOICE_CLONE_TASK_EXPIRED). */
function expiredMessage(r: CloneRecord): string {
  return `taskId ${r.id}: not confirmed within 7 days of completing (${new Date(r.completedAt!).toISOString()}); clone the voice again`;
}

/** Why a confirmation is refused: the error and its message (raised by POST /v1/voice-clone/confirm, kept as the task's confirmError by an automatic one). */
interface ConfirmRefusal {
  error: 'ALREADY_CONFIRMED' | 'VOICE_CLONE_TASK_NOT_COMPLETED' | 'VOICE_CLONE_TASK_EXPIRED' | 'NEED_UPGRADE' | 'SPEAKER_LIMIT_REACHED' | 'NEED_CREDIT';
  message: string;
}

/**
 * Confirms `r` as a private voice of `account` named `name`, returning its speakerId, or the refusal, in this order:
 * ALREADY_CONFIRMED, VOICE_CLONE_TASK_NOT_COMPLETED, VOICE_CLONE_TASK_EXPIRED, NEED_UPGRADE (plan free),
 * SPEAKER_LIMIT_REACHED, NEED_CREDIT (quota used and no useCredits, or a balance under 300); nothing changes on a
 * refusal. The confirm operation raises it; a poll's automatic confirmation keeps it on the task (its operation does
 * not declare these errors: it never answers them).
 */
function confirm(ctx: ServiceContext, r: CloneRecord, opts: { name: string; gender: Gender; useCredits: boolean }): string | ConfirmRefusal {
  const { engine, account, now } = ctx;
  if (r.speakerId) return { error: 'ALREADY_CONFIRMED', message: `taskId ${r.id} is already confirmed as ${r.speakerId}; nothing was charged` };
  if (r.status !== 'completed')
    return { error: 'VOICE_CLONE_TASK_NOT_COMPLETED', message: `taskId ${r.id} is ${r.status}; only a completed task can be confirmed` };
  if (expired(r, now)) return { error: 'VOICE_CLONE_TASK_EXPIRED', message: expiredMessage(r) };
  if (account.plan !== 'paid') return { error: 'NEED_UPGRADE', message: `cloning needs a paid plan; the account is on plan ${account.plan}` };
  const vc = engine.accounts.extension(account, voiceCloneAllowance);
  const held = voicesOfOwner(engine, account.apiKey).length;
  if (held >= vc.maxSpeakers)
    return { error: 'SPEAKER_LIMIT_REACHED', message: `the account holds ${held} of ${vc.maxSpeakers} private voices; delete one first` };
  const free = vc.confirmationsUsed < vc.quota;
  if (!free && !opts.useCredits)
    return {
      error: 'NEED_CREDIT',
      message: `the ${vc.quota} confirmations of this period are used; send useCredits true to pay ${CONFIRM_CREDITS} credits (nothing was charged)`,
    };
  if (!free && account.credits < CONFIRM_CREDITS)
    return { error: 'NEED_CREDIT', message: `a confirmation beyond the quota costs ${CONFIRM_CREDITS} credits and the balance is ${account.credits}` };
  if (!free) {
    engine.accounts.reserve(account, r.id, CONFIRM_CREDITS, now, `voice-clone confirmation beyond the quota (${vc.quota})`);
    engine.accounts.capture(r.id, now);
  }
  vc.confirmationsUsed += 1;
  const voice: VoiceRecord = {
    id: engine.nextId('pv', account.apiKey, 'private-voice'),
    speakerInnerId: engine.nextId('vc', account.apiKey, 'private-voice-inner'),
    owner: account.apiKey,
    taskId: r.id,
    name: opts.name,
    language: r.language,
    gender: opts.gender,
    variant: r.variant,
    createdAt: now,
    updatedAt: now,
  };
  voicesState(engine).voices.push(voice);
  r.speakerId = voice.speakerInnerId;
  delete r.confirmError;
  return voice.speakerInnerId;
}

/** The task as a poll answers it: failed; completed without speakerId (maybe confirmError); confirmed. */
function present(r: CloneRecord, ctx: Pick<ServiceContext, 'url'>): CloneTask {
  return {
    taskId: r.id,
    status: r.status,
    ...(r.status === 'completed' ? { demoAudioUrl: ctx.url(taskDemoPath(r.id)) } : {}),
    ...(r.speakerId ? { speakerId: r.speakerId } : r.confirmError ? { confirmError: r.confirmError } : {}),
    ...(r.failure ? { errorCode: r.failure.errorCode, errorMessage: r.failure.errorMessage } : {}),
  };
}

const iso = (ms: number) => new Date(ms).toISOString();

function presentVoice(v: VoiceRecord, ctx: Pick<ServiceContext, 'url'>, withUpdatedAt: boolean) {
  return {
    id: v.id,
    speakerInnerId: v.speakerInnerId,
    name: v.name,
    language: v.language,
    gender: v.gender,
    demoAudioUrl: ctx.url(voiceDemoPath(v.speakerInnerId)),
    createdAt: iso(v.createdAt),
    ...(withUpdatedAt ? { updatedAt: iso(v.updatedAt) } : {}),
  };
}

/** The caller's voice `id` (speakerInnerId or record id). Errors: VOICE_CLONE_SPEAKER_NOT_FOUND. */
function ownVoice(ctx: ServiceContext<'VOICE_CLONE_SPEAKER_NOT_FOUND'>, id: string): VoiceRecord {
  const v = voicesOfOwner(ctx.engine, ctx.account.apiKey).find((x) => x.speakerInnerId === id || x.id === id);
  if (!v) throw ctx.fail('VOICE_CLONE_SPEAKER_NOT_FOUND', `speakerId ${id}: no private voice of this account`);
  return v;
}

/**
 * The voice-clone allowance of an account (document 2, "Private voice", "Limits"; the defaults assumed): the
 * voice-cloning area's part of every account, shown and saved as its `voiceClone`. A new plan brings its quota and
 * voice slots (the confirmations used this period stay); a control-API update sets any of its three numbers.
 */
export const voiceCloneAllowance = accountExtension<VoiceCloneAllowance>({
  field: 'voiceClone',
  init: (plan) => ({ ...defaultVoiceClone[plan] }),
  planChanged: (value, plan) => ({ ...defaultVoiceClone[plan], confirmationsUsed: value.confirmationsUsed }),
  update: (value, sent) => ({ ...value, ...(sent as Partial<VoiceCloneAllowance>) }),
});

/** The allowance as the list reports it. */
function allowance(ctx: ServiceContext) {
  const vc = ctx.engine.accounts.extension(ctx.account, voiceCloneAllowance);
  return {
    quota: vc.quota,
    remainingConfirmations: Math.max(0, vc.quota - vc.confirmationsUsed),
    maxSpeakers: vc.maxSpeakers,
    isLimitReached: vc.confirmationsUsed >= vc.quota,
  };
}

/**
 * The demo clip of a clone (its task `taskId` seeds the voice, so the task's
 * demo and the confirmed voice's sound alike): words in its language when the
 * world has a speech engine (mock/services/demo-speech.ts), else tones.
 */
function cloneDemo(engine: Engine, c: { taskId: string; language: VoiceLanguage; gender?: string; name?: string; variant: number }): MediaAsset {
  return demoAsset(
    engine,
    { speakerId: c.taskId, language: c.language, gender: c.gender ?? 'female', timbre: c.variant, name: c.name },
    CLONE_DEMO_MS,
    c.variant,
  );
}

const createVoiceClone: Handler<'createVoiceClone'> = async ({ body }, ctx) => {
  const files: CloneRecord['files'] = [];
  let silent = true;
  for (const [i, f] of body.audioFiles.entries()) {
    const a = await inspectReferenceAudio(f.bytes);
    if (!a.audio)
      throw ctx.fail(
        'VOICE_CLONE_UNSUPPORTED_AUDIO',
        `audioFiles[${i}] (${JSON.stringify(f.filename)}, ${f.mimeType}) is not audio the service reads: send WAV, MP3, Ogg, FLAC, AAC or M4A`,
      );
    files.push({ filename: f.filename, bytes: f.bytes.length, durationMs: a.durationMs });
    silent &&= a.silent;
  }
  // Read the state after the (asynchronous) inspection: requests in between have been handled whole.
  const { engine, forcing } = ctx;
  const now = engine.tick();
  const totalMs = files.reduce((n, f) => n + f.durationMs, 0);
  const natural: FailureName | undefined =
    totalMs < referenceDurationMs.min || totalMs > referenceDurationMs.max ? 'AUDIO_DURATION_INVALID' : silent ? 'NO_VALID_SPEECH' : undefined;
  const failWith = (forcedFailureReason(ctx) as FailureName | undefined) ?? natural;
  const id = kit.nextId(ctx);
  const r = kit.create(
    ctx,
    id,
    'pending',
    {
      language: body.language,
      consentConfirmed: true,
      autoConfirm: body.autoConfirm,
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.gender !== undefined ? { gender: body.gender } : {}),
      useCredits: body.useCredits,
      files,
      variant: hash32(engine.seed, id, 'voice') % AUDIO_TIMBRES,
    },
    now,
  );
  kit.timeout(engine, r, now + cloneSchedule.timeoutMs, ['pending', 'processing'], 'timeout');
  kit.run(
    engine,
    r,
    {
      steps: [
        { status: 'processing', afterMs: cloneSchedule.pendingMs },
        { status: 'completed', afterMs: cloneSchedule.processingMs },
      ],
      ...(failWith ? { failure: { atStep: 1, reason: failWith } } : {}),
      ...(forcing.outcome === 'stuck' ? { stuckBefore: 1 } : {}),
    },
    now,
  );
  return { taskId: id, status: 'pending' as const };
};

const getVoiceClone: Handler<'getVoiceClone'> = ({ params }, ctx) => {
  const r = kit.own(ctx, params.taskId, { notFound: 'VOICE_CLONE_TASK_NOT_FOUND' });
  if (expired(r, ctx.now)) throw ctx.fail('VOICE_CLONE_TASK_EXPIRED', expiredMessage(r));
  if (r.status === 'completed' && r.autoConfirm && !r.speakerId && !r.confirmError) {
    // a refusal is the task's (its confirmError), not the poll's answer
    const out = confirm(ctx, r, { name: r.name!, gender: r.gender!, useCredits: r.useCredits });
    if (typeof out !== 'string') r.confirmError = `${out.error}: ${out.message}`;
  }
  return present(r, ctx);
};

const confirmVoiceClone: Handler<'confirmVoiceClone'> = ({ body }, ctx) => {
  const r = kit.own(ctx, body.taskId, { notFound: 'VOICE_CLONE_TASK_NOT_FOUND' });
  const out = confirm(ctx, r, body);
  if (typeof out !== 'string') throw ctx.fail(out.error, out.message);
  return { speakerId: out };
};

const listPrivateVoices: Handler<'listPrivateVoices'> = (_input, ctx) => {
  return { speakers: voicesOfOwner(ctx.engine, ctx.account.apiKey).map((v) => presentVoice(v, ctx, false)), ...allowance(ctx) };
};

const getPrivateVoice: Handler<'getPrivateVoice'> = ({ params }, ctx) => {
  return presentVoice(ownVoice(ctx, params.speakerId), ctx, true);
};

const updatePrivateVoice: Handler<'updatePrivateVoice'> = ({ params, body }, ctx) => {
  const v = ownVoice(ctx, params.speakerId);
  if (body.name !== undefined) v.name = body.name;
  if (body.gender !== undefined) v.gender = body.gender;
  v.updatedAt = ctx.now;
  return presentVoice(v, ctx, true);
};

const deletePrivateVoice: Handler<'deletePrivateVoice'> = ({ params }, ctx) => {
  const v = ownVoice(ctx, params.speakerId);
  const state = voicesState(ctx.engine);
  state.voices = state.voices.filter((x) => x !== v);
  return { speakerId: v.speakerInnerId };
};

/** The seven voice-cloning operations. */
export const voiceCloneService: Service<
  'createVoiceClone' | 'getVoiceClone' | 'confirmVoiceClone' | 'listPrivateVoices' | 'getPrivateVoice' | 'updatePrivateVoice' | 'deletePrivateVoice'
> = {
  kits: [kit],
  contributes: [contribute(voiceSources, confirmedVoices)],
  accountExtensions: [voiceCloneAllowance],
  records: { 'voice-clone': voiceCloneRecordSchema },
  handlers: {
    createVoiceClone,
    getVoiceClone,
    confirmVoiceClone,
    listPrivateVoices,
    getPrivateVoice,
    updatePrivateVoice,
    deletePrivateVoice,
  },

  // confirmed voices outlive their clone tasks, and their ids come from the owner's counters
  keepsOwner: (engine, owner) => engine.peekState<{ voices: VoiceRecord[] }>('private-voices')?.voices.some((v) => v.owner === owner) ?? false,
  state: {
    'private-voices': z.strictObject({
      voices: z.array(
        z.strictObject({
          id: z.string(),
          speakerInnerId: z.string(),
          owner: z.string(),
          taskId: z.string(),
          name: z.string(),
          language: z.enum(voiceLanguages),
          gender: z.enum(voiceGenders),
          variant: z.number().int().nonnegative(),
          createdAt: z.number().int(),
          updatedAt: z.number().int(),
        }),
      ),
    }),
  },

  media: [
    {
      path: taskDemoPath('{taskId}'),
      resolve(engine, p) {
        const r = kit.find(engine, p.taskId);
        return r?.status === 'completed' ? { ...cloneDemo(engine, { ...r, taskId: r.id }), owner: r.owner } : undefined;
      },
    },
    {
      path: voiceDemoPath('{speakerId}'),
      resolve(engine, p) {
        const v = voicesState(engine).voices.find((x) => x.speakerInnerId === p.speakerId);
        return v ? { ...cloneDemo(engine, v), owner: v.owner } : undefined;
      },
    },
  ],
};
