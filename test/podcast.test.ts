/**
 * Podcast episodes on the manual clock (document 2, "Podcast", "Podcast
 * episode (GET result)", "States and transitions", "Events", "Errors",
 * "Limits"): the request rules; one-shot episodes through every mode (the
 * sources, the outline and the script appearing as the clock reaches them,
 * credits growing by stage, the media at success); the two-stage flow with
 * the original and an edited script and its refusals; forced failures,
 * stalls and timeouts with their refunds; owner scoping; the text stream read
 * while the clock advances, late, through a real SSE client library; every
 * media URL decoded.
 */
import { EventSource } from 'eventsource';
import { Parser as M3u8Parser } from 'm3u8-parser';
import SrtParser from 'srt-parser-2';
import { beforeEach, describe, expect, it } from 'vitest';
import { errorCatalog, type ErrorName } from '../schemas/errors.ts';
import { EPISODE_COVER_SIDE, speechDurationMs } from '../schemas/speech.ts';
import { podcastAudioCredits, podcastAudioSchedule, podcastModePlans, podcastModes, podcastRenderMs, type PodcastMode } from '../schemas/podcast.ts';
import { adtsFrames, decodeAudio, id3Length, mp3Frames, pngSize } from '../verify/decoders.ts';
import { type Body, pathOf, podcastBody, podcastTextBody } from './factories.ts';
import { type CallResult, KEY, OTHER_KEY, readEventStream, type TestMock, useMocks } from './helpers.ts';

const start = useMocks();
let m: TestMock;
beforeEach(async () => {
  m = await start();
});

const MINUTE = 60_000;
const FRAME_MS = 24; // one MP3 frame: 576 samples at 24 kHz
const AAC_FRAME_MS = (1024 * 1000) / 24_000;

function expectError(r: CallResult, name: ErrorName) {
  const e = errorCatalog[name];
  expect(r.status, r.text).toBe(e.httpStatus);
  expect(r.json, r.text).toEqual({ code: e.code, message: expect.any(String), data: null });
}

const oneShot = async (body: Body = podcastBody(), headers: Record<string, string> = {}, key = KEY) => {
  const r = await m.call('POST', pathOf('createPodcastEpisode'), { body, headers, key });
  expect(r.status, r.text).toBe(200);
  expect(r.json).toEqual({ code: 0, message: '', data: { episodeId: expect.stringMatching(/^pe_/) } });
  return r.json.data.episodeId as string;
};
const twoStage = async (body: Body = podcastTextBody(), headers: Record<string, string> = {}) => {
  const r = await m.call('POST', pathOf('createPodcastTextContent'), { body, headers });
  expect(r.status, r.text).toBe(200);
  expect(r.json.data).toEqual({ episodeId: expect.stringMatching(/^pe_/), message: expect.any(String) });
  return r.json.data.episodeId as string;
};
const get = async (id: string, key = KEY) => {
  const r = await m.call('GET', pathOf('getPodcastEpisode', { episodeId: id }), { key });
  expect(r.status, r.text).toBe(200);
  return r.json.data;
};
const audio = (id: string, body?: Body, headers: Record<string, string> = {}) =>
  m.call('POST', pathOf('createPodcastAudio', { episodeId: id }), { ...(body ? { body } : {}), headers });

interface LedgerEntry {
  type: string;
  amount: number;
  taskId: string | null;
}
const account = async (key = KEY): Promise<{ credits: number; ledger: LedgerEntry[] }> => (await m.call('GET', `/__mock/accounts/${key}`, { key: null })).json;
const entriesOf = async (id: string) => (await account()).ledger.filter((e) => e.taskId === id).map((e) => [e.type, e.amount] as [string, number]);
const setCredits = async (credits: number) => expect((await m.call('PUT', `/__mock/accounts/${KEY}`, { key: null, body: { credits } })).status).toBe(200);

/** Virtual ms from creation until the script of a `mode` episode is written. */
const textMs = (mode: PodcastMode) => {
  const p = podcastModePlans[mode];
  return p.sourcesMs + p.outlineItems * p.outlineItemMs + p.lines * p.lineMs;
};
/** What a line lasts in the audio: `speechDurationMs` in whole 24 ms frames, at least five. */
const lineMs = (text: string, speed = 1) => Math.max(5, Math.round(speechDurationMs(text, speed) / FRAME_MS)) * FRAME_MS;
const scriptChars = (lines: { content: string }[]) => lines.reduce((n, l) => n + [...l.content].length, 0);

const load = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
};

// ---------------------------------------------------------------------------

