/**
 * In-memory store of owned records (docs/architecture.md, "The engine"): lookup by id,
 * and per-owner lists in creation order, read newest first. Records may carry a
 * group (a task's status): per (owner, group) lists are kept in creation order
 * too, so a page filtered by group costs O(pageSize) like an unfiltered one,
 * whatever the number of records. Records are mutated in place by the
 * services; a change of group is reported with `regroup`. `delete` removes a
 * record (O(n) in the owner's list: deletes are rare). A list that empties is
 * dropped, so the indexes keep nothing for an owner without records, however
 * many owners come and go; `onOwnerEmpty` is told when an owner's last record goes.
 */
import { ShardedMap } from './sharded-map.ts';

export interface Page<T> {
  items: T[];
  total: number;
}

interface Entry<T> {
  id: string;
  seq: number;
  owner: string;
  group: string | undefined;
  record: T;
}

/** Index of the entry with `seq` in a list sorted by seq, or where it would go. */
function search<T>(list: Entry<T>[], seq: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid].seq < seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function pageOf<T>(list: readonly Entry<T>[], page: number, pageSize: number): Page<T> {
  const end = list.length - (page - 1) * pageSize;
  const start = Math.max(0, end - pageSize);
  const items: T[] = [];
  for (let i = end - 1; i >= start; i--) items.push(list[i].record);
  return { items, total: list.length };
}

/** What an eviction that removes nothing returns: one empty list for all, frozen (callers only read it). */
const NONE: readonly never[] = Object.freeze([]);

export class OwnedStore<T> {
  /** Every record by id (in parts: growing it never stalls a create; see ShardedMap). */
  private byId = new ShardedMap<Entry<T>>();
  private byOwner = new Map<string, Entry<T>[]>();
  /** Each owner's records by group, in creation order (a map per owner: no key string built per insert or eviction). */
  private byOwnerGroup = new Map<string, Map<string, Entry<T>[]>>();
  /** Every owner's records of a group, in creation order (the area-wide eviction walks these). */
  private byGroup = new Map<string, Entry<T>[]>();
  private seq = 0;

  /** @param onOwnerEmpty called with an owner whose last record was removed (delete or eviction; not clear or load). */
  constructor(private readonly onOwnerEmpty?: (owner: string) => void) {}

  /** Number of records stored. */
  get size(): number {
    return this.byId.size;
  }

  /** Adds a record, optionally in `group`; throws on a duplicate id (a mock bug). */
  insert(owner: string, id: string, record: T, group?: string): T {
    if (this.byId.has(id)) throw new Error(`duplicate id ${id}`);
    const e: Entry<T> = { id, seq: ++this.seq, owner, group, record };
    this.byId.set(id, e);
    this.list(this.byOwner, owner).push(e);
    if (group !== undefined) {
      this.list(this.groupsOf(owner), group).push(e);
      this.list(this.byGroup, group).push(e);
    }
    return record;
  }

  /** Moves record `id` to `group` (say, after its status changed). No-op when it is already there. */
  regroup(id: string, group: string): void {
    const e = this.byId.get(id);
    if (!e || e.group === group) return;
    if (e.group !== undefined) {
      this.unlistGroup(e.owner, e.group, e.seq);
      this.unlist(this.byGroup, e.group, e.seq);
    }
    const to = this.list(this.groupsOf(e.owner), group);
    to.splice(search(to, e.seq), 0, e);
    const all = this.list(this.byGroup, group);
    all.splice(search(all, e.seq), 0, e);
    e.group = group;
  }

  /** Number of records of `owner`. */
  countOf(owner: string): number {
    return this.byOwner.get(owner)?.length ?? 0;
  }

  /**
   * Removes the oldest records of `owner` whose group is one of `groups` until
   * at most `keep` of its records remain (records of other groups stay, so
   * fewer may go). Returns the records removed, oldest first. Costs
   * O(removed x groups): it walks the per-group lists, never the owner's whole
   * list (a create beyond the cap while every task still runs stays cheap).
   */
  evictOldest(owner: string, keep: number, groups: readonly string[]): readonly T[] {
    const excess = this.countOf(owner) - keep;
    if (excess <= 0) return NONE;
    const mine = this.byOwnerGroup.get(owner);
    // nothing of those groups to remove (every task still runs: the clock stopped): nothing built for it
    if (!mine || !groups.some((g) => (mine.get(g)?.length ?? 0) > 0)) return NONE;
    return this.evictFrom(
      groups.map((g) => mine.get(g) ?? []),
      excess,
    );
  }

