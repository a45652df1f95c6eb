/**
 * Voice-clone confirmation (document 2, "Voice cloning (prefix /v1/voice-clone)",
 * "Private voice", "Errors", "Limits"), through HTTP on the manual clock:
 *
 * - the confirmation rules as a table, the ledger and the allowance asserted
 *   after every branch (free within the quota, 300 credits beyond it with
 *   useCredits, NEED_CREDIT, NEED_UPGRADE, SPEAKER_LIMIT_REACHED,
 *   ALREADY_CONFIRMED, not completed, the name's length, isLimitReached), and
 *   every declared error reachable, naturally and with Prefer;
 * - autoConfirm: the first poll after completion confirms and charges by the
 *   same rules, or leaves confirmError; a manual confirm later succeeds;
 * - concurrency: concurrent polls and confirms of one task charge once;
 *   concurrent confirms of two tasks with one slot left confirm one;
 * - the control API: voiceClone set, partially updated, reset, saved and loaded.
 *
 * After every branch the account's ledger must sum to its balance.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { errorCatalog, type ErrorName } from '../schemas/errors.ts';
import { operations } from '../schemas/operations.ts';
import { defaultVoiceClone } from '../schemas/plans.ts';
import { CLONE_EXPIRY_MS, cloneSchedule, CONFIRM_CREDITS, VOICE_NAME_MAX } from '../schemas/voice-clone.ts';
import { cloneForm, pathOf } from './factories.ts';
import { type CallResult, KEY, OTHER_KEY, type TestMock, useMocks } from './helpers.ts';

const start = useMocks({ rateLimit: false });
let m: TestMock;
beforeEach(async () => {
  m = await start();
});

/** From create to completed. */
const TO_COMPLETED = cloneSchedule.pendingMs + cloneSchedule.processingMs;

interface LedgerEntry {
  seq: number;
  at: number;
  type: 'reserve' | 'capture' | 'release' | 'adjust';
  amount: number;
  balance: number;
  taskId: string | null;
  note: string;
}
interface Allowance {
  quota: number;
  confirmationsUsed: number;
  maxSpeakers: number;
}
interface AccountPage {
  credits: number;
  plan: 'free' | 'paid';
  voiceClone: Allowance;
  ledger: LedgerEntry[];
  ledgerTotal: number;
}

/** The account with its whole ledger, checked: the ledger sums to the balance, every running balance matches and none is negative. */
async function account(key = KEY): Promise<AccountPage> {
  const r = await m.call('GET', `/__mock/accounts/${key}?ledgerPageSize=1000`, { key: null });
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
  const r = await m.call('PUT', `/__mock/accounts/${key}?ledgerPageSize=1000`, { key: null, body: patch });
  expect(r.status, r.text).toBe(200);
  return r.json as AccountPage;
}

/** GET /v1/voice-clone/speakers: the voices and the allowance. */
async function voices(key = KEY) {
  const r = await m.call('GET', pathOf('listPrivateVoices'), { key });
  expect(r.status, r.text).toBe(200);
  return r.json.data as {
    speakers: { speakerInnerId: string; name: string; gender: string }[];
    quota: number;
    remainingConfirmations: number;
    maxSpeakers: number;
    isLimitReached: boolean;
  };
}

/** Creates a clone task (multipart) with the text fields `fields`; returns its id. */
async function create(fields: Record<string, string> = {}, headers: Record<string, string> = {}, key = KEY): Promise<string> {
  const r = await m.call('POST', pathOf('createVoiceClone'), { body: cloneForm(fields), headers, key });
  expect(r.status, r.text).toBe(200);
  expect(r.json.data.status).toBe('pending');
  return r.json.data.taskId as string;
}

/** A clone task (autoConfirm false), completed. */
async function completed(key = KEY): Promise<string> {
  const id = await create({}, {}, key);
  await m.advance(TO_COMPLETED);
  return id;
}

const auto = (over: Record<string, string> = {}) => ({ autoConfirm: 'true', name: 'Auto voice', gender: 'male', ...over });

const poll = (id: string, key = KEY) => m.call('GET', pathOf('getVoiceClone', { taskId: id }), { key });

async function polled(id: string, key = KEY) {
  const r = await poll(id, key);
  expect(r.status, r.text).toBe(200);
  return r.json.data as Record<string, unknown>;
}

const confirm = (body: Record<string, unknown>, headers: Record<string, string> = {}, key = KEY) =>
  m.call('POST', pathOf('confirmVoiceClone'), { body: { name: 'My narrator', gender: 'female', useCredits: false, ...body }, headers, key });

/** Asserts the error envelope of `name`: status, code, data null, and (for the document's named errors) a message starting with the name. */
function expectError(r: CallResult, name: ErrorName) {
  const e = errorCatalog[name];
  expect(r.status, r.text).toBe(e.httpStatus);
  expect(r.json, r.text).toEqual({ code: e.code, message: expect.any(String), data: null });
  if (e.meaning.startsWith(`${name}:`)) expect(r.json.message.startsWith(`${name}:`), r.json.message).toBe(true);
}

/** Everything money and allowance: the balance, the ledger length, the allowance, the voices held. */
async function snapshot(key = KEY) {
  const a = await account(key);
  const v = await voices(key);
  return { credits: a.credits, ledgerTotal: a.ledgerTotal, voiceClone: a.voiceClone, speakers: v.speakers.length, ledger: a.ledger };
}

/** Asserts nothing was charged and nothing was confirmed since `before`. */
async function expectUnchanged(before: Awaited<ReturnType<typeof snapshot>>, key = KEY) {
  const now = await snapshot(key);
  expect(now.credits, 'balance').toBe(before.credits);
  expect(now.ledgerTotal, 'ledger entries').toBe(before.ledgerTotal);
  expect(now.voiceClone, 'allowance').toEqual(before.voiceClone);
  expect(now.speakers, 'voices held').toBe(before.speakers);
}

/** The ledger entries since `before`. */
const since = (before: { ledgerTotal: number }, a: AccountPage) => a.ledger.slice(before.ledgerTotal);

