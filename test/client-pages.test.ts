/**
 * Pages as an iterator (client/pages.ts), in-process and over HTTP: on every
 * list operation of the document (a GET answering `{items, page, pageSize,
 * total}`), `client.list(op, query)` yields every task of the key once, reading
 * one page per `pageSize` items (counted in the mock's journal), from the
 * query's page, with the query's filter.
 */
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import spec from '../spec/openapi.json' with { type: 'json' };
import type { ListOperationId } from '../client/index.ts';
import { clientHarness, transports, type ClientHarness } from './client-harness.ts';

type SpecOp = { operationId?: string; 'x-lifecycle'?: { example: unknown; pollOperationId: string } };
const ops = Object.entries(spec.paths as Record<string, Record<string, SpecOp>>).flatMap(([path, item]) =>
  Object.entries(item).map(([method, op]) => ({ path, method, op })),
);
/** The list operations of the document, each with the create (x-lifecycle) whose tasks it lists: the create polling a read under the same path. */
const lists = ops
  .filter(({ method, path }) => method === 'get' && ops.some((o) => o.method === 'get' && o.path === `${path}/{taskId}`))
  .map(({ path, op }) => {
    const create = ops.find(
      (o) => o.op['x-lifecycle'] && ops.some((r) => r.op.operationId === o.op['x-lifecycle']!.pollOperationId && r.path === `${path}/{taskId}`),
    );
    return { list: op.operationId as ListOperationId, create: create?.op.operationId, body: create?.op['x-lifecycle']?.example };
  });

let h: ClientHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe.each(transports)('client.list (%s)', (transport) => {
  it('covers the list operations of every area with a lifecycle', () => {
    expect(lists.map((l) => l.list).sort()).toEqual(
      ['listImageTasks', 'listLyricsTasks', 'listMusicTasks', 'listPlatformVoiceTasks', 'listSeedAudioTasks', 'listVideoTasks'].sort(),
    );
    for (const l of lists) expect(l.create, l.list).toBeDefined();
  });

  it.each(lists.map((l) => [l.list, l] as const))('%s: every task once, a page per pageSize', async (_name, l) => {
    h = await clientHarness(transport);
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const created = (await h.client.call(l.create as 'createVideoTask', { body: l.body as never })) as unknown as { taskId: string };
      ids.add(created.taskId);
      await h.control.advanceClock({ body: { ms: 15_000 } }); // within every create rate limit (5 a minute)
    }
    const seen: string[] = [];
    for await (const task of h.client.list(l.list, { pageSize: 2 }))
      seen.push((task as { id?: string; taskId?: string }).id ?? (task as { taskId: string }).taskId);
    expect(seen.sort()).toEqual([...ids].sort());
    // 5 tasks at 2 a page: pages 1, 2 and 3
    expect(((await h.control.countRequests({ query: { operationId: l.list } })) as { count: number }).count).toBe(3);
    // from page 2 on: the last 3
    const later: unknown[] = [];
    for await (const task of h.client.list(l.list, { pageSize: 2, page: 2 })) later.push(task);
    expect(later).toHaveLength(3);
  });

  it('the query filters, and an empty list reads one page', async () => {
    h = await clientHarness(transport);
    const body = { model: 'family1-video-2-fast' as const, content: [{ type: 'text' as const, text: 'a fox in the snow' }] };
    const none: unknown[] = [];
    for await (const t of h.client.list('listVideoTasks')) none.push(t);
    expect(none).toEqual([]);
    await h.client.call('createVideoTask', { body, headers: { Prefer: 'outcome=failed' } });
    await h.client.call('createVideoTask', { body });
    await h.control.advanceClock({ body: { ms: 600_000 } });
    const failed = [];
    for await (const t of h.client.list('listVideoTasks', { status: 'failed' })) {
      expectTypeOf(t.status).toEqualTypeOf<'pending' | 'generating' | 'uploading' | 'success' | 'failed'>();
      failed.push(t.status);
    }
    expect(failed).toEqual(['failed']);
  });
});
