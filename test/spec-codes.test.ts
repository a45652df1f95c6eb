/**
 * Every body rule's code is readable from the emitted service document (spec/openapi.json) alone: each rule
 * fragment under a request schema's `allOf` carries `x-error-code` (and `x-rule`), each such code is a catalogued
 * HTTP 400 code, listed in the operation's `x-validation-errors` and in its 400 response's `x-error-codes`; the
 * codes document 1 names for conditional rules are there; no mock-only code is listed. The mock's own codes are
 * data in the control document's `x-error-catalog`.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const spec = JSON.parse(readFileSync(new URL('../spec/openapi.json', import.meta.url), 'utf8'));
const control = parse(readFileSync(new URL('../spec/mock-control.openapi.yaml', import.meta.url), 'utf8'));
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const ops: Record<string, any>[] = Object.values(spec.paths as Record<string, Record<string, any>>).flatMap((item) =>
  METHODS.filter((m) => item[m]).map((m) => item[m]),
);
const byId = Object.fromEntries(ops.map((o) => [o.operationId, o]));
const catalog = new Map<number, { httpStatus: number }>(spec['x-error-catalog'].map((e: { code: number; httpStatus: number }) => [e.code, e]));

/** The schema a `$ref` names. */
function deref(ref: string): unknown {
  return ref
    .slice(2)
    .split('/')
    .reduce((n: any, k) => n[k.replace(/~1/g, '/').replace(/~0/g, '~')], spec);
}

/**
 * The rule fragments under `node` (references followed once), with where each was found: the `allOf` items of an
 * object schema that has `properties` (a body, or an object inside one); a fragment's own keywords are not walked.
 */
function allOfItems(node: unknown, where: string, out: [string, Record<string, unknown>][] = [], seen = new Set<string>()) {
  if (Array.isArray(node)) node.forEach((n, i) => allOfItems(n, `${where}/${i}`, out, seen));
  else if (node && typeof node === 'object') {
    const o = node as Record<string, unknown>;
    if (typeof o.$ref === 'string' && !seen.has(o.$ref)) {
      seen.add(o.$ref);
      allOfItems(deref(o.$ref), o.$ref, out, seen);
    }
    const rules = o.properties !== undefined && Array.isArray(o.allOf);
    if (rules) (o.allOf as Record<string, unknown>[]).forEach((f, i) => out.push([`${where}/allOf/${i}`, f]));
    for (const [k, v] of Object.entries(o)) if (!(rules && k === 'allOf')) allOfItems(v, `${where}/${k}`, out, seen);
  }
  return out;
}

const withBody = ops.filter((o) => o.requestBody);

describe('every body rule names its code in spec/openapi.json', () => {
  it('the document has rule fragments', () => {
    expect(withBody.flatMap((o) => allOfItems(o.requestBody, o.operationId)).length).toBeGreaterThan(100);
  });

  it.each(withBody.map((o) => [o.operationId, o] as const))('%s', (_id, o) => {
    const fragments = allOfItems(o.requestBody, o.operationId);
    const codes = new Set<number>();
    for (const [where, f] of fragments) {
      expect(f['x-error-code'], where).toBeTypeOf('number');
      expect(f['x-rule'], where).toBeTypeOf('string');
      const code = f['x-error-code'] as number;
      expect(catalog.get(code)?.httpStatus, `${where}: ${code} in x-error-catalog as a 400`).toBe(400);
      codes.add(code);
    }
    const declared = new Set<number>(o['x-validation-errors']);
    expect(
      [...codes].filter((c) => !declared.has(c)),
      'rule codes missing from x-validation-errors',
    ).toEqual([]);
    expect(
      [...codes].filter((c) => !(o.responses['400']?.['x-error-codes'] ?? []).includes(c)),
      'rule codes missing from the 400 response',
    ).toEqual([]);
    // an x-rules entry that reads the body alone is a validation code too
    for (const r of o['x-rules'] ?? []) if (r.reads === 'body') expect(declared.has(r.code), `${r.name} in x-validation-errors`).toBe(true);
  });

  // document 1: family5's prompt rules (32004, 32006); image: 29003 (image-b ratio), 26019 (image-a/d ratio), 26002 and 26003 (size and references)
  it.each([
    ['createFamily5VideoTask', [32004, 32006]],
    ['generateImage', [26001, 26002, 26003, 26019, 29003]],
    ['createImageTask', [26001, 26002, 26003, 26019, 29003]],
  ] as const)('%s lists %j', (id, codes) => {
    expect(byId[id], id).toBeDefined();
    expect(byId[id]['x-validation-errors']).toEqual(expect.arrayContaining([...codes]));
  });

  it('no operation lists a code outside the catalog (the mock-only 10007 among them)', () => {
    for (const o of ops) for (const c of o['x-validation-errors'] ?? []) expect(catalog.has(c), `${o.operationId} ${c}`).toBe(true);
    expect(ops.filter((o) => (o['x-validation-errors'] ?? []).includes(10007)).map((o) => o.operationId)).toEqual([]);
  });
});

describe("the mock's own codes are data in spec/mock-control.openapi.yaml", () => {
  it('x-error-catalog lists the mock-only codes as the service document lists its own', () => {
    const mock = control['x-error-catalog'] as { code: number; name: string; httpStatus: number; meaning: string; 'x-provenance': string }[];
    expect(Array.isArray(mock)).toBe(true);
    const codes = mock.map((e) => e.code);
    // the forcing refusal, the control API's own refusals
    expect(codes).toEqual(expect.arrayContaining([10007, 10017, 10018]));
    for (const e of mock) {
      expect(Object.keys(e).sort(), String(e.code)).toEqual(expect.arrayContaining(['code', 'httpStatus', 'meaning', 'name', 'x-provenance']));
      expect(catalog.has(e.code), `${e.code} is the mock's, not the service's`).toBe(false);
    }
    // every code a control operation's error response lists is in the catalogue
    for (const item of Object.values(control.paths as Record<string, Record<string, any>>))
      for (const m of METHODS.filter((x) => item[x]))
        for (const r of Object.values<any>(item[m].responses))
          for (const c of r['x-error-codes'] ?? []) expect(codes.includes(c) || catalog.has(c), `${item[m].operationId} ${c}`).toBe(true);
  });
});
