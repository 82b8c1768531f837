// REST: public configuration (branding and flags) and branding administration.
import { Type } from 'typebox';
import type { AppContext } from '../../platform/context.js';
import { actorOf } from '../../platform/http/auth-hook.js';
import { errors } from '../../platform/http/schemas.js';
import type { Http } from '../../platform/http/types.js';
import { listFlags } from '../flags/service.js';
import { adminUpdateWorkspace, getWorkspace, presentWorkspace } from './service.js';

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
            flags: Type.Array(
              Type.Object({ key: Type.String(), label: Type.String(), enabled: Type.Boolean() }),
            ),
          }),
        },
      },
    },
    async () => {
      const [workspace, flags] = await Promise.all([getWorkspace(ctx.db), listFlags(ctx.db)]);
      return {
        workspace: presentWorkspace(workspace),
        flags: flags.map((f) => ({ key: f.key, label: f.label, enabled: f.enabled })),
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
            name: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' })),
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
}
