// REST: cycles. Lists are ordered by team, then by number, newest first.
import { Type } from 'typebox';
import type { AppContext } from '../../platform/context.js';
import { actorOf } from '../../platform/http/auth-hook.js';
import { sendJsonText } from '../../platform/http/json-text.js';
import { PageInfo, pageOf, pageQuery } from '../../platform/http/pagination.js';
import { errors, IdParams, OneLineText } from '../../platform/http/schemas.js';
import type { Http } from '../../platform/http/types.js';
import { TeamSchema } from '../teams/present.js';
import { teamJson } from '../teams/service.js';
import { WRITE_CYCLES } from './policy.js';
import { CycleSchema } from './present.js';
import { createCycle, cycleJson, deleteCycle, listCyclesJson, updateCycle } from './service.js';
import { CycleSettingsBody, updateCycleSettings } from './settings.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const Instant = Type.String({ format: 'date-time', description: 'ISO 8601 timestamp' });
const Name = Nullable(OneLineText(255, { allowBlank: true }));
const Description = Nullable(Type.String({ maxLength: 10_000 }));

const CreateBody = Type.Object(
  {
    teamId: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Team id or key' })),
    startsAt: Instant,
    endsAt: Instant,
    name: Type.Optional(Name),
    description: Type.Optional(Description),
  },
  { additionalProperties: false },
);
const PatchBody = Type.Object(
  {
    name: Type.Optional(Name),
    description: Type.Optional(Description),
    startsAt: Type.Optional(Instant),
    endsAt: Type.Optional(Instant),
    completedAt: Type.Optional(Nullable(Instant)),
  },
  { additionalProperties: false, minProperties: 1 },
);
const ListQuery = Type.Object(
  {
    ...pageQuery(50),
    teamId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    includeArchived: Type.Optional(Type.Boolean({ default: false })),
  },
  { additionalProperties: false },
);
const CycleList = Type.Object({ cycles: Type.Array(CycleSchema), pageInfo: PageInfo });
const CycleEnvelope = Type.Object({ cycle: CycleSchema });
const TeamEnvelope = Type.Object({ team: TeamSchema });

export function cyclesRoutes(app: Http, ctx: AppContext): void {
  app.get(
    '/api/cycles',
    {
      schema: {
        tags: ['cycles'],
        summary: 'List cycles by team, then number descending (teamId accepts an id or a key)',
        querystring: ListQuery,
        response: { 200: CycleList, ...errors(400, 401, 403) },
      },
    },
    async (req, reply) => {
      const page = pageOf(req.query, 50);
      return sendJsonText(reply, await listCyclesJson(ctx, actorOf(req), { ...req.query, ...page }));
    },
  );

  app.post(
    '/api/cycles',
    {
      config: { auth: WRITE_CYCLES },
      schema: {
        tags: ['cycles'],
        summary: 'Create a cycle; its number is the next one within its team',
        body: CreateBody,
        response: { 201: CycleEnvelope, ...errors(400, 401, 403) },
      },
    },
    async (req, reply) => {
      const actor = actorOf(req);
      const cycle = await createCycle(ctx, actor, req.body);
      return sendJsonText(reply.status(201), await cycleJson(ctx, actor, cycle.id));
    },
  );

  app.get(
    '/api/cycles/:id',
    {
      schema: {
        tags: ['cycles'],
        summary: 'One cycle with its progress',
        params: IdParams,
        response: { 200: CycleEnvelope, ...errors(401, 403, 404) },
      },
    },
    async (req, reply) => sendJsonText(reply, await cycleJson(ctx, actorOf(req), req.params.id)),
  );

  app.patch(
    '/api/cycles/:id',
    {
      config: { auth: WRITE_CYCLES },
      schema: {
        tags: ['cycles'],
        summary: 'Change name, description, dates or completion',
        params: IdParams,
        body: PatchBody,
        response: { 200: CycleEnvelope, ...errors(400, 401, 403, 404) },
      },
    },
    async (req, reply) => {
      const actor = actorOf(req);
      const cycle = await updateCycle(ctx, actor, req.params.id, req.body);
      return sendJsonText(reply, await cycleJson(ctx, actor, cycle.id));
    },
  );

  app.delete(
    '/api/cycles/:id',
    {
      config: { auth: WRITE_CYCLES },
      schema: {
        tags: ['cycles'],
        summary: 'Delete a cycle; its issues stay, without a cycle',
        params: IdParams,
        response: {
          200: Type.Object({ ok: Type.Literal(true), id: Type.String() }),
          ...errors(401, 403, 404),
        },
      },
    },
    async (req) => {
      const removed = await deleteCycle(ctx, actorOf(req), req.params.id);
      return { ok: true as const, id: removed.id };
    },
  );

  app.patch(
    '/api/teams/:id/cycle-settings',
    {
      config: { auth: 'member' },
      schema: {
        tags: ['cycles'],
        summary:
          "Change a team's cycle settings: automatic cycles, their length, cooldown, start day, how many ahead, rollover (the team's owners and admins)",
        params: IdParams,
        body: CycleSettingsBody,
        response: { 200: TeamEnvelope, ...errors(400, 401, 403, 404) },
      },
    },
    async (req, reply) => {
      const actor = actorOf(req);
      const team = await updateCycleSettings(ctx, actor, req.params.id, req.body);
      return sendJsonText(reply, await teamJson(ctx, actor, team));
    },
  );
}
