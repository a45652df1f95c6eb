/**
 * The mock's dashboard at /__mock/ui (docs/guides/dashboard.md): the clock,
 * tasks of every area live, accounts and ledgers, forcing, the journal,
 * sessions and OAuth users, built on the control API only (./api.ts).
 * Preact with htm, bundled by scripts/ui-build.mjs into dist/ui/.
 */
import { h, render, type VNode } from 'preact';
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import htmDefault from 'htm';
import { plans } from '../../schemas/plans.ts';
import type { z } from '../../schemas/zod.ts';
import type {
  AccountPage as AccountPageSchema,
  ClockState,
  JournalEntry,
  LoginSessionInfo,
  NextEvent as NextEventSchema,
  OAuthUser,
  OperationSummary as OperationSummarySchema,
  Scenario,
  SessionInfo,
} from '../../schemas/control.ts';
import { apiGet, control, CONTROL_FORBIDDEN, followActivity, initialCtx, MockError, saveCtx, type Ctx, type TaskActivity } from './api.ts';
import { formatClockTime, formatDuration, formatTime, mediaIn, readOperationOf, readPath, type MediaRef } from './media.ts';

// htm's typings read as CommonJS under NodeNext; the bundle gets its ES module, whose default export is htm itself
const htm = htmDefault as unknown as { bind(f: typeof h): unknown };
const html = htm.bind(h) as (strings: TemplateStringsArray, ...values: unknown[]) => VNode;

// ---------------------------------------------------------------------------
// Shapes of the control API's answers (schemas/control.ts)
// ---------------------------------------------------------------------------

// The control API's answers, typed from its schemas (type-only: nothing of Zod reaches the page's bundle).
type Clock = z.infer<typeof ClockState>;
type NextEvent = z.infer<typeof NextEventSchema>;
type OperationSummary = z.infer<typeof OperationSummarySchema>;
type AccountPage = z.infer<typeof AccountPageSchema>;
type User = z.infer<typeof OAuthUser>;
type LoginSession = z.infer<typeof LoginSessionInfo>;

/** A task as the page follows it: its changes of status, and its result once it has ended. */
interface TaskView {
  taskId: string;
  area: string;
  apiKey: string;
  history: { status: string; at: number }[];
  terminal: boolean;
  lastSeq: number;
}

/** Runs an action of the page: reports its error, refreshes the panels. */
type Run = (what: () => Promise<unknown>) => Promise<boolean>;

const items = <T>(x: { items: T[] } | undefined): T[] => x?.items ?? [];

/** GET `path` of the control API whenever `tick` or the context changes; `undefined` until the first answer. */
function useControl<T>(ctx: Ctx, path: string | null, tick: number, onError: (e: unknown) => void): T | undefined {
  const [data, setData] = useState<T | undefined>(undefined);
  useEffect(() => {
    if (path === null) return;
    let live = true;
    control<T>(ctx, 'GET', path).then(
      (d) => live && setData(d),
      (e) => live && onError(e),
    );
    return () => {
      live = false;
    };
  }, [path, tick, ctx.token, ctx.session]);
  return data;
}

// ---------------------------------------------------------------------------
// The clock
// ---------------------------------------------------------------------------

function ClockPanel(p: { ctx: Ctx; tick: number; run: Run; onError: (e: unknown) => void; onNow: (now: number) => void }) {
  const clock = useControl<Clock>(p.ctx, '/__mock/clock', p.tick, p.onError);
  useEffect(() => {
    if (clock) p.onNow(clock.now);
  }, [clock]);
  const next = useControl<NextEvent>(p.ctx, '/__mock/clock/next', p.tick, p.onError);
  const [last, setLast] = useState('');
  // real mode: the speed as measured between polls since the page last moved the clock
  const sample = useRef<{ now: number; wall: number } | null>(null);
  const [speed, setSpeed] = useState<number | null>(null);
  useEffect(() => {
    if (!clock || clock.mode !== 'real') return;
    const wall = performance.now();
    if (!sample.current) sample.current = { now: clock.now, wall };
    else if (wall - sample.current.wall >= 2000) setSpeed((clock.now - sample.current.now) / (wall - sample.current.wall));
  }, [clock]);
  const advance = (ms: number) =>
    p.run(async () => {
      const r = await control<{ now: number; eventsRun: number }>(p.ctx, 'POST', '/__mock/clock/advance', { ms });
      sample.current = null;
      setLast(`moved ${formatDuration(ms)}, ${r.eventsRun} event${r.eventsRun === 1 ? '' : 's'} ran`);
    });
  const toNext = () =>
    p.run(async () => {
      const n = await control<NextEvent>(p.ctx, 'GET', '/__mock/clock/next');
      if (n.inMs === null) return setLast('nothing is scheduled');
      const r = await control<{ now: number; eventsRun: number }>(p.ctx, 'POST', '/__mock/clock/advance', { ms: n.inMs });
      sample.current = null;
      setLast(`moved ${formatDuration(n.inMs)}, ${r.eventsRun} event${r.eventsRun === 1 ? '' : 's'} ran`);
    });
  return html`<section class="clock" aria-labelledby="clock-h">
    <h2 id="clock-h">Clock</h2>
    <dl>
      <dt>Virtual time</dt>
      <dd data-testid="virtual-time">${clock ? formatTime(clock.now) : '…'}</dd>
      <dt>Mode</dt>
      <dd>${clock?.mode ?? '…'}</dd>
      <dt>Speed</dt>
      <dd>${clock?.mode === 'manual' ? 'moves when advanced' : speed === null ? 'measuring…' : `≈ ×${Number(speed.toPrecision(2))}`}</dd>
      <dt>Next event</dt>
      <dd data-testid="next-event">${!next ? '…' : next.inMs === null ? 'nothing scheduled' : `in ${formatDuration(next.inMs)}`}</dd>
    </dl>
    <div class="buttons">
      <button type="button" onClick=${() => advance(10_000)}>Advance 10 s</button>
      <button type="button" onClick=${() => advance(60_000)}>Advance 1 min</button>
      <button type="button" onClick=${toNext} disabled=${next?.inMs === null}>Advance to next event</button>
    </div>
    <p role="status" class="note">${last}</p>
  </section>`;
}

