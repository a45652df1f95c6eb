/** The dashboard's forcing panel: add a scenario rule, list and delete the rules waiting (docs/guides/dashboard.md). */
import { useMemo, useState } from 'preact/hooks';
import type { Scenario } from '../../schemas/control.ts';
import { control, MockError, type Ctx } from './api.ts';
import { html, items, useControl, type OperationSummary, type Run } from './common.ts';

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

export function ForcingPanel(p: { ctx: Ctx; tick: number; run: Run; onError: (e: unknown) => void; ops: OperationSummary[] }) {
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
