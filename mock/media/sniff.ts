/**
 * What an uploaded file is, judged by its leading bytes (its "magic"), not by
 * its name or the Content-Type its part was sent with: the audio, image and
 * video types the upload endpoints accept (document 3, "Music: asynchronous
 * generation": mp3, m4a, wav; jpg, jpeg, png, webp; mp4, mov, avi, mkv, webm).
 * A container says what it is in its first bytes; whether the rest holds
 * playable media is another question (the audio uploads are also read with
 * `inspectReferenceAudio`). Standard JavaScript only; never throws.
 */

/** The file types the sniffer tells apart (jpeg covers .jpg and .jpeg). */
export const sniffedTypes = ['mp3', 'm4a', 'wav', 'jpeg', 'png', 'webp', 'mp4', 'mov', 'avi', 'mkv', 'webm'] as const;
export type SniffedType = (typeof sniffedTypes)[number];

const ascii = (b: Uint8Array, from: number, to: number) => String.fromCharCode(...b.subarray(from, Math.min(to, b.length)));

/** True when `b` starts with an MPEG audio Layer III frame header (frame sync, a valid version, Layer III, a bit rate and a sample rate). */
function mp3FrameAt(b: Uint8Array, at: number): boolean {
  if (b.length < at + 4 || b[at] !== 0xff || (b[at + 1] & 0xe0) !== 0xe0) return false;
  const version = (b[at + 1] >> 3) & 3; // 1 is reserved
  const layer = (b[at + 1] >> 1) & 3; // 1 is Layer III
  const bitrate = b[at + 2] >> 4; // 0 free, 15 bad
  const rate = (b[at + 2] >> 2) & 3; // 3 reserved
  return version !== 1 && layer === 1 && bitrate !== 0 && bitrate !== 15 && rate !== 3;
}

/** Length of the ID3v2 tag `b` starts with (0 when none). */
function id3Length(b: Uint8Array): number {
  if (b.length < 10 || ascii(b, 0, 3) !== 'ID3') return 0;
  return 10 + ((b[6] << 21) | (b[7] << 14) | (b[8] << 7) | b[9]) + (b[5] & 0x10 ? 10 : 0);
}

/** Brands of an ISO base media file that mean audio only (iTunes audio, audiobook, protected audio). */
const AUDIO_BRANDS = new Set(['M4A ', 'M4B ', 'M4P ', 'F4A ']);
/** Top-level box types a QuickTime movie without an ftyp box starts with. */
const QUICKTIME_BOXES = new Set(['moov', 'mdat', 'wide', 'free', 'skip', 'pnot']);

/**
 * The type of the file `bytes` holds, from its leading bytes, or undefined
 * when it is none of `sniffedTypes`:
 * - mp3: an ID3v2 tag, or a Layer III frame header;
 * - m4a, mp4, mov: an ISO base media `ftyp` box (brand M4A/M4B/M4P: m4a; `qt  `: mov; any other: mp4), or a QuickTime box (mov);
 * - wav, avi, webp: RIFF with WAVE, `AVI ` or WEBP;
 * - png: its 8-byte signature; jpeg: FF D8 FF;
 * - mkv, webm: an EBML header (DocType webm, else Matroska).
 */
export function sniffFileType(bytes: Uint8Array): SniffedType | undefined {
  const b = bytes;
  if (b.length < 4) return undefined;
  if (b[0] === 0x89 && ascii(b, 1, 4) === 'PNG' && b[4] === 0x0d && b[5] === 0x0a && b[6] === 0x1a && b[7] === 0x0a) return 'png';
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (ascii(b, 0, 4) === 'RIFF' && b.length >= 12) {
    const form = ascii(b, 8, 12);
    if (form === 'WAVE') return 'wav';
    if (form === 'AVI ') return 'avi';
    if (form === 'WEBP') return 'webp';
    return undefined;
  }
  if (b[0] === 0x1a && b[1] === 0x45 && b[2] === 0xdf && b[3] === 0xa3) return ascii(b, 0, 64).includes('webm') ? 'webm' : 'mkv';
  if (b.length >= 12 && ascii(b, 4, 8) === 'ftyp') {
    const brand = ascii(b, 8, 12);
    if (AUDIO_BRANDS.has(brand)) return 'm4a';
    return brand === 'qt  ' ? 'mov' : 'mp4';
  }
  if (b.length >= 8 && QUICKTIME_BOXES.has(ascii(b, 4, 8))) return 'mov';
  const id3 = id3Length(b);
  if (id3 > 0) return id3 <= b.length ? 'mp3' : undefined;
  if (mp3FrameAt(b, 0)) return 'mp3';
  return undefined;
}
