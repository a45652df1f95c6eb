/**
 * Music-analysis contract: the three synchronous music endpoints,
 * POST /v1/music/recognize (lyrics recognition), /describe and /stem (stem
 * separation). Each takes one recording, uploaded or by URL, and answers HTTP
 * 200 with the result in the envelope: no task, no polling.
 *
 * Seed: document 3, "Music: asynchronous generation (prefix /v1/music)" (the
 * last paragraph: the three answer HTTP 200 synchronously; their request and
 * response shapes are not shown), "Providers and models (lyrics and music)"
 * (stem models audio-separation-1, the default, and audio-separation-2, which
 * also produces MIDI), "Limits" (music upload files at most 10 MB; the flat
 * costs of these endpoints are not shown), "Errors" (numbers not shown).
 * Everything else is assumed: the request and response shapes (the source rule
 * of /track and /remix: an mp3, m4a or wav file or an audioUrl, exactly one),
 * the prices, the stems each model makes, the accepted durations, the error
 * numbers 39501-39599 (`musicAnalysisTableAssumptions`).
 */
import { STEM_SEPARATION_DEFAULT_MODEL, stemSeparationModels } from './music-providers.ts';
import { z } from './zod.ts';
import { js, rule, withRules, type BodyRule } from './rules.ts';
import { uriString } from './common.ts';
import { assumed, provenanceMeta, type TableAssumption } from './provenance.ts';
import { defineOperations, operationsWith, multipart, uploadedFile, type Area } from './define.ts';

// ---------------------------------------------------------------------------
// Tables
// ---------------------------------------------------------------------------

/** Largest audio file, bytes (document 3, "Limits": music upload files at most 10 MB; a MB is 1,048,576 bytes, assumed as elsewhere in the mock). */
export const MUSIC_AUDIO_MAX_BYTES = 10 * 1024 * 1024;

/** The file types the analysis endpoints read (assumed: the audio rule of /track, document 3), judged from the bytes. */
export const musicAudioTypes = ['mp3', 'm4a', 'wav'] as const;
export type MusicAudioType = (typeof musicAudioTypes)[number];

/** Accepted length of the recording, ms (assumed: 1 s to 60 minutes; 10 MB of 32 kbit/s MP3 is about 44 minutes). */
export const musicAnalysisDurationMs = { min: 1_000, max: 3_600_000 } as const;

/**
 * An audioUrl outside the mock (which cannot fetch the internet) stands for a
 * recording of this many whole seconds, chosen from the URL (assumed).
 */
export const externalRecordingSeconds = { min: 30, max: 240 } as const;

/** The stems each model makes, in answer order (assumed). */
const stemNames: Record<(typeof stemSeparationModels)[number]['model'], readonly string[]> = {
  'audio-separation-1': ['vocals', 'drums', 'bass', 'other'],
  'audio-separation-2': ['vocals', 'drums', 'bass', 'guitar', 'piano', 'other'],
};

/** The stem models, from the provider tables (document 3, "Providers and models": audio-separation-1 is the default, audio-separation-2 also produces MIDI). */
export const stemModelIds = stemSeparationModels.map((m) => m.model) as [StemModel, ...StemModel[]];
export type StemModel = (typeof stemSeparationModels)[number]['model'];
export const DEFAULT_STEM_MODEL: StemModel = STEM_SEPARATION_DEFAULT_MODEL;

/** The stems each model makes, in answer order (assumed), and whether it makes MIDI (document 3, from `stemSeparationModels`). */
export const stemModels = Object.fromEntries(stemSeparationModels.map((m) => [m.model, { stems: stemNames[m.model], midi: m.midi }])) as Record<
  StemModel,
  { stems: readonly string[]; midi: boolean }
>;

/** Flat credits per call (assumed: document 3, "Limits" says the flat costs of these music endpoints are not shown). */
export const musicAnalysisCredits = {
  recognize: 2,
  describe: 1,
  stem: { 'audio-separation-1': 5, 'audio-separation-2': 8 } satisfies Record<StemModel, number>,
} as const;

