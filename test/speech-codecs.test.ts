/**
 * TTS in opus, flac and aac speaks its words (mock/media/speech-codecs.ts). A hand-made engine (a constant
 * tone, 40 ms a character at 22,050 Hz) stands in for eSpeak NG, so the
 * length each file must declare is the WAV answer's for the same input: FLAC's
 * STREAMINFO holds that many samples and its frames carry their CRCs (checked
 * here with a CRC written from the format's description); the Ogg Opus file's
 * last granule position is the pre-skip plus twice that many (48 kHz), its
 * pages' CRCs hold; the AAC file is ADTS frames (AAC-LC, 24 kHz, mono), the
 * spoken length in whole 1024-sample frames. An episode spoken in words serves its HLS as packed MP3
 * whose frames are the episode MP3's. ffmpeg's decoding of all of them is in
 * test/speech-timing.ffmpeg.ts (npm run test:media). Seed: document 2, "POST
 * /v1/tts and POST /v1/audio/speech", "Podcast episode" (HLS).
 */
import { describe, expect, it } from 'vitest';
import type { SpeechSynth } from '../mock/media/speech.ts';
import { flowSpeechBody } from './factories.ts';
import { useMocks } from './helpers.ts';
import { ttsBytes } from './speech-media-helpers.ts';

const start = useMocks();

const toneSynth: SpeechSynth = {
  id: 'tone 1',
  render(text) {
    const samples = new Int16Array([...text].length * 882).map((_, i) => Math.round(8000 * Math.sin(i / 5)));
    return Promise.resolve({ samples, sampleRate: 22_050 });
  },
};

/** CRC-32 of Ogg (RFC 3533: polynomial 0x04c11db7, not reflected, initial 0), bit by bit. */
function oggCrc(bytes: Uint8Array): number {
  let c = 0;
  for (const b of bytes) {
    c ^= b << 24;
    for (let k = 0; k < 8; k++) c = c & 0x80000000 ? (c << 1) ^ 0x04c11db7 : c << 1;
  }
  return c >>> 0;
}

/** The pages of an Ogg stream: granule position (low 32 bits) and whether the CRC holds. */
function oggPages(b: Uint8Array): { granule: number; crcOk: boolean; flags: number }[] {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const pages: { granule: number; crcOk: boolean; flags: number }[] = [];
  for (let at = 0; at < b.length;) {
    expect(String.fromCharCode(...b.subarray(at, at + 4))).toBe('OggS');
    const segments = b[at + 26];
    let body = 0;
    for (let i = 0; i < segments; i++) body += b[at + 27 + i];
    const end = at + 27 + segments + body;
    const page = b.slice(at, end);
    const crc = new DataView(page.buffer).getUint32(22, true);
    page.fill(0, 22, 26);
    pages.push({ granule: dv.getUint32(at + 6, true), crcOk: oggCrc(page) === crc, flags: b[at + 5] });
    at = end;
  }
  return pages;
}

describe('TTS opus, flac and aac speak the words', () => {
  const input = 'Speech in words. In every format.';

  it("flac: STREAMINFO declares the WAV answer's samples; the stream is FLAC frames from byte 42", async () => {
    const m = await start({ speech: toneSynth });
    const wav = await ttsBytes(m.base, 'wav', input);
    const samples = (wav.length - 44) / 2;
    const flac = await ttsBytes(m.base, 'flac', input);
    expect(String.fromCharCode(...flac.subarray(0, 4))).toBe('fLaC');
    const si = flac.subarray(8, 42);
    const total = (si[13] & 0x0f) * 2 ** 32 + new DataView(si.buffer, si.byteOffset + 14, 4).getUint32(0);
    expect(total).toBe(samples);
    expect([flac[42], flac[43] & 0xfe]).toEqual([0xff, 0xf8]); // the first frame's sync code
    // the tone's samples are not the tones of the no-engine path: a mock without the engine answers other bytes
    const plain = await start();
    expect(Buffer.from(await ttsBytes(plain.base, 'flac', input)).equals(Buffer.from(flac))).toBe(false);
  });

  it('opus: OpusHead with a 312 pre-skip, every page CRC holds, the last granule is the pre-skip plus the samples at 48 kHz', async () => {
    const m = await start({ speech: toneSynth });
    const samples = ((await ttsBytes(m.base, 'wav', input)).length - 44) / 2;
    const ogg = await ttsBytes(m.base, 'opus', input);
    const pages = oggPages(ogg);
    expect(pages.every((p) => p.crcOk)).toBe(true);
    const head = ogg.subarray(28, 28 + 19);
    expect(String.fromCharCode(...head.subarray(0, 8))).toBe('OpusHead');
    expect(head[10] | (head[11] << 8)).toBe(312);
    expect(pages.at(-1)!.flags & 0x04).toBe(0x04); // end of stream
    expect(pages.at(-1)!.granule).toBe(312 + samples * 2);
    // the same input, the same bytes
    expect(Buffer.from(await ttsBytes(m.base, 'opus', input)).equals(Buffer.from(ogg))).toBe(true);
  });

  it('aac: ADTS frames (AAC-LC, 24 kHz, mono), as many as the spoken length in whole 1024-sample frames; the same input the same bytes; not the tones', async () => {
    const problems: string[] = [];
    const m = await start({ speech: toneSynth, onSpeechProblem: (p) => problems.push(p) });
    const samples = ((await ttsBytes(m.base, 'wav', input)).length - 44) / 2;
    const aac = await ttsBytes(m.base, 'aac', input);
    // ISO/IEC 13818-7 ADTS: sync 0xFFF, profile (2 bits) 1 = LC, sampling index 6 = 24 kHz, channels 1; 13-bit frame length
    let frames = 0;
    for (let at = 0; at < aac.length; frames++) {
      expect([aac[at], aac[at + 1] & 0xf6]).toEqual([0xff, 0xf0]);
      expect([aac[at + 2] >> 6, (aac[at + 2] >> 2) & 0x0f, ((aac[at + 2] & 1) << 2) | (aac[at + 3] >> 6)]).toEqual([1, 6, 1]);
      const length = ((aac[at + 3] & 3) << 11) | (aac[at + 4] << 3) | (aac[at + 5] >> 5);
      expect(length).toBeGreaterThanOrEqual(7);
      at += length;
    }
    expect(frames).toBe(Math.round(samples / 1024));
    expect(Buffer.from(await ttsBytes(m.base, 'aac', input)).equals(Buffer.from(aac))).toBe(true);
    const plain = await start();
    expect(Buffer.from(await ttsBytes(plain.base, 'aac', input)).equals(Buffer.from(aac))).toBe(false);
    expect(problems).toEqual([]);
  });
});

