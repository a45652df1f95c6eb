/**
 * MP4 videos for the media the mock serves (document 1, "Video task":
 * videoUrl, coverUrl, duration, resolution, ratio): an H.264 track of the
 * task's exact duration and pixel size (mock/media/h264.ts) and, when the task
 * has sound, its AAC track, muxed with mediabunny (pure JS). Standard
 * JavaScript only, so the same code can render in a browser.
 */
import type * as Mediabunny from 'mediabunny';
import type { EncodedAudioPacketSource } from 'mediabunny';
import { H264Writer } from './h264.ts';
import { layoutLabel, setTime, type LabelText } from './label.ts';
import type { EncodedAudio, Rgb } from './types.ts';

/** Default frame rate, fps: low enough that a minute of 1080p renders in milliseconds, high enough that the progress bar visibly moves. */
export const VIDEO_FPS = 10;
/** Seconds between IDR pictures (sync samples), so players can seek. */
export const VIDEO_IDR_SECONDS = 2;
/** Longest video rendered, ms (one hour). */
export const VIDEO_MAX_DURATION_MS = 3_600_000;

/** What renderVideo draws. */
export interface VideoSpec {
  /** Pixels: even, 16-4096 each, at most 36864 macroblocks of 16x16 (4096x2304). */
  width: number;
  height: number;
  /** Duration, ms: > 0, at most one hour. */
  durationMs: number;
  /** Frame rate, integer fps 1-60; default VIDEO_FPS (10). */
  fps?: number;
  /** Background and diagonal-band colours (the cover PNG's). */
  colours: { bg: Rgb; fg: Rgb };
  /**
   * Scene cuts: from the first frame that starts at or after `atMs`, the picture takes these colours (an IDR
   * picture at each cut). In increasing `atMs`; a cut at 0 replaces `colours`.
   */
  scenes?: readonly { atMs: number; colours: { bg: Rgb; fg: Rgb } }[];
  /**
   * An AAC track to mux alongside (codec `mp4a.*`): packets starting at or after durationMs are dropped and the
   * last one's duration is cut to end at durationMs, so both tracks and the movie last exactly durationMs.
   */
  audio?: EncodedAudio;
  /**
   * The label every frame shows (mock/media/label.ts): the prompt's start, the model and pixel size, the id,
   * and the frame's timecode, number and moving mark. None when absent (or the picture is too small for it).
   */
  label?: LabelText;
}

/**
 * Frames of a video of `durationMs` at `fps`: ceil(durationMs x fps / 1000), at least 1. Frame i starts at
 * i x 1000 / fps ms and lasts 1000 / fps ms, except the last, which ends exactly at durationMs (a remainder
 * under 1/1000 of a frame lengthens the previous frame instead of making a frame of its own).
 */
export function videoFrameCount(durationMs: number, fps: number = VIDEO_FPS): number {
  return Math.max(1, Math.ceil((durationMs * fps) / 1000 - 1e-3));
}

/**
 * Renders the MP4 behind a video task's videoUrl: `width` x `height` pixels (the task's resolution and
 * ratio), lasting `durationMs` (the task's duration), H.264 Constrained Baseline at `fps` frames per
 * second (default 10: cheap, and enough for the progress bar to move visibly), one IDR every 2 s so
 * players can seek, the moov box first (progressive playback), and the AAC `audio` track when given.
 * The picture: the `colours.bg` background with a diagonal `colours.fg` band (the cover PNG's picture)
 * and a progress bar near the bottom that fills over the video's duration. The video track lasts
 * exactly durationMs (to its timescale, 1/57600 s): the last frame is shortened.
 * The picture carries `label` when given (mock/media/label.ts). Cost on a 2-core machine: 60 s of 1920x1080,
 * labelled, in about 25 ms of CPU (30-40 ms with sound) once warm, 40-100 ms for the first render of a
 * process; about 6.7 MB per minute at 1080p with sound (4.4 MB unlabelled).
 * Deterministic: the same spec gives the same bytes.
 * Throws RangeError for a width or height that is odd, not an integer, below 16 or above 4096 pixels,
 * more than 36864 macroblocks (4096x2304), a frame rate that is not an integer of 1-60, a duration
 * that is not finite, <= 0 or above one hour, and an audio track that is not AAC.
 */
/** mediabunny, loaded on the first render (it is the largest module the mock loads: keeping it out of start-up keeps the command's cold start short). */
let muxer: Promise<typeof Mediabunny> | undefined;
const loadMuxer = () => (muxer ??= import('mediabunny'));

/** Starts loading the muxer in the background (the CLI calls it once it listens), so the first video does not wait for it. */
export function preloadVideoMuxer(): void {
  loadMuxer().catch(() => {
    muxer = undefined; // the first render will try again and report the failure
  });
}

