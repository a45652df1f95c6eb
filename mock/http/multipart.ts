/**
 * multipart/form-data request bodies (docs/architecture.md, "Request kinds"),
 * parsed by busboy straight from the request stream into memory (nothing is
 * written to disk). The registry declares each file field's count and size
 * limits and the total; a body over a limit answers the operation's limit
 * error (or 413, 10006) naming the limit, after the rest of the body is read
 * and discarded. Text fields arrive as strings: they are coerced to the
 * booleans and numbers the schema expects, then the same Zod schema
 * validates everything (files reach the handler as `{filename, mimeType, bytes}`).
 */
import busboy from 'busboy';
import type { Request } from 'express';
import { type z } from 'zod';
import type { ErrorName } from '../../schemas/errors.ts';
import type { MultipartBody, UploadedFile } from '../../schemas/registry-types.ts';
import { ApiError } from '../engine/api-error.ts';

/** Most text fields and largest text field accepted in one body (assumed limits of the transport, not of any operation). */
const TEXT_LIMITS = { fields: 100, fieldBytes: 1024 * 1024 };

const MB = (n: number) => `${Math.round((n / (1024 * 1024)) * 100) / 100} MB`;

/** The innermost schema under optional/default/nullable/pipe wrappers. */
function unwrap(schema: z.ZodType): z.ZodType {
  let s = schema as z.ZodType & { def: { type: string; innerType?: z.ZodType; in?: z.ZodType } };
  for (;;) {
    const d = s.def;
    if ((d.type === 'optional' || d.type === 'default' || d.type === 'nullable' || d.type === 'prefault' || d.type === 'readonly') && d.innerType)
      s = d.innerType;
    else if (d.type === 'pipe' && d.in) s = d.in;
    else return s;
  }
}

/** Most files a file field takes: 1 for a single file, the array's max (unbounded when it has none). */
function maxFilesOf(schema: z.ZodType): number {
  const inner = unwrap(schema) as unknown as { def: { type: string; checks?: { _zod: { def: { check: string; maximum?: number } } }[] } };
  if (inner.def.type !== 'array') return 1;
  const max = inner.def.checks?.find((c) => c._zod.def.check === 'max_length')?._zod.def.maximum;
  return max ?? Number.POSITIVE_INFINITY;
}

/** A text value coerced to what `schema` expects: true/false for booleans, numbers for numbers, JSON for objects; otherwise unchanged (Zod then reports the mismatch). */
function coerceScalar(schema: z.ZodType, value: string): unknown {
  const type = (unwrap(schema) as z.ZodType & { def: { type: string } }).def.type;
  if (type === 'boolean') return /^true$/i.test(value) ? true : /^false$/i.test(value) ? false : value;
  if (type === 'number' || type === 'int' || type === 'bigint') return value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value;
  if (type === 'object' || type === 'record') {
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  }
  return value;
}

/** Text fields as the schema expects them: a repeated field becomes an array only where the schema takes one. */
export function coerceFormFields(schema: z.ZodObject, fields: Map<string, string[]>): Record<string, unknown> {
  const out: [string, unknown][] = [];
  for (const [name, values] of fields) {
    const field = Object.hasOwn(schema.shape, name) ? (schema.shape[name] as z.ZodType) : undefined;
    const inner = field && (unwrap(field) as z.ZodType & { def: { type: string; element?: z.ZodType } });
    if (!field || !inner) out.push([name, values.length === 1 ? values[0] : values]);
    else if (inner.def.type === 'array' && inner.def.element) out.push([name, values.map((v) => coerceScalar(inner.def.element!, v))]);
    else out.push([name, values.length === 1 ? coerceScalar(field, values[0]) : values]);
  }
  // own properties, whatever the names (a field named __proto__ stays a field, as in JSON.parse)
  return Object.fromEntries(out);
}

/**
 * Reads a multipart/form-data body of `req` per `rules`: the file fields (one
 * file, or an array for a repeated field), and the text fields coerced.
 * Unknown file fields are read and dropped, like unknown JSON fields.
 * Errors: UNSUPPORTED_MEDIA_TYPE (not multipart/form-data), MALFORMED_MULTIPART
 * (no boundary, truncated, a broken part), `validationError` (more files in a
 * field than its schema takes), `rules.limitError` or PAYLOAD_TOO_LARGE (a
 * file or all files over their size limit). Messages name the field and the limit.
 */
