/**
 * Server-Sent Events (docs/architecture.md, "Response kinds"): writes the
 * events of an `EventStreamSource` as `event:`/`id:`/`data:` frames, sends a
 * heartbeat comment every `heartbeatMs` (real ms), and closes the stream when
 * the source is done. It follows the virtual clock: the source is polled
 * whenever the engine's state changes (a clock advance, events that ran, a
 * request handled), and in real clock mode also when the next scheduled event
 * or the source's own `nextAt` comes due.
 */
import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { EventStreamSource, StreamEvent } from '../../schemas/registry-types.ts';
import type { Engine } from '../engine/engine.ts';

export interface EventStreamOptions {
  /** Real ms between heartbeat comments. */
  heartbeatMs: number;
  /** Schemas of the declared events; with `onMockBug`, every event is checked (strict mode). */
  events?: Record<string, z.ZodType>;
  /** Called when an event does not match its declared schema (strict mode); the stream then ends with a comment. */
  onMockBug?: (problem: string) => void;
  /** Called when the source throws (a mock bug); the stream then ends with a comment. The process never crashes on it. */
  onError?: (problem: string) => void;
}

/** Streams `source` to `res` until it is done or the client goes away. Headers are written at once. */
export function streamEvents(req: Request, res: Response, engine: Engine, source: EventStreamSource, opts: EventStreamOptions): void {
  res.statusCode = 200;
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  res.setHeader('Connection', 'keep-alive');
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  // tells the in-flight count that this response stays open by design
  res.emit('streaming');
  res.write(': stream open\n\n');

  let id = 0;
  let closed = false;
  let wake: ReturnType<typeof setTimeout> | undefined;
  let pending = false;
  const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), opts.heartbeatMs);
  const unsubscribe = engine.onChange(() => schedule());

  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    if (wake) clearTimeout(wake);
    unsubscribe();
    source.close?.();
  };
  req.on('close', close);
  res.on('close', close);

  const write = (e: StreamEvent): boolean => {
    const schema = opts.events?.[e.event];
    if (opts.onMockBug && (!schema || !schema.safeParse(e.data).success)) {
      const problem = schema
        ? schema
            .safeParse(e.data)
            .error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`)
            .join('; ')
        : `event ${e.event} is not declared`;
      opts.onMockBug(`event ${e.event}: ${problem}`);
      res.write(`: mock bug: event ${e.event} does not match its declared schema\n\n`);
      return false;
    }
    res.write(`event: ${e.event}\nid: ${++id}\ndata: ${JSON.stringify(e.data)}\n\n`);
    return true;
  };

  function schedule() {
    if (closed || pending) return;
    pending = true;
    setImmediate(pump);
  }

  function pump() {
    pending = false;
    if (closed) return;
    let polled: ReturnType<EventStreamSource['poll']>;
    let now: number;
    try {
      now = engine.tick();
      polled = source.poll(now);
    } catch (e) {
      opts.onError?.((e as Error)?.stack ?? String(e));
      res.write(': mock bug: the event source failed\n\n');
      close();
      res.end();
      return;
    }
    const { events, done, nextAt } = polled;
    for (const e of events) {
      if (!write(e)) {
        close();
        res.end();
        return;
      }
    }
    if (done) {
      close();
      res.end();
      return;
    }
    if (engine.clock.mode === 'real') {
      if (wake) clearTimeout(wake);
      const due = Math.min(nextAt ?? Number.POSITIVE_INFINITY, engine.scheduler.nextDue() ?? Number.POSITIVE_INFINITY);
      if (Number.isFinite(due)) wake = setTimeout(schedule, Math.max(1, Math.ceil((due - now) / engine.clock.speed)));
    }
  }

  pump();
}
