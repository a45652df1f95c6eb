/**
 * What every audio codec shares (mock/media/audio.ts re-exports the public
 * part): the committed encoded loops, loaded by dynamic import on first use,
 * the sample rate and frame sizes, the spec check and cyclic copies.
 */
import { AUDIO_TIMBRES, renderedAudio } from '../../../schemas/media.ts';
import { loopVariants } from '../fixtures/audio-loop.ts';

// The encoded loops (about 190 KB of base64) by dynamic imports on first use
// (loadAudioLoops: the async renderers await it, and the operation runner and
// the media answerer before a request runs), so a browser build puts them in
// chunks of their own that a page fetches with its first API request, not at
// start (docs/architecture.md, "Transports").
interface EncodedLoops {
  aacLoops: readonly string[];
  mp3Loops: readonly string[];
  opusLoops: readonly { head: string; packets: string }[];
}
let encodedLoops: EncodedLoops | undefined;
let loadingLoops: Promise<void> | undefined;

/** Loads the encoded loops once; resolves at once after the first time. */
export function loadAudioLoops(): Promise<void> {
  return (loadingLoops ??= Promise.all([import('../fixtures/aac-loops.ts'), import('../fixtures/mp3-loops.ts'), import('../fixtures/opus-loops.ts')]).then(
    ([{ aacLoops }, { mp3Loops }, { opusLoops }]) => {
      encodedLoops = { aacLoops, mp3Loops, opusLoops };
    },
  ));
}

/** The encoded loops; throws when they are not loaded yet (await loadAudioLoops() first). */
export function loops(): EncodedLoops {
  if (!encodedLoops) throw new Error('audio: the encoded loops are not loaded yet (await loadAudioLoops() before the first use)');
  return encodedLoops;
}

/** Longest audio the renderers make, ms (3 hours; a 3-hour wav is 518 MB). */
export const audioMaxDurationMs = 3 * 3_600_000;

export const RATE = renderedAudio.sampleRate; // the loop's rate too
// the committed loops must make as many timbres as the contract tells voices apart by
if ((loopVariants as number) !== AUDIO_TIMBRES)
  throw new Error(`audio: the committed loops have ${String(loopVariants)} variants, schemas/media.ts says ${String(AUDIO_TIMBRES)}`);

/** Samples (at 24 kHz) per frame of the frame-copied codecs. */
export const audioFrameSamples = { mp3: 576, aac: 1024 } as const;
export const OPUS_PACKET_48K = 960; // 20 ms at 48 kHz (Opus counts time at 48 kHz)
export const FLAC_BLOCK = 4608; // 192 ms; ten per loop

/** Throws RangeError unless `durationMs` is in (0, audioMaxDurationMs] and `variant` an integer >= 0. */
export function checkSpec(durationMs: number, variant: number): void {
  if (!Number.isFinite(durationMs) || durationMs <= 0) throw new RangeError(`audio duration must be a positive number of ms, got ${durationMs}`);
  if (durationMs > audioMaxDurationMs) throw new RangeError(`audio duration ${durationMs} ms is over the ${audioMaxDurationMs} ms limit`);
  if (!Number.isInteger(variant) || variant < 0) throw new RangeError(`audio variant must be an integer >= 0, got ${variant}`);
}

export function fromBase64(s: string): Uint8Array {
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export function memo<T>(make: (v: number) => T): (variant: number) => T {
  const cache = new Map<number, T>();
  return (variant) => {
    const v = variant % loopVariants;
    let hit = cache.get(v);
    if (hit === undefined) {
      hit = make(v);
      cache.set(v, hit);
    }
    return hit;
  };
}

// ---------------------------------------------------------------------------
// Cyclic copies

/** Fills `out` with `pattern` repeated, starting at `pattern[phase]` (by doubling copies: a few dozen memmoves for any size). */
export function fillCyclic(out: Uint8Array, pattern: Uint8Array, phase: number): void {
  const n = out.length;
  const p = pattern.length;
  let at = Math.min(n, p - phase);
  out.set(pattern.subarray(phase, phase + at), 0);
  if (at === n) return;
  const base = at; // a pattern boundary
  const first = Math.min(p, n - at);
  out.set(pattern.subarray(0, first), at);
  at += first;
  while (at < n) {
    const len = Math.min(at - base, n - at);
    out.copyWithin(at, base, base + len);
    at += len;
  }
}

/** One loop of frames: their bytes back to back, and where each starts (`offsets[i]`; `offsets[frames]` is the length). */
