/**
 * Image task lifecycle on the manual clock (document 1, "Image task", "States and
 * transitions", "Image: get task", "Image: list tasks"): pending -> generating ->
 * success with hosted images; the 30-minute timeout sweep; forced failures with
 * refunds; owner scoping; list order, filter and paging; the hosted image route.
 */
import { PNG } from 'pngjs';
import { beforeEach, describe, expect, it } from 'vitest';
import { errorCatalog } from '../schemas/errors.ts';
import {
  IMAGE_TASK_TIMEOUT_MS,
  freeLane,
  imageFixedPrices,
  imageGeneratingMs,
  imagePixels,
  imageSchedule,
  type ImageModelId,
  type ImageSize,
} from '../schemas/image.ts';
import { imageBodyAt, pathOf } from './factories.ts';
import { decodePalettePng } from './png-check.ts';
import { KEY, OTHER_KEY, startMock, type TestMock, useMocks } from './helpers.ts';

const start = useMocks();
let m: TestMock;
beforeEach(async () => {
  m = await start();
});

async function create(b: unknown, headers: Record<string, string> = {}, key = KEY): Promise<string> {
  const r = await m.call('POST', pathOf('createImageTask'), { body: b, headers, key });
  expect(r.status, r.text).toBe(202);
  expect(r.json).toEqual({ code: 0, message: '', data: { taskId: expect.any(String), status: 'pending' } });
  return r.json.data.taskId;
}
const get = async (id: string, key = KEY) => (await m.call('GET', pathOf('getImageTask', { taskId: id }), { key })).json.data;
const balance = async (key = KEY) => (await m.call('GET', pathOf('getSubscription'), { key })).json.data.balance;
/** Fetches a hosted URL from this mock (the task carries the public base URL). */
const fetchHosted = (url: string) => fetch(url);

