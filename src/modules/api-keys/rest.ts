// REST: the caller's personal API keys.
import { Type } from 'typebox';
import type { AppContext } from '../../platform/context.js';
import type { ApiKeyRow } from '../../platform/db/tables.js';
import { actorOf } from '../../platform/http/auth-hook.js';
import { errors, Ok, OneLineText, Uuid } from '../../platform/http/schemas.js';
import type { Http } from '../../platform/http/types.js';
import { createApiKey, listApiKeys, revokeApiKey } from './service.js';

const ApiKeySchema = Type.Object({
  id: Type.String(),
  label: Type.String(),
  hint: Type.String({ description: 'First and last characters, to recognise the key' }),
  createdAt: Type.String({ format: 'date-time' }),
  lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

const present = (k: ApiKeyRow) => ({
  id: k.id,
  label: k.label,
  hint: k.key_hint,
  createdAt: k.created_at.toISOString(),
  lastUsedAt: k.last_used_at?.toISOString() ?? null,
});

export function apiKeyRoutes(app: Http, ctx: AppContext): void {
  app.post(
    '/api/api-keys',
    {
      schema: {
        tags: ['api keys'],
        summary: 'Create a personal API key; the key is in this response only',
        body: Type.Object(
          { label: OneLineText(100) },
          {
            additionalProperties: false,
          },
        ),
        response: { 201: Type.Object({ apiKey: ApiKeySchema, key: Type.String() }), ...errors(400, 401) },
      },
    },
    async (req, reply) => {
      const { apiKey, key } = await createApiKey(ctx, actorOf(req), req.body);
      return reply.status(201).send({ apiKey: present(apiKey), key });
    },
  );

  app.get(
    '/api/api-keys',
    {
      schema: {
        tags: ['api keys'],
        summary: "The caller's API keys, newest first, without secrets",
        response: { 200: Type.Object({ apiKeys: Type.Array(ApiKeySchema) }), ...errors(401) },
      },
    },
    async (req) => ({ apiKeys: (await listApiKeys(ctx, actorOf(req))).map(present) }),
  );

  app.delete(
    '/api/api-keys/:id',
    {
      schema: {
        tags: ['api keys'],
        summary: 'Revoke one of your API keys',
        params: Type.Object({ id: Uuid }),
        response: { 200: Ok, ...errors(400, 401, 404) },
      },
    },
    async (req) => {
      await revokeApiKey(ctx, actorOf(req), req.params.id);
      return { ok: true as const };
    },
  );
}
