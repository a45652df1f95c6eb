/**
 * What POST /v1/speech serves (document 2, "POST /v1/speech"): the MP3 and SRT
 * of a multi-voice script (one cue per line, a voice per speaker, subtitles gone
 * after 24 virtual hours).
 */
import { describe, expect, it } from 'vitest';
import { speechDurationMs } from '../schemas/speech.ts';
import { mp3Frames } from '../verify/decoders.ts';
import { pathOf, speechBody } from './factories.ts';
import { useMocks } from './helpers.ts';
import {
  HOUR,
  MP3_FRAME_MS,
  audioFramesOf,
  collapse,
  demoVoices,
  expectAudio,
  expectError,
  expectVoice,
  json,
  keyOf,
  load,
  mp3Span,
  srtCues,
} from './speech-media-helpers.ts';

const mock = useMocks({ rateLimit: false });

describe('POST /v1/speech: the MP3 and SRT of a script', () => {
  const scripts = [
    { speakerId: 'en_ava', content: 'Welcome back to the show.' },
    { speakerId: 'en_noah', content: 'Thanks.   Today we talk about\n mock servers and why they matter.' },
    { speakerId: 'en_ava', content: 'Let us begin with the basics, shall we?' },
    { speakerId: 'en_noah', content: 'Sure.' },
  ];

  it('the audioUrl loads without auth and decodes as an MP3 lasting audioDuration (to the frame)', async () => {
    const m = await mock();
    const speed = 1.25;
    const r = await m.call('POST', pathOf('createSpeechScript'), { body: speechBody({ scripts, speed }) });
    expect(r.status, r.text).toBe(200);
    const { audioUrl, audioDuration } = r.json.data;
    const audio = await load(audioUrl);
    expect(audio.status).toBe(200);
    expect(audio.headers.get('content-type')).toBe('audio/mpeg');
    const decoded = await expectAudio(audio.bytes, 'mp3', audioDuration);
    expect(Math.abs(decoded - audioDuration)).toBeLessThanOrEqual(MP3_FRAME_MS);
    expect(mp3Frames(audio.bytes).length * MP3_FRAME_MS).toBe(audioDuration);
    // Each line lasts its speechDurationMs to the nearest 24 ms frame.
    const declared = scripts.reduce((n, l) => n + speechDurationMs(l.content, speed), 0);
    expect(Math.abs(audioDuration - declared)).toBeLessThanOrEqual((scripts.length * MP3_FRAME_MS) / 2);
  });

  it('the subtitlesUrl is an SRT with one cue per line, in order, end to end, the last ending at audioDuration', async () => {
    const m = await mock();
    const r = await m.call('POST', pathOf('createSpeechScript'), { body: speechBody({ scripts }) });
    const { subtitlesUrl, audioDuration } = r.json.data;
    const srt = await load(subtitlesUrl);
    expect(srt.status).toBe(200);
    expect(srt.headers.get('content-type')).toMatch(/^application\/x-subrip/);
    const cues = srtCues(new TextDecoder().decode(srt.bytes));
    expect(cues.map((c) => c.id)).toEqual(scripts.map((_, i) => String(i + 1)));
    expect(cues.map((c) => c.text)).toEqual(scripts.map((l) => collapse(l.content)));
    expect(cues[0].startMs).toBe(0);
    for (let i = 1; i < cues.length; i++) expect(cues[i].startMs).toBe(cues[i - 1].endMs);
    expect(cues.at(-1)!.endMs).toBe(audioDuration);
    for (const [i, c] of cues.entries()) expect(Math.abs(c.endMs - c.startMs - speechDurationMs(scripts[i].content, 1))).toBeLessThanOrEqual(MP3_FRAME_MS / 2);
  });

  it("each line is in its speaker's voice: lines by different speakers sound different, lines by one speaker the same", async () => {
    const m = await mock();
    const voices = await demoVoices(m);
    const r = await m.call('POST', pathOf('createSpeechScript'), { body: speechBody({ scripts }) });
    const frames = mp3Frames((await load(r.json.data.audioUrl)).bytes).map((f) => keyOf(f.bytes));
    const cues = srtCues(new TextDecoder().decode((await load(r.json.data.subtitlesUrl)).bytes));
    const ava = voices.get('en_ava')!;
    const noah = voices.get('en_noah')!;
    for (const [i, line] of scripts.entries()) {
      const span = mp3Span(frames, cues[i].startMs, cues[i].endMs);
      const [own, other] = line.speakerId === 'en_ava' ? [ava, noah] : [noah, ava];
      expectVoice(span, own, [other], `line ${i + 1} (${line.speakerId})`);
    }
  });

  it('the same script by one speaker differs only where the speaker differs', async () => {
    const m = await mock();
    const lines = (second: string) => [
      { speakerId: 'en_ava', content: 'A first line of eight words for you.' },
      { speakerId: second, content: 'A second line of eight words for you.' },
    ];
    const mp3Of = async (second: string) => {
      const r = await m.call('POST', pathOf('createSpeechScript'), { body: speechBody({ scripts: lines(second) }) });
      expect(r.status, r.text).toBe(200);
      return { frames: mp3Frames((await load(r.json.data.audioUrl)).bytes).map((f) => keyOf(f.bytes)), duration: r.json.data.audioDuration as number };
    };
    const [same, other] = await Promise.all([mp3Of('en_ava'), mp3Of('en_noah')]);
    expect(other.duration).toBe(same.duration);
    const firstLine = audioFramesOf(speechDurationMs(lines('x')[0].content, 1));
    // The first line (en_ava in both) is the same audio; the second is not.
    expect(other.frames.slice(0, firstLine)).toEqual(same.frames.slice(0, firstLine));
    const a = same.frames.slice(firstLine);
    const b = other.frames.slice(firstLine);
    const differing = a.filter((k, i) => k !== b[i]).length;
    expect(differing).toBeGreaterThanOrEqual(0.9 * a.length);
    // The second line by en_ava is in en_ava's voice: the frames of the first line's voice.
    const firstSet = new Set(same.frames.slice(0, firstLine));
    expect(a.filter((k) => !firstSet.has(k))).toEqual([]);
  });

  it('six speakers whose catalogue voices coincide still get six distinct voices in one script', async () => {
    const m = await mock();
    // en_ava, es_lucia and de_lena share a catalogue timbre (as do en_noah, es_mateo, de_felix); within one script each speaker must still sound distinct.
    const speakers = ['en_ava', 'es_lucia', 'de_lena', 'en_noah', 'es_mateo', 'de_felix'];
    const r = await m.call('POST', pathOf('createSpeechScript'), {
      body: speechBody({ scripts: speakers.map((speakerId) => ({ speakerId, content: 'Six words spoken by this voice.' })) }),
    });
    expect(r.status, r.text).toBe(200);
    const frames = mp3Frames((await load(r.json.data.audioUrl)).bytes).map((f) => keyOf(f.bytes));
    const cues = srtCues(new TextDecoder().decode((await load(r.json.data.subtitlesUrl)).bytes));
    const sets = cues.map((c) => new Set(mp3Span(frames, c.startMs, c.endMs)));
    for (let i = 0; i < sets.length; i++)
      for (let j = i + 1; j < sets.length; j++) {
        const shared = [...sets[i]].filter((k) => sets[j].has(k)).length;
        expect(shared, `${speakers[i]} and ${speakers[j]} share ${shared} of ${sets[i].size} frames`).toBeLessThanOrEqual(0.1 * sets[i].size);
      }
  });

  it('after 24 virtual hours the SRT answers 410 (10015) while the MP3 still loads; just before, both load', async () => {
    const m = await mock();
    const r = await m.call('POST', pathOf('createSpeechScript'), { body: speechBody({ scripts }) });
    const { audioUrl, subtitlesUrl } = r.json.data;
    const mp3 = await load(audioUrl);
    const srt = await load(subtitlesUrl);
    await m.advance(24 * HOUR - 1);
    const before = await load(subtitlesUrl);
    expect(before.status).toBe(200);
    expect(Buffer.from(before.bytes).equals(Buffer.from(srt.bytes))).toBe(true);
    await m.advance(1);
    const gone = await load(subtitlesUrl);
    expect(gone.headers.get('content-type')).toMatch(/^application\/json/);
    expectError({ status: gone.status, json: json(gone.bytes) }, 'MEDIA_EXPIRED');
    expect(gone.status).toBe(410);
    expect(json(gone.bytes).code).toBe(10015);
    const still = await load(audioUrl);
    expect(still.status).toBe(200);
    expect(Buffer.from(still.bytes).equals(Buffer.from(mp3.bytes))).toBe(true);
    await m.advance(30 * 24 * HOUR);
    expect((await load(subtitlesUrl)).status).toBe(410);
    expect((await load(audioUrl)).status).toBe(200);
  });
});
