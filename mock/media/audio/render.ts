/**
 * The audio renderers' entry points (mock/media/audio.ts re-exports them):
 * whole files, files streamed a chunk at a time, and encoded packets for a
 * video's sound track.
 */
import type { AudioFormat } from '../../../schemas/media.ts';
import type { EncodedAudio, EncodedAudioPacket } from '../types.ts';
import { audioFrameSamples, checkSpec, fillCyclic, FLAC_BLOCK, loadAudioLoops, RATE } from './loops.ts';
import { aacLoop, audioFrameCount, audioFrames, frameLoop, loopRange } from './frames.ts';
import { pcmLoop, renderPcm, renderWav, sampleCount, wavHeader } from './pcm.ts';

/** The Ogg Opus and FLAC writers, loaded on first use: a page running the mock (MSW) fetches them only when it asks for such audio. */
const opusCodec = () => import('./opus.ts');
const flacCodec = () => import('./flac.ts');

// ---------------------------------------------------------------------------
// Public API

/**
 * Renders `durationMs` (ms, > 0, at most `audioMaxDurationMs`) of audio in
 * `format`, 24 kHz mono, pitch `variant` (an integer >= 0, taken modulo 6):
 * the bytes of a file of that format (`audioFileTypes` of schemas/media.ts);
 * pcm is raw 16-bit little-endian samples, no header. The decoded length is the
 * duration exactly (wav, pcm, flac, opus) or to the nearest whole frame (mp3:
 * 24 ms, aac: 42.7 ms; at least 120 and 128 ms, `audioMinFrames`). The same
 * inputs give the same bytes.
 * Throws RangeError for a duration <= 0, over the limit or not finite, or a bad variant.
 * Serves document 2, "POST /v1/tts and POST /v1/audio/speech" (all six formats)
 * and "Podcast episode" (the episode's MP3).
 */
export async function renderAudio(spec: { format: AudioFormat; durationMs: number; variant: number }): Promise<Uint8Array> {
  const { format, durationMs, variant } = spec;
  checkSpec(durationMs, variant);
  await loadAudioLoops();
  switch (format) {
    case 'mp3':
    case 'aac':
      return audioFrames(format, variant, 0, audioFrameCount(format, durationMs));
    case 'opus':
      return (await opusCodec()).renderOggOpus(durationMs, variant);
    case 'flac':
      return (await flacCodec()).flacStream(durationMs, variant).bytes;
    case 'wav':
      return renderWav(durationMs, variant);
    case 'pcm':
      return renderPcm(durationMs, variant, 0);
    default:
      throw new RangeError(`unknown audio format ${String(format)}`);
  }
}

/** Loops of PCM per chunk of a streamed wav or pcm body (10 loops: 19.2 s, 900 KiB). */
const PCM_CHUNK_LOOPS = 10;
/** Frames per chunk of a streamed mp3 (1,000 frames: 24 s) or aac (500 frames: 21.3 s) body. */
const STREAM_FRAMES = { mp3: 1000, aac: 500 } as const;

/**
 * The bytes of `renderAudio(spec)`, in chunks, made as they are read: mp3
 * and aac a run of frames at a time, wav and pcm ten loops (19.2 s) of
 * samples at a time (after the wav header), so a long body never sits in
 * memory whole; opus and flac are rendered whole and given as one chunk.
 * Joined, the chunks are exactly `renderAudio(spec)`.
 * Throws RangeError as `renderAudio`, before the first chunk.
 * Serves document 2, "POST /v1/tts and POST /v1/audio/speech" ("binary audio streamed as generated").
 */
