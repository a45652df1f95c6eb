/**
 * `npm run postman -- [dir]`: a Postman collection (v2.1) of the whole API,
 * emitted from the operation registry (schemas/operations.ts) and the
 * document's examples (spec/openapi.json): every operation once at least,
 * with a valid body (the document's example, or a multipart form with real
 * files: a 6-second WAV, a WebP), the bearer key preset (collection variable
 * `apiKey`, default mg_demo_secret1), the ids of each create saved by its test
 * script and read by the requests that name them, and the mock's clock moved
 * (POST /__mock/clock/advance) where a step needs a task finished. Every
 * request tests its documented success status. Written to `dir` (default
 * postman/): mediagen.postman_collection.json and the files the forms upload;
 * run it against a fresh mock with a manual clock:
 *
 *   npx mediagen-mock --clock manual &
 *   npx newman run postman/mediagen.postman_collection.json --working-dir postman
 *
 * test/postman.e2e.ts (`npm run test:package`) runs it with newman against a
 * fresh in-process mock.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderWav } from '../mock/media/audio/pcm.ts';
import { operationIds, operations } from '../schemas/operations.ts';
import type { OperationDef } from '../schemas/registry-types.ts';

const root = new URL('..', import.meta.url).pathname;

interface Spec {
  paths: Record<string, Record<string, { operationId?: string; requestBody?: { content: Record<string, { example?: unknown }> } }>>;
}

/** A form field: text, or a file of the collection's folder. */
type FormField = { key: string; value: string } | { key: string; file: string };

/** One step: an operation, or a control call that moves the clock. */
interface Step {
  operationId?: string;
  name?: string;
  method?: string;
  path?: string;
  /** `{{var}}` in path, query and body are Postman's collection variables. */
  query?: Record<string, string>;
  json?: unknown;
  form?: FormField[];
  urlencoded?: Record<string, string>;
  /** Test-script lines run after the status test (`j` is the parsed JSON body where there is one). */
  save?: string[];
  noAuth?: boolean;
  noRedirects?: boolean;
}

/**
 * The files the forms upload: a 6-second WAV (24 kHz mono 16-bit: the mock's own tone loop, `renderWav` of
 * mock/media/audio/pcm.ts) and a minimal lossless WebP header.
 */
export function uploadFiles(): Record<string, Uint8Array> {
  const wav = renderWav(6_000, 0);
  const webp = new TextEncoder().encode('RIFF\x1a\x00\x00\x00WEBPVP8L\x0e\x00\x00\x00/\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00');
  return { 'sample.wav': wav, 'cover.webp': webp };
}

const advance = (ms: number, why: string): Step => ({
  name: `advance the clock ${ms / 1000} s (${why})`,
  method: 'POST',
  path: '/__mock/clock/advance',
  json: { ms },
});
const saveId = (variable: string, field = 'taskId') => [`pm.collectionVariables.set('${variable}', j.data.${field});`];