/** What /describe may answer (assumed vocabularies of the mock). */
export const musicGenres = ['pop', 'rock', 'hip hop', 'electronic', 'jazz', 'classical', 'folk', 'r&b', 'ambient', 'country'] as const;
export const musicMoods = ['upbeat', 'melancholic', 'energetic', 'calm', 'dreamy', 'dark', 'romantic', 'playful'] as const;
export const musicInstruments = [
  'vocals',
  'piano',
  'acoustic guitar',
  'electric guitar',
  'bass',
  'drums',
  'synthesizer',
  'strings',
  'brass',
  'saxophone',
] as const;
export const musicKeys = ['C', 'C#', 'D', 'Eb', 'E', 'F', 'F#', 'G', 'Ab', 'A', 'Bb', 'B'] as const;
/** Tempo range /describe reports, beats per minute (assumed). */
export const musicBpm = { min: 60, max: 180 } as const;

// ---------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------

const requestAssumed = provenanceMeta(
  assumed('document 3 says the request shapes of /recognize, /describe and /stem are not shown; this contract takes the source rule of /track and /remix'),
);
const responseAssumed = provenanceMeta(assumed('document 3 says the response shapes of /recognize, /describe and /stem are not shown'));

const sourceFields = {
  audio: uploadedFile(
    `the recording: mp3, m4a or wav, at most 10 MB; its type is read from its bytes (the file name and the part's Content-Type are not trusted). Exactly one of audio and audioUrl.`,
  ).optional(),
  audioUrl: uriString()
    .max(2048)
    .optional()
    .meta({
      description:
        "an http(s) URL of the recording, instead of audio. A URL of the platform's own hosted media (a path under /media/) is read from the platform: " +
        "it must name an existing file (39505), the caller's own or public (39506), mp3, m4a or wav, at most 10 MB. " +
        `Any other URL is a public recording (${externalRecordingSeconds.min}-${externalRecordingSeconds.max} s).`,
    }),
};

type SourceBody = { audio?: unknown; audioUrl?: string };
const INVALID = 'MUSIC_ANALYSIS_INVALID_PARAMETERS' as const;

/** The source rules (schemas/rules.ts): exactly one of audio and audioUrl, and audioUrl http(s). */
const sourceRules: BodyRule<SourceBody>[] = [
  rule<SourceBody>({
    id: 'music-analysis.one-source',
    rule: 'exactly one of audio and audioUrl',
    code: INVALID,
    path: (v) => [v.audio !== undefined ? 'audioUrl' : 'audio'],
    message: (v) =>
      v.audio !== undefined ? 'send exactly one of audio (a file) and audioUrl, not both' : 'send exactly one of audio (a file: mp3, m4a or wav) and audioUrl',
    then: { oneOf: [{ required: ['audio'] }, { required: ['audioUrl'] }] },
  }),
  rule<SourceBody>({
    id: 'music-analysis.audio-url-http',
    rule: 'audioUrl is an http or https URL',
    code: INVALID,
    path: ['audioUrl'],
    message: 'audioUrl must be an http or https URL',
    then: js.prop('audioUrl', js.httpUrl),
  }),
];

/** Body of POST /v1/music/recognize and /v1/music/describe (multipart/form-data; assumed shape). */
export const MusicAnalysisRequest = withRules(z.object(sourceFields).meta(requestAssumed), sourceRules, 'MusicAnalysisRequest', {
  description: 'multipart/form-data: the audio file field or the audioUrl text field, exactly one.',
  example: { audioUrl: 'https://example.com/songs/sunrise.mp3' },
});
export type MusicAnalysisRequest = z.infer<typeof MusicAnalysisRequest>;

/** Body of POST /v1/music/stem (multipart/form-data; assumed shape): the source and the model. */
export const MusicStemRequest = withRules(
  z
    .object({
      ...sourceFields,
      model: z.enum(stemModelIds).default(DEFAULT_STEM_MODEL).meta({ description: 'audio-separation-1 (default) or audio-separation-2 (also produces MIDI)' }),
    })
    .meta(requestAssumed),
  sourceRules,
  'MusicStemRequest',
  {
    description: 'multipart/form-data: the audio file field or the audioUrl text field, exactly one; model.',
    example: { audioUrl: 'https://example.com/songs/sunrise.mp3', model: 'audio-separation-2' },
  },
);
export type MusicStemRequest = z.infer<typeof MusicStemRequest>;

