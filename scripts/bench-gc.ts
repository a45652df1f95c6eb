/**
 * The garbage collections of a server under load, from its `node
 * --trace-gc-nvp` lines (one line per collection: `pause=` ms, `gc=` its kind,
 * `allocated=` bytes since the previous one, `promoted=` bytes moved to the old
 * generation): `scripts/bench-profile.ts --trace-gc` prints them for the time
 * the load lasted, to tell a tail of latency made by pauses from one made by
 * CPU time per request.
 */
import type { Readable } from 'node:stream';

/** One collection: its kind (`s` scavenge, `mc` mark-compact, `mmc` memory-reducing mark-compact, `ms` minor mark-sweep), pause ms, bytes. */
interface Collection {
  kind: string;
  pause: number;
  allocated: number;
  promoted: number;
}

const KINDS: Record<string, string> = { s: 'scavenge', mc: 'mark-compact', mmc: 'mark-compact (reduce memory)', ms: 'minor mark-sweep' };

/** Reads `--trace-gc-nvp` lines from a child's stdout; keeps those between `start()` and `stop()`. */
export class GcLog {
  private collections: Collection[] = [];
  private recording = false;
  private rest = '';

  /** Follows `stdout` (the child's, piped) to its end. */
  follow(stdout: Readable): void {
    stdout.setEncoding('utf8');
    stdout.on('data', (chunk: string) => {
      const lines = (this.rest + chunk).split('\n');
      this.rest = lines.pop() ?? '';
      if (!this.recording) return;
      for (const line of lines) {
        const kind = / gc=(\w+)/.exec(line)?.[1];
        if (kind === undefined) continue;
        const num = (name: string) => Number(new RegExp(` ${name}=([\\d.]+)`).exec(line)?.[1] ?? 0);
        this.collections.push({ kind, pause: num('pause'), allocated: num('allocated'), promoted: num('promoted') });
      }
    });
  }

  start(): void {
    this.collections = [];
    this.recording = true;
  }

  stop(): void {
    this.recording = false;
  }

  /** Lines of the collections recorded: per kind, count, total and longest pause; bytes allocated and promoted per request. */
  report(requests: number): string[] {
    const out: string[] = [];
    const byKind = new Map<string, Collection[]>();
    for (const c of this.collections) byKind.set(c.kind, [...(byKind.get(c.kind) ?? []), c]);
    let pauses = 0;
    for (const [kind, cs] of byKind) {
      const total = cs.reduce((a, c) => a + c.pause, 0);
      pauses += total;
      const sorted = cs.map((c) => c.pause).sort((a, b) => a - b);
      out.push(
        `gc ${KINDS[kind] ?? kind}: ${cs.length}, pauses ${total.toFixed(0)} ms in all, median ${sorted[Math.floor(sorted.length / 2)].toFixed(1)} ms, longest ${sorted[sorted.length - 1].toFixed(1)} ms`,
      );
    }
    const allocated = this.collections.reduce((a, c) => a + c.allocated, 0);
    const promoted = this.collections.reduce((a, c) => a + c.promoted, 0);
    out.push(
      `gc: ${pauses.toFixed(0)} ms of pauses; per request ${Math.round(allocated / Math.max(1, requests))} B allocated, ${Math.round(promoted / Math.max(1, requests))} B promoted (${requests} requests)`,
    );
    return out;
  }
}
