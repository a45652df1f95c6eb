/**
 * The soak's settings (scripts/soak.ts): the bounds it starts the mock with,
 * its pacing, what it keeps to poll and load, the answers it expects, and its
 * flags.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/** The kinds of request the soak sends, as its reports count them. */
export const KINDS = [
  'video-create',
  'image-create',
  'video-poll',
  'image-poll',
  'video-list',
  'image-list',
  'subscription',
  'media-mp4',
  'media-cover',
  'media-image',
  'journal-read',
  'new-account',
  'top-up',
] as const;
export type Kind = (typeof KINDS)[number];

/** The repository's root (this file is scripts/soak/config.ts). */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SPEED = 60;
export const REPORT_EVERY_MS = 30_000;
export const RSS_EVERY_MS = 5_000;
export const FLAT_MB_PER_MIN = 1;
/** The bounds that grow with traffic, as the soak may set them: tasks per area, ledger entries per account, media cache in MB. */
export interface Bounds {
  maxTasks: number;
  maxLedgerEntries: number;
  mediaCacheMb: number;
}
/** The mock's own defaults (`node bin/mediagen-mock.js --help`): reached after hours of traffic. */
export const DEFAULT_BOUNDS: Bounds = { maxTasks: 20_000, maxLedgerEntries: 1_000, mediaCacheMb: 256 };
/** What the soak starts the mock with unless `--default-bounds`: reached within minutes, the steady state of hours. */
export const SCALED_BOUNDS: Bounds = { maxTasks: 2_000, maxLedgerEntries: 200, mediaCacheMb: 64 };
export const MAX_IN_FLIGHT = 256;
export const REQUEST_TIMEOUT_MS = 30_000;
export const NEW_KEYS_PER_MINUTE = 6;
export const TOP_UP_CREDITS = 10_000;
export const OPEN_TASKS_KEPT = 5_000;
/**
 * Tasks (per area) and media (per kind) the soak remembers to poll and load: more than the scaled `--max-tasks`
 * (2,000 per area), so at the steady state some polls and loads reach tasks the mock has evicted, as a client
 * coming back to an old task would (answered not-found, then dropped). With the default bounds none is evicted
 * in a run of minutes.
 */
export const RECENT_TASKS_KEPT = 2_500;
export const MEDIA_KEPT = 2_500;
/**
 * Idle keep-alive connections are closed by the soak after 4 s, before the mock's server closes them (Node's
 * default keepAliveTimeout, 5 s): a request sent on a connection the server is closing at that moment would
 * fail with ECONNRESET, an error of the client, not of the mock.
 */
export const IDLE_SOCKET_MS = 4_000;
/** Envelope codes of a create refused for spent credits (video 31004, image 26004). */
export const NO_CREDITS = new Set([31004, 26004]);
/** Envelope codes of the 429s: the 5-per-minute video limit, the image generate limit, the per-user request limit. */
export const RATE_LIMITED = new Map([
  [31029, 'the 5-per-minute video limit'],
  [26029, 'the image generate limit'],
  [29998, 'the per-user request limit'],
]);
/** Envelope code of a task (or a medium of it) no longer stored, by kind: a video poll 400 code 31006, an image poll 404 code 26006, media 404 code 10004. */
export const NOT_FOUND: Partial<Record<Kind, number>> = {
  'video-poll': 31006,
  'image-poll': 26006,
  'media-mp4': 10004,
  'media-cover': 10004,
  'media-image': 10004,
};

const USAGE =
  'usage: npm run soak -- --minutes N [--rate R] [--port P] [--keys K] [--default-bounds]\n       npm run soak -- --distinct-keys N [--max-accounts M] [--port P]';
export const log = (s: string) => process.stderr.write(`${s}\n`);
export const out = (s = '') => process.stdout.write(`${s}\n`);

/** The flags, checked; exits with code 2 and the usage on a bad one. */
export function flags(): {
  minutes: number;
  rate: number;
  port: number | undefined;
  keys: number;
  defaultBounds: boolean;
  distinctKeys: number | undefined;
  maxAccounts: number;
} {
  try {
    const { values } = parseArgs({
      options: {
        minutes: { type: 'string', default: '10' },
        rate: { type: 'string', default: '200' },
        port: { type: 'string' },
        keys: { type: 'string', default: '50' },
        'default-bounds': { type: 'boolean', default: false },
        'distinct-keys': { type: 'string' },
        'max-accounts': { type: 'string', default: '500' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
    if (values.help) {
      out(USAGE);
      process.exit(0);
    }
    const minutes = Number(values.minutes);
    const rate = Number(values.rate);
    const keys = Number(values.keys);
    const port = values.port === undefined ? undefined : Number(values.port);
    if (!(minutes > 0 && Number.isFinite(minutes))) throw new Error('--minutes must be a positive number');
    if (!(rate > 0 && Number.isFinite(rate))) throw new Error('--rate must be a positive number');
    if (!Number.isInteger(keys) || keys < 1) throw new Error('--keys must be a whole number >= 1');
    if (port !== undefined && (!Number.isInteger(port) || port < 1 || port > 65535)) throw new Error('--port must be a whole number 1-65535');
    const distinctKeys = values['distinct-keys'] === undefined ? undefined : Number(values['distinct-keys']);
    const maxAccounts = Number(values['max-accounts']);
    if (distinctKeys !== undefined && (!Number.isInteger(distinctKeys) || distinctKeys < 1)) throw new Error('--distinct-keys must be a whole number >= 1');
    if (!Number.isInteger(maxAccounts) || maxAccounts < 1) throw new Error('--max-accounts must be a whole number >= 1');
    return { minutes, rate, port, keys, defaultBounds: values['default-bounds'], distinctKeys, maxAccounts };
  } catch (e) {
    log(`soak: ${(e as Error).message}\n${USAGE}`);
    process.exit(2);
  }
}
