/**
 * The mock in-process (`import { createMock } from 'mediagen-contract'`):
 * the Express server of mock/http and a socket-free `fetch` on one engine,
 * with the control operations as methods. For Vitest and Jest suites that
 * want the mock without a separate process:
 *
 *   const mock = createMock({ seed: 1 });
 *   const base = await mock.listen();          // http://127.0.0.1:<free port>
 *   await mock.fetch('/v1/account', { headers: { Authorization: `Bearer ${key}` } });
 *   mock.advance(60_000);                      // the virtual clock (manual by default)
 *   await mock.close();
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMockServer, type MockOptions } from './http/app.ts';
import { controlsOf, createControlClient, type ControlClient, type MockControls } from './web/controls.ts';
import { createFetchHandler } from './web/fetch.ts';
import { withWallClock } from './web/wall-clock.ts';

export type { MockOptions } from './http/app.ts';
export {
  createControlClient,
  ControlError,
  type ControlClient,
  type ControlClientOptions,
  type ControlRequest,
  type ControlResult,
  type MockControls,
} from './web/controls.ts';
export { composeServices, defaultServices, type AnyService } from './services/index.ts';
export { createFetchHandler, type FetchHandler, type FetchHandlerOptions } from './web/fetch.ts';

/** A mock in this process. */
export interface InProcessMock extends MockControls {
  /** The Express app (mount it in your own server, or use listen()). */
  readonly app: ReturnType<typeof createMockServer>['app'];
  /** The base URL while listening (e.g. http://127.0.0.1:41234), else undefined. */
  readonly url: string | undefined;
  /** Listens on `port` (default 0: a free port) of `host` (default 127.0.0.1); resolves to the base URL. */
  listen(port?: number, host?: string): Promise<string>;
  /** Stops listening (open event streams are closed); resolves when the port is free. */
  close(): Promise<void>;
  /**
   * Sends a request to the mock without a socket; a relative URL is resolved
   * against the listening base URL (or http://localhost:4010). Same answers
   * and bytes as over HTTP.
   */
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;
  /** The control API (/__mock) as typed functions named by operationId (`advanceClock`, `putAccount`, ...), through `fetch`. */
  readonly control: ControlClient;
}

/**
 * Creates a mock in this process: its own seeded engine (manual clock unless
 * `clock: 'real'`, on wall time unless `wallNow` is given), the Express app, a socket-free fetch, and the control
 * operations as methods.
 */
export function createMock(opts: MockOptions = {}): InProcessMock {
  const server = createMockServer(withWallClock({ clock: 'manual', ...opts }));
  // the socket-free fetch answers in the server's worlds, behind the same control guard
  const handle = createFetchHandler({ strict: opts.strict, publicUrl: opts.publicUrl, heartbeatMs: opts.heartbeatMs }, server.worlds);
  let listening: Server | undefined;
  let url: string | undefined;
  const fetchIt = (input: string | URL | Request, init?: RequestInit) => {
    const base = url ?? 'http://localhost:4010';
    const request = input instanceof Request ? input : new Request(new URL(String(input), base), init);
    return handle(init && input instanceof Request ? new Request(input, init) : request);
  };
  return {
    ...controlsOf(server.engine),
    control: createControlClient({ baseUrl: 'http://localhost:4010', fetch: fetchIt, token: opts.controlToken }),
    app: server.app,
    get url() {
      return url;
    },
    listen(port = 0, host = '127.0.0.1') {
      if (listening) return Promise.reject(new Error(`already listening at ${url}`));
      return new Promise<string>((resolve, reject) => {
        const s = server.app.listen(port, host, (err?: Error) => {
          if (err) return reject(err);
          const a = s.address() as AddressInfo;
          listening = s;
          url = `http://${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}`;
          resolve(url);
        });
        s.once('error', reject);
      });
    },
    close() {
      const s = listening;
      listening = undefined;
      url = undefined;
      if (!s) return Promise.resolve();
      return new Promise<void>((resolve) => {
        s.close(() => resolve());
        s.closeAllConnections();
      });
    },
    fetch: fetchIt,
  };
}