describe('lifecycle', () => {
  it.each([
    ['image-a-2', '1K'],
    ['image-a-2-official', '2K'],
    ['image-b-3.1-flash', '4K'],
    ['image-c-5-0-pro', '2K'],
    ['image-d-2.7-pro', '1K'],
  ] as [ImageModelId, ImageSize][])('%s %s: pending -> generating -> success on schedule', async (model, size) => {
    const t0 = m.engine.clock.now();
    const id = await create(imageBodyAt(model, size));
    expect(await get(id)).toEqual({ taskId: id, status: 'pending', model, createdAt: t0 });
    await m.advance(imageSchedule.pendingMs - 1);
    expect((await get(id)).status).toBe('pending');
    await m.advance(1);
    expect((await get(id)).status).toBe('generating');
    const gen = imageGeneratingMs(model, size);
    await m.advance(gen - 1);
    expect((await get(id)).status).toBe('generating');
    await m.advance(1);
    const done = await get(id);
    expect(done).toEqual({
      taskId: id,
      status: 'success',
      model,
      createdAt: t0,
      completedAt: t0 + imageSchedule.pendingMs + gen,
      images: [{ url: `${m.base}/media/images/${id}/0.png`, mimeType: 'image/png' }],
    });
    // the hosted URL serves the image bytes, of the resolved pixel size
    const res = await fetchHosted(done.images[0].url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\/png/);
    // 2K and 4K: test/png-check.ts's full decode (pngjs takes about a second of CPU at 4K; test/image-decode.test.ts runs it there)
    const bytes = Buffer.from(await res.arrayBuffer());
    const png = size === '1K' ? PNG.sync.read(bytes) : decodePalettePng(bytes);
    expect({ width: png.width, height: png.height }).toEqual(imagePixels(size, '1:1'));
  });

  it('a create call returns pending and the ledger holds the credits until success', async () => {
    const id = await create(imageBodyAt('image-a-2', '2K'));
    const price = imageFixedPrices['image-a-2']['2K']!;
    expect(await balance()).toBe(10_000 - price);
    await m.advance(60_000);
    expect((await get(id)).status).toBe('success');
    expect(await balance()).toBe(10_000 - price);
    const acc = (await m.call('GET', `/__mock/accounts/${KEY}`, { key: null })).json;
    expect(acc.ledger.filter((e: { taskId: string }) => e.taskId === id).map((e: { type: string; amount: number }) => [e.type, e.amount])).toEqual([
      ['reserve', -price],
      ['capture', 0],
    ]);
  });

  it('Prefer: outcome=stuck keeps the task generating; after more than 30 minutes the sweep fails it with a timeout failMsg and refunds', async () => {
    const t0 = m.engine.clock.now();
    const id = await create(imageBodyAt('image-b-3-pro', '2K'), { prefer: 'outcome=stuck' });
    expect(await balance()).toBe(10_000 - imageFixedPrices['image-b-3-pro']['2K']!);
    await m.advance(IMAGE_TASK_TIMEOUT_MS);
    expect((await get(id)).status).toBe('generating');
    await m.advance(1);
    const t = await get(id);
    expect(t.status).toBe('fail');
    expect(t.failMsg).toMatch(/timed out/);
    expect(t.completedAt).toBe(t0 + IMAGE_TASK_TIMEOUT_MS + 1);
    expect(t.retryable).toBe(true);
    expect(t.freeUsageRolledBack).toBe(false);
    expect(typeof t.userMessage).toBe('string');
    expect(t.failReason).toBeUndefined();
    expect(t.images).toBeUndefined();
    expect(await balance()).toBe(10_000);
  });

  it.each([
    ['outcome=failed', 'provider error during generation'],
    ['outcome=failed, error=26008', 'provider error during generation'],
  ])('Prefer: %s fails the task when it would start generating, refunded', async (prefer, msg) => {
    const t0 = m.engine.clock.now();
    const id = await create(imageBodyAt('image-a-2', '1K'), { prefer });
    expect(await balance()).toBe(10_000 - imageFixedPrices['image-a-2']['1K']!);
    await m.advance(imageSchedule.pendingMs);
    const t = await get(id);
    expect(t).toMatchObject({ status: 'fail', failMsg: msg, completedAt: t0 + imageSchedule.pendingMs, retryable: true, freeUsageRolledBack: false });
    expect(t.failReason).toBeUndefined();
    expect(await balance()).toBe(10_000);
    // a failed task has no hosted image
    expect((await fetch(`${m.base}/media/images/${id}/0.png`)).status).toBe(404);
  });

  it.each([
    ['error=free_relax_busy', 'free_relax_busy', imageSchedule.pendingMs],
    ['error=IMAGE_FREE_RELAX_BUSY', 'free_relax_busy', imageSchedule.pendingMs],
    ['error=free_relax_timeout', 'free_relax_timeout', freeLane.queueTimeoutMs],
    ['error=26031', 'free_relax_timeout', freeLane.queueTimeoutMs],
  ])(
    'Prefer: outcome=failed, %s (a failure reason by its string, name or code) ends the task with failReason %s, nothing spent',
    async (error, failReason, afterMs) => {
      const id = await create(imageBodyAt('image-a-2', '1K'), { prefer: `outcome=failed, ${error}` });
      await m.advance(afterMs - 1);
      expect((await get(id)).status).toBe('pending');
      await m.advance(1);
      expect(await get(id)).toMatchObject({ status: 'fail', failReason, retryable: true });
      expect(await balance()).toBe(10_000);
    },
  );

  it('a control-API scenario forces the next image task to fail', async () => {
    const r = await m.call('POST', '/__mock/scenarios', { key: null, body: { apiKey: KEY, operationId: 'createImageTask', outcome: 'failed' } });
    expect(r.status).toBe(200);
    const a = await create(imageBodyAt('image-a-2'));
    const b = await create(imageBodyAt('image-a-2'));
    await m.advance(60_000);
    expect((await get(a)).status).toBe('fail');
    expect((await get(b)).status).toBe('success');
  });
});

