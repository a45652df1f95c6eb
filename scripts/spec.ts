/**
 * Builds the OpenAPI 3.1 documents from the registry (docs/architecture.md,
 * "The registry"): the API's and the control API's, with the same rendering
 * of request kinds (JSON, multipart/form-data with `format: binary` files) and
 * response kinds (the envelope, raw JSON, binary with its content types, a
 * text/event-stream whose events are listed in `x-events`). Pure: returns
 * objects; `build.ts` writes them.
 */
import { explicitSchemaShapes } from './spec-compat.ts';
import { OpenAPIRegistry, OpenApiGeneratorV31, getOpenApiMetadata, getRefId, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { RFC3986_URI, bearerApiKeyScheme, envelope, userTokenScheme } from '../schemas/common.ts';
import { controlOperations, controlTags } from '../schemas/control.ts';
import { describeErrorRef, errorCatalog, errorNames, errorReason, type CatalogError, type ErrorName } from '../schemas/errors.ts';
import { operationIds, operations, tags } from '../schemas/operations.ts';
import { assumed, describeProvenance, fromSeed } from '../schemas/provenance.ts';
import type { FormBody, JsonBody, MultipartBody, OperationDef, ResponseDef } from '../schemas/registry-types.ts';

/** Groups errors by HTTP status (a code the documents allow under several statuses, `alsoHttpStatus`, under each). */
export function errorsByStatus(op: { errors: readonly ErrorName[] }): Map<number, ErrorName[]> {
  const out = new Map<number, ErrorName[]>();
  for (const name of op.errors) {
    const entry = errorCatalog[name] as CatalogError;
    // a code the documents allow under more than one status is declared under each (`alsoHttpStatus`)
    for (const status of [entry.httpStatus, ...(entry.alsoHttpStatus ?? [])]) out.set(status, [...(out.get(status) ?? []), name]);
  }
  return out;
}

/**
 * Replaces the RFC 3986 pattern (of `uriString()` and the asset URLs) by `format: uri`, the same rule in words
 * every validator knows, so no pattern holds a quote a generator would have to escape. Mutates `node`.
 */
export function quotablePatterns(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(quotablePatterns);
  if (node === null || typeof node !== 'object') return;
  const o = node as Record<string, unknown>;
  if (o.pattern === RFC3986_URI.source) {
    delete o.pattern;
    o.format = 'uri';
  }
  Object.values(o).forEach(quotablePatterns);
}

/** One line per error: its code, meaning and, for a failure reason, the string a failed task reports. */
function describeErrors(names: readonly ErrorName[]): string {
  return names
    .map((n) => `- \`${errorCatalog[n].code}\` ${errorCatalog[n].meaning}${errorReason(n) ? ` (failure reason \`${errorReason(n)}\`)` : ''}`)
    .join('\n');
}

/** The error catalog as a Markdown table (provenance is in the document's `x-error-catalog`). */
function catalogTable(names: readonly ErrorName[]): string {
  return `| code | name | HTTP | meaning |\n|---|---|---|---|\n${names
    .map(
      (n) =>
        `| ${errorCatalog[n].code} | ${n}${errorReason(n) ? ` (\`${errorReason(n)}\`)` : ''} | ${errorCatalog[n].httpStatus} | ${errorCatalog[n].meaning} |`,
    )
    .join('\n')}`;
}

/** The catalog as data: code, name, HTTP status, meaning, failure reason and `x-provenance` of each error. */
function catalogExtension(names: readonly ErrorName[]) {
  return names.map((n) => ({
    code: errorCatalog[n].code,
    name: n,
    httpStatus: errorCatalog[n].httpStatus,
    ...((errorCatalog[n] as CatalogError).alsoHttpStatus ? { alsoHttpStatus: (errorCatalog[n] as CatalogError).alsoHttpStatus } : {}),
    meaning: errorCatalog[n].meaning,
    ...(errorReason(n) ? { failureReason: errorReason(n) } : {}),
    'x-provenance': describeProvenance(errorCatalog[n].provenance),
  }));
}

/** True for the errors only the mock answers (its forcing, its control API, its own faults). */
export function isMockOnly(name: ErrorName): boolean {
  const p = errorCatalog[name].provenance;
  return p.source === 'assumed' && p.reason.startsWith('mock-only');
}

/** The message the mock writes for `name` without details: its meaning, after its name for the errors the documents name in messages. */
function exampleMessage(name: ErrorName): string {
  const meaning = errorCatalog[name].meaning;
  return meaning.startsWith(`${name}:`) ? meaning : meaning.charAt(0).toUpperCase() + meaning.slice(1);
}

/** One example per declared error: its code and a message as the service writes it. */
function errorExamples(names: readonly ErrorName[]) {
  return Object.fromEntries(
    names.map((n) => [n, { summary: `${errorCatalog[n].code} ${n}`, value: { code: errorCatalog[n].code, message: exampleMessage(n), data: null } }]),
  );
}

/** Component name of the one error envelope every error response of a document refers to. */
export const ERROR_ENVELOPE = 'ErrorEnvelope';

/**
 * The shared error envelope (document 1, "Common response envelope": a non-zero code, a message, data). One
 * component, so a generator emits one error type; the codes each response can carry are its `x-error-codes`.
 */
const errorEnvelopeComponent = {
  type: 'object' as const,
  description: 'Error envelope: a non-zero code (the reason; clients branch on it), a message naming the field and the rule, data null.',
  properties: {
    code: { type: 'integer' as const, not: { const: 0 }, description: 'the error code, never 0 (see x-error-codes of each response)', example: 31001 },
    message: {
      type: 'string' as const,
      description:
        'what went wrong, naming the field and the rule; for an error a document names without a number (the voice-cloning errors NEED_UPGRADE, NEED_CREDIT, SPEAKER_LIMIT_REACHED, ALREADY_CONFIRMED, ...), it starts with that name and a colon (the names are in x-error-catalog)',
      'x-provenance': describeProvenance(assumed('document 2 names the voice-cloning errors without a code or a field for the name; the message carries it')),
    },
    data: {
      type: 'null' as const,
      description: 'always null on errors',
      'x-provenance': describeProvenance(assumed('the documents do not show the data of an error envelope')),
    },
  },
  required: ['code', 'message', 'data'],
  additionalProperties: false,
  'x-provenance': describeProvenance(fromSeed(1, 'Common response envelope')),
};

/** Retry-After of a 429 or 503 answer: seconds, with the documented default when every error of the status has one. */
function retryAfterHeader(names: readonly ErrorName[]) {
  const defaults = new Set(names.map((n) => (errorCatalog[n] as CatalogError).retryAfterSeconds));
  const only = defaults.size === 1 ? [...defaults][0] : undefined;
  return {
    'Retry-After': {
      description: `seconds to wait before retrying${only === undefined ? '' : ` (${only} s unless the answer says otherwise)`}`,
      required: true,
      schema: { type: 'integer' as const, minimum: 1, ...(only === undefined ? {} : { default: only }) },
    },
  };
}

/** The error responses of `errors`, one per HTTP status, each referring to the shared envelope and listing its codes. */
function errorResponses(errors: readonly ErrorName[]): RouteConfig['responses'] {
  const out: RouteConfig['responses'] = {};
  for (const [status, names] of [...errorsByStatus({ errors })].sort((a, b) => a[0] - b[0])) {
    out[status] = {
      description: describeErrors(names),
      ...(status === 429 || status === 503 ? { headers: retryAfterHeader(names) } : {}),
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${ERROR_ENVELOPE}` }, examples: errorExamples(names) } },
    };
  }
  return out;
}

/** Adds `x-error-codes` (the codes an error response can carry) to every error response of `op` in `doc`. */
function tagErrorCodes(doc: { paths?: object }, op: { path: string; method: string }, errors: readonly ErrorName[]) {
  const paths = doc.paths as Record<string, Record<string, { responses: Record<string, Record<string, unknown>> }>>;
  const responses = paths[op.path][op.method].responses;
  for (const [status, names] of errorsByStatus({ errors })) responses[String(status)]['x-error-codes'] = [...new Set(names.map((n) => errorCatalog[n].code))];
}

/** The requestBody of a JSON, form or multipart body. */
function requestBody(body: JsonBody | MultipartBody | FormBody, required: boolean) {
  if (body.kind === 'form') {
    const example = (getOpenApiMetadata(body.schema) as { example?: unknown } | undefined)?.example;
    return {
      required,
      description: "An HTML form's fields (application/x-www-form-urlencoded).",
      content: { 'application/x-www-form-urlencoded': { schema: body.schema, ...(example === undefined ? {} : { example }) } },
    };
  }
  if (body.kind === 'json') {
    // the schema's example, also at the media-type level (where Postman, Prism and SDK generators read it)
    const example = (getOpenApiMetadata(body.schema) as { example?: unknown } | undefined)?.example;
    return { required, content: { 'application/json': { schema: body.schema, ...(example === undefined ? {} : { example }) } } };
  }
  const mb = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 100) / 100} MB (${bytes} bytes)`;
  const limits = Object.entries(body.files).map(([f, r]) => `${f}: each file at most ${mb(r.maxFileBytes)}`);
  // a form of text fields only (POST /v1/music/extend) has no file limits to state
  const files = limits.length
    ? `${limits.join('; ')}; all files together at most ${mb(body.maxTotalBytes)} (larger: ${describeErrorRef(body.limitError ?? 'PAYLOAD_TOO_LARGE')}).`
    : 'Text fields only, no files.';
  return {
    required,
    description: `multipart/form-data. ${files} Booleans and numbers are sent as text ("true", "42").`,
    content: { 'multipart/form-data': { schema: body.schema } },
  };
}

/** The success response of a response kind; `eventSchemas` collects the schemas an event stream names. */
function successResponse(r: ResponseDef, wrap: boolean, captured?: unknown) {
  // an example the mock answered (scripts/examples.ts), where the schema declares none
  const example = captured === undefined ? {} : { examples: { answer: { summary: 'an example answer', value: captured } } };
  switch (r.kind) {
    case 'envelope':
      return { description: r.description, content: { 'application/json': { schema: wrap ? envelope(r.schema) : r.schema, ...example } } };
    case 'raw':
      return { description: r.description, content: { 'application/json': { schema: r.schema, ...example } } };
    case 'binary':
      return {
        description: `${r.description}. Binary, streamed with chunked transfer encoding; a failure before the first byte answers the JSON error envelope instead (check the Content-Type).`,
        content: Object.fromEntries(r.contentTypes.map((ct) => [ct, { schema: { type: 'string' as const, format: 'binary' } }])),
      };
    case 'page':
      if (r.status === 200) return { description: `${r.description} (a web page)`, content: HTML_PAGE };
      return {
        description: r.description,
        headers: { Location: { description: 'where the browser goes next', required: true, schema: { type: 'string' as const, format: 'uri' } } },
      };
    case 'event-stream':
      return {
        description: `${r.description}. Server-Sent Events: frames \`event: <name>\`, \`id: <n>\`, \`data: <JSON>\`, and \`: heartbeat\` comments; events: ${Object.keys(
          r.events,
        )
          .map((e) => `\`${e}\``)
          .join(', ')} (data schemas in x-events).`,
        content: {
          'text/event-stream': {
            schema: { type: 'string' as const, description: 'a stream of Server-Sent Events' },
            ...example,
            'x-events': Object.fromEntries(Object.keys(r.events).map((e) => [e, { $ref: `#/components/schemas/${eventSchemaName(r, e)}` }])),
          },
        },
      };
  }
}

/** The content of a web page answer. */
const HTML_PAGE = { 'text/html': { schema: { type: 'string' as const, description: 'an HTML page' } } };

/**
 * The success response and the error responses of `op`: a page operation's
 * other pages (`pages`) by status, merged with the JSON error envelope where
 * a status has both (a page for the operation's own answer, the envelope for
 * what the request path refuses first).
 */
function responsesOf(op: OperationDef, success: ReturnType<typeof successResponse>): RouteConfig['responses'] {
  const out: RouteConfig['responses'] = { [op.response.status]: success };
  if (op.response.kind === 'page')
    for (const [status, description] of Object.entries(op.response.pages ?? {}))
      out[status] = { description: `${description} (a web page)`, content: HTML_PAGE };
  for (const [status, r] of Object.entries(errorResponses(op.errors))) {
    const page = out[status] as { description: string; content?: object } | undefined;
    const err = r as { description: string; content?: object };
    out[status] = page
      ? { ...err, description: `${page.description}; or the error envelope: ${err.description}`, content: { ...page.content, ...err.content } }
      : r;
  }
  return out;
}

/** Component name of the data schema of event `name` (its .openapi() name). */
function eventSchemaName(r: Extract<ResponseDef, { kind: 'event-stream' }>, name: string): string {
  const id = getRefId(r.events[name]);
  if (!id) throw new Error(`event ${name}: its data schema needs .openapi('<Name>') so the spec can refer to it`);
  return id;
}

/** Registers the data schemas of an event stream as components. */
function registerEvents(registry: OpenAPIRegistry, r: ResponseDef): void {
  if (r.kind !== 'event-stream') return;
  for (const name of Object.keys(r.events)) registry.register(eventSchemaName(r, name), r.events[name]);
}

function routeConfig(op: OperationDef, captured?: unknown): RouteConfig {
  const failures = op.failureReasons?.length
    ? `\n\nA created task can fail with: ${op.failureReasons.map((n) => `${describeErrorRef(n)} (${errorCatalog[n].meaning})`).join(', ')}.`
    : '';
  return {
    method: op.method,
    path: op.path,
    operationId: op.operationId,
    tags: op.tags,
    summary: op.summary,
    description: `${op.description}${failures}${describeStateRules(op)}`,
    // an API key, or a signed-in user's access token (document 1, "Authentication")
    ...(op.auth ? { security: [{ [bearerApiKeyScheme.name]: [] }, { [userTokenScheme.name]: [] }] } : { security: [] }),
    request: {
      ...(op.request.params ? { params: op.request.params } : {}),
      ...(op.request.query ? { query: op.request.query } : {}),
      ...(op.request.body ? { body: requestBody(op.request.body, !op.request.bodyOptional) } : {}),
    },
    responses: responsesOf(op, { ...successResponse(op.response, true, captured), ...lifecycleLinks(op) }),
    'x-provenance': describeProvenance(op.provenance),
    ...(op.rateLimit ? { 'x-rate-limit': rateLimitExtension(op.rateLimit) } : {}),
    ...(op.charges ? { 'x-charges-credits': true } : {}),
    ...(op.lifecycle ? { 'x-lifecycle': lifecycleExtension(op.lifecycle) } : {}),
    // the mock's own codes stay out (an operation without parameters answers the mock's 10007 for a forcing it cannot honour)
    'x-validation-errors': [...new Set([op.validationError, ...Object.values(op.fieldErrors ?? {})])]
      .filter((n) => !isMockOnly(n!))
      .map((n) => errorCatalog[n!].code),
    ...(op.stateRules?.length ? { 'x-rules': xRules(op) } : {}),
  };
}

/**
 * OpenAPI links from a create to the read of the task it made (from `x-lifecycle`: the poll operation, its one path
 * parameter set from the create answer's `data.<idField>`), so a tool that chains calls can follow a task. A later
 * stage of a task (`continues`) links from the id it was sent: its path parameter, or its body field.
 */
function lifecycleLinks(op: OperationDef): { links?: Record<string, { operationId: string; parameters: Record<string, string>; description: string }> } {
  const lc = op.lifecycle;
  const read = lc && (operations as Record<string, OperationDef | undefined>)[lc.pollOperationId];
  const param = read && /\{(\w+)\}/.exec(read.path)?.[1];
  if (!lc || !param) return {};
  return {
    links: {
      [lc.pollOperationId]: {
        operationId: lc.pollOperationId,
        parameters: { [param]: idExpression(op, lc) },
        description: `The task created: poll it until ${lc.statusField} is ${lc.terminal.join(' or ')}.`,
      },
    },
  };
}

/** The runtime expression of the task's id after `op`: the create answer's `data.<idField>`, or what a later stage was sent. */
function idExpression(op: OperationDef, lc: NonNullable<OperationDef['lifecycle']>): string {
  if (lc.continues?.bodyField) return `$request.body#/${lc.continues.bodyField}`;
  const own = /\{(\w+)\}/.exec(op.path)?.[1];
  if (lc.continues && own) return `$request.path.${own}`;
  return `$response.body#/data/${lc.idField}`;
}

/** `x-rate-limit`: the bucket, the requests per window and the window, with where the numbers come from. */
function rateLimitExtension(r: NonNullable<OperationDef['rateLimit']>) {
  const p = r.provenance ?? assumed('the documents give no value for this limit');
  return { bucket: r.bucket, limit: r.limit, windowMs: r.windowMs, 'x-provenance': describeProvenance(p) };
}

/**
 * `x-lifecycle`: the task's states and polling advice, with where the timings come from (assumed unless the lifecycle
 * says) and, when the timeout comes from elsewhere, where it comes from (`x-timeout-provenance`).
 */
function lifecycleExtension(l: NonNullable<OperationDef['lifecycle']>) {
  const { provenance, timeoutProvenance, ...rest } = l;
  return {
    ...rest,
    'x-provenance': describeProvenance(provenance ?? assumed('the documents give no polling timings for this task')),
    ...(timeoutProvenance ? { 'x-timeout-provenance': describeProvenance(timeoutProvenance) } : {}),
  };
}

/** The operation's rules no schema carries, as `x-rules` entries: code, fields, the rule in words, what it reads. */
function xRules(op: OperationDef) {
  return (op.stateRules ?? []).map((r) => ({ code: errorCatalog[r.code].code, name: r.code, fields: [...r.fields], rule: r.rule, reads: r.reads }));
}

/** The same rules for the description. */
function describeStateRules(op: OperationDef): string {
  if (!op.stateRules?.length) return '';
  const line = (r: NonNullable<OperationDef['stateRules']>[number]) =>
    `- ${r.rule} (${describeErrorRef(r.code)}; reads ${r.reads === 'body' ? 'the body, beyond what a schema can say' : `the ${r.reads}`})`;
  return `\n\nRules beyond the request schema (also in \`x-rules\`):\n\n${op.stateRules.map(line).join('\n')}`;
}

/**
 * The codes the request body of `op` in `doc` can answer for a rule: every `x-error-code` of its fragments (the
 * components it refers to followed, each once). Used to complete the operation's `x-validation-errors`.
 */
export function ruleCodesOf(doc: { paths?: object; components?: object }, op: { path: string; method: string }): number[] {
  const paths = doc.paths as Record<string, Record<string, { requestBody?: unknown }>>;
  const codes = new Set<number>();
  const seen = new Set<string>();
  const walk = (n: unknown): void => {
    if (Array.isArray(n)) return n.forEach(walk);
    if (n === null || typeof n !== 'object') return;
    const o = n as Record<string, unknown>;
    if (typeof o['x-error-code'] === 'number') codes.add(o['x-error-code']);
    if (typeof o.$ref === 'string' && o.$ref.startsWith('#/components/schemas/') && !seen.has(o.$ref)) {
      seen.add(o.$ref);
      walk((doc.components as { schemas: Record<string, unknown> }).schemas[o.$ref.slice('#/components/schemas/'.length)]);
    }
    Object.values(o).forEach(walk);
  };
  walk(paths[op.path][op.method].requestBody);
  return [...codes];
}

/**
 * Completes `x-validation-errors` of every operation of `doc`: the validation and field errors, then every code a
 * body rule answers (its fragments' `x-error-code`) and every `x-rules` entry that reads the body alone.
 */
function completeValidationErrors(doc: { paths?: object; components?: object }, ops: readonly OperationDef[]): void {
  const paths = doc.paths as Record<string, Record<string, Record<string, unknown>>>;
  for (const op of ops) {
    const o = paths[op.path][op.method];
    const body = (op.stateRules ?? []).filter((r) => r.reads === 'body').map((r) => errorCatalog[r.code].code);
    o['x-validation-errors'] = [...new Set([...(o['x-validation-errors'] as number[]), ...ruleCodesOf(doc, op), ...body])];
  }
}

/**
 * True for an operation of the service document; false for the mock's own sign-in page (`/oauth/authorize`, a web
 * page document 1 does not show: the user "authorizes in a browser"), which the control document describes.
 */
export function inServiceDocument(op: Pick<OperationDef, 'response'>): boolean {
  return op.response.kind !== 'page';
}

/** The errors `op` shows in the service document: every declared error but the mock's own (its forcing). */
export function serviceErrors(op: Pick<OperationDef, 'errors'>): ErrorName[] {
  return op.errors.filter((n) => !isMockOnly(n));
}

/**
 * The document's two base URLs (document 1, "What the service does"): API-key access at {base_url} and OAuth
 * user-token access at {user_api_base_url}; both default to a local address.
 */
// (no description on the variables: swagger-parser, which orval runs, refuses one there)
const apiServers: { url: string; description: string; variables: Record<string, { default: string }> }[] = [
  { url: '{base_url}', description: 'API-key access (every operation): {base_url}', variables: { base_url: { default: 'http://localhost:4010' } } },
  {
    url: '{user_api_base_url}',
    description: 'OAuth user-token access (a signed-in user): {user_api_base_url}',
    variables: { user_api_base_url: { default: 'http://localhost:4010' } },
  },
];

/** The API document (spec/openapi.json and spec/openapi.yaml); `examples`: success examples captured from the mock (scripts/examples.ts). */
export function buildApiDocument(examples: ReadonlyMap<string, unknown> = new Map()) {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', bearerApiKeyScheme.name, bearerApiKeyScheme.scheme);
  registry.registerComponent('securitySchemes', userTokenScheme.name, userTokenScheme.scheme);
  registry.registerComponent('schemas', ERROR_ENVELOPE, errorEnvelopeComponent);
  const ops = operationIds.map((id) => operations[id] as OperationDef).filter(inServiceDocument);
  for (const op of ops) {
    registerEvents(registry, op.response);
    registry.registerPath(routeConfig({ ...op, errors: serviceErrors(op) }, examples.get(op.operationId)));
  }
  const doc = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Media Generation Service',
      version: '1.0.0',
      license: LICENSE,
      contact: CONTACT,
      description:
        'Provider-neutral contract of the Media Generation Service: video, images, speech, voice cloning, generated audio, podcasts, lyrics, music, page-deck episodes and content extraction. ' +
        'Most jobs are asynchronous: a create call answers a task or episode id, and the client polls its read endpoint until a terminal state. ' +
        'Every JSON answer but the synchronous image endpoint and the binary speech endpoints is the envelope `{code, message, data}`: code 0 means success, any other code is an error, and clients branch on the code. ' +
        'Every error response refers to one schema, `ErrorEnvelope`; the codes it can carry are listed in its `x-error-codes`.\n\n' +
        'Where each field, limit, code and operation comes from is in `x-provenance` (a source document and section, or an assumption with its reason).\n\n' +
        `## Error catalog\n\n${catalogTable(errorNames.filter((n) => !isMockOnly(n)))}`,
    },
    servers: apiServers,
    tags,
    security: [{ [bearerApiKeyScheme.name]: [] }, { [userTokenScheme.name]: [] }],
  });
  for (const op of ops) tagErrorCodes(doc, op, serviceErrors(op));
  completeValidationErrors(doc, ops);
  quotablePatterns(doc);
  explicitSchemaShapes(doc);
  return { ...doc, 'x-error-catalog': catalogExtension(errorNames.filter((n) => !isMockOnly(n))) };
}

