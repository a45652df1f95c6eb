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
import { errorCatalog, type ErrorName } from '../../schemas/errors.ts';
import { AUDIO_TIMBRES, audioFileTypes, mediaFileTypes } from '../../schemas/media.ts';
import { operations } from '../../schemas/operations.ts';
import {
  builtInSpeakers,
  charCount,
  EPISODE_COVER_SIDE,
  flowSpeechProcessingMs,
  flowSpeechSchedule,
  inferLanguage,
  SPEAKER_DEMO_MS,
  SPEECH_SUBTITLES_VALID_MS,
  speechCredits,
  speechDurationMs,
  ttsContentType,
  type BuiltInSpeaker,
  type EpisodeStatus,
  type FlowSpeechEpisode,
  type FlowSpeechLanguage,
  type FlowSpeechRequest,
  type TtsRequest,
} from '../../schemas/speech.ts';
import { ApiError } from '../engine/api-error.ts';
import type { Engine } from '../engine/engine.ts';
import { audioFrameCount, audioFrames, audioFrameSamples, renderAudio, streamAudio } from '../media/audio.ts';
import { hlsAudio } from '../media/hls.ts';
import { colourFor, encodePng, rgbHex } from '../media/png.ts';
import { cuesForText, renderSrt, type Cue } from '../media/srt.ts';
import type { Handler, MediaAsset, MediaRoute, Service, ServiceContext } from './context.ts';
import { fake } from './fake.ts';
import { TaskKit, type Task } from './tasks.ts';

// ---------------------------------------------------------------------------
// Voices
// ---------------------------------------------------------------------------

/** A voice a caller may use: a built-in one, or one a voice source adds (a cloned voice). */
export interface Voice extends Omit<BuiltInSpeaker, 'language'> {
  language: BuiltInSpeaker['language'];
  type: 'built-in' | 'cloned';
  /** Path of its demo clip under /media/. */
  demoPath: string;
}

/** Voices of the account `owner` beyond the built-in ones (the voice-cloning area adds its confirmed voices). */
export type VoiceSource = (engine: Engine, owner: string) => readonly Voice[];

const voiceSources: VoiceSource[] = [];

/** Adds the voices of `source` to every account's list and to what every speech endpoint accepts. */
export function addVoiceSource(source: VoiceSource): void {
  voiceSources.push(source);
}

const demoPath = (speakerId: string) => `/media/speakers/${encodeURIComponent(speakerId)}/demo.${audioFileTypes.mp3.extension}`;
const builtInVoices: readonly Voice[] = builtInSpeakers.map((s) => ({ ...s, type: 'built-in' as const, demoPath: demoPath(s.speakerId) }));
const builtInById = new Map(builtInVoices.map((v) => [v.speakerId, v]));

/** Every voice `owner` may use: the built-in ones, then the sources'. */
export function voicesOf(engine: Engine, owner: string): Voice[] {
  return [...builtInVoices, ...voiceSources.flatMap((src) => src(engine, owner))];
}

/** The caller's voice `id`. Errors: `notFound` (default SPEECH_SPEAKER_NOT_FOUND) naming `field` and the id. */
export function voiceOf(ctx: ServiceContext, id: string, field: string, notFound: ErrorName = 'SPEECH_SPEAKER_NOT_FOUND'): Voice {
  const hit = builtInById.get(id) ?? voicesOf(ctx.engine, ctx.account.apiKey).find((v) => v.speakerId === id);
  if (hit) return hit;
  const some = builtInVoices
    .slice(0, 4)
    .map((v) => v.speakerId)
    .join(', ');
  throw new ApiError(
    notFound,
    `${field}: no voice ${JSON.stringify(id)} for this account; GET /v1/speakers/list lists the ids it may use (for example ${some})`,
  );
}

// ---------------------------------------------------------------------------
// Spoken lines
// ---------------------------------------------------------------------------

/** Length of one MP3 frame, ms (576 samples at 24 kHz: exactly 24 ms). */
const MP3_FRAME_MS = (audioFrameSamples.mp3 * 1000) / 24_000;

/** One line of rendered speech: its words, its voice's variant, and its MP3 frames. */
export interface SpokenLine {
  speakerId: string;
  variant: number;
  text: string;
  frames: number;
}

