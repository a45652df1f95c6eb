/**
 * Hosted media for the services: which file a path under /media/ names, from
 * the same declarations the media router serves (docs/architecture.md,
 * "Media"), so an endpoint that takes a URL of the mock's own media can read
 * the file without a network round trip (document 3, "Music: asynchronous
 * generation": the audioUrl of the analysis endpoints). The areas' routes are
 * registered per engine by `prepareEngine` (mock/services/index.ts); this module knows no area.
 * Standard JavaScript only.
 */
import { createSlot, type Engine } from '../engine/engine.ts';
import type { DeniedMedia, ExpiredMedia, MediaAsset, MediaRoute } from './context.ts';
import { compilePathTemplate } from './path-template.ts';

/**
 * A matcher of request paths (percent-encoded, without query) against `routes`, in order: the first route whose
 * template matches and its decoded parameters, or undefined when none matches or a parameter is not valid
 * percent-encoding. The media answerer and `resolveHostedMedia` both find files with it.
 */
export function mediaRouteMatcher(routes: readonly MediaRoute[]): (path: string) => { route: MediaRoute; params: Record<string, string> } | undefined {
  const compiled = routes.map((route) => ({ route, template: compilePathTemplate(route.path) }));
  return (path) => {
    for (const c of compiled) {
      if (!c.template.test(path)) continue;
      const params = c.template.match(path);
      return params ? { route: c.route, params } : undefined;
    }
    return undefined;
  };
}

type Matcher = ReturnType<typeof mediaRouteMatcher>;

/** The holder of `engine`'s media matcher (no routes until `registerHostedMedia`). */
const hostedMediaSlot = createSlot<{ match: Matcher }>('hosted media routes', () => ({ match: () => undefined }));
const hostedMedia = (engine: Engine) => engine.slot(hostedMediaSlot);

/** Makes `routes` what `resolveHostedMedia` finds for `engine` (`prepareEngine` does it with the composed services' routes). */
export function registerHostedMedia(engine: Engine, routes: readonly MediaRoute[]): void {
  hostedMedia(engine).match = mediaRouteMatcher(routes);
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
  const hit = hostedMedia(engine).match(path);
  return hit ? hit.route.resolve(engine, hit.params, query) : undefined;
}
