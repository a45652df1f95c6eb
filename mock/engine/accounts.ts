/**
 * Accounts and their credit ledgers (DESIGN.md, "Credits", "Accounts and auth").
 * An account is created on a key's first use with the defaults of
 * schemas/account.ts. Every movement of credits is a ledger entry; the ledger
 * sums to the balance, the balance never goes negative, and a task's hold is
 * captured or released at most once.
 */
import { defaultAccount, type Plan } from '../../schemas/account.ts';
import type { AccountUpdate, LedgerEntry } from '../../schemas/control.ts';

export interface Account {
  apiKey: string;
  keyId: string;
  credits: number;
  plan: Plan;
  everPaid: boolean;
  freeUsages: Record<string, number>;
  ledger: LedgerEntry[];
}

/** A preloaded account (`--accounts FILE`). */
export interface AccountSeed {
  apiKey: string;
  credits?: number;
  plan?: Plan;
  everPaid?: boolean;
  freeUsages?: Record<string, number>;
}

interface Hold {
  apiKey: string;
  amount: number;
  state: 'held' | 'captured' | 'released';
}

export class Accounts {
  private accounts = new Map<string, Account>();
  private holds = new Map<string, Hold>();

  constructor(
    private readonly keyIdOf: (apiKey: string) => string,
    private readonly preload: readonly AccountSeed[] = [],
  ) {}

  /** The account of `apiKey`, created with defaults (or its preload) on first use at time `at`. */
  get(apiKey: string, at: number): Account {
    let acc = this.accounts.get(apiKey);
    if (!acc) {
      const seed = this.preload.find((p) => p.apiKey === apiKey);
      acc = {
        apiKey,
        keyId: this.keyIdOf(apiKey),
        credits: 0,
        plan: seed?.plan ?? defaultAccount.plan,
        everPaid: seed?.everPaid ?? (seed?.plan ?? defaultAccount.plan) === 'paid',
        freeUsages: { ...(seed?.freeUsages ?? defaultAccount.freeUsages) },
        ledger: [],
      };
      this.accounts.set(apiKey, acc);
      this.entry(acc, at, 'adjust', seed?.credits ?? defaultAccount.credits, null, 'opening balance');
    }
    return acc;
  }

  /** Applies a control-API update; a new credits value is recorded as an adjust entry. */
  update(apiKey: string, patch: AccountUpdate, at: number): Account {
    const acc = this.get(apiKey, at);
    if (patch.credits !== undefined && patch.credits !== acc.credits) this.entry(acc, at, 'adjust', patch.credits - acc.credits, null, 'set by control API');
    if (patch.plan !== undefined) {
      acc.plan = patch.plan;
      if (patch.plan === 'paid') acc.everPaid = true;
    }
    if (patch.everPaid !== undefined) acc.everPaid = patch.everPaid;
    if (patch.freeUsages !== undefined) acc.freeUsages = { ...patch.freeUsages };
    return acc;
  }

  /** Takes `amount` credits for `taskId`. Returns false, changing nothing, when the balance is short. */
  reserve(acc: Account, taskId: string, amount: number, at: number, note: string): boolean {
    if (!Number.isInteger(amount) || amount < 0) throw new RangeError(`reserve needs a whole non-negative amount, got ${amount}`);
    if (acc.credits < amount) return false;
    if (this.holds.has(taskId)) throw new Error(`task ${taskId} already holds credits`);
    this.holds.set(taskId, { apiKey: acc.apiKey, amount, state: 'held' });
    this.entry(acc, at, 'reserve', -amount, taskId, note);
    return true;
  }

  /** Makes a hold final (success). No-op unless the hold is still held. */
  capture(taskId: string, at: number): void {
    const hold = this.holds.get(taskId);
    if (!hold || hold.state !== 'held') return;
    hold.state = 'captured';
    this.entry(this.accounts.get(hold.apiKey)!, at, 'capture', 0, taskId, `captured ${hold.amount}`);
  }

  /** Refunds a hold in full (failure, timeout). No-op unless still held; returns the credits refunded. */
  release(taskId: string, at: number, note: string): number {
    const hold = this.holds.get(taskId);
    if (!hold || hold.state !== 'held') return 0;
    hold.state = 'released';
    this.entry(this.accounts.get(hold.apiKey)!, at, 'release', hold.amount, taskId, note);
    return hold.amount;
  }

  /** Every account (for reset and tests). */
  all(): Account[] {
    return [...this.accounts.values()];
  }

  clear(): void {
    this.accounts.clear();
    this.holds.clear();
  }

  private entry(acc: Account, at: number, type: LedgerEntry['type'], amount: number, taskId: string | null, note: string): void {
    const balance = acc.credits + amount;
    if (balance < 0) throw new Error(`ledger would go negative for ${acc.keyId}`);
    acc.credits = balance;
    acc.ledger.push({ seq: acc.ledger.length + 1, at, type, amount, balance, taskId, note });
  }
}
