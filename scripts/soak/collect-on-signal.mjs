// Preloaded into the mock by the soaks (`node --expose-gc --import ./scripts/soak/collect-on-signal.mjs`):
// a SIGUSR2 runs a full garbage collection, so a soak reads what the process keeps (its resident memory with no
// garbage left), not how far the collector happened to be when it read. Used by `npm run soak -- --bodies`;
// never part of the mock itself.
process.on('SIGUSR2', () => globalThis.gc?.());
