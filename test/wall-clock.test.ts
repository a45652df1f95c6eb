/**
 * `clock: 'real'` with no wall-time source works at every library entry point
 * (createMock, createMockHandlers, createFetchHandler): they inject the wall
 * clock (Date.now) as the CLI does, so the README's recipe runs as pasted.
 * Date is faked, so the wall time is set by the test and nothing is timed.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFetchHandler, createMock } from '../mock/index.ts';
import { createMockHandlers } from '../mock/web/msw.ts';

const WALL = Date.UTC(2026, 0, 1);

/** Virtual now read over the control API (GET /__mock/clock). */
async function clockOf(fetch: (r: Request) => Promise<Response>): Promise<{ now: number; mode: string }> {
  const res = await fetch(new Request('http://localhost:4010/__mock/clock'));
  expect(res.status).toBe(200);
  return (await res.json()) as { now: number; mode: string };
}

describe("clock: 'real' without a wall-time source", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(WALL);
  });
  afterEach(() => vi.useRealTimers());

  it('createMock follows wall time x speed', async () => {
    const mock = createMock({ clock: 'real', speed: 60 });
    const start = mock.now();
    vi.setSystemTime(WALL + 1_000);
    expect(mock.now() - start).toBe(60_000);
    const c = await clockOf((r) => mock.fetch(r));
    expect(c.mode).toBe('real');
    expect(c.now - start).toBe(60_000);
  });

  it('createMockHandlers follows wall time x speed', async () => {
    const mock = createMockHandlers({ baseUrl: 'http://localhost:4010', clock: 'real', speed: 60 });
    const start = mock.now();
    vi.setSystemTime(WALL + 2_000);
    expect(mock.now() - start).toBe(120_000);
    expect((await clockOf((r) => mock.fetch(r))).now - start).toBe(120_000);
  });

  it('createFetchHandler follows wall time x speed', async () => {
    const handle = createFetchHandler({ clock: 'real', speed: 10 });
    const start = (await clockOf(handle)).now;
    vi.setSystemTime(WALL + 3_000);
    const c = await clockOf(handle);
    expect(c.mode).toBe('real');
    expect(c.now - start).toBe(30_000);
  });

  it('a given wall-time source is used instead of Date.now', () => {
    let wall = 500;
    const mock = createMockHandlers({ clock: 'real', speed: 2, wallNow: () => wall });
    const start = mock.now();
    wall += 1_000;
    vi.setSystemTime(WALL + 50_000);
    expect(mock.now() - start).toBe(2_000);
  });

  it('a manual clock (the default) does not follow wall time', () => {
    const mock = createMock();
    const start = mock.now();
    vi.setSystemTime(WALL + 60_000);
    expect(mock.now()).toBe(start);
  });
});
