/**
 * Sources of the music creates: uploads judged by their content, platform
 * URLs and providerSongIds checked against the caller's own tasks (ownership
 * verified). Standard JavaScript only.
 */
import { type ErrorName } from '../../../schemas/errors.ts';
import { isHttpUrl } from '../../../schemas/music.ts';
import type { UploadedFile } from '../../../schemas/registry-types.ts';
import { inspectReferenceAudio } from '../../media/reference-audio.ts';
import { sniffFileType, type SniffedType } from '../../media/sniff.ts';
import type { ServiceContext } from '../context.ts';
import { type MusicRecord, ID_PREFIX, kit, TRACK_PATH } from './record.ts';

// ---------------------------------------------------------------------------
// Sources: uploads, platform URLs, provider song ids
// ---------------------------------------------------------------------------

/** What an accepted upload was: its echo for params and, for audio, its length. */
interface CheckedUpload {
  echo: { filename: string; bytes: number; type: string };
  durationMs?: number;
}

/** The sniffed types a field's named types stand for (jpg and jpeg are one; an m4a may carry an mp4 brand). */
const SNIFFED_FOR: Record<string, readonly SniffedType[]> = {
  mp3: ['mp3'],
  m4a: ['m4a', 'mp4'],
  wav: ['wav'],
  jpg: ['jpeg'],
  jpeg: ['jpeg'],
  png: ['png'],
  webp: ['webp'],
  mp4: ['mp4'],
  mov: ['mov'],
  avi: ['avi'],
  mkv: ['mkv'],
  webm: ['webm'],
};

/**
 * Checks the upload of `field` against its named `types` by its content
 * (MUSIC_UNSUPPORTED_FILE otherwise); audio must also read as audio with a
 * length (mediabunny), which it returns.
 */
export async function checkUpload(
  ctx: ServiceContext<'MUSIC_UNSUPPORTED_FILE'>,
  field: string,
  file: UploadedFile,
  types: readonly string[],
  audio: boolean,
): Promise<CheckedUpload> {
  const sniffed = sniffFileType(file.bytes);
  const allowed = types.flatMap((t) => SNIFFED_FOR[t] ?? []);
  const named = `${field} (${JSON.stringify(file.filename)}, ${file.bytes.length} bytes)`;
  if (!sniffed || !allowed.includes(sniffed))
    throw ctx.fail(
      'MUSIC_UNSUPPORTED_FILE',
      `${named}: ${sniffed ? `its content is ${sniffed}` : 'its content is no type this field accepts'}; send ${types.join(', ')} (judged by the content, not the name)`,
    );
  const echo = { filename: file.filename, bytes: file.bytes.length, type: sniffed === 'mp4' && audio ? 'm4a' : sniffed };
  if (!audio) return { echo };
  const a = await inspectReferenceAudio(file.bytes);
  // the container's own codec: MP3 frames in an mp3, PCM in a wav (an m4a carries AAC or another codec)
  const codecFits = !a.audio ? false : sniffed === 'mp3' ? a.codec === 'mp3' : sniffed === 'wav' ? a.codec.startsWith('pcm') : true;
  if (!a.audio || a.durationMs <= 0 || !codecFits)
    throw ctx.fail('MUSIC_UNSUPPORTED_FILE', `${named}: starts as ${sniffed} but holds no ${sniffed} audio that can be read`);
  return { echo, durationMs: a.durationMs };
}

/** A track of one of the caller's succeeded tasks, or the error naming `field`. */
function ownTrack<E extends ErrorName>(
  ctx: ServiceContext<'MUSIC_SOURCE_NOT_FOUND' | NoInfer<E>>,
  field: string,
  shown: string,
  taskId: string,
  index: number,
  foreign: E,
): { r: MusicRecord; index: number } {
  const r = kit.find(ctx.engine, taskId);
  if (!r || r.status !== 'success' || index >= r.tracks.length)
    throw ctx.fail('MUSIC_SOURCE_NOT_FOUND', `${field}: ${shown} names no track of a succeeded music task`);
  if (r.owner !== ctx.account.apiKey)
    throw ctx.fail(foreign, `${field}: ${shown} is a track of another account${foreign === 'MUSIC_SOURCE_FORBIDDEN' ? ' (ownership is verified)' : ''}`);
  return { r, index };
}

/**
 * The source a URL names (cover uploadUrl, remix audioUrl): on the mock's own
 * origin it must be a track of the caller's (MUSIC_SOURCE_FORBIDDEN for
 * another account's, MUSIC_SOURCE_NOT_FOUND for anything else), and its length
 * is known; any other http(s) URL is public (length unknown).
 */
export function urlSource(
  ctx: ServiceContext<'MUSIC_INVALID_PARAMETERS' | 'MUSIC_SOURCE_NOT_FOUND' | 'MUSIC_SOURCE_FORBIDDEN'>,
  field: string,
  url: string,
  opts: { platformOnly?: boolean } = {},
): { durationMs?: number } {
  if (!isHttpUrl(url)) throw ctx.fail('MUSIC_INVALID_PARAMETERS', `${field}: must be an http or https URL`);
  const u = new URL(url);
  const base = new URL(ctx.url('/'));
  if (u.origin !== base.origin || !u.pathname.startsWith(base.pathname)) {
    if (opts.platformOnly)
      throw ctx.fail(
        'MUSIC_INVALID_PARAMETERS',
        `${field}: must be an audio URL of this platform (a track audioUrl of one of your music tasks), not ${u.origin}`,
      );
    return {};
  }
  const m = TRACK_PATH.exec(`/${u.pathname.slice(base.pathname.length)}`);
  if (!m) throw ctx.fail('MUSIC_SOURCE_NOT_FOUND', `${field}: ${u.pathname} is a URL of this platform but not a music track's audioUrl`);
  let taskId: string;
  try {
    taskId = decodeURIComponent(m[1]);
  } catch {
    throw ctx.fail('MUSIC_SOURCE_NOT_FOUND', `${field}: ${u.pathname} names no music track`);
  }
  const { r, index } = ownTrack(ctx, field, u.pathname, taskId, Number(m[2]), 'MUSIC_SOURCE_FORBIDDEN');
  return { durationMs: r.tracks[index].durationMs };
}

const SONG_ID = /^(ma|mb)_([0-9a-f]{16})_(\d{1,3})$/;

/** The track a providerSongId names among the caller's tasks (MUSIC_SOURCE_NOT_FOUND otherwise, another account's too); musicA only where asked. */
export function songSource(
  ctx: ServiceContext<'MUSIC_SOURCE_NOT_FOUND' | 'MUSIC_PROVIDER_UNSUPPORTED'>,
  songId: string,
  musicAOnly: boolean,
): { r: MusicRecord; index: number } {
  const m = SONG_ID.exec(songId);
  if (!m)
    throw ctx.fail(
      'MUSIC_SOURCE_NOT_FOUND',
      `providerSongId: ${songId} is not a song id of this platform (a track providerSongId, e.g. ma_1a2b3c4d5e6f7a8b_0)`,
    );
  const found = ownTrack(ctx, 'providerSongId', songId, `${ID_PREFIX}_${m[2]}`, Number(m[3]), 'MUSIC_SOURCE_NOT_FOUND');
  if (musicAOnly && found.r.provider !== 'musicA')
    throw ctx.fail('MUSIC_PROVIDER_UNSUPPORTED', `providerSongId: ${songId} is a ${found.r.provider} song; this endpoint takes musicA songs (musicA only)`);
  return found;
}
