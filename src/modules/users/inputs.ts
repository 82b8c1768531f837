// Input schemas for account fields, shared by registration and administration.
import { Type } from 'typebox';
import { MIN_PASSWORD_LENGTH } from '../../platform/auth/passwords.js';
import { OneLineText } from '../../platform/http/schemas.js';

export const Name = OneLineText(200);
export const Email = Type.String({ format: 'email', maxLength: 320 });
export const Password = Type.String({ minLength: MIN_PASSWORD_LENGTH, maxLength: 1000 });
export const RoleInput = Type.Union([Type.Literal('admin'), Type.Literal('member'), Type.Literal('guest')]);
export const StatusInput = Type.Union([Type.Literal('active'), Type.Literal('suspended')]);
