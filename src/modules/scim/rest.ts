// SCIM 2.0 over HTTP: the admins' token routes (/api/admin/scim-tokens) and
// the provisioning endpoints under /scim/v2 (RFC 7644), which authenticate
// their own bearer tokens (a SCIM token is no user and reaches nothing else).
// Errors under /scim/v2 leave in SCIM's shape (platform/http/error-handler.ts).
// Bodies are read by inputs.ts rather than route schemas: SCIM resources carry
// attributes we ignore, and a refusal must say scimType, which Ajv cannot.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppContext } from '../../platform/context.js';
import type { ScimTokenRow } from '../../platform/db/tables.js';
import { actorOf, originOf } from '../../platform/http/auth-hook.js';
import { errors, Ok, OneLineText, Uuid } from '../../platform/http/schemas.js';
import type { Http } from '../../platform/http/types.js';
import { resourceTypes, schemas, serviceProviderConfig } from './discovery.js';
import { scimError } from './errors.js';
import * as s from './service.js';

const ScimTokenSchema = Type.Object({
  id: Type.String(),
  label: Type.String(),
  hint: Type.String({ description: 'First and last characters, to recognise the token' }),
  createdAt: Type.String({ format: 'date-time' }),
  lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  revokedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

const presentToken = (t: ScimTokenRow) => ({
  id: t.id,
  label: t.label,
  hint: t.token_hint,
  createdAt: t.created_at.toISOString(),
  lastUsedAt: t.last_used_at?.toISOString() ?? null,
  revokedAt: t.revoked_at?.toISOString() ?? null,
});

export function scimTokenRoutes(app: Http, ctx: AppContext): void {
  const tags = ['scim tokens'];
  app.post(
    '/api/admin/scim-tokens',
    {
      schema: {
        tags,
        summary: 'Create a SCIM provisioning token; the secret is in this response only',
        body: Type.Object({ label: OneLineText(100) }, { additionalProperties: false }),
        response: {
          201: Type.Object({ scimToken: ScimTokenSchema, token: Type.String() }),
          ...errors(400, 401, 403),
        },
      },
    },
    async (req, reply) => {
      const { token, secret } = await s.createScimToken(ctx, actorOf(req), req.body.label);
      return reply.status(201).send({ scimToken: presentToken(token), token: secret });
    },
  );
  app.get(
    '/api/admin/scim-tokens',
    {
      schema: {
        tags,
        summary: 'Every SCIM token, newest first, revoked ones included, without secrets',
        response: { 200: Type.Object({ scimTokens: Type.Array(ScimTokenSchema) }), ...errors(401, 403) },
      },
    },
    async () => ({ scimTokens: (await s.listScimTokens(ctx)).map(presentToken) }),
  );
  app.delete(
    '/api/admin/scim-tokens/:id',
    {
      schema: {
        tags,
        summary: 'Revoke a SCIM token: requests with it are refused at once',
        params: Type.Object({ id: Uuid }),
        response: { 200: Ok, ...errors(400, 401, 403, 404) },
      },
    },
    async (req) => {
      await s.revokeScimToken(ctx, actorOf(req), req.params.id);
      return { ok: true as const };
    },
  );
}

const PREFIX = '/scim/v2';
const SCIM_TYPE = 'application/scim+json; charset=utf-8';

type Handler = (req: FastifyRequest, caller: s.ScimCaller, base: string) => Promise<unknown>;

export function scimRoutes(app: Http, ctx: AppContext): void {
  const base = `${ctx.config.publicUrl.replace(/\/$/, '')}${PREFIX}`;
  const route = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    status: number,
    handler: Handler,
  ) =>
    app.route({
      method,
      url: `${PREFIX}${url}`,
      // Not part of the REST API's document: SCIM is its own protocol (RFC 7644).
      schema: { hide: true },
      config: { auth: 'none' },
      handler: async (req: FastifyRequest, reply: FastifyReply) => {
        const caller = await s.authenticateScim(ctx, req.headers.authorization, originOf(req));
        const result = await handler(req, caller, base);
        reply.status(status);
        if (status === 204) return reply.send();
        return reply.type(SCIM_TYPE).send(JSON.stringify(result));
      },
    });
  const query = (req: FastifyRequest) => (req.query ?? {}) as Record<string, unknown>;
  const id = (req: FastifyRequest) => (req.params as { id: string }).id;

  route('GET', '/ServiceProviderConfig', 200, async (_r, _c, b) => serviceProviderConfig(b));
  route('GET', '/ResourceTypes', 200, async (_r, _c, b) => resourceTypes(b));
  route('GET', '/Schemas', 200, async () => schemas());

  route('GET', '/Users', 200, (req, _c, b) => s.listUsers(ctx, b, query(req)));
  route('POST', '/Users', 201, (req, c, b) => s.createUser(ctx, c, b, req.body));
  route('GET', '/Users/:id', 200, (req, _c, b) => s.getUser(ctx, b, id(req)));
  route('PUT', '/Users/:id', 200, (req, c, b) => s.replaceUser(ctx, c, b, id(req), req.body));
  route('PATCH', '/Users/:id', 200, (req, c, b) => s.patchUser(ctx, c, b, id(req), req.body));
  route('DELETE', '/Users/:id', 204, async (req, c) => s.removeUser(ctx, c, id(req)));

  route('GET', '/Groups', 200, (req, _c, b) => s.listGroups(ctx, b, query(req)));
  route('POST', '/Groups', 201, (req, c, b) => s.createGroup(ctx, c, b, req.body));
  route('GET', '/Groups/:id', 200, (req, _c, b) => s.getGroup(ctx, b, id(req), query(req)));
  route('PUT', '/Groups/:id', 200, (req, c, b) => s.replaceGroup(ctx, c, b, id(req), req.body));
  route('PATCH', '/Groups/:id', 204, async (req, c, b) => s.patchGroup(ctx, c, b, id(req), req.body));
  route('DELETE', '/Groups/:id', 204, async (req, c) => s.removeGroup(ctx, c, id(req)));

  // Anything else under the prefix is SCIM's 404, not the web UI's page (its catch-all serves every GET).
  for (const url of [PREFIX, `${PREFIX}/*`]) {
    app.all(url, { schema: { hide: true }, config: { auth: 'none' } }, async (req) => {
      throw scimError(404, undefined, `No SCIM endpoint ${req.method} ${req.url.split('?')[0]}`);
    });
  }
}
