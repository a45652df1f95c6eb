/**
 * Page-deck episodes on the manual clock (document 3, "Page-deck episode (GET
 * result)", "Page-deck episodes (prefix /v1/storybook)", "States and
 * transitions", "Limits"): the request rules; every mode from pending to
 * success with its pages (page 1 the cover, slides 80-100 words), images,
 * narration whose pages start at their audioTimestamp; skipAudio; the video
 * render (refused before success, idempotent while pending and after
 * success, retried after a failure) and its MP4 showing each page from its
 * timestamp; forcing, timeouts and refunds in the ledger; owner scoping.
 */
import { spawnSync } from 'node:child_process';
import { beforeEach, describe, expect, it } from 'vitest';
import { errorCatalog, type ErrorName } from '../schemas/errors.ts';
import {
  storybookCredits,
  storybookModePlans,
  storybookModes,
  storybookProcessingMs,
  storybookSchedule,
  storybookVideo,
  storybookVideoCredits,
} from '../schemas/storybook.ts';
import { decodeAudio, mp3Frames, parseMp4 as parseMp4File, pngSize } from '../verify/decoders.ts';
import { type Body, pathOf, storybookBody } from './factories.ts';
import { type CallResult, OTHER_KEY, type TestMock, useMocks } from './helpers.ts';

const start = useMocks();
let m: TestMock;
beforeEach(async () => {
  m = await start();
});

const MINUTE = 60_000;
const FRAME_MS = 24;

function expectError(r: CallResult, name: ErrorName) {
  const e = errorCatalog[name];
  expect(r.status, r.text).toBe(e.httpStatus);
  expect(r.json, r.text).toEqual({ code: e.code, message: expect.any(String), data: null });
}

const create = async (body: Body = storybookBody(), headers: Record<string, string> = {}) => {
  const r = await m.call('POST', pathOf('createStorybookEpisode'), { body, headers });
  expect(r.status, r.text).toBe(200);
  expect(r.json.data).toEqual({ episodeId: expect.stringMatching(/^sb_/) });
  return r.json.data.episodeId as string;
};
const get = async (id: string) => {
  const r = await m.call('GET', pathOf('getStorybookEpisode', { episodeId: id }));
  expect(r.status, r.text).toBe(200);
  return r.json.data;
};
const video = (id: string, headers: Record<string, string> = {}) => m.call('POST', pathOf('createStorybookVideo', { episodeId: id }), { headers });
const load = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
};
const ledgerOf = async (id: string) =>
  ((await m.call('GET', `/__mock/accounts/mg_test_secret1`, { key: null })).json.ledger as { type: string; amount: number; taskId: string }[])
    .filter((e) => e.taskId === id)
    .map((e) => e.type);
const words = (s: string) => s.split(/\s+/).filter(Boolean).length;

/** An MP4 parsed by mp4box: its duration (ms), its video track's size and sync-sample start times (ms), its audio track's codec. */
async function parseMp4(bytes: Uint8Array) {
  const { movie, samples } = await parseMp4File(bytes);
  const v = movie.videoTracks[0];
  const a = movie.audioTracks[0];
  return {
    durationMs: (movie.duration / movie.timescale) * 1000,
    video: v && {
      width: v.video!.width,
      height: v.video!.height,
      syncSampleTimesMs: (samples.get(v.id) ?? []).filter((x) => x.is_sync).map((x) => (x.cts / x.timescale) * 1000),
    },
    audio: a && { codec: a.codec },
  };
}

