/**
 * Podcast responses, stream events, assumptions, operations and the area
 * (schemas/podcast.ts re-exports them). Seed: document 2, "Podcast episode
 * (GET result)", "Podcast", "States and transitions", "Events", "Errors".
 */
import { z } from '../zod.ts';
import { EpochMs } from '../common.ts';
import { errorCatalog } from '../errors.ts';
import { assumed, fromSeed, provenanceMeta, type TableAssumption } from '../provenance.ts';
import { defineOperations, operationsWith, json, type Area } from '../define.ts';
import { episodeTaskLifecycle, podcastAudioLifecycle, podcastScriptLifecycle } from '../lifecycles.ts';
import { EPISODE_COVER_SIDE, episodeStatuses, speechPricing } from '../speech.ts';
import { formatCount } from '../text.ts';
import { contentStatuses, podcastAudioSchedule, podcastLimits, type PodcastMode, podcastModePlans, podcastModes } from './tables.ts';
import {
  PodcastAudioRequest,
  podcastAudioStateRules,
  PodcastEpisodeIdParams,
  PodcastRequest,
  podcastStateRules,
  PodcastTextContentRequest,
  TextStreamQuery,
} from './requests.ts';

// ---------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------

const mediaUrl = (what: string) =>
  z.string().meta(provenanceMeta(assumed('the files are hosted by the service under /media/ (no auth; Range answered 206)'), what));

/** Data of the one-shot create (document 2: episodeId). */
export const CreatePodcastEpisodeData = z
  .strictObject({ episodeId: z.string() })
  .openapi('CreatePodcastEpisodeData', { example: { episodeId: 'pe_1a2b3c4d5e6f7a8b' } });

/** Data of the text-content create (document 2: episodeId, message). */
export const CreatePodcastTextContentData = z
  .strictObject({ episodeId: z.string(), message: z.string().meta({ description: 'what happens next' }) })
  .openapi('CreatePodcastTextContentData', {
    example: { episodeId: 'pe_1a2b3c4d5e6f7a8b', message: 'writing the script; poll the episode until contentStatus is text-success' },
  });

/** Data of the audio call (assumed: document 2 says its response shape is not shown). */
export const PodcastAudioData = z
  .strictObject({
    episodeId: z.string(),
    contentStatus: z
      .enum(contentStatuses)
      .meta({ description: 'the stage that is done: text-success while the audio renders (then audio-success or audio-fail)' }),
  })
  .meta(provenanceMeta(assumed('document 2 says the response shape of the audio call is not shown')))
  .openapi('PodcastAudioData', { example: { episodeId: 'pe_1a2b3c4d5e6f7a8b', contentStatus: 'text-success' } });

/** A line of the script (document 2: { speakerId, speakerName, content }). */
export const PodcastScriptLine = z.strictObject({ speakerId: z.string(), speakerName: z.string(), content: z.string() }).openapi('PodcastScriptLine');

/** A citation of sourceProcessResult (assumed shape: document 2 says only "array of citations"). */
export const PodcastReference = z
  .strictObject({ title: z.string(), url: z.string() })
  .meta(provenanceMeta(assumed('document 2 says references is an array of citations without their shape')))
  .openapi('PodcastReference');

const podcastFailures = ['PODCAST_GENERATION_FAILED', 'PODCAST_CONTENT_REJECTED', 'PODCAST_SOURCE_UNREADABLE', 'PODCAST_TIMED_OUT'] as const;

