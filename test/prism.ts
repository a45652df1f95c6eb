/**
 * Contract harness: HTTP requests go THROUGH Prism's validation proxy
 * (`prism proxy <spec> <mock> --errors`) to an in-process mock, and every
 * violation Prism reports, request or response, is collected and fails the call.
 *
 * How Prism 5.14.2 reports violations in proxy mode with --errors (found by
 * experiment and in @stoplight/prism-http{,-server}/dist):
 *
 * - Request violations (body, query, path, headers, content type): the request is
 *   NOT forwarded; Prism answers 422 `application/problem+json` with
 *   `type: https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY` and a
 *   `validation` array ({location: ['body', 'content'], severity, code, message}).
 *   A missing or non-Bearer Authorization header is a security violation: 401
 *   problem+json `#UNAUTHORIZED` (with WWW-Authenticate), also not forwarded.
 * - Response violations: the mock's response is swallowed; Prism answers 500
 *   problem+json `#VIOLATIONS` ("Request/Response not valid") with the
 *   `validation` array of the Error-severity violations, AND an `sl-violations`
 *   header holding the JSON array of every violation (locations prefixed with
 *   `response`). Missing required response headers are Errors too. Warnings
 *   only get the `sl-violations` header on the forwarded response, unchanged
 *   otherwise: notably a status the operation does not declare ("Unable to match
 *   the returned status code with those defined in the document", severity
 *   Warning), whose body Prism then does not validate at all.
 * - Routes the spec does not have: 404 `#NO_PATH_MATCHED_ERROR`, 405
 *   `#NO_METHOD_MATCHED_ERROR`. A body Prism cannot parse as JSON: Prism's own
 *   400 `{"error":{"code":"invalid_json",...}}`, not forwarded.
 *
 * So the harness flags (1) any `sl-violations` header, (2) any problem+json whose
 * type is a Prism error, and (3) any answer that did not come from the mock (the
 * upstream server tags each forwarded response and records what the mock sent),
 * and (4) a forwarded body that Prism altered.
 *
 * A test file calls `usePrism()` (or `usePrism({spec})`, `usePrism({specDocument})`): under the project's vitest
 * config, one Prism process per document serves every file of the run (test/prism-hub.ts, a globalSetup: Prism's
 * start-up costs a few seconds of CPU), each file with its own upstream port behind it; run under another config,
 * the file starts a Prism of its own (`startPrism`). Each test gets a fresh mock with `useMock()` behind the file's
 * upstream port. Prism reads a snapshot of the spec in a temp directory, because it watches its file and restarts
 * when `npm run build` rewrites spec/ in the middle of a run.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, afterEach, beforeAll, expect, inject } from 'vitest';
import { errorCatalog, type ErrorName } from '../schemas/errors.ts';
import type { OperationDef } from '../schemas/registry-types.ts';
import { createMockServer, type MockOptions } from '../mock/http/app.ts';
import { declaredStatuses, errorForStatus } from '../mock/core/forcing.ts';
import { isMockOnly } from '../scripts/spec.ts';
import { sendRequest, type CallOptions, type CallResult, type TestMock } from './helpers.ts';
import { ROUTE_HEADER } from './prism-hub.ts';
import { spawnPrism, type PrismDocument, type PrismProcess } from './prism-process.ts';

export { KEY, OTHER_KEY } from './helpers.ts';
export { freePort } from './prism-process.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** The API document Prism validates against. */
export const API_SPEC = join(ROOT, 'spec', 'openapi.yaml');
const PRISM_ERROR_TYPE = 'https://stoplight.io/prism/errors#';
/** Request header that numbers a call, so the upstream can record what the mock sent for it. */
const CALL_HEADER = 'x-contract-call';
/** Response header the upstream adds to everything the mock answers. */
const UPSTREAM_HEADER = 'x-contract-upstream';

/** One entry of Prism's `validation` array or `sl-violations` header. */
export interface PrismValidation {
  location?: string[];
  severity?: string;
  code?: string | number;
  message: string;
}

/** A violation Prism reported, or a sign that Prism answered instead of the mock. */
export interface PrismViolation {
  direction: 'request' | 'response' | 'proxy';
  /** How it was detected. */
  via: 'problem+json' | 'sl-violations' | 'not-forwarded' | 'body-altered';
  method: string;
  path: string;
  status: number;
  /** Prism's problem type (e.g. UNPROCESSABLE_ENTITY, VIOLATIONS), when there was one. */
  type?: string;
  validation: PrismValidation[];
  /** Human-readable text: what a failing test prints. */
  text: string;
}