export function readMultipart(req: Request, rules: MultipartBody, validationError: ErrorName): Promise<Record<string, unknown>> {
  const type = req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data\b/i.test(type))
    return Promise.reject(new ApiError('UNSUPPORTED_MEDIA_TYPE', `Content-Type ${type || '(none)'} is not accepted; send multipart/form-data`));
  const limitError: ErrorName = rules.limitError ?? 'PAYLOAD_TOO_LARGE';
  const largestFile = Math.max(0, ...Object.values(rules.files).map((f) => f.maxFileBytes));
  const fileMax = new Map(Object.keys(rules.files).map((name) => [name, maxFilesOf(rules.schema.shape[name] as z.ZodType)]));
  const maxFiles = Math.min(
    1000,
    [...fileMax.values()].reduce((n, m) => n + m, 0),
  );
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: req.headers,
        limits: {
          fileSize: largestFile + 1,
          fieldSize: TEXT_LIMITS.fieldBytes,
          fields: TEXT_LIMITS.fields,
          files: maxFiles + 50,
          parts: TEXT_LIMITS.fields + maxFiles + 50,
        },
      });
    } catch (e) {
      reject(new ApiError('MALFORMED_MULTIPART', `multipart/form-data body cannot be read: ${(e as Error).message}`));
      return;
    }
    const files = new Map<string, UploadedFile[]>();
    const counts = new Map<string, number>();
    const fields = new Map<string, string[]>();
    let total = 0;
    let failure: ApiError | undefined;
    let settled = false;
    const fail = (e: ApiError) => {
      failure ??= e;
    };
    // Runs inside busboy's events: whatever it throws must reach the promise, never the event loop.
    const finish = () => {
      if (settled) return;
      settled = true;
      if (failure) return reject(failure);
      try {
        const out = coerceFormFields(rules.schema, fields);
        for (const [name, list] of files) out[name] = fileMax.get(name) === 1 ? list[0] : list;
        resolve(out);
      } catch (e) {
        reject(e instanceof Error ? e : new Error(String(e)));
      }
    };
    bb.on('file', (name, stream, info) => {
      // A body cut inside a file errors the file's stream (then busboy's own): unheard, it would end the process.
      stream.on('error', (e: Error) => fail(new ApiError('MALFORMED_MULTIPART', `multipart/form-data body cannot be read: ${e.message}`)));
      const rule = Object.hasOwn(rules.files, name) ? rules.files[name] : undefined;
      if (!rule || failure) {
        stream.resume();
        return;
      }
      const list = files.get(name) ?? [];
      files.set(name, list);
      const max = fileMax.get(name)!;
      const n = (counts.get(name) ?? 0) + 1;
      counts.set(name, n);
      if (n > max) {
        fail(new ApiError(validationError, `${name}: more than ${max} file${max === 1 ? '' : 's'} sent; at most ${max}`));
        stream.resume();
        return;
      }
      const chunks: Uint8Array[] = [];
      let size = 0;
      stream.on('data', (c: Buffer) => {
        if (failure) return;
        size += c.length;
        total += c.length;
        if (size > rule.maxFileBytes)
          fail(new ApiError(limitError, `${name}: file ${info.filename || '(unnamed)'} is larger than ${MB(rule.maxFileBytes)} (the limit of each file)`));
        else if (total > rules.maxTotalBytes)
          fail(new ApiError(limitError, `${name}: files together are larger than ${MB(rules.maxTotalBytes)} (the limit of all files)`));
        else chunks.push(c);
      });
      stream.on('end', () => {
        if (failure) return;
        const bytes = new Uint8Array(size);
        let at = 0;
        for (const c of chunks) {
          bytes.set(c, at);
          at += c.length;
        }
        list.push({ filename: info.filename ?? '', mimeType: info.mimeType || 'application/octet-stream', bytes });
      });
    });
    bb.on('field', (name, value, info) => {
      if (info.valueTruncated) fail(new ApiError(limitError, `${name}: text field is larger than ${MB(TEXT_LIMITS.fieldBytes)}`));
      fields.set(name, [...(fields.get(name) ?? []), value]);
    });
    bb.on('filesLimit', () => fail(new ApiError(limitError, `too many files: at most ${maxFiles}`)));
    bb.on('fieldsLimit', () => fail(new ApiError(limitError, `too many text fields: at most ${TEXT_LIMITS.fields}`)));
    bb.on('partsLimit', () => fail(new ApiError(limitError, 'too many parts in the multipart body')));
    bb.on('error', (e: Error) => {
      fail(new ApiError('MALFORMED_MULTIPART', `multipart/form-data body cannot be read: ${e.message}`));
      req.unpipe(bb);
      req.resume();
      finish();
    });
    bb.on('close', finish);
    req.on('aborted', () => {
      fail(new ApiError('MALFORMED_MULTIPART', 'the request was aborted before the multipart body ended'));
      finish();
    });
    req.pipe(bb);
  });
}
