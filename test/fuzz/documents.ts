/**
 * What the fuzzer knows about the API, read from the emitted documents
 * (spec/openapi.json, spec/mock-control.openapi.yaml) and the registries
 * (schemas/operations.ts, schemas/control.ts): one `FuzzTarget` per operation
 * of either, with the JSON Schemas of its parameters, body and responses as
 * pointers into its document, and ajv validators compiled from those
 * documents (draft 2020-12 with ajv-formats), independent of the Zod schemas.
 *
 * New operations of either registry become targets without any change here.
 */
import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { parse as parseYaml } from 'yaml';
import { controlOperations } from '../../schemas/control.ts';
import { errorCatalog } from '../../schemas/errors.ts';
import { operationIds, operations } from '../../schemas/operations.ts';
import type { MultipartBody, OperationDef } from '../../schemas/registry-types.ts';
import { inServiceDocument } from '../../scripts/spec.ts';

/** The two documents: the API's and the control API's. */
export type DocName = 'api' | 'control';

/** A schema node: a JSON pointer into one of the documents. */
export interface SchemaAt {
  doc: DocName;
  /** JSON pointer, e.g. `/components/schemas/VideoTask` (empty for the root). */
  pointer: string;
}

/** The parsed documents. */
export const documents: Record<DocName, any> = {
  api: JSON.parse(readFileSync(new URL('../../spec/openapi.json', import.meta.url), 'utf8')),
  control: parseYaml(readFileSync(new URL('../../spec/mock-control.openapi.yaml', import.meta.url), 'utf8')),
};

const escapeToken = (t: string | number) => String(t).replace(/~/g, '~0').replace(/\//g, '~1');
const unescapeToken = (t: string) => t.replace(/~1/g, '/').replace(/~0/g, '~');

/** `at` extended by `tokens` (property names or indexes). */
export function child(at: SchemaAt, ...tokens: (string | number)[]): SchemaAt {
  return { doc: at.doc, pointer: at.pointer + tokens.map((t) => `/${escapeToken(t)}`).join('') };
}

/** The node `at` points to (undefined when the pointer leads nowhere). */
export function nodeAt(at: SchemaAt): any {
  let node: any = documents[at.doc];
  if (!at.pointer) return node;
  for (const raw of at.pointer.slice(1).split('/')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = node[unescapeToken(raw)];
  }
  return node;
}

/** Follows local `$ref`s until a node without one. */
export function deref(at: SchemaAt): SchemaAt {
  let cur = at;
  for (let i = 0; i < 32; i++) {
    const node = nodeAt(cur);
    if (!node || typeof node !== 'object' || typeof node.$ref !== 'string') return cur;
    if (!node.$ref.startsWith('#')) throw new Error(`fuzz: only local $refs are supported, got ${node.$ref}`);
    cur = { doc: at.doc, pointer: node.$ref.slice(1) };
  }
  throw new Error(`fuzz: $ref loop at ${at.doc}#${at.pointer}`);
}

// ---------------------------------------------------------------------------
// Validators (ajv over the emitted documents)
// ---------------------------------------------------------------------------

// ajv-formats is published as CommonJS; its default export arrives wrapped under NodeNext.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (a: Ajv2020) => Ajv2020;

const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false, validateSchema: false });
addFormats(ajv);
ajv.addSchema(documents.api, 'api');
ajv.addSchema(documents.control, 'control');
const validators = new Map<string, ValidateFunction>();

/** The ajv validator of the schema `at` (compiled once, `$ref`s resolved inside its document). */
export function validatorAt(at: SchemaAt): ValidateFunction {
  const key = `${at.doc}#${at.pointer}`;
  let v = validators.get(key);
  if (!v) {
    const fragment = at.pointer
      .split('/')
      .map((t) => encodeURIComponent(t))
      .join('/');
    v = ajv.compile({ $ref: `${at.doc}#${fragment}` });
    validators.set(key, v);
  }
  return v;
}

/**
 * Validates `value` against the schema `at`; returns ajv's errors (empty when valid). A value ajv cannot compare
 * (an object whose own `valueOf` key is not a function, met by a `const` or `enum` of objects) counts as invalid.
 */
export function validateAt(at: SchemaAt, value: unknown): ErrorObject[] {
  const v = validatorAt(at);
  try {
    return v(value) ? [] : [...(v.errors ?? [])];
  } catch (e) {
    return [{ instancePath: '', schemaPath: '#', keyword: 'uncomparable', params: { error: (e as Error).message }, message: 'ajv cannot compare this value' }];
  }
}

