/**
 * In-memory store of owned records (DESIGN.md, "engine/store"): lookup by id,
 * and per-owner lists in creation order, read newest first with an optional
 * filter. Records are mutated in place by the services, so a status change
 * needs no re-indexing. A page without a filter costs O(pageSize); with a
 * filter, one pass over the owner's records.
 */
export interface Page<T> {
  items: T[];
  total: number;
}

export class OwnedStore<T> {
  private byId = new Map<string, { owner: string; record: T }>();
  private byOwner = new Map<string, T[]>();

  /** Number of records stored. */
  get size(): number {
    return this.byId.size;
  }

  /** Adds a record; throws on a duplicate id (a mock bug). */
  insert(owner: string, id: string, record: T): T {
    if (this.byId.has(id)) throw new Error(`duplicate id ${id}`);
    this.byId.set(id, { owner, record });
    let list = this.byOwner.get(owner);
    if (!list) this.byOwner.set(owner, (list = []));
    list.push(record);
    return record;
  }

  /** The record and its owner, or undefined. */
  get(id: string): { owner: string; record: T } | undefined {
    return this.byId.get(id);
  }

  /** A page (1-based) of the owner's records, newest first, optionally filtered. */
  pageNewestFirst(owner: string, page: number, pageSize: number, filter?: (r: T) => boolean): Page<T> {
    const list = this.byOwner.get(owner) ?? [];
    const skip = (page - 1) * pageSize;
    if (!filter) {
      const end = list.length - skip;
      const start = Math.max(0, end - pageSize);
      return { items: end > 0 ? list.slice(start, end).reverse() : [], total: list.length };
    }
    const items: T[] = [];
    let total = 0;
    for (let i = list.length - 1; i >= 0; i--) {
      if (!filter(list[i])) continue;
      if (total >= skip && items.length < pageSize) items.push(list[i]);
      total++;
    }
    return { items, total };
  }

  /** Drops everything. */
  clear(): void {
    this.byId.clear();
    this.byOwner.clear();
  }
}
