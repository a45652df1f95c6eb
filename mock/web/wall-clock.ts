/**
 * The wall-time source of the library entry points (docs/architecture.md,
 * "The engine": the engine never reads the wall clock, its entry points
 * inject one, as the CLI does). `createMock`, `createMockHandlers` and
 * `createFetchHandler` give a real clock (`clock: 'real'`) `Date.now` when
 * the caller passes no `wallNow`, so the options work as pasted; a manual
 * clock gets none.
 */
import type { EngineOptions } from '../engine/engine.ts';

/** `opts` with `wallNow: Date.now` added when the clock is real and no source is given; otherwise `opts` itself. */
export function withWallClock<T extends Pick<EngineOptions, 'clock' | 'wallNow'>>(opts: T): T {
  if (opts.clock !== 'real' || opts.wallNow) return opts;
  return { ...opts, wallNow: () => Date.now() };
}
