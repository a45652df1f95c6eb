/**
 * Generated-audio contract: two sibling task services with one shape, declared
 * once and instantiated twice (P1 /v1/platform-voice, model
 * platform-voice-1.0; P2 /v1/seed-audio, model seed-audio-1.0): generate
 * (HTTP 202), read and list tasks that narrate a text, speak a dialogue in up
 * to three voices, or turn an image into audio.
 *
 * Seed: document 2, "Generated-audio task (two sibling services)",
 * "States and transitions", "Generated-audio tasks (prefix P = /v1/platform-voice
 * or /v1/seed-audio)", "Errors" (codes 33001-33009), "Limits" (P1 and P2
 * pricing). The P2 rate, the schedule, the concurrency limit, the default
 * reservation and the timeout are assumed (`generatedAudioTableAssumptions`).
 */
import { z } from './zod.ts';
import { js, rule, withRules, type BodyRule, type JsonSchema, type RuleIssue, type StateRule } from './rules.ts';
import { EpochMs, idParams, pageQuery, paginated, uriString } from './common.ts';
import { assumed, fromSeed, provenanceMeta, type TableAssumption } from './provenance.ts';
import { defineOperations, operationsWith, json, type Area } from './define.ts';
import type { LifecycleDef } from './registry-types.ts';
import { charCount } from './speech.ts';

// ---------------------------------------------------------------------------
// Tables
// ---------------------------------------------------------------------------

/** The two services (document 2): their path prefix, model id (the default and only value), tag and price per generated minute. */
export const generatedAudioServices = {
  platformVoice: {
    prefix: '/v1/platform-voice',
    model: 'platform-voice-1.0',
    tag: 'Platform voice',
    idPrefix: 'pvt',
    /** Document 2, "Limits": 30 credits per generated minute, max(1, ceil(audioDuration x 30 / 60)). */
    creditsPerMinute: 30,
    rateProvenance: 'seed',
  },
  seedAudio: {
    prefix: '/v1/seed-audio',
    model: 'seed-audio-1.0',
    tag: 'Seed audio',
    idPrefix: 'sat',
    /** Document 2 says P2 is billed on audioDuration without the rate: 40 credits per minute, max(1, ceil(audioDuration x 40 / 60)) (assumed). */
    creditsPerMinute: 40,
    rateProvenance: 'assumed',
  },
} as const;
export type GeneratedAudioServiceName = keyof typeof generatedAudioServices;

/** Credits of `audioSeconds` of generated audio at `creditsPerMinute`: max(1, ceil(seconds x rate / 60)). */
export function generatedAudioPrice(audioSeconds: number, creditsPerMinute: number): number {
  // rounded to the ms first, so 58.992 s is not billed as 58.99200000000001
  return Math.max(1, Math.ceil(Math.round(audioSeconds * 1000 * creditsPerMinute) / 60_000));
}

/** Request limits (document 2, "Limits" and the request table). */
export const generatedAudioLimits = {
  textChars: 1400,
  voices: { min: 1, max: 3 },
  durationHint: { min: 1, max: 110 },
  imageBytes: 10 * 1024 * 1024,
  speechRate: { min: -50, max: 100 },
  loudnessRate: { min: -50, max: 100 },
  pitchRate: { min: -12, max: 12 },
} as const;
/** Audio formats of audioConfig.format (document 2); mp3 is the default. */
export const generatedAudioFormats = ['mp3', 'wav', 'pcm', 'ogg_opus'] as const;
export type GeneratedAudioFormat = (typeof generatedAudioFormats)[number];
/** Image types of an image entry (document 2). */
export const generatedAudioImageTypes = ['image/jpeg', 'image/png', 'image/webp'] as const;
/** Task statuses (document 2). */
export const generatedAudioStatuses = ['pending', 'generating', 'uploading', 'success', 'failed'] as const;
export type GeneratedAudioStatus = (typeof generatedAudioStatuses)[number];

/**
 * Assumed numbers: the schedule (pending 1 s, generating 2 s plus 10% of the audio, uploading 1 s), the reservation
 * when durationHint is absent (the longest audio, 110 s), tasks running at once per user and service (3, then
 * 33009), the timeout of a stalled task (10 minutes, then failed with 33008), requests per minute per user and
 * service on generate (5, document 2; HTTP 429 with 33007).
 */
