// REST: public configuration (branding, flags, whether registration is open),
// branding and registration administration.
import { Type } from 'typebox';
import type { AppContext } from '../../platform/context.js';
import { actorOf } from '../../platform/http/auth-hook.js';
import { errors, OneLineText } from '../../platform/http/schemas.js';
import type { Http } from '../../platform/http/types.js';
import { listFlags } from '../flags/service.js';
import { effectiveSso } from '../sso/settings.js';
import {
  adminGetRegistration,
  adminUpdateRegistration,
  adminUpdateWorkspace,
  getWorkspace,
  presentRegistration,
  presentWorkspace,
} from './service.js';

// A domain name: dot-separated labels of letters, digits and inner hyphens.
const Domain = Type.String({
  maxLength: 253,
  pattern: '^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$',
  description: 'e.g. example.com; matched case-insensitively, exactly (subdomains are listed separately)',
});

const RegistrationSchema = Type.Object({
  open: Type.Boolean(),
  allowedEmailDomains: Type.Array(Type.String(), { description: 'Empty: any domain' }),
});

const WorkspaceSchema = Type.Object({
  name: Type.String(),
  tagline: Type.String(),
  accentColor: Type.String({ description: '#rrggbb' }),
});

export function workspaceRoutes(app: Http, ctx: AppContext): void {
  app.get(
    '/api/config',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['config'],
        summary: 'Workspace branding and feature flags, for the sign-in page and clients',
        response: {
          200: Type.Object({
            workspace: WorkspaceSchema,
            registration: Type.Object({
              open: Type.Boolean({ description: 'Whether POST /auth/register accepts new accounts' }),
            }),
            flags: Type.Array(
              Type.Object({ key: Type.String(), label: Type.String(), enabled: Type.Boolean() }),
            ),
            passwordReset: Type.Boolean({
              description: 'Whether POST /auth/password-reset sends email (SMTP configured)',
            }),
            sso: Type.Object({
              enabled: Type.Boolean({
                description: 'Whether GET /api/auth/sso/start signs in with the provider',
              }),
              buttonLabel: Type.String(),
              required: Type.Boolean({ description: 'Passwords are only for break-glass admins' }),
            }),
          }),
        },
      },
    },
    async () => {
      const [workspace, flags, sso] = await Promise.all([
        getWorkspace(ctx.db),
        listFlags(ctx.db),
        effectiveSso(ctx, ctx.db),
      ]);
      return {
        workspace: presentWorkspace(workspace),
        registration: { open: workspace.registration_open },
        flags: flags.map((f) => ({ key: f.key, label: f.label, enabled: f.enabled })),
        passwordReset: Boolean(ctx.config.mail),
        sso: {
          enabled: sso.enabled,
          buttonLabel: sso.settings.buttonLabel,
          required: sso.enabled && sso.settings.required,
        },
      };
    },
  );

  app.patch(
    '/api/admin/workspace',
    {
      schema: {
        tags: ['admin'],
        summary: 'Change the workspace name, tagline or accent colour',
        body: Type.Object(
          {
            name: Type.Optional(OneLineText(100)),
            tagline: Type.Optional(Type.String({ maxLength: 300 })),
            accentColor: Type.Optional(Type.String({ format: 'hexcolor' })),
          },
          { additionalProperties: false },
        ),
        response: { 200: Type.Object({ workspace: WorkspaceSchema }), ...errors(400, 401, 403) },
      },
    },
    async (req) => ({ workspace: presentWorkspace(await adminUpdateWorkspace(ctx, actorOf(req), req.body)) }),
  );

  app.get(
    '/api/admin/registration',
    {
      schema: {
        tags: ['admin'],
        summary: 'Who may create their own account',
        response: { 200: Type.Object({ registration: RegistrationSchema }), ...errors(401, 403) },
      },
    },
    async (req) => ({ registration: presentRegistration(await adminGetRegistration(ctx, actorOf(req))) }),
  );

  app.patch(
    '/api/admin/registration',
    {
      schema: {
        tags: ['admin'],
        summary: 'Open or close self-registration, or limit it to email domains',
        body: Type.Object(
          {
            open: Type.Optional(Type.Boolean()),
            allowedEmailDomains: Type.Optional(Type.Array(Domain, { maxItems: 100 })),
          },
          { additionalProperties: false, minProperties: 1 },
        ),
        response: { 200: Type.Object({ registration: RegistrationSchema }), ...errors(400, 401, 403) },
      },
    },
    async (req) => ({
      registration: presentRegistration(await adminUpdateRegistration(ctx, actorOf(req), req.body)),
    }),
  );
}
