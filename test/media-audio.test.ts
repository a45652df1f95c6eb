/**
 * The audio renderers of mock/media/ make real files: every format decodes
 * (music-metadata) as its type at 24 kHz mono and lasts the declared duration
 * (`durationMatches`, and tighter: to the codec frame); pcm and wav carry
 * audible samples; renders are deterministic; the encoded packets are
 * contiguous and mux into an MP4; HLS playlists parse and their segments add
 * up to the audio; SRT cues parse, in order, over the duration; MIDI parses
 * and spans the duration (document 2, "POST /v1/tts and POST /v1/audio/speech",
 * "Podcast episode"; document 3, "Providers and models").
 * Where ffmpeg is installed, the files also decode in it without an error.
 */
import { spawnSync } from 'node:child_process';
import ToneMidi from '@tonejs/midi';
import { BufferTarget, EncodedAudioPacketSource, EncodedPacket, Mp4OutputFormat, Output } from 'mediabunny';
import { parseMidi } from 'midi-file';
import { parseBuffer } from 'music-metadata';
import SrtParser from 'srt-parser-2';
import { beforeAll, describe, expect, it } from 'vitest';
import { audioMaxDurationMs, encodedAudio, loadAudioLoops, renderAudio } from '../mock/media/audio.ts';
import { hlsAudio } from '../mock/media/hls.ts';
import { renderMidi } from '../mock/media/midi.ts';
import { cuesForText, renderSrt } from '../mock/media/srt.ts';
import { parsePlaylist } from './speech-media-helpers.ts';
import { audioFileTypes, audioFormats, durationMatches, renderedAudio, type AudioFormat } from '../schemas/media.ts';

const { Midi } = ToneMidi;
const RATE = renderedAudio.sampleRate;
const AAC_FRAME_MS = (1024 * 1000) / RATE;

/** What music-metadata reports for each format, and how close its duration must be to the declared one (ms). */
const expected: Record<Exclude<AudioFormat, 'pcm'>, { container: string; codec: string; toleranceMs: number }> = {
  // Whole 24 ms frames (at least 5).
  mp3: { container: 'MPEG', codec: 'MPEG 2 Layer 3', toleranceMs: 24 },
  // Exact: the last Ogg page's granule position trims the end.
  opus: { container: 'Ogg', codec: 'Opus', toleranceMs: 1 },
  // Whole 42.7 ms frames (at least 3); music-metadata skips a last frame under 164 bytes, one frame more.
  aac: { container: 'ADTS/MPEG-4', codec: 'AAC', toleranceMs: 2 * AAC_FRAME_MS },
  flac: { container: 'FLAC', codec: 'FLAC', toleranceMs: 1 },
  wav: { container: 'WAVE', codec: 'PCM', toleranceMs: 1 },
};

const durations = [100, 500, 3700, 61_000];
const long = 600_000;
/** Every format at each duration, and at 10 minutes. */
const cases = audioFormats.flatMap((f) => [...durations, long].map((d) => [f, d] as const));
/** Shortest mp3 and aac: 5 and 3 frames (`audioMinFrames`). */
const shortest: Partial<Record<AudioFormat, number>> = { mp3: 120, aac: 128 };

function rms(samples: Int16Array): number {
  let sum = 0;
  for (const s of samples) sum += s * s;
  return Math.sqrt(sum / samples.length);
}

function int16(bytes: Uint8Array): Int16Array {
  const copy = bytes.slice(); // aligned
  return new Int16Array(copy.buffer, 0, copy.length >> 1);
}

function same(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.length).equals(Buffer.from(b.buffer, b.byteOffset, b.length));
}

/** The data chunk of a RIFF/WAVE file, after checking its fmt chunk is 24 kHz mono 16-bit PCM. */
function wavData(bytes: Uint8Array): Uint8Array {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const tag = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  expect(tag(0)).toBe('RIFF');
  expect(dv.getUint32(4, true)).toBe(bytes.length - 8);
  expect(tag(8)).toBe('WAVE');
  for (let at = 12; at + 8 <= bytes.length;) {
    const size = dv.getUint32(at + 4, true);
    if (tag(at) === 'fmt ') {
      expect([dv.getUint16(at + 8, true), dv.getUint16(at + 10, true), dv.getUint32(at + 12, true), dv.getUint16(at + 22, true)]).toEqual([1, 1, RATE, 16]);
    }
    if (tag(at) === 'data') return bytes.subarray(at + 8, at + 8 + size);
    at += 8 + size + (size & 1);
  }
  throw new Error('no data chunk');
}

