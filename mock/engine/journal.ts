/** The request journal: the most recent API requests and their response status (a ring of `capacity`). */
import type { JournalEntry } from '../../schemas/control.ts';

export class Journal {
  private entries: JournalEntry[] = [];
  private seq = 0;

  constructor(private readonly capacity = 500) {}

  record(e: Omit<JournalEntry, 'seq'>): void {
    this.entries.push({ seq: ++this.seq, ...e });
    if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
  }

  /** API requests recorded since the start (or the last reset), the dropped ones included. */
  get total(): number {
    return this.seq;
  }

  list(): JournalEntry[] {
    return [...this.entries];
  }

  /** The entries and the sequence counter (for saving the state). */
  dump(): { entries: JournalEntry[]; seq: number } {
    return { entries: [...this.entries], seq: this.seq };
  }

  /** Replaces the entries with saved ones (the last `capacity`). */
  load(saved: { entries: readonly JournalEntry[]; seq: number }): void {
    this.entries = saved.entries.slice(-this.capacity);
    this.seq = saved.seq;
  }

  clear(): void {
    this.entries = [];
    this.seq = 0;
  }
}
