/**
 * The media of flow-speech episodes (document 2, "Flow-speech episode (GET
 * result)"): MP3, HLS of packed AAC, SRT, PNG cover; 404 before success; a
 * multi-voice script episode heard in its voices.
 */
import { describe, expect, it } from 'vitest';
import { durationMatches } from '../schemas/media.ts';
import { speechDurationMs } from '../schemas/speech.ts';
import { adtsFrames, audioSignatures, decodeAudio, id3Length, mp3Frames, pngSize } from '../verify/decoders.ts';
import { flowSpeechBody, flowSpeechTtsBody, pathOf, ttsBody } from './factories.ts';
import { type TestMock, useMocks } from './helpers.ts';
import {
  AAC_FRAME_MS,
  MP3_FRAME_MS,
  RATE,
  audioFramesOf,
  collapse,
  createEpisode,
  demoVoices,
  expectAudio,
  expectError,
  expectVoice,
  json,
  keyOf,
  load,
  mp3Span,
  playlistAt,
  post,
  srtCues,
  succeeded,
} from './speech-media-helpers.ts';

const mock = useMocks({ rateLimit: false });

describe('flow-speech episodes: the media of a succeeded episode', () => {
  const text =
    '# Why mock servers?\n\nMock servers let a frontend team work before the backend exists. ' +
    'They answer like the real API, keep state between calls, and make failures easy to reproduce!! ' +
    'This episode walks through the ideas, one by one, with a few examples along the way. ' +
    'By the end you will know when a mock helps and when it gets in the way.';
  const speed = 1.5;

  it('before success every media URL answers 404 (10004); the GET carries no media URLs', async () => {
    const m = await mock();
    const id = await createEpisode(m, pathOf('createFlowSpeechEpisode'), flowSpeechBody());
    const ep = (await m.call('GET', pathOf('getFlowSpeechEpisode', { episodeId: id }))).json.data;
    expect(ep.processStatus).toBe('pending');
    for (const field of ['audioUrl', 'audioStreamUrl', 'subtitlesUrl', 'cover']) expect(ep[field]).toBeUndefined();
    const urls = ['audio.mp3', 'audio.m3u8', 'subtitles.srt', 'cover.png', 'segments/0.aac'].map((f) => `${m.base}/media/flow-speech/${id}/${f}`);
    for (const url of urls) {
      const r = await load(url);
      expect(r.headers.get('content-type'), url).toMatch(/^application\/json/);
      expectError({ status: r.status, json: json(r.bytes) }, 'ROUTE_NOT_FOUND');
    }
    // The same URLs load once it succeeds.
    const done = await succeeded(m, id);
    expect([done.audioUrl, done.audioStreamUrl, done.subtitlesUrl, done.cover]).toEqual(urls.slice(0, 4));
    for (const url of urls) expect((await load(url)).status, url).toBe(200);
  });

  it('audioUrl is an MP3 lasting speechDurationMs(scripts, speed); audioStreamUrl an HLS VOD of ADTS segments adding up to it', async () => {
    const m = await mock();
    const id = await createEpisode(m, pathOf('createFlowSpeechEpisode'), flowSpeechBody({ sources: [{ type: 'text', content: text }], speed }));
    const ep = await succeeded(m, id);
    expect(ep.scripts).not.toMatch(/[#!]{2}|^#/); // smart mode cleaned it
    const declared = speechDurationMs(ep.scripts, speed);
    const mp3 = await load(ep.audioUrl);
    expect(mp3.status).toBe(200);
    expect(mp3.headers.get('content-type')).toBe('audio/mpeg');
    const mp3Ms = await expectAudio(mp3.bytes, 'mp3', declared);
    expect(mp3Ms).toBeGreaterThan(6000); // several HLS segments

    const { text: playlist, manifest } = await playlistAt(ep.audioStreamUrl);
    expect(playlist.startsWith('#EXTM3U\n')).toBe(true);
    expect(manifest.playlistType).toBe('VOD');
    expect(manifest.endList).toBe(true);
    expect(manifest.segments.length).toBeGreaterThan(1);
    let listedMs = 0;
    let decodedMs = 0;
    for (const s of manifest.segments) {
      expect(s.uri).not.toMatch(/^(\/|[a-z]+:)/i); // relative
      expect(Math.round(s.duration)).toBeLessThanOrEqual(manifest.targetDuration!);
      const seg = await load(new URL(s.uri, ep.audioStreamUrl).href);
      expect(seg.status, s.uri).toBe(200);
      expect(seg.headers.get('content-type')).toBe('audio/aac');
      // Packed audio: an ID3 tag carrying the segment's start as a transport stream timestamp, then ADTS frames.
      expect(String.fromCharCode(...seg.bytes.subarray(0, 3))).toBe('ID3');
      expect(new TextDecoder().decode(seg.bytes.subarray(0, id3Length(seg.bytes)))).toContain('com.apple.streaming.transportStreamTimestamp');
      const frames = adtsFrames(seg.bytes);
      expect(frames.length * AAC_FRAME_MS).toBeCloseTo(s.duration * 1000, 0);
      const a = await decodeAudio(seg.bytes.subarray(id3Length(seg.bytes)), 'aac');
      expect({ container: a.container, codec: a.codec, sampleRate: a.sampleRate, channels: a.channels }).toEqual({
        ...audioSignatures.aac,
        sampleRate: RATE,
        channels: 1,
      });
      expect(Math.abs(a.durationMs - s.duration * 1000)).toBeLessThanOrEqual(AAC_FRAME_MS + 0.01);
      listedMs += s.duration * 1000;
      decodedMs += a.durationMs;
    }
    expect(Math.abs(listedMs - mp3Ms)).toBeLessThanOrEqual(AAC_FRAME_MS);
    expect(durationMatches(decodedMs, mp3Ms)).toBe(true);
  });

  it('subtitlesUrl cues are in order within the audio and cover the narration; the cover is a 1024x1024 PNG', async () => {
    const m = await mock();
    const id = await createEpisode(m, pathOf('createFlowSpeechEpisode'), flowSpeechBody({ sources: [{ type: 'text', content: text }], speed }));
    const ep = await succeeded(m, id);
    const mp3Ms = mp3Frames((await load(ep.audioUrl)).bytes).length * MP3_FRAME_MS;
    const srt = await load(ep.subtitlesUrl);
    expect(srt.status).toBe(200);
    expect(srt.headers.get('content-type')).toMatch(/^application\/x-subrip/);
    const cues = srtCues(new TextDecoder().decode(srt.bytes));
    expect(cues.length).toBeGreaterThan(1);
    expect(cues.map((c) => c.id)).toEqual(cues.map((_, i) => String(i + 1)));
    expect(cues[0].startMs).toBe(0);
    for (const [i, c] of cues.entries()) {
      expect(c.endMs).toBeGreaterThan(c.startMs);
      expect(c.endMs).toBeLessThanOrEqual(mp3Ms);
      if (i > 0) expect(c.startMs).toBeGreaterThanOrEqual(cues[i - 1].endMs);
    }
    expect(cues.at(-1)!.endMs).toBe(mp3Ms);
    expect(collapse(cues.map((c) => c.text).join(' '))).toBe(collapse(ep.scripts));

    const cover = await load(ep.cover);
    expect(cover.status).toBe(200);
    expect(cover.headers.get('content-type')).toBe('image/png');
    expect(pngSize(cover.bytes)).toEqual({ width: 1024, height: 1024 });
  });

  describe('a multi-voice script episode (tts)', () => {
    const lines = [
      { speakerId: 'en_ava', content: 'Chapter one. The lighthouse keeper woke before dawn and climbed the stairs.' },
      { speakerId: 'en_noah', content: 'Is anyone there? he called into the fog, and waited for an answer.' },
      { speakerId: 'en_ava', content: 'Nobody answered. Only the gulls, and the sea against the rocks below.' },
    ];
    /** Where each line lies in the audio, ms: its speechDurationMs in whole 24 ms frames. */
    const bounds = [0];
    for (const l of lines) bounds.push(bounds.at(-1)! + audioFramesOf(speechDurationMs(l.content, 1)) * MP3_FRAME_MS);

    async function episode(m: TestMock) {
      const ep = await succeeded(m, await createEpisode(m, pathOf('createFlowSpeechTtsEpisode'), flowSpeechTtsBody({ scripts: lines })));
      expect(ep.scripts).toBe(lines.map((l) => l.content).join('\n'));
      return ep;
    }

    it("the MP3 alternates voices like /v1/speech: each line in its speaker's voice; the SRT covers every line", async () => {
      const m = await mock();
      const ep = await episode(m);
      const mp3 = (await load(ep.audioUrl)).bytes;
      const mp3Ms = await expectAudio(mp3, 'mp3', bounds.at(-1)!);
      expect(durationMatches(mp3Ms, speechDurationMs(ep.scripts, 1))).toBe(true);
      const voices = await demoVoices(m);
      const frames = mp3Frames(mp3).map((f) => keyOf(f.bytes));
      const ava = voices.get('en_ava')!;
      const noah = voices.get('en_noah')!;
      for (const [i, l] of lines.entries()) {
        const [own, other] = l.speakerId === 'en_ava' ? [ava, noah] : [noah, ava];
        expectVoice(mp3Span(frames, bounds[i], bounds[i + 1]), own, [other], `MP3 line ${i + 1} (${l.speakerId})`);
      }
      const cues = srtCues(new TextDecoder().decode((await load(ep.subtitlesUrl)).bytes));
      expect(collapse(cues.map((c) => c.text).join(' '))).toBe(collapse(ep.scripts));
      expect(cues.at(-1)!.endMs).toBe(mp3Ms);
    });

    it("the HLS stream is the same audio as the MP3: each line in its speaker's voice", async () => {
      const m = await mock();
      const ep = await episode(m);
      // Each voice's AAC frames, from POST /v1/tts in aac (3.2 s: more than one 1.92 s loop of the voice's frames).
      const aacVoice = async (voice: string) => {
        const res = await post(m, pathOf('synthesizeSpeech'), ttsBody({ voice, response_format: 'aac' }));
        return new Set(adtsFrames(new Uint8Array(await res.arrayBuffer())).map(keyOf));
      };
      const [avaAac, noahAac] = await Promise.all([aacVoice('en_ava'), aacVoice('en_noah')]);
      const { manifest } = await playlistAt(ep.audioStreamUrl);
      const aacFrames: string[] = [];
      for (const s of manifest.segments) aacFrames.push(...adtsFrames((await load(new URL(s.uri, ep.audioStreamUrl).href)).bytes).map(keyOf));
      expect(Math.abs(aacFrames.length * AAC_FRAME_MS - bounds.at(-1)!)).toBeLessThanOrEqual(AAC_FRAME_MS);
      for (const [i, l] of lines.entries()) {
        // The line's AAC frames, a frame in from each end (a frame may straddle two lines).
        const span = aacFrames.slice(Math.ceil(bounds[i] / AAC_FRAME_MS) + 1, Math.floor(bounds[i + 1] / AAC_FRAME_MS) - 1);
        const [own, other] = l.speakerId === 'en_ava' ? [avaAac, noahAac] : [noahAac, avaAac];
        expectVoice(span, own, [other], `HLS line ${i + 1} (${l.speakerId})`);
      }
    });
  });
});
