// Offset pagination for REST lists: { limit, offset } in, pageInfo out. The
// bounds are the list runner's (platform/list/window.ts), which checks them
// for every door; the schema states them for the OpenAPI document.
import { Type } from 'typebox';
import { DEFAULT_PAGE, MAX_PAGE } from '../list/window.js';

export const pageQuery = (defaultLimit = DEFAULT_PAGE) => ({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: defaultLimit })),
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

export const pageOf = (q: { limit?: number; offset?: number }, defaultLimit = DEFAULT_PAGE): Page => ({
  limit: q.limit ?? defaultLimit,
  offset: q.offset ?? 0,
});
