/**
 * Speech request rules as table cases (document 2, "POST /v1/tts and POST
 * /v1/audio/speech", "POST /v1/speech", "POST /v1/flow-speech/episodes", "POST
 * /v1/flow-speech/episodes/tts", "GET /v1/speakers/list", "Limits"): every
 * rule of every speech endpoint through the HTTP interface, asserting the
 * status, the envelope's catalog code and that the message names the field
 * (never library wording). The two TTS paths run the same table.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { errorCatalog, type ErrorName } from '../schemas/errors.ts';
import { audioFormats } from '../schemas/media.ts';
import { builtInSpeakers, voiceLanguages } from '../schemas/speech.ts';
import { type Body, flowSpeechBody, flowSpeechTtsBody, pathOf, speechBody, ttsBody } from './factories.ts';
import { type CallResult, KEY, type TestMock, useMocks } from './helpers.ts';

const start = useMocks();
let m: TestMock;
beforeEach(async () => {
  m = await start();
});

/** What a case expects: accepted, or an error whose message contains each of `names`. */
type Failure = { error: ErrorName; names: string[] };
type Expected = 'ok' | Failure;
type Case = [name: string, body: Body, expected: Expected];

const ok = 'ok' as const;
const invalid = (...names: string[]): Failure => ({ error: 'SPEECH_INVALID_PARAMETERS', names });
const unknownSpeaker = (...names: string[]): Failure => ({ error: 'SPEECH_SPEAKER_NOT_FOUND', names });

const auth = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };

const EMOJI = '\u{1F600}'; // one code point, two UTF-16 units

/** Asserts the error envelope of `expected` (status, code, data null, JSON) and that the message names every field and id. */
function expectError(r: CallResult, expected: Failure) {
  const e = errorCatalog[expected.error];
  expect(r.status, r.text).toBe(e.httpStatus);
  expect(r.headers.get('content-type'), r.text).toMatch(/^application\/json/);
  expect(r.json, r.text).toEqual({ code: e.code, message: expect.any(String), data: null });
  for (const name of expected.names) expect(r.json.message, `the message names ${name}`).toContain(name);
}

/** The speed rule of every speech endpoint: 0.5-2.0, at most two decimals, default 1. */
const speedCases = (body: (over: Body) => Body): Case[] => [
  ['speed 0.5 (the minimum)', body({ speed: 0.5 }), ok],
  ['speed 2.0 (the maximum)', body({ speed: 2.0 }), ok],
  ['speed 1.25 (two decimals)', body({ speed: 1.25 }), ok],
  ['speed omitted (default 1)', body({}), ok],
  ['speed 0.49', body({ speed: 0.49 }), invalid('speed')],
  ['speed 2.01', body({ speed: 2.01 }), invalid('speed')],
  ['speed 1.005 (three decimals)', body({ speed: 1.005 }), invalid('speed')],
  ['speed as a string', body({ speed: '1' }), invalid('speed')],
];

// ---------------------------------------------------------------------------
// POST /v1/tts and POST /v1/audio/speech
// ---------------------------------------------------------------------------

const ttsCases: Case[] = [
  ['the default body', ttsBody(), ok],
  ['input of 20,000 characters', ttsBody({ input: 'x'.repeat(20_000) }), ok],
  ['input of 20,001 characters', ttsBody({ input: 'x'.repeat(20_001) }), invalid('input')],
  ['input of 20,000 emoji (counted as code points)', ttsBody({ input: EMOJI.repeat(20_000) }), ok],
  ['input of 20,001 emoji', ttsBody({ input: EMOJI.repeat(20_001) }), invalid('input')],
  ['input empty', ttsBody({ input: '' }), invalid('input')],
  ['input missing', { voice: 'en_ava' }, invalid('input')],
  ['input not a string', ttsBody({ input: 42 }), invalid('input')],
  ['voice missing', { input: 'Hello there.' }, invalid('voice')],
  ['voice empty', ttsBody({ voice: '' }), invalid('voice')],
  ['voice unknown', ttsBody({ voice: 'xx_nobody' }), unknownSpeaker('voice', 'xx_nobody')],
  ...audioFormats.map((f): Case => [`response_format ${f}`, ttsBody({ response_format: f }), ok]),
  ['response_format unknown (ogg)', ttsBody({ response_format: 'ogg' }), invalid('response_format')],
  ['response_format in capitals (MP3)', ttsBody({ response_format: 'MP3' }), invalid('response_format')],
  ...speedCases(ttsBody),
  ['unknown fields are ignored (the OpenAI SDK sends model)', ttsBody({ model: 'tts-1', instructions: 'Speak slowly.', user: 'u1' }), ok],
];

