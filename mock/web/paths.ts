/**
 * Which paths the mock answers (docs/architecture.md, "Transports"): the
 * operations' paths of its route table (the API's and the control API's),
 * hosted media (`/media/...`), anything under `/__mock` (an unknown control
 * path gets the 404 envelope) and any of those under a session prefix
 * (`/sessions/<name>/...`), as the request entry sorts them
 * (mock/core/front.ts). The MSW handlers answer these under their base URL
 * and let every other request through (an app's own modules, a dev server's
 * hot-reload and dependency requests, the favicon), so the app's own origin
 * can be the base URL.
 */
import { routesPath } from '../core/front.ts';
import type { RouteTable } from '../core/routes.ts';

/**
 * True when the mock answers `pathname` (already relative to the mock's base
 * path): an operation's path (whatever the method: a wrong one gets the 405
 * envelope), `/media/...`, `/__mock...`, or one of those under
 * `/sessions/<name>/`.
 */
export function isMockPath(pathname: string, routes: RouteTable): boolean {
  return routesPath(pathname, routes);
}
