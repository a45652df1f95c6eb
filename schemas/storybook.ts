/**
 * Page-deck contract (`/v1/storybook`): an episode turns one text or URL into
 * a narrated deck of pages (info, story or slides), which can then be
 * rendered to a video.
 *
 * Seed: document 3, "Page-deck episode (GET result)", "Page-deck episodes
 * (prefix /v1/storybook)", "States and transitions", "Errors", "Limits". The
 * seed leaves out the page counts, the schedule, the price, the failCode
 * values, the unit of createdAt and the language list: each is a table below,
 * marked assumed and listed in `storybookTableAssumptions`.
 */
import { z } from './zod.ts';
import { js, rule, withRules, type BodyRule, type RuleIssue, type StateRule } from './rules.ts';
import { idParams, uriString } from './common.ts';
import { errorCatalog } from './errors.ts';
import { assumed, fromSeed, provenanceMeta, type TableAssumption } from './provenance.ts';
import { defineOperations, operationsWith, json, type Area } from './define.ts';
import { episodeTaskLifecycle } from './lifecycles.ts';
import type { LifecycleDef } from './registry-types.ts';
import { episodeStatuses, flowSpeechLanguages, SPEECH_MAX_CHARS, SpeakerId, speechPricing } from './speech.ts';
import { formatCount } from './text.ts';

// ---------------------------------------------------------------------------
// Tables
// ---------------------------------------------------------------------------

/** Deck modes (document 3): info (default; infographics, page 1 a magazine-style cover), story (scene illustrations, page 1 a story cover), slides (presentation layouts, page 1 a title page). */
export const storybookModes = ['info', 'story', 'slides'] as const;
export type StorybookMode = (typeof storybookModes)[number];

/** Languages decks are written in (document 3: "for example en, zh", default en, never inferred); another is accepted and written in English (assumed). */
export const storybookLanguages = flowSpeechLanguages;
export type StorybookLanguage = (typeof storybookLanguages)[number];

/** The language a deck is written in: `language` when it is one of `storybookLanguages`, else en. */
export function storybookWritingLanguage(language: string): StorybookLanguage {
  return (storybookLanguages as readonly string[]).includes(language) ? (language as StorybookLanguage) : 'en';
}

/**
 * What each mode makes (document 3, "Page-deck episode (GET result)", the modes paragraph), said on the request's and
 * the episode's mode.
 */
export const storybookModeText =
  'info (default): infographics, illustrations, data visualizations, page 1 a magazine-style cover; ' +
  'story: story scene illustrations, page 1 a story cover; ' +
  'slides: presentation layouts such as grid, process flow, big-number hero, page 1 a title page, about 80-100 words of voiceover per slide. ' +
  'PPT file export is unavailable.';

/** videoStatus of an episode (document 3, "Page-deck episode"). */
export const videoStatuses = ['not_generated', 'pending', 'success', 'fail'] as const;
export type VideoStatus = (typeof videoStatuses)[number];

/**
 * What each mode makes (assumed, except the slides' 80-100 words of voiceover
 * per slide, which document 3 gives): the pages of a deck (page 1 the mode's
 * cover or title page), the words of narration per page, the page images'
 * size in pixels, and the flat credits per page.
 */
export const storybookModePlans = {
  info: { pages: 6, words: { min: 30, max: 50 }, image: { width: 1080, height: 1440 }, creditsPerPage: 4 },
  story: { pages: 8, words: { min: 40, max: 60 }, image: { width: 1024, height: 1024 }, creditsPerPage: 4 },
  slides: { pages: 6, words: { min: 80, max: 100 }, image: { width: 1280, height: 720 }, creditsPerPage: 3 },
} as const satisfies Record<
  StorybookMode,
  { pages: number; words: { min: number; max: number }; image: { width: number; height: number }; creditsPerPage: number }
>;

/** What page 1 is in each mode (document 3). */
export const coverPageKinds: Record<StorybookMode, string> = { info: 'a magazine-style cover', story: 'a story cover', slides: 'a title page' };