describe.each([
  ['POST /v1/tts', pathOf('synthesizeSpeech')],
  ['POST /v1/audio/speech', pathOf('createSpeech')],
])('%s rules', (_name, path) => {
  it.each(ttsCases)('%s', async (_case, body, expected) => {
    const r = await m.call('POST', path, { body });
    if (expected === 'ok') {
      expect(r.status, r.text.slice(0, 300)).toBe(200);
      const format = (body.response_format as string | undefined) ?? 'mp3';
      expect(r.headers.get('content-type')).toBe(format === 'opus' ? 'audio/ogg' : 'audio/mpeg');
    } else expectError(r, expected);
  });
});

describe('the two TTS paths are one endpoint', () => {
  it.each([
    ['the default body', ttsBody()],
    ['wav at speed 1.25 in en_noah', ttsBody({ voice: 'en_noah', response_format: 'wav', speed: 1.25 })],
    ['opus, unknown field', ttsBody({ response_format: 'opus', model: 'tts-1' })],
  ])('%s: the same status, Content-Type and bytes on both', async (_n, body) => {
    const [a, b] = await Promise.all([
      fetch(m.base + pathOf('synthesizeSpeech'), { method: 'POST', headers: auth, body: JSON.stringify(body) }),
      fetch(m.base + pathOf('createSpeech'), { method: 'POST', headers: auth, body: JSON.stringify(body) }),
    ]);
    expect([a.status, a.headers.get('content-type')]).toEqual([b.status, b.headers.get('content-type')]);
    expect(Buffer.from(await a.arrayBuffer()).equals(Buffer.from(await b.arrayBuffer()))).toBe(true);
  });

  it('speed omitted is speed 1 (the same audio)', async () => {
    const bytes = async (body: Body) => {
      const res = await fetch(m.base + pathOf('synthesizeSpeech'), { method: 'POST', headers: auth, body: JSON.stringify(body) });
      expect(res.status).toBe(200);
      return Buffer.from(await res.arrayBuffer());
    };
    const [omitted, one, fast] = await Promise.all([
      bytes(ttsBody({ response_format: 'wav' })),
      bytes(ttsBody({ response_format: 'wav', speed: 1 })),
      bytes(ttsBody({ response_format: 'wav', speed: 2 })),
    ]);
    expect(omitted.equals(one)).toBe(true);
    expect(fast.length).toBeLessThan(one.length);
  });
});

// ---------------------------------------------------------------------------
// POST /v1/speech and POST /v1/flow-speech/episodes/tts (the same script rules)
// ---------------------------------------------------------------------------

const line = (content: string, speakerId = 'en_ava') => ({ speakerId, content });

/** The script rules of POST /v1/speech, for a body builder of either script endpoint. */
const scriptCases = (body: (over: Body) => Body): Case[] => [
  ['the default body (two voices)', body({}), ok],
  ['one line', body({ scripts: [line('Just one line.')] }), ok],
  ['scripts empty', body({ scripts: [] }), invalid('scripts')],
  ['scripts missing', { speed: 1 }, invalid('scripts')],
  ['scripts not an array', body({ scripts: 'Hello.' }), invalid('scripts')],
  ['a line with empty content', body({ scripts: [line('Fine.'), line('')] }), invalid('scripts[1].content')],
  ['a line without content', body({ scripts: [{ speakerId: 'en_ava' }] }), invalid('scripts[0].content')],
  ['a line without speakerId', body({ scripts: [{ content: 'Who says this?' }] }), invalid('scripts[0].speakerId')],
  [
    'an unknown speakerId on the second line',
    body({ scripts: [line('Known voice.'), line('Unknown voice.', 'xx_ghost')] }),
    unknownSpeaker('scripts[1].speakerId', 'xx_ghost'),
  ],
  ['combined content of 20,000 characters over two lines', body({ scripts: [line('a'.repeat(12_000)), line('b'.repeat(8_000), 'en_noah')] }), ok],
  [
    'combined content of 20,001 characters over two lines',
    body({ scripts: [line('a'.repeat(12_000)), line('b'.repeat(8_001), 'en_noah')] }),
    invalid('scripts', '20,001'),
  ],
  ['combined content of 20,000 emoji (code points)', body({ scripts: [line(EMOJI.repeat(10_000)), line(EMOJI.repeat(10_000))] }), ok],
  ['combined content of 20,001 emoji', body({ scripts: [line(EMOJI.repeat(10_000)), line(EMOJI.repeat(10_001))] }), invalid('scripts')],
  ['a single line of 20,001 characters', body({ scripts: [line('c'.repeat(20_001))] }), invalid('scripts')],
  ...speedCases(body),
  ['unknown fields are ignored, also on a line', body({ model: 'tts-1', scripts: [{ ...line('Hi.'), emotion: 'happy' }] }), ok],
];

