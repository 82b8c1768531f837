// REST: teams, and the reference data that hangs off them (workflow states,
// labels), registered from here so app.ts needs one entry for all three.
import { Type } from 'typebox';
import type { AppContext } from '../../platform/context.js';
import { notFound } from '../../platform/errors.js';
import { actorOf } from '../../platform/http/auth-hook.js';
import { errors, IdParams } from '../../platform/http/schemas.js';
import type { Http } from '../../platform/http/types.js';
import { labelsRoutes } from '../labels/rest.js';
import { statesRoutes } from '../states/rest.js';
import { presentTeam, TeamSchema } from './present.js';
import { findTeamByIdOrKey } from './queries.js';
import { createTeam, listTeams } from './service.js';

const TeamEnvelope = Type.Object({ team: TeamSchema });

export function teamsRoutes(app: Http, ctx: AppContext): void {
  app.get(
    '/api/teams',
    {
      schema: {
        tags: ['reference'],
        summary: 'List teams (oldest first)',
        response: { 200: Type.Object({ teams: Type.Array(TeamSchema) }), ...errors(401) },
      },
    },
    async (req) => ({ teams: (await listTeams(ctx, actorOf(req))).map(presentTeam) }),
  );

  app.get(
    '/api/teams/:id',
    {
      schema: {
        tags: ['reference'],
        summary: 'One team, by id or key',
        params: IdParams,
        response: { 200: TeamEnvelope, ...errors(401, 404) },
      },
    },
    async (req) => {
      const team = await findTeamByIdOrKey(ctx.db, req.params.id);
      if (!team) throw notFound('Team');
      return { team: presentTeam(team) };
    },
  );

  app.post(
    '/api/teams',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['admin'],
        summary: 'Create a team with the default workflow; every active account joins it (admins only)',
        body: Type.Object(
          {
            key: Type.String({
              pattern: '^[A-Z][A-Z0-9]{0,6}$',
              description: 'e.g. ENG; prefixes identifiers',
            }),
            name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
            description: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
            color: Type.Optional(Type.Union([Type.String({ format: 'hexcolor' }), Type.Null()])),
          },
          { additionalProperties: false },
        ),
        response: { 201: TeamEnvelope, ...errors(400, 401, 403, 409) },
      },
    },
    async (req, reply) => {
      const team = await createTeam(ctx, actorOf(req), req.body);
      return reply.status(201).send({ team: presentTeam(team) });
    },
  );

  statesRoutes(app, ctx);
  labelsRoutes(app, ctx);
}
