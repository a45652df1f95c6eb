/**
 * Hosted media for the services: which file a path under /media/ names, from
 * the same declarations the media router serves (docs/architecture.md,
 * "Media"), so an endpoint that takes a URL of the mock's own media can read
 * the file without a network round trip (document 3, "Music: asynchronous
 * generation": the audioUrl of the analysis endpoints). The areas' routes are
 * registered once by mock/services/index.ts; this module knows no area.
 * Standard JavaScript only.
 */
import type { Engine } from '../engine/engine.ts';
import type { DeniedMedia, ExpiredMedia, MediaAsset, MediaRoute } from './context.ts';

/** A media route compiled to a regular expression over the path. */
interface Compiled {
  re: RegExp;
  names: string[];
  route: MediaRoute;
}

function compile(route: MediaRoute): Compiled {
  const names: string[] = [];
  const source = route.path
    .split(/(\{\w+\})/)
    .map((part) => {
      const m = /^\{(\w+)\}$/.exec(part);
      if (!m) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(m[1]);
      return '([^/]+?)';
    })
    .join('');
  return { re: new RegExp(`^${source}$`), names, route };
}

/**
 * A matcher of request paths (percent-encoded, without query) against `routes`, in order: the first route whose
 * template matches and its decoded parameters, or undefined when none matches or a parameter is not valid
 * percent-encoding. The media router and `resolveHostedMedia` both find files with it.
 */
export function mediaRouteMatcher(routes: readonly MediaRoute[]): (path: string) => { route: MediaRoute; params: Record<string, string> } | undefined {
  const compiled = routes.map(compile);
  return (path) => {
    for (const c of compiled) {
      const m = c.re.exec(path);
      if (!m) continue;
      try {
        return { route: c.route, params: Object.fromEntries(c.names.map((n, i) => [n, decodeURIComponent(m[i + 1])])) };
      } catch {
        return undefined;
      }
    }
    return undefined;
  };
}

let match: ReturnType<typeof mediaRouteMatcher> = () => undefined;

/** Sets `routes` (every area's media declarations) as what `resolveHostedMedia` finds. */
export function registerHostedMedia(routes: readonly MediaRoute[]): void {
  match = mediaRouteMatcher(routes);
}

/**
 * The hosted file at `path` (a path as the media router sees it: percent-encoded,
 * without query) with the URL's `query` parameters, resolved now: the asset,
 * `{expired}` for a file past its validity, `{denied}` for a URL that does not
 * authorize it (a signed URL whose signature or expiry fails), or undefined
 * when no route matches, a parameter is not valid percent-encoding, or the
 * route finds nothing there. Never throws for bad input.
 */
export function resolveHostedMedia(engine: Engine, path: string, query: Record<string, string> = {}): MediaAsset | ExpiredMedia | DeniedMedia | undefined {
  const hit = match(path);
  return hit ? hit.route.resolve(engine, hit.params, query) : undefined;
}
