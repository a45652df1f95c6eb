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

/**
 * Voice cloning on an account (document 2, "Private voice" and "Limits"): `quota` confirmations included per
 * period, `confirmationsUsed` of them this period, `maxSpeakers` private voices kept at once.
 */
export interface VoiceCloneAllowance {
  quota: number;
  confirmationsUsed: number;
  maxSpeakers: number;
}

/**
 * Voice-clone allowance of a new account by plan (assumed: the seed shows none): paid 3 confirmations per period
 * and 5 voices; free none (a free account's confirmation answers NEED_UPGRADE). The period never resets by itself
 * (assumed: its length is not shown); the control API sets `confirmationsUsed` back.
 */
export const defaultVoiceClone: Record<Plan, VoiceCloneAllowance> = {
  paid: { quota: 3, confirmationsUsed: 0, maxSpeakers: 5 },
  free: { quota: 0, confirmationsUsed: 0, maxSpeakers: 0 },
};