describe('renderAudio', () => {
  it.each(cases)('%s of %i ms decodes as its type, 24 kHz mono, for the declared duration', async (format, durationMs) => {
    const bytes = await renderAudio({ format, durationMs, variant: 1 });
    const samples = Math.round((durationMs * RATE) / 1000);
    if (format === 'pcm') {
      expect(bytes.length).toBe(samples * 2);
      expect(rms(int16(bytes))).toBeGreaterThan(500);
      return;
    }
    const meta = await parseBuffer(bytes, { mimeType: audioFileTypes[format].contentType }, { duration: true });
    const want = expected[format];
    expect(meta.format.container).toBe(want.container);
    expect(meta.format.codec).toBe(want.codec);
    expect(meta.format.sampleRate).toBe(RATE);
    expect(meta.format.numberOfChannels).toBe(1);
    const ms = meta.format.duration! * 1000;
    expect(durationMatches(ms, durationMs), `${ms} ms for ${durationMs}`).toBe(true);
    expect(Math.abs(ms - durationMs), `${ms} ms for ${durationMs}`).toBeLessThanOrEqual(Math.max(want.toleranceMs, (shortest[format] ?? 0) - durationMs));
    if (format === 'wav') {
      const data = wavData(bytes);
      expect(data.length).toBe(samples * 2);
      expect(rms(int16(data))).toBeGreaterThan(500);
    }
    if (format === 'flac') {
      expect(meta.format.bitsPerSample).toBe(16);
      expect(Math.round(meta.format.duration! * RATE)).toBe(samples); // STREAMINFO's total samples
    }
  });

  it('flac frames count up and carry valid CRC-8 (header) and CRC-16 (frame) checks', async () => {
    const enc = await encodedAudio('flac', 7 * 60_000 + 7, 2); // 2188 frames: 1- to 3-byte frame numbers; a short last frame
    const crc = (bytes: Uint8Array, width: 8 | 16, poly: number) => {
      let c = 0;
      for (const b of bytes) {
        c ^= b << (width - 8);
        for (let k = 0; k < 8; k++) c = c & (1 << (width - 1)) ? ((c << 1) ^ poly) & ((1 << width) - 1) : (c << 1) & ((1 << width) - 1);
      }
      return c;
    };
    for (const [k, { data }] of enc.packets.entries()) {
      expect([data[0], data[1]]).toEqual([0xff, 0xf8]);
      const lead = Math.clz32(~(data[4] << 24)); // UTF-8-like length of the frame number
      let number = lead === 0 ? data[4] : data[4] & (0x7f >> lead);
      for (let i = 1; i < Math.max(1, lead); i++) number = number * 64 + (data[4 + i] & 0x3f);
      expect(number).toBe(k);
      const code = data[2] >> 4;
      const headerEnd = 4 + Math.max(1, lead) + (code === 6 ? 1 : code === 7 ? 2 : 0);
      expect(data[headerEnd]).toBe(crc(data.subarray(0, headerEnd), 8, 0x07));
      expect((data[data.length - 2] << 8) | data[data.length - 1]).toBe(crc(data.subarray(0, data.length - 2), 16, 0x8005));
    }
    expect(enc.packets.at(-1)!.data[2] >> 4).toBe(7); // the short last frame gives its size
  });

  it('ogg pages are in sequence, with valid CRC-32 checks, granule positions counting up, BOS first and EOS last', async () => {
    const bytes = await renderAudio({ format: 'opus', durationMs: 61_000, variant: 2 });
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
    const pages: { flags: number; granule: number; seq: number }[] = [];
    for (let at = 0; at < bytes.length;) {
      expect(String.fromCharCode(...bytes.subarray(at, at + 4))).toBe('OggS');
      const segments = bytes[at + 26];
      let size = 27 + segments;
      for (let i = 0; i < segments; i++) size += bytes[at + 27 + i];
      const page = bytes.slice(at, at + size);
      page.fill(0, 22, 26);
      let c = 0;
      for (const b of page) {
        c ^= b << 24;
        for (let k = 0; k < 8; k++) c = c & 0x80000000 ? (c << 1) ^ 0x04c11db7 : c << 1;
      }
      expect(dv.getUint32(at + 22, true)).toBe(c >>> 0);
      pages.push({ flags: bytes[at + 5], granule: dv.getUint32(at + 6, true) + dv.getUint32(at + 10, true) * 2 ** 32, seq: dv.getUint32(at + 18, true) });
      at += size;
    }
    expect(pages.map((p) => p.seq)).toEqual(pages.map((_, i) => i));
    expect(pages.map((p) => p.flags)).toEqual([2, ...Array(pages.length - 2).fill(0), 4]);
    for (let i = 1; i < pages.length; i++) expect(pages[i].granule).toBeGreaterThanOrEqual(pages[i - 1].granule);
    const preSkip = dv.getUint16(28 + 10, true); // in the OpusHead on the first page
    expect(pages.at(-1)!.granule - preSkip).toBe(61_000 * 48);
  });

  it('wav carries the same samples as pcm', async () => {
    const pcm = await renderAudio({ format: 'pcm', durationMs: 4321, variant: 3 });
    const wav = await renderAudio({ format: 'wav', durationMs: 4321, variant: 3 });
    expect(same(wavData(wav), pcm)).toBe(true);
  });

  it('pcm is never silent for long: every 2 s window has sound, and no window is louder than the loop allows', async () => {
    const pcm = int16(await renderAudio({ format: 'pcm', durationMs: 20_000, variant: 5 }));
    for (let at = 0; at + 2 * RATE <= pcm.length; at += RATE / 2) expect(rms(pcm.subarray(at, at + 2 * RATE))).toBeGreaterThan(1000);
    let peak = 0;
    for (const v of pcm) peak = Math.max(peak, Math.abs(v));
    expect(peak).toBeLessThan(16_384);
  });

  it('repeats the loop without a jump at the seam (the seam is silent)', async () => {
    const pcm = int16(await renderAudio({ format: 'pcm', durationMs: 6000, variant: 2 }));
    const seam = 46_080; // one loop
    for (const at of [seam, 2 * seam]) for (let i = at - 240; i < at + 240; i++) expect(pcm[i]).toBe(0);
  });

  it.each(audioFormats)('%s: the same spec gives the same bytes; another variant other bytes; variant 6 is variant 0', async (format) => {
    const a = await renderAudio({ format, durationMs: 7500, variant: 0 });
    const b = await renderAudio({ format, durationMs: 7500, variant: 0 });
    const c = await renderAudio({ format, durationMs: 7500, variant: 1 });
    const d = await renderAudio({ format, durationMs: 7500, variant: 6 });
    expect(same(a, b)).toBe(true);
    expect(same(a, c)).toBe(false);
    expect(same(a, d)).toBe(true);
  });

  it('every variant of a handful sounds different (pcm differs pairwise)', async () => {
    const renders = await Promise.all([0, 1, 2, 3, 4, 5].map((variant) => renderAudio({ format: 'pcm', durationMs: 1000, variant })));
    for (let i = 0; i < renders.length; i++) for (let j = i + 1; j < renders.length; j++) expect(same(renders[i], renders[j])).toBe(false);
  });

  it('renders an hour', async () => {
    const bytes = await renderAudio({ format: 'mp3', durationMs: 3_600_000, variant: 4 });
    const meta = await parseBuffer(bytes, { mimeType: 'audio/mpeg' }, { duration: true });
    expect(meta.format.duration).toBeCloseTo(3600, 1);
  });

  it.each([0, -5, Number.NaN, Number.POSITIVE_INFINITY, audioMaxDurationMs + 1])('throws RangeError for a duration of %s ms', async (durationMs) => {
    await expect(renderAudio({ format: 'mp3', durationMs, variant: 0 })).rejects.toThrow(RangeError);
    await expect(encodedAudio('aac', durationMs, 0)).rejects.toThrow(RangeError);
  });

  it.each([-1, 1.5, Number.NaN])('throws RangeError for variant %s', async (variant) => {
    await expect(renderAudio({ format: 'wav', durationMs: 1000, variant })).rejects.toThrow(RangeError);
  });
});