/** Asserts `entries` are exactly the 300-credit charge of `taskId`: a reserve of 300 and its capture. */
function expectCharge(entries: LedgerEntry[], taskId: string) {
  expect(entries).toEqual([
    expect.objectContaining({ type: 'reserve', amount: -CONFIRM_CREDITS, taskId }),
    expect.objectContaining({ type: 'capture', amount: 0, taskId, note: `captured ${CONFIRM_CREDITS}` }),
  ]);
}

// ---------------------------------------------------------------------------
// The confirmation rules
// ---------------------------------------------------------------------------

describe('confirmation rules (POST /v1/voice-clone/confirm)', () => {
  interface Row {
    rule: string;
    /** PUT /__mock/accounts/{key} before the task is confirmed. */
    account: Record<string, unknown>;
    useCredits: boolean;
    /** ok: the credits charged; else the error. */
    expected: { charged: 0 | typeof CONFIRM_CREDITS } | { error: ErrorName };
  }
  const rows: Row[] = [
    { rule: 'free within the quota (0 of 3 used)', account: {}, useCredits: false, expected: { charged: 0 } },
    { rule: 'free within the quota even with useCredits (the quota goes first)', account: {}, useCredits: true, expected: { charged: 0 } },
    { rule: 'the last free confirmation (2 of 3 used)', account: { voiceClone: { confirmationsUsed: 2 } }, useCredits: false, expected: { charged: 0 } },
    {
      rule: 'quota used, useCredits false: NEED_CREDIT',
      account: { voiceClone: { confirmationsUsed: 3 } },
      useCredits: false,
      expected: { error: 'NEED_CREDIT' },
    },
    { rule: 'quota used, useCredits true: 300 credits', account: { voiceClone: { confirmationsUsed: 3 } }, useCredits: true, expected: { charged: 300 } },
    {
      rule: 'quota used, useCredits true, balance exactly 300: 300 credits (balance 0)',
      account: { credits: 300, voiceClone: { confirmationsUsed: 3 } },
      useCredits: true,
      expected: { charged: 300 },
    },
    {
      rule: 'quota used, useCredits true, balance 299: NEED_CREDIT',
      account: { credits: 299, voiceClone: { confirmationsUsed: 3 } },
      useCredits: true,
      expected: { error: 'NEED_CREDIT' },
    },
    { rule: 'a quota of 0, useCredits true: 300 credits', account: { voiceClone: { quota: 0 } }, useCredits: true, expected: { charged: 300 } },
    { rule: 'plan free: NEED_UPGRADE', account: { plan: 'free' }, useCredits: true, expected: { error: 'NEED_UPGRADE' } },
    {
      rule: 'plan free with slots full and quota used: NEED_UPGRADE first',
      account: { plan: 'free', voiceClone: { maxSpeakers: 0, confirmationsUsed: 3 } },
      useCredits: false,
      expected: { error: 'NEED_UPGRADE' },
    },
    {
      rule: 'slots full (maxSpeakers 0): SPEAKER_LIMIT_REACHED',
      account: { voiceClone: { maxSpeakers: 0 } },
      useCredits: true,
      expected: { error: 'SPEAKER_LIMIT_REACHED' },
    },
    {
      rule: 'slots full and quota used: SPEAKER_LIMIT_REACHED before NEED_CREDIT',
      account: { voiceClone: { maxSpeakers: 0, confirmationsUsed: 3 } },
      useCredits: false,
      expected: { error: 'SPEAKER_LIMIT_REACHED' },
    },
  ];

  it.each(rows)('$rule', async ({ account: patch, useCredits, expected }) => {
    const id = await completed();
    await setAccount(patch);
    const before = await snapshot();
    const r = await confirm({ taskId: id, useCredits });
    if ('error' in expected) {
      expectError(r, expected.error);
      await expectUnchanged(before);
      // the task is still completed and not confirmed
      expect(await polled(id)).toEqual({ taskId: id, status: 'completed', demoAudioUrl: expect.any(String) });
      return;
    }
    expect(r.status, r.text).toBe(200);
    const speakerId = r.json.data.speakerId as string;
    expect(r.json.data).toEqual({ speakerId: expect.any(String) });
    const a = await account();
    expect(a.credits).toBe(before.credits - expected.charged);
    if (expected.charged) expectCharge(since(before, a), id);
    else expect(since(before, a), 'no ledger entry').toEqual([]);
    expect(a.voiceClone).toEqual({ ...before.voiceClone, confirmationsUsed: before.voiceClone.confirmationsUsed + 1 });
    const v = await voices();
    expect(v.speakers.map((s) => s.speakerInnerId)).toEqual([speakerId]);
    expect(v.speakers[0]).toMatchObject({ name: 'My narrator', gender: 'female' });
    expect(v.remainingConfirmations).toBe(Math.max(0, a.voiceClone.quota - a.voiceClone.confirmationsUsed));
    if (before.voiceClone.confirmationsUsed < before.voiceClone.quota)
      expect(v.remainingConfirmations).toBe(before.voiceClone.quota - before.voiceClone.confirmationsUsed - 1);
    expect(v.isLimitReached).toBe(a.voiceClone.confirmationsUsed >= a.voiceClone.quota);
    expect(await polled(id)).toEqual({ taskId: id, status: 'completed', demoAudioUrl: expect.any(String), speakerId });
  });

  it('holding maxSpeakers voices: SPEAKER_LIMIT_REACHED; deleting one frees a slot but not the confirmation spent', async () => {
    await setAccount({ voiceClone: { maxSpeakers: 2 } });
    const [a, b, c] = [await create(), await create(), await create()];
    await m.advance(TO_COMPLETED);
    const first = await confirm({ taskId: a });
    expect(first.status, first.text).toBe(200);
    expect((await confirm({ taskId: b })).status).toBe(200);
    const before = await snapshot();
    expect(before.voiceClone).toEqual({ quota: 3, confirmationsUsed: 2, maxSpeakers: 2 });
    expectError(await confirm({ taskId: c }), 'SPEAKER_LIMIT_REACHED');
    await expectUnchanged(before);
    const del = await m.call('DELETE', pathOf('deletePrivateVoice', { speakerId: first.json.data.speakerId }));
    expect(del.status, del.text).toBe(200);
    expect((await voices()).remainingConfirmations).toBe(1); // spent confirmations are not returned
    const r = await confirm({ taskId: c });
    expect(r.status, r.text).toBe(200);
    const after = await account();
    expect(after.voiceClone).toEqual({ quota: 3, confirmationsUsed: 3, maxSpeakers: 2 });
    expect(after.credits).toBe(before.credits);
  });

  it('a repeated confirmation: 409 ALREADY_CONFIRMED, nothing charged, the voice unchanged', async () => {
    await setAccount({ voiceClone: { confirmationsUsed: 3 } });
    const id = await completed();
    const start0 = await snapshot();
    const r = await confirm({ taskId: id, useCredits: true });
    expect(r.status, r.text).toBe(200);
    expectCharge(since(start0, await account()), id);
    const before = await snapshot();
    for (const body of [
      { taskId: id, useCredits: true },
      { taskId: id, useCredits: false, name: 'Another name', gender: 'male' },
    ]) {
      const again = await confirm(body);
      expectError(again, 'ALREADY_CONFIRMED');
      expect(again.json.message).toContain(r.json.data.speakerId);
    }
    await expectUnchanged(before);
    expect((await voices()).speakers[0]).toMatchObject({ speakerInnerId: r.json.data.speakerId, name: 'My narrator', gender: 'female' });
    expect((await account()).ledger.filter((e) => e.taskId === id)).toHaveLength(2);
  });

  it('a pending, processing or failed task: 409 (36011), nothing charged', async () => {
    const ok = await create();
    const failed = await create({}, { prefer: 'outcome=failed' });
    const before = await snapshot();
    expect((await polled(ok)).status).toBe('pending');
    let r = await confirm({ taskId: ok });
    expectError(r, 'VOICE_CLONE_TASK_NOT_COMPLETED');
    expect(r.json.code).toBe(36011);
    expect(r.json.message).toContain('pending');
    await m.advance(cloneSchedule.pendingMs);
    expect((await polled(ok)).status).toBe('processing');
    r = await confirm({ taskId: ok, useCredits: true });
    expectError(r, 'VOICE_CLONE_TASK_NOT_COMPLETED');
    expect(r.json.message).toContain('processing');
    await m.advance(cloneSchedule.processingMs);
    expect(await polled(failed)).toMatchObject({ status: 'failed', errorCode: 'TASK_FAILED' });
    r = await confirm({ taskId: failed, useCredits: true });
    expectError(r, 'VOICE_CLONE_TASK_NOT_COMPLETED');
    expect(r.json.message).toContain('failed');
    await expectUnchanged(before);
    // and the completed one confirms
    expect((await confirm({ taskId: ok })).status).toBe(200);
  });

  it(`the name: ${VOICE_NAME_MAX} characters are accepted, ${VOICE_NAME_MAX + 1} (or none) answer 400 (36001), nothing charged`, async () => {
    await setAccount({ voiceClone: { confirmationsUsed: 3 } });
    const id = await completed();
    const before = await snapshot();
    for (const name of ['x'.repeat(VOICE_NAME_MAX + 1), '']) {
      const r = await confirm({ taskId: id, name, useCredits: true });
      expectError(r, 'VOICE_CLONE_INVALID_PARAMETERS');
      expect(r.json.code).toBe(36001);
      expect(r.json.message).toContain('name');
    }
    await expectUnchanged(before);
    const name = 'n'.repeat(VOICE_NAME_MAX);
    const r = await confirm({ taskId: id, name, useCredits: true });
    expect(r.status, r.text).toBe(200);
    expect((await voices()).speakers[0].name).toBe(name);
    expectCharge(since(before, await account()), id);
  });

  it('isLimitReached is true exactly once confirmationsUsed >= quota; remainingConfirmations never goes below 0', async () => {
    const ids = [await create(), await create(), await create(), await create()];
    await m.advance(TO_COMPLETED);
    expect(await voices()).toMatchObject({ quota: 3, remainingConfirmations: 3, maxSpeakers: 5, isLimitReached: false });
    const seen: [number, boolean][] = [];
    for (const id of ids) {
      const r = await confirm({ taskId: id, useCredits: true });
      expect(r.status, r.text).toBe(200);
      const v = await voices();
      seen.push([v.remainingConfirmations, v.isLimitReached]);
    }
    expect(seen).toEqual([
      [2, false],
      [1, false],
      [0, true],
      [0, true],
    ]);
    const a = await account();
    expect(a.voiceClone.confirmationsUsed).toBe(4);
    expect(a.credits).toBe(10_000 - CONFIRM_CREDITS); // only the fourth was paid
    await setAccount({ voiceClone: { confirmationsUsed: 0 } });
    expect(await voices()).toMatchObject({ remainingConfirmations: 3, isLimitReached: false });
    await setAccount({ voiceClone: { quota: 0 } });
    expect(await voices()).toMatchObject({ quota: 0, remainingConfirmations: 0, isLimitReached: true });
  });
});

