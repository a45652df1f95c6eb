/**
 * Shared by the video and account suites through Prism (test/prism-harness.prism.test.ts,
 * test/video-contract.prism.test.ts, test/video-contract-errors.prism.test.ts): sample media URLs, the strict error
 * envelope check, and the calls those suites make through one Prism harness (`videoCalls`).
 */
import { expect } from 'vitest';
import { errorCatalog, type ErrorName } from '../schemas/errors.ts';
import { pathOf } from './factories.ts';
import type { CallResult } from './helpers.ts';
import { viaSpecOrMock, type PrismCallResult, type PrismHarness } from './prism.ts';

/** Sample media URLs a request may name (never fetched by the mock). */
export const IMG = (n: number) => `https://example.com/img${n}.png`;
export const VID = (n: number) => `https://example.com/vid${n}.mp4`;
export const AUD = (n: number) => `https://example.com/aud${n}.mp3`;

/** Asserts an error envelope: status, catalogued code, a message, data null, nothing else (Retry-After on a 429). */
export function expectError(r: CallResult, name: ErrorName, messagePart?: string | RegExp) {
  const e = errorCatalog[name];
  expect(r.status, `${name}: ${r.text}`).toBe(e.httpStatus);
  expect(r.json?.code, `${name}: ${r.text}`).toBe(e.code);
  expect(r.json?.data).toBeNull();
  expect(Object.keys(r.json).sort()).toEqual(['code', 'data', 'message']);
  expect(typeof r.json.message).toBe('string');
  expect(r.json.message.length).toBeGreaterThan(0);
  if (messagePart) expect(r.json.message).toMatch(messagePart);
  if (e.httpStatus === 429) expect(r.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
}

/** The video and account calls of a suite, all through `prism` (each asserting its success answer). */
export function videoCalls(prism: PrismHarness) {
  /** A call through Prism that must succeed with `status` and envelope `code` (0 by default). */
  async function ok(method: string, path: string, opts: Parameters<PrismHarness['call']>[2] = {}, status = 200): Promise<PrismCallResult> {
    const r = await prism.call(method, path, opts);
    expect(r.status, `${method} ${path}: ${r.text}`).toBe(status);
    expect(r.forwarded).toBe(true);
    if (status === 200) {
      expect(r.json?.code, r.text).toBe(0);
      expect(r.json?.message).toBe('');
    }
    return r;
  }

  /** A request whose body may break a rule the spec carries: through Prism, or to the mock when Prism refuses it. */
  const ruled = (method: string, path: string, opts: { body: unknown }) => viaSpecOrMock(prism, method, path, opts);

  /** Creates a shared-endpoint video task; its id. */
  async function create(body: unknown, headers: Record<string, string> = {}, key?: string): Promise<string> {
    const r = await ok('POST', pathOf('createVideoTask'), { body, headers, key });
    expect(r.json.data.status).toBe('generating');
    expect(r.json.data.taskId).toMatch(/^vt_/);
    expect(r.json.data.episodeId).toMatch(/^ep_/);
    return r.json.data.taskId;
  }

  /** Creates a family5 video task; its id. */
  async function createF5(body: unknown, headers: Record<string, string> = {}, key?: string): Promise<string> {
    const r = await ok('POST', pathOf('createFamily5VideoTask'), { body, headers, key });
    expect(r.json.data.status).toBe('generating');
    return r.json.data.taskId;
  }

  /** The task `id` as `key` reads it. */
  async function getTask(id: string, key?: string) {
    return (await ok('GET', pathOf('getVideoTask', { taskId: id }), { key })).json.data;
  }

  /** The account's balance in credits. */
  async function balance(key?: string): Promise<number> {
    return (await ok('GET', pathOf('getSubscription'), { key })).json.data.balance;
  }

  return { ok, ruled, create, createF5, getTask, balance };
}