describe('request rules', () => {
  const cases: [string, Body, ErrorName, string][] = [
    ['neither query nor sources', podcastBody({ query: undefined }), 'PODCAST_INVALID_PARAMETERS', 'query'],
    ['a blank query and no sources', podcastBody({ query: '   ' }), 'PODCAST_INVALID_PARAMETERS', 'query'],
    ['an empty sources array and no query', podcastBody({ query: undefined, sources: [] }), 'PODCAST_INVALID_PARAMETERS', 'query'],
    ['a query over 2,000 characters', podcastBody({ query: 'a'.repeat(2_001) }), 'PODCAST_INVALID_PARAMETERS', 'query'],
    [
      'six sources',
      podcastBody({ sources: Array.from({ length: 6 }, () => ({ type: 'text', content: 'Some text.' })) }),
      'PODCAST_INVALID_PARAMETERS',
      'sources',
    ],
    ['a source of another type', podcastBody({ sources: [{ type: 'pdf', content: 'x' }] }), 'PODCAST_INVALID_PARAMETERS', 'sources'],
    ['a blank text source', podcastBody({ sources: [{ type: 'text', content: '  ' }] }), 'PODCAST_INVALID_PARAMETERS', 'sources[0].content'],
    [
      'a url source that is not http(s)',
      podcastBody({ sources: [{ type: 'url', content: 'ftp://example.com/a' }] }),
      'PODCAST_INVALID_PARAMETERS',
      'sources[0].content',
    ],
    ['no speakers', podcastBody({ speakers: [] }), 'PODCAST_INVALID_PARAMETERS', 'speakers'],
    [
      'three speakers',
      podcastBody({ speakers: [{ speakerId: 'en_ava' }, { speakerId: 'en_noah' }, { speakerId: 'fr_louis' }] }),
      'PODCAST_INVALID_PARAMETERS',
      'speakers',
    ],
    [
      'the same speaker twice',
      podcastBody({ speakers: [{ speakerId: 'en_ava' }, { speakerId: 'en_ava' }] }),
      'PODCAST_INVALID_PARAMETERS',
      'speakers[1].speakerId',
    ],
    ['debate with one speaker', podcastBody({ mode: 'debate', speakers: [{ speakerId: 'en_ava' }] }), 'PODCAST_INVALID_PARAMETERS', 'debate'],
    ['an unknown mode', podcastBody({ mode: 'long' }), 'PODCAST_INVALID_PARAMETERS', 'mode'],
    ['speed over 2', podcastBody({ speed: 2.01 }), 'PODCAST_INVALID_PARAMETERS', 'speed'],
    ['speed with three decimals', podcastBody({ speed: 1.005 }), 'PODCAST_INVALID_PARAMETERS', 'speed'],
    ['a language that is not a language code', podcastBody({ language: 'en us!' }), 'PODCAST_INVALID_PARAMETERS', 'language'],
    [
      'an unknown speaker',
      podcastBody({ speakers: [{ speakerId: 'en_ava' }, { speakerId: 'xx_nobody' }] }),
      'PODCAST_SPEAKER_NOT_FOUND',
      'speakers[1].speakerId',
    ],
  ];
  it.each(cases)('%s -> its code, naming %s', async (_what, body, name, field) => {
    const before = await account();
    const r = await m.call('POST', pathOf('createPodcastEpisode'), { body });
    expectError(r, name);
    expect(r.json.message).toContain(field);
    expect((await account()).ledger.length, 'nothing reserved').toBe(before.ledger.length);
  });

  it.each([
    ['query alone', podcastBody()],
    // document 2: languages "for example en, zh, ja", an open list (the script of another language is written in English)
    ['a language outside en, zh and ja', podcastBody({ language: 'fr' })],
    ['sources alone with an empty query', podcastBody({ query: '', sources: [{ type: 'text', content: 'Mock servers keep state.' }] })],
    ['a url source', podcastBody({ query: undefined, sources: [{ type: 'url', content: 'https://example.com/blog/why-mocks-help' }] })],
    ['one speaker', podcastBody({ speakers: [{ speakerId: 'en_ava' }] })],
    ['debate with two speakers', podcastBody({ mode: 'debate' })],
    ['a query of exactly 2,000 characters', podcastBody({ query: 'a'.repeat(2_000) })],
    ['five sources', podcastBody({ sources: Array.from({ length: 5 }, () => ({ type: 'text', content: 'Some text.' })) })],
    ['speed 0.5 and 2', podcastBody({ speed: 0.5 })],
  ])('accepted: %s', async (_what, body) => {
    await oneShot(body);
  });

  it('text-content needs language (37001) and each speaker of that language: else "Speaker language mismatch" (37002), nothing reserved', async () => {
    const noLanguage = await m.call('POST', pathOf('createPodcastTextContent'), { body: podcastBody() });
    expectError(noLanguage, 'PODCAST_INVALID_PARAMETERS');
    expect(noLanguage.json.message).toContain('language');
    const before = (await account()).ledger.length;
    const mismatch = await m.call('POST', pathOf('createPodcastTextContent'), {
      body: podcastTextBody({ speakers: [{ speakerId: 'en_ava' }, { speakerId: 'zh_wei' }] }),
    });
    expectError(mismatch, 'SPEAKER_LANGUAGE_MISMATCH');
    expect(mismatch.json.message).toMatch(/^Speaker language mismatch: speakers\[1\]\.speakerId zh_wei speaks zh/);
    expect((await account()).ledger.length).toBe(before);
    // one-shot creation checks no language match
    await oneShot(podcastBody({ language: 'zh' }));
  });
});

