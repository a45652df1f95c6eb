/**
 * The registry walk's minimal valid requests (test/registry-walk.test.ts): a
 * request of each operation that succeeds, from its schema's examples or, for
 * an operation whose path names something that must exist or whose body needs
 * more, an entry of `setups` that creates it; and any concrete path of an
 * operation, for the answers that precede parameter validation.
 */
import { getOpenApiMetadata } from '@asteasolutions/zod-to-openapi';
import { expect } from 'vitest';
import { operations } from '../schemas/operations.ts';
import type { OperationDef } from '../schemas/registry-types.ts';
import { analysisForm, cloneForm, magicFiles, musicForm, musicFormFields, musicSong, pathOf } from './factories.ts';
import type { TestMock } from './helpers.ts';

// ---------------------------------------------------------------------------
// Minimal valid requests
// ---------------------------------------------------------------------------

interface Built {
  path: string;
  body?: unknown;
}

/** The `.openapi(..., {example})` of a schema, if any. */
function exampleOf(schema: unknown): unknown {
  return (getOpenApiMetadata(schema as never) as { example?: unknown } | undefined)?.example;
}

/** The example body of an operation, checked against its own schema. */
function exampleBody(id: string): unknown {
  const op = operations[id as keyof typeof operations] as OperationDef;
  const ex = exampleOf(op.request.body?.schema);
  if (ex === undefined) throw new Error(`${id}: its body schema has no .openapi({example}); add an entry to setups in test/registry-walk.test.ts`);
  const r = op.request.body!.schema.safeParse(ex);
  if (!r.success)
    throw new Error(`${id}: its body example does not parse with its own schema: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return ex;
}

/** Fills a path template from a record. */
function fill(template: string, params: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, k: string) => encodeURIComponent(params[k] ?? `unknown-${k}`));
}

/**
 * Operations whose minimal valid request needs state (a path parameter naming
 * something that must exist) or whose body has no usable example. Keyed by
 * operationId; an operation with path params and no entry fails the walk.
 */
const setups: Record<string, (m: TestMock, op: OperationDef) => Promise<Built>> = {
  getVideoTask: createThenGet('createVideoTask', 'taskId'),
  shareVideoTask: async (m, op) => ({ ...(await createThenGet('createVideoTask', 'taskId')(m, op)), body: exampleBody('shareVideoTask') }),
  // only a finished task can be deleted: let it finish (an hour of virtual time is more than any video takes)
  deleteVideoTask: async (m, op) => {
    const built = await createThenGet('createVideoTask', 'taskId')(m, op);
    await m.advance(3_600_000);
    return built;
  },
  getImageTask: createThenGet('createImageTask', 'taskId'),
  // a refresh needs the refresh token of a signed-in session
  refreshOAuthToken: async (m, op) => {
    const signedIn = await setups.exchangeOAuthCode(m, operations.exchangeOAuthCode);
    const tokens = (await m.call('POST', signedIn.path, { key: null, body: signedIn.body })).json.data as { refreshToken: string };
    return { path: op.path, body: { refreshToken: tokens.refreshToken } };
  },
  // a code exists only for a login session authorized (here through the control API, as a test or CI does)
  exchangeOAuthCode: async (m, op) => {
    const { sessionId } = (await m.call('POST', pathOf('startLoginSession'), { key: null, body: { callbackPort: 53682 } })).json.data as { sessionId: string };
    const users = (await m.call('GET', '/__mock/users', { key: null })).json.items as { userId: string }[];
    const { code } = (await m.call('POST', `/__mock/oauth/sessions/${sessionId}/authorize`, { key: null, body: { userId: users[0].userId } })).json as {
      code: string;
    };
    return { path: op.path, body: { sessionId, code } };
  },
  // the sign-in page of a pending login session
  showAuthorizePage: async (m) => ({ path: withQuery(pathOf('showAuthorizePage'), { sessionId: (await pendingLogin(m)).sessionId }) }),
  // its form, with the page's token and the first user
  submitAuthorizePage: async (m, op) => {
    const { sessionId } = await pendingLogin(m);
    const html = (await m.call('GET', withQuery(pathOf('showAuthorizePage'), { sessionId }), { key: null })).text;
    const field = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)![1];
    return { path: op.path, body: new URLSearchParams({ sessionId, csrf: field('csrf'), userId: field('userId') }) };
  },
  getFlowSpeechEpisode: createThenGet('createFlowSpeechEpisode', 'episodeId'),
  getPodcastEpisode: createThenGet('createPodcastEpisode', 'episodeId'),
  getStorybookEpisode: createThenGet('createStorybookEpisode', 'episodeId'),
  getExtraction: createThenGet('createExtraction', 'taskId'),
  // a video needs a finished deck: let it finish (ten minutes of virtual time is more than any deck takes)
  createStorybookVideo: async (m, op) => {
    const built = await createThenGet('createStorybookEpisode', 'episodeId')(m, op);
    await m.advance(600_000);
    return built;
  },
  // the script of a two-stage episode is ready after a few minutes of virtual time
  createPodcastAudio: async (m, op) => {
    const built = await createThenGet('createPodcastTextContent', 'episodeId')(m, op);
    await m.advance(600_000);
    return built;
  },
  // a stream of a finished script delivers every line and done, then closes
  streamPodcastText: async (m, op) => {
    const built = await createThenGet('createPodcastEpisode', 'episodeId')(m, op);
    await m.advance(600_000);
    return { path: withQuery(built.path, { event: 'script' }) };
  },
  createVoiceClone: async (_m, op) => ({ path: op.path, body: cloneForm() }),
  // the tasks of earlier requests finish first (the example's 10 s of audio take 5 s), so the per-user concurrency limit never answers
  createPlatformVoiceTask: async (m, op) => (await m.advance(6_000), { path: op.path, body: exampleBody(op.operationId) }),
  createSeedAudioTask: async (m, op) => (await m.advance(6_000), { path: op.path, body: exampleBody(op.operationId) }),
  getPlatformVoiceTask: createThenGet('createPlatformVoiceTask', 'taskId'),
  getSeedAudioTask: createThenGet('createSeedAudioTask', 'taskId'),
  getLyricsTask: createThenGet('createLyricsTask', 'taskId'),
  getVoiceClone: async (m, op) => ({ path: fill(op.path, { taskId: await createClone(m) }) }),
  confirmVoiceClone: async (m, op) => ({ path: op.path, body: { taskId: await createClone(m, true), name: 'Walk', gender: 'other' } }),
  getPrivateVoice: async (m, op) => ({ path: fill(op.path, { speakerId: await confirmedVoice(m) }) }),
  updatePrivateVoice: async (m, op) => ({ path: fill(op.path, { speakerId: await confirmedVoice(m) }), body: exampleBody('updatePrivateVoice') }),
  deletePrivateVoice: async (m, op) => ({ path: fill(op.path, { speakerId: await confirmedVoice(m) }) }),
  // multipart: an uploaded 6-second WAV (the schema example names an external audioUrl instead)
  recognizeMusic: async (_m, op) => ({ path: op.path, body: analysisForm() }),
  describeMusic: async (_m, op) => ({ path: op.path, body: analysisForm() }),
  separateMusicStems: async (_m, op) => ({ path: op.path, body: analysisForm({ model: 'audio-separation-2' }) }),
  getMusicTask: createThenGet('generateMusic', 'taskId'),
  // the multipart music creates: a form with their source (a text prompt, an image, a public URL, a song of the key's)
  generateInstrumental: async (_m, op) => ({ path: op.path, body: musicForm(musicFormFields.instrumental) }),
  generateSoundtrack: async (_m, op) => ({ path: op.path, body: musicForm(musicFormFields.soundtrack, { image: { bytes: magicFiles.webp } }) }),
  generateTrack: async (m, op) => ({
    path: op.path,
    body: musicForm({ ...musicFormFields.track, providerSongId: (await musicSong(m)).providerSongId }),
  }),
  // remix takes platform audio only (document 3): a song of the key's
  remixMusic: async (m, op) => ({
    path: op.path,
    body: musicForm({ ...musicFormFields.remix, providerSongId: (await musicSong(m)).providerSongId }),
  }),
  // only a succeeded task can be extended
  extendMusic: async (m, op) => ({ path: op.path, body: musicForm({ taskId: (await musicSong(m)).taskId }) }),
};

/** A login session waiting to be authorized. */
async function pendingLogin(m: TestMock): Promise<{ sessionId: string }> {
  const r = await m.call('POST', pathOf('startLoginSession'), { key: null, body: { callbackPort: 53682, state: 'walk' } });
  expect(r.status, `setup startLoginSession: ${r.text}`).toBe(200);
  return r.json.data as { sessionId: string };
}

/** A clone task of the harness's key (completed when `complete`: the clock moves past its processing). */
async function createClone(m: TestMock, complete = false): Promise<string> {
  const r = await m.call('POST', operations.createVoiceClone.path, { body: cloneForm() });
  expect(r.status, `setup createVoiceClone: ${r.text}`).toBe(200);
  if (complete) await m.advance(60_000);
  return r.json.data.taskId;
}

/** A confirmed private voice of the harness's key: its speakerInnerId. */
async function confirmedVoice(m: TestMock): Promise<string> {
  const taskId = await createClone(m, true);
  const r = await m.call('POST', operations.confirmVoiceClone.path, { body: { taskId, name: 'Walk', gender: 'other' } });
  expect(r.status, `setup confirmVoiceClone: ${r.text}`).toBe(200);
  return r.json.data.speakerId;
}

/** A setup that creates an entity with `createId`'s example body and fills `param` of the operation's path with the id. */
function createThenGet(createId: string, param: string) {
  return async (m: TestMock, op: OperationDef): Promise<Built> => {
    const create = (operations as Record<string, OperationDef>)[createId];
    if (!create) throw new Error(`setup of ${op.operationId}: no operation ${createId} in the registry`);
    const r = await m.call(create.method.toUpperCase(), create.path, { body: exampleBody(createId) });
    expect(r.status, `setup ${createId}: ${r.text}`).toBe(create.response.status);
    return { path: fill(op.path, { [param]: r.json.data[param] }) };
  };
}

/** A minimal valid request of `op`, from the setups table or the schema examples; throws naming what is missing. */
export async function minimalRequest(m: TestMock, op: OperationDef): Promise<Built> {
  const setup = setups[op.operationId];
  if (setup) return setup(m, op);
  if (op.request.params)
    throw new Error(`${op.operationId}: has path parameters; add an entry to setups in test/registry-walk.test.ts that creates what they name`);
  if (op.request.query) {
    const q = op.request.query.safeParse({});
    if (!q.success) throw new Error(`${op.operationId}: its query has required parameters; add an entry to setups in test/registry-walk.test.ts`);
  }
  return { path: op.path, ...(op.request.body ? { body: exampleBody(op.operationId) } : {}) };
}

/** Any concrete path of `op` (for forced answers, which precede parameter validation). */
export function anyPath(op: OperationDef): string {
  const params: Record<string, string> = {};
  for (const [k, v] of Object.entries(op.request.params?.shape ?? {})) {
    const ex = (v as { meta?: () => { example?: unknown } | undefined }).meta?.()?.example;
    params[k] = typeof ex === 'string' ? ex : `x${k}`;
  }
  return fill(op.path, params);
}

/** `path` with the query parameters `q` added. */
export const withQuery = (path: string, q: Record<string, string>) => `${path}${path.includes('?') ? '&' : '?'}${new URLSearchParams(q)}`;
