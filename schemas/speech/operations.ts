/**
 * Speech responses, assumptions, operations and the area (schemas/speech.ts
 * re-exports them). Seed: document 2, "Flow-speech episode (GET result)",
 * "Speech endpoints at a glance", "Errors".
 */
import { z } from '../zod.ts';
import type { StateRule } from '../rules.ts';
import { EpochMs } from '../common.ts';
import { errorCatalog } from '../errors.ts';
import { assumed, fromSeed, provenanceMeta, type TableAssumption } from '../provenance.ts';
import { defineOperations, operationsWith, json, type Area } from '../define.ts';
import { episodeTaskLifecycle } from '../lifecycles.ts';
import {
  EPISODE_COVER_SIDE,
  episodeStatuses,
  flowSpeechSchedule,
  SPEAKER_DEMO_MS,
  speakingRate,
  speechPricing,
  ttsContentTypes,
  voiceGenders,
  voiceLanguages,
} from './tables.ts';
import {
  EpisodeIdParams,
  FlowSpeechRequest,
  FlowSpeechTtsRequest,
  INVALID,
  ListSpeakersQuery,
  scriptTotalRule,
  SpeechRequest,
  speedRule,
  TtsRequest,
} from './requests.ts';

// ---------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------

const mediaUrl = (what: string) =>
  z.string().meta(provenanceMeta(assumed('the files are hosted by the service under /media/ (no auth; Range answered 206)'), what));

/** Data of POST /v1/speech (document 2). */
export const SpeechData = z
  .strictObject({
    audioUrl: mediaUrl('MP3 of the lines in order, each speaker in a voice of its own'),
    audioDuration: z.number().int().positive().meta({ description: "ms, the MP3's decoded duration" }),
    subtitlesUrl: mediaUrl('SRT, one cue per line, timed to the audio; valid 24 hours (then 410, code 10015)'),
    taskId: z.string(),
    credits: z.number().int().positive().meta({ description: 'credits charged' }),
  })
  .openapi('SpeechData', {
    example: {
      audioUrl: 'http://localhost:4010/media/speech/sp_1a2b3c4d5e6f7a8b.mp3',
      audioDuration: 5232,
      subtitlesUrl: 'http://localhost:4010/media/speech/sp_1a2b3c4d5e6f7a8b.srt',
      taskId: 'sp_1a2b3c4d5e6f7a8b',
      credits: 1,
    },
  });

/** Data of both flow-speech creates. */
export const CreateEpisodeData = z.strictObject({ episodeId: z.string() }).openapi('CreateEpisodeData', { example: { episodeId: 'fs_1a2b3c4d5e6f7a8b' } });

/** The flow-speech episode (document 2, "Flow-speech episode (GET result)"). Optional fields are absent until they apply. */
export const FlowSpeechEpisode = z
  .strictObject({
    episodeId: z.string(),
    createdAt: EpochMs,
    processStatus: z.enum(episodeStatuses),
    failCode: z
      .number()
      .int()
      .optional()
      .meta(
        provenanceMeta(
          assumed('document 2 says the failCode values are not shown'),
          `present on failure: ${(['SPEECH_GENERATION_FAILED', 'SPEECH_CONTENT_REJECTED', 'SPEECH_SOURCE_UNREADABLE', 'SPEECH_TIMED_OUT'] as const)
            .map((n) => `${errorCatalog[n].code} ${errorCatalog[n].meaning}`)
            .join('; ')}`,
        ),
      ),
    completedTime: EpochMs.optional().meta({ description: 'ms, when it finished (success or fail)' }),
    title: z.string().optional().meta({ description: 'present on success' }),
    outline: z.string().optional().meta({ description: 'present on success: one line per part' }),
    cover: mediaUrl(`cover image (PNG, ${EPISODE_COVER_SIDE}x${EPISODE_COVER_SIDE}), present on success`).optional(),
    audioUrl: mediaUrl('MP3, present on success').optional(),
    audioStreamUrl: mediaUrl('HLS playlist of the audio (packed AAC segments), present on success').optional(),
    subtitlesUrl: mediaUrl('SRT timed to the audio, present on success').optional(),
    scripts: z.string().optional().meta({
      description: 'present on success: the full narration text (smart mode: cleaned; direct mode and multi-voice scripts: verbatim, lines joined by newlines)',
    }),
  })
  .openapi('FlowSpeechEpisode', {
    example: {
      episodeId: 'fs_1a2b3c4d5e6f7a8b',
      createdAt: 1767225600000,
      processStatus: 'success',
      completedTime: 1767225604500,
      title: 'Test servers let a frontend team work',
      outline: '1. Test servers let a frontend team work before the backend exists.\n2. This one keeps state.',
      cover: 'http://localhost:4010/media/flow-speech/fs_1a2b3c4d5e6f7a8b/cover.png',
      audioUrl: 'http://localhost:4010/media/flow-speech/fs_1a2b3c4d5e6f7a8b/audio.mp3',
      audioStreamUrl: 'http://localhost:4010/media/flow-speech/fs_1a2b3c4d5e6f7a8b/audio.m3u8',
      subtitlesUrl: 'http://localhost:4010/media/flow-speech/fs_1a2b3c4d5e6f7a8b/subtitles.srt',
      scripts: 'Test servers let a frontend team work before the backend exists. This one keeps state.',
    },
  });
