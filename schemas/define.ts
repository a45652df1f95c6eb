/**
 * How an area declares its slice of the registry (docs/architecture.md, "The
 * registry", "Adding an area"): `defineOperations` names each operation after
 * its key, tags it, and adds the transport errors every operation shares;
 * `json`, `multipart` and `form` declare request bodies; `uploadedFile` is the schema
 * of a file field; `mergeAreas` joins the slices, refusing a duplicate
 * operationId or route.
 */
import { z } from './zod.ts';
import type { ErrorName } from './errors.ts';
import type { TableAssumption } from './provenance.ts';
import type { FileFieldRule, FormBody, JsonBody, MultipartBody, OperationDef, UploadedFile } from './registry-types.ts';

/** An operation as an area writes it: without operationId and tags, and with only its own errors. */
export type OperationSpec = Omit<OperationDef, 'operationId' | 'tags'>;

/**
 * An operation after `defineOperations`: its `errors` keep their names as a type (the area's own, which the area
 * declares `as const`, and the transport errors `transportErrors` adds), so a handler's ctx.fail takes only those
 * (mock/services/context.ts, `DeclaredError`).
 */
export type Defined<K extends string, S extends OperationSpec> = Omit<S, 'errors'> & {
  operationId: K;
  tags: string[];
  errors: readonly (S['errors'][number] | TransportErrorsOf<S>)[];
};

/** The transport errors of a request body of kind `B` (see transportErrors). */
type BodyTransportErrors<B> = B extends { kind: 'json' }
  ? 'MALFORMED_JSON' | 'UNSUPPORTED_MEDIA_TYPE' | 'PAYLOAD_TOO_LARGE'
  : B extends { kind: 'form' }
    ? 'UNSUPPORTED_MEDIA_TYPE' | 'PAYLOAD_TOO_LARGE'
    : B extends { kind: 'multipart' }
      ? 'MALFORMED_MULTIPART' | 'UNSUPPORTED_MEDIA_TYPE' | (B extends { limitError: ErrorName } ? never : 'PAYLOAD_TOO_LARGE')
      : never;

/** The transport errors `transportErrors` adds to an operation written as `S`, as a type (the same rules, read from the spec's literal types). */
export type TransportErrorsOf<S extends Pick<OperationSpec, 'auth' | 'request' | 'response'>> =
  | 'MALFORMED_REQUEST'
  | 'HEADERS_TOO_LARGE'
  | 'REQUEST_TIMEOUT'
  | 'INVALID_PREFER'
  | (S['auth'] extends true ? 'UNAUTHORIZED' : never)
  | (S['request'] extends { params: z.ZodObject } ? 'ROUTE_NOT_FOUND' : never)
  | BodyTransportErrors<S['request']['body']>
  | (S['request'] extends { body: object } ? 'SERVER_BUSY' : S['response'] extends { kind: 'event-stream' } ? 'SERVER_BUSY' : never);

/**
 * Transport errors an operation can answer with whatever it does: a request
 * HTTP cannot parse (400), with headers over the limit (431) or too slow to
 * arrive (408); 401 when it
 * needs a key; 404 when its path has a parameter (malformed percent-encoding
 * names nothing); for a body, malformed (JSON or multipart), wrong
 * Content-Type and too large; 503 when a body or an event stream would pass
 * the process's caps; and 400 for a Prefer header it cannot honour.
 */
export function transportErrors(op: Pick<OperationDef, 'auth' | 'request'> & { response?: Pick<OperationDef['response'], 'kind'> }): ErrorName[] {
  const out: ErrorName[] = ['MALFORMED_REQUEST', 'HEADERS_TOO_LARGE', 'REQUEST_TIMEOUT'];
  if (op.auth) out.push('UNAUTHORIZED');
  // a path parameter that is not valid percent-encoding names nothing: 404
  if (op.request.params) out.push('ROUTE_NOT_FOUND');
  const body = op.request.body;
  if (body?.kind === 'json') out.push('MALFORMED_JSON', 'UNSUPPORTED_MEDIA_TYPE', 'PAYLOAD_TOO_LARGE');
  if (body?.kind === 'form') out.push('UNSUPPORTED_MEDIA_TYPE', 'PAYLOAD_TOO_LARGE');
  if (body?.kind === 'multipart') out.push('MALFORMED_MULTIPART', 'UNSUPPORTED_MEDIA_TYPE', ...(body.limitError ? [] : (['PAYLOAD_TOO_LARGE'] as const)));
  // the process's caps on bodies in flight and open event streams: 503 with Retry-After
  if (body || op.response?.kind === 'event-stream') out.push('SERVER_BUSY');
  out.push('INVALID_PREFER');
  return out;
}

/**
 * One area's operations, keyed by operationId: each gets its key as
 * `operationId`, the area's `tag`, and the transport errors before its own.
 */
