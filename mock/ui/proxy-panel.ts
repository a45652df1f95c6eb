/**
 * The dashboard's proxy panel (docs/guides/proxy.md): with --upstream, the contract violations of the upstream's
 * answers, live (GET /__mock/proxy/report each second), newest first, with the counts. Shown only when the page's
 * shell says the mock has an upstream (`data-upstream`, mock/http/ui.ts).
 */
import { useEffect, useState } from 'preact/hooks';
import type { ProxyReport } from '../../schemas/control.ts';
import { control, type Ctx } from './api.ts';
import { html } from './common.ts';

/** How many violations the panel lists (the report keeps more). */
const SHOWN = 50;

export function ProxyPanel(p: { ctx: Ctx; tick: number; onError: (e: unknown) => void }) {
  const [report, setReport] = useState<ProxyReport | undefined>(undefined);
  useEffect(() => {
    let live = true;
    control<ProxyReport>(p.ctx, 'GET', '/__mock/proxy/report').then(
      (r) => live && setReport(r),
      (e) => live && p.onError(e),
    );
    return () => {
      live = false;
    };
  }, [p.tick, p.ctx.token]);
  if (!report) return null;
  const shown = report.violations.slice(-SHOWN).reverse();
  return html`<section class="wide" aria-labelledby="proxy-h">
    <h2 id="proxy-h">Upstream contract checks</h2>
    <p data-testid="proxy-counts">
      ${`${report.upstream}: ${report.forwarded} forwarded, ${report.checked} checked, `}<strong class=${report.violationCount ? 'bad' : ''}
        >${report.violationCount} violation(s)</strong
      >${`, ${report.fallbacks} answered by the mock${report.notChecked ? `, ${report.notChecked} not checked (too large)` : ''}`}
    </p>
    <table>
      <caption>
        The most recent ${SHOWN} violations, newest first
      </caption>
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">Request</th>
          <th scope="col">Status</th>
          <th scope="col">Rule</th>
          <th scope="col">Detail</th>
        </tr>
      </thead>
      <tbody>
        ${
          shown.length === 0
            ? html`<tr>
                <td colspan="5" class="note">No violation: every answer checked so far conforms.</td>
              </tr>`
            : ''
        }
        ${shown.map(
          (v) =>
            html`<tr key=${v.seq}>
              <td>${v.seq}</td>
              <td><code>${v.method} ${v.path}</code>${v.session ? ` (session ${v.session})` : ''}</td>
              <td>${v.status}</td>
              <td class="bad">${v.rule}</td>
              <td>${v.detail}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </section>`;
}