/** The walk: every operation in an order where each read follows the create it reads. */
function steps(example: (id: string) => unknown): Step[] {
  const op = (operationId: string, more: Omit<Step, 'operationId'> = {}): Step => ({ operationId, ...more });
  const ex = (id: string) => op(id, { json: example(id) });
  return [
    op('getSubscription'),
    // video
    ex('estimateVideoCredits'),
    ex('estimateFamily5Credits'),
    op('createVideoTask', { json: example('createVideoTask'), save: saveId('videoTaskId') }),
    ex('createFamily5VideoTask'),
    op('getVideoTask', { path: '/v1/video-generation/tasks/{{videoTaskId}}' }),
    op('listVideoTasks'),
    op('shareVideoTask', { path: '/v1/video-generation/tasks/{{videoTaskId}}/share', json: example('shareVideoTask') }),
    // images
    ex('estimateImageCredits'),
    ex('generateImage'),
    op('createImageTask', { json: example('createImageTask'), save: saveId('imageTaskId') }),
    op('getImageTask', { path: '/v1/images/generation/tasks/{{imageTaskId}}' }),
    op('listImageTasks'),
    // speech
    ex('synthesizeSpeech'),
    ex('createSpeech'),
    ex('createSpeechScript'),
    op('createFlowSpeechEpisode', { json: example('createFlowSpeechEpisode'), save: saveId('flowEpisodeId', 'episodeId') }),
    ex('createFlowSpeechTtsEpisode'),
    op('getFlowSpeechEpisode', { path: '/v1/flow-speech/episodes/{{flowEpisodeId}}' }),
    op('listSpeakers'),
    // voice cloning: a clone of an uploaded WAV, confirmed once processed, then the private voice
    op('createVoiceClone', {
      form: [
        { key: 'audioFiles', file: 'sample.wav' },
        { key: 'language', value: 'en' },
        { key: 'consentConfirmed', value: 'true' },
      ],
      save: saveId('cloneTaskId'),
    }),
    op('getVoiceClone', { path: '/v1/voice-clone/clone/{{cloneTaskId}}' }),
    advance(60_000, 'the clone is processed'),
    op('confirmVoiceClone', { json: { taskId: '{{cloneTaskId}}', name: 'Postman narrator', gender: 'other' }, save: saveId('speakerId', 'speakerId') }),
    op('listPrivateVoices'),
    op('getPrivateVoice', { path: '/v1/voice-clone/speakers/{{speakerId}}' }),
    op('updatePrivateVoice', { path: '/v1/voice-clone/speakers/{{speakerId}}', json: example('updatePrivateVoice') }),
    op('deletePrivateVoice', { path: '/v1/voice-clone/speakers/{{speakerId}}' }),
    // generated audio (the clock moves first: earlier tasks finish, so the per-user concurrency limit never answers)
    advance(600_000, 'earlier audio tasks finish'),
    op('createPlatformVoiceTask', { json: example('createPlatformVoiceTask'), save: saveId('platformVoiceTaskId') }),
    op('getPlatformVoiceTask', { path: '/v1/platform-voice/tasks/{{platformVoiceTaskId}}' }),
    op('listPlatformVoiceTasks'),
    advance(600_000, 'the platform-voice task finishes'),
    op('createSeedAudioTask', { json: example('createSeedAudioTask'), save: saveId('seedAudioTaskId') }),
    op('getSeedAudioTask', { path: '/v1/seed-audio/tasks/{{seedAudioTaskId}}' }),
    op('listSeedAudioTasks'),
    // podcasts: one-shot, and two-stage (its audio once the script is written)
    op('createPodcastEpisode', { json: example('createPodcastEpisode'), save: saveId('podcastEpisodeId', 'episodeId') }),
    op('createPodcastTextContent', { json: example('createPodcastTextContent'), save: saveId('textEpisodeId', 'episodeId') }),
    op('getPodcastEpisode', { path: '/v1/podcast/episodes/{{podcastEpisodeId}}' }),
    advance(600_000, 'the scripts are written'),
    // the audio of the episode's own script (the body is optional: the document's example names speakers of another episode)
    op('createPodcastAudio', { path: '/v1/podcast/episodes/{{textEpisodeId}}/audio' }),
    op('streamPodcastText', { path: '/v1/podcast/episodes/{{podcastEpisodeId}}/text-stream', query: { event: 'script' } }),
    // lyrics
    op('createLyricsTask', { json: example('createLyricsTask'), save: saveId('lyricsTaskId') }),
    op('listLyricsTasks'),
    op('getLyricsTask', { path: '/v1/lyrics/tasks/{{lyricsTaskId}}' }),
    // music analysis of an uploaded WAV
    op('recognizeMusic', { form: [{ key: 'audio', file: 'sample.wav' }] }),
    op('describeMusic', { form: [{ key: 'audio', file: 'sample.wav' }] }),
    op('separateMusicStems', {
      form: [
        { key: 'audio', file: 'sample.wav' },
        { key: 'model', value: 'audio-separation-2' },
      ],
    }),
    // page decks: the video of a finished deck
    op('createStorybookEpisode', { json: example('createStorybookEpisode'), save: saveId('storybookEpisodeId', 'episodeId') }),
    op('getStorybookEpisode', { path: '/v1/storybook/episodes/{{storybookEpisodeId}}' }),
    advance(600_000, 'the deck is finished'),
    op('createStorybookVideo', { path: '/v1/storybook/episodes/{{storybookEpisodeId}}/video' }),
    // content extraction
    op('createExtraction', { json: example('createExtraction'), save: saveId('extractionTaskId') }),
    op('getExtraction', { path: '/v1/content/extract/{{extractionTaskId}}' }),
    // music: a song, then the requests that build on it
    op('generateMusic', { json: example('generateMusic'), save: saveId('musicTaskId') }),
    advance(600_000, 'the song is generated'),
    op('getMusicTask', { path: '/v1/music/tasks/{{musicTaskId}}', save: ["pm.collectionVariables.set('providerSongId', j.data.tracks[0].providerSongId);"] }),
    op('listMusicTasks'),
    op('generateInstrumental', { form: [{ key: 'prompt', value: 'calm piano over soft rain' }] }),
    op('generateSoundtrack', {
      form: [
        { key: 'image', file: 'cover.webp' },
        { key: 'prompt', value: 'gentle strings' },
      ],
    }),
    op('generateTrack', {
      form: [
        { key: 'generateType', value: 'Bass' },
        { key: 'prompt', value: 'a walking bass line' },
        { key: 'providerSongId', value: '{{providerSongId}}' },
      ],
    }),
    op('remixMusic', {
      form: [
        { key: 'lyrics', value: '[Verse]\nNew words for an old tune' },
        { key: 'prompt', value: 'upbeat disco' },
        { key: 'providerSongId', value: '{{providerSongId}}' },
      ],
    }),
    ex('coverMusic'),
    op('extendMusic', { form: [{ key: 'taskId', value: '{{musicTaskId}}' }] }),
    // signing a user in: a login session, its page and form (the code from the redirect), the tokens
    op('startLoginSession', { json: { callbackPort: 53682, state: 'postman' }, save: saveId('loginSessionId', 'sessionId') }),
    op('showAuthorizePage', {
      query: { sessionId: '{{loginSessionId}}' },
      save: [
        'const field = (name) => new RegExp(`name="${name}" value="([^"]+)"`).exec(pm.response.text())[1];',
        "pm.collectionVariables.set('csrf', field('csrf'));",
        "pm.collectionVariables.set('userId', field('userId'));",
      ],
    }),
    op('submitAuthorizePage', {
      urlencoded: { sessionId: '{{loginSessionId}}', csrf: '{{csrf}}', userId: '{{userId}}' },
      noRedirects: true,
      save: ["pm.collectionVariables.set('oauthCode', /[?&]code=([^&]+)/.exec(pm.response.headers.get('Location'))[1]);"],
    }),
    op('exchangeOAuthCode', { json: { sessionId: '{{loginSessionId}}', code: '{{oauthCode}}' }, save: saveId('refreshToken', 'refreshToken') }),
    op('refreshOAuthToken', { json: { refreshToken: '{{refreshToken}}' }, save: saveId('refreshToken', 'refreshToken') }),
    op('revokeOAuthToken', { json: { refreshToken: '{{refreshToken}}' } }),
    // a finished video can be deleted
    advance(3_600_000, 'the video is finished'),
    op('deleteVideoTask', { path: '/v1/video-generation/tasks/{{videoTaskId}}' }),
  ];
}

