/**
 * OAuth user tokens (document 1, "Authentication"; paths, payloads,
 * lifetimes and the authorization page assumed: schemas/oauth.ts). Users are
 * bound to accounts: each user has an API key the mock made for it, and an
 * access token acts as that key (its ledger, its tasks). Everything lives in
 * the engine's `oauth` singleton (plain data, so it is reset, saved and
 * loaded with the rest of the state); ids and tokens come from the seeded
 * id counters, never from randomness.
 *
 * Lifecycle of a login session: pending (waits `loginSessionSeconds` to be
 * authorized) -> authorized (a single-use code, `codeSeconds`) -> exchanged
 * (a grant: one access token and the newest refresh token). A refresh
 * replaces both; an old refresh token sent again ends the grant (reuse
 * detection); revoke ends it.
 */
import { z } from 'zod';
import { oauthLifetimes, USER_NAME_MAX_CHARS } from '../../schemas/oauth.ts';
import type { Plan } from '../../schemas/plans.ts';
import type { ErrorName } from '../../schemas/errors.ts';
import type { Engine } from '../engine/engine.ts';
import { contribute, type CredentialResolver, type Service, type ServiceContext } from './context.ts';
import { userDirectories, type UserDirectory } from './user-directory.ts';
import { fake } from './fake.ts';
import { cutText } from '../../schemas/text.ts';
import { authorizePage, formToken, formTokenMatches, signInErrorPage } from './oauth-page.ts';

/** A user who can sign in, bound to the account of `apiKey`. */
export interface OAuthUser {
  userId: string;
  name: string;
  email: string;
  apiKey: string;
  /** Epoch ms. */
  createdAt: number;
}

/** A login session as the flow moves it. Times are epoch ms. */
interface LoginSession {
  sessionId: string;
  callbackPort: number;
  state?: string;
  createdAt: number;
  expiresAt: number;
  userId?: string;
  code?: string;
  codeExpiresAt?: number;
  exchanged: boolean;
}

/** What an exchange grants: the current tokens of one signed-in user. Times are epoch ms. */
interface Grant {
  grantId: string;
  sessionId: string;
  userId: string;
  apiKey: string;
  accessToken: string;
  accessExpiresAt: number;
  refreshToken: string;
  refreshExpiresAt: number;
  /** Why and when it ended (revoked, or a replaced refresh token sent again). */
  ended?: { at: number; reason: string };
}

const OAuthStateSchema = z.strictObject({
  users: z.array(z.strictObject({ userId: z.string(), name: z.string(), email: z.string(), apiKey: z.string(), createdAt: z.number() })),
  sessions: z.record(
    z.string(),
    z.strictObject({
      sessionId: z.string(),
      callbackPort: z.number(),
      state: z.string().optional(),
      createdAt: z.number(),
      expiresAt: z.number(),
      userId: z.string().optional(),
      code: z.string().optional(),
      codeExpiresAt: z.number().optional(),
      exchanged: z.boolean(),
    }),
  ),
  grants: z.record(
    z.string(),
    z.strictObject({
      grantId: z.string(),
      sessionId: z.string(),
      userId: z.string(),
      apiKey: z.string(),
      accessToken: z.string(),
      accessExpiresAt: z.number(),
      refreshToken: z.string(),
      refreshExpiresAt: z.number(),
      ended: z.strictObject({ at: z.number(), reason: z.string() }).optional(),
    }),
  ),
  /** Access token -> grantId (current and replaced ones: a replaced or ended one is refused with its reason). */
  accessTokens: z.record(z.string(), z.string()),
  /** Refresh token -> grantId (current and replaced ones: a replaced one sent again is reuse). */
  refreshTokens: z.record(z.string(), z.string()),
});
type OAuthState = z.infer<typeof OAuthStateSchema>;

/** Users seeded in every engine (assumed): enough to pick from on the authorization page. */
const SEEDED_USERS = 3;
/** Most login sessions and grants kept (assumed); beyond, the oldest are forgotten. */
const MAX_KEPT = 10_000;
const S = 1000;

/** The OAuth state of `engine` (the seeded users made on first use). */
function stateOf(engine: Engine): OAuthState {
  return engine.state<OAuthState>('oauth', () => {
    const s: OAuthState = { users: [], sessions: {}, grants: {}, accessTokens: {}, refreshTokens: {} };
    for (let n = 1; n <= SEEDED_USERS; n++)
      s.users.push(
        makeUser(
          engine,
          fake(engine.seed, ['oauth user', n], (f) => f.person.fullName()),
          undefined,
          engine.clock.now(),
        ),
      );
    return s;
  });
}

