/**
 * The multipart music creates (schemas/music.ts re-exports them): /instrumental,
 * /soundtrack, /track, /remix (musicA only) and /extend (assumed multipart),
 * their bodies, rules and state rules; the task path and the list query. Seed:
 * document 3, "Music: asynchronous generation (prefix /v1/music)", "Limits".
 */
import { z } from '../zod.ts';
import { js, rule, withRules, type BodyRule, type RuleIssue, type StateRule } from '../rules.ts';
import { idParams, pageQuery, uriString } from '../common.ts';
import { uploadedFile } from '../define.ts';
import { MUSIC_A_DEFAULT_MODEL, MUSIC_B_DEFAULT_MODEL, providerValues } from '../music-providers.ts';
import {
  allModels,
  MUSIC_AUDIO_MAX_BYTES,
  MUSIC_PAGE_SIZE_MAX,
  musicAModelsFor,
  musicFileTypes,
  musicStatuses,
  musicTextLimits,
  soundtrackUploads,
  trackGenerateTypes,
  trackVocalGenders,
} from './tables.ts';
import {
  creditsRule,
  exactlyOneRule,
  httpUrlRule,
  INVALID,
  lyricsField,
  musicBExtendFields,
  musicBParameterNames,
  notBlankRule,
  platformUrlRules,
  promptField,
  sentNotBlank,
  songIdRules,
  textRule,
  uploadRule,
} from './params.ts';

// ---------------------------------------------------------------------------
// Multipart creates (musicA only) and /extend
// ---------------------------------------------------------------------------

const audioFile = (types: readonly string[]) =>
  uploadedFile(`audio (${types.join(', ')}; judged by its content), at most ${MUSIC_AUDIO_MAX_BYTES / 1024 / 1024} MB`);
const providerSongId = (what: string) => z.string().min(1).optional().meta({ description: what }).openapi({ maxLength: musicTextLimits.id });

const InstrumentalShape = z.object({
  prompt: promptField(`a description of the music; up to ${musicTextLimits.prompt} characters (exactly one of prompt and referenceAudio)`),
  referenceAudio: audioFile(musicFileTypes.referenceAudio).optional(),
  model: z
    .enum(musicAModelsFor('instrumental') as [string, ...string[]])
    .default(MUSIC_A_DEFAULT_MODEL)
    .meta({ description: `${musicAModelsFor('instrumental').join(', ')} (default ${MUSIC_A_DEFAULT_MODEL}); musicA-9 is not available here` }),
});
type InstrumentalBody = z.output<typeof InstrumentalShape>;

/** Body of POST /v1/music/instrumental (document 3): prompt or referenceAudio, exactly one; model. */
export const CreateMusicInstrumentalRequest = withRules(
  InstrumentalShape,
  [
    exactlyOneRule<InstrumentalBody>('music.instrumental.prompt-or-reference-audio', ['prompt', 'referenceAudio']),
    notBlankRule<InstrumentalBody>('music.instrumental.prompt-not-blank', ['prompt']),
    textRule<InstrumentalBody>('music.instrumental.text-length', { prompt: musicTextLimits.prompt }),
  ],
  'CreateMusicInstrumentalRequest',
  {
    description: 'multipart/form-data: exactly one of prompt and referenceAudio; model.',
    example: { prompt: 'calm piano over soft rain', model: 'auto' },
  },
);
export const instrumentalStateRules: StateRule[] = [uploadRule('referenceAudio', musicFileTypes.referenceAudio, true), creditsRule];

const SoundtrackShape = z.object({
  image: uploadedFile(
    `an image (${musicFileTypes.image.join(', ')}; judged by its content), at most ${soundtrackUploads.imageMaxBytes / 1024 / 1024} MB`,
  ).optional(),
  video: uploadedFile(
    `a video (${musicFileTypes.video.join(', ')}; judged by its content), at most ${soundtrackUploads.videoMaxBytes / 1024 / 1024} MB`,
  ).optional(),
  prompt: promptField(`optional guidance for the music; up to ${musicTextLimits.prompt} characters`),
  model: z
    .enum(musicAModelsFor('soundtrack') as [string, ...string[]])
    .default(MUSIC_A_DEFAULT_MODEL)
    .meta({ description: `${musicAModelsFor('soundtrack').join(', ')} (default ${MUSIC_A_DEFAULT_MODEL})` }),
});
type SoundtrackBody = z.output<typeof SoundtrackShape>;