describe("an episode spoken in words: its HLS is packed MP3, the episode MP3's own frames", () => {
  it('flow speech: the playlist lists .mp3 segments (the .aac route answers 404); their frames, ID3 tags stripped, are audio.mp3 byte for byte', async () => {
    const m = await start({ speech: toneSynth });
    const text = Array.from({ length: 3 }, (_, i) => `Sentence number ${i + 1} of the episode, long enough to last a while.`).join(' ');
    const r = await m.call('POST', '/v1/flow-speech/episodes', { body: flowSpeechBody({ sources: [{ type: 'text', content: text }] }) });
    expect(r.status).toBe(200);
    const id = (r.json.data as { episodeId: string }).episodeId;
    await m.advance(3_600_000);
    const base = `${m.base}/media/flow-speech/${id}`;
    const mp3 = new Uint8Array(await (await fetch(`${base}/audio.mp3`)).arrayBuffer());
    const playlist = await (await fetch(`${base}/audio.m3u8`)).text();
    const uris = playlist.split('\n').filter((l) => l !== '' && !l.startsWith('#'));
    expect(uris.length).toBeGreaterThan(1);
    expect(uris).toEqual(uris.map((_, n) => `segments/${n}.mp3`));
    expect((await fetch(`${base}/segments/0.aac`)).status).toBe(404);
    const frames: Uint8Array[] = [];
    for (const u of uris) {
      const res = await fetch(`${base}/${u}`);
      expect(res.headers.get('content-type')).toMatch(/^audio\/mpeg/);
      const seg = new Uint8Array(await res.arrayBuffer());
      expect(String.fromCharCode(...seg.subarray(0, 3))).toBe('ID3');
      frames.push(seg.subarray(10 + ((seg[6] << 21) | (seg[7] << 14) | (seg[8] << 7) | seg[9])));
    }
    expect(Buffer.concat(frames).equals(Buffer.from(mp3))).toBe(true);
    // EXTINF durations add up to the MP3's frames (24 ms each: 144-byte frames at 48 kbit/s)
    const seconds = [...playlist.matchAll(/#EXTINF:([\d.]+),/g)].reduce((n, x) => n + Number(x[1]), 0);
    expect(Math.round(seconds * 1000)).toBe((mp3.length / 144) * 24);
  });
});

describe('voice demos spoken in words', () => {
  it("a speaker's demo with an engine: the engine's sentence (in the speaker's language) as 167 MP3 frames (4 s), not the tones a mock without one serves", async () => {
    const calls: string[] = [];
    const m = await start({ speech: { ...toneSynth, render: (t, v) => (calls.push(`${v.language} ${t}`), toneSynth.render(t, v)) } });
    const spoken = new Uint8Array(await (await fetch(`${m.base}/media/speakers/en_ava/demo.mp3`)).arrayBuffer());
    expect([...new Set(calls)]).toEqual(['en-us Hello, I am Ava.', 'en-us This is my voice.']); // measured, then rendered again for the file
    expect(spoken.length).toBe(167 * 144); // lamejs's 48 kbit/s frames, 24 ms each: 4,008 ms
    const before = calls.length;
    await fetch(`${m.base}/media/speakers/zh_mei/demo.mp3`);
    expect(calls.slice(before)).toContain('cmn 你好，我是Mei。');
    const plain = await start();
    const tones = new Uint8Array(await (await fetch(`${plain.base}/media/speakers/en_ava/demo.mp3`)).arrayBuffer());
    expect(Buffer.from(tones).equals(Buffer.from(spoken))).toBe(false);
  });
});
