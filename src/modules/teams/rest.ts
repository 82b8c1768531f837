// REST: teams, and the reference data that hangs off them (workflow states,
// labels), registered from here so app.ts needs one entry for all three.
import { Type } from 'typebox';
import type { AppContext } from '../../platform/context.js';
import { actorOf } from '../../platform/http/auth-hook.js';
import { sendJsonText } from '../../platform/http/json-text.js';
import { errors, IdParams, Ok } from '../../platform/http/schemas.js';
import type { Http } from '../../platform/http/types.js';
import { labelsRoutes } from '../labels/rest.js';
import { statesRoutes } from '../states/rest.js';
import { MembershipBody, MembershipPatchBody, TeamCreateBody, TeamPatchBody } from './inputs.js';
import { MemberSchema, MembershipSchema, TeamListItemSchema, TeamSchema } from './present.js';
import * as teams from './service.js';

const TeamEnvelope = Type.Object({ team: TeamSchema });
const MembershipEnvelope = Type.Object({ membership: MembershipSchema });

export function teamsRoutes(app: Http, ctx: AppContext): void {
  app.get(
    '/api/teams',
    {
      schema: {
        tags: ['reference'],
        summary: 'List teams (oldest first)',
        response: { 200: Type.Object({ teams: Type.Array(TeamListItemSchema) }), ...errors(401) },
      },
    },
    async (req, reply) => sendJsonText(reply, await teams.listTeamsJson(ctx, actorOf(req))),
  );

  app.get(
    '/api/teams/:id',
    {
      schema: {
        tags: ['reference'],
        summary: 'One team, by id or key (a former key finds it too)',
        params: IdParams,
        response: { 200: TeamEnvelope, ...errors(401, 404) },
      },
    },
    async (req, reply) => {
      const actor = actorOf(req);
      return sendJsonText(
        reply,
        await teams.teamJson(ctx, actor, await teams.getTeam(ctx, actor, req.params.id)),
      );
    },
  );

  app.post(
    '/api/teams',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['admin'],
        summary:
          'Create a team with the default workflow; the creator joins as owner, and every member and admin joins a public team (admins only)',
        body: TeamCreateBody,
        response: { 201: TeamEnvelope, ...errors(400, 401, 403, 409) },
      },
    },
    async (req, reply) => {
      const actor = actorOf(req);
      const team = await teams.createTeam(ctx, actor, req.body);
      return sendJsonText(reply.status(201), await teams.teamJson(ctx, actor, team));
    },
  );

  app.patch(
    '/api/teams/:id',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['admin'],
        summary:
          'Change a team; a new key re-keys its issues and the old identifiers keep resolving (admins only)',
        params: IdParams,
        body: TeamPatchBody,
        response: { 200: TeamEnvelope, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (req, reply) => {
      const actor = actorOf(req);
      return sendJsonText(
        reply,
        await teams.teamJson(ctx, actor, await teams.updateTeam(ctx, actor, req.params.id, req.body)),
      );
    },
  );

  for (const [action, run, summary] of [
    ['archive', teams.archiveTeam, 'Archive a team; its issues stay (admins only)'],
    ['unarchive', teams.unarchiveTeam, 'Unarchive a team (admins only)'],
  ] as const) {
    app.post(
      `/api/teams/:id/${action}`,
      {
        config: { auth: 'admin' },
        schema: {
          tags: ['admin'],
          summary,
          params: IdParams,
          response: { 200: TeamEnvelope, ...errors(400, 401, 403, 404) },
        },
      },
      async (req, reply) => {
        const actor = actorOf(req);
        return sendJsonText(reply, await teams.teamJson(ctx, actor, await run(ctx, actor, req.params.id)));
      },
    );
  }

  app.get(
    '/api/teams/:id/members',
    {
      schema: {
        tags: ['reference'],
        summary: "A team's members, oldest membership first",
        params: IdParams,
        response: { 200: Type.Object({ members: Type.Array(MemberSchema) }), ...errors(401, 404) },
      },
    },
    async (req, reply) => {
      const actor = actorOf(req);
      const members = await teams.listMembers(ctx, actor, req.params.id);
      return sendJsonText(reply, await teams.membersJson(ctx, actor, members));
    },
  );

  app.post(
    '/api/teams/:id/members',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['admin'],
        summary: 'Add a user to a team (admins only); 409 when already a member',
        params: IdParams,
        body: MembershipBody,
        response: { 201: MembershipEnvelope, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (req, reply) => {
      const actor = actorOf(req);
      const membership = await teams.addMember(ctx, actor, req.params.id, req.body);
      return sendJsonText(reply.status(201), await teams.membershipJson(ctx, actor, membership.id));
    },
  );

  const MemberParams = Type.Object({
    id: IdParams.properties.id,
    userId: Type.String({ minLength: 1, maxLength: 200 }),
  });

  app.patch(
    '/api/teams/:id/members/:userId',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['admin'],
        summary: "Change a membership's owner flag or sort order (admins only)",
        params: MemberParams,
        body: MembershipPatchBody,
        response: { 200: MembershipEnvelope, ...errors(400, 401, 403, 404) },
      },
    },
    async (req, reply) => {
      const actor = actorOf(req);
      const membership = await teams.updateMember(ctx, actor, req.params.id, req.params.userId, req.body);
      return sendJsonText(reply, await teams.membershipJson(ctx, actor, membership.id));
    },
  );

  app.delete(
    '/api/teams/:id/members/:userId',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['admin'],
        summary: 'Remove a user from a team (admins only)',
        params: MemberParams,
        response: { 200: Ok, ...errors(401, 403, 404) },
      },
    },
    async (req) => {
      await teams.removeMember(ctx, actorOf(req), req.params.id, req.params.userId);
      return { ok: true as const };
    },
  );

  statesRoutes(app, ctx);
  labelsRoutes(app, ctx);
}
