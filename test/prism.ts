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
 * Prism is started once per test file (beforeAll; it takes a few seconds); each
 * test gets a fresh mock with `useMock()` behind the same upstream port. Prism
 * reads a snapshot of the spec in a temp directory, because it watches its file
 * and restarts when `npm run build` rewrites spec/ in the middle of a run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { expect } from 'vitest';
import { errorCatalog, type ErrorName } from '../schemas/errors.ts';
import type { OperationDef } from '../schemas/registry-types.ts';
import { createMockServer, type MockOptions } from '../mock/http/app.ts';
import { declaredStatuses, errorForStatus } from '../mock/core/prefer.ts';
import { sendRequest, type CallOptions, type CallResult, type TestMock } from './helpers.ts';

export { KEY, OTHER_KEY } from './helpers.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** The API document Prism validates against. */
export const API_SPEC = join(ROOT, 'spec', 'openapi.yaml');
const PRISM_BIN = join(ROOT, 'node_modules', '.bin', 'prism');
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

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const s = createNetServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolvePort(port));
    });
  });
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

/** Starts an upstream server and `prism proxy` in front of it. Call `useMock()` before the first `call()`. */
export async function startPrism(opts: StartPrismOptions = {}): Promise<PrismHarness> {
  // --- upstream: a stable port whose handler is the current mock's Express app ---
  let current: { app: (req: IncomingMessage, res: ServerResponse) => void; handle: MockHandle } | undefined;
  const upstreamByCall = new Map<string, UpstreamResponse>();
  const upstream: Server = createServer((req, res) => {
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
        upstreamByCall.set(callId, { status: res.statusCode, headers: res.getHeaders(), text: Buffer.concat(chunks).toString('utf8') });
        return end(chunk, ...rest);
      };
    }
    current.app(req, res);
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', () => r()));
  const mockBase = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;

  // --- prism on a snapshot of the spec ---
  const dir = mkdtempSync(join(tmpdir(), 'prism-contract-'));
  let specPath: string;
  if (opts.specDocument !== undefined) {
    specPath = join(dir, 'openapi.json');
    writeFileSync(specPath, JSON.stringify(opts.specDocument, null, 2));
  } else {
    const src = opts.spec ?? API_SPEC;
    specPath = join(dir, `openapi${src.endsWith('.json') ? '.json' : '.yaml'}`);
    copyFileSync(src, specPath);
  }
  const port = await freePort();
  const prismBase = `http://127.0.0.1:${port}`;
  let output = '';
  const child: ChildProcess = spawn(PRISM_BIN, ['proxy', specPath, mockBase, '--errors', '-p', String(port), '-h', '127.0.0.1'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
  });
  child.stdout?.on('data', (d: Buffer) => (output += d.toString('utf8')));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString('utf8')));
  let exited: number | null | undefined;
  child.on('exit', (code) => (exited = code));
  const killChild = () => {
    if (exited === undefined) child.kill('SIGTERM');
  };
  process.once('exit', killChild);

  const cleanup = async () => {
    killChild();
    await new Promise<void>((r) => (exited !== undefined ? r() : child.once('exit', () => r())));
    process.removeListener('exit', killChild);
    upstream.closeAllConnections();
    await new Promise<void>((r) => upstream.close(() => r()));
    rmSync(dir, { recursive: true, force: true });
  };

  // Wait until Prism answers HTTP (any answer: a path outside the spec gets its 404 problem).
  const deadline = Date.now() + (opts.startTimeoutMs ?? 30_000);
  for (;;) {
    if (exited !== undefined) {
      await cleanup();
      throw new Error(`prism exited with ${exited} before answering:\n${output}`);
    }
    try {
      const r = await fetch(`${prismBase}/__contract_ready`, { signal: AbortSignal.timeout(1000) });
      await r.text();
      if (/Prism is listening/.test(output)) break;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) {
      await cleanup();
      throw new Error(`prism did not answer within the start timeout:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  let callSeq = 0;
  const violations: PrismViolation[] = [];

  const send = sendRequest;

  const harness: PrismHarness = {
    prismBase,
    mockBase,
    violations,
    useMock(mockOpts: MockOptions = {}) {
      const bugs: string[] = [];
      const { app, engine } = createMockServer({
        clock: 'manual',
        seed: 1,
        strict: true,
        publicUrl: mockBase,
        onMockBug: (id, p) => bugs.push(`${id}: ${p}`),
        ...mockOpts,
      });
      const call = async (method: string, path: string, o: CallOptions = {}): Promise<CallResult> => {
        const { res, text, json } = await send(mockBase, method, path, o);
        return { status: res.status, headers: res.headers, json, text };
      };
      const handle: MockHandle = {
        base: mockBase,
        engine,
        bugs,
        call,
        async advance(ms) {
          const r = await call('POST', '/__mock/clock/advance', { key: null, body: { ms } });
          if (r.status !== 200) throw new Error(`advance failed: ${r.status} ${r.text}`);
        },
      };
      current = { app: app as unknown as (req: IncomingMessage, res: ServerResponse) => void, handle };
      return handle;
    },
    get mock() {
      if (!current) throw new Error('no mock: call useMock() first');
      return current.handle;
    },
    async call(method, path, o: PrismCallOptions = {}) {
      const id = String(++callSeq);
      const { res, text, json } = await send(prismBase, method, path, o, { [CALL_HEADER]: id });
      const up = upstreamByCall.get(id);
      upstreamByCall.delete(id);
      const found = detectViolations(method, path, { status: res.status, headers: res.headers, text }, up);
      const result: PrismCallResult = { status: res.status, headers: res.headers, json, text, forwarded: up !== undefined, upstream: up, violations: found };
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
      const bugs = current ? current.handle.bugs.splice(0, current.handle.bugs.length) : [];
      if (v.length || bugs.length)
        throw new Error([v.length ? new PrismViolationError(v).message : '', bugs.length ? `mock bugs:\n${bugs.join('\n')}` : ''].filter(Boolean).join('\n'));
    },
    log: () => output,
    close: cleanup,
  };
  return harness;
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
