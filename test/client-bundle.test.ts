/**
 * The client's browser entry (client/index.ts, `mediagen-contract/client`)
 * bundles for the browser with esbuild (platform browser: a Node built-in
 * would fail the build) and, run in a bare context without Node's globals
 * (no process, no Buffer, no require), creates a client; the Node entry
 * (client/node.ts) is the one that loads node:fs.
 */
import { runInNewContext } from 'node:vm';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const root = new URL('..', import.meta.url).pathname;

describe('the client in a browser', () => {
  it('bundles for the browser with no Node built-in, and runs without Node globals', async () => {
    const out = await build({
      entryPoints: [`${root}client/index.ts`],
      bundle: true,
      platform: 'browser',
      format: 'iife',
      globalName: 'mediagen',
      write: false,
      metafile: true,
      minify: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(out.metafile.inputs);
    expect(inputs.filter((i) => i.startsWith('node:') || /\/node_modules\/(?!openapi-fetch\/)/.test(i))).toEqual([]);
    expect(inputs).toContain('client/catalog.generated.ts');
    const code = out.outputFiles[0].text;
    // a context with the web platform's globals only
    const context: Record<string, unknown> = { Request, Response, Headers, FormData, Blob, URL, AbortController, setTimeout, clearTimeout, fetch };
    const api = runInNewContext(`${code}; mediagen`, context) as {
      createClient: (o: object) => { call: unknown; waitFor: unknown; list: unknown };
      isApiError: unknown;
    };
    const client = api.createClient({ baseUrl: 'http://localhost:4010' });
    expect([typeof client.call, typeof client.waitFor, typeof client.list, typeof api.isApiError]).toEqual(['function', 'function', 'function', 'function']);
    console.log(`client/index.ts for the browser: ${(code.length / 1000).toFixed(1)} kB minified`);
  });

  it('the Node entry is where node:fs comes in', async () => {
    const out = await build({
      entryPoints: [`${root}client/node.ts`],
      bundle: true,
      platform: 'node',
      format: 'esm',
      write: false,
      metafile: true,
      logLevel: 'silent',
      packages: 'external',
    });
    expect(Object.values(out.metafile.outputs)[0].imports.map((i) => i.path)).toEqual(expect.arrayContaining(['node:fs', 'node:fs/promises']));
  });
});
