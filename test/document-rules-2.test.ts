/**
 * Body rules measured against document 2, not against the mock's own rule table (test/spec-rules.test.ts takes its
 * cases from schemas/rules.ts, which the mock runs: agreement, not correctness). Every case below is a request body
 * written by hand from document 2 with the answer it gives: accepted, or refused with the code document 2 numbers
 * (33004 and 33005 of the generated-audio services, "Errors", all of HTTP 400). Where document 2 numbers no code
 * (speech: "the HTTP status codes of speech endpoint failures: not shown"; voice cloning and podcasts name their
 * errors without numbers), the case expects the catalogue's code (schemas/errors.ts, decisions/0003-assumed-codes.md)
 * and says so. Each case names its section. The cases run through the mock in process and through ajv over
 * spec/openapi.json (test/document-cases.ts); the test prints both figures and fails on any case that differs.
 */
import { describe, expect, it } from 'vitest';
import { wavBytes, wavOfSize, type Body } from './factories.ts';
import { completedClone, confirmedVoice, editScript, writtenEpisode } from './document-setups.ts';
import { describeRun, file, runDocumentCases, type DocumentCase, type Expected } from './document-cases.ts';

const D2 = 'document 2';
// the catalogue's codes where document 2 numbers none (all HTTP 400 unless said)
/** Speech: document 2, "Errors": "The HTTP status codes of speech endpoint failures: not shown" (catalogue SPEECH_INVALID_PARAMETERS). */
const SPEECH_INVALID: Expected = { status: 400, code: 35001 };
/** Speech: a voice no speaker list holds (catalogue SPEECH_SPEAKER_NOT_FOUND; document 2 numbers none). */
const SPEECH_SPEAKER: Expected = { status: 400, code: 35002 };
/** Voice cloning: document 2, "Errors", names no code for a malformed request (catalogue VOICE_CLONE_INVALID_PARAMETERS). */
const CLONE_INVALID: Expected = { status: 400, code: 36001 };
/** Voice cloning: files over "each at most 5 MB, at most 20 MB total" (document 2, "Limits"; catalogue VOICE_CLONE_FILES_TOO_LARGE, 413). */
const CLONE_TOO_LARGE: Expected = { status: 413, code: 36014 };
/** Podcast: document 2, "Errors", numbers no podcast code (catalogue PODCAST_INVALID_PARAMETERS). */
const PODCAST_INVALID: Expected = { status: 400, code: 37001 };
/** Podcast: "Speaker language mismatch" (document 2, "Errors", named without a number; catalogue SPEAKER_LANGUAGE_MISMATCH). */
const LANGUAGE_MISMATCH: Expected = { status: 400, code: 37002 };
/** Podcast: a speakerId no speaker list holds (catalogue PODCAST_SPEAKER_NOT_FOUND). */
const PODCAST_SPEAKER: Expected = { status: 400, code: 37003 };
/** Generated audio: document 2, "Errors": "33004 invalid parameters", HTTP 400 ("business errors return HTTP 400"). */
const GEN_INVALID: Expected = { status: 400, code: 33004 };
/** Generated audio: document 2, "Errors": "33005 too many voices (max 3)". */
const GEN_TOO_MANY_VOICES: Expected = { status: 400, code: 33005 };
/** Generated audio: document 2, "Errors": "33002 speaker not found for a speaker entry". */
const GEN_SPEAKER: Expected = { status: 400, code: 33002 };

const ok = 'accepted' as const;
/** Why ajv cannot judge a rule that reads the speaker list. */
const CATALOGUE = 'reads the speaker list (x-rules, reads catalogue)';
/** Why ajv cannot judge a rule the spec states in words and x-rules only. */
const X_RULES = (what: string) => `${what}: stated in x-rules (reads body), not as a schema keyword`;
const x = (n: number) => 'x'.repeat(n);
const words = (n: number) => 'Mock servers help. '.repeat(Math.ceil(n / 19)).slice(0, n);
// a speaker id of the service's built-in list (GET /v1/speakers/list): the documents name none
const AVA = 'en_ava';
const NOAH = 'en_noah';
const ZH = 'zh_wei';
// a 1x1 GIF and a 1x1 PNG
const GIF = 'R0lGODlhAQABAAAAACwAAAAAAQABAAACAkQBADs=';
/** A PNG of `n` bytes: the 1x1 PNG below, padded after its end. */
const pngOf = (n: number) => {
  const out = new Uint8Array(n);
  out.set(Buffer.from(PNG, 'base64'));
  return out;
};
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

