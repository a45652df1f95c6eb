/**
 * The scheduler (docs/architecture.md, "The engine"; decisions/0002-virtual-time.md): every future change of state is an event in
 * one min-heap ordered by (due time, sequence number). `runUntil(t)` runs every
 * event due at or before t, in order; an event may schedule further events,
 * which run in the same call if they are due.
 */
export type EventAction = (at: number) => void;

interface ScheduledEvent {
  due: number;
  seq: number;
  action: EventAction;
}

export class Scheduler {
  private heap: ScheduledEvent[] = [];
  private seq = 0;

  /** Number of pending events. */
  get size(): number {
    return this.heap.length;
  }

  /** Due time of the earliest pending event, or undefined when none. */
  nextDue(): number | undefined {
    return this.heap[0]?.due;
  }

  /** Schedules `action` at virtual time `due` (epoch ms); it receives its due time. */
  at(due: number, action: EventAction): void {
    this.heap.push({ due, seq: ++this.seq, action });
    this.up(this.heap.length - 1);
  }

  /** Runs every event due at or before `now`; returns how many ran. */
  runUntil(now: number): number {
    let ran = 0;
    while (this.heap.length > 0 && this.heap[0].due <= now) {
      const ev = this.pop();
      ev.action(ev.due);
      ran++;
    }
    return ran;
  }

  /** Drops every pending event. */
  clear(): void {
    this.heap = [];
    this.seq = 0;
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
