/**
 * The speech service (document 2, speech sections): the binary TTS endpoints,
 * the multi-voice script endpoint, flow-speech episodes on the task kit, and
 * the speaker catalogue.
 *
 * Voices: every endpoint takes exactly the ids `voicesOf` lists for the
 * caller: the built-in catalogue (`builtInSpeakers` of schemas/speech.ts) and
 * whatever a voice source adds (`addVoiceSource`: the account's confirmed
 * cloned voices, from the voice-cloning area). A voice's `variant` is its
 * timbre in the rendered audio; within one script, distinct speakers always
 * get distinct variants, so they are audibly distinct.
 *
 * Money (assumed price, `speechCredits`): the synchronous endpoints reserve
 * and capture at once (a short balance: 402, 35004, nothing taken); episodes
 * reserve at creation, capture on success, refund on failure or timeout.
 *
 *   episode: create -> pending --(flowSpeechProcessingMs)--> success
 *                             \--(forced failure)--> fail (refunded, failCode)
 *            pending for more than 30 minutes --(timeout)--> fail (35011)
 *
 * Media: the MP3 of a script is its lines' MP3 frames back to back (each line
 * in its speaker's variant), so `audioDuration` is the decoded duration to the
 * ms; subtitles are timed to those lines.
 */
import { z } from 'zod';
import { errorCatalog } from '../../schemas/errors.ts';
import { audioFileTypes, mediaFileTypes } from '../../schemas/media.ts';
import {
  charCount,
  episodeStatuses,
  flowSpeechLanguages,
  flowSpeechProcessingMs,
  flowSpeechSchedule,
  inferLanguage,
  SPEAKER_DEMO_MS,
  SPEECH_SUBTITLES_VALID_MS,
  speechCredits,
  speechDurationMs,
  ttsContentType,
  type FlowSpeechEpisode,
  type FlowSpeechLanguage,
  type FlowSpeechRequest,
  type TtsRequest,
} from '../../schemas/speech.ts';
import type { Engine } from '../engine/engine.ts';
import { streamAudio } from '../media/audio.ts';
import type { Handler, Service, ServiceContext } from './context.ts';
import { cataloguedReason, forcedFailureReason, objectOf, TaskKit, taskRecordSchema } from './tasks.ts';
import { builtInById, voiceOf, voicesOf } from './voices.ts';
import {
  durationOf,
  episodeMediaRoutes,
  fakeArticle,
  lineFrames,
  mp3Asset,
  outlineOf,
  speakLines,
  spokenLines,
  srtAsset,
  titleOf,
  type SpokenLine,
} from './narration.ts';
import { spokenTts } from './spoken-tts.ts';
import { demoAsset } from './demo-speech.ts';

// ---------------------------------------------------------------------------
// Money
// ---------------------------------------------------------------------------

/** Charges `credits` at once for `id` (a hold captured at once). Errors: SPEECH_INSUFFICIENT_CREDITS, nothing taken. */
function chargeNow(ctx: ServiceContext<'SPEECH_INSUFFICIENT_CREDITS'>, id: string, credits: number, note: string): void {
  const { engine, account, now } = ctx;
  if (account.credits < credits)
    throw ctx.fail('SPEECH_INSUFFICIENT_CREDITS', `insufficient credits: this speech costs ${credits} credits and the balance is ${account.credits}`);
  engine.accounts.reserve(account, id, credits, now, note);
  engine.accounts.capture(id, now);
}

// ---------------------------------------------------------------------------
// POST /v1/speech records
// ---------------------------------------------------------------------------

/** A synthesized script (POST /v1/speech), as saved: stored so its MP3 and SRT can be served. Created terminal. */
const speechRecordSchema = taskRecordSchema(['success'], { lines: z.array(objectOf<SpokenLine>()), credits: z.number() });
type ScriptRecord = z.infer<typeof speechRecordSchema>;

const scriptKit = new TaskKit<ScriptRecord>({ area: 'speech', idPrefix: 'sp', noun: 'speech', terminal: ['success'] });

const scriptMedia = (id: string, ext: string) => `/media/speech/${id}.${ext}`;

// ---------------------------------------------------------------------------
// Flow-speech episodes
// ---------------------------------------------------------------------------