/** The Postman item of a step. */
function itemOf(step: Step): unknown {
  const def = step.operationId ? (operations as Record<string, OperationDef>)[step.operationId] : undefined;
  if (step.operationId && !def) throw new Error(`postman: no operation ${step.operationId} in the registry`);
  const method = (step.method ?? def!.method).toUpperCase();
  const path = step.path ?? def!.path;
  if (/\{(?!\{)[^}]+\}(?!\})/.test(path.replace(/\{\{[^}]+\}\}/g, ''))) throw new Error(`postman: ${step.operationId}: path ${path} has an unfilled parameter`);
  const status = def ? def.response.status : 200;
  const query = Object.entries(step.query ?? {}).map(([key, value]) => ({ key, value }));
  const raw = `{{baseUrl}}${path}${query.length ? '?' + query.map((q) => `${q.key}=${q.value}`).join('&') : ''}`;
  const request: Record<string, unknown> = {
    method,
    header: [] as unknown[],
    url: { raw, host: ['{{baseUrl}}'], path: path.split('/').filter(Boolean), ...(query.length ? { query } : {}) },
  };
  if (step.json !== undefined) {
    request.body = { mode: 'raw', raw: JSON.stringify(step.json, null, 2), options: { raw: { language: 'json' } } };
    (request.header as unknown[]).push({ key: 'Content-Type', value: 'application/json' });
  } else if (step.form)
    request.body = {
      mode: 'formdata',
      formdata: step.form.map((f) => ('file' in f ? { key: f.key, type: 'file', src: f.file } : { key: f.key, value: f.value, type: 'text' })),
    };
  else if (step.urlencoded) request.body = { mode: 'urlencoded', urlencoded: Object.entries(step.urlencoded).map(([key, value]) => ({ key, value })) };
  if (def && !def.auth) request.auth = { type: 'noauth' };
  const json = def?.response.kind === 'envelope' ? ['const j = pm.response.json();'] : [];
  return {
    name: step.name ?? `${step.operationId}: ${method} ${path}`,
    request,
    ...(step.noRedirects ? { protocolProfileBehavior: { followRedirects: false } } : {}),
    event: [
      {
        listen: 'test',
        script: {
          type: 'text/javascript',
          exec: [`pm.test('status ${status}', () => pm.response.to.have.status(${status}));`, ...(step.save ? [...json, ...step.save] : [])],
        },
      },
    ],
  };
}

