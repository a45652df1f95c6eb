/**
 * Server-Sent Events, transport-neutral (docs/architecture.md, "Response
 * kinds"): writes the events of an `EventStreamSource` as `event:`/`id:`/
 * `data:` frames to a sink, sends a heartbeat comment every `heartbeatMs`
 * (real ms), and ends the sink when the source is done. It follows the
 * virtual clock: the source is polled whenever the engine's state changes (a
 * clock advance, events that ran, a request handled), and in real clock mode
 * also when the next scheduled event or the source's own `nextAt` comes due.
 * A source with a `topic` (a task id) is polled only when that task changes
 * (the activity feed names it) or the clock jumps (an advance, a reset, a
 * restore): one listener per engine sorts the changes out, so open streams
 * cost a handled request nothing unless it touches their task.
 * The Express server writes the sink to the response; the fetch handlers to a
 * ReadableStream.
 */
import type { z } from 'zod';
import type { EventStreamSource, StreamEvent } from '../../schemas/registry-types.ts';
import { createSlot, type Engine } from '../engine/engine.ts';

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

/** Where the frames go: text written in order, then end() once. */
export interface EventSink {
  write(text: string): void;
  end(): void;
}

/** The first bytes of every stream (a comment: some clients wait for a first byte before they report the stream open). */
export const STREAM_OPEN = ': stream open\n\n';

/** Wakes the streams of one engine: those of a topic when its task changed, all when the clock jumped or the feed cannot tell. */
class Wakers {
  private all = new Set<() => void>();
  private untopiced = new Set<() => void>();
  private byTopic = new Map<string, Set<() => void>>();
  private unsubscribe?: () => void;
  private seenSeq = 0;
  private seenJumps = 0;

  constructor(private readonly engine: Engine) {}

  /** Registers `wake` for `topic` (undefined: every change); returns its removal. */
  add(topic: string | undefined, wake: () => void): () => void {
    if (!this.unsubscribe) {
      this.seenSeq = this.engine.activity.lastSeq;
      this.seenJumps = this.engine.clock.jumps;
      this.unsubscribe = this.engine.onChange(() => this.dispatch());
    }
    this.all.add(wake);
    let set = this.untopiced;
    if (topic !== undefined) {
      set = this.byTopic.get(topic) ?? new Set();
      this.byTopic.set(topic, set);
    }
    set.add(wake);
    return () => {
      this.all.delete(wake);
      set.delete(wake);
      if (topic !== undefined && set.size === 0) this.byTopic.delete(topic);
      if (this.all.size === 0) {
        this.unsubscribe?.();
        this.unsubscribe = undefined;
      }
    };
  }

  private dispatch(): void {
    const { activity, clock } = this.engine;
    const seq = activity.lastSeq;
    const changes = seq > this.seenSeq ? activity.since(this.seenSeq) : [];
    // a reset or a restore moves the clock; a feed that went back or dropped changes cannot say what changed
    const everything = clock.jumps !== this.seenJumps || seq < this.seenSeq || changes.length < seq - this.seenSeq;
    this.seenSeq = seq;
    this.seenJumps = clock.jumps;
    if (everything) return void [...this.all].forEach((w) => w());
    for (const w of [...this.untopiced]) w();
    for (const c of changes) for (const w of [...(this.byTopic.get(c.taskId) ?? [])]) w();
  }
}

/** The wakers of an engine's open streams. */
const streamWakers = createSlot('event-stream wakers', (engine) => new Wakers(engine));

/**
 * Pumps `source` into `sink` until it is done; returns `close`, to call when
 * the client goes away (idempotent; it stops timers and listeners and closes
 * the source, without ending the sink).
 */
export function pumpEvents(engine: Engine, source: EventStreamSource, opts: EventStreamOptions, sink: EventSink): () => void {
  sink.write(STREAM_OPEN);
  let id = 0;
  let closed = false;
  let wake: ReturnType<typeof setTimeout> | undefined;
  let pending = false;
  const heartbeat = setInterval(() => sink.write(': heartbeat\n\n'), opts.heartbeatMs);
  const wakers = engine.slot(streamWakers);
  const unsubscribe = wakers.add(source.topic, () => schedule());

  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    if (wake) clearTimeout(wake);
    unsubscribe();
    source.close?.();
  };
  const finish = () => {
    close();
    sink.end();
  };

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
      sink.write(`: mock bug: event ${e.event} does not match its declared schema\n\n`);
      return false;
    }
    sink.write(`event: ${e.event}\nid: ${++id}\ndata: ${JSON.stringify(e.data)}\n\n`);
    return true;
  };

  function schedule() {
    if (closed || pending) return;
    pending = true;
    setTimeout(pump, 0);
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
      sink.write(': mock bug: the event source failed\n\n');
      return finish();
    }
    const { events, done, nextAt } = polled;
    for (const e of events) if (!write(e)) return finish();
    if (done) return finish();
    if (engine.clock.mode === 'real') {
      if (wake) clearTimeout(wake);
      const due = Math.min(nextAt ?? Number.POSITIVE_INFINITY, engine.scheduler.nextDue() ?? Number.POSITIVE_INFINITY);
      if (Number.isFinite(due)) wake = setTimeout(schedule, Math.max(1, Math.ceil((due - now) / engine.clock.speed)));
    }
  }

  pump();
  return close;
}
