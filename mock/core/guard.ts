/**
 * The control guard (docs/architecture.md, "The control API";
 * decisions/0011-control-api-protection.md): who may call the control
 * operations. A web page only from this machine's origins or one listed with
 * --control-origin (a request without an Origin header is not a page's
 * cross-site request); with a control token, only a request that carries it
 * (`Authorization: Bearer <token>`), except the operations that need none
 * (health). The runner applies it to every control operation in place of an
 * API key; the Express server also applies it to every /__mock path before
 * CORS, so a refused page cannot read even the refusal.
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
 * Why the guard refuses a control request (CONTROL_FORBIDDEN, 403), or
 * undefined when it passes. `pageOrigin` is the web origin the request comes
 * from (see pageOriginOf); `selfOrigin` the mock's own (a page the mock
 * serves, the dashboard, is allowed); `open`: the operation needs no token.
 */
export function controlGuardError(
  req: { pageOrigin?: string; authorization?: string; selfOrigin?: string },
  opts: ControlGuardOptions,
  open: boolean,
): ApiError | undefined {
  const origin = req.pageOrigin;
  if (!opts.anyOrigin && origin !== undefined && origin !== req.selfOrigin && !LOCAL_ORIGIN.test(origin) && !(opts.origins ?? []).includes(origin))
    return new ApiError('CONTROL_FORBIDDEN', `the control API does not answer web pages of ${origin} (allowed: this machine's origins and --control-origin)`);
  if (opts.token && !open && req.authorization !== `Bearer ${opts.token}`)
    return new ApiError('CONTROL_FORBIDDEN', 'the control API needs Authorization: Bearer <control token> (printed at start, or set with --control-token)');
  return undefined;
}

/**
 * The web origin a browser request comes from: its Origin header; for a
 * request without one (an <img>, a link, a form GET) the origin of its
 * Referer; without either, a cross-site request (Sec-Fetch-Site) is named as
 * such; undefined for a tool's request (curl, a test's fetch in Node).
 */
export function pageOriginOf(headers: { origin?: string; referer?: string; 'sec-fetch-site'?: string }): string | undefined {
  if (headers.origin !== undefined) return headers.origin;
  if (headers.referer) {
    try {
      return new URL(headers.referer).origin;
    } catch {
      return 'an unreadable Referer';
    }
  }
  return headers['sec-fetch-site'] === 'cross-site' ? 'another site (Sec-Fetch-Site: cross-site)' : undefined;
}
