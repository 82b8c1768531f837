// recordAudit: one entry of the audit log, written in the caller's transaction
// (pass the transaction as `db`), so a change and its entry commit together and
// a refused change leaves none. Failed sign-ins, which change nothing, are
// written on their own.
import type { Actor } from '../../platform/context.js';
import type { Db } from '../../platform/db/database.js';
import { type AuditType, isAuditType } from './catalog.js';
import { insertAuditEntry } from './queries.js';

export interface AuditActor {
  kind: 'user' | 'apiKey' | 'scim' | 'sso' | 'system' | 'anonymous';
  id?: string | null;
  /** Email or label at the time: the entry must read the same after the user is renamed or gone. */
  label: string;
  ip?: string | null;
  userAgent?: string | null;
}

export interface AuditInput {
  type: AuditType;
  actor: AuditActor;
  /** What it was done to: `type` an entity kind ('user', 'apiKey', 'team', ...). */
  entity?: { type: string; id: string; label?: string | null };
  /** The changed fields before and after (only those that changed, never a secret). */
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  metadata?: Record<string, unknown>;
}

/** Longest user agent kept: a header is client-chosen and must not grow the log without bound. */
const USER_AGENT_MAX = 512;

export async function recordAudit(db: Db, input: AuditInput): Promise<void> {
  if (!isAuditType(input.type)) throw new Error(`unknown audit type ${input.type}`);
  await insertAuditEntry(db, {
    type: input.type,
    actor_kind: input.actor.kind,
    actor_id: input.actor.id ?? null,
    actor_label: input.actor.label,
    ip: input.actor.ip ?? null,
    user_agent: input.actor.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
    entity_type: input.entity?.type ?? null,
    entity_id: input.entity?.id ?? null,
    entity_label: input.entity?.label ?? null,
    before: input.before ? JSON.stringify(input.before) : null,
    after: input.after ? JSON.stringify(input.after) : null,
    metadata: JSON.stringify(input.metadata ?? {}),
  });
}

/** The audit actor of a signed-in caller (by session or API key), with the request's origin when known. */
export function auditActorOf(actor: Actor): AuditActor {
  return {
    kind: actor.via === 'apiKey' ? 'apiKey' : 'user',
    id: actor.id,
    // An app acting under its own name: the person whose access it used, and the app.
    label: actor.app ? `${actor.email} via ${actor.app.name} (app)` : actor.email,
    ip: actor.origin?.ip ?? null,
    userAgent: actor.origin?.userAgent ?? null,
  };
}

/** The fields of `after` whose value differs from `before`, as an entry's before and after. */
export function changes<T extends Record<string, unknown>>(
  before: T,
  after: Partial<T>,
): { before: Record<string, unknown>; after: Record<string, unknown> } | undefined {
  const b: Record<string, unknown> = {};
  const a: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(after)) {
    if (value === undefined || JSON.stringify(value) === JSON.stringify(before[key])) continue;
    b[key] = before[key] ?? null;
    a[key] = value;
  }
  return Object.keys(a).length ? { before: b, after: a } : undefined;
}

/** What an entry says of a user it is about. */
export const userEntity = (u: { id: string; email: string }) => ({ type: 'user', id: u.id, label: u.email });