export const generatedAudioSchedule = {
  pendingMs: 1_000,
  generatingBaseMs: 2_000,
  generatingPerAudio: 0.1,
  uploadingMs: 1_000,
  timeoutMs: 10 * 60_000,
} as const;
export const GENERATED_AUDIO_CONCURRENCY = 3;
/** Side of the square PNG thumbnail standing for an inline image, pixels (assumed). */
export const GENERATED_AUDIO_THUMB_SIDE = 128;
export const generatedAudioRateLimit = { limit: 5, windowMs: 60_000, provenance: fromSeed(2, 'Errors') } as const;

/** The dialogue tag of a text line: `@音频N` assigns the line to voice N (1-based) (document 2). */
export const DIALOGUE_TAG = /^\s*@音频(\d+)/u;

/** The voice numbers the text's dialogue lines name, in order. */
export function dialogueVoices(text: string): number[] {
  return text
    .split(/\r?\n/)
    .map((l) => DIALOGUE_TAG.exec(l)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number);
}

/** The text as it is spoken: the dialogue tags dropped. */
export function spokenText(text: string): string {
  return text
    .split(/\r?\n/)
    .map((l) => l.replace(DIALOGUE_TAG, '').trim())
    .join('\n');
}

// ---------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const DATA_URL = /^data:(image\/[a-z0-9.+-]+);base64,/i;

/** A voice entry: a built-in speaker by id, or a reference recording by URL, never both. */
export const VoiceEntry = z.object({
  type: z.enum(['speaker', 'reference']).meta({ description: 'speaker (a built-in voice: send id) or reference (a recording: send url)' }),
  id: z.string().min(1).optional().meta({ description: 'speaker: a speaker id of GET /v1/speakers/list' }),
  url: uriString().optional().meta({ description: 'reference: http or https URL of a recording up to 30 s and 10 MB (wav, mp3, pcm or ogg_opus)' }),
});

export const ImageEntry = z.object({
  url: uriString().optional().meta({ description: 'http or https URL of the image' }),
  data: z.string().optional().meta({ description: 'Base64 image bytes, optionally with a data:image/...;base64, prefix; jpeg, png or webp, at most 10 MB' }),
});

export const AudioConfig = z.object({
  speechRate: z.number().min(-50).max(100).optional().meta({ description: '-50 to 100' }),
  loudnessRate: z.number().min(-50).max(100).optional().meta({ description: '-50 to 100' }),
  pitchRate: z.number().min(-12).max(12).optional().meta({ description: '-12 to 12' }),
  format: z.enum(generatedAudioFormats).default('mp3').meta({ description: 'mp3 (default), wav, pcm or ogg_opus' }),
});

/** The type of an image from its first bytes (JPEG, PNG, WebP), or undefined. */
export function sniffImageType(bytes: Uint8Array): (typeof generatedAudioImageTypes)[number] | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return 'image/png';
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  return undefined;
}

/** Bytes a base64 string decodes to (no padding check), without decoding it. */
const base64Bytes = (b64: string) => Math.floor((b64.length * 3) / 4) - (b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0);

function decodeBase64Head(b64: string, n: number): Uint8Array {
  const head = atob(b64.slice(0, Math.ceil(n / 3) * 4));
  return Uint8Array.from(head, (c) => c.charCodeAt(0));
}

type GenerateInput = {
  text: string;
  voices?: { type: 'speaker' | 'reference'; id?: string; url?: string }[];
  image?: { url?: string; data?: string };
};

const INVALID = 'GEN_AUDIO_INVALID_PARAMETERS' as const;
/** http or https, the scheme in any case (JSON Schema patterns carry no flags). */
const HTTP_URL = '^[Hh][Tt][Tt][Pp][Ss]?://';
/** A text line tagged for voice `n` (a regular expression source; a line starts the text or follows a line feed). */
const tagLine = (digits: string) => `(?:^|\\n)[^\\S\\n]*@音频${digits}(?![0-9])`;
const voiceIndex = (v: GenerateInput, bad: (e: NonNullable<GenerateInput['voices']>[number]) => boolean) => Math.max(0, (v.voices ?? []).findIndex(bad));
const voicesAtLeast = (n: number): JsonSchema => ({ required: ['voices'], properties: { voices: { minItems: n } } });