/** What the mock itself wrote for a forwarded call. */
export interface UpstreamResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  text: string;
}

export interface PrismCallResult extends CallResult {
  /** True when the answer came from the mock (Prism forwarded the request). */
  forwarded: boolean;
  /** The mock's own response, when the request reached it. */
  upstream?: UpstreamResponse;
  violations: PrismViolation[];
}

export interface PrismCallOptions extends CallOptions {
  /** Return violations in the result instead of throwing (negative tests). */
  allowViolations?: boolean;
}

/** Direct access to the current mock (not through Prism): the control API is not in the spec. */
export type MockHandle = Omit<TestMock, 'close'>;

export interface PrismHarness {
  /** Prism's base URL. */
  prismBase: string;
  /** Base URL of the upstream the mocks sit behind. */
  mockBase: string;
  /** Headers a request sent to `prismBase` by hand must carry to reach this file's mocks (empty with a Prism of its own). */
  route: Record<string, string>;
  /** Every violation seen since start (or since the last `takeViolations`). */
  violations: PrismViolation[];
  /** Replaces the mock behind Prism with a fresh instance (manual clock, seed 1, strict, unless overridden). */
  useMock(opts?: MockOptions): MockHandle;
  /** The current mock (throws before the first `useMock`). */
  readonly mock: MockHandle;
  /** A request through Prism. Throws `PrismViolationError` on any violation unless `allowViolations`. */
  call(method: string, path: string, opts?: PrismCallOptions): Promise<PrismCallResult>;
  /** Returns and clears the recorded violations. */
  takeViolations(): PrismViolation[];
  /** Throws with the text of every recorded violation (and clears them); also fails on mock bugs. */
  assertClean(): void;
  /** Prism's stdout and stderr so far (for diagnostics). */
  log(): string;
  close(): Promise<void>;
}

export class PrismViolationError extends Error {
  constructor(readonly violations: PrismViolation[]) {
    super(`Prism reported ${violations.length} violation(s):\n${violations.map((v) => v.text).join('\n')}`);
    this.name = 'PrismViolationError';
  }
}