// ---------------------------------------------------------------------------
// Every error reachable
// ---------------------------------------------------------------------------

describe('every declared error of the confirmation is reachable', () => {
  const own = operations.confirmVoiceClone.errors.filter((n) => errorCatalog[n].code >= 36000 && errorCatalog[n].code < 37000);

  it('the confirmation declares the ten voice-clone errors', () => {
    expect([...own].sort()).toEqual(
      [
        'ALREADY_CONFIRMED',
        'NEED_CREDIT',
        'NEED_UPGRADE',
        'SPEAKER_LIMIT_REACHED',
        'VOICE_CLONE_CONFIRM_IN_FLIGHT',
        'VOICE_CLONE_INVALID_PARAMETERS',
        'VOICE_CLONE_TASK_EXPIRED',
        'VOICE_CLONE_TASK_NOT_COMPLETED',
        'VOICE_CLONE_TASK_NOT_FOUND',
        'VOICE_CLONE_UNAVAILABLE',
      ].sort(),
    );
    expect(errorCatalog.NEED_UPGRADE).toMatchObject({ code: 36002, httpStatus: 403 });
    expect(errorCatalog.NEED_CREDIT).toMatchObject({ code: 36003, httpStatus: 402 });
    expect(errorCatalog.SPEAKER_LIMIT_REACHED).toMatchObject({ code: 36004, httpStatus: 409 });
    expect(errorCatalog.ALREADY_CONFIRMED).toMatchObject({ code: 36005, httpStatus: 409 });
    expect(errorCatalog.VOICE_CLONE_TASK_NOT_COMPLETED).toMatchObject({ code: 36011, httpStatus: 409 });
    expect(errorCatalog.VOICE_CLONE_CONFIRM_IN_FLIGHT).toMatchObject({ code: 36030, httpStatus: 429 });
    expect(errorCatalog.VOICE_CLONE_UNAVAILABLE).toMatchObject({ code: 36031, httpStatus: 503 });
  });

  it.each(own)('Prefer: error=%s answers it (by name and by number), nothing charged, the task still confirmable', async (name) => {
    await setAccount({ voiceClone: { confirmationsUsed: 3 } });
    const id = await completed();
    const before = await snapshot();
    for (const ref of [name, String(errorCatalog[name].code)]) {
      const r = await confirm({ taskId: id, useCredits: true }, { prefer: `error=${ref}` });
      expectError(r, name);
      expect(r.json.message).toContain('forced by Prefer');
      const retry = (errorCatalog[name] as { retryAfterSeconds?: number }).retryAfterSeconds;
      if (r.status === 429 || r.status === 503) expect(r.headers.get('retry-after')).toBe(String(retry));
      else expect(r.headers.get('retry-after')).toBeNull();
    }
    await expectUnchanged(before);
    const r = await confirm({ taskId: id, useCredits: true });
    expect(r.status, r.text).toBe(200);
    expectCharge(since(before, await account()), id);
  });

  it('Prefer: code=503 answers 503 (36031) with Retry-After 5; error=36030 answers 429 with Retry-After 2; code=402 answers NEED_CREDIT; nothing charged', async () => {
    await setAccount({ voiceClone: { confirmationsUsed: 3 } });
    const id = await completed();
    const before = await snapshot();
    let r = await confirm({ taskId: id, useCredits: true }, { prefer: 'code=503' });
    expect(r.status).toBe(503);
    expect(r.json).toMatchObject({ code: 36031, data: null });
    expect(r.headers.get('retry-after')).toBe('5');
    r = await confirm({ taskId: id, useCredits: true }, { prefer: 'error=36030' });
    expect(r.status).toBe(429);
    expect(r.json).toMatchObject({ code: 36030, data: null });
    expect(r.headers.get('retry-after')).toBe('2');
    r = await confirm({ taskId: id, useCredits: true }, { prefer: 'code=402' });
    expectError(r, 'NEED_CREDIT');
    r = await confirm({ taskId: id, useCredits: true }, { prefer: 'code=403' });
    expectError(r, 'NEED_UPGRADE');
    await expectUnchanged(before);
  });

  it('a confirmed task never expires: after 7 days its poll still answers the speakerId and a confirm ALREADY_CONFIRMED', async () => {
    const id = await completed();
    const r = await confirm({ taskId: id });
    expect(r.status, r.text).toBe(200);
    await m.advance(CLONE_EXPIRY_MS + 1);
    const before = await snapshot();
    expect((await polled(id)).speakerId).toBe(r.json.data.speakerId);
    expectError(await confirm({ taskId: id }), 'ALREADY_CONFIRMED');
    await expectUnchanged(before);
  });

  it('naturally: not found (unknown id, another user), expired after 7 days (poll and confirm 410), invalid parameters', async () => {
    const id = await completed();
    const before = await snapshot();
    expectError(await confirm({ taskId: 'vct_doesnotexist' }), 'VOICE_CLONE_TASK_NOT_FOUND');
    expectError(await confirm({ taskId: id }, {}, OTHER_KEY), 'VOICE_CLONE_TASK_NOT_FOUND');
    expectError(await poll(id, OTHER_KEY), 'VOICE_CLONE_TASK_NOT_FOUND');
    expectError(await confirm({ taskId: id, gender: 'robot' }), 'VOICE_CLONE_INVALID_PARAMETERS');
    expectError(await confirm({ taskId: '' }), 'VOICE_CLONE_INVALID_PARAMETERS');
    await m.advance(CLONE_EXPIRY_MS - 1);
    expect((await polled(id)).status).toBe('completed');
    await m.advance(1);
    const r = await confirm({ taskId: id, useCredits: true });
    expectError(r, 'VOICE_CLONE_TASK_EXPIRED');
    expect(r.status).toBe(410);
    expectError(await poll(id), 'VOICE_CLONE_TASK_EXPIRED');
    await expectUnchanged(before);
  });
});

