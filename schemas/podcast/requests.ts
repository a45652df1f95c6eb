/**
 * Podcast request schemas (schemas/podcast.ts re-exports them): the one-shot
 * and text-content bodies and their rules, the audio request, the episode path
 * and the text stream's query. Seed: document 2, "Podcast", "Limits".
 */
import { z } from '../zod.ts';
import { js, rule, withRules, type BodyRule, type RuleIssue, type StateRule } from '../rules.ts';
import { idParams, uriString } from '../common.ts';
import { charCount, SPEECH_MAX_CHARS, SpeakerId, SpeechSpeed, speedRule } from '../speech.ts';
import { formatCount } from '../text.ts';
import { LanguageCode, PODCAST_SPEAKERS, podcastLimits, type PodcastMode, podcastModes } from './tables.ts';

// ---------------------------------------------------------------------------
// Request schemas
// ---------------------------------------------------------------------------

/** One source of an episode (document 2): the raw text, or a link. */
export const PodcastSource = z.object({
  type: z.enum(['text', 'url']).meta({ description: 'text or url' }),
  content: z.string().meta({
    description: `text: the raw text (1 to ${formatCount(podcastLimits.textSourceChars)} characters, assumed); url: the link (http or https)`,
  }),
});

const INVALID = 'PODCAST_INVALID_PARAMETERS' as const;
type PodcastBody = { query?: string; sources?: { type: 'text' | 'url'; content: string }[]; speakers: { speakerId: string }[]; mode: PodcastMode };
const sourceIndex = (v: PodcastBody, bad: (s: { type: string; content: string }) => boolean) => Math.max(0, (v.sources ?? []).findIndex(bad));
const isHttp = (s: string) => /^https?:\/\//i.test(s);

/** Rules of a podcast body beyond its shape (document 2, "Podcast"): query or sources, the sources' contents, the speakers of the mode. */
function podcastRules(): BodyRule<PodcastBody>[] {
  const max = podcastLimits.textSourceChars;
  return [
    rule({
      id: 'podcast.query-length',
      rule: `query at most ${formatCount(podcastLimits.queryChars)} characters (assumed)`,
      code: INVALID,
      path: ['query'],
      message: `query must be at most ${formatCount(podcastLimits.queryChars)} characters`,
      then: { properties: { query: { maxLength: podcastLimits.queryChars } } },
    }),
    rule({
      id: 'podcast.query-or-sources',
      rule: 'at least one of query (not blank) or sources (one item or more)',
      code: INVALID,
      path: ['query'],
      message: 'at least one of query or sources is required (query may be empty when sources carries material)',
      then: {
        anyOf: [
          { required: ['query'], properties: { query: js.notBlank } },
          { required: ['sources'], properties: { sources: { minItems: 1 } } },
        ],
      },
    }),
    rule({
      id: 'podcast.text-source',
      rule: `a text source has 1 to ${formatCount(max)} characters, not blank`,
      code: INVALID,
      path: (v) => ['sources', sourceIndex(v, (s) => s.type === 'text' && (s.content.trim() === '' || charCount(s.content) > max)), 'content'],
      message: `a text source takes 1 to ${formatCount(max)} characters (not blank)`,
      then: {
        properties: {
          sources: { items: { if: { properties: { type: { const: 'text' } } }, then: { properties: { content: { ...js.notBlank, maxLength: max } } } } },
        },
      },
    }),
    rule({
      id: 'podcast.url-source',
      rule: 'a url source is an http or https URL',
      code: INVALID,
      path: (v) => ['sources', sourceIndex(v, (s) => s.type === 'url' && !isHttp(s.content)), 'content'],
      message: 'the content of a url source must be an http or https URL',
      then: { properties: { sources: { items: { if: { properties: { type: { const: 'url' } } }, then: { properties: { content: js.httpUrl } } } } } },
    }),
    rule({
      id: 'podcast.debate-speakers',
      rule: `debate: exactly ${PODCAST_SPEAKERS.debate} speakers`,
      code: INVALID,
      path: ['speakers'],
      message: (v) => `debate mode needs exactly ${PODCAST_SPEAKERS.debate} speakers (one for each side); got ${v.speakers.length}`,
      when: { mode: 'debate' },
      then: { properties: { speakers: { minItems: PODCAST_SPEAKERS.debate } } },
    }),
    rule({
      id: 'podcast.distinct-speakers',
      rule: 'the speakers are distinct voices',
      code: INVALID,
      path: ['speakers', 1, 'speakerId'],
      message: 'speakers[1].speakerId repeats speakers[0]; the two speakers of an episode are distinct voices',
      then: { properties: { speakers: { uniqueItems: true } } },
    }),
  ];
}

/** A url source's content is a URI (RFC 3986: JSON Schema's pattern for it is not repeated here; in x-rules). */
function checkSourceUris(v: PodcastBody): RuleIssue[] {
  return (v.sources ?? []).flatMap((s, i) =>
    s.type === 'url' && isHttp(s.content) && !uriString().safeParse(s.content).success
      ? [
          {
            path: ['sources', i, 'content'],
            message: `sources[${i}].content of a url source must be a URI (spaces and non-ASCII characters percent-encoded)`,
            error: INVALID,
          } satisfies RuleIssue,
        ]
      : [],
  );
}

