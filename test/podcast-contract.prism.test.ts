/**
 * The five podcast operations through Prism's validation proxy (test/prism.ts):
 * client -> Prism (--errors, spec/openapi.yaml) -> a fresh mock, any violation
 * in either direction failing the test. One-shot and two-stage episodes in
 * every state the spec describes (pending, text-success, audio-success,
 * failed), the audio call with an edited script, the text stream
 * (text/event-stream) of the script and the outline, the documented errors
 * the spec cannot rule out, every Prefer-forced answer, and requests the spec
 * itself forbids (flagged by Prism, answered by the mock with 37001).
 */
import { describe, expect, it } from 'vitest';
import { operations, type OperationId } from '../schemas/operations.ts';
import type { OperationDef } from '../schemas/registry-types.ts';
import { type Body, pathOf, podcastBody, podcastTextBody } from './factories.ts';
import { expectErrorEnvelope as expectError, expectForwarded, forcedCases, KEY, OTHER_KEY, usePrism, type PrismHarness, viaSpecOrMock } from './prism.ts';

const prism = usePrism();

const TEN_MINUTES = 600_000;
const ok = (method: string, path: string, opts: Parameters<PrismHarness['call']>[2] = {}) => expectForwarded(prism, method, path, opts);
const get = async (id: string) => (await ok('GET', pathOf('getPodcastEpisode', { episodeId: id }))).json.data;