/** The collection (Postman v2.1) and the files its forms upload, by name. */
export function postmanCollection(spec: Spec = JSON.parse(readFileSync(join(root, 'spec/openapi.json'), 'utf8')) as Spec) {
  const examples = new Map<string, unknown>();
  for (const methods of Object.values(spec.paths))
    for (const op of Object.values(methods)) {
      const content = op.requestBody?.content ?? {};
      const first = Object.values(content)[0];
      if (op.operationId && first?.example !== undefined) examples.set(op.operationId, first.example);
    }
  const example = (id: string) => {
    if (!examples.has(id)) throw new Error(`postman: ${id} has no example body in spec/openapi.json`);
    return examples.get(id);
  };
  const walk = steps(example);
  const covered = new Set(walk.map((s) => s.operationId).filter(Boolean));
  const missing = operationIds.filter((id) => !covered.has(id));
  if (missing.length) throw new Error(`postman: operations not in the walk: ${missing.join(', ')} (add them to steps in scripts/postman.ts)`);
  return {
    collection: {
      info: {
        name: 'mediagen-contract: the Media Generation Service (mock walk)',
        description: 'Every operation with a valid body, ids chained from each create to its reads; for a fresh mediagen-mock with --clock manual.',
        schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json',
      },
      auth: { type: 'bearer', bearer: [{ key: 'token', value: '{{apiKey}}', type: 'string' }] },
      variable: [
        { key: 'baseUrl', value: 'http://localhost:4010' },
        { key: 'apiKey', value: 'mg_demo_secret1' },
      ],
      item: walk.map(itemOf),
    },
    files: uploadFiles(),
    operations: covered.size,
    requests: walk.length,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2] ?? join(root, 'postman');
  mkdirSync(dir, { recursive: true });
  const { collection, files, operations: n, requests } = postmanCollection();
  writeFileSync(join(dir, 'mediagen.postman_collection.json'), JSON.stringify(collection, null, 2) + '\n');
  for (const [name, bytes] of Object.entries(files)) writeFileSync(join(dir, name), bytes);
  console.log(`${join(dir, 'mediagen.postman_collection.json')}: ${requests} requests, ${n} operations`);
}
