// REST: the whole workspace as one archive, for admins (docs/migrate.md).
import type { AppContext } from '../../platform/context.js';
import { actorOf } from '../../platform/http/auth-hook.js';
import { errors } from '../../platform/http/schemas.js';
import type { Http } from '../../platform/http/types.js';
import { exportWorkspace } from './service.js';

export function portabilityRoutes(app: Http, ctx: AppContext): void {
  app.get(
    '/api/admin/export',
    {
      schema: {
        tags: ['admin'],
        summary:
          'The whole workspace as one tar archive, streamed: NDJSON per table, the stored files and a manifest with checksums (admins only; `npm run restore` loads it)',
        produces: ['application/x-tar'],
        response: { ...errors(401, 403) },
      },
    },
    async (req, reply) => {
      const archive = await exportWorkspace(ctx, actorOf(req));
      const name = `trackway-export-${new Date().toISOString().replace(/[:.]/g, '-')}.tar`;
      return reply
        .type('application/x-tar')
        .header('content-disposition', `attachment; filename="${name}"`)
        .send(archive);
    },
  );
}
