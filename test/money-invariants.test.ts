/**
 * Money and state invariants under concurrency, for every operation the
 * registry marks `charges: true` (walked, not listed): hundreds of concurrent
 * creates on one account whose balance covers only part of them, some forced
 * to fail (`Prefer: outcome=failed`) or to stall (`outcome=stuck`, when the
 * operation declares it), some invalid; then the virtual clock moves past
 * every timeout, and the account's ledger and the task reads must show:
 *
 * - the balance never went negative, and the ledger sums to it;
 * - the final balance is the opening balance minus the credits captured;
 * - every reserve ends in exactly one capture or one release (a partial
 *   capture is a capture and a release of the rest), never more;
 * - no created task is left in a status that is not terminal (terminal as the
 *   control API's activity stream says, checked against the task read);
 * - a rejected request charged nothing: every ledger entry names a task a 2xx
 *   returned (an operation that returns no task id: one reserve per 2xx).
 *
 * Multipart operations are sent their example's text fields as a form.
 *
 * And a burst of concurrent polls (task reads and lists) while the clock
 * advances changes no money: the ledger ends identical to the same run without them.
 *
 * And resets and key deletions interleave with slow bodies: for every charging
 * create and every multipart upload, bodies streamed slowly over a real socket
 * while a reset lands (the key used again meanwhile) and the key of another is
 * deleted leave no orphaned hold, refund nothing that was not taken, capture
 * nothing that was not reserved, and the state stays loadable by the mock itself.
 */
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { getOpenApiMetadata } from '@asteasolutions/zod-to-openapi';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { errorCatalog } from '../schemas/errors.ts';
import { operationIds, operations } from '../schemas/operations.ts';
import type { OperationDef } from '../schemas/registry-types.ts';
import { cloneForm, magicFiles, mp3Bytes, musicForm, musicFormFields, musicSong, pathOf, wavBytes } from './factories.ts';
import { type CallResult, readEventStream, startMock, type TestMock, useMocks } from './helpers.ts';

const spec = JSON.parse(readFileSync(new URL('../spec/openapi.json', import.meta.url), 'utf8'));
const all = operationIds.map((id) => operations[id] as OperationDef);
// creates only: an operation on something that exists (a podcast's audio call) is tested with its area, on tasks it makes first
const charging = all.filter((op) => op.charges && !op.request.params);
const HOUR = 3_600_000;

const mock = useMocks({ rateLimit: false });

interface LedgerEntry {
  seq: number;
  type: 'reserve' | 'capture' | 'release' | 'adjust';
  amount: number;
  balance: number;
  taskId: string | null;
}

/**
 * Creates whose body cannot be the schema example sent as JSON: a multipart upload, or a body naming something of
 * the key's that must exist first. Per key: the setup runs (before the key's opening balance is set), then gives a
 * factory of valid bodies. Every other charging create sends its example.
 */
const bodySetups: Record<string, (m: TestMock, key: string) => Promise<() => unknown>> = {
  generateInstrumental: async () => () => musicForm(musicFormFields.instrumental),
  generateSoundtrack: async () => () => musicForm(musicFormFields.soundtrack, { image: { bytes: magicFiles.jpeg } }),
  generateTrack: async (m, key) => {
    const { providerSongId } = await musicSong(m, key);
    return () => musicForm({ ...musicFormFields.track, providerSongId });
  },
  // remix takes platform audio only (document 3): a song of the key's
  remixMusic: async (m, key) => {
    const { providerSongId } = await musicSong(m, key);
    return () => musicForm({ ...musicFormFields.remix, providerSongId });
  },
  extendMusic: async (m, key) => {
    const { taskId } = await musicSong(m, key);
    return () => musicForm({ taskId });
  },
};

/** A factory of valid bodies of `op` for `key`: its setup's, or its example's. */
async function bodiesFor(m: TestMock, op: OperationDef, key: string): Promise<() => unknown> {
  const setup = bodySetups[op.operationId];
  if (setup) return setup(m, key);
  const body = exampleBody(op);
  return () => body;
}