/** Rules of the generate body (document 2, "Generated-audio task"). Errors: 33004 (invalid combination or entry), 33005 (more than 3 voices). */
function generateRules(): BodyRule<GenerateInput>[] {
  const L = generatedAudioLimits;
  return [
    rule({
      id: 'gen-audio.text-length',
      rule: `text at most ${L.textChars} characters`,
      code: INVALID,
      path: ['text'],
      message: (v) => `text is ${charCount(v.text)} characters; at most ${L.textChars}`,
      then: { properties: { text: { maxLength: L.textChars } } },
    }),
    rule({
      id: 'gen-audio.text-not-blank',
      rule: 'text is not blank',
      code: INVALID,
      path: ['text'],
      message: 'text must not be blank',
      then: { properties: { text: js.notBlank } },
    }),
    rule({
      id: 'gen-audio.voices-max',
      rule: `voices at most ${L.voices.max} entries`,
      code: 'GEN_AUDIO_TOO_MANY_VOICES',
      path: ['voices'],
      message: (v) => `voices has ${v.voices?.length} entries; at most ${L.voices.max}`,
      then: { properties: { voices: { maxItems: L.voices.max } } },
    }),
    rule({
      id: 'gen-audio.voices-min',
      rule: `voices, when sent, has ${L.voices.min} to ${L.voices.max} entries`,
      code: INVALID,
      path: ['voices'],
      message: 'voices needs 1 to 3 entries (omit it for plain narration)',
      then: { properties: { voices: { minItems: L.voices.min } } },
    }),
    rule({
      id: 'gen-audio.voice-id-or-url',
      rule: 'a voice entry carries id or url, not both',
      code: INVALID,
      path: (v) => ['voices', voiceIndex(v, (e) => e.id !== undefined && e.url !== undefined)],
      message: 'a voice entry mixes id and url: a speaker entry carries only id, a reference entry only url',
      then: { properties: { voices: { items: { not: { required: ['id', 'url'] } } } } },
    }),
    rule({
      id: 'gen-audio.speaker-needs-id',
      rule: 'a speaker entry carries id',
      code: INVALID,
      path: (v) => ['voices', voiceIndex(v, (e) => e.type === 'speaker' && e.id === undefined), 'id'],
      message: 'a speaker entry needs id (and no url)',
      then: { properties: { voices: { items: { if: { properties: { type: { const: 'speaker' } } }, then: { required: ['id'] } } } } },
    }),
    rule({
      id: 'gen-audio.reference-needs-url',
      rule: 'a reference entry carries url',
      code: INVALID,
      path: (v) => ['voices', voiceIndex(v, (e) => e.type === 'reference' && e.url === undefined), 'url'],
      message: 'a reference entry needs url (and no id)',
      then: { properties: { voices: { items: { if: { properties: { type: { const: 'reference' } } }, then: { required: ['url'] } } } } },
    }),
    rule({
      id: 'gen-audio.voice-url-http',
      rule: 'a voice url is http or https',
      code: INVALID,
      path: (v) => ['voices', voiceIndex(v, (e) => e.url !== undefined && !new RegExp(HTTP_URL).test(e.url)), 'url'],
      message: 'a voice url must be http or https',
      then: { properties: { voices: { items: { properties: { url: { pattern: HTTP_URL } } } } } },
    }),
    rule({
      id: 'gen-audio.voices-or-image',
      rule: 'voices and image are mutually exclusive',
      code: INVALID,
      path: ['image'],
      message: 'voices and image are mutually exclusive',
      then: { not: { required: ['voices', 'image'] } },
    }),
    ...Array.from({ length: L.voices.max }, (_, i) => i + 1).map((n) =>
      rule<GenerateInput>({
        id: `gen-audio.dialogue-voice-${n}`,
        rule: `a line tagged @音频${n} needs at least ${n} voice${n === 1 ? '' : 's'}`,
        code: INVALID,
        path: ['text'],
        message: (v) => `text names @音频${n}, but ${v.voices === undefined ? 'no voices are given' : `voices has ${v.voices.length}`}`,
        then: { if: { properties: { text: { pattern: tagLine(`0*${n}`) } }, required: ['text'] }, then: voicesAtLeast(n) },
      }),
    ),
    rule({
      id: 'gen-audio.dialogue-voice-range',
      rule: `dialogue tags name voices 1 to ${L.voices.max}`,
      code: INVALID,
      path: ['text'],
      message: `text names a voice outside @音频1 to @音频${L.voices.max}`,
      then: { properties: { text: { not: { pattern: tagLine(`(?:0+|0*[${L.voices.max + 1}-9]|0*[1-9][0-9]+)`) } } } },
    }),
    rule({
      id: 'gen-audio.image-url-or-data',
      rule: 'image carries exactly one of url or data',
      code: INVALID,
      path: ['image'],
      message: 'image needs exactly one of url or data',
      then: { properties: { image: { oneOf: [{ required: ['url'] }, { required: ['data'] }] } } },
    }),
    rule({
      id: 'gen-audio.image-url-http',
      rule: 'image.url is http or https',
      code: INVALID,
      path: ['image', 'url'],
      message: 'image.url must be http or https',
      then: { properties: { image: { properties: { url: { pattern: HTTP_URL } } } } },
    }),
  ];
}

