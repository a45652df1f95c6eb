/**
 * Shapes shared by the media renderers (mock/media/). The renderers use
 * standard JavaScript only (no Node or Express module), like the engine and
 * the services, so the same code can render media in a browser.
 */

/** An RGB colour, 0-255 each. */
export type Rgb = [number, number, number];

/** One encoded audio packet (a codec frame), timestamps in seconds. */
export interface EncodedAudioPacket {
  data: Uint8Array;
  /** Presentation time of the packet's first sample, seconds. */
  timestamp: number;
  /** Seconds of audio the packet decodes to. */
  duration: number;
}

/**
 * An encoded audio track, ready to be muxed into a container: the decoder
 * configuration (WebCodecs `AudioDecoderConfig` fields) and the packets in order.
 */
export interface EncodedAudio {
  /** WebCodecs codec string, e.g. `mp4a.40.2`, `mp3`, `opus`, `flac`. */
  codec: string;
  sampleRate: number;
  numberOfChannels: number;
  /** Codec-specific setup (AudioSpecificConfig, OpusHead, FLAC STREAMINFO), when the codec has one. */
  description?: Uint8Array;
  packets: EncodedAudioPacket[];
}
