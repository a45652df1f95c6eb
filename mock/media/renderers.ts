/**
 * The picture, video, HLS and MIDI renderers, loaded on first use (docs/architecture.md, "Transports"): the PNG
 * encoder with its label and font (mock/media/png.ts, label.ts, font.ts), the H.264/MP4 writer (video.ts, h264*.ts),
 * the HLS playlists (hls.ts) and the MIDI writer (midi.ts and midi-file) come in by dynamic imports, so a browser
 * build puts them in chunks that a page fetches with its first API request, not at start, and a server does not
 * parse them before it answers its first request. `loadRenderers()` loads them once; the operation runner and the
 * media answerer await it (mock/core/operation.ts, mock/core/media.ts) before a handler or a render runs, as they do
 * faker and the audio loops, so the services call the functions below as they would the modules' own (the
 * synchronous ones throw when called before the load: a mock bug). Light helpers the handlers use stay static:
 * colours (colour.ts), label text (label-text.ts). Standard JavaScript only.
 */
import type * as HlsModule from './hls.ts';
import type { LabelText } from './label-text.ts';
import type * as MidiModule from './midi.ts';
import type * as PngModule from './png.ts';
import type { Rgb } from './types.ts';
import type * as VideoModule from './video.ts';

type Png = typeof PngModule;
type Video = typeof VideoModule;
type Hls = typeof HlsModule;
type Midi = typeof MidiModule;

let loaded: { png: Png; video: Video; hls: Hls; midi: Midi } | undefined;
let loading: Promise<void> | undefined;

/** Loads the renderers once; resolves at once after the first time (a failed load is tried again by the next call). */
export function loadRenderers(): Promise<void> {
  if (loaded) return Promise.resolve();
  return (loading ??= Promise.all([import('./png.ts'), import('./video.ts'), import('./hls.ts'), import('./midi.ts')]).then(
    ([png, video, hls, midi]) => {
      loaded = { png, video, hls, midi };
    },
    (e: unknown) => {
      loading = undefined;
      throw e;
    },
  ));
}

/**
 * Loads the renderers and then the video muxer in the background, so the first request that renders does not wait
 * for them (the CLI calls it once it listens). A failure is left to the first use, which tries again and reports it.
 */
export function preloadRenderers(): void {
  loadRenderers().then(
    () => loaded!.video.preloadVideoMuxer(),
    () => undefined,
  );
}

/** The loaded renderers; throws when they are not loaded yet (await loadRenderers() first). */
function renderers(): NonNullable<typeof loaded> {
  if (!loaded) throw new Error('renderers: not loaded yet (await loadRenderers() before the first use)');
  return loaded;
}

/** A PNG of `width` x `height` in `bg` with the label of `text` in `fg` (mock/media/png.ts, labelledImage). Throws RangeError for a bad size. */
export function labelledImage(width: number, height: number, bg: Rgb, fg: Rgb, text: LabelText): Uint8Array {
  return renderers().png.labelledImage(width, height, bg, fg, text);
}

/** An H.264 MP4 of `spec` (mock/media/video.ts, renderVideo); loads the renderers first if need be. */
export async function renderVideo(spec: Parameters<Video['renderVideo']>[0]): Promise<Uint8Array> {
  await loadRenderers();
  return renderers().video.renderVideo(spec);
}

/** The HLS rendition of an audio track (mock/media/hls.ts, hlsAudio). */
export function hlsAudio(...args: Parameters<Hls['hlsAudio']>): ReturnType<Hls['hlsAudio']> {
  return renderers().hls.hlsAudio(...args);
}

/** The HLS rendition in packed MP3 of frames a caller gives (mock/media/hls.ts, hlsMp3). */
export function hlsMp3(...args: Parameters<Hls['hlsMp3']>): ReturnType<Hls['hlsMp3']> {
  return renderers().hls.hlsMp3(...args);
}

/** A Standard MIDI File of `spec` (mock/media/midi.ts, renderMidi). */
export function renderMidi(spec: Parameters<Midi['renderMidi']>[0]): Uint8Array {
  return renderers().midi.renderMidi(spec);
}