/** image.data (the bytes of the image: JSON Schema cannot say it; in x-rules): a jpeg, png or webp in Base64, at most 10 MB. */
function checkImageData(v: GenerateInput): RuleIssue[] {
  const data = v.image?.url === undefined ? v.image?.data : undefined;
  if (data === undefined) return [];
  const bad = (message: string): RuleIssue[] => [{ path: ['image', 'data'], message, error: INVALID }];
  const m = DATA_URL.exec(data);
  const b64 = m ? data.slice(m[0].length) : data;
  if (m && !(generatedAudioImageTypes as readonly string[]).includes(m[1].toLowerCase())) return bad(`image.data is ${m[1]}; jpeg, png or webp only`);
  if (b64.length === 0 || !BASE64.test(b64) || b64.length % 4 === 1) return bad('image.data must be Base64 (optionally with a data:image/...;base64, prefix)');
  if (base64Bytes(b64) > generatedAudioLimits.imageBytes) return bad(`image.data decodes to more than 10 MB (${base64Bytes(b64)} bytes)`);
  if (!sniffImageType(decodeBase64Head(b64, 12))) return bad('image.data is not a jpeg, png or webp image');
  return [];
}

/** Rules of the generate endpoints no schema carries (x-rules). */
export const generateStateRules: StateRule[] = [
  {
    code: INVALID,
    fields: ['image.data'],
    rule: 'image.data is a jpeg, png or webp image in Base64 (optionally with a data:image/...;base64, prefix), at most 10 MB',
    reads: 'body',
  },
  { code: 'GEN_AUDIO_SPEAKER_NOT_FOUND', fields: ['voices[].id'], rule: 'a speaker id is one GET /v1/speakers/list lists for the account', reads: 'catalogue' },
  {
    code: 'GEN_AUDIO_CONCURRENCY_LIMIT',
    fields: [],
    rule: `at most ${GENERATED_AUDIO_CONCURRENCY} tasks of the service running per user`,
    reads: 'concurrency',
  },
  { code: 'GEN_AUDIO_INSUFFICIENT_CREDITS', fields: ['durationHint'], rule: 'the balance covers the reservation', reads: 'account' },
];

/** Body of POST P/generate for the service with model id `model` (document 2). */
export function generateRequest(model: string, name: string) {
  const shape = z.object({
    model: z
      .literal(model)
      .default(model)
      .meta({ description: `${model} (the default and only accepted value)` }),
    text: z
      .string()
      .min(1)
      .meta({ description: 'up to 1400 characters; for dialogue prefix each line with @音频1, @音频2, ... to assign lines to voices in order' }),
    voices: z.array(VoiceEntry).optional().meta({ description: '1 to 3 entries (more: 33005); omit for narration or sound effects; not with image' }),
    image: ImageEntry.optional().meta({ description: 'exactly one of url or data; not with voices' }),
    audioConfig: AudioConfig.optional(),
    durationHint: z.number().min(1).max(110).optional().meta({ description: '1 to 110 seconds: drives the credit reservation and sets the target length' }),
    watermark: z.boolean().optional().meta({ description: 'add an audio watermark' }),
  });
  return withRules(
    shape,
    generateRules(),
    name,
    {
      example: {
        model,
        text: '@音频1 Welcome to the show.\n@音频2 Thanks for having me.',
        voices: [
          { type: 'speaker', id: 'en_ava' },
          { type: 'speaker', id: 'en_noah' },
        ],
        audioConfig: { format: 'mp3' },
        durationHint: 10,
      },
    },
    checkImageData,
  );
}

