/**
 * Seeded fake content (faker 10, English locale only: importing one locale keeps
 * start-up fast; a chunk of its own in a browser build). The one Faker instance is reseeded from
 * (engine seed, ...parts) before every use, so a value depends only on what
 * names it, never on call order (docs/architecture.md, "The engine").
 */
import type { Faker } from '@faker-js/faker';
import { hash32 } from '../engine/rng.ts';

// Loaded by a dynamic import (awaited once, when this module loads) so a
// browser build puts faker in a chunk of its own instead of the handlers'
// main chunk (docs/architecture.md, "Transports").
const { faker } = await import('@faker-js/faker/locale/en');

/** Runs `make` with faker seeded from (seed, ...parts). */
export function fake<T>(seed: number, parts: (string | number)[], make: (f: Faker) => T): T {
  faker.seed(hash32(seed, ...parts));
  return make(faker);
}