// ---------------------------------------------------------------------------
// document 2, "POST /v1/tts and POST /v1/audio/speech", "POST /v1/speech", "POST /v1/flow-speech/episodes", "Limits"
// ---------------------------------------------------------------------------

const TTS = `${D2}, "POST /v1/tts and POST /v1/audio/speech"`;
const tts = (what: string, body: Body, expected: Expected, notInSchema?: string): DocumentCase[] =>
  (['synthesizeSpeech', 'createSpeech'] as const).map((op) => ({ source: TTS, what: `${op}: ${what}`, op, body, expected, notInSchema }));
const SPEED = `${D2}, "Limits": speed 0.5-2.0, at most two decimals`;
const SPEECH = `${D2}, "POST /v1/speech"`;
const script = (over: Body = {}) => ({ scripts: [{ content: 'Hello there.', speakerId: AVA }], ...over });
const FLOW = `${D2}, "POST /v1/flow-speech/episodes"`;
const flow = (over: Body = {}) => ({ sources: [{ type: 'text', content: 'Mock servers keep their state.' }], speakers: [{ speakerId: AVA }], ...over });

const speechCases: DocumentCase[] = [
  ...tts('input and voice', { input: 'Hello there.', voice: AVA }, ok),
  ...tts('input is required', { voice: AVA }, SPEECH_INVALID),
  ...tts('voice is required', { input: 'Hello there.' }, SPEECH_INVALID),
  ...tts('input over 20,000 characters', { input: x(20_001), voice: AVA }, SPEECH_INVALID),
  ...tts('response_format opus', { input: 'Hi.', voice: AVA, response_format: 'opus' }, ok),
  ...tts('response_format outside mp3, opus, aac, flac, wav, pcm', { input: 'Hi.', voice: AVA, response_format: 'ogg' }, SPEECH_INVALID),
  ...tts('a voice that is no speaker id', { input: 'Hi.', voice: 'xx_nobody' }, SPEECH_SPEAKER, CATALOGUE),
  { source: SPEED, what: 'tts speed 0.5', op: 'synthesizeSpeech', body: { input: 'Hi.', voice: AVA, speed: 0.5 }, expected: ok },
  { source: SPEED, what: 'tts speed 2.0', op: 'synthesizeSpeech', body: { input: 'Hi.', voice: AVA, speed: 2 }, expected: ok },
  { source: SPEED, what: 'tts speed 1.25 (two decimals)', op: 'synthesizeSpeech', body: { input: 'Hi.', voice: AVA, speed: 1.25 }, expected: ok },
  { source: SPEED, what: 'tts speed 0.49', op: 'synthesizeSpeech', body: { input: 'Hi.', voice: AVA, speed: 0.49 }, expected: SPEECH_INVALID },
  { source: SPEED, what: 'tts speed 2.01', op: 'synthesizeSpeech', body: { input: 'Hi.', voice: AVA, speed: 2.01 }, expected: SPEECH_INVALID },
  {
    source: SPEED,
    what: 'tts speed 1.005 (three decimals)',
    op: 'synthesizeSpeech',
    body: { input: 'Hi.', voice: AVA, speed: 1.005 },
    expected: SPEECH_INVALID,
    notInSchema: X_RULES('two decimals (multipleOf 0.01 fails allowed values in binary floating point)'),
  },
  { source: SPEECH, what: 'one line', op: 'createSpeechScript', body: script(), expected: ok },
  {
    source: SPEECH,
    what: 'lines of two speakers, speed 1.5',
    op: 'createSpeechScript',
    body: {
      scripts: [
        { content: 'Hello.', speakerId: AVA },
        { content: 'Hi.', speakerId: NOAH },
      ],
      speed: 1.5,
    },
    expected: ok,
  },
  { source: SPEECH, what: 'scripts is required', op: 'createSpeechScript', body: { speed: 1 }, expected: SPEECH_INVALID },
  { source: SPEECH, what: 'at least one line', op: 'createSpeechScript', body: { scripts: [] }, expected: SPEECH_INVALID },
  {
    source: SPEECH,
    what: 'content is non-empty',
    op: 'createSpeechScript',
    body: script({ scripts: [{ content: '', speakerId: AVA }] }),
    expected: SPEECH_INVALID,
  },
  { source: SPEECH, what: 'content is required', op: 'createSpeechScript', body: script({ scripts: [{ speakerId: AVA }] }), expected: SPEECH_INVALID },
  { source: SPEECH, what: 'speakerId is required', op: 'createSpeechScript', body: script({ scripts: [{ content: 'Hello.' }] }), expected: SPEECH_INVALID },
  {
    source: `${D2}, "Limits": speech scripts combined 20,000 characters`,
    what: 'two lines of 10,000 characters',
    op: 'createSpeechScript',
    body: {
      scripts: [
        { content: x(10_000), speakerId: AVA },
        { content: x(10_000), speakerId: NOAH },
      ],
    },
    expected: ok,
  },
  {
    source: `${D2}, "Limits": speech scripts combined 20,000 characters`,
    what: 'two lines of 10,000 and 10,001 characters',
    op: 'createSpeechScript',
    body: {
      scripts: [
        { content: x(10_000), speakerId: AVA },
        { content: x(10_001), speakerId: NOAH },
      ],
    },
    expected: SPEECH_INVALID,
    notInSchema: X_RULES('a combined length'),
  },
  {
    source: `${D2}, "Voice cloning": a cloned voice's speakerId "is passed wherever a voice is expected"`,
    what: "/v1/speech with the caller's cloned voice",
    op: 'createSpeechScript',
    body: {},
    expected: ok,
    setup: async (mock, key) => ({ body: { scripts: [{ content: 'Hello.', speakerId: await confirmedVoice(mock, key) }] } }),
  },
  {
    source: `${D2}, "Voice cloning": a cloned voice's speakerId "is passed wherever a voice is expected"`,
    what: "/v1/tts with the caller's cloned voice",
    op: 'synthesizeSpeech',
    body: { input: 'Hello.' },
    expected: ok,
    setup: async (mock, key) => ({ body: { voice: await confirmedVoice(mock, key) } }),
  },
  { source: SPEED, what: '/v1/speech speed 2.5', op: 'createSpeechScript', body: script({ speed: 2.5 }), expected: SPEECH_INVALID },
  {
    source: SPEECH,
    what: 'a speakerId no list holds',
    op: 'createSpeechScript',
    body: script({ scripts: [{ content: 'Hi.', speakerId: 'xx_nobody' }] }),
    expected: SPEECH_SPEAKER,
    notInSchema: CATALOGUE,
  },
  { source: FLOW, what: 'a text source and one speaker', op: 'createFlowSpeechEpisode', body: flow(), expected: ok },
  { source: FLOW, what: 'sources is required', op: 'createFlowSpeechEpisode', body: flow({ sources: undefined }), expected: SPEECH_INVALID },
  { source: FLOW, what: 'exactly 1 source: none', op: 'createFlowSpeechEpisode', body: flow({ sources: [] }), expected: SPEECH_INVALID },
  {
    source: FLOW,
    what: 'exactly 1 source: two',
    op: 'createFlowSpeechEpisode',
    body: flow({
      sources: [
        { type: 'text', content: words(40) },
        { type: 'text', content: words(40) },
      ],
    }),
    expected: SPEECH_INVALID,
  },
  {
    source: FLOW,
    what: 'a source type other than text or url',
    op: 'createFlowSpeechEpisode',
    body: flow({ sources: [{ type: 'pdf', content: words(40) }] }),
    expected: SPEECH_INVALID,
  },
  {
    source: FLOW,
    what: 'text content of 9 characters',
    op: 'createFlowSpeechEpisode',
    body: flow({ sources: [{ type: 'text', content: x(9) }] }),
    expected: SPEECH_INVALID,
  },
  {
    source: FLOW,
    what: 'text content of 10 characters',
    op: 'createFlowSpeechEpisode',
    body: flow({ sources: [{ type: 'text', content: 'Ten chars.' }] }),
    expected: ok,
  },
  {
    source: FLOW,
    what: 'text content of 20,000 characters',
    op: 'createFlowSpeechEpisode',
    body: flow({ sources: [{ type: 'text', content: words(20_000) }] }),
    expected: ok,
  },
  {
    source: FLOW,
    what: 'text content of 20,001 characters',
    op: 'createFlowSpeechEpisode',
    body: flow({ sources: [{ type: 'text', content: words(20_001) }] }),
    expected: SPEECH_INVALID,
  },
  { source: FLOW, what: 'a text source without content', op: 'createFlowSpeechEpisode', body: flow({ sources: [{ type: 'text' }] }), expected: SPEECH_INVALID },
  {
    source: FLOW,
    what: 'a url source with uri',
    op: 'createFlowSpeechEpisode',
    body: flow({ sources: [{ type: 'url', uri: 'https://example.com/post' }] }),
    expected: ok,
  },
  {
    source: FLOW,
    what: 'a url source with content in place of uri',
    op: 'createFlowSpeechEpisode',
    body: flow({ sources: [{ type: 'url', content: 'https://example.com/post' }] }),
    expected: ok,
  },
  {
    source: FLOW,
    what: 'a url source with neither uri nor content',
    op: 'createFlowSpeechEpisode',
    body: flow({ sources: [{ type: 'url' }] }),
    expected: SPEECH_INVALID,
  },
  { source: FLOW, what: 'speakers is required', op: 'createFlowSpeechEpisode', body: flow({ speakers: undefined }), expected: SPEECH_INVALID },
  {
    source: FLOW,
    what: 'exactly 1 speaker: two',
    op: 'createFlowSpeechEpisode',
    body: flow({ speakers: [{ speakerId: AVA }, { speakerId: NOAH }] }),
    expected: SPEECH_INVALID,
  },
  { source: FLOW, what: 'language ja', op: 'createFlowSpeechEpisode', body: flow({ language: 'ja' }), expected: ok },
  { source: FLOW, what: 'a language outside en, zh, ja', op: 'createFlowSpeechEpisode', body: flow({ language: 'fr' }), expected: SPEECH_INVALID },
  { source: FLOW, what: 'mode direct', op: 'createFlowSpeechEpisode', body: flow({ mode: 'direct' }), expected: ok },
  { source: FLOW, what: 'a mode other than smart or direct', op: 'createFlowSpeechEpisode', body: flow({ mode: 'verbatim' }), expected: SPEECH_INVALID },
  { source: SPEED, what: 'flow-speech speed 0.4', op: 'createFlowSpeechEpisode', body: flow({ speed: 0.4 }), expected: SPEECH_INVALID },
];