export const GeneratedAudioTaskParams = idParams('taskId', 'task id', 'pvt_1a2b3c4d5e6f7a8b');

/** Query of GET P/tasks (document 2). */
export const ListGeneratedAudioQuery = z.object({
  ...pageQuery(100),
  status: z.enum(generatedAudioStatuses).optional().meta({ description: 'filter by status' }),
  keyword: z
    .string()
    .max(64)
    .optional()
    .meta({ description: 'up to 64 characters: tasks whose text contains every word of it, ignoring case (the fuzziness, assumed)' }),
});

// ---------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------

export const CreateGeneratedAudioData = z
  .strictObject({ taskId: z.string(), status: z.literal('pending') })
  .openapi('CreateGeneratedAudioData', { example: { taskId: 'pvt_1a2b3c4d5e6f7a8b', status: 'pending' } });

/** The request echo: image and audio payloads stripped. */
export const GeneratedAudioParams = z
  .strictObject({
    model: z.string(),
    text: z.string(),
    voices: z.array(z.strictObject({ type: z.enum(['speaker', 'reference']), id: z.string().optional(), url: z.string().optional() })).optional(),
    image: z
      .strictObject({
        url: z.string().optional(),
        hasData: z.literal(true).optional().meta({ description: 'an inline image was sent (its bytes are stripped)' }),
        thumbnailUrl: z.string().optional().meta({ description: 'a small PNG standing for the inline image' }),
      })
      .optional(),
    audioConfig: z
      .strictObject({
        speechRate: z.number().optional(),
        loudnessRate: z.number().optional(),
        pitchRate: z.number().optional(),
        format: z.enum(generatedAudioFormats),
      })
      .optional(),
    durationHint: z.number().optional(),
    watermark: z.boolean().optional(),
  })
  .meta({ description: 'echo of the request; an inline image appears as { hasData: true } with an optional thumbnailUrl' });

/** The generated-audio task (document 2, "Generated-audio task"). */
export const GeneratedAudioTask = z
  .strictObject({
    id: z.string().meta({ description: 'task id' }),
    // document 2, "States and transitions", the generated-audio table
    status: z.enum(generatedAudioStatuses).meta({
      description:
        'pending: the task is created first with status pending, on submission; generating: the audio is being generated; ' +
        'uploading: generation finished, the audio moves to storage (audioUrl not yet available); success: storage done, audioUrl available; ' +
        'failed: from any stage, errorMessage set and the reserved credits refunded',
    }),
    model: z.string().meta({ description: "the service's model id (platform-voice-1.0 or seed-audio-1.0)" }),
    params: GeneratedAudioParams,
    audioUrl: z
      .string()
      .optional()
      .meta(provenanceMeta(assumed('the audio is hosted by the service under /media/ (no auth)'), 'only when success')),
    audioDuration: z.number().nonnegative().meta({ description: 'seconds; the billed duration: the decoded length of the audio (0 until success)' }),
    creditCharged: z.number().nonnegative().meta({ description: 'credits actually charged (0 until charged)' }),
    creditRefunded: z
      .number()
      .nonnegative()
      .meta({ description: 'credits refunded: on failure all of the reservation, on success the part of it not charged' }),
    errorMessage: z.string().optional().meta({ description: 'only when failed: the code and what went wrong' }),
    createdAt: EpochMs,
    updatedAt: EpochMs,
  })
  .openapi('GeneratedAudioTask');
export type GeneratedAudioTask = z.infer<typeof GeneratedAudioTask>;

// ---------------------------------------------------------------------------
// Operations: one definition, two services
// ---------------------------------------------------------------------------

const errorsOfCreate = [
  'GEN_AUDIO_INVALID_PARAMETERS',
  'GEN_AUDIO_SPEAKER_NOT_FOUND',
  'GEN_AUDIO_TOO_MANY_VOICES',
  'GEN_AUDIO_INSUFFICIENT_CREDITS',
  'GEN_AUDIO_RATE_LIMITED',
  'GEN_AUDIO_CONCURRENCY_LIMIT',
  'GEN_AUDIO_UNAVAILABLE',
] as const;

