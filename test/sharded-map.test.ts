/**
 * ShardedMap (mock/engine/sharded-map.ts), the engine's map of task ids in 64 parts: it answers as a Map does
 * (checked against a Map over a seeded random run of sets, deletes and reads), iterates part by part, and spreads
 * the ids the engine makes over its parts (no part grows much beyond the others: the growth is cut in 64).
 */
import { describe, expect, it } from 'vitest';
import { ShardedMap } from '../mock/engine/sharded-map.ts';
import { Rng } from '../mock/engine/rng.ts';

describe('ShardedMap', () => {
  it('answers get, has, size, set and delete as a Map does', () => {
    const rng = new Rng(7);
    const map = new ShardedMap<number>();
    const ref = new Map<string, number>();
    const keys = ['', 'a', 'ab', '__proto__', 'constructor', ...Array.from({ length: 300 }, (_, i) => `k${i}`)];
    for (let step = 0; step < 20_000; step++) {
      const key = keys[rng.int(0, keys.length - 1, 'key', step)];
      const op = rng.int(0, 3, 'op', step);
      if (op === 0) {
        expect(map.set(key, step)).toBe(map);
        ref.set(key, step);
      } else if (op === 1) expect(map.delete(key)).toBe(ref.delete(key));
      else expect(map.get(key)).toBe(ref.get(key));
      expect(map.has(key)).toBe(ref.has(key));
      expect(map.size).toBe(ref.size);
    }
    expect(new Map(map.entries())).toEqual(ref);
    expect(new Set(map.keys())).toEqual(new Set(ref.keys()));
    expect([...map.values()].sort((a, b) => a - b)).toEqual([...ref.values()].sort((a, b) => a - b));
    map.clear();
    expect(map.size).toBe(0);
    expect([...map]).toEqual([]);
  });

  it('a key deleted while iterating is skipped, as in a Map', () => {
    const map = new ShardedMap<number>();
    for (let i = 0; i < 1000; i++) map.set(`t${i}`, i);
    const seen: number[] = [];
    for (const [k, v] of map) {
      seen.push(v);
      if (v % 2 === 0) map.delete(k);
    }
    expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    expect(map.size).toBe(500);
    expect([...map.values()].every((v) => v % 2 === 1)).toBe(true);
  });

  it("spreads the engine's task ids over its 64 parts", () => {
    const rng = new Rng(1);
    const map = new ShardedMap<number>();
    const n = 65_536;
    for (let i = 0; i < n; i++) map.set(rng.id('vt', 'mg_test_secret1', 'video', i + 1), i);
    const parts = (map as unknown as { parts: Map<string, number>[] }).parts.map((p) => p.size);
    expect(parts).toHaveLength(64);
    // 1,024 a part on average; a fair spread stays within a fifth of it (the binomial's deviation is 32)
    expect(Math.max(...parts)).toBeLessThan(1024 * 1.2);
    expect(Math.min(...parts)).toBeGreaterThan(1024 * 0.8);
  });
});
