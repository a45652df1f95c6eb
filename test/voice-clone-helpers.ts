/**
 * What the voice-clone confirmation suites share (test/voice-clone-confirm.test.ts, test/voice-clone-auto.test.ts):
 * the account and its checked ledger, the voices and the allowance, creating, completing, polling and confirming a
 * clone task, and the assertions on errors, charges and nothing changed.
 */
import { expect } from 'vitest';
import { errorCatalog, type ErrorName } from '../schemas/errors.ts';
import { cloneSchedule, CONFIRM_CREDITS } from '../schemas/voice-clone.ts';
import { cloneForm, pathOf } from './factories.ts';
import { type CallResult, KEY, type TestMock } from './helpers.ts';

export const TO_COMPLETED = cloneSchedule.pendingMs + cloneSchedule.processingMs;

export interface LedgerEntry {
  seq: number;
  at: number;
  type: 'reserve' | 'capture' | 'release' | 'adjust';
  amount: number;
  balance: number;
  taskId: string | null;
  note: string;
}
export interface Allowance {
  quota: number;
  confirmationsUsed: number;
  maxSpeakers: number;
}
export interface AccountPage {
  credits: number;
  plan: 'free' | 'paid';
  voiceClone: Allowance;
  ledger: LedgerEntry[];
  ledgerTotal: number;
}

/** The account with its whole ledger, checked: the ledger sums to the balance, every running balance matches and none is negative. */
/** GET /v1/voice-clone/speakers: the voices and the allowance. */
/** Creates a clone task (multipart) with the text fields `fields`; returns its id. */
/** A clone task (autoConfirm false), completed. */
export const auto = (over: Record<string, string> = {}) => ({ autoConfirm: 'true', name: 'Auto voice', gender: 'male', ...over });

/** Asserts the error envelope of `name`: status, code, data null, and (for the document's named errors) a message starting with the name. */
export function expectError(r: CallResult, name: ErrorName) {
  const e = errorCatalog[name];
  expect(r.status, r.text).toBe(e.httpStatus);
  expect(r.json, r.text).toEqual({ code: e.code, message: expect.any(String), data: null });
  if (e.meaning.startsWith(`${name}:`)) expect(r.json.message.startsWith(`${name}:`), r.json.message).toBe(true);
}

/** Everything money and allowance: the balance, the ledger length, the allowance, the voices held. */
/** Asserts nothing was charged and nothing was confirmed since `before`. */
/** The ledger entries since `before`. */
export const since = (before: { ledgerTotal: number }, a: AccountPage) => a.ledger.slice(before.ledgerTotal);

/** Asserts `entries` are exactly the 300-credit charge of `taskId`: a reserve of 300 and its capture. */
export function expectCharge(entries: LedgerEntry[], taskId: string) {
  expect(entries).toEqual([
    expect.objectContaining({ type: 'reserve', amount: -CONFIRM_CREDITS, taskId }),
    expect.objectContaining({ type: 'capture', amount: 0, taskId, note: `captured ${CONFIRM_CREDITS}` }),
  ]);
}

// ---------------------------------------------------------------------------
// The confirmation rules
// ---------------------------------------------------------------------------

/** The helpers that talk to a suite's mock, `mock()` (each suite starts its own per test). */
export function cloneHelpers(mock: () => TestMock) {
  async function account(key = KEY): Promise<AccountPage> {
    const r = await mock().call('GET', `/__mock/accounts/${key}?ledgerPageSize=1000`, { key: null });
    expect(r.status, r.text).toBe(200);
    const a = r.json as AccountPage;
    expect(a.ledgerTotal).toBe(a.ledger.length);
    let running = 0;
    for (const e of a.ledger) {
      running += e.amount;
      expect(e.balance, `ledger entry ${e.seq}`).toBe(running);
      expect(e.balance).toBeGreaterThanOrEqual(0);
    }
    expect(running, 'the ledger sums to the balance').toBe(a.credits);
    return a;
  }

  async function setAccount(patch: Record<string, unknown>, key = KEY): Promise<AccountPage> {
    const r = await mock().call('PUT', `/__mock/accounts/${key}?ledgerPageSize=1000`, { key: null, body: patch });
    expect(r.status, r.text).toBe(200);
    return r.json as AccountPage;
  }

  async function voices(key = KEY) {
    const r = await mock().call('GET', pathOf('listPrivateVoices'), { key });
    expect(r.status, r.text).toBe(200);
    return r.json.data as {
      speakers: { speakerInnerId: string; name: string; gender: string }[];
      quota: number;
      remainingConfirmations: number;
      maxSpeakers: number;
      isLimitReached: boolean;
    };
  }

  async function create(fields: Record<string, string> = {}, headers: Record<string, string> = {}, key = KEY): Promise<string> {
    const r = await mock().call('POST', pathOf('createVoiceClone'), { body: cloneForm(fields), headers, key });
    expect(r.status, r.text).toBe(200);
    expect(r.json.data.status).toBe('pending');
    return r.json.data.taskId as string;
  }

  async function completed(key = KEY): Promise<string> {
    const id = await create({}, {}, key);
    await mock().advance(TO_COMPLETED);
    return id;
  }

  const poll = (id: string, key = KEY) => mock().call('GET', pathOf('getVoiceClone', { taskId: id }), { key });

  async function polled(id: string, key = KEY) {
    const r = await poll(id, key);
    expect(r.status, r.text).toBe(200);
    return r.json.data as Record<string, unknown>;
  }

  const confirm = (body: Record<string, unknown>, headers: Record<string, string> = {}, key = KEY) =>
    mock().call('POST', pathOf('confirmVoiceClone'), { body: { name: 'My narrator', gender: 'female', useCredits: false, ...body }, headers, key });

  async function snapshot(key = KEY) {
    const a = await account(key);
    const v = await voices(key);
    return { credits: a.credits, ledgerTotal: a.ledgerTotal, voiceClone: a.voiceClone, speakers: v.speakers.length, ledger: a.ledger };
  }

  async function expectUnchanged(before: Awaited<ReturnType<typeof snapshot>>, key = KEY) {
    const now = await snapshot(key);
    expect(now.credits, 'balance').toBe(before.credits);
    expect(now.ledgerTotal, 'ledger entries').toBe(before.ledgerTotal);
    expect(now.voiceClone, 'allowance').toEqual(before.voiceClone);
    expect(now.speakers, 'voices held').toBe(before.speakers);
  }

  return { account, setAccount, voices, create, completed, poll, polled, confirm, snapshot, expectUnchanged };
}
