/**
 * The injected speech engine (mock/media/speech.ts `SpeechSynth`, passed
 * through createMockServer's `speech` option): a hand-made engine whose
 * samples per sentence are known here (40 ms a character at 22,050 Hz, a
 * constant tone) stands in for eSpeak NG, so what the answers say can be
 * computed by hand: `audioDuration` is the sentences' samples, resampled to
 * 24 kHz, to whole 24 ms frames; the sentence cues of a flow-speech episode
 * start where each sentence's samples start. An engine that fails leaves the
 * line its tones (the speaking-rate model), answers 200 and tells the host. No
 * engine: tones, as before. Seed: document 2, "POST /v1/speech",
 * "Flow-speech episode".
 */
import { describe, expect, it } from 'vitest';
import { speechDurationMs } from '../schemas/speech.ts';
import type { SpeechSynth } from '../mock/media/speech.ts';
import { chooseSpeech, wavSamples } from '../mock/http/espeak.ts';
import { flowSpeechBody } from './factories.ts';
import { useMocks } from './helpers.ts';

const start = useMocks();

/** 40 ms of 22,050 Hz samples per character (code point) of the piece. */
const samplesFor = (text: string) => [...text].length * 882;

function fakeSynth(calls: string[] = []): SpeechSynth {
  return {
    id: 'fake 1',
    render(text) {
      calls.push(text);
      const samples = new Int16Array(samplesFor(text)).map((_, i) => Math.round(8000 * Math.sin(i / 5)));
      return Promise.resolve({ samples, sampleRate: 22_050 });
    },
  };
}

/** Whole 24 ms frames (at least 5) of `samples22k` samples at 22,050 Hz, once resampled to 24 kHz, in ms. */
const framesMs = (samples22k: number) => Math.max(5, Math.ceil(Math.floor((samples22k * 24_000) / 22_050) / 576)) * 24;

describe('an injected speech engine', () => {
  it('POST /v1/speech: audioDuration is the rendered sentences to whole frames, line by line', async () => {
    const calls: string[] = [];
    const m = await start({ speech: fakeSynth(calls) });
    const scripts = [
      { speakerId: 'en_ava', content: 'One two three. Four five.' },
      { speakerId: 'en_noah', content: 'Six seven eight nine ten eleven.' },
    ];
    const r = await m.call('POST', '/v1/speech', { body: { scripts, speed: 1 } });
    expect(r.status).toBe(200);
    // line 1: two sentences, rendered one at a time; line 2: one
    expect(calls.sort()).toEqual(['Four five.', 'One two three.', 'Six seven eight nine ten eleven.']);
    const resampled = (t: string) => Math.floor((samplesFor(t) * 24_000) / 22_050);
    const ms1 = Math.max(5, Math.ceil((resampled('One two three.') + resampled('Four five.')) / 576)) * 24;
    const ms2 = framesMs(samplesFor('Six seven eight nine ten eleven.'));
    expect((r.json.data as { audioDuration: number }).audioDuration).toBe(ms1 + ms2);
    expect(ms1 + ms2).not.toBe(speechDurationMs(scripts[0].content, 1) + speechDurationMs(scripts[1].content, 1));
  });

  it('flow speech: each sentence cue starts where the samples of its sentence start', async () => {
    const m = await start({ speech: fakeSynth() });
    const text = 'First sentence here. Second one is a bit longer. Third.';
    const r = await m.call('POST', '/v1/flow-speech/episodes', { body: flowSpeechBody({ sources: [{ type: 'text', content: text }], mode: 'direct' }) });
    expect(r.status).toBe(200);
    await m.advance(3_600_000);
    const ep = (await m.call('GET', `/v1/flow-speech/episodes/${(r.json.data as { episodeId: string }).episodeId}`)).json.data as { subtitlesUrl: string };
    const srt = await (await fetch(ep.subtitlesUrl)).text();
    const starts = [...srt.matchAll(/(\d\d):(\d\d):(\d\d),(\d\d\d) -->/g)].map((x) => Number(x[3]) * 1000 + Number(x[4]));
    const resampled = (t: string) => Math.floor((samplesFor(t) * 24_000) / 22_050);
    const a = resampled('First sentence here.');
    const b = resampled('Second one is a bit longer.');
    expect(starts).toEqual([0, Math.round((a * 1000) / 24_000), Math.round(((a + b) * 1000) / 24_000)]);
  });

  it('an engine that fails: the line keeps its tones (the speaking-rate model), 200, and the host is told', async () => {
    const problems: string[] = [];
    const failing: SpeechSynth = { id: 'broken 1', render: () => Promise.reject(new Error('crashed')) };
    const m = await start({ speech: failing, onSpeechProblem: (p) => problems.push(p) });
    const scripts = [{ speakerId: 'en_ava', content: 'Hello there, how are you today?' }];
    const r = await m.call('POST', '/v1/speech', { body: { scripts, speed: 1 } });
    expect(r.status).toBe(200);
    expect((r.json.data as { audioDuration: number }).audioDuration).toBe(Math.max(5, Math.round(speechDurationMs(scripts[0].content, 1) / 24)) * 24);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/broken 1 failed \(crashed\)/);
  });

  it('no engine: tones, durations from the speaking-rate model', async () => {
    const m = await start();
    const scripts = [{ speakerId: 'en_ava', content: 'Hello there, how are you today?' }];
    const r = await m.call('POST', '/v1/speech', { body: { scripts, speed: 1 } });
    expect((r.json.data as { audioDuration: number }).audioDuration).toBe(Math.max(5, Math.round(speechDurationMs(scripts[0].content, 1) / 24)) * 24);
  });
});

describe('choosing the engine (--speech) and reading its WAV', () => {
  it('tones: no engine; auto without the program: tones, and the line says how to get it; espeak without it: refused', () => {
    expect(chooseSpeech('tones')).toEqual({ line: 'speech:   tones (--speech tones)' });
    const auto = chooseSpeech('auto', { command: '/nonexistent/espeak-ng' });
    expect(auto.synth).toBeUndefined();
    expect(auto.line).toMatch(/tones \(espeak-ng not found; .*apt-get install espeak-ng, brew install espeak-ng\)/);
    expect(() => chooseSpeech('espeak', { command: '/nonexistent/espeak-ng' })).toThrow(/--speech espeak: .* cannot be run/);
  });

  it("a piped WAV's samples run to the end of the file (its size fields are placeholders)", () => {
    // RIFF, "fmt " of 16 bytes (PCM, mono, 22,050 Hz, 16-bit), "data" with a placeholder size, then three samples
    const head = [
      0x52, 0x49, 0x46, 0x46, 0xff, 0xff, 0xff, 0x7f, 0x57, 0x41, 0x56, 0x45, 0x66, 0x6d, 0x74, 0x20, 16, 0, 0, 0, 1, 0, 1, 0, 0x22, 0x56, 0, 0, 0x44, 0xac, 0,
      0, 2, 0, 16, 0,
    ];
    const data = [0x64, 0x61, 0x74, 0x61, 0x00, 0xf0, 0xff, 0x7f, 0x01, 0x00, 0xff, 0xff, 0x00, 0x80];
    const pcm = wavSamples(new Uint8Array([...head, ...data]));
    expect(pcm.sampleRate).toBe(22_050);
    expect([...pcm.samples]).toEqual([1, -1, -32768]);
  });
});
