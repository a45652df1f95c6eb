/**
 * The music-analysis service (document 3, "Music: asynchronous generation
 * (prefix /v1/music)", last paragraph: /recognize, /describe and /stem answer
 * HTTP 200 synchronously): lyrics recognition, a description, and stem
 * separation with MIDI, of one recording.
 *
 *   request -> the recording (an upload, hosted media by audioUrl, or an
 *   external URL standing for a recording) -> measured (type from the bytes,
 *   duration decoded) -> charged at once -> the answer
 *
 * The recording: an upload is demuxed with mediabunny (`inspectReferenceAudio`):
 * its container must be mp3, m4a (MP4 audio without video) or wav and its
 * duration within `musicAnalysisDurationMs`. An audioUrl under the mock's own
 * origin names hosted media: it is resolved through every area's media
 * declarations (`resolveHostedMedia`), refused when its area records another
 * owner, rendered and measured like an upload. Any other http(s) URL cannot be
 * fetched: it stands for a recording of `externalRecordingSeconds` chosen from
 * the URL (assumed).
 *
 * Answers derive from (engine seed, a hash of the recording's bytes, or of an
 * external URL), never from the key or the clock: the same bytes give the same
 * answer. Recognized segments lie within the measured duration; stems are MP3
 * of the measured duration (to the 24 ms frame), the MIDI (audio-separation-2)
 * of the same length (to its 10 ms tick). A stem separation is stored as a
 * record (created terminal) so its files can be hosted.
 *
 * Money (assumed flat prices, `musicAnalysisCredits`): charged at once (a hold
 * captured in the same request, like the synchronous speech endpoints), after
 * the recording was read; a short balance: 402 (39507), nothing taken.
 */
import { z } from 'zod';
import { AUDIO_TIMBRES, audioFileTypes, mediaFileTypes } from '../../schemas/media.ts';
import {
  externalRecordingSeconds,
  MUSIC_AUDIO_MAX_BYTES,
  musicAnalysisCredits,
  musicAnalysisDurationMs,
  musicBpm,
  musicGenres,
  musicInstruments,
  musicKeys,
  musicMoods,
  stemModelIds,
  stemModels,
  type MusicAnalysisRequest,
  type MusicAudioType,
  type StemModel,
} from '../../schemas/music-analysis.ts';
import { hash32 } from '../engine/rng.ts';
import { renderAudio } from '../media/audio.ts';
import { renderMidi } from '../media/renderers.ts';
import { inspectReferenceAudio } from '../media/reference-audio.ts';
import type { Handler, MediaAsset, Service, ServiceContext } from './context.ts';
import { fake } from './fake.ts';
import { resolveHostedMedia } from './hosted-media.ts';
import { TaskKit, taskRecordSchema } from './tasks.ts';

// ---------------------------------------------------------------------------
// The recording
// ---------------------------------------------------------------------------

/** A recording as the analyses see it: its length, what names its content, and whether it is digital silence (WAV). */
interface Recording {
  /** Measured duration, ms (an integer). */
  durationMs: number;
  /** Names the content: a hash of the bytes and their length, or the external URL. */
  key: string;
  silent: boolean;
}

/** 32-bit FNV-1a of `bytes`, as 8 hex digits. */
function hashBytes(bytes: Uint8Array): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}

const MB = (n: number) => `${Math.round((n / (1024 * 1024)) * 100) / 100} MB`;
const seconds = (ms: number) => `${Math.round(ms) / 1000} s`;

/** The errors of `measure`. */
type MeasureErrors = 'MUSIC_ANALYSIS_UNSUPPORTED_AUDIO' | 'MUSIC_ANALYSIS_AUDIO_DURATION_INVALID';
/** The errors of `hosted` (and `recordingOf`). */
type SourceErrors = MeasureErrors | 'MUSIC_ANALYSIS_SOURCE_NOT_FOUND' | 'MUSIC_ANALYSIS_SOURCE_FORBIDDEN' | 'MUSIC_ANALYSIS_FILE_TOO_LARGE';