export function defineOperations<const S extends Record<string, OperationSpec>>(tag: string, specs: S): { [K in keyof S & string]: Defined<K, S[K]> } {
  const out: Record<string, OperationDef> = {};
  for (const [operationId, spec] of Object.entries(specs)) {
    const shared = transportErrors(spec);
    out[operationId] = { ...spec, operationId, tags: [tag], errors: [...shared, ...spec.errors.filter((e) => !shared.includes(e))] };
  }
  return out as { [K in keyof S & string]: Defined<K, S[K]> };
}

/**
 * The fields an area's operations share (auth, the validation error, what a
 * task create declares: charges, forcible outcomes, failure reasons; a
 * provenance, field errors, a rate limit): everything but the route, the
 * texts, the request, the response and the errors.
 */
export type OperationDefaults = Partial<Omit<OperationSpec, 'method' | 'path' | 'summary' | 'description' | 'request' | 'response' | 'errors'>>;

/**
 * A maker of operations that share `defaults`: `op(spec)` is `spec` over the
 * defaults, so each operation states only what differs (its own fields win).
 * An area makes one per kind of operation, e.g. its reads (auth and the
 * validation error) and its task creates (those and charges, outcomes,
 * failure reasons), and writes `createX: creates({method, path, ...})`
 * inside `defineOperations`.
 */
export function operationsWith<const D extends OperationDefaults>(defaults: D) {
  return <const S extends Partial<OperationSpec>>(spec: S): Omit<D, keyof S> & S => ({ ...defaults, ...spec });
}

/** A JSON body of `schema`, at most `limitBytes` (default 1 MiB). */
export function json<S extends z.ZodType>(schema: S, opts: { limitBytes?: number } = {}): JsonBody & { schema: S } {
  return { kind: 'json', schema, ...opts };
}

/** An HTML form's body (application/x-www-form-urlencoded) of `schema`, at most `limitBytes` (default 1 MiB). */
export function form<S extends z.ZodType>(schema: S, opts: { limitBytes?: number } = {}): FormBody & { schema: S } {
  return { kind: 'form', schema, ...opts };
}

/** A multipart body of `schema`, with its `limitError` as a literal type when one is given (its errors then leave out PAYLOAD_TOO_LARGE). */
export type MultipartOf<S extends z.ZodObject, L extends ErrorName | undefined> = MultipartBody & { schema: S } & ([L] extends [ErrorName]
    ? { limitError: L }
    : unknown);

/** A multipart/form-data body: text and file fields in `schema`, the limits of each file field, and of all files together. */
export function multipart<S extends z.ZodObject, const L extends ErrorName | undefined = undefined>(
  schema: S,
  opts: { files: Record<string, FileFieldRule>; maxTotalBytes: number; limitError?: L },
): MultipartOf<S, L> {
  for (const field of Object.keys(opts.files)) if (!(field in schema.shape)) throw new Error(`multipart: file field ${field} is not in the schema`);
  // the conditional part is a type-level fact about `opts` (limitError given or not): TypeScript cannot follow it
  return { kind: 'multipart', schema, ...opts } as MultipartOf<S, L>;
}

/** True when `v` is a file the multipart parser produced. */
export function isUploadedFile(v: unknown): v is UploadedFile {
  return (
    typeof v === 'object' &&
    v !== null &&
    (v as UploadedFile).bytes instanceof Uint8Array &&
    typeof (v as UploadedFile).filename === 'string' &&
    typeof (v as UploadedFile).mimeType === 'string'
  );
}

/** The schema of one file of a multipart body: `{filename, mimeType, bytes}` for the handler, `format: binary` in the spec. */
export function uploadedFile(description: string) {
  return z.custom<UploadedFile>(isUploadedFile, { message: 'expected a file' }).openapi({ type: 'string', format: 'binary', description });
}

/** One area of the API: its tag, its operations and the assumptions of its tables. */
export interface Area<O extends Record<string, OperationDef> = Record<string, OperationDef>> {
  tag: { name: string; description: string };
  operations: O;
  tableAssumptions: readonly TableAssumption[];
}

type UnionToIntersection<U> = (U extends unknown ? (k: U) => void : never) extends (k: infer I) => void ? I : never;

/** Every operation of `areas`, keyed by operationId. Throws on a duplicate operationId or (method, path). */
export function mergeAreas<const A extends readonly Area[]>(areas: A): UnionToIntersection<A[number]['operations']> {
  const out: Record<string, OperationDef> = {};
  const routes = new Map<string, string>();
  for (const area of areas) {
    for (const [id, op] of Object.entries(area.operations)) {
      if (id in out) throw new Error(`registry: operationId ${id} is declared twice`);
      const route = `${op.method} ${op.path.toLowerCase().replace(/\{\w+\}/g, '{}')}`;
      if (routes.has(route)) throw new Error(`registry: ${route} is declared by ${routes.get(route)} and ${id}`);
      routes.set(route, id);
      out[id] = op;
    }
  }
  return out as UnionToIntersection<A[number]['operations']>;
}
