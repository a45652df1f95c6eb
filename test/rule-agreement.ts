/**
 * Runs the request-rule table (test/rule-cases.ts) both ways: ajv (JSON Schema
 * 2020-12, ajv-formats) over the request schema of the emitted document
 * spec/openapi.json, and the mock in process (its fetch, rate limits off, a
 * paid account with credits to spare). Used by test/spec-rules.test.ts and
 * `npm run spec:agreement` (scripts/spec-agreement.ts). A multipart body
 * (voice cloning) is a case whose file fields hold bytes: ajv reads them as the
 * binary strings the multipart schema declares, the mock gets a form.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { errorCatalog } from '../schemas/errors.ts';
import { operations } from '../schemas/operations.ts';
import type { OperationDef } from '../schemas/registry-types.ts';
import { rulesOf } from '../schemas/rules.ts';
import { createMock } from '../mock/index.ts';
import { KEY } from './helpers.ts';
import { isFormFile, type RuleCase } from './rule-cases.ts';
import type { Body } from './factories.ts';

/**
 * A case's body as the two sides read it: for a JSON body, itself twice; for a multipart body, a form for the mock
 * (files as files, a repeated file field as an array of them; every other value as its text: "true", "42", JSON)
 * and, for ajv, the values the form's text stands for (as a validator of multipart/form-data reads them against
 * the schema) with each file as its bytes in a latin1 string (a `format: binary` string).
 */
export function encode(op: OperationDef, body: Body): { ajv: unknown; init: RequestInit } {
  if (op.request.body?.kind !== 'multipart') return { ajv: body, init: { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } };
  const form = new FormData();
  const typed: Record<string, unknown> = {};
  const fileOf = (x: unknown) => (x instanceof Uint8Array ? x : isFormFile(x) ? x.bytes : undefined);
  for (const [k, v] of Object.entries(body)) {
    if (v === undefined) continue;
    const items = Array.isArray(v) && v.length > 0 && v.every((x) => fileOf(x)) ? v : [v];
    const seen: unknown[] = [];
    for (const [i, x] of items.entries()) {
      const bytes = fileOf(x);
      if (bytes) {
        const name = isFormFile(x) ? x.name : `${k}${i}.bin`;
        form.append(k, new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/octet-stream' }), name);
        seen.push(new TextDecoder('latin1').decode(bytes));
      } else {
        form.append(k, typeof x === 'string' ? x : JSON.stringify(x));
        seen.push(x);
      }
    }
    typed[k] = items === v ? seen : seen[0];
  }
  return { ajv: typed, init: { body: form } };
}

// ajv-formats is published as CommonJS; its default export arrives wrapped under NodeNext
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (a: Ajv2020) => Ajv2020;
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** One case as both sides saw it. */
export interface Verdict {
  case: RuleCase;
  /** The code the rule answers (its catalog code), or null for a valid case. */
  expectedCode: number | null;
  ajvValid: boolean;
  ajvErrors: string;
  mockStatus: number;
  mockCode: number;
  mockMessage: string;
}

/** The agreement of the two sides over `verdicts`. */
export interface Agreement {
  /** Requests the mock refused with a body rule's code (or the operation's validation error). */
  mockRefused: number;
  /** Of those, how many ajv refused too. */
  ajvRefusedToo: number;
  /** Requests ajv refused that the mock accepted. */
  ajvOnly: number;
  /** ajvRefusedToo / mockRefused. */
  fraction: number;
}

/** A validator of the JSON request body of every operation, over the emitted document. */
export function specValidators(doc: unknown = JSON.parse(readFileSync(join(root, 'spec/openapi.json'), 'utf8'))) {
  // ajv's defaults (no multipleOfPrecision): what a client's validator does with the document as it is
  const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false, validateSchema: false });
  addFormats(ajv);
  ajv.addFormat('binary', true);
  ajv.addSchema(doc as object, 'spec');
  const cache = new Map<string, ValidateFunction>();
  return (op: OperationDef): ValidateFunction => {
    const hit = cache.get(op.operationId);
    if (hit) return hit;
    const media = op.request.body?.kind === 'multipart' ? 'multipart/form-data' : 'application/json';
    const pointer = ['paths', op.path, op.method, 'requestBody', 'content', media, 'schema'].map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1'));
    const v = ajv.compile({ $ref: `spec#/${pointer.join('/')}` });
    cache.set(op.operationId, v);
    return v;
  };
}

