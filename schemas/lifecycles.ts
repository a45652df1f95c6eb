/**
 * `x-lifecycle` of the episode areas (podcasts, page decks, flow-speech; read
 * by mediagen-verify, docs/guides/verify.md): an episode's `processStatus`
 * moves pending -> success or fail, read by its GET, named by the create
 * answer's `episodeId`; the two-stage podcast follows `contentStatus`, its
 * script stage then its audio stage. The polling advice is the area's where its document
 * gives one (podcasts: wait 60 s, then every 10 s, document 3); elsewhere
 * assumed (every 10 s after 10 s); the longest wait is assumed at 15 minutes.
 */
import { assumed } from './provenance.ts';
import type { LifecycleDef, LifecycleMedia } from './registry-types.ts';

/** The lifecycle of an episode read by `pollOperationId`, created from `example`, a success carrying `successRequires`. */
export function episodeTaskLifecycle(def: {
  pollOperationId: string;
  example: Record<string, unknown>;
  successRequires: readonly string[];
  media?: readonly LifecycleMedia[];
  chargedField?: string;
  firstPollMs?: number;
  intervalMs?: number;
}): LifecycleDef {
  return {
    statusField: 'processStatus',
    states: ['pending', 'success', 'fail'],
    transitions: { pending: ['success', 'fail'] },
    terminal: ['success', 'fail'],
    success: 'success',
    pollOperationId: def.pollOperationId,
    idField: 'episodeId',
    firstPollMs: def.firstPollMs ?? 10_000,
    intervalMs: def.intervalMs ?? 10_000,
    timeoutMs: 15 * 60_000,
    example: def.example,
    successRequires: def.successRequires,
    ...(def.media ? { media: def.media } : {}),
    ...(def.chargedField ? { chargedField: def.chargedField } : {}),
  };
}

/** The podcast's contentStatus values (document 2, "Podcast episode (GET result)"): two-stage flow only, absent until the script stage ends. */
const podcastContentStatuses = ['text-success', 'text-fail', 'audio-success', 'audio-fail'] as const;
/** The two speakers and the topic both podcast stages start from (built-in English voices; text-content requires the language). */
const podcastScriptExample = {
  query: 'How lighthouses guided ships before radio',
  speakers: [{ speakerId: 'en_ava' }, { speakerId: 'en_noah' }],
  mode: 'quick',
  language: 'en',
};
const podcastTimings = {
  firstPollMs: 60_000,
  intervalMs: 10_000,
  timeoutMs: 15 * 60_000,
  provenance: assumed(
    'document 2, "Podcast" advises polling the episode after 60 s, then every 10 s, for both stages; the longest wait (15 minutes) is not shown',
  ),
};

/**
 * The two-stage podcast, stage 1 (POST /v1/podcast/episodes/text-content): poll the episode until contentStatus is
 * text-success or text-fail (document 2, "Podcast", two-stage flow step 2: "in this flow contentStatus, not
 * processStatus, says which stage is done"); a success carries the script.
 */
export const podcastScriptLifecycle: LifecycleDef = {
  statusField: 'contentStatus',
  states: podcastContentStatuses,
  transitions: { 'text-success': ['audio-success', 'audio-fail'] },
  terminal: ['text-success', 'text-fail'],
  success: 'text-success',
  pollOperationId: 'getPodcastEpisode',
  idField: 'episodeId',
  ...podcastTimings,
  example: podcastScriptExample,
  successRequires: ['scripts'],
  chargedField: 'credits',
};

/**
 * The two-stage podcast, stage 2 (POST /v1/podcast/episodes/{episodeId}/audio, an empty body: the script as
 * written) once stage 1 reached text-success: the episode's contentStatus moves to audio-success (the audio URLs
 * set) or audio-fail. `credits` counts both stages: this stage's charge is its increase.
 */
export const podcastAudioLifecycle: LifecycleDef = {
  statusField: 'contentStatus',
  states: podcastContentStatuses,
  transitions: { 'text-success': ['audio-success', 'audio-fail'] },
  terminal: ['audio-success', 'audio-fail'],
  success: 'audio-success',
  pollOperationId: 'getPodcastEpisode',
  idField: 'episodeId',
  ...podcastTimings,
  continues: { operationId: 'createPodcastTextContent' },
  example: {},
  successRequires: ['audioUrl'],
  media: [{ urlField: 'audioUrl', contentTypes: ['audio/mpeg'] }],
  chargedField: 'credits',
};
