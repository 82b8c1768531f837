// Reading SCIM resources sent by identity providers into what we store, and
// applying PATCH operations (scim-patch) to our representation first. What
// providers really send is accepted: Entra ID's capitalised ops ("Replace"),
// `"active": "False"` as a string, path-less replace with an object value;
// Okta's whole-user PUT.
import { scimPatch } from 'scim-patch';
import { scimError } from './errors.js';
import { PATCH_SCHEMA, type ScimGroup, type ScimUser } from './present.js';

export interface UserInput {
  email: string;
  name: string;
  active: boolean;
  externalId: string | null;
}

export interface GroupInput {
  displayName: string;
  externalId: string | null;
  /** Member user ids, without repeats. */
  members: string[];
}

const NAME_MAX = 100;
const EXTERNAL_ID_MAX = 255;
const EMAIL_MAX = 320;
const MEMBERS_MAX = 1000;
const OPERATIONS_MAX = 100;
// Control characters would corrupt what the UI and emails show.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to refuse them
const CONTROL = /[\u0000-\u001f\u007f]/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const invalidValue = (detail: string) => scimError(400, 'invalidValue', detail);

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function text(v: unknown, what: string, max: number): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw invalidValue(`${what} must be a string`);
  const t = v.trim();
  if (t === '' || t.length > max || CONTROL.test(t)) {
    throw invalidValue(`${what} must be 1 to ${max} characters on one line`);
  }
  return t;
}

/** `active` as a boolean; Entra ID sends "True"/"False" as strings. */
function activeOf(v: unknown): boolean | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string' && /^(true|false)$/i.test(v)) return v.toLowerCase() === 'true';
  throw invalidValue('active must be true or false');
}

function nameParts(r: Record<string, unknown>) {
  const name = isObject(r['name']) ? r['name'] : {};
  const given = text(name['givenName'], 'name.givenName', NAME_MAX);
  const family = text(name['familyName'], 'name.familyName', NAME_MAX);
  return {
    displayName: text(r['displayName'], 'displayName', NAME_MAX),
    formatted: text(name['formatted'], 'name.formatted', NAME_MAX),
    composed: given || family ? [given, family].filter(Boolean).join(' ') : undefined,
  };
}

/**
 * A User resource as sent (POST, PUT) or as it reads after a PATCH. With
 * `before` (PATCH), the name a provider changed wins: Entra ID patches
 * name.givenName alone and the displayName it sent earlier must not undo it.
 */
export function readUser(body: unknown, before?: ScimUser): UserInput {
  if (!isObject(body)) throw scimError(400, 'invalidSyntax', 'The body must be a JSON object');
  // userName is the account's email (docs/identity.md); emails are a mirror of it.
  const email = text(body['userName'], 'userName', EMAIL_MAX);
  if (!email) throw invalidValue('userName is required');
  if (!EMAIL.test(email)) throw invalidValue('userName must be an email address');
  const parts = nameParts(body);
  let name: string | undefined;
  if (before) {
    const old = nameParts(before as unknown as Record<string, unknown>);
    if (parts.displayName && parts.displayName !== old.displayName) name = parts.displayName;
    else if (parts.formatted && parts.formatted !== old.formatted) name = parts.formatted;
    else if (parts.composed && parts.composed !== old.composed) name = parts.composed;
    else name = before.displayName;
  } else {
    name = parts.displayName ?? parts.formatted ?? parts.composed ?? email.split('@')[0];
  }
  if (!name || name.length > NAME_MAX) throw invalidValue(`The name must be 1 to ${NAME_MAX} characters`);
  return {
    email: email.toLowerCase(),
    name,
    active: activeOf(body['active']) ?? true,
    externalId: text(body['externalId'], 'externalId', EXTERNAL_ID_MAX) ?? null,
  };
}

export function readGroup(body: unknown): GroupInput {
  if (!isObject(body)) throw scimError(400, 'invalidSyntax', 'The body must be a JSON object');
  const displayName = text(body['displayName'], 'displayName', NAME_MAX);
  if (!displayName) throw invalidValue('displayName is required');
  const members = body['members'] ?? [];
  if (!Array.isArray(members)) throw invalidValue('members must be an array');
  if (members.length > MEMBERS_MAX) throw invalidValue(`A group has at most ${MEMBERS_MAX} members`);
  const ids = members.map((m) => {
    if (!isObject(m) || typeof m['value'] !== 'string')
      throw invalidValue('Each member needs a value (a user id)');
    return m['value'];
  });
  return {
    displayName,
    externalId: text(body['externalId'], 'externalId', EXTERNAL_ID_MAX) ?? null,
    members: [...new Set(ids)],
  };
}

/** The body of a PATCH (RFC 7644 §3.5.2), applied to `resource`; any scim-patch refusal is a 400. */
export function applyPatch<T extends ScimUser | ScimGroup>(resource: T, body: unknown): T {
  if (!isObject(body)) throw scimError(400, 'invalidSyntax', 'The body must be a JSON object');
  const schemas = body['schemas'];
  if (!Array.isArray(schemas) || !schemas.includes(PATCH_SCHEMA)) {
    throw scimError(400, 'invalidSyntax', `schemas must include ${PATCH_SCHEMA}`);
  }
  const ops = body['Operations'];
  if (!Array.isArray(ops) || ops.length === 0 || ops.length > OPERATIONS_MAX) {
    throw scimError(400, 'invalidSyntax', `Operations must be an array of 1 to ${OPERATIONS_MAX} operations`);
  }
  for (const op of ops) {
    if (!isObject(op) || typeof op['op'] !== 'string' || !/^(add|remove|replace)$/i.test(op['op'])) {
      throw scimError(400, 'invalidSyntax', 'Each operation needs op: add, remove or replace');
    }
    if (op['path'] !== undefined && typeof op['path'] !== 'string') {
      throw scimError(400, 'invalidPath', 'path must be a string');
    }
  }
  // Work on a copy: scim-patch changes what it is given.
  const copy = structuredClone(resource);
  try {
    // Operations are normalised to lower case: scim-patch accepts Entra ID's "Replace" too, but not every casing.
    const normalised = ops.map((op) => ({
      ...(op as object),
      op: String((op as { op: string }).op).toLowerCase(),
    }));
    return scimPatch(copy as never, normalised as never, { mutateDocument: true }) as unknown as T;
  } catch (err) {
    const detail = err instanceof Error ? err.message : 'The patch cannot be applied';
    const type = /target/i.test(detail) ? 'noTarget' : /path/i.test(detail) ? 'invalidPath' : 'invalidValue';
    throw scimError(400, type, detail.slice(0, 300));
  }
}
