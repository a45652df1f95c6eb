/**
 * Video and account error answers through Prism's validation proxy (client -> Prism (proxy, --errors,
 * spec/openapi.yaml) -> a fresh in-process mock; any violation Prism reports in either direction fails the test).
 *
 * Negative cases, and how they are treated honestly:
 * - A request the SPEC allows but the service rejects (a model x resolution
 *   combination, content rules, capability rules, unknown or foreign task,
 *   insufficient credits, a malformed API key, rate limit, Prefer-forced errors)
 *   goes through Prism: the request must pass Prism's request validation and the
 *   mock's error envelope must pass its response validation.
 * - A request the SPEC itself forbids (empty content, an enum value outside the
 *   list, page=0, no Authorization, a wrong Content-Type, unparseable JSON, an
 *   oversized body) never reaches the mock through Prism: Prism rejects it
 *   first. For each, we assert BOTH that Prism reports the request violation (and
 *   did not forward it) AND that the same request sent straight to the mock gets
 *   the mock's own documented 400/401/413/415 envelope. Those direct answers are
 *   not seen by Prism; the shape of every error status is nevertheless checked by
 *   Prism through the Prefer-forced walk below, which produces every declared
 *   status and code of every operation through the proxy.
 *
 * One Prism serves the run (`usePrism`, test/prism.ts); each test builds its own mock behind it.
 */
import { getOpenApiMetadata } from '@asteasolutions/zod-to-openapi';
import { describe, expect, it } from 'vitest';
import { type ErrorName } from '../schemas/errors.ts';
import { operationIds, operations } from '../schemas/operations.ts';
import type { OperationDef } from '../schemas/registry-types.ts';
import { videoGenerateRateLimit } from '../schemas/video.ts';
import { family5Body, pathOf, textItem, videoBody, videoEstimateBody } from './factories.ts';
import { forcedCases, KEY, OTHER_KEY, usePrism } from './prism.ts';
import { AUD, IMG, VID, expectError, videoCalls } from './video-prism.ts';

const prism = usePrism();
const { ok, ruled, create, createF5, getTask, balance } = videoCalls(prism);

// ---------------------------------------------------------------------------
// Error answers the spec allows the request for: through Prism
// ---------------------------------------------------------------------------

