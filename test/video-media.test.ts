/**
 * What a video task's URLs serve (document 1, "Video task": videoUrl, coverUrl,
 * providerVideoUrl, duration, resolution, ratio): an MP4 lasting the task's
 * duration at the pixel size of its resolution and ratio (assumed table
 * `videoPixels`), with an audio track exactly when the task has sound; a PNG
 * cover of the same size; the provider's copy from uploading on. Every media
 * URL answers Range requests; URLs follow the host the request named. Share
 * and delete (assumed shapes) are owner-scoped; a deleted task's media stop.
 */
import { describe, expect, it } from 'vitest';
import { errorCatalog, type ErrorName } from '../schemas/errors.ts';
import { videoPhases, videoPixels, type SharedVideoModelId } from '../schemas/video.ts';
import { parseMp4, pngSize } from '../verify/decoders.ts';
import { family5Body, imageBody, pathOf, textItem, videoBody } from './factories.ts';
import { KEY, OTHER_KEY, type CallOptions, type TestMock, useMocks } from './helpers.ts';

const mock = useMocks({ rateLimit: false });
const HOUR = 3_600_000;
const taskPath = (taskId: string) => pathOf('getVideoTask', { taskId });

async function create(m: TestMock, body: Record<string, unknown>, path: string = pathOf('createVideoTask'), opts: CallOptions = {}): Promise<string> {
  const r = await m.call('POST', path, { body, ...opts });
  expect(r.status, r.text).toBe(200);
  return r.json.data.taskId as string;
}

const get = async (m: TestMock, id: string, opts: CallOptions = {}) => (await m.call('GET', taskPath(id), opts)).json.data;
const bytesOf = async (url: string, headers: Record<string, string> = {}) => {
  const res = await fetch(url, { headers });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
};

function expectError(r: { status: number; json: any; text: string }, name: ErrorName) {
  expect(r.status, r.text).toBe(errorCatalog[name].httpStatus);
  expect(r.json.code).toBe(errorCatalog[name].code);
}

/** The video and audio tracks of an MP4 and their durations in seconds. */
async function tracksOf(bytes: Uint8Array) {
  const { movie } = await parseMp4(bytes);
  const video = movie.videoTracks[0];
  const audio = movie.audioTracks[0];
  return {
    movieSeconds: movie.duration / movie.timescale,
    video: video && { width: video.video!.width, height: video.video!.height, seconds: video.duration / video.timescale, codec: video.codec },
    audio: audio && { seconds: audio.duration / audio.timescale, codec: audio.codec, sampleRate: audio.audio!.sample_rate },
    trackCount: movie.tracks.length,
  };
}

