// REST: feature flag administration.
import { Type } from 'typebox';
import type { AppContext } from '../../platform/context.js';
import { actorOf } from '../../platform/http/auth-hook.js';
import { errors } from '../../platform/http/schemas.js';
import type { Http } from '../../platform/http/types.js';
import { adminListFlags, adminSetFlag } from './service.js';

const AdminFlag = Type.Object({
  key: Type.String(),
  label: Type.String(),
  description: Type.String(),
  enabled: Type.Boolean(),
});

export function flagRoutes(app: Http, ctx: AppContext): void {
  app.get(
    '/api/admin/flags',
    {
      schema: {
        tags: ['admin'],
        summary: 'Every feature flag with its description',
        response: { 200: Type.Object({ flags: Type.Array(AdminFlag) }), ...errors(401, 403) },
      },
    },
    async (req) => ({ flags: await adminListFlags(ctx, actorOf(req)) }),
  );

  app.patch(
    '/api/admin/flags/:key',
    {
      schema: {
        tags: ['admin'],
        summary: 'Switch a feature on or off for the whole workspace',
        params: Type.Object({ key: Type.String({ minLength: 1, maxLength: 100 }) }),
        body: Type.Object({ enabled: Type.Boolean() }, { additionalProperties: false }),
        response: {
          200: Type.Object({ key: Type.String(), enabled: Type.Boolean() }),
          ...errors(400, 401, 403, 404),
        },
      },
    },
    async (req) => {
      const flag = await adminSetFlag(ctx, actorOf(req), req.params.key, req.body.enabled);
      return { key: flag.key, enabled: flag.enabled };
    },
  );
}