describe('error responses through Prism', () => {
  it('validation 400s of the shared endpoint and estimate, with their codes', async () => {
    // rate limiting comes before validation (docs/architecture.md, "The request path"), so rejected creates count: switch it off here
    prism.useMock({ rateLimit: false });
    const text = textItem('x');
    expectError(await ruled('POST', pathOf('createVideoTask'), { body: { content: [text, textItem('y')] } }), 'VIDEO_INVALID_PARAMETERS', /text items/);
    expectError(
      await ruled('POST', pathOf('createVideoTask'), { body: { model: 'family1-video-2-fast', resolution: '1080p', content: [text] } }),
      'VIDEO_UNSUPPORTED_COMBINATION',
      /1080p/,
    );
    expectError(
      await ruled('POST', pathOf('createVideoTask'), { body: { model: 'family1-video-2-fast', duration: 3, content: [text] } }),
      'VIDEO_UNSUPPORTED_COMBINATION',
      /duration 3 is outside 4-15/,
    );
    expectError(
      await ruled('POST', pathOf('createVideoTask'), { body: { model: 'family2-video', ratio: '21:9', content: [text] } }),
      'VIDEO_UNSUPPORTED_COMBINATION',
      /ratio/,
    );
    expectError(
      await ruled('POST', pathOf('createVideoTask'), { body: { content: [text, { type: 'video_url', video_url: { url: VID(1) } }] } }),
      'VIDEO_MISSING_MEDIA_DURATION',
      /inputVideoDuration/,
    );
    expectError(
      await ruled('POST', pathOf('createVideoTask'), { body: { content: [{ type: 'image_url', image_url: { url: IMG(1) }, role: 'last_frame' }] } }),
      'VIDEO_INVALID_PARAMETERS',
      /last_frame needs a first_frame/,
    );
    expectError(
      await ruled('POST', pathOf('createVideoTask'), {
        body: { model: 'family4-video', content: [text, { type: 'audio_url', audio_url: { url: AUD(1) } }] },
      }),
      'VIDEO_INVALID_PARAMETERS',
      /audio_url/,
    );
    expectError(
      await ruled('POST', pathOf('estimateVideoCredits'), { body: { model: 'family3-h3', resolution: '720p', duration: 5 } }),
      'VIDEO_UNSUPPORTED_COMBINATION',
      /720p/,
    );
    expectError(
      await ruled('POST', pathOf('estimateVideoCredits'), {
        body: { model: 'family1-video-2-fast', resolution: '720p', duration: 5, hasVideoInput: true },
      }),
      'VIDEO_MISSING_MEDIA_DURATION',
    );
    expectError(
      await ruled('POST', pathOf('estimateVideoCredits'), {
        body: { model: 'family2-video', resolution: '720p', duration: 20, hasVideoInput: true, inputVideoDuration: 15 },
      }),
      'VIDEO_INVALID_PARAMETERS',
      /exceeds 30/,
    );
  });

  it('family5 400s: capability rules, audio needs visual, unknown and foreign source task', async () => {
    const m = prism.useMock({ rateLimit: false });
    expectError(
      await ruled('POST', pathOf('createFamily5VideoTask'), { body: { capability: 'transition', prompt: 'x', images: [{ url: IMG(1) }] } }),
      'F5_INVALID_PARAMETERS',
      /exactly 2 images/,
    );
    expectError(
      await ruled('POST', pathOf('createFamily5VideoTask'), { body: { capability: 'text_to_video' } }),
      'F5_INVALID_PARAMETERS',
      /prompt is required/,
    );
    expectError(
      await ruled('POST', pathOf('createFamily5VideoTask'), {
        body: { capability: 'agent', prompt: 'x', duration: 25, pixverse: { agentType: 'ad_master' }, images: [{ url: IMG(1) }] },
      }),
      'F5_INVALID_PARAMETERS',
      /duration 25/,
    );
    expectError(
      await ruled('POST', pathOf('createFamily5VideoTask'), { body: { capability: 'lip_sync', audios: [{ url: AUD(1), duration: 10 }] } }),
      'F5_AUDIO_NEEDS_VISUAL',
    );
    expectError(
      await ruled('POST', pathOf('createFamily5VideoTask'), { body: { capability: 'restyle', sourceTaskId: 'vt_nope', pixverse: { restyleId: 1 } } }),
      'F5_TASK_NOT_FOUND',
    );
    const foreign = await createF5(family5Body({ prompt: 'theirs' }), {}, OTHER_KEY);
    expectError(
      await ruled('POST', pathOf('createFamily5VideoTask'), { body: { capability: 'restyle', sourceTaskId: foreign, pixverse: { restyleId: 1 } } }),
      'F5_TASK_FORBIDDEN',
    );
    const mine = await createF5(family5Body({ prompt: 'mine' }));
    expectError(
      await ruled('POST', pathOf('createFamily5VideoTask'), { body: { capability: 'restyle', sourceTaskId: mine, pixverse: { restyleId: 1 } } }),
      'F5_INVALID_PARAMETERS',
      /status generating/,
    );
    expectError(
      await ruled('POST', pathOf('estimateFamily5Credits'), { body: { capability: 'mimic', quality: '1080p' } }),
      'F5_INVALID_PARAMETERS',
      /locked to 720p/,
    );
    // only the one accepted task was charged (after the opening grant)
    expect((await m.call('GET', `/__mock/accounts/${KEY}`, { key: null })).json.ledger.map((e: { type: string }) => e.type)).toEqual(['adjust', 'reserve']);
  });

  it('insufficient credits on both create endpoints; nothing is charged', async () => {
    const m = prism.useMock();
    const put = await m.call('PUT', `/__mock/accounts/${KEY}`, { key: null, body: { credits: 10 } });
    expect(put.status).toBe(200);
    expectError(
      await prism.call('POST', pathOf('createVideoTask'), { body: videoBody({ content: [textItem('x')] }) }),
      'VIDEO_INSUFFICIENT_CREDITS',
      /40 credits/,
    );
    expectError(await prism.call('POST', pathOf('createFamily5VideoTask'), { body: family5Body({ prompt: 'x' }) }), 'F5_INSUFFICIENT_CREDITS');
    expect(await balance()).toBe(10);
  });

  it("unknown task, another owner's task, a malformed API key (401 from the mock)", async () => {
    prism.useMock();
    const theirs = await create(videoBody({ content: [textItem('theirs')] }), {}, OTHER_KEY);
    expectError(await prism.call('GET', pathOf('getVideoTask', { taskId: 'vt_0000000000000000' })), 'VIDEO_TASK_NOT_FOUND', /not found/);
    expectError(await prism.call('GET', pathOf('getVideoTask', { taskId: theirs })), 'VIDEO_TASK_FORBIDDEN', /another user/);
    expect((await getTask(theirs, OTHER_KEY)).id).toBe(theirs);
    // a Bearer token Prism accepts (the scheme only requires Bearer) but the mock rejects
    for (const key of ['not-a-key', 'mg_only', 'xx_a_b']) {
      for (const [method, path] of [
        ['GET', pathOf('getSubscription')],
        ['GET', pathOf('listVideoTasks')],
        ['GET', pathOf('getVideoTask', { taskId: theirs })],
      ] as const)
        expectError(await prism.call(method, path, { key }), 'UNAUTHORIZED', /API key/);
    }
    expectError(await prism.call('POST', pathOf('createVideoTask'), { key: 'mg_bad', body: videoBody({ content: [textItem('x')] }) }), 'UNAUTHORIZED');
  });

  it('429 with Retry-After: the generate limit is shared by both create endpoints and resets after the window', async () => {
    const m = prism.useMock();
    const body = videoBody({ content: [textItem('x')] });
    for (let i = 0; i < videoGenerateRateLimit.limit - 1; i++) await create(body);
    await createF5(family5Body({ prompt: 'x' }));
    const shared = await prism.call('POST', pathOf('createVideoTask'), { body });
    expectError(shared, 'VIDEO_RATE_LIMITED', /rate limit/);
    expect(Number(shared.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    const f5 = await prism.call('POST', pathOf('createFamily5VideoTask'), { body: family5Body({ prompt: 'x' }) });
    expectError(f5, 'RATE_LIMITED');
    // reads are not limited
    await ok('GET', pathOf('listVideoTasks'));
    // another key has its own budget
    await create(body, {}, OTHER_KEY);
    await m.advance(videoGenerateRateLimit.windowMs);
    await create(body);
  });

  it('Prefer directives the operation does not declare are a 400 INVALID_PREFER', async () => {
    prism.useMock();
    expectError(await prism.call('GET', pathOf('listVideoTasks'), { headers: { prefer: 'code=418' } }), 'INVALID_PREFER', /code=418/);
    expectError(await prism.call('GET', pathOf('getSubscription'), { headers: { prefer: 'outcome=failed' } }), 'INVALID_PREFER');
    expectError(await prism.call('POST', pathOf('estimateVideoCredits'), { headers: { prefer: 'error=32008' }, body: videoEstimateBody() }), 'INVALID_PREFER');
    // Prism's own Prefer keys are ignored by the mock: the real answer comes back
    await ok('GET', pathOf('getSubscription'), { headers: { prefer: 'example=foo, dynamic=true' } });
  });
});

// ---------------------------------------------------------------------------
// Every declared status and error code of every operation, forced, through Prism
// ---------------------------------------------------------------------------

/** The body example of an operation's request schema (`.openapi({example})`). */
function exampleBody(op: OperationDef): unknown {
  if (!op.request.body) return undefined;
  const ex = (getOpenApiMetadata(op.request.body.schema as never) as { example?: unknown } | undefined)?.example;
  if (ex === undefined) throw new Error(`${op.operationId}: its body schema has no .openapi({example}) to send`);
  return ex;
}

/** Any concrete path of `op` (forced answers come before parameter validation). */
function anyPath(op: OperationDef): string {
  return op.path.replace(/\{(\w+)\}/g, (_, k: string) => `x${k}`);
}

/** The areas this file covers (document 1: video and the account endpoint); other areas bring their own Prism file using forcedCases(). */
const COVERED_TAGS = ['Video', 'Account'];
const registry = operationIds.map((id) => operations[id] as OperationDef).filter((op) => op.tags.some((t) => COVERED_TAGS.includes(t)));

describe('Prefer-forced answers, every operation of the registry, through Prism', () => {
  it('covers every video and account operation', () => {
    expect(registry.map((op) => op.operationId).sort()).toEqual([
      'createFamily5VideoTask',
      'createVideoTask',
      'deleteVideoTask',
      'estimateFamily5Credits',
      'estimateVideoCredits',
      'getSubscription',
      'getVideoTask',
      'listVideoTasks',
      'shareVideoTask',
    ]);
  });

  it.each(registry.map((op) => [op.operationId, op] as const))('%s: every declared status (code=) and every declared error (error=)', async (_id, op) => {
    prism.useMock();
    const method = op.method.toUpperCase();
    const body = exampleBody(op);
    const path = anyPath(op);
    const cases = forcedCases(op);
    expect(cases.length).toBeGreaterThan(op.errors.length);
    for (const c of cases) {
      const r = await prism.call(method, path, { body, headers: { prefer: c.prefer } });
      expectError(r, c.error, c.prefer.startsWith('code=') ? c.prefer : undefined);
    }
    // and the declared success status, unforced
    if (!op.request.params) {
      const r = await prism.call(method, path, { body });
      expect(r.status, r.text).toBe(op.response.status);
    }
  });
});

// ---------------------------------------------------------------------------
// Requests the spec forbids: Prism flags them; the mock answers them directly
// ---------------------------------------------------------------------------

describe('requests the spec forbids: Prism reports the request violation AND the mock answers its documented error', () => {
  type Case = {
    name: string;
    method: string;
    path: string;
    body?: unknown;
    raw?: string;
    headers?: Record<string, string>;
    key?: string | null;
    prismStatus: number;
    location?: string[];
    mock: ErrorName;
  };
  const text = textItem('x');
  const cases: Case[] = [
    {
      name: 'empty content',
      method: 'POST',
      path: pathOf('createVideoTask'),
      body: { content: [] },
      prismStatus: 422,
      location: ['body', 'content'],
      mock: 'VIDEO_INVALID_PARAMETERS',
    },
    {
      name: 'family5 model on the shared endpoint',
      method: 'POST',
      path: pathOf('createVideoTask'),
      body: { model: 'family5', content: [text] },
      prismStatus: 422,
      location: ['body', 'model'],
      mock: 'VIDEO_UNSUPPORTED_COMBINATION',
    },
    {
      name: 'duration above the schema maximum',
      method: 'POST',
      path: pathOf('createVideoTask'),
      body: { duration: 31, content: [text] },
      prismStatus: 422,
      location: ['body', 'duration'],
      mock: 'VIDEO_UNSUPPORTED_COMBINATION',
    },
    {
      name: 'content item of an unknown type',
      method: 'POST',
      path: pathOf('createVideoTask'),
      body: { content: [{ type: 'gif_url', gif_url: { url: IMG(1) } }] },
      prismStatus: 422,
      mock: 'VIDEO_INVALID_PARAMETERS',
    },
    {
      name: 'image URL that is not a URL',
      method: 'POST',
      path: pathOf('createVideoTask'),
      body: { content: [{ type: 'image_url', image_url: { url: 'not a url' } }] },
      prismStatus: 422,
      mock: 'VIDEO_INVALID_PARAMETERS',
    },
    // a missing field is the operation's validation error, not the field's combination error
    {
      name: 'estimate without resolution',
      method: 'POST',
      path: pathOf('estimateVideoCredits'),
      body: { model: 'family1-video-2-fast', duration: 5 },
      prismStatus: 422,
      location: ['body'],
      mock: 'VIDEO_INVALID_PARAMETERS',
    },
    {
      name: 'family5 without capability',
      method: 'POST',
      path: pathOf('createFamily5VideoTask'),
      body: { prompt: 'x' },
      prismStatus: 422,
      location: ['body'],
      mock: 'F5_INVALID_PARAMETERS',
    },
    {
      name: 'family5 estimate with an unknown quality',
      method: 'POST',
      path: pathOf('estimateFamily5Credits'),
      body: { capability: 'text_to_video', quality: '4k' },
      prismStatus: 422,
      location: ['body', 'quality'],
      mock: 'F5_INVALID_PARAMETERS',
    },
    ...(
      [
        ['list page=0', { page: 0 }],
        ['list pageSize=101', { pageSize: 101 }],
        ['list status outside the enum', { status: 'done' }],
      ] as const
    ).map(([name, query]): Case => ({
      name,
      method: 'GET',
      path: pathOf('listVideoTasks', {}, query),
      prismStatus: 422,
      location: ['query', ...Object.keys(query)],
      mock: 'VIDEO_INVALID_PARAMETERS',
    })),
    { name: 'no Authorization header', method: 'GET', path: pathOf('getSubscription'), key: null, prismStatus: 401, mock: 'UNAUTHORIZED' },
    {
      name: 'no Authorization header on create',
      method: 'POST',
      path: pathOf('createVideoTask'),
      key: null,
      body: { content: [text] },
      prismStatus: 401,
      mock: 'UNAUTHORIZED',
    },
    {
      name: 'Basic instead of Bearer',
      method: 'GET',
      path: pathOf('listVideoTasks'),
      headers: { authorization: 'Basic bWc6eA==' },
      prismStatus: 401,
      mock: 'UNAUTHORIZED',
    },
    {
      name: 'text/plain body',
      method: 'POST',
      path: pathOf('estimateVideoCredits'),
      raw: 'hello',
      headers: { 'content-type': 'text/plain' },
      prismStatus: 422,
      mock: 'UNSUPPORTED_MEDIA_TYPE',
    },
    {
      name: 'unparseable JSON',
      method: 'POST',
      path: pathOf('createVideoTask'),
      raw: '{"content": [',
      headers: { 'content-type': 'application/json' },
      prismStatus: 400,
      mock: 'MALFORMED_JSON',
    },
    {
      name: 'body over 1 MB',
      method: 'POST',
      path: pathOf('createVideoTask'),
      body: { content: [textItem('x'.repeat(1024 * 1024 + 10))] },
      prismStatus: 422,
      location: ['body', 'content', '0', 'text'],
      mock: 'PAYLOAD_TOO_LARGE',
    },
  ];

  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const m = prism.useMock();
    const opts = { body: c.body, raw: c.raw, headers: c.headers, key: c.key };
    const through = await prism.call(c.method, c.path, { ...opts, allowViolations: true });
    expect(through.status, through.text).toBe(c.prismStatus);
    expect(through.forwarded, 'Prism must not forward a request it rejects').toBe(false);
    expect(through.violations.length).toBeGreaterThan(0);
    expect(through.violations.every((v) => v.direction !== 'response')).toBe(true);
    // Prism reports query parameter names lower-cased (pageSize -> pagesize)
    if (c.location)
      expect(through.violations[0].validation.map((v) => v.location?.map((x) => x.toLowerCase()))).toContainEqual(c.location.map((x) => x.toLowerCase()));
    const direct = await m.call(c.method, c.path, opts);
    expectError(direct, c.mock);
    expect(m.bugs).toEqual([]);
  });
});
