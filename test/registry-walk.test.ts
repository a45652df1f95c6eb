/**
 * Walks the operation registry (schemas/operations.ts): for EVERY operation,
 * every declared HTTP status and every declared error code can actually be
 * produced (docs/architecture.md, "The registry": "every declared status and error code
 * can actually be produced, and a test walks the registry to prove it"),
 * by a request that produces it where one can (no key, a bad key, malformed
 * JSON, another content type, an oversized or invalid body, the rate limit
 * used up, an unknown id, an empty balance) and through `Prefer: error=` /
 * `Prefer: code=` and the query equivalents `__error` / `__code` only for the
 * rest; it prints how many of each, and a fixed minimum set must come from
 * requests. Each answer matches both the Zod schema and the emitted
 * spec/openapi.json. Also: handlers <-> registry, failure reasons,
 * Prefer validation, and the natural 401 and success answers.
 *
 * New operations are covered automatically; an operation whose minimal valid
 * request cannot be derived from its schema examples needs an entry in
 * `setups` below, and the walk fails loudly until it has one.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { envelope, errorEnvelope } from '../schemas/common.ts';
import { errorCatalog, errorNames, errorReason, type CatalogError, type ErrorName } from '../schemas/errors.ts';
import { operationIds, operations } from '../schemas/operations.ts';
import type { OperationDef } from '../schemas/registry-types.ts';
import { declaredStatuses, errorForStatus, MAX_DELAY_MS } from '../mock/core/forcing.ts';
import { composeServices } from '../mock/services/index.ts';
import { controlOperations } from '../schemas/control.ts';
import { inServiceDocument, isMockOnly } from '../scripts/spec.ts';
import { type CallResult, KEY, type TestMock, useMocks } from './helpers.ts';
import { anyPath, minimalRequest, withQuery } from './registry-walk-setups.ts';

const serviceDocument = JSON.parse(readFileSync(new URL('../spec/openapi.json', import.meta.url), 'utf8'));
// the mock's sign-in page (/oauth/authorize) is described by the control document (scripts/spec.ts, inServiceDocument)
const controlDocument = parse(readFileSync(new URL('../spec/mock-control.openapi.yaml', import.meta.url), 'utf8'));
/** The document that describes `op`. */
const docOf = (op: OperationDef) => (inServiceDocument(op) ? serviceDocument : controlDocument);
const ops = operationIds.map((id) => operations[id] as OperationDef);

const mock = useMocks();

/** `${operationId} ${error name}` of what a plain request produced (no Prefer, no __ query, no scenario rule), and of what only forcing did. */
const byRequest = new Set<string>();
const byForcing = new Set<string>();
/** expectError for an answer a plain request produced: recorded in `byRequest`, so the walk forces it no more. */
function expectProduced(res: CallResult, op: OperationDef, name: ErrorName) {
  expectError(res, op, name);
  byRequest.add(`${op.operationId} ${name}`);
}

function send(m: TestMock, op: OperationDef, path: string, opts: { prefer?: string; body?: unknown; key?: string | null } = {}): Promise<CallResult> {
  return m.call(op.method.toUpperCase(), path, {
    ...(opts.body !== undefined ? { body: opts.body } : {}),
    ...(opts.key !== undefined ? { key: opts.key } : {}),
    headers: opts.prefer ? { prefer: opts.prefer } : {},
  });
}

// ---------------------------------------------------------------------------
// Assertions
// ---------------------------------------------------------------------------

/** Names the operation declares with `status`. */
const namesWithStatus = (op: OperationDef, status: number) => op.errors.filter((n) => errorCatalog[n].httpStatus === status);

/** The spec's response object of (op, status). */
function specResponse(op: OperationDef, status: number) {
  return docOf(op).paths?.[op.path]?.[op.method]?.responses?.[String(status)];
}

