/**
 * The properties every answer must have, checked against the emitted
 * documents (and, for the API, the registry):
 *
 * - no 5xx, except a 503 the operation declares (a documented, forcible outage: it
 *   must carry a catalogued code and Retry-After), and an answer at all;
 * - every error is JSON: the envelope `{code, message, data: null}` with a non-zero integer code (but a web page's own
 *   page, text/html where its document declares one for that status: the sign-in page's error pages);
 * - every error's status is one the operation declares, and its code one the
 *   document declares for that status (for the API also one the registry's
 *   `errors` give that status); a 429 carries Retry-After;
 * - every 2xx is the declared success status, with a declared Content-Type,
 *   and its JSON body (or each event's data) validates against the document's schema;
 * - a request that reaches no operation answers 404 (10004) or 405 (10005).
 */
import { errorCatalog, errorNameByCode } from '../../schemas/errors.ts';
import type { ErrorObject } from 'ajv/dist/2020.js';
import { isMockOnly } from '../../scripts/spec.ts';
import { describeAjvError, registryErrors, validateAt, type Route, type SchemaAt } from './documents.ts';
import type { NoAnswer, WireResponse } from './http.ts';
import type { WireRequest } from './model.ts';

/** The codes of requests the HTTP parser refuses (schemas/errors.ts: MALFORMED_REQUEST, HEADERS_TOO_LARGE). */
const PARSER_CODES = { malformed: errorCatalog.MALFORMED_REQUEST.code, tooLarge: errorCatalog.HEADERS_TOO_LARGE.code };

/** A broken property of one answer (or of the run, for ledger checks). */
export interface Violation {
  /** What is broken: 5xx, error-not-json, error-envelope, undeclared-status, undeclared-code, ... */
  kind: string;
  /** The target the request reached (or was meant for). */
  target: string;
  status: number | null;
  /** The envelope code, when the answer had one. */
  code: number | null;
  detail: string;
  /** ajv errors of a schema violation. */
  ajv?: { keyword: string; params: Record<string, unknown>; instancePath: string }[];
  /**
   * For a schema violation: the formats (uri, ...) whose failing values, once
   * replaced by valid ones, leave the body valid; absent when something else
   * is wrong too.
   */
  onlyFormats?: string[];
}

/** A valid value of each format, to test whether a body fails only by its formats. */
const FORMAT_STANDINS: Record<string, string> = {
  uri: 'https://example.com/x',
  'uri-reference': '/x',
  email: 'a@example.com',
  'date-time': '2026-01-01T00:00:00Z',
};

/** The formats whose failing values, replaced by stand-ins, leave `body` valid against `at` (undefined when that is not enough). */
function onlyFormats(at: SchemaAt, body: unknown, errors: ErrorObject[]): string[] | undefined {
  const fmt = errors.filter((e) => e.keyword === 'format' && typeof e.params.format === 'string' && FORMAT_STANDINS[e.params.format]);
  if (!fmt.length) return undefined;
  const copy = JSON.parse(JSON.stringify(body)) as unknown;
  for (const e of fmt) {
    const tokens = e.instancePath
      .split('/')
      .slice(1)
      .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
    let node = copy as Record<string, unknown>;
    for (const t of tokens.slice(0, -1)) node = node[t] as Record<string, unknown>;
    node[tokens.at(-1)!] = FORMAT_STANDINS[e.params.format as string];
  }
  return validateAt(at, copy).length === 0 ? [...new Set(fmt.map((e) => e.params.format as string))] : undefined;
}

/** The media type of a Content-Type header (lower case, no parameters). */
export function mediaType(h: string | string[] | undefined): string {
  return String(Array.isArray(h) ? h[0] : (h ?? ''))
    .split(';')[0]
    .trim()
    .toLowerCase();
}

