/**
 * OAuth user tokens (document 1, "Authentication"): a user-facing
 * client starts a login session with a local callback port, the user
 * authorizes in a browser and is redirected to
 * http://127.0.0.1:<callbackPort>/?code=<code>, the client exchanges the
 * session and the code for an access token, a refresh token and expiresIn
 * (seconds), refreshes (the newest refresh token replaces the old) and
 * revokes with the refresh token. The login operations need no credential.
 * Every API operation accepts `Authorization: Bearer <accessToken>` as well
 * as an API key and acts as the signed-in user's account.
 *
 * The document shows neither the paths nor the payloads of these four
 * operations: both are assumed here, as are the lifetimes (`oauthLifetimes`).
 */
import { z } from './zod.ts';
import { assumed, fromSeed, provenanceMeta } from './provenance.ts';
import { defineOperations, form, operationsWith, json, type Area } from './define.ts';
import type { StateRule } from './rules.ts';

/** Most characters of a user's name (assumed: the document shows users but no limit; it bounds what is stored), for a user the sign-in page or the control API creates. */
export const USER_NAME_MAX_CHARS = 100;

/** Lifetimes of the flow's secrets, in seconds (assumed: the document shows none). */
export const oauthLifetimes = {
  /** A login session waits this long to be authorized. */
  loginSessionSeconds: 10 * 60,
  /** An authorization code must be exchanged within this, once. */
  codeSeconds: 5 * 60,
  /** An access token works this long (`expiresIn`). */
  accessTokenSeconds: 60 * 60,
  /** A refresh token works this long unless refreshed or revoked first. */
  refreshTokenSeconds: 30 * 24 * 60 * 60,
} as const;

/** A token or id of the flow: at most 256 characters (assumed: the document shows no length). */
const Token = (what: string) =>
  z
    .string()
    .min(1)
    .max(256)
    .meta(provenanceMeta(assumed('document 1 shows no length for the tokens and ids of the OAuth flow; 256 characters bound what is stored'), what));

export const LoginSessionRequest = z
  .object({
    callbackPort: z
      .number()
      .int()
      .min(1)
      .max(65535)
      .meta({ description: 'the local port the client listens on for the redirect to http://127.0.0.1:<callbackPort>/?code=<code>' }),
    state: z
      .string()
      .max(512)
      .optional()
      .meta(
        provenanceMeta(
          assumed('the document shows no state parameter; an opaque value returned on the redirect, as OAuth clients expect'),
          'opaque value added to the redirect as state=',
        ),
      ),
  })
  .openapi('LoginSessionRequest', { example: { callbackPort: 53682, state: 'x7Kp2' } });

export const LoginSessionData = z
  .strictObject({
    sessionId: z.string().meta({ description: 'the login session' }),
    authUrl: z.string().meta({ description: 'the page where the user signs in and authorizes the client (open it in a browser)' }),
    expiresIn: z
      .number()
      .int()
      .positive()
      .meta({ description: `seconds the session waits to be authorized (${oauthLifetimes.loginSessionSeconds}, assumed)` }),
  })
  .meta(provenanceMeta(fromSeed(1, 'Authentication')))
  .openapi('LoginSessionData', {
    example: { sessionId: 'ls_3f9a1c2b7d4e5f60', authUrl: 'http://localhost:4010/oauth/authorize?sessionId=ls_3f9a1c2b7d4e5f60', expiresIn: 600 },
  });

export const TokenExchangeRequest = z
  .object({ sessionId: Token('the login session'), code: Token('the code of the redirect') })
  .openapi('TokenExchangeRequest', { example: { sessionId: 'ls_3f9a1c2b7d4e5f60', code: 'oc_8d2e4f6a1b3c5d7e' } });

export const RefreshRequest = z
  .object({ refreshToken: Token('the newest refresh token of the session') })
  .openapi('RefreshRequest', { example: { refreshToken: 'rt_0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d' } });

export const RevokeRequest = z
  .object({ refreshToken: Token('a refresh token of the session to end') })
  .openapi('RevokeRequest', { example: { refreshToken: 'rt_0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d' } });

export const TokenData = z
  .strictObject({
    accessToken: z.string().meta({ description: 'send as Authorization: Bearer <accessToken> on any API operation' }),
    refreshToken: z.string().meta({ description: 'the newest refresh token (it replaces the previous one)' }),
    expiresIn: z.number().int().positive().meta({ description: 'seconds until the access token expires' }),
    tokenType: z
      .literal('Bearer')
      .meta(provenanceMeta(assumed('the document does not show it; OAuth 2.0 token responses carry it'), 'how to send the access token')),
  })
  .meta(provenanceMeta(fromSeed(1, 'Authentication')))
  .openapi('TokenData', {
    example: { accessToken: 'at_5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f', refreshToken: 'rt_0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d', expiresIn: 3600, tokenType: 'Bearer' },
  });