/** A line's MP3 frames: `speechDurationMs` to the nearest 24 ms frame (at least 5). */
export function lineFrames(text: string, speed: number): number {
  return audioFrameCount('mp3', speechDurationMs(text, speed));
}

/**
 * The variant of each distinct voice of `voices`, in order of first use: a
 * voice's own variant unless an earlier voice took it, then the next free one
 * (so up to six distinct voices are audibly distinct).
 */
export function distinctVariants(voices: readonly Pick<Voice, 'speakerId' | 'variant'>[]): Map<string, number> {
  const variantOf = new Map<string, number>();
  for (const voice of voices) {
    if (variantOf.has(voice.speakerId)) continue;
    const taken = new Set(variantOf.values());
    let variant = voice.variant;
    for (let k = 0; k < AUDIO_TIMBRES && taken.has(variant); k++) variant = (voice.variant + k + 1) % AUDIO_TIMBRES;
    variantOf.set(voice.speakerId, variant);
  }
  return variantOf;
}

/**
 * The lines of a script, each with its speaker's voice (errors: SPEECH_SPEAKER_NOT_FOUND naming `scripts[i].speakerId`);
 * distinct speakers get distinct variants (`distinctVariants`).
 */
function spokenLines(ctx: ServiceContext, scripts: { speakerId: string; content: string }[], speed: number, field = 'scripts'): SpokenLine[] {
  const voices = scripts.map((line, i) => voiceOf(ctx, line.speakerId, `${field}[${i}].speakerId`));
  const variantOf = distinctVariants(voices);
  return scripts.map((line, i) => ({
    speakerId: voices[i].speakerId,
    variant: variantOf.get(voices[i].speakerId)!,
    text: line.content,
    frames: lineFrames(line.content, speed),
  }));
}

/** Total duration of `lines`, ms (whole MP3 frames of 24 ms: an integer). */
export const durationOf = (lines: readonly SpokenLine[]) => lines.reduce((n, l) => n + l.frames, 0) * MP3_FRAME_MS;