// ---------------------------------------------------------------------------
// Tasks
// ---------------------------------------------------------------------------

const MAX_TASK_ROWS = 100;

function Media(p: { m: MediaRef; taskId: string }) {
  const label = `${p.m.where} of ${p.taskId}`;
  if (p.m.kind === 'image') return html`<a href=${p.m.url} target="_blank" rel="noopener"><img src=${p.m.url} alt=${label} loading="lazy" /></a>`;
  if (p.m.kind === 'audio') return html`<audio controls preload="metadata" src=${p.m.url} aria-label=${label}></audio>`;
  if (p.m.kind === 'video') return html`<video controls preload="metadata" src=${p.m.url} aria-label=${label}></video>`;
  return html`<a href=${p.m.url} target="_blank" rel="noopener">${p.m.where}</a>`;
}

/** The first text field of a failed task that says why (failMsg, failReason, errorMessage...). */
function failureText(task: unknown): string | undefined {
  if (!task || typeof task !== 'object') return undefined;
  for (const [k, v] of Object.entries(task)) if (/fail|error/i.test(k) && typeof v === 'string' && v) return `${k}: ${v}`;
  return undefined;
}

function TaskRow(p: { t: TaskView; ctx: Ctx; paths: Map<string, string> | undefined; onKey: (k: string) => void }) {
  const { t } = p;
  const [result, setResult] = useState<{ media: MediaRef[]; failure?: string } | { error: string } | null>(null);
  const status = t.history[t.history.length - 1]?.status ?? '';
  const readOp = readOperationOf[t.area];
  const template = readOp ? p.paths?.get(readOp) : undefined;
  // the result is read once the task has ended, with its owner's key (the API, for nothing but its media)
  useEffect(() => {
    if (!t.terminal || status === 'deleted' || !template || result) return;
    apiGet<unknown>(p.ctx, readPath(template, t.taskId), t.apiKey).then(
      (task) => setResult({ media: mediaIn(task, location.origin), failure: failureText(task) }),
      (e) => setResult({ error: e instanceof MockError ? `${e.status} ${e.code ?? ''} ${e.message}` : String(e) }),
    );
  }, [t.terminal, template, status]);
  const start = t.history[0]?.at ?? 0;
  return html`<tr data-task=${t.taskId}>
    <td><code>${t.taskId}</code></td>
    <td>${t.area}</td>
    <td><button type="button" class="link" onClick=${() => p.onKey(t.apiKey)}>${t.apiKey}</button></td>
    <td><span class=${`status s-${status}`} data-testid="status">${status}</span></td>
    <td class="history">
      ${t.history.map(
        (s, i) =>
          html`<span key=${i}
            >${i ? ' → ' : ''}${s.status} <time title=${formatTime(s.at)}>${i ? `+${formatDuration(s.at - start)}` : formatTime(s.at).slice(11)}</time></span
          >`,
      )}
    </td>
    <td class="result">
      ${
        !t.terminal
          ? ''
          : !readOp
            ? html`<span class="note">no read operation</span>`
            : !result
              ? '…'
              : 'error' in result
                ? html`<span class="bad">${result.error}</span>`
                : html`${result.failure ? html`<span class="bad">${result.failure}</span>` : ''}
                  ${result.media.map((m) => html`<${Media} key=${m.url} m=${m} taskId=${t.taskId} />`)}
                  ${!result.failure && result.media.length === 0 ? html`<span class="note">no media</span>` : ''}`
      }
    </td>
  </tr>`;
}

