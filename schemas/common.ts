/**
 * Common parts of the contract: the response envelope, error envelopes,
 * pagination, timestamps and the API-key scheme.
 *
 * Seed: document 1, "Common response envelope", "Authentication".
 */
import { z } from './zod.ts';
import { errorCatalog, type ErrorName } from './errors.ts';
import { assumed, fromSeed, provenanceMeta } from './provenance.ts';
import { DEFAULT_KEY_PREFIX } from './api-key.ts';

/** Epoch milliseconds (document 1, "Common response envelope": createdAt, updatedAt, completedAt). */
export const EpochMs = z.number().int().nonnegative().meta({ description: 'Epoch milliseconds', example: 1767225600000 });

/**
 * The path parameter of an operation on one record (`{taskId}`, `{episodeId}`):
 * a non-empty id, described and exampled for the spec. Every area's id
 * parameter is made here, so they stay one schema.
 */
export function idParams<K extends string>(name: K, description: string, example: string) {
  const id = z.string().min(1).meta({ param: { description }, example });
  return z.object({ [name]: id } as Record<K, typeof id>);
}

/** An RFC 3986 URI: a scheme, then ASCII characters a URI may hold, anything else percent-encoded. */
export const RFC3986_URI = /^[A-Za-z][A-Za-z0-9+.-]*:(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/;

/**
 * A URL a request may carry and a response may echo: a URL (WHATWG parsing)
 * that is also a URI (RFC 3986, what JSON Schema's `format: uri` checks), so
 * that what the mock echoes back always matches the spec. Spaces, quotes,
 * angle brackets and non-ASCII characters must be percent-encoded. The spec
 * shows it as `format: uri` alone (the emitter drops the RFC 3986 pattern,
 * which says the same and holds a quote some generators cannot quote).
 */
export function uriString() {
  return z.url().regex(RFC3986_URI, { message: 'must be a URI: ASCII only, with spaces, quotes, angle brackets and non-ASCII characters percent-encoded' });
}

/** Success envelope `{code: 0, message, data}` around `data` (document 1, "Common response envelope"). */
export function envelope<T extends z.ZodType>(data: T) {
  return z.strictObject({
    // document 1 types code as an integer
    code: z
      .literal(0)
      .meta({ description: '0 means success' })
      .openapi({ type: 'integer', enum: [0] }),
    message: z.string().meta({ description: 'empty string or short text' }),
    data,
  });
}

/**
 * Error envelope for one HTTP status of one operation: `code` is restricted to
 * the catalogued codes the operation can return with that status; `data` is null
 * (assumed: the seed does not show the payload of an error).
 */
export function errorEnvelope(names: readonly ErrorName[]) {
  const codes = names.map((n) => errorCatalog[n].code);
  const code = (codes.length === 1 ? z.literal(codes[0]) : z.literal(codes as [number, ...number[]])).meta({
    description: `Error code: ${names.map((n) => `${errorCatalog[n].code} ${errorCatalog[n].meaning}`).join('; ')}`,
  });
  return z.strictObject({
    code,
    message: z.string().meta({ description: 'what went wrong, naming the field and the rule' }),
    data: z.null().meta(provenanceMeta(assumed('the document does not show the data of an error envelope'), 'always null on errors')),
  });
}

/** Generic error envelope (any non-zero code), for documents that list no particular codes. */
export const ErrorEnvelope = z
  .strictObject({
    code: z
      .number()
      .int()
      .refine((c) => c !== 0, 'an error code is never 0'),
    message: z.string(),
    data: z.null(),
  })
  .meta({ description: 'Error envelope: non-zero code, a message naming the field and the rule, data null' });

/**
 * Page query parameters (document 1, "Video: list tasks"): `page` >= 1 (default 1),
 * `pageSize` 1..`max` (default 20). Query values arrive as strings and are coerced.
 */
export function pageQuery(max: number) {
  return {
    page: z.coerce.number().int().min(1).default(1).meta({ description: 'page number, an integer from 1' }),
    pageSize: z.coerce
      .number()
      .int()
      .min(1)
      .max(max)
      .default(20)
      .meta({ description: `items per page, an integer 1-${max}` }),
  };
}

/** A page of `item`: `{items, page, pageSize, total}` (document 1, "Common response envelope"). */
export function paginated<T extends z.ZodType>(item: T) {
  return z.strictObject({
    items: z.array(item),
    page: z.number().int().min(1),
    pageSize: z.number().int().min(1),
    total: z.number().int().nonnegative().meta({ description: 'number of matching items across all pages' }),
  });
}

/** The security scheme as registered in the spec. */
export const bearerApiKeyScheme = {
  name: 'apiKey',
  scheme: {
    type: 'http' as const,
    scheme: 'bearer',
    bearerFormat: `${DEFAULT_KEY_PREFIX}_<keyId>_<secret>`,
    description:
      'Authorization: Bearer <API_KEY>. The key represents the account (its owner). Keys have the format <key_prefix>_<keyId>_<secret>, ' +
      `with the fixed prefix "${DEFAULT_KEY_PREFIX}"; keyId and secret are letters and digits. ` +
      'The secret is shown once, at creation; keys are created and deleted in the account dashboard, and a deletion takes effect at once (later requests with the key fail authentication). ' +
      'There is no refresh: a key is valid until rotated or deleted. Keep keys server-side. ' +
      'A rejected credential answers HTTP 401 or 403 with code 10001: every operation declares both statuses (the document allows either). Sent to {base_url}.',
    'x-provenance': `document 1, "Authentication"; assumed: the prefix "${DEFAULT_KEY_PREFIX}" and the characters of keyId and secret (the document says the prefix is fixed but does not show it)`,
  },
};

/**
 * The second credential (document 1, "Authentication"): a user-facing client at {user_api_base_url} sends the
 * access token of a signed-in user (POST /v1/oauth/token) and acts as that user. A bearer scheme rather than an
 * oauth2 flow: the document's login is a session with a local callback port, not a standard authorization-code
 * redirect.
 */
export const userTokenScheme = {
  name: 'userToken',
  scheme: {
    type: 'http' as const,
    scheme: 'bearer',
    description:
      'Authorization: Bearer <ACCESS_TOKEN>: the access token of a signed-in user, from the OAuth login session, exchange and refresh operations (tag OAuth). The request acts as that user. ' +
      'Every operation that takes an API key takes a user token too. A rejected token answers HTTP 401 (or 403, as for an API key). Sent to {user_api_base_url}.',
    'x-provenance': `document 1, "Authentication"; assumed: which operations a user token reaches (document 1 does not say; every operation that takes an API key takes one)`,
  },
};

export const seedEnvelope = fromSeed(1, 'Common response envelope');
