// The public shape of a user: never the password hash or session epoch.
// USER_VIEW reads it from the read model's declaration (platform/read/rest.ts)
// for the users routes; presentUser maps a row by hand for the sign-in routes
// and a team's member list, which answer rows they already hold.

import { Type } from 'typebox';
import type { UserRow } from '../../platform/db/tables.js';
import { user } from '../../platform/read/entities.js';
import { restView } from '../../platform/read/rest.js';

export interface UserJson {
  id: string;
  name: string;
  displayName: string;
  email: string;
  role: UserRow['role'];
  status: UserRow['status'];
  avatarUrl: string | null;
  createdAt: string;
  updatedAt: string;
}

export function presentUser(u: UserRow): UserJson {
  return {
    id: u.id,
    name: u.name,
    displayName: u.display_name,
    email: u.email,
    role: u.role,
    status: u.status,
    avatarUrl: u.avatar_url,
    createdAt: u.created_at.toISOString(),
    updatedAt: u.updated_at.toISOString(),
  };
}

export const UserSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  displayName: Type.String(),
  email: Type.String(),
  role: Type.Union([Type.Literal('admin'), Type.Literal('member'), Type.Literal('guest')]),
  status: Type.Union([Type.Literal('active'), Type.Literal('suspended')]),
  avatarUrl: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

/** REST's user over the read model's: the schema's keys in its order. */
export const USER_VIEW = restView(user, UserSchema);
