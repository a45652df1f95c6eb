/**
 * What the voice-cloning area needs to know of an uploaded reference file
 * (document 2, "Voice cloning": the reference audio is judged by its duration
 * and whether it holds speech): is it audio, how long it lasts, and, for
 * uncompressed PCM (WAV), whether it is digital silence; also its container
 * (the music-analysis endpoints take mp3, m4a and wav only). Read with mediabunny
 * (a dependency already, pure JS), which demuxes WAV, MP3, Ogg, FLAC, ADTS AAC
 * and MP4/M4A. Compressed audio is not decoded (no decoder runs here), so its
 * silence is not detected. Standard JavaScript only.
 */
import type * as Mediabunny from 'mediabunny';

/** The container of an audio file, as its bytes say (`mp4` for MP4 and QuickTime, m4a included; `other` for the rest mediabunny reads). */
export type AudioContainer = 'wav' | 'mp3' | 'mp4' | 'ogg' | 'flac' | 'adts' | 'other';

/**
 * What a reference file is: not audio, or audio of `durationMs` (ms), `silent`
 * when every PCM sample is zero, in `container` (read from the bytes), with
 * `video` true when the file also has a video track (an MP4 video, not an m4a).
 */
export type ReferenceAudio = { audio: false } | { audio: true; durationMs: number; codec: string; silent: boolean; container: AudioContainer; video: boolean };

let loaded: Promise<typeof Mediabunny> | undefined;
const load = () => (loaded ??= import('mediabunny'));

/** True when every sample of a PCM packet is digital silence (zero; 128 for unsigned 8-bit). */
function silentPcm(data: Uint8Array, codec: string): boolean {
  const zero = codec === 'pcm-u8' ? 0x80 : codec === 'ulaw' ? 0xff : codec === 'alaw' ? 0xd5 : 0;
  for (let i = 0; i < data.length; i++) if (data[i] !== zero) return false;
  return true;
}

/** The container of `format`. */
function containerOf(mb: typeof Mediabunny, format: Mediabunny.InputFormat): AudioContainer {
  if (format instanceof mb.WaveInputFormat) return 'wav';
  if (format instanceof mb.Mp3InputFormat) return 'mp3';
  if (format instanceof mb.Mp4InputFormat || format instanceof mb.QuickTimeInputFormat) return 'mp4';
  if (format instanceof mb.OggInputFormat) return 'ogg';
  if (format instanceof mb.FlacInputFormat) return 'flac';
  if (format instanceof mb.AdtsInputFormat) return 'adts';
  return 'other';
}

/**
 * Inspects `bytes`: `{audio: false}` when no container mediabunny reads finds
 * an audio track in them (or they are empty); else the duration of the audio
 * track (ms, rounded), its codec, `silent` (PCM only: every sample zero), the
 * container and whether a video track is there too. Never throws for bad input.
 */
export async function inspectReferenceAudio(bytes: Uint8Array): Promise<ReferenceAudio> {
  if (bytes.length === 0) return { audio: false };
  const mb = await load();
  try {
    const input = new mb.Input({ source: new mb.BufferSource(bytes), formats: mb.ALL_FORMATS });
    const track = await input.getPrimaryAudioTrack();
    if (!track) return { audio: false };
    const codec = String(track.codec ?? 'unknown');
    // computeDuration counts whole packets; a FLAC stream's short last frame may be left out, its STREAMINFO is exact
    const fromPackets = await track.computeDuration();
    const fromMetadata = codec === 'flac' ? ((await track.getDurationFromMetadata()) ?? 0) : 0;
    const durationMs = Math.round(Math.max(fromPackets, fromMetadata) * 1000);
    let silent = false;
    if ((mb.PCM_AUDIO_CODECS as readonly string[]).includes(codec)) {
      silent = true;
      for await (const packet of new mb.EncodedPacketSink(track).packets()) {
        if (!silentPcm(packet.data, codec)) {
          silent = false;
          break;
        }
      }
    }
    const container = containerOf(mb, await input.getFormat());
    const video = (await input.getVideoTracks()).length > 0;
    return { audio: true, durationMs, codec, silent, container, video };
  } catch {
    return { audio: false };
  }
}

/**
 * The duration of the media file `bytes` (ms, rounded): the longest of its
 * tracks, for any container mediabunny reads (MP4, QuickTime, Matroska,
 * WebM, and the audio ones), or undefined when it reads none (AVI, a header
 * alone, anything else). Never throws for bad input. Serves document 3,
 * "POST /v1/music/soundtrack": a soundtrack lasts as long as its video.
 */
export async function mediaDurationMs(bytes: Uint8Array): Promise<number | undefined> {
  if (bytes.length === 0) return undefined;
  const mb = await load();
  try {
    const input = new mb.Input({ source: new mb.BufferSource(bytes), formats: mb.ALL_FORMATS });
    const seconds = await input.computeDuration();
    return Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1000) : undefined;
  } catch {
    return undefined;
  }
}
