// The SCIM representations of our rows (RFC 7643 §4): a User is an account,
// a Group is a team and its members.
import type { TeamRow, UserRow } from '../../platform/db/tables.js';

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

export interface ScimUser {
  schemas: string[];
  id: string;
  externalId?: string;
  userName: string;
  name: { formatted: string; givenName: string; familyName: string };
  displayName: string;
  active: boolean;
  emails: { value: string; type: string; primary: boolean }[];
  meta: { resourceType: 'User'; created: string; lastModified: string; location: string };
}

export interface ScimGroup {
  schemas: string[];
  id: string;
  externalId?: string;
  displayName: string;
  members?: { value: string; display: string; $ref: string }[];
  meta: { resourceType: 'Group'; created: string; lastModified: string; location: string };
}

/** givenName is the first word of the name, familyName the rest: the one name we keep, split. */
export function splitName(name: string): { givenName: string; familyName: string } {
  const [given = '', ...rest] = name.trim().split(/\s+/);
  return { givenName: given, familyName: rest.join(' ') };
}

export function presentUser(u: UserRow, base: string): ScimUser {
  return {
    schemas: [USER_SCHEMA],
    id: u.id,
    ...(u.external_id !== null ? { externalId: u.external_id } : {}),
    userName: u.email,
    name: { formatted: u.name, ...splitName(u.name) },
    displayName: u.name,
    active: u.status === 'active',
    emails: [{ value: u.email, type: 'work', primary: true }],
    meta: {
      resourceType: 'User',
      created: u.created_at.toISOString(),
      lastModified: u.updated_at.toISOString(),
      location: `${base}/Users/${u.id}`,
    },
  };
}

export function presentGroup(
  t: TeamRow,
  members: { user_id: string; name: string }[] | undefined,
  base: string,
): ScimGroup {
  return {
    schemas: [GROUP_SCHEMA],
    id: t.id,
    ...(t.external_id !== null ? { externalId: t.external_id } : {}),
    displayName: t.name,
    ...(members
      ? {
          members: members.map((m) => ({
            value: m.user_id,
            display: m.name,
            $ref: `${base}/Users/${m.user_id}`,
          })),
        }
      : {}),
    meta: {
      resourceType: 'Group',
      created: t.created_at.toISOString(),
      lastModified: t.updated_at.toISOString(),
      location: `${base}/Groups/${t.id}`,
    },
  };
}

export const listResponse = (resources: unknown[], total: number, startIndex: number) => ({
  schemas: [LIST_SCHEMA],
  totalResults: total,
  startIndex,
  itemsPerPage: resources.length,
  Resources: resources,
});
