/**
 * Flow-speech episodes and the money of every speech endpoint on the manual
 * clock (document 2, "Flow-speech episode (GET result)", "POST
 * /v1/flow-speech/episodes", "POST /v1/flow-speech/episodes/tts", "GET
 * /v1/flow-speech/episodes/{episodeId}", "POST /v1/speech", "Limits"): pending
 * until `flowSpeechProcessingMs` of the audio, then success with its fields;
 * smart cleaning and direct verbatim narration; the inferred language; the
 * deterministic article of a url source; forced failures and the 30-minute
 * timeout with their failCodes; owner scoping; credits reserved, captured and
 * refunded (read on the control API's ledger); immediate charges and 402s of
 * the synchronous endpoints; `audioDuration` of /v1/speech from the
 * speaking-rate model in whole 24 ms MP3 frames.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { errorCatalog, type ErrorName } from '../schemas/errors.ts';
import { type OperationId } from '../schemas/operations.ts';
import { charCount, flowSpeechProcessingMs, flowSpeechSchedule, speechCredits, speechDurationMs } from '../schemas/speech.ts';
import { type Body, flowSpeechBody, flowSpeechTtsBody, pathOf, speechBody, ttsBody } from './factories.ts';
import { type CallResult, KEY, OTHER_KEY, type TestMock, useMocks } from './helpers.ts';

const start = useMocks();
let m: TestMock;
beforeEach(async () => {
  m = await start();
});

const OPENING = 10_000;
const FRAME_MS = 24; // one MP3 frame: 576 samples at 24 kHz
const MIN_FRAMES = 5;

/** What a line lasts in the audio: `speechDurationMs` to the nearest whole 24 ms frame, at least five frames. */
const lineMs = (text: string, speed = 1) => Math.max(MIN_FRAMES, Math.round(speechDurationMs(text, speed) / FRAME_MS)) * FRAME_MS;
/** What a script lasts: the sum over its lines. */
const scriptMs = (lines: string[], speed = 1) => lines.reduce((n, t) => n + lineMs(t, speed), 0);
/** Credits of a script: the price of its lines' characters together. */
const scriptCredits = (lines: string[]) => speechCredits(lines.reduce((n, t) => n + charCount(t), 0));

function expectError(r: CallResult, name: ErrorName) {
  const e = errorCatalog[name];
  expect(r.status, r.text).toBe(e.httpStatus);
  expect(r.json, r.text).toEqual({ code: e.code, message: expect.any(String), data: null });
}

async function create(op: 'createFlowSpeechEpisode' | 'createFlowSpeechTtsEpisode', body: Body, headers: Record<string, string> = {}, key = KEY) {
  const r = await m.call('POST', pathOf(op), { body, headers, key });
  expect(r.status, r.text).toBe(200);
  expect(r.json).toEqual({ code: 0, message: '', data: { episodeId: expect.any(String) } });
  return r.json.data.episodeId as string;
}
const narrate = (body: Body, headers: Record<string, string> = {}) => create('createFlowSpeechEpisode', body, headers);
const get = async (id: string, key = KEY) => {
  const r = await m.call('GET', pathOf('getFlowSpeechEpisode', { episodeId: id }), { key });
  expect(r.status, r.text).toBe(200);
  return r.json.data;
};

interface LedgerEntry {
  type: string;
  amount: number;
  balance: number;
  taskId: string | null;
}
const account = async (key = KEY): Promise<{ credits: number; ledger: LedgerEntry[] }> => (await m.call('GET', `/__mock/accounts/${key}`, { key: null })).json;
/** The ledger entries of `taskId`, as [type, amount]. */
const entriesOf = async (taskId: string) => (await account()).ledger.filter((e) => e.taskId === taskId).map((e) => [e.type, e.amount] as [string, number]);
const setCredits = async (credits: number, key = KEY) => {
  const r = await m.call('PUT', `/__mock/accounts/${key}`, { key: null, body: { credits } });
  expect(r.status, r.text).toBe(200);
};

const EN_TEXT = 'Mock servers let frontend teams work early. This one keeps its state.'; // the default flow-speech text (already clean)

