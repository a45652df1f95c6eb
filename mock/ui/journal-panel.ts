/** The dashboard's journal panel: the most recent API requests matching its filters, with their request and response bodies (docs/guides/dashboard.md). */
import { useState } from 'preact/hooks';
import type { JournalEntry } from '../../schemas/control.ts';
import type { Ctx } from './api.ts';
import { html, items, useControl, type OperationSummary } from './common.ts';
import { formatClockTime, formatTime } from './media.ts';

export function JournalPanel(p: { ctx: Ctx; tick: number; onError: (e: unknown) => void; ops: OperationSummary[] }) {
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
          <th scope="col">Response</th>
        </tr>
      </thead>
      <tbody>
        ${
          journal.length === 0
            ? html`<tr>
                <td colspan="9" class="note">No request.</td>
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
              <td>${shownBody('body', j.body, j.bodyTruncated)}</td>
              <td>${j.responseDropped ? 'let go (journal budget)' : (j.responseMedia ?? shownBody('response', j.responseBody, j.responseBodyTruncated))}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </section>`;
}

/** A journaled body folded under `label` (its cut text as it is, JSON indented), or nothing when absent. */
function shownBody(label: string, body: unknown, cut: boolean | undefined) {
  if (body === undefined) return '';
  return html`<details>
    <summary>${label}${cut ? ' (cut)' : ''}</summary>
    <pre>${typeof body === 'string' ? body : JSON.stringify(body, null, 2)}</pre>
  </details>`;
}
