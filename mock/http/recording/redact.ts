/**
 * What a recording never holds (docs/guides/proxy.md, "What is and is not
 * stored"): Authorization headers, API keys (`mg_...` anywhere: headers,
 * query strings, bodies), cookies, OAuth tokens and secrets (fields named
 * accessToken, refreshToken, code, clientSecret...), and the signatures of
 * signed URLs (query parameters such as `sig`, `signature`, `expires`,
 * `token`, `X-Amz-Signature`: the music tracks' `audioUrl` carries
 * `?expires=<ms>&sig=<hex>`, decisions/0015-music-signed-urls.md). A key is
 * replaced by a reference to its owner (`<key-1>`: the first key seen), so
 * the replay can give every recorded task to one mapped account; everything
 * else by `REDACTED`. The redactor counts what it replaced, and the file
 * lists those counts.
 */

/** Request headers kept in a recording; every other one is left out (Authorization, cookies and keys among them). */
export const KEPT_REQUEST_HEADERS = ['content-type', 'accept', 'prefer', 'idempotency-key'];
/** Response headers kept in a recording (what a client reads besides the body). */
export const KEPT_RESPONSE_HEADERS = ['content-type', 'retry-after', 'location', 'content-disposition', 'x-ratelimit-limit', 'x-ratelimit-remaining'];

/** An API key of the service's form: `mg_<keyId>_<secret>` (any key with the `mg_` prefix). */
const API_KEY = /\bmg_[A-Za-z0-9_-]+/g;
const HAS_API_KEY = /\bmg_[A-Za-z0-9_-]+/;
/** Query parameters that sign or authorize a URL: their values are redacted. */
const SIGNING_PARAM =
  /^(sig|signature|x-amz-signature|x-amz-credential|x-amz-security-token|x-goog-signature|x-goog-credential|token|access_token|expires|x-amz-expires|key|api_key|apikey|policy|key-pair-id|hmac|hash)$/i;
/** JSON fields that hold a credential: their string values are redacted. */
const SECRET_FIELD = /^(access_?token|refresh_?token|id_?token|token|client_?secret|secret|password|api_?key|code|code_?verifier|csrf)$/i;
/** Absolute URLs inside a text. */
const URL_IN_TEXT = /https?:\/\/[^\s"'<>\\]+/g;

export const REDACTED = 'REDACTED';

/** Replaces secrets in headers, query strings and bodies, counting what it replaced and naming keys by owner reference. */
export class Redactor {
  private readonly keys = new Map<string, string>();
  private readonly counts = new Map<string, number>();

  /** The owner reference of `key` (`key-1` for the first key seen). */
  ownerOf(key: string): string {
    let ref = this.keys.get(key);
    if (!ref) this.keys.set(key, (ref = `key-${this.keys.size + 1}`));
    return ref;
  }

  /** Every owner reference given so far, in order. */
  owners(): string[] {
    return [...this.keys.values()];
  }

  /** What was redacted, with counts, in the order first met. */
  redactions(): { what: string; count: number }[] {
    return [...this.counts].map(([what, count]) => ({ what, count }));
  }

  private count(what: string, n = 1): void {
    this.counts.set(what, (this.counts.get(what) ?? 0) + n);
  }

  /** `text` with its API keys replaced by their owner reference and the signing parameters of its URLs redacted. */
  text(text: string): string {
    let out = text.replace(API_KEY, (k) => {
      this.count('API key (mg_...) in a body, query or header');
      return `<${this.ownerOf(k)}>`;
    });
    if (out.includes('://')) out = out.replace(URL_IN_TEXT, (u) => this.url(u));
    return out;
  }

  /** A URL with the values of its signing parameters redacted (its path and other parameters kept). */
  url(url: string): string {
    const q = url.indexOf('?');
    return q < 0 ? url : `${url.slice(0, q)}?${this.query(url.slice(q + 1))}`;
  }

  /** A query string (without `?`) with the values of its signing parameters redacted. */
  query(query: string): string {
    if (!query) return query;
    return query
      .split('&')
      .map((pair) => {
        const eq = pair.indexOf('=');
        const name = decodeSafe(eq < 0 ? pair : pair.slice(0, eq));
        if (eq >= 0 && SIGNING_PARAM.test(name) && pair.slice(eq + 1) !== REDACTED) {
          this.count('signed URL parameter (sig, signature, expires, token...)');
          return `${pair.slice(0, eq)}=${REDACTED}`;
        }
        return pair.replace(API_KEY, (k) => {
          this.count('API key (mg_...) in a body, query or header');
          return `<${this.ownerOf(k)}>`;
        });
      })
      .join('&');
  }

  /** A JSON value with credential fields redacted and every string passed through `text`. */
  json(value: unknown): unknown {
    if (typeof value === 'string') return this.text(value);
    if (Array.isArray(value)) return value.map((v) => this.json(v));
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        if (typeof v === 'string' && SECRET_FIELD.test(k) && v !== REDACTED) {
          this.count('OAuth token, code or secret field');
          out[k] = REDACTED;
        } else out[k] = this.json(v);
      }
      return out;
    }
    return value;
  }

  /**
   * The headers worth keeping of `headers` (names lower-cased, `kept` only),
   * redacted; the owner reference of the request's Bearer API key. Counts the
   * Authorization and cookie headers left out.
   */
  headers(headers: Record<string, string>, kept: readonly string[]): { headers: Record<string, string>; owner: string | null } {
    const out: Record<string, string> = {};
    let owner: string | null = null;
    for (const [name, value] of Object.entries(headers)) {
      const n = name.toLowerCase();
      if (n === 'authorization') {
        this.count('Authorization header');
        const key = /^Bearer\s+(mg_\S+)$/i.exec(value)?.[1];
        if (key) owner = this.ownerOf(key);
      } else if (n === 'cookie' || n === 'set-cookie') this.count('cookie header');
      else if (kept.includes(n)) out[n] = this.text(value);
      else if (HAS_API_KEY.test(value)) this.count('API key (mg_...) in a body, query or header'); // a header left out (X-Api-Key) that held one
    }
    return { headers: out, owner };
  }
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/** A JSON text of `value` with object keys sorted (the same value always gives the same text): how request bodies are matched. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