/** A body `op` refuses with 400: unknown fields only (a JSON object with a mistyped prompt, or a form without the required fields). */
function invalidBody(op: OperationDef): unknown {
  return op.request.body?.kind === 'multipart' ? musicForm({ definitelyNotAField: 'true' }) : { definitelyNotAField: true, ...{ prompt: 42 } };
}

/** The example body of `op`, checked against its own schema. */
function exampleBody(op: OperationDef): unknown {
  const schema = op.request.body?.schema;
  const ex = schema ? (getOpenApiMetadata(schema as never) as { example?: unknown } | undefined)?.example : undefined;
  if (ex === undefined) throw new Error(`${op.operationId} charges credits but its body has no .openapi({example}); the money test needs one`);
  const r = schema!.safeParse(ex);
  if (!r.success) throw new Error(`${op.operationId}: its example does not parse with its own schema`);
  return ex;
}

/** Fields of the success data (or raw body) of `op`, when its schema is an object. */
function dataKeys(op: OperationDef): string[] {
  const s = (op.response as { schema?: unknown }).schema;
  return s instanceof z.ZodObject ? Object.keys(s.shape) : [];
}

/** The path parameter of `reader` (its one `{name}`). */
function idParam(reader: OperationDef): string {
  return /\{(\w+)\}/.exec(reader.path)![1];
}

/** The operation that reads one task of `op`'s area: a GET in the same tag whose path parameter names a field of `op`'s answer ({taskId}, {episodeId}). */
function readerOf(op: OperationDef): OperationDef | undefined {
  const keys = dataKeys(op);
  return all.find((o) => o.method === 'get' && o.tags[0] === op.tags[0] && /\{\w+\}/.test(o.path) && keys.includes(idParam(o)));
}

/** `reader`'s path for the task `id`. */
function readPath(reader: OperationDef, id: string): string {
  return reader.path.replace(`{${idParam(reader)}}`, encodeURIComponent(id));
}

/** The operation that lists the tasks of `op`'s area: a GET in the same tag without path parameters and with a query. */
function listerOf(op: OperationDef): OperationDef | undefined {
  return all.find((o) => o.method === 'get' && o.tags[0] === op.tags[0] && !o.path.includes('{') && o.request.query);
}

/** The catalogued error `op` answers when the balance is short (by its name). */
function insufficientOf(op: OperationDef) {
  const name = op.errors.find((n) => n.includes('INSUFFICIENT_CREDITS'));
  return name ? errorCatalog[name] : undefined;
}

/** The task id of a create answer (envelope or raw), if it has one: the field its reader's path names, else taskId. */
function taskIdOf(r: CallResult, reader: OperationDef | undefined): string | undefined {
  const field = reader ? idParam(reader) : 'taskId';
  const id = r.json?.data?.[field] ?? r.json?.[field];
  return typeof id === 'string' ? id : undefined;
}

/**
 * What `body` (an example, or an invalid value) is sent as: JSON as is; for a multipart operation, a form of its
 * fields as text (an example names no file: a multipart operation that charges must accept a body without one).
 */
function wireBody(op: OperationDef, body: unknown): unknown {
  if (op.request.body?.kind !== 'multipart' || body instanceof FormData) return body;
  const form = new FormData();
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) form.append(k, typeof v === 'string' ? v : JSON.stringify(v));
  return form;
}

function create(m: TestMock, op: OperationDef, key: string, body: unknown, prefer?: string): Promise<CallResult> {
  return m.call(op.method.toUpperCase(), op.path, { key, body: wireBody(op, body), ...(prefer ? { headers: { prefer } } : {}) });
}

