/**
 * Assumptions that belong to no single area: choices the mock makes where the
 * seeds say "not shown", for rules every operation shares. Each area lists its
 * own in its schema file; schemas/operations.ts joins them all for
 * docs/assumptions.md.
 */
import type { TableAssumption } from './provenance.ts';

export const sharedTableAssumptions: TableAssumption[] = [
  {
    subject:
      'page and pageSize of every list, and the timestamps, are integers (page from 1, pageSize from 1), though some tables of documents 2 and 3 type them "number"',
    reason:
      'document 1, "Common response envelope", types code and the timestamps as integers and counts pages; document 2 gives page min 1 and pageSize 1-100 for generated audio, document 3 1-100 for lyrics; the other lists follow them',
  },
  {
    subject:
      'constraints the documents imply without stating: a required text is not blank (pattern \\S: image and family5 prompts, generated-audio text, ...); a URL field takes http or https only (flow speech, podcast and page-deck url sources, extraction); an extraction taskId is 24 lowercase hex characters; a text line tagged @音频N needs at least N voices and N at most 3',
    reason:
      'the documents say "prompt", "a URL" or "page address", "24-character hex" and "@音频1, @音频2, ... assign lines to voices in order" without the exact rule; each is written as a JSON Schema fragment or pattern in the request schema',
  },
  {
    subject:
      'a rejected credential (API key or user token) answers HTTP 401 with code 10001 in the mock; every operation declares 10001 under both 401 and 403, so a provider answering either conforms',
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
