/**
 * The shape of one catalogued error (schemas/errors.ts re-exports it; the
 * blocks under schemas/errors/ and the joined catalog are checked against it).
 */
import type { Provenance } from '../provenance.ts';

/** One catalogued error. `failure` marks codes that can also be a failed task's reason. */
export interface CatalogError {
  code: number;
  httpStatus: 400 | 401 | 402 | 403 | 404 | 405 | 408 | 409 | 410 | 413 | 415 | 416 | 429 | 431 | 500 | 502 | 503 | 504 | 507;
  meaning: string;
  provenance: Provenance;
  /** True when a task that was accepted can later fail with this code (forced with `Prefer: outcome=failed, error=<code>`). */
  failure?: boolean;
  /** Retry-After of a 429 or 503 of this error when nothing else sets it, seconds (default 60). */
  retryAfterSeconds?: number;
  /** The string a failed task reports for this error (e.g. `failReason: "free_relax_busy"`); also accepted by `Prefer: error=`. */
  reason?: string;
  /**
   * Other HTTP statuses the documents allow for this code (e.g. 403 for a rejected credential, document 1
   * "Authentication"): the service document declares the code under each of them too, so a client or a checker
   * accepts a provider's answer with any; the mock answers `httpStatus`.
   */
  alsoHttpStatus?: readonly CatalogError['httpStatus'][];
}