/** Rules of the create endpoints no schema carries (x-rules). */
export const podcastStateRules: StateRule[] = [
  { code: INVALID, fields: ['sources[].content'], rule: 'a url source is a URI (spaces and non-ASCII characters percent-encoded)', reads: 'body' },
  {
    code: 'PODCAST_SPEAKER_NOT_FOUND',
    fields: ['speakers[].speakerId'],
    rule: 'a speaker id is one GET /v1/speakers/list lists for the account',
    reads: 'catalogue',
  },
  { code: 'PODCAST_INSUFFICIENT_CREDITS', fields: [], rule: 'the balance covers the price', reads: 'account' },
  speedRule(INVALID),
];

const podcastFields = {
  query: z
    .string()
    .optional()
    .meta({
      description: `prompt or topic; may be empty when sources carries material (at most ${formatCount(podcastLimits.queryChars)} characters, assumed)`,
    }),
  sources: z
    .array(PodcastSource)
    .max(podcastLimits.sources)
    .optional()
    .meta({ description: `material: items { type (text or url), content }; at most ${podcastLimits.sources} (assumed)` }),
  speakers: z
    .array(z.object({ speakerId: SpeakerId }))
    .min(PODCAST_SPEAKERS.min)
    .max(PODCAST_SPEAKERS.max)
    .meta({ description: '1 to 2 distinct speakers; debate mode needs exactly 2. The first hosts; with two, the lines alternate between them.' }),
  mode: z
    .enum(podcastModes)
    .default('quick')
    .meta({ description: 'quick (default, fast), deep (research style) or debate (exactly 2 speakers, opposing positions)' }),
  speed: SpeechSpeed,
};

const oneShotExample = {
  query: 'Why frontend teams stub their APIs',
  speakers: [{ speakerId: 'en_ava' }, { speakerId: 'en_noah' }],
  mode: 'quick',
  speed: 1,
};

/** Body of POST /v1/podcast/episodes (document 2, "Podcast"). */
export const PodcastRequest = withRules(
  z.object({
    ...podcastFields,
    language: LanguageCode(
      'a language code, for example en, zh or ja; inferred from the query and the text sources when omitted (url sources alone: en)',
    ).optional(),
  }),
  podcastRules(),
  'PodcastRequest',
  { example: oneShotExample },
  checkSourceUris,
);
export type PodcastRequest = z.infer<typeof PodcastRequest>;

/** Body of POST /v1/podcast/episodes/text-content (document 2, "Two-stage flow"): the one-shot fields with language required. */
export const PodcastTextContentRequest = withRules(
  z.object({
    ...podcastFields,
    language: LanguageCode("a language code, for example en, zh or ja (required); each speaker's language must match it"),
  }),
  podcastRules(),
  'PodcastTextContentRequest',
  { example: { ...oneShotExample, language: 'en' } },
  checkSourceUris,
);
export type PodcastTextContentRequest = z.infer<typeof PodcastTextContentRequest>;

/** Rules of POST /v1/podcast/episodes/{episodeId}/audio (x-rules): the episode's stage, the edit against its script, the balance; in the order checked. */
export const podcastAudioStateRules: StateRule[] = [
  {
    code: 'PODCAST_EPISODE_NOT_FOUND',
    fields: ['episodeId'],
    rule: "episodeId names an episode of the caller's (another user's answers the same)",
    reads: 'state',
  },
  {
    code: 'PODCAST_AUDIO_NOT_ALLOWED',
    fields: ['episodeId'],
    rule: 'the episode is of the two-stage flow, its script written (not still writing, not failed) and its audio not rendering',
    reads: 'state',
  },
  { code: INVALID, fields: ['scripts'], rule: "an edited script has as many lines as the episode's script", reads: 'state' },
  { code: INVALID, fields: ['scripts[].speakerId'], rule: "each edited line keeps the speakerId of the episode's line", reads: 'state' },
  {
    code: INVALID,
    fields: ['scripts[].content'],
    rule: `the combined content of the edited lines at most ${formatCount(SPEECH_MAX_CHARS)} characters`,
    reads: 'body',
  },
  { code: 'PODCAST_INSUFFICIENT_CREDITS', fields: [], rule: 'the balance covers the price of the audio', reads: 'account' },
];

/** Body of POST /v1/podcast/episodes/{episodeId}/audio (document 2): empty, or the edited script. */
export const PodcastAudioRequest = z
  .object({
    scripts: z
      .array(z.object({ content: z.string().min(1).meta({ description: 'the words of the line (may be edited)' }), speakerId: SpeakerId }))
      .min(1)
      .optional()
      .meta({
        description:
          'the edited script: the same lines as the episode returned, in order, with the same speakerId on each; only content may change (combined at most 20,000 characters). Left out: the original script is rendered.',
      }),
  })
  .openapi('PodcastAudioRequest', {
    example: {
      scripts: [
        { speakerId: 'en_ava', content: 'Welcome to the show.' },
        { speakerId: 'en_noah', content: 'Thanks for having me.' },
      ],
    },
  });
export type PodcastAudioRequest = z.infer<typeof PodcastAudioRequest>;

export const PodcastEpisodeIdParams = idParams('episodeId', 'episode id', 'pe_1a2b3c4d5e6f7a8b');

/** Which text the stream delivers (document 2: event=script or event=outline). */
export const textStreamEvents = ['script', 'outline'] as const;

/** Query of GET /v1/podcast/episodes/{episodeId}/text-stream. */
export const TextStreamQuery = z.object({
  event: z.enum(textStreamEvents).meta({ description: 'script (the lines, one message each) or outline (the outline items, one message each)' }),
});