/**
 * A stored flow-speech episode, as saved: what its GET shows (media as paths) and what renders its media. `kind`:
 * narration (one voice reading a text or a page) or script (multi-voice, verbatim).
 */
const flowSpeechRecordSchema = taskRecordSchema(episodeStatuses, {
  kind: z.enum(['narration', 'script']),
  language: z.enum(flowSpeechLanguages),
  lines: z.array(objectOf<SpokenLine>()),
  title: z.string(),
  outline: z.string(),
  credits: z.number(),
  completedTime: z.number().optional(),
  failCode: z.number().optional(),
});
export type EpisodeRecord = z.infer<typeof flowSpeechRecordSchema>;

const episodeKit = new TaskKit<EpisodeRecord>(
  { area: 'flow-speech', idPrefix: 'fs', noun: 'episode', terminal: ['success', 'fail'], failStatus: 'fail' },
  {
    onEnter(_engine, r, status, at) {
      if (status === 'success') r.completedTime = at;
    },
    onFail(_engine, r, reason, _refunded, at) {
      r.completedTime = at;
      r.failCode = (cataloguedReason(reason) ?? errorCatalog.SPEECH_GENERATION_FAILED).code;
    },
  },
);

const episodeMedia = (id: string, file: string) => `/media/flow-speech/${id}/${file}`;

/**
 * The narration of `text` in smart mode (assumed cleaning): markdown marks
 * dropped (#, *, _, `, >, list bullets), repeated punctuation reduced to one
 * mark, spaces collapsed, a space after sentence marks, each sentence begun
 * with a capital, and a full stop at the end (。 for Chinese and Japanese).
 */
