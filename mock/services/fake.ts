/**
 * Seeded fake content (faker 10). The one Faker instance is reseeded from
 * (engine seed, ...parts) before every use, so a value depends only on what
 * names it, never on call order (DESIGN.md, "Determinism").
 */
import { Faker, en } from '@faker-js/faker';
import { hash32 } from '../engine/rng.ts';

const faker = new Faker({ locale: [en] });

/** Runs `make` with faker seeded from (seed, ...parts). */
export function fake<T>(seed: number, parts: (string | number)[], make: (f: Faker) => T): T {
  faker.seed(hash32(seed, ...parts));
  return make(faker);
}
