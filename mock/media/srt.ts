/**
 * Subtitles of spoken audio (document 2, "Podcast episode": the episode's SRT):
 * a text cut into sentence-sized cues timed over the audio, and the cues as
 * SubRip text. Standard JavaScript only.
 */

/** One subtitle: shown from `startMs` to `endMs` (ms from the start of the audio). */
export interface Cue {
  startMs: number;
  endMs: number;
  /** The words; lines separated by `\n`. */
  text: string;
}

/** Longest cue, in characters (about two subtitle lines). */
const MAX_CUE_CHARS = 80;
/** Longest line of a cue; a longer cue is broken into two lines near its middle. */
const MAX_LINE_CHARS = 42;

/** True when `word` ends a sentence: . ! ? or an ellipsis, maybe followed by closing quotes or brackets. */
function endsSentence(word: string): boolean {
  return /[.!?\u2026]["'\u201d\u2019)\]]*$/.test(word);
}

/** Words of one sentence packed into chunks of at most MAX_CUE_CHARS, of about equal length (a longer word stays whole). */
function chunkSentence(words: string[]): string[] {
  const length = words.join(' ').length;
  if (length <= MAX_CUE_CHARS) return [words.join(' ')];
  const target = length / Math.ceil(length / MAX_CUE_CHARS);
  const chunks: string[] = [];
  let current = '';
  for (const word of words) {
    const next = current ? `${current} ${word}` : word;
    if (current && (next.length > MAX_CUE_CHARS || current.length >= target)) {
      chunks.push(current);
      current = word;
    } else current = next;
  }
  if (current) chunks.push(current);
  return chunks;
}

/** A chunk as cue text: one line, or two broken at the space nearest the middle when longer than MAX_LINE_CHARS. */
function lines(chunk: string): string {
  if (chunk.length <= MAX_LINE_CHARS) return chunk;
  const middle = chunk.length / 2;
  let best = -1;
  for (let i = chunk.indexOf(' '); i !== -1; i = chunk.indexOf(' ', i + 1)) if (best === -1 || Math.abs(i - middle) < Math.abs(best - middle)) best = i;
  return best === -1 ? chunk : `${chunk.slice(0, best)}\n${chunk.slice(best + 1)}`;
}

/**
 * Cues for `text` spoken over `durationMs` (ms, > 0): the text, whitespace
 * collapsed, cut at sentence ends (. ! ? or an ellipsis) and, within a
 * sentence longer than 80 characters, at spaces into chunks of at most 80
 * (a single longer word stays whole); each chunk is one cue, broken into two
 * lines when over 42 characters. The cues share [0, durationMs] in proportion
 * to their lengths, in order, end to end (each ends where the next starts),
 * times in whole ms (so a cue may last 0 ms when there are more cues than
 * ms), the last ending at `durationMs` (rounded). Joining the
 * cue texts with spaces gives the collapsed text back. Empty or blank text:
 * no cues. Throws RangeError for a duration <= 0 or not finite.
 * Serves document 2, "Podcast episode" (the episode's SRT).
 */
export function cuesForText(text: string, durationMs: number): Cue[] {
  if (!Number.isFinite(durationMs) || durationMs <= 0) throw new RangeError(`cue duration must be a positive number of ms, got ${durationMs}`);
  const words = text.split(/\s+/).filter((w) => w !== '');
  const chunks: string[] = [];
  let sentence: string[] = [];
  for (const word of words) {
    sentence.push(word);
    if (endsSentence(word)) {
      chunks.push(...chunkSentence(sentence));
      sentence = [];
    }
  }
  if (sentence.length > 0) chunks.push(...chunkSentence(sentence));
  const total = chunks.reduce((n, c) => n + c.length, 0);
  const cues: Cue[] = [];
  let chars = 0;
  for (const chunk of chunks) {
    const startMs = Math.round((durationMs * chars) / total);
    chars += chunk.length;
    cues.push({ startMs, endMs: Math.round((durationMs * chars) / total), text: lines(chunk) });
  }
  return cues;
}

/** `ms` as an SRT time, HH:MM:SS,mmm (hours grow past 99 if they must). */
function srtTime(ms: number): string {
  const t = Math.round(ms);
  const pad = (n: number, w: number) => String(n).padStart(w, '0');
  return `${pad(Math.floor(t / 3_600_000), 2)}:${pad(Math.floor(t / 60_000) % 60, 2)}:${pad(Math.floor(t / 1000) % 60, 2)},${pad(t % 1000, 3)}`;
}

/**
 * The cues as a SubRip (.srt) file: for each cue its number (from 1), the line
 * `HH:MM:SS,mmm --> HH:MM:SS,mmm` (times rounded to whole ms), its text lines
 * (blank lines dropped, as a blank line ends a cue) and a blank line; `\n`
 * line ends. Throws RangeError for a cue whose times are negative, not finite,
 * or end before they start.
 * Serves document 2, "Podcast episode" (the episode's SRT).
 */
export function renderSrt(cues: Cue[]): string {
  return cues
    .map((cue, i) => {
      const { startMs, endMs } = cue;
      if (!Number.isFinite(startMs) || !Number.isFinite(endMs) || startMs < 0 || endMs < startMs) throw new RangeError(`bad cue times ${startMs}-${endMs} ms`);
      const text = cue.text
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter((l) => l !== '')
        .join('\n');
      return `${i + 1}\n${srtTime(startMs)} --> ${srtTime(endMs)}\n${text}\n\n`;
    })
    .join('');
}
