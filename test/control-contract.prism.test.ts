/**
 * The control API's own document (spec/mock-control.openapi.yaml) through
 * Prism's validation proxy, as the API's document is checked in
 * video-contract.prism.test.ts: the request and response kinds other than JSON
 * (a multipart/form-data upload, binary sample media of each declared content
 * type, a text/event-stream) and the JSON routes, success and errors. Any
 * violation Prism reports, in either direction, fails the call.
 *
 * Two limits of Prism 5.14.2 shape these cases (both known upstream):
 * - it maps a repeated multipart field to its last value, not to an array
 *   (https://github.com/stoplightio/prism/pull/2654, unmerged), so a body with files under
 *   the repeated `files` field is refused as "must be array" before it reaches
 *   the mock; that refusal is pinned below, and the same body is checked
 *   against the response schema on the mock directly;
 * - its proxy holds response bodies as text (https://github.com/stoplightio/prism/issues/1321), so
 *   binary bytes come back re-encoded (and large ones are cut off): through
 *   Prism we check the status, the declared Content-Type and that no violation
 *   is reported, on small samples; the bytes are checked on the mock directly.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { sampleContentTypes, UploadReport } from '../schemas/control.ts';
import { errorCatalog, type ErrorName } from '../schemas/errors.ts';
import { audioFileTypes, audioFormats } from '../schemas/media.ts';
import { videoPhases } from '../schemas/video.ts';
import { pathOf, videoBody } from './factories.ts';
import { KEY, usePrism } from './prism.ts';

const CONTROL_SPEC = new URL('../spec/mock-control.openapi.yaml', import.meta.url).pathname;
const prism = usePrism({ spec: CONTROL_SPEC });

function expectError(r: { status: number; json: any; text: string }, name: ErrorName) {
  expect(r.status, r.text).toBe(errorCatalog[name].httpStatus);
  expect(r.json.code).toBe(errorCatalog[name].code);
}

/** A raw request through Prism (for bodies sendRequest does not build: FormData). */
async function through(method: string, path: string, init: RequestInit = {}) {
  const res = await fetch(prism.prismBase + path, { method, ...init, headers: { ...prism.route, ...(init.headers as Record<string, string> | undefined) } });
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, bytes, text: new TextDecoder().decode(bytes), sl: res.headers.get('sl-violations') };
}

describe('multipart/form-data: POST /__mock/uploads', () => {
  const withFiles = () => {
    const form = new FormData();
    form.append('files', new Blob([new Uint8Array(2048).fill(1)], { type: 'audio/mpeg' }), 'a.mp3');
    form.append('files', new Blob(['hello'], { type: 'text/plain' }), 'b.txt');
    form.append('language', 'en');
    return form;
  };

  it('text fields pass Prism both ways (request and the response schema)', async () => {
    prism.useMock();
    const form = new FormData();
    form.append('language', 'en');
    form.append('note', 'hello');
    const r = await through('POST', '/__mock/uploads', { body: form });
    expect(r.sl, r.sl ?? '').toBeNull();
    expect(r.status, r.text).toBe(200);
    expect(JSON.parse(r.text)).toEqual({ files: [], fields: { language: 'en', note: 'hello' } });
  });

  it('files under the repeated field: Prism 5.14.2 refuses them as "must be array" (its known limit); the mock answers them, matching the declared schema', async () => {
    const m = prism.useMock();
    const r = await through('POST', '/__mock/uploads', { body: withFiles() });
    expect(r.status).toBe(422);
    const problem = JSON.parse(r.text);
    expect(problem.validation.map((v: { location: string[] }) => v.location.join('.'))).toEqual(['body.files']);
    const direct = await fetch(`${m.base}/__mock/uploads`, { method: 'POST', body: withFiles() });
    const json = await direct.json();
    expect(direct.status).toBe(200);
    expect(UploadReport.safeParse(json).success).toBe(true);
    expect(json.files.map((f: { filename: string; size: number }) => [f.filename, f.size])).toEqual([
      ['a.mp3', 2048],
      ['b.txt', 5],
    ]);
    prism.takeViolations();
  });

  it('a JSON body is refused by Prism (the document says multipart) and by the mock (415)', async () => {
    const m = prism.useMock();
    const r = await prism.call('POST', '/__mock/uploads', { key: null, body: { files: [] }, allowViolations: true });
    expect(r.forwarded).toBe(false);
    expect(r.violations.length).toBeGreaterThan(0);
    expectError(await m.call('POST', '/__mock/uploads', { key: null, body: { files: [] } }), 'UNSUPPORTED_MEDIA_TYPE');
  });
});

