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

  list(): JournalEntry[] {
    return [...this.entries];
  }

  clear(): void {
    this.entries = [];
    this.seq = 0;
  }
}
