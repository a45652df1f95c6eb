/**
 * The three page-deck operations through Prism's validation proxy
 * (test/prism.ts): client -> Prism (--errors, spec/openapi.yaml) -> a fresh
 * mock, any violation in either direction failing the test. An episode
 * pending, succeeded (with and without narration) and failed; its video
 * refused, pending and done; the documented errors the spec cannot rule out;
 * every Prefer-forced answer; requests the spec itself forbids.
 */
import { describe, expect, it } from 'vitest';
import { operations, type OperationId } from '../schemas/operations.ts';
import type { OperationDef } from '../schemas/registry-types.ts';
import { type Body, pathOf, storybookBody } from './factories.ts';
import { expectErrorEnvelope as expectError, expectForwarded, forcedCases, KEY, OTHER_KEY, usePrism, type PrismHarness, viaSpecOrMock } from './prism.ts';

const prism = usePrism();

const TEN_MINUTES = 600_000;
const ok = (method: string, path: string, opts: Parameters<PrismHarness['call']>[2] = {}) => expectForwarded(prism, method, path, opts);
const get = async (id: string) => (await ok('GET', pathOf('getStorybookEpisode', { episodeId: id }))).json.data;
const create = async (body: Body, headers: Record<string, string> = {}) =>
  (await ok('POST', pathOf('createStorybookEpisode'), { body, headers })).json.data.episodeId as string;

describe('page decks through Prism', () => {
  it('pending, success with every field, a video refused then rendered; skipAudio; a forced failure', async () => {
    const m = prism.useMock();
    const id = await create(storybookBody({ mode: 'slides' }));
    const silent = await create(storybookBody({ skipAudio: true, speakers: undefined }));
    const failed = await create(storybookBody(), { prefer: 'outcome=failed' });
    expect(await get(id)).toMatchObject({ processStatus: 'pending', videoStatus: 'not_generated', videoUrl: '' });
    expectError(await prism.call('POST', pathOf('createStorybookVideo', { episodeId: id })), 'STORYBOOK_VIDEO_NOT_ALLOWED');
    await m.advance(TEN_MINUTES);
    const done = await get(id);
    expect(Object.keys(done).sort()).toEqual(
      [
        'audioDuration',
        'audioUrl',
        'cover',
        'createdAt',
        'credits',
        'episodeId',
        'message',
        'mode',
        'pages',
        'processStatus',
        'title',
        'videoStatus',
        'videoUrl',
      ].sort(),
    );
    expect((await ok('POST', pathOf('createStorybookVideo', { episodeId: id }))).json.data).toEqual({ success: true });
    expect((await get(id)).videoStatus).toBe('pending');
    await m.advance(TEN_MINUTES);
    expect((await get(id)).videoStatus).toBe('success');
    expect(await get(silent)).toMatchObject({ processStatus: 'success', audioUrl: '', audioDuration: 0 });
    expect(await get(failed)).toMatchObject({ processStatus: 'fail', failCode: 40008 });
  });

  it('documented errors the spec cannot rule out: 40001, 40003, 40004, 40005', async () => {
    const m = prism.useMock();
    const post = (body: Body) => viaSpecOrMock(prism, 'POST', pathOf('createStorybookEpisode'), { body });
    expectError(await post(storybookBody({ speakers: [] })), 'STORYBOOK_INVALID_PARAMETERS', 'speakers');
    expectError(await post(storybookBody({ sources: [{ type: 'text', content: ' ' }] })), 'STORYBOOK_INVALID_PARAMETERS', 'sources[0].content');
    expectError(await post(storybookBody({ sources: [{ type: 'url', content: 'not a url' }] })), 'STORYBOOK_INVALID_PARAMETERS', 'sources[0].content');
    expectError(await post(storybookBody({ speakers: [{ speakerId: 'xx_ghost' }] })), 'STORYBOOK_SPEAKER_NOT_FOUND');
    const id = await create(storybookBody());
    expectError(await prism.call('GET', pathOf('getStorybookEpisode', { episodeId: id }), { key: OTHER_KEY }), 'STORYBOOK_EPISODE_NOT_FOUND');
    await m.call('PUT', `/__mock/accounts/${KEY}`, { key: null, body: { credits: 0 } });
    expectError(await post(storybookBody()), 'STORYBOOK_INSUFFICIENT_CREDITS');
  });

  it('every Prefer-forced answer of the three operations', async () => {
    prism.useMock();
    const ids: OperationId[] = ['createStorybookEpisode', 'getStorybookEpisode', 'createStorybookVideo'];
    for (const id of ids) {
      const op = operations[id] as OperationDef;
      const path = pathOf(id, { episodeId: 'sb_forced' });
      const body = id === 'createStorybookEpisode' ? storybookBody() : undefined;
      const cases = forcedCases(op);
      expect(cases.length, id).toBeGreaterThan(0);
      for (const c of cases) expectError(await prism.call(op.method.toUpperCase(), path, { body, headers: { prefer: c.prefer } }), c.error);
    }
  });

  it.each([
    [
      'two sources',
      storybookBody({
        sources: [
          { type: 'text', content: 'a' },
          { type: 'text', content: 'b' },
        ],
      }),
      'sources',
    ],
    ['two speakers', storybookBody({ speakers: [{ speakerId: 'en_ava' }, { speakerId: 'en_noah' }] }), 'speakers'],
    ['mode poster', storybookBody({ mode: 'poster' }), 'mode'],
    ['sources missing', { speakers: [{ speakerId: 'en_ava' }] }, 'sources'],
  ] as [string, Body, string][])('%s: Prism flags it; the mock answers 40001 naming it', async (_what, body, field) => {
    const m = prism.useMock();
    const r = await prism.call('POST', pathOf('createStorybookEpisode'), { body, allowViolations: true });
    expect(r.status, r.text.slice(0, 300)).toBe(422);
    expect(r.forwarded).toBe(false);
    prism.takeViolations();
    expectError(await m.call('POST', pathOf('createStorybookEpisode'), { body }), 'STORYBOOK_INVALID_PARAMETERS', field);
  });
});
