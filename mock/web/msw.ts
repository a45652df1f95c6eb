/**
 * MSW (v2) request handlers for the mock (`mediagen-contract/msw`,
 * docs/architecture.md, "Transports"): one engine per handler set (seeded,
 * virtual clock), the same registry, validation and services as the Express
 * server, through the same request path, so a scripted session gets the same
 * bytes from both. Media URLs the handlers hand out are served by the handlers
 * too, so <img>, <audio> and <video> load them in the browser.
 *
 *   // Node (Vitest, Jest)
 *   const mock = createMockHandlers({ baseUrl: 'http://localhost:4010' });
 *   const server = setupServer(...mock.handlers); server.listen();
 *   mock.advance(60_000);
 *
 *   // Browser (Storybook, local development)
 *   const worker = setupWorker(...createMockHandlers({ baseUrl: location.origin, clock: 'real' }).handlers);
 *   await worker.start();
 */
import { http, type HttpHandler } from 'msw';
import type { EngineOptions } from '../engine/engine.ts';
import { createWorlds } from '../core/worlds.ts';
import { controlsOf, createControlClient, type ControlClient, type MockControls } from './controls.ts';
import { createFetchHandler, type FetchHandlerOptions } from './fetch.ts';

export interface MockHandlersOptions extends EngineOptions, Omit<FetchHandlerOptions, 'publicUrl'> {
  /** The origin (and optional path prefix) the handlers answer under, e.g. http://localhost:4010 or location.origin; media URLs are built on it. Default http://localhost:4010. */
  baseUrl?: string;
}

/** MSW handlers of one mock engine, with its control operations. */
export interface MockHandlers extends MockControls {
  /** Give these to setupServer(...) or setupWorker(...). */
  readonly handlers: HttpHandler[];
  /** Answers a request as the handlers do (no MSW involved). */
  fetch(request: Request): Promise<Response>;
  /** The control API (/__mock) as typed functions named by operationId, through the handlers. */
  readonly control: ControlClient;
}

/** Default base URL: where the mock server listens by default. */
export const DEFAULT_BASE_URL = 'http://localhost:4010';

/**
 * Creates MSW handlers answering every API operation, every control
 * operation (/__mock) and every hosted media file under `baseUrl`, in the
 * default world or a session (X-Mock-Session, /sessions/<name>); unknown
 * paths there get the 404 envelope, as from the server; other origins pass
 * through. The engine's clock is manual unless
 * `clock: 'real'`.
 */
export function createMockHandlers(opts: MockHandlersOptions = {}): MockHandlers {
  const base = (opts.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const worlds = createWorlds({
    engine: { clock: 'manual', ...opts },
    services: opts.services,
    mediaCacheBytes: opts.mediaCacheBytes,
    runner: () => ({ strict: opts.strict ?? false, control: opts.control ?? { anyOrigin: true } }),
  });
  const handle = createFetchHandler({ ...opts, publicUrl: base }, worlds);
  const prefix = new URL(base).pathname.replace(/\/+$/, '');
  const strip = (request: Request): Request => {
    if (!prefix) return request;
    const url = new URL(request.url);
    url.pathname = url.pathname.slice(prefix.length) || '/';
    return new Request(url, request);
  };
  const handler = http.all(`${base}/*`, ({ request }) => handle(strip(request)));
  const fetch = (request: Request) => handle(strip(request));
  return { ...controlsOf(worlds.main.engine), handlers: [handler], fetch, control: createControlClient({ baseUrl: base, fetch }) };
}
