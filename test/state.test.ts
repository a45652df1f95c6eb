/**
 * The mock's state survives a save and a load (GET and PUT /__mock/state, the
 * --state file): the same requests after restoring give byte-identical
 * answers to a run that never stopped, tasks in flight finish when they would
 * have, queued free-lane tasks start; a document of another version, a
 * corrupt or inconsistent one, is refused naming the problem and nothing is
 * replaced.
 */
import { describe, expect, it } from 'vitest';
import { STATE_FORMAT, STATE_VERSION } from '../schemas/control.ts';
import { errorCatalog } from '../schemas/errors.ts';
import { videoPhases } from '../schemas/video.ts';
import { imageBodyAt, musicBody, pathOf, videoBody } from './factories.ts';
import { KEY, OTHER_KEY, type CallOptions, type TestMock, useMocks } from './helpers.ts';

const mock = useMocks();
const HOST = { 'x-forwarded-host': 'mock.test:4010' };
const control = { key: null } as const;

/** Sends a request naming the same host on every mock (media URLs are built from it) and returns its status and body text. */
async function say(m: TestMock, method: string, path: string, opts: CallOptions = {}): Promise<string> {
  const r = await m.call(method, path, { ...opts, headers: { ...HOST, ...opts.headers } });
  return `${method} ${path} -> ${r.status} ${r.text}`;
}

/** The first half of a session: tasks of two keys, one forced to fail, a scenario waiting, time moved on. */
async function firstHalf(m: TestMock): Promise<{ video: string; failed: string; image: string }> {
  const video = (await m.call('POST', pathOf('createVideoTask'), { body: videoBody({ duration: 10 }) })).json.data.taskId;
  const failed = (await m.call('POST', pathOf('createVideoTask'), { key: OTHER_KEY, body: videoBody(), headers: { prefer: 'outcome=failed' } })).json.data
    .taskId;
  const image = (await m.call('POST', pathOf('createImageTask'), { body: imageBodyAt('image-a-2', '4K') })).json.data.taskId;
  await m.call('POST', '/__mock/scenarios', { ...control, body: { apiKey: KEY, operationId: 'createVideoTask', outcome: 'failed', error: 31009 } });
  await m.advance(20_000);
  return { video, failed, image };
}

/** The second half: reads, a create consumed by the scenario, more time, media, ledgers, the journal. */
async function secondHalf(m: TestMock, ids: { video: string; failed: string; image: string }): Promise<string[]> {
  const out: string[] = [];
  out.push(await say(m, 'GET', pathOf('getVideoTask', { taskId: ids.video })));
  out.push(await say(m, 'POST', pathOf('createVideoTask'), { body: videoBody() }));
  out.push(await say(m, 'POST', pathOf('createVideoTask'), { body: videoBody() }));
  await m.advance(3_600_000);
  for (const taskId of [ids.video]) out.push(await say(m, 'GET', pathOf('getVideoTask', { taskId })));
  out.push(await say(m, 'GET', pathOf('getVideoTask', { taskId: ids.failed }), { key: OTHER_KEY }));
  out.push(await say(m, 'GET', pathOf('getImageTask', { taskId: ids.image })));
  out.push(await say(m, 'GET', pathOf('listVideoTasks')));
  out.push(await say(m, 'GET', pathOf('getSubscription')));
  out.push(await say(m, 'GET', `/__mock/accounts/${KEY}`, control));
  out.push(await say(m, 'GET', `/__mock/accounts/${OTHER_KEY}`, control));
  out.push(await say(m, 'GET', '/__mock/requests', control));
  // read under the same host too (the journal keeps the answer, and the states are compared), fetched from this mock
  const t = (await m.call('GET', pathOf('getVideoTask', { taskId: ids.video }), { headers: HOST })).json.data;
  const videoUrl = new URL(t.videoUrl as string);
  out.push(`video bytes ${(await (await fetch(m.base + videoUrl.pathname + videoUrl.search)).arrayBuffer()).byteLength}`);
  return out;
}

