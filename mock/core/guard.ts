/**
 * The control guard (docs/architecture.md, "The control API";
 * decisions/0011-control-api-protection.md): who may call the control
 * operations. A web page only from this machine's origins or one listed with
 * --control-origin (a request without an Origin header is not a page's
 * cross-site request); with a control token, only a request that carries it
 * (`Authorization: Bearer <token>`), except the operations the registry marks
 * open (`control: 'open'`: health). The request entry (mock/core/front.ts)
 * applies it once, to every /__mock path, before CORS, so a refused page
 * cannot read even the refusal; the same origin rule decides which API
 * requests may open a session.
 */
import { ApiError } from '../engine/api-error.ts';

export interface ControlGuardOptions {
  /** Web origins besides the local ones (http(s)://localhost, 127.0.0.1 or [::1], any port) allowed to call the control API. */
  origins?: readonly string[];
  /** Any page origin may call it (a fetch handler answers its own page: MSW, in-process). */
  anyOrigin?: boolean;
  /** When set, every control operation but the open ones needs `Authorization: Bearer <token>`. */
  token?: string;
}

/** A web origin of this machine: http(s)://localhost, 127.0.0.1 or [::1], any port. */
export const LOCAL_ORIGIN = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/i;

/**
 * True when a request from the web origin `pageOrigin` (see pageOriginOf; undefined: no page, a tool's request) may
 * call the control API or open a session: no page, a page of the mock's own origin (`selfOrigin`, the dashboard),
 * of this machine, or one listed in `opts.origins`; any with `opts.anyOrigin`.
 */
export function originAllowed(pageOrigin: string | undefined, selfOrigin: string | undefined, opts: ControlGuardOptions): boolean {
  return (
    pageOrigin === undefined ||
    opts.anyOrigin === true ||
    pageOrigin === selfOrigin ||
    LOCAL_ORIGIN.test(pageOrigin) ||
    (opts.origins !== undefined && opts.origins.includes(pageOrigin))
  );
}

/**
 * Why the guard refuses a control request (CONTROL_FORBIDDEN, 403), or
 * undefined when it passes. `pageOrigin` is the web origin the request comes
 * from (see pageOriginOf); `selfOrigin` the mock's own (a page the mock
 * serves, the dashboard, is allowed); `authorization` its Authorization
 * header; `open`: the request needs no token (an open operation, a preflight,
 * the dashboard's shell).
 */
export function controlGuardError(
  pageOrigin: string | undefined,
  selfOrigin: string | undefined,
  authorization: string | undefined,
  opts: ControlGuardOptions,
  open: boolean,
): ApiError | undefined {
  if (!originAllowed(pageOrigin, selfOrigin, opts))
    return new ApiError(
      'CONTROL_FORBIDDEN',
      `the control API does not answer web pages of ${pageOrigin} (allowed: this machine's origins and --control-origin)`,
    );
  if (opts.token && !open && authorization !== `Bearer ${opts.token}`)
    return new ApiError('CONTROL_FORBIDDEN', 'the control API needs Authorization: Bearer <control token> (printed at start, or set with --control-token)');
  return undefined;
}

/**
 * The web origin a browser request comes from, from its headers: `origin`
 * (Origin); for a request without one (an <img>, a link, a form GET) the
 * origin of `referer`; without either, a cross-site request (`secFetchSite`
 * is "cross-site") is named as such; undefined for a tool's request (curl, a
 * test's fetch in Node).
 */
export function pageOriginOf(origin: string | undefined, referer: string | undefined, secFetchSite: string | undefined): string | undefined {
  if (origin !== undefined) return origin;
  if (referer) {
    try {
      return new URL(referer).origin;
    } catch {
      return 'an unreadable Referer';
    }
  }
  return secFetchSite === 'cross-site' ? 'another site (Sec-Fetch-Site: cross-site)' : undefined;
}
