/**
 * The generic HTTP machinery (docs/architecture.md, "The request path",
 * "Errors"): bearer auth, body reading, unknown routes and methods, CORS,
 * validation messages, `__` query parameters, strict response validation.
 * Every answer is the error envelope with a catalogued code: never a 500 page,
 * never a stack trace.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { errorCatalog, type ErrorName } from '../schemas/errors.ts';
import { operations } from '../schemas/operations.ts';
import { ApiError } from '../mock/engine/api-error.ts';
import { createMockServer, type MockOptions } from '../mock/http/app.ts';
import { DEFAULT_BODY_LIMIT } from '../mock/http/dispatcher.ts';
import { defaultServices } from '../mock/services/index.ts';
import { pathOf, videoBody } from './factories.ts';
import { KEY, sendRequest, startMock, type CallResult, type TestMock } from './helpers.ts';

let mocks: TestMock[] = [];
async function mock(opts?: MockOptions): Promise<TestMock> {
  const m = await startMock(opts);
  mocks.push(m);
  return m;
}
afterEach(async () => {
  await Promise.all(mocks.map((m) => m.close()));
  mocks = [];
});

/** An error envelope with the catalogued code and status, JSON, no stack trace. */
function expectEnvelope(res: CallResult, name: ErrorName) {
  const where = `${name}: ${res.status} ${res.text}`;
  expect(res.status, where).toBe(errorCatalog[name].httpStatus);
  expect(res.headers.get('content-type') ?? '', where).toMatch(/^application\/json/);
  expect(res.json, where).toEqual({ code: errorCatalog[name].code, message: expect.any(String), data: null });
  expect(res.json.message.length, where).toBeGreaterThan(0);
  expectNoStack(res);
}

function expectNoStack(res: CallResult) {
  expect(res.status, res.text).not.toBe(500);
  expect(res.text, 'no stack frame').not.toMatch(/\bat\s+\S*\s*\(?\S+:\d+:\d+\)?/);
  expect(res.text, 'no "Error:" trace').not.toMatch(/\b\w*Error:/);
  expect(res.text.toLowerCase(), 'no HTML error page').not.toContain('<html');
}