/** The podcast episode (document 2, "Podcast episode (GET result)"). Optional fields are absent until they apply. */
export const PodcastEpisode = z
  .strictObject({
    episodeId: z.string(),
    createdAt: EpochMs,
    processStatus: z.enum(episodeStatuses).meta({
      description:
        'pending while a stage runs; success when the stage asked for is done (the script in the two-stage flow until audio is requested, then the audio); fail',
    }),
    contentStatus: z
      .enum(contentStatuses)
      .optional()
      .meta({ description: 'two-stage flow only, once a stage has ended: text-success, text-fail, audio-success, audio-fail; absent on one-shot episodes' }),
    failCode: z
      .number()
      .meta(
        provenanceMeta(
          assumed('document 2 says the failCode values are not shown'),
          `0 when no failure; on failure ${podcastFailures.map((n) => `${errorCatalog[n].code} ${errorCatalog[n].meaning}`).join('; ')}`,
        ),
      ),
    message: z.string().meta({ description: 'status detail: the stage running, or why it failed' }),
    completedTime: EpochMs.optional().meta({ description: 'ms, when the last stage ended (success or fail)' }),
    credits: z
      .number()
      .min(0)
      .meta({ description: 'credits consumed so far: the script once written, plus the audio once rendered; 0 after a failure refunded in full' }),
    title: z.string().optional().meta({ description: 'present once the sources are read' }),
    outline: z.string().optional().meta({ description: 'the outline items written so far, one numbered line each' }),
    cover: mediaUrl(`cover image (PNG, ${EPISODE_COVER_SIDE}x${EPISODE_COVER_SIDE}), present once the script is written`).optional(),
    audioUrl: mediaUrl('MP3 of the script, each speaker in a voice of its own; present once the audio is rendered').optional(),
    audioStreamUrl: mediaUrl('HLS playlist of the same audio (packed AAC segments)').optional(),
    subtitlesUrl: mediaUrl('SRT timed to the audio').optional(),
    sourceProcessResult: z
      .strictObject({ content: z.string().meta({ description: 'the material read from the query and the sources' }), references: z.array(PodcastReference) })
      .optional()
      .meta({ description: 'present once the sources are read' }),
    scripts: z.array(PodcastScriptLine).optional().meta({ description: 'the lines written so far, alternating between the speakers' }),
  })
  .openapi('PodcastEpisode', {
    example: {
      episodeId: 'pe_1a2b3c4d5e6f7a8b',
      createdAt: 1767225600000,
      processStatus: 'success',
      failCode: 0,
      message: 'done',
      completedTime: 1767225670000,
      credits: 12,
      title: 'Why frontend teams stub their APIs',
      outline: '1. Introduction: why frontend teams stub their APIs\n2. What the material says\n3. Questions and answers\n4. Wrap-up',
      cover: 'http://localhost:4010/media/podcast/pe_1a2b3c4d5e6f7a8b/cover.png',
      audioUrl: 'http://localhost:4010/media/podcast/pe_1a2b3c4d5e6f7a8b/audio.mp3',
      audioStreamUrl: 'http://localhost:4010/media/podcast/pe_1a2b3c4d5e6f7a8b/audio.m3u8',
      subtitlesUrl: 'http://localhost:4010/media/podcast/pe_1a2b3c4d5e6f7a8b/subtitles.srt',
      sourceProcessResult: { content: 'Research notes on why frontend teams stub their APIs.', references: [] },
      scripts: [{ speakerId: 'en_ava', speakerName: 'Ava', content: "Welcome to the show. I'm Ava." }],
    },
  });
export type PodcastEpisode = z.infer<typeof PodcastEpisode>;

/** A stream message of event=outline (assumed payload): one outline item. */
export const OutlineStreamEvent = z
  .strictObject({ index: z.number().int().min(0).meta({ description: 'position in the outline, from 0' }), content: z.string() })
  .meta(provenanceMeta(assumed('document 2 says the payload format of the stream messages is not shown')))
  .openapi('PodcastOutlineStreamEvent');

/** A stream message of event=script (assumed payload): one line of the script. */
export const ScriptStreamEvent = z
  .strictObject({
    index: z.number().int().min(0).meta({ description: 'position in the script, from 0' }),
    speakerId: z.string(),
    speakerName: z.string(),
    content: z.string(),
  })
  .meta(provenanceMeta(assumed('document 2 says the payload format of the stream messages is not shown')))
  .openapi('PodcastScriptStreamEvent');

