/**
 * `verify(options)`: checks a running implementation of the Media Generation
 * Service (the service, a staging build, a gateway, the mock) against the
 * emitted contract, spec/openapi.json (docs/guides/verify.md):
 *
 * 1. every answer: a declared status; errors in the envelope with a code
 *    declared for that status; successes valid against the response schema
 *    (ajv 2020); the Content-Type of binary and event-stream answers;
 *    Retry-After on 429 and 503;
 * 2. request rules: a valid request is accepted, a body breaking each rule of
 *    its schema is refused with one of the operation's validation codes;
 * 3. lifecycles (`x-lifecycle`): create, poll, reach a terminal status through
 *    allowed moves only (and stay there); a success carries what it must and
 *    its media load with the declared Content-Type, duration and pixel size;
 * 4. credits (full mode): the balance moves by what the task says it cost, and
 *    a failed task is refunded (forced with `Prefer: outcome=failed`, --mock only);
 * 5. access: no key and a wrong key answer the 401 envelope; another key's
 *    task answers the contract's not-found or forbidden error.
 *
 * Safe mode (the default) sends reads, estimates and requests the contract
 * says are refused; full mode also creates tasks, within `budget` credits.
 */
import { createControlClient } from '../mock/web/controls.ts';
import { parseMp4, pngSize, decodeAudio } from './decoders.ts';
import { describeAjvError, loadPackageDocument, operationsOf, validatorsOf, type ApiDocument, type SpecOperation } from './document.ts';
import { brokenBodies, sampleValue } from './rules.ts';
import type { LifecycleDef, LifecycleMedia } from '../schemas/registry-types.ts';

export type { ApiDocument, SpecOperation } from './document.ts';

/** What `verify` checks and how. */
export interface VerifyOptions {
  /** The server's base URL, e.g. https://staging.example.com or http://127.0.0.1:4010. */
  baseUrl: string;
  /** The API key requests are sent with (Authorization: Bearer). */
  apiKey: string;
  /** A second key of another account: its reads of the first key's tasks must be refused. */
  secondApiKey?: string;
  /** Only these operationIds (a lifecycle needs its create operation selected). */
  operations?: string[];
  /** Only the operations of these tags (areas), e.g. Video, Image. */
  tags?: string[];
  /** safe (default): reads, estimates and refused requests, nothing created; full: tasks created within `budget`. */
  mode?: 'safe' | 'full';
  /** Credits full mode may spend (default 1000 on a loopback URL; required beyond it). */
  budget?: number;
  /** Varies the invented values (unknown ids, undeclared enum values). Default 1. */
  seed?: number;
  /** Requests in flight at once for the independent checks (default 4). */
  concurrency?: number;
  /** The server is mediagen-mock: move its virtual clock (POST /__mock/clock/advance) instead of waiting, and force failures with Prefer. Loopback only. */
  mock?: boolean;
  /** The document to verify against (default: the package's spec/openapi.json). */
  document?: ApiDocument;
  /** The fetch to send with (default the global fetch). */
  fetch?: (request: Request) => Promise<Response>;
  /** Progress lines (default: none). */
  onProgress?: (line: string) => void;
  /** Longest real wait for a Retry-After or a poll interval, ms (default 60 000). */
  maxWaitMs?: number;
}

/** The evidence of a failed check: the request, the answer, the rule broken. */
export interface Evidence {
  request: string;
  answer: string;
  detail: string;
}

/** One check of one operation. */
export interface CheckResult {
  operationId: string;
  tag: string;
  /** The rule checked, e.g. `status declared`, `body rule: maximum duration`, `transition allowed`. */
  rule: string;
  outcome: 'passed' | 'failed' | 'skipped';
  evidence?: Evidence;
}

/** One row of the summary table. */
export interface SummaryRow {
  operationId: string;
  tag: string;
  checks: number;
  passed: number;
  failed: number;
  skipped: number;
  firstFailure?: CheckResult;
}