// ---------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------

const Seconds = (what: string) =>
  z
    .number()
    .nonnegative()
    .meta({ description: `${what}, seconds from the start of the recording (to the ms)` });
const hostedUrl = (what: string) =>
  z.string().meta(provenanceMeta(assumed('the files are hosted by the service under /media/ (no auth; Range answered 206)'), what));

/** One recognized line: where it is sung. */
export const LyricSegment = z
  .strictObject({ start: Seconds('where the line starts'), end: Seconds('where it ends (after start, within the recording)'), text: z.string() })
  .openapi('LyricSegment');

/** Data of POST /v1/music/recognize (assumed shape). */
export const MusicRecognizeData = z
  .strictObject({
    lyrics: z.string().meta({ description: 'the recognized lyrics, one line per segment (empty for digital silence: no vocals)' }),
    segments: z.array(LyricSegment).meta({ description: 'the lines in order, not overlapping, within the real duration of the recording' }),
  })
  .meta(responseAssumed)
  .openapi('MusicRecognizeData', {
    example: {
      lyrics: 'Morning light on the river\nWe were running out of time',
      segments: [
        { start: 4.2, end: 7.85, text: 'Morning light on the river' },
        { start: 8.6, end: 12.1, text: 'We were running out of time' },
      ],
    },
  });

/** Data of POST /v1/music/describe (assumed shape). */
export const MusicDescribeData = z
  .strictObject({
    description: z.string().meta({ description: 'one sentence on the recording' }),
    genre: z.string().meta({ description: `the main genre, one of: ${musicGenres.join(', ')}` }),
    mood: z.string().meta({ description: `the mood, one of: ${musicMoods.join(', ')}` }),
    bpm: z
      .number()
      .int()
      .positive()
      .meta({ description: `tempo, beats per minute (${musicBpm.min}-${musicBpm.max})` }),
    key: z.string().meta({ description: 'musical key, e.g. "A minor" or "Eb major"' }),
    instruments: z.array(z.string()).meta({ description: 'instruments heard, most prominent first' }),
  })
  .meta(responseAssumed)
  .openapi('MusicDescribeData', {
    example: {
      description: 'A 3:05 upbeat pop track at 118 BPM in A minor, led by vocals over synthesizer, bass and drums.',
      genre: 'pop',
      mood: 'upbeat',
      bpm: 118,
      key: 'A minor',
      instruments: ['vocals', 'synthesizer', 'bass', 'drums'],
    },
  });

/** One separated stem. */
export const MusicStem = z
  .strictObject({
    name: z.string().meta({ description: 'vocals, drums, bass, other (audio-separation-2 also guitar and piano; assumed)' }),
    audioUrl: hostedUrl('the stem: MP3, 24 kHz mono (assumed), as long as the recording (to the 24 ms frame)'),
  })
  .openapi('MusicStem');

/** Data of POST /v1/music/stem (assumed shape). */
export const MusicStemData = z
  .strictObject({
    model: z.enum(stemModelIds).meta({ description: 'the model that ran' }),
    stems: z.array(MusicStem).meta({ description: "the stems, in the model's order" }),
    midiUrl: hostedUrl(
      'a Standard MIDI File of the melody, as long as the recording: audio-separation-2 only; null for audio-separation-1 (assumed)',
    ).nullable(),
  })
  .meta(responseAssumed)
  .openapi('MusicStemData', {
    example: {
      model: 'audio-separation-2',
      stems: [
        { name: 'vocals', audioUrl: 'http://localhost:4010/media/music/stems/mst_1a2b3c4d5e6f7a8b/vocals.mp3' },
        { name: 'other', audioUrl: 'http://localhost:4010/media/music/stems/mst_1a2b3c4d5e6f7a8b/other.mp3' },
      ],
      midiUrl: 'http://localhost:4010/media/music/stems/mst_1a2b3c4d5e6f7a8b/notes.mid',
    },
  });

// ---------------------------------------------------------------------------
// Assumptions
// ---------------------------------------------------------------------------