function TasksPanel(p: { tasks: TaskView[]; live: boolean; ctx: Ctx; paths: Map<string, string> | undefined; onKey: (k: string) => void }) {
  const [area, setArea] = useState('');
  const areas = [...new Set(p.tasks.map((t) => t.area))].sort();
  const shown = p.tasks.filter((t) => !area || t.area === area).slice(0, MAX_TASK_ROWS);
  return html`<section class="tasks wide" aria-labelledby="tasks-h">
    <h2 id="tasks-h">Tasks <span class=${p.live ? 'live' : 'offline'}>${p.live ? 'live' : 'reconnecting…'}</span></h2>
    <div class="field">
      <label for="area-filter">Area</label
      ><select id="area-filter" value=${area} onChange=${(e: Event) => setArea((e.target as HTMLSelectElement).value)}>
        <option value="">every area</option>
        ${areas.map((a) => html`<option key=${a} value=${a}>${a}</option>`)}
      </select>
    </div>
    <table>
      <thead>
        <tr>
          <th scope="col">Task</th>
          <th scope="col">Area</th>
          <th scope="col">Owner</th>
          <th scope="col">Status</th>
          <th scope="col">History (virtual time)</th>
          <th scope="col">Result</th>
        </tr>
      </thead>
      <tbody>
        ${
          shown.length === 0
            ? html`<tr>
                <td colspan="6" class="note">No task yet: create one through the API.</td>
              </tr>`
            : ''
        }
        ${shown.map((t) => html`<${TaskRow} key=${t.taskId} t=${t} ctx=${p.ctx} paths=${p.paths} onKey=${p.onKey} />`)}
      </tbody>
    </table>
    ${p.tasks.length > shown.length && !area ? html`<p class="note">the newest ${MAX_TASK_ROWS} of ${p.tasks.length} tasks</p>` : ''}
  </section>`;
}

// ---------------------------------------------------------------------------
// Accounts
// ---------------------------------------------------------------------------

const LEDGER_PAGE = 200;

function AccountsPanel(p: { ctx: Ctx; tick: number; run: Run; onError: (e: unknown) => void; keys: string[]; selected: string; select: (k: string) => void }) {
  const [typed, setTyped] = useState('');
  const [account, setAccount] = useState<AccountPage | null>(null);
  const [credits, setCredits] = useState('');
  const [plan, setPlan] = useState('');
  useEffect(() => {
    if (!p.selected) return setAccount(null);
    let live = true;
    const path = (page: number) => `/__mock/accounts/${encodeURIComponent(p.selected)}?ledgerPageSize=${LEDGER_PAGE}&ledgerPage=${page}`;
    (async () => {
      let a = await control<AccountPage>(p.ctx, 'GET', path(1));
      // the latest entries are on the last page
      if (a.ledgerTotal > LEDGER_PAGE) a = await control<AccountPage>(p.ctx, 'GET', path(Math.ceil(a.ledgerTotal / LEDGER_PAGE)));
      if (live) setAccount(a);
    })().catch((e) => live && p.onError(e));
    return () => {
      live = false;
    };
  }, [p.selected, p.tick, p.ctx.token, p.ctx.session]);
  // the form starts from the account's values when another account is shown
  useEffect(() => {
    setCredits(account ? String(account.credits) : '');
    setPlan(account?.plan ?? '');
  }, [account?.apiKey]);
  const save = (e: Event) => {
    e.preventDefault();
    if (!account) return;
    const body: Record<string, unknown> = {};
    if (credits !== '' && Number(credits) !== account.credits) body.credits = Number(credits);
    if (plan && plan !== account.plan) body.plan = plan;
    if (Object.keys(body).length === 0) return;
    void p.run(() => control(p.ctx, 'PUT', `/__mock/accounts/${encodeURIComponent(account.apiKey)}`, body));
  };
  const open = (e: Event) => {
    e.preventDefault();
    if (typed.trim()) p.select(typed.trim());
    setTyped('');
  };
  let running = account && account.ledger.length ? account.ledger[0].balance - account.ledger[0].amount : 0;
  return html`<section aria-labelledby="accounts-h">
    <h2 id="accounts-h">Accounts</h2>
    <div class="row">
      <div class="field">
        <label for="account-key">Account</label
        ><select id="account-key" value=${p.selected} onChange=${(e: Event) => p.select((e.target as HTMLSelectElement).value)}>
          <option value="">choose a key</option>
          ${p.keys.map((k) => html`<option key=${k} value=${k}>${k}</option>`)}
        </select>
      </div>
      <form onSubmit=${open} class="inline">
        <div class="field">
          <label for="other-key">Other API key</label
          ><input id="other-key" value=${typed} onInput=${(e: Event) => setTyped((e.target as HTMLInputElement).value)} placeholder="mg_<keyId>_<secret>" />
        </div>
        <button type="submit">Open account</button>
      </form>
    </div>
    ${
      account &&
      html`<div>
        <dl>
          <dt>Balance</dt>
          <dd data-testid="balance">${account.credits} credits</dd>
          <dt>Plan</dt>
          <dd>${account.plan}${account.everPaid ? ' (has paid)' : ' (never paid)'}</dd>
          <dt>Free usages</dt>
          <dd>
            ${
              Object.keys(account.freeUsages).length === 0
                ? 'none'
                : Object.entries(account.freeUsages)
                    .map(([m, n]) => `${m}: ${n}`)
                    .join(', ')
            }
          </dd>
          ${
            account.voiceClone &&
            html`<dt>Voice cloning</dt>
              <dd>${account.voiceClone.confirmationsUsed} of ${account.voiceClone.quota} confirmations used, ${account.voiceClone.maxSpeakers} voice slots</dd>`
          }
        </dl>
        <form onSubmit=${save} class="inline">
          <div class="field">
            <label for="account-credits">Balance (credits)</label
            ><input
              id="account-credits"
              type="number"
              min="0"
              step="1"
              value=${credits}
              onInput=${(e: Event) => setCredits((e.target as HTMLInputElement).value)}
            />
          </div>
          <div class="field">
            <label for="account-plan">Plan</label
            ><select id="account-plan" value=${plan} onChange=${(e: Event) => setPlan((e.target as HTMLSelectElement).value)}>
              ${plans.map((x) => html`<option key=${x} value=${x}>${x}</option>`)}
            </select>
          </div>
          <button type="submit">Save account</button>
        </form>
        <table>
          <caption>
            Ledger: ${account.ledgerTotal} entries${account.ledgerTotal > account.ledger.length ? `, the last ${account.ledger.length} shown` : ''}
          </caption>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Virtual time</th>
              <th scope="col">Type</th>
              <th scope="col">Amount</th>
              <th scope="col">Running sum</th>
              <th scope="col">Task</th>
              <th scope="col">Note</th>
            </tr>
          </thead>
          <tbody>
            ${account.ledger.map((l) => {
              running += l.amount;
              const ok = running === l.balance;
              return html`<tr key=${l.seq}>
                <td>${l.seq}</td>
                <td><time title=${formatTime(l.at)}>${formatClockTime(l.at)}</time></td>
                <td>${l.type}</td>
                <td class="num">${l.amount > 0 ? `+${l.amount}` : l.amount}</td>
                <td class=${ok ? 'num' : 'num bad'} title=${ok ? '' : `the entry says the balance was ${l.balance}`}>${running}</td>
                <td>${l.taskId ?? ''}</td>
                <td>${l.note}</td>
              </tr>`;
            })}
          </tbody>
        </table>
      </div>`
    }
  </section>`;
}

