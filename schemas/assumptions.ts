/**
 * Assumptions that belong to no single area: choices the mock makes where the
 * seeds say "not shown", for rules every operation shares. Each area lists its
 * own in its schema file; schemas/operations.ts joins them all for
 * docs/assumptions.md.
 */
import type { TableAssumption } from './provenance.ts';

export const sharedTableAssumptions: TableAssumption[] = [
  {
    subject: 'a rejected credential (API key or user token) answers HTTP 401 with code 10001; no operation declares a 403 for it',
    reason: 'document 1, "Authentication", allows 401 or 403 without saying which; the security schemes tell a client to treat both as a rejected credential',
  },
  {
    subject: 'every operation that takes an API key takes a user token too (each operation lists both security schemes)',
    reason: 'document 1 describes user tokens at {user_api_base_url} without saying which operations they reach',
  },
  {
    subject: 'request bodies ignore unknown fields; responses never carry fields outside the schema',
    reason: 'document 1 does not say whether unknown request fields are rejected',
  },
  {
    subject:
      'media URLs are served by the mock itself under /media/ without auth, and are absolute URLs built from the request (Host, X-Forwarded-Proto and X-Forwarded-Host) or from --public-url',
    reason: 'the documents show only that responses carry URLs',
  },
];
