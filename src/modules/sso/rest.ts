// REST: single sign-on with an OpenID provider (the browser's round trip and
// the session hand-over) and its settings for admins. docs/identity.md.
import cookie from '@fastify/cookie';
import { Type } from 'typebox';
import type { AppContext } from '../../platform/context.js';
import { AppError, notFound } from '../../platform/errors.js';
import { actorOf, originOf } from '../../platform/http/auth-hook.js';
import { sendJsonText } from '../../platform/http/json-text.js';
import { errors } from '../../platform/http/schemas.js';
import type { Http } from '../../platform/http/types.js';
import { Email } from '../users/inputs.js';
import { UserSchema } from '../users/present.js';
import { ownUserJson } from '../users/service.js';
import { ssoSettingsView, updateSsoSettings } from './admin.js';
import { finishSignIn, safeReturnTo, startSignIn, takeSession } from './flow.js';
import { effectiveSso } from './settings.js';

const Names = (max: number) => Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: max });
const Domain = Type.String({ pattern: '^[a-z0-9.-]+\\.[a-z]{2,}$', maxLength: 253 });

/** Every field of the settings as the page edits them (the secret write-only). */
const SettingsFields = {
  issuer: Type.Union([Type.String({ format: 'uri', maxLength: 500 }), Type.Null()]),
  clientId: Type.Union([Type.String({ minLength: 1, maxLength: 500 }), Type.Null()]),
  buttonLabel: Type.String({ minLength: 1, maxLength: 60 }),
  scopes: Type.String({ minLength: 6, maxLength: 500, pattern: '^[\\x21-\\x7e]+( [\\x21-\\x7e]+)*$' }),
  allowedDomains: Type.Array(Domain, { maxItems: 100 }),
  autoCreate: Type.Boolean(),
  defaultRole: Type.Union([Type.Literal('member'), Type.Literal('guest')]),
  trustUnverifiedEmail: Type.Boolean(),
  groupsClaim: Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Null()]),
  adminGroups: Names(100),
  memberGroups: Names(100),
  guestGroups: Names(100),
  teamGroups: Type.Array(
    Type.Object(
      {
        group: Type.String({ minLength: 1, maxLength: 200 }),
        team: Type.String({ minLength: 1, maxLength: 20 }),
      },
      { additionalProperties: false },
    ),
    { maxItems: 200 },
  ),
  required: Type.Boolean(),
  breakGlassEmails: Type.Array(Email, { maxItems: 20 }),
};

const SettingsView = Type.Object({
  sso: Type.Object({ ...SettingsFields, clientSecretSet: Type.Boolean() }),
  locked: Type.Array(
    Type.Object({
      field: Type.String(),
      variable: Type.String({ description: 'The OIDC_* variable that sets it' }),
    }),
  ),
  enabled: Type.Boolean({
    description: 'An issuer and a client id are set: the sign-in page shows the button',
  }),
  redirectUri: Type.String({ description: 'Register this with the provider as the redirect (callback) URI' }),
  linkedAccounts: Type.Integer(),
});

const SsoPatchBody = Type.Partial(
  Type.Object({
    ...SettingsFields,
    clientSecret: Type.Union([Type.String({ minLength: 1, maxLength: 1000 }), Type.Null()], {
      description: 'Write-only; null clears it',
    }),
  }),
  { additionalProperties: false },
);

export function ssoRoutes(app: Http, ctx: AppContext): void {
  app.register(async (sso: Http) => {
    // Cookies are read only by the sign-in round trip.
    await sso.register(cookie);

    sso.get(
      '/api/auth/sso/start',
      {
        config: { auth: 'public' },
        schema: {
          tags: ['auth'],
          summary: 'Single sign-on: sends the browser to the identity provider (302)',
          querystring: Type.Object(
            {
              returnTo: Type.Optional(Type.String({ maxLength: 500, description: 'A path here to end on' })),
            },
            { additionalProperties: false },
          ),
          response: { ...errors(400, 404) },
        },
      },
      async (req, reply) => {
        const settings = await effectiveSso(ctx, ctx.db);
        if (!settings.enabled) throw notFound('Single sign-on');
        return startSignIn(ctx, settings, req, reply, safeReturnTo(req.query.returnTo));
      },
    );

    sso.get(
      '/api/auth/sso/callback',
      {
        config: { auth: 'public' },
        schema: {
          tags: ['auth'],
          summary:
            'Single sign-on: where the provider sends the browser back; on to /sso/complete, or to /login?sso_error=<reason> (302)',
          // Providers add parameters of their own (iss, session_state, ...).
          querystring: Type.Object(
            {
              code: Type.Optional(Type.String({ maxLength: 4096 })),
              state: Type.Optional(Type.String({ maxLength: 512 })),
              error: Type.Optional(Type.String({ maxLength: 200 })),
            },
            { additionalProperties: Type.String({ maxLength: 4096 }) },
          ),
          response: { ...errors(400, 404) },
        },
      },
      async (req, reply) => {
        const settings = await effectiveSso(ctx, ctx.db);
        if (!settings.enabled) throw notFound('Single sign-on');
        return finishSignIn(ctx, settings, req, reply, originOf(req));
      },
    );

    sso.post(
      '/api/auth/sso/exchange',
      {
        config: { auth: 'public' },
        schema: {
          tags: ['auth'],
          summary: 'Single sign-on: the session the round trip made in this browser (once, within 2 minutes)',
          response: {
            200: Type.Object({
              token: Type.String({ description: 'JWT, valid 7 days' }),
              returnTo: Type.String(),
              user: UserSchema,
            }),
            ...errors(401),
          },
        },
      },
      async (req, reply) => {
        const done = takeSession(ctx, req, reply);
        if (!done)
          throw new AppError(401, 'SSO_NOT_COMPLETED', 'No single sign-on to finish here; sign in again');
        const user = await ownUserJson(ctx, done.userId);
        return sendJsonText(
          reply,
          `{"token":${JSON.stringify(done.token)},"returnTo":${JSON.stringify(done.returnTo)},${user.slice(1)}`,
        );
      },
    );
  });

  app.get(
    '/api/admin/sso',
    {
      schema: {
        tags: ['admin'],
        summary: 'Single sign-on settings, what the environment sets, and the redirect URI (admins only)',
        response: { 200: SettingsView, ...errors(401, 403) },
      },
    },
    async (req) => ssoSettingsView(ctx, actorOf(req)),
  );

  app.patch(
    '/api/admin/sso',
    {
      schema: {
        tags: ['admin'],
        summary: 'Change single sign-on settings; fields set by OIDC_* variables cannot be changed here',
        body: SsoPatchBody,
        response: { 200: SettingsView, ...errors(400, 401, 403) },
      },
    },
    async (req) => updateSsoSettings(ctx, actorOf(req), req.body),
  );
}