// ---------------------------------------------------------------------------
// Forcing
// ---------------------------------------------------------------------------

type ForcingKind = 'error' | 'code' | 'failed' | 'stuck' | 'partial' | 'delay';
const FORCINGS: { kind: ForcingKind; label: string }[] = [
  { kind: 'error', label: 'reject with an error' },
  { kind: 'code', label: 'answer with an HTTP status' },
  { kind: 'failed', label: 'the created task fails later' },
  { kind: 'stuck', label: 'the created task stalls' },
  { kind: 'partial', label: 'the created task partly fails' },
  { kind: 'delay', label: 'answer after a delay' },
];

function describeRule(r: Scenario, names: Map<number, string>): string {
  const parts: string[] = [];
  if (r.code !== null) parts.push(`HTTP ${r.code}`);
  if (r.outcome !== null) parts.push(`outcome ${r.outcome}`);
  if (r.error !== null) parts.push(`${r.outcome ? 'reason' : 'error'} ${r.error} ${names.get(r.error) ?? ''}`.trim());
  if (r.delay !== null) parts.push(`delay ${r.delay} ms`);
  return parts.join(', ');
}

function ForcingPanel(p: { ctx: Ctx; tick: number; run: Run; onError: (e: unknown) => void; ops: OperationSummary[] }) {
  const rules = items(useControl<{ items: Scenario[] }>(p.ctx, '/__mock/scenarios', p.tick, p.onError));
  const [opId, setOpId] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [kind, setKind] = useState<ForcingKind>('error');
  const [error, setError] = useState('');
  const [code, setCode] = useState('');
  const [reason, setReason] = useState('');
  const [delay, setDelay] = useState('1000');
  const [times, setTimes] = useState('1');
  const [message, setMessage] = useState('');
  const op = p.ops.find((o) => o.operationId === opId);
  const names = useMemo(() => new Map(p.ops.flatMap((o) => o.errors.map((e) => [e.code, e.name] as const))), [p.ops]);
  const errors = useMemo(() => {
    const all = op ? op.errors : p.ops.flatMap((o) => o.errors);
    return [...new Map(all.map((e) => [e.code, e])).values()].sort((a, b) => a.code - b.code);
  }, [op, p.ops]);
  const statuses = [...new Set(errors.map((e) => e.status))].sort((a, b) => a - b);
  const kinds = FORCINGS.filter((f) => !['failed', 'stuck', 'partial'].includes(f.kind) || !op || (op.outcomes as readonly string[]).includes(f.kind));
  const submit = (e: Event) => {
    e.preventDefault();
    const body: Record<string, unknown> = { times: Number(times) || 1 };
    if (opId) body.operationId = opId;
    if (apiKey.trim()) body.apiKey = apiKey.trim();
    if (kind === 'error') body.error = Number(error || errors[0]?.code);
    if (kind === 'code') body.code = Number(code || statuses[0]);
    if (kind === 'failed' || kind === 'stuck' || kind === 'partial') body.outcome = kind;
    if (kind === 'failed' && reason) body.error = Number(reason);
    if (kind === 'delay') body.delay = Number(delay);
    void p.run(async () => {
      try {
        const r = await control<Scenario>(p.ctx, 'POST', '/__mock/scenarios', body);
        setMessage(`added ${r.id}: ${describeRule(r, names)}`);
      } catch (e) {
        if (e instanceof MockError && e.status !== 403) return setMessage(`refused: ${e.message}`);
        throw e;
      }
    });
  };
  const value = (set: (v: string) => void) => (e: Event) => set((e.target as HTMLInputElement).value);
  return html`<section aria-labelledby="forcing-h">
    <h2 id="forcing-h">Forcing</h2>
    <form onSubmit=${submit} class="grid-form" aria-label="Add a scenario rule">
      <div class="field">
        <label for="force-op">Operation</label
        ><select
          id="force-op"
          value=${opId}
          onChange=${value((v) => {
            setOpId(v);
            setError('');
            setCode('');
            setReason('');
          })}
        >
          <option value="">any operation</option>
          ${p.ops.map((o) => html`<option key=${o.operationId} value=${o.operationId}>${o.operationId} (${o.method} ${o.path})</option>`)}
        </select>
      </div>
      <div class="field"><label for="force-key">API key</label><input id="force-key" value=${apiKey} onInput=${value(setApiKey)} placeholder="any key" /></div>
      <div class="field">
        <label for="force-kind">Forcing</label
        ><select id="force-kind" value=${kind} onChange=${value((v) => setKind(v as ForcingKind))}>
          ${kinds.map((f) => html`<option key=${f.kind} value=${f.kind}>${f.label}</option>`)}
        </select>
      </div>
      ${
        kind === 'error' &&
        html`<div class="field">
          <label for="force-error">Error</label
          ><select id="force-error" value=${error} onChange=${value(setError)}>
            ${errors.map((e) => html`<option key=${e.code} value=${String(e.code)}>${e.code} ${e.name} (HTTP ${e.status})</option>`)}
          </select>
        </div>`
      }
      ${
        kind === 'code' &&
        html`<div class="field">
          <label for="force-code">HTTP status</label
          ><select id="force-code" value=${code} onChange=${value(setCode)}>
            ${statuses.map((s) => html`<option key=${s} value=${String(s)}>${s}</option>`)}
          </select>
        </div>`
      }
      ${
        kind === 'failed' &&
        html`<div class="field">
          <label for="force-reason">Failure reason</label
          ><select id="force-reason" value=${reason} onChange=${value(setReason)}>
            <option value="">the operation's default</option>
            ${(op?.failureReasons ?? []).map((e) => html`<option key=${e.code} value=${String(e.code)}>${e.code} ${e.name}</option>`)}
          </select>
        </div>`
      }
      ${kind === 'delay' && html`<div class="field"><label for="force-delay">Delay (ms)</label><input id="force-delay" type="number" min="0" max="60000" value=${delay} onInput=${value(setDelay)} /></div>`}
      <div class="field">
        <label for="force-times">Times</label><input id="force-times" type="number" min="1" step="1" value=${times} onInput=${value(setTimes)} />
      </div>
      <button type="submit">Add rule</button>
    </form>
    <p role="status" class="note">${message}</p>
    <table>
      <caption>
        Rules waiting for a request (the first that matches applies)
      </caption>
      <thead>
        <tr>
          <th scope="col">Rule</th>
          <th scope="col">Key</th>
          <th scope="col">Operations</th>
          <th scope="col">Forcing</th>
          <th scope="col">Left</th>
          <th scope="col">Remove</th>
        </tr>
      </thead>
      <tbody>
        ${
          rules.length === 0
            ? html`<tr>
                <td colspan="6" class="note">No rule.</td>
              </tr>`
            : ''
        }
        ${rules.map(
          (r) =>
            html`<tr key=${r.id}>
              <td>${r.id}</td>
              <td>${r.apiKey ?? 'any'}</td>
              <td>${r.operationIds?.join(', ') ?? 'any'}</td>
              <td>${describeRule(r, names)}</td>
              <td>${r.remaining}</td>
              <td>
                <button type="button" onClick=${() => p.run(() => control(p.ctx, 'DELETE', `/__mock/scenarios/${encodeURIComponent(r.id)}`))}>
                  Delete ${r.id}
                </button>
              </td>
            </tr>`,
        )}
      </tbody>
    </table>
    ${rules.length > 0 && html`<button type="button" onClick=${() => p.run(() => control(p.ctx, 'DELETE', '/__mock/scenarios'))}>Delete every rule</button>`}
  </section>`;
}