/** Body of POST /v1/music/soundtrack (document 3): image or video, exactly one; prompt; model. */
export const CreateMusicSoundtrackRequest = withRules(
  SoundtrackShape,
  [
    exactlyOneRule<SoundtrackBody>('music.soundtrack.image-or-video', ['image', 'video']),
    notBlankRule<SoundtrackBody>('music.soundtrack.prompt-not-blank', ['prompt']),
    textRule<SoundtrackBody>('music.soundtrack.text-length', { prompt: musicTextLimits.prompt }),
  ],
  'CreateMusicSoundtrackRequest',
  { description: 'multipart/form-data: exactly one of image and video; prompt; model.' },
);
export const soundtrackStateRules: StateRule[] = [
  uploadRule('image', musicFileTypes.image, false),
  uploadRule('video', musicFileTypes.video, false),
  creditsRule,
];

const seconds = (what: string) =>
  z
    .number()
    .min(0)
    .optional()
    .meta({ description: `${what}, seconds (>= 0)` });

const TrackShape = z.object({
  generateType: z.enum(trackGenerateTypes).meta({ description: trackGenerateTypes.join(', ') }),
  prompt: z
    .string()
    .meta({ description: `what to play; up to ${musicTextLimits.prompt} characters` })
    .openapi({ maxLength: musicTextLimits.prompt }),
  audio: audioFile(musicFileTypes.trackAudio).optional(),
  providerSongId: providerSongId('a musicA song id (a track providerSongId of one of your musicA tasks); exactly one of audio and providerSongId'),
  lyrics: lyricsField(`required when generateType is Vocals; up to ${musicTextLimits.lyrics} characters`),
  vocalGender: z.enum(trackVocalGenders).optional().meta({ description: 'male or female; generateType Vocals only' }),
  generateStart: seconds('where in the source the track starts (default 0)'),
  generateEnd: seconds('where in the source the track ends (default: the end of the source); after generateStart, within the source'),
});
type TrackBody = z.output<typeof TrackShape>;

/**
 * Rules of /track beyond the shape (document 3, "POST /v1/music/track"):
 * exactly one of audio and providerSongId; lyrics required with Vocals;
 * vocalGender with Vocals only. generateStart before generateEnd compares two
 * fields, which no schema says (x-rules).
 */
function trackRules(): BodyRule<TrackBody>[] {
  return [
    exactlyOneRule<TrackBody>('music.track.audio-or-song-id', ['audio', 'providerSongId']),
    notBlankRule<TrackBody>('music.track.prompt-not-blank', ['prompt']),
    textRule<TrackBody>('music.track.text-length', { prompt: musicTextLimits.prompt, lyrics: musicTextLimits.lyrics, providerSongId: musicTextLimits.id }),
    rule<TrackBody>({
      id: 'music.track.vocals-need-lyrics',
      rule: 'generateType Vocals: lyrics (not blank)',
      code: INVALID,
      path: ['lyrics'],
      message: 'lyrics are required when generateType is Vocals',
      when: { generateType: 'Vocals' },
      then: sentNotBlank('lyrics'),
    }),
    rule<TrackBody>({
      id: 'music.track.vocal-gender-vocals-only',
      rule: 'vocalGender with generateType Vocals only',
      code: INVALID,
      path: ['vocalGender'],
      message: (v) => `vocalGender applies to generateType Vocals only (generateType is ${v.generateType})`,
      when: { schema: { required: ['vocalGender'] } },
      then: js.prop('generateType', { const: 'Vocals' }),
    }),
  ];
}