describe('encodedAudio', () => {
  const codecs = ['aac', 'mp3', 'opus', 'flac'] as const;
  const frameMs = { aac: AAC_FRAME_MS, mp3: 24, opus: 20, flac: 0 };

  const encodedCases = codecs.flatMap((c) => [500, 3700, 61_000, long].map((d) => [c, d] as const));

  it.each(encodedCases)('%s of %i ms: contiguous packets summing to the duration', async (codec, durationMs) => {
    const enc = await encodedAudio(codec, durationMs, 2);
    expect(enc.sampleRate).toBe(RATE);
    expect(enc.numberOfChannels).toBe(1);
    expect(enc.packets.length).toBeGreaterThan(0);
    let next = 0;
    for (const p of enc.packets) {
      expect(p.timestamp).toBeCloseTo(next, 9);
      expect(p.duration).toBeGreaterThan(0);
      expect(p.data.length).toBeGreaterThan(0);
      next = p.timestamp + p.duration;
    }
    expect(Math.abs(next * 1000 - durationMs)).toBeLessThanOrEqual(frameMs[codec] / 2 + 1e-6);
  });

  it('aac: raw AAC-LC frames and their AudioSpecificConfig; the ADTS file is these frames with headers', async () => {
    const enc = await encodedAudio('aac', 3700, 1);
    expect(enc.codec).toBe('mp4a.40.2');
    expect([...enc.description!]).toEqual([0x13, 0x08]); // AAC-LC, 24 kHz, mono
    const file = await renderAudio({ format: 'aac', durationMs: 3700, variant: 1 });
    let at = 0;
    for (const p of enc.packets) {
      expect([file[at], file[at + 1] & 0xf6]).toEqual([0xff, 0xf0]); // ADTS sync
      const len = ((file[at + 3] & 3) << 11) | (file[at + 4] << 3) | (file[at + 5] >> 5);
      expect(same(file.subarray(at + 7, at + len), p.data)).toBe(true);
      at += len;
    }
    expect(at).toBe(file.length);
  });

  it('mp3 and flac: the file is the description and the packets back to back', async () => {
    const mp3 = await encodedAudio('mp3', 3700, 1);
    expect(mp3.codec).toBe('mp3');
    expect(mp3.description).toBeUndefined();
    expect(same(Buffer.concat(mp3.packets.map((p) => p.data)), await renderAudio({ format: 'mp3', durationMs: 3700, variant: 1 }))).toBe(true);
    const flac = await encodedAudio('flac', 3700, 1);
    expect(flac.codec).toBe('flac');
    expect(String.fromCharCode(...flac.description!.subarray(0, 4))).toBe('fLaC');
    const flacFile = await renderAudio({ format: 'flac', durationMs: 3700, variant: 1 });
    expect(same(Buffer.concat([flac.description!, ...flac.packets.map((p) => p.data)]), flacFile)).toBe(true);
  });

  it('opus: 20 ms packets and an OpusHead for one channel at 24 kHz', async () => {
    const enc = await encodedAudio('opus', 3700, 1);
    const head = enc.description!;
    expect(String.fromCharCode(...head.subarray(0, 8))).toBe('OpusHead');
    expect(head[9]).toBe(1);
    expect(new DataView(head.buffer, head.byteOffset).getUint32(12, true)).toBe(RATE);
    expect(enc.packets.every((p) => p.duration === 0.02)).toBe(true);
  });

  it.each(codecs)('%s packets mux into an MP4 (mediabunny) that decodes for the duration', async (codec) => {
    const enc = await encodedAudio(codec, 5000, 3);
    const output = new Output({ format: new Mp4OutputFormat(), target: new BufferTarget() });
    const source = new EncodedAudioPacketSource(codec);
    output.addAudioTrack(source);
    await output.start();
    for (const [i, p] of enc.packets.entries()) {
      const decoderConfig = { codec: enc.codec, sampleRate: enc.sampleRate, numberOfChannels: enc.numberOfChannels, description: enc.description };
      await source.add(new EncodedPacket(p.data, 'key', p.timestamp, p.duration), i === 0 ? { decoderConfig } : undefined);
    }
    await output.finalize();
    const meta = await parseBuffer(new Uint8Array(output.target.buffer!), { mimeType: 'video/mp4' }, { duration: true });
    expect(meta.format.sampleRate).toBe(RATE);
    expect(meta.format.numberOfChannels).toBe(1);
    expect(Math.abs(meta.format.duration! * 1000 - 5000)).toBeLessThanOrEqual(Math.max(1, frameMs[codec]));
  });
});