export interface StartPrismOptions {
  /** Spec file (YAML or JSON) for Prism; default spec/openapi.yaml. It is copied to a temp dir first. */
  spec?: string;
  /** A spec document object to write and use instead (for harness self-tests with a deliberately altered spec). */
  specDocument?: unknown;
  /** How long to wait for Prism to answer, ms (default 30 000). */
  startTimeoutMs?: number;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function describeValidation(v: PrismValidation): string {
  return `${(v.location ?? []).join('.') || '(no location)'}: ${v.message}${v.code !== undefined ? ` [${v.code}]` : ''}${v.severity ? ` (${v.severity})` : ''}`;
}

/**
 * Finds every violation in one answer from Prism. Exported for the self-tests;
 * `upstream` is what the mock wrote for this call (undefined: not forwarded).
 */
export function detectViolations(
  method: string,
  path: string,
  res: { status: number; headers: Headers; text: string },
  upstream: UpstreamResponse | undefined,
): PrismViolation[] {
  const out: PrismViolation[] = [];
  const where = `${method} ${path} -> ${res.status}`;
  const header = res.headers.get('sl-violations');
  if (header) {
    const parsed = parseJson(header);
    const list: PrismValidation[] = Array.isArray(parsed) ? (parsed as PrismValidation[]) : [{ message: header }];
    const direction = list.some((v) => v.location?.[0] === 'response') ? 'response' : 'request';
    out.push({
      direction,
      via: 'sl-violations',
      method,
      path,
      status: res.status,
      validation: list,
      text: `${where}: sl-violations: ${list.map(describeValidation).join('; ')}`,
    });
  }
  const ctype = res.headers.get('content-type') ?? '';
  const body = parseJson(res.text) as { type?: unknown; title?: unknown; detail?: unknown; validation?: PrismValidation[] } | undefined;
  if (ctype.includes('application/problem+json') && body && typeof body.type === 'string' && body.type.startsWith(PRISM_ERROR_TYPE)) {
    const type = body.type.slice(PRISM_ERROR_TYPE.length);
    const validation = Array.isArray(body.validation) ? body.validation : [];
    // #VIOLATIONS carries the response's Error violations; every other Prism problem is about the request.
    const direction = type === 'VIOLATIONS' && validation.every((v) => v.location?.[0] === 'response') ? 'response' : 'request';
    out.push({
      direction,
      via: 'problem+json',
      method,
      path,
      status: res.status,
      type,
      validation,
      text: `${where}: Prism ${type}: ${String(body.title)}${validation.length ? `: ${validation.map(describeValidation).join('; ')}` : body.detail ? ` (${JSON.stringify(body.detail)})` : ''}`,
    });
  }
  if (!upstream && !res.headers.get(UPSTREAM_HEADER)) {
    if (out.length === 0)
      out.push({
        direction: 'proxy',
        via: 'not-forwarded',
        method,
        path,
        status: res.status,
        validation: [],
        text: `${where}: answered by Prism, not by the mock: ${res.text.slice(0, 500)}`,
      });
  } else if (upstream && out.length === 0) {
    const a = parseJson(res.text);
    const b = parseJson(upstream.text);
    const same = a !== undefined || b !== undefined ? isDeepStrictEqual(a, b) : res.text === upstream.text;
    if (!same || res.status !== upstream.status)
      out.push({
        direction: 'proxy',
        via: 'body-altered',
        method,
        path,
        status: res.status,
        validation: [],
        text: `${where}: Prism's answer differs from the mock's (${upstream.status} ${upstream.text.slice(0, 300)})`,
      });
  }
  return out;
}

/** The per-file upstream: a stable port whose handler is the current mock's Express app, recording what the mock sent per call. */
interface Upstream {
  base: string;
  port: number;
  current: { app: (req: IncomingMessage, res: ServerResponse) => void; handle: MockHandle } | undefined;
  byCall: Map<string, UpstreamResponse>;
  close(): Promise<void>;
}

async function startUpstream(): Promise<Upstream> {
  const up: Upstream = { base: '', port: 0, current: undefined, byCall: new Map(), close: async () => {} };
  const server: Server = createServer((req, res) => {
    const current = up.current;
    if (!current) {
      res.statusCode = 503;
      res.end('no mock: call useMock() first');
      return;
    }
    const callId = req.headers[CALL_HEADER];
    res.setHeader(UPSTREAM_HEADER, '1');
    if (typeof callId === 'string') {
      const chunks: Buffer[] = [];
      const write = res.write.bind(res) as (...a: unknown[]) => boolean;
      const end = res.end.bind(res) as (...a: unknown[]) => ServerResponse;
      const keep = (chunk: unknown, enc?: unknown) => {
        if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
        chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, typeof enc === 'string' ? (enc as BufferEncoding) : 'utf8'));
      };
      (res as unknown as { write: unknown }).write = (chunk: unknown, ...rest: unknown[]) => {
        keep(chunk, rest[0]);
        return write(chunk, ...rest);
      };
      (res as unknown as { end: unknown }).end = (chunk?: unknown, ...rest: unknown[]) => {
        keep(chunk, rest[0]);
        up.byCall.set(callId, { status: res.statusCode, headers: res.getHeaders(), text: Buffer.concat(chunks).toString('utf8') });
        return end(chunk, ...rest);
      };
    }
    current.app(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  up.port = (server.address() as AddressInfo).port;
  up.base = `http://127.0.0.1:${up.port}`;
  up.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  };
  return up;
}

/** The document `opts` names, as Prism will read it. */
function prismDocument(opts: StartPrismOptions): PrismDocument {
  if (opts.specDocument !== undefined) return { name: 'openapi.json', text: JSON.stringify(opts.specDocument, null, 2) };
  const src = opts.spec ?? API_SPEC;
  return { name: `openapi${src.endsWith('.json') ? '.json' : '.yaml'}`, text: readFileSync(src, 'utf8') };
}

/** The harness over an upstream and a Prism in front of it; `route` headers go on every request through Prism. */
function makeHarness(upstream: Upstream, prismBase: string, route: Record<string, string>, log: () => string, close: () => Promise<void>): PrismHarness {
  const mockBase = upstream.base;
  let callSeq = 0;
  const violations: PrismViolation[] = [];
  const send = sendRequest;

  return {
    prismBase,
    mockBase,
    route,
    violations,
    useMock(mockOpts: MockOptions = {}) {
      const bugs: string[] = [];
      const mock = createMockServer({
        clock: 'manual',
        seed: 1,
        strict: true,
        publicUrl: mockBase,
        onMockBug: (id, p) => bugs.push(`${id}: ${p}`),
        ...mockOpts,
      });
      const { app, engine } = mock;
      const call = async (method: string, path: string, o: CallOptions = {}): Promise<CallResult> => {
        const { status, headers, text, json } = await send(mockBase, method, path, o);
        return { status, headers, json, text };
      };
      const handle: MockHandle = {
        base: mockBase,
        engine,
        bugs,
        call,
        inFlight: () => mock.inFlight(),
        async advance(ms) {
          const r = await call('POST', '/__mock/clock/advance', { key: null, body: { ms } });
          if (r.status !== 200) throw new Error(`advance failed: ${r.status} ${r.text}`);
        },
      };
      upstream.current = { app: app as unknown as (req: IncomingMessage, res: ServerResponse) => void, handle };
      return handle;
    },
    get mock() {
      if (!upstream.current) throw new Error('no mock: call useMock() first');
      return upstream.current.handle;
    },
    async call(method, path, o: PrismCallOptions = {}) {
      const id = String(++callSeq);
      const { status, headers, text, json } = await send(prismBase, method, path, o, { ...route, [CALL_HEADER]: id });
      const up = upstream.byCall.get(id);
      upstream.byCall.delete(id);
      const found = detectViolations(method, path, { status, headers, text }, up);
      const result: PrismCallResult = { status, headers, json, text, forwarded: up !== undefined, upstream: up, violations: found };
      if (found.length && !o.allowViolations) {
        violations.push(...found);
        throw new PrismViolationError(found);
      }
      return result;
    },
    takeViolations() {
      return violations.splice(0, violations.length);
    },
    assertClean() {
      const v = violations.splice(0, violations.length);
      const current = upstream.current;
      const bugs = current ? current.handle.bugs.splice(0, current.handle.bugs.length) : [];
      if (v.length || bugs.length)
        throw new Error([v.length ? new PrismViolationError(v).message : '', bugs.length ? `mock bugs:\n${bugs.join('\n')}` : ''].filter(Boolean).join('\n'));
    },
    log,
    close,
  };
}

/**
 * Starts an upstream server and a `prism proxy` of its own in front of it. Call `useMock()` before the first `call()`.
 * Test files use `usePrism()`, which shares one Prism per document across the run.
 */
export async function startPrism(opts: StartPrismOptions = {}): Promise<PrismHarness> {
  const upstream = await startUpstream();
  let prism: PrismProcess;
  try {
    prism = await spawnPrism(prismDocument(opts), upstream.base, opts.startTimeoutMs);
  } catch (e) {
    await upstream.close();
    throw e;
  }
  return makeHarness(
    upstream,
    prism.base,
    {},
    () => prism.log(),
    async () => {
      await prism.close();
      await upstream.close();
    },
  );
}

/**
 * Asks the Prism hub of the run (test/prism-hub.ts, vitest globalSetup) for the Prism of this document, started once
 * for every file that uses it, and puts this file's own upstream behind it (requests carry the route header).
 */
async function joinPrism(hub: string, opts: StartPrismOptions): Promise<PrismHarness> {
  const doc = prismDocument(opts);
  const upstream = await startUpstream();
  const res = await fetch(`${hub}/__hub/prism`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(doc) });
  const text = await res.text();
  if (res.status !== 200) {
    await upstream.close();
    throw new Error(`the Prism hub could not start Prism on ${doc.name}:\n${text}`);
  }
  const { prismBase } = JSON.parse(text) as { prismBase: string };
  return makeHarness(
    upstream,
    prismBase,
    { [ROUTE_HEADER]: String(upstream.port) },
    () => `(the shared Prism at ${prismBase}: its output is in the hub)`,
    () => upstream.close(),
  );
}