describe('POST /v1/speech rules', () => {
  it.each(scriptCases((over) => speechBody(over)))('%s', async (_case, body, expected) => {
    const r = await m.call('POST', pathOf('createSpeechScript'), { body });
    if (expected === 'ok') {
      expect(r.status, r.text).toBe(200);
      expect(r.json).toMatchObject({ code: 0, data: { taskId: expect.any(String), credits: expect.any(Number) } });
    } else expectError(r, expected);
  });
});

describe('POST /v1/flow-speech/episodes/tts rules (the rules of /v1/speech, and language)', () => {
  const cases: Case[] = [
    ...scriptCases((over) => flowSpeechTtsBody(over)),
    ...(['en', 'zh', 'ja'] as const).map((language): Case => [`language ${language}`, flowSpeechTtsBody({ language }), ok]),
    ['language fr (not an episode language)', flowSpeechTtsBody({ language: 'fr' }), invalid('language')],
  ];
  it.each(cases)('%s', async (_case, body, expected) => {
    const r = await m.call('POST', pathOf('createFlowSpeechTtsEpisode'), { body });
    if (expected === 'ok') {
      expect(r.status, r.text).toBe(200);
      expect(r.json).toEqual({ code: 0, message: '', data: { episodeId: expect.any(String) } });
    } else expectError(r, expected);
  });
});

// ---------------------------------------------------------------------------
// POST /v1/flow-speech/episodes
// ---------------------------------------------------------------------------

const text = (content: string) => ({ type: 'text', content });
const source = (s: Record<string, unknown>) => flowSpeechBody({ sources: [s] });

const flowSpeechCases: Case[] = [
  ['the default body', flowSpeechBody(), ok],
  ['sources empty', flowSpeechBody({ sources: [] }), invalid('sources')],
  ['sources of two items', flowSpeechBody({ sources: [text('First source text.'), text('Second source text.')] }), invalid('sources')],
  ['sources missing', { speakers: [{ speakerId: 'en_ava' }] }, invalid('sources')],
  ['speakers empty', flowSpeechBody({ speakers: [] }), invalid('speakers')],
  ['speakers of two items', flowSpeechBody({ speakers: [{ speakerId: 'en_ava' }, { speakerId: 'en_noah' }] }), invalid('speakers')],
  ['speakers missing', { sources: [text('Some text to narrate.')] }, invalid('speakers')],
  ['a speaker without speakerId', flowSpeechBody({ speakers: [{}] }), invalid('speakers[0].speakerId')],
  ['an unknown speakerId', flowSpeechBody({ speakers: [{ speakerId: 'xx_ghost' }] }), unknownSpeaker('speakers[0].speakerId', 'xx_ghost')],
  ['text content of 9 characters', source(text('123456789')), invalid('sources[0].content')],
  ['text content of 10 characters', source(text('1234567890')), ok],
  ['text content of 20,000 characters', source(text('x'.repeat(20_000))), ok],
  ['text content of 20,001 characters', source(text('x'.repeat(20_001))), invalid('sources[0].content')],
  ['text content of a word and 9 emoji (10 code points)', source(text(`a${EMOJI.repeat(9)}`)), ok],
  ['text content of a word and 19,999 emoji', source(text(`a${EMOJI.repeat(19_999)}`)), ok],
  ['text content of 10 emoji only: nothing to read', source(text(EMOJI.repeat(10))), invalid('sources[0].content')],
  ['text content of spaces and punctuation only: nothing to read', source(text('  !!! ...  ')), invalid('sources[0].content')],
  ['text content of 20,001 emoji', source(text(EMOJI.repeat(20_001))), invalid('sources[0].content')],
  ['a text source without content', source({ type: 'text' }), invalid('sources[0].content')],
  ['a source of an unknown type', source({ type: 'pdf', content: 'https://example.com/a.pdf' }), invalid('sources[0].type')],
  ['a url source with uri', source({ type: 'url', uri: 'https://example.com/blog/mock-servers' }), ok],
  ['a url source with an http uri', source({ type: 'url', uri: 'http://example.com/page' }), ok],
  ['a url source with the address in content', source({ type: 'url', content: 'https://example.com/blog/mock-servers' }), ok],
  ['a url source with neither uri nor content', source({ type: 'url' }), invalid('sources[0].uri')],
  ['a url source with a non-http uri', source({ type: 'url', uri: 'ftp://example.com/page.txt' }), invalid('sources[0].uri')],
  ['a url source with a non-URL content', source({ type: 'url', content: 'just some words, no address' }), invalid('sources[0].content')],
  ['a url source with a non-http address in content', source({ type: 'url', content: 'mailto:someone@example.com' }), invalid('sources[0].content')],
  ...(['en', 'zh', 'ja'] as const).map((language): Case => [`language ${language}`, flowSpeechBody({ language }), ok]),
  ['language fr (not an episode language)', flowSpeechBody({ language: 'fr' }), invalid('language')],
  ['mode smart', flowSpeechBody({ mode: 'smart' }), ok],
  ['mode direct', flowSpeechBody({ mode: 'direct' }), ok],
  ['mode other', flowSpeechBody({ mode: 'verbatim' }), invalid('mode')],
  ...speedCases(flowSpeechBody),
  ['unknown fields are ignored', flowSpeechBody({ model: 'tts-1', title: 'ignored' }), ok],
];

