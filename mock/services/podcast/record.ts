/**
 * The podcast episode record and its task kit (with the stage timeout and
 * the audio render), and what of a written episode the clock has revealed.
 * Standard JavaScript only.
 */
import { errorCatalog, type ErrorName } from '../../../schemas/errors.ts';
import { z } from 'zod';
import { contentStatuses, podcastModes } from '../../../schemas/podcast.ts';
import { episodeStatuses } from '../../../schemas/speech.ts';
import { type SpokenLine } from '../narration.ts';
import { objectOf, TaskKit, taskRecordSchema } from '../tasks.ts';

// ---------------------------------------------------------------------------
// The record
// ---------------------------------------------------------------------------

/** A speaker slot of an episode: the voice, its name and its timbre in the audio. */
const Slot = z.strictObject({ speakerId: z.string(), speakerName: z.string(), variant: z.number().int() });

/**
 * A stored podcast episode, as saved (checked before a saved state is loaded): everything it will show, with the
 * virtual time each piece appears. Plain data. `language`: the one asked for (or inferred; the script is written in
 * `podcastWritingLanguage` of it). `lines`: the script, each line's speaker slot and words (the edited words after an
 * audio call with scripts). `sourcesAt`, `outlineAt`, `linesAt`: when the sources are read, each outline item and each
 * line is written, epoch ms (virtual). `haltAt`: text written at or after it never appears (a forced failure or stall
 * of the text stage). `stage`: 1 while the text stage (and a one-shot episode's audio) runs; 2, 3, ... for each audio
 * call. `audioCredits`: of the audio being rendered, or last rendered; `charged`: captured so far. `rendering`: the
 * lines being rendered (set when the audio stage starts); `audio`: the lines of the rendered audio (set on success).
 */
export const podcastRecordSchema = taskRecordSchema(episodeStatuses, {
  flow: z.enum(['one-shot', 'two-stage']),
  mode: z.enum(podcastModes),
  language: z.string(),
  speed: z.number(),
  slots: z.array(Slot),
  title: z.string(),
  outline: z.array(z.string()),
  source: z.strictObject({ content: z.string(), references: z.array(z.strictObject({ title: z.string(), url: z.string() })) }),
  lines: z.array(z.strictObject({ slot: z.number().int(), content: z.string() })),
  sourcesAt: z.number(),
  outlineAt: z.array(z.number()),
  linesAt: z.array(z.number()),
  haltAt: z.number().optional(),
  stage: z.number().int().min(1),
  scriptCredits: z.number(),
  audioCredits: z.number(),
  charged: z.number(),
  contentStatus: z.enum(contentStatuses).optional(),
  failCode: z.number(),
  failReason: z.string().optional(),
  completedTime: z.number().optional(),
  rendering: z.array(objectOf<SpokenLine>()).optional(),
  audio: z.array(objectOf<SpokenLine>()).optional(),
});
export type PodcastRecord = z.infer<typeof podcastRecordSchema>;

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
