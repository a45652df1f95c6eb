/**
 * Accounts and their credit ledgers (docs/architecture.md, "The engine").
 * An account is created on a key's first use with the defaults of
 * schemas/account.ts. Every movement of credits is a ledger entry; the ledger
 * sums to the balance, the balance never goes negative, and a task's hold is
 * captured or released at most once (a settled hold is gone, so a second
 * settlement finds nothing).
 */
import { defaultAccount, type Plan } from '../../schemas/plans.ts';
import type { AccountUpdate, LedgerEntry } from '../../schemas/control.ts';
import { ShardedMap } from './sharded-map.ts';

/**
 * One area's part of every account (an image area's free generations, the
 * voice-cloning allowance), kept by the engine without knowing it: a typed
 * key, made once by its area with `accountExtension`, whose value is read
 * with `Accounts.extension(account, key)`. The value is plain data, saved
 * with the account under `field` (the account's field in the control API's
 * view and in a saved state).
 */
export interface AccountExtension<T> {
  /** The account's field the value is shown and saved under (unique among the extensions). */
  readonly field: string;
  /** The value of a new account of `plan`; `preloaded` is the preload's (`--accounts`) own field, when it has one. */
  init(plan: Plan, preloaded: unknown): T;
  /** The value once the plan changed to `plan` (default: unchanged). */
  planChanged?(value: T, plan: Plan): T;
  /** The value after a control-API update sent `sent` in the field (default: `sent` replaces it). */
  update?(value: T, sent: unknown): T;
}

/** A new account extension (see `AccountExtension`). */
export function accountExtension<T>(def: AccountExtension<T>): AccountExtension<T> {
  return def;
}

/** The fields every account has; what else it carries is its areas' (see `AccountExtension`). */
export interface Account {
  apiKey: string;
  keyId: string;
  credits: number;
  plan: Plan;
  everPaid: boolean;
  ledger: LedgerEntry[];
  /** The areas' values, by their extension's field. */
  extensions: Record<string, unknown>;
}

/** An account as shown and saved: the fields every account has, each extension's value under its field, the ledger. */
export type AccountRecord = Omit<Account, 'extensions'> & Record<string, unknown>;

/** A preloaded account (`--accounts FILE`): the fields every account has, and any extension's value under its field. */
export interface AccountSeed {
  apiKey: string;
  credits?: number;
  plan?: Plan;
  everPaid?: boolean;
  readonly [field: string]: unknown;
}

/** The fields of an account that are not an extension's. */
const coreFields = new Set(['apiKey', 'keyId', 'credits', 'plan', 'everPaid', 'ledger']);

/** How much the accounts keep: accounts at most (least recently used forgotten beyond), ledger entries per account (oldest folded beyond). */
export interface AccountLimits {
  accounts: number;
  ledgerEntries: number;
}

/**
 * Defaults: 10,000 accounts, 1,000 ledger entries each (about 500 tasks of history before folding). Together they
 * bound the ledgers at ten million entries, however many keys and tasks come.
 */
export const DEFAULT_ACCOUNT_LIMITS: AccountLimits = { accounts: 10_000, ledgerEntries: 1_000 };

/** Credits held for a task until it is captured or released (then the hold is gone). */
export interface Hold {
  apiKey: string;
  amount: number;
}

/**
 * A hold as kept: with the account (the ledger) it was reserved on, so it settles there or nowhere, and its place
 * in the order holds were taken (a saved state lists them in that order, whatever the map's parts).
 */
interface LiveHold extends Hold {
  account: Account;
  seq: number;
}

/** The accounts as saved with the state. */
export interface AccountsSnapshot {
  accounts: AccountRecord[];
  holds: [string, Hold][];
  deleted: string[];
}

export class Accounts {
  private accounts = new Map<string, Account>();
  /** The key set last into `accounts` (its last entry while it is there; any other key set moves it). */
  private newest: string | undefined;
  /** Live holds by task id (in parts: growing it never stalls a create; see ShardedMap). */
  private holds = new ShardedMap<LiveHold>();
  /** The `seq` of the newest hold. */
  private holdSeq = 0;
  /** Keys deleted through the control API: refused (401) until set again. */
  private deleted = new Set<string>();
  /** The areas' extensions, by field (see `declare`). */
  private extensions = new Map<string, AccountExtension<unknown>>();

