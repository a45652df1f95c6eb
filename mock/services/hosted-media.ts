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

/** A media route compiled to a regular expression over the path (as the media router compiles it). */
interface Compiled {
  re: RegExp;
  names: string[];
  route: MediaRoute;
}

const compiled: Compiled[] = [];

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

/** Adds `routes` (every area's media declarations) to what `resolveHostedMedia` finds. */
export function registerHostedMedia(routes: readonly MediaRoute[]): void {
  for (const r of routes) compiled.push(compile(r));
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
  for (const c of compiled) {
    const m = c.re.exec(path);
    if (!m) continue;
    let params: Record<string, string>;
    try {
      params = Object.fromEntries(c.names.map((n, i) => [n, decodeURIComponent(m[i + 1])]));
    } catch {
      return undefined;
    }
    return c.route.resolve(engine, params, query);
  }
  return undefined;
}
