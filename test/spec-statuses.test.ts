/**
 * Where the documents allow two HTTP statuses for one answer, the emitted service document declares both, so a
 * client or a checker (mediagen-verify, the proxy) accepts a provider that answers with either. Expected values
 * written from the documents:
 * - document 1, "Authentication": a rejected credential answers HTTP 401 or 403;
 * - document 2, "Errors" (generated audio): its business errors are HTTP 400, and HTTP 429 applies beyond 5
 *   generate requests per minute; 33007 "rate limited" is among those codes.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const spec = JSON.parse(readFileSync(new URL('../spec/openapi.json', import.meta.url), 'utf8'));
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const ops: Record<string, any>[] = Object.values(spec.paths as Record<string, Record<string, any>>).flatMap((item) =>
  METHODS.filter((m) => item[m]).map((m) => item[m]),
);
const codesAt = (op: Record<string, any>, status: number): number[] => op.responses[String(status)]?.['x-error-codes'] ?? [];

describe('codes the documents allow under two statuses', () => {
  it('document 1: every operation that takes a credential declares 10001 under 401 and under 403', () => {
    const withCredential = ops.filter((op) => (op.security ?? spec.security ?? []).some((s: object) => Object.keys(s).length > 0));
    expect(withCredential.length).toBeGreaterThan(40);
    for (const op of withCredential) {
      expect(codesAt(op, 401), `${op.operationId} 401`).toContain(10001);
      expect(codesAt(op, 403), `${op.operationId} 403`).toContain(10001);
    }
  });

  it('document 2: the generated-audio creates declare 33007 under 400 and under 429', () => {
    const creates = ops.filter((op) => codesAt(op, 429).includes(33007));
    expect(creates.map((op) => op.operationId).sort()).toEqual(['createPlatformVoiceTask', 'createSeedAudioTask']);
    for (const op of creates) expect(codesAt(op, 400), `${op.operationId} 400`).toContain(33007);
  });
});
