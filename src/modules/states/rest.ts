// REST: workflow states. Anyone signed in reads them; admins add, change and archive them.
import { Type } from 'typebox';
import type { AppContext } from '../../platform/context.js';
import { actorOf } from '../../platform/http/auth-hook.js';
import { sendJsonText } from '../../platform/http/json-text.js';
import { errors, IdParams } from '../../platform/http/schemas.js';
import type { Http } from '../../platform/http/types.js';
import { type ArchiveInput, StateCreateBody, StatePatchBody } from './inputs.js';
import { StateSchema } from './present.js';
import * as states from './service.js';

const StateEnvelope = Type.Object({ workflowState: StateSchema });

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
    async (req, reply) =>
      sendJsonText(reply, await states.listStatesJson(ctx, actorOf(req), req.query.teamId)),
  );

  app.get(
    '/api/workflow-states/:id',
    {
      schema: {
        tags: ['reference'],
        summary: 'One workflow state (archived ones too)',
        params: IdParams,
        response: { 200: StateEnvelope, ...errors(401, 404) },
      },
    },
    async (req, reply) => sendJsonText(reply, await states.stateJson(ctx, actorOf(req), req.params.id)),
  );

  app.post(
    '/api/workflow-states',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['admin'],
        summary:
          "Add a workflow state to a team; without a position it goes after the team's last (admins only)",
        body: StateCreateBody,
        response: { 201: StateEnvelope, ...errors(400, 401, 403) },
      },
    },
    async (req, reply) => {
      const actor = actorOf(req);
      const state = await states.createState(ctx, actor, req.body);
      return sendJsonText(reply.status(201), await states.stateJson(ctx, actor, state.id));
    },
  );

  app.patch(
    '/api/workflow-states/:id',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['admin'],
        summary: 'Change the name, colour, description or position of a workflow state (admins only)',
        params: IdParams,
        body: StatePatchBody,
        response: { 200: StateEnvelope, ...errors(400, 401, 403, 404) },
      },
    },
    async (req, reply) => {
      const actor = actorOf(req);
      const state = await states.updateState(ctx, actor, req.params.id, req.body);
      return sendJsonText(reply, await states.stateJson(ctx, actor, state.id));
    },
  );

  app.post(
    '/api/workflow-states/:id/archive',
    {
      config: { auth: 'admin' },
      schema: {
        tags: ['admin'],
        summary:
          "Archive a workflow state; its issues move to replacementStateId (required when it has any). A team's last state of a type other than triage stays (admins only)",
        description:
          'Body (optional, checked by the service so that a call without a body works): `{ replacementStateId?: uuid }`.',
        params: IdParams,
        response: { 200: StateEnvelope, ...errors(400, 401, 403, 404) },
      },
    },
    async (req, reply) => {
      const actor = actorOf(req);
      const state = await states.archiveState(ctx, actor, req.params.id, (req.body ?? {}) as ArchiveInput);
      return sendJsonText(reply, await states.stateJson(ctx, actor, state.id));
    },
  );
}