/** The parsed JSON body of an answer, or undefined when it is not JSON. */
export function jsonOf(r: WireResponse): unknown {
  try {
    return JSON.parse(r.body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** Checks one answer of request `w`, which reached `route`. */
export function checkAnswer(route: Route, w: WireRequest, r: WireResponse | NoAnswer): Violation[] {
  const target = route.kind === 'target' ? route.target.id : w.target;
  if ('error' in r) return [{ kind: 'no-answer', target, status: null, code: null, detail: r.error }];
  const out: Violation[] = [];
  const body = jsonOf(r);
  const code = body !== null && typeof body === 'object' && typeof (body as { code?: unknown }).code === 'number' ? (body as { code: number }).code : null;
  const v = (kind: string, detail: string, extra: Partial<Violation> = {}) => out.push({ kind, target, status: r.status, code, detail, ...extra });
  const type = mediaType(r.headers['content-type']);
  const schemaViolation = (kind: string, at: SchemaAt, value: unknown, errors: ErrorObject[]) => {
    const formats = onlyFormats(at, value, errors);
    const shown = formats ? errors.filter((e) => e.keyword === 'format') : errors;
    v(kind, shown.slice(0, 3).map(describeAjvError).join('; ') + (formats ? ` (the only problem: values that are not format ${formats.join(', ')})` : ''), {
      ajv: errors,
      ...(formats ? { onlyFormats: formats } : {}),
    });
  };

  // a mock-only code (the mock's own caps, 10019; its forcing) answers with a status the service document may not show;
  // the registry declares it, and the mock's document lists it
  const mockOnlyDeclared =
    route.kind === 'target' &&
    route.target.op !== undefined &&
    code !== null &&
    errorNameByCode(code) !== undefined &&
    isMockOnly(errorNameByCode(code)!) &&
    registryErrors(route.target.op).get(r.status)?.has(code) === true;
  const declared503 =
    r.status === 503 &&
    route.kind === 'target' &&
    (route.target.responses.has(503) || mockOnlyDeclared) &&
    code !== null &&
    errorNameByCode(code) !== undefined &&
    errorCatalog[errorNameByCode(code)!].httpStatus === 503;
  if (r.status >= 500 && !declared503) v('5xx', `answered ${r.status}: ${r.body.toString('utf8').slice(0, 200)}`);
  if (declared503 && r.headers['retry-after'] === undefined) v('no-retry-after', '503 without Retry-After');
  const declaredHere = route.kind === 'target' ? route.target.responses.get(r.status) : undefined;
  // a redirect only where the operation declares it (the sign-in form's 302)
  if (r.status < 200 || (r.status >= 300 && r.status < 400 && !declaredHere)) v('undeclared-status', `answered ${r.status}`);
  // a web page's own page (an error page of the sign-in page, text/html) where its document declares one for the status
  const ownPage = type === 'text/html' && declaredHere?.contentTypes.includes('text/html') === true;

  if (r.status >= 400 && !ownPage) {
    if (type !== 'application/json' || body === undefined) {
      v('error-not-json', `Content-Type ${String(r.headers['content-type'] ?? '(none)')}, body ${JSON.stringify(r.body.toString('latin1').slice(0, 120))}`);
      return out;
    }
    const env = body as Record<string, unknown>;
    const keys = env && typeof env === 'object' && !Array.isArray(env) ? Object.keys(env).sort().join(',') : '';
    if (keys !== 'code,data,message' || !Number.isInteger(env.code) || env.code === 0 || typeof env.message !== 'string' || env.data !== null)
      v('error-envelope', `not the error envelope {code, message, data: null}: ${JSON.stringify(body).slice(0, 200)}`);
  }

  if (route.kind !== 'target') {
    const expected = route.kind === 'not-found' ? { status: 404, code: 10004 } : { status: 405, code: 10005 };
    // what HTTP cannot parse (raw non-ASCII bytes, a head over the limit) is refused before any routing
    const unparsed = (r.status === 400 && code === PARSER_CODES.malformed) || (r.status === 431 && code === PARSER_CODES.tooLarge);
    if (!unparsed && (r.status !== expected.status || code !== expected.code))
      v('unrouted', `reached no operation (${route.kind}) but answered ${r.status}/${code ?? '-'}; expected ${expected.status}/${expected.code}`);
    return out;
  }

  const t = route.target;
  const declared = t.responses.get(r.status);
  if (!declared) {
    if (r.status >= 200 && !mockOnlyDeclared) v('undeclared-status', `${t.id} does not declare ${r.status} (declares ${[...t.responses.keys()].join(', ')})`);
    return out;
  }
  if (r.status >= 400 && ownPage) {
    // a page: its status and media type are declared; nothing more to check
  } else if (r.status >= 400) {
    // a mock-only code (10007, an unusable Prefer or __ parameter) is in the mock's document, not the service's: the registry check below covers it
    const mockOnly = code !== null && errorNameByCode(code) !== undefined && isMockOnly(errorNameByCode(code)!);
    if (declared.codes && code !== null && !mockOnly && !declared.codes.includes(code))
      v('undeclared-code', `${t.id} declares ${r.status} with ${declared.codes.join(', ')} in its document, answered ${code}`);
    else if (t.op && code !== null && !registryErrors(t.op).get(r.status)?.has(code))
      v('undeclared-code', `${t.id} declares ${r.status} with ${[...(registryErrors(t.op).get(r.status) ?? [])].join(', ')} in the registry, answered ${code}`);
    else if (declared.json) {
      const errors = validateAt(declared.json, body);
      if (errors.length) v('error-schema', errors.slice(0, 3).map(describeAjvError).join('; '), { ajv: errors });
    }
  } else {
    if (r.status !== t.success.status) v('undeclared-status', `${t.id} succeeds with ${t.success.status}, answered ${r.status}`);
    // a redirect carries no content (its Location is checked with the headers below)
    if (r.status >= 300 && declared.contentTypes.length === 0) {
      // nothing to check in the body
    } else if (!declared.contentTypes.includes(type))
      v('content-type', `${t.id} declares ${declared.contentTypes.join(', ')} for ${r.status}, answered ${type || '(none)'}`);
    else if (type === 'application/json' && declared.json) {
      if (body === undefined) v('response-schema', `the ${r.status} body is not JSON`);
      else {
        const errors = validateAt(declared.json, body);
        if (errors.length) schemaViolation('response-schema', declared.json, body, errors);
      }
    } else if (type === 'text/event-stream' && declared.events) {
      for (const f of r.frames ?? []) {
        const schema = f.event !== undefined ? declared.events[f.event] : undefined;
        if (!schema) {
          v('event-schema', `event ${f.event ?? '(unnamed)'} is not declared (${Object.keys(declared.events).join(', ')})`);
          continue;
        }
        let data: unknown;
        try {
          data = JSON.parse(f.data ?? '');
        } catch {
          v('event-schema', `event ${f.event} carries data that is not JSON: ${String(f.data).slice(0, 80)}`);
          continue;
        }
        const errors = validateAt(schema, data);
        if (errors.length) schemaViolation('event-schema', schema, data, errors);
      }
    }
  }
  for (const [name, schema] of Object.entries(declared.headers)) {
    const raw = r.headers[name.toLowerCase()];
    if (raw === undefined) {
      v('header', `${t.id} declares header ${name} on ${r.status}; it is missing`);
      continue;
    }
    const n = Number(raw);
    const value = Number.isFinite(n) && String(raw).trim() !== '' ? n : raw;
    const errors = validateAt(schema, value);
    if (errors.length) v('header', `${name}: ${String(raw)}: ${errors.map(describeAjvError).join('; ')}`);
  }
  return out;
}

/** The key a violation is grouped under: its kind, target, status and code. */
export function violationKey(v: Violation): string {
  return `${v.kind} ${v.target} ${v.status ?? '-'}/${v.code ?? '-'}`;
}
