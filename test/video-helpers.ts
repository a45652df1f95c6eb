/**
 * What the video lifecycle suites share (test/video-lifecycle.test.ts,
 * test/video-tasks.test.ts): reading a task, creating one, the balance and the
 * ledger (checked consistent), and loading a media URL, on the suite's mock.
 */
import { expect } from 'vitest';
import { errorCatalog } from '../schemas/errors.ts';
import { pathOf } from './factories.ts';
import { KEY, type TestMock } from './helpers.ts';

export const U = 'https://example.com/';
/** The numeric code of a catalogued error. */
export const code = (n: keyof typeof errorCatalog) => errorCatalog[n].code;
export type CreateOp = 'createVideoTask' | 'createFamily5VideoTask';
export type CreateOpts = { key?: string; headers?: Record<string, string>; query?: Record<string, string | number> };

/** The helpers on the suite's current mock, `current()`. */
export function videoHelpers(current: () => TestMock) {
  async function task(id: string, key: string = KEY) {
    const r = await current().call('GET', pathOf('getVideoTask', { taskId: id }), { key });
    expect(r.status, r.text).toBe(200);
    return r.json.data;
  }
  async function create(op: CreateOp, body: unknown, opts: CreateOpts = {}) {
    const r = await current().call('POST', pathOf(op, {}, opts.query), { body, key: opts.key, headers: opts.headers });
    expect(r.status, r.text).toBe(200);
    expect(r.json.code).toBe(0);
    expect(r.json.data.status).toBe('generating');
    return r.json.data.taskId as string;
  }
  async function balance(key: string = KEY): Promise<number> {
    const r = await current().call('GET', pathOf('getSubscription'), { key });
    expect(r.status).toBe(200);
    return r.json.data.balance;
  }
  async function ledger(key: string = KEY) {
    const r = await current().call('GET', `/__mock/accounts/${key}`, { key: null });
    expect(r.status).toBe(200);
    return r.json as { credits: number; ledger: { type: string; amount: number; balance: number; taskId: string | null }[] };
  }
  /** The ledger sums to the balance, each entry's running balance is right, and the API's balance agrees. */
  async function expectLedgerConsistent(key: string = KEY) {
    const a = await ledger(key);
    let sum = 0;
    for (const e of a.ledger) {
      sum += e.amount;
      expect(e.balance).toBe(sum);
    }
    expect(sum).toBe(a.credits);
    expect(await balance(key)).toBe(a.credits);
    return a;
  }
  async function fetchMedia(url: string) {
    const res = await fetch(current().base + new URL(url).pathname);
    const body = Buffer.from(await res.arrayBuffer());
    return { status: res.status, type: res.headers.get('content-type') ?? '', body };
  }

  return { task, create, balance, ledger, expectLedgerConsistent, fetchMedia };
}