/** What `verify` found. */
export interface VerifyReport {
  baseUrl: string;
  mode: 'safe' | 'full';
  ok: boolean;
  checks: CheckResult[];
  rows: SummaryRow[];
  /** Credits the run spent (balance before minus after, full mode). */
  creditsSpent: number;
  durationMs: number;
}

/** True for localhost, 127.0.0.0/8 and ::1. */
export function isLoopback(url: string): boolean {
  const h = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/** An answer as the verifier keeps it. */
interface Answer {
  status: number;
  headers: Headers;
  contentType: string;
  json?: unknown;
  bytes?: Uint8Array;
  requestLine: string;
}

const clip = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}...` : s);

/** Summarizes `checks` per operation. */
export function summarize(checks: CheckResult[]): SummaryRow[] {
  const rows = new Map<string, SummaryRow>();
  for (const c of checks) {
    let r = rows.get(c.operationId);
    if (!r) rows.set(c.operationId, (r = { operationId: c.operationId, tag: c.tag, checks: 0, passed: 0, failed: 0, skipped: 0 }));
    r.checks++;
    r[c.outcome]++;
    if (c.outcome === 'failed' && !r.firstFailure) r.firstFailure = c;
  }
  return [...rows.values()];
}

/**
 * Runs the checks. Throws (before sending anything) for a refused
 * configuration: `mock` against a non-loopback URL, full mode beyond loopback
 * without an explicit budget.
 */
export async function verify(options: VerifyOptions): Promise<VerifyReport> {
  const started = performance.now();
  const base = options.baseUrl.replace(/\/+$/, '');
  const mode = options.mode ?? 'safe';
  const loopback = isLoopback(base);
  if (options.mock && !loopback) throw new Error(`--mock moves a mock's clock: refused for ${base}, which is not a loopback address`);
  if (mode === 'full' && !loopback && options.budget === undefined)
    throw new Error(`full mode against ${base} (not loopback) creates paid tasks: give --budget explicitly`);
  const budget = options.budget ?? 1000;
  const seed = options.seed ?? 1;
  const maxWaitMs = options.maxWaitMs ?? 60_000;
  const send = options.fetch ?? ((r: Request) => fetch(r));
  const doc = options.document ?? loadPackageDocument();
  const validate = validatorsOf(doc);
  const all = operationsOf(doc);
  const byId = new Map(all.map((o) => [o.operationId, o]));
  const selected = all.filter((o) => (!options.operations || options.operations.includes(o.operationId)) && (!options.tags || options.tags.includes(o.tag)));
  const control = options.mock ? createControlClient({ baseUrl: base, fetch: send }) : undefined;
  const progress = options.onProgress ?? (() => {});
  const checks: CheckResult[] = [];
  let spent = 0;

  const record = (op: SpecOperation, rule: string, failure?: Evidence | false, skipped = false) =>
    checks.push({
      operationId: op.operationId,
      tag: op.tag,
      rule,
      outcome: skipped ? 'skipped' : failure ? 'failed' : 'passed',
      ...(failure ? { evidence: failure } : {}),
    });
  const evidence = (a: Answer, detail: string): Evidence => ({
    request: a.requestLine,
    answer: `${a.status} ${a.contentType} ${a.json !== undefined ? clip(JSON.stringify(a.json)) : `(${a.bytes?.length ?? 0} bytes)`}`,
    detail,
  });

  /** Moves the mock's clock, or waits (capped) on a real server. */
  async function pass(ms: number): Promise<void> {
    if (control) await control.advanceClock({ body: { ms } });
    else await new Promise((r) => setTimeout(r, Math.min(ms, maxWaitMs)));
  }

  /** Sends one request and reads the answer (event streams: headers only). */
  async function exchange(
    method: string,
    path: string,
    opts: { body?: unknown; key?: string | null; headers?: Record<string, string>; absolute?: boolean } = {},
  ): Promise<Answer> {
    const url = opts.absolute ? path : base + path;
    const headers = new Headers(opts.headers);
    const key = opts.key === undefined ? options.apiKey : opts.key;
    if (key !== null) headers.set('Authorization', `Bearer ${key}`);
    let body: string | undefined;
    if (opts.body !== undefined) {
      headers.set('Content-Type', 'application/json');
      body = JSON.stringify(opts.body);
    }
    const requestLine = `${method.toUpperCase()} ${path}${body ? ` ${clip(body, 200)}` : ''}${key === null ? ' (no key)' : key !== options.apiKey ? ' (another key)' : ''}`;
    const res = await send(new Request(url, { method: method.toUpperCase(), headers, body }));
    const contentType = res.headers.get('content-type') ?? '';
    const a: Answer = { status: res.status, headers: res.headers, contentType, requestLine };
    if (contentType.startsWith('text/event-stream')) await res.body?.cancel();
    else if (contentType.includes('json')) a.json = await res.json().catch(() => undefined);
    else a.bytes = new Uint8Array(await res.arrayBuffer());
    return a;
  }

  /** Checks an answer of `op` against everything the contract says of every answer. */
  function checkAnswer(op: SpecOperation, a: Answer): boolean {
    let ok = true;
    const fail = (rule: string, detail: string) => {
      ok = false;
      record(op, rule, evidence(a, detail));
    };
    if (!op.statuses.includes(a.status)) fail('status declared', `HTTP ${a.status} is not declared (declared: ${op.statuses.join(', ')})`);
    else if (a.status >= 400) {
      const env = a.json as { code?: unknown } | undefined;
      const declared = op.codes.get(a.status) ?? [];
      if (!a.contentType.includes('json') || typeof env?.code !== 'number')
        fail('error envelope', 'an error answer must be the JSON envelope {code, message, data}');
      else if (!declared.includes(env.code))
        fail('error code declared', `code ${env.code} is not declared for HTTP ${a.status} (declared: ${declared.join(', ')})`);
      else {
        const ptr = op.schemaPointer(a.status);
        const errors = ptr ? validate(ptr, a.json) : [];
        if (errors.length) fail('error envelope', errors.slice(0, 3).map(describeAjvError).join('; '));
      }
      if ((a.status === 429 || a.status === 503) && !/^\d+$/.test(a.headers.get('retry-after') ?? ''))
        fail('Retry-After', `HTTP ${a.status} without a Retry-After of whole seconds`);
    } else {
      const types = op.successTypes;
      const ct = a.contentType.split(';')[0].trim();
      if (!types.includes(ct)) fail('content type', `Content-Type ${ct || '(none)'} is not declared (declared: ${types.join(', ')})`);
      else if (ct === 'application/json') {
        const ptr = op.schemaPointer(a.status);
        const errors = ptr ? validate(ptr, a.json) : [];
        if (errors.length) fail('response schema', errors.slice(0, 3).map(describeAjvError).join('; '));
      }
    }
    if (ok) record(op, 'answer conforms');
    return ok;
  }

  /** Sends and checks; a 429 is checked, then waited out (Retry-After, or the mock's clock) and sent again, three times at most. */
  async function call(op: SpecOperation, path: string, opts: Parameters<typeof exchange>[2] = {}): Promise<Answer> {
    let a = await exchange(op.method, path, opts);
    for (let i = 0; i < 3 && a.status === 429; i++) {
      checkAnswer(op, a);
      const ra = Number(a.headers.get('retry-after'));
      // without a usable Retry-After: a minute on the mock's clock (a whole window), a second of real time
      const seconds = Number.isFinite(ra) && ra > 0 ? ra : control ? 60 : 1;
      await pass(seconds * 1000);
      a = await exchange(op.method, path, opts);
    }
    checkAnswer(op, a);
    return a;
  }

  async function pool<T>(items: T[], run: (t: T) => Promise<void>): Promise<void> {
    const queue = [...items];
    const n = Math.max(1, options.concurrency ?? 4);
    await Promise.all(
      Array.from({ length: Math.min(n, queue.length) }, async () => {
        for (let t = queue.shift(); t !== undefined; t = queue.shift()) await run(t);
      }),
    );
  }

  const missingId = `verify-missing-${seed}`;
  const fill = (op: SpecOperation, id = missingId) => op.path.replace(/\{\w+\}/g, encodeURIComponent(id));
  const dataOf = (a: Answer) => (a.json as { data?: Record<string, unknown> } | undefined)?.data;
  const isEstimate = (op: SpecOperation) => !op.charges && /estimate/i.test(op.path);
  /** Base bodies the contract itself says are valid: the lifecycles' examples and estimate bodies. */
  const declaredBodies = new Map<string, Record<string, unknown>>();
  for (const op of all) {
    if (!op.lifecycle) continue;
    declaredBodies.set(op.operationId, op.lifecycle.example);
    if (op.lifecycle.estimate) declaredBodies.set(op.lifecycle.estimate.operationId, op.lifecycle.estimate.body);
  }

  /** 2. A valid request is accepted; a body breaking each rule is refused with a validation code. */
  async function bodyRules(op: SpecOperation): Promise<void> {
    if (!op.jsonBody || op.pathParams.length) {
      if (op.multipart) record(op, 'body rules (multipart bodies are not derived)', false, true);
      return;
    }
    let body = declaredBodies.get(op.operationId);
    const declared = body !== undefined;
    body ??= sampleValue(doc, op.jsonBody) as Record<string, unknown> | undefined;
    if (!body || typeof body !== 'object') return;
    if (isEstimate(op)) {
      const a = await call(op, op.path, { body });
      const accepted = a.status === op.successStatus;
      if (!accepted && declared) record(op, 'valid request accepted', evidence(a, 'the declared example body was refused'));
      else if (!accepted) {
        record(op, 'valid request accepted (a body built from the schema was refused: no base for the body rules)', false, true);
        return;
      } else record(op, 'valid request accepted');
    } else if (!declared && !op.charges && op.auth === false) {
      // an unauthenticated non-charging operation (OAuth): rules only from a declared body
      return;
    }
    await pool(brokenBodies(doc, op.jsonBody, body, seed), async (broken) => {
      const a = await call(op, op.path, { body: broken.body });
      const rule = `body rule: ${broken.rule}`;
      const code = (a.json as { code?: number } | undefined)?.code;
      if (a.status < 400) record(op, rule, evidence(a, `a body breaking "${broken.rule}" was accepted (HTTP ${a.status})`));
      else if (a.status >= 500 || typeof code !== 'number') record(op, rule, evidence(a, `refused with HTTP ${a.status}, not a 4xx envelope`));
      else if (op.validationCodes.length && !op.validationCodes.includes(code) && ![402, 429].includes(a.status))
        record(op, rule, evidence(a, `refused with code ${code}, not the validation code (${op.validationCodes.join(', ')})`));
      else record(op, rule);
    });
  }

  /** Reads: GETs without path parameters must succeed; with an unknown id, a declared refusal. */
  async function reads(op: SpecOperation): Promise<void> {
    if (op.method !== 'get') return;
    // a web page (the sign-in page) is for a browser, opened from a link the API hands out: not read here
    if (op.successTypes.includes('text/html')) {
      record(op, 'web page (opened by a browser from a link the API gives: not read)', false, true);
      return;
    }
    if (op.successTypes.includes('text/event-stream') && op.pathParams.length) {
      const a = await call(op, fill(op));
      record(op, 'unknown id refused', a.status >= 400 && a.status < 500 ? false : evidence(a, `an unknown id answered HTTP ${a.status}`));
      return;
    }
    const a = await call(op, op.pathParams.length ? fill(op) : op.path);
    if (op.pathParams.length)
      record(op, 'unknown id refused', a.status >= 400 && a.status < 500 ? false : evidence(a, `an unknown id answered HTTP ${a.status}`));
    else record(op, 'valid request accepted', a.status === op.successStatus ? false : evidence(a, `expected HTTP ${op.successStatus}`));
  }

  /** 5. Access: no key and a wrong key answer 401 with a declared code. */
  async function access(op: SpecOperation): Promise<void> {
    for (const [label, key] of [
      ['missing key', null],
      ['invalid key', `not-a-valid-key-${seed}`],
    ] as const) {
      const a = await call(op, op.pathParams.length ? fill(op) : op.path, { key, body: op.jsonBody ? {} : undefined });
      record(op, `${label}: 401`, a.status === 401 ? false : evidence(a, `a request with a ${label} answered HTTP ${a.status}, not 401`));
    }
  }

  const balanceOp = byId.get('getSubscription');
  async function balance(): Promise<number | undefined> {
    if (!balanceOp) return undefined;
    const a = await call(balanceOp, balanceOp.path);
    const b = dataOf(a)?.balance;
    return typeof b === 'number' ? b : undefined;
  }

  const fieldAt = (obj: unknown, path: string): unknown[] => {
    let cur: unknown[] = [obj];
    for (const part of path.split('.')) {
      const many = part.endsWith('[]');
      const name = many ? part.slice(0, -2) : part;
      cur = cur.flatMap((c) => {
        const v = (c as Record<string, unknown> | null)?.[name];
        return many ? (Array.isArray(v) ? (v as unknown[]) : []) : [v];
      });
    }
    return cur;
  };

  /** Loads and decodes one media file of a successful task. */
  async function checkMedia(op: SpecOperation, task: Record<string, unknown>, m: LifecycleMedia): Promise<void> {
    const urls = fieldAt(task, m.urlField).filter((u): u is string => typeof u === 'string');
    if (!urls.length) return void record(op, `media ${m.urlField}`, { request: '', answer: clip(JSON.stringify(task)), detail: `no URL at ${m.urlField}` });
    // a duration beside the URL in the same array item (`tracks[].duration`), or one of the task's
    const durations = m.durationField ? fieldAt(task, m.durationField) : [];
    for (const [i, url] of urls.entries()) {
      const a = await exchange('get', url, { absolute: true, key: null });
      const ct = a.contentType.split(';')[0].trim();
      const rule = `media ${m.urlField}`;
      if (a.status !== 200) {
        record(op, `${rule}: loads`, evidence(a, `the media URL answered HTTP ${a.status}`));
        continue;
      }
      if (!m.contentTypes.includes(ct)) {
        record(op, `${rule}: content type`, evidence(a, `Content-Type ${ct} is not ${m.contentTypes.join(' or ')}`));
        continue;
      }
      record(op, `${rule}: content type`);
      const bytes = a.bytes ?? new Uint8Array();
      try {
        let durationS: number | undefined;
        let size: { width: number; height: number } | undefined;
        if (ct === 'video/mp4') {
          const { movie } = await parseMp4(bytes);
          durationS = movie.duration / movie.timescale;
          const v = movie.videoTracks[0];
          if (v) size = { width: v.video?.width ?? v.track_width, height: v.video?.height ?? v.track_height };
        } else if (ct === 'image/png') size = pngSize(bytes);
        else if (ct === 'audio/mpeg') durationS = (await decodeAudio(bytes, 'mp3')).durationMs / 1000;
        record(op, `${rule}: decodes`);
        const want = durations.length === urls.length ? durations[i] : durations[0];
        if (typeof want === 'number' && durationS !== undefined) {
          const off = Math.abs(durationS - want) > 0.5;
          record(op, `${rule}: duration`, off ? evidence(a, `decoded ${durationS.toFixed(3)} s, the task says ${m.durationField} ${want}`) : false);
        }
        const res = m.resolutionField ? task[m.resolutionField] : undefined;
        const short = typeof res === 'string' ? m.shortSides?.[res] : undefined;
        if (short !== undefined && size) {
          const got = Math.min(size.width, size.height);
          record(
            op,
            `${rule}: pixel size`,
            got !== short ? evidence(a, `decoded ${size.width}x${size.height}, ${m.resolutionField} ${String(res)} means a short side of ${short}`) : false,
          );
        }
      } catch (e) {
        record(op, `${rule}: decodes`, evidence(a, `does not decode as ${ct}: ${(e as Error).message}`));
      }
    }
  }

  /** 3 and 4. One task through its lifecycle, the balance around it; returns the task id. */
  async function lifecycle(op: SpecOperation, lc: LifecycleDef, forceFailure: boolean): Promise<string | undefined> {
    const poll = byId.get(lc.pollOperationId);
    if (!poll) return void record(op, 'lifecycle', { request: '', answer: '', detail: `poll operation ${lc.pollOperationId} is not in the document` });
    let cost: number | undefined;
    if (lc.estimate && byId.get(lc.estimate.operationId)) {
      const e = await call(byId.get(lc.estimate.operationId)!, byId.get(lc.estimate.operationId)!.path, { body: lc.estimate.body });
      const c = dataOf(e)?.[lc.estimate.creditsField];
      if (typeof c === 'number') cost = c;
    }
    if (cost !== undefined && spent + cost > budget)
      return void record(op, `lifecycle (skipped: ${cost} credits would pass the budget of ${budget})`, false, true);
    if (spent >= budget) return void record(op, `lifecycle (skipped: the budget of ${budget} credits is spent)`, false, true);
    const before = await balance();
    const label = forceFailure ? 'forced failure' : 'lifecycle';
    const created = await call(op, op.path, { body: lc.example, headers: forceFailure ? { Prefer: 'outcome=failed' } : {} });
    if (forceFailure && created.status === 400 && /INVALID_PREFER/.test(op.codeNames.get((created.json as { code?: number }).code ?? -1) ?? ''))
      return void record(op, 'forced failure (this operation cannot be forced to fail)', false, true);
    if (created.status !== op.successStatus)
      return void record(op, `${label}: valid request accepted`, evidence(created, `the declared example body answered HTTP ${created.status}`));
    record(op, `${label}: valid request accepted`);
    const id = dataOf(created)?.[lc.idField];
    if (typeof id !== 'string') return void record(op, `${label}: task id`, evidence(created, `no ${lc.idField} in the answer's data`));
    let last = dataOf(created)?.[lc.statusField] as string | undefined;
    const path = fill(poll, id);
    let waited = lc.firstPollMs;
    await pass(lc.firstPollMs);
    let task: Record<string, unknown> | undefined;
    let answer: Answer | undefined;
    let badMove = false;
    const observe = (a: Answer): string | undefined => {
      task = dataOf(a);
      const status = task?.[lc.statusField] as string | undefined;
      if (status === undefined) return last;
      if (last !== undefined && status !== last && !(lc.transitions[last] ?? []).includes(status)) {
        badMove = true;
        record(
          op,
          'transition allowed',
          evidence(a, `${lc.statusField} moved ${last} -> ${status}; allowed from ${last}: ${(lc.transitions[last] ?? []).join(', ') || 'nothing (terminal)'}`),
        );
      }
      return status;
    };
    for (;;) {
      answer = await call(poll, path);
      last = observe(answer);
      if (last !== undefined && lc.terminal.includes(last)) break;
      if (waited >= lc.timeoutMs || answer.status !== poll.successStatus) break;
      await pass(lc.intervalMs);
      waited += lc.intervalMs;
    }
    if (last === undefined || !lc.terminal.includes(last)) {
      record(op, `${label}: terminal status reached`, evidence(answer, `still ${last} after ${waited} ms (terminal: ${lc.terminal.join(', ')})`));
      return id;
    }
    record(op, `${label}: terminal status reached`);
    // a terminal status is final: one more read must say the same
    await pass(lc.intervalMs);
    const terminal = last;
    const finalTask = task!;
    const again = await call(poll, path);
    last = observe(again);
    if (!badMove) record(op, 'transition allowed');
    if (forceFailure) record(op, 'forced failure: failed', terminal === lc.success ? evidence(again, 'Prefer: outcome=failed, but the task succeeded') : false);
    else if (terminal === lc.success) {
      const missing = lc.successRequires.filter((f) => finalTask[f] === undefined || finalTask[f] === null);
      record(op, 'success carries', missing.length ? evidence(again, `a successful task lacks ${missing.join(', ')}`) : false);
      for (const m of lc.media ?? []) if (!missing.includes(m.urlField.split(/[.[]/)[0])) await checkMedia(op, finalTask, m);
    } else record(op, `${label}: succeeded`, evidence(again, `the task ended ${terminal}`));
    if (mode === 'full' && before !== undefined) {
      const after = await balance();
      if (after !== undefined) {
        const delta = before - after;
        spent += Math.max(0, delta);
        if (terminal !== lc.success)
          record(
            op,
            'credits: failure refunded',
            delta !== 0 ? { request: `${label} of ${id}`, answer: `balance ${before} -> ${after}`, detail: `a failed task kept ${delta} credits` } : false,
          );
        else {
          const charged = lc.chargedField ? finalTask[lc.chargedField] : cost;
          if (typeof charged === 'number') {
            record(
              op,
              'credits: balance moves as charged',
              delta !== charged
                ? {
                    request: `${label} of ${id}`,
                    answer: `balance ${before} -> ${after}`,
                    detail: `the balance moved by ${delta}, the contract says ${charged}`,
                  }
                : false,
            );
          }
        }
      }
    }
    return id;
  }

  /** Full mode: a charged operation without a lifecycle, sent once with a body built from its schema (examples, defaults): accepted, its answer checked (binary Content-Types included). */
  async function oneShot(op: SpecOperation): Promise<void> {
    if (spent >= budget) return void record(op, `valid request accepted (skipped: the budget of ${budget} credits is spent)`, false, true);
    const body = sampleValue(doc, op.jsonBody);
    const before = await balance();
    const a = await call(op, op.path, { body });
    record(
      op,
      'valid request accepted',
      a.status === op.successStatus ? false : evidence(a, `a body built from the schema's examples and defaults answered HTTP ${a.status}`),
    );
    const after = before === undefined ? undefined : await balance();
    if (before !== undefined && after !== undefined) spent += Math.max(0, before - after);
  }

  const tagsInOrder = [...new Set(selected.map((o) => o.tag))];
  for (const tag of tagsInOrder) {
    const ops = selected.filter((o) => o.tag === tag);
    const before = checks.length;
    await pool(ops, reads);
    for (const op of ops) if (op.method !== 'get' && (isEstimate(op) || op.lifecycle || op.charges || op.jsonBody)) await bodyRules(op);
    const accessOp = ops.find((o) => o.auth && o.method === 'get' && !o.pathParams.length) ?? ops.find((o) => o.auth);
    if (accessOp) await access(accessOp);
    for (const op of ops.filter((o) => o.lifecycle)) {
      if (mode !== 'full') {
        record(op, 'lifecycle (safe mode creates nothing)', false, true);
        continue;
      }
      const id = await lifecycle(op, op.lifecycle!, false);
      if (options.mock) await lifecycle(op, op.lifecycle!, true);
      else record(op, 'credits: failure refunded (needs --mock to force a failure)', false, true);
      const poll = byId.get(op.lifecycle!.pollOperationId);
      if (id && options.secondApiKey && poll) {
        const a = await call(poll, fill(poll, id), { key: options.secondApiKey });
        const name = poll.codeNames.get((a.json as { code?: number } | undefined)?.code ?? -1) ?? '';
        record(
          poll,
          "another key's task refused",
          a.status >= 400 && a.status < 500 && /NOT_FOUND|FORBIDDEN|NOT_OWNER/.test(name)
            ? false
            : evidence(a, `another key read the task: HTTP ${a.status} ${name}`),
        );
      }
    }
    if (mode === 'full') for (const op of ops.filter((o) => o.charges && !o.lifecycle && o.jsonBody && !o.pathParams.length)) await oneShot(op);
    const mine = checks.slice(before);
    const failed = mine.filter((c) => c.outcome === 'failed').length;
    progress(`${tag}: ${mine.length} checks, ${mine.length - failed} passed or skipped, ${failed} failed`);
  }
  const rows = summarize(checks);
  return {
    baseUrl: base,
    mode,
    ok: checks.every((c) => c.outcome !== 'failed'),
    checks,
    rows,
    creditsSpent: spent,
    durationMs: Math.round(performance.now() - started),
  };
}

