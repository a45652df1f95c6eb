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
  private windows = new Map<string, number[]>();
  enabled = true;

  /** Records a request of `account` in `bucket` at `now` if it fits `limit` per `windowMs`. */
  hit(account: string, bucket: string, limit: number, windowMs: number, now: number): RateLimitDecision {
    if (!this.enabled) return { allowed: true, retryAfterMs: 0 };
    const key = `${bucket}\u0000${account}`;
    let times = this.windows.get(key);
    if (!times) this.windows.set(key, (times = []));
    while (times.length > 0 && times[0] <= now - windowMs) times.shift();
    if (times.length >= limit) return { allowed: false, retryAfterMs: times[0] + windowMs - now };
    times.push(now);
    return { allowed: true, retryAfterMs: 0 };
  }

  /** The windows of every (bucket, account) (for saving the state). */
  dump(): [string, number[]][] {
    return [...this.windows.entries()].map(([k, v]) => [k, [...v]]);
  }

  /** Replaces the windows with saved ones. */
  load(saved: readonly [string, number[]][]): void {
    this.windows = new Map(saved.map(([k, v]) => [k, [...v]]));
  }

  clear(): void {
    this.windows.clear();
  }
}