export interface UsePrismOptions extends StartPrismOptions {
  /** Assert after each test that no violation or mock bug is left over (default true). */
  assertCleanAfterEach?: boolean;
}

/**
 * For a contract test file: a harness whose Prism validates `opts.spec` / `opts.specDocument` (default
 * spec/openapi.yaml). Under the project's vitest config one Prism per document serves the whole run (the hub); elsewhere
 * the file starts its own. Registers beforeAll (join or start), afterAll (close) and, unless turned off, an afterEach
 * that calls `assertClean()`. The returned object is usable from beforeAll on.
 */
export function usePrism(opts: UsePrismOptions = {}): PrismHarness {
  let h: PrismHarness | undefined;
  const get = (): PrismHarness => {
    if (!h) throw new Error('usePrism: the harness is not started yet (use it inside tests or hooks)');
    return h;
  };
  beforeAll(async () => {
    const hub = inject('prismHub');
    h = hub ? await joinPrism(hub, opts) : await startPrism(opts);
  }, 150_000);
  afterAll(async () => {
    await h?.close();
  });
  if (opts.assertCleanAfterEach !== false) afterEach(() => get().assertClean());
  return {
    get prismBase() {
      return get().prismBase;
    },
    get mockBase() {
      return get().mockBase;
    },
    get route() {
      return get().route;
    },
    get violations() {
      return get().violations;
    },
    useMock: (o) => get().useMock(o),
    get mock() {
      return get().mock;
    },
    call: (method, path, o) => get().call(method, path, o),
    takeViolations: () => get().takeViolations(),
    assertClean: () => get().assertClean(),
    log: () => get().log(),
    close: () => get().close(),
  };
}

