/**
 * Errors as types (client/errors.ts), in-process and over HTTP: every error
 * code a create with `x-lifecycle` declares, forced through the control API
 * (`Prefer: error=<code>`), becomes an ApiError whose name and status are the
 * document's (x-error-catalog, the response it is listed under), with the
 * message and the operationId; a scenario rule forces one the same way; a code
 * the catalogue does not know and an answer without an envelope are still
 * ApiErrors; isApiError narrows by name and by code (checked by the compiler).
 */
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import spec from '../spec/openapi.json' with { type: 'json' };
import { ApiError, isApiError, type KnownApiError } from '../client/index.ts';
import { clientHarness, CLIENT_KEY, transports, type ClientHarness } from './client-harness.ts';

type Op = { operationId?: string; responses: Record<string, { 'x-error-codes'?: number[] }>; 'x-lifecycle'?: { example: unknown } };
const catalog = new Map((spec['x-error-catalog'] as { code: number; name: string; httpStatus: number }[]).map((e) => [e.code, e]));
/** Of every create with x-lifecycle: its example body and each declared error code with the status it is listed under. */
const creates: { op: string; body: unknown; codes: [number, number][] }[] = [];
for (const item of Object.values(spec.paths as Record<string, Record<string, Op>>))
  for (const op of Object.values(item))
    if (op?.operationId && op['x-lifecycle'])
      creates.push({
        op: op.operationId,
        body: op['x-lifecycle'].example,
        // each code under the status the mock answers (a code the documents allow under another status too, e.g.
        // 10001 under 403, is declared there as well: the mock answers the catalogue's status)
        codes: Object.entries(op.responses).flatMap(([status, r]) =>
          (r['x-error-codes'] ?? []).filter((c) => catalog.get(c)?.httpStatus === Number(status)).map((c) => [c, Number(status)] as [number, number]),
        ),
      });
/** Codes Prefer cannot force (the transport's own: a request that cannot be parsed, headers too large, a timeout). */
const transportOnly = new Set([10002, 10003, 10006, 10013, 10014, 10016]);