// ---------------------------------------------------------------------------
// The journal
// ---------------------------------------------------------------------------

function JournalPanel(p: { ctx: Ctx; tick: number; onError: (e: unknown) => void; ops: OperationSummary[] }) {
  const [opId, setOpId] = useState('');
  const [keyId, setKeyId] = useState('');
  const [status, setStatus] = useState('');
  const q = new URLSearchParams({ limit: '100' });
  if (opId) q.set('operationId', opId);
  if (keyId.trim()) q.set('keyId', keyId.trim());
  if (/^[1-5]\d\d$/.test(status.trim())) q.set('status', status.trim());
  const journal = items(useControl<{ items: JournalEntry[] }>(p.ctx, `/__mock/requests?${q.toString()}`, p.tick, p.onError));
  return html`<section class="wide" aria-labelledby="journal-h">
    <h2 id="journal-h">Journal</h2>
    <div class="row" role="search" aria-label="Filter the journal">
      <div class="field">
        <label for="journal-op">Operation</label
        ><select id="journal-op" value=${opId} onChange=${(e: Event) => setOpId((e.target as HTMLSelectElement).value)}>
          <option value="">any operation</option>
          ${p.ops.map((o) => html`<option key=${o.operationId} value=${o.operationId}>${o.operationId}</option>`)}
        </select>
      </div>
      <div class="field">
        <label for="journal-key">Key id</label
        ><input id="journal-key" value=${keyId} onInput=${(e: Event) => setKeyId((e.target as HTMLInputElement).value)} placeholder="e.g. demo" />
      </div>
      <div class="field">
        <label for="journal-status">Status</label
        ><input
          id="journal-status"
          value=${status}
          inputmode="numeric"
          size="4"
          onInput=${(e: Event) => setStatus((e.target as HTMLInputElement).value)}
          placeholder="e.g. 402"
        />
      </div>
    </div>
    <table>
      <caption>
        The most recent 100 matching API requests, newest first
      </caption>
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">Virtual time</th>
          <th scope="col">Request</th>
          <th scope="col">Operation</th>
          <th scope="col">Key id</th>
          <th scope="col">Status</th>
          <th scope="col">Code</th>
          <th scope="col">Body</th>
        </tr>
      </thead>
      <tbody>
        ${
          journal.length === 0
            ? html`<tr>
                <td colspan="8" class="note">No request.</td>
              </tr>`
            : ''
        }
        ${[...journal].reverse().map(
          (j) =>
            html`<tr key=${j.seq}>
              <td>${j.seq}</td>
              <td><time title=${formatTime(j.at)}>${formatClockTime(j.at)}</time></td>
              <td><code>${j.method} ${j.path}</code></td>
              <td>${j.operationId ?? ''}</td>
              <td>${j.keyId ?? ''}</td>
              <td class=${j.status >= 400 ? 'bad' : ''}>${j.status}</td>
              <td>${j.code ?? ''}</td>
              <td>
                ${
                  j.body === undefined
                    ? ''
                    : html`<details>
                        <summary>body${j.bodyTruncated ? ' (cut)' : ''}</summary>
                        <pre>${typeof j.body === 'string' ? j.body : JSON.stringify(j.body, null, 2)}</pre>
                      </details>`
                }
              </td>
            </tr>`,
        )}
      </tbody>
    </table>
  </section>`;
}

