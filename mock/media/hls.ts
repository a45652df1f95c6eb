/**
 * HLS for rendered audio of any length (document 2, "Podcast episode": the
 * episode's .m3u8): a VOD media playlist and its segments, each rendered on
 * its own, so a media server can serve segment n of a three-hour episode
 * without rendering the rest.
 *
 * Segments are packed audio (RFC 8216, "Packed Audio"): ADTS AAC-LC frames
 * (24 kHz mono, the frames of `renderAudio('aac')`) behind an ID3 tag whose
 * PRIV frame `com.apple.streaming.transportStreamTimestamp` gives the
 * segment's start, as the spec requires. Chosen over MPEG-TS because each
 * segment is a few bytes of ID3 plus copied frames (no PES packetization,
 * continuity counters or PAT/PMT), Safari and hls.js both play packed AAC, and
 * every segment is itself a playable .aac file; AAC over MP3 because it is the
 * codec the HLS authoring guidance names first for audio. Audio spoken in words
 * is packed MP3 instead (`hlsMp3`: the mock has no AAC encoder, and the
 * episode MP3's own frames, which stand alone, make the segments).
 * Standard JavaScript only.
 */
import { concatBytes } from './bytes.ts';
import { audioFrameCount, audioFrames, audioFrameSamples, audioMaxDurationMs, audioMinFrames } from './audio.ts';

/** An HLS rendition of one audio: the playlist and its segments. */
export interface HlsAudio {
  /** Number of segments (at least 1). */
  segmentCount: number;
  /** Content-Type of every segment (`audio/aac`). */
  segmentContentType: string;
  /** File extension of the segments, without the dot (`aac`). */
  segmentExtension: string;
  /** Durations of the segments, seconds (as in the playlist's EXTINF tags). */
  segmentSeconds: number[];
  /** The VOD media playlist (M3U8 text), with `segmentUrl(n)` as the URI of segment n (0-based). */
  playlist(segmentUrl: (n: number) => string): string;
  /** The bytes of segment n (0-based); throws RangeError outside 0..segmentCount - 1. */
  segment(n: number): Promise<Uint8Array>;
}

const RATE = 24_000;
const FRAME = audioFrameSamples.aac;
/** Timestamps of the ID3 PRIV tag are 33-bit MPEG-2 timestamps, 90 kHz. */
const TS_HZ = 90_000;
const OWNER = 'com.apple.streaming.transportStreamTimestamp';

/** An ID3v2.4 tag with one PRIV frame: the transport stream timestamp `pts` (90 kHz units). */
function timestampTag(pts: number): Uint8Array {
  const owner = new TextEncoder().encode(OWNER);
  const frameSize = owner.length + 1 + 8;
  const out = new Uint8Array(10 + 10 + frameSize);
  out.set([0x49, 0x44, 0x33, 4, 0, 0], 0); // "ID3", version 2.4.0, no flags
  const syncsafe = (at: number, n: number) => {
    for (let i = 0; i < 4; i++) out[at + i] = (n >> (7 * (3 - i))) & 0x7f;
  };
  syncsafe(6, 10 + frameSize);
  out.set([0x50, 0x52, 0x49, 0x56], 10); // "PRIV"
  syncsafe(14, frameSize); // frame flags (2 bytes) stay 0
  out.set(owner, 20);
  const at = 20 + owner.length + 1; // after the owner's terminating zero
  const ts = pts % 2 ** 33;
  out[at + 3] = Math.floor(ts / 2 ** 32); // the top 31 bits are zero
  new DataView(out.buffer).setUint32(at + 4, ts % 2 ** 32);
  return out;
}

/**
 * HLS of `durationMs` (ms, > 0, at most `audioMaxDurationMs`) of audio, pitch
 * `variant` (an integer >= 0, as `renderAudio`), in segments of about
 * `opts.segmentMs` (default 6000; never longer, except that a last segment
 * under 128 ms joins the one before it). The segments together are the
 * frames of `renderAudio({ format: 'aac', durationMs, variant })`, so they
 * last the duration to the nearest 42.7 ms AAC frame, and the playlist's
 * EXTINF durations are theirs exactly (to the microsecond).
 * `opts.voices` changes the variant along the audio (a multi-voice script):
 * each `{startMs, variant}` takes over from the AAC frame nearest `startMs`
 * (ms from the start) to the next one's; before the first, `variant` plays.
 * Throws RangeError for a duration <= 0, over the limit or not finite, a bad
 * variant, or a segment length under one AAC frame or not finite.
 * Serves document 2, "Podcast episode" (HLS .m3u8).
 */
