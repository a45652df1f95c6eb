/**
 * Account plans and the defaults of a new account. Pure data (no Zod), so the
 * engine can use it.
 *
 * Seed: document 1, "Free allowance for image generation" speaks of paid and
 * never-paid accounts; the plan names and the defaults are assumed (the seeds
 * show no account defaults).
 */

/** Account plans (assumed names). */
export const plans = ['free', 'paid'] as const;
export type Plan = (typeof plans)[number];

/** Defaults of an account created on a key's first use (assumed): 10000 credits, plan paid, everPaid, no free allowances. */
export const defaultAccount = { credits: 10_000, plan: 'paid' as Plan, everPaid: true, freeUsages: {} as Record<string, number> };
