/**
 * The authorization page of the OAuth user-token flow (document 1,
 * "Authentication", step (b); the page itself is assumed): the
 * `authUrl` of a login session. GET shows a small HTML page (no external
 * resources) listing the users to sign in as, and a field to type a new
 * user's name; pressing Authorize POSTs the form back, and the answer is a
 * 302 redirect to http://127.0.0.1:<callbackPort>/?code=<code>[&state=...].
 * An unknown, expired or already authorized session gets an HTML error page
 * (404), a form without a user one that says so (400). Not an API operation:
 * tests and CI use POST /__mock/oauth/sessions/{sessionId}/authorize instead.
 *
 * The form is only taken from the page itself: it carries a per-page token
 * (a keyed hash of the login session under a secret of this process, in a
 * hidden field); a post without it (or with another) is refused with a 403
 * error page unless its Origin is the page's own. So a page of another site
 * cannot authorize a developer's pending sign-in as a user of its choosing.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import express, { type Request, type Response, type Router } from 'express';
import { ApiError } from '../engine/api-error.ts';
import type { Engine } from '../engine/engine.ts';
import { authorize, pendingSession, type OAuthUser } from '../services/oauth.ts';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 32rem; margin: 3rem auto; padding: 0 1rem; color: rgb(27 31 36); }
  h1 { font-size: 1.4rem; }
  fieldset { border: 1px solid rgb(201 209 217); border-radius: 8px; padding: 1rem; }
  label { display: block; margin: .4rem 0; }
  input[type=text] { width: 100%; padding: .4rem; box-sizing: border-box; }
  button { margin-top: 1rem; padding: .5rem 1.2rem; font-size: 1rem; border-radius: 6px; border: 0; background: rgb(31 111 235); color: white; cursor: pointer; }
  .note { color: rgb(87 96 106); font-size: .9rem; }
  .error { color: rgb(180 35 24); }
</style>
</head>
<body>
${body}
</body>
</html>`;
}

function authorizePage(sessionId: string, callbackPort: number, users: OAuthUser[], csrf: string, problem?: string): string {
  const choices = users
    .map(
      (u, i) =>
        `<label><input type="radio" name="userId" value="${escape(u.userId)}"${i === 0 ? ' checked' : ''}> ${escape(u.name)} <span class="note">${escape(u.email)}</span></label>`,
    )
    .join('\n      ');
  return page(
    'Sign in to the Media Generation Service (mock)',
    `<h1>Sign in to the Media Generation Service</h1>
<p>An application wants to act on your account. After you authorize it, your browser goes back to it at <code>http://127.0.0.1:${callbackPort}/</code>.</p>
${problem ? `<p class="error" role="alert">${escape(problem)}</p>` : ''}
<form method="post" action="authorize">
  <input type="hidden" name="sessionId" value="${escape(sessionId)}">
  <input type="hidden" name="csrf" value="${escape(csrf)}">
  <fieldset>
    <legend>Sign in as</legend>
      ${choices}
      <label><input type="radio" name="userId" value=""> a new user named: <input type="text" name="newUserName" aria-label="new user name" maxlength="100"></label>
  </fieldset>
  <button type="submit">Authorize</button>
</form>
<p class="note">This is the mediagen mock: no password is asked. Login session ${escape(sessionId)}.</p>`,
  );
}

const errorPage = (message: string) =>
  page(
    'Sign-in failed',
    `<h1>This sign-in link does not work</h1><p class="error" role="alert">${escape(message)}</p><p>Start the sign-in again from the application.</p>`,
  );

export interface OAuthPageOptions {
  /** The secret the per-page form tokens are keyed with (one per process: random bytes). */
  formSecret: Uint8Array;
  /** What tells this world's tokens from another's (a session's path prefix; '' for the default world). */
  world: string;
}

/** The authorization page routes of one engine's world. */
export function createOAuthPages(engine: Engine, opts: OAuthPageOptions): Router {
  const router = express.Router();
  /** The form token of login session `sessionId` (32 hex digits). */
  const formToken = (sessionId: string) => createHmac('sha256', opts.formSecret).update(`${opts.world}\u0000${sessionId}`).digest('hex').slice(0, 32);
  /** True when the post comes from the page: its form token, or an Origin that is the page's own. */
  const fromThePage = (req: Request, sessionId: string, token: string | undefined): boolean => {
    const expected = Buffer.from(formToken(sessionId));
    if (token !== undefined && Buffer.byteLength(token) === expected.length && timingSafeEqual(Buffer.from(token), expected)) return true;
    return req.headers.origin !== undefined && req.headers.origin === `${req.protocol}://${req.headers.host}`;
  };
  const send = (res: Response, status: number, html: string) =>
    void res.status(status).setHeader('Content-Type', 'text/html; charset=utf-8').setHeader('Cache-Control', 'no-store').end(html);

  router.get('/oauth/authorize', (req: Request, res: Response) => {
    const sessionId = typeof req.query.sessionId === 'string' ? req.query.sessionId : '';
    try {
      const { session, users } = pendingSession(engine, sessionId, engine.tick());
      send(res, 200, authorizePage(session.sessionId, session.callbackPort, users, formToken(session.sessionId)));
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      send(res, 404, errorPage(sessionId ? e.message : 'the link has no sessionId'));
    }
  });

  router.post('/oauth/authorize', express.urlencoded({ extended: false, limit: 16 * 1024 }), (req: Request, res: Response) => {
    const form = (req.body ?? {}) as Record<string, unknown>;
    const field = (name: string) => (typeof form[name] === 'string' ? form[name] : undefined);
    const sessionId = field('sessionId') ?? '';
    const now = engine.tick();
    if (!fromThePage(req, sessionId, field('csrf')))
      return send(res, 403, errorPage('this form was not sent by the sign-in page (its page token is missing or wrong); open the sign-in link again'));
    try {
      const { redirectUrl } = authorize(engine, sessionId, { userId: field('userId') || undefined, newUserName: field('newUserName') }, now);
      engine.changed();
      res.redirect(302, redirectUrl);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      if (e.error === 'OAUTH_SESSION_NOT_FOUND') return send(res, 404, errorPage(e.message));
      const { session, users } = pendingSession(engine, sessionId, now);
      send(res, 400, authorizePage(session.sessionId, session.callbackPort, users, formToken(session.sessionId), e.message.replace(/^userId: /, '')));
    }
  });
  return router;
}