/** The MP3 of `lines`: each line's frames in its variant, back to back. */
function linesMp3(lines: readonly SpokenLine[]): Uint8Array {
  const parts = lines.map((l) => audioFrames('mp3', l.variant, 0, l.frames));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Cues of `lines` over their audio: one per line (`perLine`), or each line cut into sentence cues within its time. */
function linesCues(lines: readonly SpokenLine[], perLine: boolean): Cue[] {
  const cues: Cue[] = [];
  let startMs = 0;
  for (const l of lines) {
    const ms = l.frames * MP3_FRAME_MS;
    if (perLine) cues.push({ startMs, endMs: startMs + ms, text: l.text.replace(/\s+/g, ' ').trim() || '…' });
    else for (const c of cuesForText(l.text, ms)) cues.push({ startMs: startMs + c.startMs, endMs: startMs + c.endMs, text: c.text });
    startMs += ms;
  }
  return cues;
}

/** What names the audio of `lines`: each line's variant and frames. */
const linesKey = (lines: readonly SpokenLine[]) => lines.map((l) => `${l.variant}x${l.frames}`).join(',');

/** The HLS rendition of `lines`: the same audio, each line in its voice. */
function linesHls(lines: readonly SpokenLine[]) {
  let startMs = 0;
  const voices = lines.map((l) => {
    const v = { startMs, variant: l.variant };
    startMs += l.frames * MP3_FRAME_MS;
    return v;
  });
  return hlsAudio(durationOf(lines), lines[0].variant, { voices });
}

/** A hosted MP3 of `lines`, named by its frames and variants. */
export function mp3Asset(lines: readonly SpokenLine[]): MediaAsset {
  return {
    contentType: audioFileTypes.mp3.contentType,
    key: `speech mp3 ${linesKey(lines)}`,
    render: () => linesMp3(lines),
  };
}

/** A hosted SRT of `lines` (named by the task: its text is the task's). */
function srtAsset(id: string, lines: readonly SpokenLine[], perLine: boolean): MediaAsset {
  return {
    contentType: mediaFileTypes.srt.contentType,
    key: `speech srt ${id} ${perLine ? 'lines' : 'sentences'}`,
    render: () => new TextEncoder().encode(renderSrt(linesCues(lines, perLine))),
  };
}

// ---------------------------------------------------------------------------
// Money
// ---------------------------------------------------------------------------

/** Charges `credits` at once for `id` (a hold captured at once). Errors: SPEECH_INSUFFICIENT_CREDITS, nothing taken. */
function chargeNow(ctx: ServiceContext, id: string, credits: number, note: string): void {
  const { engine, account, now } = ctx;
  if (account.credits < credits)
    throw new ApiError('SPEECH_INSUFFICIENT_CREDITS', `insufficient credits: this speech costs ${credits} credits and the balance is ${account.credits}`);
  engine.accounts.reserve(account, id, credits, now, note);
  engine.accounts.capture(id, now);
}

// ---------------------------------------------------------------------------
// POST /v1/speech records
// ---------------------------------------------------------------------------

/** A synthesized script (POST /v1/speech): stored so its MP3 and SRT can be served. Created terminal. */
interface ScriptRecord extends Task<'success'> {
  lines: SpokenLine[];
  credits: number;
}

const scriptKit = new TaskKit<ScriptRecord>({ area: 'speech', idPrefix: 'sp', noun: 'speech', terminal: ['success'], failStatus: 'success' });

const scriptMedia = (id: string, ext: string) => `/media/speech/${id}.${ext}`;

// ---------------------------------------------------------------------------
// Flow-speech episodes
// ---------------------------------------------------------------------------

/** A stored flow-speech episode: what its GET shows (media as paths) and what renders its media. */
export interface EpisodeRecord extends Task<EpisodeStatus> {
  /** narration: one voice reading a text or a page; script: multi-voice, verbatim. */
  kind: 'narration' | 'script';
  language: FlowSpeechLanguage;
  lines: SpokenLine[];
  title: string;
  outline: string;
  credits: number;
  completedTime?: number;
  failCode?: number;
}

const episodeKit = new TaskKit<EpisodeRecord>(
  { area: 'flow-speech', idPrefix: 'fs', noun: 'episode', terminal: ['success', 'fail'], failStatus: 'fail' },
  {
    onEnter(_engine, r, status, at) {
      if (status === 'success') r.completedTime = at;
    },
    onFail(_engine, r, reason, _refunded, at) {
      r.completedTime = at;
      r.failCode = Object.hasOwn(errorCatalog, reason) ? errorCatalog[reason as ErrorName].code : errorCatalog.SPEECH_GENERATION_FAILED.code;
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

/** Sentences of `text` (ends at . ! ? 。 ！ ？). */
export function sentences(text: string): string[] {
  return (text.match(/[^.!?。！？]+[.!?。！？]*/g) ?? []).map((s) => s.trim()).filter((s) => s !== '');
}

/** A title: the first sentence, at most 60 characters (cut at a word when it can be). */
export function titleOf(text: string): string {
  const first = (sentences(text)[0] ?? text).replace(/[.!?。！？]+$/, '').trim();
  if (charCount(first) <= 60) return first;
  const cut = [...first].slice(0, 60).join('');
  const space = cut.lastIndexOf(' ');
  return `${space > 20 ? cut.slice(0, space) : cut}…`;
}

/** An outline: one numbered line per sentence, at most five. */
function outlineOf(text: string): string {
  return sentences(text)
    .slice(0, 5)
    .map((s, i) => `${i + 1}. ${s}`)
    .join('\n');
}

const zhSentences = [
  '模拟服务器让前端团队在后端完成之前就能开始工作。',
  '这个页面介绍了一个新的想法。',
  '作者解释了它为什么重要。',
  '最后，文章总结了三个要点。',
];
const jaSentences = [
  'モックサーバーはバックエンドより先にフロントエンドの開発を進めます。',
  'この記事は新しい考え方を紹介します。',
  '筆者はその重要性を説明します。',
  '最後に三つの要点をまとめます。',
];

/** The deterministic fake article a url source narrates (the mock reads no page): a title from the URL's path and eight sentences (English: faker's hacker phrases; zh, ja: a small bank). */
export function fakeArticle(seed: number, url: string, language: FlowSpeechLanguage): string {
  return fake(seed, ['flow-speech-page', url], (f) => {
    const slug = (() => {
      try {
        return new URL(url).pathname.split('/').filter(Boolean).pop() ?? '';
      } catch {
        return '';
      }
    })();
    const words = decodeURIComponent(slug.replace(/%(?![0-9a-f]{2})/gi, ''))
      .replace(/\.[a-z0-9]+$/i, '')
      .split(/[-_+\s]+/)
      .filter((w) => /^[\p{L}\p{N}]+$/u.test(w));
    const heading = words.length > 0 ? words.join(' ') : f.lorem.words(4);
    if (language === 'zh') return `${heading}。${f.helpers.shuffle([...zhSentences]).join('')}`;
    if (language === 'ja') return `${heading}。${f.helpers.shuffle([...jaSentences]).join('')}`;
    const title = heading.charAt(0).toUpperCase() + heading.slice(1);
    return `${title}. ${Array.from({ length: 8 }, () => f.hacker.phrase()).join(' ')}`;
  });
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
function createEpisode(ctx: ServiceContext, kind: EpisodeRecord['kind'], language: FlowSpeechLanguage, lines: SpokenLine[]): { episodeId: string } {
  const { engine, account, now, forcing } = ctx;
  const narrated = lines.map((l) => l.text).join('\n');
  const credits = speechCredits(lines.reduce((n, l) => n + charCount(l.text), 0));
  const id = episodeKit.nextId(ctx);
  episodeKit.reserve(ctx, id, credits, 'SPEECH_INSUFFICIENT_CREDITS', `flow-speech ${kind} ${charCount(narrated)} characters`);
  const r = episodeKit.add(engine, {
    id,
    owner: account.apiKey,
    status: 'pending',
    createdAt: now,
    updatedAt: now,
    kind,
    language,
    lines,
    title: titleOf(narrated),
    outline: outlineOf(narrated),
    credits,
  });
  const afterMs = flowSpeechProcessingMs(durationOf(lines));
  // The router has checked forcing.error against the operation's failureReasons.
  const failWith = forcing.outcome === 'failed' ? (forcing.error ?? operations.createFlowSpeechEpisode.failureReasons[0]) : undefined;
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

/** What the media of an episode are made of: its id (names the cover), its owner (the API key its audio belongs to) and its spoken lines. */
export interface EpisodeAudio {
  id: string;
  owner: string;
  lines: readonly SpokenLine[];
}

/**
 * The media routes of a narrated episode under `base` (`/media/flow-speech`,
 * `/media/podcast`): `{episodeId}/audio.mp3` (the lines' MP3), `audio.m3u8`
 * and `segments/{n}.aac` (HLS of the same audio), `subtitles.srt` (sentence
 * cues timed to the lines) while `audio` finds the episode ready; `cover.png`
 * (a square PNG, colours from the seed and the id) while `cover` does.
 */
export function episodeMediaRoutes(
  base: string,
  find: { audio: (engine: Engine, id: string) => EpisodeAudio | undefined; cover: (engine: Engine, id: string) => { id: string } | undefined },
): MediaRoute[] {
  const at = (file: string) => `${base}/{episodeId}/${file}`;
  return [
    {
      path: at('audio.mp3'),
      resolve(engine, p) {
        const r = find.audio(engine, p.episodeId);
        return r ? { ...mp3Asset(r.lines), owner: r.owner } : undefined;
      },
    },
    {
      path: at('subtitles.srt'),
      resolve(engine, p) {
        const r = find.audio(engine, p.episodeId);
        return r ? srtAsset(r.id, r.lines, false) : undefined;
      },
    },
    {
      path: at('audio.m3u8'),
      resolve(engine, p) {
        const r = find.audio(engine, p.episodeId);
        if (!r) return undefined;
        const hls = linesHls(r.lines);
        return {
          contentType: mediaFileTypes.m3u8.contentType,
          key: `speech m3u8 ${linesKey(r.lines)}`,
          render: () => new TextEncoder().encode(hls.playlist((n) => `segments/${n}.${hls.segmentExtension}`)),
        };
      },
    },
    {
      path: at('segments/{n}.aac'),
      resolve(engine, p) {
        const r = find.audio(engine, p.episodeId);
        if (!r || !/^\d+$/.test(p.n)) return undefined;
        const hls = linesHls(r.lines);
        const n = Number(p.n);
        if (n >= hls.segmentCount) return undefined;
        return { contentType: hls.segmentContentType, key: `speech hls ${linesKey(r.lines)} ${n}`, owner: r.owner, render: () => hls.segment(n) };
      },
    },
    {
      path: at('cover.png'),
      resolve(engine, p) {
        const r = find.cover(engine, p.episodeId);
        if (!r) return undefined;
        const bg = colourFor(engine.seed, r.id, 'cover-bg');
        const fg = colourFor(engine.seed, r.id, 'cover-fg');
        return {
          contentType: mediaFileTypes.png.contentType,
          key: `png ${EPISODE_COVER_SIDE}x${EPISODE_COVER_SIDE} ${rgbHex(bg)}/${rgbHex(fg)}`,
          render: () => encodePng(EPISODE_COVER_SIDE, EPISODE_COVER_SIDE, bg, fg),
        };
      },
    },
  ];
}

// ---------------------------------------------------------------------------
// Handlers
// ---------------------------------------------------------------------------

/** POST /v1/tts and POST /v1/audio/speech: the audio, streamed. Errors: 35002 (voice), 35004 (credits). */
const tts: Handler<'synthesizeSpeech'> & Handler<'createSpeech'> = ({ body }: { body: TtsRequest }, ctx: ServiceContext) => {
  const voice = voiceOf(ctx, body.voice, 'voice');
  const chars = charCount(body.input);
  const id = ctx.engine.nextId('tts', ctx.account.apiKey, 'tts');
  chargeNow(ctx, id, speechCredits(chars), `tts ${chars} characters, ${body.response_format}`);
  const durationMs = speechDurationMs(body.input, body.speed);
  return { contentType: ttsContentType(body.response_format), body: streamAudio({ format: body.response_format, durationMs, variant: voice.variant }) };
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
  handlers: {
    synthesizeSpeech: tts,
    createSpeech: tts,

    createSpeechScript({ body }, ctx) {
      const { engine, account, now } = ctx;
      const lines = spokenLines(ctx, body.scripts, body.speed);
      const chars = lines.reduce((n, l) => n + charCount(l.text), 0);
      const credits = speechCredits(chars);
      const id = scriptKit.nextId(ctx);
      chargeNow(ctx, id, credits, `speech ${lines.length} lines, ${chars} characters`);
      scriptKit.add(engine, { id, owner: account.apiKey, status: 'success', createdAt: now, updatedAt: now, lines, credits });
      return {
        audioUrl: ctx.url(scriptMedia(id, audioFileTypes.mp3.extension)),
        audioDuration: durationOf(lines),
        subtitlesUrl: ctx.url(scriptMedia(id, mediaFileTypes.srt.extension)),
        taskId: id,
        credits,
      };
    },

    createFlowSpeechEpisode({ body }: { body: FlowSpeechRequest }, ctx) {
      const source = body.sources[0];
      const voice = voiceOf(ctx, body.speakers[0].speakerId, 'speakers[0].speakerId');
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
      const lines: SpokenLine[] = [{ speakerId: voice.speakerId, variant: voice.variant, text, frames: lineFrames(text, body.speed) }];
      return createEpisode(ctx, 'narration', language, lines);
    },

    createFlowSpeechTtsEpisode({ body }, ctx) {
      const lines = spokenLines(ctx, body.scripts, body.speed);
      return createEpisode(ctx, 'script', body.language ?? inferLanguage(lines.map((l) => l.text).join(' ')), lines);
    },

    getFlowSpeechEpisode({ params }, ctx) {
      return presentEpisode(episodeKit.own(ctx, params.episodeId, { notFound: 'SPEECH_EPISODE_NOT_FOUND', field: 'episodeId' }), ctx);
    },

    listSpeakers({ query }, ctx) {
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
    },
  },

  media: [
    {
      path: '/media/speakers/{speakerId}/demo.mp3',
      resolve(_engine, p) {
        const v = builtInById.get(p.speakerId);
        if (!v) return undefined;
        return {
          contentType: audioFileTypes.mp3.contentType,
          key: `speaker demo ${v.variant}`,
          render: () => renderAudio({ format: 'mp3', durationMs: SPEAKER_DEMO_MS, variant: v.variant }),
        };
      },
    },
    {
      path: scriptMedia('{taskId}', audioFileTypes.mp3.extension),
      resolve(engine, p) {
        const r = scriptKit.find(engine, p.taskId);
        return r ? { ...mp3Asset(r.lines), owner: r.owner } : undefined;
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
