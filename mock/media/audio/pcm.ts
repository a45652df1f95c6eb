/**
 * pcm (raw 16-bit little-endian) and wav (RIFF, 16-bit PCM): the loop's
 * samples, repeated to the exact length.
 */
import { loopPcm } from '../fixtures/audio-loop.ts';
import { fillCyclic, memo, RATE } from './loops.ts';

// ---------------------------------------------------------------------------
// PCM and WAV

/** The loop's samples as little-endian bytes. */
export const pcmLoop = memo((v): Uint8Array => {
  const pcm = loopPcm(v);
  const out = new Uint8Array(pcm.length * 2);
  const dv = new DataView(out.buffer);
  for (let i = 0; i < pcm.length; i++) dv.setInt16(i * 2, pcm[i], true);
  return out;
});

/** Samples (at 24 kHz) for `durationMs`: the nearest whole number, at least one. */
export function sampleCount(durationMs: number): number {
  return Math.max(1, Math.round((durationMs * RATE) / 1000));
}

export function renderPcm(durationMs: number, variant: number, headerBytes: number): Uint8Array {
  const out = new Uint8Array(headerBytes + sampleCount(durationMs) * 2);
  fillCyclic(out.subarray(headerBytes), pcmLoop(variant), 0);
  return out;
}

/** The 44-byte RIFF/WAVE header of 16-bit mono PCM at 24 kHz followed by `dataBytes` bytes of samples. */
export function wavHeader(dataBytes: number): Uint8Array {
  const out = new Uint8Array(44);
  const dv = new DataView(out.buffer);
  const ascii = (at: number, s: string) => {
    for (let i = 0; i < s.length; i++) out[at + i] = s.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  dv.setUint32(4, 36 + dataBytes, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  dv.setUint32(16, 16, true);
  dv.setUint16(20, 1, true); // PCM
  dv.setUint16(22, 1, true); // mono
  dv.setUint32(24, RATE, true);
  dv.setUint32(28, RATE * 2, true); // bytes per second
  dv.setUint16(32, 2, true); // bytes per sample frame
  dv.setUint16(34, 16, true); // bits per sample
  ascii(36, 'data');
  dv.setUint32(40, dataBytes, true);
  return out;
}

export function renderWav(durationMs: number, variant: number): Uint8Array {
  const out = renderPcm(durationMs, variant, 44);
  out.set(wavHeader(out.length - 44), 0);
  return out;
}
