/**
 * The operation registry: every endpoint of the API exactly once
 * (docs/architecture.md, "The registry"). Each area declares its slice in its
 * own schema file; this file only joins them. The spec emitter, the mock's
 * router and the tests all read it. Adding an area adds one entry to `areas`.
 */
import { mergeAreas } from './define.ts';
import type { TableAssumption } from './provenance.ts';
import { sharedTableAssumptions } from './assumptions.ts';
import { videoArea } from './video.ts';
import { accountArea } from './account.ts';
import { imageArea } from './image.ts';
import { speechArea } from './speech.ts';
import { voiceCloneArea } from './voice-clone.ts';
import { platformVoiceArea, seedAudioArea } from './generated-audio.ts';
import { podcastArea } from './podcast.ts';
import { lyricsArea } from './lyrics.ts';
import { extractionArea } from './extraction.ts';
import { storybookArea } from './storybook.ts';
import { musicAnalysisArea } from './music-analysis.ts';
import { musicArea } from './music.ts';
import { oauthArea } from './oauth.ts';

/** Every area of the API, in the order of the spec. */
export const areas = [
  videoArea,
  accountArea,
  oauthArea,
  imageArea,
  speechArea,
  voiceCloneArea,
  platformVoiceArea,
  seedAudioArea,
  podcastArea,
  lyricsArea,
  musicAnalysisArea,
  storybookArea,
  extractionArea,
  musicArea,
] as const;

/** Every operation of the API, keyed by operationId. */
export const operations = mergeAreas(areas);

export type Operations = typeof operations;
export type OperationId = keyof Operations;
export const operationIds = Object.keys(operations) as OperationId[];

/** Tags of the API document, with their descriptions. */
export const tags = areas.map((a) => a.tag);

/** Every table-level assumption (docs/assumptions.md). */
export const tableAssumptions: TableAssumption[] = [...sharedTableAssumptions, ...areas.flatMap((a) => a.tableAssumptions)];
