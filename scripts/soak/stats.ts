/**
 * Statistics and formatting of the soak's reports (scripts/soak.ts):
 * quantiles, a latency histogram, least-squares slopes, number formats and
 * text tables.
 */

// ---------------------------------------------------------------- statistics

/** The `q` quantile (0..1) of ascending `sorted`, nearest rank. */
export function quantile(sorted: number[], q: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/** Latencies over a whole run in logarithmic buckets 1% wide (from 0.01 ms), so a run of any length costs the same memory. */
export class Histogram {
  private counts: number[] = [];
  count = 0;
  add(ms: number): void {
    const i = Math.max(0, Math.ceil(Math.log(Math.max(ms, 0.01) / 0.01) / Math.log(1.01)));
    this.counts[i] = (this.counts[i] ?? 0) + 1;
    this.count++;
  }
  /** The `q` quantile, as the upper bound of its bucket (within 1%). */
  quantile(q: number): number {
    const rank = Math.max(1, Math.ceil(q * this.count));
    let seen = 0;
    for (let i = 0; i < this.counts.length; i++) {
      seen += this.counts[i] ?? 0;
      if (seen >= rank) return 0.01 * 1.01 ** i;
    }
    return NaN;
  }
}

/** Slope (y per x) of the least-squares line through the points, or NaN with fewer than 3. */
export function slope(points: { x: number; y: number }[]): number {
  const n = points.length;
  if (n < 3) return NaN;
  const mx = points.reduce((a, p) => a + p.x, 0) / n;
  const my = points.reduce((a, p) => a + p.y, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (const p of points) {
    sxy += (p.x - mx) * (p.y - my);
    sxx += (p.x - mx) ** 2;
  }
  return sxx === 0 ? NaN : sxy / sxx;
}

export const fmt = (n: number, d = 0) => (Number.isFinite(n) ? n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d }) : 'n/a');
export const ms = (n: number) => (Number.isFinite(n) ? (n < 10 ? n.toFixed(2) : n.toFixed(1)) : 'n/a');
export const mb = (n: number | undefined) => (n === undefined ? 'n/a' : `${n.toFixed(1)} MB`);
export const clock = (t: number) => `${Math.floor(t / 60_000)}:${String(Math.floor((t % 60_000) / 1000)).padStart(2, '0')}`;
const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));
export const lpad = (s: string, n: number) => (s.length >= n ? s : ' '.repeat(n - s.length) + s);
export function table(head: string[], rows: string[][]): string[] {
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? pad(c, w[i]) : lpad(c, w[i]))).join('  ');
  return [line(head), w.map((n) => '-'.repeat(n)).join('  '), ...rows.map(line)];
}
