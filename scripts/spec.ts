/**
 * Builds the OpenAPI 3.1 documents from the registry (docs/architecture.md,
 * "The registry"): the API's and the control API's, with the same rendering
 * of request kinds (JSON, multipart/form-data with `format: binary` files) and
 * response kinds (the envelope, raw JSON, binary with its content types, a
 * text/event-stream whose events are listed in `x-events`). Pure: returns
 * objects; `build.ts` writes them.
 */
import { OpenAPIRegistry, OpenApiGeneratorV31, getRefId, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { bearerApiKeyScheme, envelope, errorEnvelope } from '../schemas/common.ts';
import { controlOperations, controlTags, type ControlOperation } from '../schemas/control.ts';
import { transportErrors } from '../schemas/define.ts';
import { describeErrorRef, errorCatalog, errorNames, errorReason, type ErrorName } from '../schemas/errors.ts';
import { operationIds, operations, tags } from '../schemas/operations.ts';
import { describeProvenance } from '../schemas/provenance.ts';
import type { JsonBody, MultipartBody, OperationDef, ResponseDef } from '../schemas/registry-types.ts';

const RetryAfter = { 'Retry-After': { description: 'seconds to wait before retrying', schema: { type: 'integer' as const, minimum: 1 } } };

/** Groups errors by HTTP status. */
export function errorsByStatus(op: { errors: readonly ErrorName[] }): Map<number, ErrorName[]> {
  const out = new Map<number, ErrorName[]>();
  for (const name of op.errors) {
    const status = errorCatalog[name].httpStatus;
    out.set(status, [...(out.get(status) ?? []), name]);
  }
  return out;
}

function describeErrors(names: readonly ErrorName[]): string {
  const line = (n: ErrorName) =>
    `- \`${errorCatalog[n].code}\` ${errorCatalog[n].meaning}${errorReason(n) ? ` (failure reason \`${errorReason(n)}\`)` : ''} (${describeProvenance(errorCatalog[n].provenance)})`;
  const service = names.filter((n) => !isMockOnly(n)).map(line);
  const mock = names.filter(isMockOnly).map(line);
  return [...service, ...(mock.length ? [`\n**Mock only** (mediagen-mock, not the service; see the mock's document):\n`, ...mock] : [])].join('\n');
}

/** The error catalog as a Markdown table. */
function catalogTable(names: readonly ErrorName[]): string {
  return `| code | name | HTTP | meaning | provenance |\n|---|---|---|---|---|\n${names
    .map(
      (n) =>
        `| ${errorCatalog[n].code} | ${n}${errorReason(n) ? ` (\`${errorReason(n)}\`)` : ''} | ${errorCatalog[n].httpStatus} | ${errorCatalog[n].meaning} | ${describeProvenance(errorCatalog[n].provenance)} |`,
    )
    .join('\n')}`;
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

/** One example per declared error: its code and a message as the mock writes it. */
function errorExamples(names: readonly ErrorName[]) {
  return Object.fromEntries(
    names.map((n) => [
      n,
      {
        summary: `${errorCatalog[n].code} ${n}${isMockOnly(n) ? ' (mock only)' : ''}`,
        value: { code: errorCatalog[n].code, message: exampleMessage(n), data: null },
      },
    ]),
  );
}

/**
 * The error envelope as emitted. zod-to-openapi 9.1.0 emits a multi-value
 * `z.literal([a, b, ...])` as `enum: [a]` (its LiteralTransformer keeps only the
 * first value), so a 400 listing several codes would allow only the first one;
 * state the full list explicitly.
 */
function specErrorEnvelope(names: readonly ErrorName[]) {
  const env = errorEnvelope(names);
  const codes = [...new Set(names.map((n) => errorCatalog[n].code))];
  return codes.length > 1 ? env.extend({ code: env.shape.code.openapi({ enum: codes }) }) : env;
}

/** The error responses of `errors`, one per HTTP status. */
function errorResponses(errors: readonly ErrorName[]): RouteConfig['responses'] {
  const out: RouteConfig['responses'] = {};
  for (const [status, names] of [...errorsByStatus({ errors })].sort((a, b) => a[0] - b[0])) {
    out[status] = {
      description: describeErrors(names),
      ...(status === 429 || status === 503 ? { headers: RetryAfter } : {}),
      content: { 'application/json': { schema: specErrorEnvelope(names), examples: errorExamples(names) } },
    };
  }
  return out;
}

/** The requestBody of a JSON or multipart body. */
function requestBody(body: JsonBody | MultipartBody, required: boolean) {
  if (body.kind === 'json') return { required, content: { 'application/json': { schema: body.schema } } };
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
  const example = captured === undefined ? {} : { examples: { mock: { summary: 'answered by the mock (seed 1)', value: captured } } };
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
    description: `${op.description}${failures}${describeStateRules(op)}\n\nSource: ${describeProvenance(op.provenance)}.`,
    ...(op.auth ? { security: [{ [bearerApiKeyScheme.name]: [] }] } : { security: [] }),
    request: {
      ...(op.request.params ? { params: op.request.params } : {}),
      ...(op.request.query ? { query: op.request.query } : {}),
      ...(op.request.body ? { body: requestBody(op.request.body, !op.request.bodyOptional) } : {}),
    },
    responses: { [op.response.status]: successResponse(op.response, true, captured), ...errorResponses(op.errors) },
    'x-provenance': describeProvenance(op.provenance),
    ...(op.rateLimit ? { 'x-rate-limit': { bucket: op.rateLimit.bucket, limit: op.rateLimit.limit, windowMs: op.rateLimit.windowMs } } : {}),
    ...(op.charges ? { 'x-charges-credits': true } : {}),
    ...(op.stateRules?.length ? { 'x-rules': xRules(op) } : {}),
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

/** The API document (spec/openapi.json and spec/openapi.yaml); `examples`: success examples captured from the mock (scripts/examples.ts). */
export function buildApiDocument(examples: ReadonlyMap<string, unknown> = new Map()) {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', bearerApiKeyScheme.name, bearerApiKeyScheme.scheme);
  for (const id of operationIds) {
    const op = operations[id] as OperationDef;
    registerEvents(registry, op.response);
    registry.registerPath(routeConfig(op, examples.get(id)));
  }
  const doc = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Media Generation Service',
      version: '1.0.0',
      license: LICENSE,
      contact: CONTACT,
      description:
        'Provider-neutral contract of the Media Generation Service (video, images, speech, music and more), emitted from the Zod schemas of mediagen-contract. ' +
        'Every field, limit and error code carries its provenance (`x-provenance`): a seed document and section, or "assumed" with the reason.\n\n' +
        'The mock of this service (mediagen-mock) documents its own behaviour apart: forcing outcomes with the `Prefer` header, the virtual clock, isolated sessions, its control API and its own error codes are in the document "Mock: control API and behaviour" (spec/mock-control.openapi.yaml). Where an operation can answer a mock-only code, its error response lists it under "Mock only".\n\n' +
        `## Error catalog\n\n${catalogTable(errorNames.filter((n) => !isMockOnly(n)))}`,
    },
    servers: [{ url: 'http://localhost:4010', description: 'mediagen-mock (the stateful mock)' }],
    tags,
    security: [{ [bearerApiKeyScheme.name]: [] }],
  });
  return doc;
}

/** The errors a control route can answer with: malformed or invalid requests, its own. */
export function controlErrors(op: ControlOperation): ErrorName[] {
  const transport = transportErrors({ auth: false, request: { ...(op.body ? { body: op.body } : {}), ...(op.params ? { params: op.params } : {}) } }).filter(
    (e) => e !== 'INVALID_PREFER',
  );
  const invalid: ErrorName[] = op.body || op.params || op.query ? ['CONTROL_INVALID_REQUEST'] : [];
  return [...new Set([...transport, ...invalid, ...(op.errors ?? [])])];
}

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
  for (const op of Object.values(controlOperations) as ControlOperation[]) {
    registerEvents(registry, op.response);
    registry.registerPath({
      method: op.method,
      path: op.path,
      operationId: op.operationId,
      tags: ['Mock control'],
      summary: op.summary,
      description: op.description,
      request: {
        ...(op.params ? { params: op.params } : {}),
        ...(op.query ? { query: op.query } : {}),
        ...(op.body ? { body: requestBody(op.body, op.bodyRequired ?? false) } : {}),
      },
      responses: { 200: successResponse(op.response, false), ...errorResponses(controlErrors(op)) },
    });
  }
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
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
        '- **Forcing outcomes** on any API request: `Prefer: code=<status>` (any status the operation declares), `Prefer: error=<code, name or failure reason>`, `Prefer: outcome=failed|stuck|partial` (a created task fails, never finishes, or partly succeeds), `Prefer: delay=<ms>`; several at once separated by commas; or the query parameters `__code`, `__error`, `__outcome`, `__delay`. Rules for the next matching requests: `POST /__mock/scenarios`.\n' +
        '- **The virtual clock**: task lifecycles follow it (`--clock manual` moves it only with `POST /__mock/clock/advance`). The schedules, prices and limits the documents do not show are assumed: every assumption is listed in docs/assumptions.md and marked `x-provenance: assumed` in the API document.\n' +
        '- **Isolated sessions**: `X-Mock-Session: <name>` or the path prefix `/sessions/<name>` selects a world of its own (clock, seed, accounts, tasks, journal).\n' +
        '- **The OAuth authorization page** at `/oauth/authorize?sessionId=` (the `authUrl` of a login session).\n' +
        '- **The documentation site** at `/docs`, and the documents at `/openapi.json`, `/openapi.yaml`, `/mock-control.openapi.yaml`.\n\n' +
        `## Mock-only error codes\n\n${catalogTable(errorNames.filter(isMockOnly))}`,
    },
    servers: [{ url: 'http://localhost:4010', description: 'mediagen-mock' }],
    tags: controlTags,
    // open on this machine; with --control-token (or listening beyond it) every route but health needs the token
    security: [{}, { [CONTROL_TOKEN_SCHEME]: [] }],
  });
}