describe('the MP4 of a succeeded task', () => {
  it('a 10-second 720p 16:9 task decodes to a 1280x720 MP4 of 10 s with an AAC track', async () => {
    const m = await mock();
    const id = await create(m, { model: 'family1-video-2-fast', content: [textItem()], resolution: '720p', ratio: '16:9', duration: 10 });
    await m.advance(HOUR);
    const t = await get(m, id);
    expect(t.status).toBe('success');
    const r = await bytesOf(t.videoUrl);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('video/mp4');
    const mp4 = await tracksOf(r.bytes);
    expect(mp4.video).toMatchObject({ width: 1280, height: 720 });
    expect(mp4.video.codec).toMatch(/^avc1\./);
    expect(Math.abs(mp4.movieSeconds - 10)).toBeLessThanOrEqual(0.25);
    expect(Math.abs(mp4.video.seconds - 10)).toBeLessThanOrEqual(0.25);
    expect(mp4.audio?.codec).toMatch(/^mp4a/);
    expect(Math.abs(mp4.audio.seconds - 10)).toBeLessThanOrEqual(0.25);
  });

  const shared: [SharedVideoModelId, string, string, number, string][] = [
    ['family1-video-2-fast', '480p', '16:9', 4, '854x480'],
    ['family1-video-2-fast', '720p', '9:16', 5, '720x1280'],
    ['family1-video-2-pro', '1080p', '21:9', 6, '2520x1080'],
    ['family1-video-2-pro', '1080p', '1:1', 15, '1080x1080'],
    ['family2-video', '720p', '4:3', 30, '960x720'],
    ['family2-video-prime', '480p', '3:4', 2, '480x640'],
    ['family3-h3', '768p', '16:9', 7, '1366x768'],
    ['family3-h3', '2k', '21:9', 4, '3360x1440'],
    ['family4-video', '1080p', '4:5', 3, '1080x1350'],
    ['family4-video', '720p', '5:4', 9, '900x720'],
  ];
  it.each(shared)(
    '%s %s %s, %i s: an MP4 of %s lasting the duration; the cover is a PNG of the same size',
    async (model, resolution, ratio, duration, size) => {
      const m = await mock();
      const id = await create(m, { model, content: [textItem()], resolution, ratio, duration });
      await m.advance(HOUR);
      const t = await get(m, id);
      const px = videoPixels(resolution, ratio);
      expect(`${px.width}x${px.height}`).toBe(size);
      const mp4 = await tracksOf((await bytesOf(t.videoUrl)).bytes);
      expect(mp4.video).toMatchObject(px);
      expect(Math.abs(mp4.video.seconds - duration)).toBeLessThanOrEqual(0.25);
      const cover = await bytesOf(t.coverUrl);
      expect(cover.headers.get('content-type')).toBe('image/png');
      expect(pngSize(cover.bytes)).toEqual(px);
    },
  );

  it.each([
    ['360p', '1:1', '360x360'],
    ['540p', '4:3', '720x540'],
    ['1080p', '9:16', '1080x1920'],
  ])('family5 %s %s: %s', async (quality, aspectRatio, size) => {
    const m = await mock();
    const id = await create(m, family5Body({ quality, aspectRatio, duration: 3 }), pathOf('createFamily5VideoTask'));
    await m.advance(HOUR);
    const mp4 = await tracksOf((await bytesOf((await get(m, id)).videoUrl)).bytes);
    expect(`${mp4.video.width}x${mp4.video.height}`).toBe(size);
    expect(Math.abs(mp4.video.seconds - 3)).toBeLessThanOrEqual(0.25);
  });

  it('family3-h3 image-to-video reports ratio "adaptive" and renders 16:9 at its resolution', async () => {
    const m = await mock();
    const id = await create(m, {
      model: 'family3-h3',
      content: [textItem(), { type: 'image_url', image_url: { url: 'https://example.com/a.png' }, role: 'first_frame' }],
      ratio: '1:1',
      duration: 4,
    });
    await m.advance(HOUR);
    const t = await get(m, id);
    expect(t.ratio).toBe('adaptive');
    expect((await tracksOf((await bytesOf(t.videoUrl)).bytes)).video).toMatchObject({ width: 1366, height: 768 });
  });

  it.each([
    ['generateAudio false', pathOf('createVideoTask'), videoBody({ generateAudio: false }), 1],
    ['generateAudio true', pathOf('createVideoTask'), videoBody({ generateAudio: true }), 2],
    ['family3-h3 ignores generateAudio false (always a sound track)', pathOf('createVideoTask'), videoBody({ model: 'family3-h3', generateAudio: false }), 2],
    ['family5 without sound effects', pathOf('createFamily5VideoTask'), family5Body(), 1],
    ['family5 with sound effects', pathOf('createFamily5VideoTask'), family5Body({ pixverse: { soundEffectSwitch: true } }), 2],
  ])('%s: %i track(s)', async (_what, path, body, tracks) => {
    const m = await mock();
    const id = await create(m, body, path);
    await m.advance(HOUR);
    expect((await tracksOf((await bytesOf((await get(m, id)).videoUrl)).bytes)).trackCount).toBe(tracks);
  });

  it('the same task gives the same bytes; another task other colours (other bytes)', async () => {
    const m = await mock();
    const [a, b] = [await create(m, videoBody()), await create(m, videoBody())];
    await m.advance(HOUR);
    const [ta, tb] = [await get(m, a), await get(m, b)];
    const [x1, x2, y] = [await bytesOf(ta.videoUrl), await bytesOf(ta.videoUrl), await bytesOf(tb.videoUrl)];
    expect(Buffer.compare(x1.bytes, x2.bytes)).toBe(0);
    expect(x1.headers.get('etag')).toBe(x2.headers.get('etag'));
    expect(x1.bytes).not.toEqual(y.bytes);
  });
});

