/**
 * Pure-JS decoders the media tests share: an MP4 parsed by mp4box (the movie
 * and every track's samples), the size of a PNG (pngjs), audio of the six
 * speech formats (music-metadata, detected from the bytes; raw pcm by length),
 * and the frames of MP3 and ADTS streams.
 */
import { createFile, MP4BoxBuffer, type Movie, type Sample } from 'mp4box';
import { parseBuffer } from 'music-metadata';
import { PNG } from 'pngjs';
import type { AudioFormat } from '../schemas/media.ts';

/** An MP4 as mp4box sees it. */
export interface ParsedMp4 {
  movie: Movie;
  /** Samples by track id. */
  samples: Map<number, Sample[]>;
  bytes: Uint8Array;
}

/** Parses a whole MP4 with mp4box; rejects when mp4box reports an error. */
export async function parseMp4(bytes: Uint8Array): Promise<ParsedMp4> {
  const file = createFile();
  const ready = new Promise<Movie>((resolve, reject) => {
    file.onReady = resolve;
    file.onError = (module, message) => reject(new Error(`${module}: ${message}`));
  });
  const ab = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  file.appendBuffer(MP4BoxBuffer.fromArrayBuffer(ab, 0), true);
  file.flush();
  const movie = await ready;
  const samples = new Map(movie.tracks.map((t) => [t.id, file.getTrackSamplesInfo(t.id)]));
  return { movie, samples, bytes };
}

/** Decodes a PNG with pngjs: its width and height (throws when it does not decode). */
export function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const png = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  return { width: png.width, height: png.height };
}

/** What music-metadata reports for each audio format with a container (raw `pcm` has none). */
export const audioSignatures: Record<Exclude<AudioFormat, 'pcm'>, { container: string; codec: string }> = {
  mp3: { container: 'MPEG', codec: 'MPEG 2 Layer 3' },
  opus: { container: 'Ogg', codec: 'Opus' },
  aac: { container: 'ADTS/MPEG-4', codec: 'AAC' },
  flac: { container: 'FLAC', codec: 'FLAC' },
  wav: { container: 'WAVE', codec: 'PCM' },
};

/** An audio file as decoded: its container and codec (music-metadata's names; undefined for raw pcm), rate, channels and duration. */
export interface DecodedAudio {
  container: string | undefined;
  codec: string | undefined;
  sampleRate: number | undefined;
  channels: number | undefined;
  durationMs: number;
}

/** The leading bytes that identify each format's file; raw pcm has none. */
function magicOf(bytes: Uint8Array, format: AudioFormat): boolean {
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  switch (format) {
    case 'mp3':
      return bytes[0] === 0xff && (bytes[1] & 0xe6) === 0xe2; // frame sync, Layer III
    case 'opus':
      return ascii(0, 4) === 'OggS' && ascii(28, 36) === 'OpusHead';
    case 'aac':
      return bytes[0] === 0xff && (bytes[1] & 0xf6) === 0xf0; // ADTS sync, layer 0
    case 'flac':
      return ascii(0, 4) === 'fLaC';
    case 'wav':
      return ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WAVE';
    case 'pcm':
      return bytes.length % 2 === 0;
  }
}

/**
 * Decodes `bytes` as audio of `format`: throws unless the file starts as that
 * format does (mp3 frame sync, OggS with OpusHead, ADTS sync, fLaC, RIFF/WAVE;
 * pcm: an even length). The container is detected from the bytes alone
 * (music-metadata, no MIME hint), so a file of another format reports another
 * container. Raw pcm is 16-bit little-endian mono at 24 kHz: length / 48 ms.
 */
