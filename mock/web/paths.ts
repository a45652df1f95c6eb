/**
 * Which paths the mock answers (docs/architecture.md, "Transports"): the
 * operations' path templates of the registry, hosted media (`/media/...`),
 * the control API (`/__mock` and below) and any of those under a session
 * prefix (`/sessions/<name>/...`). The MSW handlers answer these under their
 * base URL and let every other request through (an app's own modules, a dev
 * server's hot-reload and dependency requests, the favicon), so the app's own
 * origin can be the base URL.
 */
import { operationIds, operations } from '../../schemas/operations.ts';

const SESSION_PREFIX = /^\/sessions\/[^/]+(?=\/)/i;
const FIXED = /^\/(?:media\/.|__mock(?:\/|$))/i;

let templates: RegExp | undefined;

/** One regex of every registry path (a `{param}` is one segment; case-insensitive; an optional trailing slash, as the routes take). */
function templatesRegex(): RegExp {
  if (templates) return templates;
  const sources = new Set<string>();
  for (const id of operationIds) {
    const path = operations[id].path;
    sources.add(path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+'));
  }
  templates = new RegExp(`^(?:${[...sources].join('|')})/?$`, 'i');
  return templates;
}

/**
 * True when the mock answers `pathname` (already relative to the mock's base
 * path): an operation's path (whatever the method: a wrong one gets the 405
 * envelope), `/media/...`, `/__mock...`, or one of those under
 * `/sessions/<name>/`.
 */
export function isMockPath(pathname: string): boolean {
  const rest = pathname.replace(SESSION_PREFIX, '');
  return FIXED.test(rest) || templatesRegex().test(rest);
}
