/**
 * Schemas of the proxy's report (schemas/control.ts re-exports them): what the mock found checking the answers of
 * the upstream it forwards to with `--upstream` (docs/guides/proxy.md). Mock-only.
 */
import { z } from '../zod.ts';

/** Most recent violations a report lists (older ones are counted, not listed). */
export const PROXY_REPORT_VIOLATIONS = 500;

const Int = z.number().int();

export const ProxyViolation = z
  .strictObject({
    seq: Int.positive().meta({ description: 'order of the violation in this run, from 1' }),
    at: z.string().meta({ description: 'wall-clock time the answer was checked, ISO 8601' }),
    session: z.string().nullable().meta({ description: 'the session (X-Mock-Session) the request belonged to; null: the default world' }),
    method: z.string(),
    path: z.string().meta({ description: 'the request path, without the query' }),
    operationId: z.string().nullable().meta({ description: 'the operation the request matched; null for a media request' }),
    status: Int.meta({ description: 'HTTP status the upstream answered' }),
    rule: z.string().meta({
      description:
        'the contract rule broken, named as mediagen-verify names it: status declared, error code declared, error envelope, response schema, content type, Retry-After, transition allowed, media content type',
    }),
    cause: z.string().meta({ description: 'what failures of one root cause share, e.g. "response schema: /data/status enum"' }),
    detail: z.string().meta({ description: 'what was seen and what the document declares' }),
  })
  .openapi('MockProxyViolation');

export const ProxyRuleCount = z.strictObject({ rule: z.string(), count: Int.min(0) });

export const ProxyReport = z
  .strictObject({
    upstream: z.string().meta({ description: 'the base URL requests are forwarded to (--upstream)' }),
    fallback: z.enum(['off', 'mock']).meta({ description: 'mock: operations the upstream does not answer are answered by the mock (--fallback mock)' }),
    forwarded: Int.min(0).meta({ description: 'requests forwarded to the upstream (API operations and media)' }),
    checked: Int.min(0).meta({ description: 'answers checked against the contract' }),
    notChecked: Int.min(0).meta({
      description: 'answers passed on without a check of their body: over the check cap (8 MiB), or cut off before their end',
    }),
    fallbacks: Int.min(0).meta({
      description: 'requests the mock answered because the upstream did not (unreachable, 404 for the route, 501, no answer in time)',
    }),
    upstreamErrors: Int.min(0).meta({
      description: 'requests answered 502 or 504 because the upstream could not be reached or did not answer in time (no fallback)',
    }),
    violationCount: Int.min(0).meta({ description: 'violations found since the start (or the last clear), the unlisted ones included' }),
    byRule: z.array(ProxyRuleCount).meta({ description: 'violations per contract rule, most first' }),
    violations: z.array(ProxyViolation).meta({ description: `the most recent violations, oldest first (at most ${PROXY_REPORT_VIOLATIONS})` }),
  })
  .openapi('MockProxyReport');
export type ProxyReport = z.infer<typeof ProxyReport>;
export type ProxyViolation = z.infer<typeof ProxyViolation>;
