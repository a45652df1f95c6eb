/**
 * The dashboard at /__mock/ui (docs/guides/dashboard.md): an HTML shell and
 * the bundle of mock/ui/ (dist/ui/app.js and style.css, built by
 * scripts/ui-build.mjs at `npm run bundle` and `prepack`, shipped in
 * the package). The shell holds no data, so it is served without the control
 * token; the page then reads everything through the control API, with the token
 * when the mock has one (the shell says whether it does). A Content-Security-Policy
 * keeps the page on the mock's own origin.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Request, type Response, type Router } from 'express';

/** The dashboard's bundle directory: dist/ui of the package (one to three directories up: mock/http, lib/mock/http, dist). */
export function uiBundleDir(): string | undefined {
  const here = dirname(fileURLToPath(import.meta.url));
  for (const up of ['..', '../..', '../../..']) {
    const p = join(here, up, 'dist/ui');
    if (existsSync(join(p, 'app.js'))) return p;
  }
  return undefined;
}

/** The page's policy: everything from the mock itself (media included), inline styles for preact's style props. */
const CSP = [
  "default-src 'self'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "style-src 'self' 'unsafe-inline'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'self'",
].join('; ');

/**
 * The HTML shell: the bundle's script and style, relative to /__mock/ui/; `tokenRequired` tells the page to ask for
 * the control token first; `upstream` that the mock forwards to an upstream (--upstream: the page shows its checks).
 */
export function uiShell(tokenRequired: boolean, upstream = false): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>mediagen-mock dashboard</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="style.css">
</head>
<body>
<div id="app" data-token-required="${tokenRequired}"${upstream ? ' data-upstream="true"' : ''}></div>
<noscript>The dashboard needs JavaScript.</noscript>
<script type="module" src="app.js"></script>
</body>
</html>
`;
}

/** The router of /__mock/ui and its assets. `tokenRequired`: the mock was started with a control token; `upstream`: with --upstream. */
export function createUiRouter(opts: { tokenRequired: boolean; upstream?: boolean }): Router {
  const router = express.Router();
  const shell = uiShell(opts.tokenRequired, opts.upstream);
  const missing = (res: Response) =>
    void res.status(404).type('text/plain').send('the dashboard is not built in this installation: run `npm run bundle` (it writes dist/ui/)');
  router.get(['/__mock/ui', '/__mock/ui/'], (req: Request, res: Response) => {
    // relative, so a /sessions/<name>/ prefix is kept
    if (!req.originalUrl.split('?')[0].endsWith('/')) return res.redirect(301, 'ui/');
    if (!uiBundleDir()) return missing(res);
    res.type('text/html').setHeader('Cache-Control', 'no-cache').setHeader('Content-Security-Policy', CSP).send(shell);
  });
  for (const [file, type] of [
    ['app.js', 'text/javascript'],
    ['style.css', 'text/css'],
  ] as const)
    router.get(`/__mock/ui/${file}`, (_req: Request, res: Response) => {
      const dir = uiBundleDir();
      if (!dir) return missing(res);
      res.type(type).setHeader('Cache-Control', 'no-cache').sendFile(join(dir, file));
    });
  return router;
}
