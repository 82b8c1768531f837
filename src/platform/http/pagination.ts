// Offset pagination for REST lists: { limit, offset } in, pageInfo out.
import { Type } from 'typebox';

export const MAX_LIMIT = 250;

export const pageQuery = (defaultLimit = 50) => ({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LIMIT, default: defaultLimit })),
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
});

export const PageInfo = Type.Object({
  total: Type.Integer(),
  limit: Type.Integer(),
  offset: Type.Integer(),
});

export interface Page {
  limit: number;
  offset: number;
}

export const pageOf = (q: { limit?: number; offset?: number }, defaultLimit = 50): Page => ({
  limit: q.limit ?? defaultLimit,
  offset: q.offset ?? 0,
});
