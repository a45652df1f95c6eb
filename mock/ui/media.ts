/**
 * What the dashboard knows of the areas: which API operation reads a task of
 * an area (its result is fetched with the owner's key), and how a URL found in
 * a result is shown (image, audio, video, or a link). Pure functions, tested
 * in test/dashboard.test.ts.
 */

/** The operation that reads a task of each activity area (the area's store name); areas without one show statuses only. */
export const readOperationOf: Record<string, string> = {
  video: 'getVideoTask',
  image: 'getImageTask',
  music: 'getMusicTask',
  lyrics: 'getLyricsTask',
  extraction: 'getExtraction',
  podcast: 'getPodcastEpisode',
  'flow-speech': 'getFlowSpeechEpisode',
  storybook: 'getStorybookEpisode',
  'voice-clone': 'getVoiceClone',
  'generated-audio-platformVoice': 'getPlatformVoiceTask',
  'generated-audio-seedAudio': 'getSeedAudioTask',
};

/** The path of a read: the template's one parameter ({taskId}, {episodeId}) filled with the task id. */
export function readPath(template: string, taskId: string): string {
  return template.replace(/\{[^}]+\}/, encodeURIComponent(taskId));
}

export type MediaKind = 'image' | 'audio' | 'video' | 'link';

/** A URL found in a result: where it was (the JSON path), what it is, and the URL. */
export interface MediaRef {
  kind: MediaKind;
  url: string;
  where: string;
}

const KINDS: [RegExp, MediaKind][] = [
  [/\.(png|jpe?g|webp|gif)$/i, 'image'],
  [/\.(mp3|wav|ogg|opus|aac|flac|m4a|pcm)$/i, 'audio'],
  [/\.(mp4|webm|mov)$/i, 'video'],
];

/** The kind of a media URL, by the extension of its path (query left out); links for everything else (subtitles, playlists, MIDI). */
export function mediaKind(url: string): MediaKind {
  const path = url.split(/[?#]/)[0];
  return KINDS.find(([re]) => re.test(path))?.[1] ?? 'link';
}

/**
 * Every distinct http(s) URL in `value` (a task as its read answers it), in
 * order, with its JSON path. Only URLs of `origin` (the mock's own media) are
 * embedded; any other URL (a reference image a client sent, say) is a link, so
 * the page never loads anything from another host.
 */
export function mediaIn(value: unknown, origin: string): MediaRef[] {
  const out: MediaRef[] = [];
  const seen = new Set<string>();
  const walk = (v: unknown, where: string) => {
    if (typeof v === 'string') {
      if (!/^https?:\/\//i.test(v) || seen.has(v)) return;
      seen.add(v);
      let own: boolean;
      try {
        own = new URL(v).origin === origin;
      } catch {
        return;
      }
      out.push({ kind: own ? mediaKind(v) : 'link', url: v, where });
    } else if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${where}[${i}]`));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, where ? `${where}.${k}` : k);
  };
  walk(value, '');
  return out;
}

/** Virtual time as `YYYY-MM-DD HH:MM:SS.mmm` (UTC). */
export function formatTime(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').replace('Z', '');
}

/** Virtual time of day as `HH:MM:SS.mmm` (UTC), for tables (the full time goes in a title). */
export function formatClockTime(ms: number): string {
  return formatTime(ms).slice(11);
}

/** A duration in ms as `1.5 s`, `2 min 3 s`, `1 h 2 min`. */
export function formatDuration(ms: number): string {
  if (ms < 60_000) return `${Number((ms / 1000).toFixed(ms < 10_000 ? 1 : 0))} s`;
  const s = Math.round(ms / 1000);
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`;
  const m = Math.round(s / 60);
  return `${Math.floor(m / 60)} h${m % 60 ? ` ${m % 60} min` : ''}`;
}