describe('request rules', () => {
  const text = (content: string) => ({ sources: [{ type: 'text', content }] });
  it.each([
    ['no source', { sources: [] }, 'sources'],
    ['two sources', { sources: [text('a').sources[0], text('b').sources[0]] }, 'sources'],
    ['a source of another type', { sources: [{ type: 'pdf', content: 'x' }] }, 'sources'],
    ['a blank text', text('   '), 'sources[0].content'],
    ['a text over 20,000 characters', text('a'.repeat(20_001)), 'sources[0].content'],
    ['a url source whose content is not a URL', { sources: [{ type: 'url', content: 'example.com/page' }] }, 'sources[0].content'],
    ['no speakers without skipAudio', { speakers: undefined }, 'speakers'],
    ['an empty speakers array without skipAudio', { speakers: [] }, 'speakers'],
    ['two speakers', { speakers: [{ speakerId: 'en_ava' }, { speakerId: 'en_noah' }] }, 'speakers'],
    ['an unknown mode', { mode: 'poster' }, 'mode'],
    ['a language that is not a language code', { language: 'en us!' }, 'language'],
    ['a style over 64 characters', { style: 's'.repeat(65) }, 'style'],
  ])('%s -> 400 (40001) naming %s, nothing reserved', async (_what, over, field) => {
    const r = await m.call('POST', pathOf('createStorybookEpisode'), { body: storybookBody(over) });
    expectError(r, 'STORYBOOK_INVALID_PARAMETERS');
    expect(r.json.message).toContain(field);
  });

  it.each([
    ['skipAudio without speakers', { skipAudio: true, speakers: undefined }],
    [
      'a url source (uri ignored) with metadata',
      { sources: [{ type: 'url', content: 'https://example.com/blog/why-mocks', uri: 'ignored', metadata: { a: 1 } }] },
    ],
    ['any style id', { style: 'watercolour-2' }],
    // document 3: languages "for example en, zh", an open list (another language's deck is written in English)
    ['a language outside en, zh and ja', { language: 'fr' }],
    ['a text of exactly 20,000 characters', text('a '.repeat(10_000))],
  ])('accepted: %s', async (_what, over) => {
    await create(storybookBody(over));
  });

  it('an unknown speaker -> 400 (40003) naming it; a short balance -> 402 (40004); nothing reserved', async () => {
    const r = await m.call('POST', pathOf('createStorybookEpisode'), { body: storybookBody({ speakers: [{ speakerId: 'xx_ghost' }] }) });
    expectError(r, 'STORYBOOK_SPEAKER_NOT_FOUND');
    expect(r.json.message).toContain('speakers[0].speakerId');
    await m.call('PUT', '/__mock/accounts/mg_test_secret1', { key: null, body: { credits: 3 } });
    expectError(await m.call('POST', pathOf('createStorybookEpisode'), { body: storybookBody() }), 'STORYBOOK_INSUFFICIENT_CREDITS');
    expect((await m.call('GET', '/__mock/accounts/mg_test_secret1', { key: null })).json.credits).toBe(3);
  });
});