/**
 * A new user named `name` with an API key of its own (the account is created
 * on first use, or by createUser). The key's id part names the user; its
 * secret part is drawn from the seeded rng under a purpose of its own, so it
 * cannot be computed from the user id the sign-in page shows.
 */
function makeUser(engine: Engine, name: string, email: string | undefined, now: number): OAuthUser {
  const userId = engine.nextId('usr', 'oauth', 'user');
  const hex = userId.slice(4);
  const secret = `${engine.rng.id('x', 'oauth user key a', userId).slice(2)}${engine.rng.id('x', 'oauth user key b', userId).slice(2)}`;
  const local =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '.')
      .replace(/^\.|\.$/g, '') || 'user';
  return { userId, name, email: email ?? `${local}@example.com`, apiKey: `${engine.keyPrefix}_u${hex.slice(0, 8)}_${secret}`, createdAt: now };
}

/** A token of `kind`: its prefix and 32 hex digits from the seeded id counters. */
function token(engine: Engine, prefix: string, kind: string): string {
  return `${prefix}_${engine.nextId('x', 'oauth', `${kind}-a`).slice(2)}${engine.nextId('x', 'oauth', `${kind}-b`).slice(2)}`;
}

/** Drops the oldest entries of `record` beyond MAX_KEPT. */
function bound<T>(record: Record<string, T>, forget: (v: T) => void = () => {}): void {
  const keys = Object.keys(record);
  for (const k of keys.slice(0, Math.max(0, keys.length - MAX_KEPT))) {
    forget(record[k]);
    delete record[k];
  }
}

/** The users, oldest first. */
export function listUsers(engine: Engine): OAuthUser[] {
  return stateOf(engine).users.map((u) => ({ ...u }));
}

/** Creates a user with an account: its credits and plan when given (else the defaults of a new key). */
export function createUser(engine: Engine, input: { name: string; email?: string; credits?: number; plan?: Plan }, now: number): OAuthUser {
  const user = makeUser(engine, input.name, input.email, now);
  const users = stateOf(engine).users;
  users.push(user);
  // the oldest users beyond MAX_KEPT are forgotten (their accounts stay, as any key's)
  users.splice(0, Math.max(0, users.length - MAX_KEPT));
  engine.accounts.update(user.apiKey, { credits: input.credits, plan: input.plan }, now);
  return { ...user };
}

/** Where a login session stands now. */
export type LoginSessionStatus = 'pending' | 'authorized' | 'exchanged' | 'expired';

function statusOf(s: LoginSession, now: number): LoginSessionStatus {
  if (s.exchanged) return 'exchanged';
  if (s.code !== undefined) return now > s.codeExpiresAt! ? 'expired' : 'authorized';
  return now > s.expiresAt ? 'expired' : 'pending';
}

/** The login sessions with their status, oldest first (times epoch ms). */
export function listLoginSessions(engine: Engine, now: number) {
  return Object.values(stateOf(engine).sessions).map((s) => ({
    sessionId: s.sessionId,
    callbackPort: s.callbackPort,
    status: statusOf(s, now),
    userId: s.userId ?? null,
    createdAt: s.createdAt,
    expiresAt: s.code !== undefined ? s.codeExpiresAt! : s.expiresAt,
  }));
}

/**
 * Why the flow refuses a step, said by whoever asked in its own way: the sign-in page as a page, the control API
 * in its codes (the refusal is a value, not a raised error: neither of them declares these errors).
 */
interface Refusal<E extends ErrorName> {
  refused: E;
  message: string;
}

/** A login session that can still be authorized, with its users, or why not (OAUTH_SESSION_NOT_FOUND). */
function pendingSession(engine: Engine, sessionId: string, now: number): { session: LoginSession; users: OAuthUser[] } | Refusal<'OAUTH_SESSION_NOT_FOUND'> {
  const s = Object.hasOwn(stateOf(engine).sessions, sessionId) ? stateOf(engine).sessions[sessionId] : undefined;
  if (!s) return { refused: 'OAUTH_SESSION_NOT_FOUND', message: `sessionId ${sessionId}: no such login session` };
  const status = statusOf(s, now);
  if (status !== 'pending') return { refused: 'OAUTH_SESSION_NOT_FOUND', message: `sessionId ${sessionId}: the login session is ${status}; start a new one` };
  return { session: s, users: listUsers(engine) };
}

