/**
 * Voice-clone confirmation, continued (test/voice-clone-confirm.test.ts has the
 * rules and the reachable errors; document 2, "Voice cloning (prefix
 * /v1/voice-clone)", "Private voice", "Errors", "Limits"), through HTTP on the
 * manual clock:
 *
 * - autoConfirm: the first poll after completion confirms and charges by the
 *   same rules, or leaves confirmError; a manual confirm later succeeds;
 * - concurrency: concurrent polls and confirms of one task charge once;
 *   concurrent confirms of two tasks with one slot left confirm one;
 * - the control API: voiceClone set, partially updated, reset, saved and loaded.
 *
 * After every branch the account's ledger must sum to its balance.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { defaultVoiceClone } from '../schemas/plans.ts';
import { cloneSchedule, CONFIRM_CREDITS } from '../schemas/voice-clone.ts';
import { cloneForm, pathOf } from './factories.ts';
import { KEY, OTHER_KEY, type TestMock, useMocks } from './helpers.ts';
import { auto, cloneHelpers, expectCharge, expectError, since, TO_COMPLETED } from './voice-clone-helpers.ts';

const start = useMocks({ rateLimit: false });
let m: TestMock;
beforeEach(async () => {
  m = await start();
});
const { account, setAccount, voices, create, completed, poll, polled, confirm, snapshot, expectUnchanged } = cloneHelpers(() => m);

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
