/**
 * The event-stream writer (mock/http/event-stream.ts) on small sources: frames
 * and ids, the end when the source is done, a poll on every change of the
 * engine, a wake-up at the source's own `nextAt` on the real clock, and mock
 * bugs (a source that throws, an event outside its schema) ending the stream
 * with a report instead of crashing the process.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { EventStreamSource } from '../schemas/registry-types.ts';
import { Engine } from '../mock/engine/engine.ts';
import { streamEvents } from '../mock/http/event-stream.ts';
import { readEventStream } from './helpers.ts';

let servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => new Promise<void>((r) => (s.closeAllConnections(), s.close(() => r())))));
  servers = [];
});

/** Serves `source()` as an event stream on a fresh server; returns its base URL and the bugs reported. */
async function serve(engine: Engine, source: () => EventStreamSource, events?: Record<string, z.ZodType>) {
  const bugs: string[] = [];
  const app = express();
  app.get('/s', (req, res) =>
    streamEvents(req, res, engine, source(), {
      heartbeatMs: 60_000,
      onError: (p) => bugs.push(p),
      ...(events ? { events, onMockBug: (p) => bugs.push(p) } : {}),
    }),
  );
  app.get('/alive', (_req, res) => void res.send('yes'));
  const server: Server = await new Promise((r) => {
    const s = app.listen(0, '127.0.0.1', () => r(s));
  });
  servers.push(server);
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, bugs };
}

/** Emits `tick` with the virtual time at each poll after `every` ms of virtual time, done after `count`. */
function ticker(every: number, count: number, start: number): EventStreamSource {
  let sent = 0;
  return {
    poll(now) {
      const due = Math.min(count, Math.floor((now - start) / every));
      const events = [];
      while (sent < due) events.push({ event: 'tick', data: { n: ++sent } });
      return { events, done: sent >= count, nextAt: start + (sent + 1) * every };
    },
  };
}

describe('streamEvents', () => {
  it('manual clock: a poll per change of the engine; frames carry event, id and JSON data; the stream ends when done', async () => {
    const engine = new Engine();
    const start = engine.clock.now();
    const { base, bugs } = await serve(engine, () => ticker(1000, 3, start), { tick: z.object({ n: z.number() }) });
    const s = await readEventStream(base, '/s', {
      onOpen: () => {
        engine.advance(1000);
        engine.advance(2500);
      },
    });
    expect(s.ended).toBe(true);
    expect(s.events).toEqual([
      { event: 'tick', id: '1', data: { n: 1 } },
      { event: 'tick', id: '2', data: { n: 2 } },
      { event: 'tick', id: '3', data: { n: 3 } },
    ]);
    expect(bugs).toEqual([]);
  });

  it("real clock: the source's own nextAt wakes the stream with nothing else happening", async () => {
    const engine = new Engine({ clock: 'real', wallNow: Date.now, speed: 100 });
    const start = engine.clock.now();
    const { base } = await serve(engine, () => ticker(5000, 2, start)); // 5 s virtual = 50 ms wall
    const t0 = performance.now();
    // the stream ends by itself: the limit only catches a hang
    const s = await readEventStream(base, '/s', { timeoutMs: 60_000 });
    expect(s.ended).toBe(true);
    expect(s.events.map((e) => e.data.n)).toEqual([1, 2]);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(80);
  });

  it('a source that throws ends the stream with a comment and a reported bug; the process serves on', async () => {
    const engine = new Engine();
    const { base, bugs } = await serve(engine, () => ({
      poll: () => {
        throw new Error('source broke');
      },
    }));
    const s = await readEventStream(base, '/s', { timeoutMs: 60_000 });
    expect(s.ended).toBe(true);
    expect(s.comments.some((c) => c.includes('mock bug'))).toBe(true);
    expect(bugs.join('\n')).toContain('source broke');
    expect(await (await fetch(`${base}/alive`)).text()).toBe('yes');
  });

  it('strict: an event outside its schema, or not declared, is not sent; the stream ends and the bug is reported', async () => {
    const engine = new Engine();
    for (const [event, data] of [
      ['tick', { n: 'one' }],
      ['tock', { n: 1 }],
    ] as const) {
      const { base, bugs } = await serve(engine, () => ({ poll: () => ({ events: [{ event, data }], done: false }) }), { tick: z.object({ n: z.number() }) });
      const s = await readEventStream(base, '/s', { timeoutMs: 60_000 });
      expect(s.ended).toBe(true);
      expect(s.events).toEqual([]);
      expect(bugs).toHaveLength(1);
      expect(bugs[0]).toContain(event);
    }
  });

  it('a client that goes away stops the polling (the source is closed once)', async () => {
    const engine = new Engine();
    let closed = 0;
    let polls = 0;
    const { base } = await serve(engine, () => ({
      poll: () => (polls++, { events: [], done: false }),
      close: () => void closed++,
    }));
    await readEventStream(base, '/s', { timeoutMs: 150 });
    // the server sees the client go when its socket closes: waited for, not timed
    await vi.waitFor(() => expect(closed).toBe(1), { timeout: 60_000, interval: 20 });
    const after = polls;
    engine.advance(1000);
    // a poll the advance asked for would run on a 0 ms timer set before this one, and timers run in the order they
    // fall due: after this one it would have run, however slow the machine (ordering, not wall time)
    await new Promise((r) => setTimeout(r, 5));
    expect(polls).toBe(after);
    expect(closed).toBe(1);
  });
});