/**
 * Authorizes login session `sessionId` as user `userId` (or a new user named
 * `newUserName`): a single-use code valid `codeSeconds`, and the redirect URL
 * http://127.0.0.1:<callbackPort>/?code=<code>[&state=<state>].
 * Refused: OAUTH_SESSION_NOT_FOUND (unknown, expired or already authorized),
 * OAUTH_INVALID_PARAMETERS (an unknown user, or neither a user nor a name).
 */
function authorize(
  engine: Engine,
  sessionId: string,
  who: { userId?: string; newUserName?: string },
  now: number,
): { code: string; redirectUrl: string; userId: string } | Refusal<'OAUTH_SESSION_NOT_FOUND' | 'OAUTH_INVALID_PARAMETERS'> {
  const pending = pendingSession(engine, sessionId, now);
  if ('refused' in pending) return pending;
  const { session } = pending;
  let user: OAuthUser | undefined;
  if (who.userId) {
    user = stateOf(engine).users.find((u) => u.userId === who.userId);
    if (!user) return { refused: 'OAUTH_INVALID_PARAMETERS', message: `userId: ${who.userId} is not a user of this mock (GET /__mock/users lists them)` };
  } else if (who.newUserName?.trim()) user = createUser(engine, { name: cutText(who.newUserName.trim(), USER_NAME_MAX_CHARS) }, now);
  else return { refused: 'OAUTH_INVALID_PARAMETERS', message: 'userId: pick a user, or type a name for a new one' };
  session.userId = user.userId;
  session.code = token(engine, 'oc', 'code');
  session.codeExpiresAt = now + oauthLifetimes.codeSeconds * S;
  const query = new URLSearchParams({ code: session.code, ...(session.state !== undefined ? { state: session.state } : {}) });
  return { code: session.code, redirectUrl: `http://127.0.0.1:${session.callbackPort}/?${query.toString()}`, userId: user.userId };
}

/** New tokens for `grant` (the previous access token stops working; the previous refresh token stays known as replaced). */
function issue(
  engine: Engine,
  st: OAuthState,
  grant: Grant,
  now: number,
): { accessToken: string; refreshToken: string; expiresIn: number; tokenType: 'Bearer' } {
  grant.accessToken = token(engine, 'at', 'access');
  grant.accessExpiresAt = now + oauthLifetimes.accessTokenSeconds * S;
  grant.refreshToken = token(engine, 'rt', 'refresh');
  grant.refreshExpiresAt = now + oauthLifetimes.refreshTokenSeconds * S;
  st.accessTokens[grant.accessToken] = grant.grantId;
  st.refreshTokens[grant.refreshToken] = grant.grantId;
  return { accessToken: grant.accessToken, refreshToken: grant.refreshToken, expiresIn: oauthLifetimes.accessTokenSeconds, tokenType: 'Bearer' };
}

/** Ends `grant`: its tokens stop working. */
function end(st: OAuthState, grant: Grant, now: number, reason: string): void {
  grant.ended ??= { at: now, reason };
}

/** The grant of a refresh token. Errors: OAUTH_INVALID_REFRESH_TOKEN (unknown, ended, expired, or replaced: reuse ends the grant). */
function grantOfRefresh(ctx: ServiceContext<'OAUTH_INVALID_REFRESH_TOKEN'>, st: OAuthState, refreshToken: string, now: number): Grant {
  const id = Object.hasOwn(st.refreshTokens, refreshToken) ? st.refreshTokens[refreshToken] : undefined;
  const grant = id === undefined ? undefined : st.grants[id];
  if (!grant) throw ctx.fail('OAUTH_INVALID_REFRESH_TOKEN', 'refreshToken: unknown refresh token');
  if (grant.ended) throw ctx.fail('OAUTH_INVALID_REFRESH_TOKEN', `refreshToken: the session has ended (${grant.ended.reason}); sign in again`);
  if (grant.refreshToken !== refreshToken) {
    end(st, grant, now, 'a replaced refresh token was sent again');
    throw ctx.fail(
      'OAUTH_INVALID_REFRESH_TOKEN',
      'refreshToken: this refresh token was already replaced by a refresh; reusing it ends the session, sign in again',
    );
  }
  if (now > grant.refreshExpiresAt) throw ctx.fail('OAUTH_INVALID_REFRESH_TOKEN', 'refreshToken: the refresh token has expired; sign in again');
  return grant;
}

