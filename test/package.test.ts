/**
 * The package as consumers get it: `npm pack` (which compiles lib/ and
 * dist/), the tarball installed into an empty project with TypeScript and
 * MSW, a consumer file type-checked under `strict` (the typed client with the
 * generated types: a right body compiles, a wrong one does not), then run
 * with plain Node (no TypeScript loader): the in-process mock, the client
 * against it, the MSW handlers through setupServer, the spec file, the CLI.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = new URL('..', import.meta.url).pathname;
const npm = (args: string[], cwd: string) =>
  execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_loglevel: 'error' } });
const versionOf = (name: string) =>
  (
    JSON.parse(execFileSync('npm', ['ls', name, '--json', '--depth=0'], { cwd: root, encoding: 'utf8' })) as {
      dependencies: Record<string, { version: string }>;
    }
  ).dependencies[name].version;

const consumerTs = `
import { createMock } from 'mediagen-contract';
import { createClient } from 'mediagen-contract/client';
import { createMockHandlers } from 'mediagen-contract/msw';
import type { components, paths } from 'mediagen-contract/types';

type Task = components['schemas']['VideoTask'];
type CreateBody = paths['/v1/video-generation/generate']['post']['requestBody']['content']['application/json'];
export const body: CreateBody = { model: 'family1-video-2-fast', content: [{ type: 'text', text: 'a fox in the snow' }] };

/** Never called: it only has to fail to compile. */
export function wrongBody(client: ReturnType<typeof createClient>) {
  // @ts-expect-error a body without content does not compile
  return client.POST('/v1/video-generation/generate', { body: { model: 'family1-video-2-fast' } });
}

export async function run(): Promise<string> {
  const mock = createMock({ seed: 11 });
  const baseUrl = await mock.listen();
  const client = createClient({ baseUrl, apiKey: 'mg_consumer_secret1' });
  const created = await client.POST('/v1/video-generation/generate', { body });
  if (created.error || !created.data) throw new Error('create failed');
  const taskId: string = created.data.data.taskId;
  mock.advance(10 * 60_000);
  const task = await client.GET('/v1/video-generation/tasks/{taskId}', { params: { path: { taskId } } });
  const status: Task['status'] | undefined = task.data?.data.status;
  await mock.close();
  const handlers = createMockHandlers({ seed: 11 });
  return [taskId, status, handlers.handlers.length].join(' ');
}
`;

const consumerRun = `
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setupServer } from 'msw/node';
import { createMockHandlers } from 'mediagen-contract/msw';
import { run } from './consumer.js';

const viaServer = await run();
const mock = createMockHandlers({ seed: 11 });
const server = setupServer(...mock.handlers);
server.listen({ onUnhandledRequest: 'error' });
const res = await fetch('http://localhost:4010/v1/user/subscription', { headers: { authorization: 'Bearer mg_consumer_secret1' } });
server.close();
const spec = JSON.parse(readFileSync(createRequire(import.meta.url).resolve('mediagen-contract/spec/openapi.json'), 'utf8'));
// the installed mock serves its documentation site
const { createMock } = await import('mediagen-contract');
const docsMock = createMock();
const base = await docsMock.listen();
const docs = [(await fetch(base + '/docs/')).status, (await fetch(base + '/docs/scalar.js')).status, (await (await fetch(base + '/openapi.json')).json()).servers[0].url === base];
await docsMock.close();
console.log(JSON.stringify({ viaServer, msw: res.status, openapi: spec.openapi, docs }));
`;

describe('the packed package in an empty project', () => {
  let dir: string;
  let tarball: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mediagen-consumer-'));
    npm(['pack', '--pack-destination', dir, '--silent'], root);
    tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'))!;
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, outDir: '.' },
        files: ['consumer.ts'],
      }),
    );
    writeFileSync(join(dir, 'consumer.ts'), consumerTs);
    writeFileSync(join(dir, 'run.mjs'), consumerRun);
    npm(
      [
        'install',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        `./${tarball}`,
        `typescript@${versionOf('typescript')}`,
        `msw@${versionOf('msw')}`,
        `@types/node@${versionOf('@types/node')}`,
      ],
      dir,
    );
  }, 240_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('ships compiled JavaScript, declarations, the spec and the CLI, and no sources or tests', () => {
    const paths = execFileSync('tar', ['-tzf', join(dir, tarball)], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map((p) => p.replace(/^package\//, ''));
    expect(paths).toEqual(
      expect.arrayContaining([
        'lib/mock/index.js',
        'lib/mock/index.d.ts',
        'lib/mock/web/msw.js',
        'lib/client/index.js',
        'generated/api.d.ts',
        'spec/openapi.json',
        'dist/cli.js',
        'bin/mediagen-mock.js',
        'lib/docs/scalar.js',
        'generated/mock-control.d.ts',
        'lib/verify/index.js',
        'lib/verify/cli.js',
        'bin/mediagen-verify.js',
      ]),
    );
    expect(paths.filter((p) => /^(test|scripts|mock|schemas|client)\//.test(p) || (p.endsWith('.ts') && !p.endsWith('.d.ts')))).toEqual([]);
  });

  it('type-checks a consumer under strict (a wrong body is refused), then runs it with plain Node', () => {
    // tsc fails on an unused @ts-expect-error: the wrong body must not compile
    execFileSync(process.execPath, [join(dir, 'node_modules/typescript/bin/tsc'), '-p', dir], { cwd: dir, encoding: 'utf8' });
    const out = JSON.parse(execFileSync(process.execPath, ['run.mjs'], { cwd: dir, encoding: 'utf8' }).trim().split('\n').pop()!) as {
      viaServer: string;
      msw: number;
      openapi: string;
      docs: unknown[];
    };
    expect(out.viaServer).toMatch(/^\S+ success 1$/);
    expect(out.msw).toBe(200);
    expect(out.openapi).toMatch(/^3\.1/);
    expect(out.docs).toEqual([200, 200, true]);
  });

  it('the installed mediagen-mock command prints its help', () => {
    expect(execFileSync(join(dir, 'node_modules/.bin/mediagen-mock'), ['--help'], { cwd: dir, encoding: 'utf8' })).toMatch(/--port/);
  });

  it('the installed mediagen-verify command prints its help', () => {
    expect(execFileSync(join(dir, 'node_modules/.bin/mediagen-verify'), ['--help'], { cwd: dir, encoding: 'utf8' })).toMatch(/--base-url/);
  });
});