/** The account of `key` with its whole ledger (every page, when the control API pages it). */
async function account(m: TestMock, key: string): Promise<{ credits: number; ledger: LedgerEntry[] }> {
  const ledger: LedgerEntry[] = [];
  for (let page = 1; ; page++) {
    const r = await m.call('GET', `/__mock/accounts/${key}?ledgerPage=${page}&ledgerPageSize=1000`, { key: null });
    expect(r.status, r.text).toBe(200);
    ledger.push(...(r.json.ledger as LedgerEntry[]));
    const total: number | undefined = r.json.ledgerTotal;
    if (total === undefined || ledger.length >= total || r.json.ledger.length === 0) return { credits: r.json.credits, ledger };
  }
}

async function setCredits(m: TestMock, key: string, credits: number): Promise<void> {
  const r = await m.call('PUT', `/__mock/accounts/${key}`, { key: null, body: { credits } });
  expect(r.status, r.text).toBe(200);
  expect(r.json.credits).toBe(credits);
}

/** The credits one create reserves, measured on a key of its own. */
async function priceOf(m: TestMock, op: OperationDef): Promise<number> {
  const key = 'mg_probe_price1';
  const body = await bodiesFor(m, op, key);
  const before = (await account(m, key)).ledger.length;
  const r = await create(m, op, key, body());
  expect(r.status, r.text).toBe(op.response.status);
  const reserves = (await account(m, key)).ledger.slice(before).filter((e) => e.type === 'reserve');
  expect(reserves).toHaveLength(1);
  expect(reserves[0].amount, 'a create reserves credits').toBeLessThan(0);
  return -reserves[0].amount;
}

/** Asserts the ledger is a chain of non-negative balances summing to `credits`. */
function expectSoundLedger(acc: { credits: number; ledger: LedgerEntry[] }): void {
  let running = 0;
  for (const e of acc.ledger) {
    running += e.amount;
    expect(e.balance, `entry ${e.seq}`).toBeGreaterThanOrEqual(0);
    expect(e.balance, `entry ${e.seq} continues the chain`).toBe(running);
  }
  expect(running, 'the ledger sums to the balance').toBe(acc.credits);
}

/** The events of a task from the control API's activity stream (replayed; the stream ends after the terminal one). */
async function taskEvents(m: TestMock, taskId: string): Promise<{ status: string; terminal: boolean; area: string }[]> {
  const s = await readEventStream(m.base, `/__mock/events?taskId=${encodeURIComponent(taskId)}`, {
    timeoutMs: 60_000, // ends at the terminal event: the limit only catches a hang
    stop: (events) => events.some((e) => e.data?.terminal === true),
  });
  expect(s.status).toBe(200);
  return s.events.map((e) => e.data);
}

/** Runs `fn` over `items` with at most `n` at a time. */
async function pool<T, R>(items: readonly T[], n: number, fn: (x: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]);
      }
    }),
  );
  return out;
}

describe('the registry has operations that charge credits', () => {
  it('at least one, each with a body example (JSON, or the text fields of a multipart body) or a body setup, and an insufficient-credits error', () => {
    expect(charging.length).toBeGreaterThan(0);
    for (const op of charging) {
      expect(['json', 'multipart'], op.operationId).toContain(op.request.body?.kind);
      if (!bodySetups[op.operationId]) expect(() => exampleBody(op)).not.toThrow();
      expect(insufficientOf(op), `${op.operationId} declares an insufficient-credits error`).toBeDefined();
    }
  });
});