let h: ClientHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe.each(transports)('ApiError (%s)', (transport) => {
  it.each(creates.map((c) => [c.op, c] as const))('%s: every declared error, forced, is an ApiError of its catalogue entry', async (_op, c) => {
    h = await clientHarness(transport);
    const codes = c.codes.filter(([code]) => !transportOnly.has(code));
    expect(codes.length).toBeGreaterThan(1);
    for (const [code, status] of codes) {
      const e: unknown = await h.client
        .call(c.op as 'createVideoTask', { body: c.body as never, headers: { Prefer: `error=${code}` }, retry: false })
        .catch((x: unknown) => x);
      expect(e, `${c.op} ${code}`).toBeInstanceOf(ApiError);
      const err = e as ApiError;
      expect([err.code, err.name, err.status, err.operationId]).toEqual([code, catalog.get(code)!.name, status, c.op]);
      expect(err.message).toContain(String(code));
      expect(err.envelope).toEqual({ code, message: err.message, data: null });
      if (status === 429) expect(err.retryAfter).toBeGreaterThan(0);
      expect(isApiError(e, code as never)).toBe(true);
      expect(isApiError(e, catalog.get(code)!.name as never)).toBe(true);
    }
  });

  it('a scenario rule of the control API forces the error of the next create only', async () => {
    h = await clientHarness(transport);
    await h.control.addScenario({ body: { apiKey: CLIENT_KEY, operationId: 'createVideoTask', error: 'VIDEO_INSUFFICIENT_CREDITS' } });
    const body = { model: 'family1-video-2-fast' as const, content: [{ type: 'text' as const, text: 'a fox in the snow' }] };
    const e: unknown = await h.client.call('createVideoTask', { body }).catch((x: unknown) => x);
    if (!isApiError(e, 'VIDEO_INSUFFICIENT_CREDITS')) throw new Error(`not narrowed: ${String(e)}`);
    // narrowed: the literal code and name, checked by the compiler
    expectTypeOf(e.code).toEqualTypeOf<31004>();
    expectTypeOf(e.name).toEqualTypeOf<'VIDEO_INSUFFICIENT_CREDITS'>();
    expect([e.code, e.status, e.operationId]).toEqual([31004, 400, 'createVideoTask']);
    expect(isApiError(e, 'UNAUTHORIZED')).toBe(false);
    expect(isApiError(e, 31005)).toBe(false);
    // by code: the same narrowing
    if (isApiError(e, 31004)) expectTypeOf(e.name).toEqualTypeOf<'VIDEO_INSUFFICIENT_CREDITS'>();
    // the rule is used up: the next create succeeds
    expect((await h.client.call('createVideoTask', { body })).status).toBe('generating');
  });

  it('a key the service does not know is UNAUTHORIZED (10001, HTTP 401) on every operation, reads included', async () => {
    h = await clientHarness(transport, { apiKey: 'mg_nobody_secret9' });
    await h.control.deleteAccount({ params: { apiKey: 'mg_nobody_secret9' } });
    for (const read of [() => h!.client.call('getSubscription'), () => h!.client.call('listVideoTasks')]) {
      const e: unknown = await read().catch((x: unknown) => x);
      expect(isApiError(e, 'UNAUTHORIZED')).toBe(true);
      expect((e as ApiError).status).toBe(401);
    }
  });

  it('a code the catalogue does not know is still an ApiError with the envelope; an answer without one has no code', async () => {
    const answers = [
      new Response(JSON.stringify({ code: 99999, message: 'a code from the future', data: null }), { status: 400 }),
      new Response('<html>bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } }),
      // a success status with a non-zero envelope is an error too
      new Response(JSON.stringify({ code: 31001, message: 'invalid parameters', data: null }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      }),
    ];
    h = await clientHarness(transport, { retry: false }, () => () => Promise.resolve(answers.shift()!));
    const unknown = (await h.client.call('getSubscription').catch((x: unknown) => x)) as ApiError;
    expect(isApiError(unknown)).toBe(true);
    expect([unknown.name, unknown.code, unknown.status, unknown.message, unknown.operationId]).toEqual([
      'ApiError',
      99999,
      400,
      'a code from the future',
      'getSubscription',
    ]);
    const gateway = (await h.client.call('getSubscription').catch((x: unknown) => x)) as ApiError;
    expect([gateway.name, gateway.code, gateway.status]).toEqual(['ApiError', undefined, 502]);
    expect(gateway.message).toContain('bad gateway');
    const okStatus = (await h.client.call('getSubscription').catch((x: unknown) => x)) as ApiError;
    expect([okStatus.name, okStatus.code, okStatus.status]).toEqual(['VIDEO_INVALID_PARAMETERS', 31001, 200]);
  });
});

it('an operation that does not answer the envelope is left to openapi-fetch: a TypeError, and a compile error', async () => {
  const h2 = await clientHarness('in-process');
  // @ts-expect-error synthesizeSpeech answers audio, not the envelope
  await expect(h2.client.call('synthesizeSpeech', { body: { text: 'hi' } })).rejects.toThrow(/does not answer the JSON envelope: use client.POST\('\/v1\/tts'/);
  await h2.close();
});

it('KnownApiError narrows name and code together (types only)', () => {
  expectTypeOf<KnownApiError<'RATE_LIMITED'>['code']>().toEqualTypeOf<29998>();
  expectTypeOf<KnownApiError<'RATE_LIMITED' | 'UNAUTHORIZED'>['name']>().toEqualTypeOf<'RATE_LIMITED' | 'UNAUTHORIZED'>();
  // @ts-expect-error a name the catalogue does not have does not compile
  isApiError(new Error(), 'NO_SUCH_ERROR');
  // @ts-expect-error nor does a code it does not have
  isApiError(new Error(), 12345);
});