// ---------------------------------------------------------------------------
// autoConfirm
// ---------------------------------------------------------------------------

describe('autoConfirm: the first poll after completion confirms', () => {
  it('free within the quota: the poll answers the speakerId; no ledger entry; confirmationsUsed +1; later polls change nothing', async () => {
    const id = await create(auto());
    const before = await snapshot();
    expect(await polled(id)).toEqual({ taskId: id, status: 'pending' });
    await m.advance(cloneSchedule.pendingMs);
    expect(await polled(id)).toEqual({ taskId: id, status: 'processing' });
    await expectUnchanged(before);
    await m.advance(cloneSchedule.processingMs);
    const t = await polled(id);
    expect(t).toEqual({ taskId: id, status: 'completed', demoAudioUrl: expect.any(String), speakerId: expect.any(String) });
    const a = await account();
    expect(since(before, a)).toEqual([]);
    expect(a.voiceClone).toEqual({ quota: 3, confirmationsUsed: 1, maxSpeakers: 5 });
    const v = await voices();
    expect(v.speakers).toEqual([expect.objectContaining({ speakerInnerId: t.speakerId, name: 'Auto voice', gender: 'male' })]);
    expect(v.remainingConfirmations).toBe(2);
    const again = await snapshot();
    expect(await polled(id)).toEqual(t);
    await expectUnchanged(again);
    // a manual confirm of the auto-confirmed task: ALREADY_CONFIRMED
    expectError(await confirm({ taskId: id }), 'ALREADY_CONFIRMED');
    await expectUnchanged(again);
  });

  it('beyond the quota with useCredits: the poll charges 300 (a reserve and a capture named by the task id)', async () => {
    await setAccount({ voiceClone: { confirmationsUsed: 3 } });
    const id = await create(auto({ useCredits: 'true' }));
    await m.advance(TO_COMPLETED);
    const before = await snapshot();
    const t = await polled(id);
    expect(t.speakerId).toEqual(expect.any(String));
    expect(t.confirmError).toBeUndefined();
    const a = await account();
    expect(a.credits).toBe(before.credits - CONFIRM_CREDITS);
    expectCharge(since(before, a), id);
    expect(a.voiceClone.confirmationsUsed).toBe(4);
    expect(await polled(id)).toEqual(t);
    expect((await account()).ledgerTotal).toBe(a.ledgerTotal);
  });

  interface FailRow {
    rule: string;
    account: Record<string, unknown>;
    useCredits: boolean;
    error: 'NEED_CREDIT' | 'SPEAKER_LIMIT_REACHED' | 'NEED_UPGRADE';
    fix: Record<string, unknown>;
  }
  const failRows: FailRow[] = [
    {
      rule: 'quota used, no useCredits: NEED_CREDIT',
      account: { voiceClone: { confirmationsUsed: 3 } },
      useCredits: false,
      error: 'NEED_CREDIT',
      fix: { voiceClone: { confirmationsUsed: 0 } },
    },
    {
      rule: 'quota used, useCredits, balance 299: NEED_CREDIT',
      account: { credits: 299, voiceClone: { confirmationsUsed: 3 } },
      useCredits: true,
      error: 'NEED_CREDIT',
      fix: { credits: 300 },
    },
    {
      rule: 'slots full: SPEAKER_LIMIT_REACHED',
      account: { voiceClone: { maxSpeakers: 0 } },
      useCredits: false,
      error: 'SPEAKER_LIMIT_REACHED',
      fix: { voiceClone: { maxSpeakers: 1 } },
    },
    { rule: 'plan free: NEED_UPGRADE', account: { plan: 'free' }, useCredits: false, error: 'NEED_UPGRADE', fix: { plan: 'paid' } },
  ];

  it.each(failRows)(
    'auto-confirmation fails ($rule): completed, no speakerId, confirmError; a manual confirm after fixing the account succeeds',
    async ({ account: patch, useCredits, error, fix }) => {
      await setAccount(patch);
      const id = await create(auto(useCredits ? { useCredits: 'true' } : {}));
      await m.advance(TO_COMPLETED);
      const before = await snapshot();
      const t = await polled(id);
      expect(t).toEqual({ taskId: id, status: 'completed', demoAudioUrl: expect.any(String), confirmError: expect.any(String) });
      expect((t.confirmError as string).startsWith(`${error}:`), t.confirmError as string).toBe(true);
      await expectUnchanged(before);
      // a later poll neither charges nor changes the answer
      expect(await polled(id)).toEqual(t);
      await expectUnchanged(before);
      // fix the account, then confirm by hand
      await setAccount(fix);
      const fixed = await snapshot();
      const r = await confirm({ taskId: id, useCredits });
      expect(r.status, r.text).toBe(200);
      const after = await polled(id);
      expect(after).toEqual({ taskId: id, status: 'completed', demoAudioUrl: expect.any(String), speakerId: r.json.data.speakerId });
      expect(after.confirmError).toBeUndefined();
      const a = await account();
      const paid = fixed.voiceClone.confirmationsUsed >= fixed.voiceClone.quota;
      if (paid) expectCharge(since(fixed, a), id);
      else expect(since(fixed, a)).toEqual([]);
      expect(a.voiceClone.confirmationsUsed).toBe(fixed.voiceClone.confirmationsUsed + 1);
      expect((await voices()).speakers.map((s) => s.speakerInnerId)).toEqual([r.json.data.speakerId]);
    },
  );

  it('the terminal shapes, in order: failed; completed without speakerId; confirmed', async () => {
    const failed = await create(auto({ useCredits: 'true' }), { prefer: 'outcome=failed' });
    const plain = await create();
    const autoFailed = await create(auto());
    const confirmed = await create(auto());
    await setAccount({ voiceClone: { maxSpeakers: 1 } });
    await m.advance(TO_COMPLETED);
    const before = await snapshot();
    const f = await polled(failed);
    expect(f).toEqual({ taskId: failed, status: 'failed', errorCode: 'TASK_FAILED', errorMessage: expect.any(String) });
    await expectUnchanged(before); // a failed autoConfirm task tries no confirmation
    expect(await polled(plain)).toEqual({ taskId: plain, status: 'completed', demoAudioUrl: expect.any(String) });
    await expectUnchanged(before); // autoConfirm false: the poll confirms nothing
    const c = await polled(confirmed);
    expect(c).toEqual({ taskId: confirmed, status: 'completed', demoAudioUrl: expect.any(String), speakerId: expect.any(String) });
    const a = await polled(autoFailed); // the one slot is taken
    expect(a).toEqual({
      taskId: autoFailed,
      status: 'completed',
      demoAudioUrl: expect.any(String),
      confirmError: expect.stringMatching(/^SPEAKER_LIMIT_REACHED/),
    });
    expect(Object.keys(f).sort()).toEqual(['errorCode', 'errorMessage', 'status', 'taskId']);
    expect(Object.keys(c).sort()).toEqual(['demoAudioUrl', 'speakerId', 'status', 'taskId']);
    const acc = await account();
    expect(acc.voiceClone.confirmationsUsed).toBe(1);
    expect(acc.credits).toBe(before.credits);
  });

  it('autoConfirm without name or gender answers 400 (36001) at create', async () => {
    for (const fields of [auto({ name: '' }), { autoConfirm: 'true', gender: 'male' }, { autoConfirm: 'true', name: 'A voice' }]) {
      const form = cloneForm(Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== '')));
      const r = await m.call('POST', pathOf('createVoiceClone'), { body: form });
      expectError(r, 'VOICE_CLONE_INVALID_PARAMETERS');
    }
  });
});

