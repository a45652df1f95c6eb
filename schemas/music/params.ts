/**
 * What the music requests share (schemas/music.ts re-exports it): the rule
 * helpers (schemas/rules.ts: each rule a JSON Schema fragment, checked by the
 * mock and emitted under allOf), the state rules, the musicB parameters and the
 * text fields. Seed: document 3, "musicB parameters", "Music: asynchronous
 * generation (prefix /v1/music)".
 */
import { z } from '../zod.ts';
import { js, rule, type BodyRule, type JsonSchema, type StateRule } from '../rules.ts';
import type { ErrorName } from '../errors.ts';
import { charCount } from '../speech.ts';
import { musicBTiers, musicBVocalGenders, musicTextLimits } from './tables.ts';

// ---------------------------------------------------------------------------
// Rule helpers (schemas/rules.ts: each rule is a JSON Schema fragment, checked by the mock and emitted under allOf)
// ---------------------------------------------------------------------------

export const INVALID: ErrorName = 'MUSIC_INVALID_PARAMETERS';
type Fields = Record<string, unknown>;
/** A top-level text field is sent and not blank (the fragment of js.notBlank, required). */
export const sentNotBlank = (field: string): JsonSchema => ({ required: [field], properties: { [field]: js.notBlank } });
/** The value at `prefix` of a body (the body itself without one). */
const at = (v: Fields, prefix: readonly string[]): Fields => prefix.reduce<Fields>((o, k) => (o[k] ?? {}) as Fields, v);
/** The fragment `inner`, nested under the object fields of `prefix`. */
export const under = (prefix: readonly string[], inner: JsonSchema): JsonSchema =>
  prefix.reduceRight<JsonSchema>((s, k) => ({ properties: { [k]: s } }), inner);

/**
 * A rule: the text fields of `limits` at most their length (characters as Unicode code points), under
 * `prefix` (an object field) when given. Reported on the first field over its limit.
 */
export function textRule<T>(id: string, limits: Record<string, number>, prefix: readonly string[] = []): BodyRule<T> {
  const over = (v: T) => {
    const o = at(v as Fields, prefix);
    return Object.keys(limits).find((f) => typeof o[f] === 'string' && charCount(o[f]) > limits[f]) ?? Object.keys(limits)[0];
  };
  const where = prefix.length ? `${prefix.join('.')}.` : '';
  return rule<T>({
    id,
    rule: `${Object.entries(limits)
      .map(([f, max]) => `${where}${f} ${max}`)
      .join(', ')}: at most that many characters (code points)`,
    code: INVALID,
    path: (v) => [...prefix, over(v)],
    message: (v) => {
      const f = over(v);
      return `${charCount(at(v as Fields, prefix)[f] as string)} characters (code points); at most ${limits[f]}`;
    },
    then: under(prefix, { properties: Object.fromEntries(Object.entries(limits).map(([f, max]) => [f, { maxLength: max }])) }),
  });
}

/** A rule: the text fields `fields`, when sent, are not blank (only white space). */
export function notBlankRule<T>(id: string, fields: readonly string[]): BodyRule<T> {
  return rule<T>({
    id,
    rule: `${fields.join(', ')}: not blank when sent`,
    code: INVALID,
    path: (v) => [fields.find((f) => typeof (v as Fields)[f] === 'string' && ((v as Fields)[f] as string).trim() === '') ?? fields[0]],
    message: 'must not be blank',
    then: { properties: Object.fromEntries(fields.map((f) => [f, js.notBlank])) },
  });
}

/** A rule: exactly one of `fields` is sent. */
export function exactlyOneRule<T>(id: string, fields: readonly string[]): BodyRule<T> {
  const sent = (v: T) => fields.filter((f) => (v as Fields)[f] !== undefined);
  const list = fields.join(', ');
  return rule<T>({
    id,
    rule: `exactly one of ${list}`,
    code: INVALID,
    path: (v) => [sent(v)[1] ?? fields[0]],
    message: (v) => `send exactly one of ${list} (${sent(v).length === 0 ? 'none was sent' : `${sent(v).join(' and ')} were sent`})`,
    then: { oneOf: fields.map((f) => ({ required: [f] })) },
  });
}

/** A rule: `field`, when sent, is an http or https URL. */
export function httpUrlRule<T>(id: string, field: string, message: string): BodyRule<T> {
  return rule<T>({ id, rule: `${field} is an http or https URL`, code: INVALID, path: [field], message, then: js.prop(field, js.httpUrl) });
}

/** True when `url` parses as an http or https URL. */
export function isHttpUrl(url: string): boolean {
  try {
    return /^https?:$/i.test(new URL(url).protocol);
  } catch {
    return false;
  }
}