describe('media URLs over the lifecycle', () => {
  it('generating: no URLs and nothing hosted; uploading: only the provider copy; success: all three', async () => {
    const m = await mock();
    const id = await create(m, videoBody());
    const p = videoPhases('family1-video-2-fast', 5);
    const guess = `${m.base}/media/videos/${id}.mp4`;
    let t = await get(m, id);
    expect([t.videoUrl, t.coverUrl, t.providerVideoUrl]).toEqual([null, null, null]);
    expect((await bytesOf(guess)).status).toBe(404);
    await m.advance(p.generatingMs);
    t = await get(m, id);
    expect(t.status).toBe('uploading');
    expect([t.videoUrl, t.coverUrl]).toEqual([null, null]);
    const provider = await bytesOf(t.providerVideoUrl);
    expect(provider.status).toBe(200);
    expect((await tracksOf(provider.bytes)).video).toMatchObject({ width: 1280, height: 720 });
    expect((await bytesOf(guess)).status).toBe(404);
    await m.advance(p.uploadingMs);
    t = await get(m, id);
    for (const url of [t.videoUrl, t.coverUrl, t.providerVideoUrl]) expect((await bytesOf(url)).status, url).toBe(200);
  });

  it('every media URL (video, cover, provider copy, image) answers Range 0-99 with 206 and 100 bytes, and HEAD', async () => {
    const m = await mock();
    const vid = await create(m, videoBody());
    const img = (await m.call('POST', pathOf('createImageTask'), { body: imageBody() })).json.data.taskId;
    await m.advance(HOUR);
    const v = await get(m, vid);
    const i = (await m.call('GET', pathOf('getImageTask', { taskId: img }))).json.data;
    for (const url of [v.videoUrl, v.coverUrl, v.providerVideoUrl, i.images[0].url]) {
      const whole = await bytesOf(url);
      const part = await bytesOf(url, { range: 'bytes=0-99' });
      expect(part.status, url).toBe(206);
      expect(part.bytes.length).toBe(100);
      expect(part.bytes).toEqual(whole.bytes.subarray(0, 100));
      expect(part.headers.get('content-range')).toBe(`bytes 0-99/${whole.bytes.length}`);
      const head = await fetch(url, { method: 'HEAD' });
      expect(head.headers.get('content-length')).toBe(String(whole.bytes.length));
      expect(head.headers.get('accept-ranges')).toBe('bytes');
    }
  });
});

