/**
 * Pure-JS decoders the media tests share: an MP4 parsed by mp4box (the movie
 * and every track's samples) and the size of a PNG (pngjs). Audio is decoded
 * with music-metadata directly in the tests.
 */
import { createFile, MP4BoxBuffer, type Movie, type Sample } from 'mp4box';
import { PNG } from 'pngjs';

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
