/**
 * The proxy's checks of the upstream's answers (docs/guides/proxy.md, "Drift checks"): each answer the proxy passes
 * on is judged with the verifier's own checks (verify/answers.ts `answerProblems`: the status and the envelope code
 * declared for the operation, the body valid against the emitted document with ajv, the Content-Type, Retry-After
 * on 429 and 503), and across answers: the moves between the statuses of one task seen by its creates and polls
 * (the `x-lifecycle` transitions of the document) and the Content-Type of the media the tasks point to, when the
 * proxy sees those media. A violation names the request, the contract rule and the detail.
 */
import { answerProblems, type Answer } from '../../../verify/answers.ts';
import { loadPackageDocument, operationsOf, validatorsOf, type ApiDocument, type SpecOperation } from '../../../verify/document.ts';
import { fieldAt } from '../../../verify/media.ts';
import type { LifecycleDef } from '../../../schemas/registry-types.ts';

/** One contract rule an upstream answer broke. */
export interface Violation {
  /** The contract rule, as the verifier names it: `status declared`, `error code declared`, `response schema`, `content type`, `Retry-After`, `transition allowed`, `media content type`... */
  rule: string;
  /** What failures of one root cause share, e.g. `response schema: /data/status enum`. */
  cause: string;
  /** The detail: what was seen and what the document declares. */
  detail: string;
}

/** An upstream answer as the checker reads it: the request it answered and what came back (the body cut to the cap). */
export interface CheckedAnswer {
  operationId: string;
  method: string;
  /** The path of the request (without the query, without a session prefix). */
  path: string;
  /** The path parameters the route matched. */
  params: Record<string, string>;
  /** The world the request acted in: a session name, or null for the default one (task ids are scoped by it). */
  session: string | null;
  status: number;
  headers: Headers;
  /** The body bytes; undefined for an event stream (its head is checked, not its frames). */
  body?: Uint8Array;
  /** The body passed the check cap: only the status and headers are checked. */
  tooLarge?: boolean;
}

/** Most tasks whose last status is remembered, and most media URLs whose Content-Type is expected; oldest forgotten first. */
const REMEMBERED = 10_000;

/** A Map that forgets its oldest entry beyond `max` (insertion order; a set moves the key to the end). */
class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly max: number) {
    super();
  }
  override set(key: K, value: V): this {
    this.delete(key);
    super.set(key, value);
    if (this.size > this.max) this.delete(this.keys().next().value as K);
    return this;
  }
}

/** The task of an envelope (or a raw body): its `data`, else the body itself. */
function taskOf(json: unknown): Record<string, unknown> | undefined {
  if (!json || typeof json !== 'object') return undefined;
  const data = (json as { data?: unknown }).data;
  return data && typeof data === 'object' ? (data as Record<string, unknown>) : (json as Record<string, unknown>);
}

/**
 * Judges upstream answers against one API document (default: the package's spec/openapi.json). Keeps, per world,
 * the last status seen of each task (at most 10,000) and the media URLs the tasks pointed to with their declared
 * Content-Types (at most 10,000).
 */
export class ContractChecker {
  private readonly byId = new Map<string, SpecOperation>();
  private readonly validate: ReturnType<typeof validatorsOf>;
  /** The lifecycles whose tasks each operation creates (its `x-lifecycle`) or reads (the lifecycle's poll operation). */
  private readonly creates = new Map<string, LifecycleDef>();
  private readonly polls = new Map<string, LifecycleDef[]>();
  /** `<session>\u0000<poll operationId>\u0000<task id>` -> last status seen. */
  private readonly statuses = new BoundedMap<string, string>(REMEMBERED);
  /** The path of a media URL a task pointed to (a session's prefix included) -> the Content-Types the document declares for it. */
  private readonly media = new BoundedMap<string, readonly string[]>(REMEMBERED);

  constructor(doc: ApiDocument = loadPackageDocument()) {
    for (const op of operationsOf(doc)) {
      this.byId.set(op.operationId, op);
      const lc = op.lifecycle;
      if (!lc) continue;
      this.creates.set(op.operationId, lc);
      this.polls.set(lc.pollOperationId, [...(this.polls.get(lc.pollOperationId) ?? []), lc]);
    }
    this.validate = validatorsOf(doc);
  }

  /** The document's operation `operationId`, if it has one. */
  operation(operationId: string): SpecOperation | undefined {
    return this.byId.get(operationId);
  }