/** The operations that declare forcible outcomes, as a Markdown table (the mock's document). */
function forcingTable(): string {
  const rows = operationIds
    .map((id) => operations[id] as OperationDef)
    .filter((op) => op.outcomes?.length)
    .map((op) => `| ${op.operationId} | ${op.outcomes!.join(', ')} | ${(op.failureReasons ?? []).map((n) => `${describeErrorRef(n)} ${n}`).join(', ')} |`);
  return `| operation | outcomes | failure reasons |\n|---|---|---|\n${rows.join('\n')}`;
}

/** The registry's web pages (the OAuth sign-in page), described by the control document. */
function signInPages(): OperationDef[] {
  return operationIds.map((id) => operations[id] as OperationDef).filter((op) => !inServiceDocument(op));
}

/** The control document's tag of the sign-in page. */
const SIGN_IN_TAG = {
  name: 'OAuth sign-in page',
  description:
    "The mock's page where a user authorizes a login session (the authUrl of POST /v1/oauth/login-sessions); document 1 says only that the user authorizes in a browser.",
};

/** The license and contact of both documents. */
const LICENSE = { name: 'MIT', identifier: 'MIT' };
const CONTACT = { name: 'mediagen-contract' };
const CONTROL_TOKEN_SCHEME = 'controlToken';

