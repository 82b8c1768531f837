// The public shape of a label (issue label, or a label group when isGroup):
// its schema, and LABEL_VIEW, which every REST answer and label event reads
// from the read model's declaration (platform/read/rest.ts).
import { Type } from 'typebox';
import { label } from '../../platform/read/entities.js';
import { restView } from '../../platform/read/rest.js';

const NullableString = Type.Union([Type.String(), Type.Null()]);

export const LabelSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: NullableString,
  color: Type.String({ description: '#rrggbb' }),
  teamId: Type.Union([Type.String(), Type.Null()], { description: 'null for a workspace-wide label' }),
  parentId: Type.Union([Type.String(), Type.Null()], { description: 'The label group it belongs to' }),
  isGroup: Type.Boolean(),
  creatorId: NullableString,
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  archivedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

/** REST's label over the read model's: the schema's keys in its order. */
export const LABEL_VIEW = restView(label, LabelSchema);
