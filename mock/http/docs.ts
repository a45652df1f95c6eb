/**
 * The documentation site (docs/architecture.md, "The documentation site"):
 * the API reference and the mock's own document rendered by Scalar's
 * standalone bundle (from npm, served by the mock itself: no CDN, no fonts
 * from elsewhere, no proxy). `npm run docs` writes the same page into a
 * static folder (scripts/docs.ts); the running mock serves it at /docs with
 * the documents' servers pointed at itself, so "try it" calls the mock, and
 * serves /openapi.json, /openapi.yaml and /mock-control.openapi.yaml.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Request, type Response, type Router } from 'express';
import type * as Yaml from 'yaml';
import { originOf } from './origin.ts';

/** Where a document or the bundle lies: the package root is one to three directories up (mock/http, lib/mock/http, dist). */
function packageFile(relative: string): string | undefined {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const up of ['..', '../..', '../../..']) {
    const p = join(here, up, relative);
    if (existsSync(p)) return p;
  }
  return undefined;
}

/** Scalar's standalone browser bundle: the copy shipped in the package (lib/docs/scalar.js), else the devDependency's. */
export function scalarBundlePath(): string | undefined {
  const shipped = packageFile('lib/docs/scalar.js');
  if (shipped) return shipped;
  try {
    const entry = createRequire(import.meta.url).resolve('@scalar/api-reference');
    const p = join(dirname(entry), 'browser/standalone.js');
    return existsSync(p) ? p : undefined;
  } catch {
    return undefined;
  }
}

