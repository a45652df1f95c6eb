/**
 * Runs request bodies written by hand from a source document (test/document-rules-2.test.ts, -3.test.ts) two ways:
 * the mock in process (its fetch: each case from a key of its own with a paid plan and credits to spare, rate limits
 * off, strict mode), and ajv (JSON Schema 2020-12) over the request schema of the emitted spec/openapi.json. The
 * expected answers are the document's, never read from the mock's rule table; the figures say how often each side
 * answers as the document does.
 */
import { createMock, type InProcessMock } from '../mock/index.ts';
import { operations, type OperationId } from '../schemas/operations.ts';
import type { OperationDef } from '../schemas/registry-types.ts';
import type { Body } from './factories.ts';
import { encode, specValidators } from './rule-agreement.ts';
import type { CaseFile } from './rule-cases.ts';

/**
 * What the document says of a body: accepted (a 2xx, code 0 or a binary answer), refused with a status and code, or
 * refused with HTTP 400 and a code the document does not number (`400`: any non-zero code).
 */
export type Expected = 'accepted' | 400 | { status: number; code: number };

/** One hand-written case. */
export interface DocumentCase {
  /** "document N, section": where the rule and the expected answer come from. */
  source: string;
  what: string;
  /** The operation of the document's method and path. */
  op: OperationId;
  /** A JSON body, or a multipart form's fields (a file as `file()`, a repeated file field as an array of them). */
  body: Body;
  expected: Expected;
  /**
   * Why no JSON Schema judges this case, when none does: the rule reads state the body does not hold (the speakers an
   * account may use), or the spec states it in words and `x-rules` only (two decimals, a combined length, a file's
   * size). ajv is not asked.
   */
  notInSchema?: string;
  /**
   * Makes the state the case needs on its mock with its key (a completed clone to confirm, an episode whose script to
   * edit): the path parameters, and body fields merged over `body`.
   */
  setup?: (mock: InProcessMock, key: string) => Promise<{ params?: Record<string, string>; body?: Body }>;
}

/** A file of a multipart case. */
export const file = (name: string, bytes: Uint8Array): CaseFile => ({ kind: 'case-file', name, bytes });

/** The outcome of a run: the cases each side answered otherwise than the document, and how many ajv was asked. */
export interface DocumentRun {
  cases: number;
  mockDiffer: string[];
  ajvAsked: number;
  ajvDiffer: string[];
}

/** Sends every case to a fresh in-process mock and to ajv over spec/openapi.json. */
export async function runDocumentCases(cases: DocumentCase[], seed: number): Promise<DocumentRun> {
  const validatorOf = specValidators();
  const mock = createMock({ seed, strict: true, rateLimit: false });
  const run: DocumentRun = { cases: cases.length, mockDiffer: [], ajvAsked: 0, ajvDiffer: [] };
  try {
    for (const [i, c] of cases.entries()) {
      const op = operations[c.op] as OperationDef;
      const key = `mg_docc${seed}x${i}_secret`;
      mock.setAccount(key, { credits: 1_000_000_000, plan: 'paid' });
      const made = c.setup ? await c.setup(mock, key) : {};
      const body = { ...c.body, ...made.body };
      const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(made.params?.[name] ?? name));
      const { ajv, init } = encode(op, body);
      const name = `${c.source}: ${c.what}`;
      const res = await mock.fetch(path, {
        ...init,
        method: op.method.toUpperCase(),
        headers: { authorization: `Bearer ${key}`, ...(init.headers as Record<string, string> | undefined) },
      });
      // a binary success (speech audio) carries no envelope
      const isJson = res.headers.get('content-type')?.includes('json');
      const json = (isJson ? await res.json() : (await res.body?.cancel(), { code: 0, message: '' })) as { code: number; message: string };
      const accepted = res.status >= 200 && res.status < 300 && json.code === 0;
      const agrees =
        c.expected === 'accepted'
          ? accepted
          : c.expected === 400
            ? res.status === 400 && typeof json.code === 'number' && json.code !== 0
            : res.status === c.expected.status && json.code === c.expected.code;
      if (!agrees) run.mockDiffer.push(`${name}: expected ${JSON.stringify(c.expected)}, got ${res.status} ${json.code} ${json.message}`);
      if (c.notInSchema) continue;
      run.ajvAsked++;
      const validate = validatorOf(op);
      if (validate(ajv) !== (c.expected === 'accepted'))
        run.ajvDiffer.push(
          `${name}: expected ${c.expected === 'accepted' ? 'valid' : 'invalid'}, ajv: ${validate.errors?.map((e) => `${e.instancePath} ${e.message}`).join('; ') ?? 'valid'}`,
        );
    }
  } finally {
    await mock.close();
  }
  return run;
}

/** One line of a run's figures. */
export function describeRun(document: string, run: DocumentRun): string {
  return (
    `[${document} rules] the mock answered ${run.cases - run.mockDiffer.length} of ${run.cases} hand-written cases as ${document} says; ` +
    `ajv over spec/openapi.json judged ${run.ajvAsked - run.ajvDiffer.length} of the ${run.ajvAsked} cases a schema can carry as ${document} does`
  );
}