describe('save and load', () => {
  it('GET answers the document as compact JSON: format, version, then the state of that moment (the engine sends it as text, one pass)', async () => {
    const m = await mock();
    await m.call('POST', pathOf('createVideoTask'), { body: videoBody() });
    const snap = m.engine.snapshot();
    const r = await m.call('GET', '/__mock/state', control);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(Object.keys(r.json)).toEqual(['format', 'version', 'state']);
    expect(r.json).toEqual({ format: STATE_FORMAT, version: STATE_VERSION, state: snap });
    expect(r.text).toBe(JSON.stringify(r.json));
    expect(Number(r.headers.get('content-length'))).toBe(Buffer.byteLength(r.text));
  });

  it('a mock loaded with the state of another answers the rest of the session byte for byte as the one that never stopped', async () => {
    const a = await mock();
    const ids = await firstHalf(a);
    const saved = (await a.call('GET', '/__mock/state', control)).json;
    expect(saved.format).toBe(STATE_FORMAT);
    expect(saved.version).toBe(STATE_VERSION);
    const b = await mock({ seed: 99 }); // the state carries its seed
    const loaded = await b.call('PUT', '/__mock/state', { ...control, body: saved });
    expect(loaded.status, loaded.text).toBe(200);
    expect(loaded.json).toMatchObject({ seed: 1, accounts: 2, tasks: 3 });
    // media URLs name the mock's own host: give both mocks the same one
    const [restA, restB] = [await secondHalf(a, ids), await secondHalf(b, ids)];
    for (let i = 0; i < restA.length; i++) expect(restB[i], `answer ${i}`).toBe(restA[i]);
    expect((await b.call('GET', '/__mock/state', control)).json).toEqual((await a.call('GET', '/__mock/state', control)).json);
  });

  it('a task in flight finishes when it would have; its money settles once', async () => {
    const a = await mock();
    const id = (await a.call('POST', pathOf('createVideoTask'), { body: videoBody() })).json.data.taskId;
    const p = videoPhases('family1-video-2-fast', 5);
    await a.advance(p.generatingMs - 1);
    const b = await mock();
    await b.call('PUT', '/__mock/state', { ...control, body: (await a.call('GET', '/__mock/state', control)).json });
    const get = async () => (await b.call('GET', pathOf('getVideoTask', { taskId: id }))).json.data;
    expect((await get()).status).toBe('generating');
    await b.advance(1);
    expect((await get()).status).toBe('uploading');
    await b.advance(p.uploadingMs);
    const t = await get();
    expect(t.status).toBe('success');
    expect(t.updatedAt).toBe(t.createdAt + p.generatingMs + p.uploadingMs);
    const ledger = (await b.call('GET', `/__mock/accounts/${KEY}`, control)).json.ledger.filter((e: { taskId: string | null }) => e.taskId === id);
    expect(ledger.map((e: { type: string }) => e.type)).toEqual(['reserve', 'capture']);
  });

  it('the free lane queue goes on after a load: waiting tasks start when a slot frees', async () => {
    const a = await mock();
    const newbie = 'mg_newbie_secret2';
    await a.call('PUT', `/__mock/accounts/${newbie}`, { ...control, body: { plan: 'free', everPaid: false } });
    const lane = imageBodyAt('image-b-3-pro', '1K');
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await a.call('POST', pathOf('createImageTask'), { key: newbie, body: lane })).json.data.taskId);
    await a.advance(1000);
    const b = await mock();
    await b.call('PUT', '/__mock/state', { ...control, body: (await a.call('GET', '/__mock/state', control)).json });
    const statuses = async (m: TestMock) =>
      Promise.all(ids.map(async (taskId) => (await m.call('GET', pathOf('getImageTask', { taskId }), { key: newbie })).json.data.status));
    expect(await statuses(b)).toEqual(['generating', 'generating', 'pending', 'pending']);
    await b.advance(30_000);
    await a.advance(30_000);
    expect(await statuses(b)).toEqual(['success', 'success', 'success', 'success']);
    expect(await statuses(b)).toEqual(await statuses(a));
  });

  it('a deleted key stays deleted, a key that was never seen is fresh', async () => {
    const a = await mock();
    await a.call('GET', pathOf('getSubscription'));
    await a.call('DELETE', `/__mock/accounts/${KEY}`, control);
    const b = await mock();
    await b.call('PUT', '/__mock/state', { ...control, body: (await a.call('GET', '/__mock/state', control)).json });
    expect((await b.call('GET', pathOf('getSubscription'))).status).toBe(401);
    expect((await b.call('GET', pathOf('getSubscription'), { key: OTHER_KEY })).json.data.balance).toBe(10_000);
  });
});

