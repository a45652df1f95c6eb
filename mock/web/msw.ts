/**
 * MSW (2 and 3) request handlers for the mock (`mediagen-contract/msw`,
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
import { createWorlds, sessionOf } from '../core/worlds.ts';
import { controlsOf, createControlClient, type ControlClient, type MockControls } from './controls.ts';
import { createFetchHandler, type FetchHandlerOptions } from './fetch.ts';
import { isMockPath } from './paths.ts';
import { withWallClock } from './wall-clock.ts';

export interface MockHandlersOptions extends EngineOptions, Omit<FetchHandlerOptions, 'publicUrl'> {
  /** The origin (and optional path prefix) the handlers answer under, e.g. http://localhost:4010 or location.origin; media URLs are built on it. Default http://localhost:4010. */
  baseUrl?: string;
  /**
   * An unknown path under the API's prefixes (the first segment of its
   * operations' paths other than web pages: `/v1/...`): `'error'` (default)
   * answers the 404 envelope (code 10004) as the server does, so a typo is an
   * API error; `'bypass'` lets it through, for an app that serves its own
   * routes there.
   */
  unknownApiPaths?: 'error' | 'bypass';
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
 * Creates MSW handlers answering, under `baseUrl`, the API operations'
 * paths, hosted media (`/media/...`), the control API (`/__mock/...`) and
 * session prefixes (`/sessions/<name>/...`): see isMockPath; and, unless
 * `unknownApiPaths: 'bypass'`, any other path under the API's prefixes
 * (`/v1/...`: the 404 envelope, as from the server). Every other
 * request is not matched and goes through (the app's modules, a dev server's
 * `/@vite/`, `/src/` and `/node_modules/.vite/deps/` requests, the favicon,
 * other origins), so `baseUrl` may be the app's own origin. The engine's
 * clock is manual unless `clock: 'real'` (wall time unless `wallNow` is
 * given).
 */
export function createMockHandlers(opts: MockHandlersOptions = {}): MockHandlers {
  const base = (opts.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const worlds = createWorlds({
    engine: withWallClock({ clock: 'manual', ...opts }),
    services: opts.services,
    mediaCacheBytes: opts.mediaCacheBytes,
    control: opts.control ?? { anyOrigin: true },
    runner: () => ({ strict: opts.strict ?? false }),
  });
  const handle = createFetchHandler({ ...opts, publicUrl: base }, worlds);
  const { origin, pathname } = new URL(base);
  // the API's prefixes, e.g. /v1/: under them an unknown path is the mock's (404 envelope) unless unknownApiPaths is 'bypass'
  const apiPrefixes =
    opts.unknownApiPaths === 'bypass'
      ? []
      : [
          ...new Set(
            Object.values(worlds.services.apiOperations)
              .filter((op) => op.response.kind !== 'page')
              .map((op) => op.path.split('/')[1].toLowerCase() + '/'),
          ),
        ];
  const underApi = (path: string): boolean => {
    const rest = sessionOf(path, undefined).path.toLowerCase();
    return apiPrefixes.some((p) => rest.startsWith('/' + p));
  };
  const prefix = pathname.replace(/\/+$/, '');
  const strip = (request: Request): Request => {
    if (!prefix) return request;
    const url = new URL(request.url);
    url.pathname = url.pathname.slice(prefix.length) || '/';
    return new Request(url, request);
  };
  const claims = (request: Request): boolean => {
    const url = new URL(request.url);
    if (url.origin !== origin) return false;
    const path = url.pathname;
    if (prefix && path !== prefix && !path.startsWith(prefix + '/')) return false;
    const rest = path.slice(prefix.length) || '/';
    return isMockPath(rest, worlds.routes) || underApi(rest);
  };
  const handler = http.all(
    ({ request }) => claims(request),
    ({ request }) => handle(strip(request)),
  );
  const fetch = (request: Request) => handle(strip(request));
  return { ...controlsOf(worlds.main.engine), handlers: [handler], fetch, control: createControlClient({ baseUrl: base, fetch }) };
}