describe('get and list', () => {
  it("an unknown task and another user's task answer 404 (26006)", async () => {
    const id = await create(imageBodyAt('image-a-2'));
    for (const r of [
      await m.call('GET', pathOf('getImageTask', { taskId: 'img_nope' })),
      await m.call('GET', pathOf('getImageTask', { taskId: id }), { key: OTHER_KEY }),
    ]) {
      expect(r.status).toBe(404);
      expect(r.json).toEqual({ code: errorCatalog.IMAGE_TASK_NOT_FOUND.code, message: expect.any(String), data: null });
    }
  });

  it("lists the caller's tasks newest first, with paging and a status filter", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(await create(imageBodyAt('image-a-2', '1K'), i === 1 ? { prefer: 'outcome=failed' } : {}));
      await m.advance(10);
    }
    await create(imageBodyAt('image-a-2'), {}, OTHER_KEY);
    let r = await m.call('GET', pathOf('listImageTasks'));
    expect(r.json.data).toMatchObject({ page: 1, pageSize: 20, total: 5 });
    expect(r.json.data.items.map((t: { taskId: string }) => t.taskId)).toEqual([...ids].reverse());
    r = await m.call('GET', pathOf('listImageTasks', {}, { page: 2, pageSize: 2 }));
    expect(r.json.data.items.map((t: { taskId: string }) => t.taskId)).toEqual([ids[2], ids[1]]);
    expect(r.json.data).toMatchObject({ page: 2, pageSize: 2, total: 5 });
    r = await m.call('GET', pathOf('listImageTasks', {}, { status: 'pending' }));
    expect(r.json.data.total).toBe(5);
    r = await m.call('GET', pathOf('listImageTasks', {}, { status: 'success' }));
    expect(r.json.data).toMatchObject({ items: [], total: 0 });
    await m.advance(60_000);
    r = await m.call('GET', pathOf('listImageTasks', {}, { status: 'success' }));
    expect(r.json.data.total).toBe(4);
    r = await m.call('GET', pathOf('listImageTasks', {}, { status: 'fail' }));
    expect(r.json.data.items.map((t: { taskId: string }) => t.taskId)).toEqual([ids[1]]);
    r = await m.call('GET', pathOf('listImageTasks', {}, { page: 9 }));
    expect(r.json.data).toMatchObject({ items: [], total: 5 });
  });

  it.each(['page=0', 'pageSize=0', 'pageSize=101', 'status=failed', 'status=done', 'page=x'])('list query %s -> 400 (26001)', async (q) => {
    const r = await m.call('GET', `${pathOf('listImageTasks')}?${q}`);
    expect(r.status).toBe(400);
    expect(r.json.code).toBe(errorCatalog.IMAGE_INVALID_PARAMETERS.code);
  });

  it.each(['pageSize=1', 'pageSize=100', 'page=1&status=generating'])('list query %s is accepted', async (q) => {
    expect((await m.call('GET', `${pathOf('listImageTasks')}?${q}`)).status).toBe(200);
  });
});

describe('hosted images', () => {
  it('serve only existing succeeded tasks, without auth', async () => {
    const id = await create(imageBodyAt('image-a-2', '1K'));
    expect((await fetch(`${m.base}/media/images/${id}/0.png`)).status).toBe(404); // pending
    await m.advance(60_000);
    expect((await fetch(`${m.base}/media/images/${id}/0.png`)).status).toBe(200);
    expect((await fetch(`${m.base}/media/images/${id}/1.png`)).status).toBe(404);
    expect((await fetch(`${m.base}/media/images/${id}/0.jpg`)).status).toBe(404);
    expect((await fetch(`${m.base}/media/images/img_unknown/0.png`)).status).toBe(404);
  });

  it('are byte-identical across fetches and across mocks with the same seed', async () => {
    const id = await create(imageBodyAt('image-c-5-0-pro', '1K'));
    await m.advance(60_000);
    const a = Buffer.from(await (await fetch(`${m.base}/media/images/${id}/0.png`)).arrayBuffer());
    const b = Buffer.from(await (await fetch(`${m.base}/media/images/${id}/0.png`)).arrayBuffer());
    expect(a.equals(b)).toBe(true);
    const other = await startMock();
    try {
      const r = await other.call('POST', pathOf('createImageTask'), { body: imageBodyAt('image-c-5-0-pro', '1K') });
      expect(r.json.data.taskId).toBe(id);
      await other.advance(60_000);
      const c = Buffer.from(await (await fetch(`${other.base}/media/images/${id}/0.png`)).arrayBuffer());
      expect(c.equals(a)).toBe(true);
    } finally {
      await other.close();
    }
  });
});

describe('registry and service agree', () => {
  it('every failure reason createImageTask declares has a failure text in imageFailures', async () => {
    const { operations } = await import('../schemas/operations.ts');
    const { imageFailures } = await import('../schemas/image.ts');
    for (const reason of operations.createImageTask.failureReasons) expect(Object.keys(imageFailures)).toContain(reason);
  });
});