describe('bearer auth', () => {
  const cases: [string, Record<string, string> | null][] = [
    ['no Authorization header', null],
    ['empty header', { authorization: '' }],
    ['not Bearer', { authorization: `Basic ${KEY}` }],
    ['Token scheme', { authorization: `Token ${KEY}` }],
    ['Bearer without a key', { authorization: 'Bearer' }],
    ['Bearer and spaces', { authorization: 'Bearer    ' }],
    ['two keys', { authorization: `Bearer ${KEY} ${KEY}` }],
    ['key with only two parts', { authorization: 'Bearer mg_test' }],
    ['key with four parts', { authorization: 'Bearer mg_test_secret_more' }],
    ['empty keyId', { authorization: 'Bearer mg__secret1' }],
    ['empty secret', { authorization: 'Bearer mg_test_' }],
    ['keyId with a dash', { authorization: 'Bearer mg_te-st_secret1' }],
    ['secret with punctuation', { authorization: 'Bearer mg_test_secr.t1' }],
    ['non-ASCII letters', { authorization: 'Bearer mg_tést_secret1' }],
    ['wrong prefix', { authorization: 'Bearer sk_test_secret1' }],
    ['prefix in another case', { authorization: 'Bearer MG_test_secret1' }],
    ['no prefix', { authorization: 'Bearer test_secret1' }],
  ];
  it.each(cases)('%s -> 401 code 10001', async (_name, headers) => {
    const m = await mock();
    // fetch only sends ByteString header values: send the UTF-8 bytes of a non-ASCII key as latin1
    if (headers && /[^\x20-\x7e]/.test(headers.authorization)) {
      const res = await m.call('GET', pathOf('getSubscription'), {
        key: null,
        headers: { authorization: Buffer.from(headers.authorization, 'utf8').toString('latin1') },
      });
      return expectEnvelope(res, 'UNAUTHORIZED');
    }
    expectEnvelope(await m.call('GET', pathOf('getSubscription'), { key: null, headers: headers ?? {} }), 'UNAUTHORIZED');
    expectEnvelope(await m.call('POST', pathOf('createVideoTask'), { key: null, headers: headers ?? {}, body: videoBody() }), 'UNAUTHORIZED');
  });

  it('a well-formed key is accepted; the scheme is case-insensitive', async () => {
    const m = await mock();
    expect((await m.call('GET', pathOf('getSubscription'))).status).toBe(200);
    expect((await m.call('GET', pathOf('getSubscription'), { key: null, headers: { authorization: `bearer ${KEY}` } })).status).toBe(200);
    expect((await m.call('GET', pathOf('getSubscription'), { key: 'mg_A1b2_Z9' })).status).toBe(200);
    expect(m.bugs).toEqual([]);
  });

  it('auth comes before validation: a bad body without a key is 401, not 400', async () => {
    const m = await mock();
    expectEnvelope(
      await m.call('POST', pathOf('createVideoTask'), { key: null, raw: '{bad', headers: { 'content-type': 'application/json' } }),
      'UNAUTHORIZED',
    );
  });

  it('a custom prefix via createMockServer({keyPrefix}) works, and the default prefix is then refused', async () => {
    const m = await mock({ keyPrefix: 'acme' });
    const ok = await m.call('GET', pathOf('getSubscription'), { key: 'acme_team1_s3cret' });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json.code).toBe(0);
    expectEnvelope(await m.call('GET', pathOf('getSubscription'), { key: KEY }), 'UNAUTHORIZED');
    const msg = (await m.call('GET', pathOf('getSubscription'), { key: 'mg_x_y' })).json.message as string;
    expect(msg).toContain('acme_');
    expect(m.bugs).toEqual([]);
  });

  it('different keys are different accounts', async () => {
    const m = await mock();
    await m.call('PUT', '/__mock/accounts/mg_a_1', { key: null, body: { credits: 7 } });
    expect((await m.call('GET', pathOf('getSubscription'), { key: 'mg_a_1' })).json.data.balance).toBe(7);
    expect((await m.call('GET', pathOf('getSubscription'), { key: 'mg_b_1' })).json.data.balance).toBe(10_000);
  });
});

