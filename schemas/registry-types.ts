/**
 * The shape of one operation of the registry (DESIGN.md, "One operation, end to
 * end"): everything the spec emitter, the router and the tests need, declared once.
 */
import type { z } from './zod.ts';
import type { ErrorName } from './errors.ts';
import type { Provenance } from './provenance.ts';
import type { ForcedOutcome } from './control.ts';

/** A per-account sliding-window rate limit on the virtual clock. */
export interface RateLimitRule {
  /** Operations sharing a bucket share the window. */
  bucket: string;
  /** Requests allowed per window. */
  limit: number;
  /** Window length in ms. */
  windowMs: number;
  /** The error answered with HTTP 429 and Retry-After. */
  error: ErrorName;
}

/** One operation of the API. */
export interface OperationDef {
  operationId: string;
  method: 'get' | 'post' | 'put' | 'delete';
  /** OpenAPI path template, e.g. `/v1/video-generation/tasks/{taskId}`. */
  path: string;
  tags: string[];
  summary: string;
  description: string;
  provenance: Provenance;
  /** Bearer API key required. */
  auth: boolean;
  request: {
    params?: z.ZodObject;
    query?: z.ZodObject;
    /** JSON body schema. */
    body?: z.ZodType;
    /** Largest accepted JSON body in bytes (default 1 MiB). */
    bodyLimitBytes?: number;
  };
  response: {
    status: 200 | 202;
    /** `envelope`: schema is the envelope's data; `raw`: schema is the whole body. */
    kind: 'envelope' | 'raw';
    schema: z.ZodType;
    description: string;
  };
  /** Every catalogued error this operation can answer with. */
  errors: readonly ErrorName[];
  /** Error for request validation failures that name no error of their own. */
  validationError: ErrorName;
  /** Top-level fields whose schema failures answer with another error than `validationError`. */
  fieldErrors?: Partial<Record<string, ErrorName>>;
  rateLimit?: RateLimitRule;
  /** Outcomes a created task can be forced to (`Prefer: outcome=`): failed (refunded), stuck (never progresses; timeouts apply). */
  outcomes?: readonly ForcedOutcome[];
  /** Failure reasons a created task can end with (`Prefer: outcome=failed, error=`); the first is the default. */
  failureReasons?: readonly ErrorName[];
}

/** The request an operation's handler receives, parsed by its schemas. */
export type OperationInput<O extends OperationDef> = {
  params: O['request']['params'] extends z.ZodType ? z.output<O['request']['params']> : Record<string, never>;
  query: O['request']['query'] extends z.ZodType ? z.output<O['request']['query']> : Record<string, never>;
  body: O['request']['body'] extends z.ZodType ? z.output<O['request']['body']> : undefined;
};

/** What an operation's handler returns: the envelope's data, or the raw body. */
export type OperationOutput<O extends OperationDef> = z.input<O['response']['schema']>;