describe('every mode: pending, then success with pages, images and narration', () => {
  it.each(storybookModes)('%s', async (mode) => {
    const plan = storybookModePlans[mode];
    const id = await create(storybookBody({ mode }));
    const pending = await get(id);
    expect(pending).toEqual({
      episodeId: id,
      createdAt: 1767225600, // epoch seconds (assumed), as the seed's samples
      mode,
      processStatus: 'pending',
      videoStatus: 'not_generated',
      credits: 0,
      message: expect.any(String),
      videoUrl: '',
    });
    await m.advance(10 * MINUTE);
    const ep = await get(id);
    expect(ep).toMatchObject({ processStatus: 'success', videoStatus: 'not_generated', message: 'done', videoUrl: '' });
    expect(ep.pages).toHaveLength(plan.pages);
    expect(ep.pages.map((p: { pageNumber: number }) => p.pageNumber)).toEqual(Array.from({ length: plan.pages }, (_, i) => i + 1));
    expect(ep.title).toContain('Mock servers');
    expect(ep.pages[0].text.startsWith(ep.title.replace(/…$/u, ''))).toBe(true); // page 1: the cover or title page
    for (const p of ep.pages) {
      expect(words(p.text), p.text).toBeGreaterThanOrEqual(plan.words.min);
      expect(words(p.text), p.text).toBeLessThanOrEqual(plan.words.max);
    }
    // the price: per page plus the narration, captured on success
    const narrated = ep.pages.reduce((n: number, p: { text: string }) => n + [...p.text].length, 0);
    expect(ep.credits).toBe(storybookCredits(mode, plan.pages, narrated));
    expect(await ledgerOf(id)).toEqual(['reserve', 'capture']);
    // the schedule: 2-5 minutes
    const audioMs = ep.audioDuration * 1000;
    const done = storybookProcessingMs(plan.pages, audioMs);
    expect(done).toBeGreaterThanOrEqual(2 * MINUTE);
    expect(done).toBeLessThanOrEqual(5 * MINUTE);

    // every image a PNG of the mode's size; the cover is page 1's
    expect(ep.cover).toBe(ep.pages[0].imageUrl);
    const images = await Promise.all(ep.pages.map((p: { imageUrl: string }) => load(p.imageUrl)));
    for (const img of images) {
      expect(img.headers.get('content-type')).toBe('image/png');
      expect(pngSize(img.bytes)).toEqual(plan.image);
    }
    expect(new Set(images.map((i) => Buffer.from(i.bytes).toString('base64'))).size, 'each page its own picture').toBe(plan.pages);

    // the narration: its decoded length is audioDuration; each page starts at its audioTimestamp, increasing, within the audio
    const mp3 = await load(ep.audioUrl);
    const frames = mp3Frames(mp3.bytes);
    expect(frames.length * FRAME_MS).toBe(audioMs);
    expect(Math.abs((await decodeAudio(mp3.bytes, 'mp3')).durationMs - audioMs)).toBeLessThanOrEqual(FRAME_MS / 2);
    const stamps = ep.pages.map((p: { audioTimestamp: number }) => p.audioTimestamp * 1000);
    expect(stamps[0]).toBe(0);
    for (let i = 1; i < stamps.length; i++) {
      expect(stamps[i]).toBeGreaterThan(stamps[i - 1]);
      expect(stamps[i] % FRAME_MS, 'a page starts on a frame boundary').toBe(0);
    }
    expect(stamps.at(-1)).toBeLessThan(audioMs);
  });

  it('the narration of each page is in the speaker voice and page boundaries are where the timestamps say (a page = its own line of frames)', async () => {
    const id = await create(storybookBody({ mode: 'story' }));
    await m.advance(10 * MINUTE);
    const ep = await get(id);
    const frames = mp3Frames((await load(ep.audioUrl)).bytes);
    // the frames of page i run from its timestamp to the next one: each page's span is non-empty and they tile the audio
    const spans = ep.pages.map((p: { audioTimestamp: number }, i: number) => {
      const from = (p.audioTimestamp * 1000) / FRAME_MS;
      const to = i + 1 < ep.pages.length ? (ep.pages[i + 1].audioTimestamp * 1000) / FRAME_MS : frames.length;
      return to - from;
    });
    expect(spans.every((n: number) => n > 0)).toBe(true);
    expect(spans.reduce((a: number, b: number) => a + b, 0)).toBe(frames.length);
  });

  it('skipAudio: no narration: audioUrl "", audioDuration 0, every audioTimestamp 0; the price is pages only', async () => {
    const id = await create(storybookBody({ skipAudio: true, speakers: undefined, mode: 'slides' }));
    await m.advance(10 * MINUTE);
    const ep = await get(id);
    expect(ep).toMatchObject({ processStatus: 'success', audioUrl: '', audioDuration: 0 });
    expect(ep.pages.every((p: { audioTimestamp: number }) => p.audioTimestamp === 0)).toBe(true);
    expect(ep.credits).toBe(storybookCredits('slides', storybookModePlans.slides.pages, 0));
  });

  it('language zh writes Chinese pages; a url source reads a deterministic article of the URL', async () => {
    const zh = await create(
      storybookBody({ language: 'zh', speakers: [{ speakerId: 'zh_mei' }], sources: [{ type: 'url', content: 'https://example.com/why-mocks' }] }),
    );
    const again = await create(
      storybookBody({ language: 'zh', speakers: [{ speakerId: 'zh_mei' }], sources: [{ type: 'url', content: 'https://example.com/why-mocks' }] }),
    );
    await m.advance(10 * MINUTE);
    const [a, b] = [await get(zh), await get(again)];
    expect(a.pages[1].text).toMatch(/\p{Script=Han}/u);
    expect(a.title).toBe(b.title);
  });
});

