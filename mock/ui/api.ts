/**
 * The dashboard's only way to the mock (docs/guides/dashboard.md): the control
 * API over HTTP, in the session chosen on the page (X-Mock-Session on every
 * request), with the control token when the mock has one (Authorization:
 * Bearer, kept in sessionStorage); and the API itself for nothing but reading
 * a task's result with its owner's key, marked as an observer's read (not
 * journaled). Browser code: no Node module.
 */
import type { TaskActivityEvent } from '../../schemas/control.ts';
import { errorCatalog } from '../../schemas/errors.ts';

/** Where the page keeps the control token (per tab). */
const TOKEN_KEY = 'mediagen-mock.control-token';

/** The token and session every request carries. `session` '' is the default world. */
export interface Ctx {
  token: string | null;
  session: string;
}

/** An answer of the mock that is not a success: HTTP status, envelope code (when the body had one) and message. */
export class MockError extends Error {
  constructor(
    readonly status: number,
    readonly code: number | null,
    message: string,
  ) {
    super(message);
  }
}

/** The control error code of a refused token (CONTROL_FORBIDDEN). */
export const CONTROL_FORBIDDEN = errorCatalog.CONTROL_FORBIDDEN.code;

function storage(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

/** The session a page URL shows: <name> of /sessions/<name>/__mock/ui/, '' (the default world) for /__mock/ui/. */
export function sessionOfPath(pathname: string): string {
  const fromPath = /^\/sessions\/([^/]+)\/__mock\/ui/i.exec(pathname)?.[1];
  return fromPath ? decodeURIComponent(fromPath) : '';
}

/** The context of this tab: the stored token, and the session of the page's URL (each session has its own URL). */
export function initialCtx(): Ctx {
  return { token: storage()?.getItem(TOKEN_KEY) ?? null, session: sessionOfPath(location.pathname) };
}

/** Keeps the token of `ctx` for this tab (until the tab closes, as the control API's guard asks for it once); the session lives in the URL. */
export function saveCtx(ctx: Ctx): void {
  const s = storage();
  if (!s) return;
  if (ctx.token === null) s.removeItem(TOKEN_KEY);
  else s.setItem(TOKEN_KEY, ctx.token);
}

/** The headers of a control request in `ctx`. */
export function controlHeaders(ctx: Ctx): Record<string, string> {
  const h: Record<string, string> = {};
  if (ctx.token) h.authorization = `Bearer ${ctx.token}`;
  if (ctx.session) h['x-mock-session'] = ctx.session;
  return h;
}

async function answer<T>(res: Response): Promise<T> {
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  if (!res.ok) {
    const env = json as { code?: unknown; message?: unknown } | undefined;
    throw new MockError(res.status, typeof env?.code === 'number' ? env.code : null, typeof env?.message === 'string' ? env.message : `HTTP ${res.status}`);
  }
  return json as T;
}

/** A control request: `method path` with a JSON body. Throws MockError for any answer but 2xx. */
export async function control<T>(ctx: Ctx, method: string, path: string, body?: unknown): Promise<T> {
  const headers = controlHeaders(ctx);
  if (body !== undefined) headers['content-type'] = 'application/json';
  return answer<T>(await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
}

/**
 * An API read with `apiKey` (a task's result): the envelope's data. Throws
 * MockError for an error answer. The dashboard only watches: the read carries
 * `X-Mock-Observer: dashboard`, so it is not journaled (the journal and its
 * counts stay those of the app under test), and `Prefer: delay=0` (a forcing
 * that changes nothing), so it never takes a scenario rule meant for that app
 * (a request with its own Prefer ignores the rules).
 */
export async function apiGet<T>(ctx: Ctx, path: string, apiKey: string): Promise<T> {
  const headers: Record<string, string> = { authorization: `Bearer ${apiKey}`, prefer: 'delay=0', 'x-mock-observer': 'dashboard' };
  if (ctx.session) headers['x-mock-session'] = ctx.session;
  const env = await answer<{ data: T }>(await fetch(path, { headers }));
  return env.data;
}

/** One change of a task's status (the data of a `task` event of GET /__mock/events). */
export type TaskActivity = TaskActivityEvent;

/**
 * Follows GET /__mock/events from `since` with fetch (an EventSource cannot
 * send the control token), calling `onEvent` for each task change, and
 * reconnects after `retryMs` from the last seq seen until `signal` aborts.
 * `onState` says whether the stream is connected.
 */
export async function followActivity(
  ctx: Ctx,
  onEvent: (e: TaskActivity) => void,
  signal: AbortSignal,
  onState: (connected: boolean) => void = () => {},
  retryMs = 1000,
): Promise<void> {
  let since = 0;
  while (!signal.aborted) {
    try {
      const res = await fetch(`/__mock/events?since=${since}`, { headers: controlHeaders(ctx), signal });
      if (!res.ok || !res.body) throw new MockError(res.status, null, `event stream: HTTP ${res.status}`);
      onState(true);
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value.replace(/\r\n?/g, '\n');
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let event = 'message';
          const data: string[] = [];
          for (const line of frame.split('\n')) {
            if (line.startsWith('event:')) event = line.slice(6).trim();
            else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
          }
          if (event !== 'task' || data.length === 0) continue;
          const e = JSON.parse(data.join('\n')) as TaskActivity;
          since = Math.max(since, e.seq);
          onEvent(e);
        }
      }
    } catch {
      // aborted, refused or cut: try again below unless aborted
    }
    onState(false);
    if (signal.aborted) return;
    await new Promise((r) => setTimeout(r, retryMs));
  }
}
