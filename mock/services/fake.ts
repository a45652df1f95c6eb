/**
 * Seeded fake content (faker 10, English locale only: importing one locale keeps
 * start-up fast). The one Faker instance is reseeded from
 * (engine seed, ...parts) before every use, so a value depends only on what
 * names it, never on call order (docs/architecture.md, "The engine").
 */
import type { Faker } from '@faker-js/faker';
import { faker } from '@faker-js/faker/locale/en';
import { hash32 } from '../engine/rng.ts';

/** Runs `make` with faker seeded from (seed, ...parts). */
export function fake<T>(seed: number, parts: (string | number)[], make: (f: Faker) => T): T {
  faker.seed(hash32(seed, ...parts));
  return make(faker);
}
