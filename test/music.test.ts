/**
 * Music generation (document 3, "Providers and models (lyrics and music)",
 * "musicB parameters", "Music task", "States and transitions", "Music:
 * asynchronous generation (prefix /v1/music)", "Limits"): the JSON creates
 * (/generate, /cover) and /extend with their rules at the boundaries,
 * provider routing and the provider-only rejections, every price of the
 * tables read on the ledger, the lifecycle on the manual clock (forced
 * failures, stuck tasks and the timeout, with refunds), the signed track URLs
 * (expiry an hour after the fetch, refresh, tampering), every track decoded
 * with music-metadata at its declared duration, the list, and owner scoping.
 * The multipart creates are in test/music-uploads.test.ts; the lifecycle,
 * forcing, signed URLs, decoded tracks, /extend, owner scoping, the list and
 * determinism in test/music-tasks.test.ts.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { musicAModels, musicBModels } from '../schemas/music-providers.ts';
import type { OperationId } from '../schemas/operations.ts';
import { type Body, musicBody, musicCoverBody, musicForm, musicSong } from './factories.ts';
import { type TestMock, useMocks } from './helpers.ts';
import {
  account,
  badModel,
  musicB,
  unsupported,
  create,
  DONE_MS,
  expectError,
  expectNothingReserved,
  type Failure,
  fails,
  getTask,
  invalid,
  ledgerOf,
  OPENING,
  send,
  setCredits,
} from './music-helpers.ts';

const start = useMocks();
const EMOJI = '\u{1F3B5}';

type Case = [name: string, body: Body, expected: 'ok' | Failure];

/** Runs `cases` against `op`: 202, or the error with nothing reserved. */
function ruleTable(op: OperationId, cases: Case[]) {
  let m: TestMock;
  beforeEach(async () => {
    m = await start();
  });
  it.each(cases)('%s', async (_n, body, expected) => {
    const r = await send(m, op, body);
    if (expected === 'ok') {
      expect(r.status, r.text).toBe(202);
      return;
    }
    expectError(r, expected);
    await expectNothingReserved(m);
  });
}

// ---------------------------------------------------------------------------
// Rules
// ---------------------------------------------------------------------------

