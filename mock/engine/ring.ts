/**
 * A bounded ring of the most recent `capacity` items, oldest first: pushing
 * beyond the capacity overwrites the oldest in O(1) (the journal and the
 * activity feed record one item per request or change of status; an array
 * shifted at capacity costs O(capacity) per push).
 */
export class Ring<T> {
  private items: T[] = [];
  /** Index of the oldest item once the ring is full (0 until then). */
  private head = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 0) throw new RangeError(`a ring needs a whole non-negative capacity, got ${capacity}`);
  }

  /** Number of items held (at most `capacity`). */
  get length(): number {
    return this.items.length;
  }

  /** Appends `item`; when full, the oldest item goes. */
  push(item: T): void {
    if (this.capacity === 0) return;
    if (this.items.length < this.capacity) this.items.push(item);
    else {
      this.items[this.head] = item;
      this.head = (this.head + 1) % this.capacity;
    }
  }

  /** The item `i` places after the oldest (0: the oldest), or undefined beyond the end. */
  at(i: number): T | undefined {
    return i >= 0 && i < this.items.length ? this.items[(this.head + i) % this.items.length] : undefined;
  }

  /** The items from position `start` (0: the oldest) to the newest, oldest first, as a new array. */
  toArray(start = 0): T[] {
    const n = this.items.length;
    const out: T[] = [];
    for (let i = Math.max(0, start); i < n; i++) out.push(this.items[(this.head + i) % n]);
    return out;
  }

  /** Replaces the items with the last `capacity` of `items` (oldest first). */
  load(items: readonly T[]): void {
    this.items = this.capacity === 0 ? [] : items.slice(-this.capacity);
    this.head = 0;
  }

  /** Drops every item. */
  clear(): void {
    this.items = [];
    this.head = 0;
  }
}