describe.each(charging.map((op) => [op.operationId, op] as const))('%s', (_id, op) => {
  const N = 240;
  const reader = readerOf(op);
  const lister = listerOf(op);

  it(`${N} concurrent creates on one account (some forced to fail or stall, some invalid, the balance covering about half): money and task states add up`, async () => {
    const m = await mock();
    const price = await priceOf(m, op);
    const key = 'mg_money_burst1';
    const body = await bodiesFor(m, op, key);
    // the balance covers about half of the valid creates (a forced failure reserves too, until it fails)
    const opening = price * Math.floor(N * 0.45) + Math.floor(price / 2);
    await setCredits(m, key, opening);

    const kinds = Array.from({ length: N }, (_, i) =>
      i % 11 === 3 ? 'invalid' : i % 5 === 1 && op.outcomes?.includes('failed') ? 'failed' : i % 13 === 5 && op.outcomes?.includes('stuck') ? 'stuck' : 'plain',
    );
    const answers = await Promise.all(
      kinds.map((k) => (k === 'invalid' ? create(m, op, key, invalidBody(op)) : create(m, op, key, body(), k === 'plain' ? undefined : `outcome=${k}`))),
    );

    const ok = answers.filter((r) => r.status === op.response.status);
    const rejected = answers.filter((r) => r.status >= 400);
    expect(ok.length + rejected.length, 'every answer is the success status or an error').toBe(N);
    for (const r of rejected) expect(r.status, r.text).toBeLessThan(500);
    // some were refused for credits, some were invalid, some were accepted
    const insufficient = insufficientOf(op)!;
    expect(rejected.filter((r) => r.json?.code === insufficient.code).length, 'the balance ran out').toBeGreaterThan(0);
    expect(answers.filter((r, i) => kinds[i] === 'invalid' && r.status === 400).length).toBe(kinds.filter((k) => k === 'invalid').length);
    expect(ok.length).toBeGreaterThan(N / 4);
    const returned = ok.map((r) => taskIdOf(r, reader));
    const ids = returned.filter((x): x is string => x !== undefined);
    expect(new Set(ids).size, 'task ids are unique').toBe(ids.length);

    // past every timeout
    for (let i = 0; i < 4; i++) await m.advance(2 * HOUR);

    const acc = await account(m, key);
    expectSoundLedger(acc);
    const openingEntry = [...acc.ledger].reverse().find((e) => e.type === 'adjust');
    expect(openingEntry?.balance).toBe(opening);
    const after = acc.ledger.filter((e) => e.seq > openingEntry!.seq);
    expect(
      after.every((e) => e.type !== 'adjust'),
      'nothing but tasks moved money',
    ).toBe(true);

    // every reserve settled exactly once; captured credits = reserve - refund of captured tasks
    const perTask = new Map<string, LedgerEntry[]>();
    for (const e of after) perTask.set(e.taskId!, [...(perTask.get(e.taskId!) ?? []), e]);
    let captured = 0;
    for (const [taskId, entries] of perTask) {
      const types = entries.map((e) => e.type);
      const where = `${taskId}: ${types.join(', ')}`;
      expect(types[0], where).toBe('reserve');
      expect(
        types.filter((t) => t === 'reserve'),
        where,
      ).toHaveLength(1);
      const captures = types.filter((t) => t === 'capture').length;
      const releases = types.filter((t) => t === 'release').length;
      expect(captures, where).toBeLessThanOrEqual(1);
      expect(releases, where).toBeLessThanOrEqual(1);
      expect(captures + releases, `${where}: settled`).toBeGreaterThanOrEqual(1);
      const net = entries.reduce((n, e) => n + e.amount, 0);
      expect(net, `${where}: never refunds more than it reserved`).toBeLessThanOrEqual(0);
      if (captures === 0) expect(net, `${where}: a failed task is refunded in full`).toBe(0);
      else captured += -net;
    }
    expect(acc.credits, 'final balance = opening - credits captured').toBe(opening - captured);

    // rejected requests charged nothing
    if (ids.length === ok.length) {
      expect([...perTask.keys()].sort(), 'the ledger names exactly the tasks the 2xx answers returned').toEqual([...ids].sort());
    } else {
      // no task id in the answer (a synchronous generation): one reserve, captured at once, per 2xx
      expect(perTask.size, 'one charge per 2xx').toBe(ok.length);
      for (const entries of perTask.values()) expect(entries.map((e) => e.type)[1]).toBe('capture');
    }
    expect(after.filter((e) => e.type === 'reserve').length).toBe(ok.length);

    // a task id no GET reads (a synchronous result kept for its media): charged at once
    if (ids.length && !reader) for (const id of ids) expect(perTask.get(id)!.map((e) => e.type)).toEqual(['reserve', 'capture']);

    // no created task is left in a non-terminal status
    if (ids.length && reader) {
      const readSchema = spec.paths[reader.path][reader.method].responses[reader.response.status].content['application/json'].schema;
      const taskSchema = readSchema.properties.data.$ref
        ? spec.components.schemas[readSchema.properties.data.$ref.split('/').pop()]
        : readSchema.properties.data;
      // the status field: status, or processStatus (episodes)
      const statusField = taskSchema.properties.status ? 'status' : 'processStatus';
      const statusEnum: string[] = taskSchema.properties[statusField].enum;
      const results = await pool(ids, 16, async (taskId) => {
        const events = await taskEvents(m, taskId);
        const read = await m.call('GET', readPath(reader, taskId), { key });
        return { taskId, events, read };
      });
      const terminalStatuses = new Set<string>();
      const capturedStatuses = new Set<string>();
      const refundedStatuses = new Set<string>();
      for (const { taskId, events, read } of results) {
        expect(read.status, read.text).toBe(200);
        const last = events.at(-1);
        expect(last?.terminal, `${taskId}: its activity ends in a terminal change (${events.map((e) => e.status).join(' -> ')})`).toBe(true);
        expect(read.json.data[statusField], `${taskId}: the read agrees with the activity stream`).toBe(last!.status);
        expect(statusEnum).toContain(read.json.data[statusField]);
        terminalStatuses.add(last!.status);
        (perTask.get(taskId)!.some((e) => e.type === 'capture') ? capturedStatuses : refundedStatuses).add(last!.status);
      }
      // terminal statuses are the last values of the read's status enum: one for the tasks that were charged, another for those refunded
      for (const s of terminalStatuses) expect(statusEnum.slice(-2)).toContain(s);
      expect(capturedStatuses.size, `charged tasks end in one status: ${[...capturedStatuses].join(', ')}`).toBe(1);
      expect(refundedStatuses.size, `refunded tasks end in one status: ${[...refundedStatuses].join(', ')}`).toBeLessThanOrEqual(1);
      for (const s of refundedStatuses) expect(capturedStatuses.has(s), `${s} is not both a charged and a refunded end`).toBe(false);
      // forced failures ended in the failure status, refunded
      kinds.forEach((k, i) => {
        const id = taskIdOf(answers[i], reader);
        if (k !== 'failed' || !id) return;
        const types = perTask.get(id)!.map((e) => e.type);
        expect(types, `${id} was forced to fail`).toEqual(['reserve', 'release']);
      });
    }
  }, 60_000);

  it.skipIf(!reader && !lister)('a burst of concurrent polls while the clock advances changes no money', async () => {
    const key = 'mg_money_polls1';
    /** Creates 40 tasks one by one (deterministic), then advances the clock in steps, with or without polls alongside. */
    const scenario = async (withPolls: boolean) => {
      const m = await mock();
      const body = await bodiesFor(m, op, key);
      const ids: string[] = [];
      for (let i = 0; i < 40; i++) {
        const r = await create(m, op, key, body(), i % 4 === 1 && op.outcomes?.includes('failed') ? 'outcome=failed' : undefined);
        expect(r.status, r.text).toBe(op.response.status);
        const id = taskIdOf(r, reader);
        if (id) ids.push(id);
      }
      const before = await account(m, key);
      const polls: Promise<CallResult>[] = [];
      const steps: Promise<void>[] = [];
      for (let s = 0; s < 12; s++) {
        steps.push(m.advance(10 * 60_000));
        if (!withPolls) continue;
        for (const id of ids.slice(0, 20)) if (reader) polls.push(m.call('GET', readPath(reader, id), { key }));
        if (lister) for (let page = 1; page <= 4; page++) polls.push(m.call('GET', pathOf(lister.operationId as never, {}, { page, pageSize: 10 }), { key }));
        polls.push(m.call('GET', pathOf('getSubscription'), { key }));
      }
      const answers = await Promise.all(polls);
      await Promise.all(steps);
      for (const r of answers) expect(r.status, r.text).toBe(200);
      const acc = await account(m, key);
      expectSoundLedger(acc);
      // polls add no entries of their own: only the settlements of holds taken before the burst
      const reservedBefore = new Set(before.ledger.filter((e) => e.type === 'reserve').map((e) => e.taskId));
      for (const e of acc.ledger.slice(before.ledger.length)) {
        expect(['capture', 'release']).toContain(e.type);
        expect(reservedBefore.has(e.taskId)).toBe(true);
      }
      return {
        polls: answers.length,
        ledger: acc.ledger.map(({ type, amount, balance, taskId }) => ({ type, amount, balance, taskId })),
        credits: acc.credits,
      };
    };
    const quiet = await scenario(false);
    const polled = await scenario(true);
    expect(polled.polls).toBeGreaterThan(50);
    expect(polled.credits).toBe(quiet.credits);
    expect(polled.ledger).toEqual(quiet.ledger);
  });
});

