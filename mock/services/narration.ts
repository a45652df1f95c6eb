/**
 * Narration (document 2, speech sections; document 3, "Page-deck episode"):
 * spoken lines rendered from a few numbers (each line's duration from a
 * speaking-rate model, that many 24 ms MP3 frames of its voice's variant),
 * their MP3, SRT cues and HLS rendition, the media routes of a narrated
 * episode, and the text helpers (sentences, titles, the fake article a URL
 * source narrates). Shared by speech, podcasts, page decks and extraction.
 * Standard JavaScript only.
 */
import { audioFileTypes, mediaFileTypes } from '../../schemas/media.ts';
import { charCount, EPISODE_COVER_SIDE, speechDurationMs, type FlowSpeechLanguage } from '../../schemas/speech.ts';
import type { Engine } from '../engine/engine.ts';
import { audioFrameCount, audioFrames, audioFrameSamples, mp3FrameOffsets } from '../media/audio.ts';
import { concatBytes } from '../media/bytes.ts';
import { labelKey, promptStart } from '../media/label-text.ts';
import { colourFor, rgbHex } from '../media/colour.ts';
import { hlsAudio, hlsMp3, labelledImage } from '../media/renderers.ts';
import { cuesForText, renderSrt, type Cue } from '../media/srt.ts';
import type { MediaAsset, MediaRoute, ServiceContext } from './context.ts';
import { fake } from './fake.ts';
import { cutText } from '../../schemas/text.ts';
import { distinctVariants, voiceOf, type Voice } from './voices.ts';
import { hash32 } from '../engine/rng.ts';
import { voiceKey } from '../media/speech.ts';
import { pieceTimes, speakText, speechSynthOf, spokenFrames, spokenMp3, type LineSpeech } from './spoken.ts';

/** Length of one MP3 frame, ms (576 samples at 24 kHz: exactly 24 ms). */
export const MP3_FRAME_MS = (audioFrameSamples.mp3 * 1000) / 24_000;

/** One line of rendered speech: its words, its voice's variant, and its MP3 frames. */
export interface SpokenLine {
  speakerId: string;
  variant: number;
  text: string;
  frames: number;
  /** Present when the line was spoken in words by the world's speech engine: its sentences and their lengths (mock/services/spoken.ts). */
  speech?: LineSpeech;
}

/** A line's MP3 frames: `speechDurationMs` to the nearest 24 ms frame (at least 5). */
export function lineFrames(text: string, speed: number): number {
  return audioFrameCount('mp3', speechDurationMs(text, speed));
}

/**
 * The lines of a script, each with its speaker's voice (errors: SPEECH_SPEAKER_NOT_FOUND naming `scripts[i].speakerId`);
 * distinct speakers get distinct variants (`distinctVariants`).
 */
export function spokenLines(
  ctx: ServiceContext<'SPEECH_SPEAKER_NOT_FOUND'>,
  scripts: { speakerId: string; content: string }[],
  speed: number,
  field = 'scripts',
): SpokenLine[] {
  const voices = scripts.map((line, i) => voiceOf(ctx, line.speakerId, `${field}[${i}].speakerId`, 'SPEECH_SPEAKER_NOT_FOUND'));
  const variantOf = distinctVariants(voices);
  return scripts.map((line, i) => ({
    speakerId: voices[i].speakerId,
    variant: variantOf.get(voices[i].speakerId)!,
    text: line.content,
    frames: lineFrames(line.content, speed),
  }));
}

/**
 * `lines` spoken in words when the world has a speech engine: each line
 * rendered in its speaker's voice (`who(i)`: language and gender), its frames
 * then the rendered length; without an engine (or for a line it fails on),
 * the line as it was (the speaking-rate model, tones).
 */
export async function speakLines(
  engine: Engine,
  lines: readonly SpokenLine[],
  who: (i: number) => Pick<Voice, 'language' | 'gender'>,
  speed: number,
): Promise<SpokenLine[]> {
  if (!speechSynthOf(engine)) return [...lines];
  return Promise.all(
    lines.map(async (l, i) => {
      const speech = await speakText(engine, l.text, { speakerId: l.speakerId, timbre: l.variant, ...who(i) }, speed);
      return speech ? { ...l, speech, frames: spokenFrames(speech) } : l;
    }),
  );
}