describe('POST /v1/music/generate: rules', () => {
  const noLyrics = musicBody({ lyrics: undefined });
  ruleTable('generateMusic', [
    ['musicA (the default) with lyrics', musicBody(), 'ok'],
    ['musicA without lyrics', noLyrics, invalid('lyrics', 'musicA')],
    ['musicA with blank lyrics', musicBody({ lyrics: ' \n ' }), invalid('lyrics')],
    ['musicA instrumental without lyrics', musicBody({ lyrics: undefined, instrumental: true }), 'ok'],
    ['musicA instrumental with style only', { style: 'ambient drones', instrumental: true }, 'ok'],
    ['an instrumental with neither prompt nor style', { instrumental: true, provider: 'musicA' }, invalid('prompt', 'style')],
    ['musicB with prompt only (read as lyrics)', musicB(), 'ok'],
    ['musicB with lyrics only', { provider: 'musicB', lyrics: 'la la la' }, 'ok'],
    ['musicB with neither lyrics nor prompt', { provider: 'musicB', style: 'pop' }, invalid('lyrics', 'prompt')],
    ['musicB customMode false with prompt', musicB({ customMode: false }), 'ok'],
    ['musicB customMode false with lyrics only', { provider: 'musicB', customMode: false, lyrics: 'la la' }, invalid('prompt', 'customMode false')],
    ['musicB instrumental with style', { provider: 'musicB', instrumental: true, style: 'surf rock' }, 'ok'],
    [`prompt of 5000 characters`, musicBody({ prompt: 'x'.repeat(5000) }), 'ok'],
    [`prompt of 5000 emoji (code points)`, musicBody({ prompt: EMOJI.repeat(5000) }), 'ok'],
    [`prompt of 5001 characters`, musicBody({ prompt: 'x'.repeat(5001) }), invalid('prompt', '5001')],
    [`lyrics of 5001 characters`, musicBody({ lyrics: 'x'.repeat(5001) }), invalid('lyrics')],
    [`style of 1000 characters`, musicBody({ style: 's'.repeat(1000) }), 'ok'],
    [`style of 1001 characters`, musicBody({ style: 's'.repeat(1001) }), invalid('style')],
    [`title of 100 characters`, musicBody({ title: 't'.repeat(100) }), 'ok'],
    [`title of 101 characters`, musicBody({ title: 't'.repeat(101) }), invalid('title')],
    ['prompt a number', musicBody({ prompt: 42 }), invalid('prompt')],
    ['instrumental "yes"', musicBody({ instrumental: 'yes' }), invalid('instrumental')],
    ['provider musicC', musicBody({ provider: 'musicC' }), invalid('provider')],
    ['provider MusicA (case matters)', musicBody({ provider: 'MusicA' }), invalid('provider')],
    ...musicAModels.map((x): Case => [`musicA model ${x.model}`, musicBody({ model: x.model }), 'ok']),
    ...musicBModels.map((x): Case => [`musicB model ${x.model}`, musicB({ model: x.model }), 'ok']),
    ['model V6 on musicA (the default provider)', musicBody({ model: 'V6' }), badModel('model', 'V6', 'musicA')],
    ['model auto on musicB', musicB({ model: 'auto' }), badModel('model', 'auto', 'musicB')],
    ['model musicA-9 on musicB', musicB({ model: 'musicA-9' }), badModel('model')],
    ['model musicA-10 (no such model)', musicBody({ model: 'musicA-10' }), badModel('model')],
    ['vocalId on musicA', musicBody({ vocalId: 'voc_123' }), 'ok'],
    ['vocalId on musicB', musicB({ vocalId: 'voc_123' }), unsupported('vocalId', 'musicA only')],
    ['customMode on musicA', musicBody({ customMode: true }), unsupported('customMode', 'musicB only')],
    ['customMode on default', musicBody({ provider: 'default', customMode: false }), unsupported('customMode')],
    ['providerParams with a musicB key on musicA', musicBody({ providerParams: { negativeTags: 'metal' } }), unsupported('providerParams.negativeTags')],
    ['providerParams with unknown keys only on musicA (dropped)', musicBody({ providerParams: { tempo: 120 } }), 'ok'],
    [
      'every musicB parameter at its bounds',
      musicB({
        providerParams: {
          negativeTags: 'metal, screamo',
          vocalGender: 'f',
          styleWeight: 0,
          weirdnessConstraint: 1,
          audioWeight: 0.5,
          personaId: 'persona_1',
          personaModel: 'V5_5',
        },
      }),
      'ok',
    ],
    ['vocalGender m', musicB({ providerParams: { vocalGender: 'm' } }), 'ok'],
    ['vocalGender male (m or f here)', musicB({ providerParams: { vocalGender: 'male' } }), invalid('providerParams.vocalGender')],
    ['styleWeight 1.01', musicB({ providerParams: { styleWeight: 1.01 } }), invalid('providerParams.styleWeight')],
    ['weirdnessConstraint -0.01', musicB({ providerParams: { weirdnessConstraint: -0.01 } }), invalid('providerParams.weirdnessConstraint')],
    ['audioWeight "0.5"', musicB({ providerParams: { audioWeight: '0.5' } }), invalid('providerParams.audioWeight')],
    ['personaModel without personaId', musicB({ providerParams: { personaModel: 'V6' } }), invalid('providerParams.personaModel', 'personaId')],
    ['personaModel not a musicB tier', musicB({ providerParams: { personaId: 'p', personaModel: 'auto' } }), invalid('providerParams.personaModel')],
    ['negativeTags of 1001 characters', musicB({ providerParams: { negativeTags: 'n'.repeat(1001) } }), invalid('providerParams.negativeTags')],
    ['providerParams not an object', musicB({ providerParams: 'V6' }), invalid('providerParams')],
  ]);
});