/** Asserts `res` is the error envelope of `name` for `op`, per the Zod schema and the emitted spec. */
function expectError(res: CallResult, op: OperationDef, name: ErrorName) {
  const entry = errorCatalog[name];
  const where = `${op.operationId} ${name}: ${res.text}`;
  expect(res.status, where).toBe(entry.httpStatus);
  expect(res.json?.code, where).toBe(entry.code);
  expect(res.json?.data, where).toBeNull();
  expect(typeof res.json?.message, where).toBe('string');
  expect(res.json.message.length, where).toBeGreaterThan(0);
  if (entry.httpStatus === 429) {
    expect(res.headers.get('retry-after'), where).toMatch(/^[1-9]\d*$/);
  }
  // the Zod error envelope of this status (the same source the spec is emitted from)
  const schema = errorEnvelope(namesWithStatus(op, entry.httpStatus));
  expect(schema.safeParse(res.json).success, `${where} does not match errorEnvelope`).toBe(true);
  // the emitted spec
  const sr = specResponse(op, entry.httpStatus);
  // a mock-only code stays out of the service document (its status may have no response there at all)
  if (isMockOnly(name) && !sr?.content?.['application/json']) return;
  expect(sr, `${where}: spec/openapi.json has no ${entry.httpStatus} response`).toBeDefined();
  // every error response refers to the one shared envelope; its codes are the response's x-error-codes
  expect(sr.content['application/json'].schema, `${where}: shared error envelope`).toEqual({ $ref: '#/components/schemas/ErrorEnvelope' });
  const envelopeSchema = docOf(op).components.schemas.ErrorEnvelope;
  expect(new Set(envelopeSchema.required)).toEqual(new Set(['code', 'message', 'data']));
  if (isMockOnly(name)) expect(sr['x-error-codes'], `${where}: a mock-only code stays out of the service document`).not.toContain(entry.code);
  else expect(sr['x-error-codes'], `${where}: spec ${entry.httpStatus} x-error-codes`).toContain(entry.code);
  expect(Object.keys(res.json).sort()).toEqual(['code', 'data', 'message']);
  if (entry.httpStatus === 429) expect(sr.headers?.['Retry-After'], `${where}: spec declares Retry-After`).toBeDefined();
}

