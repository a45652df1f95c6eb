/**
 * The one error constructor of the mock: a catalogued error (schemas/errors.ts)
 * with a message that names the field and the rule. The HTTP adapter turns it
 * into the envelope with the catalog's code and HTTP status.
 */
import { errorCatalog, type ErrorName } from '../../schemas/errors.ts';

export class ApiError extends Error {
  /** Seconds for Retry-After (429 only). */
  readonly retryAfterSeconds?: number;

  constructor(
    readonly error: ErrorName,
    message: string = errorCatalog[error].meaning,
    opts: { retryAfterSeconds?: number } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.retryAfterSeconds = opts.retryAfterSeconds;
  }

  get code(): number {
    return errorCatalog[this.error].code;
  }

  get httpStatus(): number {
    return errorCatalog[this.error].httpStatus;
  }
}
