/**
 * The podcast episode record and its task kit (with the stage timeout and
 * the audio render), and what of a written episode the clock has revealed.
 * Standard JavaScript only.
 */
import { errorCatalog, type ErrorName } from '../../../schemas/errors.ts';
import { type ContentStatus, type PodcastMode } from '../../../schemas/podcast.ts';
import { type EpisodeStatus } from '../../../schemas/speech.ts';
import { type SpokenLine } from '../narration.ts';
import { TaskKit, type Task } from '../tasks.ts';

// ---------------------------------------------------------------------------
// The record
// ---------------------------------------------------------------------------

/** A speaker slot of an episode: the voice, its name and its timbre in the audio. */
interface Slot {
  speakerId: string;
  speakerName: string;
  variant: number;
}

/** A stored podcast episode: everything it will show, with the virtual time each piece appears. Plain data. */
export interface PodcastRecord extends Task<EpisodeStatus> {
  flow: 'one-shot' | 'two-stage';
  mode: PodcastMode;
  /** The language asked for (or inferred); the script is written in `podcastWritingLanguage` of it. */
  language: string;
  speed: number;
  slots: Slot[];
  title: string;
  outline: string[];
  source: { content: string; references: { title: string; url: string }[] };
  /** The script: each line's speaker slot and words (the edited words after an audio call with scripts). */
  lines: { slot: number; content: string }[];
  /** When the sources are read, each outline item and each line is written, epoch ms (virtual). */
  sourcesAt: number;
  outlineAt: number[];
  linesAt: number[];
  /** Text written at or after this time never appears (a forced failure or stall of the text stage). */
  haltAt?: number;
  /** 1 while the text stage (and a one-shot episode's audio) runs; 2, 3, ... for each audio call. */
  stage: number;
  scriptCredits: number;
  /** Credits of the audio being rendered, or last rendered. */
  audioCredits: number;
  /** Credits captured so far. */
  charged: number;
  contentStatus?: ContentStatus;
  failCode: number;
  failReason?: string;
  completedTime?: number;
  /** The lines being rendered (set when the audio stage starts). */
  rendering?: SpokenLine[];
  /** The lines of the rendered audio (set on success). */
  audio?: SpokenLine[];
}

/** The time the whole script is written. */
export const textAt = (r: PodcastRecord) => r.linesAt[r.linesAt.length - 1];

/** True when the piece due at `at` has appeared by `now` (and the text was not halted first). */
export const shown = (r: PodcastRecord, at: number, now: number) => at <= now && at < (r.haltAt ?? Number.POSITIVE_INFINITY);

/** How many of `times` have appeared by `now`. */
export const countShown = (r: PodcastRecord, times: readonly number[], now: number) => times.filter((t) => shown(r, t, now)).length;

export const kit: TaskKit<PodcastRecord> = new TaskKit<PodcastRecord>(
  { area: 'podcast', idPrefix: 'pe', noun: 'episode', terminal: ['success', 'fail'], failStatus: 'fail' },
  {
    onEnter(_engine, r, status, at) {
      if (status !== 'success') return;
      r.completedTime = at;
      r.failCode = 0;
      if (r.flow === 'two-stage' && r.stage === 1) {
        r.contentStatus = 'text-success';
        r.charged += r.scriptCredits;
        return;
      }
      r.audio = r.rendering;
      r.rendering = undefined;
      r.charged += r.flow === 'one-shot' ? r.scriptCredits + r.audioCredits : r.audioCredits;
      if (r.flow === 'two-stage') r.contentStatus = 'audio-success';
    },
    onFail(_engine, r, reason, _refunded, at) {
      r.completedTime = at;
      r.failReason = reason;
      r.failCode = Object.hasOwn(errorCatalog, reason) ? errorCatalog[reason as ErrorName].code : errorCatalog.PODCAST_GENERATION_FAILED.code;
      r.rendering = undefined;
      if (r.stage === 1) {
        r.haltAt = Math.min(r.haltAt ?? at, at);
        if (r.flow === 'two-stage') r.contentStatus = 'text-fail';
      } else r.contentStatus = 'audio-fail';
    },
    onAction(engine, r, action, at) {
      // `timeout:<stage>`: the stage that scheduled it is still pending
      if (action === `timeout:${r.stage}` && r.status === 'pending') kit.fail(engine, r, at, 'PODCAST_TIMED_OUT');
    },
  },
);

export const mediaBase = '/media/podcast';
export const mediaOf = (id: string, file: string) => `${mediaBase}/${id}/${file}`;