describe('refused documents', () => {
  const base = async () => {
    const a = await mock();
    await firstHalf(a);
    return { a, doc: (await a.call('GET', '/__mock/state', control)).json };
  };
  const cases: [string, (d: any) => unknown, string][] = [
    ['another version', (d) => ({ ...d, version: STATE_VERSION + 1 }), 'version'],
    ['not a state', () => ({ hello: 'world' }), 'format'],
    ['a ledger that does not sum to its balance', (d) => ((d.state.accounts.accounts[0].credits += 1), d), 'sums to'],
    ['a negative balance', (d) => ((d.state.accounts.accounts[0].credits = -5), d), 'accounts'],
    ['a hold of an account that is not there', (d) => (d.state.accounts.holds.push(['vt_x', { apiKey: 'mg_ghost_secret9', amount: 5 }]), d), 'no account'],
    ['a task stored twice', (d) => (d.state.stores.video.entries.push(d.state.stores.video.entries[0]), d), 'twice'],
    ['a task record without its status', (d) => (delete d.state.stores.video.entries[0].record.status, d), 'status'],
    ['a scheduled event without its kind', (d) => (delete d.state.scheduler.events[0].kind, d), 'kind'],
    ['an unknown top-level field', (d) => ((d.state.extra = 1), d), 'extra'],
  ];
  it.each(cases)('%s: 400 (10008) naming it, and nothing is replaced', async (_what, spoil, mention) => {
    const { a, doc } = await base();
    const b = await mock();
    await b.call('POST', pathOf('createVideoTask'), { body: videoBody() });
    const before = (await b.call('GET', '/__mock/state', control)).json;
    const r = await b.call('PUT', '/__mock/state', { ...control, body: spoil(structuredClone(doc)) });
    expect(r.status, r.text).toBe(400);
    expect(r.json.code).toBe(errorCatalog.CONTROL_INVALID_REQUEST.code);
    expect(r.json.message).toContain(mention);
    expect(r.json.message).toContain('nothing was loaded');
    expect((await b.call('GET', '/__mock/state', control)).json).toEqual(before);
    expect(a.bugs).toEqual([]);
  });

  it('POST /__mock/state/save without --state says how to get one (10008)', async () => {
    const m = await mock();
    const r = await m.call('POST', '/__mock/state/save', control);
    expect(r.status).toBe(400);
    expect(r.json.message).toContain('--state');
  });
});

describe('a saved state is checked in full against the areas (each refused naming the path of its first error; nothing replaced)', () => {
  type Doc = { state: { stores: Record<string, { entries: { record: Record<string, unknown> }[] }>; accounts: { holds: [string, { amount: number }][] } } };
  const cases: [string, (d: Doc) => void, string][] = [
    ['music tracks: 42', (d) => void (d.state.stores.music.entries[0].record.tracks = 42), 'stores.music.entries.0.record.tracks'],
    ['a status outside the area', (d) => void (d.state.stores.music.entries[0].record.status = 'exploded'), 'stores.music.entries.0.record.status'],
    [
      'a gutted record',
      (d) => {
        const r = d.state.stores['video'].entries[0].record;
        for (const k of Object.keys(r)) if (!['id', 'owner', 'status', 'createdAt', 'updatedAt'].includes(k)) delete r[k];
      },
      'stores.video.entries.0.record',
    ],
    ['a field of another area', (d) => void (d.state.stores['video'].entries[0].record.tracks = []), 'stores.video.entries.0.record'],
    ['a mistyped field', (d) => void (d.state.stores['video'].entries[0].record.duration = 'five'), 'stores.video.entries.0.record.duration'],
    ['an unknown store', (d) => void (d.state.stores['nope'] = { seq: 0, entries: [] } as never), 'stores.nope'],
    [
      'a hold unlike its reserve',
      (d) => {
        d.state.accounts.holds[0][1].amount = 1_000_000;
      },
      'accounts.holds.0',
    ],
  ];
  it.each(cases)('%s', async (_name, spoil, path) => {
    const m = await mock();
    expect((await m.call('POST', pathOf('createVideoTask'), { body: videoBody() })).status).toBe(200);
    expect((await m.call('POST', pathOf('generateMusic'), { body: musicBody() })).status).toBe(202);
    const before = (await m.call('GET', '/__mock/state', control)).json as Doc;
    expect(before.state.accounts.holds.length).toBeGreaterThan(0);
    // the mock's own state loads
    expect((await m.call('PUT', '/__mock/state', { ...control, body: before })).status).toBe(200);
    const doc = structuredClone(before);
    spoil(doc);
    const r = await m.call('PUT', '/__mock/state', { ...control, body: doc });
    expect(r.status, r.text).toBe(400);
    expect(r.json.code).toBe(errorCatalog.CONTROL_INVALID_REQUEST.code);
    expect(r.json.message).toContain(`state: ${path}`);
    expect((await m.call('GET', '/__mock/state', control)).json).toEqual(before);
  });
});