/** Total duration of `lines`, ms (whole MP3 frames of 24 ms: an integer). */
export const durationOf = (lines: readonly SpokenLine[]) => lines.reduce((n, l) => n + l.frames, 0) * MP3_FRAME_MS;

/** True when `l` is spoken in words by `engine`'s speech engine (the one that measured it). */
const spokenBy = (engine: Engine, l: SpokenLine): l is SpokenLine & { speech: LineSpeech } =>
  l.speech !== undefined && speechSynthOf(engine)?.id === l.speech.synth;

/** The MP3 of `lines`: each line's frames back to back, a spoken line encoded from its words (exactly its frames), any other its variant's tones. */
export async function linesMp3(engine: Engine, lines: readonly SpokenLine[]): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for (const l of lines) parts.push(spokenBy(engine, l) ? await spokenMp3(engine, l.speech, l.frames) : audioFrames('mp3', l.variant, 0, l.frames));
  return concatBytes(parts);
}

/** MP3 frames `from` (inclusive) to `to` (exclusive) of the MP3 of `lines` (`linesMp3`), encoding only the spoken lines they cut. */
async function linesMp3Frames(engine: Engine, lines: readonly SpokenLine[], from: number, to: number): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let start = 0;
  for (const l of lines) {
    const a = Math.max(from, start) - start;
    const b = Math.min(to, start + l.frames) - start;
    if (a < b) {
      if (spokenBy(engine, l)) {
        const bytes = await spokenMp3(engine, l.speech, l.frames);
        const offsets = mp3FrameOffsets(bytes);
        parts.push(bytes.subarray(offsets[a], offsets[b]));
      } else parts.push(audioFrames('mp3', l.variant, a, b));
    }
    start += l.frames;
  }
  return concatBytes(parts);
}

/** Cues of `lines` over their audio: one per line (`perLine`), or each line cut into sentence cues within its time. */
export function linesCues(lines: readonly SpokenLine[], perLine: boolean): Cue[] {
  const cues: Cue[] = [];
  let startMs = 0;
  for (const l of lines) {
    const ms = l.frames * MP3_FRAME_MS;
    if (perLine) cues.push({ startMs, endMs: startMs + ms, text: l.text.replace(/\s+/g, ' ').trim() || '…' });
    else if (l.speech) for (const c of pieceTimes(l.speech, ms)) cues.push({ startMs: startMs + c.startMs, endMs: startMs + c.endMs, text: c.text });
    else for (const c of cuesForText(l.text, ms)) cues.push({ startMs: startMs + c.startMs, endMs: startMs + c.endMs, text: c.text });
    startMs += ms;
  }
  return cues;
}

/** What names the audio of `lines`: each line's variant and frames, and for a spoken line its engine, voice and a hash of its words. */
export const linesKey = (lines: readonly SpokenLine[]) =>
  lines.map((l) => `${l.variant}x${l.frames}${l.speech ? ` ${l.speech.synth} ${voiceKey(l.speech.voice)} ${hash32(l.text).toString(36)}` : ''}`).join(',');

/**
 * The HLS rendition of `lines`: the same audio, each line in its voice. When
 * `engine` speaks any of them in words, packed MP3 whose segments are the
 * episode MP3's own frames (the words, `linesMp3` cut at frame boundaries);
 * otherwise packed AAC of the lines' tones.
 */
export function linesHls(engine: Engine, lines: readonly SpokenLine[]) {
  if (lines.some((l) => spokenBy(engine, l)))
    return hlsMp3(
      lines.reduce((n, l) => n + l.frames, 0),
      (from, to) => linesMp3Frames(engine, lines, from, to),
    );
  let startMs = 0;
  const voices = lines.map((l) => {
    const v = { startMs, variant: l.variant };
    startMs += l.frames * MP3_FRAME_MS;
    return v;
  });
  return hlsAudio(durationOf(lines), lines[0].variant, { voices });
}

/** A hosted MP3 of `lines` on `engine` (its speech engine speaks them), named by its frames, variants and words. */
export function mp3Asset(engine: Engine, lines: readonly SpokenLine[]): MediaAsset {
  return {
    contentType: audioFileTypes.mp3.contentType,
    key: `speech mp3 ${linesKey(lines)}`,
    render: () => linesMp3(engine, lines),
  };
}