const upper = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** A generated-audio task's states as data (document 2, "States and transitions"; the schedule is assumed): `example` is a valid create body. */
function generatedAudioLifecycle(name: GeneratedAudioServiceName): LifecycleDef {
  return {
    statusField: 'status',
    states: generatedAudioStatuses,
    transitions: { pending: ['generating', 'failed'], generating: ['uploading', 'success', 'failed'], uploading: ['success', 'failed'] },
    terminal: ['success', 'failed'],
    success: 'success',
    pollOperationId: `get${upper(name)}Task`,
    idField: 'taskId',
    firstPollMs: 1_000,
    intervalMs: 1_000,
    timeoutMs: 15 * 60_000,
    provenance: assumed('document 2 gives no polling timings for generated-audio tasks: every second, giving up after 15 minutes'),
    example: { text: 'Welcome to the show.', voices: [{ type: 'speaker', id: 'en_ava' }], durationHint: 5 },
    successRequires: ['audioUrl', 'audioDuration'],
    media: [{ urlField: 'audioUrl', contentTypes: ['audio/mpeg'], durationField: 'audioDuration' }],
    chargedField: 'creditCharged',
  };
}

// What the three operations of a service share: each states only what differs (operationsWith, schemas/define.ts).
const op = operationsWith({
  provenance: fromSeed(2, 'Generated-audio tasks (prefix P = /v1/platform-voice or /v1/seed-audio)'),
  auth: true,
  validationError: 'GEN_AUDIO_INVALID_PARAMETERS',
});

function createSpec(name: GeneratedAudioServiceName) {
  const s = generatedAudioServices[name];
  const price =
    `Price: max(1, ceil(audioDuration x ${s.creditsPerMinute} / 60)) credits${s.rateProvenance === 'assumed' ? ' (the rate is assumed: the document says only that P2 is billed on audioDuration)' : ''}; ` +
    `reserved at submission for durationHint (or for ${generatedAudioLimits.durationHint.max} s without it, assumed), captured on success at the real price with the rest released, refunded on failure.`;
  return op({
    method: 'post',
    path: `${s.prefix}/generate`,
    summary: `Generate audio (${s.model})`,
    description:
      `Returns HTTP 202 with {taskId, status: pending}. text up to 1400 characters (dialogue: lines prefixed @音频1, @音频2, ... go to the voices in order; a line naming a missing voice: 33004); voices 1-3 ({type: speaker, id} or {type: reference, url}, never both: 33004; more than 3: 33005; an unknown speaker id: 33002); image (exactly one of url or data; jpeg, png or webp, 10 MB) not with voices (33004); audioConfig ranges and format; durationHint 1-110 s. ` +
      `The audio lasts durationHint (to the frame, never more) or, without it, the speaking-rate estimate of the text (400 ms a word, 1-110 s; speechRate -50..100 makes it faster or slower); its decoded length is audioDuration. ${price} ` +
      `Lifecycle (assumed): pending 1 s, generating 2 s plus 10% of the audio, uploading 1 s, success; a task stalled for 10 minutes fails with 33008. ` +
      `${generatedAudioRateLimit.limit} generate requests per minute per user (HTTP 429 with 33007 and Retry-After); ${GENERATED_AUDIO_CONCURRENCY} tasks running at once per user (33009).`,
    request: { body: json(generateRequest(s.model, `${upper(name)}GenerateRequest`), { limitBytes: 15 * 1024 * 1024 }) },
    response: { status: 202, kind: 'envelope', schema: CreateGeneratedAudioData, description: 'the task, pending' },
    errors: [...errorsOfCreate],
    stateRules: generateStateRules,
    rateLimit: { bucket: `${s.prefix.split('/').pop()!}-generate`, ...generatedAudioRateLimit, error: 'GEN_AUDIO_RATE_LIMITED' },
    charges: true,
    outcomes: ['failed', 'stuck'],
    failureReasons: ['GEN_AUDIO_UNAVAILABLE', 'GEN_AUDIO_TIMED_OUT'],
    lifecycle: generatedAudioLifecycle(name),
  });
}