/**
 * The simulated schedule (assumed; document 3 says typical 2-5 minutes):
 * pending for `baseMs` plus `perPageMs` a page plus `perAudioSecondMs` a
 * second of narration; a stage pending after `timeoutMs` fails (40011).
 */
export const storybookSchedule = { baseMs: 60_000, perPageMs: 15_000, perAudioSecondMs: 200, timeoutMs: 30 * 60_000 } as const;

/**
 * The video render (assumed): 1280x720 H.264 with the narration as AAC, each
 * page a still from its audioTimestamp; without narration (skipAudio) each
 * page shows `silentPageMs`. It takes `baseMs` plus `perVideoSecondMs` a
 * second of video and costs 1 credit per `secondsPerCredit` seconds of video
 * (at least 1).
 */
export const storybookVideo = { width: 1280, height: 720, silentPageMs: 5_000, baseMs: 20_000, perVideoSecondMs: 250, secondsPerCredit: 10 } as const;

/** Virtual ms an episode takes to make: `pages` pages and `audioMs` of narration. */
export function storybookProcessingMs(pages: number, audioMs: number): number {
  return storybookSchedule.baseMs + pages * storybookSchedule.perPageMs + Math.round((audioMs / 1000) * storybookSchedule.perAudioSecondMs);
}

/** Virtual ms a video of `videoMs` takes to render. */
export function storybookRenderMs(videoMs: number): number {
  return storybookVideo.baseMs + Math.round((videoMs / 1000) * storybookVideo.perVideoSecondMs);
}

/** Credits of a deck: the mode's price per page, plus the speech price of the narration's characters (none with skipAudio). */
export function storybookCredits(mode: StorybookMode, pages: number, narratedChars: number): number {
  const narration = narratedChars > 0 ? Math.max(speechPricing.minCredits, Math.ceil(narratedChars / speechPricing.charsPerCredit)) : 0;
  return storybookModePlans[mode].creditsPerPage * pages + narration;
}

/** Credits of rendering `videoMs` of video. */
export function storybookVideoCredits(videoMs: number): number {
  return Math.max(1, Math.ceil(videoMs / 1000 / storybookVideo.secondsPerCredit));
}

/** Longest text source, characters (assumed: the speech limit). */
export const STORYBOOK_TEXT_CHARS = SPEECH_MAX_CHARS;

// ---------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------

/** One source (document 3): `content` is the text, or the URL itself; `uri` is accepted and ignored. */
export const StorybookSource = z.object({
  type: z.enum(['text', 'url']).meta({ description: 'text or url' }),
  content: z.string().meta({
    description: `the text (1 to ${formatCount(STORYBOOK_TEXT_CHARS)} characters, assumed), or the URL itself (http or https) when type is url`,
  }),
  uri: z.string().optional().meta({ description: 'accepted but ignored; the server derives it from content for url sources' }),
  metadata: z.record(z.string(), z.unknown()).optional().meta({ description: 'source metadata (kept, not interpreted)' }),
});

const INVALID = 'STORYBOOK_INVALID_PARAMETERS' as const;
type EpisodeBody = { sources: { type: 'text' | 'url'; content: string }[]; speakers?: unknown[]; skipAudio: boolean };
const isHttp = (s: string) => /^https?:\/\//i.test(s);

