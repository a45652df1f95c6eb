/**
 * A large state loads without stalling other requests (docs/architecture.md,
 * "The control API"; mock/services/saved-state.ts, mock/core/json-slices.ts):
 * PUT /__mock/state parses and checks its document a slice at a time on later
 * turns of the event loop, so health checks sent while it loads are answered
 * before it ends (counted, not timed), and they see the old state until the new
 * one replaces it at once. Before, the whole document was parsed, checked and
 * restored in one synchronous step after its body was read: no request was
 * answered meanwhile (a 59 MiB state held every request for 14 s).
 *
 * Also: a large body parses to the value JSON.parse gives, wherever its slices
 * fall (inside strings, between the bytes of one character), and a key
 * `__proto__` in a large body is still a member the state checks refuse by
 * name, never a prototype.
 */
import { describe, expect, it } from 'vitest';
import { createMockServer } from '../mock/http/app.ts';
import { createFetchHandler } from '../mock/web/fetch.ts';
import { parseJsonBody } from '../mock/core/request-body.ts';
import { errorCatalog } from '../schemas/errors.ts';

const BASE = 'http://localhost:4010';
const HOUR = 3_600_000;

/** A mock's fetch handler over a world that keeps up to `tasks` tasks. */
function world(tasks = 100_000) {
  const server = createMockServer({ clock: 'manual', seed: 1, rateLimit: false, limits: { tasks, tasksPerKey: tasks } });
  const handle = createFetchHandler({}, server.worlds);
  return (path: string, init?: RequestInit) => handle(new Request(new URL(path, BASE), init));
}

const json = { 'content-type': 'application/json' };

/**
 * A valid state document of about `bytes`: a video and an image task made by
 * the mock, finished, then cloned under ids of their own over 1,000 owners
 * (as `npm run soak -- --state-load` builds its states). Its `now` is an hour
 * after the mock's start.
 */
async function largeState(bytes: number): Promise<{ text: string; now: number; taskId: string; owner: string }> {
  const f = world();
  const auth = { ...json, authorization: 'Bearer mg_gen1_secret' };
  await f('/v1/video-generation/generate', { method: 'POST', headers: auth, body: JSON.stringify({ content: [{ type: 'text', text: 'a red fox in snow' }] }) });
  await f('/v1/images/generation/async', { method: 'POST', headers: auth, body: JSON.stringify({ provider: 'vendor_a', prompt: 'a red fox in snow' }) });
  await f('/__mock/clock/advance', { method: 'POST', headers: json, body: JSON.stringify({ ms: HOUR }) });
  type Entry = { id: string; owner: string; record: Record<string, unknown> };
  const doc = (await (await f('/__mock/state')).json()) as { state: { now: number; stores: Record<string, { seq: number; entries: Entry[] }> } };
  const base = JSON.stringify(doc).length;
  const areas = ['video', 'image'];
  const templates = areas.map((a) => doc.state.stores[a].entries[0]);
  const count = Math.floor((bytes - base) / (JSON.stringify(templates).length / 2 + 40));
  for (const [i, area] of areas.entries()) {
    const t = templates[i];
    const entries: Entry[] = [];
    for (let n = 0; n < count / 2; n++) {
      const id = `${t.id.slice(0, t.id.indexOf('_'))}_${n.toString(16).padStart(16, '0')}`;
      const owner = `mg_s${n % 1000}_secret`;
      entries.push({ ...t, id, owner, record: { ...t.record, id, owner } });
    }
    doc.state.stores[area] = { seq: doc.state.stores[area].seq, entries };
  }
  const last = doc.state.stores.video.entries.at(-1)!;
  return { text: JSON.stringify(doc), now: doc.state.now, taskId: last.id, owner: last.owner };
}

/** A request body that streams `bytes` and calls `done` once the reader asked for more after the last byte. */
function streamed(bytes: Uint8Array, done: () => void): ReadableStream<Uint8Array> {
  let sent = false;
  return new ReadableStream({
    pull(c) {
      if (!sent) {
        sent = true;
        return c.enqueue(bytes);
      }
      done();
      c.close();
    },
  });
}

const nextTurn = () => new Promise<void>((r) => setImmediate(r));