describe('POST /v1/music/cover: rules', () => {
  ruleTable('coverMusic', [
    ['custom mode with style, title and prompt', musicCoverBody(), 'ok'],
    ['custom mode without style', musicCoverBody({ style: undefined }), invalid('style', 'custom mode')],
    ['custom mode without title', musicCoverBody({ title: undefined }), invalid('title')],
    ['custom mode with a blank title', musicCoverBody({ title: '  ' }), invalid('title')],
    ['custom mode without prompt', musicCoverBody({ prompt: undefined }), invalid('prompt', 'instrumental')],
    ['custom mode instrumental without prompt', musicCoverBody({ prompt: undefined, instrumental: true }), 'ok'],
    ['customMode false with prompt only', { uploadUrl: 'https://example.com/a.mp3', customMode: false, prompt: 'a bossa nova take' }, 'ok'],
    ['customMode false without prompt', { uploadUrl: 'https://example.com/a.mp3', customMode: false, style: 'jazz' }, invalid('prompt')],
    ['personaId in custom mode', musicCoverBody({ providerParams: { personaId: 'persona_1', personaModel: 'V6' } }), 'ok'],
    [
      'personaId with customMode false',
      { uploadUrl: 'https://example.com/a.mp3', customMode: false, prompt: 'x', providerParams: { personaId: 'persona_1' } },
      invalid('providerParams.personaId', 'custom mode'),
    ],
    ['uploadUrl missing', musicCoverBody({ uploadUrl: undefined }), invalid('uploadUrl')],
    ['uploadUrl not a URL', musicCoverBody({ uploadUrl: 'demo.mp3' }), invalid('uploadUrl')],
    ['uploadUrl ftp', musicCoverBody({ uploadUrl: 'ftp://example.com/demo.mp3' }), invalid('uploadUrl', 'http')],
    ...musicBModels.map((x): Case => [`model ${x.model}`, musicCoverBody({ model: x.model }), 'ok']),
    ['model auto (musicA)', musicCoverBody({ model: 'auto' }), badModel('model')],
    ['styleWeight 2', musicCoverBody({ providerParams: { styleWeight: 2 } }), invalid('providerParams.styleWeight')],
  ]);
});

// ---------------------------------------------------------------------------
// Providers and models
// ---------------------------------------------------------------------------

describe('provider routing: the task reports the provider that ran it, and the tier it is priced on', () => {
  let m: TestMock;
  beforeEach(async () => {
    m = await start();
  });

  it.each([
    ['omitted', musicBody(), 'musicA', 'auto', 1],
    ['default', musicBody({ provider: 'default' }), 'musicA', 'auto', 1],
    ['musicA', musicBody({ provider: 'musicA' }), 'musicA', 'auto', 1],
    ['musicB', musicB(), 'musicB', 'V6', 2],
  ])('provider %s: the task reports the provider that ran it, its default model and its tracks', async (_n, body, provider, model, tracks) => {
    const id = await create(m, 'generateMusic', body);
    await m.advance(DONE_MS);
    const t = await getTask(m, id);
    expect(t).toMatchObject({ provider, taskType: 'GENERATE', status: 'success' });
    expect(t.params.model).toBe(model);
    expect(t.tracks).toHaveLength(tracks);
  });

  it('params echo the request: musicA with vocalId; musicB with customMode (default true) and only the listed providerParams', async () => {
    const a = await create(m, 'generateMusic', musicBody({ vocalId: 'voc_1', style: 'indie' }));
    expect((await getTask(m, a)).params).toEqual({
      model: 'auto',
      prompt: 'warm indie pop, acoustic guitar, hand claps',
      instrumental: false,
      lyrics: musicBody().lyrics,
      style: 'indie',
      title: 'Open Windows',
      vocalId: 'voc_1',
    });
    const b = await create(m, 'generateMusic', musicB({ model: 'V4_5', providerParams: { vocalGender: 'm', tempo: 90, bpm: 'fast', styleWeight: 0.7 } }));
    expect((await getTask(m, b)).params).toEqual({
      model: 'V4_5',
      prompt: '[Verse]\nRain on the harbor',
      instrumental: false,
      customMode: true,
      providerParams: { vocalGender: 'm', styleWeight: 0.7 },
    });
    const c = await create(m, 'generateMusic', musicB({ customMode: false, providerParams: { unknown: 1 } }));
    expect((await getTask(m, c)).params).toEqual({ model: 'V6', prompt: '[Verse]\nRain on the harbor', instrumental: false, customMode: false });
  });

  it('style is the fallback for a missing prompt: the echo shows it as the prompt used; a prompt sent wins', async () => {
    const { prompt: _omit, ...noPrompt } = musicBody({ style: 'lo-fi jazz' });
    const a = await create(m, 'generateMusic', noPrompt);
    expect((await getTask(m, a)).params).toMatchObject({ prompt: 'lo-fi jazz', style: 'lo-fi jazz' });
    const b = await create(m, 'generateMusic', musicBody({ style: 'lo-fi jazz' }));
    expect((await getTask(m, b)).params).toMatchObject({ prompt: 'warm indie pop, acoustic guitar, hand claps', style: 'lo-fi jazz' });
  });

  it('the title is the one sent, else the first sung line of the lyrics (musicB: of the prompt read as lyrics)', async () => {
    const ids = [
      await create(m, 'generateMusic', musicBody()),
      await create(m, 'generateMusic', musicBody({ title: undefined })),
      await create(m, 'generateMusic', musicB()),
      await create(m, 'generateMusic', musicBody({ lyrics: undefined, instrumental: true, style: 'dub techno' })),
    ];
    await m.advance(DONE_MS);
    const [a, b, c, d] = await Promise.all(ids.map((id) => getTask(m, id)));
    expect(a.tracks[0].title).toBe('Open Windows');
    expect(b.tracks[0].title).toBe('Summer roads and open windows');
    expect(c.tracks.map((t) => t.title)).toEqual(['Rain on the harbor', 'Rain on the harbor']);
    expect(d.tracks[0].tags).toBe('dub techno');
    expect(a.tracks[0].tags).toMatch(/^[\w -]+(, [\w -]+)+$/);
  });
});

