/**
 * TTS in aac when the AAC encoder cannot be loaded (mock/media/speech-codecs.ts):
 * the answer is ADTS tones of the spoken length in whole 1024-sample frames,
 * and the host is told (decision 0012,
 * "AAC in words"). The encoder's module is replaced by one whose registration
 * throws. Seed: document 2, "POST /v1/tts and POST /v1/audio/speech".
 */
import { describe, expect, it, vi } from 'vitest';
import type { SpeechSynth } from '../mock/media/speech.ts';
import { useMocks } from './helpers.ts';
import { ttsBytes } from './speech-media-helpers.ts';

vi.mock('@mediabunny/aac-encoder', () => ({
  registerAacEncoder: () => {
    throw new Error('no AAC encoder in this test');
  },
}));

const start = useMocks();

/** 1,000 ms of a constant tone a character at 24 kHz: "abc" is 72,000 samples, 70.3 AAC frames. */
const toneSynth: SpeechSynth = {
  id: 'tone 1',
  render(text) {
    return Promise.resolve({ samples: new Int16Array([...text].length * 24_000).map((_, i) => Math.round(8000 * Math.sin(i / 5))), sampleRate: 24_000 });
  },
};

describe('TTS aac with an encoder that fails', () => {
  it('answers ADTS tones of the spoken length and tells the host', async () => {
    const problems: string[] = [];
    const m = await start({ speech: toneSynth, onSpeechProblem: (p) => problems.push(p) });
    const aac = await ttsBytes(m.base, 'aac', 'abc');
    expect([aac[0], aac[1] & 0xf6]).toEqual([0xff, 0xf0]);
    let frames = 0;
    for (let at = 0; at < aac.length; frames++) at += ((aac[at + 3] & 3) << 11) | (aac[at + 4] << 3) | (aac[at + 5] >> 5);
    const samples = ((await ttsBytes(m.base, 'wav', 'abc')).length - 44) / 2;
    expect(frames).toBe(Math.round(samples / 1024));
    expect(problems.some((p) => /aac encoder failed/.test(p))).toBe(true);
  });
});
