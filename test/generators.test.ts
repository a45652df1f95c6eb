/**
 * Third-party generators on the service document (scripts/generators.ts): an SDK from @hey-api/openapi-ts (fetch
 * client, types, SDK functions) and a fetch client with MSW mocks from orval, generated from spec/openapi.json and
 * compiled under `tsc --strict` with no error. The SDK emits one error type (the shared ErrorEnvelope) and carries
 * no mock text.
 */
import { readFileSync, rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { runGenerators, type GeneratorRun } from '../scripts/generators.ts';

let run: GeneratorRun | undefined;
afterAll(() => {
  if (run) rmSync(run.dir, { recursive: true, force: true });
});

describe('generators on spec/openapi.json', () => {
  it('hey-api and orval (with MSW mocks) compile under tsc --strict with 0 errors', { timeout: 180_000 }, async () => {
    run = await runGenerators();
    expect(run.files.heyApi.length).toBeGreaterThan(0);
    expect(run.files.orval.some((f) => f.endsWith('.msw.ts'))).toBe(true);
    expect(run.diagnostics).toEqual([]);

    const types = run.files.heyApi.filter((f) => /hey-api[/\\]types\.gen\.ts$/.test(f)).map((f) => readFileSync(f, 'utf8'));
    expect(types.length).toBe(1);
    // one error type: every error response is the shared envelope
    expect(types[0]).toMatch(/export type ErrorEnvelope = \{/);
    expect(types[0]).not.toMatch(/code: 10001 \|/);
    // and no text of the mock in the SDK's comments
    const sdk = run.files.heyApi.map((f) => readFileSync(f, 'utf8')).join('\n');
    expect(sdk.match(/.{0,40}(\bmock\b|Prefer:|mediagen).{0,40}/gi) ?? []).toEqual([]);
  });
});