/** generateStart before generateEnd (two fields compared: in x-rules). */
function checkTrackWindow(v: TrackBody): RuleIssue[] {
  if (v.generateStart === undefined || v.generateEnd === undefined || v.generateStart < v.generateEnd) return [];
  return [{ path: ['generateEnd'], message: `generateEnd (${v.generateEnd} s) must be after generateStart (${v.generateStart} s)`, error: INVALID }];
}

/** Rules of /track no schema carries (x-rules). */
export const trackStateRules: StateRule[] = [
  { code: INVALID, fields: ['generateStart', 'generateEnd'], rule: 'generateStart before generateEnd', reads: 'body' },
  uploadRule('audio', musicFileTypes.trackAudio, true),
  ...songIdRules,
  {
    code: INVALID,
    fields: ['generateStart', 'generateEnd'],
    rule: 'generateStart and generateEnd within the source (the length of the upload or of the song)',
    reads: 'state',
  },
  creditsRule,
];

/** Body of POST /v1/music/track (document 3). */
export const CreateMusicTrackRequest = withRules(
  TrackShape,
  trackRules(),
  'CreateMusicTrackRequest',
  {
    description:
      'multipart/form-data: generateType, prompt, exactly one of audio and providerSongId, lyrics (Vocals), vocalGender, generateStart, generateEnd.',
  },
  checkTrackWindow,
);

const RemixShape = z.object({
  lyrics: z
    .string()
    .meta({ description: `the new lyrics; up to ${musicTextLimits.lyrics} characters` })
    .openapi({ maxLength: musicTextLimits.lyrics }),
  prompt: z
    .string()
    .meta({ description: `the style of the remix; up to ${musicTextLimits.prompt} characters` })
    .openapi({ maxLength: musicTextLimits.prompt }),
  audio: audioFile(musicFileTypes.remixAudio).optional(),
  audioUrl: uriString().optional().meta({
    description:
      "an internal platform audio URL that belongs to the caller or is public: a track audioUrl of one of the caller's music tasks (another account's track answers 403 with 39008); a URL of another site is refused (39001)",
  }),
  providerSongId: providerSongId('a musicA song id (a track providerSongId of one of your musicA tasks)'),
});
type RemixBody = z.output<typeof RemixShape>;

/** Body of POST /v1/music/remix (document 3): lyrics, prompt, and exactly one of audio, audioUrl, providerSongId. */
export const CreateMusicRemixRequest = withRules(
  RemixShape,
  [
    exactlyOneRule<RemixBody>('music.remix.one-source', ['audio', 'audioUrl', 'providerSongId']),
    notBlankRule<RemixBody>('music.remix.not-blank', ['lyrics', 'prompt']),
    textRule<RemixBody>('music.remix.text-length', { lyrics: musicTextLimits.lyrics, prompt: musicTextLimits.prompt, providerSongId: musicTextLimits.id }),
    httpUrlRule<RemixBody>('music.remix.audio-url-http', 'audioUrl', 'must be an http or https URL'),
  ],
  'CreateMusicRemixRequest',
  {
    description: 'multipart/form-data: lyrics, prompt, and exactly one of audio, audioUrl and providerSongId.',
    example: { lyrics: '[Verse]\nNew words for an old tune', prompt: 'upbeat disco', providerSongId: 'ma_1a2b3c4d5e6f7a8b_0' },
  },
);

/** Rules of /remix no schema carries (x-rules). */
export const remixStateRules: StateRule[] = [
  {
    code: INVALID,
    fields: ['audioUrl'],
    rule: "audioUrl is an audio URL of this platform (the origin the request was sent to), not another site's",
    reads: 'state',
  },
  ...platformUrlRules('audioUrl'),
  uploadRule('audio', musicFileTypes.remixAudio, true),
  ...songIdRules,
  creditsRule,
];