/** Rules beyond the shape (document 3, "Page-deck episode"): the source's content, speakers unless skipAudio. */
function episodeRules(): BodyRule<EpisodeBody>[] {
  const max = STORYBOOK_TEXT_CHARS;
  return [
    rule({
      id: 'storybook.text-source',
      rule: `a text source has 1 to ${formatCount(max)} characters, not blank`,
      code: INVALID,
      path: ['sources', 0, 'content'],
      message: `sources[0].content: a text source takes 1 to ${formatCount(max)} characters (not blank)`,
      then: {
        properties: {
          sources: { items: { if: { properties: { type: { const: 'text' } } }, then: { properties: { content: { ...js.notBlank, maxLength: max } } } } },
        },
      },
    }),
    rule({
      id: 'storybook.url-source',
      rule: 'a url source is the URL itself (http or https)',
      code: INVALID,
      path: ['sources', 0, 'content'],
      message: 'sources[0].content of a url source must be the URL itself (http or https)',
      then: { properties: { sources: { items: { if: { properties: { type: { const: 'url' } } }, then: { properties: { content: js.httpUrl } } } } } },
    }),
    rule({
      id: 'storybook.speakers-unless-skip-audio',
      rule: 'one speaker unless skipAudio is true',
      code: INVALID,
      path: ['speakers'],
      message: 'speakers: one speaker is required unless skipAudio is true',
      when: { skipAudio: false },
      then: { required: ['speakers'], properties: { speakers: { minItems: 1 } } },
    }),
  ];
}

/** A url source's content is a URI (RFC 3986; in x-rules). */
function checkSourceUri(v: EpisodeBody): RuleIssue[] {
  const s = v.sources[0];
  return s?.type === 'url' && isHttp(s.content) && !uriString().safeParse(s.content).success
    ? [
        {
          path: ['sources', 0, 'content'],
          message: 'sources[0].content of a url source must be a URI (spaces and non-ASCII characters percent-encoded)',
          error: INVALID,
        },
      ]
    : [];
}

const storybookEpisodeBase = z.object({
  sources: z.array(StorybookSource).min(1).max(1).meta({ description: 'exactly 1 item' }),
  speakers: z
    .array(
      z.object({
        speakerId: SpeakerId,
      }),
    )
    .max(1)
    .optional()
    .meta({ description: 'at most 1 item; required unless skipAudio is true (ignored with skipAudio)' }),
  skipAudio: z.boolean().default(false).meta({ description: 'true: images and text only, no narration audio' }),
  // document 3: "for example en, zh": an open list
  language: z
    .string()
    .min(2)
    .max(35)
    .regex(/^[A-Za-z0-9-]+$/, { message: 'a language code: letters, digits and hyphens (for example en, zh)' })
    .default('en')
    .meta({
      ...provenanceMeta(
        assumed(
          'document 3 gives the languages "for example en, zh"; a language outside en, zh and ja is accepted (the deck written in English); 35 characters bound a language tag',
        ),
        'a language code, for example en (default), zh or ja; never inferred from the source',
      ),
      examples: [...storybookLanguages],
    }),
  mode: z.enum(storybookModes).default('info').meta({ description: storybookModeText }),
  style: z
    .string()
    .max(64)
    .optional()
    .meta(
      provenanceMeta(
        assumed('document 3 says the accepted style ids are not part of the public contract and shows no length; 64 characters bound what is stored'),
        "visual style id; omit for the mode's default; opaque (any id is accepted)",
      ),
    ),
});
/** Body of POST /v1/storybook/episodes (document 3). */
export const StorybookEpisodeRequest = withRules(
  storybookEpisodeBase,
  episodeRules(),
  'StorybookEpisodeRequest',
  {
    example: {
      sources: [
        { type: 'text', content: 'Test servers let frontend teams work before the backend exists. They keep state, so a whole flow can be tried offline.' },
      ],
      speakers: [{ speakerId: 'en_ava' }],
      mode: 'info',
    },
  },
  checkSourceUri,
);
export type StorybookEpisodeRequest = z.infer<typeof StorybookEpisodeRequest>;

export const StorybookEpisodeIdParams = idParams('episodeId', 'episode id', 'sb_1a2b3c4d5e6f7a8b');

// ---------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------

const mediaUrl = (what: string) =>
  z.string().meta(provenanceMeta(assumed('the files are hosted by the service under /media/ (no auth; Range answered 206)'), what));

