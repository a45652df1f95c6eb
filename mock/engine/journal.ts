/** The request journal: the most recent API requests and their response status (a ring of `capacity`). */
import type { JournalEntry } from '../../schemas/control.ts';
import { Ring } from './ring.ts';

export class Journal {
  private readonly entries: Ring<JournalEntry>;
  private seq = 0;

  constructor(capacity = 500) {
    this.entries = new Ring(capacity);
  }

  /** Records one request with the next sequence number; beyond `capacity`, the oldest entry goes. */
  record(e: Omit<JournalEntry, 'seq'>): void {
    this.entries.push({ seq: ++this.seq, ...e });
  }

  /** API requests recorded since the start (or the last reset), the dropped ones included. */
  get total(): number {
    return this.seq;
  }

  /** The entries kept, oldest first. */
  list(): JournalEntry[] {
    return this.entries.toArray();
  }

  /** The entries and the sequence counter (for saving the state). */
  dump(): { entries: JournalEntry[]; seq: number } {
    return { entries: this.entries.toArray(), seq: this.seq };
  }

  /** Replaces the entries with saved ones (the last `capacity`). */
  load(saved: { entries: readonly JournalEntry[]; seq: number }): void {
    this.entries.load(saved.entries);
    this.seq = saved.seq;
  }

  clear(): void {
    this.entries.clear();
    this.seq = 0;
  }
}
