/**
 * Ogg Opus: the committed packets of the loop written into Ogg pages with the
 * encoding's OpusHead; the last page's granule position trims the end to the
 * 48 kHz sample.
 */
import { hash32 } from '../../engine/rng.ts';
import { loopVariants } from '../fixtures/audio-loop.ts';
import { fromBase64, loops, memo, OPUS_PACKET_48K } from './loops.ts';
import type { FrameLoop } from './frames.ts';

// ---------------------------------------------------------------------------
// Ogg Opus

/** CRC-32 of Ogg pages: polynomial 0x04c11db7, most significant bit first, no reflection, initial value 0. */
const OGG_CRC = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n << 24;
    for (let k = 0; k < 8; k++) c = c & 0x80000000 ? (c << 1) ^ 0x04c11db7 : c << 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function oggCrc(bytes: Uint8Array, from: number, to: number): number {
  let c = 0;
  for (let i = from; i < to; i++) c = (c << 8) ^ OGG_CRC[((c >>> 24) ^ bytes[i]) & 0xff];
  return c >>> 0;
}

/** The loop's Opus packets (back to back, as frames), its OpusHead and the head's pre-skip (48 kHz samples). */
interface OpusLoop extends FrameLoop {
  head: Uint8Array;
  preSkip: number;
  packets: Uint8Array[];
}

export const opusLoop = memo((v): OpusLoop => {
  const head = fromBase64(loops().opusLoops[v].head);
  const packed = fromBase64(loops().opusLoops[v].packets);
  const lengths: number[] = [];
  for (let at = 0; at < packed.length; at += 2 + lengths[lengths.length - 1]) lengths.push((packed[at] << 8) | packed[at + 1]);
  const bytes = new Uint8Array(packed.length - 2 * lengths.length);
  const offsets = [0];
  for (let i = 0, from = 0; i < lengths.length; i++) {
    bytes.set(packed.subarray(from + 2, from + 2 + lengths[i]), offsets[i]);
    offsets.push(offsets[i] + lengths[i]);
    from += 2 + lengths[i];
  }
  const packets = lengths.map((_, i) => bytes.subarray(offsets[i], offsets[i + 1]));
  return { head, preSkip: head[10] | (head[11] << 8), bytes, offsets, packets };
});

const OPUS_TAGS = (() => {
  const vendor = new TextEncoder().encode('mediagen-mock');
  const out = new Uint8Array(8 + 4 + vendor.length + 4);
  out.set(new TextEncoder().encode('OpusTags'), 0);
  new DataView(out.buffer).setUint32(8, vendor.length, true);
  out.set(vendor, 12); // then zero user comments
  return out;
})();

const PACKETS_PER_PAGE = 50; // one second

/**
 * Tones of `durationMs` in Ogg Opus: the loop's packets repeated, the last
 * page's granule position trimming the end to the 48 kHz sample.
 */
export function renderOggOpus(durationMs: number, variant: number): Uint8Array {
  const loop = opusLoop(variant);
  const play = Math.max(1, Math.round(durationMs * 48)); // 48 kHz samples after pre-skip
  const count = Math.ceil((play + loop.preSkip) / OPUS_PACKET_48K);
  return oggOpus(loop.head, count, (k) => loop.packets[k % loop.packets.length], play, hash32('ogg-opus', variant % loopVariants));
}

/**
 * An Ogg Opus file: the OpusHead `head` (its pre-skip at bytes 10-11), an
 * OpusTags page, then `count` 20 ms packets (`packet(k)`) in pages of up to
 * a second; the last page's granule position is the pre-skip plus `play`
 * (48 kHz samples to play), so a decoder trims the end to the sample.
 * `serial` is the stream's serial number. Throws nothing.
 * Serves the opus format of document 2, "POST /v1/tts and POST /v1/audio/speech".
 */
export function oggOpus(head: Uint8Array, count: number, packet: (k: number) => Uint8Array, play: number, serial: number): Uint8Array {
  const preSkip = head[10] | (head[11] << 8);
  const lacing = (len: number) => Math.floor(len / 255) + 1;
  // Plan the audio pages: up to a second of packets, at most 255 lacing values.
  const pages: { from: number; to: number; segments: number; body: number }[] = [];
  let size = 27 + 1 + head.length + 27 + lacing(OPUS_TAGS.length) + OPUS_TAGS.length;
  for (let k = 0; k < count;) {
    const page = { from: k, to: k, segments: 0, body: 0 };
    while (page.to < count && page.to - page.from < PACKETS_PER_PAGE && page.segments + lacing(packet(page.to).length) <= 255) {
      page.segments += lacing(packet(page.to).length);
      page.body += packet(page.to).length;
      page.to++;
    }
    pages.push(page);
    size += 27 + page.segments + page.body;
    k = page.to;
  }
  const out = new Uint8Array(size);
  const dv = new DataView(out.buffer);
  let at = 0;
  let seq = 0;
  const pageHeader = (flags: number, granule: number, segments: number) => {
    out.set([0x4f, 0x67, 0x67, 0x53, 0, flags], at); // "OggS", version 0
    dv.setUint32(at + 6, granule % 0x100000000, true);
    dv.setUint32(at + 10, Math.floor(granule / 0x100000000), true);
    dv.setUint32(at + 14, serial, true);
    dv.setUint32(at + 18, seq++, true);
    out[at + 26] = segments;
    const start = at;
    at += 27;
    return start;
  };
  const lace = (len: number) => {
    for (; len >= 255; len -= 255) out[at++] = 255;
    out[at++] = len;
  };
  const seal = (start: number) => dv.setUint32(start + 22, oggCrc(out, start, at), true);
  for (const [bytes, flags] of [
    [head, 0x02],
    [OPUS_TAGS, 0],
  ] as const) {
    const start = pageHeader(flags, 0, lacing(bytes.length));
    lace(bytes.length);
    out.set(bytes, at);
    at += bytes.length;
    seal(start);
  }
  for (let p = 0; p < pages.length; p++) {
    const { from, to, segments } = pages[p];
    const last = p === pages.length - 1;
    const start = pageHeader(last ? 0x04 : 0, last ? preSkip + play : to * OPUS_PACKET_48K, segments);
    for (let k = from; k < to; k++) lace(packet(k).length);
    for (let k = from; k < to; k++) {
      const data = packet(k);
      out.set(data, at);
      at += data.length;
    }
    seal(start);
  }
  return out;
}
