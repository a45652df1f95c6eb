/**
 * Whole-file checks of the media a task hands out: a file cut short or padded
 * still has a header that decodes to the right duration and pixel size, so
 * the container's own sizes are checked against the bytes.
 *
 * - MP4 (ISO/IEC 14496-12): the boxes tile the file exactly, and the children
 *   of each container box tile its payload; every sample of every track (the
 *   sample table, read by mp4box) lies inside an `mdat` box.
 * - MP3 (ISO/IEC 11172-3 Layer III): frames follow each other from the first
 *   byte (after an ID3v2 tag) to the last (before an ID3v1 tag), none cut short.
 * - PNG (RFC 2083): the signature, then chunks whose CRC-32 matches, IHDR
 *   first, IEND last and at the very end of the file.
 *
 * Each function resolves when the file is whole and rejects with the first
 * inconsistency (its byte offset).
 */
import { mp3Frames, parseMp4 } from './decoders.ts';

const CONTAINERS = new Set(['moov', 'trak', 'mdia', 'minf', 'stbl', 'edts', 'dinf', 'mvex', 'moof', 'traf', 'udta']);

const fourcc = (b: Uint8Array, at: number) => String.fromCharCode(b[at], b[at + 1], b[at + 2], b[at + 3]);
const u32 = (b: Uint8Array, at: number) => ((b[at] << 24) >>> 0) + (b[at + 1] << 16) + (b[at + 2] << 8) + b[at + 3];

/** The boxes between `from` and `to` must tile that range exactly; returns the `mdat` payload ranges found. */
function tileBoxes(b: Uint8Array, from: number, to: number, path: string, mdats: [number, number][]): void {
  let at = from;
  while (at < to) {
    if (to - at < 8) throw new Error(`${to - at} stray bytes at byte ${at} in ${path}`);
    let size = u32(b, at);
    const type = fourcc(b, at + 4);
    let header = 8;
    if (size === 1) {
      if (to - at < 16) throw new Error(`the box ${type} at byte ${at} is cut short`);
      size = u32(b, at + 8) * 2 ** 32 + u32(b, at + 12);
      header = 16;
    } else if (size === 0) size = to - at; // to the end of the file
    if (size < header || at + size > to) throw new Error(`the box ${type} at byte ${at} says ${size} bytes, ${to - at} remain in ${path}`);
    if (type === 'mdat') mdats.push([at + header, at + size]);
    if (CONTAINERS.has(type)) tileBoxes(b, at + header, at + size, `${path}/${type}`, mdats);
    at += size;
  }
}

/** An MP4 whose box tree and sample table agree with its bytes; rejects otherwise. */
export async function checkMp4Whole(bytes: Uint8Array): Promise<void> {
  const mdats: [number, number][] = [];
  tileBoxes(bytes, 0, bytes.length, 'the file', mdats);
  if (!mdats.length) throw new Error('no mdat box');
  const { samples } = await parseMp4(bytes);
  for (const [track, list] of samples) {
    for (const [i, s] of list.entries()) {
      if (!mdats.some(([a, z]) => s.offset >= a && s.offset + s.size <= z))
        throw new Error(`sample ${i} of track ${track} (${s.size} bytes at byte ${s.offset}) lies outside every mdat box`);
    }
  }
}

/** An MP3 made of whole Layer III frames from its first byte to its last; rejects otherwise. */
export async function checkMp3Whole(bytes: Uint8Array): Promise<void> {
  const end = bytes.length >= 128 && fourcc(bytes, bytes.length - 128).startsWith('TAG') ? bytes.length - 128 : bytes.length;
  const frames = mp3Frames(bytes.subarray(0, end));
  if (!frames.length) throw new Error('no MP3 frame');
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** CRC-32 (ISO 3309, as PNG uses it) of `bytes`. */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** A PNG whose chunks all carry a matching CRC, from IHDR to IEND at the end of the file; rejects otherwise. */
export async function checkPngWhole(bytes: Uint8Array): Promise<void> {
  if (!PNG_SIGNATURE.every((v, i) => bytes[i] === v)) throw new Error('no PNG signature');
  let at = 8;
  let first = true;
  for (;;) {
    if (at + 12 > bytes.length) throw new Error(`the file ends at byte ${bytes.length} before IEND`);
    const length = u32(bytes, at);
    const type = fourcc(bytes, at + 4);
    if (at + 12 + length > bytes.length) throw new Error(`the chunk ${type} at byte ${at} says ${length} bytes, ${bytes.length - at - 12} remain`);
    if (first && type !== 'IHDR') throw new Error(`the first chunk is ${type}, not IHDR`);
    first = false;
    const crc = u32(bytes, at + 8 + length);
    if (crc32(bytes.subarray(at + 4, at + 8 + length)) !== crc) throw new Error(`the CRC of the chunk ${type} at byte ${at} does not match`);
    at += 12 + length;
    if (type === 'IEND') break;
  }
  if (at !== bytes.length) throw new Error(`${bytes.length - at} bytes after IEND`);
}
