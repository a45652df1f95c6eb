/**
 * The typed client's data module, client/catalog.generated.ts, rendered from
 * the API document (part of `npm run build`; `npm run check:generated` compares
 * it): every operation's method and path, which ones answer a page
 * (`{items, page, pageSize, total}`), which take multipart files and which answer
 * something else than the JSON envelope (audio, a page, a stream); the error
 * catalogue (`x-error-catalog`: name, code, HTTP status, failure reason); and,
 * of every create with `x-lifecycle`, what waiting for its task needs (the read
 * to poll and its path parameter, the status field, the terminal and success
 * states, the declared intervals and timeout, and the task's fields that carry a
 * failure's code and message). A new operation in the document gets the
 * client's helpers from here, without hand-written code (docs/guides/frontend.md,
 * "The client's helpers").
 */
import { format, resolveConfig } from 'prettier';

type Json = Record<string, unknown>;
interface Doc {
  paths: Record<string, Record<string, Json>>;
  components: { schemas: Record<string, Json> };
  'x-error-catalog': { code: number; name: string; httpStatus: number; failureReason?: string }[];
}
interface Lifecycle {
  statusField: string;
  terminal: string[];
  success: string;
  pollOperationId: string;
  idField: string;
  firstPollMs: number;
  intervalMs: number;
  timeoutMs: number;
  continues?: { operationId: string; bodyField?: string };
}

const methods = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];
/** Fields of a task that carry the code (or catalogue name, or failure reason) of its failure, in the order they are read. */
const failureCodeFields = ['failCode', 'errorCode', 'failReason'];
/** Fields of a task that carry a failure's message (`<code>: <meaning>` in some areas). */
const failureMessageFields = ['errorMessage', 'failMsg', 'failMessage', 'message'];

/** The client's data module (TypeScript source, formatted) for the API document `api`. */
export async function renderClientCatalog(api: unknown): Promise<string> {
  const doc = api as Doc;
  const deref = (s: unknown): Json | undefined => {
    const o = s as Json | undefined;
    return typeof o?.$ref === 'string' ? doc.components.schemas[o.$ref.split('/').pop()!] : o;
  };
  /** The `data` schema of an operation's 2xx JSON envelope. */
  const dataOf = (op: Json): Json | undefined => {
    const responses = op.responses as Record<string, Json>;
    for (const status of ['200', '201', '202']) {
      const content = responses[status]?.content as Record<string, Json> | undefined;
      const envelope = deref(content?.['application/json']?.schema);
      const data = deref((envelope?.properties as Json | undefined)?.data);
      if (data) return data;
    }
    return undefined;
  };

  const operations: Record<string, Json> = {};
  const byId = new Map<string, { path: string; op: Json }>();
  for (const [path, item] of Object.entries(doc.paths))
    for (const method of methods) {
      const op = item[method];
      if (!op || typeof op.operationId !== 'string') continue;
      byId.set(op.operationId, { path, op });
      const entry: Json = { method, path };
      const props = dataOf(op)?.properties as Json | undefined;
      // an answer that is not the JSON envelope (audio, a page, an event stream, a redirect): call() leaves it to openapi-fetch
      if (!dataOf(op)) entry.raw = true;
      if (method === 'get' && props && ['items', 'page', 'pageSize', 'total'].every((k) => k in props)) entry.list = true;
      const multipart = deref((op.requestBody as { content?: Record<string, Json> } | undefined)?.content?.['multipart/form-data']?.schema);
      if (multipart) {
        const files: Record<string, 'one' | 'many'> = {};
        for (const [name, raw] of Object.entries((multipart.properties ?? {}) as Record<string, Json>)) {
          const s = deref(raw)!;
          if (s.format === 'binary') files[name] = 'one';
          else if (s.type === 'array' && deref(s.items)?.format === 'binary') files[name] = 'many';
        }
        entry.files = files;
      }
      operations[op.operationId] = entry;
    }

  const lifecycles: Record<string, Json> = {};
  for (const [id, { op }] of byId) {
    const lc = op['x-lifecycle'] as Lifecycle | undefined;
    if (!lc) continue;
    const poll = byId.get(lc.pollOperationId);
    if (!poll) throw new Error(`${id}: x-lifecycle polls ${lc.pollOperationId}, which the document does not have`);
    const pathParams = [...poll.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    if (pathParams.length !== 1) throw new Error(`${id}: the read it polls (${poll.path}) must have one path parameter`);
    const task = (dataOf(poll.op)?.properties ?? {}) as Json;
    if (!(lc.statusField in task)) throw new Error(`${id}: the task of ${lc.pollOperationId} has no ${lc.statusField}`);
    const failure: Json = {};
    const codeField = failureCodeFields.find((f) => f in task);
    const messageField = failureMessageFields.find((f) => f in task);
    if (codeField) failure.code = codeField;
    if (messageField) failure.message = messageField;
    // a later stage names its task in the request (the path parameter named as idField, or bodyField), and its answer
    // may leave the id out: where waitFor(created) finds it then
    let idIn: Json | undefined;
    if (lc.continues) {
      const create = byId.get(id)!;
      if (lc.continues.bodyField) idIn = { body: lc.continues.bodyField };
      else if (create.path.includes(`{${lc.idField}}`)) idIn = { path: lc.idField };
      else throw new Error(`${id}: a later stage without bodyField must name its task in the path parameter {${lc.idField}}`);
    }
    lifecycles[id] = {
      poll: lc.pollOperationId,
      pathParam: pathParams[0],
      idField: lc.idField,
      statusField: lc.statusField,
      success: lc.success,
      terminal: lc.terminal,
      firstPollMs: lc.firstPollMs,
      intervalMs: lc.intervalMs,
      timeoutMs: lc.timeoutMs,
      failure,
      ...(idIn ? { idIn } : {}),
    };
  }

  const errors: Record<string, Json> = {};
  for (const e of doc['x-error-catalog']) errors[e.name] = { code: e.code, status: e.httpStatus, ...(e.failureReason ? { reason: e.failureReason } : {}) };

  const source = `/* Generated by \`npm run build\` from spec/openapi.json (scripts/client-catalog.ts). Do not edit. */
/** Every operation of the API: its method and path; \`list\` when it answers a page, \`files\` the multipart fields that carry files (one or many), \`raw\` when its answer is not the JSON envelope. */
export const operations = ${JSON.stringify(operations)} as const;

/** The error catalogue (\`x-error-catalog\`): each error's envelope code, HTTP status and, for a task's failure, the reason string it reports. */
export const errorCatalog = ${JSON.stringify(errors)} as const;

/** Of every create with \`x-lifecycle\`: the read to poll (its path parameter and the create answer's id field), the status field, the success and terminal states, the declared first poll, interval and timeout (ms), the task's fields that carry a failure's code and message; for a later stage, where its request names the task (\`idIn\`: a path parameter or a body field). */
export const lifecycles = ${JSON.stringify(lifecycles)} as const;
`;
  return format(source, { ...(await resolveConfig('client/catalog.generated.ts')), parser: 'typescript' });
}
