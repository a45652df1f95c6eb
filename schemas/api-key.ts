/**
 * The API-key format (document 1, "Authentication"): `<prefix>_<keyId>_<secret>`,
 * letters and digits in keyId and secret. Pure: no Zod, so the engine can use it.
 */

/** The key prefix (assumed: document 1 says the prefix is fixed but does not show it). */
export const DEFAULT_KEY_PREFIX = 'mg';

/** Matches an API key of the given prefix; group 1 is keyId, group 2 the secret. */
export function apiKeyPattern(prefix: string = DEFAULT_KEY_PREFIX): RegExp {
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped}_([A-Za-z0-9]+)_([A-Za-z0-9]+)$`);
}