/**
 * The API key an access token acts as, or undefined when `bearer` is not an
 * access token (`at_...`). Errors: UNAUTHORIZED for an access token that is
 * unknown, expired (on the virtual clock), revoked, or of an ended session.
 */
export const resolveAccessToken: CredentialResolver = (engine, bearer, now, fail) => {
  if (!/^at_[0-9a-f]+$/.test(bearer)) return undefined;
  const st = stateOf(engine);
  const id = Object.hasOwn(st.accessTokens, bearer) ? st.accessTokens[bearer] : undefined;
  const grant = id === undefined ? undefined : st.grants[id];
  if (!grant) throw fail('UNAUTHORIZED', 'access token is unknown to this mock (a reset forgets tokens); sign in again');
  if (grant.ended) throw fail('UNAUTHORIZED', `access token of a session that has ended (${grant.ended.reason}); sign in again`);
  if (grant.accessToken !== bearer) throw fail('UNAUTHORIZED', 'access token replaced by a refresh; use the newest access token');
  if (now > grant.accessExpiresAt)
    throw fail('UNAUTHORIZED', `access token expired at ${new Date(grant.accessExpiresAt).toISOString()}; refresh it with POST /v1/oauth/refresh`);
  return grant.apiKey;
};

/**
 * Forgets what the flow keeps for the account of `apiKey`, which has gone
 * (its key deleted, or its account forgotten at the account bound): its
 * grants with every access and refresh token they had, and the login
 * sessions its user authorized (an unexchanged code among them). Those
 * tokens and codes are unknown from then on; a new sign-in starts afresh.
 */
function forgetAccount(engine: Engine, apiKey: string): void {
  const st = engine.peekState<OAuthState>('oauth');
  if (!st) return;
  const grants = new Set<string>();
  for (const [id, g] of Object.entries(st.grants))
    if (g.apiKey === apiKey) {
      grants.add(id);
      delete st.grants[id];
    }
  if (grants.size) for (const map of [st.accessTokens, st.refreshTokens]) for (const [t, id] of Object.entries(map)) if (grants.has(id)) delete map[t];
  const users = new Set(st.users.filter((u) => u.apiKey === apiKey).map((u) => u.userId));
  if (users.size) for (const [id, s] of Object.entries(st.sessions)) if (s.userId !== undefined && users.has(s.userId)) delete st.sessions[id];
}

/** The users and login sessions as the control API asks for them, its codes for the flow's own (see UserDirectory). */
const directory: UserDirectory = {
  list: listUsers,
  create: createUser,
  loginSessions: listLoginSessions,
  authorize(engine, sessionId, body, now) {
    const out = authorize(engine, sessionId, body, now);
    if (!('refused' in out)) return out;
    return { refused: out.refused === 'OAUTH_SESSION_NOT_FOUND' ? 'not-found' : 'invalid', message: out.message };
  },
};

const NOT_FROM_THE_PAGE = 'this form was not sent by the sign-in page (its page token is missing or wrong); open the sign-in link again';

export const oauthService: Service<
  'startLoginSession' | 'showAuthorizePage' | 'submitAuthorizePage' | 'exchangeOAuthCode' | 'refreshOAuthToken' | 'revokeOAuthToken'