function getSpec(name: GeneratedAudioServiceName) {
  const s = generatedAudioServices[name];
  return op({
    method: 'get',
    path: `${s.prefix}/tasks/{taskId}`,
    summary: `Get a ${s.model} task`,
    description: 'The task. An unknown task, or one of another user, answers 400 with 33001.',
    request: { params: GeneratedAudioTaskParams },
    response: { status: 200, kind: 'envelope', schema: GeneratedAudioTask, description: 'the task' },
    errors: ['GEN_AUDIO_INVALID_PARAMETERS', 'GEN_AUDIO_TASK_NOT_FOUND'],
  });
}

function listSpec(name: GeneratedAudioServiceName) {
  const s = generatedAudioServices[name];
  return op({
    method: 'get',
    path: `${s.prefix}/tasks`,
    summary: `List ${s.model} tasks, newest first`,
    description:
      'page >= 1, pageSize 1-100, status, keyword (up to 64 characters: tasks whose text contains every word of it, ignoring case; assumed fuzziness).',
    request: { query: ListGeneratedAudioQuery },
    response: { status: 200, kind: 'envelope', schema: paginated(GeneratedAudioTask), description: 'a page of tasks' },
    errors: ['GEN_AUDIO_INVALID_PARAMETERS'],
  });
}

/** The three operations of one service, named after it (createPlatformVoiceTask, getSeedAudioTask, listSeedAudioTasks, ...): one definition, no copy. */
function serviceOperations<N extends GeneratedAudioServiceName>(
  name: N,
): { [K in `create${Capitalize<N>}Task`]: ReturnType<typeof createSpec> } & { [K in `get${Capitalize<N>}Task`]: ReturnType<typeof getSpec> } & {
  [K in `list${Capitalize<N>}Tasks`]: ReturnType<typeof listSpec>;
} {
  const N = upper(name);
  return { [`create${N}Task`]: createSpec(name), [`get${N}Task`]: getSpec(name), [`list${N}Tasks`]: listSpec(name) } as never;
}

export const generatedAudioTableAssumptions: TableAssumption[] = [
  {
    subject: `P2 (seed-audio-1.0) price: ${generatedAudioServices.seedAudio.creditsPerMinute} credits per generated minute, max(1, ceil(audioDuration x 40 / 60))`,
    reason: 'document 2 says P2 is billed on audioDuration without the rate',
  },
  {
    subject: `generated-audio reservation: for durationHint, or for ${generatedAudioLimits.durationHint.max} s without it; the unused part is released at capture`,
    reason: 'document 2 says credits are reserved at submission without the amount',
  },
  {
    subject:
      'generated-audio length: durationHint to the frame (never longer), else 400 ms a word of the text (dialogue tags dropped) divided by 1 + speechRate / 100, within 1-110 s; image-to-audio and sound effects the same',
    reason: 'document 2 says durationHint hints the target length',
  },
  {
    subject: `generated-audio schedule and limits: pending 1 s, generating 2 s + 10% of the audio, uploading 1 s; ${GENERATED_AUDIO_CONCURRENCY} running tasks per user and service (33009); a stalled task fails after 10 minutes (33008); keyword matches tasks whose text contains every word, ignoring case`,
    reason: 'document 2 names the states, the concurrency code and the keyword without numbers or rules',
  },
  {
    subject: `reference voice URLs are not fetched (any http or https URL is accepted); an inline image gets a ${GENERATED_AUDIO_THUMB_SIDE}x${GENERATED_AUDIO_THUMB_SIDE} PNG thumbnailUrl`,
    reason: 'the mock reads no remote file; document 2 says the thumbnail is optional',
  },
];

export const platformVoiceArea = {
  tag: {
    name: generatedAudioServices.platformVoice.tag,
    description: 'Generated audio, service P1 (platform-voice-1.0): narration, dialogue and image-to-audio tasks (document 2).',
  },
  operations: defineOperations(generatedAudioServices.platformVoice.tag, serviceOperations('platformVoice')),
  tableAssumptions: generatedAudioTableAssumptions,
} satisfies Area;

export const seedAudioArea = {
  tag: {
    name: generatedAudioServices.seedAudio.tag,
    description: 'Generated audio, service P2 (seed-audio-1.0): the same shape as P1, its own model and price (document 2).',
  },
  operations: defineOperations(generatedAudioServices.seedAudio.tag, serviceOperations('seedAudio')),
  tableAssumptions: [],
} satisfies Area;