// ---------------------------------------------------------------------------
// Lifecycle
// ---------------------------------------------------------------------------

describe('lifecycle on the manual clock', () => {
  it.each([
    ['narration, speed 1', 'createFlowSpeechEpisode', flowSpeechBody(), [EN_TEXT], 1],
    ['narration, speed 2', 'createFlowSpeechEpisode', flowSpeechBody({ speed: 2 }), [EN_TEXT], 2],
    ['narration, direct, speed 0.5', 'createFlowSpeechEpisode', flowSpeechBody({ mode: 'direct', speed: 0.5 }), [EN_TEXT], 0.5],
    ['multi-voice script', 'createFlowSpeechTtsEpisode', flowSpeechTtsBody(), ['Hello there.', 'Hi, how are you?'], 1],
    [
      'multi-voice script with Chinese, speed 1.25',
      'createFlowSpeechTtsEpisode',
      flowSpeechTtsBody({
        speed: 1.25,
        scripts: [
          { speakerId: 'zh_mei', content: '你好，欢迎收听。' },
          { speakerId: 'zh_wei', content: '谢谢，很高兴来到这里。' },
          { speakerId: 'zh_mei', content: '我们开始吧。' },
        ],
      }),
      ['你好，欢迎收听。', '谢谢，很高兴来到这里。', '我们开始吧。'],
      1.25,
    ],
  ] as [string, 'createFlowSpeechEpisode' | 'createFlowSpeechTtsEpisode', Body, string[], number][])(
    '%s: pending until flowSpeechProcessingMs(duration), then success with every field',
    async (_n, op, body, lines, speed) => {
      const t0 = m.engine.clock.now();
      const id = await create(op, body);
      expect(id).toMatch(/^fs_/);
      expect(await get(id)).toEqual({ episodeId: id, createdAt: t0, processStatus: 'pending' });
      const processing = flowSpeechProcessingMs(scriptMs(lines, speed));
      await m.advance(processing - 1);
      expect(await get(id)).toEqual({ episodeId: id, createdAt: t0, processStatus: 'pending' });
      await m.advance(1);
      const done = await get(id);
      expect(done).toEqual({
        episodeId: id,
        createdAt: t0,
        processStatus: 'success',
        completedTime: t0 + processing,
        title: expect.any(String),
        outline: expect.any(String),
        cover: expect.stringMatching(/\.png$/),
        audioUrl: expect.stringMatching(/\.mp3$/),
        audioStreamUrl: expect.stringMatching(/\.m3u8$/),
        subtitlesUrl: expect.stringMatching(/\.srt$/),
        scripts: lines.join('\n'),
      });
      for (const url of [done.cover, done.audioUrl, done.audioStreamUrl, done.subtitlesUrl]) expect(url.startsWith(`${m.base}/`), url).toBe(true);
      expect(done.title.length).toBeGreaterThan(0);
      // nothing changes afterwards
      await m.advance(flowSpeechSchedule.timeoutMs);
      expect(await get(id)).toEqual(done);
    },
  );

  it('title: the first sentence; outline: one numbered line per sentence', async () => {
    const id = await narrate(flowSpeechBody({ sources: [{ type: 'text', content: 'First point here. Second point there! Third one?' }] }));
    await m.advance(60_000);
    expect(await get(id)).toMatchObject({
      processStatus: 'success',
      title: 'First point here',
      outline: '1. First point here.\n2. Second point there!\n3. Third one?',
    });
  });

  it('two episodes run independently; each GET shows its own', async () => {
    const short = await narrate(flowSpeechBody({ mode: 'direct', sources: [{ type: 'text', content: 'Short one.' }] }));
    const long = await narrate(flowSpeechBody({ mode: 'direct', sources: [{ type: 'text', content: 'word '.repeat(300).trim() }] }));
    expect(short).not.toBe(long);
    const shortMs = flowSpeechProcessingMs(lineMs('Short one.'));
    const longMs = flowSpeechProcessingMs(lineMs('word '.repeat(300).trim()));
    expect(longMs).toBeGreaterThan(shortMs);
    await m.advance(shortMs);
    expect((await get(short)).processStatus).toBe('success');
    expect((await get(long)).processStatus).toBe('pending');
    await m.advance(longMs - shortMs);
    expect((await get(long)).processStatus).toBe('success');
  });
});

