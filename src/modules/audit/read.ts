// Reading the audit log: admins only, on every door (REST, its NDJSON export,
// GraphQL's auditEntries and auditEntryTypes). One presentation of an entry
// serves them all.
import { isIP } from 'node:net';
import type { Actor, AppContext } from '../../platform/context.js';
import { invalidField } from '../../platform/errors.js';
import { assertAdmin } from '../users/policy.js';
import { AUDIT_TYPES, type AuditType } from './catalog.js';
import { type AuditEntryRow, type AuditFilter, auditBatch, auditPage } from './queries.js';

/** An entry as the APIs show it. */
export function presentAuditEntry(e: AuditEntryRow) {
  return {
    id: e.id,
    createdAt: e.created_at.toISOString(),
    type: e.type,
    description: AUDIT_TYPES[e.type as AuditType] ?? e.type,
    actor: { kind: e.actor_kind, id: e.actor_id, label: e.actor_label },
    ip: e.ip,
    userAgent: e.user_agent,
    entity: e.entity_type ? { type: e.entity_type, id: e.entity_id, label: e.entity_label } : null,
    before: (e.before ?? null) as Record<string, unknown> | null,
    after: (e.after ?? null) as Record<string, unknown> | null,
    metadata: (e.metadata ?? {}) as Record<string, unknown>,
  };
}

/** The search's bounds, on every door (REST's `q`, GraphQL's `filter.q`). */
export const SEARCH_MAX = 200;
/** Longest address text: IPv6 with an IPv4 tail and a zone. */
export const IP_MAX = 64;

/** The free-text search as given, or a 400 naming `field` when empty or too long. */
export function checkedSearch(text: string | undefined, field: string): string | undefined {
  if (text === undefined) return undefined;
  if (text.length < 1 || text.length > SEARCH_MAX) {
    throw invalidField(field, `must be 1 to ${SEARCH_MAX} characters`);
  }
  return text;
}

/**
 * The spellings under which the address `value` may have been recorded, for an
 * exact match: an IPv4 address also IPv4-mapped (a server listening on `::`
 * sees IPv4 clients as `::ffff:a.b.c.d`), an IPv6 one also in its canonical
 * form (lower case, zeros compressed). Anything but an address is a 400 naming `field`.
 */
export function auditIpSpellings(value: string, field: string): string[] {
  const text = value.toLowerCase();
  if (text.length > IP_MAX) throw invalidField(field, 'not an IP address');
  const v4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text)?.[1] ?? text;
  if (isIP(v4) === 4) return [v4, `::ffff:${v4}`];
  if (isIP(text) !== 6) throw invalidField(field, 'not an IP address');
  let canonical = text;
  try {
    canonical = new URL(`http://[${text}]/`).hostname.slice(1, -1);
  } catch {
    // An address with a zone (fe80::1%eth0) is no URL host: matched as written.
  }
  return [...new Set([text, canonical])];
}

/** The catalogue, for filters and GraphQL's auditEntryTypes. */
export const auditEntryTypes = () =>
  Object.entries(AUDIT_TYPES).map(([type, description]) => ({ type, description }));

export async function listAuditEntries(
  ctx: AppContext,
  actor: Actor,
  filter: AuditFilter,
  page: { limit: number; offset: number },
) {
  assertAdmin(actor);
  const { rows, total } = await auditPage(ctx.db, filter, page);
  return { entries: rows.map(presentAuditEntry), total };
}

/** Entries read per statement of an export: memory stays bounded whatever the log's size. */
const EXPORT_BATCH = 500;

/** Every matching entry, newest first, one JSON line each, read a batch at a time. */
export async function* exportAuditEntries(ctx: AppContext, actor: Actor, filter: AuditFilter) {
  assertAdmin(actor);
  let after: { createdAt: Date; id: string } | null = null;
  for (;;) {
    const rows = await auditBatch(ctx.db, filter, after, EXPORT_BATCH);
    if (rows.length === 0) return;
    yield `${rows.map((r) => JSON.stringify(presentAuditEntry(r))).join('\n')}\n`;
    const last = rows[rows.length - 1]!;
    after = { createdAt: last.created_at, id: last.id };
    if (rows.length < EXPORT_BATCH) return;
  }
}