describe('binary: GET /__mock/samples/{kind}', () => {
  it.each([
    ...audioFormats.filter((f) => f !== 'wav').map((f) => [`audio?format=${f}&durationMs=300`, audioFileTypes[f].contentType]),
    ['image?width=64&height=48', 'image/png'],
    ['midi?durationMs=1000', 'audio/midi'],
  ])('%s: 200 with the declared Content-Type %s and no violation', async (q, contentType) => {
    prism.useMock();
    const r = await through('GET', `/__mock/samples/${q}`);
    expect(r.sl, r.sl ?? '').toBeNull();
    expect(r.status, r.text.slice(0, 200)).toBe(200);
    expect(r.headers.get('content-type')).toBe(contentType);
    expect(r.bytes.length).toBeGreaterThan(0);
  });

  it('every content type the samples answer with is one the document declares', () => {
    const doc = parseYaml(readFileSync(CONTROL_SPEC, 'utf8'));
    const declared = Object.keys(doc.paths['/__mock/samples/{kind}'].get.responses['200'].content);
    expect(new Set(declared)).toEqual(new Set(sampleContentTypes));
    for (const f of audioFormats) expect(declared).toContain(audioFileTypes[f].contentType);
  });

  it('an invalid sample answers the JSON envelope the document declares (400, 10008)', async () => {
    prism.useMock();
    expectError(await prism.call('GET', '/__mock/samples/video?width=321&height=180', { key: null }), 'CONTROL_INVALID_REQUEST');
  });
});

describe('text/event-stream: GET /__mock/events', () => {
  it("a task's changes, streamed until its terminal one, pass Prism", async () => {
    const m = prism.useMock();
    const created = await m.call('POST', pathOf('createVideoTask'), { body: videoBody() });
    const id = created.json.data.taskId as string;
    const p = videoPhases('family1-video-2-fast', 5);
    await m.advance(p.generatingMs + p.uploadingMs);
    const r = await through('GET', `/__mock/events?taskId=${id}`);
    expect(r.sl, r.sl ?? '').toBeNull();
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const statuses = [...r.text.matchAll(/^data: (.*)$/gm)].map((x) => JSON.parse(x[1]).status);
    expect(statuses).toEqual(['generating', 'uploading', 'success']);
  });
});

describe('JSON routes', () => {
  it('health, clock (and its next event), accounts (read, set, delete), scenarios (add, list, delete), operations, journal: success and errors', async () => {
    prism.useMock();
    const c = (method: string, path: string, body?: unknown) => prism.call(method, path, { key: null, ...(body !== undefined ? { body } : {}) });
    expect((await c('GET', '/__mock/health')).status).toBe(200);
    expect((await c('POST', '/__mock/clock/advance', { ms: 1000 })).status).toBe(200);
    expect((await c('PUT', `/__mock/accounts/${KEY}`, { credits: 5 })).status).toBe(200);
    expect((await c('GET', `/__mock/accounts/${KEY}`)).status).toBe(200);
    expect((await c('DELETE', `/__mock/accounts/${KEY}`)).json).toEqual({ apiKey: KEY, existed: true });
    expectError(await c('GET', `/__mock/accounts/${KEY}`), 'CONTROL_NOT_FOUND');
    expectError(await c('DELETE', '/__mock/accounts/bad-key'), 'CONTROL_INVALID_REQUEST');
    expect((await c('POST', '/__mock/scenarios', { operationId: 'getSubscription', delay: 0 })).status).toBe(200);
    expectError(await c('POST', '/__mock/scenarios', { operationId: 'getSubscription', error: 'free_relax_busy' }), 'CONTROL_INVALID_REQUEST');
    const second = await c('POST', '/__mock/scenarios', { code: 401 });
    expect((await c('GET', '/__mock/scenarios')).json.items).toHaveLength(2);
    expect((await c('DELETE', `/__mock/scenarios/${second.json.id}`)).json).toEqual({ id: second.json.id, existed: true });
    expect((await c('DELETE', '/__mock/scenarios')).json).toEqual({ removed: 1 });
    expect((await c('GET', '/__mock/clock/next')).json).toEqual({ due: null, inMs: null });
    expect((await c('GET', '/__mock/operations')).json.items.length).toBeGreaterThan(40);
    expect((await c('GET', '/__mock/requests')).status).toBe(200);
    expect((await c('POST', '/__mock/reset', {})).status).toBe(200);
  });
});
