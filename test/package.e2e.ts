/**
 * The packages as consumers get them (decisions/0022-contract-package.md).
 *
 * The mock, `mediagen-contract`: `npm pack` (which compiles lib/ and dist/),
 * the tarball installed into an empty project with TypeScript and MSW 2 with
 * no warning, a consumer file type-checked under `strict` with
 * `skipLibCheck: false` and the DOM library (the typed client with the
 * generated types: a right body compiles, a wrong one does not), then run
 * with plain Node (no TypeScript loader): the in-process mock, the client
 * against it, the MSW handlers through setupServer, the spec file, the CLI.
 * Then MSW 3 in place of 2: the consumer type-checks against its types and
 * the handlers answer through its getResponse (MSW 3's setupServer needs
 * Node 22; the frontend test runs MSW 3 in a browser).
 *
 * The contract, `mediagen-contract-types` (packages/contract): assembled and
 * packed, under 1 MB unpacked, installed with nothing but openapi-fetch, a
 * consumer type-checked the same way and run with plain Node.
 *
 * Types that stand alone: `mediagen-contract/msw`, `/client`, `/types` and the
 * types-only package compile under the tsconfig.app.json of the create-vite
 * react-ts template (test/vite-template.ts) with its TypeScript, its
 * `types: ["vite/client"]` and `skipLibCheck: false`, and no Node typings in
 * the program (tsc --listFilesOnly names no @types/node file), with MSW 2 and 3.
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { templateDependencies, viteTemplate } from './vite-template.ts';

const root = new URL('..', import.meta.url).pathname;
/** The MSW 3 release the package is tested with besides the devDependency's MSW 2. */
const MSW3 = '3.0.5';
const npm = (args: string[], cwd: string) =>
  execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_loglevel: 'error' } });