export async function renderVideo(spec: VideoSpec): Promise<Uint8Array> {
  const { width, height, durationMs, colours, audio } = spec;
  const fps = spec.fps ?? VIDEO_FPS;
  if (!Number.isFinite(durationMs) || durationMs <= 0 || durationMs > VIDEO_MAX_DURATION_MS) {
    throw new RangeError(`video duration ${durationMs} ms: must be > 0 and at most ${VIDEO_MAX_DURATION_MS} ms`);
  }
  if (audio && !audio.codec.startsWith('mp4a.')) throw new RangeError(`audio codec ${audio.codec}: the MP4 carries AAC (mp4a.*) only`);
  const frames = videoFrameCount(durationMs, fps);
  const label = spec.label && layoutLabel(width, height, spec.label, { frames, maxBottom: H264Writer.barTop(height) });
  const h264 = new H264Writer({
    width,
    height,
    fps,
    bg: colours.bg,
    fg: colours.fg,
    idrInterval: Math.max(1, Math.round(VIDEO_IDR_SECONDS * fps)),
    ...(label ? { label } : {}),
  });

  const { BufferTarget, EncodedAudioPacketSource, EncodedPacket, EncodedVideoPacketSource, Mp4OutputFormat, Output } = await loadMuxer();
  const target = new BufferTarget();
  const output = new Output({ format: new Mp4OutputFormat({ fastStart: 'in-memory' }), target });
  const video = new EncodedVideoPacketSource('avc');
  output.addVideoTrack(video);
  const sound = audio ? new EncodedAudioPacketSource('aac') : undefined;
  if (sound) output.addAudioTrack(sound);
  await output.start();

  const frameMs = 1000 / fps;
  const audioPackets = audio ? audio.packets.filter((p) => p.timestamp * 1000 < durationMs) : [];
  let a = 0;
  let scene = 0;
  const scenes = spec.scenes ?? [];
  for (let i = 0; i < frames; i++) {
    const start = i * frameMs;
    const end = i === frames - 1 ? durationMs : (i + 1) * frameMs;
    let cut: VideoSpec['colours'] | undefined;
    while (scene < scenes.length && scenes[scene].atMs <= start + 1e-6) cut = scenes[scene++].colours;
    if (cut) h264.recolour(cut.bg, cut.fg);
    // Interleave: the audio packets that start before this frame go first, so the mdat alternates tracks.
    while (sound && audio && a < audioPackets.length && audioPackets[a].timestamp * 1000 < start) {
      await addAudio(EncodedPacket, sound, audio, audioPackets[a], a++ === 0, durationMs / 1000);
    }
    const f = h264.next(end / durationMs, label ? setTime(label, start, i) : []);
    const packet = new EncodedPacket(f.data, f.key ? 'key' : 'delta', start / 1000, (end - start) / 1000);
    await video.add(packet, i === 0 ? { decoderConfig: { codec: h264.codec, codedWidth: width, codedHeight: height, description: h264.avcC } } : undefined);
  }
  while (sound && audio && a < audioPackets.length) await addAudio(EncodedPacket, sound, audio, audioPackets[a], a++ === 0, durationMs / 1000);
  await output.finalize();
  return clearCreationTimes(new Uint8Array(target.buffer!));
}

/** Boxes that hold the boxes whose times are cleared. */
const CONTAINERS = new Set(['moov', 'trak', 'mdia']);
/** Boxes that start with version, flags, creation time and modification time. */
const TIMED = new Set(['mvhd', 'tkhd', 'mdhd']);

/**
 * Sets the creation and modification times of the movie, its tracks and their
 * media (mvhd, tkhd, mdhd) to 0: the muxer writes the wall-clock time there,
 * which would make the same spec give different bytes from one second to the
 * next. Returns `mp4`, changed in place.
 */
export function clearCreationTimes(mp4: Uint8Array): Uint8Array {
  const view = new DataView(mp4.buffer, mp4.byteOffset, mp4.byteLength);
  const walk = (start: number, end: number) => {
    for (let at = start; at + 8 <= end;) {
      let size = view.getUint32(at);
      const type = String.fromCharCode(mp4[at + 4], mp4[at + 5], mp4[at + 6], mp4[at + 7]);
      let header = 8;
      if (size === 1) {
        size = Number(view.getBigUint64(at + 8));
        header = 16;
      } else if (size === 0) size = end - at;
      if (size < header || at + size > end) return;
      if (CONTAINERS.has(type)) walk(at + header, at + size);
      else if (TIMED.has(type)) {
        const times = at + header + 4;
        mp4.fill(0, times, times + (mp4[at + header] === 1 ? 16 : 8));
      }
      at += size;
    }
  };
  walk(0, mp4.byteLength);
  return mp4;
}

/** Adds one AAC packet (the first with the decoder config), its duration cut to end at `end` seconds at the latest. */
function addAudio(
  EncodedPacket: (typeof Mediabunny)['EncodedPacket'],
  sound: EncodedAudioPacketSource,
  audio: EncodedAudio,
  p: EncodedAudio['packets'][number],
  first: boolean,
  end: number,
): Promise<void> {
  const packet = new EncodedPacket(p.data, 'key', p.timestamp, Math.min(p.duration, end - p.timestamp));
  if (!first) return sound.add(packet);
  const { codec, sampleRate, numberOfChannels, description } = audio;
  return sound.add(packet, { decoderConfig: { codec, sampleRate, numberOfChannels, ...(description ? { description } : {}) } });
}
