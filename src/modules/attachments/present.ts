// The public shape of an attachment: its schema, and ATTACHMENT_VIEW, which
// every REST answer and attachment event reads from the read model's
// declaration (platform/read/rest.ts).
import { Type } from 'typebox';
import { attachment } from '../../platform/read/entities.js';
import { restView } from '../../platform/read/rest.js';

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

/** REST's attachment over the read model's: the schema's keys in its order. */
export const ATTACHMENT_VIEW = restView(attachment, AttachmentSchema);
