/**
 * The virtual clock (docs/architecture.md, "The engine"; decisions/0002-virtual-time.md). `manual`: time moves only when advanced.
 * `real`: follows a wall-time source multiplied by `speed`, plus any advances.
 * The wall-time source is injected, so the engine itself never reads Date.now.
 */
export type ClockMode = 'manual' | 'real';

export interface ClockOptions {
  mode: ClockMode;
  /** Virtual time at start, epoch ms. */
  startTime: number;
  /** Real mode: virtual ms per wall ms (default 1). */
  speed?: number;
  /** Real mode: wall time source in ms (the CLI passes Date.now). */
  wallNow?: () => number;
}

export class Clock {
  readonly mode: ClockMode;
  readonly startTime: number;
  readonly speed: number;
  private readonly wallNow: () => number;
  private wallStart = 0;
  private offset = 0;
  /** Times the clock jumped (an advance, setNow, reset): whatever follows virtual time must look again. */
  jumps = 0;

  constructor(opts: ClockOptions) {
    this.mode = opts.mode;
    this.startTime = opts.startTime;
    this.speed = opts.speed ?? 1;
    if (opts.mode === 'real' && !opts.wallNow) throw new Error('a real clock needs a wall-time source');
    this.wallNow = opts.wallNow ?? (() => 0);
    this.reset();
  }

  /** Virtual now, integer epoch ms. */
  now(): number {
    const elapsed = this.mode === 'real' ? (this.wallNow() - this.wallStart) * this.speed : 0;
    return Math.floor(this.startTime + elapsed + this.offset);
  }

  /** Moves virtual time forward by `ms` (>= 0) in either mode. */
  advance(ms: number): number {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('advance needs ms >= 0');
    this.offset += ms;
    this.jumps++;
    return this.now();
  }

  /** Sets virtual now to `now` (epoch ms), in either mode (a real clock goes on from there). */
  setNow(now: number): void {
    this.offset += now - this.now();
    this.jumps++;
  }

  /** Back to the start time. */
  reset(): void {
    this.offset = 0;
    this.wallStart = this.wallNow();
    this.jumps++;
  }
}
