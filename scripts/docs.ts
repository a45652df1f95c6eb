/**
 * `npm run docs [-- <folder>]`: the documentation site as static files, ready
 * to publish (default folder: site/). The same page the mock serves at /docs
 * (mock/http/docs.ts): Scalar's standalone bundle copied from npm, the API
 * reference and the mock's document beside it, nothing loaded from elsewhere.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { DOCS_SOURCES, docsPage, scalarBundlePath } from '../mock/http/docs.ts';

const root = new URL('..', import.meta.url).pathname;

/** Writes the site into `out`; returns the files written. */
export function buildDocsSite(out: string): string[] {
  const bundle = scalarBundlePath();
  if (!bundle) throw new Error("Scalar's bundle (@scalar/api-reference) is not installed: run npm ci");
  mkdirSync(out, { recursive: true });
  copyFileSync(bundle, join(out, 'scalar.js'));
  copyFileSync(join(root, 'spec/openapi.json'), join(out, 'openapi.json'));
  copyFileSync(join(root, 'spec/openapi.yaml'), join(out, 'openapi.yaml'));
  copyFileSync(join(root, 'spec/mock-control.openapi.yaml'), join(out, 'mock-control.openapi.yaml'));
  writeFileSync(join(out, 'mock-control.openapi.json'), JSON.stringify(parseYaml(readFileSync(join(root, 'spec/mock-control.openapi.yaml'), 'utf8')), null, 2));
  writeFileSync(join(out, 'index.html'), docsPage(DOCS_SOURCES, 'scalar.js'));
  return ['index.html', 'scalar.js', 'openapi.json', 'openapi.yaml', 'mock-control.openapi.json', 'mock-control.openapi.yaml'];
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  const out = resolve(process.argv[2] ?? join(root, 'site'));
  const files = buildDocsSite(out);
  console.log(`wrote the documentation site to ${out} (${files.join(', ')}); serve the folder with any static server`);
}
