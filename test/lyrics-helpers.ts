/**
 * What the lyrics suites share (test/lyrics.test.ts, test/lyrics-tasks.test.ts):
 * test texts, the expected errors, creating, reading and listing tasks, the
 * account's ledger, and the ledger shapes of a reserve, capture and refund.
 */
import { expect } from 'vitest';
import { errorCatalog, type ErrorName } from '../schemas/errors.ts';
import { LYRICS_CREDITS } from '../schemas/lyrics.ts';
import { type Body, lyricsBody, pathOf } from './factories.ts';
import { type CallResult, KEY, type TestMock } from './helpers.ts';

export const EMOJI = '\u{1F3B5}'; // one code point, two UTF-16 units
export const CJK = '歌';
export const OPENING = 10_000;
export const SEED = 1; // the harness's seed

export type Failure = { error: ErrorName; names: string[] };
export const invalid = (...names: string[]): Failure => ({ error: 'LYRICS_INVALID_PARAMETERS', names });

/** Asserts the error envelope of `expected` (status, code, data null) and that the message names every field. */
export function expectError(r: CallResult, expected: Failure | ErrorName) {
  const f = typeof expected === 'string' ? { error: expected, names: [] } : expected;
  const e = errorCatalog[f.error];
  expect(r.status, r.text).toBe(e.httpStatus);
  expect(r.json, r.text).toEqual({ code: e.code, message: expect.any(String), data: null });
  for (const name of f.names) expect(r.json.message, `the message names ${name}`).toContain(name);
}

/** Sends generate; checks the 202 answer ({taskId, status} only) and returns the id and the status answered. */
export async function create(m: TestMock, body: Body = lyricsBody(), headers: Record<string, string> = {}, key?: string) {
  const r = await m.call('POST', pathOf('createLyricsTask'), { body, headers, key });
  expect(r.status, r.text).toBe(202);
  expect(Object.keys(r.json.data).sort(), 'the create answer carries no lyrics').toEqual(['status', 'taskId']);
  expect(r.json.data.taskId).toMatch(/^lyr_[0-9a-f]{16}$/);
  return r.json.data as { taskId: string; status: string };
}
export const musicB = (over: Body = {}) => lyricsBody({ provider: 'musicB', ...over });

interface Variant {
  title: string;
  text: string;
  status: string;
  errorMessage?: string;
}
interface Task {
  id: string;
  provider: string;
  status: string;
  params: { prompt: string };
  variants: Variant[];
  creditCost: number;
  errorMessage?: string;
  createdAt: number;
  updatedAt: number;
}

export async function getTask(m: TestMock, id: string, key?: string): Promise<Task> {
  const r = await m.call('GET', pathOf('getLyricsTask', { taskId: id }), { key });
  expect(r.status, r.text).toBe(200);
  return r.json.data;
}

export async function listTasks(m: TestMock, query: Record<string, string | number> = {}, key?: string) {
  const r = await m.call('GET', pathOf('listLyricsTasks', {}, query), { key });
  expect(r.status, r.text).toBe(200);
  return r.json.data as { items: Task[]; page: number; pageSize: number; total: number };
}

interface LedgerEntry {
  type: string;
  amount: number;
  taskId: string | null;
}
export async function account(m: TestMock): Promise<{ credits: number; ledger: LedgerEntry[] }> {
  return (await m.call('GET', `/__mock/accounts/${KEY}?ledgerPageSize=100`, { key: null })).json;
}
export const ledgerOf = async (m: TestMock, id: string) => (await account(m)).ledger.filter((e) => e.taskId === id).map((e) => [e.type, e.amount]);
export const setCredits = (m: TestMock, credits: number) => m.call('PUT', `/__mock/accounts/${KEY}`, { key: null, body: { credits } });

export const RESERVED = [['reserve', -LYRICS_CREDITS]];
export const CAPTURED = [...RESERVED, ['capture', 0]];
export const REFUNDED = [...RESERVED, ['release', LYRICS_CREDITS]];

// ---------------------------------------------------------------------------
// The shared provider and model tables
// ---------------------------------------------------------------------------