/** One ajv error in a line: where, which keyword, and its parameters. */
export function describeAjvError(e: ErrorObject): string {
  return `${e.instancePath || '(root)'} ${e.keyword} ${JSON.stringify(e.params)}`;
}

// ---------------------------------------------------------------------------
// Targets
// ---------------------------------------------------------------------------

/** A path or query parameter of a target. */
export interface ParamSpec {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: SchemaAt;
}

/** The request body of a target. */
export interface BodySpec {
  kind: 'json' | 'multipart';
  /** The Content-Type the document names. */
  contentType: string;
  required: boolean;
  schema: SchemaAt;
  /** The document's `example` of the body, if any. */
  example?: unknown;
  /** Largest body the operation reads (JSON), bytes. */
  limitBytes: number;
  /** File fields and limits (multipart). */
  multipart?: MultipartBody;
}

/** One declared response of a target. */
export interface ResponseSpec {
  status: number;
  /** Declared media types. */
  contentTypes: string[];
  /** Schema of the JSON body, when the response is JSON. */
  json?: SchemaAt;
  /** Declared envelope codes of an error response (`code` enum or const). */
  codes?: number[];
  /** Declared headers and their schemas. */
  headers: Record<string, SchemaAt>;
  /** Event names of a text/event-stream and the schemas of their data (`x-events`). */
  events?: Record<string, SchemaAt>;
}

/** One operation to fuzz, from either document. */
export interface FuzzTarget {
  /** `operationId` for the API, `control:<operationId>` for the control API. */
  id: string;
  operationId: string;
  doc: DocName;
  method: 'get' | 'post' | 'put' | 'delete';
  /** Path template, e.g. `/v1/video-generation/tasks/{taskId}`. */
  path: string;
  /** Needs `Authorization: Bearer <key>`. */
  auth: boolean;
  /** The tag grouping related operations (Video, Image, ...), or `control`. */
  tag: string;
  params: ParamSpec[];
  body?: BodySpec;
  responses: Map<number, ResponseSpec>;
  success: ResponseSpec;
  /** The API registry entry (API targets only). */
  op?: OperationDef;
  /** The control registry entry (control targets only). */
  control?: OperationDef;
}

/** The codes `op` declares, by HTTP status, from its registry entry. */
export function registryErrors(op: OperationDef): Map<number, Set<number>> {
  const out = new Map<number, Set<number>>();
  for (const n of op.errors) {
    const e = errorCatalog[n];
    out.set(e.httpStatus, (out.get(e.httpStatus) ?? new Set()).add(e.code));
  }
  return out;
}

function responsesOf(opAt: SchemaAt): Map<number, ResponseSpec> {
  const out = new Map<number, ResponseSpec>();
  const responses = nodeAt(child(opAt, 'responses')) ?? {};
  for (const status of Object.keys(responses)) {
    const rAt = child(opAt, 'responses', status);
    const r = nodeAt(rAt);
    const content = r.content ?? {};
    const spec: ResponseSpec = { status: Number(status), contentTypes: Object.keys(content), headers: {} };
    if (content['application/json']) {
      spec.json = child(rAt, 'content', 'application/json', 'schema');
      const code = nodeAt(deref(spec.json))?.properties?.code;
      // the codes of an error response: its x-error-codes (the shared ErrorEnvelope), else an enum or const of its own
      if (Number(status) >= 400) spec.codes = r['x-error-codes'] ?? (code ? (code.enum ?? (code.const !== undefined ? [code.const] : undefined)) : undefined);
    }
    const events = content['text/event-stream']?.['x-events'];
    if (events) spec.events = Object.fromEntries(Object.keys(events).map((e) => [e, child(rAt, 'content', 'text/event-stream', 'x-events', e)]));
    for (const h of Object.keys(r.headers ?? {})) spec.headers[h] = child(rAt, 'headers', h, 'schema');
    out.set(Number(status), spec);
  }
  return out;
}

function paramsOf(opAt: SchemaAt): ParamSpec[] {
  const list: any[] = nodeAt(child(opAt, 'parameters')) ?? [];
  return list.map((p, i) => ({ name: p.name, in: p.in, required: p.required === true, schema: child(opAt, 'parameters', i, 'schema') }));
}