// ---------------------------------------------------------------------------
// Sessions and OAuth
// ---------------------------------------------------------------------------

function SessionsPanel(p: { ctx: Ctx; tick: number; run: Run; onError: (e: unknown) => void; switchTo: (name: string) => void }) {
  const sessions = items(useControl<{ items: SessionInfo[] }>(p.ctx, '/__mock/sessions', p.tick, p.onError));
  const [name, setName] = useState('');
  const open = (e: Event) => {
    e.preventDefault();
    if (name.trim()) p.switchTo(name.trim());
    setName('');
  };
  const drop = (n: string) =>
    p.run(async () => {
      await control(p.ctx, 'DELETE', `/__mock/sessions/${encodeURIComponent(n)}`);
      if (n === p.ctx.session) p.switchTo('');
    });
  return html`<section aria-labelledby="sessions-h">
    <h2 id="sessions-h">Sessions</h2>
    <table>
      <thead>
        <tr>
          <th scope="col">Session</th>
          <th scope="col">Seed</th>
          <th scope="col">Virtual now</th>
          <th scope="col">API requests</th>
          <th scope="col">Actions</th>
        </tr>
      </thead>
      <tbody>
        <tr class=${p.ctx.session === '' ? 'current' : ''}>
          <td>default</td>
          <td colspan="3" class="note">the world of requests without X-Mock-Session</td>
          <td>${p.ctx.session === '' ? 'current' : html`<button type="button" onClick=${() => p.switchTo('')}>Switch to default</button>`}</td>
        </tr>
        ${sessions.map(
          (s) =>
            html`<tr key=${s.name} class=${p.ctx.session === s.name ? 'current' : ''}>
              <td>${s.name}</td>
              <td>${s.seed}</td>
              <td>${formatTime(s.now)}</td>
              <td>${s.requests}</td>
              <td>
                ${p.ctx.session === s.name ? 'current ' : html`<button type="button" onClick=${() => p.switchTo(s.name)}>Switch to ${s.name}</button> `}
                <button type="button" onClick=${() => drop(s.name)}>Drop ${s.name}</button>
              </td>
            </tr>`,
        )}
      </tbody>
    </table>
    <form onSubmit=${open} class="inline">
      <div class="field">
        <label for="session-name">Session name</label
        ><input
          id="session-name"
          value=${name}
          pattern="[A-Za-z0-9._\\-]{1,64}"
          onInput=${(e: Event) => setName((e.target as HTMLInputElement).value)}
          placeholder="e.g. worker-1"
        />
      </div>
      <button type="submit">Open session</button>
    </form>
  </section>`;
}