export function streamAudio(spec: { format: AudioFormat; durationMs: number; variant: number }): AsyncIterable<Uint8Array> {
  const { format, durationMs, variant } = spec;
  checkSpec(durationMs, variant);
  async function* chunks(): AsyncGenerator<Uint8Array> {
    await loadAudioLoops();
    if (format === 'mp3' || format === 'aac') {
      const total = audioFrameCount(format, durationMs);
      for (let at = 0; at < total; at += STREAM_FRAMES[format]) yield audioFrames(format, variant, at, Math.min(total, at + STREAM_FRAMES[format]));
      return;
    }
    if (format === 'wav' || format === 'pcm') {
      const total = sampleCount(durationMs);
      if (format === 'wav') yield wavHeader(total * 2);
      const pattern = pcmLoop(variant);
      const perChunk = PCM_CHUNK_LOOPS * pattern.length;
      for (let at = 0; at < total * 2; at += perChunk) {
        const out = new Uint8Array(Math.min(perChunk, total * 2 - at));
        fillCyclic(out, pattern, 0);
        yield out;
      }
      return;
    }
    yield await renderAudio(spec);
  }
  return chunks();
}

/**
 * The encoded packets of `durationMs` (ms, > 0) of audio in `codec`, 24 kHz
 * mono, pitch `variant` (as `renderAudio`), with the decoder configuration, to
 * mux into a container (an MP4's sound track): timestamps and durations in
 * seconds, from 0, packets back to back. `description` is the
 * AudioSpecificConfig (aac, codec `mp4a.40.2`), the OpusHead (opus; its
 * pre-skip of the decoder's first samples applies) or "fLaC" and the
 * STREAMINFO block (flac); mp3 has none. The packets are whole frames (the
 * last flac one may be shorter), so their durations sum to the duration within
 * half a frame (flac: exactly; aac and mp3: at least `audioMinFrames`; opus:
 * 20 ms packets, at least one). The packets' data are views into one new
 * array per call (mp3, flac: the file's bytes).
 * Throws RangeError as `renderAudio`.
 * Serves the sound track of videos (document 2, as the rendered audio).
 */
export async function encodedAudio(codec: 'aac' | 'mp3' | 'opus' | 'flac', durationMs: number, variant: number): Promise<EncodedAudio> {
  checkSpec(durationMs, variant);
  await loadAudioLoops();
  const packets: EncodedAudioPacket[] = [];
  const base = { sampleRate: RATE, numberOfChannels: 1 };
  if (codec === 'mp3' || codec === 'aac') {
    const duration = audioFrameSamples[codec] / RATE;
    const count = audioFrameCount(codec, durationMs);
    const { bytes, start } = loopRange(frameLoop(codec, variant), 0, count);
    const headers = codec === 'aac' ? aacLoop(variant).headerBytes : undefined; // raw AAC: without the ADTS header
    for (let k = 0; k < count; k++) {
      const skip = headers ? headers[k % headers.length] : 0;
      packets.push({ data: bytes.subarray(start(k) + skip, start(k + 1)), timestamp: k * duration, duration });
    }
    if (codec === 'mp3') return { codec: 'mp3', ...base, packets };
    const b = bytes;
    const objectType = (b[2] >> 6) + 1;
    const rateIndex = (b[2] >> 2) & 15;
    const channels = ((b[2] & 1) << 2) | (b[3] >> 6);
    const asc = (objectType << 11) | (rateIndex << 7) | (channels << 3);
    return { codec: `mp4a.40.${objectType}`, ...base, description: new Uint8Array([asc >> 8, asc & 0xff]), packets };
  }
  if (codec === 'opus') {
    const loop = (await opusCodec()).opusLoop(variant);
    const count = Math.max(1, Math.round(durationMs / 20));
    const { bytes, start } = loopRange(loop, 0, count);
    for (let k = 0; k < count; k++) packets.push({ data: bytes.subarray(start(k), start(k + 1)), timestamp: k * 0.02, duration: 0.02 });
    return { codec: 'opus', ...base, description: loop.head.slice(), packets };
  }
  if (codec === 'flac') {
    const { bytes, frames, streamInfo } = (await flacCodec()).flacStream(durationMs, variant);
    let sample = 0;
    const total = sampleCount(durationMs);
    for (let k = 0; k + 1 < frames.length; k++) {
      const n = Math.min(FLAC_BLOCK, total - sample);
      packets.push({ data: bytes.subarray(frames[k], frames[k + 1]), timestamp: sample / RATE, duration: n / RATE });
      sample += n;
    }
    return { codec: 'flac', ...base, description: streamInfo, packets };
  }
  throw new RangeError(`unknown audio codec ${String(codec)}`);
}