// ---------------------------------------------------------------------------
// Money: every price of the tables, on the ledger
// ---------------------------------------------------------------------------

/** Creates with `body`, lets it finish, and asserts the ledger (reserve at creation, capture at success), creditCost and params.model. */
async function expectPrice(m: TestMock, op: OperationId, body: Body | FormData, credits: number, model: string) {
  const id = await create(m, op, body);
  expect(await ledgerOf(m, id)).toEqual([['reserve', -credits]]);
  expect((await getTask(m, id)).creditCost, 'creditCost is 0 until success').toBe(0);
  await m.advance(DONE_MS);
  const t = await getTask(m, id);
  expect(t).toMatchObject({ status: 'success', creditCost: credits });
  expect(t.params.model).toBe(model);
  expect(await ledgerOf(m, id)).toEqual([
    ['reserve', -credits],
    ['capture', 0],
  ]);
  return t;
}

describe('prices (document 3, "Providers and models": by model tier; extend by its own table)', () => {
  let m: TestMock;
  beforeEach(async () => {
    m = await start();
  });

  const generateCases = [
    ...musicAModels.map((x) => ['musicA', x.model, x.credits] as const),
    ...musicBModels.map((x) => ['musicB', x.model, x.credits] as const),
  ];
  it.each(generateCases)('generate on %s %s: %i credits', async (provider, model, credits) => {
    await expectPrice(m, 'generateMusic', provider === 'musicA' ? musicBody({ model }) : musicB({ model }), credits, model);
    expect((await account(m)).credits).toBe(OPENING - credits);
  });

  it('generate without model: auto on musicA (10), V6 on musicB (20)', async () => {
    await expectPrice(m, 'generateMusic', musicBody(), 10, 'auto');
    await expectPrice(m, 'generateMusic', musicB(), 20, 'V6');
  });

  it.each(musicBModels.map((x) => [x.model, x.credits] as const))('cover on %s: %i credits', async (model, credits) => {
    await expectPrice(m, 'coverMusic', musicCoverBody({ model }), credits, model);
  });

  it('cover without model: V6, 20 credits', async () => {
    await expectPrice(m, 'coverMusic', musicCoverBody(), 20, 'V6');
  });

  const extendCases: [provider: 'musicA' | 'musicB', model: string | undefined, credits: number, ranOn: string][] = [
    ['musicA', undefined, 10, 'musicA-7.6'],
    ['musicA', 'auto', 10, 'musicA-7.6'],
    ['musicA', 'musicA-7.6', 10, 'musicA-7.6'],
    ['musicA', 'musicA-8', 15, 'musicA-8'],
    ['musicA', 'musicA-9', 15, 'musicA-9'],
    ['musicA', 'musicA-o2', 15, 'musicA-o2'],
    ['musicB', undefined, 15, 'V6'],
    ...musicBModels.map((x): ['musicB', string, number, string] => ['musicB', x.model, 15, x.model]),
  ];
  it.each(extendCases)('extend of a %s song on model %s: %i credits (priced on %s)', async (provider, model, credits, ranOn) => {
    const { taskId } = await musicSong(m, undefined, provider === 'musicA' ? musicBody() : musicB());
    await expectPrice(m, 'extendMusic', musicForm({ taskId, ...(model ? { model } : {}) }), credits, ranOn);
  });

  it('a short balance: 402 (39003), nothing reserved; the exact price is enough', async () => {
    await setCredits(m, 19);
    expectError(await send(m, 'generateMusic', musicB()), fails('MUSIC_INSUFFICIENT_CREDITS', '20', '19'));
    expectError(await send(m, 'coverMusic', musicCoverBody()), 'MUSIC_INSUFFICIENT_CREDITS');
    await expectNothingReserved(m, 19);
    await setCredits(m, 20);
    await create(m, 'generateMusic', musicB());
    expect((await account(m)).credits).toBe(0);
  });
});

// ---------------------------------------------------------------------------
// Lifecycle
// ---------------------------------------------------------------------------
