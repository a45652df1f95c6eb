/**
 * Exchanges as the proxy (`--upstream`) makes them, for tests of the recorder
 * without the proxy: a request sent to an upstream mock with fetch, its answer
 * read whole, both handed as a `ProxyExchange` to `onExchange`. The times are
 * the upstream's clock (a manual clock in tests: the statuses follow it), as
 * the proxy stamps the wall time of a real upstream. The recorder behind the
 * proxy itself is tested in test/record-replay.test.ts too ("through the
 * proxy itself").
 */
import { operations } from '../schemas/operations.ts';
import { createRouteTable } from '../mock/core/routes.ts';
import type { ProxyExchange } from '../mock/http/proxy/exchange.ts';

const routes = createRouteTable(operations);

/** What a client sees of one answer. */
export interface Seen {
  status: number;
  headers: Headers;
  bytes: Uint8Array;
  json: any;
}

/** A client of `base`: `call` sends an API request (JSON body) with `key`, `get` fetches a URL (media) as is. */
export interface Client {
  call(method: string, path: string, o?: { body?: unknown; raw?: string }): Promise<Seen>;
  get(url: string): Promise<Seen>;
}

async function seen(res: Response): Promise<Seen> {
  const bytes = new Uint8Array(await res.arrayBuffer());
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, bytes, json };
}

/**
 * A client of `base` with API key `key`; with `observe`, every API request and
 * its answer go to it as a ProxyExchange stamped with `clock()` (the upstream's time).
 */
export function clientOf(base: string, key: string, observe?: { onExchange: (x: ProxyExchange) => void; clock: () => number }): Client {
  return {
    async call(method, path, o = {}) {
      const requestHeaders: Record<string, string> = { authorization: `Bearer ${key}` };
      const text = o.raw ?? (o.body === undefined ? undefined : JSON.stringify(o.body));
      if (text !== undefined) requestHeaders['content-type'] = 'application/json';
      const startedAtMs = observe?.clock() ?? 0;
      const res = await fetch(base + path, { method, headers: requestHeaders, body: text });
      const s = await seen(res);
      if (observe) {
        const q = path.indexOf('?');
        const pathOnly = q < 0 ? path : path.slice(0, q);
        const match = routes.find(method, pathOnly);
        const responseHeaders: Record<string, string> = {};
        res.headers.forEach((v, k) => (responseHeaders[k] = v));
        observe.onExchange({
          operationId: match?.kind === 'operation' ? match.operationId : 'unknown',
          method,
          path: pathOnly,
          query: q < 0 ? '' : path.slice(q + 1),
          requestHeaders,
          ...(text === undefined ? {} : { requestBody: new TextEncoder().encode(text) }),
          status: s.status,
          responseHeaders,
          responseBody: s.bytes,
          startedAtMs,
          endedAtMs: observe.clock(),
          fromFallback: false,
        });
      }
      return s;
    },
    async get(url) {
      return seen(await fetch(url));
    },
  };
}
