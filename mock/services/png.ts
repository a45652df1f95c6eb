/**
 * PNG images for the media the mock serves (generated images, video covers):
 * a two-colour palette image (1 bit per pixel) with a diagonal band, so any
 * size up to 4K encodes in milliseconds and decodes in every viewer. Standard
 * JavaScript only (deflate from fflate, a pure-JS library), so services can
 * render images outside Node too.
 */
import { zlibSync } from 'fflate';
import { hash32 } from '../engine/rng.ts';

/** An RGB colour, 0-255 each. */
export type Rgb = [number, number, number];

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 of a PNG chunk's type and data (ISO 3309, as PNG specifies). */
function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  dv.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/**
 * A `width` x `height` PNG: background `bg` with a diagonal band of `fg`.
 * A 4096x4096 image encodes to a few tens of KB. Throws RangeError outside 1-16384 pixels.
 */
export function encodePng(width: number, height: number, bg: Rgb, fg: Rgb): Uint8Array {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 || width > 16384 || height > 16384) throw new RangeError(`bad PNG size ${width}x${height}`);
  const stride = Math.ceil(width / 8);
  const raw = new Uint8Array((stride + 1) * height);
  const band = Math.max(1, Math.floor(Math.min(width, height) / 8));
  for (let y = 0; y < height; y++) {
    const row = y * (stride + 1) + 1;
    const center = Math.floor((y * width) / height);
    for (let x = Math.max(0, center - band); x < Math.min(width, center + band); x++) raw[row + (x >> 3)] |= 0x80 >> (x & 7);
  }
  const ihdr = new Uint8Array(13);
  const dv = new DataView(ihdr.buffer);
  dv.setUint32(0, width);
  dv.setUint32(4, height);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 3; // colour type: palette
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('PLTE', new Uint8Array([...bg, ...fg])),
    chunk('IDAT', zlibSync(raw, { level: 6 })),
    chunk('IEND', new Uint8Array(0)),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A colour derived from (seed, id, purpose). */
export function colourFor(seed: number, id: string, purpose: string): Rgb {
  const h = hash32(seed, id, purpose);
  return [h & 0xff, (h >>> 8) & 0xff, (h >>> 16) & 0xff];
}

/** Standard base64 of `bytes` (btoa over 32 KB slices; standard JavaScript). */
export function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}