export type FlowSpeechEpisode = z.infer<typeof FlowSpeechEpisode>;

/** One voice of GET /v1/speakers/list (the seed shows only speakerId; every other field assumed). */
export const Speaker = z
  .strictObject({
    speakerId: z.string().meta({ description: 'pass it wherever a voice is expected (voice of /v1/tts, speakerId of a script line or a speaker)' }),
    name: z.string(),
    language: z.enum(voiceLanguages),
    gender: z.enum(voiceGenders),
    demoAudioUrl: mediaUrl('MP3 sample of the voice'),
    type: z.enum(['built-in', 'cloned']).meta({ description: "built-in, or cloned (the account's confirmed private voice)" }),
  })
  .meta(provenanceMeta(assumed('document 2 says the item shape beyond the speakerId value is not shown')))
  .openapi('Speaker');

/** Data of GET /v1/speakers/list. */
export const SpeakerListData = z
  .strictObject({ speakers: z.array(Speaker) })
  .meta(provenanceMeta(assumed('document 2 does not show the list shape; the voice-clone list also names its array speakers')))
  .openapi('SpeakerListData', {
    example: {
      speakers: [
        {
          speakerId: 'en_ava',
          name: 'Ava',
          language: 'en',
          gender: 'female',
          demoAudioUrl: 'http://localhost:4010/media/speakers/en_ava/demo.mp3',
          type: 'built-in',
        },
      ],
    },
  });

// ---------------------------------------------------------------------------
// Assumptions
// ---------------------------------------------------------------------------

/** Table-level assumptions of the speech area (listed in docs/assumptions.md). */
export const speechTableAssumptions: TableAssumption[] = [
  {
    subject: `speech price: 1 credit per ${speechPricing.charsPerCredit} characters spoken, rounded up, at least ${speechPricing.minCredits} (\`speechPricing\`), the same on every speech endpoint; charged at once by the synchronous endpoints, reserved at creation and captured on success (refunded on failure) by episodes`,
    reason: 'document 2 says the speech estimation endpoints are not shown and gives no speech price',
  },
  {
    subject: `speaking rate: ${speakingRate.msPerWord} ms a word (150 words a minute), ${speakingRate.msPerCjkChar} ms a Chinese or Japanese character, at least ${speakingRate.minMs} ms a line, divided by speed (\`speakingRate\`, \`speechDurationMs\`)`,
    reason: 'document 2 says speed is the speaking rate but gives no rate',
  },
  {
    subject: `speaker catalogue: a female and a male voice for each of ${voiceLanguages.join(', ')}, ids like en_ava (\`builtInSpeakers\`); demo clips of ${SPEAKER_DEMO_MS / 1000} s; listed items carry speakerId, name, language, gender, demoAudioUrl, type`,
    reason: 'document 2 shows no voice catalogue and no item shape beyond speakerId',
  },
  {
    subject:
      'speech errors: 35001 invalid parameters and 35002 unknown speaker (400), 35004 insufficient credits (402), 35006 episode not found (404, also for another user); failCodes 35008-35011',
    reason: 'document 2 says the HTTP statuses of speech failures and the failCode values are not shown',
  },
  {
    subject: `flow-speech schedule: pending ${flowSpeechSchedule.baseMs / 1000} s plus ${flowSpeechSchedule.perAudioSecondMs} ms per second of audio, then success; still pending after ${flowSpeechSchedule.timeoutMs / 60_000} minutes: fail with failCode 35011 (\`flowSpeechSchedule\`)`,
    reason: 'document 2 says the transitions beyond pending, success and fail are not shown',
  },
  {
    subject: `flow-speech content: smart mode collapses spaces, drops markdown marks and repeated punctuation and ends each sentence with a stop; a url source narrates a deterministic fake article derived from the URL; the title is the first sentence (at most 60 characters) and the outline one numbered line per sentence (at most 5); the cover is a ${EPISODE_COVER_SIDE}x${EPISODE_COVER_SIDE} PNG`,
    reason: 'document 2 names the fields but not how they are produced',
  },
  {
    subject: 'a flow-speech text source without a letter or a digit (only spaces or punctuation) answers 400 (35001): there is nothing to narrate',
    reason: 'document 2 gives only the length of a text source',
  },
  {
    subject: 'the language of a flow-speech text is ja when it has kana, zh when it has Han characters, else en (`inferLanguage`)',
    reason: 'document 2 says the language is inferred from the content without the rule',
  },
  {
    subject: 'the subtitles of POST /v1/speech answer 410 (code 10015) after 24 virtual hours; its MP3 stays',
    reason: 'document 2 says the SRT URL is valid 24 hours but not what happens after',
  },
];

