/**
 * Voice-clone confirmation (document 2, "Voice cloning (prefix /v1/voice-clone)",
 * "Private voice", "Errors", "Limits"), through HTTP on the manual clock:
 *
 * - the confirmation rules as a table, the ledger and the allowance asserted
 *   after every branch (free within the quota, 300 credits beyond it with
 *   useCredits, NEED_CREDIT, NEED_UPGRADE, SPEAKER_LIMIT_REACHED,
 *   ALREADY_CONFIRMED, not completed, the name's length, isLimitReached), and
 *   every declared error reachable, naturally and with Prefer;
 *
 * autoConfirm, concurrency and the control API's allowance are
 * test/voice-clone-auto.test.ts; the helpers test/voice-clone-helpers.ts.
 *
 * After every branch the account's ledger must sum to its balance.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { errorCatalog, type ErrorName } from '../schemas/errors.ts';
import { operations } from '../schemas/operations.ts';
import { CLONE_EXPIRY_MS, cloneSchedule, CONFIRM_CREDITS, VOICE_NAME_MAX } from '../schemas/voice-clone.ts';
import { pathOf } from './factories.ts';
import { OTHER_KEY, type TestMock, useMocks } from './helpers.ts';
import { cloneHelpers, expectCharge, expectError, since, TO_COMPLETED } from './voice-clone-helpers.ts';

const start = useMocks({ rateLimit: false });
let m: TestMock;
beforeEach(async () => {
  m = await start();
});
const { account, setAccount, voices, create, completed, poll, polled, confirm, snapshot, expectUnchanged } = cloneHelpers(() => m);

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
