/**
 * The two generated-audio services (document 2, "Generated-audio task" and
 * "Generated-audio tasks"), made by one factory from their entry in
 * `generatedAudioServices` (schemas/generated-audio.ts): the same handlers,
 * each service with its own task kit, prefix, model and price.
 *
 *   generate -> pending --(1 s)--> generating --(2 s + 10% of the audio)--> uploading --(1 s)--> success
 *                    \--(forced: 33003 or 33008)--> failed (refunded)
 *   pending, generating or uploading for 10 minutes --(timeout)--> failed (33008)
 *
 * Money: the price of the reserved duration (durationHint, or the longest
 * audio) is held at submission; success captures the price of the audio as
 * rendered (`creditCharged`) and releases the rest (`creditRefunded`); a
 * failure releases it all.
 */
import { z } from 'zod';
import { errorCatalog } from '../../schemas/errors.ts';
import {
  GENERATED_AUDIO_CONCURRENCY,
  GENERATED_AUDIO_THUMB_SIDE,
  GeneratedAudioParams,
  generatedAudioFormats,
  generatedAudioLimits,
  generatedAudioPrice,
  generatedAudioSchedule,
  generatedAudioServices,
  generatedAudioStatuses,
  spokenText,
  type GeneratedAudioFormat,
  type GeneratedAudioServiceName,
  type GeneratedAudioStatus,
  type GeneratedAudioTask,
} from '../../schemas/generated-audio.ts';
import { AUDIO_TIMBRES, audioFileTypes, mediaFileTypes, type AudioFormat } from '../../schemas/media.ts';
import { speechDurationMs } from '../../schemas/speech.ts';
import { hash32 } from '../engine/rng.ts';
import { audioFrameCount, audioFrameSamples, renderAudio } from '../media/audio.ts';
import { labelKey, promptStart } from '../media/label-text.ts';
import { colourFor, rgbHex } from '../media/colour.ts';
import { labelledImage } from '../media/renderers.ts';
import type { OperationId } from '../../schemas/operations.ts';
import type { DeclaredError, Handler, Service, ServiceContext } from './context.ts';
import { voicesOf } from './voices.ts';
import { dialogueFile, dialogueMs, spokenDialogue } from './spoken-tts.ts';
import { speechSynthOf, type LineSpeech } from './spoken.ts';
import { voiceKey } from '../media/speech.ts';
import { failureMessage, forcedFailureReason, objectOf, TaskKit, taskRecordSchema } from './tasks.ts';

/**
 * A stored task, as saved (checked before a saved state is loaded): the request echo (payloads stripped), the audio
 * it renders (`text` without dialogue tags, for the keyword search; `durationMs`, the decoded length) and the money.
 * `speech`: present when the text was spoken in words by the world's speech engine, each line's sentences and lengths
 * (`LineSpeech` of mock/services/spoken.ts, checked as objects).
 */
const generatedAudioRecordSchema = taskRecordSchema(generatedAudioStatuses, {
  model: z.string(),
  params: GeneratedAudioParams,
  text: z.string(),
  format: z.enum(generatedAudioFormats),
  durationMs: z.number(),
  variant: z.number().int(),
  reserved: z.number(),
  creditCharged: z.number(),
  creditRefunded: z.number(),
  errorMessage: z.string().optional(),
  speech: z.array(objectOf<LineSpeech>()).optional(),
});
export type GeneratedAudioRecord = z.infer<typeof generatedAudioRecordSchema>;

/** The renderer's format of each audioConfig.format. */
const rendered: Record<GeneratedAudioFormat, AudioFormat> = { mp3: 'mp3', wav: 'wav', pcm: 'pcm', ogg_opus: 'opus' };
const OPEN: readonly GeneratedAudioStatus[] = ['pending', 'generating', 'uploading'];

/**
 * Decoded length (ms) of audio aimed at `targetMs` in `format`: mp3 in whole 24 ms frames, never over a hint
 * (`atMost`), else the nearest; every other format to the ms.
 */
function decodedMs(format: GeneratedAudioFormat, targetMs: number, atMost: boolean): number {
  if (format !== 'mp3') return Math.max(1, Math.round(targetMs));
  const frameMs = (audioFrameSamples.mp3 * 1000) / 24_000;
  const frames = atMost ? Math.max(5, Math.floor(targetMs / frameMs)) : audioFrameCount('mp3', targetMs);
  return frames * frameMs;
}

/** The three handlers and the media of the service `name`. */
/**
 * One handler of an operation both services have (one definition in schemas/generated-audio.ts, so one shape): a
 * handler of each, raising only the errors both declare.
 */
type HandlerOfBoth<A extends OperationId, B extends OperationId> = (
  input: Parameters<Handler<A>>[0] | Parameters<Handler<B>>[0],
  ctx: ServiceContext<DeclaredError<A> & DeclaredError<B>>,
) => ReturnType<Handler<A>> & ReturnType<Handler<B>>;

