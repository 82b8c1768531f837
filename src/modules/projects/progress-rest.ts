// REST: progress over time of a project or a cycle, for burn-up charts. The
// record is read first through its own service (flag, role and visibility), so
// a hidden project or cycle is a 404 here too; the issues counted are the
// caller's visible ones.
import { Type } from 'typebox';
import type { AppContext } from '../../platform/context.js';
import { actorOf } from '../../platform/http/auth-hook.js';
import { errors, IdParams } from '../../platform/http/schemas.js';
import type { Http } from '../../platform/http/types.js';
import { CycleOutlookSchema, cycleOutlook } from '../cycles/outlook.js';
import { getCycle } from '../cycles/service.js';
import { teamAccess } from '../teams/access.js';
import { ProgressDaySchema } from './progress-history.js';
import { progressHistory } from './queries.js';
import { getProject } from './service.js';

const Days = Type.Object({ days: Type.Array(ProgressDaySchema) });
const CycleDays = Type.Object({ days: Type.Array(ProgressDaySchema), outlook: CycleOutlookSchema });
const earliest = (...dates: (Date | null | undefined)[]) =>
  new Date(Math.min(...dates.filter((d): d is Date => d instanceof Date).map((d) => d.getTime())));

export function progressRoutes(app: Http, ctx: AppContext) {
  app.get(
    '/api/projects/:id/progress',
    {
      schema: {
        tags: ['projects'],
        summary: 'Scope and completion per day, from the start date (or creation) to today or completion',
        params: IdParams,
        response: { 200: Days, ...errors(401, 403, 404) },
      },
    },
    async (req) => {
      const actor = actorOf(req);
      const project = await getProject(ctx, actor, req.params.id);
      const from = project.start_date ? new Date(`${project.start_date}T00:00:00Z`) : project.created_at;
      const to = earliest(new Date(), project.completed_at, project.canceled_at);
      if (from > to) return { days: [] };
      const access = await teamAccess(ctx.db, actor);
      return {
        days: await progressHistory(ctx.db, { column: 'project_id', id: project.id }, access, { from, to }),
      };
    },
  );

  app.get(
    '/api/cycles/:id/progress',
    {
      schema: {
        tags: ['cycles'],
        summary:
          "Scope and completion per day of the cycle up to today, and its outlook to the cycle's end (ideal and projected)",
        params: IdParams,
        response: { 200: CycleDays, ...errors(401, 403, 404) },
      },
    },
    async (req) => {
      const actor = actorOf(req);
      const cycle = await getCycle(ctx, actor, req.params.id);
      const to = earliest(new Date(), cycle.ends_at, cycle.completed_at);
      const access = await teamAccess(ctx.db, actor);
      const days =
        cycle.starts_at > to
          ? []
          : await progressHistory(ctx.db, { column: 'cycle_id', id: cycle.id }, access, {
              from: cycle.starts_at,
              to,
            });
      return { days, outlook: cycleOutlook(cycle, days) };
    },
  );
}
