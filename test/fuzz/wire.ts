/**
 * Writing a generated request (model.ts) on the wire: PoolRefs resolved,
 * the path and query percent-encoded (or deliberately not), the JSON body
 * serialized with its mutations applied and its bytes tweaked, multipart
 * bodies assembled and broken, headers set, expensive values clamped.
 */
import { gzipSync } from 'node:zlib';
import { nodeAt, deref } from './documents.ts';
import { applyMutation, astralNear, cutPointsOfNode, multipartTextFields, sitesOf } from './mutations.ts';
import type { AuthChoice, CostCaps, MultipartPlan, PartPlan, RawTweak, RequestMutation, RequestSpec, WireRequest, Pools } from './model.ts';
import type { FuzzTarget } from './documents.ts';
import { FileValue, resolveRefs, toJsonText } from './values.ts';

/** How many spellings of a valid Authorization header there are (Bearer, bearer, extra spaces). */
export const AUTH_STYLES = 3;

// ---------------------------------------------------------------------------
// Writing a request
// ---------------------------------------------------------------------------

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** Percent-encodes the UTF-8 of `s` (lone surrogates as the 3-byte sequence they would have, which no decoder accepts). */
export function percentEncode(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let cp = c;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
      }
    }
    if (cp < 0x80 && UNRESERVED.test(String.fromCharCode(cp))) {
      out += String.fromCharCode(cp);
      continue;
    }
    const bytes =
      cp < 0x80
        ? [cp]
        : cp < 0x800
          ? [0xc0 | (cp >> 6), 0x80 | (cp & 63)]
          : cp < 0x10000
            ? [0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)]
            : [0xf0 | (cp >> 18), 0x80 | ((cp >> 12) & 63), 0x80 | ((cp >> 6) & 63), 0x80 | (cp & 63)];
    out += bytes.map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
  }
  return out;
}

/** A header value Node will send: characters outside tab, space..~ and latin-1 are replaced by `?`. */
function headerSafe(v: string): string {
  return v.replace(/[^\t\x20-\x7e\x80-\xff]/g, '?');
}

/** The text of a query value (null and undefined: left out). */
function queryText(v: unknown): string | undefined {
  if (v === null || v === undefined) return undefined;
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

function clampNumericText(text: string, cap: number): string {
  return /^\d+$/.test(text) && Number(text) > cap ? String(cap) : text;
}

/** A CRLF multipart body of `plan` (before mutations). */
function multipartBytes(
  plan: MultipartPlan,
  opts: { eol: string; closing: boolean; preamble?: string; partHeaders?: (p: PartPlan, i: number) => string | undefined },
): Buffer {
  const chunks: Buffer[] = [];
  const eol = opts.eol;
  if (opts.preamble !== undefined) chunks.push(Buffer.from(opts.preamble + eol));
  plan.parts.forEach((p, i) => {
    chunks.push(Buffer.from(`--${plan.boundary}${eol}`));
    const custom = opts.partHeaders?.(p, i);
    if (custom !== undefined) chunks.push(Buffer.from(custom));
    else {
      const name = p.name === null ? '' : `; name="${p.name.replace(/"/g, '%22')}"`;
      if (p.value instanceof FileValue) {
        chunks.push(Buffer.from(`Content-Disposition: form-data${name}; filename="${p.value.filename.replace(/"/g, '%22')}"${eol}`));
        if (p.value.contentType) chunks.push(Buffer.from(`Content-Type: ${p.value.contentType}${eol}`));
      } else chunks.push(Buffer.from(`Content-Disposition: form-data${name}${eol}`));
    }
    chunks.push(Buffer.from(eol));
    chunks.push(p.value instanceof FileValue ? p.value.materialize() : Buffer.from(p.value));
    chunks.push(Buffer.from(eol));
  });
  if (opts.closing) chunks.push(Buffer.from(`--${plan.boundary}--${eol}`));
  return Buffer.concat(chunks);
}

/** Applies a raw tweak to body bytes. */
function tweakBytes(body: Buffer, tweak: RawTweak, limit: number): Buffer {
  switch (tweak.kind) {
    case 'truncate':
      return body.subarray(0, Math.floor(body.length * tweak.fraction));
    case 'invalid-utf8': {
      // inside a string when there is one: after the n-th quote
      let at = Math.floor(body.length * tweak.fraction);
      const q = body.indexOf(0x22, at);
      if (q >= 0) at = q + 1;
      return Buffer.concat([body.subarray(0, at), Buffer.from(tweak.bytes), body.subarray(at)]);
    }
    case 'bom':
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]);
    case 'trailing':
      return Buffer.concat([body, Buffer.from(tweak.junk)]);
    case 'empty':
      return Buffer.alloc(0);
    case 'oversize':
      return Buffer.concat([body, Buffer.alloc(Math.max(0, limit + tweak.extra - body.length), 0x20)]);
    case 'replace':
      return Buffer.from(tweak.text);
    case 'replace-bytes':
      return Buffer.from(tweak.bytes);
  }
}

