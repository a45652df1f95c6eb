/**
 * The verifier's public shapes (docs/guides/verify.md): its options, one
 * check, a row of the summary, the coverage of the document, the report.
 */
import type { ApiDocument } from './document.ts';

/** What `verify` checks and how. */
export interface VerifyOptions {
  /** The server's base URL, e.g. https://staging.example.com or http://127.0.0.1:4010. */
  baseUrl: string;
  /** The API key requests are sent with (Authorization: Bearer). */
  apiKey: string;
  /** A second key of another account: its reads of the first key's tasks must be refused. */
  secondApiKey?: string;
  /** Only these operationIds (a lifecycle needs its create operation selected). An id the document does not have is a configuration error. */
  operations?: string[];
  /** Only the operations of these tags (areas), e.g. Video, Image. A tag the document does not have is a configuration error. */
  tags?: string[];
  /** safe (default): reads, estimates and refused requests, nothing created, any spend a violation; full: tasks created within `budget`. */
  mode?: 'safe' | 'full';
  /** Credits full mode may spend, a hard cap on the measured spend (default 1000 on a loopback URL; required beyond it). */
  budget?: number;
  /** Full mode: also send a charged create whose cost no estimate operation tells beforehand (default false: such creates are skipped). */
  allowUnpriced?: boolean;
  /** Varies the invented values (unknown ids, undeclared enum values). Default 1. */
  seed?: number;
  /** Requests in flight at once for the independent checks (default 4). */
  concurrency?: number;
  /** The server is mediagen-mock: move its virtual clock (POST /__mock/clock/advance) instead of waiting, and force failures with Prefer. Loopback only. */
  mock?: boolean;
  /** The document to verify against (default: the package's spec/openapi.json). */
  document?: ApiDocument;
  /** The fetch to send with (default the global fetch). Redirects are never followed. */
  fetch?: (request: Request) => Promise<Response>;
  /** Progress lines (default: none). */
  onProgress?: (line: string) => void;
  /** Longest time one exchange (headers and body) may take, seconds (default 30). A 429's wait is bounded by it too. */
  requestTimeoutS?: number;
  /** Longest time the whole run may take, seconds (default 1800); when it is up the report is made of the checks so far. */
  maxDurationS?: number;
  /** Largest JSON or text answer read, bytes (default 16 MiB); media: their Content-Length plus 64 KiB, at most 512 MiB. */
  maxBodyBytes?: number;
}

/** The evidence of a failed check: the request, the answer, the rule broken. */
export interface Evidence {
  request: string;
  answer: string;
  detail: string;
}

/** One check of one operation. */
export interface CheckResult {
  operationId: string;
  tag: string;
  /** The check's name, the same on every run of the same document and options (e.g. `body rule: maximum duration`, `answer: unknown id`). */
  rule: string;
  /** passed; failed (a violation); skipped (with `reason`); error (not run: the run stopped first). */
  outcome: 'passed' | 'failed' | 'skipped' | 'error';
  /** The contract rule a failure broke, e.g. `response schema`, `status declared`, `Retry-After`. */
  violation?: string;
  /** What failures of one root cause share (the summary groups by it), e.g. `response schema: /data/code type`. */
  cause?: string;
  evidence?: Evidence;
  /** Why a skipped check did not run, or why an error's did not. */
  reason?: string;
  /** Time spent on the check's exchanges, ms. */
  durationMs: number;
}

/** One row of the summary table. */
export interface SummaryRow {
  operationId: string;
  tag: string;
  checks: number;
  passed: number;
  failed: number;
  skipped: number;
  errors: number;
  firstFailure?: CheckResult;
}

/** One operation of the document in the coverage table: its checks, or the reason none ran. */
export interface CoverageRow {
  operationId: string;
  tag: string;
  checks: number;
  passed: number;
  failed: number;
  skipped: number;
  errors: number;
  /** Why the operation had no check passed or failed (not selected, safe mode, skipped because ...). */
  reason?: string;
}

/** Failures of one root cause: how many, and one of them. */
export interface FailureGroup {
  cause: string;
  count: number;
  example: CheckResult;
}

/** What `verify` found. */
export interface VerifyReport {
  baseUrl: string;
  mode: 'safe' | 'full';
  /** Every check passed and the run was not stopped. */
  ok: boolean;
  checks: CheckResult[];
  rows: SummaryRow[];
  coverage: CoverageRow[];
  causes: FailureGroup[];
  /** The measured balance change (first read minus last read of GET /v1/user/subscription); undefined when the balance could not be read. */
  creditsSpent: number | undefined;
  /** Balance at the start and at the end, as read. */
  balanceBefore?: number;
  balanceAfter?: number;
  budget: number;
  /** Requests sent again after a 429, and task reads while polling: reported apart from the checks. */
  retries: number;
  polls: number;
  /** Why the run stopped before its end (no answer, time up), if it did. */
  stopped?: string;
  durationMs: number;
}