export const RevokeData = z
  .strictObject({
    revoked: z.boolean().meta({
      description:
        'true when this call ended a session; false when the token was unknown or its session had already ended (revocation answers 200 either way, as RFC 7009 does)',
    }),
  })
  .openapi('RevokeData', { example: { revoked: true } });

/** The query of the sign-in page: the login session it authorizes (the authUrl carries it). */
export const AuthorizePageQuery = z.object({
  sessionId: z.string().optional().meta({ description: 'the login session (sessionId of POST /v1/oauth/login-sessions)' }),
});

/** The sign-in page's form (application/x-www-form-urlencoded): its hidden fields and the user picked or named. */
export const AuthorizeForm = z
  .object({
    sessionId: z.string().optional().meta({ description: 'the login session (a hidden field of the page)' }),
    csrf: z
      .string()
      .optional()
      .meta(
        provenanceMeta(
          assumed('a sign-in form needs protection from posts of other sites; the document shows no page'),
          "the page's own token (a hidden field): a post without it is taken only from the page's own origin",
        ),
      ),
    userId: z.string().optional().meta({ description: 'the user picked (empty: a new user named newUserName)' }),
    newUserName: z
      .string()
      .optional()
      .meta({ description: `the name of a new user to sign in as (trimmed; beyond ${USER_NAME_MAX_CHARS} characters, cut)` }),
  })
  .openapi('AuthorizeForm', { example: { sessionId: 'ls_3f9a1c2b7d4e5f60', csrf: '0123456789abcdef0123456789abcdef', userId: 'usr_1a2b3c4d5e6f7a8b' } });

/** The sign-in page is assumed: document 1 says the user authorizes in a browser, without showing the page. */
const signInPage = assumed(
  'document 1, "Authentication", says the user authorizes the client in a browser at the authUrl, then is redirected to the callback port with the code; the page, its form and its answers are not shown and are assumed',
);

/** Each step is document 1's ("Authentication", OAuth user tokens); its path and payload are not shown. */
const flow = assumed(
  'document 1, "Authentication", describes the OAuth user-token lifecycle step, but says the HTTP paths and payloads of its four operations are not shown: path, method, body and answer are assumed',
);

/** Rules of the code exchange (x-rules: they read the login session), in the order checked. */
const exchangeStateRules: StateRule[] = [
  { code: 'OAUTH_SESSION_NOT_FOUND', fields: ['sessionId'], rule: 'sessionId names a known login session', reads: 'state' },
  { code: 'OAUTH_INVALID_CODE', fields: ['code'], rule: "the session's code has not been exchanged yet", reads: 'state' },
  { code: 'OAUTH_SESSION_NOT_FOUND', fields: ['sessionId'], rule: 'a session never authorized has not expired', reads: 'state' },
  { code: 'OAUTH_INVALID_CODE', fields: ['code'], rule: 'the session has been authorized, and code is its code', reads: 'state' },
  { code: 'OAUTH_INVALID_CODE', fields: ['code'], rule: `the code is at most ${oauthLifetimes.codeSeconds / 60} minutes old`, reads: 'state' },
];

/** Rules of a refresh (x-rules: they read the grant of the token). */
const refreshStateRules: StateRule[] = [
  {
    code: 'OAUTH_INVALID_REFRESH_TOKEN',
    fields: ['refreshToken'],
    rule: 'refreshToken is the newest refresh token of a session not ended (an older one ends the session) and not expired',
    reads: 'state',
  },
];
// What the operations below share: each states only what differs (operationsWith, schemas/define.ts).
const op = operationsWith({ auth: false, validationError: 'OAUTH_INVALID_PARAMETERS' });

