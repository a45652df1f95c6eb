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

/** Hosts already judged (`proto://host`: usable or not): URL.canParse is a full URL parse, and a client sends the same Host every time. */
const judged = new Map<string, boolean>();

/** True when `h` is a URL authority: `proto://h/` parses (remembered; the memory is dropped at 1,000 names, so any number of names fits). */
function parses(proto: string, h: string): boolean {
  const url = `${proto}://${h}/`;
  let ok = judged.get(url);
  if (ok === undefined) {
    if (judged.size >= 1000) judged.clear();
    judged.set(url, (ok = URL.canParse(url)));
  }
  return ok;
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
  const usable = (h: string | undefined): h is string => !!h && HOST.test(h) && parses(proto, h);
  const fwdHost = first(req.headers['x-forwarded-host']);
  const host = usable(fwdHost) ? fwdHost : usable(req.headers.host) ? req.headers.host : `localhost:${req.socket.localPort ?? 80}`;
  return `${proto}://${host}`;
}
