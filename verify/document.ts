/**
 * The emitted API document as the verifier reads it: its operations (method,
 * path, tag, declared statuses and error codes per status, the validation
 * codes, x-lifecycle, x-charges-credits), JSON Schema fragments with their
 * `$ref`s resolved, and ajv 2020 validators compiled over the whole document
 * (so a server is judged by the spec a client reads, not by this project's Zod).
 */
import { readFileSync, existsSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { LifecycleDef } from '../schemas/registry-types.ts';

/** A JSON Schema node (loosely typed: the verifier reads only a few keywords). */
export type JsonSchema = Record<string, unknown> & {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  items?: JsonSchema;
  default?: unknown;
  example?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
};

/** An OpenAPI 3.1 document (only what the verifier reads). */
export interface ApiDocument {
  paths: Record<string, Record<string, RawOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

interface RawOperation {
  operationId: string;
  tags?: string[];
  security?: unknown[];
  parameters?: { name: string; in: string; required?: boolean; schema?: JsonSchema }[];
  requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<
    string,
    { headers?: Record<string, unknown>; content?: Record<string, { schema?: JsonSchema; examples?: Record<string, { value?: unknown }> }> }
  >;
  'x-lifecycle'?: LifecycleDef;
  'x-validation-errors'?: number[];
  'x-charges-credits'?: boolean;
}

/** One operation of the document. */
export interface SpecOperation {
  operationId: string;
  method: string;
  path: string;
  tag: string;
  auth: boolean;
  pathParams: string[];
  /** Names of the query parameters. */
  queryParams: string[];
  /** The JSON request body's schema (multipart bodies: undefined, `multipart` true). */
  jsonBody?: JsonSchema;
  multipart: boolean;
  /** The multipart/form-data body's schema. */
  multipartBody?: JsonSchema;
  /** Declared statuses. */
  statuses: number[];
  successStatus: number;
  /** Content-Types of the success answer. */
  successTypes: string[];
  /** Error codes declared per status. */
  codes: Map<number, number[]>;
  /** Catalog name of each declared code (from the error examples). */
  codeNames: Map<number, string>;
  validationCodes: number[];
  charges: boolean;
  lifecycle?: LifecycleDef;
  /** JSON pointer of the response `status`'s application/json schema. */
  schemaPointer(status: number): string | undefined;
}

const escape = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** Loads the package's spec/openapi.json (next to verify/ in a checkout, or two levels up from lib/verify/). */
export function loadPackageDocument(): ApiDocument {
  for (const rel of ['../spec/openapi.json', '../../spec/openapi.json']) {
    const url = new URL(rel, import.meta.url);
    if (existsSync(url)) return JSON.parse(readFileSync(url, 'utf8')) as ApiDocument;
  }
  throw new Error('mediagen-verify: spec/openapi.json not found beside the package');
}

/** The operations of `doc`, in document order. */
export function operationsOf(doc: ApiDocument): SpecOperation[] {
  const out: SpecOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!op || typeof op !== 'object' || !op.operationId) continue;
      const statuses = Object.keys(op.responses).map(Number);
      const successStatus = statuses.filter((s) => s < 300).sort()[0];
      const codes = new Map<number, number[]>();
      const codeNames = new Map<number, string>();
      for (const s of statuses.filter((s) => s >= 400)) {
        const c = op.responses[s].content?.['application/json'];
        // one shared ErrorEnvelope per error response, its codes in x-error-codes (or, in an older document, a code enum)
        const listed = (op.responses[s] as { 'x-error-codes'?: number[] })['x-error-codes'];
        const code = c?.schema?.properties?.code;
        codes.set(s, listed ?? (code?.enum as number[] | undefined) ?? (code?.const !== undefined ? [code.const as number] : []));
        for (const [name, ex] of Object.entries(c?.examples ?? {})) {
          const v = ex.value as { code?: number } | undefined;
          if (typeof v?.code === 'number') codeNames.set(v.code, name);
        }
      }
      const body = op.requestBody?.content;
      out.push({
        operationId: op.operationId,
        method,
        path,
        tag: op.tags?.[0] ?? 'default',
        auth: op.security === undefined || op.security.length > 0,
        pathParams: (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
        jsonBody: body?.['application/json']?.schema,
        multipart: Boolean(body?.['multipart/form-data']),
        multipartBody: body?.['multipart/form-data']?.schema,
        statuses,
        successStatus,
        successTypes: Object.keys(op.responses[successStatus]?.content ?? {}),
        codes,
        codeNames,
        validationCodes: op['x-validation-errors'] ?? [],
        charges: Boolean(op['x-charges-credits']),
        lifecycle: op['x-lifecycle'],
        schemaPointer(status) {
          if (!op.responses[status]?.content?.['application/json']?.schema) return undefined;
          return `/paths/${escape(path)}/${method}/responses/${status}/content/application~1json/schema`;
        },
      });
    }
  }
  return out;
}

/** `node` with its local `$ref`s followed (one level at a time, loops refused). */
export function resolve(doc: ApiDocument, node: JsonSchema | undefined): JsonSchema | undefined {
  let cur = node;
  for (let i = 0; i < 32 && cur?.$ref; i++) {
    const parts = cur.$ref.replace(/^#\//, '').split('/');
    let at: unknown = doc;
    for (const p of parts) at = (at as Record<string, unknown>)?.[p.replace(/~1/g, '/').replace(/~0/g, '~')];
    cur = at as JsonSchema | undefined;
  }
  return cur;
}

// ajv-formats is published as CommonJS; its default export arrives wrapped under NodeNext.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (a: Ajv2020) => Ajv2020;

/** ajv validators over `doc`, compiled once per pointer. */
export function validatorsOf(doc: ApiDocument): (pointer: string, value: unknown) => ErrorObject[] {
  const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema(doc, 'api');
  const cache = new Map<string, ValidateFunction>();
  return (pointer, value) => {
    let v = cache.get(pointer);
    if (!v) {
      v = ajv.compile({ $ref: `api#${pointer.split('/').map(encodeURIComponent).join('/')}` });
      cache.set(pointer, v);
    }
    return v(value) ? [] : [...(v.errors ?? [])];
  };
}

/** One ajv error in a line. */
export function describeAjvError(e: ErrorObject): string {
  return `${e.instancePath || '(root)'} ${e.keyword} ${JSON.stringify(e.params)}`;
}
