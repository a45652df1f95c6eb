/** The account service: GET /v1/user/subscription (document 1, "Account endpoint referenced by these services"; shape assumed). */
import type { Handlers } from './context.ts';

export const accountHandlers: Handlers<'getSubscription'> = {
  getSubscription(_input, { account }) {
    return { balance: account.credits, freeUsages: { ...account.freeUsages }, plan: account.plan };
  },
};