  /** Called with a key whose account was forgotten (the bound) or deleted, after it is gone: what else is kept per key may go with it. */
  onForget?: (apiKey: string) => void;
  /** Called with a key whose account goes (forgotten by the bound, or deleted, even a key that had no account yet), after it is gone. */
  onGone?: (apiKey: string) => void;

  constructor(
    private readonly keyIdOf: (apiKey: string) => string,
    private readonly preload: readonly AccountSeed[] = [],
    private readonly limits: AccountLimits = DEFAULT_ACCOUNT_LIMITS,
  ) {}

  /** The account of `apiKey`, created with defaults (or its preload) on first use at time `at`. */
  get(apiKey: string, at: number): Account {
    let acc = this.accounts.get(apiKey);
    if (acc) {
      // most recently used last: the map's order is the order of last use (the key set last is last already: a
      // request reads its account several times, and a deletion and an insertion each time make the map rehash)
      if (this.newest !== apiKey) {
        this.accounts.delete(apiKey);
        this.accounts.set(apiKey, acc);
        this.newest = apiKey;
      }
    } else {
      const seed = this.preload.find((p) => p.apiKey === apiKey);
      acc = {
        apiKey,
        keyId: this.keyIdOf(apiKey),
        credits: 0,
        plan: seed?.plan ?? defaultAccount.plan,
        everPaid: seed?.everPaid ?? (seed?.plan ?? defaultAccount.plan) === 'paid',
        ledger: [],
        extensions: {},
      };
      for (const ext of this.extensions.values()) acc.extensions[ext.field] = ext.init(acc.plan, seed?.[ext.field]);
      this.accounts.set(apiKey, acc);
      this.newest = apiKey;
      this.entry(acc, at, 'adjust', seed?.credits ?? defaultAccount.credits, null, 'opening balance');
      this.evict(apiKey);
    }
    return acc;
  }

  /**
   * Beyond `limits.accounts`, forgets the least recently used accounts that
   * hold no credits for a running task: their keys start again with a fresh
   * account (their tasks stay). Keeps memory bounded however many keys are used.
   * Never the account of `current`, just created (when every other one holds
   * credits, the accounts stay above the bound until their tasks end).
   */
  private evict(current: string): void {
    if (this.accounts.size <= this.limits.accounts) return;
    const busy = new Set([...this.holds.values()].map((h) => h.apiKey));
    for (const key of this.accounts.keys()) {
      if (this.accounts.size <= this.limits.accounts) return;
      if (!busy.has(key) && key !== current) {
        this.accounts.delete(key);
        this.onGone?.(key);
        this.onForget?.(key);
      }
    }
  }

  /**
   * Declares an area's extension: every account created from now on carries
   * its value (made by `init`), a saved account without it gets `init`'s on
   * load, and `update` and `view` handle its field. Throws for a second
   * extension of one field, or an extension of a field every account has.
   */
  declare(ext: AccountExtension<unknown>): void {
    const known = this.extensions.get(ext.field);
    if (known === ext) return;
    if (known || coreFields.has(ext.field)) throw new Error(`accounts: two extensions of the field ${ext.field}`);
    this.extensions.set(ext.field, ext);
    for (const acc of this.accounts.values()) this.extension(acc, ext);
  }

  /**
   * The value of extension `ext` on `acc` (made by its `init` when the
   * account has none yet: an extension not declared on this engine, an
   * account loaded from a state saved without it). The value is the
   * account's own: change it in place, or with `setExtension`.
   */
  extension<T>(acc: Account, ext: AccountExtension<T>): T {
    if (!Object.hasOwn(acc.extensions, ext.field))
      acc.extensions[ext.field] = ext.init(acc.plan, this.preload.find((p) => p.apiKey === acc.apiKey)?.[ext.field]);
    return acc.extensions[ext.field] as T;
  }

  /** Replaces the value of extension `ext` on `acc`. */
  setExtension<T>(acc: Account, ext: AccountExtension<T>, value: T): void {
    acc.extensions[ext.field] = value;
  }

  /** `acc` as shown and saved (a copy): the fields every account has, each extension's value under its field, the ledger. */
  view(acc: Account): AccountRecord {
    const { extensions, ledger, ...core } = acc;
    return structuredClone({ ...core, ...extensions, ledger });
  }