describe('hlsAudio', () => {
  beforeAll(() => loadAudioLoops()); // hlsAudio is synchronous: the loops it copies load on first use
  it.each([
    [100, undefined],
    [5000, undefined],
    [61_000, undefined],
    [61_000, 2000],
    [61_000, 10_000],
    [long, undefined],
  ])('%i ms in segments of %s ms: a VOD playlist whose segments decode and add up to the duration', async (durationMs, segmentMs) => {
    const hls = hlsAudio(durationMs, 1, segmentMs === undefined ? {} : { segmentMs });
    expect(hls.segmentContentType).toBe('audio/aac');
    expect(hls.segmentExtension).toBe('aac');
    const text = hls.playlist((n) => `seg/${n}.aac`);
    expect(text.split('\n').slice(0, 1)).toEqual(['#EXTM3U']);
    expect(text).toMatch(/^#EXT-X-VERSION:\d+$/m);
    expect(text.trimEnd().endsWith('#EXT-X-ENDLIST')).toBe(true);
    const manifest = parsePlaylist(text);
    expect(manifest.playlistType).toBe('VOD');
    expect(manifest.endList).toBe(true);
    expect(manifest.segments.map((s) => s.uri)).toEqual(Array.from({ length: hls.segmentCount }, (_, n) => `seg/${n}.aac`));
    const limit = (segmentMs ?? 6000) / 1000;
    for (const [n, s] of manifest.segments.entries()) {
      expect(Math.round(s.duration)).toBeLessThanOrEqual(manifest.targetDuration!);
      if (n < manifest.segments.length - 1) expect(s.duration).toBeLessThanOrEqual(limit);
    }
    const listed = manifest.segments.reduce((t, s) => t + s.duration, 0) * 1000;
    expect(durationMatches(listed, durationMs)).toBe(true);
    expect(Math.abs(listed - durationMs)).toBeLessThanOrEqual(Math.max(AAC_FRAME_MS / 2, 128 - durationMs) + 0.01);

    let decoded = 0;
    let startSeconds = 0;
    const bodies: Uint8Array[] = [];
    for (let n = 0; n < hls.segmentCount; n++) {
      const seg = await hls.segment(n);
      // ID3v2 tag with the PRIV transport stream timestamp of the segment's start (90 kHz).
      expect(String.fromCharCode(...seg.subarray(0, 3))).toBe('ID3');
      const tagSize = 10 + ((seg[6] << 21) | (seg[7] << 14) | (seg[8] << 7) | seg[9]);
      const owner = 'com.apple.streaming.transportStreamTimestamp';
      expect(String.fromCharCode(...seg.subarray(10, 14))).toBe('PRIV');
      expect(String.fromCharCode(...seg.subarray(20, 20 + owner.length + 1))).toBe(`${owner}\0`);
      const ts = new DataView(seg.buffer, seg.byteOffset + 20 + owner.length + 1, 8);
      expect(ts.getUint32(0) * 2 ** 32 + ts.getUint32(4)).toBeCloseTo(startSeconds * 90_000, 0);
      bodies.push(seg.subarray(tagSize));
      const meta = await parseBuffer(seg, { mimeType: 'audio/aac' }, { duration: true });
      expect(meta.format.container).toBe('ADTS/MPEG-4');
      expect(meta.format.sampleRate).toBe(RATE);
      expect(meta.format.numberOfChannels).toBe(1);
      expect(Math.abs(meta.format.duration! - manifest.segments[n].duration) * 1000).toBeLessThanOrEqual(AAC_FRAME_MS + 0.01);
      decoded += meta.format.duration! * 1000;
      startSeconds += hls.segmentSeconds[n];
    }
    expect(durationMatches(decoded, durationMs)).toBe(true);
    // Without their tags, the segments are the AAC file of the same audio.
    expect(same(Buffer.concat(bodies), await renderAudio({ format: 'aac', durationMs, variant: 1 }))).toBe(true);
  });

  it('renders one segment of a three-hour stream on its own, and no segment outside it', async () => {
    const hls = hlsAudio(3 * 3_600_000, 0);
    expect(hls.segmentCount).toBe(Math.ceil((3 * 3_600_000) / (140 * AAC_FRAME_MS)));
    const seg = await hls.segment(1000);
    expect(seg.length).toBeLessThan(100_000); // about 6 s at ~40 kbit/s
    await expect(hls.segment(hls.segmentCount)).rejects.toThrow(RangeError);
    await expect(hls.segment(-1)).rejects.toThrow(RangeError);
  });

  it('throws RangeError for a bad duration or segment length', () => {
    expect(() => hlsAudio(0, 0)).toThrow(RangeError);
    expect(() => hlsAudio(Number.NaN, 0)).toThrow(RangeError);
    expect(() => hlsAudio(1000, 0, { segmentMs: 10 })).toThrow(RangeError);
  });
});

describe('SRT', () => {
  const texts = [
    'Hello there.',
    'Welcome back to the show. Today we talk about synthetic audio, mock servers, and why deterministic fixtures matter! Ready? Let us begin…',
    `  Whitespace\n\n  is   collapsed.\tA sentence without an end ${'and a very long tail that keeps going '.repeat(6)}`,
    `A word longer than any cue: ${'x'.repeat(120)} stays whole.`,
  ];
  const normalize = (s: string) => s.split(/\s+/).filter(Boolean).join(' ');

  const srtCases = texts.flatMap((t) => [1000, 61_234, 4_000_000].map((d) => [t, d] as const));

  it.each(srtCases)('%#: cues parse, in order, over the duration, and give the text back', (text, durationMs) => {
    const cues = cuesForText(text, durationMs);
    const parsed = new SrtParser().fromSrt(renderSrt(cues));
    expect(parsed.length).toBe(cues.length);
    expect(parsed.map((c) => c.id)).toEqual(cues.map((_, i) => String(i + 1)));
    expect(parsed[0].startSeconds).toBe(0);
    expect(Math.round(parsed[parsed.length - 1].endSeconds * 1000)).toBe(durationMs);
    for (const [i, c] of parsed.entries()) {
      expect(c.endSeconds).toBeGreaterThan(c.startSeconds);
      if (i > 0) expect(c.startSeconds).toBeGreaterThanOrEqual(parsed[i - 1].endSeconds);
      expect(c.text.split('\n').length).toBeLessThanOrEqual(2);
      if (!/x{81}/.test(c.text)) expect(c.text.length).toBeLessThanOrEqual(81);
    }
    expect(normalize(parsed.map((c) => c.text).join(' '))).toBe(normalize(text));
    // Timed in proportion to length: each cue's share of the time is its share of the characters (to a ms).
    const total = cues.reduce((n, c) => n + c.text.length, 0);
    for (const c of cues) expect(Math.abs(c.endMs - c.startMs - (durationMs * c.text.length) / total)).toBeLessThanOrEqual(1);
  });

  it('cuts at sentence ends and keeps sentences whole when short', () => {
    const cues = cuesForText('One. Two! Three? Four… Five', 5000);
    expect(cues.map((c) => c.text)).toEqual(['One.', 'Two!', 'Three?', 'Four…', 'Five']);
    expect(cues.map((c) => [c.startMs, c.endMs])).toEqual([
      [0, 870],
      [870, 1739],
      [1739, 3043],
      [3043, 4130],
      [4130, 5000],
    ]);
  });

  it('writes SubRip times with hours, and nothing for no text', () => {
    expect(renderSrt([{ startMs: 3_723_004, endMs: 3_723_450, text: 'a\n\nb' }])).toBe('1\n01:02:03,004 --> 01:02:03,450\na\nb\n\n');
    expect(cuesForText('  \n ', 1000)).toEqual([]);
    expect(renderSrt([])).toBe('');
    expect(() => cuesForText('a', 0)).toThrow(RangeError);
    expect(() => renderSrt([{ startMs: 5, endMs: 4, text: 'a' }])).toThrow(RangeError);
  });
});

describe('renderMidi', () => {
  const midiCases = [100, 1234, 61_000, 3_600_000].flatMap((d) => [0, 1, 7].map((v) => [d, v] as const));

  it.each(midiCases)('%i ms, variant %i: a Standard MIDI File whose notes span the duration', (durationMs, variant) => {
    const bytes = renderMidi({ durationMs, variant });
    expect(String.fromCharCode(...bytes.subarray(0, 4))).toBe('MThd');
    const raw = parseMidi(bytes);
    expect(raw.header.format).toBe(0);
    expect(raw.tracks.length).toBe(1);
    expect(raw.tracks[0].at(-1)!.type).toBe('endOfTrack');
    const midi = new Midi(bytes);
    expect(midi.header.tempos[0].bpm).toBe(120);
    expect(Math.abs(midi.duration * 1000 - durationMs)).toBeLessThanOrEqual(5);
    const notes = midi.tracks[0].notes;
    expect(notes.length).toBeGreaterThanOrEqual(Math.floor(durationMs / 1000));
    expect(notes.length).toBeGreaterThan(0);
    expect(notes[0].time).toBe(0);
    for (let i = 1; i < notes.length; i++) expect(notes[i].time).toBeGreaterThanOrEqual(notes[i - 1].time + notes[i - 1].duration - 1e-9);
    for (const n of notes) expect(n.midi).toBeGreaterThanOrEqual(36);
  });

  it('is deterministic; variants differ in notes, and in instrument within six', () => {
    const a = renderMidi({ durationMs: 10_000, variant: 2 });
    expect(same(a, renderMidi({ durationMs: 10_000, variant: 2 }))).toBe(true);
    const instruments = [0, 1, 2, 3, 4, 5].map((variant) => new Midi(renderMidi({ durationMs: 2000, variant })).tracks[0].instrument.number);
    expect(new Set(instruments).size).toBe(6);
    const melody = (variant: number) => new Midi(renderMidi({ durationMs: 10_000, variant })).tracks[0].notes.map((n) => `${n.midi}@${n.ticks}`).join(' ');
    expect(melody(0)).not.toBe(melody(6));
  });

  it('throws RangeError for a bad duration or variant', () => {
    expect(() => renderMidi({ durationMs: 0, variant: 0 })).toThrow(RangeError);
    expect(() => renderMidi({ durationMs: Number.POSITIVE_INFINITY, variant: 0 })).toThrow(RangeError);
    expect(() => renderMidi({ durationMs: 1000, variant: -1 })).toThrow(RangeError);
  });
});

const hasFfmpeg = spawnSync('ffmpeg', ['-version']).status === 0;

describe.skipIf(!hasFfmpeg)('with ffmpeg (where installed)', () => {
  /** Decodes with ffmpeg to 24 kHz mono 16-bit samples; fails on any error it prints. */
  function ffmpegDecode(bytes: Uint8Array, inputArgs: string[] = []): Int16Array {
    const args = ['-nostdin', '-v', 'error', ...inputArgs, '-i', 'pipe:0', '-f', 's16le', '-ar', String(RATE), '-ac', '1', 'pipe:1'];
    const r = spawnSync('ffmpeg', args, { input: bytes, maxBuffer: 1 << 30 });
    expect(r.stderr.toString()).toBe('');
    expect(r.status).toBe(0);
    return int16(new Uint8Array(r.stdout));
  }

  const ffmpegCases = audioFormats.flatMap((f) => [100, 3700, 61_000].map((d) => [f, d] as const));

  it.each(ffmpegCases)('%s of %i ms decodes without an error, for the duration', async (format, durationMs) => {
    const bytes = await renderAudio({ format, durationMs, variant: 2 });
    const samples = ffmpegDecode(bytes, format === 'pcm' ? ['-f', 's16le', '-ar', String(RATE), '-ac', '1'] : []);
    const ms = (samples.length * 1000) / RATE;
    const tolerance = Math.max(expected[format === 'pcm' ? 'wav' : format].toleranceMs, (shortest[format] ?? 0) - durationMs);
    expect(Math.abs(ms - durationMs), `${ms} ms for ${durationMs}`).toBeLessThanOrEqual(tolerance);
    if (durationMs > 1000) expect(rms(samples)).toBeGreaterThan(500);
  });

  it('flac is lossless: it decodes to the pcm samples', async () => {
    const flac = await renderAudio({ format: 'flac', durationMs: 12_345, variant: 4 });
    const pcm = await renderAudio({ format: 'pcm', durationMs: 12_345, variant: 4 });
    expect(same(new Uint8Array(ffmpegDecode(flac).buffer), pcm)).toBe(true);
  });
});