  /** Removes up to `excess` of the oldest entries at the heads of `lists` (each sorted by seq); returns their records, oldest first. */
  private evictFrom(lists: Entry<T>[][], excess: number): readonly T[] {
    if (excess <= 0) return NONE;
    const at = lists.map(() => 0);
    const gone: Entry<T>[] = [];
    for (; excess > 0; excess--) {
      // the oldest head of the group lists (each sorted by seq)
      let best = -1;
      for (let i = 0; i < lists.length; i++) if (at[i] < lists[i].length && (best < 0 || lists[i][at[i]].seq < lists[best][at[best]].seq)) best = i;
      if (best < 0) break;
      gone.push(lists[best][at[best]++]);
    }
    for (const e of gone) this.delete(e.id);
    return gone.map((e) => e.record);
  }

  /**
   * Removes the oldest records of any owner whose group is one of `groups`
   * until at most `keep` records remain (records of other groups stay, so fewer
   * may go). Returns the records removed, oldest first. Like `evictOldest`, it
   * walks the per-group lists, never the whole store: O(removed x groups), so a
   * create beyond the area's bound while every task still runs stays cheap.
   */
  evictOldestOverall(keep: number, groups: readonly string[]): readonly T[] {
    const excess = this.byId.size - keep;
    if (excess <= 0 || !groups.some((g) => (this.byGroup.get(g)?.length ?? 0) > 0)) return NONE;
    return this.evictFrom(
      groups.map((g) => this.byGroup.get(g) ?? []),
      excess,
    );
  }

  /** Removes record `id` from every list; no-op when absent. */
  delete(id: string): void {
    const e = this.byId.get(id);
    if (!e) return;
    this.byId.delete(id);
    if (e.group !== undefined) {
      this.unlistGroup(e.owner, e.group, e.seq);
      this.unlist(this.byGroup, e.group, e.seq);
    }
    if (this.unlist(this.byOwner, e.owner, e.seq)) this.onOwnerEmpty?.(e.owner);
  }

  /** Number of owners with records (each has a list in the indexes). */
  get owners(): number {
    return this.byOwner.size;
  }

  /** The record and its owner, or undefined. */
  get(id: string): { owner: string; record: T } | undefined {
    const e = this.byId.get(id);
    return e && { owner: e.owner, record: e.record };
  }

  /** A page (1-based) of the owner's records, newest first, optionally only those of `group`. */
  pageNewestFirst(owner: string, page: number, pageSize: number, group?: string): Page<T> {
    const list = group === undefined ? this.byOwner.get(owner) : this.byOwnerGroup.get(owner)?.get(group);
    return pageOf(list ?? [], page, pageSize);
  }

  /** Every record with its owner and group, in creation order, and the sequence counter (for saving the state). */
  dump(): { seq: number; entries: { id: string; owner: string; group?: string; record: T }[] } {
    const entries = [...this.byId.entries()]
      .sort((a, b) => a[1].seq - b[1].seq)
      .map(([id, e]) => ({ id, owner: e.owner, ...(e.group !== undefined ? { group: e.group } : {}), record: e.record }));
    return { seq: this.seq, entries };
  }

  /** Replaces every record with saved ones (in their creation order). */
  load(saved: { seq: number; entries: readonly { id: string; owner: string; group?: string; record: T }[] }): void {
    this.clear();
    for (const e of saved.entries) this.insert(e.owner, e.id, e.record, e.group);
    this.seq = Math.max(this.seq, saved.seq);
  }

  /** Drops everything. */
  clear(): void {
    this.byId.clear();
    this.byOwner.clear();
    this.byOwnerGroup.clear();
    this.byGroup.clear();
    this.seq = 0;
  }

  /** Removes the entry `seq` from the list `key`; drops the list when it empties (then returns true). */
  private unlist(map: Map<string, Entry<T>[]>, key: string, seq: number): boolean {
    const l = map.get(key);
    if (!l) return false;
    const i = search(l, seq);
    if (l[i]?.seq === seq) l.splice(i, 1);
    if (l.length > 0) return false;
    map.delete(key);
    return true;
  }

  /** Removes the entry `seq` from `owner`'s list of `group`; drops the owner's map of groups once it has none. */
  private unlistGroup(owner: string, group: string, seq: number): void {
    const mine = this.byOwnerGroup.get(owner);
    if (mine && this.unlist(mine, group, seq) && mine.size === 0) this.byOwnerGroup.delete(owner);
  }

  /** `owner`'s lists by group (made on first use). */
  private groupsOf(owner: string): Map<string, Entry<T>[]> {
    let m = this.byOwnerGroup.get(owner);
    if (!m) this.byOwnerGroup.set(owner, (m = new Map<string, Entry<T>[]>()));
    return m;
  }

  private list(map: Map<string, Entry<T>[]>, key: string): Entry<T>[] {
    let l = map.get(key);
    if (!l) map.set(key, (l = []));
    return l;
  }
}
