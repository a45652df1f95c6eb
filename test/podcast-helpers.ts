/**
 * Shared by the podcast suites (test/podcast.test.ts, podcast-two-stage, podcast-stream, podcast-media): the
 * envelope check, the calls they make on a test's mock (`podcastCalls`), and the virtual times and lengths the
 * episodes are held to (document 2, "Podcast", "Podcast episode (GET result)", "Limits").
 */
import { expect } from 'vitest';
import { errorCatalog, type ErrorName } from '../schemas/errors.ts';
import { podcastModePlans, type PodcastMode } from '../schemas/podcast.ts';
import { speechDurationMs } from '../schemas/speech.ts';
import { type Body, pathOf, podcastBody, podcastTextBody } from './factories.ts';
import { type CallResult, KEY, type TestMock } from './helpers.ts';

export const MINUTE = 60_000;
/** One MP3 frame: 576 samples at 24 kHz. */
export const FRAME_MS = 24;
/** One AAC frame: 1,024 samples at 24 kHz. */
export const AAC_FRAME_MS = (1024 * 1000) / 24_000;

/** Asserts `r` is the error envelope of `name`: its status and `{code, message, data: null}`. */
export function expectError(r: CallResult, name: ErrorName) {
  const e = errorCatalog[name];
  expect(r.status, r.text).toBe(e.httpStatus);
  expect(r.json, r.text).toEqual({ code: e.code, message: expect.any(String), data: null });
}

/** One entry of an account's ledger as the control API shows it. */
export interface LedgerEntry {
  type: string;
  amount: number;
  taskId: string | null;
}

/** The podcast calls of a suite on the mock `mock()` returns (the current test's), each asserting its success answer. */
export function podcastCalls(mock: () => TestMock) {
  /** Creates a one-shot episode; its id. */
  const oneShot = async (body: Body = podcastBody(), headers: Record<string, string> = {}, key = KEY) => {
    const r = await mock().call('POST', pathOf('createPodcastEpisode'), { body, headers, key });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toEqual({ code: 0, message: '', data: { episodeId: expect.stringMatching(/^pe_/) } });
    return r.json.data.episodeId as string;
  };
  /** Creates a two-stage episode (its script first); its id. */
  const twoStage = async (body: Body = podcastTextBody(), headers: Record<string, string> = {}) => {
    const r = await mock().call('POST', pathOf('createPodcastTextContent'), { body, headers });
    expect(r.status, r.text).toBe(200);
    expect(r.json.data).toEqual({ episodeId: expect.stringMatching(/^pe_/), message: expect.any(String) });
    return r.json.data.episodeId as string;
  };
  /** The episode `id` as `key` reads it. */
  const get = async (id: string, key = KEY) => {
    const r = await mock().call('GET', pathOf('getPodcastEpisode', { episodeId: id }), { key });
    expect(r.status, r.text).toBe(200);
    return r.json.data;
  };
  /** Asks for the audio of a two-stage episode (the answer unchecked). */
  const audio = (id: string, body?: Body, headers: Record<string, string> = {}) =>
    mock().call('POST', pathOf('createPodcastAudio', { episodeId: id }), { ...(body ? { body } : {}), headers });
  /** The account of `key`: its credits and ledger. */
  const account = async (key = KEY): Promise<{ credits: number; ledger: LedgerEntry[] }> =>
    (await mock().call('GET', `/__mock/accounts/${key}`, { key: null })).json;
  /** The ledger entries of task `id`, as [type, amount]. */
  const entriesOf = async (id: string) => (await account()).ledger.filter((e) => e.taskId === id).map((e) => [e.type, e.amount] as [string, number]);
  /** Sets the balance of KEY. */
  const setCredits = async (credits: number) =>
    expect((await mock().call('PUT', `/__mock/accounts/${KEY}`, { key: null, body: { credits } })).status).toBe(200);
  return { oneShot, twoStage, get, audio, account, entriesOf, setCredits };
}

/** Virtual ms from creation until the script of a `mode` episode is written. */
export const textMs = (mode: PodcastMode) => {
  const p = podcastModePlans[mode];
  return p.sourcesMs + p.outlineItems * p.outlineItemMs + p.lines * p.lineMs;
};
/** What a line lasts in the audio: `speechDurationMs` in whole 24 ms frames, at least five. */
export const lineMs = (text: string, speed = 1) => Math.max(5, Math.round(speechDurationMs(text, speed) / FRAME_MS)) * FRAME_MS;
/** The characters of a script, as the documents count them (code points). */
export const scriptChars = (lines: { content: string }[]) => lines.reduce((n, l) => n + [...l.content].length, 0);

/** Fetches a URL: its status, headers and bytes. */
export const load = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
};

/** The media URL fields of `ep` rewritten from one mock's base to another's. */
export function urlsOf(ep: Record<string, unknown>, from: string, to: string) {
  const out: Record<string, unknown> = {};
  for (const f of ['cover', 'audioUrl', 'audioStreamUrl', 'subtitlesUrl']) if (typeof ep[f] === 'string') out[f] = ep[f].replace(from, to);
  return out;
}
