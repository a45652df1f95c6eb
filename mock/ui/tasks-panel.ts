/** The dashboard's tasks panel: every task of the session live, with its history and, once ended, its media (docs/guides/dashboard.md). */
import { useEffect, useState } from 'preact/hooks';
import { apiGet, MockError, type Ctx } from './api.ts';
import { html, type TaskView } from './common.ts';
import { formatDuration, formatTime, mediaIn, readOperationOf, readPath, type MediaRef } from './media.ts';

const MAX_TASK_ROWS = 100;

/** The label of a media URL of a task: the field that holds it (`videoUrl`, `images[0].url`, `stems[2].audioUrl`). */
export function mediaLabel(m: MediaRef): string {
  return m.where || m.kind;
}

/** One media URL of a task: an image, a player or a link, each labelled with the field it comes from. */
function Media(p: { m: MediaRef; taskId: string }) {
  const label = mediaLabel(p.m);
  const aria = `${label} of ${p.taskId}`;
  if (p.m.kind === 'link') return html`<a href=${p.m.url} target="_blank" rel="noopener">${label}</a>`;
  const media =
    p.m.kind === 'image'
      ? html`<a href=${p.m.url} target="_blank" rel="noopener"><img src=${p.m.url} alt=${aria} loading="lazy" /></a>`
      : p.m.kind === 'audio'
        ? html`<audio controls preload="metadata" src=${p.m.url} aria-label=${aria}></audio>`
        : html`<video controls preload="metadata" src=${p.m.url} aria-label=${aria}></video>`;
  return html`<figure class="media">
    ${media}
    <figcaption>${label}</figcaption>
  </figure>`;
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

export function TasksPanel(p: { tasks: TaskView[]; live: boolean; ctx: Ctx; paths: Map<string, string> | undefined; onKey: (k: string) => void }) {
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