describe('a large state loads while other requests are answered', () => {
  it('health checks sent after its body was read are answered before the load ends, and see the old state until the new one is in', async () => {
    const state = await largeState(8 * 1024 * 1024);
    const bytes = new TextEncoder().encode(state.text);
    expect(bytes.length).toBeGreaterThan(7 * 1024 * 1024);
    const f = world();
    const before = (await (await f('/__mock/health')).json()) as { clock: { now: number } };
    expect(before.clock.now).toBeLessThan(state.now);

    let bodyRead = false;
    let loaded = false;
    const put = f('/__mock/state', { method: 'PUT', headers: json, body: streamed(bytes, () => (bodyRead = true)), duplex: 'half' } as RequestInit).then(
      async (r) => {
        loaded = true;
        return { status: r.status, body: (await r.json()) as { tasks: number; now: number } };
      },
    );
    while (!bodyRead) await nextTurn();
    // ten health checks, one a turn, every one sent and answered after the body was read
    const seen: { during: boolean; now: number }[] = [];
    for (let i = 0; i < 10; i++) {
      const h = (await (await f('/__mock/health')).json()) as { clock: { now: number } };
      seen.push({ during: !loaded, now: h.clock.now });
      await nextTurn();
    }
    const done = await put;
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.now).toBe(state.now);
    expect(seen.filter((s) => s.during)).toHaveLength(10);
    // the old state until the load ended (the new one has another now)
    expect(seen.map((s) => s.now)).toEqual(seen.map(() => before.clock.now));
    const after = (await (await f('/__mock/health')).json()) as { clock: { now: number } };
    expect(after.clock.now).toBe(state.now);
    // the last task cloned is there, its owner's
    const task = await f(`/v1/video-generation/tasks/${state.taskId}`, { headers: { authorization: `Bearer ${state.owner}` } });
    expect(task.status).toBe(200);
  });

  it('a large document refused at its last record leaves the state as it was; requests meanwhile are answered', async () => {
    const state = await largeState(3 * 1024 * 1024);
    const doc = JSON.parse(state.text) as { state: { stores: { image: { entries: { record: { status: string } }[] } } } };
    doc.state.stores.image.entries.at(-1)!.record.status = 'exploded';
    const f = world();
    const before = await (await f('/__mock/state')).text();
    const put = f('/__mock/state', { method: 'PUT', headers: json, body: JSON.stringify(doc) });
    let answered = 0;
    let ended = false;
    void put.then(() => (ended = true));
    while (!ended && answered < 1000) {
      if ((await f('/__mock/health')).status === 200) answered++;
      await nextTurn();
    }
    const r = await put;
    expect(r.status).toBe(400);
    const body = (await r.json()) as { code: number; message: string };
    expect(body.code).toBe(errorCatalog.CONTROL_INVALID_REQUEST.code);
    expect(body.message).toMatch(/^state: stores\.image\.entries\.\d+\.record\.status: /);
    expect(body.message).toContain('nothing was loaded');
    expect(answered).toBeGreaterThan(5);
    expect(await (await f('/__mock/state')).text()).toBe(before);
  });
});

describe('a large JSON body parsed in slices', () => {
  /** A body of more than 1 MiB around `inner`, with characters of 1 to 4 bytes in its strings so that slices fall between the bytes of one. */
  const large = (inner: string) => {
    const words = Array.from({ length: 30_000 }, (_, i) => ({ i, s: `é ✓ 🦊 "q" \\ ${i}`, n: [i, -i / 3, null, true] }));
    return `{"words":${JSON.stringify(words)},${inner}}`;
  };

  it('gives what JSON.parse gives', async () => {
    const text = large('"tail":{"a":[1,2,{"b":"c"}]}');
    const bytes = new TextEncoder().encode(text);
    expect(bytes.length).toBeGreaterThan(1024 * 1024);
    const value = parseJsonBody(bytes, 'application/json');
    expect(value).toBeInstanceOf(Promise);
    expect(await value).toEqual(JSON.parse(text));
  });

  it('refuses malformed JSON with MALFORMED_JSON', async () => {
    const bytes = new TextEncoder().encode(large('"tail":{"a":[1,2,}'));
    await expect(parseJsonBody(bytes, 'application/json') as Promise<unknown>).rejects.toMatchObject({ error: 'MALFORMED_JSON' });
  });

  it.each([
    ['"__proto__"', 'a literal key'],
    ['"\\u005f_proto__"', 'an escaped underscore'],
  ])('a key %s (%s) is a member, not a prototype: the state refuses it by name', async (key) => {
    const text = large(`"x":{${key}:{"polluted":true}}`);
    const value = (await parseJsonBody(new TextEncoder().encode(text), 'application/json')) as { x: object };
    expect(Object.getPrototypeOf(value.x)).toBe(Object.prototype);
    expect(Object.keys(value.x)).toEqual(['__proto__']);
    const f = world();
    const saved = await (await f('/__mock/state')).text();
    const store = `${key}:{"seq":0,"entries":[]}${saved.includes('"stores":{}') ? '' : ','}`;
    const spoiled = saved.replace('"stores":{', `"stores":{${store}`);
    expect(spoiled).not.toBe(saved);
    const padded = `${spoiled.slice(0, -1)}${' '.repeat(2 * 1024 * 1024)}}`;
    const r = await f('/__mock/state', { method: 'PUT', headers: json, body: padded });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { message: string }).message).toContain('state.stores: the reserved name "__proto__"');
  });
});