describe('the video', () => {
  it('refused (409, 40006) before success; renders pending -> success; idempotent while pending and after success; charged once', async () => {
    const id = await create();
    const early = await video(id);
    expectError(early, 'STORYBOOK_VIDEO_NOT_ALLOWED');
    expect(early.json.message).toContain('pending');
    await m.advance(10 * MINUTE);
    const made = await get(id);
    const r = await video(id);
    expect(r.status, r.text).toBe(200);
    expect(r.json).toEqual({ code: 0, message: '', data: { success: true } });
    expect(await get(id)).toMatchObject({ videoStatus: 'pending', videoUrl: '', message: 'rendering the video' });
    expect((await video(id)).json.data).toEqual({ success: true });
    await m.advance(10 * MINUTE);
    const done = await get(id);
    const videoCredits = storybookVideoCredits(made.audioDuration * 1000);
    expect(done).toMatchObject({ videoStatus: 'success', videoUrl: `${m.base}/media/storybook/${id}/video.mp4`, credits: made.credits + videoCredits });
    expect((await video(id)).json.data).toEqual({ success: true });
    await m.advance(10 * MINUTE);
    expect((await get(id)).credits, 'no second render, no second charge').toBe(made.credits + videoCredits);
  });

  it('the MP4 lasts the narration, carries it as AAC, and cuts to a new picture (a sync sample) at each page timestamp', async () => {
    const id = await create(storybookBody({ mode: 'slides' }));
    await m.advance(10 * MINUTE);
    await video(id);
    await m.advance(10 * MINUTE);
    const ep = await get(id);
    const mp4 = await load(ep.videoUrl);
    expect(mp4.headers.get('content-type')).toBe('video/mp4');
    const parsed = await parseMp4(mp4.bytes);
    expect(parsed.video).toMatchObject({ width: storybookVideo.width, height: storybookVideo.height });
    expect(Math.abs(parsed.durationMs - ep.audioDuration * 1000)).toBeLessThanOrEqual(1);
    expect(parsed.audio?.codec).toMatch(/^mp4a/);
    // each page's first frame (the first frame starting at or after its timestamp) is a sync sample
    const frameMs = 100;
    const syncStarts = new Set(parsed.video.syncSampleTimesMs.map((t) => Math.round(t)));
    for (const p of ep.pages) expect(syncStarts.has(Math.ceil((p.audioTimestamp * 1000) / frameMs) * frameMs), `page ${p.pageNumber}`).toBe(true);
  });

  it.skipIf(spawnSync('ffmpeg', ['-version']).status !== 0)('(with ffmpeg, where installed) each page shows its own colours in the video', async () => {
    const id = await create(storybookBody({ mode: 'info' }));
    await m.advance(10 * MINUTE);
    await video(id);
    await m.advance(10 * MINUTE);
    const ep = await get(id);
    const mp4 = await load(ep.videoUrl);
    const file = `/tmp/storybook-${process.pid}.mp4`;
    (await import('node:fs')).writeFileSync(file, mp4.bytes);
    for (const p of ep.pages) {
      const at = p.audioTimestamp + 0.3;
      const out = spawnSync('ffmpeg', ['-v', 'error', '-ss', String(at), '-i', file, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], {
        maxBuffer: 16 << 20,
      });
      expect(out.status).toBe(0);
      const px = out.stdout.subarray((storybookVideo.width - 1) * 3, (storybookVideo.width - 1) * 3 + 3); // top-right: the background
      const png = await load(p.imageUrl);
      const { PNG } = await import('pngjs');
      const img = PNG.sync.read(Buffer.from(png.bytes));
      const bg = [...img.data.subarray((img.width - 1) * 4, (img.width - 1) * 4 + 3)];
      for (let c = 0; c < 3; c++) expect(Math.abs(px[c] - bg[c]), `page ${p.pageNumber} channel ${c}`).toBeLessThanOrEqual(3);
    }
    (await import('node:fs')).rmSync(file, { force: true });
  });

  it('forced: a failed render refunds the render and a new call renders again; a stalled one fails after 30 minutes (40011)', async () => {
    const id = await create();
    await m.advance(10 * MINUTE);
    const credits = (await get(id)).credits;
    expect((await video(id, { prefer: 'outcome=failed' })).status).toBe(200);
    await m.advance(10 * MINUTE);
    const failed = await get(id);
    expect(failed).toMatchObject({ processStatus: 'success', videoStatus: 'fail', videoUrl: '', credits });
    expect(failed.message).toContain('video render failed');
    expect((await video(id, { prefer: 'outcome=stuck' })).status).toBe(200);
    await m.advance(storybookSchedule.timeoutMs);
    expect((await get(id)).videoStatus).toBe('pending');
    await m.advance(1);
    expect((await get(id)).videoStatus).toBe('fail');
    expect((await video(id)).status).toBe(200);
    await m.advance(10 * MINUTE);
    expect((await get(id)).videoStatus).toBe('success');
  });

  it('skipAudio: a silent video of 5 s a page', async () => {
    const id = await create(storybookBody({ skipAudio: true, speakers: undefined }));
    await m.advance(10 * MINUTE);
    await video(id);
    await m.advance(10 * MINUTE);
    const parsed = await parseMp4((await load((await get(id)).videoUrl)).bytes);
    expect(parsed.durationMs).toBe(storybookModePlans.info.pages * storybookVideo.silentPageMs);
    expect(parsed.audio).toBeUndefined();
  });
});

