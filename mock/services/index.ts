/**
 * Every area's service, joined: the handlers keyed by operationId (the type
 * requires one per registry entry and no other) and the media routes. Adding
 * an area adds one entry to `services`.
 */
import type { Engine } from '../engine/engine.ts';
import type { Handlers, MediaRoute } from './context.ts';
import { TaskKit } from './tasks.ts';
import { videoService } from './video.ts';
import { accountService } from './account.ts';
import { imageService } from './image.ts';
import { speechService } from './speech.ts';
import { voiceCloneService } from './voice-clone.ts';
import { platformVoiceService, seedAudioService } from './generated-audio.ts';
import { podcastService } from './podcast.ts';
import { lyricsService } from './lyrics.ts';
import { extractionService } from './extraction.ts';
import { storybookService } from './storybook.ts';
import { musicAnalysisService } from './music-analysis.ts';
import { registerHostedMedia } from './hosted-media.ts';
import { musicService } from './music.ts';
import { oauthService } from './oauth.ts';

const services = [
  videoService,
  accountService,
  oauthService,
  imageService,
  speechService,
  voiceCloneService,
  platformVoiceService,
  seedAudioService,
  podcastService,
  lyricsService,
  musicAnalysisService,
  storybookService,
  extractionService,
  musicService,
] as const;

type UnionToIntersection<U> = (U extends unknown ? (k: U) => void : never) extends (k: infer I) => void ? I : never;
type Joined = UnionToIntersection<(typeof services)[number]['handlers']>;

function join(): Joined {
  const out: Record<string, unknown> = {};
  for (const s of services)
    for (const [id, h] of Object.entries(s.handlers)) {
      if (id in out) throw new Error(`services: two handlers for ${id}`);
      out[id] = h;
    }
  return out as Joined;
}

/** Every handler, keyed by operationId. */
export const handlers: Handlers = join();

/** The credential resolvers of the areas that issue credentials besides API keys (see Service.credentials). */
export const credentialResolvers = services.flatMap((s) => ('credentials' in s && s.credentials ? [s.credentials] : []));

/** Every media route of every area. */
export const mediaRoutes: readonly MediaRoute[] = services.flatMap((s) => s.media ?? []);
// the services that take a URL of hosted media resolve it through the same declarations
registerHostedMedia(mediaRoutes);

/** Readies an engine for the services: the handlers of their scheduled events and the schemas of their singletons (before a saved state is loaded). */
export function prepareEngine(engine: Engine): void {
  TaskKit.install(engine);
  for (const s of services) {
    for (const [name, schema] of Object.entries(s.state ?? {})) engine.declareState(name, schema);
    for (const [name, schema] of Object.entries(('records' in s ? s.records : undefined) ?? {})) engine.declareRecords(name, schema);
    if ('keepsOwner' in s && s.keepsOwner) engine.declareOwnerKeeper(s.keepsOwner);
  }
}