/** npm install with warnings shown; returns its warnings (stderr lines starting "npm warn"). */
const installWarnings = (args: string[], cwd: string): string[] => {
  const r = spawnSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_loglevel: 'warn' },
  });
  if (r.status !== 0) throw new Error(`npm install ${args.join(' ')} failed:\n${r.stderr}`);
  return r.stderr.split('\n').filter((l) => /^npm warn/i.test(l));
};
/** The `npm pack --json` report of a package: its file name and unpacked size (the prepack scripts print before the JSON). */
const pack = (what: string, dest: string) => {
  const out = execFileSync('npm', ['pack', what, '--pack-destination', dest, '--json'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return (JSON.parse(out.slice(out.search(/^\[/m))) as { filename: string; unpackedSize: number }[])[0];
};
const tsconfig = (files: string[]) =>
  JSON.stringify({
    compilerOptions: {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      lib: ['ES2022', 'DOM', 'DOM.Iterable'],
      strict: true,
      skipLibCheck: false,
      outDir: '.',
    },
    files,
  });
const tscIn = (dir: string) => execFileSync(process.execPath, [join(dir, 'node_modules/typescript/bin/tsc'), '-p', dir], { cwd: dir, encoding: 'utf8' });
const versionOf = (name: string) =>
  (
    JSON.parse(execFileSync('npm', ['ls', name, '--json', '--depth=0'], { cwd: root, encoding: 'utf8' })) as {
      dependencies: Record<string, { version: string }>;
    }
  ).dependencies[name].version;

/**
 * Type-checks `code` (src/main.ts of dir/standalone) under the create-vite react-ts template's tsconfig.app.json
 * with skipLibCheck false, by the template's TypeScript and vite (installed into `dir` as `typescript-template` and
 * `vite`); returns the files of the program. Throws tsc's report when it fails.
 */
function checkStandalone(dir: string, code: string): string[] {
  const template = viteTemplate();
  const range = (name: string) =>
    templateDependencies(template)
      .find((d) => d.startsWith(`${name}@`))!
      .slice(name.length + 1);
  if (!readdirSync(join(dir, 'node_modules')).includes('typescript-template'))
    npm(['install', '--prefer-offline', '--no-audit', '--no-fund', `typescript-template@npm:typescript@${range('typescript')}`, `vite@${range('vite')}`], dir);
  const app = join(dir, 'standalone');
  rmSync(app, { recursive: true, force: true });
  mkdirSync(join(app, 'src'), { recursive: true });
  const config = readFileSync(join(template, 'tsconfig.app.json'), 'utf8');
  expect(config).toMatch(/"skipLibCheck": true/);
  expect(config).toMatch(/"types": \["vite\/client"\]/);
  writeFileSync(join(app, 'tsconfig.json'), config.replace('"skipLibCheck": true', '"skipLibCheck": false'));
  writeFileSync(join(app, 'src/main.ts'), code);
  const tsc = join(dir, 'node_modules/typescript-template/bin/tsc');
  try {
    execFileSync(process.execPath, [tsc, '-p', app], { cwd: app, encoding: 'utf8' });
  } catch (e) {
    throw new Error(`tsc (the template's tsconfig, skipLibCheck false) failed:\n${(e as { stdout?: string }).stdout ?? String(e)}`, { cause: e });
  }
  return execFileSync(process.execPath, [tsc, '-p', app, '--listFilesOnly'], { cwd: app, encoding: 'utf8' }).split('\n').filter(Boolean);
}

const standaloneTs = `
import { createMockHandlers } from 'mediagen-contract/msw';
import { createClient } from 'mediagen-contract/client';
import type { components, paths } from 'mediagen-contract/types';

type CreateBody = paths['/v1/video-generation/generate']['post']['requestBody']['content']['application/json'];
const body: CreateBody = { model: 'family1-video-2-fast', content: [{ type: 'text', text: 'a fox' }] };
const status: components['schemas']['VideoTask']['status'] = 'success';
const mock = createMockHandlers({ baseUrl: location.origin, clock: 'real', speed: 60 });
const client = createClient({ baseUrl: location.origin, apiKey: 'mg_a_secret1' });
export const all = [body, status, mock.handlers.length, client];
`;

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
// and its dashboard
const ui = [(await fetch(base + '/__mock/ui/')).status, (await fetch(base + '/__mock/ui/app.js')).status, (await fetch(base + '/__mock/ui/style.css')).status];
await docsMock.close();
console.log(JSON.stringify({ viaServer, msw: res.status, openapi: spec.openapi, docs, ui }));
`;

describe('the packed package in an empty project', () => {
  let dir: string;
  let tarball: string;
  let warnings: string[];
  let unpacked: number;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mediagen-consumer-'));
    ({ filename: tarball, unpackedSize: unpacked } = pack('.', dir));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    writeFileSync(join(dir, 'tsconfig.json'), tsconfig(['consumer.ts']));
    writeFileSync(join(dir, 'consumer.ts'), consumerTs);
    writeFileSync(join(dir, 'run.mjs'), consumerRun);
    warnings = installWarnings(
      [`./${tarball}`, `typescript@${versionOf('typescript')}`, `msw@${versionOf('msw')}`, `@types/node@${versionOf('@types/node')}`],
      dir,
    );
  }, 300_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('installs without a warning and without mediabunny or its DOM typings (mediabunny ships inside lib/vendor/)', () => {
    console.log(`mediagen-contract: ${(unpacked / 1e6).toFixed(2)} MB unpacked`);
    // npm 11 lists every package with an install script (msw has a postinstall); none may be ours
    expect(warnings.filter((w) => /mediagen-contract/.test(w))).toEqual([]);
    const installed = readdirSync(join(dir, 'node_modules'));
    expect(installed).not.toContain('mediabunny');
    expect(readdirSync(join(dir, 'node_modules/@types'))).not.toContain('dom-webcodecs');
    const manifest = JSON.parse(readFileSync(join(dir, 'node_modules/mediagen-contract/package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(Object.keys(manifest.scripts).filter((k) => /^(pre|post)?install$|^prepare$/.test(k))).toEqual([]);
  });

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
        'dist/ui/app.js',
        'dist/ui/style.css',
        'generated/mock-control.d.ts',
        'lib/vendor/mediabunny.js',
        'lib/vendor/mediabunny.LICENSE',
        'lib/vendor/mediabunny-aac-encoder.js',
        'lib/vendor/mediabunny-aac-encoder.LICENSE',
        'lib/verify/index.js',
        'lib/verify/cli.js',
        'bin/mediagen-verify.js',
      ]),
    );
    expect(paths.filter((p) => /^(test|scripts|mock|schemas|client)\//.test(p) || (p.endsWith('.ts') && !p.endsWith('.d.ts')))).toEqual([]);
  });

  it('type-checks a consumer under strict with skipLibCheck false (a wrong body is refused), then runs it with plain Node', () => {
    // tsc fails on an unused @ts-expect-error: the wrong body must not compile
    tscIn(dir);
    const out = JSON.parse(execFileSync(process.execPath, ['run.mjs'], { cwd: dir, encoding: 'utf8' }).trim().split('\n').pop()!) as {
      viaServer: string;
      msw: number;
      openapi: string;
      docs: unknown[];
      ui: number[];
    };
    expect(out.viaServer).toMatch(/^\S+ success 1$/);
    expect(out.msw).toBe(200);
    expect(out.openapi).toMatch(/^3\.1/);
    expect(out.docs).toEqual([200, 200, true]);
    expect(out.ui).toEqual([200, 200, 200]);
  }, 180_000);

  it('the installed mediagen-mock command prints its help', () => {
    expect(execFileSync(join(dir, 'node_modules/.bin/mediagen-mock'), ['--help'], { cwd: dir, encoding: 'utf8' })).toMatch(/--port/);
  });

  it('the installed mediagen-verify command prints its help', () => {
    expect(execFileSync(join(dir, 'node_modules/.bin/mediagen-verify'), ['--help'], { cwd: dir, encoding: 'utf8' })).toMatch(/--base-url/);
  });

  it("with MSW 2: /msw, /client and /types compile under the create-vite template's tsconfig, skipLibCheck false, no Node typings", () => {
    const files = checkStandalone(dir, standaloneTs);
    expect(files.some((f) => f.includes('/mediagen-contract/lib/mock/web/msw.d.ts'))).toBe(true);
    expect(files.some((f) => f.includes('/msw/'))).toBe(true);
    expect(files.filter((f) => f.includes('/@types/node/'))).toEqual([]);
    // the check can fail: a wrong type in the same program is reported
    expect(() => checkStandalone(dir, standaloneTs + `export const wrong: number = 'a';\n`)).toThrow(/TS2322/);
  }, 300_000);

  it('with MSW 3 in place of 2: the consumer type-checks and the handlers answer only their paths', () => {
    npm(['install', '--prefer-offline', '--no-audit', '--no-fund', `msw@${MSW3}`], dir);
    expect((JSON.parse(readFileSync(join(dir, 'node_modules/msw/package.json'), 'utf8')) as { version: string }).version).toBe(MSW3);
    tscIn(dir);
    writeFileSync(
      join(dir, 'msw3.mjs'),
      `import { getResponse } from 'msw';
import { createMockHandlers } from 'mediagen-contract/msw';
const mock = createMockHandlers({ baseUrl: 'http://localhost:5173', seed: 3 });
const get = (p) => getResponse(mock.handlers, new Request('http://localhost:5173' + p, { headers: { authorization: 'Bearer mg_consumer_secret1' } }));
const account = await get('/v1/user/subscription');
const passed = await Promise.all(['/src/main.tsx', '/favicon.ico', '/@vite/client'].map(get));
console.log(JSON.stringify({ status: account?.status, balance: (await account?.json())?.data.balance, passed: passed.map((r) => r === undefined) }));
`,
    );
    const out = JSON.parse(execFileSync(process.execPath, ['msw3.mjs'], { cwd: dir, encoding: 'utf8' }).trim()) as unknown;
    expect(out).toEqual({ status: 200, balance: 10000, passed: [true, true, true] });
    // and the types stand alone with MSW 3 too
    const files = checkStandalone(dir, standaloneTs);
    expect(files.filter((f) => f.includes('/@types/node/'))).toEqual([]);
  }, 300_000);
});

const contractConsumer = `
import { createClient, isApiError } from 'mediagen-contract-types';
import type { components, paths } from 'mediagen-contract-types/types';

type CreateBody = paths['/v1/video-generation/generate']['post']['requestBody']['content']['application/json'];
export const body: CreateBody = { model: 'family1-video-2-fast', content: [{ type: 'text', text: 'a fox in the snow' }] };
export type Status = components['schemas']['VideoTask']['status'];

/** Never called: it only has to fail to compile. */
export function wrongBody(client: ReturnType<typeof createClient>) {
  // @ts-expect-error a body without content does not compile
  return client.POST('/v1/video-generation/generate', { body: { model: 'family1-video-2-fast' } });
}

export async function run(baseUrl: string): Promise<Status | undefined> {
  const client = createClient({ baseUrl, apiKey: 'mg_types_secret1' });
  const created = await client.POST('/v1/video-generation/generate', { body });
  const taskId = created.data?.data.taskId ?? '';
  const task = await client.GET('/v1/video-generation/tasks/{taskId}', { params: { path: { taskId } } });
  return task.data?.data.status;
}

/** The helpers generated from the document: waitFor (the waits move the mock's clock), list, errors as types. */
export async function helpers(baseUrl: string): Promise<string> {
  const clock = {
    now: () => Date.now(),
    sleep: async (ms: number) => void (await fetch(baseUrl + '/__mock/clock/advance', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ms }) })),
  };
  const client = createClient({ baseUrl, apiKey: 'mg_types_secret2', clock });
  const done = await client.waitFor(await client.call('createVideoTask', { body }));
  const success: 'success' = done.status;
  let listed = 0;
  for await (const t of client.list('listVideoTasks', { pageSize: 1 })) listed += t.id === done.id ? 1 : 0;
  const refused = await client.call('createVideoTask', { body, headers: { Prefer: 'error=31004' } }).catch((e: unknown) => e);
  // @ts-expect-error a name the catalogue does not have does not compile
  isApiError(refused, 'NO_SUCH_ERROR');
  const named = isApiError(refused, 'VIDEO_INSUFFICIENT_CREDITS') ? refused.code : 0;
  return [success, listed, named].join(' ');
}
`;

describe('the light contract package (mediagen-contract-types)', () => {
  let dir: string;
  let report: { filename: string; unpackedSize: number };
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mediagen-types-consumer-'));
    execFileSync(process.execPath, [join(root, 'scripts/contract-package.mjs')], { cwd: root, stdio: 'ignore' });
    report = pack('./packages/contract', dir);
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'types-consumer', private: true, type: 'module' }));
    writeFileSync(join(dir, 'tsconfig.json'), tsconfig(['consumer.ts']));
    writeFileSync(join(dir, 'consumer.ts'), contractConsumer);
  }, 180_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is under 1 MB unpacked, installs without a warning and brings only openapi-fetch', () => {
    console.log(`mediagen-contract-types: ${(report.unpackedSize / 1e3).toFixed(1)} kB unpacked`);
    expect(report.unpackedSize).toBeLessThan(1_000_000);
    expect(installWarnings([`./${report.filename}`], dir).filter((w) => /mediagen-contract/.test(w))).toEqual([]);
    expect(
      readdirSync(join(dir, 'node_modules'))
        .filter((n) => !n.startsWith('.'))
        .sort(),
    ).toEqual(['mediagen-contract-types', 'openapi-fetch', 'openapi-typescript-helpers']);
  }, 180_000);

  it("compiles under the create-vite template's tsconfig with skipLibCheck false and no Node typings installed", () => {
    checkStandalone(
      dir,
      `import { createClient } from 'mediagen-contract-types';
