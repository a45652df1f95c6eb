/** The dashboard's accounts panel: balance, plan, free usages, the ledger with its running sum (docs/guides/dashboard.md). */
import { useEffect, useState } from 'preact/hooks';
import { plans } from '../../schemas/plans.ts';
import { control, type Ctx } from './api.ts';
import { html, type AccountPage, type Run } from './common.ts';
import { formatClockTime, formatTime } from './media.ts';

const LEDGER_PAGE = 200;

export function AccountsPanel(p: {
  ctx: Ctx;
  tick: number;
  run: Run;
  onError: (e: unknown) => void;
  keys: string[];
  selected: string;
  select: (k: string) => void;
}) {
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
