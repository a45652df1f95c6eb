/**
 * Request rules, emitted twice (schemas/rules.ts): for every rule of every
 * operation, a body breaking only that rule is refused by ajv over the emitted
 * spec/openapi.json and by the mock with the rule's code; bodies keeping every
 * rule are accepted by both. The table is test/rule-cases.ts; the figures of
 * agreement are printed (also `npm run spec:agreement`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationIds, operations } from '../schemas/operations.ts';
import type { OperationDef } from '../schemas/registry-types.ts';
import { holds, rulesOf } from '../schemas/rules.ts';
import { agreement, describeAgreement, runCases, type Verdict } from './rule-agreement.ts';
import { ruleCases } from './rule-cases.ts';

const cases = ruleCases();
let verdicts: Verdict[] = [];

beforeAll(async () => {
  verdicts = await runCases(cases);
}, 120_000);

afterAll(() => {
  console.log(describeAgreement(agreement(verdicts)));
});

describe('every rule has a case', () => {
  const withRules = operationIds.filter((id) => {
    const op = operations[id] as OperationDef;
    return op.request.body !== undefined && rulesOf(op.request.body.schema).length > 0;
  });
  it.each(withRules)('%s', (id) => {
    const op = operations[id] as OperationDef;
    // operations sharing one body schema (the sync and async image endpoints) share its cases
    const same = (c: (typeof cases)[number]) => (operations[c.op] as OperationDef).request.body?.schema === op.request.body!.schema;
    const covered = new Set(cases.filter(same).map((c) => c.rule));
    const missing = rulesOf(op.request.body!.schema)
      .map((r) => r.id)
      .filter((r) => !covered.has(r));
    expect(missing).toEqual([]);
    expect(cases.some((c) => same(c) && c.rule === null)).toBe(true);
  });
});

describe('each case, ajv over the emitted schema and the mock', () => {
  it.each(cases.map((c, i) => [`${c.op}: ${c.rule ?? 'valid'}: ${c.name}`, i] as const))('%s', (_name, i) => {
    const v = verdicts[i];
    const where = `${v.mockStatus} ${v.mockCode} ${v.mockMessage} | ajv: ${v.ajvErrors}`;
    if (v.expectedCode === null) {
      expect(v.mockStatus, where).toBe(operations[v.case.op].response.status);
      expect(v.ajvValid, where).toBe(true);
      return;
    }
    expect(v.mockStatus, where).toBe(400);
    expect(v.mockCode, where).toBe(v.expectedCode);
    // x-rules entries are the rules no schema carries: ajv accepts those bodies
    expect(v.ajvValid, where).toBe(v.case.rule!.startsWith('x-rules:'));
  });
});

describe('agreement', () => {
  it('ajv refuses at least 95% of what the mock refuses for a body rule, and nothing the mock accepts', () => {
    const a = agreement(verdicts);
    expect(a.mockRefused).toBeGreaterThan(0);
    expect(a.fraction).toBeGreaterThanOrEqual(0.95);
    expect(a.ajvOnly).toBe(0);
  });
});

describe('holds() evaluates the keywords the rules use as JSON Schema does', () => {
  const rows: [string, object, unknown, boolean][] = [
    ['contains within bounds', { contains: { const: 1 }, minContains: 0, maxContains: 1 }, [1, 2], true],
    ['contains over maxContains', { contains: { const: 1 }, maxContains: 1 }, [1, 1], false],
    ['contains none', { contains: { const: 1 } }, [2], false],
    ['dependentRequired', { dependentRequired: { a: ['b'] } }, { a: 1 }, false],
    ['properties skip an absent field', { properties: { a: { const: 1 } } }, {}, true],
    ['if/then/else', { if: { required: ['a'] }, then: { required: ['b'] }, else: { required: ['c'] } }, { c: 1 }, true],
    ['maxLength counts code points', { maxLength: 1 }, '😀', true],
    ['multipleOf tolerant of floating point', { multipleOf: 0.01 }, 1.1, true],
    ['multipleOf', { multipleOf: 0.01 }, 1.001, false],
    ['oneOf exactly one', { oneOf: [{ required: ['a'] }, { required: ['b'] }] }, { a: 1, b: 1 }, false],
    ['pattern not blank', { pattern: '\\S' }, '  ', false],
    // one member compared with constants (a rule's usual `if`), which compileFragment makes one function
    ['member const: not an object', { properties: { model: { const: 'a' } } }, 5, true],
    ['member const: an array is not an object', { properties: { model: { const: 'a' } }, required: ['model'] }, ['a'], true],
    ['member const: absent, not required', { properties: { model: { const: 'a' } } }, {}, true],
    ['member const: absent, required', { properties: { model: { const: 'a' } }, required: ['model'] }, {}, false],
    ['member const: equal', { properties: { model: { const: 'a' } }, required: ['model'] }, { model: 'a' }, true],
    ['member const: another value', { properties: { model: { const: 'a' } } }, { model: 'b' }, false],
    ['member const: same text, another type', { properties: { n: { const: 1 } } }, { n: '1' }, false],
    ['member enum: among them', { properties: { model: { enum: ['a', 'b'] } } }, { model: 'b' }, true],
    ['member enum: not among them', { properties: { model: { enum: ['a', 'b'] } }, required: ['model'] }, { model: 'c' }, false],
    ['member enum: absent, required', { properties: { model: { enum: ['a', 'b'] } }, required: ['model'] }, { other: 'a' }, false],
    ['member enum: null is a value', { properties: { model: { enum: ['a', null] } } }, { model: null }, true],
    ['required names another member', { properties: { model: { const: 'a' } }, required: ['other'] }, { model: 'a' }, false],
  ];
  it.each(rows)('%s', (_n, schema, value, expected) => {
    expect(holds(schema as Record<string, unknown>, value)).toBe(expected);
  });
  it('refuses a keyword it does not evaluate', () => {
    expect(() => holds({ propertyNames: { maxLength: 1 } }, {})).toThrow(/not evaluated/);
  });
});
