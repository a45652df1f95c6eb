/**
 * Speech operations through Prism's validation proxy (test/prism.ts): every
 * request goes client -> Prism (--errors, spec/openapi.yaml) -> a fresh mock,
 * and any violation in either direction fails the test. Covers the binary TTS
 * answers of both paths in every format (passed through with status 200 and
 * the audio Content-Type), /v1/speech, both flow-speech creates and the
 * episode in each status, the speaker list, the documented errors the spec
 * cannot rule out up front (35001 rules beyond JSON Schema, 35002, 35004,
 * 35006), and every Prefer-forced answer of the seven speech operations.
 * Requests the spec itself forbids are shown to be flagged by Prism and
 * answered by the mock with its documented error.
 */
import { describe, expect, it } from 'vitest';
import { type ErrorName } from '../schemas/errors.ts';
import { audioFormats } from '../schemas/media.ts';
import { operationIds, operations, type OperationId } from '../schemas/operations.ts';
import type { OperationDef } from '../schemas/registry-types.ts';
import { builtInSpeakers, flowSpeechProcessingMs, flowSpeechSchedule, speechCredits } from '../schemas/speech.ts';
import { type Body, flowSpeechBody, flowSpeechTtsBody, pathOf, speechBody, ttsBody } from './factories.ts';
import { forcedCases, KEY, OTHER_KEY, usePrism, type PrismHarness, expectErrorEnvelope, expectForwarded, viaSpecOrMock } from './prism.ts';

const prism = usePrism();

const ok = (method: string, path: string, opts: Parameters<PrismHarness['call']>[2] = {}, status = 200) => expectForwarded(prism, method, path, opts, status);

const expectError = expectErrorEnvelope;

const ttsPaths = [
  ['POST /v1/tts', pathOf('synthesizeSpeech')],
  ['POST /v1/audio/speech', pathOf('createSpeech')],
] as const;

const createEpisode = async (op: 'createFlowSpeechEpisode' | 'createFlowSpeechTtsEpisode', body: Body, headers: Record<string, string> = {}) => {
  const r = await ok('POST', pathOf(op), { body, headers });
  expect(r.json).toEqual({ code: 0, message: '', data: { episodeId: expect.stringMatching(/^fs_/) } });
  return r.json.data.episodeId as string;
};
const getEpisode = async (id: string, key?: string) => (await ok('GET', pathOf('getFlowSpeechEpisode', { episodeId: id }), { key })).json.data;
const balance = async () => (await ok('GET', pathOf('getSubscription'))).json.data.balance as number;

describe('binary TTS through Prism: passed through with status 200 and the audio Content-Type', () => {
  it.each(ttsPaths)('%s in every response_format', async (_n, path) => {
    const m = prism.useMock();
    for (const format of audioFormats) {
      const r = await ok('POST', path, { body: ttsBody({ response_format: format }) });
      expect(r.headers.get('content-type'), format).toBe(format === 'opus' ? 'audio/ogg' : 'audio/mpeg');
      expect(r.text.length, format).toBeGreaterThan(0);
      expect(r.json).toBeUndefined();
    }
    // the default format, speed at both ends, and the unknown fields of the OpenAI SDK
    for (const body of [ttsBody(), ttsBody({ speed: 0.5 }), ttsBody({ speed: 2, model: 'tts-1' })])
      expect((await ok('POST', path, { body })).headers.get('content-type')).toBe('audio/mpeg');
    expect((await m.call('GET', `/__mock/accounts/${KEY}`, { key: null })).json.credits).toBe(10_000 - (audioFormats.length + 3));
  });

  it.each(ttsPaths)('%s: 20,000 emoji are 20,000 characters for Prism too (forwarded, 200)', async (_n, path) => {
    prism.useMock();
    await ok('POST', path, { body: ttsBody({ input: '\u{1F600}'.repeat(20_000) }) });
  });

  it.each(ttsPaths)('%s: a failure before audio starts is the JSON envelope (35001, 35002, 35004)', async (_n, path) => {
    const m = prism.useMock();
    expectError(await viaSpecOrMock(prism, 'POST', path, { body: ttsBody({ speed: 1.005 }) }), 'SPEECH_INVALID_PARAMETERS', 'speed');
    expectError(await ok('POST', path, { body: ttsBody({ voice: 'xx_ghost' }) }, 400), 'SPEECH_SPEAKER_NOT_FOUND', 'xx_ghost');
    await m.call('PUT', `/__mock/accounts/${KEY}`, { key: null, body: { credits: 0 } });
    expectError(await ok('POST', path, { body: ttsBody() }, 402), 'SPEECH_INSUFFICIENT_CREDITS');
  });
});

