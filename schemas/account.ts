/**
 * The account endpoint the generation services refer to.
 *
 * Seed: document 1, "Account endpoint referenced by these services": GET
 * /v1/user/subscription returns the live credit balance and a freeUsages map;
 * its full response shape is "not shown", so the field names other than
 * freeUsages are assumed.
 */
import { z } from './zod.ts';
import { assumed, fromSeed, provenanceMeta } from './provenance.ts';

/** Account plans (assumed: the seed speaks of paid and never-paid accounts). */
export const plans = ['free', 'paid'] as const;
export type Plan = (typeof plans)[number];

/** Defaults of an account created on a key's first use (assumed; the issue fixes 10000 credits on plan paid). */
export const defaultAccount = { credits: 10_000, plan: 'paid' as Plan, everPaid: true, freeUsages: {} as Record<string, number> };

/** Free generations left, keyed by model id (document 1, "Free allowance for image generation"). */
export const FreeUsages = z.record(z.string(), z.number().int().nonnegative()).meta({ description: 'free generations left, keyed by model id' });

/** Data of GET /v1/user/subscription. */
export const SubscriptionData = z
  .strictObject({
    balance: z.number().int().nonnegative().meta(provenanceMeta(assumed('the seed says "live credit balance" but does not name the field'), 'live credit balance, in credits')),
    freeUsages: FreeUsages,
    plan: z.enum(plans).meta(provenanceMeta(assumed('the seed does not show the plan field'), 'free or paid')),
  })
  .meta(provenanceMeta(fromSeed(1, 'Account endpoint referenced by these services')))
  .openapi('SubscriptionData', { example: { balance: 10000, freeUsages: { 'image-a-2': 3 }, plan: 'paid' } });
