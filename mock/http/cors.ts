/**
 * CORS headers of actual (not preflight) requests (docs/architecture.md, "The
 * request path"): any origin, reflected (never *, so credentials work), and the
 * response headers a client reads. The front middleware marks a response as
 * owing them (`owesCors`); the writer of a whole answer puts them in its one
 * writeHead (so the headers go out as one array, without a setHeader per
 * header), and every other writer sets them first (`applyCors`). Preflights are
 * answered by the cors package with the same policy (mock/http/app.ts).
 */
import type { Response } from 'express';

/** Response headers a browser page may read (CORS exposes them). */
export const EXPOSED_HEADERS = ['Retry-After', 'Content-Range', 'Content-Length', 'Accept-Ranges', 'ETag', 'Allow', 'Content-Disposition'];

const EXPOSED_LIST = EXPOSED_HEADERS.join(',');

/** Marks `res` as owing the CORS headers of an actual request (written with its head). */
export function owesCors(res: Response): void {
  res.locals.owesCors = true;
}

/**
 * Appends the CORS headers `res` owes (if any, once) to `head` (name, value, name, value...),
 * in the order and with the values the cors package sets for `{origin: true, credentials: true, exposedHeaders}`:
 * the Origin reflected when there is one, `Vary: Origin`, credentials, the exposed headers.
 */
export function takeCors(res: Response, head: string[]): void {
  if (!res.locals.owesCors) return;
  res.locals.owesCors = false;
  const origin = res.req.headers.origin;
  if (origin) head.push('Access-Control-Allow-Origin', origin);
  head.push('Vary', 'Origin', 'Access-Control-Allow-Credentials', 'true', 'Access-Control-Expose-Headers', EXPOSED_LIST);
}

/** Sets the CORS headers `res` owes (if any, once), for a writer that does not go through writeWhole. */
export function applyCors(res: Response): void {
  if (!res.locals.owesCors) return;
  const head: string[] = [];
  takeCors(res, head);
  for (let i = 0; i < head.length; i += 2) {
    // a writer may have named its own Vary already: Origin is added to it
    const had = head[i] === 'Vary' ? res.getHeader('Vary') : undefined;
    res.setHeader(head[i], had ? `${String(had)}, ${head[i + 1]}` : head[i + 1]);
  }
}