export function hlsAudio(
  durationMs: number,
  variant: number,
  opts: { segmentMs?: number; voices?: readonly { startMs: number; variant: number }[] } = {},
): HlsAudio {
  if (!Number.isFinite(durationMs) || durationMs <= 0) throw new RangeError(`audio duration must be a positive number of ms, got ${durationMs}`);
  if (durationMs > audioMaxDurationMs) throw new RangeError(`audio duration ${durationMs} ms is over the ${audioMaxDurationMs} ms limit`);
  if (!Number.isInteger(variant) || variant < 0) throw new RangeError(`audio variant must be an integer >= 0, got ${variant}`);
  const segmentMs = opts.segmentMs ?? 6000;
  const perSegment = Math.floor((segmentMs * RATE) / 1000 / FRAME);
  if (!Number.isFinite(segmentMs) || perSegment < 1)
    throw new RangeError(`HLS segments must last at least one AAC frame (${(FRAME * 1000) / RATE} ms), got ${segmentMs} ms`);
  const frames = audioFrameCount('aac', durationMs);
  // Where each voice starts, in AAC frames (ascending), and its variant.
  const voices = [{ from: 0, variant }];
  for (const v of opts.voices ?? []) {
    if (!Number.isInteger(v.variant) || v.variant < 0) throw new RangeError(`audio variant must be an integer >= 0, got ${v.variant}`);
    const from = Math.min(frames, Math.max(0, Math.round((v.startMs * RATE) / 1000 / FRAME)));
    while (voices.length > 0 && voices[voices.length - 1].from >= from) voices.pop();
    voices.push({ from, variant: v.variant });
  }
  /** Frames from..to-1 of the audio, each span in its voice. */
  const framesOf = (from: number, to: number): Uint8Array => {
    const parts: Uint8Array[] = [];
    voices.forEach((v, i) => {
      const end = i + 1 < voices.length ? voices[i + 1].from : Infinity;
      const a = Math.max(from, v.from);
      const b = Math.min(to, end);
      if (a < b) parts.push(audioFrames('aac', v.variant, a, b));
    });
    if (parts.length === 1) return parts[0];
    return concatBytes(parts);
  };
  return packedAudio({ frames, frameSamples: FRAME, minFrames: audioMinFrames.aac, perSegment, contentType: 'audio/aac', extension: 'aac', framesOf });
}

/**
 * HLS in packed MP3 (RFC 8216, "Packed Audio": MPEG-2 Layer III frames behind
 * the ID3 timestamp tag) of `frames` 24 ms frames (at least 1) that
 * `framesOf(from, to)` gives back to back; each segment is a playable .mp3
 * when every frame stands alone (no bit reservoir: lamejs's encoder and the
 * committed loops write such frames). Segments of about `opts.segmentMs`
 * (default 6000), a last one under 5 frames joining the one before it.
 * Throws RangeError for a frame count under 1 or a segment under one frame.
 * Serves document 2, "Podcast episode" (HLS .m3u8) when the episode speaks its words.
 */
export function hlsMp3(frames: number, framesOf: (from: number, to: number) => Promise<Uint8Array>, opts: { segmentMs?: number } = {}): HlsAudio {
  if (!Number.isInteger(frames) || frames < 1) throw new RangeError(`HLS mp3: frames must be an integer >= 1, got ${frames}`);
  const segmentMs = opts.segmentMs ?? 6000;
  const perSegment = Math.floor((segmentMs * RATE) / 1000 / audioFrameSamples.mp3);
  if (!Number.isFinite(segmentMs) || perSegment < 1)
    throw new RangeError(`HLS segments must last at least one MP3 frame (${(audioFrameSamples.mp3 * 1000) / RATE} ms), got ${segmentMs} ms`);
  return packedAudio({
    frames,
    frameSamples: audioFrameSamples.mp3,
    minFrames: audioMinFrames.mp3,
    perSegment,
    contentType: 'audio/mpeg',
    extension: 'mp3',
    framesOf,
  });
}

/** Packed-audio HLS of `frames` frames of `frameSamples` samples, `perSegment` to a segment (a tail under `minFrames` joins the one before). */
function packedAudio(p: {
  frames: number;
  frameSamples: number;
  minFrames: number;
  perSegment: number;
  contentType: string;
  extension: string;
  framesOf: (from: number, to: number) => Uint8Array | Promise<Uint8Array>;
}): HlsAudio {
  const { frames, frameSamples, perSegment } = p;
  // Frame boundaries of the segments: every `perSegment` frames; a short tail joins the segment before it.
  const starts: number[] = [];
  for (let f = 0; f < frames; f += perSegment) starts.push(f);
  if (starts.length > 1 && frames - starts[starts.length - 1] < p.minFrames) starts.pop();
  const bounds = [...starts, frames];
  const segmentSeconds = starts.map((f, n) => ((bounds[n + 1] - f) * frameSamples) / RATE);
  const segmentCount = starts.length;
  return {
    segmentCount,
    segmentContentType: p.contentType,
    segmentExtension: p.extension,
    segmentSeconds,
    playlist(segmentUrl) {
      const target = Math.ceil(segmentSeconds.reduce((a, b) => Math.max(a, b), 0));
      const lines = ['#EXTM3U', '#EXT-X-VERSION:3', `#EXT-X-TARGETDURATION:${target}`, '#EXT-X-MEDIA-SEQUENCE:0', '#EXT-X-PLAYLIST-TYPE:VOD'];
      for (let n = 0; n < segmentCount; n++) lines.push(`#EXTINF:${segmentSeconds[n].toFixed(6)},`, segmentUrl(n));
      lines.push('#EXT-X-ENDLIST', '');
      return lines.join('\n');
    },
    async segment(n) {
      if (!Number.isInteger(n) || n < 0 || n >= segmentCount) throw new RangeError(`no HLS segment ${n} (there are ${segmentCount})`);
      const tag = timestampTag((starts[n] * frameSamples * TS_HZ) / RATE);
      return concatBytes([tag, await p.framesOf(starts[n], bounds[n + 1])]);
    },
  };
}