/** Data of the create (document 3: episodeId). */
export const CreateStorybookEpisodeData = z
  .strictObject({ episodeId: z.string() })
  .openapi('CreateStorybookEpisodeData', { example: { episodeId: 'sb_1a2b3c4d5e6f7a8b' } });

/** Data of the video call (document 3: { success: true }). */
export const StorybookVideoData = z.strictObject({ success: z.literal(true) }).openapi('StorybookVideoData', { example: { success: true } });

/** One page (document 3: { text, pageNumber, imageUrl, audioTimestamp }). */
export const StorybookPage = z
  .strictObject({
    text: z.string().meta({ description: 'the narration script of the page' }),
    pageNumber: z
      .number()
      .int()
      .min(1)
      .meta({ description: `from 1; page 1 is the mode's cover or title page (${storybookModes.map((m) => `${m}: ${coverPageKinds[m]}`).join('; ')})` }),
    imageUrl: mediaUrl('PNG of the page'),
    audioTimestamp: z
      .number()
      .min(0)
      .meta({ description: 'seconds: where the page starts in audioUrl (increasing, within audioDuration); 0 for every page with skipAudio' }),
  })
  .openapi('StorybookPage');

const storybookFailures = [
  'STORYBOOK_GENERATION_FAILED',
  'STORYBOOK_CONTENT_REJECTED',
  'STORYBOOK_SOURCE_UNREADABLE',
  'STORYBOOK_TIMED_OUT',
  'STORYBOOK_VIDEO_FAILED',
] as const;

/** The page-deck episode (document 3, "Page-deck episode (GET result)"). title, cover, audioUrl, audioDuration and pages appear on success. */
export const StorybookEpisode = z
  .strictObject({
    episodeId: z.string().meta({ description: 'id' }),
    createdAt: z
      .number()
      .int()
      .nonnegative()
      .meta(
        provenanceMeta(
          assumed('document 3 says the unit is not stated and the sample values have second magnitude; this contract answers epoch seconds, as the samples'),
          'creation time, epoch SECONDS (unlike the ms of the other areas)',
        ),
      ),
    mode: z.enum(storybookModes).meta({ description: storybookModeText }),
    processStatus: z.enum(episodeStatuses).meta({
      description: 'the deck: pending while it is made, success once its pages (and narration) are ready, fail with failCode and message',
    }),
    videoStatus: z.enum(videoStatuses).meta({
      description:
        'the video render: not_generated until POST /v1/storybook/episodes/{episodeId}/video (which requires processStatus success), pending while it renders, then success (videoUrl set) or fail',
    }),
    credits: z.number().min(0).meta({ description: 'credits consumed so far: the deck once made, plus each rendered video' }),
    failCode: z
      .number()
      .optional()
      .meta(
        provenanceMeta(
          assumed('document 3 says the numeric codes are not shown'),
          `when processStatus is fail: ${storybookFailures
            .slice(0, 4)
            .map((n) => `${errorCatalog[n].code} ${errorCatalog[n].meaning}`)
            .join('; ')}`,
        ),
      ),
    message: z.string().meta({ description: 'status detail: what is being made, or why the deck or its video failed' }),
    title: z.string().optional().meta({ description: 'title' }),
    cover: mediaUrl("PNG of page 1 (the mode's cover or title page)").optional(),
    audioUrl: z.string().optional().meta({ description: 'narration MP3 (each page starts at its audioTimestamp); "" with skipAudio (no narration)' }),
    audioDuration: z.number().min(0).optional().meta({ description: 'seconds, the decoded length of audioUrl; 0 with skipAudio' }),
    videoUrl: z.string().meta({ description: 'MP4 of the pages at their timestamps with the narration, once videoStatus is success; "" before' }),
    pages: z.array(StorybookPage).optional(),
  })
  .openapi('StorybookEpisode', {
    example: {
      episodeId: 'sb_1a2b3c4d5e6f7a8b',
      createdAt: 1767225600,
      mode: 'info',
      processStatus: 'success',
      videoStatus: 'not_generated',
      credits: 26,
      message: 'done',
      title: 'Test servers let frontend teams work',
      cover: 'http://localhost:4010/media/storybook/sb_1a2b3c4d5e6f7a8b/pages/1.png',
      audioUrl: 'http://localhost:4010/media/storybook/sb_1a2b3c4d5e6f7a8b/narration.mp3',
      audioDuration: 61.2,
      videoUrl: '',
      pages: [
        {
          text: 'Test servers let frontend teams work.',
          pageNumber: 1,
          imageUrl: 'http://localhost:4010/media/storybook/sb_1a2b3c4d5e6f7a8b/pages/1.png',
          audioTimestamp: 0,
        },
      ],
    },
  });
