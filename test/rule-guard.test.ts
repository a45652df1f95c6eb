/**
 * The guard index of a rule set (schemas/rules.ts, guardIndex): a body only has the rules its guard field selects
 * checked. Hand-written cases on a small rule set (the lists and the issues, in declaration order), then, for every
 * operation's rules, the soundness of the index: a guarded rule left out for a body has an `if` that fails on it,
 * so the rule holds (the `if` evaluated alone, by `holds`, not by the index).
 */
import { describe, expect, it } from 'vitest';
import { z } from '../schemas/zod.ts';
import { operationIds, operations } from '../schemas/operations.ts';
import type { OperationDef } from '../schemas/registry-types.ts';
import { guardIndex, holds, rule, rulesOf, withRules, type JsonSchema } from '../schemas/rules.ts';

/** A toy rule: `n` at most `max` when `when` holds (always without one). */
const atMost = (id: string, max: number, when?: Record<string, string | string[]>) =>
  rule({
    id,
    rule: `n at most ${max}`,
    code: 'VIDEO_INVALID_PARAMETERS',
    path: ['n'],
    ...(when ? { when } : {}),
    then: { properties: { n: { maximum: max } } },
  });

const Toy = withRules(
  z.object({ model: z.enum(['a', 'b', 'c', 'd']).default('a'), n: z.number(), tag: z.string().optional() }),
  [
    atMost('toy.a', 1, { model: 'a' }),
    atMost('toy.bc', 2, { model: ['b', 'c'] }),
    rule({ id: 'toy.all', rule: 'n at least 0', code: 'VIDEO_INVALID_PARAMETERS', path: ['n'], then: { properties: { n: { minimum: 0 } } } }),
    atMost('toy.c', 3, { model: 'c' }),
    atMost('toy.tag', 4, { tag: 'x' }),
  ],
  'ToyRequest',
);

/** The rule ids of the issues a body gets, in order. */
function broken(body: unknown): string[] {
  const r = Toy.safeParse(body);
  return r.success ? [] : r.error.issues.map((i) => (i as { params?: { rule?: string } }).params?.rule ?? i.code);
}

describe('guard index: hand-written cases', () => {
  const index = guardIndex(rulesOf(Toy));
  it('guards on the field most rules name alone', () => {
    expect(index.field).toBe('model');
  });
  it('lists the rules each value selects, the unguarded ones included, in declaration order', () => {
    // 0 toy.a, 1 toy.bc, 2 toy.all, 3 toy.c, 4 toy.tag (guarded by another field: always listed)
    expect(index.due({})).toEqual([0, 2, 4]); // absent: the default a is in toy.a's list
    expect(index.due({ model: 'a' })).toEqual([0, 2, 4]);
    expect(index.due({ model: 'b' })).toEqual([1, 2, 4]);
    expect(index.due({ model: 'c' })).toEqual([1, 2, 3, 4]);
    expect(index.due({ model: 'd' })).toEqual([2, 4]); // listed by no rule
    expect(index.due({ model: 7 })).toEqual([2, 4]);
    expect(index.due({ model: null })).toEqual([2, 4]);
    expect(index.due({ model: ['a'] })).toEqual([0, 1, 2, 3, 4]); // not primitive: every rule
    expect(index.due('a')).toEqual([0, 1, 2, 3, 4]);
  });
  it('answers the same issues as every rule checked', () => {
    expect(broken({ n: 5 })).toEqual(['toy.a']);
    expect(broken({ model: 'b', n: 5 })).toEqual(['toy.bc']);
    expect(broken({ model: 'c', n: 5 })).toEqual(['toy.bc', 'toy.c']);
    expect(broken({ model: 'c', n: -1 })).toEqual(['toy.all']);
    expect(broken({ model: 'd', n: 9, tag: 'x' })).toEqual(['toy.tag']);
    expect(broken({ model: 'a', n: -1, tag: 'x' })).toEqual(['toy.all']);
    expect(broken({ model: 'a', n: 1 })).toEqual([]);
  });
  it('a rule set without guards checks every rule', () => {
    const index2 = guardIndex(rulesOf(Toy).filter((r) => r.id === 'toy.all'));
    expect(index2.due({ model: 'b' })).toEqual([0]);
  });
});

describe("guard index: every operation's rules", () => {
  const sets = new Set(
    operationIds
      .map((id) => (operations[id] as OperationDef).request.body?.schema)
      .filter((s): s is NonNullable<typeof s> => s !== undefined && rulesOf(s).length > 0),
  );
  it.each([...sets].map((s, i) => [i, s] as const))('rule set %i: a rule left out has an if that fails on the body', (_i, schema) => {
    const rules = rulesOf(schema);
    const index = guardIndex(rules);
    const field = index.field;
    if (field === undefined) {
      // no rule guarded by one field alone: every rule is checked
      expect(index.due({})).toEqual(rules.map((_, i) => i));
      return;
    }
    // every value a rule lists for any field, an unlisted string, a number, null, and no value
    const values = new Set<unknown>(['no-such-value', 0, null, undefined]);
    for (const r of rules) if (r.when && !('schema' in r.when)) for (const v of Object.values(r.when)) for (const x of [v].flat()) values.add(x);
    for (const base of [{}, { extra: 1 }]) {
      for (const x of values) {
        const body: Record<string, unknown> = x === undefined ? { ...base } : { ...base, [field]: x };
        const due = index.due(body);
        expect([...due].sort((a, b) => a - b)).toEqual(due);
        rules.forEach((r, i) => {
          if (due.includes(i)) return;
          const cond = (r.schema as { if?: JsonSchema }).if;
          expect(cond, `${r.id} left out for ${JSON.stringify(body)} has no if`).toBeDefined();
          expect(holds(cond!, body), `${r.id} left out for ${JSON.stringify(body)}`).toBe(false);
        });
      }
    }
  });
});
