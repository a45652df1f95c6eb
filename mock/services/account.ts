/** The account service: GET /v1/user/subscription (document 1, "Account endpoint referenced by these services"; shape assumed). */
import type { Service } from './context.ts';

export const accountService: Service<'getSubscription'> = {
  handlers: {
    getSubscription(_input, { account }) {
      return { balance: account.credits, freeUsages: { ...account.freeUsages }, plan: account.plan };
    },
  },
};