export const musicAnalysisTableAssumptions: TableAssumption[] = [
  {
    subject:
      'music-analysis request shapes: multipart/form-data with audio (a file: mp3, m4a or wav, judged from its bytes) or audioUrl, exactly one; /stem adds model',
    reason: 'document 3 says the request shapes of /recognize, /describe and /stem are not shown; /track and /remix take their audio this way',
  },
  {
    subject:
      'music-analysis response shapes: recognize {lyrics, segments [{start, end, text}] in seconds}; describe {description, genre, mood, bpm, key, instruments}; stem {model, stems [{name, audioUrl}], midiUrl} with MP3 stems (24 kHz mono) as long as the recording and midiUrl null for audio-separation-1',
    reason: 'document 3 says the response shapes are not shown',
  },
  {
    subject: `stems by model: audio-separation-1 ${stemModels['audio-separation-1'].stems.join(', ')}; audio-separation-2 ${stemModels['audio-separation-2'].stems.join(', ')} plus MIDI`,
    reason: 'document 3 names the models and says audio-separation-2 also produces MIDI, not which stems they make',
  },
  {
    subject: `music-analysis prices (\`musicAnalysisCredits\`): recognize ${musicAnalysisCredits.recognize}, describe ${musicAnalysisCredits.describe}, stem ${musicAnalysisCredits.stem['audio-separation-1']} (audio-separation-1) or ${musicAnalysisCredits.stem['audio-separation-2']} (audio-separation-2) credits per call, charged at once (a hold captured in the same request); a short balance answers 402 (39507), nothing taken`,
    reason: 'document 3, "Limits": the flat costs of the remaining music endpoints are not shown',
  },
  {
    subject: `accepted recordings: ${musicAnalysisDurationMs.min / 1000} s to ${musicAnalysisDurationMs.max / 60_000} minutes (39503); the 10 MB limit is 10,485,760 bytes (413, 39504), also for a hosted file named by audioUrl`,
    reason: 'document 3 gives only the 10 MB file limit',
  },
  {
    subject: `audioUrl: a URL under the mock's own origin is read from its hosted media (a path under /media/ that names an existing file, else 39505; another account's file, 403 39506: the audio of speech, voice-clone, generated-audio and stem records carries its owner; catalogue media such as built-in speaker demos, and files of areas that record no owner, are public); any other http(s) URL cannot be fetched and stands for a recording of ${externalRecordingSeconds.min}-${externalRecordingSeconds.max} whole seconds chosen from the URL`,
    reason: 'the mock cannot fetch the internet; document 3 (remix) accepts platform audio URLs of the caller or public ones',
  },
  {
    subject:
      'analysis results are derived from a hash of the recording (its bytes, or the URL of an external one) and the engine seed: the same bytes give the same answer, for every key; digital silence (all-zero PCM) is recognized as no lyrics',
    reason: 'the mock does not listen to the audio; answers must be deterministic',
  },
];

// ---------------------------------------------------------------------------
// Operations
// ---------------------------------------------------------------------------

const errors = [
  'MUSIC_ANALYSIS_INVALID_PARAMETERS',
  'MUSIC_ANALYSIS_UNSUPPORTED_AUDIO',
  'MUSIC_ANALYSIS_AUDIO_DURATION_INVALID',
  'MUSIC_ANALYSIS_FILE_TOO_LARGE',
  'MUSIC_ANALYSIS_SOURCE_NOT_FOUND',
  'MUSIC_ANALYSIS_SOURCE_FORBIDDEN',
  'MUSIC_ANALYSIS_INSUFFICIENT_CREDITS',
  'MUSIC_ANALYSIS_FAILED',
] as const;

const sourceRule =
  'multipart/form-data: `audio` (a file: mp3, m4a or wav, at most 10 MB: 413, 39504) or `audioUrl`, exactly one (else 39501). ' +
  'The file type is read from the bytes: anything else, an empty file or unreadable audio answers 39502; a recording under 1 s or over 60 minutes 39503. ' +
  "audioUrl: a URL of the platform's own hosted media (/media/...) is read from the platform (unknown: 39505; another account's: 403, 39506); any other http(s) URL is a public recording. " +
  'The answer is a function of the recording (its bytes): the same bytes give the same answer. HTTP 200, no polling; a provider failure answers 39508 and charges nothing.';

