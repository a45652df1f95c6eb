/**
 * An area's part of every account (mock/engine/accounts.ts, `AccountExtension`): the engine keeps it without knowing
 * it, makes it for new accounts, hands it to the area's plan and update hooks, shows and saves it under its field,
 * and loads a saved account without it (a state saved before the area existed) with the area's default.
 */
import { describe, expect, it } from 'vitest';
import { accountExtension } from '../mock/engine/accounts.ts';
import { Engine } from '../mock/engine/engine.ts';

const KEY = 'mg_ext_secret1';
/** A hand-written extension: a counter whose default depends on the plan. */
const tokens = accountExtension<{ left: number }>({
  field: 'tokens',
  init: (plan, preloaded) => ({ left: typeof preloaded === 'number' ? preloaded : plan === 'paid' ? 5 : 1 }),
  planChanged: (_value, plan) => ({ left: plan === 'paid' ? 5 : 1 }),
  update: (value, sent) => ({ left: value.left + Number(sent) }),
});

describe('account extensions', () => {
  it('a new account carries the value; the plan hook and the update hook set it; the view shows it under its field', () => {
    const engine = new Engine();
    engine.accounts.declare(tokens);
    const acc = engine.accounts.get(KEY, 0);
    expect(engine.accounts.extension(acc, tokens)).toEqual({ left: 5 });
    engine.accounts.extension(acc, tokens).left -= 2;
    expect(engine.accounts.view(acc).tokens).toEqual({ left: 3 });
    engine.accounts.update(KEY, { plan: 'free' }, 1);
    expect(engine.accounts.extension(acc, tokens)).toEqual({ left: 1 });
    engine.accounts.update(KEY, { tokens: 4 } as never, 2);
    expect(engine.accounts.view(acc)).toMatchObject({ apiKey: KEY, plan: 'free', tokens: { left: 5 } });
  });

  it('a preload gives its own field to init', () => {
    const engine = new Engine({ accounts: [{ apiKey: KEY, tokens: 9 }] });
    engine.accounts.declare(tokens);
    expect(engine.accounts.extension(engine.accounts.get(KEY, 0), tokens)).toEqual({ left: 9 });
  });

  it('saved and restored under its field; a saved account without it gets the default of its plan', () => {
    const engine = new Engine();
    engine.accounts.declare(tokens);
    engine.accounts.extension(engine.accounts.get(KEY, 0), tokens).left = 2;
    const snap = engine.snapshot();
    expect(snap.accounts.accounts[0].tokens).toEqual({ left: 2 });
    const other = new Engine();
    other.accounts.declare(tokens);
    other.restore(snap);
    expect(other.accounts.extension(other.accounts.find(KEY)!, tokens)).toEqual({ left: 2 });
    delete snap.accounts.accounts[0].tokens;
    other.restore(snap);
    expect(other.accounts.extension(other.accounts.find(KEY)!, tokens)).toEqual({ left: 5 });
  });

  it('two extensions of one field, or of a field every account has, are refused', () => {
    const engine = new Engine();
    engine.accounts.declare(tokens);
    engine.accounts.declare(tokens);
    expect(() => engine.accounts.declare(accountExtension({ field: 'tokens', init: () => 0 }))).toThrow(/two extensions of the field tokens/);
    expect(() => engine.accounts.declare(accountExtension({ field: 'credits', init: () => 0 }))).toThrow(/credits/);
  });
});
