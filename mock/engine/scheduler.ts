/**
 * The scheduler (docs/architecture.md, "The engine"; decisions/0002-virtual-time.md):
 * every future change of state is an event in one min-heap ordered by (due
 * time, sequence number). `runUntil(t)` runs every event due at or before t,
 * in order; an event may schedule further events, which run in the same call
 * if they are due.
 *
 * Events are data, `{kind, args}`, run by the handler registered for their
 * kind, so the whole schedule can be saved and restored with the rest of the
 * state. An event whose handler throws is reported to `onFault` and the run
 * goes on with the next event: one broken event never stalls the clock or
 * turns an unrelated request into a 500.
 */

import type { z } from 'zod';

/** The data of a scheduled event: its kind and JSON-serializable arguments. */
export interface EventData {
  kind: string;
  args: Record<string, unknown>;
}

/** A scheduled event as saved with the state. */
export interface ScheduledEvent extends EventData {
  due: number;
  seq: number;
}

/** Runs an event of one kind at its due time (virtual epoch ms). */
export type EventHandler = (args: Record<string, unknown>, at: number) => void;

export class Scheduler {
  private heap: ScheduledEvent[] = [];
  private seq = 0;
  private handlers = new Map<string, EventHandler>();
  private argSchemas = new Map<string, z.ZodType<Record<string, unknown>>>();
  /** Called when an event's handler throws (or no handler is registered for its kind). */
  onFault: (event: ScheduledEvent, error: unknown) => void = () => {};

  /** Number of pending events. */
  get size(): number {
    return this.heap.length;
  }

  /** Due time of the earliest pending event, or undefined when none. */
  nextDue(): number | undefined {
    return this.heap[0]?.due;
  }

  /**
   * Registers the handler of events of `kind` (one per kind; registering the
   * same function again is a no-op) and the schema of their args, which
   * saved events are checked against before they are loaded (see `problemsOf`).
   */
  handle(kind: string, handler: EventHandler, args: z.ZodType<Record<string, unknown>>): void {
    const had = this.handlers.get(kind);
    if (had && had !== handler) throw new Error(`scheduler: a handler for ${kind} is already registered`);
    this.handlers.set(kind, handler);
    this.argSchemas.set(kind, args);
  }

  /**
   * What is wrong with saved `events` for this scheduler, one message per
   * problem naming the event by its index: a kind no handler is registered
   * for, args its kind's schema refuses. Empty when they can all be loaded.
   */
  problemsOf(events: readonly EventData[]): string[] {
    const out: string[] = [];
    events.forEach((e, i) => {
      const schema = this.argSchemas.get(e.kind);
      if (!schema)
        return void out.push(`events.${i}.kind: ${JSON.stringify(e.kind)} is not an event this mock schedules (${[...this.handlers.keys()].join(', ')})`);
      const r = schema.safeParse(e.args);
      if (!r.success) out.push(...r.error.issues.map((issue) => `events.${i}.args${issue.path.map((p) => `.${String(p)}`).join('')}: ${issue.message}`));
    });
    return out;
  }

  /** True when a handler for `kind` is registered. */
  handles(kind: string): boolean {
    return this.handlers.has(kind);
  }

  /** Schedules event `kind` with `args` at virtual time `due` (epoch ms). */
  at(due: number, kind: string, args: Record<string, unknown>): void {
    this.heap.push({ due, seq: ++this.seq, kind, args });
    this.up(this.heap.length - 1);
  }

  /** Runs every event due at or before `now`; returns how many ran (faulty ones included). */
  runUntil(now: number): number {
    let ran = 0;
    while (this.heap.length > 0 && this.heap[0].due <= now) {
      const ev = this.pop();
      ran++;
      const handler = this.handlers.get(ev.kind);
      try {
        if (!handler) throw new Error(`no handler for scheduled event kind ${ev.kind}`);
        handler(ev.args, ev.due);
      } catch (e) {
        this.onFault(ev, e);
      }
    }
    return ran;
  }

  /** Drops every pending event. */
  clear(): void {
    this.heap = [];
    this.seq = 0;
  }

  /** The pending events and the sequence counter, for saving the state. */
  dump(): { events: ScheduledEvent[]; seq: number } {
    return { events: this.heap.map((e) => ({ ...e, args: { ...e.args } })), seq: this.seq };
  }

  /** Replaces the pending events with saved ones. */
  load(saved: { events: readonly ScheduledEvent[]; seq: number }): void {
    this.heap = [];
    for (const e of saved.events) {
      this.heap.push({ ...e, args: { ...e.args } });
      this.up(this.heap.length - 1);
    }
    this.seq = saved.seq;
  }

  private less(a: ScheduledEvent, b: ScheduledEvent): boolean {
    return a.due < b.due || (a.due === b.due && a.seq < b.seq);
  }

  private pop(): ScheduledEvent {
    const top = this.heap[0];
    const last = this.heap.pop()!;
    if (this.heap.length > 0) {
      this.heap[0] = last;
      this.down(0);
    }
    return top;
  }

  private up(i: number): void {
    const h = this.heap;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(h[i], h[p])) break;
      [h[i], h[p]] = [h[p], h[i]];
      i = p;
    }
  }

  private down(i: number): void {
    const h = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && this.less(h[l], h[m])) m = l;
      if (r < h.length && this.less(h[r], h[m])) m = r;
      if (m === i) return;
      [h[i], h[m]] = [h[m], h[i]];
      i = m;
    }
  }
}
