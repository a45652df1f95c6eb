/**
 * The light helpers of the pictures (mock/media/png.ts re-exports them): a task's colours, a colour in hex, base64.
 * Apart from the PNG encoder so that the services, which compute colours and cache keys in their handlers, do not
 * load the encoder (it loads on first use: mock/media/renderers.ts). Standard JavaScript only.
 */
import { hash32 } from '../engine/rng.ts';
import type { Rgb } from './types.ts';

/** A colour derived from (seed, id, purpose): the colours of a generated image or a video and its cover. */
export function colourFor(seed: number, id: string, purpose: string): Rgb {
  const h = hash32(seed, id, purpose);
  return [h & 0xff, (h >>> 8) & 0xff, (h >>> 16) & 0xff];
}

/** `rrggbb`: a colour in hex (names a colour in a media cache key). */
export function rgbHex(c: Rgb): string {
  return c.map((v) => v.toString(16).padStart(2, '0')).join('');
}

/** Standard base64 of `bytes` (btoa over 32 KB slices; standard JavaScript), for images returned inline. */
export function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}
