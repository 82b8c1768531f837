// Each REST shape is a view over the read model's declaration
// (platform/read/rest.ts): its keys must be its TypeBox schema's, in the
// schema's order (the OpenAPI document and the JSON text agree), and each key
// a field the entity declares (restView fails at load otherwise).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { COMMENT_VIEW, CommentSchema } from '../src/modules/comments/present.js';
import { CYCLE_VIEW, CycleSchema } from '../src/modules/cycles/present.js';
import { ISSUE_VIEW, IssueSchema } from '../src/modules/issues/present.js';
import { LABEL_VIEW, LabelSchema } from '../src/modules/labels/present.js';
import { MILESTONE_VIEW, MilestoneSchema } from '../src/modules/milestones/present.js';
import { PROJECT_VIEW, ProjectSchema } from '../src/modules/projects/present.js';
import { STATE_VIEW, StateSchema } from '../src/modules/states/present.js';
import { TEAM_LIST_VIEW, TEAM_VIEW, TeamListItemSchema, TeamSchema } from '../src/modules/teams/present.js';
import { USER_VIEW, UserSchema } from '../src/modules/users/present.js';
import { issue } from '../src/platform/read/entities.js';
import { restView } from '../src/platform/read/rest.js';

const VIEWS = [
  [ISSUE_VIEW, IssueSchema],
  [COMMENT_VIEW, CommentSchema],
  [LABEL_VIEW, LabelSchema],
  [STATE_VIEW, StateSchema],
  [TEAM_VIEW, TeamSchema],
  [TEAM_LIST_VIEW, TeamListItemSchema],
  [PROJECT_VIEW, ProjectSchema],
  [CYCLE_VIEW, CycleSchema],
  [MILESTONE_VIEW, MilestoneSchema],
  [USER_VIEW, UserSchema],
] as const;

test("every REST view names its schema's keys in the schema's order", () => {
  for (const [view, schema] of VIEWS) {
    assert.deepEqual(
      view.select.map((s) => s.key),
      Object.keys(schema.properties),
      view.entity.name,
    );
  }
});

test('a view of a field the declaration lacks fails when it is made', () => {
  assert.throws(() => restView(issue, { properties: { id: {}, notDeclared: {} } }), /notDeclared/);
  assert.throws(() => restView(issue, { properties: { comments: {} } }), /to-one relation/);
});
