/**
 * Podcast episodes on the manual clock (document 2, "Podcast", "Podcast
 * episode (GET result)", "States and transitions", "Errors", "Limits"): the request
 * rules; one-shot episodes through every mode (the sources, the outline and the
 * script appearing as the clock reaches them, credits growing by stage, the media
 * at success); forced failures, stalls and timeouts with their refunds; owner
 * scoping. The two-stage flow: test/podcast-two-stage.test.ts; the text stream:
 * test/podcast-stream.test.ts; the media and saved state: test/podcast-media.test.ts.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { errorCatalog, type ErrorName } from '../schemas/errors.ts';
import { podcastAudioCredits, podcastAudioSchedule, podcastModePlans, podcastModes, podcastRenderMs } from '../schemas/podcast.ts';
import { type Body, pathOf, podcastBody, podcastTextBody } from './factories.ts';
import { OTHER_KEY, type TestMock, useMocks } from './helpers.ts';
import { expectError, lineMs, MINUTE, podcastCalls, scriptChars, textMs, urlsOf } from './podcast-helpers.ts';

const start = useMocks();
let m: TestMock;
beforeEach(async () => {
  m = await start();
});
const { oneShot, twoStage, get, account, entriesOf, setCredits } = podcastCalls(() => m);

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