export type StorybookEpisode = z.infer<typeof StorybookEpisode>;

// ---------------------------------------------------------------------------
// Assumptions
// ---------------------------------------------------------------------------

const plan = (m: StorybookMode) => storybookModePlans[m];

/** Table-level assumptions of the page-deck area (listed in docs/assumptions.md). */
export const storybookTableAssumptions: TableAssumption[] = [
  {
    subject: `page decks: ${storybookModes.map((m) => `${m} ${plan(m).pages} pages of ${plan(m).words.min}-${plan(m).words.max} words (${plan(m).image.width}x${plan(m).image.height} PNG)`).join(', ')}; page 1 is the mode's cover or title page; the text comes from the source (a url source is read as a deterministic fake article of the URL)`,
    reason: 'document 3 gives the modes and the slides voiceover (80-100 words) but no page count, image size or content rule',
  },
  {
    subject: `page-deck schedule: pending ${storybookSchedule.baseMs / 1000} s plus ${storybookSchedule.perPageMs / 1000} s a page plus ${storybookSchedule.perAudioSecondMs} ms a second of narration (2-5 minutes), then success; a video renders in ${storybookVideo.baseMs / 1000} s plus ${storybookVideo.perVideoSecondMs} ms a second; a deck or a render pending ${storybookSchedule.timeoutMs / 60_000} minutes fails (40011)`,
    reason: 'document 3 gives only a typical 2-5 minutes and says the transitions are not shown',
  },
  {
    subject: `page-deck price: ${storybookModes.map((m) => `${m} ${plan(m).creditsPerPage}`).join(', ')} credits a page plus the speech price of the narration (1 credit per ${speechPricing.charsPerCredit} characters; none with skipAudio), reserved at creation and captured on success; a video costs 1 credit per ${storybookVideo.secondsPerCredit} s (at least 1), reserved at the video call and captured on success; failures are refunded in full`,
    reason: 'document 3 says credits are "consumed so far" without a price',
  },
  {
    subject: `page-deck video: ${storybookVideo.width}x${storybookVideo.height} H.264 with the narration as AAC, each page a still in its image's colours from its audioTimestamp; with skipAudio a silent video of ${storybookVideo.silentPageMs / 1000} s a page. A video call while a render is pending or after success answers { success: true } and starts nothing (nothing charged); after a failed render it starts a new one; before processStatus success it answers 409 (40006)`,
    reason: 'document 3 says the video requires processStatus success and answers { success: true }, and nothing more',
  },
  {
    subject:
      'page-deck createdAt is epoch seconds (the samples have second magnitude); with skipAudio, audioUrl is "", audioDuration 0 and every audioTimestamp 0',
    reason: 'document 3 says the unit is not stated, and does not say what skipAudio leaves in the audio fields',
  },
];

// ---------------------------------------------------------------------------
// Operations
// ---------------------------------------------------------------------------