/** Asserts `res` is the declared success answer of `op`. */
function expectSuccess(res: CallResult, op: OperationDef) {
  const where = `${op.operationId}: ${res.text}`;
  expect(res.status, where).toBe(op.response.status);
  const r0 = op.response;
  if (r0.kind === 'binary') {
    // a binary answer: one of the declared Content-Types, a body, and the spec's success response lists that type
    const type = res.headers.get('content-type') ?? '';
    expect(r0.contentTypes, `${op.operationId}: Content-Type ${type}`).toContain(type);
    expect(res.text.length, `${op.operationId}: a binary answer has a body`).toBeGreaterThan(0);
    expect(Object.keys(specResponse(op, r0.status)?.content ?? {}), `${op.operationId}: spec content types`).toContain(type);
    return;
  }
  if (r0.kind === 'event-stream') {
    // a finished stream: text/event-stream, every event declared and valid against its schema, the spec lists the type
    expect(res.headers.get('content-type') ?? '', where).toMatch(/^text\/event-stream/);
    const events = res.text
      .split('\n\n')
      .map((frame) =>
        Object.fromEntries(
          frame.split('\n').flatMap((line) => (/^(event|data): /.test(line) ? [[line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]] : [])),
        ),
      )
      .filter((e) => e.event !== undefined);
    expect(events.length, `${op.operationId}: the stream carries events`).toBeGreaterThan(0);
    for (const e of events) {
      const schema = r0.events[e.event];
      expect(schema, `${op.operationId}: event ${e.event} is declared`).toBeDefined();
      expect(schema.safeParse(JSON.parse(e.data)).success, `${op.operationId}: event ${e.event} ${e.data}`).toBe(true);
    }
    expect(Object.keys(specResponse(op, r0.status)?.content ?? {}), `${op.operationId}: spec content types`).toContain('text/event-stream');
    return;
  }
  if (r0.kind === 'page') {
    // a web page (HTML, not cached), or a redirect with its Location; the spec says the same
    const sr = specResponse(op, r0.status);
    expect(sr, `${where}: spec has no ${r0.status} response`).toBeDefined();
    if (r0.status === 200) {
      expect(res.headers.get('content-type') ?? '', where).toMatch(/^text\/html/);
      expect(res.text, where).toMatch(/^<!doctype html>/);
      expect(Object.keys(sr.content ?? {}), `${op.operationId}: spec content types`).toContain('text/html');
    } else {
      expect(res.headers.get('location'), where).toMatch(/^[a-z]+:\/\//);
      expect(sr.headers?.Location, `${op.operationId}: spec declares Location`).toBeDefined();
    }
    expect(res.headers.get('cache-control'), where).toBe('no-store');
    return;
  }
  const schema = r0.kind === 'envelope' ? envelope(r0.schema) : r0.schema;
  const r = schema.safeParse(res.json);
  expect(r.success, `${where} does not match its declared schema: ${r.error?.message}`).toBe(true);
  expect(specResponse(op, op.response.status), `${where}: spec has no ${op.response.status} response`).toBeDefined();
}

// ---------------------------------------------------------------------------
// Registry <-> handlers, catalog
// ---------------------------------------------------------------------------

describe('registry', () => {
  it('has operations, each with a unique (method, path) and its own operationId', () => {
    expect(ops.length).toBeGreaterThan(0);
    const seen = new Set<string>();
    for (const id of operationIds) {
      const op = operations[id] as OperationDef;
      expect(op.operationId).toBe(id);
      const k = `${op.method} ${op.path}`;
      expect(seen.has(k), `duplicate route ${k}`).toBe(false);
      seen.add(k);
    }
  });

  it('every registry entry has a handler and every handler a registry entry', () => {
    const handlers = composeServices(undefined, { strict: true }).handlers;
    expect(Object.keys(handlers).sort()).toEqual([...operationIds, ...Object.keys(controlOperations)].sort());
    for (const id of operationIds) expect(typeof handlers[id].run, id).toBe('function');
  });

  it('every operation is in spec/openapi.json (the sign-in page in the control document) with every declared status', () => {
    expect(ops.filter((op) => !inServiceDocument(op)).map((op) => op.operationId)).toHaveLength(2);
    for (const op of ops) {
      expect(serviceDocument.paths?.[op.path]?.[op.method] === undefined, `${op.operationId}: in the service document`).toBe(!inServiceDocument(op));
      const o = docOf(op).paths?.[op.path]?.[op.method];
      expect(o, `${op.operationId} missing from its document`).toBeDefined();
      expect(o.operationId).toBe(op.operationId);
      expect(
        Object.keys(o.responses)
          .map(Number)
          .sort((a, b) => a - b),
      ).toEqual(
        [
          ...new Set([
            ...declaredStatuses({ ...op, errors: op.errors.filter((n) => !isMockOnly(n)) }),
            // the other statuses the documents allow for a code (10001 under 403 too): declared, never answered by the mock
            ...op.errors.flatMap((n) => (errorCatalog[n] as CatalogError).alsoHttpStatus ?? []),
            // a web page's other pages (an error page, the form again)
            ...(op.response.kind === 'page' ? Object.keys(op.response.pages ?? {}).map(Number) : []),
          ]),
        ].sort((a, b) => a - b),
      );
    }
  });

  it.each(ops.map((op) => [op.operationId, op] as const))('%s: errors, validation error and failure reasons are catalogued', (_id, op) => {
    for (const n of op.errors) expect(errorCatalog[n], n).toBeDefined();
    expect(new Set(op.errors).size, 'no duplicate errors').toBe(op.errors.length);
    expect(op.errors, 'the validation error is declared').toContain(op.validationError);
    for (const n of Object.values(op.fieldErrors ?? {})) expect(op.errors, `field error ${n} is declared`).toContain(n!);
    if (op.rateLimit) {
      expect(op.errors).toContain(op.rateLimit.error);
      expect(errorCatalog[op.rateLimit.error].httpStatus).toBe(429);
    }
    for (const n of op.failureReasons ?? []) {
      expect(errorCatalog[n], n).toBeDefined();
      expect((errorCatalog[n] as { failure?: boolean }).failure, `${n} is catalogued with failure: true`).toBe(true);
    }
    if (op.failureReasons?.length) expect(op.outcomes ?? [], 'failure reasons imply outcome=failed').toContain('failed');
    if (op.auth) expect(op.errors).toContain('UNAUTHORIZED');
    expect(op.errors).toContain('INVALID_PREFER');
  });
});

// ---------------------------------------------------------------------------
// The walk
// ---------------------------------------------------------------------------

describe.each(ops.map((op) => [op.operationId, op] as const))('%s', (_id, op) => {
  it(`Prefer: code=${op.response.status} (success) and __code with a minimal valid request`, async () => {
    const m = await mock();
    const req = await minimalRequest(m, op);
    expectSuccess(await send(m, op, req.path, { prefer: `code=${op.response.status}`, body: req.body }), op);
    const again = await minimalRequest(m, op);
    expectSuccess(await send(m, op, withQuery(again.path, { __code: String(op.response.status) }), { body: again.body }), op);
  });

  it('natural success with a minimal valid request (no forcing)', async () => {
    const m = await mock();
    const req = await minimalRequest(m, op);
    expectSuccess(await send(m, op, req.path, { body: req.body }), op);
  });

  it.skipIf(!op.auth)('natural 401 without a key', async () => {
    const m = await mock();
    const req = await minimalRequest(m, op);
    expectProduced(await send(m, op, req.path, { body: req.body, key: null }), op, 'UNAUTHORIZED');
    expectProduced(await send(m, op, req.path, { body: req.body, key: 'mg_bad' }), op, 'UNAUTHORIZED');
  });

  it.skipIf(!op.rateLimit)('natural 429 with Retry-After once the rate limit is used up', async () => {
    const m = await mock();
    const rl = op.rateLimit!;
    for (let i = 0; i < rl.limit; i++) {
      const req = await minimalRequest(m, op);
      expectSuccess(await send(m, op, req.path, { body: req.body }), op);
    }
    const req = await minimalRequest(m, op);
    const res = await send(m, op, req.path, { body: req.body });
    expectProduced(res, op, rl.error);
    expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(Math.ceil(rl.windowMs / 1000));
    await m.advance(rl.windowMs);
    const after = await minimalRequest(m, op);
    expectSuccess(await send(m, op, after.path, { body: after.body }), op);
  });

  it.skipIf(op.request.body?.kind !== 'json')('natural 400 malformed JSON, 415 wrong content type, 413 oversized, 400 validation', async () => {
    const m = await mock();
    const path = (await minimalRequest(m, op)).path;
    const M = op.method.toUpperCase();
    expectProduced(await m.call(M, path, { raw: '{"model": ', headers: { 'content-type': 'application/json' } }), op, 'MALFORMED_JSON');
    expectProduced(await m.call(M, path, { raw: 'model=x', headers: { 'content-type': 'text/plain' } }), op, 'UNSUPPORTED_MEDIA_TYPE');
    const limit = (op.request.body?.kind === 'json' && op.request.body.limitBytes) || 1024 * 1024;
    expectProduced(
      await m.call(M, path, { raw: JSON.stringify({ pad: 'x'.repeat(limit) }), headers: { 'content-type': 'application/json' } }),
      op,
      'PAYLOAD_TOO_LARGE',
    );
    // the first of a few bodies the schema rejects (a body of only optional fields accepts an unknown key)
    const bad = [{ definitelyNotAField: true }, [], 42, 'text'].find((b) => !op.request.body!.schema.safeParse(b).success);
    expect(bad, 'some JSON value is not a valid body').toBeDefined();
    const invalid = await m.call(M, path, { body: bad });
    expect(invalid.status, invalid.text).toBe(400);
    const name = errorNames.find((n) => errorCatalog[n].code === invalid.json?.code);
    expect(name && op.errors.includes(name), `validation code ${invalid.json?.code} is declared by ${op.operationId}`).toBe(true);
    expectProduced(invalid, op, name!);
  });

  // a read by id with no required query: the id alone decides
  const byIdOnly = op.method === 'get' && op.request.params && (!op.request.query || op.request.query.safeParse({}).success);
  const notFound = byIdOnly ? op.errors.filter((n) => n.endsWith('NOT_FOUND') && n !== 'ROUTE_NOT_FOUND') : [];
  it.skipIf(notFound.length !== 1)('natural not-found: an id nothing was created with', async () => {
    const m = await mock();
    expectProduced(await send(m, op, anyPath(op)), op, notFound[0]);
  });

  const short = op.errors.filter((n) => n.endsWith('INSUFFICIENT_CREDITS'));
  it.skipIf(short.length !== 1)('natural insufficient credits: a valid request from a key with no credits', async () => {
    const m = await mock();
    const req = await minimalRequest(m, op);
    const emptied = await m.call('PUT', `/__mock/accounts/${KEY}`, { key: null, body: { credits: 0 } });
    expect(emptied.status, emptied.text).toBe(200);
    expectProduced(await send(m, op, req.path, { body: req.body }), op, short[0]);
  });

  // Forcing, for what no plain request above produced (these run after them: vitest runs a file's tests in order)
  const errorCases = op.errors.map((n) => [n, errorCatalog[n].code] as const);

  it.each(errorCases)('Prefer: error=%s (%i) and __error produce it (unless a request did)', async (name, code) => {
    if (byRequest.has(`${op.operationId} ${name}`)) return;
    byForcing.add(`${op.operationId} ${name}`);
    const m = await mock();
    const path = anyPath(op);
    expectError(await send(m, op, path, { prefer: `error=${code}` }), op, name);
    expectError(await send(m, op, withQuery(path, { __error: name })), op, name);
    // a failure reason a task reports as a string (free_relax_busy) names its error too
    const reason = errorReason(name);
    if (reason) expectError(await send(m, op, path, { prefer: `error=${reason}` }), op, name);
  });

  const errorStatuses = declaredStatuses(op).filter((s) => s !== op.response.status);
  it.each(errorStatuses)('Prefer: code=%i and __code produce it (unless a request produced its error)', async (status) => {
    const name = errorForStatus(op, status);
    expect(name, `no declared error has status ${status}`).toBeDefined();
    if (byRequest.has(`${op.operationId} ${name}`)) return;
    const m = await mock();
    const path = anyPath(op);
    expectError(await send(m, op, path, { prefer: `code=${status}` }), op, name!);
    expectError(await send(m, op, withQuery(path, { __code: String(status) })), op, name!);
  });

  const outcomeCases = (op.outcomes ?? []).flatMap((o) => [
    [o, '(default reason)'] as const,
    ...(o === 'failed' ? (op.failureReasons ?? []).map((n) => [o, n] as const) : []),
  ]);
  it.skipIf(outcomeCases.length === 0).each(outcomeCases)('Prefer: outcome=%s, error=%s is accepted (task created)', async (outcome, r) => {
    const reason = r === '(default reason)' ? undefined : r;
    const m = await mock();
    const req = await minimalRequest(m, op);
    const prefer = reason ? `outcome=${outcome}, error=${errorCatalog[reason].code}` : `outcome=${outcome}`;
    expectSuccess(await send(m, op, req.path, { prefer, body: req.body }), op);
    const q: Record<string, string> = { __outcome: outcome, ...(reason ? { __error: reason } : {}) };
    const again = await minimalRequest(m, op);
    expectSuccess(await send(m, op, withQuery(again.path, q), { body: again.body }), op);
    if (reason && errorReason(reason)) {
      const byReason = await minimalRequest(m, op);
      expectSuccess(await send(m, op, byReason.path, { prefer: `outcome=${outcome}, error=${errorReason(reason)}`, body: byReason.body }), op);
    }
  });

  it.skipIf(!op.outcomes?.includes('failed')).each([['an error that is not a failure reason']])('Prefer: outcome=failed with %s -> 10007', async () => {
    const m = await mock();
    const notReason = op.errors.find((n) => !(op.failureReasons ?? []).includes(n))!;
    const res = await send(m, op, anyPath(op), { prefer: `outcome=failed, error=${errorCatalog[notReason].code}` });
    expectError(res, op, 'INVALID_PREFER');
    for (const n of op.failureReasons ?? []) expect(res.json.message).toContain(String(errorCatalog[n].code));
  });

  describe('Prefer validation', () => {
    it('an error code the operation does not declare -> 10007 naming what is declared', async () => {
      const m = await mock();
      const undeclared = errorNames.find((n) => !op.errors.includes(n))!;
      for (const ref of [String(errorCatalog[undeclared].code), undeclared, '99999', 'NOT_A_NAME']) {
        for (const res of [await send(m, op, anyPath(op), { prefer: `error=${ref}` }), await send(m, op, withQuery(anyPath(op), { __error: ref }))]) {
          expectError(res, op, 'INVALID_PREFER');
          expect(res.json.message).toContain(ref);
          for (const n of op.errors) {
            expect(res.json.message, 'names every declared code').toContain(String(errorCatalog[n].code));
            expect(res.json.message, 'and its name').toContain(n);
            if (errorReason(n)) expect(res.json.message, 'and its failure reason').toContain(errorReason(n));
          }
        }
      }
    });

    it('code=<undeclared status> -> 10007 naming the declared statuses', async () => {
      const m = await mock();
      const undeclared = [402, 403, 404, 405, 413, 415, 418, 429, 500, 201, 204].filter((s) => !declaredStatuses(op).includes(s));
      for (const s of [...undeclared, 'abc', '20']) {
        for (const res of [await send(m, op, anyPath(op), { prefer: `code=${s}` }), await send(m, op, withQuery(anyPath(op), { __code: String(s) }))]) {
          expectError(res, op, 'INVALID_PREFER');
          for (const d of declaredStatuses(op)) expect(res.json.message).toContain(String(d));
        }
      }
    });

    it('an outcome the operation does not accept -> 10007', async () => {
      const m = await mock();
      const bad = ['failed', 'stuck', 'partial', 'weird'].filter((o) => !(op.outcomes ?? ([] as readonly string[])).includes(o));
      for (const o of bad) {
        expectError(await send(m, op, anyPath(op), { prefer: `outcome=${o}` }), op, 'INVALID_PREFER');
        expectError(await send(m, op, withQuery(anyPath(op), { __outcome: o })), op, 'INVALID_PREFER');
      }
    });

    it('delay out of range or not whole ms -> 10007', async () => {
      const m = await mock();
      for (const d of [String(MAX_DELAY_MS + 1), '-5', '1.5', 'abc', '']) {
        expectError(await send(m, op, anyPath(op), { prefer: `delay=${d}` }), op, 'INVALID_PREFER');
        expectError(await send(m, op, withQuery(anyPath(op), { __delay: d })), op, 'INVALID_PREFER');
      }
    });

    it('several directives separated by commas; Prism-style unknown keys are ignored', async () => {
      const m = await mock();
      const last = op.errors.at(-1)!;
      expectError(await send(m, op, anyPath(op), { prefer: `example=foo, delay=0, dynamic=true, error=${errorCatalog[last].code}` }), op, last);
      // an invalid directive among valid ones is still refused
      expectError(await send(m, op, anyPath(op), { prefer: `error=${errorCatalog[last].code}, delay=999999` }), op, 'INVALID_PREFER');
      // header and query combine
      expectError(await send(m, op, withQuery(anyPath(op), { __error: String(errorCatalog[last].code) }), { prefer: 'delay=0' }), op, last);
      const req = await minimalRequest(m, op);
      expectSuccess(await send(m, op, req.path, { prefer: 'example=default, dynamic=true', body: req.body }), op);
    });
  });
});

describe('Prefer: delay', () => {
  it.each([
    ['header', (p: string) => ({ path: p, prefer: 'delay=150' })],
    ['query', (p: string) => ({ path: withQuery(p, { __delay: '150' }), prefer: undefined })],
  ])('delay=150 (%s) delays the answer by at least 150 ms', async (_how, shape) => {
    const m = await mock();
    const op = operations.getSubscription as OperationDef;
    const { path, prefer } = shape(op.path);
    const t0 = performance.now();
    const res = await send(m, op, path, { prefer });
    expectSuccess(res, op);
    // a lower bound only: a loaded machine makes it longer, never shorter (and a delay read as seconds, 150 s, would
    // pass the test's own time limit)
    expect(performance.now() - t0).toBeGreaterThanOrEqual(140);
  });

  it('delay applies before a forced error too', async () => {
    const m = await mock();
    const op = operations.getSubscription as OperationDef;
    const t0 = performance.now();
    expectError(await send(m, op, op.path, { prefer: 'delay=150, code=401' }), op, 'UNAUTHORIZED');
    expect(performance.now() - t0).toBeGreaterThanOrEqual(140);
  });
});

describe('which codes requests produce and which only forcing does', () => {
  // a fixed minimum, chosen by hand: what a plain request must produce, by the kind of operation
  const minimum = ops.flatMap((op) => [
    ...(op.auth ? [`${op.operationId} UNAUTHORIZED`] : []),
    ...(op.rateLimit ? [`${op.operationId} ${op.rateLimit.error}`] : []),
    ...(op.request.body?.kind === 'json'
      ? ['MALFORMED_JSON', 'UNSUPPORTED_MEDIA_TYPE', 'PAYLOAD_TOO_LARGE', op.validationError].map((n) => `${op.operationId} ${n}`)
      : []),
  ]);

  it('a fixed minimum set of codes is produced by requests, not forcing', () => {
    expect(minimum.length).toBeGreaterThan(100);
    expect(minimum.filter((c) => !byRequest.has(c))).toEqual([]);
    // and the walk's own natural drivers: an unknown id, an empty balance (a few operations named by hand)
    for (const c of ['getVideoTask VIDEO_TASK_NOT_FOUND', 'getImageTask IMAGE_TASK_NOT_FOUND', 'createImageTask IMAGE_INSUFFICIENT_CREDITS'])
      expect(byRequest, c).toContain(c);
  });

  it('prints the count of each', () => {
    const declared = ops.reduce((n, op) => n + op.errors.length, 0);
    console.log(`[registry walk] ${declared} declared (operation, code) pairs: ${byRequest.size} produced by requests, ${byForcing.size} by forcing only`);
    expect(byRequest.size + byForcing.size).toBe(declared);
  });
});
