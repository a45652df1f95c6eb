/**
 * A map from string keys kept as 64 smaller maps, chosen by a hash of the key's last four characters, for the engine's
 * maps that grow with every task (the stores' ids, the accounts' holds). A JavaScript `Map` grows by building a table
 * twice its size and moving every entry into it, all in one call: with 65,536 tasks, the create that crossed the
 * boundary stalled for about 9 ms (twice that at 131,072), and every request waiting meanwhile waited with it. Split
 * 64 ways, each part grows on its own, at a different create, by a 64th of the work (docs/architecture.md, "Keeping
 * the request path fast").
 *
 * Iteration goes part by part, each in its insertion order: deterministic (it depends on the keys alone), but not
 * the insertion order of the whole, so a caller that needs an order sorts (the store by sequence number, the
 * accounts' saved holds by the order they were taken).
 */
const SHARDS = 64;

/** The part of `key`: FNV-1a over its last four UTF-16 units (ids end with random hex digits), its top 6 bits mixed. */
function shardOf(key: string): number {
  let h = 0x811c9dc5;
  for (let i = Math.max(0, key.length - 4); i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return Math.imul(h ^ (h >>> 15), 0x9e3779b1) >>> 26; // 0..63
}

/** A Map<string, V> in 64 parts (see the file's comment): get, has, set, delete, clear, size and iteration as a Map's. */
export class ShardedMap<V> implements Iterable<[string, V]> {
  private readonly parts: Map<string, V>[] = Array.from({ length: SHARDS }, () => new Map<string, V>());
  private count = 0;

  /** Entries kept. */
  get size(): number {
    return this.count;
  }

  get(key: string): V | undefined {
    return this.parts[shardOf(key)].get(key);
  }

  has(key: string): boolean {
    return this.parts[shardOf(key)].has(key);
  }

  /** Sets `key` to `value` (added, or replacing its value). */
  set(key: string, value: V): this {
    const part = this.parts[shardOf(key)];
    const before = part.size;
    part.set(key, value);
    this.count += part.size - before;
    return this;
  }

  /** Removes `key`; true when it was there. */
  delete(key: string): boolean {
    if (!this.parts[shardOf(key)].delete(key)) return false;
    this.count--;
    return true;
  }

  clear(): void {
    for (const part of this.parts) part.clear();
    this.count = 0;
  }

  /** Every entry, part by part (a key deleted meanwhile is skipped, as a Map's iteration skips it). */
  *entries(): IterableIterator<[string, V]> {
    for (const part of this.parts) yield* part.entries();
  }

  *values(): IterableIterator<V> {
    for (const part of this.parts) yield* part.values();
  }

  *keys(): IterableIterator<string> {
    for (const part of this.parts) yield* part.keys();
  }

  [Symbol.iterator](): IterableIterator<[string, V]> {
    return this.entries();
  }
}
