// The public shape of a user: never the password hash or session epoch.
import { Type } from 'typebox';
import { user } from '../../platform/read/entities.js';
import { restView } from '../../platform/read/rest.js';

export const UserSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  displayName: Type.String(),
  email: Type.String(),
  role: Type.Union([Type.Literal('admin'), Type.Literal('member'), Type.Literal('guest')]),
  // 'app': an OAuth app's own user, named on what the app wrote under its name (docs/agents.md).
  status: Type.Union([Type.Literal('active'), Type.Literal('suspended'), Type.Literal('app')]),
  avatarUrl: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

/** REST's user over the read model's (platform/read). */
export const USER_VIEW = restView(user, UserSchema);
