/**
 * Voices (document 2, "Speakers"): the built-in catalogue and the voices the
 * composed services add to the `voiceSources` slot (the voice-cloning area
 * contributes its confirmed voices). Every area that speaks (speech, generated audio, podcasts,
 * page decks) finds a caller's voice here, without knowing which area added
 * it. A voice's `variant` is its timbre in rendered audio.
 * Standard JavaScript only.
 */
import type { ErrorName } from '../../schemas/errors.ts';
import { AUDIO_TIMBRES, audioFileTypes } from '../../schemas/media.ts';
import { builtInSpeakers, type BuiltInSpeaker } from '../../schemas/speech.ts';
import { createSlot, type Engine } from '../engine/engine.ts';
import type { ServiceContext } from './context.ts';

/** A voice a caller may use: a built-in one, or one a voice source adds (a cloned voice). */
export interface Voice extends Omit<BuiltInSpeaker, 'language'> {
  language: BuiltInSpeaker['language'];
  type: 'built-in' | 'cloned';
  /** Path of its demo clip under /media/. */
  demoPath: string;
}

/** Voices of the account `owner` beyond the built-in ones (the voice-cloning area adds its confirmed voices). */
export type VoiceSource = (engine: Engine, owner: string) => readonly Voice[];

/** The voice sources of the services composed onto an engine (set by `prepareEngine`). */
export const voiceSources = createSlot<VoiceSource[]>('voice sources', () => []);

/** The voice sources of the services composed onto `engine` (set by `prepareEngine`). */
export function voiceSourcesOf(engine: Engine): VoiceSource[] {
  return engine.slot(voiceSources);
}

const demoPath = (speakerId: string) => `/media/speakers/${encodeURIComponent(speakerId)}/demo.${audioFileTypes.mp3.extension}`;
export const builtInVoices: readonly Voice[] = builtInSpeakers.map((s) => ({ ...s, type: 'built-in' as const, demoPath: demoPath(s.speakerId) }));
export const builtInById = new Map(builtInVoices.map((v) => [v.speakerId, v]));

/** Every voice `owner` may use: the built-in ones, then the sources'. */
export function voicesOf(engine: Engine, owner: string): Voice[] {
  return [...builtInVoices, ...voiceSourcesOf(engine).flatMap((src) => src(engine, owner))];
}

/** The caller's voice `id`. Errors: `notFound` (the caller's area's: SPEECH_SPEAKER_NOT_FOUND, PODCAST_SPEAKER_NOT_FOUND...) naming `field` and the id. */
export function voiceOf<E extends ErrorName>(ctx: ServiceContext<E>, id: string, field: string, notFound: E): Voice {
  const hit = builtInById.get(id) ?? voicesOf(ctx.engine, ctx.account.apiKey).find((v) => v.speakerId === id);
  if (hit) return hit;
  const some = builtInVoices
    .slice(0, 4)
    .map((v) => v.speakerId)
    .join(', ');
  throw ctx.fail(notFound, `${field}: no voice ${JSON.stringify(id)} for this account; GET /v1/speakers/list lists the ids it may use (for example ${some})`);
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
