/**
 * Per-account sliding-window rate limiter on the virtual clock (document 1,
 * "Limits": 5 video generate requests per minute per user). Every request that
 * reaches the limiter counts, accepted or not validated yet; a rejected one does not.
 */
export interface RateLimitDecision {
  allowed: boolean;
  /** When not allowed: ms until the oldest request in the window leaves it. */
  retryAfterMs: number;
}

export class RateLimiter {
  /** Request times by account, then bucket. */
  private windows = new Map<string, Map<string, number[]>>();
  enabled = true;

  /** Records a request of `account` in `bucket` at `now` if it fits `limit` per `windowMs`. */
  hit(account: string, bucket: string, limit: number, windowMs: number, now: number): RateLimitDecision {
    if (!this.enabled) return { allowed: true, retryAfterMs: 0 };
    let buckets = this.windows.get(account);
    if (!buckets) this.windows.set(account, (buckets = new Map<string, number[]>()));
    let times = buckets.get(bucket);
    if (!times) buckets.set(bucket, (times = []));
    while (times.length > 0 && times[0] <= now - windowMs) times.shift();
    if (times.length >= limit) return { allowed: false, retryAfterMs: times[0] + windowMs - now };
    times.push(now);
    return { allowed: true, retryAfterMs: 0 };
  }

  /** Forgets every window of `account` (its account was forgotten). */
  forget(account: string): void {
    this.windows.delete(account);
  }

  /** Number of accounts with windows. */
  get accounts(): number {
    return this.windows.size;
  }

  /** The windows of every (bucket, account), keyed `bucket NUL account` (for saving the state). */
  dump(): [string, number[]][] {
    return [...this.windows].flatMap(([account, buckets]) => [...buckets].map(([bucket, v]): [string, number[]] => [`${bucket}\u0000${account}`, [...v]]));
  }

  /** Replaces the windows with saved ones (as `dump` gives them). */
  load(saved: readonly [string, number[]][]): void {
    this.windows = new Map();
    for (const [key, v] of saved) {
      const cut = key.indexOf('\u0000');
      const bucket = cut < 0 ? key : key.slice(0, cut);
      const account = cut < 0 ? '' : key.slice(cut + 1);
      let buckets = this.windows.get(account);
      if (!buckets) this.windows.set(account, (buckets = new Map<string, number[]>()));
      buckets.set(bucket, [...v]);
    }
  }

  clear(): void {
    this.windows.clear();
  }
}