/** Rules of POST /v1/storybook/episodes/{episodeId}/video (x-rules; it has no body), in the order checked. */
const storybookVideoStateRules: StateRule[] = [
  {
    code: 'STORYBOOK_EPISODE_NOT_FOUND',
    fields: ['episodeId'],
    rule: "episodeId names an episode of the caller's (another user's answers the same)",
    reads: 'state',
  },
  { code: 'STORYBOOK_VIDEO_NOT_ALLOWED', fields: ['episodeId'], rule: 'the episode has processStatus success', reads: 'state' },
  { code: 'STORYBOOK_INSUFFICIENT_CREDITS', fields: [], rule: 'the balance covers the price of a new render', reads: 'account' },
];
/**
 * A page deck's video (x-lifecycle of POST /v1/storybook/episodes/{episodeId}/video), once its episode reached
 * processStatus success (document 3, "Page-deck episodes (prefix /v1/storybook)": "Afterwards poll the episode until
 * videoStatus is success and read videoUrl"): videoStatus not_generated -> pending -> success or fail (the moves are
 * not shown: assumed), an MP4 lasting the narration. `credits` counts the deck and its renders: the render's charge is
 * its increase.
 */
const storybookVideoLifecycle: LifecycleDef = {
  statusField: 'videoStatus',
  states: ['not_generated', 'pending', 'success', 'fail'],
  transitions: { not_generated: ['pending', 'success', 'fail'], pending: ['success', 'fail'] },
  terminal: ['success', 'fail'],
  success: 'success',
  pollOperationId: 'getStorybookEpisode',
  idField: 'episodeId',
  firstPollMs: 60_000,
  intervalMs: 10_000,
  timeoutMs: 15 * 60_000,
  provenance: assumed(
    'document 3 advises polling a page-deck episode after 60 s, then every 10 s, and says to poll it until videoStatus is success; the longest wait (15 minutes) is not shown',
  ),
  continues: { operationId: 'createStorybookEpisode' },
  example: {},
  successRequires: ['videoUrl'],
  media: [{ urlField: 'videoUrl', contentTypes: ['video/mp4'], durationField: 'audioDuration' }],
  chargedField: 'credits',
};

// What the operations below share: each states only what differs (operationsWith, schemas/define.ts).
const op = operationsWith({ auth: true, validationError: 'STORYBOOK_INVALID_PARAMETERS' });
const taskOp = operationsWith({ auth: true, validationError: 'STORYBOOK_INVALID_PARAMETERS', charges: true, outcomes: ['failed', 'stuck'] });

