/**
 * What the control service asks of an area whose users sign in (the OAuth
 * user-token flow, decisions/0020-oauth-user-tokens.md): the users, their
 * login sessions, and authorizing a session without a browser. The area
 * contributes its directory to `userDirectories` (`contribute`, see
 * Service.contributes); the control service reads the slot and never imports
 * the area. Standard JavaScript only.
 */
import type { z } from 'zod';
import type { AuthorizeRequest, AuthorizeResponse, CreateUserRequest, LoginSessionList, OAuthUser, UserList } from '../../schemas/control.ts';
import { createSlot, type Engine } from '../engine/engine.ts';

/** The users of an area and their login sessions, in the control API's shapes and codes. */
export interface UserDirectory {
  /** The users, oldest first (GET /__mock/users). */
  list(engine: Engine): z.input<typeof UserList>['items'];
  /** A new user with an account of its own (POST /__mock/users). */
  create(engine: Engine, body: z.output<typeof CreateUserRequest>, now: number): z.input<typeof OAuthUser>;
  /** The login sessions with their status at `now`, oldest first (GET /__mock/oauth/sessions). */
  loginSessions(engine: Engine, now: number): z.input<typeof LoginSessionList>['items'];
  /**
   * Authorizes login session `sessionId` as the area's sign-in page would, or says why not: `not-found` (a session
   * unknown, expired or already authorized: the control API answers CONTROL_NOT_FOUND), `invalid` (an unknown user,
   * neither a user nor a name: CONTROL_INVALID_REQUEST), with a message naming the field.
   */
  authorize(
    engine: Engine,
    sessionId: string,
    body: z.output<typeof AuthorizeRequest>,
    now: number,
  ): z.input<typeof AuthorizeResponse> | { refused: 'not-found' | 'invalid'; message: string };
}

/** The user directories of the services composed onto an engine (the control API uses the first). */
export const userDirectories = createSlot<UserDirectory[]>('user directories', () => []);
