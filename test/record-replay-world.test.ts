/**
 * Replayed tasks are tasks of the mock's world (decisions/0029-record-and-replay.md,
 * "Replayed tasks are tasks of the world"; docs/guides/proxy.md, "Replaying
 * offline"): a short session (a video task to success, one forced to fail,
 * an image and a music task) is recorded from an upstream mock (media not
 * fetched: a stand-in fetch) and replayed. The lists show the recorded tasks
 * for their mapped owner among the mock's own, newest first, with their
 * totals and pages; a delete takes one out. A replayed create holds what the
 * recording says the task was charged, captures it at the recorded success or
 * refunds it at the recorded failure, and sends the activity events of its
 * statuses; the ledgers stay chains ending at the balances. The mock's own
 * new ids never take a recorded one, even with the recording's seed and key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MockState } from '../schemas/control.ts';
import { createMock, defaultServices } from '../mock/index.ts';
import { readRecordingFile, type RecordedTask, type Recording } from '../mock/http/recording/format.ts';
import { createRecorder } from '../mock/http/recording/recorder.ts';
import { createReplay } from '../mock/http/recording/replay.ts';
import { replayedLifecycle } from '../mock/http/recording/replay-world.ts';
import { invariantProblems } from '../mock/services/state-invariants.ts';
import { taskAreasOf } from '../mock/services/tasks.ts';
import { imageBody, musicBody, pathOf, videoBody } from './factories.ts';
import { clientOf } from './proxy-exchange.ts';

const KEY = 'mg_world_secret1';
const OWNER = 'mg_replay1_recorded';
const dir = mkdtempSync(join(tmpdir(), 'mg-replay-world-'));
const file = join(dir, 'session.json');
const FAILING = videoBody({ content: [{ type: 'text', text: 'a lighthouse in a storm' }] });
/** What the upstream charged for the video task that succeeded (its balance before minus after), and the statuses its activity feed showed. */
let upstreamCharge = 0;
let upstreamStatuses: string[] = [];
let rec: Recording;