// ---------------------------------------------------------------------------
// Narration: smart, direct, language, url sources
// ---------------------------------------------------------------------------

/** Creates a narration episode, lets it finish, returns it. */
async function narrated(body: Body) {
  const id = await narrate(body);
  await m.advance(10 * 60_000);
  const e = await get(id);
  expect(e.processStatus).toBe('success');
  return e;
}
const textBody = (content: string, over: Body = {}) => flowSpeechBody({ sources: [{ type: 'text', content }], ...over });

describe('smart mode cleans, direct mode reads verbatim', () => {
  const messy = 'hello   world!!  this is **bold** text';

  it('smart (the default): spaces collapsed, markdown marks and repeated punctuation dropped, sentences capitalised, a final stop', async () => {
    expect((await narrated(textBody(messy))).scripts).toBe('Hello world! This is bold text.');
    expect((await narrated(textBody(messy, { mode: 'smart' }))).scripts).toBe('Hello world! This is bold text.');
  });

  it('smart: headings, bullets and emphasis of markdown are not read', async () => {
    const md = '# Release notes\n\n- faster   startup\n- *fewer* bugs???\n\n> quoted `code` here';
    const s = (await narrated(textBody(md))).scripts as string;
    expect(s).not.toMatch(/[#*`>]|\?\?|\s{2}|\n|^- /);
    for (const words of ['release notes', 'faster startup', 'fewer bugs?', 'quoted code here']) expect(s.toLowerCase()).toContain(words);
    expect(s).toMatch(/[.!?]$/);
  });

  it('direct: the text exactly as written', async () => {
    const md = '# Release notes\n\n- faster   startup\n- *fewer* bugs???';
    expect((await narrated(textBody(messy, { mode: 'direct' }))).scripts).toBe(messy);
    expect((await narrated(textBody(md, { mode: 'direct' }))).scripts).toBe(md);
  });

  it('a multi-voice script episode is read verbatim, lines joined by newlines', async () => {
    const scripts = [
      { speakerId: 'en_ava', content: 'hello   there!!' },
      { speakerId: 'en_noah', content: '**not** cleaned' },
    ];
    const id = await create('createFlowSpeechTtsEpisode', flowSpeechTtsBody({ scripts }));
    await m.advance(60_000);
    expect((await get(id)).scripts).toBe('hello   there!!\n**not** cleaned');
  });
});

describe('language: inferred from the content when omitted', () => {
  it.each([
    ['ja (kana)', 'これはテストの文章です', undefined, '。'],
    ['ja (kana with Han characters)', '今日は天気がいいですね本当に', undefined, '。'],
    ['zh (Han characters)', '这是一个测试句子没有句号', undefined, '。'],
    ['en (Latin)', 'this is a test sentence', undefined, '.'],
    ['en given for a Chinese text', '这是一个测试句子没有句号', 'en', '.'],
    ['zh given for an English text', 'this is a test sentence', 'zh', '。'],
    ['ja given for an English text', 'this is a test sentence', 'ja', '。'],
  ])('%s: smart mode ends the narration with the stop of that language', async (_n, content, language, stop) => {
    const s = (await narrated(textBody(content, language ? { language } : {}))).scripts as string;
    expect(s.endsWith(stop), s).toBe(true);
    expect(s.slice(0, -1).toLowerCase()).toBe(content.toLowerCase());
  });

  it('Chinese and Japanese characters last 250 ms each (the narration and its timing agree)', async () => {
    const content = '这是一个测试句子没有句号';
    const id = await narrate(textBody(content, { mode: 'direct' }));
    const t0 = m.engine.clock.now();
    const processing = flowSpeechProcessingMs(lineMs(content));
    expect(speechDurationMs(content, 1)).toBe(charCount(content) * 250);
    await m.advance(processing - 1);
    expect((await get(id)).processStatus).toBe('pending');
    await m.advance(1);
    expect(await get(id)).toMatchObject({ processStatus: 'success', completedTime: t0 + processing, scripts: content });
  });

  it.each([
    ['ja', /[\p{Script=Hiragana}\p{Script=Katakana}]/u, true],
    ['zh', /[\p{Script=Hiragana}\p{Script=Katakana}]/u, false],
    ['en', /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u, false],
  ] as const)('a url source in %s narrates an article in that language', async (language, script, has) => {
    const e = await narrated(flowSpeechBody({ language, sources: [{ type: 'url', uri: 'https://example.com/blog/mock-servers' }] }));
    expect(script.test(e.scripts), e.scripts).toBe(has);
    if (language === 'zh') expect(e.scripts).toMatch(/\p{Script=Han}/u);
  });
});

describe('url sources: a deterministic article derived from the URL', () => {
  const urlBody = (uri: string) => flowSpeechBody({ sources: [{ type: 'url', uri }] });

  it('the same URL gives the same narration on two fresh mocks with the same seed; another URL another one', async () => {
    const first = await narrated(urlBody('https://example.com/blog/mock-servers'));
    const other = await narrated(urlBody('https://example.com/blog/contract-testing'));
    m = await start();
    const again = await narrated(urlBody('https://example.com/blog/mock-servers'));
    expect(again.scripts).toBe(first.scripts);
    expect(again.title).toBe(first.title);
    expect(again.outline).toBe(first.outline);
    expect(other.scripts).not.toBe(first.scripts);
    expect(first.scripts.length).toBeGreaterThan(0);
  });

  it('the address in content reads the same article as the address in uri', async () => {
    const a = await narrated(urlBody('https://example.com/news/today'));
    const b = await narrated(flowSpeechBody({ sources: [{ type: 'url', content: 'https://example.com/news/today' }] }));
    expect(b.scripts).toBe(a.scripts);
  });

  it('its schedule and price follow the narrated text', async () => {
    const t0 = m.engine.clock.now();
    const id = await narrate(flowSpeechBody({ speed: 1.5, sources: [{ type: 'url', uri: 'https://example.com/a/b/c' }] }));
    await m.advance(10 * 60_000);
    const e = await get(id);
    expect(e.completedTime - t0).toBe(flowSpeechProcessingMs(lineMs(e.scripts, 1.5)));
    expect(await entriesOf(id)).toEqual([
      ['reserve', -speechCredits(charCount(e.scripts))],
      ['capture', 0],
    ]);
  });
});

// ---------------------------------------------------------------------------
// Forced failures, the timeout, owner scoping
// ---------------------------------------------------------------------------

describe('forced failures and the 30-minute timeout', () => {
  it.each([
    ['outcome=failed', 35008],
    ['outcome=failed, error=35008', 35008],
    ['outcome=failed, error=35009', 35009],
    ['outcome=failed, error=35010', 35010],
  ])('narration, Prefer: %s: pending, then fail with failCode %i, refunded, no result fields', async (prefer, failCode) => {
    const t0 = m.engine.clock.now();
    const id = await narrate(flowSpeechBody(), { prefer });
    expect(await get(id)).toEqual({ episodeId: id, createdAt: t0, processStatus: 'pending' });
    const credits = speechCredits(charCount(EN_TEXT));
    expect((await account()).credits).toBe(OPENING - credits);
    await m.advance(flowSpeechProcessingMs(lineMs(EN_TEXT)));
    const e = await get(id);
    expect(e).toEqual({ episodeId: id, createdAt: t0, processStatus: 'fail', failCode, completedTime: expect.any(Number) });
    expect(e.completedTime).toBeGreaterThanOrEqual(t0);
    expect(e.completedTime).toBeLessThanOrEqual(m.engine.clock.now());
    expect(await entriesOf(id)).toEqual([
      ['reserve', -credits],
      ['release', credits],
    ]);
    expect((await account()).credits).toBe(OPENING);
  });

  it.each([
    ['outcome=failed', 35008],
    ['outcome=failed, error=35009', 35009],
  ])('multi-voice script, Prefer: %s: fail with failCode %i, refunded', async (prefer, failCode) => {
    const id = await create('createFlowSpeechTtsEpisode', flowSpeechTtsBody(), { prefer });
    await m.advance(10 * 60_000);
    expect(await get(id)).toMatchObject({ processStatus: 'fail', failCode });
    expect((await account()).credits).toBe(OPENING);
  });

  it.each([
    ['narration', 'createFlowSpeechEpisode', flowSpeechBody()],
    ['multi-voice script', 'createFlowSpeechTtsEpisode', flowSpeechTtsBody()],
  ] as const)('%s, Prefer: outcome=stuck: pending for 30 minutes, then fail with failCode 35011, refunded', async (_n, op, body) => {
    const t0 = m.engine.clock.now();
    const id = await create(op, body, { prefer: 'outcome=stuck' });
    const [reserve] = await entriesOf(id);
    expect(reserve[0]).toBe('reserve');
    await m.advance(flowSpeechSchedule.timeoutMs - 1);
    expect(await get(id)).toEqual({ episodeId: id, createdAt: t0, processStatus: 'pending' });
    expect((await account()).credits).toBe(OPENING + reserve[1]);
    await m.advance(2);
    const e = await get(id);
    expect(e).toEqual({ episodeId: id, createdAt: t0, processStatus: 'fail', failCode: 35011, completedTime: expect.any(Number) });
    expect(e.completedTime).toBeGreaterThanOrEqual(t0 + flowSpeechSchedule.timeoutMs - 1);
    expect(await entriesOf(id)).toEqual([reserve, ['release', -reserve[1]]]);
    expect((await account()).credits).toBe(OPENING);
  });

  it('a failure that cannot be forced on an episode (35011, a timeout) is refused with 10007', async () => {
    const r = await m.call('POST', pathOf('createFlowSpeechEpisode'), { body: flowSpeechBody(), headers: { prefer: 'outcome=failed, error=35011' } });
    expectError(r, 'INVALID_PREFER');
    expect((await account()).credits).toBe(OPENING);
  });
});

describe('owner scoping', () => {
  it("another key's GET answers 404 (35006), not the episode; an unknown id 35006", async () => {
    const id = await narrate(flowSpeechBody());
    const other = await m.call('GET', pathOf('getFlowSpeechEpisode', { episodeId: id }), { key: OTHER_KEY });
    expectError(other, 'SPEECH_EPISODE_NOT_FOUND');
    expect(other.text).not.toContain('processStatus');
    await m.advance(60_000);
    expectError(await m.call('GET', pathOf('getFlowSpeechEpisode', { episodeId: id }), { key: OTHER_KEY }), 'SPEECH_EPISODE_NOT_FOUND');
    expectError(await m.call('GET', pathOf('getFlowSpeechEpisode', { episodeId: 'fs_0000000000000000' })), 'SPEECH_EPISODE_NOT_FOUND');
    expectError(await m.call('GET', pathOf('getFlowSpeechEpisode', { episodeId: 'nope' })), 'SPEECH_EPISODE_NOT_FOUND');
    // the owner still sees it, and the other key was charged nothing
    expect((await get(id)).processStatus).toBe('success');
    expect((await account(OTHER_KEY)).credits).toBe(OPENING);
  });

  it("the other key's episode ids are its own", async () => {
    const mine = await narrate(flowSpeechBody());
    const theirs = await create('createFlowSpeechEpisode', flowSpeechBody(), {}, OTHER_KEY);
    expect(theirs).not.toBe(mine);
    expect((await get(theirs, OTHER_KEY)).episodeId).toBe(theirs);
    expectError(await m.call('GET', pathOf('getFlowSpeechEpisode', { episodeId: theirs })), 'SPEECH_EPISODE_NOT_FOUND');
  });
});

// ---------------------------------------------------------------------------
// Money
// ---------------------------------------------------------------------------

describe('money: episodes reserve at creation, capture on success, refund on failure', () => {
  const direct250 = textBody('abcd '.repeat(50), { mode: 'direct' }); // 250 characters read verbatim: 3 credits

  it('narration: speechCredits(narrated characters) reserved at create, captured at success', async () => {
    const credits = speechCredits(250);
    expect(credits).toBe(3);
    const id = await narrate(direct250);
    expect(await entriesOf(id)).toEqual([['reserve', -credits]]);
    expect((await account()).credits).toBe(OPENING - credits);
    await m.advance(flowSpeechProcessingMs(lineMs('abcd '.repeat(50))));
    expect((await get(id)).processStatus).toBe('success');
    expect(await entriesOf(id)).toEqual([
      ['reserve', -credits],
      ['capture', 0],
    ]);
    expect((await account()).credits).toBe(OPENING - credits);
  });

  it('smart mode: priced on the cleaned narration', async () => {
    const content = `${'word '.repeat(20)}!!!!!!!!!!`; // 110 characters as sent; the narration "Word word ... word!" is 100
    const e = await narrated(textBody(content));
    expect(charCount(e.scripts)).toBe(100);
    expect(await entriesOf(e.episodeId)).toEqual([
      ['reserve', -speechCredits(100)],
      ['capture', 0],
    ]);
  });

  it('multi-voice script: the price of its lines together', async () => {
    const lines = ['a'.repeat(150), 'b'.repeat(100)];
    const id = await create(
      'createFlowSpeechTtsEpisode',
      flowSpeechTtsBody({ scripts: lines.map((content, i) => ({ speakerId: i ? 'en_noah' : 'en_ava', content })) }),
    );
    expect(await entriesOf(id)).toEqual([['reserve', -scriptCredits(lines)]]);
    expect(scriptCredits(lines)).toBe(3);
    await m.advance(60_000);
    expect(await entriesOf(id)).toEqual([
      ['reserve', -3],
      ['capture', 0],
    ]);
    expect((await account()).credits).toBe(OPENING - 3);
  });

  it('the ledger sums to the balance after successes, failures and timeouts', async () => {
    await narrate(direct250);
    await narrate(direct250, { prefer: 'outcome=failed' });
    await narrate(direct250, { prefer: 'outcome=stuck' });
    await create('createFlowSpeechTtsEpisode', flowSpeechTtsBody(), { prefer: 'outcome=failed, error=35010' });
    await m.advance(flowSpeechSchedule.timeoutMs + 60_000);
    const acc = await account();
    expect(acc.ledger.reduce((n, e) => n + e.amount, 0)).toBe(acc.credits);
    expect(acc.credits).toBe(OPENING - 3);
  });
});

describe('money: the synchronous endpoints charge at once', () => {
  it.each([
    ['POST /v1/tts', 'synthesizeSpeech'],
    ['POST /v1/audio/speech', 'createSpeech'],
  ] as const)('%s: speechCredits(input characters), reserved and captured at once', async (_n, op) => {
    const r = await m.call('POST', pathOf(op), { body: ttsBody({ input: 'x'.repeat(250) }) });
    expect(r.status).toBe(200);
    const acc = await account();
    expect(acc.ledger.slice(1).map((e) => [e.type, e.amount])).toEqual([
      ['reserve', -3],
      ['capture', 0],
    ]);
    expect(acc.credits).toBe(OPENING - 3);
    // code points: 20,000 emoji cost what 20,000 letters cost
    expect((await m.call('POST', pathOf(op), { body: ttsBody({ input: '\u{1F600}'.repeat(20_000) }) })).status).toBe(200);
    expect((await account()).credits).toBe(OPENING - 3 - speechCredits(20_000));
  });

  it('POST /v1/speech: credits equals the ledger charge and the price of every line together', async () => {
    const lines = ['Hello there, this is the first line of the script.', 'x'.repeat(120), '第二行是中文。'];
    const r = await m.call('POST', pathOf('createSpeechScript'), {
      body: speechBody({ scripts: lines.map((content, i) => ({ speakerId: ['en_ava', 'en_noah', 'zh_mei'][i], content })) }),
    });
    expect(r.status, r.text).toBe(200);
    const d = r.json.data;
    expect(d.credits).toBe(scriptCredits(lines));
    expect(await entriesOf(d.taskId)).toEqual([
      ['reserve', -d.credits],
      ['capture', 0],
    ]);
    expect((await account()).credits).toBe(OPENING - d.credits);
  });
});

describe('money: a short balance answers 402 (35004) and charges nothing', () => {
  /** Each charging endpoint with a body priced at 3 credits. */
  const charging: [OperationId, Body][] = [
    ['synthesizeSpeech', ttsBody({ input: 'x'.repeat(250) })],
    ['createSpeech', ttsBody({ input: 'x'.repeat(201) })],
    [
      'createSpeechScript',
      speechBody({
        scripts: [
          { speakerId: 'en_ava', content: 'a'.repeat(150) },
          { speakerId: 'en_noah', content: 'b'.repeat(100) },
        ],
      }),
    ],
    ['createFlowSpeechEpisode', textBody('abcd '.repeat(50), { mode: 'direct' })],
    [
      'createFlowSpeechTtsEpisode',
      flowSpeechTtsBody({
        scripts: [
          { speakerId: 'en_ava', content: 'a'.repeat(150) },
          { speakerId: 'en_noah', content: 'b'.repeat(100) },
        ],
      }),
    ],
  ];

  it.each(charging)('%s', async (op, body) => {
    for (const credits of [0, 2]) {
      await setCredits(credits);
      const before = await account();
      expectError(await m.call('POST', pathOf(op), { body }), 'SPEECH_INSUFFICIENT_CREDITS');
      const after = await account();
      expect(after.credits).toBe(credits);
      expect(after.ledger).toEqual(before.ledger);
    }
    // exactly enough: accepted, the balance goes to 0
    await setCredits(3);
    const r = await m.call('POST', pathOf(op), { body });
    expect(r.status, r.text.slice(0, 200)).toBe(200);
    expect((await account()).credits).toBe(0);
  });
});

describe('POST /v1/speech: audioDuration is the sum over its lines in whole 24 ms frames', () => {
  it.each([
    ['the default script', ['Hello there.', 'Hi, how are you?'], 1],
    ['the default script at speed 2', ['Hello there.', 'Hi, how are you?'], 2],
    ['the default script at speed 0.5', ['Hello there.', 'Hi, how are you?'], 0.5],
    ['one-word lines (the 500 ms floor) at speed 1.25', ['Hi.', 'Yes.', 'No.'], 1.25],
    ['Chinese and Japanese lines', ['你好，欢迎收听我们的节目。', 'こんにちは、よろしくお願いします。'], 1],
    ['a long line and a short one at speed 1.33', ['word '.repeat(200).trim(), 'Done.'], 1.33],
    ['emoji only (no words: the floor)', ['\u{1F600}\u{1F600}\u{1F600}'], 1],
  ] as [string, string[], number][])('%s', async (_n, lines, speed) => {
    const speakers = ['en_ava', 'en_noah', 'ja_yui'];
    const r = await m.call('POST', pathOf('createSpeechScript'), {
      body: { scripts: lines.map((content, i) => ({ speakerId: speakers[i % 3], content })), speed },
    });
    expect(r.status, r.text).toBe(200);
    expect(r.json.data.audioDuration).toBe(scriptMs(lines, speed));
    expect(r.json.data.audioDuration % FRAME_MS).toBe(0);
    expect(r.json.data).toMatchObject({
      audioUrl: expect.stringMatching(/\.mp3$/),
      subtitlesUrl: expect.stringMatching(/\.srt$/),
      taskId: expect.any(String),
      credits: scriptCredits(lines),
    });
  });

  it('speed omitted is speed 1', async () => {
    const a = (await m.call('POST', pathOf('createSpeechScript'), { body: speechBody() })).json.data;
    const b = (await m.call('POST', pathOf('createSpeechScript'), { body: speechBody({ speed: 1 }) })).json.data;
    expect(a.audioDuration).toBe(b.audioDuration);
    expect(a.taskId).not.toBe(b.taskId);
  });
});