  /** The account of `apiKey` if it exists; never creates one. */
  find(apiKey: string): Account | undefined {
    return this.accounts.get(apiKey);
  }

  /** True when `apiKey` was deleted and not set again. */
  isDeleted(apiKey: string): boolean {
    return this.deleted.has(apiKey);
  }

  /**
   * Deletes the account of `apiKey` with its ledger, and drops its holds (a task
   * of the key that ends later captures or refunds nothing). Later API requests
   * with the key are refused until `update` sets it again. Returns false when
   * the key had no account.
   */
  delete(apiKey: string): boolean {
    const existed = this.accounts.delete(apiKey);
    for (const [taskId, hold] of this.holds) if (hold.apiKey === apiKey) this.holds.delete(taskId);
    // deleted keys are remembered up to the account bound; beyond it the oldest deletion is forgotten (that key is new again)
    this.deleted.delete(apiKey);
    this.deleted.add(apiKey);
    for (const old of this.deleted) {
      if (this.deleted.size <= this.limits.accounts) break;
      this.deleted.delete(old);
    }
    this.onGone?.(apiKey);
    if (existed) this.onForget?.(apiKey);
    return existed;
  }

  /** Number of accounts kept. */
  get size(): number {
    return this.accounts.size;
  }

  /** Number of deleted keys remembered (at most the account bound). */
  get deletedCount(): number {
    return this.deleted.size;
  }

  /** Applies a control-API update, creating the account (again, after a delete) when needed; a new credits value is recorded as an adjust entry. */
  update(apiKey: string, patch: AccountUpdate, at: number): Account {
    this.deleted.delete(apiKey);
    const acc = this.get(apiKey, at);
    if (patch.credits !== undefined && patch.credits !== acc.credits) this.entry(acc, at, 'adjust', patch.credits - acc.credits, null, 'set by control API');
    if (patch.plan !== undefined) {
      // a new plan may bring its own values of the extensions (the voice-clone allowance)
      if (patch.plan !== acc.plan)
        for (const ext of this.extensions.values()) if (ext.planChanged) acc.extensions[ext.field] = ext.planChanged(this.extension(acc, ext), patch.plan);
      acc.plan = patch.plan;
      if (patch.plan === 'paid') acc.everPaid = true;
    }
    if (patch.everPaid !== undefined) acc.everPaid = patch.everPaid;
    const sent: Record<string, unknown> = patch;
    for (const ext of this.extensions.values()) {
      const value = sent[ext.field];
      if (value === undefined) continue;
      acc.extensions[ext.field] = ext.update ? ext.update(this.extension(acc, ext), value) : structuredClone(value);
    }
    return acc;
  }

  /**
   * Takes `amount` credits for `taskId`. Returns false, changing nothing, when the balance is short.
   * Throws (a mock bug) for an account that is no longer the key's (reset, deleted or forgotten since it was read).
   */
  reserve(acc: Account, taskId: string, amount: number, at: number, note: string): boolean {
    if (!Number.isInteger(amount) || amount < 0) throw new RangeError(`reserve needs a whole non-negative amount, got ${amount}`);
    if (this.accounts.get(acc.apiKey) !== acc)
      throw new Error(`reserve for ${taskId} on an account of ${acc.keyId} that is no longer the key's (read it again)`);
    if (acc.credits < amount) return false;
    if (this.holds.has(taskId)) throw new Error(`task ${taskId} already holds credits`);
    this.holds.set(taskId, { apiKey: acc.apiKey, amount, account: acc, seq: ++this.holdSeq });
    this.entry(acc, at, 'reserve', -amount, taskId, note);
    return true;
  }

  /**
   * Makes a hold final (success). With `amount` below the hold, only that much
   * is kept and the rest is refunded in a release entry. No-op unless the hold
   * is still held on the key's current account (a hold of an account reset or
   * deleted since is dropped: nothing captured). Returns the credits kept.
   */
  capture(taskId: string, at: number, amount?: number): number {
    const hold = this.heldOnLiveAccount(taskId);
    const acc = hold?.account;
    if (!hold || !acc) return 0;
    const kept = amount === undefined ? hold.amount : Math.min(hold.amount, amount);
    if (!Number.isInteger(kept) || kept < 0) throw new RangeError(`capture needs a whole non-negative amount, got ${amount}`);
    this.holds.delete(taskId);
    this.entry(acc, at, 'capture', 0, taskId, `captured ${kept}`);
    if (kept < hold.amount)
      this.entry(acc, at, 'release', hold.amount - kept, taskId, `refund of the unused part of the hold (${hold.amount} held, ${kept} charged)`);
    return kept;
  }

