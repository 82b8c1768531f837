// REST: workspace members (any signed-in user) and account administration.
import { Type } from 'typebox';
import type { AppContext } from '../../platform/context.js';
import { actorOf } from '../../platform/http/auth-hook.js';
import { sendJsonText } from '../../platform/http/json-text.js';
import { PageInfo, pageOf, pageQuery } from '../../platform/http/pagination.js';
import { errors, Ok, Uuid } from '../../platform/http/schemas.js';
import type { Http } from '../../platform/http/types.js';
import { MAX_PAGE } from '../../platform/list/window.js';
import { Email, Name, Password, RoleInput, StatusInput } from './inputs.js';
import { UserSchema } from './present.js';
import {
  adminCreateUser,
  adminDeleteUser,
  adminListUsers,
  adminUpdateUser,
  listUsers,
  userJson,
  usersJson,
} from './service.js';

const UserList = Type.Object({ users: Type.Array(UserSchema), pageInfo: PageInfo });
const UserEnvelope = Type.Object({ user: UserSchema });
// User ids are UUIDs; anything else is a 400 instead of reaching the database.
const UserIdParams = Type.Object({ id: Uuid });

export function userRoutes(app: Http, ctx: AppContext): void {
  app.get(
    '/api/users',
    {
      schema: {
        tags: ['reference'],
        summary: 'List workspace members (oldest first)',
        querystring: Type.Object(pageQuery(MAX_PAGE), { additionalProperties: false }),
        response: { 200: UserList, ...errors(400, 401) },
      },
    },
    async (req, reply) => {
      const page = pageOf(req.query, MAX_PAGE);
      const { users, total } = await listUsers(ctx, actorOf(req), page);
      return sendJsonText(reply, await usersJson(ctx, actorOf(req), users, { total, ...page }));
    },
  );

  app.get(
    '/api/admin/users',
    {
      schema: {
        tags: ['admin'],
        summary: 'List accounts (oldest first)',
        querystring: Type.Object(pageQuery(MAX_PAGE), { additionalProperties: false }),
        response: { 200: UserList, ...errors(400, 401, 403) },
      },
    },
    async (req, reply) => {
      const page = pageOf(req.query, MAX_PAGE);
      const { users, total } = await adminListUsers(ctx, actorOf(req), page);
      return sendJsonText(reply, await usersJson(ctx, actorOf(req), users, { total, ...page }));
    },
  );

  app.post(
    '/api/admin/users',
    {
      schema: {
        tags: ['admin'],
        summary: 'Create an account with a role',
        body: Type.Object(
          { name: Name, email: Email, password: Password, role: RoleInput },
          { additionalProperties: false },
        ),
        response: { 201: UserEnvelope, ...errors(400, 401, 403, 409) },
      },
    },
    async (req, reply) => {
      const user = await adminCreateUser(ctx, actorOf(req), req.body);
      return sendJsonText(reply.status(201), await userJson(ctx, actorOf(req), user.id));
    },
  );

  app.patch(
    '/api/admin/users/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'Change role, status or name; refuses to remove the last active admin',
        params: UserIdParams,
        body: Type.Object(
          { role: Type.Optional(RoleInput), status: Type.Optional(StatusInput), name: Type.Optional(Name) },
          { additionalProperties: false, minProperties: 1 },
        ),
        response: { 200: UserEnvelope, ...errors(400, 401, 403, 404) },
      },
    },
    async (req, reply) => {
      const user = await adminUpdateUser(ctx, actorOf(req), req.params.id, req.body);
      return sendJsonText(reply, await userJson(ctx, actorOf(req), user.id));
    },
  );

  app.delete(
    '/api/admin/users/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'Delete an account; what it wrote stays, attributed to its name',
        params: UserIdParams,
        response: { 200: Ok, ...errors(400, 401, 403, 404) },
      },
    },
    async (req) => {
      await adminDeleteUser(ctx, actorOf(req), req.params.id);
      return { ok: true as const };
    },
  );
}