function OAuthPanel(p: { ctx: Ctx; tick: number; onError: (e: unknown) => void; onKey: (k: string) => void }) {
  const users = items(useControl<{ items: User[] }>(p.ctx, '/__mock/users', p.tick, p.onError));
  const logins = items(useControl<{ items: LoginSession[] }>(p.ctx, '/__mock/oauth/sessions', p.tick, p.onError));
  return html`<section aria-labelledby="oauth-h">
    <h2 id="oauth-h">OAuth users and login sessions</h2>
    <table>
      <thead>
        <tr>
          <th scope="col">User</th>
          <th scope="col">Name</th>
          <th scope="col">Email</th>
          <th scope="col">Account</th>
        </tr>
      </thead>
      <tbody>
        ${users.map(
          (u) =>
            html`<tr key=${u.userId}>
              <td>${u.userId}</td>
              <td>${u.name}</td>
              <td>${u.email}</td>
              <td><button type="button" class="link" onClick=${() => p.onKey(u.apiKey)}>${u.apiKey}</button></td>
            </tr>`,
        )}
      </tbody>
    </table>
    <table>
      <thead>
        <tr>
          <th scope="col">Login session</th>
          <th scope="col">Status</th>
          <th scope="col">User</th>
          <th scope="col">Callback port</th>
          <th scope="col">Expires (virtual)</th>
        </tr>
      </thead>
      <tbody>
        ${
          logins.length === 0
            ? html`<tr>
                <td colspan="5" class="note">No login session.</td>
              </tr>`
            : ''
        }
        ${logins.map(
          (s) =>
            html`<tr key=${s.sessionId}>
              <td><code>${s.sessionId}</code></td>
              <td>${s.status}</td>
              <td>${s.userId ?? ''}</td>
              <td>${s.callbackPort}</td>
              <td>${formatTime(s.expiresAt)}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </section>`;
}

// ---------------------------------------------------------------------------
// The page
// ---------------------------------------------------------------------------

function TokenForm(p: { refused: boolean; onToken: (t: string) => void }) {
  const [value, setValue] = useState('');
  const submit = (e: Event) => {
    e.preventDefault();
    if (value.trim()) p.onToken(value.trim());
  };
  return html`<main class="token">
    <h1>mediagen-mock dashboard</h1>
    <p>This mock's control API needs its control token (printed at start, or set with --control-token). It is kept in this tab only.</p>
    ${p.refused && html`<p class="bad" role="alert">The mock refused that token.</p>`}
    <form onSubmit=${submit} class="inline">
      <div class="field">
        <label for="control-token">Control token</label
        ><input id="control-token" type="password" autocomplete="off" value=${value} onInput=${(e: Event) => setValue((e.target as HTMLInputElement).value)} />
      </div>
      <button type="submit">Use token</button>
    </form>
  </main>`;
}

function App(p: { tokenRequired: boolean }) {
  const [ctx, setCtx] = useState<Ctx>(initialCtx);
  const [askToken, setAskToken] = useState<'no' | 'ask' | 'refused'>(p.tokenRequired && !ctx.token ? 'ask' : 'no');
  const [tick, setTick] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);
  const [tasks, setTasks] = useState<TaskView[]>([]);
  const [live, setLive] = useState(false);
  const [ops, setOps] = useState<OperationSummary[]>([]);
  const [typedKeys, setTypedKeys] = useState<string[]>([]);
  const [selectedKey, setSelectedKey] = useState('');
  const ready = askToken === 'no';
  // a reset (or a state loaded) takes the clock back and restarts the activity feed: follow it afresh
  const lastNow = useRef<number | null>(null);
  const [epoch, setEpoch] = useState(0);
  const onNow = useCallback((now: number) => {
    if (lastNow.current !== null && now < lastNow.current) setEpoch((e) => e + 1);
    lastNow.current = now;
  }, []);

  const update = (next: Ctx) => {
    saveCtx(next);
    setCtx(next);
  };
  const onError = useCallback((e: unknown) => {
    if (e instanceof MockError && e.status === 403 && e.code === CONTROL_FORBIDDEN) {
      // forget the token refused, so a reload asks again rather than trying it
      setCtx((c) => {
        const next = { ...c, token: null };
        saveCtx(next);
        return next;
      });
      setAskToken('refused');
      return;
    }
    setProblem(e instanceof Error ? e.message : String(e));
  }, []);
  const run: Run = async (what) => {
    try {
      await what();
      setProblem(null);
      return true;
    } catch (e) {
      onError(e);
      return false;
    } finally {
      setTick((t) => t + 1);
    }
  };

  // every panel reads again each second (and after each action)
  useEffect(() => {
    if (!ready) return;
    const i = setInterval(() => setTick((t) => t + 1), 1000);
    return () => clearInterval(i);
  }, [ready]);

  useEffect(() => {
    if (!ready) return;
    control<{ items: OperationSummary[] }>(ctx, 'GET', '/__mock/operations').then((r) => setOps(r.items), onError);
  }, [ready, ctx.token]);

  // tasks of every area, live from the activity stream of the session shown
  useEffect(() => {
    if (!ready) return;
    setTasks([]);
    const byId = new Map<string, TaskView>();
    let pending = false;
    const flush = () => {
      pending = false;
      setTasks([...byId.values()].sort((a, b) => b.lastSeq - a.lastSeq).map((t) => ({ ...t })));
    };
    const abort = new AbortController();
    void followActivity(
      ctx,
      (e: TaskActivity) => {
        let t = byId.get(e.taskId);
        if (!t) byId.set(e.taskId, (t = { taskId: e.taskId, area: e.area, apiKey: e.apiKey, history: [], terminal: false, lastSeq: 0 }));
        if (e.seq <= t.lastSeq) return;
        t.history = [...t.history, { status: e.status, at: e.at }];
        t.terminal = e.terminal;
        t.lastSeq = e.seq;
        if (!pending) {
          pending = true;
          setTimeout(flush, 50);
        }
      },
      abort.signal,
      setLive,
    );
    return () => abort.abort();
  }, [ready, ctx.token, ctx.session, epoch]);

  const paths = useMemo(() => (ops.length ? new Map(ops.map((o) => [o.operationId, o.path])) : undefined), [ops]);
  const users = items(useControl<{ items: User[] }>(ctx, ready ? '/__mock/users' : null, Math.floor(tick / 5), onError));
  const keys = [...new Set([...tasks.map((t) => t.apiKey), ...users.map((u) => u.apiKey), ...typedKeys, ...(selectedKey ? [selectedKey] : [])])].sort();
  const selectKey = (k: string) => {
    if (k && !typedKeys.includes(k)) setTypedKeys([...typedKeys, k]);
    setSelectedKey(k);
    document.getElementById('accounts-h')?.scrollIntoView({ block: 'nearest' });
  };
  const switchTo = (session: string) => {
    lastNow.current = null;
    update({ ...ctx, session });
    setSelectedKey('');
  };

  if (!ready)
    return html`<${TokenForm}
      refused=${askToken === 'refused'}
      onToken=${(token: string) => {
        update({ ...ctx, token });
        setAskToken('no');
      }}
    />`;
  const common = { ctx, tick, run, onError };
  return html`<header>
      <h1>mediagen-mock dashboard</h1>
      <p>Session: <strong data-testid="session">${ctx.session || 'default'}</strong></p>
      <nav><a href="/docs/">API reference</a></nav>
    </header>
    ${problem && html`<p class="problem" role="alert">${problem} <button type="button" onClick=${() => setProblem(null)}>Dismiss</button></p>`}
    <main>
      <${ClockPanel} ...${common} onNow=${onNow} />
      <${SessionsPanel} ...${common} switchTo=${switchTo} />
      <${TasksPanel} tasks=${tasks} live=${live} ctx=${ctx} paths=${paths} onKey=${selectKey} />
      <${ForcingPanel} ...${common} ops=${ops} />
      <${AccountsPanel} ...${common} keys=${keys} selected=${selectedKey} select=${selectKey} />
      <${JournalPanel} ctx=${ctx} tick=${tick} onError=${onError} ops=${ops} />
      <${OAuthPanel} ctx=${ctx} tick=${tick} onError=${onError} onKey=${selectKey} />
    </main>`;
}

const root = document.getElementById('app');
if (root) render(html`<${App} tokenRequired=${root.dataset.tokenRequired === 'true'} />`, root);