function makeService(name: GeneratedAudioServiceName) {
  const s = generatedAudioServices[name];
  const area = `generated-audio-${name}`;
  const kit = new TaskKit<GeneratedAudioRecord>(
    { area, idPrefix: s.idPrefix, noun: `${s.model} task`, terminal: ['success', 'failed'], failStatus: 'failed' },
    {
      onEnter(_engine, r, status) {
        if (status === 'success') {
          r.creditCharged = Math.min(r.reserved, generatedAudioPrice(r.durationMs / 1000, s.creditsPerMinute));
          r.creditRefunded = r.reserved - r.creditCharged;
        }
      },
      onFail(_engine, r, reason, refunded) {
        r.creditRefunded = refunded;
        r.errorMessage = reason === 'timeout' ? `${errorCatalog.GEN_AUDIO_TIMED_OUT.code}: generation timed out after 10 minutes` : failureMessage(reason);
      },
    },
  );
  const base = `/media/${s.prefix.split('/').pop()!}`; // /media/platform-voice, /media/seed-audio
  const audioPath = (id: string, format: GeneratedAudioFormat) => `${base}/${id}.${audioFileTypes[rendered[format]].extension}`;
  const thumbPath = (id: string) => `${base}/${id}/thumbnail.png`;

  function present(r: GeneratedAudioRecord, ctx: Pick<ServiceContext, 'url'>): GeneratedAudioTask {
    const img = r.params.image;
    return {
      id: r.id,
      status: r.status,
      model: r.model,
      params: img?.hasData ? { ...r.params, image: { hasData: true, thumbnailUrl: ctx.url(thumbPath(r.id)) } } : r.params,
      ...(r.status === 'success' ? { audioUrl: ctx.url(audioPath(r.id, r.format)) } : {}),
      audioDuration: r.status === 'success' ? r.durationMs / 1000 : 0,
      creditCharged: r.creditCharged,
      creditRefunded: r.creditRefunded,
      ...(r.errorMessage !== undefined ? { errorMessage: r.errorMessage } : {}),
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
    };
  }

  const create: HandlerOfBoth<'createPlatformVoiceTask', 'createSeedAudioTask'> = async ({ body }, ctx) => {
    const { engine, forcing } = ctx;
    // speaker entries must name voices this account can use (built-in or its own cloned ones)
    const catalogue = voicesOf(engine, ctx.account.apiKey);
    const known = new Set(catalogue.map((v) => v.speakerId));
    body.voices?.forEach((v, i) => {
      if (v.type === 'speaker' && v.id !== undefined && !known.has(v.id))
        throw ctx.fail('GEN_AUDIO_SPEAKER_NOT_FOUND', `voices[${i}].id: no speaker ${JSON.stringify(v.id)}; GET /v1/speakers/list lists them`);
    });
    const speed = 1 + (body.audioConfig?.speechRate ?? 0) / 100;
    // the dialogue in words when the world has a speech engine; the account and the clock are read after this await
    const speech = await spokenDialogue(engine, `${s.idPrefix}-${hash32(body.text).toString(36)}`, body.text, body.voices, catalogue, speed);
    const { account, now } = ctx;
    const running = OPEN.reduce((n, st) => n + kit.store(engine).pageNewestFirst(account.apiKey, 1, 1, st).total, 0);
    // a per-user limit like the rate limits: off with them (--no-rate-limit)
    if (engine.limiter.enabled && running >= GENERATED_AUDIO_CONCURRENCY)
      throw ctx.fail(
        'GEN_AUDIO_CONCURRENCY_LIMIT',
        `per-user concurrency limit: ${running} ${s.model} tasks are running (at most ${GENERATED_AUDIO_CONCURRENCY})`,
      );
    const format = body.audioConfig?.format ?? 'mp3';
    const text = spokenText(body.text);
    const hint = body.durationHint;
    const limits = generatedAudioLimits.durationHint;
    const spokenMs = speech ? dialogueMs(speech) : speechDurationMs(text, speed);
    const targetMs = hint !== undefined ? hint * 1000 : Math.min(limits.max * 1000, Math.max(limits.min * 1000, spokenMs));
    const durationMs = decodedMs(format, targetMs, hint !== undefined);
    const reserved = generatedAudioPrice(hint ?? limits.max, s.creditsPerMinute);
    const id = kit.nextId(ctx);
    kit.reserve(ctx, id, reserved, 'GEN_AUDIO_INSUFFICIENT_CREDITS', `${s.model} ${hint !== undefined ? `${hint} s (durationHint)` : `up to ${limits.max} s`}`);
    const { image, ...rest } = body;
    const r = kit.create(ctx, id, 'pending', {
      model: s.model,
      params: { ...rest, ...(image ? { image: image.url !== undefined ? { url: image.url } : { hasData: true as const } } : {}) },
      text,
      format,
      durationMs,
      variant: hash32(engine.seed, id, 'voice') % AUDIO_TIMBRES,
      ...(speech ? { speech } : {}),
      reserved,
      creditCharged: 0,
      creditRefunded: 0,
    });
    const sch = generatedAudioSchedule;
    kit.timeout(engine, r, now + sch.timeoutMs, OPEN, 'timeout');
    const failWith = forcedFailureReason(ctx);
    kit.run(
      engine,
      r,
      {
        steps: [
          { status: 'generating', afterMs: sch.pendingMs },
          { status: 'uploading', afterMs: sch.generatingBaseMs + Math.round(durationMs * sch.generatingPerAudio) },
          { status: 'success', afterMs: sch.uploadingMs },
        ],
        charge: generatedAudioPrice(durationMs / 1000, s.creditsPerMinute),
        ...(failWith ? { failure: { atStep: 1, reason: failWith } } : {}),
        ...(forcing.outcome === 'stuck' ? { stuckBefore: 1 } : {}),
      },
      now,
    );
    return { taskId: id, status: 'pending' as const };
  };

  const get: HandlerOfBoth<'getPlatformVoiceTask', 'getSeedAudioTask'> = ({ params }, ctx) =>
    present(kit.own(ctx, params.taskId, { notFound: 'GEN_AUDIO_TASK_NOT_FOUND' }), ctx);

  const list: HandlerOfBoth<'listPlatformVoiceTasks', 'listSeedAudioTasks'> = ({ query }, ctx) => {
    if (query.keyword === undefined || query.keyword.trim() === '') return kit.page(ctx, query, (r) => present(r, ctx));
    const words = query.keyword.toLowerCase().split(/\s+/).filter(Boolean);
    const all = kit.store(ctx.engine).pageNewestFirst(ctx.account.apiKey, 1, Number.MAX_SAFE_INTEGER, query.status).items;
    const hits = all.filter((r) => !r.replayed && words.every((w) => r.text.toLowerCase().includes(w)));
    const from = (query.page - 1) * query.pageSize;
    return { items: hits.slice(from, from + query.pageSize).map((r) => present(r, ctx)), page: query.page, pageSize: query.pageSize, total: hits.length };
  };

  const media = [
    {
      path: `${base}/{file}`,
      resolve(engine: Parameters<typeof kit.find>[0], p: Record<string, string>) {
        const m = /^(.+)\.([a-z0-9]+)$/.exec(p.file);
        const r = m ? kit.find(engine, m[1]) : undefined;
        if (!r || r.status !== 'success' || audioFileTypes[rendered[r.format]].extension !== m![2]) return undefined;
        const format = rendered[r.format];
        return {
          contentType: audioFileTypes[format].contentType,
          key: `generated audio ${format} ${r.durationMs} ${r.variant}${r.speech ? ` ${r.speech[0].synth} ${hash32(r.text).toString(36)} ${r.speech.map((l) => voiceKey(l.voice)).join('/')}` : ''}`,
          render: () =>
            r.speech && speechSynthOf(engine)?.id === r.speech[0].synth
              ? dialogueFile(engine, r.speech, format, r.durationMs, r.variant)
              : renderAudio({ format, durationMs: r.durationMs, variant: r.variant }),
          owner: r.owner,
        };
      },
    },
    {
      path: thumbPath('{taskId}'),
      resolve(engine: Parameters<typeof kit.find>[0], p: Record<string, string>) {
        const r = kit.find(engine, p.taskId);
        if (!r?.params.image?.hasData) return undefined;
        const bg = colourFor(engine.seed, r.id, 'thumb-bg');
        const fg = colourFor(engine.seed, r.id, 'thumb-fg');
        const label = { prompt: promptStart(r.text), model: r.model, id: r.id };
        return {
          contentType: mediaFileTypes.png.contentType,
          key: `png ${GENERATED_AUDIO_THUMB_SIDE}x${GENERATED_AUDIO_THUMB_SIDE} ${rgbHex(bg)}/${rgbHex(fg)} ${labelKey(label)}`,
          render: () => labelledImage(GENERATED_AUDIO_THUMB_SIDE, GENERATED_AUDIO_THUMB_SIDE, bg, fg, label),
        };
      },
    },
  ];
  return { create, get, list, media, kit, records: { [area]: generatedAudioRecordSchema } };
}

const p1 = makeService('platformVoice');
const p2 = makeService('seedAudio');

/** Service P1: platform-voice-1.0 at /v1/platform-voice. */
export const platformVoiceService: Service<'createPlatformVoiceTask' | 'getPlatformVoiceTask' | 'listPlatformVoiceTasks'> = {
  handlers: { createPlatformVoiceTask: p1.create, getPlatformVoiceTask: p1.get, listPlatformVoiceTasks: p1.list },
  media: p1.media,
  kits: [p1.kit],
  records: p1.records,
};

/** Service P2: seed-audio-1.0 at /v1/seed-audio (the same handlers; its own tasks, model and price). */
export const seedAudioService: Service<'createSeedAudioTask' | 'getSeedAudioTask' | 'listSeedAudioTasks'> = {
  handlers: {
    createSeedAudioTask: p2.create,
    getSeedAudioTask: p2.get,
    listSeedAudioTasks: p2.list,
  },
  records: p2.records,
  media: p2.media,
  kits: [p2.kit],
};
