/**
 * What the music tests share: sending a create (JSON or a multipart form) and
 * checking its 202 answer, reading tasks, the ledger of an account on the
 * control API, error envelopes, and loading a track's signed URL.
 */
import { expect } from 'vitest';
import { errorCatalog, type ErrorName } from '../schemas/errors.ts';
import type { OperationId } from '../schemas/operations.ts';
import { pathOf, type Body, type MusicTask } from './factories.ts';

export type { MusicTask, MusicTrack } from './factories.ts';
import { KEY, type CallResult, type TestMock } from './helpers.ts';

/** The credits every harness account opens with. */
export const OPENING = 10_000;

/** An expected error: its name and the words its message must contain (the field names). */
export type Failure = { error: ErrorName; names: string[] };
export const fails = (error: ErrorName, ...names: string[]): Failure => ({ error, names });
export const invalid = (...names: string[]): Failure => fails('MUSIC_INVALID_PARAMETERS', ...names);

/** Asserts the error envelope of `expected` (status, code, data null) and that the message names every field. */
export function expectError(r: CallResult, expected: Failure | ErrorName): void {
  const f = typeof expected === 'string' ? { error: expected, names: [] } : expected;
  const e = errorCatalog[f.error];
  expect(r.status, r.text).toBe(e.httpStatus);
  expect(r.json, r.text).toEqual({ code: e.code, message: expect.any(String), data: null });
  for (const name of f.names) expect(r.json.message, `the message names ${name}`).toContain(name);
}

/** Sends a create of `op` (a JSON body or a FormData). */
export function send(m: TestMock, op: OperationId, body: Body | FormData, headers: Record<string, string> = {}, key?: string): Promise<CallResult> {
  return m.call('POST', pathOf(op), { body, headers, key });
}

/** Sends a create, asserts 202 `{taskId, status: pending}` and returns the task id. */
export async function create(m: TestMock, op: OperationId, body: Body | FormData, headers: Record<string, string> = {}, key?: string): Promise<string> {
  const r = await send(m, op, body, headers, key);
  expect(r.status, r.text).toBe(202);
  expect(r.json).toEqual({ code: 0, message: '', data: { taskId: expect.stringMatching(/^mus_[0-9a-f]{16}$/), status: 'pending' } });
  return r.json.data.taskId;
}

export async function getTask(m: TestMock, id: string, key?: string): Promise<MusicTask> {
  const r = await m.call('GET', pathOf('getMusicTask', { taskId: id }), { key });
  expect(r.status, r.text).toBe(200);
  return r.json.data;
}

export async function listTasks(m: TestMock, query: Record<string, string | number> = {}, key?: string) {
  const r = await m.call('GET', pathOf('listMusicTasks', {}, query), { key });
  expect(r.status, r.text).toBe(200);
  return r.json.data as { items: MusicTask[]; page: number; pageSize: number; total: number };
}

interface LedgerEntry {
  type: string;
  amount: number;
  taskId: string | null;
}
export async function account(m: TestMock, key = KEY): Promise<{ credits: number; ledger: LedgerEntry[] }> {
  return (await m.call('GET', `/__mock/accounts/${key}?ledgerPageSize=1000`, { key: null })).json;
}
/** The ledger entries of task `id` as [type, amount]. */
export const ledgerOf = async (m: TestMock, id: string, key = KEY) =>
  (await account(m, key)).ledger.filter((e) => e.taskId === id).map((e) => [e.type, e.amount]);
export const setCredits = (m: TestMock, credits: number, key = KEY) => m.call('PUT', `/__mock/accounts/${key}`, { key: null, body: { credits } });

/** Asserts the account's ledger names no task and its balance is untouched (a refused request reserved nothing). */
export async function expectNothingReserved(m: TestMock, credits = OPENING): Promise<void> {
  const acc = await account(m);
  expect(acc.credits, 'a refused request reserves nothing').toBe(credits);
  expect(acc.ledger.filter((e) => e.taskId !== null && e.type === 'reserve').length).toBe(0);
}

/** Long enough for every task to finish (the schedule is at most 160 s). */
export const DONE_MS = 200_000;

/** Loads `url` (no auth, as an <audio> tag does): its status, Content-Type, bytes and JSON (errors). */
export async function load(url: string, init: RequestInit = {}): Promise<{ status: number; type: string | null; bytes: Uint8Array; json: any }> {
  const res = await fetch(url, init);
  const bytes = new Uint8Array(await res.arrayBuffer());
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    json = undefined;
  }
  return { status: res.status, type: res.headers.get('content-type'), bytes, json };
}

/** The harness's seed and start time; a musicB body; the provider-only and model refusals. */
export const SEED = 1; // the harness's seed (useMocks)
export const T0 = Date.UTC(2026, 0, 1); // the harness's start time
export const musicB = (over: Body = {}) => ({ provider: 'musicB', prompt: '[Verse]\nRain on the harbor', ...over });
export const unsupported = (...names: string[]): Failure => fails('MUSIC_PROVIDER_UNSUPPORTED', ...names);
export const badModel = (...names: string[]): Failure => fails('MUSIC_MODEL_UNSUPPORTED', ...names);
