/**
 * A podcast episode's media (document 2, "Podcast episode (GET result)"): when
 * each URL answers, every one decoded (the MP3 timed by its frames, the SRT
 * within it, the HLS adding up to it, the cover a square PNG, two voices heard
 * apart); and an episode saved halfway goes on after a load as it would have.
 */
import { Parser as M3u8Parser } from 'm3u8-parser';
import SrtParser from 'srt-parser-2';
import { beforeEach, describe, expect, it } from 'vitest';
import { EPISODE_COVER_SIDE } from '../schemas/speech.ts';
import { adtsFrames, decodeAudio, id3Length, mp3Frames, pngSize } from '../verify/decoders.ts';
import { pathOf, podcastBody } from './factories.ts';
import { type TestMock, useMocks } from './helpers.ts';
import { AAC_FRAME_MS, FRAME_MS, lineMs, load, MINUTE, podcastCalls, textMs, urlsOf } from './podcast-helpers.ts';

const start = useMocks();
let m: TestMock;
beforeEach(async () => {
  m = await start();
});
const { oneShot, twoStage, get, audio } = podcastCalls(() => m);

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