/** The price is reserved at creation (every create). */
export const creditsRule: StateRule = { code: 'MUSIC_INSUFFICIENT_CREDITS', fields: [], rule: 'the balance covers the price', reads: 'account' };
/** An upload is judged by its bytes (the contents of a file: no schema says it). */
export const uploadRule = (field: string, types: readonly string[], audio: boolean): StateRule => ({
  code: 'MUSIC_UNSUPPORTED_FILE',
  fields: [field],
  rule: `${field} is ${types.join(', ')} by its content${audio ? ', and reads as audio with a length' : ''}`,
  reads: 'body',
});
/** providerSongId names a musicA track of the caller's (/track, /remix). */
export const songIdRules: StateRule[] = [
  {
    code: 'MUSIC_SOURCE_NOT_FOUND',
    fields: ['providerSongId'],
    rule: "providerSongId names a track of one of the caller's succeeded music tasks",
    reads: 'state',
  },
  { code: 'MUSIC_PROVIDER_UNSUPPORTED', fields: ['providerSongId'], rule: 'providerSongId names a musicA song', reads: 'state' },
];
/** A platform URL (cover uploadUrl, remix audioUrl) names a track of the caller's. */
export const platformUrlRules = (field: string): StateRule[] => [
  {
    code: 'MUSIC_SOURCE_FORBIDDEN',
    fields: [field],
    rule: `${field} of this platform is not a track of another account's (ownership is verified)`,
    reads: 'state',
  },
  {
    code: 'MUSIC_SOURCE_NOT_FOUND',
    fields: [field],
    rule: `${field} of this platform names a track audioUrl of one of the caller's succeeded music tasks`,
    reads: 'state',
  },
];

// ---------------------------------------------------------------------------
// musicB parameters
// ---------------------------------------------------------------------------

const weight = (what: string) =>
  z
    .number()
    .min(0)
    .max(1)
    .optional()
    .meta({ description: `${what}: 0 to 1` });

/** The musicB parameters /extend takes as top-level fields (document 3, "musicB parameters"). */
export const musicBExtendFields = {
  negativeTags: z.string().optional().meta({ description: 'comma-separated styles to avoid' }).openapi({ maxLength: musicTextLimits.negativeTags }),
  vocalGender: z.enum(musicBVocalGenders).optional().meta({ description: 'm or f (note: /track uses male or female)' }),
  styleWeight: weight('how strongly the style is followed'),
  weirdnessConstraint: weight('how far the result may stray'),
  audioWeight: weight('weight of the source recording; meaningful only with one'),
};
/** Names of the musicB parameters per endpoint (document 3, "musicB parameters": "Applies to"). */
export const musicBParameterNames = {
  generate: ['negativeTags', 'vocalGender', 'styleWeight', 'weirdnessConstraint', 'audioWeight', 'personaId', 'personaModel'],
  cover: ['negativeTags', 'vocalGender', 'styleWeight', 'weirdnessConstraint', 'audioWeight', 'personaId', 'personaModel'],
  extend: ['negativeTags', 'vocalGender', 'styleWeight', 'weirdnessConstraint', 'audioWeight'],
} as const;

/**
 * `providerParams` of /generate and /cover (document 3, "musicB parameters"):
 * keys outside the list are dropped (never echoed). personaModel is a musicB
 * tier and goes with personaId.
 */
export const MusicBProviderParams = z
  .object({
    ...musicBExtendFields,
    personaId: z
      .string()
      .min(1)
      .optional()
      .meta({ description: 'persona performing the track (on /cover: custom mode only)' })
      .openapi({ maxLength: musicTextLimits.id }),
    personaModel: z.enum(musicBTiers).optional().meta({ description: 'the musicB tier the persona was created with; pass with personaId' }),
  })
  .meta({ description: 'musicB parameters; keys outside this list are dropped' })
  .openapi('MusicBProviderParams');
export type MusicBProviderParams = z.infer<typeof MusicBProviderParams>;

/** Rules of providerParams (shape aside): text limits; personaModel with personaId. */
export function providerParamRules<T>(endpoint: string): BodyRule<T>[] {
  return [
    textRule<T>(`music.${endpoint}.provider-params-text-length`, { negativeTags: musicTextLimits.negativeTags, personaId: musicTextLimits.id }, [
      'providerParams',
    ]),
    rule<T>({
      id: `music.${endpoint}.persona-model-needs-id`,
      rule: 'providerParams.personaModel goes with providerParams.personaId',
      code: INVALID,
      path: ['providerParams', 'personaModel'],
      message: 'personaModel goes with personaId (send both)',
      then: under(['providerParams'], { dependentRequired: { personaModel: ['personaId'] } }),
    }),
  ];
}

/** The keys of providerParams actually sent (after unknown keys were dropped). */
export const sentParams = (p: Record<string, unknown> | undefined) => Object.keys(p ?? {}).filter((k) => p![k] !== undefined);

export const promptField = (what: string) => z.string().optional().meta({ description: what }).openapi({ maxLength: musicTextLimits.prompt });
export const lyricsField = (what: string) => z.string().optional().meta({ description: what }).openapi({ maxLength: musicTextLimits.lyrics });
export const styleField = (what: string) => z.string().optional().meta({ description: what }).openapi({ maxLength: musicTextLimits.style });
export const titleField = (what: string) => z.string().optional().meta({ description: what }).openapi({ maxLength: musicTextLimits.title });
export const mainTexts = { prompt: musicTextLimits.prompt, lyrics: musicTextLimits.lyrics, style: musicTextLimits.style, title: musicTextLimits.title };