const charge = (credits: string) => `Price (assumed): ${credits}, charged at once; a short balance answers 402 (39507) and takes nothing.`;

const body = <S extends typeof MusicAnalysisRequest | typeof MusicStemRequest>(schema: S) =>
  multipart(schema, {
    files: { audio: { maxFileBytes: MUSIC_AUDIO_MAX_BYTES } },
    maxTotalBytes: MUSIC_AUDIO_MAX_BYTES,
    limitError: 'MUSIC_ANALYSIS_FILE_TOO_LARGE',
  });

// document 3 names the endpoints and says they answer HTTP 200 synchronously; the method, the request and the response are not shown
const provenance = assumed(
  'document 3, "Music: asynchronous generation (prefix /v1/music)", names /recognize, /describe and /stem and says they answer HTTP 200 synchronously; their method (POST), request and response are not shown',
);

// What the operations below share: each states only what differs (operationsWith, schemas/define.ts).
const op = operationsWith({ auth: true, validationError: 'MUSIC_ANALYSIS_INVALID_PARAMETERS' });

/** The music-analysis operations (document 3, "Music: asynchronous generation (prefix /v1/music)", last paragraph). */
export const musicAnalysisOperations = defineOperations('Music analysis', {
  recognizeMusic: op({
    method: 'post',
    path: '/v1/music/recognize',
    summary: 'Recognize the lyrics of a recording (synchronous)',
    description:
      `Returns {lyrics, segments [{start, end, text}]}: the sung lines with their times in seconds, in order, within the real duration of the recording (digital silence: no lyrics). ${sourceRule} ` +
      charge(`${musicAnalysisCredits.recognize} credits`),
    provenance,
    request: { body: body(MusicAnalysisRequest) },
    response: { status: 200, kind: 'envelope', schema: MusicRecognizeData, description: 'the lyrics and their segments' },
    errors: [...errors],
    charges: true,
  }),
  describeMusic: op({
    method: 'post',
    path: '/v1/music/describe',
    summary: 'Describe a recording: genre, mood, tempo, key, instruments (synchronous)',
    description: `Returns {description, genre, mood, bpm, key, instruments}. ${sourceRule} ${charge(`${musicAnalysisCredits.describe} credit`)}`,
    provenance,
    request: { body: body(MusicAnalysisRequest) },
    response: { status: 200, kind: 'envelope', schema: MusicDescribeData, description: 'the description' },
    errors: [...errors],
    charges: true,
  }),
  separateMusicStems: op({
    method: 'post',
    path: '/v1/music/stem',
    summary: 'Separate a recording into stems (synchronous)',
    description:
      `model: audio-separation-1 (default; stems ${stemModels['audio-separation-1'].stems.join(', ')}) or audio-separation-2 (stems ${stemModels['audio-separation-2'].stems.join(', ')}, and MIDI). ` +
      'Returns {model, stems [{name, audioUrl}], midiUrl}: each stem a hosted MP3, as long as the recording; midiUrl a Standard MIDI File of that length for audio-separation-2, null for audio-separation-1. ' +
      `${sourceRule} ${charge(`${musicAnalysisCredits.stem['audio-separation-1']} credits (audio-separation-1) or ${musicAnalysisCredits.stem['audio-separation-2']} (audio-separation-2)`)}`,
    provenance,
    request: { body: body(MusicStemRequest) },
    response: { status: 200, kind: 'envelope', schema: MusicStemData, description: 'the stems (and the MIDI)' },
    errors: [...errors],
    charges: true,
  }),
});

export const musicAnalysisArea = {
  tag: {
    name: 'Music analysis',
    description:
      'Synchronous analysis of a recording (document 3): lyrics recognition, a description, and stem separation with MIDI; uploaded files or audio URLs, HTTP 200 with the result.',
  },
  operations: musicAnalysisOperations,
  tableAssumptions: musicAnalysisTableAssumptions,
} satisfies Area;
