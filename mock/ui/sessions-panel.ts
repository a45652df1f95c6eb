/** The dashboard's sessions panel (each with its own URL) and OAuth panel (docs/guides/dashboard.md). */
import { useState } from 'preact/hooks';
import type { SessionInfo } from '../../schemas/control.ts';
import { control, type Ctx } from './api.ts';
import { html, items, useControl, type LoginSession, type Run, type User } from './common.ts';
import { formatTime } from './media.ts';

/** The page's URL for `session`: /sessions/<name>/__mock/ui/, or /__mock/ui/ for the default world (see initialCtx). */
export function sessionUrl(session: string): string {
  return session ? `/sessions/${encodeURIComponent(session)}/__mock/ui/` : '/__mock/ui/';
}

/** The default world and every session: seed, virtual now, API requests; switch (each has its URL), drop, open. */
export function SessionsPanel(p: { ctx: Ctx; tick: number; run: Run; onError: (e: unknown) => void; switchTo: (name: string) => void }) {
  const sessions = items(useControl<{ items: SessionInfo[] }>(p.ctx, '/__mock/sessions', p.tick, p.onError));
  // the default world's row, read without X-Mock-Session: its seed (health), clock and journaled requests
  const main = { ...p.ctx, session: '' };
  const health = useControl<{ seed: number }>(main, '/__mock/health', p.tick, p.onError);
  const clock = useControl<{ now: number }>(main, '/__mock/clock', p.tick, p.onError);
  const count = useControl<{ count: number }>(main, '/__mock/requests/count', p.tick, p.onError);
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
        <tr class=${p.ctx.session === '' ? 'current' : ''} data-session="">
          <td><a href=${sessionUrl('')}>default</a> <span class="note">(requests without X-Mock-Session)</span></td>
          <td>${health?.seed ?? '…'}</td>
          <td>${clock ? formatTime(clock.now) : '…'}</td>
          <td title="journaled requests (the most recent --journal-size)">${count?.count ?? '…'}</td>
          <td>${p.ctx.session === '' ? 'current' : html`<button type="button" onClick=${() => p.switchTo('')}>Switch to default</button>`}</td>
        </tr>
        ${sessions.map(
          (s) =>
            html`<tr key=${s.name} class=${p.ctx.session === s.name ? 'current' : ''}>
              <td><a href=${sessionUrl(s.name)}>${s.name}</a></td>
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

export function OAuthPanel(p: { ctx: Ctx; tick: number; onError: (e: unknown) => void; onKey: (k: string) => void }) {
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