// ---------------------------------------------------------------------------
// Concurrency
// ---------------------------------------------------------------------------

describe('concurrency: one confirmation, one charge', () => {
  it('20 concurrent polls of a completed autoConfirm task (quota used, useCredits): one capture of 300, one speakerId, confirmationsUsed +1, one voice', async () => {
    await setAccount({ voiceClone: { confirmationsUsed: 3 } });
    const id = await create(auto({ useCredits: 'true' }));
    await m.advance(TO_COMPLETED);
    const before = await snapshot();
    const rs = await Promise.all(Array.from({ length: 20 }, () => poll(id)));
    for (const r of rs) expect(r.status, r.text).toBe(200);
    const ids = new Set(rs.map((r) => r.json.data.speakerId));
    expect(ids.size).toBe(1);
    expect([...ids][0]).toEqual(expect.any(String));
    for (const r of rs) expect(r.json.data.confirmError).toBeUndefined();
    const a = await account();
    expectCharge(since(before, a), id);
    expect(a.ledger.filter((e) => e.type === 'capture')).toHaveLength(1);
    expect(a.credits).toBe(before.credits - CONFIRM_CREDITS);
    expect(a.voiceClone.confirmationsUsed).toBe(before.voiceClone.confirmationsUsed + 1);
    expect((await voices()).speakers.map((s) => s.speakerInnerId)).toEqual([...ids]);
  });

  it('20 concurrent polls of an autoConfirm task whose confirmation fails: one confirmError for all, nothing charged', async () => {
    await setAccount({ voiceClone: { confirmationsUsed: 3 } });
    const id = await create(auto());
    await m.advance(TO_COMPLETED);
    const before = await snapshot();
    const rs = await Promise.all(Array.from({ length: 20 }, () => poll(id)));
    const errors = new Set(rs.map((r) => r.json.data.confirmError));
    expect(errors.size).toBe(1);
    expect([...errors][0]).toMatch(/^NEED_CREDIT:/);
    for (const r of rs) expect(r.json.data.speakerId).toBeUndefined();
    await expectUnchanged(before);
  });

  it('20 concurrent confirms of one completed task (beyond the quota, useCredits): one 200, 19 × 409 ALREADY_CONFIRMED, one charge', async () => {
    await setAccount({ voiceClone: { confirmationsUsed: 3 } });
    const id = await completed();
    const before = await snapshot();
    const rs = await Promise.all(Array.from({ length: 20 }, (_, i) => confirm({ taskId: id, useCredits: true, name: `Voice ${i}` })));
    const ok = rs.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    const rest = rs.filter((r) => r.status !== 200);
    expect(rest).toHaveLength(19);
    for (const r of rest) {
      expectError(r, 'ALREADY_CONFIRMED');
      expect(r.json.message).toContain(ok[0].json.data.speakerId);
    }
    const a = await account();
    expectCharge(since(before, a), id);
    expect(a.credits).toBe(before.credits - CONFIRM_CREDITS);
    expect(a.voiceClone.confirmationsUsed).toBe(4);
    expect((await voices()).speakers.map((s) => s.speakerInnerId)).toEqual([ok[0].json.data.speakerId]);
    expect((await polled(id)).speakerId).toBe(ok[0].json.data.speakerId);
  });

  it('10 polls and 10 confirms interleaved of an autoConfirm task: one charge, one speakerId', async () => {
    await setAccount({ voiceClone: { confirmationsUsed: 3 } });
    const id = await create(auto({ useCredits: 'true' }));
    await m.advance(TO_COMPLETED);
    const before = await snapshot();
    const rs = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? confirm({ taskId: id, useCredits: true }) : poll(id))));
    const polls = rs.filter((_, i) => i % 2 === 0);
    const confirms = rs.filter((_, i) => i % 2 === 1);
    for (const r of polls) expect(r.status, r.text).toBe(200);
    const ids = new Set(polls.map((r) => r.json.data.speakerId));
    expect(ids.size).toBe(1);
    const speakerId = [...ids][0] as string;
    expect(speakerId).toEqual(expect.any(String));
    const won = confirms.filter((r) => r.status === 200);
    expect(won.length).toBeLessThanOrEqual(1);
    for (const r of won) expect(r.json.data.speakerId).toBe(speakerId);
    for (const r of confirms.filter((x) => x.status !== 200)) expectError(r, 'ALREADY_CONFIRMED');
    const a = await account();
    expectCharge(since(before, a), id);
    expect(a.voiceClone.confirmationsUsed).toBe(4);
    expect((await voices()).speakers.map((s) => s.speakerInnerId)).toEqual([speakerId]);
  });

  it('concurrent confirms of two tasks with one slot left: one succeeds, the other SPEAKER_LIMIT_REACHED; one charge', async () => {
    await setAccount({ voiceClone: { confirmationsUsed: 3, maxSpeakers: 2 } });
    const [held, a, b] = [await create(), await create(), await create()];
    await m.advance(TO_COMPLETED);
    expect((await confirm({ taskId: held, useCredits: true })).status).toBe(200);
    const before = await snapshot();
    expect(before.speakers).toBe(1);
    const rs = await Promise.all([confirm({ taskId: a, useCredits: true }), confirm({ taskId: b, useCredits: true })]);
    const winner = rs.findIndex((r) => r.status === 200);
    expect(winner, rs.map((r) => r.text).join('\n')).toBeGreaterThanOrEqual(0);
    expectError(rs[1 - winner], 'SPEAKER_LIMIT_REACHED');
    const acc = await account();
    expectCharge(since(before, acc), [a, b][winner]);
    expect(acc.voiceClone.confirmationsUsed).toBe(5);
    const v = await voices();
    expect(v.speakers).toHaveLength(2);
    expect(v.speakers.map((s) => s.speakerInnerId)).toContain(rs[winner].json.data.speakerId);
    // the loser is still completed, unconfirmed
    expect(await polled([a, b][1 - winner])).toEqual({ taskId: [a, b][1 - winner], status: 'completed', demoAudioUrl: expect.any(String) });
  });

  it('the same with two autoConfirm tasks polled concurrently: one speakerId, one confirmError, one charge', async () => {
    await setAccount({ voiceClone: { confirmationsUsed: 3, maxSpeakers: 1 } });
    const [a, b] = [await create(auto({ useCredits: 'true' })), await create(auto({ useCredits: 'true' }))];
    await m.advance(TO_COMPLETED);
    const before = await snapshot();
    const rs = await Promise.all([a, b, a, b, a, b].map((id) => poll(id)));
    const byTask = new Map<string, Set<string>>();
    for (const r of rs) {
      const d = r.json.data;
      byTask.set(d.taskId, (byTask.get(d.taskId) ?? new Set()).add(d.speakerId ? `ok ${d.speakerId}` : `err ${d.confirmError.split(':')[0]}`));
    }
    const outcomes = [...byTask.values()].map((s) => [...s]);
    expect(outcomes.every((o) => o.length === 1)).toBe(true);
    expect(
      outcomes
        .flat()
        .map((o) => o.split(' ')[0])
        .sort(),
    ).toEqual(['err', 'ok']);
    expect(outcomes.flat().find((o) => o.startsWith('err'))).toBe('err SPEAKER_LIMIT_REACHED');
    const acc = await account();
    expect(since(before, acc)).toHaveLength(2);
    expect(acc.credits).toBe(before.credits - CONFIRM_CREDITS);
  });
});