/** One forced answer of an operation: the Prefer header to send and the error it must produce. */
export interface ForcedCase {
  prefer: string;
  status: number;
  error: ErrorName;
  code: number;
}

/**
 * Every forced answer an operation declares: `Prefer: code=<status>` for each
 * declared non-success status (answered with `errorForStatus`), and
 * `Prefer: error=<code>` for each declared error. Send each through Prism with
 * any valid-looking request (forcing precedes parameter validation).
 */
export function forcedCases(op: OperationDef): ForcedCase[] {
  const out: ForcedCase[] = [];
  // the service document shows no mock-only code (the mock's own caps, 10019): those are the mock's document's
  op = { ...op, errors: op.errors.filter((n) => !isMockOnly(n) || n === 'INVALID_PREFER') };
  for (const status of declaredStatuses(op)) {
    if (status === op.response.status) continue;
    const error = errorForStatus(op, status)!;
    out.push({ prefer: `code=${status}`, status, error, code: errorCatalog[error].code });
  }
  for (const error of op.errors)
    out.push({ prefer: `error=${errorCatalog[error].code}`, status: errorCatalog[error].httpStatus, error, code: errorCatalog[error].code });
  return out;
}

/** Sends a request through `prism` and asserts it was forwarded to the mock and answered `status` (default 200). */
export async function expectForwarded(prism: PrismHarness, method: string, path: string, opts: PrismCallOptions = {}, status = 200): Promise<PrismCallResult> {
  const r = await prism.call(method, path, opts);
  expect(r.status, `${method} ${path}: ${r.text.slice(0, 300)}`).toBe(status);
  expect(r.forwarded).toBe(true);
  return r;
}

/**
 * Asserts `r` is the error envelope of `name`: its HTTP status, JSON, `{code, message, data: null}`, a message
 * containing (or matching) `messagePart`, and Retry-After on a 429 or 503.
 */
export function expectErrorEnvelope(r: CallResult, name: ErrorName, messagePart?: string | RegExp): void {
  const e = errorCatalog[name];
  expect(r.status, `${name}: ${r.text}`).toBe(e.httpStatus);
  expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  expect(r.json).toEqual({ code: e.code, message: expect.any(String), data: null });
  if (messagePart) expect(r.json.message).toMatch(messagePart);
  if (e.httpStatus === 429 || e.httpStatus === 503) expect(r.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
}

/**
 * A request whose body may break a rule the spec carries (docs/rules.md): Prism refuses such a body itself (422,
 * a request violation, not forwarded), and the mock's own answer to it is then read directly; a body the spec
 * accepts goes through Prism as usual (and must raise no violation).
 */
export async function viaSpecOrMock(prism: PrismHarness, method: string, path: string, opts: CallOptions): Promise<CallResult> {
  const r = await prism.call(method, path, { ...opts, allowViolations: true });
  if (r.forwarded) {
    expect(r.violations).toEqual([]);
    return r;
  }
  expect(r.status, r.text).toBe(422);
  expect(r.violations.every((v) => v.direction === 'request')).toBe(true);
  prism.takeViolations();
  return prism.mock.call(method, path, opts);
}
