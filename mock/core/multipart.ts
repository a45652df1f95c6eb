/**
 * multipart/form-data bodies, transport-neutral (docs/architecture.md,
 * "Request kinds"): the rules of one body, fed part by part by a transport
 * (busboy on the Express server, `Request.formData()` in the fetch handlers).
 * The registry declares each file field's count and size limits and the
 * total; a body over a limit answers the operation's limit error (or 413,
 * 10006) naming the limit. Text fields arrive as strings: they are coerced to
 * the booleans and numbers the schema expects, then the same Zod schema
 * validates everything (files reach the handler as `{filename, mimeType, bytes}`).
 */
import { type z } from 'zod';
import type { ErrorName } from '../../schemas/errors.ts';
import type { MultipartBody, UploadedFile } from '../../schemas/registry-types.ts';
import { ApiError } from '../engine/api-error.ts';
import { concatBytes } from '../media/bytes.ts';

/** Most text fields and largest text field accepted in one body (assumed limits of the transport, not of any operation). */
export const TEXT_LIMITS = { fields: 100, fieldBytes: 1024 * 1024 };

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

/** A file part being read: its bytes chunk by chunk, then end(). */
export interface FilePartSink {
  data(chunk: Uint8Array): void;
  end(): void;
}

/**
 * The rules of one multipart body per `rules`: `file(name, filename,
 * mimeType)` starts a file part (undefined: skip its bytes), `field(name,
 * value)` takes a text field, `fail(e)` records the first failure, `result()`
 * gives the fields and files (or throws the first failure). Errors:
 * `validationError` (more files in a field than its schema takes),
 * `rules.limitError` or PAYLOAD_TOO_LARGE (a file or all files over their
 * size limit, too many parts); messages name the field and the limit.
 */
export function multipartCollector(rules: MultipartBody, validationError: ErrorName) {
  const limitError: ErrorName = rules.limitError ?? 'PAYLOAD_TOO_LARGE';
  const fileMax = new Map(Object.keys(rules.files).map((name) => [name, maxFilesOf(rules.schema.shape[name] as z.ZodType)]));
  const maxFiles = Math.min(
    1000,
    [...fileMax.values()].reduce((n, m) => n + m, 0),
  );
  const files = new Map<string, UploadedFile[]>();
  const counts = new Map<string, number>();
  const fields = new Map<string, string[]>();
  let fieldCount = 0;
  let fileCount = 0;
  let total = 0;
  let failure: ApiError | undefined;
  const fail = (e: ApiError) => {
    failure ??= e;
  };
  return {
    /** Limits for a streaming parser: the largest file (bytes), most files, most text fields, largest text field (bytes). */
    limits: { largestFile: Math.max(0, ...Object.values(rules.files).map((f) => f.maxFileBytes)), maxFiles, ...TEXT_LIMITS },
    fail,
    get failed(): boolean {
      return failure !== undefined;
    },
    file(name: string, filename: string | undefined, mimeType: string | undefined): FilePartSink | undefined {
      if (++fileCount > maxFiles + 50) fail(new ApiError(limitError, `too many files: at most ${maxFiles}`));
      const rule = Object.hasOwn(rules.files, name) ? rules.files[name] : undefined;
      if (!rule || failure) return undefined;
      const list = files.get(name) ?? [];
      files.set(name, list);
      const max = fileMax.get(name)!;
      const n = (counts.get(name) ?? 0) + 1;
      counts.set(name, n);
      if (n > max) {
        fail(new ApiError(validationError, `${name}: more than ${max} file${max === 1 ? '' : 's'} sent; at most ${max}`));
        return undefined;
      }
      const chunks: Uint8Array[] = [];
      let size = 0;
      return {
        data(c) {
          if (failure) return;
          size += c.length;
          total += c.length;
          if (size > rule.maxFileBytes)
            fail(new ApiError(limitError, `${name}: file ${filename || '(unnamed)'} is larger than ${MB(rule.maxFileBytes)} (the limit of each file)`));
          else if (total > rules.maxTotalBytes)
            fail(new ApiError(limitError, `${name}: files together are larger than ${MB(rules.maxTotalBytes)} (the limit of all files)`));
          else chunks.push(c);
        },
        end() {
          if (failure) return;
          list.push({ filename: filename ?? '', mimeType: mimeType || 'application/octet-stream', bytes: concatBytes(chunks) });
        },
      };
    },
    field(name: string, value: string, truncated = false): void {
      if (++fieldCount > TEXT_LIMITS.fields) return fail(new ApiError(limitError, `too many text fields: at most ${TEXT_LIMITS.fields}`));
      if (truncated || new TextEncoder().encode(value).length > TEXT_LIMITS.fieldBytes)
        fail(new ApiError(limitError, `${name}: text field is larger than ${MB(TEXT_LIMITS.fieldBytes)}`));
      fields.set(name, [...(fields.get(name) ?? []), value]);
    },
    /** The fields and files as the schema expects them. Errors: the first failure recorded. */
    result(): Record<string, unknown> {
      if (failure) throw failure;
      const out = coerceFormFields(rules.schema, fields);
      for (const [name, list] of files) out[name] = fileMax.get(name) === 1 ? list[0] : list;
      return out;
    },
  };
}

/** The multipart rules of one body (see multipartCollector). */
export type MultipartCollector = ReturnType<typeof multipartCollector>;

/**
 * The answer to a multipart body sent with a content coding (a Content-Encoding other than identity: gzip,
 * deflate, br...): UNSUPPORTED_MEDIA_TYPE (415), as RFC 9110 section 15.5.16 says for a coding the server does not
 * take; undefined without one. Assumed: a form is read as it streams in and judged by its size limits, so its bytes
 * are taken as sent (a gzip body was parsed as a broken form, a body only labelled gzip was taken as a plain one),
 * and decoding would let a small body inflate far past every limit before it is refused.
 */
export function encodedMultipart(contentEncoding: string | null | undefined): ApiError | undefined {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  if (!codings.length) return undefined;
  return new ApiError(
    'UNSUPPORTED_MEDIA_TYPE',
    `Content-Encoding ${String(contentEncoding).trim().slice(0, 100)} is not accepted on multipart/form-data; send the form without a content coding`,
  );
}

/** The answer to a body that is not multipart/form-data (UNSUPPORTED_MEDIA_TYPE), or undefined when it is. */
export function notMultipart(contentType: string | null | undefined): ApiError | undefined {
  const type = contentType ?? '';
  return /^multipart\/form-data\b/i.test(type)
    ? undefined
    : new ApiError('UNSUPPORTED_MEDIA_TYPE', `Content-Type ${type || '(none)'} is not accepted; send multipart/form-data`);
}