const ExtendShape = z.object({
  taskId: z.string().min(1).meta({ description: 'a succeeded music task of the caller (409 with 39010 before it succeeds)' }),
  trackIndex: z.number().int().min(0).optional().meta({ description: 'which of its tracks (from 0; default 0); or send providerSongId' }),
  providerSongId: providerSongId("the track's providerSongId, instead of trackIndex"),
  continueAt: z
    .number()
    .gt(0)
    .optional()
    .meta({ description: "where the extension starts, seconds: after 0, at most the track's duration (default: its end)" }),
  prompt: promptField(`what the continuation sounds like; up to ${musicTextLimits.prompt} characters`),
  lyrics: lyricsField(`lyrics of the continuation; up to ${musicTextLimits.lyrics} characters`),
  model: z
    .enum(allModels)
    .optional()
    .meta({
      description: `a model of the task's provider (default ${MUSIC_A_DEFAULT_MODEL} on musicA, ${MUSIC_B_DEFAULT_MODEL} on musicB); priced by the extend table`,
    }),
  provider: z.enum(providerValues).optional().meta({ description: "default: the task's provider; another provider than the task's answers 39006" }),
  ...musicBExtendFields,
});
type ExtendBody = z.output<typeof ExtendShape>;

/** Body of POST /v1/music/extend (assumed multipart: document 3 says its shape is not shown, and that the musicB parameters are its top-level form fields). */
export const CreateMusicExtendRequest = withRules(
  ExtendShape,
  [
    rule<ExtendBody>({
      id: 'music.extend.track-index-or-song-id',
      rule: 'trackIndex or providerSongId, not both',
      code: INVALID,
      path: ['providerSongId'],
      message: 'send trackIndex or providerSongId, not both',
      then: { not: { required: ['trackIndex', 'providerSongId'] } },
    }),
    textRule<ExtendBody>('music.extend.text-length', {
      prompt: musicTextLimits.prompt,
      lyrics: musicTextLimits.lyrics,
      negativeTags: musicTextLimits.negativeTags,
      providerSongId: musicTextLimits.id,
    }),
  ],
  'CreateMusicExtendRequest',
  {
    'x-provenance': 'assumed: document 3 says the request shape of /extend is not shown',
    description:
      'multipart/form-data: taskId, trackIndex or providerSongId, continueAt, prompt, lyrics, model, provider, and the musicB parameters as top-level fields (musicB tasks only).',
  },
);

/** Rules of /extend no schema carries (x-rules): they read the task extended. */
export const extendStateRules: StateRule[] = [
  { code: 'MUSIC_TASK_NOT_FOUND', fields: ['taskId'], rule: 'taskId names a music task of the caller', reads: 'state' },
  { code: 'MUSIC_TASK_NOT_READY', fields: ['taskId'], rule: 'the task has succeeded', reads: 'state' },
  { code: 'MUSIC_PROVIDER_UNSUPPORTED', fields: ['provider'], rule: "provider, when sent, runs on the task's provider", reads: 'state' },
  { code: 'MUSIC_MODEL_UNSUPPORTED', fields: ['model'], rule: "model, when sent, is one of the task's provider", reads: 'state' },
  {
    code: 'MUSIC_PROVIDER_UNSUPPORTED',
    fields: [...musicBParameterNames.extend],
    rule: 'the musicB parameters on an extend of a musicB task only',
    reads: 'state',
  },
  {
    code: INVALID,
    fields: ['trackIndex', 'providerSongId', 'continueAt'],
    rule: "trackIndex or providerSongId names one of the task's tracks; continueAt at most that track's duration",
    reads: 'state',
  },
  creditsRule,
];

export const MusicTaskPathParams = idParams('taskId', 'music task id', 'mus_1a2b3c4d5e6f7a8b');

/** Query of GET /v1/music/tasks: page from 1, pageSize 1-100 (default 20), status. */
export const ListMusicQuery = z.object({
  ...pageQuery(MUSIC_PAGE_SIZE_MAX),
  status: z.enum(musicStatuses).optional().meta({ description: 'only tasks in this status' }),
});