// ---------------------------------------------------------------------------
// Operations
// ---------------------------------------------------------------------------

const voiceRule =
  'each voice (the voice field, or a speakerId) must be an id GET /v1/speakers/list lists for this account (a built-in voice, or its own confirmed cloned voice); another answers 400 (35002) naming it.';
const priceRule = `Price (assumed): 1 credit per ${speechPricing.charsPerCredit} characters, rounded up, at least 1; a short balance answers 402 (35004), nothing charged.`;
const rateRule = `Duration (assumed speaking-rate model): 400 ms a word, 250 ms a Chinese or Japanese character, at least 500 ms a line, divided by speed.`;

/** A speaker id of the catalogue: built-in, or the account's own confirmed cloned voice. */
const voiceStateRule = (field: string): StateRule => ({
  code: 'SPEECH_SPEAKER_NOT_FOUND',
  fields: [field],
  rule: 'a speaker id is one GET /v1/speakers/list lists for the account',
  reads: 'catalogue',
});
const creditsStateRule: StateRule = { code: 'SPEECH_INSUFFICIENT_CREDITS', fields: [], rule: 'the balance covers the price', reads: 'account' };

/** Rules of a flow-speech body no schema carries (x-rules). */
const flowSpeechStateRules: StateRule[] = [
  {
    code: INVALID,
    fields: ['sources[0].content'],
    rule: "a url source's content standing for uri is a URI (spaces and non-ASCII characters percent-encoded)",
    reads: 'body',
  },
  voiceStateRule('speakers[0].speakerId'),
  creditsStateRule,
  speedRule(INVALID),
];

const ttsDescription =
  'Speaks input in one voice. The answer is the audio itself, no envelope, streamed with chunked transfer encoding as it is generated, in response_format: ' +
  'mp3 (default), opus (Ogg/Opus), aac (ADTS), flac, wav (16-bit PCM) or pcm (raw 16-bit little-endian samples, no header); every format is 24 kHz mono (assumed). ' +
  '**Content-Type is audio/mpeg for every format except opus, which is audio/ogg** (as document 2 says: the header does not tell wav from mp3; the bytes are of the requested format). ' +
  'A request that fails before audio starts gets the JSON error envelope with Content-Type application/json and a 4xx status, so check the Content-Type. ' +
  `input: 1 to 20,000 characters; speed 0.5-2.0, at most two decimals. ${voiceRule} ${priceRule} ${rateRule} Unknown fields are ignored (the OpenAI SDK sends model).`;

