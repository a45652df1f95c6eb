/**
 * An in-process mock for long fuzz runs (scripts/fuzz.ts), started the way
 * test/helpers.ts starts one (manual clock, seed 1, strict responses) but
 * without vitest.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMockServer, type MockOptions } from '../../mock/http/app.ts';

/** A running mock: its base URL, the bugs strict mode reported, and how to stop it. */
export interface RunningMock {
  base: string;
  bugs: string[];
  close(): Promise<void>;
}

/** Starts a mock on an ephemeral port of 127.0.0.1. */
export async function startFuzzMock(opts: MockOptions = {}): Promise<RunningMock> {
  const bugs: string[] = [];
  const { app } = createMockServer({ clock: 'manual', seed: 1, strict: true, onMockBug: (id, p) => bugs.push(`${id}: ${p}`), ...opts });
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bugs,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
