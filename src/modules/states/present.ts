// The public shape of a workflow state: its schema, and STATE_VIEW, which
// REST's answers read from the read model's declaration (platform/read/rest.ts).
import { Type } from 'typebox';
import { workflowState } from '../../platform/read/entities.js';
import { restView } from '../../platform/read/rest.js';

export const StateSchema = Type.Object({
  id: Type.String(),
  teamId: Type.String(),
  name: Type.String(),
  type: Type.String({ description: 'triage, backlog, unstarted, started, completed or canceled' }),
  color: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  position: Type.Number(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  archivedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

/** REST's workflow state over the read model's: the schema's keys in its order. */
export const STATE_VIEW = restView(workflowState, StateSchema);