  /** What the contract says of `a`: the violations found (none: it conforms). */
  check(a: CheckedAnswer): Violation[] {
    const op = this.byId.get(a.operationId);
    if (!op) return [];
    const contentType = a.headers.get('content-type') ?? '';
    const answer: Answer = { status: a.status, headers: a.headers, contentType, requestLine: `${a.method} ${a.path}`, durationMs: 0 };
    let json: unknown;
    if (a.body && !a.tooLarge) {
      if (contentType.includes('json'))
        try {
          json = JSON.parse(new TextDecoder().decode(a.body));
        } catch {
          answer.bytes = a.body;
        }
      else answer.bytes = a.body;
    }
    answer.json = json;
    if (a.tooLarge) {
      // the body is not judged: the status, the declared code (unknown) and the headers are; schema rules are left out
      const problems = answerProblems(op, { ...answer, json: undefined }, () => []);
      return problems.filter((p) => p.violation !== 'error envelope' && p.violation !== 'error code declared').map(toViolation);
    }
    const out = answerProblems(op, answer, this.validate).map(toViolation);
    if (a.status >= 200 && a.status < 300 && json !== undefined) out.push(...this.lifecycleProblems(a, op, json));
    return out;
  }

  /** The moves of the task `a` created or read, against the lifecycle's transitions; remembers its media URLs. */
  private lifecycleProblems(a: CheckedAnswer, op: SpecOperation, json: unknown): Violation[] {
    const task = taskOf(json);
    if (!task) return [];
    const out: Violation[] = [];
    const session = a.session ?? '';
    const created = this.creates.get(op.operationId);
    if (created) {
      const id = task[created.idField];
      const status = task[created.statusField];
      if (typeof id === 'string' && typeof status === 'string') this.statuses.set(`${session}\u0000${created.pollOperationId}\u0000${id}`, status);
    }
    const id = Object.values(a.params)[0];
    for (const lc of id === undefined ? [] : (this.polls.get(op.operationId) ?? [])) {
      const status = task[lc.statusField];
      if (typeof status !== 'string') continue;
      const key = `${session}\u0000${op.operationId}\u0000${id}`;
      const last = this.statuses.get(key);
      // polls come when the caller likes: statuses in between may be missed, so a move is judged by what is reachable
      if (last !== undefined && last !== status && lc.states.includes(last) && !reachable(lc, last).has(status))
        out.push({
          rule: 'transition allowed',
          cause: `transition allowed: ${last} -> ${status}`,
          detail: `task ${id} moved from ${last} to ${status}; from ${last} the document allows only ${[...reachable(lc, last)].join(', ') || 'no move'} (directly or through other statuses)`,
        });
      this.statuses.set(key, status);
      for (const m of lc.media ?? [])
        for (const url of fieldAt(task, m.urlField))
          if (typeof url === 'string') {
            const path = pathOf(url);
            if (path) this.media.set(path, m.contentTypes);
          }
      break; // the poll operation's lifecycles share their statuses
    }
    return out;
  }

  /**
   * What the contract says of a media answer the proxy passed on: a 200 of a URL a task pointed to must carry one of
   * the Content-Types the lifecycle declares for it. `path` is the request's path as sent (a session prefix
   * included). Undefined when the URL is not one a checked task named.
   */
  checkMedia(path: string, status: number, headers: Headers): Violation[] | undefined {
    const types = this.media.get(path);
    if (!types) return undefined;
    if (status !== 200 && status !== 206) return [];
    const ct = (headers.get('content-type') ?? '').split(';')[0].trim();
    return types.includes(ct)
      ? []
      : [{ rule: 'media content type', cause: `media content type: ${ct || '(none)'}`, detail: `Content-Type ${ct || '(none)'} is not ${types.join(' or ')}` }];
  }
}

/** The statuses reachable from `from` through the lifecycle's moves (one or more). */
function reachable(lc: LifecycleDef, from: string): Set<string> {
  const seen = new Set<string>();
  const todo = [...(lc.transitions[from] ?? [])];
  while (todo.length) {
    const s = todo.pop()!;
    if (seen.has(s)) continue;
    seen.add(s);
    todo.push(...(lc.transitions[s] ?? []));
  }
  return seen;
}

const toViolation = (p: { violation: string; cause: string; detail: string }): Violation => ({ rule: p.violation, cause: p.cause, detail: p.detail });

/** The path of an absolute or relative URL, undefined when it is not one. */
function pathOf(url: string): string | undefined {
  try {
    return new URL(url, 'http://x').pathname;
  } catch {
    return undefined;
  }
}