/** Every case, sent to ajv and to a fresh in-process mock. */
export async function runCases(cases: RuleCase[]): Promise<Verdict[]> {
  const validatorOf = specValidators();
  const mock = createMock({ seed: 1, strict: true, rateLimit: false });
  const out: Verdict[] = [];
  for (const c of cases) {
    const op = operations[c.op] as OperationDef;
    mock.setAccount(KEY, { credits: 1_000_000_000, plan: 'paid' });
    const params = c.params ? await c.params(mock) : {};
    const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(params[name] ?? name));
    const validate = validatorOf(op);
    // a case that needs earlier state (a succeeded task to extend) makes it first
    const body = c.prepare ? { ...c.body, ...(await c.prepare(mock)) } : c.body;
    const { ajv, init } = encode(op, body);
    const ajvValid = validate(ajv);
    const res = await mock.fetch(path, {
      ...init,
      method: op.method.toUpperCase(),
      headers: { authorization: `Bearer ${KEY}`, ...(init.headers as Record<string, string> | undefined) },
    });
    // a binary success (speech audio) carries no envelope
    const json = (res.headers.get('content-type')?.includes('json') ? await res.json() : { code: 0, message: '' }) as { code: number; message: string };
    out.push({
      case: c,
      expectedCode: c.rule === null ? null : errorCatalog[ruleCode(op, c.rule)].code,
      ajvValid,
      ajvErrors: ajvValid ? '' : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.keyword} ${e.message}`).join('; '),
      mockStatus: res.status,
      mockCode: json.code,
      mockMessage: json.message,
    });
  }
  return out;
}

/** The error name of rule `id` of `op`: a body rule's, or an `x-rules:<i>` entry's. */
export function ruleCode(op: OperationDef, id: string) {
  // a field's own check: the field's error, else the operation's validation error
  const field = /^field:(\w+)$/.exec(id);
  if (field) return op.fieldErrors?.[field[1]] ?? op.validationError;
  const m = /^x-rules:(\d+)$/.exec(id);
  if (m) {
    const r = op.stateRules?.[Number(m[1])];
    if (!r) throw new Error(`${op.operationId} has no x-rules entry ${m[1]}`);
    return r.code;
  }
  const r = op.request.body ? rulesOf(op.request.body.schema).find((x) => x.id === id) : undefined;
  if (!r) throw new Error(`${op.operationId} has no rule ${id}`);
  return r.code;
}

/** The codes a body rule of `op` can answer: its rules', its x-rules' that read the body, its validation error and field errors. */
function bodyCodes(op: OperationDef): Set<number> {
  const names = [
    op.validationError,
    ...Object.values(op.fieldErrors ?? {}),
    ...(op.request.body ? rulesOf(op.request.body.schema).map((r) => r.code) : []),
    ...(op.stateRules ?? []).filter((r) => r.reads === 'body').map((r) => r.code),
  ];
  return new Set(names.map((n) => errorCatalog[n!].code));
}

/** The agreement figures of `verdicts`. */
export function agreement(verdicts: Verdict[]): Agreement {
  let mockRefused = 0;
  let ajvRefusedToo = 0;
  let ajvOnly = 0;
  for (const v of verdicts) {
    const op = operations[v.case.op] as OperationDef;
    const accepted = v.mockStatus >= 200 && v.mockStatus < 300;
    if (!accepted && v.mockStatus === 400 && bodyCodes(op).has(v.mockCode)) {
      mockRefused++;
      if (!v.ajvValid) ajvRefusedToo++;
    }
    if (accepted && !v.ajvValid) ajvOnly++;
  }
  return { mockRefused, ajvRefusedToo, ajvOnly, fraction: mockRefused ? ajvRefusedToo / mockRefused : 1 };
}

/** One line of the figures. */
export function describeAgreement(a: Agreement): string {
  return `spec agreement: the mock refused ${a.mockRefused} requests for a body rule; ajv over spec/openapi.json refused ${a.ajvRefusedToo} of them (${(a.fraction * 100).toFixed(1)}%); ajv refused ${a.ajvOnly} that the mock accepted`;
}
