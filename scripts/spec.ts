/**
 * Builds the OpenAPI 3.1 documents from the registry (DESIGN.md, "The one rule:
 * a single source"). Pure: returns objects; `build.ts` writes them.
 */
import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from '../schemas/zod.ts';
import { bearerApiKeyScheme, envelope, errorEnvelope } from '../schemas/common.ts';
import { errorCatalog, errorNames, type ErrorName } from '../schemas/errors.ts';
import { describeProvenance } from '../schemas/provenance.ts';
import { operationIds, operations, tags } from '../schemas/operations.ts';
import type { OperationDef } from '../schemas/registry-types.ts';
import { controlOperations, controlTags, type ControlOperation } from '../schemas/control.ts';

const RetryAfter = { 'Retry-After': { description: 'seconds to wait before retrying', schema: { type: 'integer' as const, minimum: 1 } } };

/** Groups an operation's errors by HTTP status. */
export function errorsByStatus(op: Pick<OperationDef, 'errors'>): Map<number, ErrorName[]> {
  const out = new Map<number, ErrorName[]>();
  for (const name of op.errors) {
    const status = errorCatalog[name].httpStatus;
    out.set(status, [...(out.get(status) ?? []), name]);
  }
  return out;
}

function describeErrors(names: readonly ErrorName[]): string {
  return names.map((n) => `- \`${errorCatalog[n].code}\` ${errorCatalog[n].meaning} (${describeProvenance(errorCatalog[n].provenance)})`).join('\n');
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

function routeConfig(op: OperationDef): RouteConfig {
  const responses: RouteConfig['responses'] = {
    [op.response.status]: {
      description: op.response.description,
      content: { 'application/json': { schema: op.response.kind === 'envelope' ? envelope(op.response.schema) : op.response.schema } },
    },
  };
  for (const [status, names] of [...errorsByStatus(op)].sort((a, b) => a[0] - b[0])) {
    responses[status] = {
      description: describeErrors(names),
      ...(status === 429 ? { headers: RetryAfter } : {}),
      content: { 'application/json': { schema: specErrorEnvelope(names) } },
    };
  }
  const failures = op.failureReasons?.length ? `\n\nA created task can fail with: ${op.failureReasons.map((n) => `${errorCatalog[n].code} (${errorCatalog[n].meaning})`).join(', ')}.` : '';
  return {
    method: op.method,
    path: op.path,
    operationId: op.operationId,
    tags: op.tags,
    summary: op.summary,
    description: `${op.description}${failures}\n\nSource: ${describeProvenance(op.provenance)}.`,
    ...(op.auth ? { security: [{ [bearerApiKeyScheme.name]: [] }] } : { security: [] }),
    request: {
      ...(op.request.params ? { params: op.request.params } : {}),
      ...(op.request.query ? { query: op.request.query } : {}),
      ...(op.request.body ? { body: { required: true, content: { 'application/json': { schema: op.request.body } } } } : {}),
    },
    responses,
    'x-provenance': describeProvenance(op.provenance),
    ...(op.rateLimit ? { 'x-rate-limit': { bucket: op.rateLimit.bucket, limit: op.rateLimit.limit, windowMs: op.rateLimit.windowMs } } : {}),
  } as RouteConfig;
}

/** The API document (spec/openapi.json and spec/openapi.yaml). */
export function buildApiDocument() {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', bearerApiKeyScheme.name, bearerApiKeyScheme.scheme);
  for (const id of operationIds) registry.registerPath(routeConfig(operations[id] as OperationDef));
  const doc = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Media Generation Service',
      version: '1.0.0',
      description:
        'Provider-neutral contract of the Media Generation Service (video, images, speech, music and more), emitted from the Zod schemas of mediagen-contract. ' +
        'Every field, limit and error code carries its provenance (`x-provenance`): a seed document and section, or "assumed" with the reason.\n\n' +
        `## Error catalog\n\n| code | HTTP | meaning | provenance |\n|---|---|---|---|\n${errorNames.map((n) => `| ${errorCatalog[n].code} | ${errorCatalog[n].httpStatus} | ${errorCatalog[n].meaning} | ${describeProvenance(errorCatalog[n].provenance)} |`).join('\n')}`,
    },
    servers: [{ url: 'http://localhost:4010', description: 'mediagen-mock (the stateful mock)' }],
    tags,
    security: [{ [bearerApiKeyScheme.name]: [] }],
  });
  return doc;
}

/** The control API document (spec/mock-control.openapi.yaml), kept apart from the API's. */
export function buildControlDocument() {
  const registry = new OpenAPIRegistry();
  for (const op of Object.values(controlOperations) as ControlOperation[]) {
    registry.registerPath({
      method: op.method,
      path: op.path,
      operationId: op.operationId,
      tags: ['Mock control'],
      summary: op.summary,
      description: op.description,
      request: {
        ...(op.params ? { params: op.params } : {}),
        ...(op.body ? { body: { required: op.bodyRequired ?? false, content: { 'application/json': { schema: op.body } } } } : {}),
      },
      responses: {
        200: { description: 'success', content: { 'application/json': { schema: op.response } } },
        ...(op.body || op.params ? { 400: { description: 'invalid request (the envelope with code 10002 or a validation code)', content: { 'application/json': { schema: ControlError } } } } : {}),
      },
    });
  }
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: { title: 'mediagen-mock control API', version: '1.0.0', description: 'The mock server\'s own control API under /__mock: health, reset, the virtual clock, accounts and their ledgers, scenario rules and the request journal. Not part of the Media Generation Service.' },
    servers: [{ url: 'http://localhost:4010' }],
    tags: controlTags,
  });
}

const ControlError = z.strictObject({ code: z.number().int(), message: z.string(), data: z.null() });