/** The last message of a stream (assumed payload): the text is complete, or its stage failed. */
export const DoneStreamEvent = z
  .strictObject({
    episodeId: z.string(),
    complete: z.boolean().meta({ description: 'true when every item was delivered; false when the stage failed first' }),
    count: z.number().int().min(0).meta({ description: 'items delivered' }),
    failCode: z.number().int().meta({ description: '0, or the failCode of the failed stage' }),
  })
  .meta(provenanceMeta(assumed('document 2 says the payload format of the stream messages is not shown')))
  .openapi('PodcastDoneStreamEvent');

// ---------------------------------------------------------------------------
// Assumptions
// ---------------------------------------------------------------------------

const plan = (m: PodcastMode) => podcastModePlans[m];

/** Table-level assumptions of the podcast area (listed in docs/assumptions.md). */
export const podcastTableAssumptions: TableAssumption[] = [
  {
    subject: `podcast price: a flat script price by mode (${podcastModes.map((m) => `${m} ${plan(m).scriptCredits}`).join(', ')} credits) plus the speech price of the audio (1 credit per ${speechPricing.charsPerCredit} characters of the script, at least 1); one-shot episodes reserve both at creation and capture on success; the two-stage flow reserves the script at text-content (captured at text-success) and the audio at the audio call (captured at audio-success); a failed stage is refunded in full`,
    reason: 'document 2 says credits depend on mode and length without a price',
  },
  {
    subject: `podcast schedule per mode: reading the sources, then the outline item by item, then the script line by line (${podcastModes.map((m) => `${m}: ${plan(m).sourcesMs / 1000} s, ${plan(m).outlineItems} items of ${plan(m).outlineItemMs / 1000} s, ${plan(m).lines} lines of ${plan(m).lineMs / 1000} s`).join('; ')}), then the audio at ${podcastAudioSchedule.msPerAudioSecond} ms per second of audio (at least ${podcastAudioSchedule.minMs / 1000} s): about 1 to 4 minutes in all; a stage pending for ${podcastAudioSchedule.timeoutMs / 60_000} minutes fails with failCode 37011`,
    reason: 'document 2 gives only a typical duration of 1-4 minutes',
  },
  {
    subject:
      'podcast statuses: processStatus is pending while a stage runs and success when the stage asked for is done; in the two-stage flow it is success at text-success, pending again while the audio renders, then success (audio-success) or fail (audio-fail, the script credits kept); contentStatus is absent until the first stage ends. The audio call is refused (409, 37006) on one-shot episodes, before text-success, after text-fail and while rendering; after audio-success or audio-fail it renders again (charged again)',
    reason: 'document 2 says the transitions beyond pending, success, fail and text-success are not shown',
  },
  {
    subject: `podcast content: scripts written by the mock from the query and the sources (url sources read as a deterministic fake article), ${podcastModes.map((m) => `${m} ${plan(m).lines} lines`).join(', ')}, alternating between two speakers (debate: the first speaker argues for, the second against); language en, zh or ja, inferred as flow-speech does; references cite the url sources (deep mode adds research notes on example.org); the stream's messages are {index, content} (outline), {index, speakerId, speakerName, content} (script) and a final done {episodeId, complete, count, failCode}`,
    reason: 'document 2 names the fields and the stream but not their content or message payloads',
  },
  {
    subject: `podcast size limits: query at most ${formatCount(podcastLimits.queryChars)} characters, at most ${podcastLimits.sources} sources, a text source 1 to ${formatCount(podcastLimits.textSourceChars)} characters; the two speakers are distinct`,
    reason: 'document 2 says the size limits for query and sources are not shown',
  },
];

// ---------------------------------------------------------------------------
// Operations
// ---------------------------------------------------------------------------

const voiceRule = 'speakerId must be an id GET /v1/speakers/list lists for this account; another answers 400 (37003) naming it.';
const lifecycle =
  'Lifecycle (assumed timings): the sources are read, then the outline is written item by item and the script line by line (visible on GET and on the text stream as they are written), then the audio is rendered; about 1 to 4 minutes by mode. ' +
  'Credits are reserved at creation, captured when the stage ends, refunded in full on failure; a stage still pending after 30 minutes fails with failCode 37011.';
