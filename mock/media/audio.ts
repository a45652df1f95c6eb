/**
 * Rendered audio: real files in the six formats of the speech endpoints
 * (document 2, "POST /v1/tts and POST /v1/audio/speech": mp3, opus, aac, flac,
 * wav, pcm), also the MP3 of a podcast episode (document 2, "Podcast episode"),
 * and the encoded packets of a video's sound track. Every file is 24 kHz mono
 * (`renderedAudio` of schemas/media.ts) and lasts the requested duration.
 *
 * The signal is one 1.92 s loop of tone bursts per pitch variant
 * (./fixtures/audio-loop.ts). The lossy codecs repeat frames of a committed
 * encoding of that loop (./fixtures/*-loops.ts, made once with ffmpeg by
 * scripts/make-media-fixtures.sh), so nothing is encoded at run time:
 * - mp3: MPEG-2 Layer III frames without bit reservoir, copied back to back
 *   (a raw MP3 stream, no ID3 or Xing header). Length: whole 24 ms frames.
 * - aac: ADTS frames (AAC-LC) copied back to back. Length: whole 42.7 ms frames.
 * - opus: the packets written into Ogg pages here, with the encoding's OpusHead
 *   (pre-skip kept); the last page's granule position trims the end, so the
 *   decoded length is exact to the 48 kHz sample.
 * - flac: encoded here (lossless, fixed predictors and Rice codes) from the
 *   loop's samples: the loop's ten 4608-sample frames are encoded once and
 *   repeated with new frame numbers; a shorter last frame makes the length exact.
 * - wav (RIFF, 16-bit PCM) and pcm (raw 16-bit little-endian): the samples.
 * Standard JavaScript only, deterministic: the same inputs give the same bytes.
 *
 * The parts, by codec: audio/loops.ts (the loops, loaded on first use, and
 * what every codec shares), audio/frames.ts (mp3 and aac frame copies),
 * audio/pcm.ts (pcm and wav), audio/opus.ts (Ogg Opus), audio/flac.ts (FLAC),
 * audio/render.ts (renderAudio, streamAudio, encodedAudio).
 */
export { audioMaxDurationMs, audioFrameSamples, loadAudioLoops } from './audio/loops.ts';
export { audioFrameCount, audioFrames, audioMinFrames, mp3FrameOffsets } from './audio/frames.ts';
export { encodedAudio, renderAudio, streamAudio } from './audio/render.ts';