export function cleanNarration(text: string, language: FlowSpeechLanguage): string {
  let t = text
    .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+[.)])\s+/gm, '')
    .replace(/[*_`~]+/g, '')
    .replace(/([!?.,;:。！？，、])\1+/g, '$1')
    .replace(/\s+/g, ' ')
    .replace(/\s+([,.;:!?])/g, '$1')
    .replace(/([,.;:!?])(?=[A-Za-z])/g, '$1 ')
    .trim();
  if (t === '') return t;
  t = t.charAt(0).toUpperCase() + t.slice(1);
  t = t.replace(/([.!?]\s+)(\p{Ll})/gu, (_m, stop: string, c: string) => stop + c.toUpperCase());
  if (!/[.!?。！？]$/.test(t)) t += language === 'en' ? '.' : '。';
  return t;
}

/** The episode as the API answers it, with this request's absolute URLs. */
function presentEpisode(r: EpisodeRecord, ctx: Pick<ServiceContext, 'url'>): FlowSpeechEpisode {
  const done = r.status === 'success';
  return {
    episodeId: r.id,
    createdAt: r.createdAt,
    processStatus: r.status,
    ...(r.failCode !== undefined ? { failCode: r.failCode } : {}),
    ...(r.completedTime !== undefined ? { completedTime: r.completedTime } : {}),
    ...(done
      ? {
          title: r.title,
          outline: r.outline,
          cover: ctx.url(episodeMedia(r.id, 'cover.png')),
          audioUrl: ctx.url(episodeMedia(r.id, 'audio.mp3')),
          audioStreamUrl: ctx.url(episodeMedia(r.id, 'audio.m3u8')),
          subtitlesUrl: ctx.url(episodeMedia(r.id, 'subtitles.srt')),
          scripts: r.lines.map((l) => l.text).join('\n'),
        }
      : {}),
  };
}

/** Stores a new episode of `lines`, reserves its price and starts its lifecycle (or the forced failure or stall). */
function createEpisode(
  ctx: ServiceContext<'SPEECH_INSUFFICIENT_CREDITS'>,
  kind: EpisodeRecord['kind'],
  language: FlowSpeechLanguage,
  lines: SpokenLine[],
): { episodeId: string } {
  const { engine, now, forcing } = ctx;
  const narrated = lines.map((l) => l.text).join('\n');
  const credits = speechCredits(lines.reduce((n, l) => n + charCount(l.text), 0));
  const id = episodeKit.nextId(ctx);
  episodeKit.reserve(ctx, id, credits, 'SPEECH_INSUFFICIENT_CREDITS', `flow-speech ${kind} ${charCount(narrated)} characters`);
  const r = episodeKit.create(ctx, id, 'pending', {
    kind,
    language,
    lines,
    title: titleOf(narrated),
    outline: outlineOf(narrated),
    credits,
  });
  const afterMs = flowSpeechProcessingMs(durationOf(lines));
  const failWith = forcedFailureReason(ctx);
  episodeKit.timeout(engine, r, now + flowSpeechSchedule.timeoutMs + 1, ['pending'], 'SPEECH_TIMED_OUT');
  episodeKit.run(
    engine,
    r,
    {
      steps: [{ status: 'success', afterMs }],
      ...(failWith ? { failure: { atStep: 0, reason: failWith } } : {}),
      ...(forcing.outcome === 'stuck' ? { stuckBefore: 0 } : {}),
    },
    now,
  );
  return { episodeId: id };
}

/** A succeeded episode of any owner (media routes), or undefined. */
function doneEpisode(engine: Engine, id: string): EpisodeRecord | undefined {
  const r = episodeKit.find(engine, id);
  return r?.status === 'success' ? r : undefined;
}

// ---------------------------------------------------------------------------
// Handlers
// ---------------------------------------------------------------------------

/** POST /v1/tts and POST /v1/audio/speech: the audio, streamed. Errors: 35002 (voice), 35004 (credits). */
const tts: Handler<'synthesizeSpeech'> & Handler<'createSpeech'> = async (
  { body }: { body: TtsRequest },
  ctx: ServiceContext<'SPEECH_SPEAKER_NOT_FOUND' | 'SPEECH_INSUFFICIENT_CREDITS'>,
) => {
  const voice = voiceOf(ctx, body.voice, 'voice', 'SPEECH_SPEAKER_NOT_FOUND');
  const chars = charCount(body.input);
  // spoken in words when the world has a speech engine (every format but aac), measured before the charge
  const spoken = await spokenTts(ctx.engine, body, voice);
  const id = ctx.engine.nextId('tts', ctx.account.apiKey, 'tts');
  chargeNow(ctx, id, speechCredits(chars), `tts ${chars} characters, ${body.response_format}`);
  if (spoken) return { contentType: ttsContentType(body.response_format), body: spoken };
  const durationMs = speechDurationMs(body.input, body.speed);
  return { contentType: ttsContentType(body.response_format), body: streamAudio({ format: body.response_format, durationMs, variant: voice.variant }) };
};

/** The lines of a script, each in its speaker's voice: spoken in words when the world has a speech engine (errors: as `spokenLines`). */
async function spokenScript(
  ctx: ServiceContext<'SPEECH_SPEAKER_NOT_FOUND'>,
  scripts: { speakerId: string; content: string }[],
  speed: number,
): Promise<SpokenLine[]> {
  const lines = spokenLines(ctx, scripts, speed);
  const voices = lines.map((l) => voiceOf(ctx, l.speakerId, 'scripts', 'SPEECH_SPEAKER_NOT_FOUND'));
  return speakLines(ctx.engine, lines, (i) => voices[i], speed);
}

const createSpeechScript: Handler<'createSpeechScript'> = async ({ body }, ctx) => {
  const lines = await spokenScript(ctx, body.scripts, body.speed);
  const chars = lines.reduce((n, l) => n + charCount(l.text), 0);
  const credits = speechCredits(chars);
  const id = scriptKit.nextId(ctx);
  chargeNow(ctx, id, credits, `speech ${lines.length} lines, ${chars} characters`);
  scriptKit.create(ctx, id, 'success', { lines, credits });
  return {
    audioUrl: ctx.url(scriptMedia(id, audioFileTypes.mp3.extension)),
    audioDuration: durationOf(lines),
    subtitlesUrl: ctx.url(scriptMedia(id, mediaFileTypes.srt.extension)),
    taskId: id,
    credits,
  };
};

const createFlowSpeechEpisode: Handler<'createFlowSpeechEpisode'> = async ({ body }: { body: FlowSpeechRequest }, ctx) => {
  const source = body.sources[0];
  const voice = voiceOf(ctx, body.speakers[0].speakerId, 'speakers[0].speakerId', 'SPEECH_SPEAKER_NOT_FOUND');
  let text: string;
  let language: FlowSpeechLanguage;
  if (source.type === 'text') {
    language = body.language ?? inferLanguage(source.content!);
    text = body.mode === 'smart' ? cleanNarration(source.content!, language) : source.content!;
  } else {
    language = body.language ?? 'en';
    text = fakeArticle(ctx.engine.seed, source.uri ?? source.content!, language);
  }
  if (text.trim() === '') text = source.content!; // smart cleaning left nothing: read it as written
  const said: SpokenLine[] = [{ speakerId: voice.speakerId, variant: voice.variant, text, frames: lineFrames(text, body.speed) }];
  const lines = await speakLines(ctx.engine, said, () => ({ language, gender: voice.gender }), body.speed);
  return createEpisode(ctx, 'narration', language, lines);
};

const createFlowSpeechTtsEpisode: Handler<'createFlowSpeechTtsEpisode'> = async ({ body }, ctx) => {
  const lines = await spokenScript(ctx, body.scripts, body.speed);
  return createEpisode(ctx, 'script', body.language ?? inferLanguage(lines.map((l) => l.text).join(' ')), lines);
};

const getFlowSpeechEpisode: Handler<'getFlowSpeechEpisode'> = ({ params }, ctx) => {
  return presentEpisode(episodeKit.own(ctx, params.episodeId, { notFound: 'SPEECH_EPISODE_NOT_FOUND', field: 'episodeId' }), ctx);
};

const listSpeakers: Handler<'listSpeakers'> = ({ query }, ctx) => {
  const voices = voicesOf(ctx.engine, ctx.account.apiKey).filter((v) => query.language === undefined || v.language === query.language);
  return {
    speakers: voices.map((v) => ({
      speakerId: v.speakerId,
      name: v.name,
      language: v.language,
      gender: v.gender,
      demoAudioUrl: ctx.url(v.demoPath),
      type: v.type,
    })),
  };
};

/** The six speech operations. Errors: 35001 (rules), 35002 (unknown voice), 35004 (credits), 35006 (episode not found). */
export const speechService: Service<
  | 'synthesizeSpeech'
  | 'createSpeech'
  | 'createSpeechScript'
  | 'createFlowSpeechEpisode'
  | 'createFlowSpeechTtsEpisode'
  | 'getFlowSpeechEpisode'
  | 'listSpeakers'
> = {
  kits: [scriptKit, episodeKit],
  records: { speech: speechRecordSchema, 'flow-speech': flowSpeechRecordSchema },
  handlers: {
    synthesizeSpeech: tts,
    createSpeech: tts,
    createSpeechScript,
    createFlowSpeechEpisode,
    createFlowSpeechTtsEpisode,
    getFlowSpeechEpisode,
    listSpeakers,
  },

  media: [
    {
      path: '/media/speakers/{speakerId}/demo.mp3',
      resolve(engine, p) {
        const v = builtInById.get(p.speakerId);
        if (!v) return undefined;
        // words in the speaker's voice when the world has a speech engine, else its tones
        return demoAsset(
          engine,
          { speakerId: v.speakerId, language: v.language, gender: v.gender, timbre: v.variant, name: v.name },
          SPEAKER_DEMO_MS,
          v.variant,
        );
      },
    },
    {
      path: scriptMedia('{taskId}', audioFileTypes.mp3.extension),
      resolve(engine, p) {
        const r = scriptKit.find(engine, p.taskId);
        return r ? { ...mp3Asset(engine, r.lines), owner: r.owner } : undefined;
      },
    },
    {
      path: scriptMedia('{taskId}', mediaFileTypes.srt.extension),
      resolve(engine, p) {
        const r = scriptKit.find(engine, p.taskId);
        if (!r) return undefined;
        const until = r.createdAt + SPEECH_SUBTITLES_VALID_MS;
        if (engine.clock.now() >= until) return { expired: `the subtitles were valid 24 hours, until ${new Date(until).toISOString()}` };
        return srtAsset(r.id, r.lines, true);
      },
    },
    ...episodeMediaRoutes('/media/flow-speech', { audio: doneEpisode, cover: doneEpisode }),
  ],
};