/** What writing needs: the key pool, the pools of state, the cost caps. */
export interface WriteContext {
  keys: readonly string[];
  pools: Pools;
  caps: CostCaps;
}

/** The wire form of `spec` for target `t`. */
export function writeRequest(t: FuzzTarget, spec: RequestSpec, ctx: WriteContext): WireRequest {
  const owner = spec.auth.kind === 'key' ? ctx.keys[spec.auth.index % ctx.keys.length] : undefined;
  const resolve = (v: unknown) => resolveRefs(v, (r) => ctx.pools.resolve(r, owner));
  const labels = spec.mutations.map((m) => (m.kind === 'body' ? `body:${m.pm.m.kind}` : m.kind === 'multipart' ? `multipart:${m.m.kind}` : m.kind));
  const headers: Record<string, string> = {};
  const w = (x: Omit<WireRequest, 'owner'>): WireRequest => ({ ...x, ...(owner !== undefined && headers.authorization?.includes(owner) ? { owner } : {}) });

  // auth
  let auth: AuthChoice = spec.auth;
  for (const m of spec.mutations) if (m.kind === 'auth') auth = m.auth;
  if (t.auth || auth.kind !== 'key') {
    if (auth.kind === 'key') {
      const key = ctx.keys[auth.index % ctx.keys.length];
      headers.authorization = [`Bearer ${key}`, `bearer ${key}`, `Bearer   ${key} `][auth.style % AUTH_STYLES];
    } else if (auth.kind === 'header') headers.authorization = auth.value;
  }

  // path
  const rawParams = new Map(spec.mutations.flatMap((m) => (m.kind === 'path-param' ? [[m.name, m.raw] as const] : [])));
  let path = t.path.replace(/\{(\w+)\}/g, (_, name: string) => rawParams.get(name) ?? percentEncode(queryText(resolve(spec.path[name])) ?? ''));

  // query
  const pairs: [string, string][] = [];
  const caps = ctx.caps.query[t.id] ?? {};
  const rawQuery = new Map(
    spec.mutations.flatMap((m) => {
      if (m.kind === 'query-param') return [[m.name, m.raw] as const];
      if (m.kind !== 'query-astral') return [];
      // the parameter's generated text (or none) rebuilt with the astral character near its limit or a cut point
      const p = t.params.find((x) => x.in === 'query' && x.name === m.name);
      const points = cutPointsOfNode(p ? nodeAt(deref(p.schema)) : undefined);
      return [[m.name, percentEncode(astralNear(queryText(resolve(spec.query[m.name])), points, m))] as const];
    }),
  );
  for (const [name, v] of Object.entries(spec.query)) {
    if (rawQuery.has(name)) continue;
    const text = queryText(resolve(v));
    if (text !== undefined) pairs.push([percentEncode(name), percentEncode(caps[name] !== undefined ? clampNumericText(text, caps[name]) : text)]);
  }
  for (const [name, raw] of rawQuery) pairs.push([percentEncode(name), caps[name] !== undefined ? clampNumericText(raw, caps[name]) : raw]);
  for (const m of spec.mutations) {
    if (m.kind === 'force-query') for (const [k, v] of m.pairs) pairs.push([k, percentEncode(k === '__delay' ? clampNumericText(v, ctx.caps.delayMs) : v)]);
  }
  const junk = spec.mutations.flatMap((m) => (m.kind === 'query-junk' ? [m.raw] : []));
  const query = [...pairs.map(([k, v]) => `${k}=${v}`), ...junk].join('&');
  if (query) path += `?${query}`;
  // what Node's client refuses to send (spaces, controls, characters past latin-1) is percent-encoded; raw latin-1 bytes stay
  path = path.replace(/[^\x21-\xff]/gu, (c) => percentEncode(c));

  // Prefer
  const prefer: string[] = spec.prefer ? [spec.prefer] : [];
  for (const m of spec.mutations) if (m.kind === 'prefer') prefer.push(...m.values);
  if (prefer.length)
    headers.prefer = prefer
      .map((p) => p.replace(/delay\s*=\s*"?(\d+)"?/gi, (all, d: string) => (Number(d) <= 60_000 ? `delay=${Math.min(Number(d), ctx.caps.delayMs)}` : all)))
      .join(', ');

  // body
  let body: Buffer | undefined;
  if (t.body?.kind === 'json') {
    let value = spec.body;
    const fieldCaps = ctx.caps.body[t.id];
    if (fieldCaps && value && typeof value === 'object' && !Array.isArray(value)) {
      const capped: Record<string, unknown> = { ...(value as Record<string, unknown>) };
      for (const [k, cap] of Object.entries(fieldCaps)) if (typeof capped[k] === 'number' && capped[k] > cap && capped[k] <= 60_000) capped[k] = cap;
      value = capped;
    }
    const bodyMutations = spec.mutations.flatMap((m) => (m.kind === 'body' ? [m.pm] : []));
    if (bodyMutations.length) {
      if (value === undefined) value = {};
      for (const pm of bodyMutations) value = applyMutation(value, sitesOf(value, t.body.schema), pm);
    }
    if (value !== undefined) {
      const resolved = resolve(value);
      body = Buffer.from(t.body.contentType === 'application/x-www-form-urlencoded' ? toFormText(resolved) : toJsonText(resolved), 'utf8');
      headers['content-type'] = t.body.contentType;
    }
    for (const m of spec.mutations) {
      if (m.kind !== 'raw-body') continue;
      body = tweakBytes(body ?? Buffer.alloc(0), m.tweak, t.body.limitBytes);
      headers['content-type'] ??= t.body.contentType;
    }
  } else if (t.body?.kind === 'multipart' && spec.multipart) {
    ({ body, contentType: headers['content-type'] } = writeMultipart(t, resolveMultipart(spec.multipart, resolve), spec.mutations));
  }
  for (const m of spec.mutations) {
    if (m.kind !== 'body-on-bodyless') continue;
    body = Buffer.from(m.padTo > m.text.length ? m.text + ' '.repeat(m.padTo - m.text.length) : m.text);
    headers['content-type'] ??= 'application/json';
  }

  // headers that override
  for (const m of spec.mutations) {
    if (m.kind === 'content-type') {
      if (m.value === null) delete headers['content-type'];
      else headers['content-type'] = m.value;
    } else if (m.kind === 'content-encoding') {
      headers['content-encoding'] = m.value;
      if (m.compress && body) body = gzipSync(body);
    } else if (m.kind === 'header') headers[m.name] = m.value;
  }
  for (const k of Object.keys(headers)) headers[k] = headerSafe(headers[k]);
  return w({ target: t.id, method: t.method.toUpperCase(), path, headers, ...(body !== undefined ? { body } : {}), labels });
}

