/**
 * multipart/form-data request bodies (mock/http/multipart.ts): files reach the
 * handler as {filename, mimeType, bytes}; text fields are coerced to the
 * schema's booleans and numbers and validated by the same Zod schema; per-file
 * and total size limits answer the declared error naming the limit; a
 * malformed body is a 400, never a 500. A small Express route around
 * readMultipart stands in for an upload operation (the registry's own upload
 * endpoints are covered through the router by their areas' tests).
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from '../schemas/zod.ts';
import { multipart, uploadedFile } from '../schemas/define.ts';
import { errorCatalog, type ErrorName } from '../schemas/errors.ts';
import type { UploadedFile } from '../schemas/registry-types.ts';
import { ApiError } from '../mock/engine/api-error.ts';
import { coerceFormFields, readMultipart } from '../mock/http/multipart.ts';
import { sendError } from '../mock/http/respond.ts';

const KB = 1024;
const Form = z.object({
  clips: z.array(uploadedFile('clips')).min(1).max(3),
  cover: uploadedFile('cover').optional(),
  language: z.enum(['en', 'zh']),
  consent: z.boolean(),
  speed: z.number().min(0.5).max(2).optional(),
  tags: z.array(z.string()).optional(),
  options: z.object({ loud: z.boolean() }).optional(),
});
const rules = multipart(Form, { files: { clips: { maxFileBytes: 10 * KB }, cover: { maxFileBytes: 4 * KB } }, maxTotalBytes: 24 * KB });
const limitRules = multipart(Form, { ...rules, limitError: 'VIDEO_INVALID_PARAMETERS' });

let server: Server;
let base: string;
beforeAll(async () => {
  const app = express();
  for (const [path, r] of [
    ['/upload', rules],
    ['/upload-own-limit-error', limitRules],
  ] as const) {
    app.post(path, async (req, res) => {
      try {
        const raw = await readMultipart(req, r, 'F5_INVALID_PARAMETERS');
        const parsed = Form.safeParse(raw);
        if (!parsed.success) throw new ApiError('F5_INVALID_PARAMETERS', parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
        const file = (f: UploadedFile) => ({
          filename: f.filename,
          mimeType: f.mimeType,
          size: f.bytes.byteLength,
          first: f.bytes[0] ?? null,
          bytesType: f.bytes.constructor.name,
        });
        res.status(200).json({ ...parsed.data, clips: parsed.data.clips.map(file), cover: parsed.data.cover && file(parsed.data.cover) });
      } catch (e) {
        sendError(res, e instanceof ApiError ? e : new ApiError('MOCK_INTERNAL_ERROR', String(e)));
      }
    });
  }
  server = await new Promise((r) => {
    const s = app.listen(0, '127.0.0.1', () => r(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const blob = (size: number, fill = 7, type = 'audio/mpeg') => new Blob([new Uint8Array(size).fill(fill)], { type });

function form(parts: [string, string | Blob, string?][]): FormData {
  const f = new FormData();
  for (const [k, v, name] of parts)
    if (typeof v === 'string') f.append(k, v);
    else f.append(k, v, name);
  return f;
}

const valid: [string, string | Blob, string?][] = [
  ['clips', blob(3 * KB, 1), 'a.mp3'],
  ['clips', blob(2 * KB, 2, 'audio/wav'), 'b.wav'],
  ['language', 'en'],
  ['consent', 'true'],
];

async function post(body: FormData | string, headers: Record<string, string> = {}, path = '/upload') {
  const res = await fetch(base + path, { method: 'POST', body, headers });
  return { status: res.status, json: await res.json() };
}

function expectError(r: { status: number; json: any }, name: ErrorName, ...mentions: string[]) {
  expect(r.status, JSON.stringify(r.json)).toBe(errorCatalog[name].httpStatus);
  expect(r.json.code).toBe(errorCatalog[name].code);
  for (const m of mentions) expect(r.json.message).toContain(m);
}

describe('files and fields', () => {
  it('files arrive as {filename, mimeType, bytes}; a repeated field is an array, a single one a file', async () => {
    const r = await post(form([...valid, ['cover', blob(KB, 9, 'image/png'), 'c.png']]));
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(r.json.clips).toEqual([
      { filename: 'a.mp3', mimeType: 'audio/mpeg', size: 3 * KB, first: 1, bytesType: 'Uint8Array' },
      { filename: 'b.wav', mimeType: 'audio/wav', size: 2 * KB, first: 2, bytesType: 'Uint8Array' },
    ]);
    expect(r.json.cover).toEqual({ filename: 'c.png', mimeType: 'image/png', size: KB, first: 9, bytesType: 'Uint8Array' });
  });

  it.each([
    ['consent', 'true', true],
    ['consent', 'FALSE', false],
    ['speed', '1.25', 1.25],
    ['speed', '2', 2],
  ])('text field %s=%s is coerced to %o', async (k, v, want) => {
    const r = await post(form([...valid.filter(([n]) => n !== k), [k, v]]));
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(r.json[k]).toBe(want);
  });

  it('a repeated text field becomes an array where the schema takes one; JSON text fills an object field', async () => {
    const r = await post(form([...valid, ['tags', 'a'], ['tags', 'b'], ['options', '{"loud":true}']]));
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(r.json.tags).toEqual(['a', 'b']);
    expect(r.json.options).toEqual({ loud: true });
  });

  it.each([
    ['consent', 'yes', 'consent'],
    ['speed', 'fast', 'speed'],
    ['speed', '3', 'speed'],
    ['language', 'fr', 'language'],
  ])('a text field the schema refuses (%s=%s) is a validation error naming it', async (k, v, field) => {
    expectError(await post(form([...valid.filter(([n]) => n !== k), [k, v]])), 'F5_INVALID_PARAMETERS', field);
  });

  it('a missing file field and a text value in a file field are validation errors naming the field', async () => {
    expectError(await post(form(valid.filter(([n]) => n !== 'clips'))), 'F5_INVALID_PARAMETERS', 'clips');
    expectError(await post(form([...valid, ['cover', 'not a file']])), 'F5_INVALID_PARAMETERS', 'cover');
  });

  it('more files than the field takes is a validation error naming the field and the count', async () => {
    const four = [1, 2, 3, 4].map((i) => ['clips', blob(KB, i), `${i}.mp3`] as [string, Blob, string]);
    expectError(await post(form([...four, ['language', 'en'], ['consent', 'true']])), 'F5_INVALID_PARAMETERS', 'clips', 'at most 3');
  });

  it('unknown file fields are read and dropped', async () => {
    const r = await post(form([...valid, ['extra', blob(KB), 'x.bin']]));
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(r.json.extra).toBeUndefined();
  });
});

describe('limits', () => {
  /** A body whose only clip is one byte over the 10 KB limit of its field. */
  const oversizedClip = () =>
    form([
      ['clips', blob(10 * KB + 1), 'big.mp3'],
      ['language', 'en'],
      ['consent', 'true'],
    ]);

  it('a file over its field limit answers 413 naming the field and the limit', async () => {
    expectError(await post(oversizedClip()), 'PAYLOAD_TOO_LARGE', 'clips', 'big.mp3', '0.01 MB');
    expectError(await post(form([...valid, ['cover', blob(4 * KB + 1, 1, 'image/png'), 'c.png']])), 'PAYLOAD_TOO_LARGE', 'cover');
  });

  it('files within their own limits but over the total answer 413 naming the total', async () => {
    const three = [1, 2, 3].map((i) => ['clips', blob(9 * KB, i), `${i}.mp3`] as [string, Blob, string]);
    expectError(await post(form([...three, ['language', 'en'], ['consent', 'true']])), 'PAYLOAD_TOO_LARGE', 'together', '0.02 MB');
  });

  it("an operation's own limit error replaces 413", async () => {
    expectError(await post(oversizedClip(), {}, '/upload-own-limit-error'), 'VIDEO_INVALID_PARAMETERS', 'clips');
  });

  it('files exactly at the limits are accepted', async () => {
    const r = await post(
      form([
        ['clips', blob(10 * KB), 'a.mp3'],
        ['clips', blob(10 * KB), 'b.mp3'],
        ['cover', blob(4 * KB), 'c.png'],
        ['language', 'zh'],
        ['consent', 'true'],
      ]),
    );
    expect(r.status, JSON.stringify(r.json)).toBe(200);
  });
});