/** A document of the site: what it is called in the switcher and where it is. */
export interface DocsSource {
  title: string;
  url: string;
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The key "Try it" starts with: the demo key the mock prints at start-up (any mg_<keyId>_<secret> works). */
export const DOCS_DEMO_KEY = 'mg_demo_secret1';

/**
 * The page: Scalar on `sources` (the API reference first), with nothing
 * loaded from elsewhere: the bundle from `scriptUrl`, system fonts, no proxy,
 * no telemetry. "Try it" starts with the bearer scheme selected and
 * `demoKey` filled in, and sends to the documents' server (the serving mock).
 * `dashboardUrl`: a link to the mock's dashboard (the running mock's page has
 * one; the static site has no mock behind it).
 */
export function docsPage(sources: DocsSource[], scriptUrl: string, dashboardUrl?: string, demoKey: string = DOCS_DEMO_KEY): string {
  const config = {
    // the API document's one scheme (http bearer, named apiKey): selected, with the demo key, so a first request answers 200
    authentication: { preferredSecurityScheme: 'apiKey', securitySchemes: { apiKey: { token: demoKey } } },
    sources: sources.map((s, i) => ({ title: s.title, slug: i === 0 ? 'api' : 'mock', url: s.url, default: i === 0 })),
    withDefaultFonts: false,
    hideClientButton: true,
    // no toolbar (it searches Scalar's registry through their proxy) and no AI agent (a remote service)
    showDeveloperTools: 'never',
    agent: { disabled: true },
    showSidebar: true,
    telemetry: false,
    hideDownloadButton: false,
    defaultOpenAllTags: true,
    metaData: { title: 'Media Generation Service: API reference' },
  };
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Media Generation Service: API reference</title>
<link rel="icon" href="data:,">
<style>body { margin: 0; font-family: system-ui, sans-serif; } :root { --scalar-font: system-ui, sans-serif; --scalar-font-code: ui-monospace, monospace; }
/* The introduction's tables (the error catalog: code, name, status, meaning, provenance) get the section's full width:
   the server, key and client boxes stand above the text instead of beside it, which left the table 400 px at 1280. */
.scalar-app .introduction-section .section-columns { flex-direction: column-reverse; }
.scalar-app .introduction-section .section-column { width: 100%; max-width: none; }
.scalar-app .introduction-section .markdown table { font-size: 0.875em; table-layout: auto; width: 100%; }
.scalar-app .introduction-section .markdown th, .scalar-app .introduction-section .markdown td { width: auto; min-width: 0; }
.scalar-app .introduction-section .markdown :is(td, th):is(:nth-child(1), :nth-child(3)) { white-space: nowrap; }
.scalar-app .introduction-section .markdown td:nth-child(2) { min-width: 14em; max-width: 18em; overflow-wrap: anywhere; font-family: var(--scalar-font-code); font-size: 0.9em; }
/* A table in an operation's description (model limits, sizes per ratio) sits in the description's column (about 470 px
   at 1400): its cells keep a readable width and whole words, and the table scrolls sideways in the column instead of
   squeezing ten columns into it a letter or two per line. */
.scalar-app .operation-details .markdown table { display: block; max-width: 100%; overflow-x: auto; width: max-content; table-layout: auto; font-size: 0.875em; }
.scalar-app .operation-details .markdown :is(th, td) { width: auto; min-width: 5em; max-width: 22em; word-break: normal; overflow-wrap: normal; hyphens: none; }</style>
</head>
<body>
${
  dashboardUrl
    ? `<a href="${escape(dashboardUrl)}" style="position: fixed; right: 1rem; bottom: 1rem; z-index: 1000; padding: 0.4rem 0.8rem; border-radius: 4px; background: #2357c6; color: #fff; font: 14px system-ui, sans-serif; text-decoration: none">Dashboard of this mock</a>\n`
    : ''
}<div id="app"></div>
<script src="${escape(scriptUrl)}"></script>
<script>Scalar.createApiReference('#app', ${JSON.stringify(config).replace(/</g, '\\u003c')});</script>
</body>
</html>
`;
}

/** The sources of the site, relative to the page. */
export const DOCS_SOURCES: DocsSource[] = [
  { title: 'Media Generation Service', url: 'openapi.json' },
  { title: 'Mock: control API and behaviour', url: 'mock-control.openapi.json' },
];

/** `doc` with its servers set to `origin` (the mock that serves it), so "try it" calls the mock. */
function withServer(doc: Record<string, unknown>, origin: string): Record<string, unknown> {
  return { ...doc, servers: [{ url: origin, description: 'this mock' }] };
}

let yaml: Promise<typeof Yaml> | undefined;
/**
 * The YAML library, loaded with the first document asked for (not at start: about a tenth of the mock's start-up).
 * Node's loader gives the CommonJS package's named exports; a bundle (esbuild: the container image) may give only
 * `default`, the module's exports object.
 */
const loadYaml = () => (yaml ??= import('yaml').then((m) => (typeof m.parse === 'function' ? m : (m as unknown as { default: typeof Yaml }).default)));

/** The /docs site and the documents, read from spec/ of the package. */
export function createDocsRouter(opts: { publicUrl?: string } = {}): Router {
  const router = express.Router();
  let cache: { api: Record<string, unknown>; control: Record<string, unknown> } | undefined;
  const docs = async () => {
    if (!cache) {
      const api = packageFile('spec/openapi.json');
      const control = packageFile('spec/mock-control.openapi.yaml');
      if (!api || !control) return undefined;
      const { parse } = await loadYaml();
      cache = {
        api: JSON.parse(readFileSync(api, 'utf8')) as Record<string, unknown>,
        control: parse(readFileSync(control, 'utf8')) as Record<string, unknown>,
      };
    }
    return cache;
  };
  const notFound = (res: Response, what: string) => void res.status(404).type('text/plain').send(`${what} is not in this installation`);
  const json = (res: Response, body: unknown) =>
    void res
      .type('application/json')
      .setHeader('Cache-Control', 'no-cache')
      .send(JSON.stringify(body, null, 2));

  router.get(['/docs', '/docs/'], (req: Request, res: Response) => {
    if (req.path === '/docs') return res.redirect(301, '/docs/');
    res
      .type('text/html')
      .setHeader('Cache-Control', 'no-cache')
      .send(
        docsPage(
          DOCS_SOURCES.map((s) => ({ ...s, url: `../${s.url}` })),
          'scalar.js',
          '../__mock/ui/',
        ),
      );
  });
  router.get('/docs/scalar.js', (_req: Request, res: Response) => {
    const p = scalarBundlePath();
    if (!p) return notFound(res, "Scalar's bundle");
    res.type('text/javascript').setHeader('Cache-Control', 'public, max-age=3600').sendFile(p);
  });
  // each document as JSON and YAML, with the serving mock as its server
  for (const [name, which] of [
    ['openapi', 'api'],
    ['mock-control.openapi', 'control'],
  ] as const)
    for (const format of ['json', 'yaml'] as const)
      router.get(`/${name}.${format}`, async (req: Request, res: Response) => {
        const d = await docs();
        if (!d) return notFound(res, `the ${name} document`);
        const doc = withServer(d[which], originOf(req, opts.publicUrl));
        res.setHeader('Cache-Control', 'no-cache');
        if (format === 'json') json(res, doc);
        else res.type('application/yaml').send((await loadYaml()).stringify(doc, { lineWidth: 0 }));
      });
  return router;
}