/** A hosted SRT of `lines` (named by the task: its text is the task's). */
export function srtAsset(id: string, lines: readonly SpokenLine[], perLine: boolean): MediaAsset {
  return {
    contentType: mediaFileTypes.srt.contentType,
    key: `speech srt ${id} ${perLine ? 'lines' : 'sentences'}`,
    render: () => new TextEncoder().encode(renderSrt(linesCues(lines, perLine))),
  };
}

/** Sentences of `text` (ends at . ! ? 。 ！ ？). */
export function sentences(text: string): string[] {
  return (text.match(/[^.!?。！？]+[.!?。！？]*/g) ?? []).map((s) => s.trim()).filter((s) => s !== '');
}

/** A title: the first sentence, at most 60 characters (cut at a word when it can be). */
export function titleOf(text: string): string {
  const first = (sentences(text)[0] ?? text).replace(/[.!?。！？]+$/, '').trim();
  if (charCount(first) <= 60) return first;
  const cut = cutText(first, 60);
  const space = cut.lastIndexOf(' ');
  return `${space > 20 ? cut.slice(0, space) : cut}…`;
}

/** An outline: one numbered line per sentence, at most five. */
export function outlineOf(text: string): string {
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

/** What the media of an episode are made of: its id (names the cover), its owner (the API key its audio belongs to) and its spoken lines. */
export interface EpisodeAudio {
  id: string;
  owner: string;
  lines: readonly SpokenLine[];
}

/**
 * The media routes of a narrated episode under `base` (`/media/flow-speech`,
 * `/media/podcast`): `{episodeId}/audio.mp3` (the lines' MP3), `audio.m3u8`
 * and `segments/{n}.aac` or, spoken in words, `segments/{n}.mp3` (HLS of the
 * same audio), `subtitles.srt` (sentence
 * cues timed to the lines) while `audio` finds the episode ready; `cover.png`
 * (a square PNG, colours from the seed and the id) while `cover` does.
 */
export function episodeMediaRoutes(
  base: string,
  find: { audio: (engine: Engine, id: string) => EpisodeAudio | undefined; cover: (engine: Engine, id: string) => { id: string; title?: string } | undefined },
): MediaRoute[] {
  const at = (file: string) => `${base}/{episodeId}/${file}`;
  return [
    {
      path: at('audio.mp3'),
      resolve(engine, p) {
        const r = find.audio(engine, p.episodeId);
        return r ? { ...mp3Asset(engine, r.lines), owner: r.owner } : undefined;
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
        const hls = linesHls(engine, r.lines);
        return {
          contentType: mediaFileTypes.m3u8.contentType,
          key: `speech m3u8 ${hls.segmentExtension} ${linesKey(r.lines)}`,
          render: () => new TextEncoder().encode(hls.playlist((n) => `segments/${n}.${hls.segmentExtension}`)),
        };
      },
    },
    // packed AAC (tones) or packed MP3 (words): each route answers the segments of its own kind
    ...(['aac', 'mp3'] as const).map((ext): MediaRoute => ({
      path: at(`segments/{n}.${ext}`),
      resolve(engine, p) {
        const r = find.audio(engine, p.episodeId);
        if (!r || !/^\d+$/.test(p.n)) return undefined;
        const hls = linesHls(engine, r.lines);
        const n = Number(p.n);
        if (hls.segmentExtension !== ext || n >= hls.segmentCount) return undefined;
        return { contentType: hls.segmentContentType, key: `speech hls ${ext} ${linesKey(r.lines)} ${n}`, owner: r.owner, render: () => hls.segment(n) };
      },
    })),
    {
      path: at('cover.png'),
      resolve(engine, p) {
        const r = find.cover(engine, p.episodeId);
        if (!r) return undefined;
        const bg = colourFor(engine.seed, r.id, 'cover-bg');
        const fg = colourFor(engine.seed, r.id, 'cover-fg');
        const label = { prompt: promptStart(r.title), model: 'cover', id: r.id };
        return {
          contentType: mediaFileTypes.png.contentType,
          key: `png ${EPISODE_COVER_SIDE}x${EPISODE_COVER_SIDE} ${rgbHex(bg)}/${rgbHex(fg)} ${labelKey(label)}`,
          render: () => labelledImage(EPISODE_COVER_SIDE, EPISODE_COVER_SIDE, bg, fg, label),
        };
      },
    },
  ];
}
