/** One request forwarded to the upstream and its answer, as the proxy saw it. */
export interface ProxyExchange {
  operationId: string;
  method: string;
  path: string;
  query: string;
  requestHeaders: Record<string, string>;
  requestBody?: Uint8Array;
  status: number;
  responseHeaders: Record<string, string>;
  responseBody: Uint8Array;
  startedAtMs: number;
  endedAtMs: number;
  session?: string;
  fromFallback: boolean;
}