// ---------------------------------------------------------------------------
// document 2, "Voice cloning (prefix /v1/voice-clone)", "Limits"
// ---------------------------------------------------------------------------

const CLONE = `${D2}, "Voice cloning": POST /v1/voice-clone/clone`;
const wav = (n = 0) => file(`sample${n}.wav`, wavBytes(6));
const clone = (over: Body = {}): Body => ({ audioFiles: [wav()], language: 'en', consentConfirmed: true, ...over });
const CONFIRM = `${D2}, "Voice cloning": POST /v1/voice-clone/confirm`;

const cloneCases: DocumentCase[] = [
  { source: CLONE, what: 'one file, language, consent', op: 'createVoiceClone', body: clone(), expected: ok },
  { source: CLONE, what: 'six files', op: 'createVoiceClone', body: clone({ audioFiles: [0, 1, 2, 3, 4, 5].map(wav) }), expected: ok },
  { source: CLONE, what: 'seven files', op: 'createVoiceClone', body: clone({ audioFiles: [0, 1, 2, 3, 4, 5, 6].map(wav) }), expected: CLONE_INVALID },
  { source: CLONE, what: 'audioFiles is required', op: 'createVoiceClone', body: clone({ audioFiles: undefined }), expected: CLONE_INVALID },
  { source: CLONE, what: 'language ko', op: 'createVoiceClone', body: clone({ language: 'ko' }), expected: ok },
  { source: CLONE, what: 'a language outside the twelve', op: 'createVoiceClone', body: clone({ language: 'ru' }), expected: CLONE_INVALID },
  { source: CLONE, what: 'language is required', op: 'createVoiceClone', body: clone({ language: undefined }), expected: CLONE_INVALID },
  { source: CLONE, what: 'consentConfirmed false', op: 'createVoiceClone', body: clone({ consentConfirmed: false }), expected: CLONE_INVALID },
  { source: CLONE, what: 'consentConfirmed missing', op: 'createVoiceClone', body: clone({ consentConfirmed: undefined }), expected: CLONE_INVALID },
  { source: CLONE, what: 'mode upload', op: 'createVoiceClone', body: clone({ mode: 'upload' }), expected: ok },
  { source: CLONE, what: 'a mode other than upload', op: 'createVoiceClone', body: clone({ mode: 'record' }), expected: CLONE_INVALID },
  {
    source: CLONE,
    what: 'autoConfirm with name and gender',
    op: 'createVoiceClone',
    body: clone({ autoConfirm: true, name: 'Narrator', gender: 'other', useCredits: true }),
    expected: ok,
  },
  { source: CLONE, what: 'autoConfirm without name', op: 'createVoiceClone', body: clone({ autoConfirm: true, gender: 'female' }), expected: CLONE_INVALID },
  { source: CLONE, what: 'autoConfirm without gender', op: 'createVoiceClone', body: clone({ autoConfirm: true, name: 'Narrator' }), expected: CLONE_INVALID },
  {
    source: CLONE,
    what: 'a name of 51 characters',
    op: 'createVoiceClone',
    body: clone({ autoConfirm: true, name: x(51), gender: 'male' }),
    expected: CLONE_INVALID,
  },
  {
    source: CLONE,
    what: 'a gender outside male, female, other',
    op: 'createVoiceClone',
    body: clone({ autoConfirm: true, name: 'N', gender: 'robot' }),
    expected: CLONE_INVALID,
  },
  {
    source: `${D2}, "Limits": voice clone files each at most 5 MB`,
    what: 'a file of 5 MB and one byte',
    op: 'createVoiceClone',
    body: clone({ audioFiles: [file('big.wav', wavOfSize(5 * 1024 * 1024 + 1))] }),
    expected: CLONE_TOO_LARGE,
    notInSchema: "a file's size (the multipart limits beside the schema, judged as the form streams in)",
  },
  { source: CONFIRM, what: 'taskId is required', op: 'confirmVoiceClone', body: { name: 'Narrator', gender: 'female' }, expected: CLONE_INVALID },
  { source: CONFIRM, what: 'name is required', op: 'confirmVoiceClone', body: { taskId: 'vc_0000000000000000', gender: 'female' }, expected: CLONE_INVALID },
  { source: CONFIRM, what: 'gender is required', op: 'confirmVoiceClone', body: { taskId: 'vc_0000000000000000', name: 'Narrator' }, expected: CLONE_INVALID },
  {
    source: CONFIRM,
    what: 'a name of 51 characters',
    op: 'confirmVoiceClone',
    body: { taskId: 'vc_0000000000000000', name: x(51), gender: 'male' },
    expected: CLONE_INVALID,
  },
  {
    source: CONFIRM,
    what: 'a gender outside male, female, other',
    op: 'confirmVoiceClone',
    body: { taskId: 'vc_0000000000000000', name: 'Narrator', gender: 'f' },
    expected: CLONE_INVALID,
  },
  {
    source: CONFIRM,
    what: 'a completed task, name and gender',
    op: 'confirmVoiceClone',
    body: { name: 'Narrator', gender: 'other', useCredits: true },
    expected: ok,
    setup: async (mock, key) => ({ body: { taskId: await completedClone(mock, key) } }),
  },
  ...(
    [
      ['a new name', { name: 'Narrator (warm)' }, ok],
      ['a new gender', { gender: 'male' }, ok],
      ['neither name nor gender (at least one)', {}, CLONE_INVALID],
      ['a name of 51 characters', { name: x(51) }, CLONE_INVALID],
      ['a gender outside male, female, other', { gender: 'none' }, CLONE_INVALID],
    ] as const
  ).map(([what, body, expected]): DocumentCase => ({
    source: `${D2}, "Voice cloning": PUT /v1/voice-clone/speakers/{speakerId}`,
    what,
    op: 'updatePrivateVoice',
    body,
    expected,
    setup: async (mock, key) => ({ params: { speakerId: await confirmedVoice(mock, key) } }),
  })),
];