describe('malformed bodies', () => {
  it('another Content-Type answers 415', async () => {
    expectError(await post('{"language":"en"}', { 'content-type': 'application/json' }), 'UNSUPPORTED_MEDIA_TYPE', 'multipart/form-data');
  });

  it.each([
    ['no boundary', 'multipart/form-data', '--x\r\n'],
    ['truncated part', 'multipart/form-data; boundary=XyZ', '--XyZ\r\nContent-Disposition: form-data; name="language"\r\n\r\nen'],
    ['garbage', 'multipart/form-data; boundary=XyZ', 'this is not multipart at all'],
  ])('%s answers 400 (10009 or a validation error), never a 500', async (_what, type, body) => {
    const r = await post(body, { 'content-type': type });
    expect(r.status, JSON.stringify(r.json)).toBe(400);
    expect([errorCatalog.MALFORMED_MULTIPART.code, errorCatalog.F5_INVALID_PARAMETERS.code]).toContain(r.json.code);
  });
});

describe('coerceFormFields', () => {
  it('leaves fields the schema does not know as strings (a repeated one as an array)', () => {
    const out = coerceFormFields(
      Form,
      new Map([
        ['unknown', ['1']],
        ['twice', ['a', 'b']],
        ['consent', ['true']],
      ]),
    );
    expect(out).toEqual({ unknown: '1', twice: ['a', 'b'], consent: true });
  });
});
