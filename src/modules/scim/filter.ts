// SCIM filters (RFC 7644 §3.4.2.2) compiled to SQL over an allow-list of
// attributes. Only equality, joined by and/or, is supported: it is what
// identity providers send (Entra ID: `userName eq "…"`, `externalId eq "…"`,
// `displayName eq "…"`; Okta: `userName eq "…"`), and every allowed attribute
// has an index the comparison can use. Anything else is a 400 invalidFilter.

import { type Expression, type SqlBool, sql } from 'kysely';
import { parse } from 'scim2-parse-filter';
import { isUuid } from '../../platform/ids.js';
import { scimError } from './errors.js';

/** A column (or expression) and how a filter value is compared with it. */
interface Attribute {
  column: string;
  /** userName and emails are compared case-insensitively (caseExact false), against lower(email)'s index. */
  lower?: boolean;
  uuid?: boolean;
}

export const USER_FILTER_ATTRIBUTES: Record<string, Attribute> = {
  username: { column: 'u.email', lower: true },
  'emails.value': { column: 'u.email', lower: true },
  externalid: { column: 'u.external_id' },
  id: { column: 'u.id', uuid: true },
};

export const GROUP_FILTER_ATTRIBUTES: Record<string, Attribute> = {
  displayname: { column: 't.name' },
  externalid: { column: 't.external_id' },
  id: { column: 't.id', uuid: true },
};

/** Longest filter accepted: a provider's filter is one or two comparisons. */
const MAX_FILTER_LENGTH = 1000;

const invalid = (detail: string) => scimError(400, 'invalidFilter', detail);

type Parsed = ReturnType<typeof parse>;

export function compileFilter(text: string, attributes: Record<string, Attribute>): Expression<SqlBool> {
  if (text.length > MAX_FILTER_LENGTH) throw invalid('The filter is too long');
  let parsed: Parsed;
  try {
    parsed = parse(text);
  } catch {
    throw invalid('The filter is not a valid SCIM filter');
  }
  return compile(parsed, attributes, 0);
}

function compile(f: Parsed, attributes: Record<string, Attribute>, depth: number): Expression<SqlBool> {
  if (depth > 10) throw invalid('The filter nests too deeply');
  if (f.op === 'and' || f.op === 'or') {
    const parts = f.filters.map((g) => compile(g, attributes, depth + 1));
    const joiner = f.op === 'and' ? sql` and ` : sql` or `;
    return sql<SqlBool>`(${sql.join(parts, joiner)})`;
  }
  if (f.op !== 'eq') throw invalid(`The operator ${f.op} is not supported; use eq`);
  // "urn:…:User:userName" is the same attribute as "userName".
  const name = f.attrPath.replace(/^urn:ietf:params:scim:schemas:core:2\.0:(User|Group):/i, '');
  const key = name.toLowerCase() === 'emails.value' ? 'emails.value' : name.toLowerCase();
  const attribute = Object.hasOwn(attributes, key) ? attributes[key] : undefined;
  if (!attribute) throw invalid(`Filtering on ${name} is not supported`);
  const value = f.compValue;
  if (typeof value !== 'string') throw invalid(`${name} is compared with a string`);
  if (attribute.uuid && !isUuid(value)) return sql<SqlBool>`false`;
  const column = sql.ref(attribute.column);
  return attribute.lower
    ? sql<SqlBool>`lower(${column}) = ${value.toLowerCase()}`
    : sql<SqlBool>`${column} = ${value}`;
}