/** The summary table as text: operation, checks, passed, failed, skipped, the first failure's rule and evidence. */
export function formatTable(report: VerifyReport): string {
  const head = ['operation', 'checks', 'passed', 'failed', 'skipped', 'first failure'];
  const lines = report.rows.map((r) => [
    r.operationId,
    String(r.checks),
    String(r.passed),
    String(r.failed),
    String(r.skipped),
    r.firstFailure
      ? `${r.firstFailure.rule}: ${r.firstFailure.evidence?.detail} | request: ${r.firstFailure.evidence?.request} | answer: ${clip(r.firstFailure.evidence?.answer ?? '', 160)}`
      : '',
  ]);
  const widths = head.slice(0, 5).map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (l: string[]) => [...l.slice(0, 5).map((c, i) => c.padEnd(widths[i])), l[5]].join('  ').trimEnd();
  const failed = report.checks.filter((c) => c.outcome === 'failed').length;
  return [
    fmt(head),
    ...lines.map(fmt),
    '',
    `${report.checks.length} checks, ${failed} failed, ${report.creditsSpent} credits spent, ${report.durationMs} ms (${report.mode} mode)`,
  ].join('\n');
}

const xml = (s: string) => s.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]!);

/** The report as JUnit XML: a testsuite per tag, a testcase per check (`operationId: rule`). */
export function toJUnit(report: VerifyReport): string {
  const tags = [...new Set(report.checks.map((c) => c.tag))];
  const suites = tags.map((tag) => {
    const cs = report.checks.filter((c) => c.tag === tag);
    const cases = cs.map((c) => {
      const inner =
        c.outcome === 'failed'
          ? `<failure message="${xml(c.evidence?.detail ?? c.rule)}">${xml(`request: ${c.evidence?.request}\nanswer: ${c.evidence?.answer}\nrule: ${c.rule}`)}</failure>`
          : c.outcome === 'skipped'
            ? '<skipped/>'
            : '';
      return `    <testcase classname="${xml(tag)}" name="${xml(`${c.operationId}: ${c.rule}`)}">${inner}</testcase>`;
    });
    const failures = cs.filter((c) => c.outcome === 'failed').length;
    const skipped = cs.filter((c) => c.outcome === 'skipped').length;
    return `  <testsuite name="${xml(tag)}" tests="${cs.length}" failures="${failures}" skipped="${skipped}">\n${cases.join('\n')}\n  </testsuite>`;
  });
  const failures = report.checks.filter((c) => c.outcome === 'failed').length;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="mediagen-verify" tests="${report.checks.length}" failures="${failures}" time="${report.durationMs / 1000}">\n${suites.join('\n')}\n</testsuites>\n`;
}