// ---------------------------------------------------------------------------
// The control API
// ---------------------------------------------------------------------------

describe('control API: the voiceClone allowance', () => {
  it('defaults by plan: paid 3/0/5, free 0/0/0 (a preloaded free account)', async () => {
    m = await start({ accounts: [{ apiKey: OTHER_KEY, plan: 'free' }] });
    expect((await account()).voiceClone).toEqual(defaultVoiceClone.paid);
    expect(defaultVoiceClone.paid).toEqual({ quota: 3, confirmationsUsed: 0, maxSpeakers: 5 });
    expect((await account(OTHER_KEY)).voiceClone).toEqual({ quota: 0, confirmationsUsed: 0, maxSpeakers: 0 });
    expect(await voices(OTHER_KEY)).toEqual({ speakers: [], quota: 0, remainingConfirmations: 0, maxSpeakers: 0, isLimitReached: true });
    const id = await completed(OTHER_KEY);
    expectError(await confirm({ taskId: id, useCredits: true }, {}, OTHER_KEY), 'NEED_UPGRADE');
  });

  it('{voiceClone: {confirmationsUsed: 3}} puts the account at "quota used"', async () => {
    const a = await setAccount({ voiceClone: { confirmationsUsed: 3 } });
    expect(a.voiceClone).toEqual({ quota: 3, confirmationsUsed: 3, maxSpeakers: 5 });
    expect(await voices()).toMatchObject({ remainingConfirmations: 0, isLimitReached: true });
    const id = await completed();
    expectError(await confirm({ taskId: id }), 'NEED_CREDIT');
    expect((await confirm({ taskId: id, useCredits: true })).status).toBe(200);
    expect((await account()).credits).toBe(10_000 - CONFIRM_CREDITS);
  });

  it('{voiceClone: {maxSpeakers: 0}} puts the account at "slots full"', async () => {
    const a = await setAccount({ voiceClone: { maxSpeakers: 0 } });
    expect(a.voiceClone).toEqual({ quota: 3, confirmationsUsed: 0, maxSpeakers: 0 });
    expect(await voices()).toMatchObject({ maxSpeakers: 0, remainingConfirmations: 3, isLimitReached: false });
    const id = await completed();
    expectError(await confirm({ taskId: id }), 'SPEAKER_LIMIT_REACHED');
  });

  it('partial updates keep the other fields; GET shows them; other fields of the account leave voiceClone alone', async () => {
    expect((await setAccount({ voiceClone: { quota: 7 } })).voiceClone).toEqual({ quota: 7, confirmationsUsed: 0, maxSpeakers: 5 });
    expect((await setAccount({ voiceClone: { maxSpeakers: 2 } })).voiceClone).toEqual({ quota: 7, confirmationsUsed: 0, maxSpeakers: 2 });
    expect((await setAccount({ voiceClone: { confirmationsUsed: 4 } })).voiceClone).toEqual({ quota: 7, confirmationsUsed: 4, maxSpeakers: 2 });
    expect((await setAccount({ voiceClone: {} })).voiceClone).toEqual({ quota: 7, confirmationsUsed: 4, maxSpeakers: 2 });
    expect((await setAccount({ credits: 500, everPaid: true })).voiceClone).toEqual({ quota: 7, confirmationsUsed: 4, maxSpeakers: 2 });
    const a = await account();
    expect(a.voiceClone).toEqual({ quota: 7, confirmationsUsed: 4, maxSpeakers: 2 });
    expect(a.credits).toBe(500);
    expect(await voices()).toMatchObject({ quota: 7, remainingConfirmations: 3, maxSpeakers: 2, isLimitReached: false });
  });

  it('a new plan brings its allowance (confirmations used stay); the same plan again or a voiceClone sent with it wins', async () => {
    await setAccount({ voiceClone: { confirmationsUsed: 2 } });
    expect((await setAccount({ plan: 'free' })).voiceClone).toEqual({ quota: 0, confirmationsUsed: 2, maxSpeakers: 0 });
    expect(await voices()).toMatchObject({ quota: 0, maxSpeakers: 0, remainingConfirmations: 0, isLimitReached: true });
    expect((await setAccount({ plan: 'paid' })).voiceClone).toEqual({ quota: 3, confirmationsUsed: 2, maxSpeakers: 5 });
    expect((await setAccount({ voiceClone: { quota: 9 } })).voiceClone.quota).toBe(9);
    expect((await setAccount({ plan: 'paid' })).voiceClone.quota).toBe(9);
    expect((await setAccount({ plan: 'free', voiceClone: { maxSpeakers: 1 } })).voiceClone).toEqual({ quota: 0, confirmationsUsed: 2, maxSpeakers: 1 });
  });

  it('invalid allowances are refused and change nothing', async () => {
    await setAccount({ voiceClone: { quota: 4 } });
    for (const voiceClone of [{ quota: -1 }, { maxSpeakers: 1.5 }, { confirmationsUsed: '3' }, { unknown: 1 }]) {
      const r = await m.call('PUT', `/__mock/accounts/${KEY}`, { key: null, body: { voiceClone } });
      expect(r.status, JSON.stringify(voiceClone)).toBe(400);
    }
    expect((await account()).voiceClone).toEqual({ quota: 4, confirmationsUsed: 0, maxSpeakers: 5 });
  });

  it('reset restores the defaults and drops the voices', async () => {
    await setAccount({ voiceClone: { quota: 9, confirmationsUsed: 2, maxSpeakers: 1 } });
    const id = await completed();
    expect((await confirm({ taskId: id })).status).toBe(200);
    const r = await m.call('POST', '/__mock/reset', { key: null, body: {} });
    expect(r.status, r.text).toBe(200);
    expect((await account()).voiceClone).toEqual({ quota: 3, confirmationsUsed: 0, maxSpeakers: 5 });
    expect(await voices()).toEqual({ speakers: [], quota: 3, remainingConfirmations: 3, maxSpeakers: 5, isLimitReached: false });
  });

  it('a saved state keeps the voices and the allowance', async () => {
    await setAccount({ voiceClone: { quota: 4, confirmationsUsed: 3, maxSpeakers: 3 } });
    const auto1 = await create(auto({ useCredits: 'true' }));
    const manual = await create();
    const pending = await create(auto({ useCredits: 'true' }));
    await m.advance(TO_COMPLETED);
    const speakerA = (await polled(auto1)).speakerId as string;
    const c = await confirm({ taskId: manual, useCredits: true });
    expect(c.status, c.text).toBe(200);
    const voicesBefore = await voices();
    const before = await account();
    expect(before.voiceClone).toEqual({ quota: 4, confirmationsUsed: 5, maxSpeakers: 3 });
    const saved = await m.call('GET', '/__mock/state', { key: null });
    expect(saved.status).toBe(200);
    // change everything, then load the saved state
    await m.call('POST', '/__mock/reset', { key: null, body: {} });
    expect((await voices()).speakers).toEqual([]);
    const put = await m.call('PUT', '/__mock/state', { key: null, body: saved.json });
    expect(put.status, put.text).toBe(200);
    expect(await voices()).toEqual(voicesBefore);
    const after = await account();
    expect(after.voiceClone).toEqual(before.voiceClone);
    expect(after.credits).toBe(before.credits);
    expect(after.ledger).toEqual(before.ledger);
    expect((await polled(auto1)).speakerId).toBe(speakerA);
    expectError(await confirm({ taskId: manual }), 'ALREADY_CONFIRMED');
    // the third (its auto-confirmation never ran: never polled) confirms in the third slot, paid
    const t = await polled(pending);
    expect(t.speakerId).toEqual(expect.any(String));
    expect(new Set((await voices()).speakers.map((s) => s.speakerInnerId)).size).toBe(3);
    const final = await account();
    expectCharge(since(after, final), pending);
    // it is loaded again into a fresh mock as well
    const other = await start();
    const put2 = await other.call('PUT', '/__mock/state', { key: null, body: saved.json });
    expect(put2.status, put2.text).toBe(200);
    const v2 = await other.call('GET', pathOf('listPrivateVoices'));
    // the same voices; media URLs are built from each request's origin
    expect(JSON.parse(v2.text.replaceAll(other.base, m.base)).data).toEqual(voicesBefore);
  });

  it('a state document whose private voices are corrupt is refused, and nothing is loaded', async () => {
    const id = await completed();
    const c = await confirm({ taskId: id });
    expect(c.status, c.text).toBe(200);
    const before = await voices();
    const doc = (await m.call('GET', '/__mock/state', { key: null })).json;
    const singletons = doc.state.singletons as [string, unknown][];
    const at = singletons.findIndex(([name]) => name === 'private-voices');
    expect(at).toBeGreaterThanOrEqual(0);
    singletons[at] = ['private-voices', { voices: null }];
    const put = await m.call('PUT', '/__mock/state', { key: null, body: doc });
    expect(put.status, put.text).toBe(400);
    expect(put.json).toMatchObject({ data: null });
    const after = await m.call('GET', pathOf('listPrivateVoices'));
    expect(after.status, after.text).toBe(200);
    expect(after.json.data).toEqual(before);
  });

  it('a state document whose accounts lack voiceClone still loads, with the defaults of each plan', async () => {
    m = await start({ accounts: [{ apiKey: OTHER_KEY, plan: 'free' }] });
    await setAccount({ voiceClone: { quota: 8, confirmationsUsed: 1, maxSpeakers: 9 } });
    const id = await completed();
    const c = await confirm({ taskId: id });
    expect(c.status, c.text).toBe(200);
    await account(OTHER_KEY);
    const saved = await m.call('GET', '/__mock/state', { key: null });
    const doc = saved.json;
    const accounts = doc.state.accounts.accounts as Record<string, unknown>[];
    expect(accounts.length).toBeGreaterThanOrEqual(2);
    for (const a of accounts) delete a.voiceClone;
    await m.call('POST', '/__mock/reset', { key: null, body: {} });
    const put = await m.call('PUT', '/__mock/state', { key: null, body: doc });
    expect(put.status, put.text).toBe(200);
    expect((await account()).voiceClone).toEqual(defaultVoiceClone.paid);
    expect((await account(OTHER_KEY)).voiceClone).toEqual(defaultVoiceClone.free);
    // the voice is still there and counts against the slots
    const v = await voices();
    expect(v.speakers.map((s) => s.speakerInnerId)).toEqual([c.json.data.speakerId]);
    expect(v).toMatchObject({ quota: 3, remainingConfirmations: 3, maxSpeakers: 5, isLimitReached: false });
    // and the loaded state works: a GET /__mock/state carries voiceClone again
    const again = await m.call('GET', '/__mock/state', { key: null });
    for (const a of again.json.state.accounts.accounts) expect(a.voiceClone).toBeDefined();
  });
});
