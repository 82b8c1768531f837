// REST: registration, sign-in, the current user and password change.
import { Type } from 'typebox';
import type { AppContext } from '../../platform/context.js';
import { actorOf, originOf } from '../../platform/http/auth-hook.js';
import { sendJsonText } from '../../platform/http/json-text.js';
import { errors } from '../../platform/http/schemas.js';
import type { Http } from '../../platform/http/types.js';
import { Email, Name, Password } from '../users/inputs.js';
import { UserSchema } from '../users/present.js';
import { ownUserJson } from '../users/service.js';
import { confirmPasswordReset, RESET_TOKEN_LENGTH, requestPasswordReset } from './password-reset.js';
import { changePassword, login, register, updateOwnProfile } from './service.js';

const Session = Type.Object({ token: Type.String({ description: 'JWT, valid 7 days' }), user: UserSchema });

export function authRoutes(app: Http, ctx: AppContext): void {
  app.post(
    '/api/auth/register',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Create a member account and sign in (when the workspace allows self-registration)',
        // A requested role is accepted and ignored: registration always makes a member.
        body: Type.Object(
          { name: Name, email: Email, password: Password, role: Type.Optional(Type.Unknown()) },
          {
            additionalProperties: false,
          },
        ),
        response: { 201: Session, ...errors(400, 403, 409, 429) },
      },
    },
    async (req, reply) => {
      const { user, token } = await register(ctx, req.body, originOf(req));
      return sendJsonText(reply.status(201), session(token, await ownUserJson(ctx, user.id)));
    },
  );

  app.post(
    '/api/auth/login',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Sign in with email and password',
        body: Type.Object(
          {
            email: Type.String({ minLength: 1, maxLength: 320 }),
            password: Type.String({ maxLength: 1000 }),
          },
          {
            additionalProperties: false,
          },
        ),
        response: { 200: Session, ...errors(400, 401, 403, 429) },
      },
    },
    async (req, reply) => {
      const { user, token } = await login(ctx, req.body, originOf(req));
      return sendJsonText(reply, session(token, await ownUserJson(ctx, user.id)));
    },
  );

  app.get(
    '/api/auth/me',
    {
      schema: {
        tags: ['auth'],
        summary: 'The signed-in user',
        response: { 200: Type.Object({ user: UserSchema }), ...errors(401) },
      },
    },
    async (req, reply) => sendJsonText(reply, await ownUserJson(ctx, actorOf(req).id)),
  );

  app.patch(
    '/api/auth/me',
    {
      schema: {
        tags: ['auth'],
        summary: 'Change your own name',
        body: Type.Object({ name: Name }, { additionalProperties: false }),
        response: { 200: Type.Object({ user: UserSchema }), ...errors(400, 401) },
      },
    },
    async (req, reply) => {
      const user = await updateOwnProfile(ctx, actorOf(req), req.body);
      return sendJsonText(reply, await ownUserJson(ctx, user.id));
    },
  );

  app.post(
    '/api/auth/change-password',
    {
      // A signed-in person only: an API key must not take over its owner's password.
      config: { auth: 'session' },
      schema: {
        tags: ['auth'],
        summary:
          'Change the password (signed in, not with an API key); every earlier login token stops working',
        body: Type.Object(
          {
            currentPassword: Type.String({ maxLength: 1000 }),
            newPassword: Password,
            revokeApiKeys: Type.Optional(
              Type.Boolean({ description: 'Also revoke every API key of the account (default: keep them)' }),
            ),
          },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({
            ok: Type.Literal(true),
            token: Type.String({ description: 'A fresh login token' }),
            revokedApiKeys: Type.Integer({ description: 'How many API keys were revoked (0 unless asked)' }),
          }),
          ...errors(400, 401, 403, 429),
        },
      },
    },
    async (req) => {
      const { token, revokedApiKeys } = await changePassword(ctx, actorOf(req), req.body, originOf(req));
      return { ok: true as const, token, revokedApiKeys };
    },
  );

  app.post(
    '/api/auth/password-reset',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Ask for a password-reset email; 202 whether or not the account exists (404 without SMTP)',
        body: Type.Object(
          { email: Type.String({ minLength: 1, maxLength: 320 }) },
          { additionalProperties: false },
        ),
        response: { 202: Type.Object({ ok: Type.Literal(true) }), ...errors(400, 404, 429) },
      },
    },
    async (req, reply) => {
      await requestPasswordReset(ctx, req.body.email, req.ip);
      return reply.status(202).send({ ok: true as const });
    },
  );

  app.post(
    '/api/auth/password-reset/confirm',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['auth'],
        summary:
          'Set a new password with the token of a reset email; every session ends, every API key is revoked',
        body: Type.Object(
          {
            // Any length up to a bound is accepted here and refused as INVALID_RESET_TOKEN.
            token: Type.String({ minLength: 1, maxLength: RESET_TOKEN_LENGTH * 4 }),
            password: Password,
          },
          { additionalProperties: false },
        ),
        response: { 200: Type.Object({ ok: Type.Literal(true) }), ...errors(400, 429) },
      },
    },
    async (req) => {
      await confirmPasswordReset(ctx, req.body, req.ip);
      return { ok: true as const };
    },
  );
}

/** `{"token":...,"user":{...}}`: a session answer around the user's JSON text (`{"user":...}`). */
function session(token: string, userEnvelope: string): string {
  return `{"token":${JSON.stringify(token)},${userEnvelope.slice(1)}`;
}