/** Bodies for the slow-body walk: uploads carry a file (the handler reads it asynchronously), other creates their usual body. */
const slowBodySetups: Record<string, (m: TestMock, key: string) => Promise<() => unknown>> = {
  generateInstrumental: async () => () => musicForm({}, { referenceAudio: { bytes: mp3Bytes({ seconds: 5 }), type: 'audio/mpeg' } }),
  generateTrack: async () => () => musicForm(musicFormFields.track, { audio: { bytes: wavBytes(8), type: 'audio/wav' } }),
  createVoiceClone: async () => () => cloneForm(),
};

/** A request whose body is sent in two halves: the head and the first half at once, the rest when `finish` is called. */
interface SlowCall {
  finish(): Promise<CallResult>;
}

/** Starts `op` for `key` with `body`, sending the head and half of the body; the rest waits for `finish()`. */
async function slowCall(m: TestMock, op: OperationDef, key: string, body: unknown, prefer?: string): Promise<SlowCall> {
  const wire = wireBody(op, body);
  const encoded = wire instanceof FormData ? new Response(wire) : undefined;
  const bytes = encoded ? Buffer.from(await encoded.arrayBuffer()) : Buffer.from(JSON.stringify(wire));
  const contentType = encoded ? encoded.headers.get('content-type')! : 'application/json';
  const url = new URL(m.base);
  let settle!: (r: CallResult) => void;
  let fail!: (e: Error) => void;
  const done = new Promise<CallResult>((resolve, reject) => ((settle = resolve), (fail = reject)));
  const req = httpRequest(
    {
      host: url.hostname,
      port: url.port,
      method: op.method.toUpperCase(),
      path: op.path,
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': contentType,
        'content-length': String(bytes.length),
        ...(prefer ? { prefer } : {}),
      },
    },
    (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        settle({ status: res.statusCode ?? 0, headers: new Headers(), json, text });
      });
    },
  );
  req.on('error', fail);
  const half = Math.floor(bytes.length / 2);
  req.write(bytes.subarray(0, half));
  return {
    finish() {
      req.end(bytes.subarray(half));
      return done;
    },
  };
}