/** The operations of the user-token lifecycle (document 1, "Authentication"): the four of the client and the sign-in page's two. */
export const oauthOperations = defineOperations('OAuth user tokens', {
  startLoginSession: op({
    method: 'post',
    path: '/v1/oauth/login-sessions',
    summary: 'Start a login session',
    description: `(a) of the lifecycle: takes the local callback port and answers the sessionId and the authUrl to open in a browser. After the user authorizes, the browser is redirected to http://127.0.0.1:<callbackPort>/?code=<code> (plus &state= when given). The session waits ${oauthLifetimes.loginSessionSeconds / 60} minutes (assumed). Needs no credential.`,
    provenance: flow,
    request: { body: json(LoginSessionRequest) },
    response: { status: 200, kind: 'envelope', schema: LoginSessionData, description: 'the session and where to authorize it' },
    errors: ['OAUTH_INVALID_PARAMETERS'],
  }),
  showAuthorizePage: op({
    method: 'get',
    path: '/oauth/authorize',
    summary: 'The sign-in page',
    description: `(b) of the lifecycle: the authUrl of a login session. A web page (no external resources) listing the users to sign in as, with a field to type a new user's name, and an Authorize button that posts its form to the same path. A session that is unknown, expired or already authorized gets an error page (404). Needs no credential.`,
    provenance: signInPage,
    request: { query: AuthorizePageQuery },
    response: {
      status: 200,
      kind: 'page',
      description: 'the sign-in page',
      pages: { 404: 'the login session is unknown, expired or already authorized: an error page' },
    },
    // the mock's Host check (a DNS-rebound page), mock-only
    errors: ['OAUTH_INVALID_PARAMETERS', 'HOST_FORBIDDEN'],
  }),
  submitAuthorizePage: op({
    method: 'post',
    path: '/oauth/authorize',
    summary: 'Authorize from the sign-in page',
    description: `(b) of the lifecycle: the form of the sign-in page. Signs in as the user picked (or a new user named), then redirects (302) the browser to http://127.0.0.1:<callbackPort>/?code=<code> (plus &state= when the session has one); the code works once, within ${oauthLifetimes.codeSeconds / 60} minutes (assumed). The form is taken only with the page's own token (its hidden csrf field) or from the page's own origin (Origin). Needs no credential.`,
    provenance: signInPage,
    request: { body: form(AuthorizeForm, { limitBytes: 16 * 1024 }), bodyOptional: true },
    response: {
      status: 302,
      kind: 'page',
      description: "redirect to the client's callback port with the code (and state)",
      pages: {
        400: 'neither a user picked nor a name typed, or an unknown user: the page again, saying what is missing',
        403: "the form was not sent by the sign-in page (no page token, or another page's, and another origin): an error page",
        404: 'the login session is unknown, expired or already authorized: an error page',
      },
    },
    errors: ['OAUTH_INVALID_PARAMETERS', 'HOST_FORBIDDEN'],
  }),
  exchangeOAuthCode: op({
    method: 'post',
    path: '/v1/oauth/token',
    summary: 'Exchange the code for tokens',
    description: `(c) of the lifecycle: the sessionId and the code of the redirect give an access token, a refresh token and expiresIn (seconds until the access token expires; ${oauthLifetimes.accessTokenSeconds} assumed). A code works once, within ${oauthLifetimes.codeSeconds / 60} minutes (assumed). Needs no credential.`,
    provenance: flow,
    request: { body: json(TokenExchangeRequest) },
    response: { status: 200, kind: 'envelope', schema: TokenData, description: 'the tokens' },
    errors: ['OAUTH_INVALID_PARAMETERS', 'OAUTH_SESSION_NOT_FOUND', 'OAUTH_INVALID_CODE'],
    stateRules: exchangeStateRules,
  }),
  refreshOAuthToken: op({
    method: 'post',
    path: '/v1/oauth/refresh',
    summary: 'Refresh the tokens',
    description: `(d) of the lifecycle: the newest refresh token gives a new access token and a new refresh token; the old refresh token stops working. Sending an old one again is refused and ends the session (reuse detection, assumed). A refresh token works ${oauthLifetimes.refreshTokenSeconds / 86400} days (assumed). Needs no credential.`,
    provenance: flow,
    request: { body: json(RefreshRequest) },
    response: { status: 200, kind: 'envelope', schema: TokenData, description: 'the new tokens' },
    errors: ['OAUTH_INVALID_PARAMETERS', 'OAUTH_INVALID_REFRESH_TOKEN'],
    stateRules: refreshStateRules,
  }),
  revokeOAuthToken: op({
    method: 'post',
    path: '/v1/oauth/revoke',
    summary: 'Revoke the session',
    description: `(e) of the lifecycle: a refresh token of the session ends it; its access and refresh tokens stop working at once. Needs no credential.`,
    provenance: flow,
    request: { body: json(RevokeRequest) },
    response: { status: 200, kind: 'envelope', schema: RevokeData, description: 'whether a session was ended' },
    errors: ['OAUTH_INVALID_PARAMETERS'],
  }),
});

/** The OAuth user-token area. */
export const oauthArea = {
  tag: {
    name: 'OAuth user tokens',
    description:
      'Sign users in from a user-facing client (document 1, "Authentication"): login session, browser authorization, redirect to a local callback port, code exchange, refresh with rotation, revoke. The access token works on every API operation in place of an API key and acts as the user\'s account.',
  },
  operations: oauthOperations,
  tableAssumptions: [
    {
      subject: `lifetimes (\`oauthLifetimes\`): login session ${oauthLifetimes.loginSessionSeconds} s, code ${oauthLifetimes.codeSeconds} s and single use, access token ${oauthLifetimes.accessTokenSeconds} s, refresh token ${oauthLifetimes.refreshTokenSeconds} s`,
      reason: 'document 1 shows none',
    },
    {
      subject: 'a reused (already replaced) refresh token ends the whole session',
      reason: 'document 1 says the newest replaces the old; reuse detection follows the OAuth 2.0 Security Best Current Practice',
    },
    {
      subject: 'the authorization page at /oauth/authorize (users to pick, a name to type) and its redirect',
      reason: 'document 1 says the user authorizes in a browser, without showing the page',
    },
  ],
} satisfies Area;