describe('POST /v1/speech through Prism', () => {
  it('the data: audioUrl, audioDuration, subtitlesUrl, taskId, credits', async () => {
    prism.useMock();
    const d = (await ok('POST', pathOf('createSpeechScript'), { body: speechBody({ speed: 1.25 }) })).json.data;
    expect(Object.keys(d).sort()).toEqual(['audioDuration', 'audioUrl', 'credits', 'subtitlesUrl', 'taskId']);
    expect(d.credits).toBe(speechCredits('Hello there.'.length + 'Hi, how are you?'.length));
    expect(await balance()).toBe(10_000 - d.credits);
  });

  it('documented errors the spec cannot rule out: combined length, two-decimal speed, unknown speaker, short balance', async () => {
    const m = prism.useMock();
    const long = speechBody({
      scripts: [
        { speakerId: 'en_ava', content: 'a'.repeat(10_000) },
        { speakerId: 'en_noah', content: 'b'.repeat(10_001) },
      ],
    });
    expectError(await ok('POST', pathOf('createSpeechScript'), { body: long }, 400), 'SPEECH_INVALID_PARAMETERS', 'scripts');
    expectError(await viaSpecOrMock(prism, 'POST', pathOf('createSpeechScript'), { body: speechBody({ speed: 0.555 }) }), 'SPEECH_INVALID_PARAMETERS', 'speed');
    const ghost = speechBody({
      scripts: [
        { speakerId: 'en_ava', content: 'Hi.' },
        { speakerId: 'xx_ghost', content: 'Boo.' },
      ],
    });
    expectError(await ok('POST', pathOf('createSpeechScript'), { body: ghost }, 400), 'SPEECH_SPEAKER_NOT_FOUND', 'scripts[1].speakerId');
    await m.call('PUT', `/__mock/accounts/${KEY}`, { key: null, body: { credits: 0 } });
    expectError(await ok('POST', pathOf('createSpeechScript'), { body: speechBody() }, 402), 'SPEECH_INSUFFICIENT_CREDITS');
  });
});

