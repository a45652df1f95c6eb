/**
 * The podcast service: presenting an episode, the create, text and audio
 * flows, the text stream, the handlers (named functions), the episode media.
 * Standard JavaScript only.
 */
import { errorCatalog, type ErrorName } from '../../../schemas/errors.ts';
import {
  podcastAudioCredits,
  podcastAudioSchedule,
  podcastModePlans,
  podcastRenderMs,
  podcastWritingLanguage,
  type PodcastEpisode,
  type PodcastRequest,
} from '../../../schemas/podcast.ts';
import { charCount, inferLanguage, SPEECH_MAX_CHARS } from '../../../schemas/speech.ts';
import type { Engine } from '../../engine/engine.ts';
import type { Handler, Service, ServiceContext } from '../context.ts';
import { durationOf, episodeMediaRoutes, lineFrames, speakLines, type SpokenLine } from '../narration.ts';
import { distinctVariants, voiceOf, voicesOf } from '../voices.ts';
import { forcedFailureReason } from '../tasks.ts';
import { podcastRecordSchema, type PodcastRecord, textAt, shown, countShown, kit, mediaBase, mediaOf } from './record.ts';
import { writeEpisode } from './writer.ts';
import { formatCount } from '../../../schemas/text.ts';

// ---------------------------------------------------------------------------
// Presenting
// ---------------------------------------------------------------------------

/** The status detail of `r` at `now`. */
function messageOf(r: PodcastRecord, now: number): string {
  if (r.status === 'fail') return errorCatalog[(r.failReason ?? 'PODCAST_GENERATION_FAILED') as ErrorName]?.meaning ?? 'failed';
  if (r.status === 'success')
    return r.flow === 'two-stage' && r.contentStatus === 'text-success'
      ? `script ready: edit it if you like, then POST /v1/podcast/episodes/${r.id}/audio`
      : 'done';
  if (r.stage > 1 || shown(r, textAt(r), now)) return 'rendering the audio';
  if (!shown(r, r.sourcesAt, now)) return 'reading the sources';
  const items = countShown(r, r.outlineAt, now);
  if (items < r.outline.length) return `writing the outline (${items} of ${r.outline.length} items)`;
  return `writing the script (${countShown(r, r.linesAt, now)} of ${r.lines.length} lines)`;
}

/** The credits `r` has consumed by `now`: what is captured, plus a one-shot episode's script once written. */
function creditsOf(r: PodcastRecord, now: number): number {
  if (r.flow === 'one-shot' && r.status === 'pending' && shown(r, textAt(r), now)) return r.scriptCredits;
  return r.charged;
}

/** The episode as the API answers it at `ctx.now`, with this request's absolute URLs. */
function presentEpisode(r: PodcastRecord, ctx: Pick<ServiceContext, 'url' | 'now'>): PodcastEpisode {
  const now = ctx.now;
  const read = shown(r, r.sourcesAt, now);
  const items = countShown(r, r.outlineAt, now);
  const written = countShown(r, r.linesAt, now);
  const audio = r.status === 'success' && r.audio !== undefined;
  return {
    episodeId: r.id,
    createdAt: r.createdAt,
    processStatus: r.status,
    ...(r.contentStatus !== undefined ? { contentStatus: r.contentStatus } : {}),
    failCode: r.failCode,
    message: messageOf(r, now),
    ...(r.completedTime !== undefined ? { completedTime: r.completedTime } : {}),
    credits: creditsOf(r, now),
    ...(read ? { title: r.title, sourceProcessResult: { content: r.source.content, references: r.source.references } } : {}),
    ...(items > 0 ? { outline: outlineText(r.outline.slice(0, items)) } : {}),
    ...(shown(r, textAt(r), now) ? { cover: ctx.url(mediaOf(r.id, 'cover.png')) } : {}),
    ...(audio
      ? {
          audioUrl: ctx.url(mediaOf(r.id, 'audio.mp3')),
          audioStreamUrl: ctx.url(mediaOf(r.id, 'audio.m3u8')),
          subtitlesUrl: ctx.url(mediaOf(r.id, 'subtitles.srt')),
        }
      : {}),
    ...(written > 0 ? { scripts: r.lines.slice(0, written).map((l) => lineView(r, l)) } : {}),
  };
}

const outlineText = (items: readonly string[]) => items.map((s, i) => `${i + 1}. ${s}`).join('\n');
const lineView = (r: PodcastRecord, l: { slot: number; content: string }) => ({
  speakerId: r.slots[l.slot].speakerId,
  speakerName: r.slots[l.slot].speakerName,
  content: l.content,
});