const ttsOperation = (path: string, summary: string, provenanceNote: string) =>
  ({
    method: 'post',
    path,
    summary,
    description: `${ttsDescription}${provenanceNote}`,
    provenance: fromSeed(2, 'POST /v1/tts and POST /v1/audio/speech'),
    auth: true,
    request: { body: json(TtsRequest) },
    response: {
      status: 200,
      kind: 'binary',
      contentTypes: ttsContentTypes,
      description: 'the audio: audio/mpeg for mp3, aac, flac, wav and pcm; audio/ogg for opus',
    },
    errors: ['SPEECH_INVALID_PARAMETERS', 'SPEECH_SPEAKER_NOT_FOUND', 'SPEECH_INSUFFICIENT_CREDITS', 'SPEECH_GENERATION_FAILED'],
    validationError: 'SPEECH_INVALID_PARAMETERS',
    stateRules: [voiceStateRule('voice'), creditsStateRule, speedRule(INVALID)],
    charges: true,
  }) as const;

const episodeErrors = ['SPEECH_INVALID_PARAMETERS', 'SPEECH_SPEAKER_NOT_FOUND', 'SPEECH_INSUFFICIENT_CREDITS'] as const;
const episodeFailures = ['SPEECH_GENERATION_FAILED', 'SPEECH_CONTENT_REJECTED', 'SPEECH_SOURCE_UNREADABLE'] as const;
const episodeLifecycle =
  `Lifecycle (assumed timings): processStatus pending for ${flowSpeechSchedule.baseMs / 1000} s plus ${flowSpeechSchedule.perAudioSecondMs} ms per second of audio, then success; ` +
  `still pending after ${flowSpeechSchedule.timeoutMs / 60_000} minutes: fail with failCode 35011. Credits are reserved at creation, captured on success, refunded on failure.`;

// What the operations below share: each states only what differs (operationsWith, schemas/define.ts).
const op = operationsWith({ auth: true, validationError: 'SPEECH_INVALID_PARAMETERS' });
const taskOp = operationsWith({
  auth: true,
  validationError: 'SPEECH_INVALID_PARAMETERS',
  charges: true,
  outcomes: ['failed', 'stuck'],
  failureReasons: [...episodeFailures],
});