/** The page-deck operations (document 3, "Page-deck episodes (prefix /v1/storybook)"). */
export const storybookOperations = defineOperations('Page decks', {
  createStorybookEpisode: taskOp({
    method: 'post',
    path: '/v1/storybook/episodes',
    summary: 'Turn a text or a URL into a narrated deck of pages',
    description:
      'Exactly 1 source (type text: content is the text; type url: content is the URL, uri is ignored); speakers at most 1, required unless skipAudio; language en (default), zh or ja, never inferred; mode info (default), story or slides (80-100 words of voiceover per slide); style opaque. ' +
      'Returns episodeId; poll GET /v1/storybook/episodes/{episodeId} until processStatus is success (its polling advice is on that read). ' +
      `Lifecycle (assumed timings): ${storybookModes.map((m) => `${m} ${plan(m).pages} pages`).join(', ')}; the price is reserved at creation, captured on success, refunded on failure; still pending after 30 minutes: fail with failCode 40011.`,
    provenance: fromSeed(3, 'Page-deck episodes (prefix /v1/storybook)'),
    request: { body: json(StorybookEpisodeRequest) },
    response: { status: 200, kind: 'envelope', schema: CreateStorybookEpisodeData, description: 'the episode, processStatus pending' },
    errors: ['STORYBOOK_INVALID_PARAMETERS', 'STORYBOOK_SPEAKER_NOT_FOUND', 'STORYBOOK_INSUFFICIENT_CREDITS'],
    stateRules: [
      { code: INVALID, fields: ['sources[0].content'], rule: 'a url source is a URI (spaces and non-ASCII characters percent-encoded)', reads: 'body' },
      {
        code: 'STORYBOOK_SPEAKER_NOT_FOUND',
        fields: ['speakers[0].speakerId'],
        rule: 'the speaker id is one GET /v1/speakers/list lists for the account',
        reads: 'catalogue',
      },
      { code: 'STORYBOOK_INSUFFICIENT_CREDITS', fields: [], rule: 'the balance covers the price', reads: 'account' },
    ],
    failureReasons: ['STORYBOOK_GENERATION_FAILED', 'STORYBOOK_CONTENT_REJECTED', 'STORYBOOK_SOURCE_UNREADABLE'],
    lifecycle: episodeTaskLifecycle({
      pollOperationId: 'getStorybookEpisode',
      example: {
        sources: [{ type: 'text', content: 'Lighthouses guided ships along the coast for centuries before radio.' }],
        speakers: [{ speakerId: 'en_ava' }],
      },
      successRequires: ['audioUrl', 'pages'],
      media: [{ urlField: 'audioUrl', contentTypes: ['audio/mpeg'], durationField: 'audioDuration' }],
      chargedField: 'credits',
      firstPollMs: 60_000,
    }),
  }),
  getStorybookEpisode: op({
    method: 'get',
    path: '/v1/storybook/episodes/{episodeId}',
    summary: 'Get a page-deck episode',
    description:
      'Returns the episode: processStatus pending, then success with title, cover, audioUrl, audioDuration and pages (or fail with failCode and message); videoStatus and videoUrl ("" until a video is rendered). createdAt is epoch seconds (assumed). An unknown episode, or one of another user, answers 404 (40005). ' +
      'Recommended polling: wait 60 s, then every 10 s; a deck typically takes 2-5 minutes. Poll until processStatus is success; after POST /v1/storybook/episodes/{episodeId}/video, until videoStatus is success, then read videoUrl.',
    provenance: fromSeed(3, 'Page-deck episode (GET result)'),
    request: { params: StorybookEpisodeIdParams },
    response: { status: 200, kind: 'envelope', schema: StorybookEpisode, description: 'the episode' },
    errors: ['STORYBOOK_INVALID_PARAMETERS', 'STORYBOOK_EPISODE_NOT_FOUND'],
  }),
  createStorybookVideo: taskOp({
    method: 'post',
    path: '/v1/storybook/episodes/{episodeId}/video',
    summary: 'Render a page-deck episode to a video',
    description:
      'No body. Requires processStatus success (else 409, 40006). Answers { success: true }; poll the episode (GET /v1/storybook/episodes/{episodeId}) until videoStatus is success and read videoUrl: an MP4 that lasts the narration and shows each page from its audioTimestamp. ' +
      'While a render is pending, or after one succeeded, the call answers { success: true } again and starts nothing; after a failed render it starts a new one. ' +
      `Price (assumed): 1 credit per ${storybookVideo.secondsPerCredit} s of video, reserved here (402, 40004 when short), captured on success, refunded on failure (a failed render: 40012).`,
    provenance: fromSeed(3, 'Page-deck episodes (prefix /v1/storybook)'),
    request: { params: StorybookEpisodeIdParams },
    response: { status: 200, kind: 'envelope', schema: StorybookVideoData, description: 'the render has started (or was already running or done)' },
    errors: ['STORYBOOK_INVALID_PARAMETERS', 'STORYBOOK_EPISODE_NOT_FOUND', 'STORYBOOK_VIDEO_NOT_ALLOWED', 'STORYBOOK_INSUFFICIENT_CREDITS'],
    stateRules: storybookVideoStateRules,
    failureReasons: ['STORYBOOK_VIDEO_FAILED'],
    lifecycle: storybookVideoLifecycle,
  }),
});

/** The page-deck area: its tag, operations and table assumptions. */
export const storybookArea = {
  tag: { name: 'Page decks', description: 'Narrated decks of pages (info, story, slides) from a text or a URL, rendered to video on request (document 3).' },
  operations: storybookOperations,
  tableAssumptions: storybookTableAssumptions,
} satisfies Area;
