/**
 * The typed client (`mediagen-contract/client`): openapi-fetch with the types
 * generated from the spec, so paths, request bodies, parameters, responses and
 * errors are checked at compile time:
 *
 *   const client = createClient({ baseUrl: 'http://localhost:4010', apiKey: process.env.MEDIAGEN_API_KEY });
 *   const { data, error } = await client.POST('/v1/video-generation/generate', { body: { model: 'family1-video-2-fast', content: [...] } });
 */
import createFetchClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from '../generated/api.d.ts';

export type { components, paths } from '../generated/api.d.ts';

/** Options of createClient: openapi-fetch's, plus `apiKey` (sent as `Authorization: Bearer <apiKey>`). */
export interface MediagenClientOptions extends ClientOptions {
  /** An API key or an OAuth access token, sent on every request as `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
}

/** A typed client of the Media Generation Service (or the mock: baseUrl http://localhost:4010 by default). */
export type MediagenClient = Client<paths>;

/** Creates a typed client; `baseUrl` defaults to the mock's http://localhost:4010. */
export function createClient({ apiKey, headers, baseUrl = 'http://localhost:4010', ...rest }: MediagenClientOptions = {}): MediagenClient {
  return createFetchClient<paths>({
    baseUrl,
    ...rest,
    headers: { ...(apiKey ? { Authorization: `Bearer ${apiKey}` } : {}), ...(headers as Record<string, string> | undefined) },
  });
}