function bodyOf(opAt: SchemaAt, limitBytes: number, multipart: MultipartBody | undefined): BodySpec | undefined {
  const rb = nodeAt(child(opAt, 'requestBody'));
  if (!rb) return undefined;
  const contentType = Object.keys(rb.content)[0];
  const schema = child(opAt, 'requestBody', 'content', contentType, 'schema');
  const example = nodeAt(deref(schema))?.example ?? rb.content[contentType].example;
  return {
    kind: contentType === 'multipart/form-data' ? 'multipart' : 'json',
    contentType,
    required: rb.required === true,
    schema,
    ...(example !== undefined ? { example } : {}),
    limitBytes,
    ...(multipart ? { multipart } : {}),
  };
}

function operationAt(doc: DocName, path: string, method: string): SchemaAt {
  const at = child({ doc, pointer: '' }, 'paths', path, method);
  if (!nodeAt(at)) throw new Error(`fuzz: ${method.toUpperCase()} ${path} is not in the ${doc} document`);
  return at;
}

/** Default largest JSON body of the API and of the control API (1 MiB). */
const DEFAULT_LIMIT = 1024 * 1024;

/** Every operation of the API registry and of the control registry, as fuzz targets. */
export function allTargets(): FuzzTarget[] {
  const out: FuzzTarget[] = [];
  for (const id of operationIds) {
    const op = operations[id] as OperationDef;
    // the sign-in page and its form are the mock's own: in the control document (scripts/spec.ts)
    const doc: DocName = inServiceDocument(op) ? 'api' : 'control';
    const at = operationAt(doc, op.path, op.method);
    const responses = responsesOf(at);
    const limit = op.request.body?.kind === 'json' ? (op.request.body.limitBytes ?? DEFAULT_LIMIT) : DEFAULT_LIMIT;
    const body = bodyOf(at, limit, op.request.body?.kind === 'multipart' ? op.request.body : undefined);
    out.push({
      id,
      operationId: id,
      doc,
      method: op.method,
      path: op.path,
      auth: op.auth,
      tag: op.tags[0] ?? 'api',
      params: paramsOf(at),
      ...(body ? { body } : {}),
      responses,
      success: responses.get(op.response.status)!,
      op,
    });
  }
  for (const c of Object.values(controlOperations) as OperationDef[]) {
    const at = operationAt('control', c.path, c.method);
    const responses = responsesOf(at);
    const body = bodyOf(at, DEFAULT_LIMIT, c.request.body?.kind === 'multipart' ? c.request.body : undefined);
    out.push({
      id: `control:${c.operationId}`,
      operationId: c.operationId,
      doc: 'control',
      method: c.method,
      path: c.path,
      auth: false,
      tag: 'control',
      params: paramsOf(at),
      ...(body ? { body } : {}),
      responses,
      success: responses.get(c.response.status)!,
      control: c,
    });
  }
  return out;
}

// ---------------------------------------------------------------------------
// Routing (which target a concrete request reaches)
// ---------------------------------------------------------------------------

/** A target's path as Express 5 matches it: case-insensitive, one non-empty segment per parameter, optional trailing slash. */
function routeRegex(template: string): RegExp {
  const src = template
    .split(/\{\w+\}/)
    .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return new RegExp(`^${src}/?$`, 'i');
}

/** Where a request lands: a target, a known path with another method (405), or nowhere (404). */
export type Route = { kind: 'target'; target: FuzzTarget } | { kind: 'method-not-allowed' } | { kind: 'not-found' };

/**
 * Resolves the raw (still percent-encoded) path of a request to what answers
 * it, in the mock's order: control routes under /__mock/, then the API.
 */
export function makeRouter(targets: readonly FuzzTarget[]): (method: string, rawPath: string) => Route {
  const table = targets.map((t) => ({ t, re: routeRegex(t.path) }));
  // by path, not by document: the sign-in page is in the control document but not under /__mock/
  const control = table.filter((r) => /^\/__mock\//i.test(r.t.path));
  const api = table.filter((r) => !/^\/__mock\//i.test(r.t.path));
  return (method, rawPath) => {
    const path = rawPath.split('?')[0];
    const m = method.toLowerCase();
    if (/^\/__mock\//i.test(path)) {
      const hit = control.find((r) => r.t.method === m && r.re.test(path));
      if (hit) return { kind: 'target', target: hit.t };
      // one route table holds both documents' routes: a control path with another method answers 405 too
      if (control.some((r) => r.re.test(path))) return { kind: 'method-not-allowed' };
    }
    const hit = api.find((r) => r.t.method === m && r.re.test(path));
    if (hit) return { kind: 'target', target: hit.t };
    if (api.some((r) => r.re.test(path))) return { kind: 'method-not-allowed' };
    return { kind: 'not-found' };
  };
}
