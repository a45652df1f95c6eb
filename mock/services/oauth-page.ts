/**
 * The sign-in page of the OAuth user-token flow (document 1,
 * "Authentication", step (b); the page itself is assumed: schemas/oauth.ts),
 * as text, and the per-page form token. The handlers that answer with them
 * (showAuthorizePage, submitAuthorizePage) are the OAuth service's
 * (mock/services/oauth.ts), run by the operation runner for every transport.
 *
 * The form token is a keyed hash (HMAC-SHA-256, 32 hex digits) of the login
 * session under a secret of the world's engine drawn from the platform's
 * cryptographic random source when first needed: no seed predicts it, so a
 * page of another site cannot make the token of a pending sign-in. Standard
 * JavaScript only (Web Crypto).
 */
import { USER_NAME_MAX_CHARS } from '../../schemas/oauth.ts';
import { createSlot, type Engine } from '../engine/engine.ts';

/** A user the page lists. */
export interface PageUser {
  userId: string;
  name: string;
  email: string;
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A whole HTML document titled `title` around `body` (no external resources). */
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

/**
 * The sign-in page of login session `sessionId`: the users to pick (the
 * first checked), a field for a new user's name, the hidden session id and
 * form token, and `problem` (a form sent without a user) when given.
 */
export function authorizePage(sessionId: string, callbackPort: number, users: readonly PageUser[], csrf: string, problem?: string): string {
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
      <label><input type="radio" name="userId" value=""> a new user named: <input type="text" name="newUserName" aria-label="new user name" maxlength="${USER_NAME_MAX_CHARS}"></label>
  </fieldset>
  <button type="submit">Authorize</button>
</form>
<p class="note">This is the mediagen mock: no password is asked. Login session ${escape(sessionId)}.</p>`,
  );
}

/** The error page of a sign-in link that does not work, saying why (`message`). */
export function signInErrorPage(message: string): string {
  return page(
    'Sign-in failed',
    `<h1>This sign-in link does not work</h1><p class="error" role="alert">${escape(message)}</p><p>Start the sign-in again from the application.</p>`,
  );
}

/** The signing key of one engine's form tokens, drawn on first use. */
const formKeySlot = createSlot<{ key?: Promise<CryptoKey> }>('sign-in form key', () => ({}));

/** The key the form tokens of one engine are signed with: 32 random bytes drawn on first use, kept with the world's wiring (not saved, not reset). */
function formKey(engine: Engine): Promise<CryptoKey> {
  const slot = engine.slot(formKeySlot);
  slot.key ??= crypto.subtle.importKey('raw', crypto.getRandomValues(new Uint8Array(32)), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return slot.key;
}

/** The form token of login session `sessionId` in `engine`'s world: 32 hex digits. */
export async function formToken(engine: Engine, sessionId: string): Promise<string> {
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await formKey(engine), new TextEncoder().encode(sessionId)));
  return [...mac.subarray(0, 16)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** True when `token` is the form token of `sessionId` (compared in time independent of where they differ). */
export async function formTokenMatches(engine: Engine, sessionId: string, token: string | undefined): Promise<boolean> {
  if (token === undefined) return false;
  const expected = await formToken(engine, sessionId);
  if (token.length !== expected.length) return false;
  let diff = 0;
  for (let i = 0; i < expected.length; i++) diff |= token.charCodeAt(i) ^ expected.charCodeAt(i);
  return diff === 0;
}
