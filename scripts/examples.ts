/**
 * Success examples captured from the mock itself (docs/architecture.md, "The
 * documentation site"): for every operation whose response schema declares
 * no example, a real answer of an in-process mock (seed 1, manual clock,
 * strict, media URLs on http://localhost:4010), so the example is what the
 * mock answers, drawn from the same seeded fakers. Deterministic: the same
 * schemas give the same examples (the build checks it byte for byte).
 *
 * How: every create operation with a request example runs once (its answer
 * is its example when it lacks one), the clock moves two hours, then each
 * read that lacks an example is called: a list as is, a read with the id a
 * create of its area answered. An operation
 * this cannot reach (one that needs an upload, say) keeps no captured example.
 */
import { getOpenApiMetadata } from '@asteasolutions/zod-to-openapi';
import { operationIds, operations, type OperationId } from '../schemas/operations.ts';
import type { OperationDef } from '../schemas/registry-types.ts';
import { createMock } from '../mock/index.ts';

const BASE = 'http://localhost:4010';
const KEY = 'mg_example_secret1';

const exampleOf = (schema: unknown): unknown => (schema ? (getOpenApiMetadata(schema as never) as { example?: unknown } | undefined)?.example : undefined);

/** True when the success response of `op` has an example of its own (on the schema or its data). */
export function hasSuccessExample(op: OperationDef): boolean {
  const r = op.response;
  if (r.kind === 'binary' || r.kind === 'page') return true; // bytes or a web page: no JSON example to give
  if (r.kind === 'event-stream') return false;
  return exampleOf(r.schema) !== undefined;
}

/** The captured examples by operationId: the JSON body (envelope included) or, for an event stream, its text. */
export async function captureExamples(): Promise<Map<OperationId, unknown>> {
  const mock = createMock({ seed: 1, clock: 'manual', strict: true, publicUrl: BASE, rateLimit: false });
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await mock.fetch(BASE + path, {
      method,
      headers: { authorization: `Bearer ${KEY}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const type = res.headers.get('content-type') ?? '';
    return { status: res.status, body: type.startsWith('application/json') ? ((await res.json()) as unknown) : await res.text() };
  };

  // every create of the registry with an example body, once: their answers name the ids reads need
  const ids = new Map<string, Map<string, string>>(); // tag -> param name -> id
  const out = new Map<OperationId, unknown>();
  for (const id of operationIds) {
    const op = operations[id] as OperationDef;
    const example = exampleOf(op.request.body?.kind === 'json' ? op.request.body.schema : undefined);
    if (op.method !== 'post' || op.request.params || example === undefined) continue;
    const r = await call('POST', op.path, example);
    if (r.status !== op.response.status) continue;
    if (!hasSuccessExample(op)) out.set(id, r.body);
    const data = (r.body as { data?: Record<string, unknown> })?.data;
    const tag = op.tags[0];
    for (const [k, v] of Object.entries(data ?? {})) if (/Id$/.test(k) && typeof v === 'string') (ids.get(tag) ?? ids.set(tag, new Map()).get(tag)!).set(k, v);
  }
  mock.advance(2 * 60 * 60_000);

  for (const id of operationIds) {
    const op = operations[id] as OperationDef;
    if (hasSuccessExample(op) || op.method !== 'get') continue;
    let path = op.path;
    let complete = true;
    path = path.replace(/\{(\w+)\}/g, (_m, name: string) => {
      const v = ids.get(op.tags[0])?.get(name);
      if (v === undefined) complete = false;
      return encodeURIComponent(v ?? '');
    });
    if (!complete) continue;
    if (op.response.kind === 'event-stream') path += '?event=script';
    const r = await call('GET', path);
    if (r.status === op.response.status) out.set(id, r.body);
  }
  if (mock.bugs().length)
    throw new Error(
      `examples: the mock reported bugs: ${mock
        .bugs()
        .map((b) => b.problem)
        .join('; ')}`,
    );
  return out;
}
