/**
 * One exchange the proxy forwarded to the upstream (or answered from the mock under `--fallback mock`): what
 * the caller sent and what it got back, as the proxy saw it. The proxy calls `onExchange` with one of these for
 * each forwarded request, after the answer's body has been read (bodies above the proxy's check cap are cut to
 * the cap; the caller still got every byte). Recorders take their sessions from this shape.
 */
export type ProxyExchange = {
  /** The contract's operationId the request matched (the router's answer), e.g. `createVideoTask`. */
  operationId: string;
  /** HTTP method, upper case. */
  method: string;
  /** Request path without the query string, e.g. `/v1/videos/abc`. */
  path: string;
  /** The raw query string without the leading `?`, empty when there is none. */
  query: string;
  /** Request headers as the caller sent them (lower-case names; repeated headers joined with `, `). */
  requestHeaders: Record<string, string>;
  /** Request body bytes, absent for requests without a body. */
  requestBody?: Uint8Array;
  /** HTTP status the caller got. */
  status: number;
  /** Response headers the caller got (lower-case names). */
  responseHeaders: Record<string, string>;
  /** Response body bytes (cut to the proxy's check cap). */
  responseBody: Uint8Array;
  /** Wall-clock time the request arrived, ms since the epoch. */
  startedAtMs: number;
  /** Wall-clock time the answer was complete, ms since the epoch. */
  endedAtMs: number;
  /** The mock session the request belonged to, when sessions are in use (decision 0019). */
  session?: string;
  /** True when the mock answered because the upstream did not (`--fallback mock`). */
  fromFallback: boolean;
};