/**
 * Measures `bytes` (named `field` in messages): its type from the bytes, its duration.
 * Errors: MUSIC_ANALYSIS_UNSUPPORTED_AUDIO (empty, not audio, not mp3/m4a/wav), MUSIC_ANALYSIS_AUDIO_DURATION_INVALID.
 */
async function measure(ctx: ServiceContext<MeasureErrors>, bytes: Uint8Array, field: string): Promise<Recording> {
  if (bytes.length === 0) throw ctx.fail('MUSIC_ANALYSIS_UNSUPPORTED_AUDIO', `${field}: the file is empty; send mp3, m4a or wav audio`);
  const a = await inspectReferenceAudio(bytes);
  if (!a.audio)
    throw ctx.fail(
      'MUSIC_ANALYSIS_UNSUPPORTED_AUDIO',
      `${field}: no readable audio in the file's bytes (whatever its name or type says); send mp3, m4a or wav`,
    );
  const type: MusicAudioType | undefined =
    a.container === 'mp3' ? 'mp3' : a.container === 'wav' ? 'wav' : a.container === 'mp4' && !a.video ? 'm4a' : undefined;
  if (!type) {
    const what = a.container === 'mp4' ? 'an MP4 video (it has a video track), not m4a audio' : `${a.container === 'other' ? a.codec : a.container} audio`;
    throw ctx.fail('MUSIC_ANALYSIS_UNSUPPORTED_AUDIO', `${field}: the file is ${what}; send mp3, m4a or wav`);
  }
  const { min, max } = musicAnalysisDurationMs;
  if (a.durationMs < min || a.durationMs > max)
    throw ctx.fail(
      'MUSIC_ANALYSIS_AUDIO_DURATION_INVALID',
      `${field}: the recording lasts ${seconds(a.durationMs)}; it must last ${min / 1000} s to ${max / 60_000} minutes`,
    );
  return { durationMs: a.durationMs, key: `bytes ${hashBytes(bytes)} ${bytes.length}`, silent: a.silent };
}

/** The query parameters of `href` (the first value of each), or none when it is not a URL. */
function queryOf(href: string): Record<string, string> {
  try {
    return Object.fromEntries(new URL(href).searchParams);
  } catch {
    return {};
  }
}

/**
 * The hosted file at `path` of the mock's own origin (named `href` in messages), measured.
 * Errors: MUSIC_ANALYSIS_SOURCE_NOT_FOUND, MUSIC_ANALYSIS_SOURCE_FORBIDDEN (another key's file),
 * MUSIC_ANALYSIS_UNSUPPORTED_AUDIO (not audio), MUSIC_ANALYSIS_FILE_TOO_LARGE, and those of `measure`.
 */
async function hosted(ctx: ServiceContext<SourceErrors>, path: string, href: string): Promise<Recording> {
  if (!path.startsWith('/media/'))
    throw ctx.fail('MUSIC_ANALYSIS_SOURCE_NOT_FOUND', `audioUrl ${href}: an address of the mock itself, but not a hosted media file (those are under /media/)`);
  const asset = resolveHostedMedia(ctx.engine, path, queryOf(href));
  if (!asset) throw ctx.fail('MUSIC_ANALYSIS_SOURCE_NOT_FOUND', `audioUrl ${href}: no hosted media there (unknown, deleted, or not produced yet)`);
  if ('expired' in asset) throw ctx.fail('MUSIC_ANALYSIS_SOURCE_NOT_FOUND', `audioUrl ${href}: ${asset.expired}`);
  if ('denied' in asset) throw ctx.fail('MUSIC_ANALYSIS_SOURCE_FORBIDDEN', `audioUrl ${href}: ${asset.denied}`);
  if (asset.owner !== undefined && asset.owner !== ctx.account.apiKey)
    throw ctx.fail('MUSIC_ANALYSIS_SOURCE_FORBIDDEN', `audioUrl ${href}: the file belongs to another account; send your own or public audio`);
  if (!asset.contentType.startsWith('audio/'))
    throw ctx.fail('MUSIC_ANALYSIS_UNSUPPORTED_AUDIO', `audioUrl ${href}: the file is ${asset.contentType}, not audio; send mp3, m4a or wav`);
  const bytes = await asset.render();
  if (bytes.length > MUSIC_AUDIO_MAX_BYTES)
    throw ctx.fail('MUSIC_ANALYSIS_FILE_TOO_LARGE', `audioUrl ${href}: the file is ${MB(bytes.length)}, over the ${MB(MUSIC_AUDIO_MAX_BYTES)} limit`);
  return measure(ctx, bytes, 'audioUrl');
}