describe('flow-speech episodes through Prism', () => {
  it('narration: create, pending, success with every field; another key and an unknown id 404', async () => {
    const m = prism.useMock();
    const t0 = m.engine.clock.now();
    const id = await createEpisode('createFlowSpeechEpisode', flowSpeechBody({ language: 'en', mode: 'smart', speed: 1 }));
    expect(await getEpisode(id)).toEqual({ episodeId: id, createdAt: t0, processStatus: 'pending' });
    await m.advance(60_000);
    const e = await getEpisode(id);
    expect(Object.keys(e).sort()).toEqual(
      ['audioStreamUrl', 'audioUrl', 'completedTime', 'cover', 'createdAt', 'episodeId', 'outline', 'processStatus', 'scripts', 'subtitlesUrl', 'title'].sort(),
    );
    expect(e.processStatus).toBe('success');
    expectError(await ok('GET', pathOf('getFlowSpeechEpisode', { episodeId: id }), { key: OTHER_KEY }, 404), 'SPEECH_EPISODE_NOT_FOUND');
    expectError(await ok('GET', pathOf('getFlowSpeechEpisode', { episodeId: 'fs_missing' }), {}, 404), 'SPEECH_EPISODE_NOT_FOUND');
  });

  it('url sources (uri, or the address in content) and a direct narration', async () => {
    const m = prism.useMock();
    const ids = [
      await createEpisode('createFlowSpeechEpisode', flowSpeechBody({ sources: [{ type: 'url', uri: 'https://example.com/blog/post' }] })),
      await createEpisode('createFlowSpeechEpisode', flowSpeechBody({ sources: [{ type: 'url', content: 'https://example.com/blog/post' }], language: 'ja' })),
      await createEpisode('createFlowSpeechEpisode', flowSpeechBody({ mode: 'direct', speed: 0.75 })),
    ];
    await m.advance(10 * 60_000);
    for (const id of ids) expect((await getEpisode(id)).processStatus).toBe('success');
  });

  it('multi-voice script: create and success', async () => {
    const m = prism.useMock();
    const id = await createEpisode('createFlowSpeechTtsEpisode', flowSpeechTtsBody({ language: 'en', speed: 1.5 }));
    await m.advance(60_000);
    expect(await getEpisode(id)).toMatchObject({ processStatus: 'success', scripts: 'Hello there.\nHi, how are you?' });
  });

  it('failed episodes carry failCode 35008-35011 and are refunded', async () => {
    const m = prism.useMock();
    const ids = [
      await createEpisode('createFlowSpeechEpisode', flowSpeechBody(), { prefer: 'outcome=failed' }),
      await createEpisode('createFlowSpeechEpisode', flowSpeechBody(), { prefer: 'outcome=failed, error=35009' }),
      await createEpisode('createFlowSpeechTtsEpisode', flowSpeechTtsBody(), { prefer: 'outcome=failed, error=35010' }),
      await createEpisode('createFlowSpeechEpisode', flowSpeechBody(), { prefer: 'outcome=stuck' }),
    ];
    await m.advance(flowSpeechProcessingMs(60_000));
    expect((await getEpisode(ids[3])).processStatus).toBe('pending');
    await m.advance(flowSpeechSchedule.timeoutMs);
    const codes = [];
    for (const id of ids) {
      const e = await getEpisode(id);
      expect(e).toEqual({
        episodeId: id,
        createdAt: expect.any(Number),
        processStatus: 'fail',
        failCode: expect.any(Number),
        completedTime: expect.any(Number),
      });
      codes.push(e.failCode);
    }
    expect(codes).toEqual([35008, 35009, 35010, 35011]);
    expect(await balance()).toBe(10_000);
  });

  it('body rules (text length, url without an address: the spec refuses them too), unknown speaker, short balance', async () => {
    const m = prism.useMock();
    const create = (body: Body) => prism.call('POST', pathOf('createFlowSpeechEpisode'), { body });
    const ruled = (body: Body) => viaSpecOrMock(prism, 'POST', pathOf('createFlowSpeechEpisode'), { body });
    expectError(await ruled(flowSpeechBody({ sources: [{ type: 'text', content: 'too short' }] })), 'SPEECH_INVALID_PARAMETERS', 'sources[0].content');
    expectError(await ruled(flowSpeechBody({ sources: [{ type: 'text', content: 'x'.repeat(20_001) }] })), 'SPEECH_INVALID_PARAMETERS', 'sources[0].content');
    expectError(await ruled(flowSpeechBody({ sources: [{ type: 'url' }] })), 'SPEECH_INVALID_PARAMETERS', 'sources[0].uri');
    expectError(await ruled(flowSpeechBody({ sources: [{ type: 'url', uri: 'ftp://example.com/a' }] })), 'SPEECH_INVALID_PARAMETERS', 'sources[0].uri');
    expectError(await create(flowSpeechBody({ speakers: [{ speakerId: 'xx_ghost' }] })), 'SPEECH_SPEAKER_NOT_FOUND', 'xx_ghost');
    await m.call('PUT', `/__mock/accounts/${KEY}`, { key: null, body: { credits: 0 } });
    expectError(await create(flowSpeechBody()), 'SPEECH_INSUFFICIENT_CREDITS');
    expectError(await prism.call('POST', pathOf('createFlowSpeechTtsEpisode'), { body: flowSpeechTtsBody() }), 'SPEECH_INSUFFICIENT_CREDITS');
  });
});