// ---------------------------------------------------------------------------
// Creating
// ---------------------------------------------------------------------------

/** The rendered lines of `r`'s script. */
const spoken = (r: Pick<PodcastRecord, 'slots' | 'lines' | 'speed'>): SpokenLine[] =>
  r.lines.map((l) => ({ speakerId: r.slots[l.slot].speakerId, variant: r.slots[l.slot].variant, text: l.content, frames: lineFrames(l.content, r.speed) }));

/**
 * The rendered lines of `lines` in `r`'s voices, spoken in words when the
 * world has a speech engine (each speaker's language and gender from its
 * voice; a voice gone since: the script's language, female).
 */
async function said(engine: Engine, r: Pick<PodcastRecord, 'owner' | 'slots' | 'speed' | 'language'>, lines: PodcastRecord['lines']): Promise<SpokenLine[]> {
  const voices = voicesOf(engine, r.owner);
  const who = lines.map(
    (l) => voices.find((v) => v.speakerId === r.slots[l.slot].speakerId) ?? { language: podcastWritingLanguage(r.language), gender: 'female' as const },
  );
  return speakLines(engine, spoken({ ...r, lines }), (i) => who[i], r.speed);
}

/** Script characters (code points) of `r`. */
const scriptChars = (r: Pick<PodcastRecord, 'lines'>) => r.lines.reduce((n, l) => n + charCount(l.content), 0);

/**
 * Creates an episode of either flow: checks the speakers (37003; with
 * `languageMustMatch`, 37002 for a speaker of another language), writes it,
 * reserves its price (37004 when short, nothing taken) and starts it.
 */
async function createEpisode<E extends 'SPEAKER_LANGUAGE_MISMATCH' = never>(
  ctx: ServiceContext<'PODCAST_SPEAKER_NOT_FOUND' | 'PODCAST_INSUFFICIENT_CREDITS' | NoInfer<E>>,
  body: PodcastRequest,
  flow: PodcastRecord['flow'],
  /** The two-stage flow's: every speaker speaks `language` (only its operation declares the error). */
  languageMismatch?: E,
): Promise<string> {
  const { engine, now } = ctx;
  const voices = body.speakers.map((s, i) => voiceOf(ctx, s.speakerId, `speakers[${i}].speakerId`, 'PODCAST_SPEAKER_NOT_FOUND'));
  if (languageMismatch !== undefined)
    voices.forEach((v, i) => {
      if (v.language !== body.language)
        throw ctx.fail(
          languageMismatch,
          `Speaker language mismatch: speakers[${i}].speakerId ${v.speakerId} speaks ${v.language}, and language is ${body.language}; choose a voice of ${body.language} (GET /v1/speakers/list?language=${body.language})`,
        );
    });
  const sources = body.sources ?? [];
  const language = body.language ?? inferLanguage([body.query ?? '', ...sources.filter((s) => s.type === 'text').map((s) => s.content)].join(' '));
  const variants = distinctVariants(voices);
  const slots = voices.map((v) => ({ speakerId: v.speakerId, speakerName: v.name, variant: variants.get(v.speakerId)! }));
  const written = writeEpisode(engine.seed, {
    query: body.query,
    sources,
    mode: body.mode,
    language: podcastWritingLanguage(language),
    names: slots.map((s) => s.speakerName),
  });
  const plan = podcastModePlans[body.mode];
  const sourcesAt = now + plan.sourcesMs;
  const outlineAt = written.outline.map((_, i) => sourcesAt + (i + 1) * plan.outlineItemMs);
  const linesAt = written.lines.map((_, i) => outlineAt[outlineAt.length - 1] + (i + 1) * plan.lineMs);
  // the one-shot audio in words, rendered before anything is stored (the account is read after this await)
  const rendering = flow === 'one-shot' ? await said(engine, { owner: ctx.account.apiKey, slots, speed: body.speed, language }, written.lines) : undefined;
  const audioCredits = podcastAudioCredits(scriptChars(written));
  const credits = flow === 'one-shot' ? plan.scriptCredits + audioCredits : plan.scriptCredits;

  const id = kit.nextId(ctx);
  kit.reserve(ctx, id, credits, 'PODCAST_INSUFFICIENT_CREDITS', `podcast ${flow} ${body.mode}, ${written.lines.length} lines`);
  const r = kit.create(ctx, id, 'pending', {
    flow,
    mode: body.mode,
    language,
    speed: body.speed,
    slots,
    ...written,
    sourcesAt,
    outlineAt,
    linesAt,
    stage: 1,
    scriptCredits: plan.scriptCredits,
    audioCredits,
    charged: 0,
    failCode: 0,
  });
  const textDone = textAt(r) - now;
  const failWith = forcedFailureReason(ctx);
  if (ctx.forcing.outcome === 'stuck') r.haltAt = now;
  // a forced failure comes halfway through the script: the lines before it are shown, then the stage fails
  if (failWith) r.haltAt = linesAt[Math.floor(linesAt.length / 2)];
  if (rendering) r.rendering = rendering;
  kit.action(engine, r, now + podcastAudioSchedule.timeoutMs + 1, 'timeout:1');
  kit.run(
    engine,
    r,
    {
      steps: [{ status: 'success', afterMs: flow === 'one-shot' ? textDone + podcastRenderMs(durationOf(r.rendering!)) : textDone }],
      ...(failWith ? { failure: { atStep: 0, reason: failWith, afterMs: r.haltAt! - now } } : {}),
      ...(ctx.forcing.outcome === 'stuck' ? { stuckBefore: 0 } : {}),
    },
    now,
  );
  return id;
}

