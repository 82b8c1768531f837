// REST: workflow states (read-only reference data).
import { Type } from 'typebox';
import type { AppContext } from '../../platform/context.js';
import { notFound } from '../../platform/errors.js';
import { errors } from '../../platform/http/schemas.js';
import type { Http } from '../../platform/http/types.js';
import { findTeamByIdOrKey } from '../teams/queries.js';
import { presentState, StateSchema } from './present.js';
import { listStates } from './queries.js';

export function statesRoutes(app: Http, ctx: AppContext): void {
  app.get(
    '/api/workflow-states',
    {
      schema: {
        tags: ['reference'],
        summary: 'List workflow states, ordered by team (oldest first) then position',
        querystring: Type.Object(
          {
            teamId: Type.Optional(
              Type.String({ minLength: 1, maxLength: 100, description: 'Team id or key' }),
            ),
          },
          { additionalProperties: false },
        ),
        response: { 200: Type.Object({ workflowStates: Type.Array(StateSchema) }), ...errors(400, 401, 404) },
      },
    },
    async (req) => {
      let teamId: string | undefined;
      if (req.query.teamId !== undefined) {
        const team = await findTeamByIdOrKey(ctx.db, req.query.teamId);
        if (!team) throw notFound('Team');
        teamId = team.id;
      }
      return { workflowStates: (await listStates(ctx.db, teamId)).map(presentState) };
    },
  );
}