describe('GET /v1/speakers/list through Prism', () => {
  it('every voice, and each language filter', async () => {
    prism.useMock();
    const all = (await ok('GET', pathOf('listSpeakers'))).json.data.speakers;
    expect(all).toHaveLength(builtInSpeakers.length);
    expect(Object.keys(all[0]).sort()).toEqual(['demoAudioUrl', 'gender', 'language', 'name', 'speakerId', 'type']);
    for (const language of ['en', 'ja', 'vi']) {
      const some = (await ok('GET', pathOf('listSpeakers', {}, { language }))).json.data.speakers;
      expect(some.map((s: { speakerId: string }) => s.speakerId).sort()).toEqual(
        builtInSpeakers
          .filter((s) => s.language === language)
          .map((s) => s.speakerId)
          .sort(),
      );
    }
  });
});

/** The speech operations: every declared status and code, forced, through Prism. */
const speechOps = operationIds.map((id) => operations[id] as OperationDef).filter((op) => op.tags.includes('Speech'));

const bodyFor: Partial<Record<OperationId, Body>> = {
  synthesizeSpeech: ttsBody(),
  createSpeech: ttsBody(),
  createSpeechScript: speechBody(),
  createFlowSpeechEpisode: flowSpeechBody(),
  createFlowSpeechTtsEpisode: flowSpeechTtsBody(),
};

describe('Prefer-forced answers of every speech operation, through Prism', () => {
  it('covers the seven speech operations', () => {
    expect(speechOps.map((op) => op.operationId).sort()).toEqual(
      [
        'createFlowSpeechEpisode',
        'createFlowSpeechTtsEpisode',
        'createSpeech',
        'createSpeechScript',
        'getFlowSpeechEpisode',
        'listSpeakers',
        'synthesizeSpeech',
      ].sort(),
    );
  });

  it.each(speechOps.map((op) => [op.operationId, op] as const))('%s', async (_id, op) => {
    prism.useMock();
    const method = op.method.toUpperCase();
    const path = pathOf(op.operationId as OperationId, { episodeId: 'fs_forced' });
    const body = op.request.body ? bodyFor[op.operationId as OperationId] : undefined;
    const cases = forcedCases(op);
    expect(cases.length).toBeGreaterThan(0);
    for (const c of cases) expectError(await prism.call(method, path, { body, headers: { prefer: c.prefer } }), c.error);
  });
});

