/**
 * The lyrics and music providers and their models: which provider a request
 * value runs on, the musicA models and their credits, the musicB tiers, the
 * stem-separation models and the extend prices. Pure data and small
 * functions (no Zod), shared by the lyrics area and, later, music generation.
 *
 * Seed: document 3, "Providers and models (lyrics and music)". Nothing here is
 * assumed.
 */
import { fromSeed, type Provenance } from './provenance.ts';

/** Where every table of this file comes from. */
export const musicProvidersProvenance: Provenance = fromSeed(3, 'Providers and models (lyrics and music)');

/** The providers that actually run a task (document 3: "musicA and musicB are the two music providers"). */
export const musicProviders = ['musicA', 'musicB'] as const;
export type MusicProvider = (typeof musicProviders)[number];

/**
 * The values a request's `provider` takes (document 3, "Providers and models (lyrics and music)"):
 * default, musicA, musicB. `default` resolves to musicA.
 */
export const providerValues = ['default', 'musicA', 'musicB'] as const;
export type ProviderValue = (typeof providerValues)[number];

/** The provider each request value runs on (document 3: "default (resolves to musicA)"). */
export const providerTable: Readonly<Record<ProviderValue, MusicProvider>> = { default: 'musicA', musicA: 'musicA', musicB: 'musicB' };

/**
 * The provider that runs a request sent with `provider` (absent: `default`).
 * A task reports this value, never `default` (document 3: "The task always
 * reports the provider that actually ran it").
 */
export function resolveProvider(provider: ProviderValue = 'default'): MusicProvider {
  return providerTable[provider];
}

/** One musicA model: its credits per generation and the endpoints it is not available on. */
export interface MusicAModel {
  model: string;
  credits: number;
  /** Endpoints (by their last path segment) the model cannot run. */
  notFor?: readonly string[];
}

/**
 * musicA models and credits for /generate and /instrumental (document 3,
 * "Providers and models (lyrics and music)"); /cover is musicB only. `auto`
 * is musicA's default; musicA-9 is not available for /instrumental.
 */
export const musicAModels = [
  { model: 'auto', credits: 10 },
  { model: 'musicA-7.6', credits: 5 },
  { model: 'musicA-8', credits: 10 },
  { model: 'musicA-9', credits: 10, notFor: ['instrumental'] },
  { model: 'musicA-o2', credits: 10 },
] as const satisfies readonly MusicAModel[];
export type MusicAModelId = (typeof musicAModels)[number]['model'];
/** musicA's model when a request names none (document 3: "auto ... default for musicA"). */
export const MUSIC_A_DEFAULT_MODEL: MusicAModelId = 'auto';

/**
 * musicB model tiers and their credits (document 3, "Providers and models (lyrics and music)"):
 * V4, V4_5, V4_5PLUS, V4_5ALL and V5 cost 15; V5_5 and V6 cost 20.
 */
export const musicBModels = [
  { model: 'V4', credits: 15 },
  { model: 'V4_5', credits: 15 },
  { model: 'V4_5PLUS', credits: 15 },
  { model: 'V4_5ALL', credits: 15 },
  { model: 'V5', credits: 15 },
  { model: 'V5_5', credits: 20 },
  { model: 'V6', credits: 20 },
] as const;
export type MusicBModelId = (typeof musicBModels)[number]['model'];
/** musicB's tier when a request names none (document 3: "A musicB request without model runs on V6"). */
export const MUSIC_B_DEFAULT_MODEL: MusicBModelId = 'V6';

/** The default model of each provider (document 3, "Providers and models (lyrics and music)"). */
export const defaultModelOf: Readonly<Record<MusicProvider, string>> = { musicA: MUSIC_A_DEFAULT_MODEL, musicB: MUSIC_B_DEFAULT_MODEL };

/**
 * Credits of one generation on `model` of `provider` (/generate, /instrumental,
 * /cover by model tier: document 3, "Providers and models (lyrics and music)"
 * and "Limits"), or undefined when the provider has no such model.
 */
export function modelCredits(provider: MusicProvider, model: string): number | undefined {
  const table: readonly { model: string; credits: number }[] = provider === 'musicA' ? musicAModels : musicBModels;
  return table.find((m) => m.model === model)?.credits;
}

/** True when `model` of musicA may run on `endpoint` (musicA-9 is not available for /instrumental). */
export function musicAModelAllows(model: string, endpoint: string): boolean {
  const m = (musicAModels as readonly MusicAModel[]).find((x) => x.model === model);
  return m !== undefined && !(m.notFor ?? []).includes(endpoint);
}

/**
 * Stem-separation models (document 3, "Providers and models (lyrics and music)"):
 * audio-separation-1 (the default) and audio-separation-2, which also produces MIDI.
 */
export const stemSeparationModels = [
  { model: 'audio-separation-1', midi: false },
  { model: 'audio-separation-2', midi: true },
] as const;
export const STEM_SEPARATION_DEFAULT_MODEL = 'audio-separation-1' as const;

/**
 * Extend pricing (document 3, "Providers and models (lyrics and music)"): 10
 * credits for musicA-7.6 and for auto (auto is resolved to musicA-7.6 before
 * pricing); 15 for every other model, every musicB tier included.
 */
export const extendPricing = {
  /** The model `auto` is resolved to before an extend is priced. */
  autoResolvesTo: 'musicA-7.6',
  /** Models priced at `reducedCredits` (after resolving auto). */
  reducedModels: ['musicA-7.6'],
  reducedCredits: 10,
  otherCredits: 15,
} as const;

/** The model an extend of `model` is priced against: auto becomes musicA-7.6, every other model is itself. */
export function extendPricedModel(model: string): string {
  return model === 'auto' ? extendPricing.autoResolvesTo : model;
}

/** Credits of an extend on `model` (document 3, "Providers and models (lyrics and music)"): 10 for musicA-7.6 and auto, 15 otherwise. */
export function extendCredits(model: string): number {
  return (extendPricing.reducedModels as readonly string[]).includes(extendPricedModel(model)) ? extendPricing.reducedCredits : extendPricing.otherCredits;
}
