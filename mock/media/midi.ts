/**
 * MIDI files for music generation (document 3, "Providers and models": MIDI
 * output): a Standard MIDI File with one deterministic melody per variant,
 * written with the `midi-file` package (pure JavaScript). Standard JavaScript
 * only.
 */
import { type MidiEvent, writeMidi } from 'midi-file';
import { hash32 } from '../engine/rng.ts';

/** Longest MIDI the renderer makes, ms (3 hours). */
export const midiMaxDurationMs = 3 * 3_600_000;

/**
 * Ticks per quarter note; with a tempo of 500 000 µs per quarter (120 bpm) one
 * tick is 10 ms. Coarse on purpose: every delta time (at most a 1 s slot, 100
 * ticks) then fits one byte, and `writeMidi` appends one-byte numbers in
 * constant time (it copies the whole file for each longer one).
 */
const TICKS_PER_BEAT = 50;
const MICROSECONDS_PER_BEAT = 500_000;
const MS_PER_TICK = MICROSECONDS_PER_BEAT / 1000 / TICKS_PER_BEAT;

/** Per variant (taken modulo their number): the General MIDI program and the melody's root note. */
const voices: { program: number; root: number }[] = [
  { program: 0, root: 60 }, // acoustic grand piano, C4
  { program: 4, root: 62 }, // electric piano, D4
  { program: 11, root: 57 }, // vibraphone, A3
  { program: 24, root: 64 }, // nylon guitar, E4
  { program: 40, root: 55 }, // violin, G3
  { program: 73, root: 67 }, // flute, G4
];
/** Major pentatonic steps, semitones above the root. */
const SCALE = [0, 2, 4, 7, 9];
/** Note slots to choose from, ticks (eighth, quarter, dotted quarter, half note at 120 bpm: 250-1000 ms). */
const SLOTS = [25, 50, 75, 100];

/**
 * A Standard MIDI File (format 0, one track on channel 1) of `durationMs` (ms,
 * > 0, at most `midiMaxDurationMs`; rounded to the 10 ms tick, at least one): tempo
 * 120 bpm, 4/4, then a melody on a pentatonic scale whose instrument, key and
 * notes follow from `variant` (an integer >= 0; instrument and key repeat every
 * 6 variants, the notes differ for every variant). Notes start at 0 and follow
 * one another, each sounding 90% of its slot; the last one ends at the end
 * (`durationMs` to the nearest 10 ms), and so does the track. Deterministic.
 * Throws RangeError for a duration <= 0, over the limit or not finite, or a bad variant.
 * Serves document 3, "Providers and models" (MIDI output).
 */
export function renderMidi(spec: { durationMs: number; variant: number }): Uint8Array {
  const { durationMs, variant } = spec;
  if (!Number.isFinite(durationMs) || durationMs <= 0) throw new RangeError(`MIDI duration must be a positive number of ms, got ${durationMs}`);
  if (durationMs > midiMaxDurationMs) throw new RangeError(`MIDI duration ${durationMs} ms is over the ${midiMaxDurationMs} ms limit`);
  if (!Number.isInteger(variant) || variant < 0) throw new RangeError(`MIDI variant must be an integer >= 0, got ${variant}`);
  const end = Math.max(1, Math.round(durationMs / MS_PER_TICK)); // ticks
  const { program, root } = voices[variant % voices.length];
  const events: MidiEvent[] = [
    { deltaTime: 0, meta: true, type: 'trackName', text: `mediagen-mock melody ${variant}` },
    { deltaTime: 0, meta: true, type: 'setTempo', microsecondsPerBeat: MICROSECONDS_PER_BEAT },
    { deltaTime: 0, meta: true, type: 'timeSignature', numerator: 4, denominator: 4, metronome: 24, thirtyseconds: 8 },
    { deltaTime: 0, channel: 0, type: 'programChange', programNumber: program },
  ];
  let now = 0; // tick of the last event written
  let degree = 5; // index into the scale over two octaves (0-10): starts an octave up, on the root
  for (let i = 0, t = 0; t < end; i++) {
    const h = hash32('midi', variant, i);
    const slot = Math.min(SLOTS[h & 3], end - t);
    degree = Math.min(10, Math.max(0, degree + ((h >>> 2) % 5) - 2));
    const note = root - 12 + 12 * Math.floor(degree / 5) + SCALE[degree % 5];
    const velocity = 64 + ((h >>> 8) % 40);
    const last = t + slot >= end;
    const off = last ? end : t + Math.max(1, Math.round(slot * 0.9));
    events.push({ deltaTime: t - now, channel: 0, type: 'noteOn', noteNumber: note, velocity });
    events.push({ deltaTime: off - t, channel: 0, type: 'noteOff', noteNumber: note, velocity: 64 });
    now = off;
    t += slot;
  }
  events.push({ deltaTime: end - now, meta: true, type: 'endOfTrack' });
  return Uint8Array.from(writeMidi({ header: { format: 0, numTracks: 1, ticksPerBeat: TICKS_PER_BEAT }, tracks: [events] }));
}
