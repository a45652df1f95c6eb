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
import { defineOperations, type Area } from './define.ts';

import { plans } from './plans.ts';

/** Free generations left, keyed by model id (document 1, "Free allowance for image generation"). */
export const FreeUsages = z.record(z.string(), z.number().int().nonnegative()).meta({ description: 'free generations left, keyed by model id' });

/** Data of GET /v1/user/subscription. */
export const SubscriptionData = z
  .strictObject({
    balance: z
      .number()
      .int()
      .nonnegative()
      .meta(provenanceMeta(assumed('the document says "live credit balance" but does not name the field'), 'live credit balance, in credits')),
    freeUsages: FreeUsages,
    plan: z.enum(plans).meta(provenanceMeta(assumed('the document does not show the plan field'), 'free or paid')),
  })
  .meta(provenanceMeta(fromSeed(1, 'Account endpoint referenced by these services')))
  .openapi('SubscriptionData', { example: { balance: 10000, freeUsages: { 'image-a-2': 3 }, plan: 'paid' } });

/** The account operation (document 1, "Account endpoint referenced by these services"). */
export const accountOperations = defineOperations('Account', {
  getSubscription: {
    method: 'get',
    path: '/v1/user/subscription',
    summary: 'Read the credit balance and free allowances',
    description:
      'Returns the live credit balance and the freeUsages map (free generations left per model). The full shape is assumed: the document says it is not shown.',
    provenance: fromSeed(1, 'Account endpoint referenced by these services'),
    auth: true,
    request: {},
    response: { status: 200, kind: 'envelope', schema: SubscriptionData, description: 'the account' },
    errors: [],
    validationError: 'INVALID_PREFER',
  },
});

/** The account area. */
export const accountArea = {
  tag: { name: 'Account', description: 'The account endpoint the generation services refer to (document 1).' },
  operations: accountOperations,
  tableAssumptions: [
    {
      subject: "a new key's account: 10000 credits, plan paid, everPaid true, freeUsages {} (`defaultAccount`)",
      reason: 'the documents show no account defaults',
    },
    { subject: 'API key prefix "mg"; keyId and secret are letters and digits', reason: 'document 1 says keys have a fixed prefix but does not show it' },
  ],
} satisfies Area;