describe('POST /v1/flow-speech/episodes rules', () => {
  it.each(flowSpeechCases)('%s', async (_case, body, expected) => {
    const r = await m.call('POST', pathOf('createFlowSpeechEpisode'), { body });
    if (expected === 'ok') {
      expect(r.status, r.text).toBe(200);
      expect(r.json).toEqual({ code: 0, message: '', data: { episodeId: expect.any(String) } });
    } else expectError(r, expected);
  });
});

// ---------------------------------------------------------------------------
// GET /v1/speakers/list
// ---------------------------------------------------------------------------

describe('GET /v1/speakers/list: the language filter', () => {
  const ids = (speakers: { speakerId: string }[]) => speakers.map((s) => s.speakerId).sort();

  it('no language: every voice (24 built-in)', async () => {
    const r = await m.call('GET', pathOf('listSpeakers'));
    expect(r.status, r.text).toBe(200);
    expect(r.json.code).toBe(0);
    expect(r.json.data.speakers).toHaveLength(24);
    expect(ids(r.json.data.speakers)).toEqual(builtInSpeakers.map((s) => s.speakerId).sort());
    expect(new Set(r.json.data.speakers.map((s: { type: string }) => s.type))).toEqual(new Set(['built-in']));
  });

  it('en: exactly the en voices', async () => {
    const r = await m.call('GET', pathOf('listSpeakers', {}, { language: 'en' }));
    expect(r.status, r.text).toBe(200);
    expect(ids(r.json.data.speakers)).toEqual(['en_ava', 'en_noah']);
  });

  it.each(voiceLanguages.map((l) => [l]))('%s: exactly the voices of that language', async (language) => {
    const r = await m.call('GET', pathOf('listSpeakers', {}, { language }));
    expect(r.status, r.text).toBe(200);
    const expected = builtInSpeakers.filter((s) => s.language === language).map((s) => s.speakerId);
    expect(expected.length).toBeGreaterThan(0);
    expect(ids(r.json.data.speakers)).toEqual(expected.sort());
    for (const s of r.json.data.speakers) expect(s.language).toBe(language);
  });

  // document 2: the query is "for example en", an open list: a language without voices lists none
  it.each([['xx'], ['english'], ['EN']])('language %s: no voices (an open list)', async (language) => {
    const r = await m.call('GET', pathOf('listSpeakers', {}, { language }));
    expect(r.status, r.text).toBe(200);
    expect(r.json.data.speakers).toEqual([]);
  });

  it('a language over 35 characters: 35001 naming language', async () => {
    expectError(await m.call('GET', pathOf('listSpeakers', {}, { language: 'x'.repeat(36) })), invalid('language'));
  });

  it('every listed id is accepted by every speech endpoint', async () => {
    const all = (await m.call('GET', pathOf('listSpeakers'))).json.data.speakers as { speakerId: string }[];
    for (const { speakerId } of all.slice(0, 24)) {
      const r = await m.call('POST', pathOf('createSpeechScript'), { body: speechBody({ scripts: [line('Hi.', speakerId)] }) });
      expect(r.status, `${speakerId}: ${r.text}`).toBe(200);
    }
    const last = all.at(-1)!.speakerId;
    expect((await m.call('POST', pathOf('synthesizeSpeech'), { body: ttsBody({ voice: last }) })).status).toBe(200);
    expect((await m.call('POST', pathOf('createFlowSpeechEpisode'), { body: flowSpeechBody({ speakers: [{ speakerId: last }] }) })).status).toBe(200);
    expect((await m.call('POST', pathOf('createFlowSpeechTtsEpisode'), { body: flowSpeechTtsBody({ scripts: [line('Hi.', last)] }) })).status).toBe(200);
  });
});