/** Checks an edited script against `r`'s: as many lines, the same speaker on each, at most 20,000 characters. Errors: PODCAST_INVALID_PARAMETERS naming the line. */
function checkEdit(ctx: ServiceContext<'PODCAST_INVALID_PARAMETERS'>, r: PodcastRecord, scripts: { content: string; speakerId: string }[]): void {
  const bad = (message: string) => ctx.fail('PODCAST_INVALID_PARAMETERS', message);
  if (scripts.length !== r.lines.length)
    throw bad(`scripts has ${scripts.length} lines; the episode's script has ${r.lines.length}: keep every line, in order, and change only content`);
  scripts.forEach((line, i) => {
    const expected = r.slots[r.lines[i].slot].speakerId;
    if (line.speakerId !== expected)
      throw bad(
        `scripts[${i}].speakerId is ${line.speakerId}; line ${i} of the episode is spoken by ${expected}: speakerId values stay exactly as returned, only content may change`,
      );
  });
  const total = scripts.reduce((n, l) => n + charCount(l.content), 0);
  if (total > SPEECH_MAX_CHARS) throw bad(`scripts: the combined content is ${formatCount(total)} characters; at most ${formatCount(SPEECH_MAX_CHARS)}`);
}

/** Why `r` cannot render audio now, or undefined when it can. */
function audioRefusal(r: PodcastRecord): string | undefined {
  if (r.flow === 'one-shot')
    return `episode ${r.id} is one-shot: its audio is made with it; the audio call belongs to the two-stage flow (POST /v1/podcast/episodes/text-content)`;
  if (r.contentStatus === undefined) return `the script of episode ${r.id} is still being written; poll it until contentStatus is text-success`;
  if (r.contentStatus === 'text-fail') return `the script of episode ${r.id} failed (failCode ${r.failCode}); there is nothing to render: create a new episode`;
  if (r.status === 'pending') return `the audio of episode ${r.id} is rendering; poll it until contentStatus is audio-success or audio-fail`;
  return undefined;
}

/** The event source of the text stream of `id`: items as they appear, then done. */
function textSource(engine: Engine, id: string, event: 'script' | 'outline') {
  let sent = 0;
  return {
    // woken by changes of this episode (and clock jumps) only, not by every request
    topic: id,
    poll(now: number) {
      const r = kit.find(engine, id);
      if (!r) return { events: [{ event: 'done' as const, data: { episodeId: id, complete: false, count: sent, failCode: 0 } }], done: true };
      const times = event === 'script' ? r.linesAt : r.outlineAt;
      const upTo = countShown(r, times, now);
      const events = [];
      for (; sent < upTo; sent++)
        events.push(
          event === 'script'
            ? { event: 'script' as const, data: { index: sent, ...lineView(r, r.lines[sent]) } }
            : { event: 'outline' as const, data: { index: sent, content: r.outline[sent] } },
        );
      const complete = sent === times.length;
      const failed = r.haltAt !== undefined && r.status === 'fail' && r.stage === 1;
      if (complete || failed) {
        events.push({ event: 'done' as const, data: { episodeId: id, complete, count: sent, failCode: complete ? 0 : r.failCode } });
        return { events, done: true };
      }
      // the next piece's time, when it will appear (a halted text shows nothing more)
      const due = times[sent];
      const nextAt = due < (r.haltAt ?? Number.POSITIVE_INFINITY) ? due : undefined;
      return { events, done: false, ...(nextAt !== undefined ? { nextAt } : {}) };
    },
  };
}

