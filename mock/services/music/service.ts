/**
 * The music service: the handlers by operationId, the signed track media
 * and the task kit. Standard JavaScript only.
 */
import { audioFileTypes } from '../../../schemas/media.ts';
import type { Engine } from '../../engine/engine.ts';
import { renderAudio } from '../../media/audio.ts';
import type { MediaAsset, Service } from '../context.ts';
import { type MusicTrackPlan, kit, musicRecordSchema, trackPath, signTrackPath } from './record.ts';
import { generate, cover, instrumental, soundtrack, track, remix, extend, get, list } from './handlers.ts';

// ---------------------------------------------------------------------------
// Media
// ---------------------------------------------------------------------------

function trackAsset(t: MusicTrackPlan): MediaAsset {
  return {
    contentType: audioFileTypes.mp3.contentType,
    key: `music mp3 ${t.durationMs} ${t.variant}`,
    render: () => renderAudio({ format: 'mp3', durationMs: t.durationMs, variant: t.variant }),
  };
}

/** The music area's service: seven creates, the task read and the list, and the signed track MP3s. */
export const musicService: Service<
  | 'generateMusic'
  | 'generateInstrumental'
  | 'generateSoundtrack'
  | 'generateTrack'
  | 'remixMusic'
  | 'coverMusic'
  | 'extendMusic'
  | 'getMusicTask'
  | 'listMusicTasks'
> = {
  kits: [kit],
  records: { music: musicRecordSchema },
  handlers: {
    generateMusic: generate,
    generateInstrumental: instrumental,
    generateSoundtrack: soundtrack,
    generateTrack: track,
    remixMusic: remix,
    coverMusic: cover,
    extendMusic: extend,
    getMusicTask: get,
    listMusicTasks: list,
  },
  media: [
    {
      path: trackPath('{taskId}', '{track}'),
      resolve(engine: Engine, p, query) {
        const r = kit.find(engine, p.taskId);
        const index = /^\d{1,3}$/.test(p.track) ? Number(p.track) : -1;
        if (r?.status !== 'success' || index < 0 || index >= r.tracks.length) return undefined;
        const { expires, sig } = query;
        const path = trackPath(r.id, index);
        if (expires === undefined || sig === undefined || !/^\d{1,15}$/.test(expires) || sig !== signTrackPath(engine.seed, path, Number(expires)))
          return {
            error: 'MUSIC_AUDIO_URL_INVALID_SIGNATURE' as const,
            denied: `the signature does not match (${expires === undefined || sig === undefined ? 'expires and sig are required' : 'the URL was altered'}); fetch the task for a signed URL`,
          };
        const now = engine.clock.now();
        if (now >= Number(expires))
          return {
            error: 'MUSIC_AUDIO_URL_EXPIRED' as const,
            denied: `the URL expired at ${new Date(Number(expires)).toISOString()} (now ${new Date(now).toISOString()}); fetch the task again for a fresh URL`,
          };
        return { ...trackAsset(r.tracks[index]), owner: r.owner };
      },
    },
  ],
};