/** The control API document (spec/mock-control.openapi.yaml), kept apart from the API's. */
export function buildControlDocument() {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', CONTROL_TOKEN_SCHEME, {
    type: 'http',
    scheme: 'bearer',
    description:
      'Only when the mock runs with --control-token, or listens beyond this machine (then it prints a generated token): Authorization: Bearer <control token>. GET /__mock/health never needs it.',
  });
  for (const op of Object.values(controlOperations) as OperationDef[]) {
    registerEvents(registry, op.response);
    registry.registerPath({
      method: op.method,
      path: op.path,
      operationId: op.operationId,
      tags: ['Mock control'],
      summary: op.summary,
      description: op.description,
      request: {
        ...(op.request.params ? { params: op.request.params } : {}),
        ...(op.request.query ? { query: op.request.query } : {}),
        ...(op.request.body ? { body: requestBody(op.request.body, !op.request.bodyOptional) } : {}),
      },
      responses: { 200: successResponse(op.response, false), ...errorResponses(op.errors) },
    });
  }
  // the mock's sign-in page: an API route of the mock (no /__mock prefix, no credential), not of the service document
  for (const op of signInPages()) {
    registry.registerPath({
      method: op.method,
      path: op.path,
      operationId: op.operationId,
      tags: [SIGN_IN_TAG.name],
      summary: op.summary,
      description: op.description,
      security: [],
      request: {
        ...(op.request.query ? { query: op.request.query } : {}),
        ...(op.request.body ? { body: requestBody(op.request.body, !op.request.bodyOptional) } : {}),
      },
      responses: responsesOf({ ...op, errors: serviceErrors(op) }, successResponse(op.response, false)),
      'x-provenance': describeProvenance(op.provenance),
    });
  }
  registry.registerComponent('schemas', ERROR_ENVELOPE, errorEnvelopeComponent);
  const doc = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'mediagen-mock control API',
      version: '1.0.0',
      license: LICENSE,
      contact: CONTACT,
      description:
        "The mock server's own control API under /__mock: health, reset, the virtual clock, accounts and their ledgers, scenario rules, the request journal, task activity as an event stream, sample media, users of the OAuth flow, isolated sessions, and an upload inspector. Not part of the Media Generation Service.\n\n" +
        '## Mock behaviour\n\n' +
        'What the mock does that the service does not, or that the source documents do not show:\n\n' +
        '- **Forcing outcomes** on any API request: `Prefer: code=<status>` (any status the operation declares), `Prefer: error=<code, name or failure reason>`, `Prefer: outcome=failed|stuck|partial` (a created task fails, never finishes, or partly succeeds), `Prefer: delay=<ms>`; several at once separated by commas; or the query parameters `__code`, `__error`, `__outcome`, `__delay`. Rules for the next matching requests: `POST /__mock/scenarios`. The service document declares neither the header nor these parameters; a value an operation cannot honour answers HTTP 400 with code 10007 on any API operation, a code of the mock only.\n' +
        '- **The virtual clock**: task lifecycles follow it (`--clock manual` moves it only with `POST /__mock/clock/advance`). The schedules, prices and limits the documents do not show are assumed: every assumption is listed in docs/assumptions.md and marked `x-provenance: assumed` in the API document.\n' +
        '- **Isolated sessions**: `X-Mock-Session: <name>` or the path prefix `/sessions/<name>` selects a world of its own (clock, seed, accounts, tasks, journal).\n' +
        '- **The OAuth authorization page** at `/oauth/authorize?sessionId=` (the `authUrl` of a login session).\n' +
        '- **The documentation site** at `/docs`, and the documents at `/openapi.json`, `/openapi.yaml`, `/mock-control.openapi.yaml`.\n\n' +
        `## Forcible outcomes per operation\n\nA created task can be forced with \`Prefer: outcome=...\` (and \`error=\` naming one of its failure reasons; the first is the default):\n\n${forcingTable()}\n\n` +
        `## Mock-only error codes\n\n${catalogTable(errorNames.filter(isMockOnly))}`,
    },
    servers: [{ url: 'http://localhost:4010', description: 'mediagen-mock' }],
    tags: [...controlTags, SIGN_IN_TAG],
    // open on this machine; with --control-token (or listening beyond it) every route but health needs the token
    security: [{}, { [CONTROL_TOKEN_SCHEME]: [] }],
  });
  for (const op of Object.values(controlOperations) as OperationDef[]) tagErrorCodes(doc, op, op.errors);
  for (const op of signInPages()) tagErrorCodes(doc, op, serviceErrors(op));
  quotablePatterns(doc);
  explicitSchemaShapes(doc);
  // the mock's own codes as data, in the extension the service document uses for its catalog
  return { ...doc, 'x-error-catalog': catalogExtension(errorNames.filter(isMockOnly)) };
}
