/**
 * The Postman collection (scripts/postman.ts, emitted from the registry) run
 * by newman against a fresh mock (in this process, manual clock, a free
 * port): every operation of the registry is in it, and every request passes
 * its status test (its documented success status), the ids of each create
 * chained to its reads, the multipart forms uploading real files.
 * Part of `npm run test:package`.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMock, type InProcessMock } from '../mock/index.ts';
import { operationIds } from '../schemas/operations.ts';
import { postmanCollection } from '../scripts/postman.ts';

const root = new URL('..', import.meta.url).pathname;

interface NewmanReport {
  run: {
    stats: { requests: { total: number; failed: number }; assertions: { total: number; failed: number } };
    failures: { error: { message: string }; source?: { name?: string } }[];
    executions: { item: { name: string }; assertions?: { assertion: string; error?: unknown }[] }[];
  };
}

describe('the Postman collection with newman against a fresh mock', () => {
  let dir: string;
  let mock: InProcessMock;
  let base: string;
  let built: ReturnType<typeof postmanCollection>;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mediagen-postman-'));
    built = postmanCollection();
    writeFileSync(join(dir, 'collection.json'), JSON.stringify(built.collection));
    for (const [name, bytes] of Object.entries(built.files)) writeFileSync(join(dir, name), bytes);
    mock = createMock({ seed: 1 });
    base = await mock.listen();
  });
  afterAll(async () => {
    await mock?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('has every operation of the registry, the bearer key preset and the multipart files', () => {
    expect(built.operations).toBe(operationIds.length);
    const c = built.collection as {
      auth: { type: string; bearer: { value: string }[] };
      item: { request: { body?: { mode: string; formdata?: { type: string }[] } } }[];
    };
    expect(c.auth.type).toBe('bearer');
    expect(c.auth.bearer[0].value).toBe('{{apiKey}}');
    const files = c.item.flatMap((i) => i.request.body?.formdata ?? []).filter((f) => f.type === 'file');
    expect(files.length).toBeGreaterThanOrEqual(5);
  });

  it('every request passes its status test', async () => {
    const report = join(dir, 'report.json');
    await new Promise<void>((resolve, reject) =>
      execFile(
        join(root, 'node_modules/.bin/newman'),
        [
          'run',
          join(dir, 'collection.json'),
          '--working-dir',
          dir,
          '--env-var',
          `baseUrl=${base}`,
          '--reporters',
          'json',
          '--reporter-json-export',
          report,
          '--timeout-request',
          '60000',
        ],
        { cwd: dir },
        // newman exits 1 when an assertion fails: the report says which
        () => resolve(),
      ).on('error', reject),
    );
    const r = (JSON.parse(readFileSync(report, 'utf8')) as NewmanReport).run;
    const failures = r.failures.map((f) => `${f.source?.name ?? '?'}: ${f.error.message}`);
    console.log(
      `newman: ${r.stats.assertions.total - r.stats.assertions.failed} of ${r.stats.assertions.total} status tests passed, ${r.stats.requests.total} requests`,
    );
    expect(failures).toEqual([]);
    expect(r.stats.requests.total).toBe(built.requests);
    expect(r.stats.assertions.total).toBe(built.requests);
    expect(r.stats.assertions.failed).toBe(0);
    expect(mock.bugs()).toEqual([]);
  }, 300_000);
});
