/** The account service: GET /v1/user/subscription (document 1, "Account endpoint referenced by these services"; shape assumed). */
import type { Handler, Service } from './context.ts';
import { freeUsages } from './image.ts';

/** The live balance, the image area's free generations left (its account extension) and the plan. */
const getSubscription: Handler<'getSubscription'> = (_input, { engine, account }) => {
  return { balance: account.credits, freeUsages: { ...engine.accounts.extension(account, freeUsages) }, plan: account.plan };
};

export const accountService: Service<'getSubscription'> = {
  handlers: {
    getSubscription,
  },
};