> = {
  handlers: {
    startLoginSession({ body }, ctx) {
      const st = stateOf(ctx.engine);
      const sessionId = ctx.engine.nextId('ls', 'oauth', 'session');
      st.sessions[sessionId] = {
        sessionId,
        callbackPort: body.callbackPort,
        ...(body.state !== undefined ? { state: body.state } : {}),
        createdAt: ctx.now,
        expiresAt: ctx.now + oauthLifetimes.loginSessionSeconds * S,
        exchanged: false,
      };
      bound(st.sessions);
      return {
        sessionId,
        authUrl: ctx.url(`/oauth/authorize?sessionId=${encodeURIComponent(sessionId)}`),
        expiresIn: oauthLifetimes.loginSessionSeconds,
      };
    },
    async showAuthorizePage({ query }, ctx) {
      const sessionId = query.sessionId ?? '';
      const pending = pendingSession(ctx.engine, sessionId, ctx.now);
      if ('refused' in pending) return { status: 404, html: signInErrorPage(sessionId ? pending.message : 'the link has no sessionId') };
      const { session, users } = pending;
      return { html: authorizePage(session.sessionId, session.callbackPort, users, await formToken(ctx.engine, session.sessionId)) };
    },
    async submitAuthorizePage({ body }, ctx) {
      const sessionId = body.sessionId ?? '';
      // the page's own token, or a post from the page's own origin: no other site's page can authorize a pending sign-in
      if (!ctx.fromOwnPage && !(await formTokenMatches(ctx.engine, sessionId, body.csrf))) return { status: 403, html: signInErrorPage(NOT_FROM_THE_PAGE) };
      const now = ctx.engine.tick();
      const out = authorize(ctx.engine, sessionId, { userId: body.userId || undefined, newUserName: body.newUserName }, now);
      if (!('refused' in out)) return { location: out.redirectUrl };
      const pending = pendingSession(ctx.engine, sessionId, now);
      if ('refused' in pending) return { status: 404, html: signInErrorPage(out.message) };
      // no user picked, or one that is not: the page again, saying so
      const token = await formToken(ctx.engine, pending.session.sessionId);
      return {
        status: 400,
        html: authorizePage(pending.session.sessionId, pending.session.callbackPort, pending.users, token, out.message.replace(/^userId: /, '')),
      };
    },
    exchangeOAuthCode({ body }, ctx) {
      const st = stateOf(ctx.engine);
      const s = Object.hasOwn(st.sessions, body.sessionId) ? st.sessions[body.sessionId] : undefined;
      if (!s) throw ctx.fail('OAUTH_SESSION_NOT_FOUND', `sessionId ${body.sessionId}: no such login session`);
      if (s.exchanged) throw ctx.fail('OAUTH_INVALID_CODE', `code: already used for sessionId ${body.sessionId}; a code works once`);
      if (s.code === undefined) {
        if (ctx.now > s.expiresAt) throw ctx.fail('OAUTH_SESSION_NOT_FOUND', `sessionId ${body.sessionId}: the login session expired before it was authorized`);
        throw ctx.fail('OAUTH_INVALID_CODE', `code: sessionId ${body.sessionId} has not been authorized yet (open its authUrl)`);
      }
      if (body.code !== s.code) throw ctx.fail('OAUTH_INVALID_CODE', `code: not the code of sessionId ${body.sessionId}`);
      if (ctx.now > s.codeExpiresAt!)
        throw ctx.fail('OAUTH_INVALID_CODE', `code: expired ${oauthLifetimes.codeSeconds} s after the authorization; sign in again`);
      const user = st.users.find((u) => u.userId === s.userId)!;
      s.exchanged = true;
      const grant: Grant = {
        grantId: ctx.engine.nextId('gr', 'oauth', 'grant'),
        sessionId: s.sessionId,
        userId: user.userId,
        apiKey: user.apiKey,
        accessToken: '',
        accessExpiresAt: 0,
        refreshToken: '',
        refreshExpiresAt: 0,
      };
      st.grants[grant.grantId] = grant;
      bound(st.grants, (g) => {
        for (const map of [st.accessTokens, st.refreshTokens]) for (const [t, id] of Object.entries(map)) if (id === g.grantId) delete map[t];
      });
      return issue(ctx.engine, st, grant, ctx.now);
    },
    refreshOAuthToken({ body }, ctx) {
      const st = stateOf(ctx.engine);
      return issue(ctx.engine, st, grantOfRefresh(ctx, st, body.refreshToken, ctx.now), ctx.now);
    },
    revokeOAuthToken({ body }, ctx) {
      const st = stateOf(ctx.engine);
      const id = Object.hasOwn(st.refreshTokens, body.refreshToken) ? st.refreshTokens[body.refreshToken] : undefined;
      const grant = id === undefined ? undefined : st.grants[id];
      if (!grant || grant.ended) return { revoked: false };
      end(st, grant, ctx.now, 'revoked');
      return { revoked: true };
    },
  },
  state: { oauth: OAuthStateSchema },
  contributes: [contribute(userDirectories, directory)],
  credentials: resolveAccessToken,
  onAccountGone: forgetAccount,
};