export async function decodeAudio(bytes: Uint8Array, format: AudioFormat): Promise<DecodedAudio> {
  if (!magicOf(bytes, format)) throw new Error(`the bytes do not start as ${format} does: ${Buffer.from(bytes.subarray(0, 12)).toString('hex')}`);
  if (format === 'pcm') return { container: undefined, codec: undefined, sampleRate: 24_000, channels: 1, durationMs: bytes.length / 48 };
  const meta = await parseBuffer(bytes, undefined, { duration: true });
  return {
    container: meta.format.container,
    codec: meta.format.codec,
    sampleRate: meta.format.sampleRate,
    channels: meta.format.numberOfChannels,
    durationMs: (meta.format.duration ?? Number.NaN) * 1000,
  };
}

/** MPEG audio bit rates (kbit/s) by index: MPEG-1 Layer III, then MPEG-2/2.5 Layer III. */
const MPEG1_L3_KBPS = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const MPEG2_L3_KBPS = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const MPEG_RATES: Record<number, number[]> = { 3: [44_100, 48_000, 32_000], 2: [22_050, 24_000, 16_000], 0: [11_025, 12_000, 8_000] };

/** One Layer III frame of an MP3: its bytes and the samples it holds. */
export interface Mp3Frame {
  bytes: Uint8Array;
  sampleRate: number;
  samples: number;
}

/**
 * The Layer III frames of a raw MP3 stream (an ID3v2 tag first is skipped), by
 * their headers: each frame's length from its version, bit rate, sample rate
 * and padding. Throws at a byte that is not a frame header, or a frame cut short.
 */
export function mp3Frames(bytes: Uint8Array): Mp3Frame[] {
  const frames: Mp3Frame[] = [];
  let at = id3Length(bytes);
  while (at < bytes.length) {
    const [b1, b2] = [bytes[at + 1], bytes[at + 2]];
    const version = (b1 >> 3) & 3; // 3 MPEG-1, 2 MPEG-2, 0 MPEG-2.5
    if (bytes[at] !== 0xff || (b1 & 0xe0) !== 0xe0 || ((b1 >> 1) & 3) !== 1 || version === 1) throw new Error(`no MP3 Layer III frame header at byte ${at}`);
    const kbps = (version === 3 ? MPEG1_L3_KBPS : MPEG2_L3_KBPS)[b2 >> 4];
    const sampleRate = MPEG_RATES[version][(b2 >> 2) & 3];
    if (!kbps || !sampleRate) throw new Error(`bad bit rate or sample rate in the MP3 frame at byte ${at}`);
    const samples = version === 3 ? 1152 : 576;
    const length = Math.floor(((samples / 8) * kbps * 1000) / sampleRate) + ((b2 >> 1) & 1);
    if (at + length > bytes.length) throw new Error(`the MP3 frame at byte ${at} is cut short`);
    frames.push({ bytes: bytes.subarray(at, at + length), sampleRate, samples });
    at += length;
  }
  return frames;
}

/** Bytes of the ID3v2 tag `bytes` starts with (0 when none). */
export function id3Length(bytes: Uint8Array): number {
  if (bytes[0] !== 0x49 || bytes[1] !== 0x44 || bytes[2] !== 0x33) return 0;
  return 10 + ((bytes[6] << 21) | (bytes[7] << 14) | (bytes[8] << 7) | bytes[9]) + (bytes[5] & 0x10 ? 10 : 0);
}

/** The ADTS frames of an AAC stream (an ID3v2 tag first, as in HLS packed audio, is skipped). Throws at a byte that is not an ADTS header. */
export function adtsFrames(bytes: Uint8Array): Uint8Array[] {
  const frames: Uint8Array[] = [];
  let at = id3Length(bytes);
  while (at < bytes.length) {
    if (bytes[at] !== 0xff || (bytes[at + 1] & 0xf6) !== 0xf0) throw new Error(`no ADTS header at byte ${at}`);
    const length = ((bytes[at + 3] & 3) << 11) | (bytes[at + 4] << 3) | (bytes[at + 5] >> 5);
    if (length < 7 || at + length > bytes.length) throw new Error(`bad ADTS frame length ${length} at byte ${at}`);
    frames.push(bytes.subarray(at, at + length));
    at += length;
  }
  return frames;
}