/** The speech operations (document 2). */
export const speechOperations = defineOperations('Speech', {
  synthesizeSpeech: ttsOperation('/v1/tts', 'Speak a text in one voice (binary audio)', ''),
  createSpeech: ttsOperation(
    '/v1/audio/speech',
    'Speak a text in one voice (binary audio; OpenAI-SDK compatible alias of /v1/tts)',
    ' An exact alias of POST /v1/tts in the request shape of the OpenAI SDK: client.audio.speech.create({ model, voice, input, response_format }) with baseURL {base_url}/v1.',
  ),
  createSpeechScript: op({
    method: 'post',
    path: '/v1/speech',
    summary: 'Speak a multi-voice script (JSON with the audio URL)',
    description:
      "Synthesizes the lines in order, each in its speaker's voice, and answers with the MP3 URL, its duration in ms (the decoded duration of the MP3), the SRT URL (one cue per line, timed to the audio; valid 24 hours, then 410 with code 10015), a taskId and the credits charged. " +
      `At least one line; each content non-empty; combined content at most 20,000 characters; speed 0.5-2.0, at most two decimals. ${voiceRule} ${priceRule} ${rateRule}`,
    provenance: fromSeed(2, 'POST /v1/speech'),
    request: { body: json(SpeechRequest) },
    response: { status: 200, kind: 'envelope', schema: SpeechData, description: 'the audio and subtitles' },
    errors: ['SPEECH_INVALID_PARAMETERS', 'SPEECH_SPEAKER_NOT_FOUND', 'SPEECH_INSUFFICIENT_CREDITS', 'SPEECH_GENERATION_FAILED'],
    stateRules: [scriptTotalRule, voiceStateRule('scripts[].speakerId'), creditsStateRule, speedRule(INVALID)],
    charges: true,
  }),
  createFlowSpeechEpisode: taskOp({
    method: 'post',
    path: '/v1/flow-speech/episodes',
    summary: 'Narrate a text or a page in one voice (asynchronous episode)',
    description:
      'Exactly one source (text: content of 10 to 20,000 characters; url: uri, or content holding the page address) and exactly one speaker. ' +
      'language en, zh or ja (inferred from the content when omitted); mode smart (default: the narration is the text cleaned of markdown marks, repeated punctuation and stray spaces) or direct (verbatim). ' +
      `A url source narrates the page's text. Returns episodeId; poll GET /v1/flow-speech/episodes/{episodeId}. ${voiceRule} ${priceRule} (on the narrated text) ${rateRule}\n\n${episodeLifecycle}`,
    provenance: fromSeed(2, 'POST /v1/flow-speech/episodes'),
    request: { body: json(FlowSpeechRequest) },
    response: { status: 200, kind: 'envelope', schema: CreateEpisodeData, description: 'the episode, processStatus pending' },
    errors: [...episodeErrors],
    stateRules: flowSpeechStateRules,
    lifecycle: episodeTaskLifecycle({
      pollOperationId: 'getFlowSpeechEpisode',
      example: {
        sources: [{ type: 'text', content: 'Lighthouses guided ships along the coast for centuries before radio.' }],
        speakers: [{ speakerId: 'en_ava' }],
      },
      successRequires: ['audioUrl'],
      media: [{ urlField: 'audioUrl', contentTypes: ['audio/mpeg'] }],
    }),
  }),
  createFlowSpeechTtsEpisode: taskOp({
    method: 'post',
    path: '/v1/flow-speech/episodes/tts',
    summary: 'Convert a long multi-voice script verbatim (asynchronous episode)',
    description:
      'Request and response shapes are assumed (document 2 says they are not shown): the script of POST /v1/speech ({scripts: [{speakerId, content}], language?, speed?}, the same rules), read verbatim, one voice per speaker; returns {episodeId}, polled on GET /v1/flow-speech/episodes/{episodeId}. ' +
      `${voiceRule} ${priceRule} ${rateRule}\n\n${episodeLifecycle}`,
    provenance: fromSeed(2, 'POST /v1/flow-speech/episodes/tts'),
    request: { body: json(FlowSpeechTtsRequest) },
    response: { status: 200, kind: 'envelope', schema: CreateEpisodeData, description: 'the episode, processStatus pending' },
    errors: [...episodeErrors],
    stateRules: [scriptTotalRule, voiceStateRule('scripts[].speakerId'), creditsStateRule, speedRule(INVALID)],
    lifecycle: episodeTaskLifecycle({
      pollOperationId: 'getFlowSpeechEpisode',
      example: { scripts: [{ speakerId: 'en_ava', content: 'Chapter one. The lighthouse keeper woke before dawn.' }] },
      successRequires: ['audioUrl'],
      media: [{ urlField: 'audioUrl', contentTypes: ['audio/mpeg'] }],
    }),
  }),
  getFlowSpeechEpisode: op({
    method: 'get',
    path: '/v1/flow-speech/episodes/{episodeId}',
    summary: 'Get a flow-speech episode',
    description:
      'Returns the episode. Poll until processStatus is success (or fail, with failCode). title, outline, scripts and the media URLs (cover PNG, MP3, HLS playlist, SRT) are present on success. ' +
      'An unknown episode, or one of another user, answers 404 (35006, assumed).',
    provenance: fromSeed(2, 'GET /v1/flow-speech/episodes/{episodeId}'),
    request: { params: EpisodeIdParams },
    response: { status: 200, kind: 'envelope', schema: FlowSpeechEpisode, description: 'the episode' },
    errors: ['SPEECH_INVALID_PARAMETERS', 'SPEECH_EPISODE_NOT_FOUND'],
  }),
  listSpeakers: op({
    method: 'get',
    path: '/v1/speakers/list',
    summary: 'List the voices this account can use',
    description:
      `The built-in voices (assumed catalogue: a female and a male voice for each of ${voiceLanguages.join(', ')}) and the account's confirmed cloned voices, filtered by language when given (every voice when omitted, assumed). ` +
      'Every speech endpoint accepts exactly the ids listed here for the account.',
    provenance: fromSeed(2, 'GET /v1/speakers/list'),
    request: { query: ListSpeakersQuery },
    response: { status: 200, kind: 'envelope', schema: SpeakerListData, description: 'the voices' },
    errors: ['SPEECH_INVALID_PARAMETERS'],
  }),
});

/** The speech area: its tag, operations and table assumptions. */
export const speechArea = {
  tag: {
    name: 'Speech',
    description: 'Speech synthesis: binary TTS (and its OpenAI-SDK alias), multi-voice scripts, flow-speech episodes and the speaker catalogue (document 2).',
  },
  operations: speechOperations,
  tableAssumptions: speechTableAssumptions,
} satisfies Area;