beforeAll(async () => {
  const upstream = createMock({ seed: 1, strict: true });
  const base = await upstream.listen();
  const recorder = createRecorder({ file, upstream: base, fetchMedia: async () => new Response('media') });
  try {
    const c = clientOf(base, KEY, { onExchange: recorder.observe, clock: () => upstream.now() });
    const tasks = [
      { path: pathOf('createVideoTask'), body: videoBody(), read: (id: string) => pathOf('getVideoTask', { taskId: id }) },
      { path: `${pathOf('createVideoTask')}?__outcome=failed`, body: FAILING, read: (id: string) => pathOf('getVideoTask', { taskId: id }) },
      { path: pathOf('createImageTask'), body: imageBody(), read: (id: string) => pathOf('getImageTask', { taskId: id }) },
      { path: pathOf('generateMusic'), body: musicBody(), read: (id: string) => pathOf('getMusicTask', { taskId: id }) },
    ];
    const ids: string[] = [];
    for (const t of tasks) ids.push((await c.call('POST', t.path, { body: t.body })).json.data.taskId);
    const done = new Set<number>();
    for (let poll = 0; poll < 60 && done.size < tasks.length; poll++) {
      upstream.advance(10_000);
      for (const [i, t] of tasks.entries())
        if (!done.has(i) && ['success', 'failed', 'fail'].includes((await c.call('GET', t.read(ids[i]))).json.data.status)) done.add(i);
    }
    expect(done.size).toBe(tasks.length);
    // the video that succeeded: what the upstream took for it (the failed one was refunded there)
    const charged = upstream.account(KEY).ledger.filter((e) => e.taskId === ids[0]);
    upstreamCharge = -charged.reduce((n, e) => n + e.amount, 0);
    upstreamStatuses = upstream.engine.activity
      .since(0)
      .filter((a) => a.taskId === ids[0])
      .map((a) => a.status);
  } finally {
    await upstream.close();
  }
  await recorder.close();
  rec = readRecordingFile(file);
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A replaying mock of the recording (seed `seed`, strict: every answer checked against the contract) and a caller. */
function replaying(seed = 99) {
  const replay = createReplay(rec);
  const mock = createMock({ seed, strict: true, services: [...defaultServices, replay.service], intercept: replay.intercept });
  const placed = replay.load(mock.engine);
  const call = async (method: string, path: string, key = OWNER, body?: unknown) => {
    const res = await mock.fetch(path, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, json: (await res.json()) as { code: number; message: string; data: any } };
  };
  const list = async (op: 'listVideoTasks' | 'listImageTasks' | 'listMusicTasks', query = '', key = OWNER) =>
    (await call('GET', `${pathOf(op)}${query}`, key)).json.data as { items: { id?: string; taskId?: string; status: string }[]; total: number };
  return { mock, replay, placed, call, list };
}

const recordedId = (op: string, nth = 0) => rec.tasks.filter((t) => t.operationId === op)[nth].taskId;

describe('replayed tasks in the lists of the world', () => {
  it('the lists show the recorded tasks for their mapped owner, with totals and pages, beside the mock own; a delete takes one out', async () => {
    const { mock, placed, call, list } = replaying();
    expect(placed).toBe(4);
    // before this change the mock's lists did not have them: 0 tasks each
    const videos = await list('listVideoTasks');
    expect(videos.total).toBe(2);
    expect(videos.items.map((t) => t.id)).toEqual([recordedId('createVideoTask', 1), recordedId('createVideoTask', 0)]);
    expect((await list('listImageTasks')).items.map((t) => t.taskId)).toEqual([recordedId('createImageTask')]);
    expect((await list('listMusicTasks')).items.map((t) => t.id)).toEqual([recordedId('generateMusic')]);
    // another key's lists do not show them
    expect((await list('listVideoTasks', '', 'mg_someone_else1')).total).toBe(0);

    // a replayed create (the recorded body) and the mock's own create (another body) join them, newest first
    mock.advance(1_000);
    const replayed = (await call('POST', pathOf('createVideoTask'), OWNER, videoBody())).json.data.taskId as string;
    mock.advance(1_000);
    const own = (await call('POST', pathOf('createVideoTask'), OWNER, videoBody({ content: [{ type: 'text', text: 'a quiet harbour' }] }))).json.data
      .taskId as string;
    const all = [own, replayed, recordedId('createVideoTask', 1), recordedId('createVideoTask', 0)];
    expect(new Set(all).size).toBe(4);
    const page = async (n: number) => (await list('listVideoTasks', `?page=${n}&pageSize=3`)).items.map((t) => t.id);
    expect((await list('listVideoTasks')).total).toBe(4);
    expect([...(await page(1)), ...(await page(2))]).toEqual(all);
    expect(await page(2)).toEqual([recordedId('createVideoTask', 0)]);

    // statuses move on the clock: after 10 minutes the recorded success and failure, and the status filter sees them
    mock.advance(10 * 60_000);
    expect((await list('listVideoTasks', '?status=failed')).items.map((t) => t.id)).toEqual([recordedId('createVideoTask', 1)]);
    expect((await list('listVideoTasks', '?status=success')).items.map((t) => t.id)).toEqual([own, replayed, recordedId('createVideoTask', 0)]);
    // an item shows what the recorded read shows (the status, the media on this mock) and the fields a read lacks from the create
    const item = (await list('listVideoTasks', '?status=failed')).items[0] as Record<string, unknown>;
    expect(item).toMatchObject({ status: 'failed', prompt: null });

    // a delete is the area's own: it removes the task from the world and its lists
    expect((await call('DELETE', pathOf('deleteVideoTask', { taskId: recordedId('createVideoTask', 0) }))).json.code).toBe(0);
    expect((await list('listVideoTasks')).items.map((t) => t.id)).toEqual([own, replayed, recordedId('createVideoTask', 1)]);
    expect((await call('GET', pathOf('getVideoTask', { taskId: recordedId('createVideoTask', 0) }))).json.code).toBe(31006);
    expect(mock.bugs()).toEqual([]);
  });

  it('a running replayed task cannot be deleted, as any running video task (31007)', async () => {
    const { call } = replaying();
    const r = await call('DELETE', pathOf('deleteVideoTask', { taskId: recordedId('createVideoTask', 0) }));
    expect([r.status, r.json.code]).toEqual([400, 31007]);
  });
});

describe('a replayed create in the world: credits and activity', () => {
  it('holds what the task was charged, captures it at the recorded success; the activity shows its statuses; the ledgers add up', async () => {
    const { mock, call } = replaying();
    expect(upstreamCharge).toBeGreaterThan(0);
    const before = mock.account(OWNER).credits;
    const id = (await call('POST', pathOf('createVideoTask'), OWNER, videoBody())).json.data.taskId as string;
    expect(mock.account(OWNER).credits).toBe(before - upstreamCharge);
    // the recorded failed task, loaded at start with its hold, is refunded meanwhile: its hold comes back
    const loadedFailure = mock.account(OWNER).ledger.find((e) => e.taskId === recordedId('createVideoTask', 1) && e.type === 'reserve')!;
    expect(loadedFailure.amount).toBe(-upstreamCharge);
    mock.advance(10 * 60_000);
    const account = mock.account(OWNER);
    expect(account.credits).toBe(before - upstreamCharge + upstreamCharge);
    expect(account.ledger.filter((e) => e.taskId === id).map((e) => [e.type, e.amount])).toEqual([
      ['reserve', -upstreamCharge],
      ['capture', 0],
    ]);
    // the statuses the session saw (polling every 10 s it missed the short uploading), each one the upstream's feed showed, in its order
    const seen = mock.engine.activity
      .since(0)
      .filter((a) => a.taskId === id)
      .map((a) => a.status);
    expect(seen).toEqual(['generating', 'success']);
    expect(upstreamStatuses.filter((s) => seen.includes(s))).toEqual(seen);
    const doc = (await (await mock.fetch('/__mock/state')).json()) as MockState;
    expect(invariantProblems(doc.state, taskAreasOf(mock.engine))).toEqual([]);
    // a saved state with replayed tasks loads again
    expect((await mock.fetch('/__mock/state', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(doc) })).status).toBe(200);
  });

  it('refunds at the recorded failure, and refuses a create the balance does not cover (31004), nothing held', async () => {
    const { mock, call } = replaying();
    const before = mock.account(OWNER).credits;
    const id = (await call('POST', `${pathOf('createVideoTask')}?__outcome=failed`, OWNER, FAILING)).json.data.taskId as string;
    const held = before - mock.account(OWNER).credits;
    mock.advance(10 * 60_000);
    expect((await call('GET', pathOf('getVideoTask', { taskId: id }))).json.data.status).toBe('failed');
    // this one and the one loaded at start are refunded: both holds come back
    expect(mock.account(OWNER).credits).toBe(before + upstreamCharge);
    // held as the running task's answers showed it (the same price as the one that succeeded), then refunded whole
    expect(held).toBe(upstreamCharge);
    expect(
      mock
        .account(OWNER)
        .ledger.filter((e) => e.taskId === id)
        .map((e) => [e.type, e.amount]),
    ).toEqual([
      ['reserve', -held],
      ['release', held],
    ]);
    mock.setAccount(OWNER, { credits: upstreamCharge - 1 });
    const refused = await call('POST', pathOf('createVideoTask'), OWNER, videoBody());
    expect([refused.status, refused.json.code]).toEqual([400, 31004]);
    expect(mock.account(OWNER).credits).toBe(upstreamCharge - 1);
  });
});

describe('new ids and recorded ids', () => {
  it('with the recording seed and key, the mock own new id is never a recorded one', async () => {
    const other = videoBody({ content: [{ type: 'text', text: 'a quiet harbour' }] });
    // without a replay, the same seed and key give the recorded id to a first video create
    const plain = createMock({ seed: 1 });
    const first = (await (
      await plain.fetch(pathOf('createVideoTask'), {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(other),
      })
    ).json()) as { data: { taskId: string } };
    expect(first.data.taskId).toBe(recordedId('createVideoTask', 0));
    // with it, the recorded task is in the world under that id, and the mock passes over it
    const { mock, call } = replaying(1);
    const r = await call('POST', pathOf('createVideoTask'), KEY, other);
    expect(r.json.code).toBe(0);
    expect(rec.tasks.flatMap((t) => [t.taskId, ...t.otherIds])).not.toContain(r.json.data.taskId);
    expect((await call('GET', pathOf('getVideoTask', { taskId: r.json.data.taskId }), KEY)).json.code).toBe(0);
    expect((await call('GET', pathOf('getVideoTask', { taskId: recordedId('createVideoTask', 0) }))).json.code).toBe(0);
    expect(mock.bugs()).toEqual([]);
  });
});

describe('the lifecycle a recorded task runs (hand-written status sequences)', () => {
  const task = (operationId: string, pollOperationId: string, statuses: [string, number][]): RecordedTask => ({
    taskId: 'x_1',
    otherIds: [],
    operationId,
    createSeq: 0,
    pollOperationId,
    statusField: 'status',
    owner: null,
    statuses: statuses.map(([status, atMs], seq) => ({ status, atMs, seq })),
  });
  it('a success ends it; a failure replaces its last step; a recording that stops early waits for the timeout; one terminal status settles at once', () => {
    expect(
      replayedLifecycle(
        task('createVideoTask', 'getVideoTask', [
          ['generating', 0],
          ['uploading', 50_000],
          ['success', 60_000],
        ]),
      ),
    ).toEqual({
      initial: 'generating',
      lifecycle: {
        steps: [
          { status: 'uploading', afterMs: 50_000 },
          { status: 'success', afterMs: 10_000 },
        ],
      },
    });
    expect(
      replayedLifecycle(
        task('createVideoTask', 'getVideoTask', [
          ['generating', 0],
          ['failed', 60_000],
        ]),
      ),
    ).toEqual({
      initial: 'generating',
      lifecycle: { steps: [{ status: 'success', afterMs: 60_000 }], failure: { atStep: 0, reason: 'failed as recorded', afterMs: 60_000 } },
    });
    // the video lifecycle gives up after 30 minutes (x-lifecycle timeoutMs)
    expect(
      replayedLifecycle(
        task('createVideoTask', 'getVideoTask', [
          ['pending', 0],
          ['generating', 5_000],
        ]),
      ),
    ).toEqual({
      initial: 'pending',
      lifecycle: {
        steps: [
          { status: 'generating', afterMs: 5_000 },
          { status: 'success', afterMs: 0 },
        ],
        stuckBefore: 1,
      },
      timeoutMs: 1_800_000,
    });
    expect(replayedLifecycle(task('createImageTask', 'getImageTask', [['fail', 0]]))).toEqual({ initial: 'fail', settle: 'release' });
    // a podcast episode's text, then its audio: the audio stage's success ends it too
    expect(
      replayedLifecycle(
        task('createPodcastTextContent', 'getPodcastEpisode', [
          ['text-success', 0],
          ['audio-success', 70_000],
        ]),
      ),
    ).toEqual({ initial: 'text-success', lifecycle: { steps: [{ status: 'audio-success', afterMs: 70_000 }] } });
  });
});