/**
 * The recording a request names: the upload, the hosted file of an audioUrl of
 * the mock's own origin, or the assumed recording of an external URL (its
 * length, whole seconds, from the URL alone). Errors: those of `measure` and `hosted`.
 */
async function recordingOf(ctx: ServiceContext<SourceErrors>, body: MusicAnalysisRequest): Promise<Recording> {
  if (body.audio) return measure(ctx, body.audio.bytes, 'audio');
  const url = new URL(body.audioUrl!); // the schema checked it is an http(s) URL
  const base = new URL(ctx.url('/'));
  if (url.origin === base.origin && url.pathname.startsWith(base.pathname)) return hosted(ctx, `/${url.pathname.slice(base.pathname.length)}`, url.href);
  const { min, max } = externalRecordingSeconds;
  const s = min + (hash32('music-analysis external recording', url.href) % (max - min + 1));
  return { durationMs: s * 1000, key: `url ${url.href}`, silent: false };
}

// ---------------------------------------------------------------------------
// Money
// ---------------------------------------------------------------------------

/**
 * Charges `credits` at once under `id` (a hold captured at once), reading the
 * account as it is now (the recording was read asynchronously: requests in
 * between have been handled whole). Errors: UNAUTHORIZED (the key was deleted
 * meanwhile), MUSIC_ANALYSIS_INSUFFICIENT_CREDITS (nothing taken).
 */
function chargeNow(ctx: ServiceContext<'UNAUTHORIZED' | 'MUSIC_ANALYSIS_INSUFFICIENT_CREDITS'>, id: string, credits: number, note: string): number {
  const { engine } = ctx;
  const now = engine.tick();
  const apiKey = ctx.account.apiKey;
  if (engine.accounts.isDeleted(apiKey)) throw ctx.fail('UNAUTHORIZED', 'API key has been deleted');
  const account = engine.accounts.get(apiKey, now);
  if (account.credits < credits)
    throw ctx.fail('MUSIC_ANALYSIS_INSUFFICIENT_CREDITS', `insufficient credits: this ${note} costs ${credits} credits and the balance is ${account.credits}`);
  engine.accounts.reserve(account, id, credits, now, note);
  engine.accounts.capture(id, now);
  return now;
}

// ---------------------------------------------------------------------------
// Analyses (pure: seed and recording in, result out)
// ---------------------------------------------------------------------------

/** A recognized line, ms. */
interface Line {
  startMs: number;
  endMs: number;
  text: string;
}

/** Word sources of a lyric line. */
interface Words {
  adj(): string;
  noun(): string;
  verb(): string;
}

/** Shapes of a recognized line (filled with seeded words). */
const lyricTemplates: ((w: Words) => string)[] = [
  (w) => `${w.adj()} ${w.noun()} in the ${w.noun()}`,
  (w) => `we ${w.verb()} through the ${w.adj()} ${w.noun()}`,
  (w) => `I ${w.verb()} your ${w.noun()} tonight`,
  (w) => `under the ${w.adj()} ${w.noun()}`,
  (w) => `you ${w.verb()} me like the ${w.noun()}`,
  (w) => `${w.adj()} ${w.noun()}, ${w.adj()} ${w.noun()}`,
  (w) => `all the ${w.noun()} we ${w.verb()}`,
];