describe('requests the spec forbids: Prism flags them; the mock answers its documented error', () => {
  const emoji = '\u{1F600}';
  it.each([
    ['TTS input of 20,001 characters', pathOf('synthesizeSpeech'), ttsBody({ input: 'x'.repeat(20_001) }), 'SPEECH_INVALID_PARAMETERS'],
    ['TTS input of 20,001 emoji', pathOf('createSpeech'), ttsBody({ input: emoji.repeat(20_001) }), 'SPEECH_INVALID_PARAMETERS'],
    ['TTS input empty', pathOf('synthesizeSpeech'), ttsBody({ input: '' }), 'SPEECH_INVALID_PARAMETERS'],
    ['TTS without voice', pathOf('createSpeech'), { input: 'Hello.' }, 'SPEECH_INVALID_PARAMETERS'],
    ['TTS response_format ogg', pathOf('synthesizeSpeech'), ttsBody({ response_format: 'ogg' }), 'SPEECH_INVALID_PARAMETERS'],
    ['TTS speed 2.01', pathOf('createSpeech'), ttsBody({ speed: 2.01 }), 'SPEECH_INVALID_PARAMETERS'],
    ['TTS speed 0.49', pathOf('synthesizeSpeech'), ttsBody({ speed: 0.49 }), 'SPEECH_INVALID_PARAMETERS'],
    ['speech: scripts empty', pathOf('createSpeechScript'), speechBody({ scripts: [] }), 'SPEECH_INVALID_PARAMETERS'],
    [
      'speech: a line with empty content',
      pathOf('createSpeechScript'),
      speechBody({ scripts: [{ speakerId: 'en_ava', content: '' }] }),
      'SPEECH_INVALID_PARAMETERS',
    ],
    [
      'flow-speech tts: a line without speakerId',
      pathOf('createFlowSpeechTtsEpisode'),
      flowSpeechTtsBody({ scripts: [{ content: 'Hi.' }] }),
      'SPEECH_INVALID_PARAMETERS',
    ],
    ['flow-speech tts: language fr', pathOf('createFlowSpeechTtsEpisode'), flowSpeechTtsBody({ language: 'fr' }), 'SPEECH_INVALID_PARAMETERS'],
    ['flow-speech: language fr', pathOf('createFlowSpeechEpisode'), flowSpeechBody({ language: 'fr' }), 'SPEECH_INVALID_PARAMETERS'],
    ['flow-speech: mode other', pathOf('createFlowSpeechEpisode'), flowSpeechBody({ mode: 'verbatim' }), 'SPEECH_INVALID_PARAMETERS'],
    ['flow-speech: a source of type pdf', pathOf('createFlowSpeechEpisode'), flowSpeechBody({ sources: [{ type: 'pdf' }] }), 'SPEECH_INVALID_PARAMETERS'],
    ['flow-speech: sources empty (exactly one)', pathOf('createFlowSpeechEpisode'), flowSpeechBody({ sources: [] }), 'SPEECH_INVALID_PARAMETERS'],
    [
      'flow-speech: two sources (exactly one)',
      pathOf('createFlowSpeechEpisode'),
      flowSpeechBody({
        sources: [
          { type: 'text', content: 'The first source text.' },
          { type: 'text', content: 'The second source text.' },
        ],
      }),
      'SPEECH_INVALID_PARAMETERS',
    ],
    ['flow-speech: speakers empty (exactly one)', pathOf('createFlowSpeechEpisode'), flowSpeechBody({ speakers: [] }), 'SPEECH_INVALID_PARAMETERS'],
    [
      'flow-speech: two speakers (exactly one)',
      pathOf('createFlowSpeechEpisode'),
      flowSpeechBody({ speakers: [{ speakerId: 'en_ava' }, { speakerId: 'en_noah' }] }),
      'SPEECH_INVALID_PARAMETERS',
    ],
  ] as [string, string, Body, ErrorName][])('%s', async (_n, path, body, error) => {
    const m = prism.useMock();
    const r = await prism.call('POST', path, { body, allowViolations: true });
    expect(r.status, r.text.slice(0, 300)).toBe(422);
    expect(r.forwarded).toBe(false);
    expect(r.violations[0]).toMatchObject({ direction: 'request' });
    prism.takeViolations();
    expectError(await m.call('POST', path, { body }), error);
  });

  it('speakers list: language is an open list (document 2: "for example en"): one without voices lists none; one over 35 characters is refused', async () => {
    const m = prism.useMock();
    expect((await ok('GET', pathOf('listSpeakers', {}, { language: 'xx' }))).json.data.speakers).toEqual([]);
    const long = 'x'.repeat(36);
    const r = await prism.call('GET', pathOf('listSpeakers', {}, { language: long }), { allowViolations: true });
    expect(r.status).toBe(422);
    expect(r.forwarded).toBe(false);
    prism.takeViolations();
    expectError(await m.call('GET', pathOf('listSpeakers', {}, { language: long })), 'SPEECH_INVALID_PARAMETERS', 'language');
  });
});