const slowOps = all.filter((op) => !op.request.params && (op.charges || op.request.body?.kind === 'multipart'));

// concurrent: each spends most of its time waiting on its streams and delays, with a mock of its own (started and
// closed here, not by useMocks, whose afterEach would close the mocks of the tests still running)
describe.concurrent.each(slowOps.map((op) => [op.operationId, op] as const))('%s with a slow body', (_id, op) => {
  it('a reset and a key deletion while bodies stream: no orphaned hold, no refund never taken, no capture never reserved, the state loadable', async () => {
    const m = await startMock({ rateLimit: false });
    try {
      await slowBodyRun(m, op);
    } finally {
      await m.close();
    }
    expect(m.bugs, 'strict-mode mock bugs').toEqual([]);
  }, 180_000);
});

/** The slow-body run of `op` on `m`: two calls of a key that is reset, one of a key that is deleted, while their bodies stream. */
async function slowBodyRun(m: TestMock, op: OperationDef): Promise<void> {
  {
    const key = 'mg_slow_reset1';
    const doomed = 'mg_slow_doomed1';
    const setup = slowBodySetups[op.operationId] ?? bodySetups[op.operationId];
    const body = setup ? await setup(m, key) : () => exampleBody(op);
    const failing = op.outcomes?.includes('failed');
    // the JSON bodies wait on a delay too (Express reads a JSON body whole before the operation runs)
    const delay = op.request.body?.kind === 'json' ? 'delay=150' : undefined;
    const prefer = (...p: (string | undefined)[]) => p.filter(Boolean).join(', ') || undefined;
    const calls = [
      await slowCall(m, op, key, body(), prefer(delay)),
      ...(failing ? [await slowCall(m, op, key, body(), prefer(delay, 'outcome=failed'))] : []),
    ];
    const doomedCall = await slowCall(m, op, doomed, body(), prefer(delay));
    // every request is inside its body: the server counts each from its arrival (waited for, not timed)
    await vi.waitFor(() => expect(m.inFlight()).toBe(calls.length + 1), { timeout: 60_000, interval: 10 });
    expect((await m.call('POST', '/__mock/reset', { key: null })).status).toBe(200);
    // the key is used again while its bodies still stream: a fresh account
    expect((await m.call('GET', pathOf('getSubscription'), { key })).status).toBe(200);
    expect((await m.call('DELETE', `/__mock/accounts/${doomed}`, { key: null })).status).toBeLessThan(500);
    const answers = await Promise.all(calls.map((c) => c.finish()));
    for (const r of answers) expect(r.status, r.text).toBeLessThan(500);
    const refused = await doomedCall.finish();
    expect(refused.status, `a deleted key's request: ${refused.text}`).toBe(401);

    // the state is loadable as it is now (holds of requests that completed after the reset)
    const mid = await m.call('GET', '/__mock/state', { key: null });
    expect(mid.status).toBe(200);
    const put = await m.call('PUT', '/__mock/state', { key: null, body: mid.json });
    expect(put.status, put.text).toBe(200);
    expect(
      mid.json.state.accounts.holds.every(([, h]: [string, { apiKey: string }]) => h.apiKey !== doomed),
      'no hold of the deleted key',
    ).toBe(true);

    for (let i = 0; i < 4; i++) await m.advance(2 * HOUR);
    const acc = await account(m, key);
    expectSoundLedger(acc);
    expect(acc.credits, 'nothing refunded that was not taken').toBeLessThanOrEqual(10_000);
    const reserved = new Set<string>();
    for (const e of acc.ledger) {
      if (e.type === 'reserve') reserved.add(e.taskId!);
      if (e.type === 'capture' || e.type === 'release')
        expect(reserved.has(e.taskId!), `${e.type} of ${e.taskId} follows its reserve on this ledger`).toBe(true);
    }
    const after = await m.call('GET', '/__mock/state', { key: null });
    expect(after.json.state.accounts.holds, 'every hold settled').toEqual([]);
    expect((await m.call('PUT', '/__mock/state', { key: null, body: after.json })).status).toBe(200);
    const snap = m.engine.snapshot();
    m.engine.restore(snap);
    expect(m.engine.snapshot()).toEqual(snap);
  }
}