// ---------------------------------------------------------------------------
// document 2, "Generated-audio tasks (prefix P = /v1/platform-voice or /v1/seed-audio)", "Errors", "Limits"
// ---------------------------------------------------------------------------

const GEN = `${D2}, "Generated-audio tasks"`;
const narration = 'Rain on a tin roof, then thunder far away.';
const speaker = (id = AVA) => ({ type: 'speaker', id });
const reference = (url = 'https://example.com/voice.mp3') => ({ type: 'reference', url });
/** The same case on both services (P1 and P2 "share one shape"). */
const gen = (what: string, body: Body, expected: Expected, notInSchema?: string, source = GEN): DocumentCase[] =>
  (['createPlatformVoiceTask', 'createSeedAudioTask'] as const).map((op) => ({
    source,
    what: `${op}: ${what}`,
    op,
    body: { text: narration, ...body },
    expected,
    notInSchema,
  }));

const generatedAudioCases: DocumentCase[] = [
  ...gen('text alone (plain narration)', {}, ok),
  ...gen('text is required', { text: undefined }, GEN_INVALID),
  ...gen('text of 1400 characters', { text: x(1400) }, ok),
  ...gen('text of 1401 characters', { text: x(1401) }, GEN_INVALID),
  ...gen('dialogue of two speaker voices', { text: '@音频1 Hello.\n@音频2 Hi there.', voices: [speaker(), speaker(NOAH)] }, ok),
  ...gen('three voices', { voices: [speaker(), speaker(NOAH), reference()] }, ok),
  ...gen('four voices', { voices: [speaker(), speaker(NOAH), speaker(), reference()] }, GEN_TOO_MANY_VOICES, undefined, `${D2}, "Errors": 33005`),
  ...gen('voices empty (1-3 entries)', { voices: [] }, GEN_INVALID),
  ...gen('a voice entry of another type', { voices: [{ type: 'clone', id: AVA }] }, GEN_INVALID),
  ...gen('a reference voice by https', { voices: [reference()] }, ok),
  ...gen('a reference voice on ftp', { voices: [reference('ftp://example.com/v.mp3')] }, GEN_INVALID),
  ...gen(
    'an entry mixing id and url',
    { voices: [{ type: 'speaker', id: AVA, url: 'https://example.com/v.mp3' }] },
    GEN_INVALID,
    undefined,
    `${D2}, "Errors": 33004`,
  ),
  ...gen('a reference entry with an id', { voices: [{ type: 'reference', id: AVA, url: 'https://example.com/v.mp3' }] }, GEN_INVALID),
  ...gen('a speaker entry of an unknown speaker', { voices: [speaker('xx_nobody')] }, GEN_SPEAKER, CATALOGUE, `${D2}, "Errors": 33002`),
  ...gen('voices and image together', { voices: [speaker()], image: { url: 'https://example.com/a.png' } }, GEN_INVALID, undefined, `${D2}, "Errors": 33004`),
  ...gen('an image by url', { image: { url: 'https://example.com/a.png' } }, ok),
  ...gen('an image by data with a data: prefix', { image: { data: `data:image/png;base64,${PNG}` } }, ok),
  ...gen('an image by bare Base64 data', { image: { data: PNG } }, ok),
  ...gen('an image with both url and data', { image: { url: 'https://example.com/a.png', data: PNG } }, GEN_INVALID),
  ...gen('an image with neither url nor data', { image: {} }, GEN_INVALID),
  ...gen('an image url on ftp', { image: { url: 'ftp://example.com/a.png' } }, GEN_INVALID),
  {
    source: `${GEN}: image "at most 10 MB"`,
    what: 'image data of 10 MB and one byte',
    op: 'createPlatformVoiceTask',
    body: { text: narration, image: { data: `data:image/png;base64,${Buffer.from(pngOf(10 * 1024 * 1024 + 1)).toString('base64')}` } },
    expected: GEN_INVALID,
    notInSchema: X_RULES("the image's decoded size"),
  },
  {
    source: `${GEN}: image "at most 10 MB"`,
    what: 'image data of 2 MB',
    op: 'createSeedAudioTask',
    body: { text: narration, image: { data: Buffer.from(pngOf(2 * 1024 * 1024)).toString('base64') } },
    expected: ok,
  },
  ...gen(
    'image data of a GIF (jpeg, png or webp)',
    { image: { data: `data:image/gif;base64,${GIF}` } },
    GEN_INVALID,
    X_RULES('the image type, read from its bytes'),
  ),
  ...gen(
    'a line for a third voice with two voices (lines go to voices in order)',
    { text: '@音频1 Hi.\n@音频3 Hello.', voices: [speaker(), speaker(NOAH)] },
    GEN_INVALID,
  ),
  ...gen('audioConfig at its bounds', { audioConfig: { speechRate: -50, loudnessRate: 100, pitchRate: 12, format: 'ogg_opus' } }, ok),
  ...gen('speechRate -51', { audioConfig: { speechRate: -51 } }, GEN_INVALID),
  ...gen('loudnessRate 101', { audioConfig: { loudnessRate: 101 } }, GEN_INVALID),
  ...gen('pitchRate -13', { audioConfig: { pitchRate: -13 } }, GEN_INVALID),
  ...gen('a format outside mp3, wav, pcm, ogg_opus', { audioConfig: { format: 'flac' } }, GEN_INVALID),
  ...gen('durationHint 1 and 110', { durationHint: 110 }, ok),
  ...gen('durationHint 0', { durationHint: 0 }, GEN_INVALID),
  ...gen('durationHint 111', { durationHint: 111 }, GEN_INVALID),
  ...gen('watermark true', { watermark: true }, ok),
  ...gen('watermark not a boolean', { watermark: 'yes' }, GEN_INVALID),
  { source: GEN, what: 'P1 with its model id', op: 'createPlatformVoiceTask', body: { text: narration, model: 'platform-voice-1.0' }, expected: ok },
  { source: GEN, what: "P1 with P2's model id", op: 'createPlatformVoiceTask', body: { text: narration, model: 'seed-audio-1.0' }, expected: GEN_INVALID },
  { source: GEN, what: "P2 with P1's model id", op: 'createSeedAudioTask', body: { text: narration, model: 'platform-voice-1.0' }, expected: GEN_INVALID },
];

