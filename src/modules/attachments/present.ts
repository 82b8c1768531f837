// The public shape of an attachment, shared by REST, GraphQL and webhook payloads.
import { Type } from 'typebox';
import type { AttachmentRow } from '../../platform/db/tables.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function presentAttachment(a: AttachmentRow) {
  return {
    id: a.id,
    issueId: a.issue_id,
    title: a.title,
    subtitle: a.subtitle,
    url: a.url,
    metadata: a.metadata,
    creatorId: a.creator_id,
    sourceType: a.source_type,
    groupBySource: a.group_by_source,
    createdAt: a.created_at.toISOString(),
    updatedAt: a.updated_at.toISOString(),
    archivedAt: iso(a.archived_at),
  };
}

export type AttachmentJson = ReturnType<typeof presentAttachment>;

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const DateTime = Type.String({ format: 'date-time' });

export const AttachmentSchema = Type.Object({
  id: Type.String(),
  issueId: Type.String(),
  title: Type.String(),
  subtitle: Nullable(Type.String()),
  url: Type.String(),
  metadata: Type.Record(Type.String(), Type.Unknown()),
  creatorId: Nullable(Type.String()),
  sourceType: Nullable(Type.String()),
  groupBySource: Type.Boolean(),
  createdAt: DateTime,
  updatedAt: DateTime,
  archivedAt: Nullable(DateTime),
});