describe('forcing, timeouts and owner scoping', () => {
  it.each([
    ['outcome=failed', 40008],
    ['outcome=failed, error=40010', 40010],
  ])('%s: fail with failCode %i, refunded; no video', async (prefer, failCode) => {
    const id = await create(storybookBody(), { prefer });
    await m.advance(10 * MINUTE);
    const ep = await get(id);
    expect(ep).toMatchObject({ processStatus: 'fail', failCode, credits: 0 });
    expect(ep.pages).toBeUndefined();
    expect(await ledgerOf(id)).toEqual(['reserve', 'release']);
    const r = await video(id);
    expectError(r, 'STORYBOOK_VIDEO_NOT_ALLOWED');
    expect(r.json.message).toContain(String(failCode));
  });

  it('outcome=stuck: pending until 30 minutes, then fail (40011), refunded', async () => {
    const id = await create(storybookBody(), { prefer: 'outcome=stuck' });
    await m.advance(storybookSchedule.timeoutMs);
    expect((await get(id)).processStatus).toBe('pending');
    await m.advance(1);
    expect(await get(id)).toMatchObject({ processStatus: 'fail', failCode: 40011 });
    expect(await ledgerOf(id)).toEqual(['reserve', 'release']);
  });

  it("another key's episode is not found (404, 40005) on GET and video; its media load without a key (for a player)", async () => {
    const id = await create();
    await m.advance(10 * MINUTE);
    expectError(await m.call('GET', pathOf('getStorybookEpisode', { episodeId: id }), { key: OTHER_KEY }), 'STORYBOOK_EPISODE_NOT_FOUND');
    expectError(await m.call('POST', pathOf('createStorybookVideo', { episodeId: id }), { key: OTHER_KEY }), 'STORYBOOK_EPISODE_NOT_FOUND');
    expect((await load((await get(id)).audioUrl)).status).toBe(200);
  });
});
