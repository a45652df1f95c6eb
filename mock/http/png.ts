/**
 * A small PNG encoder for the media the mock hosts (covers, generated images):
 * a two-colour palette image (bit depth 1) with a diagonal band, so any size up
 * to 4K encodes in milliseconds and decodes in every viewer. Uses node:zlib for
 * deflate and CRC-32.
 */
import { crc32, deflateSync } from 'node:zlib';

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td) >>> 0);
  return Buffer.concat([len, td, crc]);
}

/** An RGB colour, 0-255 each. */
export type Rgb = [number, number, number];

/**
 * Encodes a `width` x `height` PNG with background `bg` and a diagonal band of `fg`.
 * Throws RangeError for sizes outside 1-16384.
 */
export function encodePng(width: number, height: number, bg: Rgb, fg: Rgb): Buffer {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 || width > 16384 || height > 16384) throw new RangeError(`bad PNG size ${width}x${height}`);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 3; // palette
  const stride = Math.ceil(width / 8);
  const raw = Buffer.alloc((stride + 1) * height);
  const band = Math.max(1, Math.floor(Math.min(width, height) / 8));
  for (let y = 0; y < height; y++) {
    const row = y * (stride + 1) + 1;
    const center = Math.floor((y * width) / height);
    for (let x = Math.max(0, center - band); x < Math.min(width, center + band); x++) raw[row + (x >> 3)] |= 0x80 >> (x & 7);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('PLTE', Buffer.from([...bg, ...fg])),
    chunk('IDAT', deflateSync(raw, { level: 6 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