/**
 * An urlencoded form of `value`'s top-level fields (an array a repeated field, anything else but a string its JSON
 * text); a value that is not an object is sent as its JSON text (a malformed form).
 */
function toFormText(value: unknown): string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return toJsonText(value);
  const form = new URLSearchParams();
  const text = (v: unknown) => (typeof v === 'string' ? v : toJsonText(v));
  for (const [k, v] of Object.entries(value)) for (const item of Array.isArray(v) ? v : [v]) form.append(k, text(item));
  return form.toString();
}

function resolveMultipart(plan: MultipartPlan, resolve: (v: unknown) => unknown): MultipartPlan {
  return {
    boundary: plan.boundary,
    parts: plan.parts.map((p) => ({ name: p.name, value: p.value instanceof FileValue ? p.value : String(resolve(p.value)) })),
  };
}

/** The bytes and Content-Type of a multipart body after its mutations. */
function writeMultipart(t: FuzzTarget, plan0: MultipartPlan, mutations: RequestMutation[]): { body: Buffer; contentType: string } {
  const rules = t.body!.multipart;
  // a form of text fields only (no file field) gets its files under a name it does not take
  const fileField = (rules && Object.keys(rules.files)[0]) ?? 'files';
  const maxFile = rules && Object.keys(rules.files).length ? Math.max(...Object.values(rules.files).map((f) => f.maxFileBytes)) : 1024;
  let plan: MultipartPlan = { boundary: plan0.boundary, parts: [...plan0.parts] };
  let eol = '\r\n';
  let closing = true;
  let preamble: string | undefined;
  let headerBoundary = plan.boundary;
  let contentType: string | undefined;
  let truncate: number | undefined;
  const custom = new Map<number, string>();
  for (const r of mutations) {
    if (r.kind !== 'multipart') continue;
    const m = r.m;
    switch (m.kind) {
      case 'wrong-boundary':
        headerBoundary = `${plan.boundary}x`;
        break;
      case 'no-boundary-param':
        contentType = 'multipart/form-data';
        break;
      case 'quoted-boundary':
        contentType = `multipart/form-data; boundary="${plan.boundary}"`;
        break;
      case 'no-closing':
        closing = false;
        break;
      case 'truncate':
        truncate = m.fraction;
        break;
      case 'lf-only':
        eol = '\n';
        break;
      case 'preamble':
        preamble = m.text;
        break;
      case 'part-without-name':
        plan.parts.push({ name: null, value: 'orphan' });
        break;
      case 'part-without-disposition':
        plan.parts.push({ name: 'x', value: 'no disposition' });
        custom.set(plan.parts.length - 1, `Content-Type: text/plain${eol}`);
        break;
      case 'garbage-part-headers':
        plan.parts.push({ name: 'x', value: 'garbage headers' });
        custom.set(plan.parts.length - 1, `${m.text.replace(/[\r\n]/g, ' ')}${eol}`);
        break;
      case 'oversized-file':
        plan.parts.push({ name: fileField, value: new FileValue(new Uint8Array([0x42]), maxFile + 1, 'big.bin', 'application/octet-stream') });
        break;
      case 'oversized-total': {
        const total = rules?.maxTotalBytes ?? 0;
        const n = Math.ceil((total + 1) / maxFile);
        for (let i = 0; i < n; i++) plan.parts.push({ name: fileField, value: new FileValue(new Uint8Array([0x43]), maxFile, `part${i}.bin`, undefined) });
        break;
      }
      case 'too-many-files':
        for (let i = 0; i < 10 + m.extra; i++) plan.parts.push({ name: fileField, value: new FileValue(new Uint8Array([i]), 3, `f${i}.bin`, 'image/png') });
        break;
      case 'too-many-fields':
        for (let i = 0; i < m.count; i++) plan.parts.push({ name: `field${i}`, value: String(i) });
        break;
      case 'huge-field':
        plan.parts.push({ name: 'note', value: 'x'.repeat(1024 * 1024 + 1) });
        break;
      case 'odd-filename':
        plan.parts.push({ name: fileField, value: new FileValue(new Uint8Array([1, 2, 3]), 3, m.name, 'image/png') });
        break;
      case 'odd-field-name':
        plan.parts.push({ name: m.name, value: 'v' });
        break;
      case 'files-as-text':
        plan.parts.push({ name: fileField, value: 'not a file' });
        break;
      case 'invalid-utf8-header':
        plan.parts.push({ name: 'x', value: 'v' });
        custom.set(plan.parts.length - 1, `Content-Disposition: form-data; name="\udcff\u00ff"${eol}`);
        break;
      case 'astral-field': {
        // a free-text field of the schema, its text (or none) rebuilt with the astral character near its limits and the mock's cut points
        const fields = multipartTextFields(t.body!.schema);
        if (!fields.length) break;
        const f = fields[m.field % fields.length];
        const i = plan.parts.findIndex((p) => p.name === f.name && typeof p.value === 'string');
        const value = astralNear(i >= 0 ? plan.parts[i].value : '', cutPointsOfNode(f.node), m);
        if (i >= 0) plan.parts[i] = { name: f.name, value };
        else plan.parts.push({ name: f.name, value });
        break;
      }
    }
  }
  plan = { ...plan, boundary: plan.boundary };
  let body = multipartBytes(plan, { eol, closing, ...(preamble !== undefined ? { preamble } : {}), partHeaders: (_p, i) => custom.get(i) });
  if (truncate !== undefined) body = body.subarray(0, Math.floor(body.length * truncate));
  return { body, contentType: contentType ?? `multipart/form-data; boundary=${headerBoundary}` };
}

/** A short, printable account of a wire request (for failure messages). */
export function describeWire(w: WireRequest, maxBody = 600): string {
  const path = w.path.length > 300 ? `${w.path.slice(0, 300)}... (${w.path.length} chars)` : w.path;
  const headers = Object.entries(w.headers)
    .map(([k, v]) => `${k}: ${v.length > 120 ? `${v.slice(0, 120)}... (${v.length} chars)` : v}`)
    .join('\n  ');
  let body = '';
  if (w.body) {
    const text = w.body.subarray(0, maxBody).toString('latin1');
    body = `\n  body (${w.body.length} bytes): ${JSON.stringify(text)}${w.body.length > maxBody ? '...' : ''}`;
  }
  return `${w.method} ${path}\n  ${headers}${body}\n  mutations: ${w.labels.join(', ') || '(none: a valid request)'}`;
}