  /** Refunds a hold in full (failure, timeout). No-op unless still held on the key's current account; returns the credits refunded. */
  release(taskId: string, at: number, note: string): number {
    const hold = this.heldOnLiveAccount(taskId);
    const acc = hold?.account;
    if (!hold || !acc) return 0;
    this.holds.delete(taskId);
    this.entry(acc, at, 'release', hold.amount, taskId, note);
    return hold.amount;
  }

  /** Every account (for reset and tests). */
  all(): Account[] {
    return [...this.accounts.values()];
  }

  /** Credits held for `taskId`, or 0 when none (settled, or never held). */
  held(taskId: string): number {
    return this.holds.get(taskId)?.amount ?? 0;
  }

  /** The hold of `taskId` when the ledger it was reserved on is still the key's; a hold whose account is gone is dropped. */
  private heldOnLiveAccount(taskId: string): LiveHold | undefined {
    const hold = this.holds.get(taskId);
    if (!hold) return undefined;
    if (this.accounts.get(hold.apiKey) === hold.account) return hold;
    this.holds.delete(taskId);
    return undefined;
  }

  /**
   * Every account, hold and deleted key (for saving the state). Holds are listed in the order they were taken (a
   * loaded state's in its document's order, then the newer ones), so the same state saves to the same document
   * whatever the map's parts keep them in.
   */
  dump(): AccountsSnapshot {
    const held = [...this.holds.entries()].sort((a, b) => a[1].seq - b[1].seq);
    return {
      accounts: [...this.accounts.values()].map((a) => this.view(a)),
      holds: held.map(([taskId, h]) => [taskId, { apiKey: h.apiKey, amount: h.amount }]),
      deleted: [...this.deleted],
    };
  }

  /** Replaces everything with a saved state. */
  load(saved: AccountsSnapshot): void {
    this.clear();
    for (const a of saved.accounts) {
      const acc: Account = { apiKey: a.apiKey, keyId: a.keyId, credits: a.credits, plan: a.plan, everPaid: a.everPaid, ledger: a.ledger, extensions: {} };
      for (const [field, value] of Object.entries(a)) if (!coreFields.has(field)) acc.extensions[field] = value;
      // a state saved before an extension existed (voice cloning): its value for the account's plan
      for (const ext of this.extensions.values()) this.extension(acc, ext);
      this.accounts.set(a.apiKey, acc);
      this.newest = a.apiKey;
    }
    for (const [taskId, hold] of saved.holds) {
      const account = this.accounts.get(hold.apiKey);
      if (account) this.holds.set(taskId, { apiKey: hold.apiKey, amount: hold.amount, account, seq: ++this.holdSeq });
    }
    for (const k of saved.deleted) this.deleted.add(k);
  }

  clear(): void {
    this.accounts.clear();
    this.holds.clear();
    this.holdSeq = 0;
    this.deleted.clear();
  }

  private entry(acc: Account, at: number, type: LedgerEntry['type'], amount: number, taskId: string | null, note: string): void {
    const balance = acc.credits + amount;
    if (balance < 0) throw new Error(`ledger would go negative for ${acc.keyId}`);
    acc.credits = balance;
    acc.ledger.push({ seq: (acc.ledger.at(-1)?.seq ?? 0) + 1, at, type, amount, balance, taskId, note });
    if (acc.ledger.length > this.limits.ledgerEntries) {
      // fold the oldest half into one entry that carries their sum forward: the ledger still sums to the balance
      const n = acc.ledger.length - Math.floor(this.limits.ledgerEntries / 2);
      const old = acc.ledger.splice(0, n);
      const last = old[old.length - 1];
      acc.ledger.unshift({
        seq: last.seq,
        at: last.at,
        type: 'adjust',
        amount: old.reduce((sum, e) => sum + e.amount, 0),
        balance: last.balance,
        taskId: null,
        note: `${old.length} earlier entries, folded`,
      });
    }
  }
}
