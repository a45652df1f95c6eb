/**
 * mp3 and aac: committed frames of the loop copied back to back (MPEG-2 Layer
 * III without bit reservoir; ADTS AAC-LC), cut to whole frames
 * (mock/media/audio.ts re-exports the public part).
 */
import { audioFrameSamples, fillCyclic, fromBase64, loops, memo, RATE } from './loops.ts';

export interface FrameLoop {
  bytes: Uint8Array;
  offsets: number[];
}

/** MPEG-2 Layer III bit rates, kbit/s, by index. */
const MP3_KBPS = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];

/**
 * Where each frame of a raw MPEG-2 Layer III stream at 24 kHz starts (`offsets[i]`; the last entry is the length),
 * from the frame headers' bit rate and padding. Throws RangeError at a byte that is not a frame header.
 */
export function mp3FrameOffsets(bytes: Uint8Array): number[] {
  const offsets = [0];
  for (let at = 0; at < bytes.length;) {
    const kbps = MP3_KBPS[bytes[at + 2] >> 4];
    if (bytes[at] !== 0xff || (bytes[at + 1] & 0xe0) !== 0xe0 || !kbps) throw new RangeError(`mp3: no frame header at byte ${at}`);
    at += Math.floor((72_000 * kbps) / RATE) + ((bytes[at + 2] >> 1) & 1);
    offsets.push(at);
  }
  return offsets;
}

const mp3Loop = memo((v): FrameLoop => {
  const bytes = fromBase64(loops().mp3Loops[v]);
  return { bytes, offsets: mp3FrameOffsets(bytes) };
});

export const aacLoop = memo((v): FrameLoop & { headerBytes: number[] } => {
  const bytes = fromBase64(loops().aacLoops[v]);
  const offsets = [0];
  const headerBytes: number[] = [];
  for (let at = 0; at < bytes.length;) {
    headerBytes.push(bytes[at + 1] & 1 ? 7 : 9); // protection_absent: no CRC
    at += ((bytes[at + 3] & 3) << 11) | (bytes[at + 4] << 3) | (bytes[at + 5] >> 5);
    offsets.push(at);
  }
  return { bytes, offsets, headerBytes };
});

export function frameLoop(codec: 'mp3' | 'aac', variant: number): FrameLoop {
  return codec === 'mp3' ? mp3Loop(variant) : aacLoop(variant);
}

/**
 * Frames from..to-1 of the endless repetition of `loop`, copied back to back
 * into a new array, and where frame k starts in it (`start(k)`, from..to).
 */
export function loopRange(loop: FrameLoop, from: number, to: number): { bytes: Uint8Array; start: (k: number) => number } {
  const { bytes, offsets } = loop;
  const frames = offsets.length - 1;
  const pos = (k: number) => Math.floor(k / frames) * bytes.length + offsets[k % frames];
  const first = pos(from);
  const out = new Uint8Array(pos(to) - first);
  if (out.length > 0) fillCyclic(out, bytes, first % bytes.length);
  return { bytes: out, start: (k) => pos(k) - first };
}

/**
 * Fewest frames of a frame-copied stream: 5 MP3 frames (120 ms), 3 AAC frames
 * (128 ms). Parsers recognize a raw MP3 or ADTS stream by several frames in a
 * row (music-metadata needs this many to report a duration, ffmpeg fails to
 * probe 2 ADTS frames), so a shorter request gets this much.
 */
export const audioMinFrames = { mp3: 5, aac: 3 } as const;

/**
 * Frames of the frame-copied codecs for `durationMs` (ms, > 0; not checked):
 * the nearest whole number, at least `audioMinFrames`. Throws nothing.
 * Serves document 2, "POST /v1/tts and POST /v1/audio/speech" and "Podcast episode" (the lengths of mp3, aac and HLS).
 */
export function audioFrameCount(codec: 'mp3' | 'aac', durationMs: number): number {
  return Math.max(audioMinFrames[codec], Math.round((durationMs * RATE) / 1000 / audioFrameSamples[codec]));
}

/**
 * Frames `from` (inclusive) to `to` (exclusive) of the endless stream of
 * `codec` frames for `variant`, back to back in a new array: MP3 frames or
 * ADTS frames, each self-contained, so any range is a playable file; frames
 * 0..audioFrameCount(codec, d) - 1 are `renderAudio` of duration d.
 * Throws RangeError for a bad range or variant.
 * Serves the HLS segments of document 2, "Podcast episode".
 */
export function audioFrames(codec: 'mp3' | 'aac', variant: number, from: number, to: number): Uint8Array {
  if (!Number.isInteger(variant) || variant < 0) throw new RangeError(`audio variant must be an integer >= 0, got ${variant}`);
  if (!Number.isInteger(from) || !Number.isInteger(to) || from < 0 || to < from) throw new RangeError(`bad frame range ${from}-${to}`);
  return loopRange(frameLoop(codec, variant), from, to).bytes;
}