import type { components, paths } from 'mediagen-contract-types/types';
type CreateBody = paths['/v1/video-generation/generate']['post']['requestBody']['content']['application/json'];
const body: CreateBody = { model: 'family1-video-2-fast', content: [{ type: 'text', text: 'a fox' }] };
const status: components['schemas']['VideoTask']['status'] = 'success';
export const all = [body, status, createClient({ baseUrl: location.origin, apiKey: 'mg_a_secret1' })];
`,
    );
    expect(readdirSync(join(dir, 'node_modules')).includes('@types') && readdirSync(join(dir, 'node_modules/@types')).includes('node')).toBe(false);
  }, 300_000);

  it('type-checks a consumer under strict with skipLibCheck false, runs it with plain Node, and carries the whole document', async () => {
    npm(['install', '--prefer-offline', '--no-audit', '--no-fund', `typescript@${versionOf('typescript')}`], dir);
    tscIn(dir);
    const shipped = JSON.parse(readFileSync(join(dir, 'node_modules/mediagen-contract-types/spec/openapi.json'), 'utf8')) as unknown;
    expect(shipped).toEqual(JSON.parse(readFileSync(join(root, 'spec/openapi.json'), 'utf8')));
    const { createMock } = await import('../mock/index.ts');
    const mock = createMock({ seed: 5 });
    const base = await mock.listen();
    try {
      writeFileSync(
        join(dir, 'run.mjs'),
        `import { helpers, run } from './consumer.js';\nconsole.log(await run(${JSON.stringify(base)}));\nconsole.log(await helpers(${JSON.stringify(base)}));\n`,
      );
      const out = await new Promise<string>((resolve, reject) =>
        execFile(process.execPath, ['run.mjs'], { cwd: dir, encoding: 'utf8' }, (e, stdout) => (e ? reject(new Error(e.message)) : resolve(stdout.trim()))),
      );
      expect(out).toBe('generating\nsuccess 1 31004');
    } finally {
      await mock.close();
    }
  }, 180_000);
});