/**
 * The sung lines of `rec`: after an intro of a tenth of it (at most 8 s),
 * lines of 1.5-4.5 s with short gaps and now and then an instrumental break,
 * all ending before the last 5% (at most 2 s); at least one line (a tenth to
 * nine tenths of it); none for digital silence. Times are whole ms within the recording.
 */
function recognizeLines(seed: number, rec: Recording): Line[] {
  if (rec.silent) return [];
  const d = rec.durationMs;
  return fake(seed, ['music-recognize', rec.key], (f) => {
    const line = () => {
      const t = f.helpers.arrayElement(lyricTemplates)({ adj: () => f.word.adjective(), noun: () => f.word.noun(), verb: () => f.word.verb() });
      return t.charAt(0).toUpperCase() + t.slice(1);
    };
    const out: Line[] = [];
    const endBy = d - Math.min(2_000, Math.round(d * 0.05));
    let t = Math.min(8_000, Math.round(d * 0.1));
    for (;;) {
      const len = f.number.int({ min: 1_500, max: 4_500 });
      if (t + len > endBy) break;
      out.push({ startMs: t, endMs: t + len, text: line() });
      t += len + f.number.int({ min: 200, max: 1_500 });
      if (f.number.int({ min: 0, max: 9 }) === 0) t += f.number.int({ min: 4_000, max: 12_000 });
    }
    if (out.length === 0) out.push({ startMs: Math.round(d * 0.1), endMs: Math.round(d * 0.9), text: line() });
    return out;
  });
}

