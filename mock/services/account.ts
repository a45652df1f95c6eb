/** The account service: GET /v1/user/subscription (document 1, "Account endpoint referenced by these services"; shape assumed). */
import type { Handler, Service } from './context.ts';

const getSubscription: Handler<'getSubscription'> = (_input, { account }) => {
  return { balance: account.credits, freeUsages: { ...account.freeUsages }, plan: account.plan };
};

export const accountService: Service<'getSubscription'> = {
  handlers: {
    getSubscription,
  },
};
