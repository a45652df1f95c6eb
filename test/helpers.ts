/**
 * Test harness: each test builds its own mock instance (no module-level state),
 * listening on an ephemeral port, strict response validation on, manual clock.
 */
import type { AddressInfo } from 'node:net';
import { afterEach, expect } from 'vitest';
import type { Server } from 'node:http';
import { createMock, type MockOptions } from '../mock/http/app.ts';
import type { Engine } from '../mock/engine/engine.ts';

export interface CallOptions {
  /** API key; `null` sends no Authorization header. Default: the harness's key. */
  key?: string | null;
  body?: unknown;
  /** Raw body string (sent as is). */
  raw?: string;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  headers: Headers;
  /** Parsed JSON, or undefined when the body was not JSON. */
  json: any;
  text: string;
}

export interface TestMock {
  base: string;
  engine: Engine;
  /** Mock bugs reported by strict validation; tests assert it stays empty. */
  bugs: string[];
  call(method: string, path: string, opts?: CallOptions): Promise<CallResult>;
  /** POST /__mock/clock/advance. */
  advance(ms: number): Promise<void>;
  close(): Promise<void>;
}

export const KEY = 'mg_test_secret1';
export const OTHER_KEY = 'mg_other_secret2';

/**
 * Sends one request: the Authorization header of `o.key` (default KEY; null: none), `o.body` as JSON
 * or `o.raw` as is, extra `headers`. Returns the response, its text and its JSON (undefined when not JSON).
 */
export async function sendRequest(base: string, method: string, path: string, o: CallOptions, extra: Record<string, string> = {}): Promise<{ res: Response; text: string; json: any }> {
  const headers: Record<string, string> = { ...(o.headers ?? {}), ...extra };
  const key = o.key === undefined ? KEY : o.key;
  if (key !== null) headers.authorization ??= `Bearer ${key}`;
  let body: string | undefined = o.raw;
  if (o.body !== undefined) {
    body = JSON.stringify(o.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(base + path, { method, headers, body });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { res, text, json };
}

/** Starts a mock (manual clock, seed 1, strict) on an ephemeral port. */
export async function startMock(opts: MockOptions = {}): Promise<TestMock> {
  const bugs: string[] = [];
  const { app, engine } = createMock({ clock: 'manual', seed: 1, strict: true, onMockBug: (id, p) => bugs.push(`${id}: ${p}`), ...opts });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const call = async (method: string, path: string, o: CallOptions = {}): Promise<CallResult> => {
    const { res, text, json } = await sendRequest(base, method, path, o);
    return { status: res.status, headers: res.headers, json, text };
  };
  return {
    base,
    engine,
    bugs,
    call,
    async advance(ms) {
      const r = await call('POST', '/__mock/clock/advance', { key: null, body: { ms } });
      if (r.status !== 200) throw new Error(`advance failed: ${r.text}`);
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * For a test file: returns a starter of mocks (options merged over `defaults`)
 * and registers an afterEach that asserts no strict-mode mock bug was reported
 * and closes every mock started.
 */
export function useMocks(defaults: MockOptions = {}): (opts?: MockOptions) => Promise<TestMock> {
  let mocks: TestMock[] = [];
  afterEach(async () => {
    const started = mocks;
    mocks = [];
    await Promise.all(started.map((m) => m.close()));
    for (const m of started) expect(m.bugs, 'strict-mode mock bugs').toEqual([]);
  });
  return async (opts = {}) => {
    const m = await startMock({ ...defaults, ...opts });
    mocks.push(m);
    return m;
  };
}