describe('request bodies', () => {
  const json = { 'content-type': 'application/json' };
  it.each([
    ['truncated JSON', '{"model": "family1-video-2-fast",', json],
    ['not JSON at all', 'hello', json],
    ['single quotes', "{'a': 1}", json],
    ['trailing comma', '{"a": 1,}', json],
    ['+json media type', '{', { 'content-type': 'application/merge-patch+json' }],
  ] as const)('%s -> 400 code 10002', async (_name, raw, headers) => {
    const m = await mock();
    expectEnvelope(await m.call('POST', pathOf('createVideoTask'), { raw, headers }), 'MALFORMED_JSON');
  });

  it.each([
    ['text/plain', 'text/plain'],
    ['form', 'application/x-www-form-urlencoded'],
    ['multipart', 'multipart/form-data; boundary=x'],
    ['xml', 'application/xml'],
  ])('Content-Type %s -> 415 code 10003', async (_name, ct) => {
    const m = await mock();
    expectEnvelope(
      await m.call('POST', pathOf('createVideoTask'), { raw: JSON.stringify(videoBody()), headers: { 'content-type': ct } }),
      'UNSUPPORTED_MEDIA_TYPE',
    );
  });

  it('a JSON body with charset is accepted', async () => {
    const m = await mock();
    const res = await m.call('POST', pathOf('createVideoTask'), {
      raw: JSON.stringify(videoBody()),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(res.status, res.text).toBe(200);
    expect(m.bugs).toEqual([]);
  });

  it('a body over 1 MiB -> 413 code 10006; just under is read (and validated)', async () => {
    const m = await mock();
    expect(DEFAULT_BODY_LIMIT).toBe(1024 * 1024);
    const over = JSON.stringify(videoBody({ pad: 'x'.repeat(DEFAULT_BODY_LIMIT) }));
    expectEnvelope(await m.call('POST', pathOf('createVideoTask'), { raw: over, headers: json }), 'PAYLOAD_TOO_LARGE');
    const under = JSON.stringify(videoBody({ pad: 'x'.repeat(DEFAULT_BODY_LIMIT - 1000) }));
    expect(Buffer.byteLength(under)).toBeLessThan(DEFAULT_BODY_LIMIT);
    const res = await m.call('POST', pathOf('createVideoTask'), { raw: under, headers: json });
    // read and parsed: the schema strips the unknown `pad` (z.object), so the task is created
    expect(res.status, res.text).toBe(200);
    expect(res.json.code).toBe(0);
    expect(m.bugs).toEqual([]);
  });

  it('a missing body on an operation that needs one is a validation error, not a crash', async () => {
    const m = await mock();
    const res = await m.call('POST', pathOf('createVideoTask'), { headers: json });
    expectEnvelope(res, operations.createVideoTask.validationError);
  });

  it('JSON that is not an object (null, array, number, string) -> the validation error', async () => {
    const m = await mock();
    for (const raw of ['null', '[]', '42', '"x"', 'true']) {
      const res = await m.call('POST', pathOf('createVideoTask'), { raw, headers: json });
      expect(res.status, raw).toBe(400);
      expect([errorCatalog.VIDEO_INVALID_PARAMETERS.code, errorCatalog.VIDEO_UNSUPPORTED_COMBINATION.code]).toContain(res.json.code);
      expectNoStack(res);
    }
    expect(m.bugs).toEqual([]);
  });
});

describe('routes and methods', () => {
  it.each([
    ['GET', '/'],
    ['GET', '/nope'],
    ['POST', '/v1/video-generation/unknown'],
    ['GET', '/v1/video-generation/tasks/abc/extra'],
    ['DELETE', '/v2/user/subscription'],
    ['GET', '/__mock/nope'],
  ])('%s %s -> 404 code 10004', async (method, path) => {
    const m = await mock();
    expectEnvelope(await m.call(method, path), 'ROUTE_NOT_FOUND');
    expectEnvelope(await m.call(method, path, { key: null }), 'ROUTE_NOT_FOUND');
  });

  it.each([
    ['DELETE', pathOf('getSubscription'), 'GET'],
    ['POST', pathOf('getSubscription'), 'GET'],
    ['PUT', pathOf('listVideoTasks'), 'GET'],
    ['PATCH', pathOf('listVideoTasks'), 'GET'],
    ['GET', pathOf('createVideoTask'), 'POST'],
    ['PUT', pathOf('getVideoTask', { taskId: 'vt_0000000000000000' }), 'GET, DELETE'],
    ['GET', pathOf('shareVideoTask', { taskId: 'vt_0000000000000000' }), 'POST'],
    // Express routes case-insensitively (GET /V1/USER/SUBSCRIPTION is served), so 405 must match the same way
    ['DELETE', '/V1/User/Subscription', 'GET'],
    ['DELETE', `${pathOf('getSubscription')}/`, 'GET'],
  ])('%s %s -> 405 code 10005 with Allow: %s', async (method, path, allow) => {
    const m = await mock();
    const res = await m.call(method, path);
    expectEnvelope(res, 'METHOD_NOT_ALLOWED');
    expect(res.headers.get('allow')).toBe(allow);
  });
});

describe('hostile transport input is never a 500 (regressions)', () => {
  it.each([
    ['an API path parameter', '/v1/video-generation/tasks/%E0%A4%A'],
    ['a control path parameter', '/__mock/accounts/%E0%A4%A'],
    ['an unknown path', '/nope/%E0%A4%A'],
  ])('bad percent-encoding in %s -> 404 code 10004, not a reported mock bug', async (_n, path) => {
    const m = await mock();
    expectEnvelope(await m.call('GET', path), 'ROUTE_NOT_FOUND');
    expect(m.bugs).toEqual([]);
  });

  it.each([
    ['gzip', 'gzip'],
    ['deflate', 'deflate'],
    ['an unsupported encoding', 'compress'],
  ])('a body with a corrupt or unsupported Content-Encoding (%s) -> 400 code 10002', async (_n, enc) => {
    const m = await mock();
    const res = await m.call('POST', pathOf('createVideoTask'), {
      raw: 'not compressed',
      headers: { 'content-type': 'application/json', 'content-encoding': enc },
    });
    expectEnvelope(res, 'MALFORMED_JSON');
    expect(m.bugs).toEqual([]);
  });

  it('HEAD on a POST-only path -> 405 with Allow', async () => {
    const m = await mock();
    const res = await m.call('HEAD', pathOf('createVideoTask'));
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });
});

describe('CORS', () => {
  const origin = 'http://localhost:5173';

  it('a simple request from another Origin gets Access-Control-Allow-Origin and exposes Retry-After', async () => {
    const m = await mock();
    const res = await m.call('GET', pathOf('getSubscription'), { headers: { origin } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    expect((res.headers.get('access-control-expose-headers') ?? '').toLowerCase()).toContain('retry-after');
    // error answers carry CORS headers too, or a browser could not read them
    const err = await m.call('GET', pathOf('getSubscription'), { key: null, headers: { origin } });
    expect(err.status).toBe(401);
    expect(err.headers.get('access-control-allow-origin')).toBe(origin);
    const limited = await m.call('POST', pathOf('createVideoTask'), { headers: { origin, prefer: 'code=429' } });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('access-control-allow-origin')).toBe(origin);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((limited.headers.get('access-control-expose-headers') ?? '').toLowerCase()).toContain('retry-after');
  });

  it.each([
    ['POST', pathOf('createVideoTask')],
    ['GET', pathOf('getSubscription')],
    ['DELETE', '/__mock/scenarios'],
  ])('preflight OPTIONS for %s %s -> 204 allowing authorization, content-type, prefer', async (method, path) => {
    const m = await mock();
    const res = await fetch(m.base + path, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization, content-type, prefer' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    const allowed = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/\s*,\s*/);
    for (const h of ['authorization', 'content-type', 'prefer']) expect(allowed).toContain(h);
    expect((res.headers.get('access-control-allow-methods') ?? '').split(/\s*,\s*/)).toContain(method);
  });
});

describe('CORS as browsers need it', () => {
  const origin = 'http://app.example.test:5173';
  const extra = 'authorization, content-type, prefer, traceparent, sentry-trace, baggage, x-request-id, idempotency-key, x-mock-session';

  it.each([
    ['POST', pathOf('createVideoTask')],
    ['GET', pathOf('getVideoTask', { taskId: 'vt_x' })],
    ['GET', '/media/videos/vt_x.mp4'],
  ])('preflight for %s %s reflects every requested header and allows credentials for the origin (never *)', async (method, path) => {
    const m = await mock();
    const res = await fetch(m.base + path, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': extra },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    const allowed = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/\s*,\s*/);
    for (const h of extra.split(/\s*,\s*/)) expect(allowed).toContain(h);
    expect(res.headers.get('vary') ?? '').toMatch(/origin/i);
  });

  it('answers carry credentials and expose the headers a client reads', async () => {
    const m = await mock();
    const res = await m.call('POST', pathOf('createVideoTask'), { headers: { origin, prefer: 'code=429' } });
    expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    const exposed = (res.headers.get('access-control-expose-headers') ?? '').toLowerCase().split(/\s*,\s*/);
    for (const h of ['retry-after', 'content-length', 'content-range', 'etag', 'accept-ranges', 'allow']) expect(exposed).toContain(h);
  });
});

describe('validation errors name the field, with the operation catalog code', () => {
  const cases: [string, string, string, unknown, ErrorName, string[]][] = [
    ['duration out of range', 'POST', pathOf('createVideoTask'), videoBody({ duration: 3 }), 'VIDEO_UNSUPPORTED_COMBINATION', ['duration']],
    ['unknown resolution', 'POST', pathOf('createVideoTask'), videoBody({ resolution: '4k' }), 'VIDEO_UNSUPPORTED_COMBINATION', ['resolution']],
    ['unknown model', 'POST', pathOf('createVideoTask'), videoBody({ model: 'nope' }), 'VIDEO_UNSUPPORTED_COMBINATION', ['model']],
    [
      'nested content field',
      'POST',
      pathOf('createVideoTask'),
      videoBody({ content: [{ type: 'text', text: 5 }] }),
      'VIDEO_INVALID_PARAMETERS',
      ['content[0]'],
    ],
    ['missing required field', 'POST', pathOf('createVideoTask'), videoBody({ content: undefined }), 'VIDEO_INVALID_PARAMETERS', ['content']],
    [
      'estimate duration out of range',
      'POST',
      pathOf('estimateVideoCredits'),
      { model: 'family1-video-2-pro', resolution: '1080p', duration: 100 },
      'VIDEO_UNSUPPORTED_COMBINATION',
      ['duration'],
    ],
    ['family5 capability', 'POST', pathOf('createFamily5VideoTask'), { capability: 'teleport', prompt: 'x' }, 'F5_INVALID_PARAMETERS', ['capability']],
    ['list pageSize', 'GET', pathOf('listVideoTasks', {}, { pageSize: 0 }), undefined, 'VIDEO_INVALID_PARAMETERS', ['pageSize']],
    ['list page', 'GET', pathOf('listVideoTasks', {}, { page: 'abc' }), undefined, 'VIDEO_INVALID_PARAMETERS', ['page']],
    ['list status', 'GET', pathOf('listVideoTasks', {}, { status: 'done' }), undefined, 'VIDEO_INVALID_PARAMETERS', ['status']],
  ];
  it.each(cases)('%s', async (_name, method, path, body, name, fields) => {
    const m = await mock();
    const res = await m.call(method, path, body === undefined ? {} : { body });
    expectEnvelope(res, name);
    for (const f of fields) expect(res.json.message).toContain(f);
    expect(m.bugs).toEqual([]);
  });
});

describe('query parameters starting with __', () => {
  it('are not rejected as unknown', async () => {
    const m = await mock();
    for (const path of [
      pathOf('listVideoTasks', {}, { __foo: 1, __trace: 'abc' }),
      pathOf('getSubscription', {}, { __anything: 'x' }),
      pathOf('listVideoTasks', {}, { page: 1, __x: '', pageSize: 5 }),
    ]) {
      const res = await m.call('GET', path);
      expect(res.status, `${path}: ${res.text}`).toBe(200);
      expect(res.json.code).toBe(0);
    }
    const created = await m.call('POST', pathOf('createVideoTask', {}, { __note: 'hello' }), { body: videoBody() });
    expect(created.status, created.text).toBe(200);
    expect(m.bugs).toEqual([]);
  });
});

describe('mounted in another Express app', () => {
  it('parent.use("/mock", mock.app): the mock answers under the prefix (operations, the 404 envelope, a bad body), the parent keeps its own routes', async () => {
    const { app } = createMockServer({ clock: 'manual', seed: 1 });
    const parent = express();
    parent.get('/health', (_req, res) => void res.json({ parent: true }));
    parent.use('/mock', app);
    const server = await new Promise<Server>((resolve) => {
      const s = parent.listen(0, '127.0.0.1', () => resolve(s));
    });
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const sub = await sendRequest(base, 'GET', `/mock${pathOf('getSubscription')}`, {});
      expect(sub.status).toBe(200);
      expect(sub.json).toMatchObject({ code: 0, data: { plan: expect.any(String) } });
      const created = await sendRequest(base, 'POST', `/mock${pathOf('createVideoTask')}`, { body: videoBody() });
      expect(created.json).toMatchObject({ code: 0, data: { taskId: expect.stringMatching(/^vt_/) } });
      const malformed = await sendRequest(base, 'POST', `/mock${pathOf('createVideoTask')}`, {
        headers: { 'content-type': 'application/json' },
        raw: '{"model":',
      });
      expectEnvelope(malformed, 'MALFORMED_JSON');
      expectEnvelope(await sendRequest(base, 'GET', '/mock/v1/nothing-here', {}), 'ROUTE_NOT_FOUND');
      expect((await sendRequest(base, 'GET', '/health', { key: null })).json).toEqual({ parent: true });
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe('strict mode', () => {
  /** Starts a mock whose services are the default ones with the account service's handler of `id` replaced by `fake` (composed, not patched). */
  async function withPatchedHandler(
    id: 'getSubscription',
    fake: (...a: unknown[]) => unknown,
    opts: MockOptions,
  ): Promise<{ base: string; bugs: string[]; close: () => Promise<void> }> {
    const bugs: string[] = [];
    const faulty = { handlers: { [id]: fake } };
    const services = [...defaultServices.filter((s) => !(id in s.handlers)), faulty];
    const { app } = createMockServer({ clock: 'manual', seed: 1, onMockBug: (op, p) => bugs.push(`${op}: ${p}`), services, ...opts });
    const server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    return {
      base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      bugs,
      close: () =>
        new Promise<void>((r) => {
          server.closeAllConnections();
          server.close(() => r());
        }),
    };
  }
  const get = async (base: string) => {
    const res = await fetch(base + pathOf('getSubscription'), { headers: { authorization: `Bearer ${KEY}` } });
    const text = await res.text();
    return { status: res.status, text, json: JSON.parse(text) };
  };
  const broken = () => ({ balance: -5, freeUsages: {}, plan: 'platinum', extra: true });

  it('strict on: a handler output that does not match its schema is a 500 code 10500 and is reported', async () => {
    const m = await withPatchedHandler('getSubscription', broken, { strict: true });
    try {
      const res = await get(m.base);
      expect(res.status).toBe(500);
      expect(res.json).toEqual({ code: errorCatalog.MOCK_INTERNAL_ERROR.code, message: expect.any(String), data: null });
      expect(res.json.message).toContain('getSubscription');
      expect(m.bugs).toHaveLength(1);
      expect(m.bugs[0]).toMatch(/^getSubscription: /);
      for (const f of ['balance', 'plan']) expect(m.bugs[0]).toContain(f);
    } finally {
      await m.close();
    }
  });

  it('strict off: the same output is sent as is (no validation, no report)', async () => {
    const m = await withPatchedHandler('getSubscription', broken, { strict: false });
    try {
      const res = await get(m.base);
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ code: 0, message: '', data: broken() });
      expect(m.bugs).toEqual([]);
    } finally {
      await m.close();
    }
  });

  it.each([true, false])('strict %s: a handler that throws a plain Error is a 500 code 10500 without a stack trace, and is reported', async (strict) => {
    const m = await withPatchedHandler(
      'getSubscription',
      () => {
        throw new TypeError('boom in handler');
      },
      { strict },
    );
    try {
      const res = await get(m.base);
      expect(res.status).toBe(500);
      expect(res.json.code).toBe(errorCatalog.MOCK_INTERNAL_ERROR.code);
      expect(res.text).not.toMatch(/\bat\s+\S+:\d+:\d+/);
      expect(m.bugs).toHaveLength(1);
      expect(m.bugs[0]).toMatch(/^getSubscription: (TypeError: )?boom in handler/);
      // the process and the other routes still work
      const list = await fetch(m.base + pathOf('listVideoTasks'), { headers: { authorization: `Bearer ${KEY}` } });
      expect(list.status).toBe(200);
    } finally {
      await m.close();
    }
  });

  it('strict on: a catalogued error the operation does not declare is a 500 code 10500 and is reported; strict off sends it', async () => {
    const undeclared = () => {
      throw new ApiError('F5_TASK_NOT_FOUND', 'task not found');
    };
    const on = await withPatchedHandler('getSubscription', undeclared, { strict: true });
    try {
      const res = await get(on.base);
      expect(res.status).toBe(500);
      expect(res.json.code).toBe(errorCatalog.MOCK_INTERNAL_ERROR.code);
      expect(on.bugs).toHaveLength(1);
      expect(on.bugs[0]).toContain(String(errorCatalog.F5_TASK_NOT_FOUND.code));
    } finally {
      await on.close();
    }
    const off = await withPatchedHandler('getSubscription', undeclared, { strict: false });
    try {
      const res = await get(off.base);
      expect(res.status).toBe(400);
      expect(res.json.code).toBe(errorCatalog.F5_TASK_NOT_FOUND.code);
      expect(off.bugs).toEqual([]);
    } finally {
      await off.close();
    }
  });

  it('the patch did not leak: a fresh mock answers normally', async () => {
    const m = await mock();
    const res = await m.call('GET', pathOf('getSubscription'));
    expect(res.status).toBe(200);
    expect(res.json.data).toEqual({ balance: 10_000, freeUsages: {}, plan: 'paid' });
    expect(m.bugs).toEqual([]);
  });
});