// ---------------------------------------------------------------------------
// document 2, "Podcast"
// ---------------------------------------------------------------------------

const POD = `${D2}, "Podcast": POST /v1/podcast/episodes`;
const TWO = `${D2}, "Podcast": two-stage flow, text-content`;
const pod = (over: Body = {}): Body => ({ query: 'Why teams use mock servers', speakers: [{ speakerId: AVA }, { speakerId: NOAH }], ...over });
const textSource = { type: 'text', content: 'Mock servers keep their state.' };

const podcastCases: DocumentCase[] = [
  { source: POD, what: 'a query and two speakers', op: 'createPodcastEpisode', body: pod(), expected: ok },
  { source: POD, what: 'sources alone (no query)', op: 'createPodcastEpisode', body: pod({ query: undefined, sources: [textSource] }), expected: ok },
  {
    source: POD,
    what: 'an empty query when sources carries material',
    op: 'createPodcastEpisode',
    body: pod({ query: '', sources: [textSource] }),
    expected: ok,
  },
  {
    source: POD,
    what: 'a url source',
    op: 'createPodcastEpisode',
    body: pod({ query: undefined, sources: [{ type: 'url', content: 'https://example.com/post' }] }),
    expected: ok,
  },
  {
    source: POD,
    what: 'a url source whose content is not a link',
    op: 'createPodcastEpisode',
    body: pod({ sources: [{ type: 'url', content: 'not a link' }] }),
    expected: PODCAST_INVALID,
  },
  { source: POD, what: 'neither query nor sources', op: 'createPodcastEpisode', body: pod({ query: undefined }), expected: PODCAST_INVALID },
  {
    source: POD,
    what: 'a source type other than text or url',
    op: 'createPodcastEpisode',
    body: pod({ sources: [{ type: 'pdf', content: 'x' }] }),
    expected: PODCAST_INVALID,
  },
  { source: POD, what: 'speakers is required', op: 'createPodcastEpisode', body: pod({ speakers: undefined }), expected: PODCAST_INVALID },
  { source: POD, what: 'no speakers (1 to 2)', op: 'createPodcastEpisode', body: pod({ speakers: [] }), expected: PODCAST_INVALID },
  { source: POD, what: 'one speaker, quick', op: 'createPodcastEpisode', body: pod({ speakers: [{ speakerId: AVA }] }), expected: ok },
  {
    source: POD,
    what: 'three speakers',
    op: 'createPodcastEpisode',
    body: pod({ speakers: [{ speakerId: AVA }, { speakerId: NOAH }, { speakerId: 'en_mia' }] }),
    expected: PODCAST_INVALID,
  },
  { source: POD, what: 'deep with one speaker', op: 'createPodcastEpisode', body: pod({ mode: 'deep', speakers: [{ speakerId: AVA }] }), expected: ok },
  { source: POD, what: 'debate with two speakers', op: 'createPodcastEpisode', body: pod({ mode: 'debate' }), expected: ok },
  {
    source: POD,
    what: 'debate needs exactly 2: one',
    op: 'createPodcastEpisode',
    body: pod({ mode: 'debate', speakers: [{ speakerId: AVA }] }),
    expected: PODCAST_INVALID,
  },
  { source: POD, what: 'a mode outside quick, deep, debate', op: 'createPodcastEpisode', body: pod({ mode: 'long' }), expected: PODCAST_INVALID },
  { source: POD, what: 'language "for example en, zh, ja": fr', op: 'createPodcastEpisode', body: pod({ language: 'fr' }), expected: ok },
  { source: SPEED, what: 'podcast speed 2.0', op: 'createPodcastEpisode', body: pod({ speed: 2 }), expected: ok },
  { source: SPEED, what: 'podcast speed 0.45', op: 'createPodcastEpisode', body: pod({ speed: 0.45 }), expected: PODCAST_INVALID },
  {
    source: POD,
    what: 'a speakerId no list holds',
    op: 'createPodcastEpisode',
    body: pod({ speakers: [{ speakerId: 'xx_nobody' }] }),
    expected: PODCAST_SPEAKER,
    notInSchema: CATALOGUE,
  },
  { source: TWO, what: 'language and speakers of that language', op: 'createPodcastTextContent', body: pod({ language: 'en' }), expected: ok },
  { source: TWO, what: 'language is required', op: 'createPodcastTextContent', body: pod(), expected: PODCAST_INVALID },
  {
    source: `${D2}, "Errors": Speaker language mismatch`,
    what: 'a speaker whose language differs from language',
    op: 'createPodcastTextContent',
    body: pod({ language: 'en', speakers: [{ speakerId: AVA }, { speakerId: ZH }] }),
    expected: LANGUAGE_MISMATCH,
    notInSchema: "reads each speaker's language (x-rules, reads catalogue)",
  },
];