describe('podcast episodes through Prism', () => {
  it('one-shot: pending, then success with every field; a forced failure; both streams', async () => {
    const m = prism.useMock();
    const id = (await ok('POST', pathOf('createPodcastEpisode'), { body: podcastBody({ mode: 'debate' }) })).json.data.episodeId;
    const failed = (await ok('POST', pathOf('createPodcastEpisode'), { body: podcastBody(), headers: { prefer: 'outcome=failed' } })).json.data.episodeId;
    expect(await get(id)).toMatchObject({ processStatus: 'pending', credits: 0 });
    await m.advance(60_000);
    expect((await get(id)).scripts.length).toBeGreaterThan(0);
    await m.advance(TEN_MINUTES);
    const done = await get(id);
    expect(Object.keys(done).sort()).toEqual(
      [
        'audioStreamUrl',
        'audioUrl',
        'completedTime',
        'cover',
        'createdAt',
        'credits',
        'episodeId',
        'failCode',
        'message',
        'outline',
        'processStatus',
        'scripts',
        'sourceProcessResult',
        'subtitlesUrl',
        'title',
      ].sort(),
    );
    expect(await get(failed)).toMatchObject({ processStatus: 'fail', failCode: 37008 });
    for (const event of ['script', 'outline']) {
      const r = await prism.call('GET', pathOf('streamPodcastText', { episodeId: id }, { event }));
      expect(r.status, r.text.slice(0, 300)).toBe(200);
      expect(r.forwarded).toBe(true);
      expect(r.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const names = [...r.text.matchAll(/^event: (\w+)$/gm)].map((x) => x[1]);
      expect(names.at(-1)).toBe('done');
      expect(new Set(names.slice(0, -1))).toEqual(new Set([event]));
    }
  });

  it('two-stage: text-success, an edited script rendered to audio-success; errors the spec cannot rule out', async () => {
    const m = prism.useMock();
    const id = (await ok('POST', pathOf('createPodcastTextContent'), { body: podcastTextBody() })).json.data.episodeId;
    expectError(await prism.call('POST', pathOf('createPodcastAudio', { episodeId: id })), 'PODCAST_AUDIO_NOT_ALLOWED', 'still being written');
    await m.advance(TEN_MINUTES);
    const text = await get(id);
    expect(text).toMatchObject({ processStatus: 'success', contentStatus: 'text-success' });
    const scripts = text.scripts.map((l: Body) => ({ speakerId: l.speakerId, content: `${l.content as string} Indeed.` }));
    expectError(
      await viaSpecOrMock(prism, 'POST', pathOf('createPodcastAudio', { episodeId: id }), { body: { scripts: scripts.slice(1) } }),
      'PODCAST_INVALID_PARAMETERS',
      'scripts',
    );
    expect((await ok('POST', pathOf('createPodcastAudio', { episodeId: id }), { body: { scripts } })).json.data).toEqual({
      episodeId: id,
      contentStatus: 'text-success',
    });
    await m.advance(TEN_MINUTES);
    expect(await get(id)).toMatchObject({ processStatus: 'success', contentStatus: 'audio-success' });
    expectError(
      await viaSpecOrMock(prism, 'POST', pathOf('createPodcastTextContent'), { body: podcastTextBody({ language: 'ja' }) }),
      'SPEAKER_LANGUAGE_MISMATCH',
      /^Speaker language mismatch/,
    );
    expectError(
      await viaSpecOrMock(prism, 'POST', pathOf('createPodcastEpisode'), { body: podcastBody({ query: ' ' }) }),
      'PODCAST_INVALID_PARAMETERS',
      'query',
    );
    expectError(
      await viaSpecOrMock(prism, 'POST', pathOf('createPodcastEpisode'), { body: podcastBody({ mode: 'debate', speakers: [{ speakerId: 'en_ava' }] }) }),
      'PODCAST_INVALID_PARAMETERS',
      'debate',
    );
    expectError(
      await viaSpecOrMock(prism, 'POST', pathOf('createPodcastEpisode'), { body: podcastBody({ speakers: [{ speakerId: 'xx_ghost' }] }) }),
      'PODCAST_SPEAKER_NOT_FOUND',
    );
    expectError(await prism.call('GET', pathOf('getPodcastEpisode', { episodeId: id }), { key: OTHER_KEY }), 'PODCAST_EPISODE_NOT_FOUND');
    await m.call('PUT', `/__mock/accounts/${KEY}`, { key: null, body: { credits: 0 } });
    expectError(await viaSpecOrMock(prism, 'POST', pathOf('createPodcastEpisode'), { body: podcastBody() }), 'PODCAST_INSUFFICIENT_CREDITS');
  });

  it('every Prefer-forced answer of the five operations', async () => {
    prism.useMock();
    const ids: OperationId[] = ['createPodcastEpisode', 'createPodcastTextContent', 'getPodcastEpisode', 'createPodcastAudio', 'streamPodcastText'];
    for (const id of ids) {
      const op = operations[id] as OperationDef;
      const path = pathOf(id, { episodeId: 'pe_forced' }, id === 'streamPodcastText' ? { event: 'script' } : undefined);
      const body = id === 'createPodcastEpisode' ? podcastBody() : id === 'createPodcastTextContent' ? podcastTextBody() : undefined;
      const cases = forcedCases(op);
      expect(cases.length, id).toBeGreaterThan(0);
      for (const c of cases) expectError(await prism.call(op.method.toUpperCase(), path, { body, headers: { prefer: c.prefer } }), c.error);
    }
  });

  it.each([
    ['createPodcastEpisode', 'speakers missing', { query: 'x' }, 'speakers'],
    ['createPodcastEpisode', 'three speakers', podcastBody({ speakers: [{ speakerId: 'a' }, { speakerId: 'b' }, { speakerId: 'c' }] }), 'speakers'],
    ['createPodcastEpisode', 'mode long', podcastBody({ mode: 'long' }), 'mode'],
    ['createPodcastEpisode', 'speed 3', podcastBody({ speed: 3 }), 'speed'],
    ['createPodcastTextContent', 'language missing', podcastBody(), 'language'],
  ] as [OperationId, string, Body, string][])('%s, %s: Prism flags it; the mock answers 37001 naming it', async (id, _what, body, field) => {
    const m = prism.useMock();
    const r = await prism.call('POST', pathOf(id), { body, allowViolations: true });
    expect(r.status, r.text.slice(0, 300)).toBe(422);
    expect(r.forwarded).toBe(false);
    prism.takeViolations();
    expectError(await m.call('POST', pathOf(id), { body }), 'PODCAST_INVALID_PARAMETERS', field);
  });

  it('the stream with event=audio: Prism flags it; the mock answers 37001 naming event', async () => {
    const m = prism.useMock();
    const id = (await m.call('POST', pathOf('createPodcastEpisode'), { body: podcastBody() })).json.data.episodeId;
    const path = pathOf('streamPodcastText', { episodeId: id }, { event: 'audio' });
    const r = await prism.call('GET', path, { allowViolations: true });
    expect(r.status).toBe(422);
    prism.takeViolations();
    expectError(await m.call('GET', path), 'PODCAST_INVALID_PARAMETERS', 'event');
  });
});
