/**
 * The origin media URLs are built from, per request (docs/architecture.md,
 * "Media"): --public-url when given; else the request's X-Forwarded-Proto and
 * X-Forwarded-Host (a dev-server proxy) or its Host header, so a mock reached
 * at 127.0.0.1:PORT, through a proxy or from a phone on the LAN hands out URLs
 * that load there.
 */
import type { Request } from 'express';

/** A host[:port] we are willing to write into a URL (no spaces, slashes or other surprises). */
const HOST = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/;

/** Origins already built, per scheme and host (null: the host is no URL authority): URL.canParse is a full URL parse, and a client sends the same Host every time. */
const judged = { http: new Map<string, string | null>(), https: new Map<string, string | null>() };

/** `proto://h` when `h` is a host[:port] we write into URLs (the HOST pattern, and `proto://h/` parses), else null. Remembered; the memory is dropped at 1,000 names, so any number of names fits. */
function originFor(proto: 'http' | 'https', h: string | undefined): string | null {
  if (!h) return null;
  const seen = judged[proto];
  let origin = seen.get(h);
  if (origin === undefined) {
    if (seen.size >= 1000) seen.clear();
    origin = HOST.test(h) && URL.canParse(`${proto}://${h}/`) ? `${proto}://${h}` : null;
    seen.set(h, origin);
  }
  return origin;
}

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.split(',')[0]?.trim();

/**
 * `proto://host[:port]` for this request, without a trailing slash. A forwarded host or Host that is no URL
 * authority (a port past 65535, such as `localhost:99999`) is passed over: every URL built on the origin must parse.
 */
export function originOf(req: Request, publicUrl?: string): string {
  if (publicUrl) return publicUrl.replace(/\/+$/, '');
  const fwdProto = first(req.headers['x-forwarded-proto'])?.toLowerCase();
  const proto = fwdProto === 'https' || fwdProto === 'http' ? fwdProto : (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  const fwdHost = req.headers['x-forwarded-host'];
  return (
    (fwdHost === undefined ? null : originFor(proto, first(fwdHost))) ??
    originFor(proto, req.headers.host) ??
    `${proto}://localhost:${req.socket.localPort ?? 80}`
  );
}