const createErrors = ['PODCAST_INVALID_PARAMETERS', 'PODCAST_SPEAKER_NOT_FOUND', 'PODCAST_INSUFFICIENT_CREDITS'] as const;
const createFailures = ['PODCAST_GENERATION_FAILED', 'PODCAST_CONTENT_REJECTED', 'PODCAST_SOURCE_UNREADABLE'] as const;
const bodyRules =
  'At least one of query or sources (query may be empty when sources carries material); sources items { type: text | url, content }; 1 to 2 distinct speakers (debate exactly 2); mode quick (default), deep or debate; speed 0.5-2.0, at most two decimals.';

// What the operations below share: each states only what differs (operationsWith, schemas/define.ts).
const op = operationsWith({ auth: true, validationError: 'PODCAST_INVALID_PARAMETERS' });
const taskOp = operationsWith({
  auth: true,
  validationError: 'PODCAST_INVALID_PARAMETERS',
  charges: true,
  outcomes: ['failed', 'stuck'],
  failureReasons: [...createFailures],
});

/** The podcast operations (document 2, "Podcast"). */
export const podcastOperations = defineOperations('Podcast', {
  createPodcastEpisode: taskOp({
    method: 'post',
    path: '/v1/podcast/episodes',
    summary: 'Create a podcast episode in one call (script and audio)',
    description: `${bodyRules} language en, zh or ja is inferred when omitted. Returns episodeId; poll GET /v1/podcast/episodes/{episodeId} until processStatus is success (its polling advice is on that read) or read the text stream. ${voiceRule}\n\n${lifecycle}`,
    provenance: fromSeed(2, 'Podcast'),
    request: { body: json(PodcastRequest) },
    response: { status: 200, kind: 'envelope', schema: CreatePodcastEpisodeData, description: 'the episode, processStatus pending' },
    errors: [...createErrors],
    stateRules: podcastStateRules,
    lifecycle: episodeTaskLifecycle({
      pollOperationId: 'getPodcastEpisode',
      example: { query: 'How lighthouses guided ships before radio', speakers: [{ speakerId: 'en_ava' }, { speakerId: 'en_noah' }], mode: 'quick' },
      successRequires: ['audioUrl'],
      media: [{ urlField: 'audioUrl', contentTypes: ['audio/mpeg'] }],
      chargedField: 'credits',
      firstPollMs: 60_000,
    }),
  }),
  createPodcastTextContent: taskOp({
    method: 'post',
    path: '/v1/podcast/episodes/text-content',
    summary: 'Two-stage flow, stage 1: write the script only',
    description: `The one-shot fields, but language is required and each speaker's language must match it (else 400, 37002, "Speaker language mismatch"). No audio is produced: poll until contentStatus is text-success, optionally edit the script, then POST /v1/podcast/episodes/{episodeId}/audio. ${bodyRules} ${voiceRule}\n\n${lifecycle}`,
    provenance: fromSeed(2, 'Podcast'),
    request: { body: json(PodcastTextContentRequest) },
    response: { status: 200, kind: 'envelope', schema: CreatePodcastTextContentData, description: 'the episode, writing its script' },
    errors: [...createErrors, 'SPEAKER_LANGUAGE_MISMATCH'],
    stateRules: [
      ...podcastStateRules,
      {
        code: 'SPEAKER_LANGUAGE_MISMATCH',
        fields: ['speakers[].speakerId', 'language'],
        rule: "each speaker's language is the episode's language",
        reads: 'catalogue',
      },
    ],
    lifecycle: podcastScriptLifecycle,
  }),
  getPodcastEpisode: op({
    method: 'get',
    path: '/v1/podcast/episodes/{episodeId}',
    summary: 'Get a podcast episode',
    description:
      'Returns the episode as it stands: sourceProcessResult and title once the sources are read, the outline and the scripts as they are written, the cover once the script is done, the media URLs (MP3, HLS, SRT) once the audio is rendered, and the credits consumed so far. ' +
      'An unknown episode, or one of another user, answers 404 (37005, assumed). ' +
      'Typical duration 1-4 minutes; recommended polling: wait 60 s, then every 10 s. One-shot: poll until processStatus is success; two-stage: until contentStatus is text-success, and after the audio call until it is audio-success (or audio-fail).',
    provenance: fromSeed(2, 'Podcast episode (GET result)'),
    request: { params: PodcastEpisodeIdParams },
    response: { status: 200, kind: 'envelope', schema: PodcastEpisode, description: 'the episode' },
    errors: ['PODCAST_INVALID_PARAMETERS', 'PODCAST_EPISODE_NOT_FOUND'],
  }),
  createPodcastAudio: taskOp({
    method: 'post',
    path: '/v1/podcast/episodes/{episodeId}/audio',
    summary: 'Two-stage flow, stage 2: render the audio (of the original or the edited script)',
    description:
      'An empty body renders the script as written; a body with scripts renders the edited script: the same lines in the same order with the same speakerId each, only content changed (anything else answers 400, 37001, naming the line). ' +
      'Allowed once contentStatus is text-success, and again after audio-success or audio-fail (a new render, charged again); refused with 409 (37006) on a one-shot episode, before the script is ready, after text-fail and while the audio renders. ' +
      `Reserves the audio price (1 credit per ${speechPricing.charsPerCredit} characters of the script, at least 1; 402, 37004 when short), captured at audio-success, refunded at audio-fail. ` +
      'Answers { episodeId, contentStatus }.',
    provenance: fromSeed(2, 'Podcast'),
    request: { params: PodcastEpisodeIdParams, body: json(PodcastAudioRequest), bodyOptional: true },
    response: { status: 200, kind: 'envelope', schema: PodcastAudioData, description: 'the render has started' },
    errors: ['PODCAST_INVALID_PARAMETERS', 'PODCAST_EPISODE_NOT_FOUND', 'PODCAST_AUDIO_NOT_ALLOWED', 'PODCAST_INSUFFICIENT_CREDITS'],
    stateRules: podcastAudioStateRules,
    failureReasons: ['PODCAST_GENERATION_FAILED'],
    lifecycle: podcastAudioLifecycle,
  }),
  streamPodcastText: op({
    method: 'get',
    path: '/v1/podcast/episodes/{episodeId}/text-stream',
    summary: 'Stream the outline or the script as it is written (Server-Sent Events)',
    description:
      'A text/event-stream of the outline (event=outline: one `outline` message per item) or the script (event=script: one `script` message per line), delivered as they are written: a client connected early receives each as it is written, one connected late receives everything written so far at once. ' +
      'Then a `done` message ({ episodeId, complete, count, failCode }) and the stream closes; when the text stage fails first, done carries complete false and the failCode. Heartbeat comments keep an idle connection open. ' +
      'The payloads are assumed (document 2 says they are not shown). A browser EventSource cannot send the Authorization header: use a client that can (the eventsource package with a fetch option, or fetch with a stream reader). ' +
      'Owner-scoped (404, 37005); event must be script or outline (400, 37001).',
    provenance: fromSeed(2, 'Podcast'),
    request: { params: PodcastEpisodeIdParams, query: TextStreamQuery },
    response: {
      status: 200,
      kind: 'event-stream',
      events: { outline: OutlineStreamEvent, script: ScriptStreamEvent, done: DoneStreamEvent },
      description: 'the event stream',
    },
    errors: ['PODCAST_INVALID_PARAMETERS', 'PODCAST_EPISODE_NOT_FOUND'],
  }),
});

/** The podcast area: its tag, operations and table assumptions. */
export const podcastArea = {
  tag: {
    name: 'Podcast',
    description: 'Podcast episodes: one-shot, or in two stages (script, then audio of the original or edited script), with a live text stream (document 2).',
  },
  operations: podcastOperations,
  tableAssumptions: podcastTableAssumptions,
} satisfies Area;
