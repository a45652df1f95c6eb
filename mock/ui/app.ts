/**
 * The mock's dashboard at /__mock/ui (docs/guides/dashboard.md): the clock,
 * tasks of every area live, accounts and ledgers, forcing, the journal,
 * sessions and OAuth users, built on the control API only (./api.ts), one
 * panel per file. Preact with htm, bundled by scripts/ui-build.mjs into dist/ui/.
 */
import { render } from 'preact';
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { control, CONTROL_FORBIDDEN, followActivity, initialCtx, MockError, saveCtx, sessionOfPath, type Ctx, type TaskActivity } from './api.ts';
import { AccountsPanel } from './accounts-panel.ts';
import { ClockPanel } from './clock-panel.ts';
import { html, items, useControl, type OperationSummary, type Run, type TaskView, type User } from './common.ts';
import { ForcingPanel } from './forcing-panel.ts';
import { JournalPanel } from './journal-panel.ts';
import { OAuthPanel, SessionsPanel, sessionUrl } from './sessions-panel.ts';
import { ProxyPanel } from './proxy-panel.ts';
import { TasksPanel } from './tasks-panel.ts';

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

function App(p: { tokenRequired: boolean; upstream: boolean }) {
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
    // each session has its URL: a reload, a bookmark or a link shows the same session
    if (sessionOfPath(location.pathname) !== session) history.pushState(null, '', sessionUrl(session));
    update({ ...ctx, session });
    setSelectedKey('');
  };
  // the browser's back and forward buttons move between sessions
  useEffect(() => {
    const onPop = () => {
      lastNow.current = null;
      setCtx((c) => ({ ...c, session: sessionOfPath(location.pathname) }));
      setSelectedKey('');
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);

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
      ${p.upstream && html`<${ProxyPanel} ctx=${ctx} tick=${tick} onError=${onError} />`}
      <${JournalPanel} ctx=${ctx} tick=${tick} onError=${onError} ops=${ops} />
      <${OAuthPanel} ctx=${ctx} tick=${tick} onError=${onError} onKey=${selectKey} />
    </main>`;
}

const root = document.getElementById('app');
if (root) render(html`<${App} tokenRequired=${root.dataset.tokenRequired === 'true'} upstream=${root.dataset.upstream === 'true'} />`, root);
