/**
 * The runner goes on at once when nothing on a request's way is asynchronous (mock/core/operation.ts, runApi;
 * docs/architecture.md, "Keeping the request path fast"): a create whose body the transport has at hand has run,
 * its credits held, and `run` returns the answer itself; with a body that comes as a promise (a streamed body), nothing has run
 * until it comes, and both answer alike.
 */
import { describe, expect, it } from 'vitest';
import type { OperationRequest, OperationTrace } from '../mock/core/operation.ts';
import { createWorlds } from '../mock/core/worlds.ts';
import { videoBody } from './factories.ts';
import { KEY } from './helpers.ts';

function setUp() {
  const world = createWorlds({ runner: () => ({ strict: true }) }).main;
  const credits = () => world.engine.accounts.get(KEY, world.engine.clock.now()).credits;
  const request = (readBody: () => unknown): OperationRequest => ({
    authorization: `Bearer ${KEY}`,
    params: {},
    query: {},
    readBody,
    origin: 'http://127.0.0.1:4010',
  });
  return { world, credits, request };
}

describe('the runner without awaits', () => {
  it('a create with its body at hand holds its credits before run returns; with a promised body, once it comes', async () => {
    const { world, credits, request } = setUp();
    // the first request loads the lazy modules (faker, media): awaited once
    expect(
      (
        await world.run(
          'createVideoTask',
          request(() => videoBody()),
        )
      ).status,
    ).toBe(200);

    const start = credits();
    const trace: Partial<OperationTrace> = {};
    const atHand = world.run(
      'createVideoTask',
      request(() => videoBody()),
      trace,
    );
    // ran already, and answered: the answer itself, the body journaled, the hold taken
    expect(atHand).not.toBeInstanceOf(Promise);
    expect(trace.body).toEqual(videoBody());
    const held = start - credits();
    expect(held).toBeGreaterThan(0);
    const a = await atHand;
    expect(a.status).toBe(200);

    const trace2: Partial<OperationTrace> = {};
    const later = world.run(
      'createVideoTask',
      request(() => Promise.resolve(videoBody())),
      trace2,
    );
    // nothing ran: the body has not come
    expect(later).toBeInstanceOf(Promise);
    expect(trace2.body).toBeUndefined();
    expect(start - credits()).toBe(held);
    const b = await later;
    expect(b.status).toBe(200);
    expect(start - credits()).toBe(2 * held);
    // the same answer but for the ids
    const shape = (x: typeof a) => JSON.stringify(x.body).replace(/[a-z]+_[0-9a-f]{16}/g, 'id');
    expect(shape(b)).toBe(shape(a));
  });

  it('a body that does not parse answers its error at once, and the same when it comes later', async () => {
    const { world, request } = setUp();
    await world.run(
      'createVideoTask',
      request(() => videoBody()),
    );
    const bad = videoBody({ duration: 'five' });
    const now = await world.run(
      'createVideoTask',
      request(() => bad),
    );
    const later = await world.run(
      'createVideoTask',
      request(() => Promise.resolve(bad)),
    );
    expect(now.status).toBe(400);
    expect(later.status).toBe(400);
    expect(JSON.stringify(later.body)).toBe(JSON.stringify(now.body));
  });
});