const AUDIO = `${D2}, "Podcast": two-stage flow, step 3 and 4 (POST /v1/podcast/episodes/{episodeId}/audio)`;
podcastCases.push(
  {
    source: AUDIO,
    what: 'an empty body renders the original script',
    op: 'createPodcastAudio',
    body: {},
    expected: ok,
    setup: async (mock, key) => ({ params: { episodeId: (await writtenEpisode(mock, key)).episodeId } }),
  },
  {
    source: AUDIO,
    what: "each line's content edited",
    op: 'createPodcastAudio',
    body: {},
    expected: ok,
    setup: editScript((lines) => lines.map((l, i) => ({ ...l, content: `Edited line ${i + 1}.` }))),
  },
  {
    source: AUDIO,
    what: 'a speakerId changed (they stay exactly as returned)',
    op: 'createPodcastAudio',
    body: {},
    expected: PODCAST_INVALID,
    setup: editScript((lines) => lines.map((l, i) => (i === 0 ? { ...l, speakerId: l.speakerId === AVA ? NOAH : AVA } : l))),
    notInSchema: "reads the episode's script",
  },
  {
    source: AUDIO,
    what: 'a line dropped (only content may change)',
    op: 'createPodcastAudio',
    body: {},
    expected: PODCAST_INVALID,
    setup: editScript((lines) => lines.slice(1)),
    notInSchema: "reads the episode's script",
  },
);

const cases = [...speechCases, ...cloneCases, ...generatedAudioCases, ...podcastCases];

describe('body rules against cases written from document 2', () => {
  it('the cases are many, each cites its section, and they cover acceptance and the codes document 2 numbers', () => {
    expect(cases.length).toBeGreaterThanOrEqual(100);
    for (const c of cases) expect(c.source).toMatch(/^document 2, "/);
    for (const code of [33002, 33004, 33005]) expect(cases.some((c) => typeof c.expected === 'object' && c.expected.code === code)).toBe(true);
    expect(cases.filter((c) => c.expected === 'accepted').length).toBeGreaterThanOrEqual(30);
  });

  it('the mock and ajv over spec/openapi.json answer every case as document 2 says', async () => {
    const run = await runDocumentCases(cases, 2);
    console.log(describeRun('document 2', run));
    expect(run.mockDiffer).toEqual([]);
    expect(run.ajvDiffer).toEqual([]);
  });
});
