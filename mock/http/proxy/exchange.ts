import type { Violation } from './check.ts';

/**
 * The longest silence (no header, no body byte) allowed of the upstream, and of a media host the recorder fetches,
 * before the request is given up, ms (assumed: a generation answer takes seconds; 30 s is well past one). `--upstream-timeout`.
 */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 30_000;

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

/** What the proxy adds to a journal entry. */
export interface ProxyMark {
  /** The mock answered because the upstream did not. */
  fallback: boolean;
  /** The violations of the answer (at most 10 listed). */
  violations: Violation[];
  /** Why the answer was not checked whole, or why the mock answered. */
  note?: string;
}
