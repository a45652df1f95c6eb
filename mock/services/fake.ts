/**
 * Seeded fake content (faker 10, English locale only: importing one locale keeps
 * start-up fast; a chunk of its own in a browser build). The one Faker instance is reseeded from
 * (engine seed, ...parts) before every use, so a value depends only on what
 * names it, never on call order (docs/architecture.md, "The engine").
 */
import type { Faker } from '@faker-js/faker';
import { hash32 } from '../engine/rng.ts';

// Loaded by a dynamic import on first use (loadFake: the operation runner and
// the media answerer await it before anything that may call fake runs), so a
// browser build puts faker in a chunk of its own that a page fetches with its
// first API request, not at start (docs/architecture.md, "Transports").
let faker: Faker | undefined;
let loading: Promise<void> | undefined;

/** Loads faker once; resolves at once after the first time. */
export function loadFake(): Promise<void> {
  return (loading ??= import('@faker-js/faker/locale/en').then((m) => {
    faker = m.faker;
  }));
}

/** Runs `make` with faker seeded from (seed, ...parts). Throws when faker is not loaded yet (await loadFake() first). */
export function fake<T>(seed: number, parts: (string | number)[], make: (f: Faker) => T): T {
  if (!faker) throw new Error('fake: faker is not loaded yet (await loadFake() before the first use)');
  faker.seed(hash32(seed, ...parts));
  return make(faker);
}
