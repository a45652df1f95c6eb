/**
 * Media the mock hosts and renders: the file kinds, their content types and
 * the fixed parameters of rendered audio. Every URL a response carries points
 * at media of one of these kinds (docs/architecture.md, "Media").
 *
 * Seed: document 2, "POST /v1/tts and POST /v1/audio/speech" names the six
 * audio formats (mp3, opus, aac, flac, wav, pcm); "Podcast episode" names MP3,
 * HLS .m3u8 and SRT; document 3, "Providers and models" names MIDI. Content
 * types and the PCM parameters are assumed: the seeds do not give them.
 * Pure data: no Zod, so every layer can import it.
 */

/** The audio formats of the speech endpoints (document 2, "POST /v1/tts and POST /v1/audio/speech"). */
export const audioFormats = ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'] as const;
export type AudioFormat = (typeof audioFormats)[number];

/** One kind of hosted file: its content type and file extension. */
export interface MediaFileType {
  contentType: string;
  extension: string;
}

/**
 * Hosted audio files by format (assumed: the standard IANA types; raw PCM has no
 * container and no registered little-endian type, so it is served as bytes).
 * The speech endpoints' own Content-Type rule (audio/mpeg except opus) is
 * separate: it belongs to those endpoints.
 */
export const audioFileTypes: Record<AudioFormat, MediaFileType> = {
  mp3: { contentType: 'audio/mpeg', extension: 'mp3' },
  opus: { contentType: 'audio/ogg', extension: 'ogg' },
  aac: { contentType: 'audio/aac', extension: 'aac' },
  flac: { contentType: 'audio/flac', extension: 'flac' },
  wav: { contentType: 'audio/wav', extension: 'wav' },
  pcm: { contentType: 'application/octet-stream', extension: 'pcm' },
};

/** Other hosted files (assumed types: the usual ones for each). */
export const mediaFileTypes = {
  mp4: { contentType: 'video/mp4', extension: 'mp4' },
  png: { contentType: 'image/png', extension: 'png' },
  srt: { contentType: 'application/x-subrip', extension: 'srt' },
  m3u8: { contentType: 'application/vnd.apple.mpegurl', extension: 'm3u8' },
  midi: { contentType: 'audio/midi', extension: 'mid' },
} as const satisfies Record<string, MediaFileType>;

/**
 * Every rendered audio: 24 kHz, mono (assumed). Raw `pcm` is 16-bit signed
 * little-endian samples at this rate, no header (assumed: the common choice of
 * the widely used third-party speech API whose request shape /v1/audio/speech follows).
 */
export const renderedAudio = { sampleRate: 24_000, channels: 1, pcmBitsPerSample: 16 } as const;

/** Distinct timbres (`variant` 0-5) the audio renderers make; voices are told apart by them (assumed). */
export const AUDIO_TIMBRES = 6;

/**
 * How close a rendered file's decoded duration is to the duration the API
 * declares: within `relative` of it or `absoluteMs`, whichever is larger.
 */
export const durationTolerance = { relative: 0.05, absoluteMs: 250 } as const;

/** True when `actualMs` is within `durationTolerance` of `declaredMs`. */
export function durationMatches(actualMs: number, declaredMs: number): boolean {
  return Math.abs(actualMs - declaredMs) <= Math.max(durationTolerance.relative * declaredMs, durationTolerance.absoluteMs);
}
