/**
 * The activity feed: every change of a task's status, in order, for the
 * control API's event stream (a bounded ring of the most recent `capacity`).
 */
import { Ring } from './ring.ts';

/** One change of status of a task of any area. */
export interface TaskActivity {
  /** Position in the feed, from 1. */
  seq: number;
  /** Virtual time of the change, epoch ms. */
  at: number;
  /** The area whose task changed (its store name, e.g. video). */
  area: string;
  taskId: string;
  /** The key that owns the task. */
  apiKey: string;
  /** The new status (the area's own status word; `deleted` when the task was deleted). */
  status: string;
  /** The task will not change again. */
  terminal: boolean;
}

export class ActivityFeed {
  private readonly entries: Ring<TaskActivity>;
  private seq = 0;

  constructor(capacity = 1000) {
    this.entries = new Ring(capacity);
  }

  /** Appends a change; beyond `capacity`, the oldest goes. */
  record(e: Omit<TaskActivity, 'seq'>): void {
    // its fields named, not spread: one shape for every entry, and no generic copy per task change
    this.entries.push({ seq: ++this.seq, at: e.at, area: e.area, taskId: e.taskId, apiKey: e.apiKey, status: e.status, terminal: e.terminal });
  }

  /** Sequence number of the latest change (0 when none). */
  get lastSeq(): number {
    return this.seq;
  }

  /** Changes after `seq`, oldest first (those still in the ring). */
  since(seq: number): TaskActivity[] {
    if (this.entries.length === 0 || seq >= this.seq) return [];
    const first = this.entries.at(0)!.seq;
    return this.entries.toArray(seq + 1 - first);
  }

  /** The entries and the sequence counter (for saving the state). */
  dump(): { entries: TaskActivity[]; seq: number } {
    return { entries: this.entries.toArray(), seq: this.seq };
  }

  /** Replaces the entries with saved ones (the last `capacity`). */
  load(saved: { entries: readonly TaskActivity[]; seq: number }): void {
    this.entries.load(saved.entries);
    this.seq = saved.seq;
  }

  clear(): void {
    this.entries.clear();
    this.seq = 0;
  }
}