describe('URLs follow the host the request named', () => {
  const call = async (m: TestMock, headers: Record<string, string>) => {
    const id = await create(m, videoBody());
    await m.advance(HOUR);
    return get(m, id, { headers });
  };

  it('by default: the Host the client used', async () => {
    const m = await mock();
    const t = await call(m, {});
    expect(t.videoUrl.startsWith(`${m.base}/media/videos/`)).toBe(true);
  });

  it('behind a proxy: X-Forwarded-Proto and X-Forwarded-Host (first of a list)', async () => {
    const m = await mock();
    const t = await call(m, { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'app.example.test:8443, internal:1' });
    expect(t.videoUrl).toMatch(/^https:\/\/app\.example\.test:8443\/media\/videos\//);
    expect(t.coverUrl).toMatch(/^https:\/\/app\.example\.test:8443\//);
  });

  it('a forwarded host that is not a host name is ignored (the Host is used)', async () => {
    const m = await mock();
    const t = await call(m, { 'x-forwarded-host': 'evil.test/path?x=<script>' });
    expect(t.videoUrl.startsWith(`${m.base}/`)).toBe(true);
  });

  it('--public-url wins over every header', async () => {
    const m = await mock({ publicUrl: 'http://192.168.1.20:4010/' });
    const t = await call(m, { 'x-forwarded-host': 'app.example.test' });
    expect(t.videoUrl).toMatch(/^http:\/\/192\.168\.1\.20:4010\/media\/videos\/vt_[0-9a-f]{16}\.mp4$/);
  });

  it('the list answers with the same URLs as the task read', async () => {
    const m = await mock();
    const t = await call(m, { 'x-forwarded-host': 'phone.lan:4010' });
    const list = (await m.call('GET', pathOf('listVideoTasks'), { headers: { 'x-forwarded-host': 'phone.lan:4010' } })).json.data;
    expect(list.items[0].videoUrl).toBe(t.videoUrl);
  });
});

describe('share and delete (assumed shapes)', () => {
  const share = (m: TestMock, id: string, body?: unknown, key?: string) =>
    m.call('POST', pathOf('shareVideoTask', { taskId: id }), { ...(body !== undefined ? { body } : {}), ...(key ? { key } : {}) });
  const del = (m: TestMock, id: string, key?: string) => m.call('DELETE', taskPath(id), key ? { key } : {});

  it('share toggles without a body and sets with one; the task shows the flag', async () => {
    const m = await mock();
    const id = await create(m, videoBody());
    expect((await share(m, id)).json.data).toEqual({ taskId: id, enabledShare: true });
    expect((await get(m, id)).enabledShare).toBe(true);
    expect((await share(m, id)).json.data.enabledShare).toBe(false);
    expect((await share(m, id, { enabledShare: true })).json.data.enabledShare).toBe(true);
    expect((await share(m, id, { enabledShare: true })).json.data.enabledShare).toBe(true);
    expectError(await share(m, id, { enabledShare: 'yes' }), 'VIDEO_INVALID_PARAMETERS');
  });

  it("share and delete of another user's task: 31005; of an unknown task: 31006", async () => {
    const m = await mock();
    const id = await create(m, videoBody());
    await m.advance(HOUR);
    expectError(await share(m, id, undefined, OTHER_KEY), 'VIDEO_TASK_FORBIDDEN');
    expectError(await del(m, id, OTHER_KEY), 'VIDEO_TASK_FORBIDDEN');
    expectError(await share(m, 'vt_0000000000000000'), 'VIDEO_TASK_NOT_FOUND');
    expectError(await del(m, 'vt_0000000000000000'), 'VIDEO_TASK_NOT_FOUND');
    expect((await get(m, id, { key: KEY })).enabledShare).toBe(false);
  });

  it('an unfinished task cannot be deleted (31007) and is not refunded; a finished one is gone: reads, lists and media', async () => {
    const m = await mock();
    const id = await create(m, videoBody());
    const before = (await m.call('GET', pathOf('getSubscription'))).json.data.balance;
    expectError(await del(m, id), 'VIDEO_TASK_NOT_FINISHED');
    expect((await m.call('GET', pathOf('getSubscription'))).json.data.balance).toBe(before);
    await m.advance(HOUR);
    const t = await get(m, id);
    const d = await del(m, id);
    expect(d.status, d.text).toBe(200);
    expect(d.json.data).toEqual({ taskId: id, deleted: true });
    expectError(await m.call('GET', taskPath(id)), 'VIDEO_TASK_NOT_FOUND');
    expect((await m.call('GET', pathOf('listVideoTasks'))).json.data.total).toBe(0);
    for (const url of [t.videoUrl, t.coverUrl, t.providerVideoUrl]) expect((await bytesOf(url)).status).toBe(404);
    expectError(await del(m, id), 'VIDEO_TASK_NOT_FOUND');
  });

  it('a failed task can be deleted; its refund stays', async () => {
    const m = await mock();
    const id = await create(m, videoBody(), pathOf('createVideoTask'), { headers: { prefer: 'outcome=failed' } });
    await m.advance(HOUR);
    const balance = (await m.call('GET', pathOf('getSubscription'))).json.data.balance;
    expect((await del(m, id)).status).toBe(200);
    expect((await m.call('GET', pathOf('getSubscription'))).json.data.balance).toBe(balance);
  });
});
