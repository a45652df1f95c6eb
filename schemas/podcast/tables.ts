/**
 * Podcast tables (schemas/podcast.ts re-exports them): modes, speakers,
 * languages, content statuses, size limits, the modes' plans, the audio
 * schedule and price. Seed: document 2, "Podcast", "Limits"; what it does not
 * give is assumed (`podcastTableAssumptions`).
 */
import { z } from '../zod.ts';
import { assumed, provenanceMeta } from '../provenance.ts';
import { flowSpeechLanguages, SPEECH_MAX_CHARS, speechPricing } from '../speech.ts';

// ---------------------------------------------------------------------------
// Tables
// ---------------------------------------------------------------------------

/** Podcast modes (document 2, "Podcast"): quick (default, fast), deep (research style), debate (exactly 2 speakers, opposing positions). */
export const podcastModes = ['quick', 'deep', 'debate'] as const;
export type PodcastMode = (typeof podcastModes)[number];

/** Speakers of an episode (document 2: 1 to 2; debate exactly 2). */
export const PODCAST_SPEAKERS = { min: 1, max: 2, debate: 2 } as const;

/** Languages scripts are written in (document 2 gives "for example en, zh, ja"); another language is accepted and written in English (assumed). */
export const podcastLanguages = flowSpeechLanguages;
export type PodcastLanguage = (typeof podcastLanguages)[number];

/** The language a script is written in: `language` when it is one of `podcastLanguages`, else en. */
export function podcastWritingLanguage(language: string): PodcastLanguage {
  return (podcastLanguages as readonly string[]).includes(language) ? (language as PodcastLanguage) : 'en';
}

/** A language code of a request: an open list (document 2: "for example en, zh, ja"). */
export const LanguageCode = (description: string) =>
  z
    .string()
    .min(2)
    .max(35)
    .regex(/^[A-Za-z0-9-]+$/, { message: 'a language code: letters, digits and hyphens (for example en, zh, ja)' })
    .meta({
      ...provenanceMeta(
        assumed(
          'document 2 gives the languages "for example en, zh, ja"; a language outside those is accepted (its script written in English); 35 characters bound a language tag',
        ),
        description,
      ),
      examples: [...podcastLanguages],
    });

/** contentStatus of a two-stage episode (document 2, "Podcast episode"); absent on one-shot episodes. */
export const contentStatuses = ['text-success', 'text-fail', 'audio-success', 'audio-fail'] as const;
export type ContentStatus = (typeof contentStatuses)[number];

/** Size limits of the request (assumed: document 2 says the size limits for query and sources are not shown). */
export const podcastLimits = { queryChars: 2_000, sources: 5, textSourceChars: SPEECH_MAX_CHARS } as const;

/**
 * How each mode writes an episode (assumed: document 2 gives only "typical
 * duration 1-4 minutes"): the lines of its script, the virtual ms it spends
 * reading the sources, per outline item and per script line, and the flat
 * credits of writing it.
 */
export const podcastModePlans = {
  quick: { lines: 8, outlineItems: 4, sourcesMs: 20_000, outlineItemMs: 2_000, lineMs: 5_000, scriptCredits: 5 },
  deep: { lines: 12, outlineItems: 6, sourcesMs: 45_000, outlineItemMs: 3_000, lineMs: 7_000, scriptCredits: 15 },
  debate: { lines: 10, outlineItems: 5, sourcesMs: 25_000, outlineItemMs: 2_000, lineMs: 6_000, scriptCredits: 10 },
} as const satisfies Record<
  PodcastMode,
  { lines: number; outlineItems: number; sourcesMs: number; outlineItemMs: number; lineMs: number; scriptCredits: number }
>;

/**
 * The audio stage (assumed): rendering takes `msPerAudioSecond` virtual ms per
 * second of audio, at least `minMs`; a stage still pending `timeoutMs` after it
 * started fails with failCode 37011.
 */
export const podcastAudioSchedule = { msPerAudioSecond: 300, minMs: 5_000, timeoutMs: 30 * 60_000 } as const;

/** Virtual ms the audio stage takes for `audioMs` of audio. */
export function podcastRenderMs(audioMs: number): number {
  return Math.max(podcastAudioSchedule.minMs, Math.round((audioMs / 1000) * podcastAudioSchedule.msPerAudioSecond));
}

/**
 * Price of an episode (assumed: document 2 says credits depend on mode and
 * length): the mode's flat `scriptCredits` for writing the script, plus the
 * speech price of its audio (1 credit per 100 characters spoken, rounded up,
 * at least 1).
 */
export function podcastAudioCredits(scriptChars: number): number {
  return Math.max(speechPricing.minCredits, Math.ceil(scriptChars / speechPricing.charsPerCredit));
}