/** m:ss of `ms`. */
const clock = (ms: number) => {
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

/** The description of `rec`: genre, mood, tempo, key and instruments from the mock's vocabularies, and a sentence naming them and the length. */
function describeRecording(seed: number, rec: Recording) {
  return fake(seed, ['music-describe', rec.key], (f) => {
    const genre = f.helpers.arrayElement(musicGenres);
    const mood = f.helpers.arrayElement(musicMoods);
    const bpm = f.number.int(musicBpm);
    const key = `${f.helpers.arrayElement(musicKeys)} ${f.helpers.arrayElement(['major', 'minor'])}`;
    const instruments = f.helpers.arrayElements(musicInstruments, { min: 2, max: 5 });
    const [lead, ...rest] = instruments;
    const article = /^[aeiou]/.test(mood) ? 'An' : 'A';
    const over = rest.length > 1 ? `${rest.slice(0, -1).join(', ')} and ${rest.at(-1)}` : rest[0];
    const description = `${article} ${mood} ${genre} track of ${clock(rec.durationMs)} at ${bpm} BPM in ${key}, led by ${lead} over ${over}.`;
    return { description, genre, mood, bpm, key, instruments };
  });
}

/** The timbre of each stem of `model` for `rec` (distinct within a split: the model makes at most six stems) and the MIDI melody's variant. */
function stemVariants(seed: number, rec: Recording, model: StemModel): { stems: { name: string; variant: number }[]; midiVariant?: number } {
  const base = hash32(seed, 'music-stems', rec.key);
  return {
    stems: stemModels[model].stems.map((name, i) => ({ name, variant: (base + i) % AUDIO_TIMBRES })),
    ...(stemModels[model].midi ? { midiVariant: hash32(seed, 'music-midi', rec.key) % 1_000 } : {}),
  };
}

// ---------------------------------------------------------------------------
// Stem separations (stored for their media)
// ---------------------------------------------------------------------------

/** A stem separation, as saved: created terminal, kept so its files can be hosted. */
const musicStemsRecordSchema = taskRecordSchema(['success'], {
  model: z.enum(stemModelIds),
  durationMs: z.number(),
  stems: z.array(z.strictObject({ name: z.string(), variant: z.number().int() })),
  midiVariant: z.number().int().optional(),
  credits: z.number(),
});
type StemRecord = z.infer<typeof musicStemsRecordSchema>;

const stemKit = new TaskKit<StemRecord>({ area: 'music-stems', idPrefix: 'mst', noun: 'stem separation', terminal: ['success'] });

const stemPath = (id: string, stem: string) => `/media/music/stems/${id}/${stem}.${audioFileTypes.mp3.extension}`;
const midiPath = (id: string) => `/media/music/stems/${id}/notes.${mediaFileTypes.midi.extension}`;

// ---------------------------------------------------------------------------
// Handlers
// ---------------------------------------------------------------------------

const recognizeMusic: Handler<'recognizeMusic'> = async ({ body }, ctx) => {
  const rec = await recordingOf(ctx, body);
  const id = ctx.engine.nextId('mrc', ctx.account.apiKey, 'music-recognize');
  chargeNow(ctx, id, musicAnalysisCredits.recognize, `lyrics recognition of ${seconds(rec.durationMs)}`);
  const lines = recognizeLines(ctx.engine.seed, rec);
  return {
    lyrics: lines.map((l) => l.text).join('\n'),
    segments: lines.map((l) => ({ start: l.startMs / 1000, end: l.endMs / 1000, text: l.text })),
  };
};

const describeMusic: Handler<'describeMusic'> = async ({ body }, ctx) => {
  const rec = await recordingOf(ctx, body);
  const id = ctx.engine.nextId('mds', ctx.account.apiKey, 'music-describe');
  chargeNow(ctx, id, musicAnalysisCredits.describe, `music description of ${seconds(rec.durationMs)}`);
  return describeRecording(ctx.engine.seed, rec);
};

const separateMusicStems: Handler<'separateMusicStems'> = async ({ body }, ctx) => {
  const rec = await recordingOf(ctx, body);
  const { engine } = ctx;
  const credits = musicAnalysisCredits.stem[body.model];
  const id = stemKit.nextId(ctx);
  const now = chargeNow(ctx, id, credits, `stem separation (${body.model}) of ${seconds(rec.durationMs)}`);
  const split = stemVariants(engine.seed, rec, body.model);
  stemKit.create(
    ctx,
    id,
    'success',
    {
      model: body.model,
      durationMs: rec.durationMs,
      ...split,
      credits,
    },
    now,
  );
  return {
    model: body.model,
    stems: split.stems.map((s) => ({ name: s.name, audioUrl: ctx.url(stemPath(id, s.name)) })),
    midiUrl: split.midiVariant !== undefined ? ctx.url(midiPath(id)) : null,
  };
};

/** The three music-analysis operations. Errors: 39501-39508 (see schemas/music-analysis.ts). */
export const musicAnalysisService: Service<'recognizeMusic' | 'describeMusic' | 'separateMusicStems'> = {
  kits: [stemKit],
  records: { 'music-stems': musicStemsRecordSchema },
  handlers: {
    recognizeMusic,
    describeMusic,
    separateMusicStems,
  },

  media: [
    {
      path: stemPath('{splitId}', '{stem}'),
      resolve(engine, p): MediaAsset | undefined {
        const r = stemKit.find(engine, p.splitId);
        const stem = r?.stems.find((s) => s.name === p.stem);
        if (!r || !stem) return undefined;
        const { durationMs } = r;
        return {
          contentType: audioFileTypes.mp3.contentType,
          key: `music stem mp3 ${stem.variant} ${durationMs}`,
          owner: r.owner,
          render: () => renderAudio({ format: 'mp3', durationMs, variant: stem.variant }),
        };
      },
    },
    {
      path: midiPath('{splitId}'),
      resolve(engine, p): MediaAsset | undefined {
        const r = stemKit.find(engine, p.splitId);
        if (r?.midiVariant === undefined) return undefined;
        const { durationMs, midiVariant } = r;
        return {
          contentType: mediaFileTypes.midi.contentType,
          key: `music midi ${midiVariant} ${durationMs}`,
          owner: r.owner,
          render: () => renderMidi({ durationMs, variant: midiVariant }),
        };
      },
    },
  ],
};