describe('one-shot episodes: every mode on the manual clock', () => {
  it.each(podcastModes)('%s: sources, outline and script appear as they are written; credits grow by stage; success with media', async (mode) => {
    const plan = podcastModePlans[mode];
    const id = await oneShot(podcastBody({ mode }));
    const created = await get(id);
    expect(created).toEqual({
      episodeId: id,
      createdAt: expect.any(Number),
      processStatus: 'pending',
      failCode: 0,
      message: 'reading the sources',
      credits: 0,
    });
    expect(created.contentStatus).toBeUndefined();

    await m.advance(plan.sourcesMs);
    const read = await get(id);
    expect(read.title).toContain('Why frontend teams mock their APIs');
    expect(read.sourceProcessResult.content.length).toBeGreaterThan(0);
    expect(read.outline).toBeUndefined();

    await m.advance(plan.outlineItemMs);
    expect((await get(id)).outline).toMatch(/^1\. \S/);
    expect((await get(id)).outline.split('\n')).toHaveLength(1);
    await m.advance((plan.outlineItems - 1) * plan.outlineItemMs + plan.lineMs);
    const first = await get(id);
    expect(first.outline.split('\n')).toHaveLength(plan.outlineItems);
    expect(first.scripts).toHaveLength(1);
    expect(first.message).toBe(`writing the script (1 of ${plan.lines} lines)`);
    expect(first.credits).toBe(0);

    await m.advance((plan.lines - 1) * plan.lineMs);
    const text = await get(id);
    expect(text.processStatus).toBe('pending');
    expect(text.message).toBe('rendering the audio');
    expect(text.scripts).toHaveLength(plan.lines);
    expect(text.credits, 'the script is consumed once written').toBe(plan.scriptCredits);
    expect(text.cover).toBeDefined();
    expect(text.audioUrl).toBeUndefined();
    // lines alternate between the two speakers, first the host
    text.scripts.forEach((l: { speakerId: string; speakerName: string }, i: number) => {
      expect(l.speakerId).toBe(i % 2 === 0 ? 'en_ava' : 'en_noah');
      expect(l.speakerName).toBe(i % 2 === 0 ? 'Ava' : 'Noah');
    });

    const audioMs = text.scripts.reduce((n: number, l: { content: string }) => n + lineMs(l.content), 0);
    await m.advance(podcastRenderMs(audioMs) - 1);
    expect((await get(id)).processStatus).toBe('pending');
    await m.advance(1);
    const done = await get(id);
    const total = plan.scriptCredits + podcastAudioCredits(scriptChars(done.scripts));
    expect(done).toMatchObject({
      processStatus: 'success',
      failCode: 0,
      message: 'done',
      credits: total,
      completedTime: created.createdAt + textMs(mode) + podcastRenderMs(audioMs),
    });
    expect(done.contentStatus).toBeUndefined();
    for (const f of ['audioUrl', 'audioStreamUrl', 'subtitlesUrl', 'cover']) expect(done[f]).toMatch(new RegExp(`^${m.base}/media/podcast/${id}/`));
    // about 1 to 4 minutes of virtual time, as the seed says is typical
    expect(done.completedTime - done.createdAt).toBeGreaterThanOrEqual(MINUTE);
    expect(done.completedTime - done.createdAt).toBeLessThanOrEqual(4 * MINUTE);
    expect(await entriesOf(id)).toEqual([
      ['reserve', -total],
      ['capture', 0],
    ]);
  });

  it('debate: the first speaker argues for, the second against, line by line', async () => {
    const id = await oneShot(podcastBody({ mode: 'debate' }));
    await m.advance(10 * MINUTE);
    const { scripts } = await get(id);
    expect(scripts[0].content).toMatch(/I'll argue for it\.$/);
    expect(scripts[1].content).toMatch(/I'll argue against it\.$/);
    for (let i = 2; i < scripts.length - 2; i++) expect(scripts[i].content).toMatch(i % 2 === 0 ? /^In favour: / : /^Against that: /);
  });

  it('one speaker: every line is theirs', async () => {
    const id = await oneShot(podcastBody({ speakers: [{ speakerId: 'en_noah' }] }));
    await m.advance(10 * MINUTE);
    const ep = await get(id);
    expect(new Set(ep.scripts.map((l: { speakerId: string }) => l.speakerId))).toEqual(new Set(['en_noah']));
  });

  it.each([
    ['zh', { query: '为什么前端团队要模拟接口', speakers: [{ speakerId: 'zh_mei' }, { speakerId: 'zh_wei' }] }, /\p{Script=Han}/u],
    ['ja', { query: 'フロントエンドがモックを使う理由', speakers: [{ speakerId: 'ja_yui' }] }, /\p{Script=Katakana}|\p{Script=Hiragana}/u],
    ['en', {}, /^[\x20-\x7e]+$/],
  ])('the language is inferred from the query (%s) and the script is written in it', async (_lang, over, script) => {
    const id = await oneShot(podcastBody(over));
    await m.advance(10 * MINUTE);
    const ep = await get(id);
    for (const l of ep.scripts) expect(l.content).toMatch(script);
  });

  it('sources: url sources are cited in references; text sources feed the material; deep mode adds research notes', async () => {
    const url = 'https://example.com/blog/why-mock-servers-help';
    const text = 'Mock servers keep state between calls. They make failures easy to reproduce.';
    const id = await oneShot(
      podcastBody({
        query: '',
        mode: 'deep',
        sources: [
          { type: 'url', content: url },
          { type: 'text', content: text },
        ],
      }),
    );
    await m.advance(10 * MINUTE);
    const ep = await get(id);
    expect(ep.sourceProcessResult.references[0]).toEqual({ title: 'Why mock servers help', url });
    expect(ep.sourceProcessResult.references.slice(1).every((r: { url: string }) => r.url.startsWith('https://example.org/research/'))).toBe(true);
    expect(ep.sourceProcessResult.content).toContain(text);
    expect(ep.title).toBe('Why mock servers help: a deep dive');
  });

  it('is deterministic: the same request on a fresh mock of the same seed gives the same episode', async () => {
    const id = await oneShot();
    await m.advance(10 * MINUTE);
    const a = await get(id);
    const other = await start();
    const r = await other.call('POST', pathOf('createPodcastEpisode'), { body: podcastBody() });
    await other.advance(10 * MINUTE);
    const b = (await other.call('GET', pathOf('getPodcastEpisode', { episodeId: r.json.data.episodeId }))).json.data;
    expect({ ...b, ...urlsOf(b, other.base, m.base) }).toEqual(a);
  });
});

/** The media URL fields of `ep` rewritten from one mock's base to another's. */
function urlsOf(ep: Record<string, unknown>, from: string, to: string) {
  const out: Record<string, unknown> = {};
  for (const f of ['cover', 'audioUrl', 'audioStreamUrl', 'subtitlesUrl']) if (typeof ep[f] === 'string') out[f] = ep[f].replace(from, to);
  return out;
}

describe('the two-stage flow', () => {
  it('text-content -> text-success (processStatus success, script credits), then audio with an empty body -> audio-success', async () => {
    const id = await twoStage();
    const plan = podcastModePlans.quick;
    const pending = await get(id);
    expect(pending.processStatus).toBe('pending');
    expect(pending.contentStatus).toBeUndefined();
    await m.advance(textMs('quick'));
    const text = await get(id);
    expect(text).toMatchObject({ processStatus: 'success', contentStatus: 'text-success', failCode: 0, credits: plan.scriptCredits });
    expect(text.message).toContain(`/v1/podcast/episodes/${id}/audio`);
    expect(text.audioUrl).toBeUndefined();
    expect(text.cover).toBeDefined();
    expect(await entriesOf(id)).toEqual([
      ['reserve', -plan.scriptCredits],
      ['capture', 0],
    ]);

    const r = await audio(id);
    expect(r.status, r.text).toBe(200);
    expect(r.json.data).toEqual({ episodeId: id, contentStatus: 'text-success' });
    const rendering = await get(id);
    expect(rendering).toMatchObject({ processStatus: 'pending', contentStatus: 'text-success', message: 'rendering the audio', credits: plan.scriptCredits });
    const audioMs = text.scripts.reduce((n: number, l: { content: string }) => n + lineMs(l.content), 0);
    await m.advance(podcastRenderMs(audioMs));
    const done = await get(id);
    const audioCredits = podcastAudioCredits(scriptChars(text.scripts));
    expect(done).toMatchObject({ processStatus: 'success', contentStatus: 'audio-success', credits: plan.scriptCredits + audioCredits, scripts: text.scripts });
    expect(done.audioUrl).toBeDefined();
    expect(await entriesOf(id)).toEqual([
      ['reserve', -plan.scriptCredits],
      ['capture', 0],
      ['reserve', -audioCredits],
      ['capture', 0],
    ]);
  });

  it('an edited script: only content changes; the episode shows and the audio speaks the edited lines', async () => {
    const id = await twoStage();
    await m.advance(textMs('quick'));
    const { scripts } = await get(id);
    const edited = scripts.map((l: { speakerId: string; content: string }, i: number) => ({
      speakerId: l.speakerId,
      content: i === 2 ? 'A much longer line that replaces the question with a statement about state and time and money.' : l.content,
    }));
    const r = await audio(id, { scripts: edited });
    expect(r.status, r.text).toBe(200);
    await m.advance(5 * MINUTE);
    const done = await get(id);
    expect(done.contentStatus).toBe('audio-success');
    expect(done.scripts[2]).toEqual({ ...scripts[2], content: edited[2].content });
    const mp3 = await load(done.audioUrl);
    const declared = edited.reduce((n: number, l: { content: string }) => n + lineMs(l.content), 0);
    expect(mp3Frames(mp3.bytes).length * FRAME_MS).toBe(declared);
    const srt = new TextDecoder().decode((await load(done.subtitlesUrl)).bytes);
    expect(srt).toContain('A much longer line');
    expect(done.credits).toBe(podcastModePlans.quick.scriptCredits + podcastAudioCredits(scriptChars(edited)));
  });

  it.each([
    ['a line left out', 'scripts', (s: Body[]) => s.slice(1)],
    ['a line added', 'scripts', (s: Body[]) => [...s, { speakerId: 'en_ava', content: 'One more.' }]],
    ['a speaker swapped', 'scripts[3].speakerId', (s: Body[]) => s.map((l, i) => (i === 3 ? { ...l, speakerId: 'en_ava' } : l))],
    ['another voice', 'scripts[0].speakerId', (s: Body[]) => s.map((l, i) => (i === 0 ? { ...l, speakerId: 'fr_louis' } : l))],
    ['an empty line', 'scripts', (s: Body[]) => s.map((l, i) => (i === 1 ? { ...l, content: '' } : l))],
    ['over 20,000 characters', 'scripts', (s: Body[]) => s.map((l, i) => (i === 1 ? { ...l, content: 'word '.repeat(4_001) } : l))],
  ])('an edit with %s -> 400 (37001) naming %s; nothing reserved', async (_what, field, edit) => {
    const id = await twoStage();
    await m.advance(textMs('quick'));
    const { scripts } = await get(id);
    const before = await entriesOf(id);
    const r = await audio(id, { scripts: edit(scripts.map((l: Body) => ({ speakerId: l.speakerId, content: l.content }))) });
    expectError(r, 'PODCAST_INVALID_PARAMETERS');
    expect(r.json.message).toContain(field);
    expect(await entriesOf(id)).toEqual(before);
    expect((await get(id)).contentStatus).toBe('text-success');
  });

  it('the audio call is refused (409, 37006) on a one-shot episode, before text-success, while rendering and after text-fail; allowed again after audio-success', async () => {
    const single = await oneShot();
    await m.advance(10 * MINUTE);
    expectError(await audio(single), 'PODCAST_AUDIO_NOT_ALLOWED');

    const id = await twoStage();
    const early = await audio(id);
    expectError(early, 'PODCAST_AUDIO_NOT_ALLOWED');
    expect(early.json.message).toContain('still being written');
    await m.advance(textMs('quick'));
    expect((await audio(id)).status).toBe(200);
    const again = await audio(id);
    expectError(again, 'PODCAST_AUDIO_NOT_ALLOWED');
    expect(again.json.message).toContain('rendering');
    await m.advance(5 * MINUTE);
    expect((await get(id)).contentStatus).toBe('audio-success');
    const rerender = await audio(id);
    expect(rerender.json.data).toEqual({ episodeId: id, contentStatus: 'audio-success' });
    expect((await get(id)).audioUrl, 'no audio while the new render runs').toBeUndefined();
    await m.advance(5 * MINUTE);
    expect((await entriesOf(id)).map(([t]) => t)).toEqual(['reserve', 'capture', 'reserve', 'capture', 'reserve', 'capture']);

    const failed = await twoStage(podcastTextBody(), { prefer: 'outcome=failed' });
    await m.advance(10 * MINUTE);
    expect((await get(failed)).contentStatus).toBe('text-fail');
    expectError(await audio(failed), 'PODCAST_AUDIO_NOT_ALLOWED');
  });

  it('concurrent audio calls: one render, one charge', async () => {
    const id = await twoStage();
    await m.advance(textMs('quick'));
    const answers = await Promise.all(Array.from({ length: 10 }, () => audio(id)));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of answers.filter((x) => x.status !== 200)) expectError(r, 'PODCAST_AUDIO_NOT_ALLOWED');
    expect((await entriesOf(id)).filter(([t]) => t === 'reserve')).toHaveLength(2);
  });

  it('a short balance refuses the audio (402, 37004) and takes nothing', async () => {
    const id = await twoStage();
    await m.advance(textMs('quick'));
    await setCredits(0);
    expectError(await audio(id), 'PODCAST_INSUFFICIENT_CREDITS');
    expect((await get(id)).contentStatus).toBe('text-success');
    expect(await entriesOf(id)).toHaveLength(2);
  });

  it('a forced audio failure: audio-fail, the audio refunded, the script credits kept; a retry renders', async () => {
    const id = await twoStage();
    await m.advance(textMs('quick'));
    expect((await audio(id, undefined, { prefer: 'outcome=failed' })).status).toBe(200);
    await m.advance(5 * MINUTE);
    const failed = await get(id);
    expect(failed).toMatchObject({ processStatus: 'fail', contentStatus: 'audio-fail', failCode: 37008, credits: podcastModePlans.quick.scriptCredits });
    expect(failed.scripts).toHaveLength(podcastModePlans.quick.lines);
    expect((await entriesOf(id)).map(([t]) => t)).toEqual(['reserve', 'capture', 'reserve', 'release']);
    expect((await audio(id)).status).toBe(200);
    await m.advance(5 * MINUTE);
    expect((await get(id)).contentStatus).toBe('audio-success');
  });

  it('a stalled audio render fails after 30 minutes (37011) with the audio refunded', async () => {
    const id = await twoStage();
    await m.advance(textMs('quick'));
    await audio(id, undefined, { prefer: 'outcome=stuck' });
    await m.advance(podcastAudioSchedule.timeoutMs);
    expect((await get(id)).processStatus).toBe('pending');
    await m.advance(1);
    expect(await get(id)).toMatchObject({ processStatus: 'fail', contentStatus: 'audio-fail', failCode: 37011 });
    expect((await entriesOf(id)).map(([t]) => t)).toEqual(['reserve', 'capture', 'reserve', 'release']);
  });
});

describe('forcing, money and owner scoping', () => {
  it.each([
    ['outcome=failed', 37008],
    ['outcome=failed, error=37009', 37009],
    ['outcome=failed, error=PODCAST_SOURCE_UNREADABLE', 37010],
  ])('%s: the script stops halfway, then fail with failCode %i, credits 0, refunded in full', async (prefer, failCode) => {
    const id = await oneShot(podcastBody(), { prefer });
    await m.advance(10 * MINUTE);
    const ep = await get(id);
    expect(ep).toMatchObject({ processStatus: 'fail', failCode, credits: 0 });
    expect(ep.message).toBe(Object.values(errorCatalog).find((e) => e.code === failCode)!.meaning);
    expect(ep.scripts).toHaveLength(podcastModePlans.quick.lines / 2);
    expect(ep.audioUrl).toBeUndefined();
    expect(ep.cover).toBeUndefined();
    expect((await entriesOf(id)).map(([t]) => t)).toEqual(['reserve', 'release']);
  });

  it('outcome=stuck: nothing is read; pending until 30 minutes, then fail (37011), refunded', async () => {
    const id = await oneShot(podcastBody(), { prefer: 'outcome=stuck' });
    await m.advance(podcastAudioSchedule.timeoutMs);
    const stuck = await get(id);
    expect(stuck).toMatchObject({ processStatus: 'pending', message: 'reading the sources' });
    expect(stuck.scripts).toBeUndefined();
    await m.advance(1);
    expect(await get(id)).toMatchObject({ processStatus: 'fail', failCode: 37011, credits: 0 });
    expect((await entriesOf(id)).map(([t]) => t)).toEqual(['reserve', 'release']);
  });

  it('a short balance refuses the create (402, 37004), nothing reserved', async () => {
    await setCredits(3);
    const r = await m.call('POST', pathOf('createPodcastEpisode'), { body: podcastBody() });
    expectError(r, 'PODCAST_INSUFFICIENT_CREDITS');
    expect((await account()).credits).toBe(3);
  });

  it("another key's episode is not found (404, 37005) on GET, audio and the stream; an unknown one too", async () => {
    const id = await twoStage();
    await m.advance(textMs('quick'));
    for (const r of [
      await m.call('GET', pathOf('getPodcastEpisode', { episodeId: id }), { key: OTHER_KEY }),
      await m.call('POST', pathOf('createPodcastAudio', { episodeId: id }), { key: OTHER_KEY }),
      await m.call('GET', pathOf('streamPodcastText', { episodeId: id }, { event: 'script' }), { key: OTHER_KEY }),
      await m.call('GET', pathOf('getPodcastEpisode', { episodeId: 'pe_0000000000000000' })),
    ])
      expectError(r, 'PODCAST_EPISODE_NOT_FOUND');
  });
});

describe('the text stream', () => {
  const streamPath = (id: string, event: string) => pathOf('streamPodcastText', { episodeId: id }, { event });
  const auth = { authorization: `Bearer ${KEY}` };

  it('a client connected early receives the script line by line as the clock advances, then done, then the stream closes', async () => {
    const plan = podcastModePlans.quick;
    const id = await oneShot();
    const seen: number[] = [];
    let received: unknown[] = [];
    let advancing = Promise.resolve();
    const stream = readEventStream(m.base, streamPath(id, 'script'), {
      headers: auth,
      onOpen: () => {
        // step the clock line by line; after each step, count what arrived
        advancing = (async () => {
          await m.advance(textMs('quick') - plan.lines * plan.lineMs);
          for (let i = 0; i < plan.lines; i++) {
            await m.advance(plan.lineMs);
            // wait for this step's line to arrive (the manual clock sends nothing more until the next step), however
            // slow the machine; a limit only against a hang
            for (const until = Date.now() + 60_000; received.length < i + 1 && Date.now() < until;) await new Promise((r) => setTimeout(r, 10));
            seen.push(received.length);
          }
        })();
      },
      stop: (events) => {
        received = events;
        return false;
      },
    });
    const out = await stream;
    await advancing;
    expect(out.status).toBe(200);
    expect(out.contentType).toMatch(/^text\/event-stream/);
    expect(out.ended).toBe(true);
    // one more line after each step; done with the last one
    expect(seen.slice(0, -1)).toEqual(Array.from({ length: plan.lines - 1 }, (_, i) => i + 1));
    expect(out.events.map((e) => e.event)).toEqual([...Array(plan.lines).fill('script'), 'done']);
    const ep = await get(id);
    expect(out.events.slice(0, -1).map((e) => e.data)).toEqual(ep.scripts.map((l: object, index: number) => ({ index, ...l })));
    expect(out.events.at(-1)!.data).toEqual({ episodeId: id, complete: true, count: plan.lines, failCode: 0 });
  });

  it('a client connected late receives everything at once; event=outline streams the outline items', async () => {
    const id = await oneShot(podcastBody({ mode: 'deep' }));
    await m.advance(10 * MINUTE);
    const ep = await get(id);
    const script = await readEventStream(m.base, streamPath(id, 'script'), { headers: auth });
    expect(script.ended).toBe(true);
    expect(script.events).toHaveLength(podcastModePlans.deep.lines + 1);
    const outline = await readEventStream(m.base, streamPath(id, 'outline'), { headers: auth });
    expect(outline.events.map((e) => e.event)).toEqual([...Array(podcastModePlans.deep.outlineItems).fill('outline'), 'done']);
    expect(
      outline.events
        .slice(0, -1)
        .map((e) => `${e.data.index + 1}. ${e.data.content}`)
        .join('\n'),
    ).toBe(ep.outline);
  });

  it('a failing episode: the lines written before the failure, then done with complete false and the failCode', async () => {
    const id = await oneShot(podcastBody(), { prefer: 'outcome=failed, error=37009' });
    await m.advance(10 * MINUTE);
    const out = await readEventStream(m.base, streamPath(id, 'script'), { headers: auth });
    const half = podcastModePlans.quick.lines / 2;
    expect(out.events.map((e) => e.event)).toEqual([...Array(half).fill('script'), 'done']);
    expect(out.events.at(-1)!.data).toEqual({ episodeId: id, complete: false, count: half, failCode: 37009 });
  });

  it.each([
    ['', podcastModePlans.quick.lines, true],
    ['outcome=failed', podcastModePlans.quick.lines / 2, false],
  ])('on a real clock (200x) the lines arrive over time without a clock call (Prefer: %s), then done', async (prefer, count, complete) => {
    // the real clock reads a wall the test moves (the stream's own timers wake it, as on Date.now), so what arrives
    // after each step is counted, not timed: however slow the machine, one more line per step
    const wall0 = Date.now();
    let wall = wall0;
    const real = await start({ clock: 'real', wallNow: () => wall, speed: 200 });
    const r = await real.call('POST', pathOf('createPodcastEpisode'), { body: podcastBody(), headers: prefer ? { prefer } : {} });
    const plan = podcastModePlans.quick;
    let scripts = 0;
    const seen: number[] = [];
    let stepping = Promise.resolve();
    const stream = readEventStream(real.base, streamPath(r.json.data.episodeId, 'script'), {
      headers: auth,
      timeoutMs: 120_000,
      stop: (events) => ((scripts = events.filter((e) => e.event === 'script').length), false),
      onOpen: () => {
        stepping = (async () => {
          for (let i = 0; i < count; i++) {
            // the wall time at which line i is written (virtual ms / 200, rounded up)
            wall = wall0 + Math.ceil((textMs('quick') - (plan.lines - i - 1) * plan.lineMs) / 200);
            for (const until = Date.now() + 60_000; scripts < i + 1 && Date.now() < until;) await new Promise((r) => setTimeout(r, 10));
            seen.push(scripts);
          }
          wall = wall0 + Math.ceil((textMs('quick') + 10 * MINUTE) / 200); // past the end of the text stage
        })();
      },
    });
    const out = await stream;
    await stepping;
    expect(out.ended).toBe(true);
    expect(seen).toEqual(Array.from({ length: count }, (_, i) => i + 1));
    expect(out.events.filter((e) => e.event === 'script')).toHaveLength(count);
    expect(out.events.at(-1)!.data).toMatchObject({ complete, count });
  });

  it('an unknown or missing event -> 400 (37001); no key -> 401', async () => {
    const id = await oneShot();
    for (const path of [streamPath(id, 'audio'), pathOf('streamPodcastText', { episodeId: id })]) {
      const r = await m.call('GET', path);
      expectError(r, 'PODCAST_INVALID_PARAMETERS');
      expect(r.json.message).toContain('event');
    }
    expectError(await m.call('GET', streamPath(id, 'script'), { key: null }), 'UNAUTHORIZED');
  });

  it('the eventsource package (the WHATWG EventSource API) receives the script line by line', async () => {
    const id = await oneShot();
    const plan = podcastModePlans.quick;
    const lines: { index: number; content: string }[] = [];
    const es = new EventSource(m.base + streamPath(id, 'script'), {
      fetch: (input, init) => fetch(input, { ...init, headers: { ...init?.headers, ...auth } }),
    });
    const opened = new Promise<void>((resolve, reject) => {
      es.onopen = () => resolve();
      es.onerror = (e) => reject(new Error(`EventSource error: ${e.message ?? ''}`));
    });
    const finished = new Promise<{ complete: boolean }>((resolve) => {
      es.addEventListener('done', (e) => {
        es.close();
        resolve(JSON.parse(e.data));
      });
    });
    es.addEventListener('script', (e) => lines.push(JSON.parse(e.data)));
    await opened;
    await m.advance(textMs('quick') - plan.lines * plan.lineMs);
    const counts: number[] = [];
    for (let i = 0; i < plan.lines; i++) {
      await m.advance(plan.lineMs);
      // wait for this step's line (nothing more arrives until the next step), however slow the machine
      for (const until = Date.now() + 60_000; lines.length < i + 1 && Date.now() < until;) await new Promise((r) => setTimeout(r, 10));
      counts.push(lines.length);
    }
    expect((await finished).complete).toBe(true);
    expect(counts).toEqual(Array.from({ length: plan.lines }, (_, i) => i + 1));
    expect(lines.map((l) => l.index)).toEqual(Array.from({ length: plan.lines }, (_, i) => i));
  });
});

describe('media', () => {
  it('before the script is written the media answer 404; the cover appears with the script, the audio at success', async () => {
    const id = await oneShot();
    const url = (f: string) => `${m.base}/media/podcast/${id}/${f}`;
    expect((await load(url('cover.png'))).status).toBe(404);
    await m.advance(textMs('quick'));
    expect((await load(url('cover.png'))).status).toBe(200);
    expect((await load(url('audio.mp3'))).status).toBe(404);
    await m.advance(5 * MINUTE);
    for (const f of ['audio.mp3', 'audio.m3u8', 'subtitles.srt', 'segments/0.aac']) expect((await load(url(f))).status, f).toBe(200);
  });

  it('the MP3 lasts the script at its speed; the SRT is timed within it; the HLS adds up to it; the cover is a square PNG', async () => {
    const speed = 1.25;
    const id = await oneShot(podcastBody({ speed }));
    await m.advance(10 * MINUTE);
    const ep = await get(id);
    const declared = ep.scripts.reduce((n: number, l: { content: string }) => n + lineMs(l.content, speed), 0);

    const mp3 = await load(ep.audioUrl);
    expect(mp3.headers.get('content-type')).toBe('audio/mpeg');
    expect(mp3Frames(mp3.bytes).length * FRAME_MS).toBe(declared);
    const decoded = await decodeAudio(mp3.bytes, 'mp3');
    expect(Math.abs(decoded.durationMs - declared)).toBeLessThanOrEqual(FRAME_MS / 2);

    const srt = new SrtParser().fromSrt(new TextDecoder().decode((await load(ep.subtitlesUrl)).bytes));
    expect(srt.length).toBeGreaterThanOrEqual(ep.scripts.length);
    const ends = srt.map((c) => c.endSeconds * 1000);
    srt.forEach((c, i) => {
      expect(c.startSeconds).toBeLessThan(c.endSeconds);
      if (i > 0) expect(c.startSeconds).toBeGreaterThanOrEqual(srt[i - 1].endSeconds);
    });
    expect(Math.max(...ends)).toBeLessThanOrEqual(declared + 1);

    const parser = new M3u8Parser();
    parser.push(new TextDecoder().decode((await load(ep.audioStreamUrl)).bytes));
    parser.end();
    let listedMs = 0;
    for (const s of parser.manifest.segments) {
      const seg = await load(new URL(s.uri, ep.audioStreamUrl).href);
      expect(seg.headers.get('content-type')).toBe('audio/aac');
      expect(adtsFrames(seg.bytes.subarray(id3Length(seg.bytes))).length * AAC_FRAME_MS).toBeCloseTo(s.duration * 1000, 0);
      listedMs += s.duration * 1000;
    }
    expect(Math.abs(listedMs - declared)).toBeLessThanOrEqual(AAC_FRAME_MS);

    const cover = await load(ep.cover);
    expect(cover.headers.get('content-type')).toBe('image/png');
    expect(pngSize(cover.bytes)).toEqual({ width: EPISODE_COVER_SIDE, height: EPISODE_COVER_SIDE });
  });

  it('two speakers are heard in two voices: the frames of line 0 and line 1 differ in timbre', async () => {
    const id = await oneShot();
    await m.advance(10 * MINUTE);
    const ep = await get(id);
    const frames = mp3Frames((await load(ep.audioUrl)).bytes).map((f) => Buffer.from(f.bytes).toString('base64'));
    const first = lineMs(ep.scripts[0].content) / FRAME_MS;
    const second = lineMs(ep.scripts[1].content) / FRAME_MS;
    const a = new Set(frames.slice(0, first));
    const b = frames.slice(first, first + second);
    expect(b.filter((k) => a.has(k)).length / b.length, 'the second voice shares few frames with the first').toBeLessThan(0.2);
  });
});

describe('saved state', () => {
  it('an episode saved halfway through its script and its audio stage goes on after a load exactly as it would have', async () => {
    const one = await oneShot();
    const two = await twoStage();
    await m.advance(textMs('quick'));
    expect((await audio(two)).status).toBe(200);
    await m.advance(1_000);
    const saved = (await m.call('GET', '/__mock/state', { key: null })).json;
    const other = await start({ seed: 5 });
    expect((await other.call('PUT', '/__mock/state', { key: null, body: saved })).status).toBe(200);
    await Promise.all([m.advance(5 * MINUTE), other.advance(5 * MINUTE)]);
    for (const id of [one, two]) {
      const a = await get(id);
      const b = (await other.call('GET', pathOf('getPodcastEpisode', { episodeId: id }))).json.data;
      expect({ ...b, ...urlsOf(b, other.base, m.base) }).toEqual(a);
      expect(a.processStatus).toBe('success');
    }
  });
});