/** The episode `id` if its audio is ready (media routes), with an id that names this render. */
function readyAudio(engine: Engine, id: string) {
  const r = kit.find(engine, id);
  return r?.status === 'success' && r.audio ? { id: `${r.id}/${r.stage}`, owner: r.owner, lines: r.audio } : undefined;
}

/** The episode `id` if its script is written (the cover appears with it). */
function written(engine: Engine, id: string) {
  const r = kit.find(engine, id);
  return r && shown(r, textAt(r), engine.clock.now()) ? r : undefined;
}

const notFound = { notFound: 'PODCAST_EPISODE_NOT_FOUND', field: 'episodeId' } as const;

const createPodcastEpisode: Handler<'createPodcastEpisode'> = async ({ body }, ctx) => {
  return { episodeId: await createEpisode(ctx, body, 'one-shot') };
};

const createPodcastTextContent: Handler<'createPodcastTextContent'> = async ({ body }, ctx) => {
  const episodeId = await createEpisode(ctx, body, 'two-stage', 'SPEAKER_LANGUAGE_MISMATCH');
  return { episodeId, message: 'writing the script; poll the episode until contentStatus is text-success, then POST its /audio' };
};

const getPodcastEpisode: Handler<'getPodcastEpisode'> = ({ params }, ctx) => {
  return presentEpisode(kit.own(ctx, params.episodeId, notFound), ctx);
};

const createPodcastAudio: Handler<'createPodcastAudio'> = async ({ params, body }, ctx) => {
  const { engine } = ctx;
  const check = () => {
    const r = kit.own(ctx, params.episodeId, notFound);
    const refusal = audioRefusal(r);
    if (refusal) throw ctx.fail('PODCAST_AUDIO_NOT_ALLOWED', refusal);
    if (body.scripts) checkEdit(ctx, r, body.scripts);
    const edited = body.scripts ? r.lines.map((l, i) => ({ slot: l.slot, content: body.scripts![i].content })) : r.lines;
    return { r, edited };
  };
  const before = check();
  const rendering = await said(engine, before.r, before.edited);
  // checked again after the words were rendered: a reset, a delete or another request may have come between
  const { r, edited } = check();
  const { now } = ctx;
  const audioCredits = podcastAudioCredits(scriptChars({ lines: edited }));
  kit.reserve(ctx, r.id, audioCredits, 'PODCAST_INSUFFICIENT_CREDITS', `podcast audio, ${edited.length} lines`);
  const contentStatus = r.contentStatus!;
  r.lines = edited;
  r.audioCredits = audioCredits;
  r.stage += 1;
  r.audio = undefined;
  r.rendering = edited === before.edited || JSON.stringify(edited) === JSON.stringify(before.edited) ? rendering : spoken(r);
  r.completedTime = undefined;
  r.failReason = undefined;
  r.failCode = 0;
  kit.move(engine, r, 'pending', now);
  const failWith = forcedFailureReason(ctx);
  const renderMs = podcastRenderMs(durationOf(r.rendering));
  kit.action(engine, r, now + podcastAudioSchedule.timeoutMs + 1, `timeout:${r.stage}`);
  kit.run(
    engine,
    r,
    {
      steps: [{ status: 'success', afterMs: renderMs }],
      ...(failWith ? { failure: { atStep: 0, reason: failWith, afterMs: Math.round(renderMs / 2) } } : {}),
      ...(ctx.forcing.outcome === 'stuck' ? { stuckBefore: 0 } : {}),
    },
    now,
  );
  return { episodeId: r.id, contentStatus };
};

const streamPodcastText: Handler<'streamPodcastText'> = ({ params, query }, ctx) => {
  const r = kit.own(ctx, params.episodeId, notFound);
  return textSource(ctx.engine, r.id, query.event);
};

/** The five podcast operations. Errors: 37001 (rules), 37002 (language mismatch), 37003 (voice), 37004 (credits), 37005 (not found), 37006 (audio not allowed now). */
export const podcastService: Service<'createPodcastEpisode' | 'createPodcastTextContent' | 'getPodcastEpisode' | 'createPodcastAudio' | 'streamPodcastText'> = {
  kits: [kit],
  records: { podcast: podcastRecordSchema },
  handlers: {
    createPodcastEpisode,
    createPodcastTextContent,
    getPodcastEpisode,
    createPodcastAudio,
    streamPodcastText,
  },

  media: episodeMediaRoutes(mediaBase, { audio: readyAudio, cover: written }),
};
